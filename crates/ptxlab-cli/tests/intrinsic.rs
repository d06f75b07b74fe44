//! `ptxlab intrinsic`: a call prints `d`, arguments read like operand values elsewhere, and the
//! listing, search and batch modes work.

use std::io::Write;
use std::process::{Command, Stdio};

fn ptxlab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxlab"))
        .args(args)
        .output()
        .expect("ptxlab runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn call_prints_d() {
    let (ok, out, _) = ptxlab(&["intrinsic", "__vcmpgtu4", "0x0180ff00", "0x02800000"]);
    assert!(ok);
    assert_eq!(out, "d = 0x0000ff00\n");
    // Decimal, negative and binary arguments.
    let (_, out, _) = ptxlab(&["intrinsic", "__dp4a", "0x01020304", "-1", "10"]);
    assert_eq!(out, "d = 0x00000000\n");
    let (_, out, _) = ptxlab(&["intrinsic", "__popc", "0b1011"]);
    assert_eq!(out, "d = 0x00000003\n");
    let (_, out, _) = ptxlab(&["intrinsic", "__umul64hi", "-1", "2"]);
    assert_eq!(out, "d = 0x0000000000000001\n");
    let (_, out, _) = ptxlab(&["intrinsic", "__sad", "-3", "4", "1"]);
    assert_eq!(out, "d = 0x00000008\n");
}

