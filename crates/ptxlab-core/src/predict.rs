//! "Predict d": a student's value for `d` checked against a trace, and, when it is wrong, which
//! bits are wrong and the earliest stage whose output explains them, found through bit
//! [`Provenance`]; and the hints, one stage at a time.
//!
//! A stage *explains* wrong bits when those bits of `d` came from its output (provenance leads
//! from them back to it) and something happened there that a reader can miss: a clamp, a sign
//! extension, a wrap, a lane masked off, a negation, a `+1`, an amount limited, a division by
//! zero, a search that found nothing, or a place where the H100 departs from the ISA text
//! (every flag but zero extension, which changes no value). When no such stage fed them, the
//! earliest stage that computes (not one that only reads or extracts) is named, and failing
//! that the stage that writes `d`.
//!
//! ```
//! use ptxlab_core::predict::check;
//! use ptxlab_core::{check as check_insn, evaluate_traced, Inputs};
//!
//! // Lane 1 adds 0xff + 0x01 and clamps the sum 0x100 to 0xff.
//! let insn = check_insn("vadd4.u32.u32.u32.sat d, a, b, c;").unwrap();
//! let t = evaluate_traced(&insn, &Inputs::new(0xff00, 0x0100, 0, 0));
//! assert!(check(&t, 0xff00).correct);
//! let v = check(&t, 0x0000);
//! assert_eq!(v.wrong, (8..16).collect::<Vec<_>>());
//! let v = check(&t, 0x1_0000); // the unclamped sum spilled into lane 2
//! assert!(!v.correct);
//! assert_eq!(t.stages[v.stage.unwrap()].kind.name(), "clamp");
//! assert!(v.message.contains("was clamped to 0xff"), "{}", v.message);
//! ```

use crate::provenance::Provenance;
use crate::trace::{mask128, Detail, Flag, Stage, StageKind, Trace, Val};

/// The answer to one prediction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the prediction equals `d`.
    pub correct: bool,
    /// The bits of `d` the prediction has wrong, lowest first (within `d`'s width).
    pub wrong: Vec<u32>,
    /// Whether the prediction has bits set above `d`'s width.
    pub too_wide: bool,
    /// The index (in `Trace::stages`) of the earliest stage whose output explains the wrong
    /// bits; `None` when the prediction is correct.
    pub stage: Option<usize>,
    /// The answer in words: "correct", or the wrong bits and the stage that explains them.
    pub message: String,
}

/// One hint: a stage and what it does, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The index of the stage in `Trace::stages`.
    pub stage: usize,
    /// The stage in words, with its value.
    pub text: String,
}

/// The stage that writes `d`: the first result stage holding the trace's result, or the last
/// stage.
pub fn d_stage(t: &Trace) -> Option<usize> {
    t.stages
        .iter()
        .position(|s| s.kind == StageKind::Result && s.output.name == t.result.name)
        .or_else(|| t.stages.len().checked_sub(1))
}

/// Bits of a mask, lowest first.
fn bits_of(mut m: u128) -> Vec<u32> {
    let mut out = Vec::new();
    while m != 0 {
        out.push(m.trailing_zeros());
        m &= m - 1;
    }
    out
}

/// "bit 8", "bits 8 and 9", "bits 0, 1 and 7", long lists shortened: "bits 0, 1, 2 ... (12 bits)".
pub fn bit_words(bits: &[u32]) -> String {
    match bits {
        [] => "no bit".to_string(),
        [b] => format!("bit {b}"),
        _ if bits.len() > 8 => {
            let head: Vec<String> = bits.iter().take(6).map(u32::to_string).collect();
            format!(
                "bits {} … {} ({} bits)",
                head.join(", "),
                bits[bits.len() - 1],
                bits.len()
            )
        }
        _ => {
            let (last, rest) = bits.split_last().unwrap_or((&0, &[]));
            let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
            format!("bits {} and {last}", rest.join(", "))
        }
    }
}

