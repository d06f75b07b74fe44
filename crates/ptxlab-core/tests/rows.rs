//! Every row of the instruction table, walked through the whole pipeline: its example is
//! accepted, names its opcode, evaluates in both readings and traces to the same value, and the
//! widths, signs and selector rules the row gives agree with what the checker accepts.

use ptxlab_core::isa::{selector_rules, source_counts, widths, Instr, SelRule};
use ptxlab_core::{check, evaluate, evaluate_reading, evaluate_traced, Inputs, Opcode, Reading};

#[test]
fn every_example_checks_and_evaluates() {
    for &opcode in Opcode::ALL {
        let row = opcode.info();
        assert_eq!(row.instr, Instr::Table(opcode));
        let insn = check(row.example).unwrap_or_else(|e| panic!("{}: {e}", row.example));
        assert_eq!(insn.instr, Instr::Table(opcode), "{}", row.example);
        let (lo, hi) = source_counts(opcode);
        assert!((lo..=hi).contains(&insn.srcs.len()), "{}", row.example);
        let w = widths(opcode, &insn.form, insn.srcs.len());
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
    for &opcode in Opcode::ALL {
        let row = opcode.info();
        let insn = check(row.example).unwrap();
        let merge = insn.form.secop.is_none() && insn.srcs.len() == 3;
        let rules = selector_rules(opcode, merge);
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
    use ptxlab_core::isa::{POp, Type};
    use ptxlab_core::ops::parse_op;
    for &op in POp::ALL {
        let row = op.row();
        assert_eq!(row.instr, Instr::Program(op));
        let read = parse_op(row.example).unwrap_or_else(|e| panic!("{}: {e}", row.example));
        let insn = read.as_op().expect("a program row");
        assert_eq!(insn.op(), op, "{}", row.example);
        assert!(row.types(0).contains(&insn.ty()), "{}", row.example);
        assert_eq!(POp::from_name(row.name), Some(op));
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
        let form = |t: &str| match op {
            POp::Setp => format!("setp.eq.{t} p, a, b;"),
            POp::Cvt => format!("cvt.{t}.s32 d, a;"),
            POp::Mov => format!("mov.{t} d, a;"),
            POp::Shf => format!("shf.l.wrap.{t} d, a, b, c;"),
            // The narrow types read a c of type .b32; the 16-bit ones none.
            POp::CvtPack if Type::from_name(t).is_some_and(|x| x.bits() < 16) => {
                format!("cvt.pack.sat.{t}.s32.b32 d, a, b, c;")
            }
            POp::CvtPack => format!("cvt.pack.sat.{t}.s32 d, a, b;"),
            // Without .cc, which the 16-bit types do not take.
            POp::Addc => format!("addc.{t} d, a, b;"),
            POp::Subc => format!("subc.{t} d, a, b;"),
            POp::Madc => format!("madc.hi.{t} d, a, b, c;"),
            _ => row
                .example
                .replacen(&format!(".{}", insn.ty().name()), &format!(".{t}"), 1),
        };
        for t in Type::ALL {
            let text = form(t.name());
            assert_eq!(
                parse_op(&text).is_ok(),
                row.types(0).contains(&t),
                "{text}: {:?}",
                parse_op(&text).err()
            );
        }
        // The second type: cvt's source, slct's selector, cvt.pack's a and b, set's compared values.
        let second = match op {
            POp::Cvt => Some("cvt.s32.{} d, a;"),
            POp::Slct => Some("slct.u32.{} d, a, b, c;"),
            POp::Set => Some("set.eq.u32.{} d, a, b;"),
            POp::CvtPack => Some("cvt.pack.sat.s16.{} d, a, b;"),
            _ => None,
        };
        if let Some(second) = second {
            for t in Type::ALL {
                let text = second.replace("{}", t.name());
                assert_eq!(parse_op(&text).is_ok(), row.types(1).contains(&t), "{text}");
            }
        }
    }
}

/// Every modifier of every program row is a [`Mod`] of the one vocabulary, so the pickers
/// label its group and set it without naming the opcode: each one, set on the row's example,
/// reads back as itself (or, where the instruction cannot carry it, is refused as ptxas
/// would); and a word the table's parser reads as a modifier means the same there, but
/// `setp`'s `.lo` and `.hi`.
#[test]
fn every_program_modifier_is_of_the_one_vocabulary() {
    use ptxlab_core::isa::{Mod, OP_ROWS};
    use ptxlab_core::ops::parse_op;
    for row in OP_ROWS {
        let ex = parse_op(row.example).unwrap_or_else(|d| panic!("{}: {d}", row.example));
        // (Its required and first groups, and its modifiers' names, are checked with the
        // table's in `isa::tests::one_modifier_vocabulary`.)
        for m in row.syntax.mods.all {
            assert!(Mod::ALL.contains(m), "{}: {m:?}", row.name);
            // A word the table reads otherwise is `.lo`/`.hi`: a half there, and `setp`'s
            // unsigned comparison here.
            if let Some(t) = Mod::table_word(m.name()).filter(|t| t != m) {
                assert!(
                    matches!((t, m), (Mod::Half(_), Mod::Cmp(_))),
                    "{}: .{}",
                    row.name,
                    m.name()
                );
            }
        }
        for (g, _required, mods) in row.mod_groups() {
            for m in mods {
                let with = ex.with_modifier(g, Some(m));
                let text = with.canonical();
                if let Ok(back) = parse_op(&text) {
                    assert_eq!(back.modifier(g), Some(m), "{text}");
                    assert_eq!(back.canonical(), text);
                }
            }
        }
    }
}

/// The program rows' operand positions, refusals and modifier needs are data the checker
/// reads. For every row but `mov` (whose braced parts have rules of their own): a missing
/// operand is refused with the row's operand positions; a modifier is refused without the type it needs (pointing at the modifier, giving
/// the row's reason) and accepted with it; a form beyond ptxlab's scope is refused with the
/// row's reason, pointing at what makes it.
#[test]
fn every_program_row_refuses_by_its_own_data() {
    use ptxlab_core::isa::NeedOf;
    use ptxlab_core::isa::PositionKind;
    use ptxlab_core::isa::{ModGroup, Type, OP_ROWS};
    use ptxlab_core::ops::parse_op;
    let refused = |text: &str| {
        parse_op(text)
            .map(|i| i.canonical())
            .expect_err(&format!("{text} was accepted"))
    };
    for row in OP_ROWS {
        let ops = &row.operands;
        if ops.parts() {
            continue;
        }
        // The form shown lists the positions by name: d (or p[|q]), then the sources, the last
        // in brackets where it is written only with something else.
        let dst = match ops.dsts[0].kind {
            PositionKind::PredPair => "p[|q]".to_string(),
            _ => ops.dsts[0].name.to_string(),
        };
        let names: Vec<&str> = ops.srcs.iter().map(|o| o.name).collect();
        // One operand fewer than the example: refused, naming the positions.
        let (head, args) = row.example.trim_end_matches(';').split_once(' ').unwrap();
        let args: Vec<&str> = args.split(", ").collect();
        let text = format!("{head} {};", args[..args.len() - 1].join(", "));
        let e = refused(&text);
        // The sources the example writes (setp's example has no c, cvt.pack's has one).
        let shown = names[..args.len() - 1].join(", ");
        assert!(
            e.message.contains(&format!("({dst}, {shown})")),
            "{text}: {e}"
        );
        // A need of a modifier: the example with the modifier and a type outside the need is
        // refused, and with a type inside it accepted.
        for need in row.syntax.needs {
            // Where the refusal points: the type a need of a type is not met by (the types
            // it lists are what may stand there), else the modifier.
            let mut at = format!(".{}", need.modifier.name());
            let (types, meets) = match need.of {
                NeedOf::Type(slot, choices) => {
                    let slot_types = row.types(slot);
                    let pick = |inside: bool| {
                        *slot_types
                            .iter()
                            .find(|t| choices.contains(t) == inside)
                            .unwrap_or_else(|| panic!("{}: no type for {inside}", row.name))
                    };
                    let mut ty = [row.types(0)[0], *row.types(1).first().unwrap_or(&Type::B32)];
                    let n = 1 + usize::from(!row.types(1).is_empty());
                    ty[slot] = pick(false);
                    at = format!(".{}", ty[slot].name());
                    let outside = ty[..n].to_vec();
                    ty[slot] = pick(true);
                    (outside, ty[..n].to_vec())
                }
                // No program row needs another modifier or excludes one (`isa::tests`).
                NeedOf::Mod(_) | NeedOf::Without(_) => continue,
                // A conversion that widens, where every value fits; then one that narrows.
                NeedOf::Narrower => (vec![Type::S32, Type::S8], vec![Type::S8, Type::S32]),
            };
            let word = ModGroup::of(need.modifier);
            let words = [need.modifier.name()];
            let mods: String = row
                .mod_groups()
                .filter(|g| g.1 && g.0 != word)
                .map(|g| format!(".{}", g.2[0].name()))
                .collect();
            let tys: String = types.iter().map(|t| format!(".{}", t.name())).collect();
            let text = format!("{}{mods}.{}{tys} {};", row.name, words[0], args.join(", "));
            let e = parse_op(&text).expect_err(&text);
            assert_eq!(&text[e.span.clone()], at, "{text}: {e}");
            assert!(e.message.contains(need.why), "{text}: {e}");
            let tys: String = meets.iter().map(|t| format!(".{}", t.name())).collect();
            let text = format!("{}{mods}.{}{tys} {};", row.name, words[0], args.join(", "));
            assert!(
                parse_op(&text).is_ok(),
                "{text}: {:?}",
                parse_op(&text).err()
            );
        }
        // A form beyond ptxlab's scope: each word right after the opcode, and the operand count.
        if let Some(b) = row.syntax.beyond {
            for w in b.words {
                let (op, rest) = row.example.split_at(row.name.len());
                let text = format!("{op}.{w}{rest}");
                let e = parse_op(&text).expect_err(&text);
                assert_eq!(&text[e.span.clone()], format!(".{w}"), "{text}: {e}");
                assert!(e.message.contains(b.why), "{text}: {e}");
            }
            if let Some(n) = b.operands {
                let mut more = args.clone();
                more.resize(n, "x");
                let text = format!("{head} {};", more.join(", "));
                let e = parse_op(&text).expect_err(&text);
                assert!(e.message.contains(b.why), "{text}: {e}");
                assert_eq!(&text[e.span.clone()], "x", "{text}: {e}");
            }
        }
    }
}
