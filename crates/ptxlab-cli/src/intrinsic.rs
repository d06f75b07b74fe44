//! `ptxlab intrinsic`: evaluate a CUDA SIMD or integer intrinsic by its meaning, list and search
//! them, and show what nvcc makes of each (PTX on sm_90, machine instructions per architecture).

use std::io::{BufRead, Write};

use ptxlab_core::intrinsics::{self, Evaluation, Intrinsic};
use ptxlab_core::program::{Machine, Step};
use ptxlab_core::value::parse_value;
use serde::Serialize;

pub const USAGE: &str = "\
  ptxlab intrinsic NAME ARG... [--trace] [--json]
                                       evaluate a CUDA intrinsic (__vcmpgtu4, __dp4a ...):
                                       prints d = 0xHEX; ARG as hex, decimal, negative or
                                       binary; --trace adds the meaning, the lanes, the PTX
                                       nvcc emits, that PTX run step by step with each
                                       instruction's stages (as ptxlab run --trace), and the
                                       machine instructions per GPU; --json has the steps too
  ptxlab intrinsic --list              every intrinsic with its meaning in one line
  ptxlab intrinsic --search TEXT       by name or by what it does ('unsigned byte compare')
  ptxlab intrinsic --batch [FILE]      one 'NAME ARG...' a line (standard input without FILE);
                                       prints one result a line in hex (then pred=0/1 ... for
                                       the __vibmax/__vibmin bools)
";

/// Hex of the result, as wide as its type.
pub fn hex(i: &Intrinsic, v: u64) -> String {
    format!("0x{:0w$x}", v, w = (i.result.bits() / 4) as usize)
}

/// Read the arguments of a call as the operand values of its C types.
pub fn parse_args(i: &Intrinsic, args: &[&str]) -> Result<Vec<u64>, String> {
    // `a=V b=V c=V` as `ptxlab eval` takes them, in any order, or plain values in order.
    if !args.is_empty() && args.iter().all(|s| named(s).is_some()) {
        let mut slots: Vec<Option<&str>> = vec![None; args.len().max(i.args.len())];
        for s in args {
            let (k, v) = named(s).unwrap_or((0, s));
            if k >= slots.len() || slots[k].replace(v).is_some() {
                return Err(format!(
                    "{}: argument '{s}' is given twice or is not one of {}",
                    i.name,
                    ["a", "b", "c"][..i.args.len()].join(", ")
                ));
            }
        }
        let ordered: Vec<&str> = slots.iter().flatten().copied().collect();
        if ordered.len() == slots.len() && slots.len() == i.args.len() {
            return parse_args(i, &ordered);
        }
    }
    if args.len() != i.args.len() {
        let types: Vec<&str> = i.args.iter().map(|t| t.c_name()).collect();
        return Err(format!(
            "{} takes {} argument{} ({}), got {}",
            i.name,
            i.args.len(),
            if i.args.len() == 1 { "" } else { "s" },
            types.join(", "),
            args.len()
        ));
    }
    args.iter()
        .zip(&i.args)
        .enumerate()
        .map(|(n, (s, t))| {
            parse_value(s, t.bits(), None)
                .map_err(|e| format!("argument {} of {} ({}): {e}", n + 1, i.name, t.c_name()))
        })
        .collect()
}

/// `a=0x12` -> (0, "0x12").
fn named(s: &str) -> Option<(usize, &str)> {
    let (k, v) = s.split_once('=')?;
    let idx = ["a", "b", "c"].iter().position(|n| *n == k.trim())?;
    Some((idx, v))
}

/// The intrinsic of a name, or a message naming the closest ones.
pub fn lookup(name: &str) -> Result<&'static Intrinsic, String> {
    intrinsics::find(name).ok_or_else(|| {
        let near: Vec<&str> = intrinsics::search(name.trim_start_matches('_'))
            .iter()
            .take(6)
            .map(|i| i.name)
            .collect();
        if near.is_empty() {
            format!("unknown intrinsic '{name}' (ptxlab intrinsic --list shows them all)")
        } else {
            format!(
                "unknown intrinsic '{name}'; did you mean {}?",
                near.join(", ")
            )
        }
    })
}

/// Evaluate one call written as words: `NAME ARG...`; `__vibmax_*` / `__vibmin_*` also give
/// their bools (`pred = 1` ...).
pub fn call(words: &[&str]) -> Result<(&'static Intrinsic, Evaluation), String> {
    let (name, args) = words.split_first().ok_or("empty call: write NAME ARG...")?;
    let i = lookup(name)?;
    let vals = parse_args(i, args)?;
    let e = intrinsics::evaluate(i, &vals).map_err(|e| e.to_string())?;
    Ok((i, e))
}

/// The recorded PTX run on the call's arguments.
pub fn run_program(i: &Intrinsic, e: &Evaluation) -> Result<Machine, String> {
    let mut m = intrinsics::machine(i, &e.args).map_err(|e| e.to_string())?;
    m.run();
    Ok(m)
}

