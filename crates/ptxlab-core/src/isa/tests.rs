//! Checks that walk every row: nothing here names an opcode by hand.

use super::*;

#[test]
fn one_table_holds_every_row_where_its_index_says() {
    assert_eq!(ROWS.len(), Opcode::ALL.len() + POp::ALL.len());
    assert_eq!(OPCODES.len(), Opcode::ALL.len());
    assert_eq!(OP_ROWS.len(), POp::ALL.len());
    let all: Vec<Instr> = Opcode::ALL
        .iter()
        .map(|&o| Instr::Table(o))
        .chain(POp::ALL.iter().map(|&p| Instr::Program(p)))
        .collect();
    for (i, (row, &instr)) in ROWS.iter().zip(&all).enumerate() {
        assert_eq!(row.instr, instr, "row {i}");
        assert_eq!(instr.index(), i);
        assert!(std::ptr::eq(instr.row(), row), "{}", row.name);
        assert_eq!(
            Instr::of_words(
                row.name.split('.').next().unwrap(),
                &row.name.split('.').skip(1).collect::<Vec<_>>()
            ),
            Some(instr),
            "{}",
            row.name
        );
    }
    assert_eq!(Instr::all().collect::<Vec<_>>(), all);
    // The two halves are the two tables' views of it.
    assert!(std::ptr::eq(&OPCODES[0], &ROWS[0]));
    assert!(std::ptr::eq(&OP_ROWS[0], &ROWS[OPCODES.len()]));
}

#[test]
fn rows_are_indexed_by_discriminant_and_named_uniquely() {
    for (i, (&opcode, row)) in Opcode::ALL.iter().zip(OPCODES).enumerate() {
        assert_eq!(opcode as usize, i, "{} out of order", row.name);
        assert_eq!(row.instr, Instr::Table(opcode), "{}", row.name);
        assert_eq!(Opcode::from_name(row.name), Some(opcode));
        assert!(!row.summary.is_empty() && !row.doc_anchor.is_empty());
    }
}

/// The program rows' operands use the table's vocabulary ([`OperandSpec`]) in the ways their
/// rows can give a meaning: a rule that reads a type slot reads one the row has (the second
/// type only where there is one, a named type one of that slot's), no selectors, and the
/// shift amounts and `prmt`'s selector unsigned values that may be registers.
#[test]
fn every_program_operand_reads_what_its_row_has() {
    for row in OP_ROWS {
        let slots = [row.types(0), row.types(1)];
        for o in row.operands.dsts.iter().chain(row.operands.srcs) {
            let mut read: Vec<(u8, Option<Type>)> = match o.sign {
                SignRule::Slot(i) => vec![(i, None)],
                SignRule::Either(i, j) => vec![(i, None), (j, None)],
                SignRule::SlotIs(i, t) => vec![(i, Some(t))],
                SignRule::Unsigned | SignRule::Signed => vec![],
            };
            match o.float {
                FloatRule::Slot(i) => read.push((i, None)),
                FloatRule::SlotIs(i, t) => read.push((i, Some(t))),
                FloatRule::Never => {}
            }
            if o.width == WidthRule::Second {
                read.push((1, None));
            }
            for (i, t) in read {
                let slot = slots.get(usize::from(i)).copied().unwrap_or_default();
                assert!(!slot.is_empty(), "{}: {} reads slot {i}", row.name, o.name);
                if let Some(t) = t {
                    assert!(
                        slot.contains(&t),
                        "{}: {} reads .{}",
                        row.name,
                        o.name,
                        t.name()
                    );
                }
            }
            // The program validator reads no selector, no `loose` flag (the ignored `.b01`
            // suffixes follow one rule on every program row: a 32-bit or predicate register,
            // and not on a `wider` row) and no immediate range.
            assert_eq!(o.sel, SelRule::None, "{}: {}", row.name, o.name);
            assert!(!o.loose, "{}: {}", row.name, o.name);
            assert_eq!(o.imm, ImmRule::Any, "{}: {}", row.name, o.name);
            assert_ne!(o.width, WidthRule::Wide, "{}: {}", row.name, o.name);
            if o.role != Role::Value {
                assert_eq!(o.sign, SignRule::Unsigned, "{}: {}", row.name, o.name);
                assert_eq!(o.kind, PositionKind::Value, "{}: {}", row.name, o.name);
            }
        }
    }
    // The roles the sweep reads: shl's and shr's b, shf's c are amounts, prmt's c a selector.
    let role = |name: &str, k: usize| POp::from_name(name).unwrap().row().operands.srcs[k].role;
    assert_eq!(
        [
            role("shl", 1),
            role("shr", 1),
            role("shf", 2),
            role("prmt", 2)
        ],
        [Role::Shift, Role::Shift, Role::Shift, Role::Selector]
    );
}

