//! The instruction set as data: every opcode with its family, operand count, documentation link
//! and a one-line summary in the project's own words. The parser, validator, UI pickers and docs
//! all read this table.

use serde::{Deserialize, Serialize};

use crate::ast::{Instruction, Mod};

/// Base address of NVIDIA's PTX ISA documentation.
pub const PTX_DOC_BASE: &str = "https://docs.nvidia.com/cuda/parallel-thread-execution/index.html";

/// Instruction family: decides which evaluator runs and how the UI lays out the stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// `vadd vsub vabsdiff vmin vmax vshl vshr vset`: one 32-bit lane, optional secondary op or merge.
    ScalarVideo,
    /// `vmad`: multiply-add with negation, plus-one and scaling.
    Vmad,
    /// Two half-word lanes (`vadd2` ...).
    Simd2,
    /// Four byte lanes (`vadd4` ...).
    Simd4,
    /// Integer arithmetic of section 9.7.1.
    Integer,
}

macro_rules! opcodes {
    ($($var:ident $name:literal $fam:ident $srcs:literal $anchor:expr, $summary:literal;)*) => {
        /// Every opcode in scope.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Opcode { $($var,)* }

        /// Static facts about every opcode, in the order the ISA lists them.
        pub const OPCODES: &[OpcodeInfo] = &[
            $(OpcodeInfo {
                opcode: Opcode::$var,
                name: $name,
                family: Family::$fam,
                sources: $srcs,
                doc_anchor: $anchor,
                summary: $summary,
            },)*
        ];
    };
}

/// Static facts about one opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OpcodeInfo {
    pub opcode: Opcode,
    pub name: &'static str,
    pub family: Family,
    /// Number of source operands in the usual form (scalar video: 2, or 3 with a secondary op or merge).
    pub sources: u8,
    /// Anchor of its section in NVIDIA's PTX documentation.
    pub doc_anchor: &'static str,
    /// What it computes, in a sentence of our own.
    pub summary: &'static str,
}

const SV: &str = "scalar-video-instructions-vadd-vsub-vabsdiff-vmin-vmax";
const SH: &str = "scalar-video-instructions-vshl-vshr";
const S2: &str = "simd-video-instructions-vadd2-vsub2-vavrg2-vabsdiff2-vmin2-vmax2";
const S4: &str = "simd-video-instructions-vadd4-vsub4-vavrg4-vabsdiff4-vmin4-vmax4";

