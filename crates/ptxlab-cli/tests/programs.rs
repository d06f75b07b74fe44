//! `ptxlab run` on the test programs in `tests/data/programs`: each `NAME.ptx` starts with a
//! `// args:` line giving the starting registers; `NAME.out` is the register file expected
//! (computed by hand, see each program's comments), `NAME.err` the message of a program that
//! must be refused (exit status 2).

use std::path::Path;
use std::process::{Command, Stdio};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/programs");

fn ptxlab(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ptxlab"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("ptxlab runs");
    if let Some(s) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn args_of(text: &str) -> Vec<String> {
    let first = text.lines().next().unwrap_or("");
    let rest = first
        .strip_prefix("// args:")
        .expect("a program starts with a '// args:' line");
    rest.split_whitespace().map(String::from).collect()
}

#[test]
fn every_program_gives_its_register_file() {
    let mut names: Vec<_> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    names.sort();
    let (mut ran, mut refused) = (0, 0);
    for p in &names {
        let text = std::fs::read_to_string(p).unwrap();
        let mut args = vec!["run".to_string(), p.to_string_lossy().into_owned()];
        args.extend(args_of(&text));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = ptxlab(&args, None);
        let out_file = p.with_extension("out");
        let err_file = p.with_extension("err");
        if out_file.exists() {
            let want = std::fs::read_to_string(&out_file).unwrap();
            assert_eq!(code, 0, "{}: {err}", p.display());
            assert_eq!(out, want, "{}", p.display());
            ran += 1;
        } else {
            let want = std::fs::read_to_string(&err_file)
                .unwrap_or_else(|_| panic!("{}: no .out or .err beside it", p.display()));
            assert_eq!(code, 2, "{}: refused with exit status 2", p.display());
            assert_eq!(err, want, "{}", p.display());
            assert!(err.starts_with("line "), "{}", p.display());
            assert!(out.is_empty());
            refused += 1;
        }
    }
    assert!(ran >= 20, "{ran} programs ran");
    assert!(refused >= 5, "{refused} programs refused");
}

#[test]
fn program_from_standard_input_with_trace() {
    let prog = "prmt.b32 %r2, %r1, 0, 0x8880;\nlop3.b32 %r3, %r1, %r2, 0, 0xca;\n";
    let (code, out, err) = ptxlab(&["run", "-", "%r1=0x80", "--trace"], Some(prog));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("line 1: prmt.b32 %r2, %r1, 0, 0x8880"),
        "{out}"
    );
    assert!(out.contains("sign bit (1) replicated"), "{out}");
    assert!(out.contains("line 2: lop3.b32"), "{out}");
    assert!(out.trim_end().ends_with("%r3 = 0x00000080"), "{out}");
}

#[test]
fn json_lists_every_register_and_step() {
    let prog = "setp.eq.u32 %p1, %r1, 0;\n@%p1 mov.b32 %r2, 7;\n@!%p1 mov.b32 %r3, 9;\n";
    let (code, out, _) = ptxlab(&["run", "-", "--json"], Some(prog));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let regs = v["registers"].as_array().unwrap();
    let names: Vec<&str> = regs.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["%p1", "%r1", "%r2", "%r3"]);
    assert_eq!(regs[2]["value"], "0x00000007");
    assert_eq!(regs[3]["value"], "0x00000000");
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    assert_eq!(steps[2]["executed"], false);
    assert!(steps[1]["trace"]["stages"].as_array().unwrap().len() >= 2);
}

#[test]
fn a_kernel_thread_lists_the_memory_it_wrote_and_read() {
    let f = Path::new(DIR).join("kernel_add128.ptx");
    let text = std::fs::read_to_string(&f).unwrap();
    let mut args = vec!["run".to_string(), f.to_string_lossy().into_owned()];
    args.extend(args_of(&text));
    args.push("--json".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = ptxlab(&args, None);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        v["memory"],
        serde_json::json!([{"space": "global", "address": "0x3000",
            "bytes": "00000000000000000400000000000000"}])
    );
    let read: Vec<&str> = v["read"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["address"].as_str().unwrap())
        .collect();
    assert_eq!(
        read,
        ["0x1000", "0x2000", "0x0"],
        "global a, global b, the params"
    );
    let cf = v["registers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "CC.CF")
        .expect("the carry flag is a register");
    assert_eq!(cf["value"], "0x1");
    // A parameter that is not there, a bad --mem and a limit that is not a number.
    let fs = f.to_str().unwrap();
    for (extra, words) in [
        (&["c=1"][..], "not a register or parameter"),
        (&["--mem", "0x10=zz"][..], "not a hex digit"),
        (&["--max-steps", "many"][..], "not a number"),
        (&["--mem"][..], "needs"),
    ] {
        let mut a = vec!["run", fs];
        a.extend_from_slice(extra);
        let (code, _, err) = ptxlab(&a, None);
        assert_eq!(code, 2, "{extra:?}");
        assert!(err.contains(words), "{extra:?}: {err}");
    }
}

#[test]
fn bad_arguments_are_messages() {
    let f = Path::new(DIR).join("guards_abs.ptx");
    let f = f.to_str().unwrap();
    let (code, _, err) = ptxlab(&["run", f, "%r77=1"], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("%r77 is not a register of the program"),
        "{err}"
    );
    let (code, _, err) = ptxlab(&["run", f, "%r1=zz"], None);
    assert_eq!(code, 2);
    assert!(err.contains("%r1") && err.contains("'zz'"), "{err}");
    let (code, _, err) = ptxlab(&["run", "/nonexistent.ptx"], None);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent.ptx"), "{err}");
    let (code, _, err) = ptxlab(&["run", "-", "%p1=0x1ff"], Some("not.pred %p2, %p1;"));
    assert_eq!(code, 2);
    assert!(err.contains("too narrow"), "{err}");
}