#[test]
fn every_row_is_consistent() {
    for (&opcode, row) in Opcode::ALL.iter().zip(OPCODES) {
        let op = opcode;
        let syn = &row.syntax;
        // Every type slot is named and always written.
        for slot in syn.slots {
            assert!(
                !slot.name.is_empty() && slot.with.is_empty(),
                "{}",
                row.name
            );
        }
        // Operands: d, then at least the usual sources, each named in order.
        let (lo, hi) = source_counts(op);
        assert!(
            lo >= 1 && lo <= hi && hi <= 4,
            "{}: sources {lo}..{hi}",
            row.name
        );
        let names = ["d", "a", "b", "c", "e"];
        for (p, o) in row.operands.iter().enumerate() {
            assert_eq!(o.name, names[p], "{}: operand {p}", row.name);
            // A sign slot names a type position the syntax has.
            let slots: Vec<u8> = match o.sign {
                SignRule::Slot(i) => vec![i],
                SignRule::Either(i, j) => vec![i, j],
                SignRule::SlotIs(i, _) => vec![i],
                SignRule::Unsigned | SignRule::Signed => vec![],
            };
            for &i in &slots {
                assert!(
                    (i as usize) < syn.slots.len(),
                    "{}: {} slot {i}",
                    row.name,
                    o.name
                );
            }
            // Amounts are unsigned counts whatever type is written; selectors only on 32-bit
            // video operands.
            if o.role.is_amount() {
                assert_ne!(o.sign, SignRule::Signed, "{}: {}", row.name, o.name);
                for &i in &slots {
                    assert!(
                        syn.slots[i as usize].types.iter().all(|t| !t.is_signed()),
                        "{}: {} may be signed",
                        row.name,
                        o.name
                    );
                }
            }
            // The table's validator reads values that are integers: no program-only kind.
            assert_eq!(o.kind, PositionKind::Value, "{}: {}", row.name, o.name);
            assert_eq!(o.float, FloatRule::Never, "{}: {}", row.name, o.name);
            // `widths` answers video rows without reading their operands.
            if op.is_video() {
                assert_eq!(o.width, WidthRule::Bits(32), "{}: {}", row.name, o.name);
            }
            if o.sel != SelRule::None {
                assert_eq!(o.width, WidthRule::Bits(32), "{}: {}", row.name, o.name);
                assert!(op.is_video(), "{}", row.name);
            }
        }
        // The example is written with this opcode, the types the syntax offers and the
        // modifiers it takes.
        let (head, _) = row.example.split_once(' ').expect("example has operands");
        let mut words = head.split('.');
        assert_eq!(words.next(), Some(row.name));
        let mut k = 0;
        for w in words {
            let m = vocab::Mod::table_word(w).unwrap_or_else(|| panic!("{}: .{w}", row.name));
            match m {
                Mod::Type(t) => {
                    assert!(syn.slots[k].types.contains(&t), "{}: .{w}", row.name);
                    k += 1;
                }
                m => assert!(syn.takes(m), "{}: .{w}", row.name),
            }
        }
        assert_eq!(k, syn.slots.len(), "{}: example types", row.name);
        // Widths for every type the syntax offers follow the rules: at most 64 bits.
        for &t in syn.slots[0].types {
            let mut form = Form::default();
            form.types[0] = Some(t);
            for half in [None, Some(HalfMode::Wide)] {
                form.half = half;
                let w = widths(op, &form, hi);
                for p in 0..row.operands.len() {
                    assert!((1..=64).contains(&w.at(p)), "{}", row.name);
                }
            }
        }
    }
}

#[test]
fn wide_products_are_twice_as_wide_up_to_64_bits() {
    let mut form = Form {
        half: Some(HalfMode::Wide),
        ..Form::default()
    };
    for (t, d) in [(Type::U16, 32), (Type::S32, 64), (Type::U64, 64)] {
        form.types[0] = Some(t);
        let w = widths(Opcode::Mul, &form, 2);
        assert_eq!((w.dst, w.src[0]), (d, t.bits()));
        let w = widths(Opcode::Mad, &form, 3);
        assert_eq!((w.dst, w.src[2]), (d, d));
    }
}

