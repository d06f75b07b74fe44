//! The cheaper equivalents of `crates/ptxlab-cli/src/equivalents.txt`: every group proven
//! again, every group cheaper somewhere, the pairs the page and the README name, and pairs that
//! differ rejected.

use ptxlab_core::atlas::Atlas;
use ptxlab_core::equiv::{prove, prove_all, Equivalents, Method, Verdict, RANDOM, SEED};
use ptxlab_core::insn::check;
use ptxlab_core::Inputs;
use ptxlab_core::Instruction;

const ATLAS: &str = include_str!("../../ptxlab-cli/src/atlas.txt");
const DATA: &str = include_str!("../../ptxlab-cli/src/equivalents.txt");

fn atlas() -> Atlas {
    Atlas::parse(ATLAS).unwrap()
}

fn arch(a: &Atlas, name: &str) -> usize {
    a.archs().iter().position(|x| *x == name).unwrap()
}

fn insn(text: &str) -> Instruction {
    check(text).unwrap()
}

#[test]
fn every_group_of_the_data_is_proven_again() {
    let data = Equivalents::parse(DATA).unwrap();
    assert!(data.classes().len() > 50);
    // Two threads: the groups are independent. Each group is proven as a whole: every form
    // against the first, on the same inputs (about a minute in a debug build).
    let (left, right) = data.classes().split_at(data.classes().len() / 2);
    std::thread::scope(|s| {
        for half in [left, right] {
            s.spawn(move || {
                for c in half {
                    let forms: Vec<Instruction> = c.forms.iter().map(|f| insn(f)).collect();
                    assert_eq!(prove_all(&forms), Verdict::Equal(c.method), "{:?}", c.forms);
                }
            });
        }
    });
}

#[test]
fn every_group_has_a_cheaper_form_somewhere() {
    let a = atlas();
    let data = Equivalents::parse(DATA).unwrap();
    for c in data.classes() {
        let some = c.forms.iter().any(|f| {
            (0..a.archs().len()).any(|k| {
                let hint = data.cheaper(&a, f, k);
                if let Some(h) = &hint {
                    // The hint is true to the atlas: fewer instructions on that architecture.
                    let mine = a.cost(a.form(f).unwrap(), k);
                    let theirs = a.cost(a.form(&h.form).unwrap(), k);
                    assert!(theirs.available && theirs.core.len() < mine.core.len());
                    assert_eq!(
                        (h.count, h.instead_of),
                        (theirs.core.len(), mine.core.len())
                    );
                    assert!(c.forms.contains(&h.form));
                }
                hint.is_some()
            })
        });
        assert!(some, "{:?}", c.forms);
    }
}

#[test]
fn the_video_forms_against_plain_integer_ones() {
    let a = atlas();
    let data = Equivalents::parse(DATA).unwrap();
    let sm90 = arch(&a, "sm_90");
    // vmin without .sat on u32 is min.u32; vmin2 is min.u16x2; vabsdiff with .add is sad.
    for (video, plain) in [
        ("vmin.u32.u32.u32 d, a, b;", "min.u32 d, a, b;"),
        ("vmin2.u32.u32.u32 d, a, b, c;", "min.u16x2 d, a, b;"),
        (
            "vabsdiff.u32.u32.u32.add d, a, b, c;",
            "sad.u32 d, a, b, c;",
        ),
        ("vadd.s32.s32.s32.sat d, a, b;", "add.sat.s32 d, a, b;"),
    ] {
        let hint = data
            .cheaper(&a, video, sm90)
            .unwrap_or_else(|| panic!("{video}"));
        // The cheapest of the group is named; the plain form is at least as cheap as it.
        let plain_count = a.cost(a.form(plain).unwrap(), sm90).core.len();
        assert!(hint.count <= plain_count, "{video}: {hint:?}");
        assert!(plain_count < hint.instead_of, "{video}");
        assert!(matches!(
            prove(&insn(video), &insn(plain)),
            Verdict::Equal(Method::Sampled {
                random: RANDOM,
                seed: SEED,
                ..
            })
        ));
        assert!(
            hint.proof.contains("1,000,000 random inputs"),
            "{}",
            hint.proof
        );
        // The cheaper form has no cheaper form of its own there.
        assert!(data.cheaper(&a, &hint.form, sm90).is_none());
    }
    // A form of 16 bits of input in all is proven exhaustively.
    let c = data
        .classes()
        .iter()
        .find(|c| c.forms.iter().any(|f| f == "cvt.u8.s16 d, a;"))
        .unwrap();
    assert_eq!(c.method, Method::Exhaustive { bits: 16 });
    assert!(c.method.describe().contains("all 65,536 inputs"));
}

#[test]
fn forms_that_differ_are_rejected_with_an_input_that_shows_it() {
    // A signed .sat clamps where add wraps. (An unsigned one does not, on the H100: see
    // docs/hardware-vs-spec.md#unsigned-word-saturation; the data has vadd.u32.u32.u32.sat
    // beside add.u32.)
    let sat = insn("vadd.s32.s32.s32.sat d, a, b;");
    let add = insn("add.s32 d, a, b;");
    let Verdict::Differ {
        inputs,
        left,
        right,
    } = prove(&sat, &add)
    else {
        panic!("vadd.sat and add differ")
    };
    assert_eq!(sat.value(&inputs), left);
    assert_eq!(add.value(&inputs), right);
    assert_ne!(left, right);
    // Found exhaustively: abs and neg of 16 bits differ at 1.
    let Verdict::Differ { inputs, .. } = prove(&insn("abs.s16 d, a;"), &insn("neg.s16 d, a;"))
    else {
        panic!("abs and neg differ")
    };
    assert_ne!(inputs, Inputs::default());
    // A form that reads c and depends on it against one that does not read c.
    assert!(matches!(
        prove(
            &insn("vmin.u32.u32.u32.max d, a, b, c;"),
            &insn("min.u32 d, a, b;")
        ),
        Verdict::Differ { .. }
    ));
    // No group of the data holds a pair that differs.
    let data = Equivalents::parse(DATA).unwrap();
    for c in data.classes() {
        assert!(
            !(c.forms.contains(&"add.s32 d, a, b;".to_string())
                && c.forms
                    .contains(&"vadd.s32.s32.s32.sat d, a, b;".to_string()))
        );
    }
}

#[test]
fn forms_that_cannot_be_compared_say_why() {
    for (x, y) in [
        ("add.u16 d, a, b;", "add.u32 d, a, b;"),
        ("and.pred d, a, a;", "and.pred d, a, b;"),
        ("setp.lt.s32 p|q, a, b;", "setp.lt.s32 p|q, a, b;"),
    ] {
        assert!(
            matches!(prove(&insn(x), &insn(y)), Verdict::Incomparable(_)),
            "{x} {y}"
        );
    }
}