opcodes! {
    Vadd "vadd" ScalarVideo 2 SV, "Adds one selected byte, half-word or word of a to one of b, in 34-bit precision.";
    Vsub "vsub" ScalarVideo 2 SV, "Subtracts a selected part of b from a selected part of a, in 34-bit precision.";
    Vabsdiff "vabsdiff" ScalarVideo 2 SV, "Absolute difference of a selected part of a and of b.";
    Vmin "vmin" ScalarVideo 2 SV, "Smaller of a selected part of a and of b, each read signed or unsigned.";
    Vmax "vmax" ScalarVideo 2 SV, "Larger of a selected part of a and of b, each read signed or unsigned.";
    Vshl "vshl" ScalarVideo 2 SH, "Shifts a selected part of a left by an unsigned amount taken from b.";
    Vshr "vshr" ScalarVideo 2 SH, "Shifts a selected part of a right (arithmetic when a is signed) by an amount from b.";
    Vmad "vmad" Vmad 3 "scalar-video-instructions-vmad", "Multiplies selected parts of a and b and adds c, with optional negation, plus one and scaling.";
    Vset "vset" ScalarVideo 2 "scalar-video-instructions-vset", "Compares a selected part of a with one of b, giving 1 or 0.";
    Vadd2 "vadd2" Simd2 3 S2, "Adds two pairs of half-words chosen from a and b.";
    Vsub2 "vsub2" Simd2 3 S2, "Subtracts two pairs of half-words chosen from a and b.";
    Vavrg2 "vavrg2" Simd2 3 S2, "Averages two pairs of half-words, rounding halves away from zero.";
    Vabsdiff2 "vabsdiff2" Simd2 3 S2, "Absolute differences of two pairs of half-words.";
    Vmin2 "vmin2" Simd2 3 S2, "Per-half-word minimum.";
    Vmax2 "vmax2" Simd2 3 S2, "Per-half-word maximum.";
    Vset2 "vset2" Simd2 3 "simd-video-instructions-vset2", "Per-half-word comparison giving 1 or 0 in each lane.";
    Vadd4 "vadd4" Simd4 3 S4, "Adds four pairs of bytes chosen from a and b.";
    Vsub4 "vsub4" Simd4 3 S4, "Subtracts four pairs of bytes chosen from a and b.";
    Vavrg4 "vavrg4" Simd4 3 S4, "Averages four pairs of bytes, rounding halves away from zero.";
    Vabsdiff4 "vabsdiff4" Simd4 3 S4, "Absolute differences of four pairs of bytes.";
    Vmin4 "vmin4" Simd4 3 S4, "Per-byte minimum.";
    Vmax4 "vmax4" Simd4 3 S4, "Per-byte maximum.";
    Vset4 "vset4" Simd4 3 "simd-video-instructions-vset4", "Per-byte comparison giving 1 or 0 in each lane.";
    Add "add" Integer 2 "integer-arithmetic-instructions-add", "Sum, wrapping or (for .s32 with .sat) clamped.";
    Sub "sub" Integer 2 "integer-arithmetic-instructions-sub", "Difference, wrapping or (for .s32 with .sat) clamped.";
    Mul "mul" Integer 2 "integer-arithmetic-instructions-mul", "Full product; keeps the low half, the high half, or all of it (.wide).";
    Mad "mad" Integer 3 "integer-arithmetic-instructions-mad", "Product (low, high or wide) plus c.";
    Mul24 "mul24" Integer 2 "integer-arithmetic-instructions-mul24", "Product of the low 24 bits of a and b; keeps bits 0-31 or 16-47 of the 48-bit product.";
    Mad24 "mad24" Integer 3 "integer-arithmetic-instructions-mad24", "24-bit product (low or high part) plus c.";
    Sad "sad" Integer 3 "integer-arithmetic-instructions-sad", "Absolute difference of a and b, plus c.";
    Div "div" Integer 2 "integer-arithmetic-instructions-div", "Quotient rounded toward zero.";
    Rem "rem" Integer 2 "integer-arithmetic-instructions-rem", "Remainder with the sign of a.";
    Abs "abs" Integer 1 "integer-arithmetic-instructions-abs", "Absolute value (the most negative value stays as it is).";
    Neg "neg" Integer 1 "integer-arithmetic-instructions-neg", "Two's complement negation.";
    Min "min" Integer 2 "integer-arithmetic-instructions-min", "Smaller of a and b; per half-word for x2 types; .relu clamps below at zero.";
    Max "max" Integer 2 "integer-arithmetic-instructions-max", "Larger of a and b; per half-word for x2 types; .relu clamps below at zero.";
    Popc "popc" Integer 1 "integer-arithmetic-instructions-popc", "Number of one bits.";
    Clz "clz" Integer 1 "integer-arithmetic-instructions-clz", "Number of leading zero bits.";
    Bfind "bfind" Integer 1 "integer-arithmetic-instructions-bfind", "Position of the most significant non-sign bit, or its distance from the top with .shiftamt.";
    Fns "fns" Integer 3 "integer-arithmetic-instructions-fns", "Finds the n-th set bit of a mask counting from a base position.";
    Brev "brev" Integer 1 "integer-arithmetic-instructions-brev", "Reverses the order of the bits.";
    Bfe "bfe" Integer 3 "integer-arithmetic-instructions-bfe", "Extracts a bit field of a at position b, length c, sign- or zero-extended.";
    Bfi "bfi" Integer 4 "integer-arithmetic-instructions-bfi", "Inserts the low bits of a into b at position c, length e.";
    Szext "szext" Integer 2 "integer-arithmetic-instructions-szext", "Sign- or zero-extends the low b bits of a.";
    Bmsk "bmsk" Integer 2 "integer-arithmetic-instructions-bmsk", "A mask of b ones starting at bit a.";
    Dp4a "dp4a" Integer 3 "integer-arithmetic-instructions-dp4a", "Dot product of four byte pairs plus c.";
    Dp2a "dp2a" Integer 3 "integer-arithmetic-instructions-dp2a", "Dot product of two half-word pairs with two bytes of b, plus c.";
}

impl Opcode {
    pub fn info(self) -> &'static OpcodeInfo {
        // The table is generated in declaration order, so the discriminant indexes it.
        &OPCODES[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    pub fn family(self) -> Family {
        self.info().family
    }
    pub fn from_name(s: &str) -> Option<Opcode> {
        OPCODES.iter().find(|o| o.name == s).map(|o| o.opcode)
    }
    /// Link to this opcode's section of NVIDIA's documentation.
    pub fn doc_url(self) -> String {
        format!("{PTX_DOC_BASE}#{}", self.info().doc_anchor)
    }
    pub fn is_video(self) -> bool {
        self.family() != Family::Integer
    }
}

/// The instruction's modifiers in the order the ISA's syntax lists them (types keep their own
/// relative order).
pub fn canonical_mod_order(insn: &Instruction) -> Vec<Mod> {
    let video = insn.opcode.is_video();
    let rank = |m: &Mod| -> u8 {
        if video {
            match m {
                Mod::Type(_) => 0,
                Mod::Po => 1,
                Mod::Sat => 2,
                Mod::Mode(_) => 3,
                Mod::Scale(_) => 4,
                Mod::Cmp(_) => 5,
                Mod::SecOp(_) => 6,
                _ => 7,
            }
        } else {
            match m {
                Mod::Half(_) => 0,
                Mod::Shiftamt => 1,
                Mod::Mode(_) => 2,
                Mod::Sat => 3,
                Mod::Relu => 4,
                Mod::Type(_) => 5,
                _ => 6,
            }
        }
    };
    let mut v: Vec<Mod> = insn.mods.iter().map(|(m, _)| *m).collect();
    v.sort_by_key(rank);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_discriminant() {
        for (i, info) in OPCODES.iter().enumerate() {
            assert_eq!(info.opcode as usize, i);
            assert_eq!(Opcode::from_name(info.name), Some(info.opcode));
        }
        assert_eq!(OPCODES.len(), 47);
    }
}
