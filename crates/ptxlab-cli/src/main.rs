//! `ptxlab`: evaluate PTX instructions, and check the semantics against measured data.

use std::path::Path;
use std::process::ExitCode;

use ptxlab_cli::{
    decide, describe_mismatch, opcode_of, parse_value, read_jsonl, render_trace, Case, Decision,
    Outcome, Tally,
};
use ptxlab_core::{check, evaluate_traced, widths, Inputs};

const USAGE: &str = "\
usage:
  ptxlab eval 'INSTRUCTION' [a=V] [b=V] [c=V] [e=V] [--trace] [--json]
      V: hex (0x1234), decimal (42, -5) or binary (0b101); missing sources are 0
  ptxlab cuda 'INSTRUCTION'...         print a CUDA inline-assembly statement for each
  ptxlab check [--show N] FILE...      compare with measured cases (JSON lines, plain or gzip)
  ptxlab validate [--show N] FILE...   compare accept/reject with ptxas decisions
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let r = match cmd.as_str() {
        "eval" => cmd_eval(rest),
        "check" => cmd_check(rest),
        "validate" => cmd_validate(rest),
        "cuda" => cmd_cuda(rest),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            Ok(true)
        }
        other => Err(format!("unknown command '{other}'\n{USAGE}")),
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

fn cmd_eval(args: &[String]) -> Result<bool, String> {
    let mut text = None;
    let mut inputs = Inputs::default();
    let (mut trace, mut json) = (false, false);
    for a in args {
        match a.as_str() {
            "--trace" => trace = true,
            "--json" => json = true,
            _ => {
                if let Some((k, v)) = a.split_once('=') {
                    let val = parse_value(v).map_err(|e| format!("{k}: {e}"))?;
                    match k {
                        "a" => inputs.a = val,
                        "b" => inputs.b = val,
                        "c" => inputs.c = val,
                        "e" => inputs.e = val,
                        _ => {
                            return Err(format!("unknown operand '{k}': sources are a, b, c and e"))
                        }
                    }
                } else if text.is_none() {
                    text = Some(a.clone());
                } else {
                    return Err(format!("unexpected argument '{a}'\n{USAGE}"));
                }
            }
        }
    }
    let text = text.ok_or_else(|| format!("eval needs an instruction\n{USAGE}"))?;
    let insn = check(&text).map_err(|d| d.render(&text))?;
    let t = evaluate_traced(&insn, &inputs);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&t).map_err(|e| e.to_string())?
        );
    } else if trace {
        print!("{}", render_trace(&t));
    } else {
        let w = widths(&insn);
        println!(
            "d = {}  (unsigned {}, signed {}, {} bits)",
            t.views.hex, t.views.unsigned, t.views.signed, w.dst
        );
    }
    Ok(true)
}

fn cmd_cuda(args: &[String]) -> Result<bool, String> {
    if args.is_empty() {
        return Err(format!("cuda needs an instruction\n{USAGE}"));
    }
    for text in args {
        let insn = check(text).map_err(|d| d.render(text))?;
        println!("{}", ptxlab_core::cuda::asm_statement(&insn));
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
        return Err(format!("no files given\n{USAGE}"));
    }
    Ok((files, show))
}

fn cmd_check(args: &[String]) -> Result<bool, String> {
    let (files, show) = files_and_show(args)?;
    let mut tally = Tally::default();
    let mut shown = 0;
    for f in files {
        let lines = read_jsonl::<Case>(Path::new(f)).map_err(|e| format!("{f}: {e}"))?;
        for (n, case) in lines {
            let (op, ok, msg) = match case {
                Err(e) => (
                    String::from("(unreadable)"),
                    false,
                    Some(format!("{f}: {e}")),
                ),
                Ok(case) => {
                    let op = opcode_of(&case.ptx);
                    match case.check() {
                        Outcome::Pass => (op, true, None),
                        Outcome::Error(e) => {
                            (op, false, Some(format!("{f}:{n}: {}: {e}", case.ptx)))
                        }
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
                }
            };
            tally.record(&op, ok);
            if let Some(m) = msg {
                if shown < show {
                    println!("{m}");
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
        println!("failures by opcode: {}", per.join(", "));
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    Ok(tally.failed == 0)
}

fn cmd_validate(args: &[String]) -> Result<bool, String> {
    let (files, show) = files_and_show(args)?;
    let mut tally = Tally::default();
    let mut shown = 0;
    for f in files {
        let lines = read_jsonl::<Decision>(Path::new(f)).map_err(|e| format!("{f}: {e}"))?;
        for (n, d) in lines {
            let (op, ok, msg) = match d {
                Err(e) => (
                    String::from("(unreadable)"),
                    false,
                    Some(format!("{f}: {e}")),
                ),
                Ok(d) => {
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
                }
            };
            tally.record(&op, ok);
            if let Some(m) = msg {
                if shown < show {
                    println!("{m}");
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
        println!("disagreements by opcode: {}", per.join(", "));
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    Ok(tally.failed == 0)
}
