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
