//! One instruction of either kind behind `insn::check` and `Instruction::evaluate`: the 47 table
//! opcodes read as before, the 23 program instructions read by their own parser, their sources
//! bound by position, and no text or value panics.

use proptest::prelude::*;
use ptxlab_core::insn::{check, op_sources};
use ptxlab_core::isa::OP_ROWS;
use ptxlab_core::Instruction;
use ptxlab_core::{batch, evaluate, evaluate_traced, sweep, Inputs, OPCODES};

const VALUES: Inputs = Inputs {
    a: 0x8765_4321_fedc_ba98,
    b: 0x1234_5678_9abc_def0,
    c: 0x0000_0000_0000_7c40,
    e: 5,
};

#[test]
fn table_opcodes_read_as_before() {
    for row in OPCODES {
        let i = check(row.example).unwrap();
        assert!(i.opcode().is_some(), "{}", row.example);
        let out = i.evaluate(&VALUES);
        assert_eq!(out.values.len(), 1);
        assert_eq!(out.values[0].value, Some(evaluate(&i, &VALUES)));
        assert_eq!(out.trace, evaluate_traced(&i, &VALUES));
    }
}

#[test]
fn program_rows_evaluate_with_every_destination() {
    for row in OP_ROWS {
        let insn = check(row.example).unwrap_or_else(|d| panic!("{}: {d}", row.example));
        let op = insn.as_op().expect(row.example);
        assert_eq!(insn.name(), row.name);
        assert_eq!(insn.measured(), Some(ptxlab_core::isa::Gpu::H100));
        assert!(insn.doc_url().ends_with(row.doc_anchor));
        let out = insn.evaluate(&VALUES);
        let direct = op.eval(&op_sources(op, &VALUES));
        let values: Vec<Option<u64>> = out.values.iter().map(|w| w.value).collect();
        assert_eq!(values, direct.values, "{}", row.example);
        assert_eq!(out.values.len(), op.dsts.len());
        let w = insn.widths();
        assert_eq!(w.sources, op.srcs.len());
        assert_eq!(out.values[0].bits, w.dst);
        assert_eq!(insn.value(&VALUES), values[0].unwrap_or(0));
    }
}

#[test]
fn sources_bind_by_position_and_immediates_stand_for_themselves() {
    let prmt = check("prmt.b32 d, a, b, c;").unwrap();
    let d = |i: &Instruction, v: Inputs| i.evaluate(&v).values[0].value.unwrap();
    let v = Inputs::new(0x1122_3344, 0x8899_aabb, 0x7c40, 0);
    assert_eq!(d(&prmt, v), 0x88ff_bb44);
    let imm = check("prmt.b32 d, a, b, 0x7c40;").unwrap();
    assert_eq!(d(&imm, Inputs { c: 0, ..v }), 0x88ff_bb44);
    let names: Vec<String> = imm
        .register_sources()
        .into_iter()
        .map(|(_, n, _)| n)
        .collect();
    assert_eq!(names, ["a", "b"]);
    // A packing mov reads its parts from a, b, ...
    let pack = check("mov.b32 d, {lo, hi};").unwrap();
    assert_eq!(d(&pack, Inputs::new(0x1234, 0xabcd, 0, 0)), 0xabcd_1234);
    // setp's third source is the predicate c.
    let setp = check("setp.eq.or.u32 p|q, a, b, c;").unwrap();
    let out = setp.evaluate(&Inputs::new(1, 2, 1, 0));
    assert_eq!(
        (out.values[0].value, out.values[1].value),
        (Some(1), Some(1))
    );
}

#[test]
fn guards_and_comments_are_kept_or_dropped_as_in_the_table() {
    let g = check("@!%p1 not.b16 d, a; // flip").unwrap();
    assert_eq!(g.canonical(), "@!%p1 not.b16 d, a;");
    assert_eq!(
        g.evaluate(&Inputs::new(0x00ff, 0, 0, 0)).values[0].value,
        Some(0xff00)
    );
    assert_eq!(
        g.evaluate(&Inputs::default()).trace.instruction,
        g.canonical()
    );
}

