//! Messages shown to people are written for them, never built from `Debug` output: no
//! `Some(...)`, no `Opcode::Vadd`, no struct braces, no enum names in CamelCase. This test
//! collects the messages of a corpus of bad inputs (hand-written ones and random texts from the
//! generator) from the parser, the validator, the value reader and the batch reader, and checks
//! every one.

use ptxlab_core::batch::{parse_batch, parse_operand_value};
use ptxlab_core::check;
use ptxlab_core::gen::{self, Rng};
use ptxlab_core::isa::Instr;
use ptxlab_core::trace::{Flag, StageKind};
use ptxlab_core::value::{parse_value, View};

/// What `Debug` output leaves in a text: the reason it is there, if any.
fn debug_trace(msg: &str) -> Option<&'static str> {
    let marks: &[(&str, &str)] = &[
        ("Some(", "an Option printed with {:?}"),
        ("None", "an Option printed with {:?}"),
        ("::", "a Rust path"),
        (" { ", "struct braces"),
        ("Ok(", "a Result printed with {:?}"),
        ("Err(", "a Result printed with {:?}"),
        ("[\"", "a list of strings printed with {:?}"),
    ];
    if let Some((_, why)) = marks.iter().find(|(m, _)| msg.contains(m)) {
        return Some(why);
    }
    // An enum variant's name as Debug writes it: `SignExtended`, `HardwareDiffersFromText`.
    let camel = msg.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        let mut chars = w.chars();
        chars.next().is_some_and(|c| c.is_ascii_uppercase())
            && w.chars().skip(1).any(|c| c.is_ascii_lowercase())
            && w.chars().skip(1).any(|c| c.is_ascii_uppercase())
    });
    camel.then_some("a CamelCase name, as Debug writes an enum")
}

fn assert_plain(what: &str, msg: &str) {
    assert!(!msg.trim().is_empty(), "{what}: empty message");
    if let Some(why) = debug_trace(msg) {
        panic!("{what}: the message has {why}: {msg}");
    }
}

const BAD_TEXTS: &[&str] = &[
    "",
    ";",
    "vadd",
    "vadd d, a, b;",
    "vadd.u32.u32 d, a, b;",
    "vadd.u32.u32.u32.sat.min d.b0, a, b, c;",
    "vadd.u32.u32.u32 d.b9, a.h3, b.x1, c;",
    "vadd.u32.u32.u32 d, a, b, c, e, f;",
    "vadd4.u32.u32.u32 d.b76543, a.b9, b, c;",
    "vset.u32.u32.lt.eq d, a, b;",
    "vshl.u32.u32.u32.clamp.wrap d, a, b;",
    "vmad.u32.u32.u32.shr3 d, a, b, c;",
    "vmad.u32.u32.u32 d, a, b;",
    "add.u33 d, a, b;",
    "add.s32 d, a;",
    "add.sat.u32 d, a, b;",
    "mul.wide.u64 d, a, b;",
    "mul24.hi.u64 d, a, b;",
    "brev.u32 d, a;",
    "bfe.u32 d, a, b, 99999999999999999999;",
    "bfi.b32 d, a, b, c;",
    "szext.clamp.wrap.u32 d, a, b;",
    "bmsk.b64 d, a, b;",
    "dp4a.u32 d, a, b, c;",
    "dp2a.lo.hi.u32.u32 d, a, b, c;",
    "fns.b32 d, a, b;",
    "frobnicate.u32 d, a, b;",
    "add.s32 d, a, b;;",
    "add.s32 d a b",
    "add..s32 d, a, b;",
    "add.s32 d, -a, b;",
    "vadd.u32.u32.u32 d, a.b0.b1, b, c;",
    "\u{1F600}.u32 d, a, b;",
];

const BAD_VALUES: &[&str] = &[
    "",
    " ",
    "0x",
    "0xg",
    "0b102",
    "-",
    "--1",
    "1e5",
    "0x1_0000_0000_0000_0000_0",
    "99999999999999999999999",
    "-99999999999999999999999",
    "1.5",
    "abc",
    "0x12 34",
    "\u{1F600}",
];