/// Each type slot says what it is the type of: the table's `dtype`, `atype` and `btype` of
/// `d`, `a` and `b` ("d type"), its `type` of everything ("type"); a program row with more
/// than one slot names each one's operands, and only its third slot comes with some first
/// types only.
#[test]
fn type_slot_labels_name_their_operand() {
    for row in OPCODES {
        for slot in row.syntax.slots {
            let of = match slot.name {
                vocab::DTYPE => "d",
                vocab::ATYPE => "a",
                vocab::BTYPE => "b",
                _ => "",
            };
            assert_eq!(slot.of, of, "{}: {}", row.name, slot.name);
            let label = slot.label();
            assert_eq!(
                label,
                if of.is_empty() {
                    "Type".to_string()
                } else {
                    format!("Type of {of}")
                }
            );
        }
    }
    for row in OP_ROWS {
        for (k, slot) in row.syntax.slots.iter().enumerate() {
            assert!(!slot.name.is_empty(), "{}", row.name);
            assert!(
                row.syntax.slots.len() == 1 || !slot.of.is_empty(),
                "{}: {}",
                row.name,
                slot.name
            );
            assert_eq!(slot.with.is_empty(), k < 2, "{}: {}", row.name, slot.name);
        }
    }
}

#[test]
fn listed_selectors_are_accepted_by_their_rule() {
    for rule in [SelRule::Scalar, SelRule::Mask2, SelRule::Mask4] {
        let all = rule.selectors();
        assert!(!all.is_empty());
        for sel in &all {
            assert!(rule.accepts(sel), "{rule:?} {sel}");
        }
    }
    assert_eq!(SelRule::Mask4.selectors().len(), 15);
    assert_eq!(SelRule::Mask2.choices(), [".h0", ".h1", ".h10"]);
}

#[test]
fn int_ops_are_listed_at_their_numbers_and_cover_the_integer_rows() {
    for (i, op) in IntOp::ALL.iter().enumerate() {
        assert_eq!(*op as usize, i, "{op:?} out of order");
    }
    for (&opcode, row) in Opcode::ALL.iter().zip(OPCODES) {
        if let Operation::Int(op) = opcode.operation() {
            assert!(
                IntOp::ALL.contains(&op),
                "{} missing from IntOp::ALL",
                row.name
            );
        }
    }
}

#[test]
fn one_family_vocabulary_splits_the_two_tables() {
    for row in OPCODES {
        assert!(!row.family.is_program(), "{}", row.name);
    }
    for row in OP_ROWS {
        assert!(row.family.is_program(), "{}", row.name);
    }
    // Every family has at least one instruction.
    for f in Family::ALL {
        let n = OPCODES.iter().filter(|r| r.family == f).count()
            + OP_ROWS.iter().filter(|r| r.family == f).count();
        assert!(n > 0, "{f:?} has no instruction");
    }
}

#[test]
fn one_index_of_both_tables() {
    let all: Vec<Instr> = Instr::all().collect();
    assert_eq!(all.len(), OPCODES.len() + OP_ROWS.len());
    // Every name once, and every example is found again from its text.
    let mut names: Vec<&str> = all.iter().map(|i| i.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all.len());
    for i in &all {
        // The checker names each example's row (the one reader of text, then this index).
        let read = crate::insn::check(i.example()).map(|x| x.instr);
        assert_eq!(read, Ok(*i), "{}", i.example());
        assert!(i.doc_url().starts_with(PTX_DOC_BASE) && !i.summary().is_empty());
        assert!(i.measured().is_some(), "{}", i.name());
    }
    // Suggestions come from both tables.
    assert_eq!(instr::suggest("ad"), instr::suggest("add"));
    assert!(instr::suggest("addx").contains(&"add.cc"));
    assert!(instr::suggest("addx").contains(&"add"));
    assert_eq!(instr::suggest("zzz").len(), all.len());
}

/// One vocabulary of types for both tables: the table's rows name only `Type::TABLE`'s
/// eleven, the table's parser reads exactly those as type words, and every
/// type's name, width and sign read back.
#[test]
fn one_type_vocabulary() {
    use super::{Mod, Type};
    let expect = [
        ("u16", 16, false),
        ("u32", 32, false),
        ("u64", 64, false),
        ("s16", 16, true),
        ("s32", 32, true),
        ("s64", 64, true),
        ("b16", 16, false),
        ("b32", 32, false),
        ("b64", 64, false),
        ("u16x2", 32, false),
        ("s16x2", 32, true),
    ];
    assert_eq!(Type::TABLE.len(), expect.len());
    for (t, (name, bits, signed)) in Type::TABLE.into_iter().zip(expect) {
        assert_eq!(
            (t.name(), t.bits(), t.is_signed()),
            (name, bits, signed),
            "{t:?}"
        );
    }
    assert!(!Type::slot_signed(None));
    for t in Type::ALL {
        assert_eq!(Type::slot_signed(Some(t)), t.is_signed(), "{t:?}");
        assert_eq!(Type::from_name(t.name()), Some(t));
        let word = Mod::table_word(t.name());
        assert_eq!(
            word == Some(Mod::Type(t)),
            Type::TABLE.contains(&t),
            "{t:?}"
        );
    }
    let mut used = Vec::new();
    for row in OPCODES {
        for &t in row.syntax.slots.iter().flat_map(|slot| slot.types) {
            assert!(Type::TABLE.contains(&t), "{}: {t:?}", row.name);
            used.push(t);
        }
    }
    // `.b16` is a type word of the table's parser that no table row takes (the validator
    // names the types that fit); every other word of it is some row's type.
    for t in Type::TABLE {
        assert_eq!(used.contains(&t), t != Type::B16, "{t:?}");
    }
}