#[test]
fn errors_point_at_the_text() {
    let t = "@p cvt.sat.s32.s16 d, a;";
    let e = check(t).unwrap_err();
    assert_eq!(&t[e.span.clone()], ".sat");
    let t = "  shf.l.b32 d, a, b, c;";
    let e = check(t).unwrap_err();
    assert!(e.message.contains("mode"), "{e}");
    assert_eq!(e.allowed, [".wrap", ".clamp"]);
    let e = check("cvt.u32.u16 r, r;").unwrap();
    assert_eq!(e.name(), "cvt");
    let e = check("and.b32 r, r, p;").unwrap();
    assert_eq!(e.name(), "and");
    let e = check("selp.b32 r, r, r, r;").unwrap_err();
    assert!(e.message.contains("one register cannot be both"), "{e}");
    let e = check("lop4.b32 d, a, b, c, 1;").unwrap_err();
    assert_eq!(e.allowed, ["lop3"]);
    // A decimal literal past the largest double is a constant overflow to ptxas 13.5
    // (`mov.f32 d, 1e400;`, `-1e400`, `mov.f64 d, 1.8e308;`), not infinity; 1e308 is taken.
    for text in [
        "mov.f32 d, 1e400;",
        "mov.f32 d, -1e400;",
        "mov.f64 d, 1.8e308;",
    ] {
        let e = check(text).unwrap_err();
        assert!(e.message.contains("constant overflow"), "{text}: {e}");
        assert!(text[e.span.clone()].ends_with("e400") || text[e.span].ends_with("e308"));
    }
    assert!(check("mov.f64 d, 1e308;").is_ok());
    // A word no row has: the checker suggests from both tables.
    let e = check("@p xyz.b32 d, a;").unwrap_err();
    assert_eq!(e.message, "unknown opcode 'xyz'");
    assert_eq!(&"@p xyz.b32 d, a;"[e.span.clone()], "xyz");
    assert_eq!(e.allowed.len(), OPCODES.len() + OP_ROWS.len());
    assert!(check("vadd4.u32.u32.u32 d, a, b, c;").is_ok());
    // The crate's `check` and `parse` are the same reader: every program instruction's
    // example reads there too, into the same record.
    for row in OP_ROWS {
        let one = ptxlab_core::check(row.example).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(one, check(row.example).unwrap(), "{}", row.example);
        assert_eq!(ptxlab_core::parse(row.example).unwrap(), one);
    }
    // add.cc, cvt.pack: rows of their own, found from the word and its modifiers.
    assert_eq!(check("add.cc.u32 d, a, b;").unwrap().name(), "add.cc");
    assert_eq!(check("mad.hi.cc.s64 d, a, b, c;").unwrap().name(), "mad.cc");
    assert_eq!(
        check("cvt.pack.sat.s4.s32.b32 d, a, b, c;").unwrap().name(),
        "cvt.pack"
    );
    // Written apart from the opcode, a word of the group that comes first is refused as the
    // opcode's own; another word is not the opcode's, on either table.
    let e = check("mul .lo.u32 d, a, b;").unwrap_err();
    assert!(e.message.contains("belongs to the opcode (mul.lo)"), "{e}");
    let e = check("madc .hi.cc.u32 d, a, b, c;").unwrap_err();
    assert!(e.message.contains("belongs to the opcode (madc.hi)"), "{e}");
    let e = check("mad .sat.hi.s32 d, a, b, c;").unwrap_err();
    assert!(
        e.message.starts_with("'.hi' must come right after 'mad'"),
        "{e}"
    );
    let e = check("shf .wrap.l.b32 d, a, b, c;").unwrap_err();
    assert!(
        e.message.starts_with("'.l' must come right after 'shf'"),
        "{e}"
    );
    let e = check("mad.cc.lo.u32 d, a, b, c;").unwrap_err();
    assert!(e.message.contains("must come right after 'mad'"), "{e}");
    // One definition of add.cc: the table's add takes no .cc, so .sat with it is refused by
    // the carry row, pointing at .sat.
    let text = "add.cc.sat.s32 d, a, b;";
    let e = check(text).unwrap_err();
    assert_eq!(&text[e.span.clone()], ".sat", "{e}");
    assert!(ptxlab_core::check(text).is_err());
}