#[test]
fn parser_and_validator_messages_read_as_words() {
    let mut accepted = Vec::new();
    for text in BAD_TEXTS {
        match check(text) {
            Err(e) => assert_plain(text, &e.message),
            Ok(_) => accepted.push(*text),
        }
    }
    assert!(accepted.is_empty(), "accepted: {accepted:?}");
    // Random texts, plausible and not, from the generator the robustness tests use.
    let mut r = Rng::new(0x5eed);
    let mut refused = 0;
    for i in 0..4000 {
        let text = if i % 2 == 0 {
            gen::plausible(&mut r)
        } else {
            gen::instruction(&mut r)
        };
        if let Err(e) = check(&text) {
            assert_plain(&text, &e.message);
            refused += 1;
        }
    }
    assert!(refused > 100, "only {refused} random texts were refused");
}

#[test]
fn value_messages_read_as_words() {
    let views = [
        None,
        Some(View::Hex),
        Some(View::Unsigned),
        Some(View::Signed),
        Some(View::Binary),
    ];
    for text in BAD_VALUES {
        for bits in [8, 16, 32, 64] {
            for view in views {
                if let Err(m) = parse_value(text, bits, view) {
                    assert_plain(&format!("{text:?} as {bits} bits"), &m);
                }
            }
            if let Err(m) = parse_operand_value(text, bits) {
                assert_plain(&format!("{text:?} as an operand of {bits} bits"), &m);
            }
        }
    }
}

#[test]
fn batch_messages_read_as_words() {
    // Every instruction of both tables reads its batch the same way.
    for instr in Instr::all() {
        let example = instr.example();
        let insn = ptxlab_core::insn::check(example).unwrap();
        let text = BAD_VALUES.join("\n") + "\n1, 2, 3, 4, 5, 6\n1 2\na=1 q=2\n=1\na==1";
        let mut refused = 0;
        for line in parse_batch(&text, &insn) {
            if let Err(m) = line.inputs {
                assert_plain(example, &m);
                refused += 1;
            }
        }
        assert!(refused > 0, "{example}: no batch line was refused");
    }
}

#[test]
fn names_shown_for_kinds_and_flags_are_words() {
    for k in StageKind::ALL {
        assert_plain("stage kind", k.name());
        // The name is the one JSON carries.
        assert_eq!(
            serde_json::to_string(&k).unwrap(),
            format!("\"{}\"", k.name())
        );
    }
    for f in Flag::ALL {
        assert_plain("flag", f.label());
        assert_eq!(f.label(), f.name().replace('-', " "));
        assert_eq!(
            serde_json::to_string(&f).unwrap(),
            format!("\"{}\"", f.name())
        );
    }
    // The check itself finds what Debug writes.
    for debug in [
        format!("{:?}", Some(3)),
        format!("{:?}", Flag::ClampedHigh),
        format!("{:?}", ptxlab_core::Inputs::default()),
    ] {
        assert!(debug_trace(&debug).is_some(), "{debug}");
    }
}

