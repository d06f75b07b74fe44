//! `ptxlab`: evaluate PTX instructions, and check the semantics against measured data.

use std::path::Path;
use std::process::ExitCode;

use ptxlab_cli::{
    decide, describe_mismatch, opcode_of, parse_value, read_jsonl, render_trace, Case, Decision,
    Outcome, Tally,
};
use ptxlab_cli::{out, outln};
use ptxlab_core::{check, evaluate, widths, Inputs, Instruction, Reading};

/// The usage text, naming the program instructions from their rows.
fn usage() -> String {
    // Wrapped to the text's width, under its indentation.
    let mut list = String::new();
    let mut line = 6 + "instructions (".len();
    for (i, name) in ptxlab_core::ops::program_names().split(", ").enumerate() {
        let word = if i == 0 {
            name.to_string()
        } else {
            format!(", {name}")
        };
        if line + word.len() > 92 {
            list.push_str(",\n      ");
            list.push_str(name);
            line = 6 + name.len();
        } else {
            line += word.len();
            list.push_str(&word);
        }
    }
    USAGE.replace("PROGRAM_INSTRUCTIONS", &list)
}

const USAGE: &str = "\
usage:
  ptxlab eval 'INSTRUCTION' [a=V] [b=V] [c=V] [e=V] [CC.CF=V] [--trace] [--json]
             [--reading hardware|text] [--compare]
      V: hex (0x1234), decimal (42, -5) or binary (0b101); missing sources are 0
      sources bind by position (the first source reads a, the second b ...); the program
      instructions (PROGRAM_INSTRUCTIONS)
      print every destination (setp: p and q; add.cc, addc.cc ...: d and CC.CF);
      CC.CF=V: the carry flag that addc, subc and madc read (else the position after their
      sources); --json gives {values, trace} for every instruction
      --reading text: follow the ISA text literally where the H100 departs from it
      --compare: both readings, and where they part (docs/hardware-vs-spec.md)
  ptxlab explain 'INSTRUCTION'         what it and each of its modifiers do (the Learn
                                       panel's notes), each example's d computed now
  ptxlab cuda 'INSTRUCTION'...         print a CUDA inline-assembly statement for each
  ptxlab batch 'INSTRUCTION' FILE      evaluate every operand set in FILE ('-': standard
                                       input; CSV, 'a=.. b=..' or values per line) as CSV
  ptxlab sass ['INSTRUCTION']          machine code ptxas emits for it on sm_90 (measured
                                       forms); without an instruction, list every form
  ptxlab sass 'INSTRUCTION' --arch sm_XX [--json]
                                       the lowering atlas (ptxas 13.5 -O3): that
                                       architecture's machine code and the instructions that
                                       compute; --json: {form, exact, arch, available, sass,
                                       core, native[, message]}; a form outside the atlas
                                       shows the nearest measured one (exact: false)
  ptxlab sass 'INSTRUCTION' --all-archs [--json]
                                       the table: sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120,
                                       count and core per architecture, cheapest and dearest
  ptxlab sass --forms [FILE...]        the forms scripts/atlas.py assembles (JSON lines)
  ptxlab run FILE|- [REG=VALUE]... [--trace] [--json]
                                       run a straight-line program ('-': standard input);
                                       registers not given start at 0; prints every register
                                       written as NAME = 0xHEX; --trace: every step's stages
  ptxlab vectors 'INSTRUCTION' [--edges] [--count N] [--seed S] [--format jsonl|csv|c]
                                       test vectors with the H100's d: --edges edge values,
                                       selected fields, saturation boundaries; --count N random
                                       ones; neither: both, 64 random. jsonl reads back with
                                       `ptxlab check`, csv with `ptxlab batch`
  ptxlab intrinsic NAME ARG... [--trace] [--json]
                                       a CUDA intrinsic (__vcmpgtu4 ...): d = 0xHEX
  ptxlab intrinsic --list | --search TEXT | --batch [FILE]
  ptxlab doc-html FILE.md              print a markdown document as an HTML page
  ptxlab check [--show N] FILE...      compare with measured cases (JSON lines, plain or gzip)
  ptxlab validate [--show N] FILE...   compare accept/reject with ptxas decisions
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprint!("{}", usage());
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    if cmd == "run" {
        return ptxlab_cli::run::main(rest);
    }
    let r = match cmd.as_str() {
        "eval" => cmd_eval(rest),
        "explain" => cmd_explain(rest),
        "check" => cmd_check(rest),
        "validate" => cmd_validate(rest),
        "cuda" => cmd_cuda(rest),
        "doc-html" => cmd_doc_html(rest),
        "sass" => cmd_sass(rest),
        "batch" => cmd_batch(rest),
        "vectors" => ptxlab_cli::vectors::command(rest).map(|out| {
            out!("{out}");
            true
        }),
        "intrinsic" => ptxlab_cli::intrinsic::run(rest),
        "-h" | "--help" | "help" => {
            out!("{}", usage());
            Ok(true)
        }
        other => Err(format!("unknown command '{other}'\n{}", usage())),
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("ptxlab: {e}");
            ExitCode::from(2)
        }
    }
}

