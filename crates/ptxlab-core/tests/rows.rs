//! Every row of the instruction table, walked through the whole pipeline: its example is
//! accepted, names its opcode, evaluates in both readings and traces to the same value, and the
//! widths, signs and selector rules the row gives agree with what the checker accepts.

use ptxlab_core::isa::{selector_rules, source_counts, widths, SelRule};
use ptxlab_core::{check, evaluate, evaluate_reading, evaluate_traced, Inputs, Reading, OPCODES};

#[test]
fn every_example_checks_and_evaluates() {
    for row in OPCODES {
        let insn = check(row.example).unwrap_or_else(|e| panic!("{}: {e}", row.example));
        assert_eq!(insn.opcode, row.opcode, "{}", row.example);
        let (lo, hi) = source_counts(row.opcode);
        assert!((lo..=hi).contains(&insn.srcs.len()), "{}", row.example);
        let w = widths(row.opcode, &insn.form, insn.srcs.len());
        assert_eq!(w, insn.widths());
        let i = Inputs::new(0x8765_4321_fedc_ba98, 0x1234_5678_9abc_def0, 7, 5);
        let d = evaluate(&insn, &i);
        assert_eq!(d, evaluate_reading(&insn, &i, Reading::Hardware));
        let _ = evaluate_reading(&insn, &i, Reading::Text);
        let t = evaluate_traced(&insn, &i);
        assert_eq!(t.family, row.family, "{}", row.example);
        assert_eq!(t.measured, row.measured, "{}", row.example);
        let literal = ptxlab_core::evaluate_traced_reading(&insn, &i, Reading::Text);
        assert_eq!(literal.measured, None, "{}", row.example);
        assert_eq!(t.result.raw() as u64, d, "{}", row.example);
        assert_eq!(t.result.bits, w.dst, "{}", row.example);
        for (k, s) in t.sources.iter().enumerate() {
            assert_eq!(s.bits, w.src[k], "{}: source {k}", row.example);
        }
    }
}

#[test]
fn every_listed_selector_is_accepted_where_the_row_allows_it() {
    for row in OPCODES {
        let insn = check(row.example).unwrap();
        let merge = insn.form.secop.is_none() && insn.srcs.len() == 3;
        let rules = selector_rules(row.opcode, merge);
        for k in 0..insn.srcs.len().min(2) {
            let rule = rules[k + 1];
            for sel in rule.selectors() {
                let mut c = insn.clone();
                c.srcs[k].sel = Some(sel);
                let text = c.canonical();
                if rule == SelRule::Scalar {
                    assert!(check(&text).is_ok(), "{text}");
                }
            }
            if rule == SelRule::None {
                let mut c = insn.clone();
                c.srcs[k].sel = Some(ptxlab_core::ast::Selector::new(
                    ptxlab_core::ast::SelKind::H,
                    &[0],
                ));
                assert!(check(&c.canonical()).is_err(), "{}", c.canonical());
            }
        }
    }
}

/// Every row of the program instructions: its example is accepted and evaluates with a trace
/// that agrees with its values, and the types the row lists are exactly those the checker
/// accepts in a form that varies nothing else.
#[test]
fn every_program_row_checks_evaluates_and_lists_its_types() {
    use ptxlab_core::isa::{POp, PType, OP_ROWS};
    use ptxlab_core::ops::parse_op;
    for row in OP_ROWS {
        let insn = parse_op(row.example).unwrap_or_else(|e| panic!("{}: {e}", row.example));
        assert_eq!(insn.op, row.op, "{}", row.example);
        assert!(row.types.contains(&insn.ty), "{}", row.example);
        assert_eq!(POp::from_name(row.name), Some(row.op));
        assert!(!row.summary.is_empty() && row.measured.is_some());
        let src: Vec<u64> = (0..insn.srcs.len())
            .map(|i| 0x8765_4321_fedc_ba98u64.rotate_left(8 * i as u32))
            .collect();
        let out = insn.eval(&src);
        let first = out.values.iter().flatten().next().copied().unwrap();
        assert_eq!(out.trace.result.raw() as u64, first, "{}", row.example);
        assert_eq!(out.trace.opcode, row.name);
        // The trace names the row's own family (a `setp` is a comparison, not "integer").
        assert_eq!(out.trace.family, row.family, "{}", row.example);
        assert_eq!(out.trace.measured, row.measured, "{}", row.example);
        assert!(out.trace.doc_url.ends_with(row.doc_anchor));
        let form = |t: &str| match row.op {
            POp::Setp => format!("setp.eq.{t} p, a, b;"),
            POp::Cvt => format!("cvt.{t}.s32 d, a;"),
            POp::Mov => format!("mov.{t} d, a;"),
            POp::Shf => format!("shf.l.wrap.{t} d, a, b, c;"),
            // The narrow types read a c of type .b32; the 16-bit ones none.
            POp::CvtPack if PType::from_name(t).is_some_and(|x| x.bits() < 16) => {
                format!("cvt.pack.sat.{t}.s32.b32 d, a, b, c;")
            }
            POp::CvtPack => format!("cvt.pack.sat.{t}.s32 d, a, b;"),
            // Without .cc, which the 16-bit types do not take.
            POp::Addc => format!("addc.{t} d, a, b;"),
            POp::Subc => format!("subc.{t} d, a, b;"),
            POp::Madc => format!("madc.hi.{t} d, a, b, c;"),
            _ => row
                .example
                .replacen(&format!(".{}", insn.ty.name()), &format!(".{t}"), 1),
        };
        for t in PType::ALL {
            let text = form(t.name());
            assert_eq!(
                parse_op(&text).is_ok(),
                row.types.contains(&t),
                "{text}: {:?}",
                parse_op(&text).err()
            );
        }
        // The second type: cvt's source, slct's selector, cvt.pack's a and b, set's compared values.
        let second = match row.op {
            POp::Cvt => Some("cvt.s32.{} d, a;"),
            POp::Slct => Some("slct.u32.{} d, a, b, c;"),
            POp::Set => Some("set.eq.u32.{} d, a, b;"),
            POp::CvtPack => Some("cvt.pack.sat.s16.{} d, a, b;"),
            _ => None,
        };
        if let Some(second) = second {
            for t in PType::ALL {
                let text = second.replace("{}", t.name());
                assert_eq!(
                    parse_op(&text).is_ok(),
                    row.src_types.contains(&t),
                    "{text}"
                );
            }
        }
    }
}

/// Every modifier group of every program row is of a known kind, so the pickers label it and
/// set it without naming the opcode; each word of the group, set on the row's example, reads
/// back as that word (or, where the instruction cannot carry it, as ptxas would refuse it).
#[test]
fn every_program_modifier_group_has_a_kind_the_pickers_read() {
    use ptxlab_core::isa::{OpModGroup, OP_ROWS};
    use ptxlab_core::ops::parse_op;
    for row in OP_ROWS {
        let ex = parse_op(row.example).unwrap_or_else(|d| panic!("{}: {d}", row.example));
        for (kind, _required, words) in row.mod_groups() {
            assert_eq!(OpModGroup::of(&words), Some(kind), "{}", row.name);
            for w in words {
                let with = ex.with_modifier(kind, Some(w));
                let text = with.canonical();
                if let Ok(back) = parse_op(&text) {
                    assert_eq!(back.modifier(kind), Some(w), "{text}");
                    assert_eq!(back.canonical(), text);
                }
            }
        }
    }
}