/// The `--trace` text of the program: every step with its stages, then what it left in `%d`
/// (and the bools) beside the meaning's answer.
pub fn render_program(i: &Intrinsic, e: &Evaluation, m: &Machine) -> String {
    let mut s =
        "the PTX run as a program (ptxlab run --trace), with %a %b %c the arguments:\n".to_string();
    s += &crate::run::render_steps(m);
    let (d, outs) = intrinsics::program_outcome(i, m);
    let show = |v: Option<u64>, want: u64, text: String| -> String {
        match v {
            Some(v) if v == want => format!("{text}, as the meaning gives\n"),
            Some(_) => format!("{text}, but the meaning gives {}\n", hex(i, want)),
            None => "never written\n".to_string(),
        }
    };
    s += &format!(
        "program d = {}",
        show(d, e.result, d.map_or("?".into(), |v| hex(i, v)))
    );
    for ((name, v), (_, want)) in outs.iter().zip(&e.outputs) {
        s += &format!(
            "program {name} = {}",
            show(*v, *want, v.map_or("?".into(), |v| v.to_string()))
        );
    }
    s
}

#[derive(Serialize)]
struct JsonProgram<'a> {
    d: Option<String>,
    outputs: Vec<(&'static str, Option<u64>)>,
    steps: &'a [Step],
}

#[derive(Serialize)]
struct JsonOut<'a> {
    name: &'a str,
    d: String,
    args: Vec<String>,
    meaning: &'a str,
    evaluation: &'a Evaluation,
    ptx: &'a [&'static str],
    cost: &'a [intrinsics::ArchCost],
    sass_sm90: &'a [&'static str],
    doc_url: &'a str,
    note: Option<&'a str>,
    program: JsonProgram<'a>,
}

/// The `--trace` text: meaning, lanes, PTX, machine code per architecture.
pub fn render_trace(i: &Intrinsic, e: &Evaluation) -> String {
    let mut s = format!("{}: {}\n", i.name, i.meaning);
    if let Some(n) = i.note {
        s += &format!("note: {n}\n");
    }
    let names = ["a", "b", "c"];
    s += "lanes:\n";
    for l in &e.lanes {
        let w = (l.bits as usize).div_ceil(4);
        let ins: Vec<String> = l
            .inputs
            .iter()
            .enumerate()
            .map(|(k, v)| format!("{}=0x{:0w$x}", names.get(k).unwrap_or(&"?"), v))
            .collect();
        s += &format!("  [{}] {} -> 0x{:0w$x}\n", l.index, ins.join(" "), l.output);
    }
    if let Some(c) = e.addend {
        s += &format!("  + c = 0x{c:08x}\n");
    }
    s += "PTX (nvcc -arch=sm_90):\n";
    for p in &i.ptx {
        s += &format!("  {p}\n");
    }
    s += "machine instructions:\n";
    for c in &i.cost {
        s += &format!(
            "  sm_{:<3} {:>2} {:<15} {}\n",
            c.arch,
            c.count(),
            c.kind.name(),
            c.opcodes.join(" ")
        );
    }
    s += &format!("docs: {}\n", i.doc_url);
    s
}

pub fn run(args: &[String]) -> Result<bool, String> {
    let mut json = false;
    let mut trace = false;
    let mut words: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--trace" => trace = true,
            "--list" => {
                for i in intrinsics::all() {
                    outln!("{:<22} {}", i.name, i.meaning);
                }
                return Ok(true);
            }
            "--search" => {
                let text: Vec<&str> = it.by_ref().map(String::as_str).collect();
                if text.is_empty() {
                    return Err("--search needs some text ('unsigned byte compare')".into());
                }
                let found = intrinsics::search(&text.join(" "));
                for i in &found {
                    outln!("{:<22} {}", i.name, i.meaning);
                }
                return Ok(!found.is_empty());
            }
            "--batch" => return batch(it.next().map(String::as_str)),
            _ => words.push(a),
        }
    }
    if words.is_empty() {
        return Err(format!("intrinsic: name a call\nusage:\n{USAGE}"));
    }
    let (i, e) = call(&words)?;
    let m = if json || trace {
        Some(run_program(i, &e)?)
    } else {
        None
    };
    if let (true, Some(m)) = (json, &m) {
        let (d, outputs) = intrinsics::program_outcome(i, m);
        let out = JsonOut {
            name: i.name,
            d: hex(i, e.result),
            args: e
                .args
                .iter()
                .zip(&i.args)
                .map(|(v, t)| format!("0x{:0w$x}", v, w = (t.bits() / 4) as usize))
                .collect(),
            meaning: i.meaning,
            evaluation: &e,
            ptx: &i.ptx,
            cost: &i.cost,
            sass_sm90: &i.sass_sm90,
            doc_url: i.doc_url,
            note: i.note,
            program: JsonProgram {
                d: d.map(|v| hex(i, v)),
                outputs,
                steps: m.history(),
            },
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        outln!("d = {}", hex(i, e.result));
        for (name, v) in &e.outputs {
            outln!("{name} = {v}");
        }
        if let (true, Some(m)) = (trace, &m) {
            out!("{}", render_trace(i, &e));
            out!("{}", render_program(i, &e, m));
        }
    }
    Ok(true)
}

/// Many calls, one a line; a bad line prints `error: ...` in its place.
fn batch(file: Option<&str>) -> Result<bool, String> {
    let input: Box<dyn BufRead> = match file {
        None | Some("-") => Box::new(std::io::stdin().lock()),
        Some(p) => Box::new(std::io::BufReader::new(
            std::fs::File::open(p).map_err(|e| format!("{p}: {e}"))?,
        )),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut ok = true;
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let text = match call(&words) {
            Ok((i, e)) => {
                let mut t = hex(i, e.result);
                for (name, v) in &e.outputs {
                    t += &format!(" {name}={v}");
                }
                t
            }
            Err(e) => {
                ok = false;
                format!("error: {e}")
            }
        };
        writeln!(out, "{text}").map_err(|e| e.to_string())?;
    }
    Ok(ok)
}