/// `ptxlab explain`: the instruction's summary, then every note with its worked example.
fn cmd_explain(args: &[String]) -> Result<bool, String> {
    let [text] = args else {
        return Err(format!("explain takes one instruction\n{}", usage()));
    };
    let insn = ptxlab_core::insn::check(text).map_err(|d| d.render(text))?;
    outln!("{}: {}", insn.name(), insn.summary());
    for n in ptxlab_core::notes::for_insn(&insn) {
        outln!("- {}", n.render());
    }
    outln!("{}", ptxlab_core::isa::measured_sentence(insn.measured()));
    outln!("{}", insn.doc_url());
    Ok(true)
}

fn cmd_eval(args: &[String]) -> Result<bool, String> {
    let mut text = None;
    let mut inputs = Inputs::default();
    let mut carry = None;
    let (mut trace, mut json, mut compare) = (false, false, false);
    let mut reading = Reading::Hardware;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--trace" => trace = true,
            "--json" => json = true,
            "--compare" => compare = true,
            "--reading" => {
                reading = match it.next().map(String::as_str) {
                    Some("hardware") => Reading::Hardware,
                    Some("text") => Reading::Text,
                    other => {
                        return Err(format!(
                            "--reading takes 'hardware' or 'text', not {}",
                            other.map_or("nothing".to_string(), |s| format!("'{s}'"))
                        ))
                    }
                }
            }
            _ => {
                if let Some((k, v)) = a.split_once('=') {
                    let val = parse_value(v).map_err(|e| format!("{k}: {e}"))?;
                    match k {
                        "a" => inputs.a = val,
                        "b" => inputs.b = val,
                        "c" => inputs.c = val,
                        "e" => inputs.e = val,
                        "CC.CF" | "cf" => carry = Some(val),
                        _ => {
                            return Err(format!(
                                "unknown operand '{k}': sources are a, b, c and e, and CC.CF for the carry flag"
                            ))
                        }
                    }
                } else if text.is_none() {
                    text = Some(a.clone());
                } else {
                    return Err(format!("unexpected argument '{a}'\n{}", usage()));
                }
            }
        }
    }
    let text = text.ok_or_else(|| format!("eval needs an instruction\n{}", usage()))?;
    let checked = ptxlab_core::insn::check(&text).map_err(|d| d.render(&text))?;
    if let Some(cf) = carry {
        checked.set_carry(&mut inputs, cf)?;
    }
    if compare {
        return compare_and_print(&checked, &inputs, json);
    }
    // One path for every instruction: every destination, after the stages when asked.
    let out = checked.evaluate_reading(&inputs, reading);
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
        return Ok(true);
    }
    if trace {
        out!("{}", render_trace(&out.trace));
    }
    for w in &out.values {
        outln!("{}", ptxlab_cli::written_line(w));
    }
    Ok(true)
}

fn compare_and_print(insn: &Instruction, inputs: &Inputs, json: bool) -> Result<bool, String> {
    let div = insn.compare_readings(inputs);
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&div).map_err(|e| e.to_string())?
        );
        return Ok(true);
    }
    if insn.opcode().is_none() {
        let gpu = insn.measured().map_or("not measured", |g| g.describe());
        outln!(
            "{}: the ISA text and the GPU ({gpu}) agree: both readings are the same",
            insn.name()
        );
        return Ok(true);
    }
    let bits = widths(insn).dst;
    let digits = bits.div_ceil(4) as usize;
    match div {
        None => {
            let d = evaluate(insn, inputs);
            outln!("hardware and text agree: d = 0x{d:0digits$x}");
        }
        Some(div) => {
            outln!("hardware d = 0x{:0digits$x}", div.hardware);
            outln!("text     d = 0x{:0digits$x}", div.text);
            outln!("they part at stage {} ({})", div.stage, div.kind.name());
            if let Some(s) = &div.hardware_stage {
                outln!("  hardware: {} -> {}", s.label, s.output.hex());
            }
            if let Some(s) = &div.text_stage {
                outln!("  text:     {} -> {}", s.label, s.output.hex());
            }
            if let Some(id) = div.difference {
                outln!("why: {} ({})", id.info().title, id.doc_link());
            }
        }
    }
    Ok(true)
}

fn cmd_batch(args: &[String]) -> Result<bool, String> {
    use ptxlab_core::batch;
    use std::io::Read;
    let [text, file] = args else {
        return Err(format!(
            "batch needs an instruction and a file\n{}",
            usage()
        ));
    };
    let insn = ptxlab_core::insn::check(text).map_err(|d| d.render(text))?;
    let mut data = String::new();
    if file == "-" {
        std::io::stdin()
            .read_to_string(&mut data)
            .map_err(|e| format!("standard input: {e}"))?;
    } else {
        data = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    }
    let lines = batch::parse_batch(&data, &insn);
    let rows = batch::evaluate_batch(&insn, &lines);
    out!("{}", batch::batch_csv(&insn, &rows));
    let bad: Vec<&String> = rows.iter().filter_map(|r| r.error.as_ref()).collect();
    for e in &bad {
        eprintln!("{e}");
    }
    eprintln!("{} rows, {} unreadable", rows.len(), bad.len());
    Ok(bad.is_empty())
}

