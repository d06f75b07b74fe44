//! The program instructions against an independent model of the ISA text
//! (`tests/support/isa_text.rs`), over random values and every type and modifier; and the
//! ptxas decisions in `tests/data/ptxas-programs.jsonl`, compared one by one.

mod support;

use proptest::prelude::*;
use ptxlab_core::program::{check_any, parse_op};
use support::isa_text as isa;

/// Evaluate one statement with its sources as values.
fn eval(text: &str, src: &[u64]) -> Vec<Option<u64>> {
    let read = parse_op(text).unwrap_or_else(|d| panic!("{text}: {d}"));
    let insn = read.as_op().expect("a program row");
    let src: Vec<u64> = src
        .iter()
        .enumerate()
        .map(|(i, v)| v & isa::mask(insn.src_bits(i)))
        .collect();
    let out = insn.eval(&src);
    quiet_agrees(insn, &src, &out);
    // The trace ends with one result stage per destination, agreeing with the values.
    let results: Vec<u64> = out
        .trace
        .stages
        .iter()
        .filter(|s| s.kind == ptxlab_core::StageKind::Result)
        .map(|s| s.output.raw() as u64)
        .collect();
    assert_eq!(results.len(), out.values.len(), "{text}");
    for (r, v) in results.iter().zip(&out.values) {
        if let Some(v) = v {
            assert_eq!(r, v, "{text}: the trace's result stage");
        }
    }
    out.values
}

/// `eval_quiet` gives the values `eval` gives, and the notable events of its stages.
fn quiet_agrees(
    insn: ptxlab_core::program::OpInsn,
    src: &[u64],
    out: &ptxlab_core::program::ops::Outcome,
) {
    let flags = out
        .trace
        .stages
        .iter()
        .flat_map(|s| &s.flags)
        .fold(0u16, |m, f| m | f.bit() as u16);
    assert_eq!(
        insn.eval_quiet(src),
        (out.values.clone(), flags),
        "{}: eval_quiet against eval",
        insn.canonical()
    );
}

fn one(text: &str, src: &[u64]) -> u64 {
    eval(text, src)[0].expect("a value")
}

/// Values biased to the edges, as the measured cases are.
fn value() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        Just(0u64),
        Just(1),
        Just(0x7f),
        Just(0x80),
        Just(0xff),
        Just(0x7fff),
        Just(0x8000),
        Just(0xffff),
        Just(0x7fff_ffff),
        Just(0x8000_0000),
        Just(0xffff_ffff),
        Just(u64::MAX),
        Just(1 << 63),
        0u64..80,
    ]
}

const WIDTHS: [u32; 3] = [16, 32, 64];

