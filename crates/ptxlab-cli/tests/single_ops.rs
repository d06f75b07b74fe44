//! `ptxlab eval`, `cuda` and `check` on the program instructions (`prmt`, `setp`, `lop3`,
//! `cvt` ...) written alone: every destination is printed, the trace shows the stages, errors
//! are specific and exit with status 2.

use std::process::Command;

fn ptxlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxlab"))
        .args(args)
        .output()
        .expect("ptxlab runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `ptxlab batch TEXT -` with `input` on standard input: the exit status and standard output.
fn batch(text: &str, input: &[u8]) -> (Option<i32>, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxlab"))
        .args(["batch", text, "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn prmt_picks_bytes_and_replicates_signs() {
    let (rc, out, err) = ptxlab(&[
        "eval",
        "prmt.b32 d, a, b, c;",
        "a=0x11223344",
        "b=0x8899aabb",
        "c=0x7c40",
    ]);
    assert_eq!(rc, 0, "{err}");
    // nibbles 0, 4, c (byte 4 with its sign), 7 -> 0x44, 0xbb, 0xff (0xbb is negative), 0x88
    assert_eq!(
        out.trim(),
        "d = 0x88ffbb44  (unsigned 2298460996, signed -1996506300, 32 bits)"
    );
    let (_, out, _) = ptxlab(&[
        "eval",
        "prmt.b32 d, a, b, c;",
        "a=0x11223344",
        "b=0x8899aabb",
        "c=0x7c40",
        "--trace",
    ]);
    assert!(
        out.contains("its sign bit (1) replicated over 8 bits"),
        "{out}"
    );
    assert!(out.contains("the 8-byte pool b:a"), "{out}");
}

#[test]
fn setp_prints_both_predicates() {
    let (rc, out, _) = ptxlab(&["eval", "setp.lt.s32 p|q, a, b;", "a=-1", "b=1"]);
    assert_eq!(rc, 0);
    assert_eq!(out, "p = 1  (true, predicate)\nq = 0  (false, predicate)\n");
    // Read unsigned, 0xffffffff is not below 1.
    let (_, out, _) = ptxlab(&["eval", "setp.lt.u32 p|q, a, b;", "a=-1", "b=1"]);
    assert_eq!(out, "p = 0  (false, predicate)\nq = 1  (true, predicate)\n");
    // The .and form combines with the predicate c, the third source.
    let (_, out, _) = ptxlab(&[
        "eval",
        "setp.lt.and.s32 p|q, a, b, !c;",
        "a=-1",
        "b=1",
        "c=1",
    ]);
    assert_eq!(
        out,
        "p = 0  (false, predicate)\nq = 0  (false, predicate)\n"
    );
}

#[test]
fn lop3_cvt_shf_and_mov() {
    let (_, out, _) = ptxlab(&[
        "eval",
        "lop3.b32 d, a, b, c, 0xca;",
        "a=0xff00ff00",
        "b=0x12345678",
        "c=0x9abcdef0",
    ]);
    // 0xca is a ? b : c, bit by bit.
    assert!(out.starts_with("d = 0x12bc56f0 "), "{out}");
    let (_, out, _) = ptxlab(&["eval", "cvt.sat.s8.s32 d, a;", "a=300"]);
    assert!(out.starts_with("d = 0x7f "), "{out}");
    let (_, out, _) = ptxlab(&["eval", "cvt.sat.s8.s32 d, a;", "a=-300"]);
    assert!(out.starts_with("d = 0x80 "), "{out}");
    let (_, out, _) = ptxlab(&[
        "eval",
        "shf.l.wrap.b32 d, a, b, c;",
        "a=0x80000001",
        "b=0x80000001",
        "c=33",
    ]);
    assert!(out.starts_with("d = 0x00000003 "), "{out}");
    let (_, out, _) = ptxlab(&["eval", "mov.b32 {lo, hi}, a;", "a=0x12345678"]);
    assert!(
        out.starts_with("lo = 0x5678 ") && out.contains("\nhi = 0x1234 "),
        "{out}"
    );
    // An immediate source stands for itself; the inputs bind by position.
    let (_, out, _) = ptxlab(&["eval", "selp.b32 d, a, 7, c;", "a=5", "c=0"]);
    assert!(out.starts_with("d = 0x00000007 "), "{out}");
}

#[test]
fn json_lists_every_destination_and_the_trace() {
    let (rc, out, _) = ptxlab(&["eval", "setp.ne.b32 p|q, a, b;", "a=1", "b=2", "--json"]);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["values"][0]["name"], "p");
    assert_eq!(v["values"][0]["value"], 1);
    assert_eq!(v["values"][1]["name"], "q");
    assert_eq!(v["values"][1]["value"], 0);
    assert_eq!(v["trace"]["opcode"], "setp");
    // The family is the row's own (it said "integer" before there was one vocabulary), and
    // the trace names the GPU the row was measured on.
    assert_eq!(v["trace"]["family"], "compare");
    assert_eq!(v["trace"]["measured"], "h100");
    assert!(v["trace"]["doc_url"]
        .as_str()
        .unwrap()
        .ends_with("#comparison-and-selection-instructions-setp"));
}

#[test]
fn json_has_one_shape_for_every_instruction() {
    // A table instruction gives {values, trace} too, its one destination named d.
    let (rc, out, _) = ptxlab(&[
        "eval",
        "vadd.u32.u32.u32 d, a, b;",
        "a=-1",
        "b=-2",
        "--json",
    ]);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["values"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["values"][0]["name"], "d");
    assert_eq!(v["values"][0]["bits"], 32);
    assert_eq!(v["values"][0]["value"], 0xffff_fffdu64);
    assert_eq!(v["trace"]["opcode"], "vadd");
    assert_eq!(v["trace"]["family"], "scalar-video");
    assert_eq!(v["trace"]["measured"], "h100");
    // An unpacking mov names its destinations as written.
    let (_, out, _) = ptxlab(&["eval", "mov.b32 {lo, hi}, a;", "a=0x12345678", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["values"][0]["name"], "lo");
    assert_eq!(v["values"][0]["value"], 0x5678);
    assert_eq!(v["values"][1]["name"], "hi");
    assert_eq!(v["values"][1]["value"], 0x1234);
}

#[test]
fn compare_says_measured_and_one_reading() {
    let (rc, out, _) = ptxlab(&["eval", "prmt.b32 d, a, b, c;", "--compare"]);
    assert_eq!(rc, 0);
    assert!(
        out.contains("the ISA text and the GPU (an NVIDIA H100 (sm_90)) agree"),
        "{out}"
    );
}

#[test]
fn errors_are_specific() {
    let (rc, _, err) = ptxlab(&["eval", "prmt.b32 d, a, b;"]);
    assert_eq!(rc, 2);
    assert!(
        err.contains("'prmt' takes 4 operands (d, a, b, c), not 3"),
        "{err}"
    );
    let (rc, _, err) = ptxlab(&["eval", "setp.lt.b32 p, a, b;"]);
    assert_eq!(rc, 2);
    assert!(
        err.contains("bit types compare only for equality (allowed: .eq, .ne)"),
        "{err}"
    );
    let (_, _, err) = ptxlab(&["eval", "prm.b32 d, a;"]);
    assert!(
        err.contains("unknown opcode 'prm' (allowed: prmt)"),
        "{err}"
    );
    let (_, _, err) = ptxlab(&["eval", "cvt.sat.s32.s16 d, a;"]);
    assert!(err.contains("nothing to saturate"), "{err}");
}

#[test]
fn cuda_statements() {
    let (rc, out, _) = ptxlab(&[
        "cuda",
        "prmt.b32 d, a, b, c;",
        "setp.lt.s32 p|q, a, b;",
        "vadd.u32.u32.u32 d, a, b;",
    ]);
    assert_eq!(rc, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r#"asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));"#
    );
    assert!(
        lines[1].starts_with(r#"asm("{ .reg .pred p0, p1; setp.lt.s32 p0|p1, %2, %3;"#),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[2],
        r#"asm("vadd.u32.u32.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));"#
    );
}

#[test]
fn check_reads_cases_of_program_instructions() {
    let dir = std::env::temp_dir().join(format!("ptxlab-single-ops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("cases.jsonl");
    std::fs::write(
        &f,
        concat!(
            r#"{"ptx":"prmt.b32 d, a, b, c;","a":"0x11223344","b":"0x8899aabb","c":"0x7c40","d":"0x88ffbb44"}"#, "\n",
            r#"{"ptx":"cvt.sat.u8.s32 d, a;","a":"-5","d":"0x0"}"#, "\n",
            r#"{"ptx":"cvt.sat.u8.s32 d, a;","a":"-5","d":"0x1"}"#, "\n",
        ),
    )
    .unwrap();
    let (rc, out, _) = ptxlab(&["check", f.to_str().unwrap()]);
    assert_eq!(rc, 1, "{out}");
    // The same report as a table instruction's: the case, both values and the trace.
    assert!(
        out.contains("MISMATCH cvt.sat.u8.s32 d, a;  a=-5 b=- c=- e=-  hardware d=0x1  ours d=0x0"),
        "{out}"
    );
    assert!(out.contains("[clamped-low]"), "{out}");
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn batch_evaluates_program_instructions() {
    let (code, stdout) = batch("setp.lt.s32 p|q, a, b;", b"a=-1 b=1\n5,3\nzz 1\n");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "line,a,b,p,p_unsigned,p_signed,q,flags,text_d,error"
    );
    assert_eq!(lines[1], "1,0xffffffff,0x00000001,0x1,1,1,0x0,,,");
    assert_eq!(lines[2], "2,0x00000005,0x00000003,0x0,0,0,0x1,,,");
    assert!(
        lines[3].starts_with("3,,,,,,,,,\"line 3: a: 'zz' is not a number"),
        "{}",
        lines[3]
    );
    assert_eq!(code, Some(1), "an unreadable line fails the run");
}

#[test]
fn explain_prints_the_notes_with_computed_examples() {
    let (code, out, err) = ptxlab(&["explain", "mul24.hi.u32 d, a, b;"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("bits 16-47"), "{out}");
    // The row says where it was measured, for a table opcode as for a program instruction.
    assert!(out.contains("Measured on an NVIDIA H100 (sm_90)"), "{out}");
    assert!(
        out.contains("a=0x24004040, b=0xff7f8081 gives d=0x00200000 (an H100 measurement)"),
        "{out}"
    );
    let (code, out, _) = ptxlab(&["explain", "prmt.b32.ecl d, a, b, c;"]);
    assert_eq!(code, 0);
    assert!(out.contains("gives d=0x44332222"), "{out}");
    assert!(out.contains("Measured on an NVIDIA H100 (sm_90)"), "{out}");
    // The SIMD .add form's selector note speaks of summed lanes, not of merging.
    let (_, out, _) = ptxlab(&["explain", "vadd2.u32.s32.s32.add d.h1, a.h13, b.h33, c;"]);
    assert!(out.contains("does not merge"), "{out}");
    assert!(!out.contains("the other lanes are c's"), "{out}");
    let (code, _, err) = ptxlab(&["explain", "vadd.u99 d, a;"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_carry_chain_prints_d_and_the_carry_flag() {
    // 0xffffffff + 0 + CC.CF 1 overflows: d 0, carry out 1.
    let (rc, out, err) = ptxlab(&[
        "eval",
        "addc.cc.u32 d, a, b;",
        "a=0xffffffff",
        "b=0",
        "CC.CF=1",
    ]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        out,
        "d = 0x00000000  (unsigned 0, signed 0, 32 bits)\nCC.CF = 1  (the carry flag)\n"
    );
    // Without the flag set, the same sum does not overflow.
    let (_, out, _) = ptxlab(&["eval", "addc.cc.u32 d, a, b;", "a=0xffffffff", "b=0"]);
    assert!(out.ends_with("CC.CF = 0  (the carry flag)\n"), "{out}");
    // sub.cc's carry is "no borrow": 5 - 7 borrows, so CC.CF is 0.
    let (_, out, _) = ptxlab(&["eval", "sub.cc.u32 d, a, b;", "a=5", "b=7"]);
    assert_eq!(
        out,
        "d = 0xfffffffe  (unsigned 4294967294, signed -2, 32 bits)\nCC.CF = 0  (the carry flag)\n"
    );
    // madc reads the flag after its three sources; the trace shows the product's half.
    let (_, out, _) = ptxlab(&[
        "eval",
        "madc.hi.u32 d, a, b, c;",
        "a=0x80000000",
        "b=4",
        "c=10",
        "CC.CF=1",
        "--trace",
    ]);
    assert!(out.contains("its high half"), "{out}");
    assert!(out.contains("d = 0x0000000d"), "{out}");
    // An instruction that reads no carry says so.
    let (rc, _, err) = ptxlab(&["eval", "add.u32 d, a, b;", "CC.CF=1"]);
    assert_eq!(rc, 2);
    assert!(err.contains("reads no carry flag"), "{err}");
}

#[test]
fn set_writes_the_answer_as_a_number() {
    // -1 < 1 read as .s32: all ones; as .u32 (0xffffffff < 1) false: 0.
    let (_, out, _) = ptxlab(&["eval", "set.lt.u32.s32 d, a, b;", "a=-1", "b=1"]);
    assert!(out.starts_with("d = 0xffffffff"), "{out}");
    let (_, out, _) = ptxlab(&["eval", "set.lt.u32.u32 d, a, b;", "a=-1", "b=1"]);
    assert!(out.starts_with("d = 0x00000000"), "{out}");
    // An .f32 d is 1.0; .and with a false c gives 0.
    let (_, out, _) = ptxlab(&["eval", "set.eq.f32.b32 d, a, b;", "a=7", "b=7"]);
    assert!(out.starts_with("d = 0x3f800000"), "{out}");
    let (_, out, _) = ptxlab(&[
        "eval",
        "set.eq.and.f32.b32 d, a, b, c;",
        "a=7",
        "b=7",
        "c=0",
    ]);
    assert!(out.starts_with("d = 0x00000000"), "{out}");
    // What ptxas refuses, with the reason.
    let (rc, _, err) = ptxlab(&["eval", "set.lt.u32.b32 d, a, b;"]);
    assert_eq!(rc, 2);
    assert!(err.contains("bit types compare only for equality"), "{err}");
    let (rc, _, err) = ptxlab(&["eval", "set.lt.f16.f32 d, a, b;"]);
    assert_eq!(rc, 2);
    assert!(err.contains("half-precision"), "{err}");
    // An 0f literal where an .f64 is read keeps its bits (measured on an H200).
    let (_, out, _) = ptxlab(&["eval", "mov.f64 d, 0f3f800000;"]);
    assert!(out.starts_with("d = 0x000000003f800000"), "{out}");
}

#[test]
fn slct_and_cvt_pack() {
    // c = -1 (negative) takes b; an f32 c of -0.0 counts as >= 0 and takes a.
    let (_, out, _) = ptxlab(&["eval", "slct.u32.s32 d, a, b, c;", "a=1", "b=2", "c=-1"]);
    assert!(out.starts_with("d = 0x00000002"), "{out}");
    let (_, out, _) = ptxlab(&[
        "eval",
        "slct.u32.f32 d, a, b, c;",
        "a=1",
        "b=2",
        "c=0x80000000",
    ]);
    assert!(out.starts_with("d = 0x00000001"), "{out}");
    // A NaN c is not >= 0.
    let (_, out, _) = ptxlab(&[
        "eval",
        "slct.u32.f32 d, a, b, c;",
        "a=1",
        "b=2",
        "c=0x7fc00000",
    ]);
    assert!(out.starts_with("d = 0x00000002"), "{out}");
    // 300 and -5 clamp to 255 and 0 as .u8; c's low 16 bits fill the top.
    let (_, out, _) = ptxlab(&[
        "eval",
        "cvt.pack.sat.u8.s32.b32 d, a, b, c;",
        "a=300",
        "b=-5",
        "c=0xabcd",
    ]);
    assert!(out.starts_with("d = 0xabcdff00"), "{out}");
    let (rc, _, err) = ptxlab(&["eval", "cvt.pack.u16.s32 d, a, b;"]);
    assert_eq!(rc, 2);
    assert!(err.contains("cvt.pack.sat"), "{err}");
}

#[test]
fn batch_reads_and_writes_the_carry_flag() {
    let (code, stdout) = batch(
        "addc.cc.u32 d, a, b;",
        b"a,b,CC.CF\n0xffffffff,0,1\n5,7,0\n",
    );
    let lines: Vec<&str> = stdout.lines().collect();
    // The carry read is the column CC.CF, the carry written CC.CF_out.
    assert_eq!(
        lines[0],
        "line,a,b,CC.CF,d,d_unsigned,d_signed,CC.CF_out,flags,text_d,error"
    );
    assert_eq!(
        lines[1],
        "2,0xffffffff,0x00000000,0x1,0x00000000,0,0,0x1,,,"
    );
    assert_eq!(
        lines[2],
        "3,0x00000005,0x00000007,0x0,0x0000000c,12,12,0x0,,,"
    );
    assert_eq!(code, Some(0));
}