fn cmd_sass(args: &[String]) -> Result<bool, String> {
    use ptxlab_core::sass;
    if let Some(r) = ptxlab_cli::atlas::command(args) {
        return r;
    }
    match args {
        [] => {
            for f in sass::forms() {
                outln!(
                    "{:<16} {:>3}  {:<52} {}",
                    f.kind.name(),
                    f.instructions.len(),
                    f.ptx,
                    f.core.as_deref().unwrap_or("")
                );
            }
            Ok(true)
        }
        [text] => {
            let insn = check(text).map_err(|d| d.render(text))?;
            match sass::lookup(&insn) {
                None => {
                    outln!(
                        "no measured form of {} (sm_90 listings exist for {} forms)",
                        insn.name(),
                        sass::forms().len()
                    );
                    Ok(false)
                }
                Some(l) => {
                    outln!("{}", l.note);
                    outln!("{}", l.form.ptx);
                    for i in &l.form.instructions {
                        outln!("    {i}");
                    }
                    Ok(true)
                }
            }
        }
        _ => Err(format!("sass takes at most one instruction\n{}", usage())),
    }
}

fn cmd_doc_html(args: &[String]) -> Result<bool, String> {
    let [file] = args else {
        return Err(format!("doc-html needs one markdown file\n{}", usage()));
    };
    let md = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    out!("{}", ptxlab_cli::markdown_page(&md));
    Ok(true)
}

fn cmd_cuda(args: &[String]) -> Result<bool, String> {
    if args.is_empty() {
        return Err(format!("cuda needs an instruction\n{}", usage()));
    }
    for text in args {
        let insn = ptxlab_core::insn::check(text).map_err(|d| d.render(text))?;
        outln!("{}", ptxlab_core::cuda::asm_statement(&insn));
    }
    Ok(true)
}

/// Split `--show N` from file names.
fn files_and_show(args: &[String]) -> Result<(Vec<&String>, usize), String> {
    let mut show = 10;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--show" {
            let n = it.next().ok_or("--show needs a number")?;
            show = n
                .parse()
                .map_err(|_| format!("--show needs a number, not '{n}'"))?;
        } else {
            files.push(a);
        }
    }
    if files.is_empty() {
        return Err(format!("no files given\n{}", usage()));
    }
    Ok((files, show))
}

/// Read every line of every file as a `T`, judge it with `judge` (giving its opcode, whether it
/// passed, and a message when not), print the first `show` messages, the failures per opcode
/// (under `what`) and the closing `N passed, M failed` line.
fn run_files<T, F>(args: &[String], what: &str, mut judge: F) -> Result<bool, String>
where
    T: for<'de> serde::Deserialize<'de>,
    F: FnMut(&str, usize, T) -> (String, bool, Option<String>),
{
    let (files, show) = files_and_show(args)?;
    let mut tally = Tally::default();
    let mut shown = 0;
    for f in files {
        let lines = read_jsonl::<T>(Path::new(f)).map_err(|e| format!("{f}: {e}"))?;
        for (n, item) in lines {
            let (op, ok, msg) = match item {
                Err(e) => (
                    String::from("(unreadable)"),
                    false,
                    Some(format!("{f}: {e}")),
                ),
                Ok(item) => judge(f, n, item),
            };
            tally.record(&op, ok);
            if let Some(m) = msg {
                if shown < show {
                    outln!("{m}");
                    shown += 1;
                }
            }
        }
    }
    if !tally.by_opcode.is_empty() {
        let per: Vec<String> = tally
            .by_opcode
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        outln!("{what} by opcode: {}", per.join(", "));
    }
    outln!("{} passed, {} failed", tally.passed, tally.failed);
    Ok(tally.failed == 0)
}

fn cmd_check(args: &[String]) -> Result<bool, String> {
    run_files(args, "failures", |f, n, case: Case| {
        let op = opcode_of(&case.ptx);
        match case.check() {
            Outcome::Pass => (op, true, None),
            Outcome::Error(e) => (op, false, Some(format!("{f}:{n}: {}: {e}", case.ptx))),
            Outcome::Mismatch {
                insn,
                inputs,
                got,
                want,
            } => {
                let m = describe_mismatch(&case, &insn, &inputs, got, want);
                (op, false, Some(format!("{f}:{n}: {m}")))
            }
        }
    })
}

fn cmd_validate(args: &[String]) -> Result<bool, String> {
    run_files(args, "disagreements", |f, n, d: Decision| {
        let (agree, diag) = decide(&d);
        let msg = (!agree).then(|| {
            if d.accepted {
                format!(
                    "{f}:{n}: ptxas accepts, we reject: {}",
                    diag.map(|x| x.render(&d.ptx)).unwrap_or_default()
                )
            } else {
                format!("{f}:{n}: ptxas rejects ({}), we accept: {}", d.ptxas, d.ptx)
            }
        });
        (opcode_of(&d.ptx), agree, msg)
    })
}
