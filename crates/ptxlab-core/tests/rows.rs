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