/// One wording for each modifier and type check, on every instruction of either table: a
/// word the row does not take, a second word of a group, a word of the group that comes
/// first written later, a required group left out, a type its slot does not take, and no
/// type. Each is made from the row's own example, so a row
/// whose checker said it another way would fail here.
#[test]
fn modifier_and_type_checks_read_alike_on_both_tables() {
    use ptxlab_core::insn::check;
    use ptxlab_core::isa::{Mod, Type};
    // How many times each check was made, on table rows and on program rows.
    let mut seen = [[0usize; 6]; 2];
    for instr in Instr::all() {
        let name = instr.name();
        let syn = instr.syntax();
        let (head, rest) = instr
            .example()
            .split_once(' ')
            .expect("an example has operands");
        let word = name.split('.').next().unwrap();
        // The example's words after the opcode word, the row's own name's among them
        // (`mad.lo.cc.u32`), which stay where they are.
        let words: Vec<&str> = head.split('.').skip(1).collect();
        let name_words: Vec<&str> = name.split('.').skip(1).collect();
        let text = |ws: &[&str]| {
            let dotted: String = ws.iter().map(|w| format!(".{w}")).collect();
            format!("{word}{dotted} {rest}")
        };
        assert!(check(&text(&words)).is_ok(), "{name}: {}", text(&words));
        let side = usize::from(matches!(instr, Instr::Program(_)));
        // A modifier of either table that this row does not take.
        let m = Mod::ALL.iter().copied().find(|m| {
            !syn.takes(*m) && !matches!(m, Mod::Type(_)) && !name_words.contains(&m.name())
        });
        if let Some(m) = m {
            let mut ws = words.clone();
            ws.push(m.name());
            let e = check(&text(&ws)).expect_err(&text(&ws));
            assert!(
                e.message
                    .starts_with(&format!("'.{}' does not apply to '{name}'", m.name())),
                "{name}: {} gave {e}",
                text(&ws)
            );
            let takes: Vec<String> = syn
                .mods
                .all
                .iter()
                .map(|m| format!(".{}", m.name()))
                .collect();
            if takes.is_empty() {
                assert_eq!(e.allowed, ["no modifier besides the type"], "{name}");
            } else {
                assert_eq!(e.allowed, takes, "{name}");
            }
            seen[side][0] += 1;
        }
        for g in syn.mods.groups() {
            let of: Vec<Mod> = syn.mods.of_group(g).collect();
            let Some(k) = words
                .iter()
                .position(|w| !name_words.contains(w) && of.iter().any(|m| m.name() == *w))
            else {
                continue;
            };
            // A second word of a group that takes one.
            if !g.repeatable() {
                let other = of.iter().find(|m| m.name() != words[k]).unwrap_or(&of[0]);
                let mut ws = words.clone();
                ws.insert(k + 1, other.name());
                let e = check(&text(&ws)).expect_err(&text(&ws));
                let said = if of.len() == 1 {
                    "is written twice".to_string()
                } else {
                    format!("conflicts with '.{}' written before it", words[k])
                };
                assert!(
                    e.message
                        .starts_with(&format!("'.{}' {said}", other.name())),
                    "{name}: {} gave {e}",
                    text(&ws)
                );
                seen[side][1] += 1;
            }
            // The first group's word written after the last type.
            if syn.mods.first == Some(g) {
                let mut ws = words.clone();
                let w = ws.remove(k);
                ws.push(w);
                let e = check(&text(&ws)).expect_err(&text(&ws));
                assert!(
                    e.message
                        .starts_with(&format!("'.{w}' must come right after '{word}'")),
                    "{name}: {} gave {e}",
                    text(&ws)
                );
                seen[side][2] += 1;
            }
            // A required group left out.
            if syn.mods.required.contains(&g) {
                let mut ws = words.clone();
                ws.remove(k);
                let e = check(&text(&ws)).expect_err(&text(&ws));
                assert!(
                    e.message.starts_with(&format!("'{name}' needs "))
                        || e.message
                            .starts_with(&format!("'{name}' is always written with ")),
                    "{name}: {} gave {e}",
                    text(&ws)
                );
                let want: Vec<String> = of.iter().map(|m| format!(".{}", m.name())).collect();
                assert_eq!(e.allowed, want, "{name}");
                seen[side][3] += 1;
            }
        }
        // The first type replaced by one its slot does not take (`.b128`, a type of no row
        // here, or a type of the table's), and every type left out.
        let k = words
            .iter()
            .position(|w| Type::from_name(w).is_some())
            .unwrap_or_else(|| panic!("{name}: the example writes a type"));
        for t in [Type::B128, Type::S16x2] {
            if syn.slots[0].types.contains(&t) {
                continue;
            }
            let mut ws = words.clone();
            ws[k] = t.name();
            let e = check(&text(&ws)).expect_err(&text(&ws));
            assert!(
                e.message
                    .starts_with(&format!("'{name}' does not take .{}", t.name())),
                "{name}: {} gave {e}",
                text(&ws)
            );
            let want: Vec<String> = syn.slots[0]
                .types
                .iter()
                .map(|t| format!(".{}", t.name()))
                .collect();
            assert_eq!(e.allowed, want, "{name}");
            seen[side][4] += 1;
        }
        let ws: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| Type::from_name(w).is_none())
            .collect();
        let e = check(&text(&ws)).expect_err(&text(&ws));
        assert!(
            e.message.starts_with(&format!("'{name}' takes ")),
            "{name}: {} gave {e}",
            text(&ws)
        );
        seen[side][5] += 1;
    }
    // Every check was made on rows of both tables.
    assert!(seen.iter().flatten().all(|n| *n > 0), "{seen:?}");
}