/// One modifier vocabulary: every modifier of either table is one `Mod` of `Mod::ALL`, named
/// once (but `.lo` and `.hi`, a half and an unsigned comparison); the table's rows take only
/// the words its parser reads (`Mod::TABLE`), and their required and first groups are groups
/// they take.
#[test]
fn one_modifier_vocabulary() {
    use super::{Cmp, Mod, ModGroup};
    for (i, m) in Mod::ALL.iter().enumerate() {
        assert!(!Mod::ALL[..i].contains(m), "{m:?} twice");
        let twin = matches!(m, Mod::Cmp(Cmp::Lo | Cmp::Hi));
        assert_eq!(Mod::from_name(m.name()) == Some(*m), !twin, "{m:?}");
        assert_eq!(
            Mod::table_word(m.name()) == Some(*m),
            Mod::TABLE.contains(m),
            "{m:?}"
        );
    }
    assert_eq!(&Mod::ALL[..Mod::TABLE.len()], &Mod::TABLE[..]);
    // Every instruction's syntax: its required and first groups are groups it takes, and no
    // two of its modifiers have one name.
    for i in super::Instr::all() {
        let mods = &i.syntax().mods;
        let groups: Vec<ModGroup> = mods.groups();
        for g in mods.required.iter().chain(&mods.first) {
            assert!(groups.contains(g), "{}: {g:?}", i.name());
        }
        for (k, m) in mods.all.iter().enumerate() {
            assert!(
                mods.all[..k].iter().all(|x| x.name() != m.name()),
                "{}: .{} twice",
                i.name(),
                m.name()
            );
        }
        // A need is of a modifier the row takes, and of another it takes, or of a type slot
        // it has, with its reason (`validate::check_needs` reads every kind, for both tables).
        let syn = i.syntax();
        for need in syn.needs {
            assert!(syn.takes(need.modifier), "{}", i.name());
            match need.of {
                super::NeedOf::Mod(m) | super::NeedOf::Without(m) => {
                    assert!(syn.takes(m), "{}", i.name())
                }
                super::NeedOf::Type(k, _) => assert!(k < syn.slots.len(), "{}", i.name()),
                super::NeedOf::Narrower => assert!(syn.slots.len() > 1, "{}", i.name()),
            }
            assert!(!need.why.is_empty(), "{}", i.name());
        }
    }
    for row in OPCODES {
        let mods = &row.syntax.mods;
        for m in mods.all {
            assert!(Mod::TABLE.contains(m), "{}: {m:?}", row.name);
        }
        assert!(row.syntax.beyond.is_none(), "{}", row.name);
    }
}

/// One struct of operand positions for both tables: a table row writes one `d` and its
/// sources, the last of which only the video instructions may leave out; no program row's
/// last source is optional in that way (its validator asks the row's rule for when it is).
#[test]
fn one_operand_positions_struct() {
    use super::{CarryUse, LastSource};
    for (&opcode, row) in Opcode::ALL.iter().zip(OPCODES) {
        let ops = &row.operands;
        assert_eq!(ops.dsts.len(), 1, "{}", row.name);
        assert_eq!(ops.dsts[0].name, "d", "{}", row.name);
        assert_eq!(ops.len(), 1 + ops.srcs.len(), "{}", row.name);
        assert_eq!(ops.iter().count(), ops.len(), "{}", row.name);
        assert_eq!(ops.at(1), ops.srcs.first(), "{}", row.name);
        assert_eq!(ops.at(ops.len()), None, "{}", row.name);
        assert_eq!(
            (ops.carry, ops.wider, ops.specials),
            (CarryUse::None, false, false)
        );
        match ops.last {
            LastSource::Always => assert_eq!(ops.required_sources(), ops.srcs.len()),
            LastSource::Optional => {
                assert!(opcode.is_video(), "{}", row.name);
                assert_eq!(ops.required_sources(), ops.srcs.len() - 1, "{}", row.name);
            }
            other => panic!("{}: {other:?}", row.name),
        }
    }
    for row in super::OP_ROWS {
        assert_ne!(row.operands.last, LastSource::Optional, "{}", row.name);
    }
}