#[test]
fn trace_and_json_show_lanes_ptx_and_cost() {
    let (ok, out, _) = ptxlab(&[
        "intrinsic",
        "__vabsdiffu4",
        "0x00ff1020",
        "0xff002010",
        "--trace",
    ]);
    assert!(ok);
    assert!(out.starts_with("d = 0xffff1010\n"), "{out}");
    assert!(out.contains("vabsdiff4.u32.u32.u32"), "{out}");
    assert!(out.contains("VABSDIFF4.U8"), "{out}");
    assert!(out.contains("[3] a=0x00 b=0xff -> 0xff"), "{out}");
    let (ok, out, _) = ptxlab(&["intrinsic", "__vcmpgtu4", "1", "0", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["d"], "0x000000ff");
    assert_eq!(v["evaluation"]["lanes"].as_array().unwrap().len(), 4);
    assert_eq!(v["cost"].as_array().unwrap().len(), 5);
}

#[test]
fn list_and_search() {
    let (ok, out, _) = ptxlab(&["intrinsic", "--list"]);
    assert!(ok);
    assert!(out.lines().count() >= 95);
    assert!(out
        .lines()
        .any(|l| l.starts_with("__vcmpgtu4 ") && l.contains("a > b unsigned")));
    let (ok, out, _) = ptxlab(&[
        "intrinsic",
        "--search",
        "sum",
        "of",
        "absolute",
        "differences",
    ]);
    assert!(ok);
    assert!(out.contains("__vsadu4") && out.contains("__usad"), "{out}");
    let (ok, _, _) = ptxlab(&["intrinsic", "--search", "zzzz"]);
    assert!(!ok);
}

#[test]
fn bad_calls_say_what_is_wrong() {
    let (ok, _, err) = ptxlab(&["intrinsic", "__vadd4", "1"]);
    assert!(!ok);
    assert!(err.contains("takes 2 arguments"), "{err}");
    let (ok, _, err) = ptxlab(&["intrinsic", "__vadd4", "1", "0x1ffffffff"]);
    assert!(!ok);
    assert!(
        err.contains("argument 2") && err.contains("32 bits"),
        "{err}"
    );
    let (ok, _, err) = ptxlab(&["intrinsic", "__nosuch", "1"]);
    assert!(!ok);
    assert!(err.contains("unknown intrinsic"), "{err}");
    let (ok, _, err) = ptxlab(&["intrinsic", "__vadd4", "12q", "1"]);
    assert!(!ok);
    assert!(err.contains("not a number"), "{err}");
}

#[test]
fn batch_gives_one_result_a_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxlab"))
        .args(["intrinsic", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"__vadd4 0xff 1\n\n__clzll 1\n__vadd4 1\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "0x00000000");
    assert_eq!(lines[1], "0x0000003f");
    assert!(lines[2].starts_with("error: "), "{text}");
    assert!(!out.status.success());
}

#[test]
fn named_arguments_like_eval() {
    let (ok, out, _) = ptxlab(&["intrinsic", "__vsub4", "b=1", "a=0x0203"]);
    assert!(ok);
    assert_eq!(out, "d = 0x00000202\n");
    let (ok, _, err) = ptxlab(&["intrinsic", "__vsub4", "a=1", "a=2"]);
    assert!(!ok);
    assert!(err.contains("given twice"), "{err}");
}

#[test]
fn odd_words_never_panic() {
    let words = [
        "",
        "-",
        "0x",
        "0b",
        "--",
        "a=",
        "=1",
        "-0x8000000000000000",
        "99999999999999999999999",
        "__vadd4",
        "__dp4a",
        "__brevll",
        "0xffffffff",
        "-1",
        "b=2",
        "c=3",
        "a=-0b1",
    ];
    let mut s: usize = 7;
    for _ in 0..3000 {
        let n = s % 5;
        let call: Vec<&str> = (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                words[(s >> 33) % words.len()]
            })
            .collect();
        let _ = ptxlab_cli::intrinsic::call(&call);
        s = s.wrapping_add(n + 1);
    }
}

#[test]
fn bools_of_vibmax_are_printed() {
    let (ok, out, _) = ptxlab(&["intrinsic", "__vibmax_s16x2", "0x00050003", "0x00050004"]);
    assert!(ok);
    assert_eq!(out, "d = 0x00050004\npred_hi = 1\npred_lo = 0\n");
    let (ok, out, _) = ptxlab(&["intrinsic", "__vibmin_s32", "-1", "0"]);
    assert!(ok);
    assert_eq!(out, "d = 0xffffffff\npred = 1\n");
}

/// The statement text of a PTX line as `--trace` prints it: no `;`, no spaces.
fn squeeze(s: &str) -> String {
    s.trim_end_matches(';')
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

#[test]
fn trace_runs_every_ptx_statement_and_the_program_gives_d() {
    let mut s: u64 = 0x1234_5678_9abc_def1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut checked = 0;
    for i in ptxlab_core::intrinsics::all() {
        let args: Vec<String> = i
            .args
            .iter()
            .map(|t| {
                let v = next();
                format!("0x{:x}", if t.bits() == 64 { v } else { v & 0xffff_ffff })
            })
            .collect();
        let mut call = vec!["intrinsic", i.name];
        call.extend(args.iter().map(String::as_str));
        call.push("--trace");
        let (ok, out, err) = ptxlab(&call);
        assert!(ok, "{}: {err}", i.name);
        let d = out.lines().next().unwrap().strip_prefix("d = ").unwrap();
        // Every instruction of the PTX is a step, on its own line number.
        for (n, p) in i.ptx.iter().enumerate() {
            let p = p.trim();
            if p.starts_with('{') || p.starts_with('}') || p.starts_with('.') {
                continue;
            }
            let want = format!("line {}: ", n + 1);
            let lines: Vec<&str> = out.lines().collect();
            let at = lines
                .iter()
                .position(|l| l.starts_with(&want))
                .unwrap_or_else(|| panic!("{}: no step for line {}: {p}\n{out}", i.name, n + 1));
            assert_eq!(squeeze(&lines[at][want.len()..]), squeeze(p), "{}", i.name);
            // ... with its stages and what it wrote, or that its guard kept it from running.
            let body: Vec<&str> = lines[at + 1..]
                .iter()
                .take_while(|l| l.starts_with("  "))
                .copied()
                .collect();
            let staged = body.iter().any(|l| l.contains(" -> "))
                && body.iter().any(|l| l.contains(" (was 0x"));
            let skipped = body
                .iter()
                .any(|l| l.contains("skipped: its guard is false"));
            assert!(staged || skipped, "{} line {}: {body:?}", i.name, n + 1);
        }
        let last = out
            .lines()
            .find(|l| l.starts_with("program d = "))
            .unwrap_or_else(|| panic!("{}: no program d\n{out}", i.name));
        assert_eq!(
            last,
            format!("program d = {d}, as the meaning gives"),
            "{}",
            i.name
        );
        for name in &i.outputs {
            let want = out
                .lines()
                .find(|l| l.starts_with(&format!("{name} = ")))
                .unwrap()
                .to_string();
            assert!(
                out.contains(&format!("program {want}, as the meaning gives")),
                "{}: {out}",
                i.name
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 149);
}

#[test]
fn json_has_the_program_steps() {
    let (ok, out, _) = ptxlab(&[
        "intrinsic",
        "__vcmpgtu4",
        "0x0180ff00",
        "0x02800000",
        "--json",
    ]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["program"]["d"], v["d"]);
    let steps = v["program"]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 6);
    assert_eq!(steps[0]["line"], 1);
    assert!(steps[5]["trace"]["stages"].as_array().unwrap().len() > 3);
    let (ok, out, _) = ptxlab(&[
        "intrinsic",
        "__vibmax_s16x2",
        "0x00050003",
        "0x00050004",
        "--json",
    ]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["program"]["d"], "0x00050004");
    assert_eq!(
        v["program"]["outputs"],
        serde_json::json!([["pred_hi", 1], ["pred_lo", 0]])
    );
}
