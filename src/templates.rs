//! Starting points and explanations: one accepted example per opcode (used when the pickers switch
//! to an opcode whose modifiers do not carry over) and short notes on each modifier, written for
//! this project.

use ptxlab_core::ast::{ClampMode, Cmp, HalfMode, Mod, Scale, SecOp};
use ptxlab_core::Opcode;

/// The instruction shown when the page opens.
pub const DEFAULT_TEXT: &str = "vadd.s32.u32.s32.sat d, a.b0, b.h0;";
/// Source values shown when the page opens.
pub const DEFAULT_VALUES: [u64; 4] = [0x2808_cf1b, 0x0000_0024, 0x0000_0000, 0x0000_0000];

/// An example that the assembler accepts, for each opcode.
pub fn template(op: Opcode) -> &'static str {
    use Opcode::*;
    match op {
        Vadd => "vadd.s32.s32.s32 d, a.b0, b.h0;",
        Vsub => "vsub.s32.s32.s32 d, a.b2, b.b0;",
        Vabsdiff => "vabsdiff.u32.u32.u32 d, a.b3, b;",
        Vmin => "vmin.s32.s32.s32 d, a.h0, b.h1;",
        Vmax => "vmax.s32.s32.s32 d, a.h0, b.h0;",
        Vshl => "vshl.u32.u32.u32.wrap d, a, b.b1;",
        Vshr => "vshr.s32.s32.u32.wrap d, a.h0, b.b2;",
        Vmad => "vmad.u32.s32.s32 d, a, b, c;",
        Vset => "vset.s32.s32.lt d, a, b.b2;",
        Vadd2 => "vadd2.s32.s32.s32 d, a, b, c;",
        Vsub2 => "vsub2.s32.s32.s32 d, a, b.h01, c;",
        Vavrg2 => "vavrg2.u32.u32.u32 d, a.h03, b, c;",
        Vabsdiff2 => "vabsdiff2.u32.u32.u32 d, a, b, c;",
        Vmin2 => "vmin2.s32.s32.s32 d.h10, a, b, c;",
        Vmax2 => "vmax2.s32.s32.s32 d, a.h01, b.h13, c;",
        Vset2 => "vset2.s32.s32.lt d, a.h13, b.h33, c;",
        Vadd4 => "vadd4.s32.u32.u32 d, a, b, c;",
        Vsub4 => "vsub4.s32.s32.s32 d, a, b.b1664, c;",
        Vavrg4 => "vavrg4.u32.u32.u32 d.b30, a, b, c;",
        Vabsdiff4 => "vabsdiff4.u32.u32.u32 d.b31, a, b, c;",
        Vmin4 => "vmin4.s32.s32.s32 d.b21, a, b, c;",
        Vmax4 => "vmax4.u32.u32.u32 d, a, b, c;",
        Vset4 => "vset4.s32.s32.lt d, a, b, c;",
        Add => "add.s32 d, a, b;",
        Sub => "sub.s32 d, a, b;",
        Mul => "mul.lo.s32 d, a, b;",
        Mad => "mad.lo.s32 d, a, b, c;",
        Mul24 => "mul24.lo.s32 d, a, b;",
        Mad24 => "mad24.lo.s32 d, a, b, c;",
        Sad => "sad.u32 d, a, b, c;",
        Div => "div.s32 d, a, b;",
        Rem => "rem.s32 d, a, b;",
        Abs => "abs.s32 d, a;",
        Neg => "neg.s32 d, a;",
        Min => "min.s32 d, a, b;",
        Max => "max.s32 d, a, b;",
        Popc => "popc.b32 d, a;",
        Clz => "clz.b32 d, a;",
        Brev => "brev.b32 d, a;",
        Bfind => "bfind.u32 d, a;",
        Fns => "fns.b32 d, a, b, c;",
        Bfe => "bfe.u32 d, a, b, c;",
        Bfi => "bfi.b32 d, a, b, c, e;",
        Szext => "szext.wrap.s32 d, a, b;",
        Bmsk => "bmsk.wrap.b32 d, a, b;",
        Dp4a => "dp4a.s32.s32 d, a, b, c;",
        Dp2a => "dp2a.lo.s32.s32 d, a, b, c;",
    }
}

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
    fn every_template_parses_and_names_its_opcode() {
        for info in OPCODES {
            let t = template(info.opcode);
            let insn = ptxlab_core::check(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(insn.opcode, info.opcode, "{t}");
        }
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