/// A value in short hex (`0x1ff`), with its decimal value as well when it is negative.
fn short(v: &Val) -> String {
    if v.signed && v.value < 0 {
        format!("{} ({:#x} in {} bits)", v.value, v.raw(), v.bits)
    } else {
        format!("{:#x}", v.raw())
    }
}

/// Whether something happened in the stage that a reader can miss.
fn eventful(s: &Stage) -> bool {
    s.flags.iter().any(|f| match f {
        Flag::ZeroExtended => false,
        Flag::SignExtended => s.output.value < 0,
        _ => true,
    })
}

/// Whether the stage computes (rather than reading, extracting or passing on a value).
fn computes(k: StageKind) -> bool {
    !matches!(
        k,
        StageKind::Read
            | StageKind::Extract
            | StageKind::Pool
            | StageKind::Truncate
            | StageKind::Result
    )
}

/// The stage's name in words: "the clamp", "the clamp of lane 1".
fn stage_name(s: &Stage) -> String {
    let kind = match s.kind {
        StageKind::Operate => "primary operation",
        StageKind::Secondary => "secondary operation",
        StageKind::Result => "write to d",
        k => k.name(),
    };
    match s.lane {
        Some(l) => format!("the {kind} of lane {l}"),
        None => format!("the {kind}"),
    }
}

/// What the value feeding a stage is called: "the sum", "the product"...
fn word_for(t: &Trace, p: &Provenance, i: usize) -> &'static str {
    let Some(f) = p.feeds(i).first().copied() else {
        return "value";
    };
    let s = &t.stages[f];
    match s.kind {
        StageKind::Operate if s.op.contains(" + ") => "sum",
        StageKind::Operate if s.op.contains(" - ") => "difference",
        StageKind::Product => "product",
        StageKind::Secondary => "secondary result",
        StageKind::Scale => "scaled value",
        StageKind::Adjust => "adjusted value",
        StageKind::Accumulate => "sum",
        _ => "value",
    }
}

/// What happened in stage `i`, in words.
fn why(t: &Trace, p: &Provenance, i: usize) -> String {
    let s = &t.stages[i];
    let out = short(&s.output);
    let input = s.inputs.first();
    let inp = input.map_or_else(|| "the value".to_string(), short);
    for f in &s.flags {
        let w = match f {
            Flag::ClampedHigh | Flag::ClampedLow => {
                let range = match s.detail {
                    Detail::Range { min, max } => format!(" (the range is {min} to {max})"),
                    _ => String::new(),
                };
                format!(
                    "the {} {inp} was clamped to {out}{range}",
                    word_for(t, p, i)
                )
            }
            Flag::Wrapped => format!(
                "{inp} does not fit in {} bits, so only its low {} bits are kept: {out}",
                s.output.bits, s.output.bits
            ),
            Flag::SignExtended => format!(
                "{} was sign-extended: its top bit is copied into every bit above it, giving {out}",
                input.map_or_else(|| "the field".to_string(), |v| v.name.clone())
            ),
            Flag::MaskedOff => {
                let other = match &s.detail {
                    Detail::Merge { other, .. } => other.clone(),
                    _ => "c".to_string(),
                };
                format!("a lane outside the mask is taken from {other}, not from the result: {out}")
            }
            Flag::Negated => format!("the value is negated: {inp} becomes {out}"),
            Flag::PlusOne => format!("one is added (.po): {out}"),
            Flag::AmountClamped => {
                format!("the shift amount or position is clamped to the width: {out}")
            }
            Flag::AmountWrapped => {
                format!("the shift amount or position is taken modulo the width: {out}")
            }
            Flag::DivideByZero => format!("the divisor is zero, and the hardware writes {out}"),
            Flag::NotFound => format!("the search finds nothing, which gives {out}"),
            Flag::HardwareDiffersFromText => {
                let title = s.difference.map_or("", |d| d.info().title);
                format!("here the H100 departs from the ISA text ({title}): {out}")
            }
            _ => continue,
        };
        return w;
    }
    if s.op.is_empty() {
        format!("{}: {} = {out}", s.label, s.output.name)
    } else {
        format!("{}: {} = {out}", s.label, s.op)
    }
}