/// The integer comparisons of `setp` and `set`, each with the type kinds (`b`, `u`, `s`) ptxas
/// takes it with.
const INT_CMPS: [(&str, &[char]); 10] = [
    ("eq", &['b', 'u', 's']),
    ("ne", &['b', 'u', 's']),
    ("lt", &['u', 's']),
    ("le", &['u', 's']),
    ("gt", &['u', 's']),
    ("ge", &['u', 's']),
    ("lo", &['u']),
    ("ls", &['u']),
    ("hi", &['u']),
    ("hs", &['u']),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn logic(a in value(), b in value()) {
        for w in WIDTHS {
            let m = isa::mask(w);
            prop_assert_eq!(one(&format!("and.b{w} d, a, b;"), &[a, b]), isa::and(w, a & m, b & m));
            prop_assert_eq!(one(&format!("or.b{w} d, a, b;"), &[a, b]), isa::or(w, a & m, b & m));
            prop_assert_eq!(one(&format!("xor.b{w} d, a, b;"), &[a, b]), isa::xor(w, a & m, b & m));
            prop_assert_eq!(one(&format!("not.b{w} d, a;"), &[a]), isa::not(w, a & m));
            prop_assert_eq!(one(&format!("cnot.b{w} d, a;"), &[a]), isa::cnot(w, a & m));
        }
        let (p, q) = (a & 1, b & 1);
        prop_assert_eq!(one("and.pred d, a, b;", &[p, q]), p & q);
        prop_assert_eq!(one("or.pred d, a, b;", &[p, q]), p | q);
        prop_assert_eq!(one("xor.pred d, a, b;", &[p, q]), p ^ q);
        prop_assert_eq!(one("not.pred d, a;", &[p]), 1 - p);
        prop_assert_eq!(one("and.pred d, !a, b;", &[p, q]), (1 - p) & q);
    }

    #[test]
    fn lop3_every_table(a in any::<u32>(), b in any::<u32>(), c in any::<u32>()) {
        for lut in 0..=255u8 {
            let got = one(&format!("lop3.b32 d, a, b, c, {lut};"), &[a as u64, b as u64, c as u64, lut as u64]);
            prop_assert_eq!(got, isa::lop3(a, b, c, lut) as u64, "immLut {}", lut);
        }
    }

    #[test]
    fn shf_funnel(a in any::<u32>(), b in any::<u32>(), c in prop_oneof![0u32..70, any::<u32>()]) {
        for (dir, left) in [("l", true), ("r", false)] {
            for (mode, clamp) in [("wrap", false), ("clamp", true)] {
                let got = one(&format!("shf.{dir}.{mode}.b32 d, a, b, c;"), &[a as u64, b as u64, c as u64]);
                prop_assert_eq!(got, isa::shf(left, clamp, a, b, c) as u64, "shf.{}.{} c={}", dir, mode, c);
            }
        }
    }

    #[test]
    fn shifts(a in value(), b in prop_oneof![0u32..70, any::<u32>()]) {
        for w in WIDTHS {
            let m = isa::mask(w);
            prop_assert_eq!(one(&format!("shl.b{w} d, a, b;"), &[a, b as u64]), isa::shl(w, a & m, b));
            for k in ['b', 'u', 's'] {
                let got = one(&format!("shr.{k}{w} d, a, b;"), &[a, b as u64]);
                prop_assert_eq!(got, isa::shr(w, k == 's', a & m, b), "shr.{}{} by {}", k, w, b);
            }
        }
    }

    #[test]
    fn prmt_every_mode(a in any::<u32>(), b in any::<u32>(), c in any::<u32>()) {
        let src = [a as u64, b as u64, c as u64];
        prop_assert_eq!(one("prmt.b32 d, a, b, c;", &src), isa::prmt(None, a, b, c) as u64);
        for m in ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"] {
            prop_assert_eq!(one(&format!("prmt.b32.{m} d, a, b, c;"), &src), isa::prmt(Some(m), a, b, c) as u64, "{}", m);
        }
    }

    #[test]
    fn setp_every_comparison(a in value(), b in value(), c in any::<bool>()) {
        for w in WIDTHS {
            for (cmp, kinds) in INT_CMPS {
                for &k in kinds {
                    let t = isa::compare(cmp, k, w, a, b);
                    for bop in [None, Some("and"), Some("or"), Some("xor")] {
                        let text = match bop {
                            None => format!("setp.{cmp}.{k}{w} p|q, a, b;"),
                            Some(o) => format!("setp.{cmp}.{o}.{k}{w} p|q, a, b, c;"),
                        };
                        let got = eval(&text, &[a, b, c as u64]);
                        let (p, q) = isa::setp(t, bop, c);
                        prop_assert_eq!(got, vec![Some(p as u64), Some(q as u64)], "{}", text);
                    }
                }
            }
        }
    }

    #[test]
    fn set_every_comparison(a in value(), b in value(), c in any::<bool>()) {
        for w in WIDTHS {
            for (cmp, kinds) in INT_CMPS {
                for &k in kinds {
                    let t = isa::compare(cmp, k, w, a, b);
                    for dt in ["u32", "s32", "f32"] {
                        for bop in [None, Some("and"), Some("or"), Some("xor")] {
                            let text = match bop {
                                None => format!("set.{cmp}.{dt}.{k}{w} d, a, b;"),
                                Some(o) => format!("set.{cmp}.{o}.{dt}.{k}{w} d, a, b, c;"),
                            };
                            let got = eval(&text, &[a, b, c as u64]);
                            let (r, _) = isa::setp(t, bop, c);
                            prop_assert_eq!(got, vec![Some(isa::set(r, dt))], "{}", text);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn selp_and_mov(a in value(), b in value(), c in any::<bool>()) {
        for w in WIDTHS {
            let m = isa::mask(w);
            for k in ['b', 'u', 's'] {
                prop_assert_eq!(one(&format!("selp.{k}{w} d, a, b, c;"), &[a, b, c as u64]), isa::selp(a & m, b & m, c));
                prop_assert_eq!(one(&format!("mov.{k}{w} d, a;"), &[a]), a & m);
            }
            for n in [1u32, 2, 4] {
                let ew = w / n;
                if ew < 8 || (w == 16 && n == 4) {
                    continue;
                }
                let names: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
                let elems: Vec<u64> = (0..n as u64).map(|i| a.rotate_left(13 * i as u32) ^ b).collect();
                let packed = one(&format!("mov.b{w} d, {{{}}};", names.join(", ")), &elems);
                prop_assert_eq!(packed, isa::pack(ew, &elems));
                let parts = eval(&format!("mov.b{w} {{{}}}, a;", names.join(", ")), &[a]);
                let want: Vec<Option<u64>> = isa::unpack(ew, n, a & m).into_iter().map(Some).collect();
                prop_assert_eq!(parts, want);
            }
        }
    }

    #[test]
    fn cvt_every_pair(a in value()) {
        let ints = [(8u32, false), (16, false), (32, false), (64, false), (8, true), (16, true), (32, true), (64, true)];
        let name = |(w, s): (u32, bool)| format!("{}{w}", if s { 's' } else { 'u' });
        for d in ints {
            for s in ints {
                let got = one(&format!("cvt.{}.{} d, a;", name(d), name(s)), &[a]);
                prop_assert_eq!(got, isa::cvt(d.0, d.1, s.0, s.1, false, a));
                let text = format!("cvt.sat.{}.{} d, a;", name(d), name(s));
                if let Some(insn) = parse_op(&text).ok().as_ref().and_then(|i| i.as_op()) {
                    let got = insn.eval(&[a & isa::mask(s.0)]).values[0].unwrap();
                    prop_assert_eq!(got, isa::cvt(d.0, d.1, s.0, s.1, true, a), "{}", text);
                }
            }
        }
    }

    /// Any text: an answer, never a panic.
    #[test]
    fn parse_never_panics(s in "\\PC{0,60}") {
        let _ = parse_op(&s);
        let _ = check_any(&s);
    }

    #[test]
    fn program_text_never_panics(s in "[ -~\\n]{0,200}") {
        if let Ok(p) = ptxlab_core::program::parse_program(&s) {
            let mut m = ptxlab_core::program::Machine::new(p, &[]).unwrap();
            m.max_steps = 300;
            m.run();
            while m.step_back() {}
        }
    }

    /// Mutations of valid statements read as programs: an answer, never a panic.
    #[test]
    fn program_mutations_never_panic(i in 0usize..PROGRAM_SEEDS.len(), cut in 0usize..200, ins in "[ -~]{0,4}") {
        let base = PROGRAM_SEEDS[i];
        let cut = cut.min(base.len());
        let cut = (0..=cut).rev().find(|&k| base.is_char_boundary(k)).unwrap_or(0);
        let text = format!("{}{}{}", &base[..cut], ins, &base[cut..]);
        if let Ok(p) = ptxlab_core::program::parse_program(&text) {
            if let Ok(mut m) = ptxlab_core::program::Machine::new(p, &[("n".into(), 3), ("out".into(), 0x40)]) {
                m.max_steps = 300;
                m.run();
                let _ = m.memory().written();
                while m.step_back() {}
                prop_assert!(m.memory().written().is_empty());
            }
        }
    }
}

const PROGRAM_SEEDS: &[&str] = &[
    ".reg .b32 %r<4>;\nmov.b32 {%rs1, %rs2}, %r1;\nadd.s16x2 %r2, %r1, %r3;",
    "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;\n@%p1 selp.b32 %r3, 1, 0, %p2;",
    "{ lop3.b32 %r1, %r2, %r3, %r4, 0xca; prmt.b32 %r5, %r1, 0, 0xba98; }",
    "shf.l.wrap.b32 %r1, %r2, %r2, 5; // rotate\ncvt.sat.u8.s32 %rs1, %r1;",
    ".visible .entry k(\n.param .u64 out,\n.param .u32 n\n)\n{\n.reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .pred %p1;\nld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n$L1:\nst.global.v2.u32 [%rd1+4], {%r2, %r1};\nld.global.s8 %r3, [%rd1+-1];\nadd.s64 %rd1, %rd1, 8;\nsub.s32 %r1, %r1, 1;\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 bra $L1;\nret;\n}",
    ".reg .b32 %r<5>;\nadd.cc.u32 %r1, %r2, %r3;\naddc.cc.u32 %r4, %r2, 0;\nmadc.hi.u32 %r0, %r1, %r4, %r3;\nsubc.u32 %r2, %r2, 1;\ncvta.to.global.u64 %rd1, %rd2;\nexit;",
];

#[test]
fn prmt_sign_replication_by_hand() {
    // Bytes 0x80 and 0x7f of a: nibble 8 replicates byte 0's sign, 9 byte 1's.
    assert_eq!(
        one("prmt.b32 d, a, b, 0x9898;", &[0x7f80, 0, 0x9898]),
        0x00ff_00ff
    );
    assert_eq!(
        one("prmt.b32 d, a, b, c;", &[0x1234_5678, 0x9abc_def0, 0x3210]),
        0x1234_5678
    );
    assert_eq!(
        one("prmt.b32 d, a, b, c;", &[0x1234_5678, 0x9abc_def0, 0x7654]),
        0x9abc_def0
    );
}

/// A float literal as a shift amount is refused, as ptxas 13.5 refuses it (the decisions are in
/// `tests/data/ptxas-programs.jsonl`), with a message naming the amount; as a `.b32` value
/// beside it, a `0f` literal is read as its bits.
#[test]
fn a_shift_amount_takes_no_float_literal() {
    for (text, amount) in [
        ("shf.l.wrap.b32 d, a, b, 0f3f800000;", "c"),
        ("shf.r.clamp.b32 d, a, b, 0d3ff0000000000000;", "c"),
        ("shl.b32 d, a, 0f3f800000;", "b"),
        ("shr.u64 d, a, 0f3f800000;", "b"),
    ] {
        let e = parse_op(text).expect_err(text);
        let op = text.split('.').next().unwrap();
        assert_eq!(
            e.message,
            format!(
                "{amount} of '{op}' is a shift amount: write an integer, not a floating-point literal"
            ),
            "{text}"
        );
        assert!(text[e.span.clone()].starts_with("0"), "{text}: {e}");
    }
    // a = 0x3f800000 (1.0's bits), b = 0, shifted left by c = 4: the top nibble of a.
    let insn = ptxlab_core::insn::check("shf.l.wrap.b32 d, 0f3f800000, b, c;").unwrap();
    assert_eq!(insn.value(&ptxlab_core::Inputs::new(0, 0, 4, 0)), 0x3);
}

/// ptxas's decisions, `tests/data/ptxas-programs.jsonl`: one JSON object per line.
fn ptxas_decisions() -> Vec<serde_json::Value> {
    decisions_in(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/ptxas-programs.jsonl"
    ))
}

/// One JSON object per line of `path`.
fn decisions_in(path: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The texts of the forms ptxas accepted.
fn accepted_forms() -> Vec<String> {
    ptxas_decisions()
        .into_iter()
        .filter(|v| v["accepted"].as_bool().expect("accepted"))
        .map(|v| v["ptx"].as_str().expect("ptx").to_string())
        .collect()
}

/// Words written apart and `_` operands (`tests/data/ptxas-spacing.jsonl`, made by
/// `scripts/ptxas_spacing.py`): the one reader takes `and .b32` and `vadd.u32 .u32.u32` as
/// ptxas does, refuses a word that belongs to the opcode written apart (`mad .lo`, `shf .l`,
/// `cvt .pack`), and `_` where a video or integer arithmetic instruction reads or writes a
/// register. Every decision, of both kinds of instruction, agrees.
#[test]
fn ptxas_spacing_and_sinks_one_by_one() {
    let decisions = decisions_in(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/ptxas-spacing.jsonl"
    ));
    let (mut spaced, mut sinks, mut table) = (0, 0, 0);
    let mut bad = Vec::new();
    for v in &decisions {
        let ptx = v["ptx"].as_str().expect("ptx");
        let accepted = v["accepted"].as_bool().expect("accepted");
        let ours = ptxlab_core::insn::check(ptx);
        spaced += usize::from(ptx.contains(" .") && accepted);
        sinks += usize::from(ptx.contains('_') && !accepted);
        table += usize::from(ours.as_ref().is_ok_and(|i| i.opcode().is_some()));
        if ours.is_ok() != accepted {
            let why = ours.err().map(|d| d.to_string());
            bad.push(format!("{ptx}  ptxas: {}  ours: {why:?}", v["ptxas"]));
        }
    }
    assert!(
        spaced > 800 && sinks > 800 && table > 50,
        "{spaced} spaced, {sinks} sinks, {table} table forms"
    );
    assert!(
        bad.is_empty(),
        "{} of {} disagree:\n{}",
        bad.len(),
        decisions.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

#[test]
fn ptxas_decisions_one_by_one() {
    let (mut n, mut acc) = (0, 0);
    let mut bad = Vec::new();
    for v in ptxas_decisions() {
        let ptx = v["ptx"].as_str().expect("ptx");
        let accepted = v["accepted"].as_bool().expect("accepted");
        n += 1;
        acc += accepted as usize;
        let ours = check_any(ptx);
        if ours.is_ok() != accepted {
            bad.push(format!(
                "{ptx}  ptxas: {}  ours: {:?}",
                v["ptxas"],
                ours.err().map(|d| d.to_string())
            ));
        }
    }
    assert!(
        n > 5000 && acc > 1500 && n - acc > 1500,
        "{n} decisions, {acc} accepted"
    );
    assert!(
        bad.is_empty(),
        "{} of {n} disagree:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

/// Every form ptxas accepts (`tests/data/ptxas-programs.jsonl`), on edge and random values:
/// the quiet evaluation (sweeps, batches, program runs) gives the values and notable events of
/// the traced one.
#[test]
fn quiet_evaluation_agrees_on_every_accepted_form() {
    let mut r = ptxlab_core::gen::Rng::new(0x9e7);
    let edges = [
        0u64,
        1,
        0x7f,
        0x80,
        0xffff_ffff,
        0x8000_0000,
        31,
        32,
        33,
        64,
        u64::MAX,
    ];
    let mut forms = 0;
    for ptx in accepted_forms() {
        let Ok(read) = parse_op(&ptx) else {
            continue;
        };
        let insn = read.as_op().expect("a program row");
        forms += 1;
        for k in 0..24 {
            let src: Vec<u64> = (0..insn.srcs.len())
                .map(|i| {
                    let x = if k < edges.len() {
                        edges[(k + i) % edges.len()]
                    } else {
                        r.value()
                    };
                    x & isa::mask(insn.src_bits(i))
                })
                .collect();
            quiet_agrees(insn, &src, &insn.eval(&src));
        }
    }
    assert!(forms > 1500, "only {forms} accepted forms parsed");
}

/// The sweep and the plan read a program instruction's sources once for all cases
/// (immediates in place, register sources masked to the bits they read). On every form ptxas
/// accepts, with register values wider than the operands, each cell of a sweep, each
/// `Instruction::value` and each case of the instruction's plan (`Instruction::plan`) equals the traced evaluation's first destination and the quiet evaluation's
/// flags, which read the sources case by case.
#[test]
fn sources_read_once_agree_on_every_accepted_form() {
    use ptxlab_core::insn::{check, op_sources};
    use ptxlab_core::sweep::{default_axes, sweep};
    use ptxlab_core::Inputs;
    let mut r = ptxlab_core::gen::Rng::new(0x5ee);
    let mut forms = 0;
    for ptx in accepted_forms() {
        let Ok(insn) = check(&ptx) else {
            continue;
        };
        let Some(op) = insn.as_op() else {
            continue;
        };
        forms += 1;
        let (x, y) = default_axes(&insn);
        let base = Inputs::new(r.next_u64(), r.next_u64(), r.next_u64(), r.next_u64());
        let (x, y) = (
            x.with_range(r.next_u64(), r.next_u64(), 3),
            y.with_range(r.next_u64(), r.next_u64(), 2),
        );
        // Also both axes on one field, where the y axis wins (as in `case_at`).
        let same = x.clone().with_range(r.next_u64(), r.next_u64(), 2);
        let s2 = sweep(&insn, &base, &x, &same);
        for at in 0..6u32 {
            let cell = ptxlab_core::sweep::case_at(&base, &x, &same, at % 3, at / 3);
            let traced = insn.evaluate(&cell).values[0].value.unwrap_or(0);
            assert_eq!(s2.d[at as usize], traced, "{}: one field", insn.canonical());
        }
        let s = sweep(&insn, &base, &x, &y);
        let plan = insn.plan();
        for row in 0..2 {
            for col in 0..3 {
                let cell = ptxlab_core::sweep::case_at(&base, &x, &y, col, row);
                let traced = insn.evaluate(&cell).values[0].value.unwrap_or(0);
                let (_, flags) = op.eval_quiet(&op_sources(op, &cell));
                let at = (row * 3 + col) as usize;
                assert_eq!(
                    s.d[at],
                    traced,
                    "{}: sweep cell {col},{row}",
                    insn.canonical()
                );
                assert_eq!(
                    s.flags[at],
                    flags,
                    "{}: flags of cell {col},{row}",
                    insn.canonical()
                );
                assert_eq!(insn.value(&cell), traced, "{}: value", insn.canonical());
                assert_eq!(plan.eval(&cell), traced, "{}: plan", insn.canonical());
                assert_eq!(
                    plan.eval_flags(&cell),
                    (traced, flags),
                    "{}",
                    insn.canonical()
                );
            }
        }
    }
    assert!(forms > 1500, "only {forms} accepted forms checked");
}

/// Every destination of a statement, with the carry flag (when it reads one) after `src`.
fn all(text: &str, src: &[u64]) -> Vec<u64> {
    eval(text, src)
        .into_iter()
        .map(|v| v.expect("written"))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn slct_against_the_model(a in value(), b in value(), c in prop_oneof![
        any::<u32>(),
        Just(0u32), Just(0x8000_0000), Just(0x7fc0_0000), Just(0xffc0_0001),
        Just(0x0000_0001), Just(0x8000_0001), Just(0x007f_ffff), Just(0x807f_ffff),
        Just(0x7f80_0000), Just(0xff80_0000),
    ]) {
        for (t, w) in [("b16", 16), ("u32", 32), ("s64", 64)] {
            let m = isa::mask(w);
            let s = one(&format!("slct.{t}.s32 d, a, b, c;"), &[a, b, c as u64]);
            prop_assert_eq!(s, isa::slct_s32(a & m, b & m, c));
            for ftz in [false, true] {
                let f = if ftz { ".ftz" } else { "" };
                let got = one(&format!("slct{f}.{t}.f32 d, a, b, c;"), &[a, b, c as u64]);
                prop_assert_eq!(got, isa::slct_f32(ftz, a & m, b & m, c), "c = {:#x} ftz {}", c, ftz);
            }
        }
    }

    #[test]
    fn cvt_pack_against_the_model(a in value(), b in value(), c in any::<u32>()) {
        let (a, b) = (a as u32, b as u32);
        for (t, w, s) in [("u16", 16, false), ("s16", 16, true)] {
            let got = one(&format!("cvt.pack.sat.{t}.s32 d, a, b;"), &[a as u64, b as u64]);
            prop_assert_eq!(got, isa::cvt_pack(w, s, a, b, 0) as u64, "{}", t);
        }
        for (t, w, s) in [("u8", 8, false), ("s8", 8, true), ("u4", 4, false), ("s4", 4, true), ("u2", 2, false), ("s2", 2, true)] {
            let got = one(&format!("cvt.pack.sat.{t}.s32.b32 d, a, b, c;"), &[a as u64, b as u64, c as u64]);
            prop_assert_eq!(got, isa::cvt_pack(w, s, a, b, c) as u64, "{}", t);
        }
    }

    #[test]
    fn carry_chain_against_the_model(a in value(), b in value(), c in value(), cf in any::<bool>()) {
        for (t, w, s) in [("u32", 32, false), ("s32", 32, true), ("u64", 64, false), ("s64", 64, true)] {
            for op in ["add", "sub"] {
                let (d, co) = isa::carry(op, w, s, false, a, b, 0, None);
                prop_assert_eq!(all(&format!("{op}.cc.{t} d, a, b;"), &[a, b]), vec![d, co]);
                let (d, co) = isa::carry(op, w, s, false, a, b, 0, Some(cf));
                prop_assert_eq!(all(&format!("{op}c.cc.{t} d, a, b;"), &[a, b, cf as u64]), vec![d, co]);
                prop_assert_eq!(all(&format!("{op}c.{t} d, a, b;"), &[a, b, cf as u64]), vec![d]);
            }
            for (h, hi) in [("lo", false), ("hi", true)] {
                let (d, co) = isa::carry("mad", w, s, hi, a, b, c, None);
                prop_assert_eq!(all(&format!("mad.{h}.cc.{t} d, a, b, c;"), &[a, b, c]), vec![d, co]);
                let (d, co) = isa::carry("mad", w, s, hi, a, b, c, Some(cf));
                prop_assert_eq!(all(&format!("madc.{h}.cc.{t} d, a, b, c;"), &[a, b, c, cf as u64]), vec![d, co]);
            }
        }
        for (t, s) in [("u16", false), ("s16", true)] {
            let (d, _) = isa::carry("add", 16, s, false, a, b, 0, Some(cf));
            prop_assert_eq!(all(&format!("addc.{t} d, a, b;"), &[a, b, cf as u64]), vec![d]);
            let (d, _) = isa::carry("mad", 16, s, true, a, b, c, Some(cf));
            prop_assert_eq!(all(&format!("madc.hi.{t} d, a, b, c;"), &[a, b, c, cf as u64]), vec![d]);
        }
    }
}

/// The Learn note of each comparison word says what the word computes: on floats, where a
/// NaN makes it true or false; `num` and `nan` in words of their own (a relation symbol does
/// not describe them); on an unsigned word, that it reads the values as unsigned.
#[test]
fn comparison_notes_say_what_the_word_computes() {
    use ptxlab_core::isa::{Cmp, Type};
    for (t, ty) in [("f32", Type::F32), ("u32", Type::U32), ("s32", Type::S32)] {
        for &c in Cmp::for_type(ty) {
            let read = parse_op(&format!("setp.{}.{t} p, a, b;", c.name())).unwrap();
            let op = read.as_op().expect("a program row");
            let notes = op.notes();
            let note = notes
                .iter()
                .find(|n| n.starts_with(&format!(".{}:", c.name())))
                .unwrap_or_else(|| panic!("no note for .{}: {notes:?}", c.name()));
            let says = |w: &str| note.contains(w);
            match c {
                Cmp::Num => assert!(says("neither a nor b is NaN"), "{note}"),
                Cmp::Nan => assert!(says("true when a or b is NaN"), "{note}"),
                _ if c.on_nan() => assert!(says("or true when a or b is NaN"), "{note}"),
                _ if ty.is_float() => assert!(says("false when a or b is NaN"), "{note}"),
                _ => assert!(!says("NaN"), "{note}"),
            }
            assert_eq!(c.reads_unsigned(), says("as unsigned"), "{note}");
            if !matches!(c, Cmp::Num | Cmp::Nan) {
                assert!(says(&format!("a {} b", c.symbol())), "{note}");
            }
            // The comparison's stage names NaN where the word reads it.
            let out = op.eval(&[0x7fc0_0000, 0x3f80_0000]);
            let stage = out
                .trace
                .stages
                .iter()
                .find(|s| s.kind == ptxlab_core::trace::StageKind::Compare)
                .expect("a comparison stage");
            let nan = c.on_nan() || c == Cmp::Num;
            assert_eq!(stage.op.contains("isnan"), nan, "{}", stage.op);
            assert_eq!(stage.label.contains("NaN"), nan, "{}", stage.label);
        }
    }
}