#[test]
fn ignored_suffixes_read_as_without() {
    // ptxas 13.5 accepts .b01/.b12/.b23 on a 32-bit or predicate register of the program
    // instructions, destination or source, and gives the same machine code as without them
    // (tests/data/ptxas-programs.jsonl has the decisions).
    let v = Inputs::new(0x1234_5678, 0x0f0f_0f0f, 0x3210, 1);
    for (with, without) in [
        ("and.b32 d, a.b12, b;", "and.b32 d, a, b;"),
        ("and.b32 d.b23, a, b;", "and.b32 d, a, b;"),
        ("add.cc.u32 d, a, b.b01;", "add.cc.u32 d, a, b;"),
        ("prmt.b32 d, a.b23, b, c;", "prmt.b32 d, a, b, c;"),
        ("mad.lo.cc.u32 d, a, b, c.b12;", "mad.lo.cc.u32 d, a, b, c;"),
        ("shl.b64 d, a, b.b12;", "shl.b64 d, a, b;"),
        ("setp.lt.s32 p.b12, a, b;", "setp.lt.s32 p, a, b;"),
        ("selp.b32 d, a, b, c.b12;", "selp.b32 d, a, b, c;"),
    ] {
        let a = check(with).unwrap_or_else(|e| panic!("{with}: {e}"));
        let b = check(without).unwrap();
        assert_eq!(a.evaluate(&v).values, b.evaluate(&v).values, "{with}");
    }
    // ptxas refuses them on 16- and 64-bit registers, in braces, after `|` and on cvt.
    for (text, at) in [
        ("add.cc.u64 d, a.b12, b;", ".b12"),
        ("and.b16 d, a.b12, b;", ".b12"),
        ("and.b64 d.b12, a, b;", ".b12"),
        ("cvt.u32.u32 d, a.b12;", ".b12"),
        ("mov.b32 d, {lo.b12, hi};", ".b12"),
        ("setp.lt.s32 p|q.b01, a, b;", ".b01"),
    ] {
        let e = check(text).unwrap_err();
        assert_eq!(&text[e.span.clone()], at, "{text}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random text never panics the checker or the evaluator.
    #[test]
    fn random_text_never_panics(s in "\\PC{0,60}", a: u64, b: u64, c: u64) {
        if let Ok(i) = check(&s) {
            let out = i.evaluate(&Inputs::new(a, b, c, 0));
            prop_assert!(!out.values.is_empty());
        }
    }

    /// Each program row's example with one character changed, inserted or removed never
    /// panics; what checks also evaluates.
    #[test]
    fn mutated_examples_never_panic(
        row in 0..OP_ROWS.len(),
        at in 0usize..40,
        ch in prop::sample::select(vec![' ', '.', ',', '|', '{', '}', '!', '-', '_', '0', 'x', '9', 'p', ';', '@']),
        kind in 0u8..3,
        a: u64, b: u64, c: u64,
    ) {
        let mut t: Vec<char> = OP_ROWS[row].example.chars().collect();
        let k = at.min(t.len());
        match kind {
            0 => t.insert(k, ch),
            1 if k < t.len() => { t.remove(k); }
            _ if k < t.len() => t[k] = ch,
            _ => {}
        }
        let text: String = t.into_iter().collect();
        if let Ok(i) = check(&text) {
            let inputs = Inputs::new(a, b, c, 0);
            let out = i.evaluate(&inputs);
            prop_assert_eq!(out.trace.instruction, i.canonical());
            // The batch and the sweep take what checks, too.
            let lines = batch::parse_batch(&format!("{a} {b} {c}\na={a}\n"), &i);
            let rows = batch::evaluate_batch(&i, &lines);
            let _ = batch::batch_csv(&i, &rows);
            let (x, y) = sweep::default_axes(&i);
            let (x, y) = (x.with_range(a, b, 4), y.with_range(c, a, 3));
            let s = sweep::sweep(&i, &inputs, &x, &y);
            prop_assert_eq!(s.d.len(), 12);
            let cell = sweep::case_at(&inputs, &x, &y, 1, 2);
            prop_assert_eq!(s.d_at(1, 2), Some(i.value(&cell)));
        }
    }
}

/// `setp` and `vset` read one meaning of each of the six ordered comparison words: on 32-bit
/// values, `setp.CMP.T` and `vset.T.T.CMP` give the same answer.
#[test]
fn setp_and_vset_compare_alike() {
    use ptxlab_core::isa::Cmp;
    let values = [
        0u64,
        1,
        2,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_fffe,
        0xffff_ffff,
    ];
    for c in Cmp::VIDEO {
        for t in ["s32", "u32"] {
            let setp = check(&format!("setp.{}.{t} p, a, b;", c.name())).unwrap();
            let vset = check(&format!("vset.{t}.{t}.{} d, a, b;", c.name())).unwrap();
            for &a in &values {
                for &b in &values {
                    let x = Inputs::new(a, b, 0, 0);
                    assert_eq!(
                        setp.evaluate(&x).values[0].value,
                        vset.evaluate(&x).values[0].value,
                        "{c:?} {t} {a:#x} {b:#x}"
                    );
                }
            }
        }
    }
}

/// What each comparison word means, written here with Rust's own comparisons and checked
/// against `setp` for every word each type takes, on values at the edges of each type (both
/// signs, the extremes, floats' zeros, infinities, NaN and a subnormal): `p` is the answer
/// and `q` its negation.
#[test]
fn setp_answers_as_written() {
    use ptxlab_core::isa::{Cmp, Type};
    use std::cmp::Ordering;
    let ints = [
        0u64,
        1,
        2,
        0x7f,
        0x80,
        0xff,
        0x7fff,
        0x8000,
        0xffff,
        0x7fff_ffff,
    ];
    let more = [
        0x8000_0000u64,
        0xffff_ffff,
        i64::MAX as u64,
        1 << 63,
        u64::MAX,
    ];
    let f32s = [
        0u64,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f80_0000,
        0xff80_0000,
    ];
    let f32s = [&f32s[..], &[0x7fc0_0000, 0x0000_0001, 0x0000_0002]].concat();
    let f64s = [
        0u64,
        1 << 63,
        0x3ff0_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0x7ff8 << 48,
        1,
    ];
    for t in [
        "u16", "u32", "u64", "s16", "s32", "s64", "b16", "b32", "b64", "f32", "f64",
    ] {
        let ty = Type::from_name(t).unwrap();
        let n = ty.bits();
        let values: Vec<u64> = match t {
            "f32" => f32s.clone(),
            "f64" => f64s.to_vec(),
            _ => ints
                .iter()
                .chain(&more)
                .map(|v| v & (u64::MAX >> (64 - n)))
                .collect(),
        };
        for &c in Cmp::for_type(ty) {
            let insn = check(&format!("setp.{}.{t} p|q, a, b;", c.name())).unwrap();
            for &a in &values {
                for &b in &values {
                    // The order of a and b as the word reads them; None where one is NaN.
                    let order = if t == "f32" {
                        f32::from_bits(a as u32).partial_cmp(&f32::from_bits(b as u32))
                    } else if t == "f64" {
                        f64::from_bits(a).partial_cmp(&f64::from_bits(b))
                    } else if ty.is_signed() {
                        let s = |v: u64| ((v << (64 - n)) as i64) >> (64 - n);
                        Some(s(a).cmp(&s(b)))
                    } else {
                        Some(a.cmp(&b))
                    };
                    let want = match (c.name(), order) {
                        ("num", o) => o.is_some(),
                        ("nan", o) => o.is_none(),
                        (w, None) => w.len() == 3 && w.ends_with('u'),
                        ("eq" | "equ", Some(o)) => o == Ordering::Equal,
                        ("ne" | "neu", Some(o)) => o != Ordering::Equal,
                        ("lt" | "ltu" | "lo", Some(o)) => o == Ordering::Less,
                        ("le" | "leu" | "ls", Some(o)) => o != Ordering::Greater,
                        ("gt" | "gtu" | "hi", Some(o)) => o == Ordering::Greater,
                        ("ge" | "geu" | "hs", Some(o)) => o != Ordering::Less,
                        (w, _) => panic!("a word this test does not know: {w}"),
                    };
                    let out = insn.evaluate(&Inputs::new(a, b, 0, 0));
                    let (p, q) = (out.values[0].value, out.values[1].value);
                    assert_eq!(p, Some(u64::from(want)), "{t} {c:?} {a:#x} {b:#x}");
                    assert_eq!(q, Some(u64::from(!want)), "{t} {c:?} {a:#x} {b:#x}");
                }
            }
        }
    }
}

/// `-a, -b` cancel on every instruction but `vmad`: the canonical text keeps them, the values are
/// those without them, and the notes (Learn, `ptxlab explain`) say so on both tables; on `vmad`,
/// which negates, and without negations there is no such note.
#[test]
fn cancelling_negations_are_kept_in_the_text_and_explained() {
    use ptxlab_core::notes::{for_insn, negation_note};
    let v = Inputs::new(0xffff_fff0, 7, 0x1234, 1);
    for (with, without) in [
        ("and.b32 d, -a, -b;", "and.b32 d, a, b;"),
        ("setp.lt.s32 p|q, -a, -b;", "setp.lt.s32 p|q, a, b;"),
        ("add.cc.u32 d, -a, -b;", "add.cc.u32 d, a, b;"),
        ("add.u32 d, -a, -b;", "add.u32 d, a, b;"),
        ("dp4a.u32.u32 d, -a, -b, c;", "dp4a.u32.u32 d, a, b, c;"),
    ] {
        let (a, b) = (check(with).unwrap(), check(without).unwrap());
        assert_eq!(a.canonical(), with, "{with}");
        assert_eq!(a.evaluate(&v).values, b.evaluate(&v).values, "{with}");
        let note = negation_note(&a).unwrap_or_else(|| panic!("{with}: no note"));
        assert!(note.text.starts_with("-a and -b cancel"), "{with}");
        assert!(for_insn(&a).contains(&note), "{with}");
        assert!(negation_note(&b).is_none(), "{without}");
    }
    assert!(negation_note(&check("vmad.s32.u32.u32 d, -a, -b, c;").unwrap()).is_none());
}

/// A program instruction's record changed by hand into a shape its row does not have (a
/// source or a destination too few or too many, braces, a type its row lacks) is refused by
/// `validate`, and every way to evaluate it gives an answer without a panic.
#[test]
fn program_records_changed_by_hand_are_refused_and_never_panic() {
    use ptxlab_core::ast::{Operand, Type};
    use ptxlab_core::{evaluate, evaluate_traced, validate};
    let changes: [fn(&mut ptxlab_core::Instruction); 9] = [
        |i| drop(i.srcs.pop()),
        |i| i.srcs.clear(),
        |i| i.srcs.push(Operand::reg("x")),
        |i| i.dsts.clear(),
        |i| i.dsts.extend([Operand::reg("y"), Operand::reg("z")]),
        |i| i.pack = !i.pack,
        |i| i.unpack = !i.unpack,
        |i| i.form.types[0] = Some(Type::B128),
        |i| i.form.types = [None; 3],
    ];
    let mut refused = 0;
    for row in OP_ROWS {
        let insn = check(row.example).unwrap();
        assert!(validate(&insn).is_ok(), "{}", row.example);
        for (k, change) in changes.iter().enumerate() {
            let mut i = insn.clone();
            change(&mut i);
            if i == insn {
                continue;
            }
            let ok = validate(&i).is_ok();
            refused += usize::from(!ok);
            // Whatever the verdict, nothing panics.
            let d = evaluate(&i, &VALUES);
            let _ = evaluate_traced(&i, &VALUES);
            let _ = i.evaluate(&VALUES);
            let _ = i.values_quiet(&VALUES);
            let _ = i.canonical();
            let plan = ptxlab_core::Plan::new(&i);
            assert_eq!(plan.eval(&VALUES), d, "{} change {k}", row.example);
            // What the evaluation cannot read, the validator refuses.
            if !i.as_op().unwrap().runnable() {
                assert!(!ok, "{} change {k}: {}", row.example, i.canonical());
                assert!(i.evaluate(&VALUES).values.iter().all(|v| v.value.is_none()));
            }
        }
    }
    assert!(refused > 100, "only {refused} changed records refused");
}