/// Check `predicted` against the `d` of `t`.
pub fn check(t: &Trace, predicted: u128) -> Verdict {
    let width = t.result.bits;
    let expected = t.result.raw();
    let too_wide = predicted & !mask128(width) != 0;
    let diff = (predicted ^ expected) & mask128(width);
    let wrong = bits_of(diff);
    if diff == 0 && !too_wide {
        return Verdict {
            correct: true,
            wrong,
            too_wide,
            stage: None,
            message: "correct".to_string(),
        };
    }
    let wide_note = if too_wide {
        format!(
            " Your value has bits above bit {}; d has {width} bits.",
            width - 1
        )
    } else {
        String::new()
    };
    let Some(r) = d_stage(t) else {
        return Verdict {
            correct: false,
            wrong,
            too_wide,
            stage: None,
            message: format!("Not quite.{wide_note}"),
        };
    };
    if wrong.is_empty() {
        return Verdict {
            correct: false,
            wrong,
            too_wide,
            stage: None,
            message: format!("Not quite: every bit of d is right, but{wide_note}"),
        };
    }
    let p = Provenance::of(t);
    let mut lit = vec![0u128; t.stages.len()];
    for &b in &wrong {
        for (acc, m) in lit.iter_mut().zip(p.lit(r, b)) {
            *acc |= m;
        }
    }
    if let Some(x) = lit.get_mut(r) {
        *x |= diff;
    }
    let feeds = |i: usize| lit.get(i).is_some_and(|&m| m != 0);
    let candidates: Vec<usize> = (0..=r)
        .filter(|&i| feeds(i) && t.stages[i].kind != StageKind::Read)
        .collect();
    let stage = candidates
        .iter()
        .copied()
        .find(|&i| eventful(&t.stages[i]))
        .or_else(|| {
            candidates
                .iter()
                .copied()
                .find(|&i| computes(t.stages[i].kind))
        })
        .unwrap_or(r);
    let n = wrong.len();
    let (is, they) = if n == 1 {
        ("is", "It comes")
    } else {
        ("are", "They come")
    };
    let message = format!(
        "Not quite: {} of d {is} wrong. {they} from {} (stage {}): {}.{wide_note}",
        bit_words(&wrong),
        stage_name(&t.stages[stage]),
        stage + 1,
        why(t, &p, stage)
    );
    Verdict {
        correct: false,
        wrong,
        too_wide,
        stage: Some(stage),
        message,
    }
}