/// One comparison vocabulary: `vset*` takes the six ordered words, `setp` and `set` every
/// word, all of them `Cmp`s; the parser never reads `.lo`/`.hi` as a comparison of the table
/// (they are `mul`'s halves there).
#[test]
fn one_comparison_vocabulary() {
    use super::{Cmp, HalfMode, Mod, POp};
    use std::cmp::Ordering::{Equal, Greater, Less};
    for row in OPCODES {
        let cmps: Vec<Cmp> = row
            .syntax
            .mods
            .all
            .iter()
            .filter_map(|m| match m {
                Mod::Cmp(c) => Some(*c),
                _ => None,
            })
            .collect();
        let expect = if row.name.starts_with("vset") {
            Cmp::VIDEO.to_vec()
        } else {
            vec![]
        };
        assert_eq!(cmps, expect, "{}", row.name);
    }
    for op in [POp::Setp, POp::Set] {
        let words: Vec<Mod> = op
            .row()
            .mod_groups()
            .find(|g| g.0 == super::ModGroup::Cmp)
            .expect("a comparison group")
            .2;
        assert_eq!(words, Cmp::ALL.map(Mod::Cmp).to_vec(), "{}", op.name());
    }
    assert_eq!(Mod::from_name("lo"), Some(Mod::Half(HalfMode::Lo)));
    assert_eq!(Mod::from_name("hi"), Some(Mod::Half(HalfMode::Hi)));
    for c in Cmp::ALL {
        assert_eq!(Cmp::from_name(c.name()), Some(c));
        assert_eq!(
            Mod::table_word(c.name()) == Some(Mod::Cmp(c)),
            Cmp::VIDEO.contains(&c)
        );
        assert_eq!(c.is_video(), Cmp::VIDEO.contains(&c));
        // An unsigned word is its ordered word on unsigned values; an unordered word is its
        // ordered word on numbers, and true on NaN.
        let ordered = |w: &str| Cmp::from_name(w).unwrap();
        let n = c.name();
        let unordered = n.len() == 3 && n.ends_with('u');
        let base = match n {
            "lo" => ordered("lt"),
            "ls" => ordered("le"),
            "hi" => ordered("gt"),
            "hs" => ordered("ge"),
            _ if unordered => ordered(&n[..2]),
            _ => c,
        };
        for o in [Less, Equal, Greater] {
            assert_eq!(c.holds(o), base.holds(o), "{c:?} {o:?}");
        }
        assert_eq!(c.on_nan(), unordered || c == Cmp::Nan, "{c:?}");
        assert_eq!(
            c.reads_unsigned(),
            n.starts_with(['l', 'h']) && n.len() == 2 && base != c
        );
    }
}

/// The dotted special registers the operand checker names are exactly those of `SPECIAL` with
/// a dot.
#[test]
fn dotted_special_registers_are_those_of_the_list() {
    for (name, _, _) in crate::isa::SPECIAL {
        assert_eq!(
            crate::isa::is_dotted_special(name),
            name.contains('.'),
            "{name}"
        );
    }
    assert!(!crate::isa::is_dotted_special("%r1.x"));
    assert!(!crate::isa::is_dotted_special("%tid.b0"));
}

/// The one decoded form: every modifier of either table is read back as written, forgotten
/// by its group, and the first of a group wins; types fill their slots in order.
#[test]
fn every_modifier_sets_and_reads_back_one_form() {
    for m in Mod::ALL {
        let g = ModGroup::of(m);
        let mut f = Form::of([m]);
        if let Mod::Type(t) = m {
            assert_eq!(f.types, [Some(t), None, None]);
            assert_eq!(f.get(g), None);
        } else {
            assert_eq!(f.get(g), Some(m), "{m:?}");
            for other in g.members().filter(|&x| x != m) {
                f.set(other);
                assert_eq!(f.get(g), Some(m), "{m:?} then {other:?}");
            }
        }
        f.clear(g);
        assert_eq!(f, Form::default(), "{m:?}");
    }
    let f = Form::of([Mod::Type(Type::U32), Mod::Sat, Mod::Type(Type::S32)]);
    assert_eq!(f.types, [Some(Type::U32), Some(Type::S32), None]);
    assert_eq!(f.ty(1), Type::S32);
}