/// The reasons a refusal of a modifier gives, on both tables: what the row takes of the
/// word's group, the words ptxas reads as a comparison, and `.wide`.
#[test]
fn a_refused_modifier_says_why() {
    use ptxlab_core::insn::check;
    for (text, says) in [
        ("shl.lo.b32 d, a, b;", "'.lo' does not apply to 'shl': ptxas would read it as an unsigned comparison, which 'shl' has none of"),
        ("vset.u32.u32.lo d, a, b;", "'.lo' does not apply to 'vset': ptxas would read it as an unsigned comparison"),
        ("vset.u32.u32.ltu d, a, b;", "'vset' takes .eq, .ne, .lt, .le, .gt or .ge as its comparison"),
        ("setp.lt.wide.u32 p, a, b;", "'.wide' does not apply to 'setp': only mul and mad write a product twice"),
        ("add.wide.u32 d, a, b;", "only mul and mad write a product twice the type's width"),
        ("mad.wide.cc.u32 d, a, b, c;", "'mad.cc' takes .lo or .hi as its half of the product"),
        ("mul24.wide.u32 d, a, b;", "'mul24' takes .hi or .lo as its result part"),
        ("dp2a.wide.u32.u32 d, a, b, c;", "'dp2a' takes .hi or .lo as its half of b"),
        ("vadd2.u32.u32.u32.min d, a, b, c;", "'vadd2' takes .add as its secondary operation"),
        ("cvt.rn.u32.s32 d, a;", "conversions between integer types take no rounding modifier"),
        ("add.u32.s8 d, a, b;", "'add' takes one type, e.g. add.u32"),
        ("vadd.u32.s8.u32 d, a, b;", "'vadd' does not take .s8 as the type of a"),
        ("cvt.u32.f16 d, a;", "'cvt' does not take .f16 as the type of a"),
    ] {
        let e = check(text).expect_err(text);
        assert!(e.message.contains(says), "{text}: {e}");
    }
}

