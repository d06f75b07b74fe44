//! `ptxlab run FILE|- [REG=VALUE]... [--trace] [--json]`: run a straight-line program.

use std::io::Read;
use std::process::ExitCode;

use ptxlab_core::program::{memory, parse_program, Machine};

use crate::{parse_value, render_trace};

pub const USAGE: &str = "\
  ptxlab run FILE|- [NAME=VALUE]... [--mem [SPACE:]ADDR=HEXBYTES]... [--max-steps N]
             [--trace] [--json]
                                       run a program, or one thread of an .entry ('-': standard
                                       input); NAME is a register, a parameter or a special
                                       register (%tid.x=5); registers not given start at 0;
                                       --mem puts bytes (lowest address first) in global memory
                                       or SPACE (shared, local, const, param); prints every
                                       register written as NAME = 0xHEX, then every byte range
                                       written as mem 0xADDR = 04 03 02 01; --trace: every
                                       step's stages; --max-steps: stop a loop (100000)";

/// Hex of `v` padded to a register of `bits` bits.
pub fn hex(v: u64, bits: u32) -> String {
    let digits = bits.div_ceil(4).max(1) as usize;
    format!("0x{v:0digits$x}")
}

/// Read a register value: a number as `ptxlab eval` takes it, or true/false for predicates.
fn value(s: &str) -> Result<u64, String> {
    match s {
        "true" => Ok(1),
        "false" => Ok(0),
        _ => parse_value(s),
    }
}

/// Run the command; what it prints goes to standard output, problems to standard error.
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(out) => {
            out!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// The whole command as a function: its standard output, or the message for standard error.
pub fn run(args: &[String]) -> Result<String, String> {
    let (mut trace, mut json) = (false, false);
    let mut file = None;
    let mut init = Vec::new();
    let mut fills = Vec::new();
    let mut max_steps = Machine::MAX_STEPS;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--trace" => trace = true,
            "--json" => json = true,
            "--mem" => {
                let v = it
                    .next()
                    .ok_or("--mem needs [SPACE:]ADDR=HEXBYTES, e.g. --mem 0x2000=04030201")?;
                fills.push(memory::parse_fill(v).map_err(|e| format!("--mem {v}: {e}"))?);
            }
            "--max-steps" => {
                let v = it.next().ok_or("--max-steps needs a number")?;
                max_steps = v
                    .parse()
                    .map_err(|_| format!("--max-steps {v}: not a number of steps"))?;
            }
            _ if a.contains('=') => {
                let (k, v) = a.split_once('=').expect("contains '='");
                let v = value(v).map_err(|e| format!("{k}: {e}"))?;
                init.push((k.to_string(), v));
            }
            _ if file.is_none() => file = Some(a.clone()),
            _ => return Err(format!("unexpected argument '{a}'\nusage:\n{USAGE}")),
        }
    }
    let file = file.ok_or_else(|| format!("run needs a program file or '-'\nusage:\n{USAGE}"))?;
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("standard input: {e}"))?;
        s
    } else {
        std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?
    };
    let prog = parse_program(&text).map_err(|e| e.to_string())?;
    let mut m = Machine::new(prog, &init)?;
    m.set_memory(fills);
    m.max_steps = max_steps;
    m.keep_traces = trace || json;
    m.run();
    if let Some(why) = m.stopped() {
        return Err(why.to_string());
    }
    let mut out = if trace {
        render_steps(&m)
    } else {
        String::new()
    };
    if json {
        let regs: Vec<serde_json::Value> = m
            .registers()
            .iter()
            .map(|r| {
                serde_json::json!({
                    "name": r.name,
                    "bits": r.bits,
                    "value": hex(r.value, r.bits),
                    "written_by_line": r.written_by,
                    "initial": r.initial,
                })
            })
            .collect();
        let bytes = |v: Vec<memory::Bytes>| -> Vec<serde_json::Value> {
            v.iter()
                .map(|b| {
                    serde_json::json!({
                        "space": b.space,
                        "address": format!("0x{:x}", b.address),
                        "bytes": b.hex(),
                    })
                })
                .collect()
        };
        let v = serde_json::json!({
            "registers": regs,
            "memory": bytes(m.memory().written()),
            "read": bytes(m.memory().read()),
            "steps": m.history(),
        });
        out.push_str(&serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
        out.push('\n');
        return Ok(out);
    }
    for (name, bits, v) in m.written() {
        out.push_str(&format!("{name} = {}\n", hex(v, bits)));
    }
    for b in m.memory().written() {
        let space = match b.space {
            memory::Space::Global => String::new(),
            s => format!("{s} "),
        };
        out.push_str(&format!(
            "mem {space}0x{:x} = {}\n",
            b.address,
            memory::spaced_hex(&b.bytes)
        ));
    }
    Ok(out)
}

/// Every step taken so far, as `--trace` prints it: the statement with its line, the stages of
/// the instruction (or that its guard was false), and the registers it wrote.
pub fn render_steps(m: &Machine) -> String {
    let mut out = String::new();
    for step in m.history() {
        let st = &m.program.statements[step.index];
        out.push_str(&format!("line {}: {}\n", st.line, guarded(st)));
        match &step.trace {
            None if !step.executed => out.push_str("  skipped: its guard is false\n"),
            None => {}
            Some(t) => {
                for l in render_trace(t).lines().skip(1) {
                    out.push_str(l);
                    out.push('\n');
                }
            }
        }
        for a in &step.memory {
            out.push_str(&format!(
                "  {} {} 0x{:x}: {}\n",
                if a.store { "wrote" } else { "read" },
                a.space,
                a.address,
                memory::spaced_hex(&a.bytes)
            ));
        }
        match step.taken {
            Some(true) => out.push_str(&format!(
                "  taken: on to line {}\n",
                m.program
                    .statements
                    .get(step.next)
                    .map_or("(the end)".to_string(), |s| s.line.to_string())
            )),
            Some(false) => out.push_str("  not taken\n"),
            None => {}
        }
        if step.ended {
            out.push_str("  the thread ends\n");
        }
        for w in &step.writes {
            out.push_str(&format!(
                "  {} = {} (was {})\n",
                w.reg,
                hex(w.new, w.bits),
                hex(w.old, w.bits)
            ));
        }
    }
    out
}

fn guarded(st: &ptxlab_core::program::Statement) -> String {
    match &st.guard {
        None => st.text.clone(),
        Some((neg, g)) => format!("@{}{g} {}", if *neg { "!" } else { "" }, st.text),
    }
}
