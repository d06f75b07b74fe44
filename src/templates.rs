//! Starting values and explanations: the text shown when the page opens and short notes on each
//! modifier, written for this project. The example of each opcode (used when the pickers switch
//! to an opcode whose modifiers do not carry over) is part of its row in the core
//! ([`ptxlab_core::Opcode::example`]).

use ptxlab_core::ast::{ClampMode, Cmp, HalfMode, Mod, Scale, SecOp};
use ptxlab_core::Opcode;

/// The instruction shown when the page opens.
pub const DEFAULT_TEXT: &str = "vadd.s32.u32.s32.sat d, a.b0, b.h0;";
/// Source values shown when the page opens.
pub const DEFAULT_VALUES: [u64; 4] = [0x2808_cf1b, 0x0000_0024, 0x0000_0000, 0x0000_0000];

/// What a modifier does, in a sentence, for the Learn panel.
pub fn explain_mod(op: Opcode, m: Mod) -> String {
    let video = op.is_video();
    match m {
        Mod::Type(t) => {
            let how = if t.is_signed() {
                "signed (two's complement)"
            } else if t.name().starts_with('b') {
                "raw bits"
            } else {
                "unsigned"
            };
            format!(".{}: a {}-bit {} type.", t.name(), t.bits(), how)
        }
        Mod::Sat => {
            if video {
                ".sat: instead of keeping the low 32 bits, the result is clamped to the range of the destination type.".into()
            } else {
                ".sat: the result is clamped to the signed 32-bit range instead of wrapping.".into()
            }
        }
        Mod::SecOp(s) => {
            let what = match s {
                SecOp::Add => "added to c",
                SecOp::Min => "compared with c, and the smaller kept",
                SecOp::Max => "compared with c, and the larger kept",
            };
            if op.family() == ptxlab_core::Family::Simd2
                || op.family() == ptxlab_core::Family::Simd4
            {
                ".add: the lane results are summed and the sum is added to c.".into()
            } else {
                format!(
                    ".{}: the primary result is {what} as a second step.",
                    m.name()
                )
            }
        }
        Mod::Cmp(c) => {
            let rel = match c {
                Cmp::Eq => "equal to",
                Cmp::Ne => "not equal to",
                Cmp::Lt => "less than",
                Cmp::Le => "less than or equal to",
                Cmp::Gt => "greater than",
                Cmp::Ge => "greater than or equal to",
            };
            format!(".{}: the result is 1 when a is {rel} b, else 0.", m.name())
        }
        Mod::Mode(ClampMode::Clamp) => {
            ".clamp: an out-of-range shift amount or position is limited to the largest allowed."
                .into()
        }
        Mod::Mode(ClampMode::Wrap) => {
            ".wrap: only the low bits of the shift amount or position are used (it wraps around)."
                .into()
        }
        Mod::Scale(Scale::Shr7) => {
            ".shr7: the sum is shifted right by 7 bits before clamping.".into()
        }
        Mod::Scale(Scale::Shr15) => {
            ".shr15: the sum is shifted right by 15 bits before clamping.".into()
        }
        Mod::Po => {
            ".po: 'plus one' — the product gets 1 added, the form used for averaging.".into()
        }
        Mod::Half(HalfMode::Hi) => ".hi: keep the upper half of the double-width product.".into(),
        Mod::Half(HalfMode::Lo) => ".lo: keep the lower half of the double-width product.".into(),
        Mod::Half(HalfMode::Wide) => {
            ".wide: keep the whole product, in a destination twice as wide as the sources.".into()
        }
        Mod::Relu => ".relu: negative results become 0.".into(),
        Mod::Shiftamt => {
            ".shiftamt: report the distance from the top bit instead of the bit position.".into()
        }
        Mod::Cc => {
            ".cc: the carry (or borrow) out is also written to the condition-code register; d itself is the same as without it.".into()
        }
    }
}

/// A note on selectors, shown when the instruction has any.
pub fn explain_selectors(op: Opcode) -> &'static str {
    match op.family() {
        ptxlab_core::Family::Simd2 => {
            "Selectors such as .h10 on a or b pick, for each half-word lane, one of the four half-words of the pool b:a (0-1 from a, 2-3 from b). A selector on d is a mask: only the listed lanes are written from the result; the others come from c."
        }
        ptxlab_core::Family::Simd4 => {
            "Selectors such as .b3210 on a or b pick, for each byte lane, one of the eight bytes of the pool b:a (0-3 from a, 4-7 from b). A selector on d is a mask: only the listed lanes are written from the result; the others come from c."
        }
        ptxlab_core::Family::Integer => "",
        _ => {
            "A selector .b0-.b3 or .h0-.h1 on a or b reads one byte or half-word of the register and extends it (with sign copies for a signed type, with zeros otherwise). A selector on d writes the result into that part of d only; the rest of d comes from c."
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::OPCODES;

    #[test]
    fn default_text_checks() {
        assert!(ptxlab_core::check(DEFAULT_TEXT).is_ok());
    }

    #[test]
    fn every_modifier_has_a_note() {
        for info in OPCODES {
            for m in Mod::ALL {
                assert!(!explain_mod(info.opcode, m).is_empty());
            }
        }
    }
}