/// The hints for `t`: every stage after the reads and before the one that writes `d`, in
/// order, each with its value (none that already holds `d`). Shown one at a time, they walk to the answer without giving it.
pub fn hints(t: &Trace) -> Vec<Hint> {
    let r = d_stage(t).unwrap_or(0);
    t.stages
        .iter()
        .enumerate()
        .take(r)
        .filter(|(_, s)| s.kind != StageKind::Read && s.output.name != t.result.name)
        .map(|(i, s)| {
            let flags: Vec<&str> = s.flags.iter().map(|f| f.label()).collect();
            let flags = if flags.is_empty() {
                String::new()
            } else {
                format!(" ({})", flags.join(", "))
            };
            let op = if s.op.is_empty() {
                String::new()
            } else {
                format!(": {}", s.op)
            };
            Hint {
                stage: i,
                text: format!(
                    "Stage {} ({}): {}{op} → {} = {}{flags}",
                    i + 1,
                    s.kind.name(),
                    s.label,
                    s.output.name,
                    short(&s.output)
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insn::check as check_insn;
    use crate::Inputs;

    fn trace(text: &str, a: u64, b: u64, c: u64) -> Trace {
        check_insn(text).unwrap().trace(&Inputs::new(a, b, c, 0))
    }

    #[test]
    fn right_is_correct_and_every_flipped_bit_is_named() {
        for (text, a, b, c) in [
            ("vadd4.u32.u32.u32.sat d, a, b, c;", 0xff00u64, 0x0100, 0),
            ("vadd.s32.s32.s32.sat d, a.b0, b.b1, c;", 0x80, 0x7f00, 5),
            (
                "vmad.s32.s32.s32.shr15 d, -a.h0, b.h1, c;",
                0x1234,
                0x5678_0000,
                9,
            ),
            ("mul.hi.u32 d, a, b;", 0xdead_beef, 0x1234_5678, 0),
            ("prmt.b32 d, a, b, c;", 0x1122_3344, 0x5566_7788, 0x3210),
            ("add.u64 d, a, b;", u64::MAX, 2, 0),
            ("bfe.s32 d, a, b, c;", 0xf0, 4, 4),
        ] {
            let t = trace(text, a, b, c);
            let d = t.result.raw();
            let v = check(&t, d);
            assert!(v.correct, "{text}");
            assert_eq!(v.message, "correct");
            for bit in 0..t.result.bits {
                let v = check(&t, d ^ (1 << bit));
                assert!(!v.correct);
                assert_eq!(v.wrong, vec![bit], "{text}");
                assert!(
                    v.message.contains(&format!("bit {bit} of d is wrong")),
                    "{text}: {}",
                    v.message
                );
                let s = v.stage.expect("a stage is named");
                // The named stage fed that bit of d (or writes it).
                let r = d_stage(&t).unwrap();
                let lit = Provenance::of(&t).lit(r, bit);
                assert!(s == r || lit[s] != 0, "{text} bit {bit}: stage {s}");
            }
        }
    }

    #[test]
    fn the_clamp_explains_an_unclamped_sum() {
        // 0x7f + 0x80 = 0xff fits; a.b0 = 0xff + b.b0 = 0x01 = 0x100 clamps to 0xff.
        let t = trace("vadd.u32.u32.u32.sat d.b0, a.b0, b.b0, c;", 0xff, 0x01, 0);
        assert_eq!(t.result.raw(), 0xff);
        let v = check(&t, 0x100);
        assert_eq!(v.wrong, (0..9).collect::<Vec<_>>());
        let s = &t.stages[v.stage.unwrap()];
        assert_eq!(s.kind, StageKind::Clamp, "{}", v.message);
        assert!(v.message.contains("was clamped to 0xff"), "{}", v.message);
        assert!(v.message.contains("the sum 0x100"), "{}", v.message);
    }

    #[test]
    fn sign_extension_explains_high_bits() {
        let t = trace("vadd.s32.s32.s32 d, a.b0, b.b0;", 0x80, 0, 0);
        assert_eq!(t.result.raw(), 0xffff_ff80);
        let v = check(&t, 0x80);
        assert_eq!(v.wrong, (8..32).collect::<Vec<_>>());
        let s = &t.stages[v.stage.unwrap()];
        assert_eq!(s.kind, StageKind::Extract, "{}", v.message);
        assert!(v.message.contains("sign-extended"), "{}", v.message);
    }

    #[test]
    fn wide_values_and_hints() {
        let t = trace("add.u32 d, a, b;", 1, 2, 0);
        let v = check(&t, 0x1_0000_0003);
        assert!(!v.correct && v.too_wide && v.wrong.is_empty());
        assert!(v.message.contains("above bit 31"), "{}", v.message);
        let h = hints(&trace("vadd4.u32.u32.u32.sat d, a, b, c;", 1, 2, 3));
        assert!(h.len() > 4);
        assert!(h.iter().all(|x| !x.text.contains("→ d =")), "{h:?}");
        assert_eq!(bit_words(&[1, 2, 3]), "bits 1, 2 and 3");
        assert_eq!(
            bit_words(&(0..12).collect::<Vec<_>>()),
            "bits 0, 1, 2, 3, 4, 5 … 11 (12 bits)"
        );
        // An empty trace never panics.
        let mut e = t.clone();
        e.stages.clear();
        assert!(!check(&e, 7).correct);
        assert!(hints(&e).is_empty());
    }
}