/// The shape of an operand (`_`, `p|q`, `{…}`, `!`, a number, a selector) is checked by one
/// checker for both tables, so the same mistake reads the same on `add` and on `shl`: each row's
/// example is written with each mistake on its destination or its first source, and the message
/// is the one sentence with the row's and the operand's names.
#[test]
fn operand_shape_checks_read_alike_on_both_tables() {
    use ptxlab_core::insn::check;
    use ptxlab_core::isa::PositionKind;
    // How many times each check was made, on table rows and on program rows.
    let mut seen = [[0usize; 8]; 2];
    for instr in Instr::all() {
        let name = instr.name();
        let ops = match instr {
            Instr::Table(o) => o.operands(),
            Instr::Program(p) => &p.row().operands,
        };
        let (head, rest) = instr
            .example()
            .split_once(' ')
            .expect("an example has operands");
        // The written operands, split at the commas outside braces.
        let mut args: Vec<String> = vec![String::new()];
        let mut depth = 0;
        for c in rest.trim_end_matches(';').chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    args.push(String::new());
                    continue;
                }
                _ => {}
            }
            args.last_mut().unwrap().push(c);
        }
        let args: Vec<String> = args.iter().map(|a| a.trim().to_string()).collect();
        let with = |k: usize, a: String| {
            let mut v = args.clone();
            v[k] = a;
            format!("{head} {};", v.join(", "))
        };
        let side = usize::from(matches!(instr, Instr::Program(_)));
        let refused = |text: &str| check(text).expect_err(text).message;
        let d = ops.dsts[0];
        // Destination mistakes, where the destination is one register.
        if d.kind == PositionKind::Value {
            let dn = &args[0];
            let m = refused(&with(0, format!("!{dn}")));
            assert_eq!(m, "a destination cannot be negated; drop the '!'", "{name}");
            seen[side][0] += 1;
            let m = refused(&with(0, "5".into()));
            assert!(
                m.starts_with(&format!("{} of '{name}' must be a ", d.name))
                    && m.ends_with("register, not a number"),
                "{name}: {m}"
            );
            seen[side][1] += 1;
            let m = refused(&with(0, format!("{dn}|!_")));
            assert_eq!(
                m,
                format!("'{name}' writes no predicate: after '|' only '_' (nothing) is accepted"),
            );
            seen[side][2] += 1;
            let m = refused(&with(0, "_".into()));
            assert_eq!(
                m,
                format!(
                    "'{name}' cannot drop its result: '_' is not a destination it takes (ptxas refuses it)"
                ),
            );
            seen[side][3] += 1;
        }
        // Source mistakes on the first source, where it is a register in the example.
        let k = 1;
        let a = &args[k];
        let o = ops.srcs[0];
        if !a.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
            continue;
        }
        let m = refused(&with(k, "_".into()));
        assert_eq!(m, "'_' stands for a result dropped; it cannot be a source");
        seen[side][4] += 1;
        let m = refused(&with(k, format!("{a}|_")));
        assert_eq!(
            m,
            format!(
                "{} of '{name}' takes no pair: '|' joins two destinations (setp's p|q, or d|_)",
                o.name
            )
        );
        seen[side][5] += 1;
        if o.kind != PositionKind::Parts {
            let m = refused(&with(k, format!("{{{a}, {a}}}")));
            assert_eq!(
                m,
                format!(
                    "{} of '{name}' takes no vector ({{...}}): braces hold the parts of mov.bN; write a register or a number",
                    o.name
                )
            );
            seen[side][6] += 1;
        }
        // `!` on a source that is not a predicate.
        if check(&with(k, format!("!{a}"))).is_err() {
            let m = refused(&with(k, format!("!{a}")));
            assert_eq!(
                m,
                format!(
                    "'!' negates a predicate, and {} of '{name}' is not one: write a register or a number",
                    o.name
                ),
            );
            seen[side][7] += 1;
        }
    }
    for (side, counts) in seen.iter().enumerate() {
        for (check, n) in counts.iter().enumerate() {
            assert!(*n > 0, "check {check} was never made on side {side}");
        }
    }
}

/// A special register (`%tid.x`) has a value only in a program: one instruction that names it
/// says so, on either table, where it said "unknown selector '.x'" (the table) or took `.x` for
/// a selector (the program rows).
#[test]
fn a_special_register_points_to_programs() {
    use ptxlab_core::insn::check;
    for (text, at, tail) in [
        (
            "mov.u32 %r1, %tid.x;",
            "%tid.x",
            "(the Program view, or `ptxlab run` with %tid.x=V)",
        ),
        ("cvt.u64.u32 %rd1, %ctaid.y;", "%ctaid.y", "%ctaid.y=V)"),
        (
            "add.u32 %r1, %tid.x, 1;",
            "%tid.x",
            "where ptxas reads it with mov or cvt",
        ),
        (
            "vadd.u32.u32.u32 d, %ntid.z, b;",
            "%ntid.z",
            "where ptxas reads it with mov or cvt",
        ),
        ("mov.u32 %tid.x, 1;", "%tid.x", "which is read only"),
    ] {
        let e = check(text).expect_err(text);
        assert_eq!(&text[e.span.clone()], at, "{text}: {e}");
        assert!(
            e.message
                .starts_with(&format!("'{at}' is a special register"))
                && e.message.ends_with(tail),
            "{text}: {e}"
        );
    }
}
