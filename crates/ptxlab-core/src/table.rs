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
                Mod::Sat | Mod::Cc => 3,
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

// ---------------------------------------------------------------------------------------------
// What ptxas (sm_90) accepts, as data: types, modifiers, operands and selectors per opcode.
// ---------------------------------------------------------------------------------------------

/// The kind of slot a modifier fills; two modifiers of one group (other than the repeatable
/// ones) conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModGroup {
    Type,
    Sat,
    SecOp,
    Cmp,
    Mode,
    Scale,
    Po,
    Half,
    Relu,
    Shiftamt,
    Cc,
}

impl ModGroup {
    pub fn of(m: Mod) -> ModGroup {
        match m {
            Mod::Type(_) => ModGroup::Type,
            Mod::Sat => ModGroup::Sat,
            Mod::SecOp(_) => ModGroup::SecOp,
            Mod::Cmp(_) => ModGroup::Cmp,
            Mod::Mode(_) => ModGroup::Mode,
            Mod::Scale(_) => ModGroup::Scale,
            Mod::Po => ModGroup::Po,
            Mod::Half(_) => ModGroup::Half,
            Mod::Relu => ModGroup::Relu,
            Mod::Shiftamt => ModGroup::Shiftamt,
            Mod::Cc => ModGroup::Cc,
        }
    }
    /// Writing the same modifier of this group twice is accepted (and means it once).
    pub fn repeatable(self) -> bool {
        matches!(
            self,
            ModGroup::Sat | ModGroup::Relu | ModGroup::Shiftamt | ModGroup::Cc
        )
    }
    /// A short description for messages.
    pub fn describe(self) -> &'static str {
        match self {
            ModGroup::Type => "type",
            ModGroup::Sat => "saturation (.sat)",
            ModGroup::SecOp => "secondary operation",
            ModGroup::Cmp => "comparison",
            ModGroup::Mode => "shift or position mode (.clamp/.wrap)",
            ModGroup::Scale => "scaling shift (.shr7/.shr15)",
            ModGroup::Po => "plus-one mode (.po)",
            ModGroup::Half => "result part (.hi/.lo/.wide)",
            ModGroup::Relu => ".relu",
            ModGroup::Shiftamt => ".shiftamt",
            ModGroup::Cc => "carry-out (.cc)",
        }
    }
}

use crate::ast::{ClampMode, Cmp, HalfMode, Scale, SecOp, Type};

const U16: Type = Type::U16;
const U32: Type = Type::U32;
const U64: Type = Type::U64;
const S16: Type = Type::S16;
const S32: Type = Type::S32;
const S64: Type = Type::S64;
const B32: Type = Type::B32;
const B64: Type = Type::B64;
const U16X2: Type = Type::U16x2;
const S16X2: Type = Type::S16x2;

/// Type sets used by the rules below.
pub mod types {
    use super::*;
    pub const VIDEO: &[Type] = &[U32, S32];
    pub const SHIFT_AMOUNT: &[Type] = &[U32];
    pub const INT: &[Type] = &[U16, U32, U64, S16, S32, S64];
    pub const INT_X2: &[Type] = &[U16, U32, U64, S16, S32, S64, U16X2, S16X2];
    pub const SIGNED: &[Type] = &[S16, S32, S64];
    pub const BITS: &[Type] = &[B32, B64];
    pub const B32_ONLY: &[Type] = &[B32];
    pub const WORDS: &[Type] = &[U32, U64, S32, S64];
    pub const S32_ONLY: &[Type] = &[S32];
    pub const RELU: &[Type] = &[S32, S16X2];
    pub const WIDE: &[Type] = &[U16, U32, S16, S32];
    pub const CARRY: &[Type] = &[U32, S32, U64, S64];
}

const SAT: Mod = Mod::Sat;
const ADD: Mod = Mod::SecOp(SecOp::Add);
const MIN: Mod = Mod::SecOp(SecOp::Min);
const MAX: Mod = Mod::SecOp(SecOp::Max);
const EQ: Mod = Mod::Cmp(Cmp::Eq);
const NE: Mod = Mod::Cmp(Cmp::Ne);
const LT: Mod = Mod::Cmp(Cmp::Lt);
const LE: Mod = Mod::Cmp(Cmp::Le);
const GT: Mod = Mod::Cmp(Cmp::Gt);
const GE: Mod = Mod::Cmp(Cmp::Ge);
const CLAMP: Mod = Mod::Mode(ClampMode::Clamp);
const WRAP: Mod = Mod::Mode(ClampMode::Wrap);
const SHR7: Mod = Mod::Scale(Scale::Shr7);
const SHR15: Mod = Mod::Scale(Scale::Shr15);
const HI: Mod = Mod::Half(HalfMode::Hi);
const LO: Mod = Mod::Half(HalfMode::Lo);
const WIDE: Mod = Mod::Half(HalfMode::Wide);

/// What may be written on an operand in one position: which selector, whether an immediate
/// may stand there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SelRule {
    /// No selector at all.
    None,
    /// One byte or half-word of a scalar video operand: `.b0`-`.b3`, `.h0`, `.h1`.
    Scalar,
    /// Two half-words out of the four of `a` and `b` together: `.hxy`, x and y in 0-3.
    Lanes2,
    /// Four bytes of `a` and `b` together: `.bxyzw`, each digit 0-7.
    Lanes4,
    /// Which half-words of `d` are written: `.h0`, `.h1`, `.h10`.
    Mask2,
    /// Which bytes of `d` are written: descending digits out of 3, 2, 1, 0.
    Mask4,
}

impl SelRule {
    /// Whether `sel` is one this position takes.
    pub fn accepts(self, sel: &crate::ast::Selector) -> bool {
        use crate::ast::SelKind::{B, H};
        let d = sel.digits();
        let descending = d.windows(2).all(|w| w[0] > w[1]);
        match self {
            SelRule::None => false,
            SelRule::Scalar => match sel.kind {
                B => d.len() == 1 && d[0] <= 3,
                H => d.len() == 1 && d[0] <= 1,
            },
            SelRule::Lanes2 => sel.kind == H && d.len() == 2 && d.iter().all(|&x| x <= 3),
            SelRule::Lanes4 => sel.kind == B && d.len() == 4 && d.iter().all(|&x| x <= 7),
            SelRule::Mask2 => {
                sel.kind == H && !d.is_empty() && d.iter().all(|&x| x <= 1) && descending
            }
            SelRule::Mask4 => {
                sel.kind == B && !d.is_empty() && d.iter().all(|&x| x <= 3) && descending
            }
        }
    }
    /// The selectors this position takes, as written (patterns for the lane selectors).
    pub fn choices(self) -> Vec<String> {
        match self {
            SelRule::None => Vec::new(),
            SelRule::Scalar => [".b0", ".b1", ".b2", ".b3", ".h0", ".h1"]
                .map(String::from)
                .to_vec(),
            SelRule::Lanes2 => vec![".hxy with x, y in 0-3 (e.g. .h10, .h32)".to_string()],
            SelRule::Lanes4 => {
                vec![".bxyzw with each digit in 0-7 (e.g. .b3210, .b7654)".to_string()]
            }
            SelRule::Mask2 => [".h0", ".h1", ".h10"].map(String::from).to_vec(),
            SelRule::Mask4 => [
                ".b0", ".b1", ".b10", ".b2", ".b20", ".b21", ".b210", ".b3", ".b30", ".b31",
                ".b310", ".b32", ".b320", ".b321", ".b3210",
            ]
            .map(String::from)
            .to_vec(),
        }
    }
    /// What the selector does there, for messages and the UI.
    pub fn describe(self) -> &'static str {
        match self {
            SelRule::None => "no selector",
            SelRule::Scalar => "a byte or half-word selector",
            SelRule::Lanes2 => "a two-lane half-word selector",
            SelRule::Lanes4 => "a four-lane byte selector",
            SelRule::Mask2 => "a half-word mask",
            SelRule::Mask4 => "a byte mask",
        }
    }
}

/// The syntax ptxas accepts for one opcode on sm_90.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Syntax {
    pub opcode: Opcode,
    /// Names of the type positions, in the order written (`dtype`, `atype`, `btype`, ...).
    pub type_names: &'static [&'static str],
    /// The types each position takes.
    pub types: &'static [&'static [Type]],
    /// Modifiers accepted besides the types, in any order (except `mode_first`).
    pub mods: &'static [Mod],
    /// A group of which one modifier must be written.
    pub required: Option<ModGroup>,
    /// The `.hi`/`.lo`/`.wide` part belongs to the opcode name: it must come right after it.
    pub mode_first: bool,
    /// With this modifier, the (first) type must be one of these.
    pub narrow: &'static [(Mod, &'static [Type])],
    /// With the first modifier, the second must be written too.
    pub requires: &'static [(Mod, Mod)],
    /// Pairs of modifiers that cannot be combined.
    pub excludes: &'static [(Mod, Mod)],
    /// Whether sources may be negated at all (`vmad` only, and even there with limits); a
    /// negation of both `a` and `b` cancels and is accepted on 32-bit registers everywhere.
    pub negation: bool,
}

const NO_PAIRS: &[(Mod, Mod)] = &[];
const NO_NARROW: &[(Mod, &[Type])] = &[];
const VID_NAMES: &[&str] = &["dtype", "atype", "btype"];
const VSET_NAMES: &[&str] = &["atype", "btype"];
const ONE_NAME: &[&str] = &["type"];
const VID_TYPES: &[&[Type]] = &[types::VIDEO, types::VIDEO, types::VIDEO];
const SHIFT_TYPES: &[&[Type]] = &[types::VIDEO, types::VIDEO, types::SHIFT_AMOUNT];
const VSET_TYPES: &[&[Type]] = &[types::VIDEO, types::VIDEO];

const fn video(opcode: Opcode, mods: &'static [Mod]) -> Syntax {
    Syntax {
        opcode,
        type_names: VID_NAMES,
        types: VID_TYPES,
        mods,
        required: None,
        mode_first: false,
        narrow: NO_NARROW,
        requires: NO_PAIRS,
        excludes: NO_PAIRS,
        negation: false,
    }
}

const fn integer(
    opcode: Opcode,
    types: &'static [&'static [Type]],
    mods: &'static [Mod],
) -> Syntax {
    Syntax {
        opcode,
        type_names: ONE_NAME,
        types,
        mods,
        required: None,
        mode_first: false,
        narrow: NO_NARROW,
        requires: NO_PAIRS,
        excludes: NO_PAIRS,
        negation: false,
    }
}

const SCALAR_MODS: &[Mod] = &[SAT, ADD, MIN, MAX];
const SHIFT_MODS: &[Mod] = &[SAT, ADD, MIN, MAX, CLAMP, WRAP];
const VMAD_MODS: &[Mod] = &[SAT, SHR7, SHR15, Mod::Po];
const VSET_MODS: &[Mod] = &[ADD, MIN, MAX, EQ, NE, LT, LE, GT, GE];
const SIMD_MODS: &[Mod] = &[SAT, ADD];
const VSETN_MODS: &[Mod] = &[ADD, EQ, NE, LT, LE, GT, GE];
const SIMD_EXCLUDES: &[(Mod, Mod)] = &[(SAT, ADD)];

const fn shift(opcode: Opcode) -> Syntax {
    let mut s = video(opcode, SHIFT_MODS);
    s.types = SHIFT_TYPES;
    s.required = Some(ModGroup::Mode);
    s
}
const fn simd(opcode: Opcode) -> Syntax {
    let mut s = video(opcode, SIMD_MODS);
    s.excludes = SIMD_EXCLUDES;
    s
}
const fn vset(opcode: Opcode, mods: &'static [Mod]) -> Syntax {
    let mut s = video(opcode, mods);
    s.type_names = VSET_NAMES;
    s.types = VSET_TYPES;
    s.required = Some(ModGroup::Cmp);
    s
}
const fn with_mode_first(mut s: Syntax) -> Syntax {
    s.required = Some(ModGroup::Half);
    s.mode_first = true;
    s
}

const T_INT: &[&[Type]] = &[types::INT];
const T_INT_X2: &[&[Type]] = &[types::INT_X2];
const T_SIGNED: &[&[Type]] = &[types::SIGNED];
const T_BITS: &[&[Type]] = &[types::BITS];
const T_B32: &[&[Type]] = &[types::B32_ONLY];
const T_WORDS: &[&[Type]] = &[types::WORDS];
const T_US32: &[&[Type]] = &[types::VIDEO];
const T_DP: &[&[Type]] = &[types::VIDEO, types::VIDEO];
const DP_NAMES: &[&str] = &["atype", "btype"];
const ADD_NARROW: &[(Mod, &[Type])] = &[(SAT, types::S32_ONLY), (Mod::Cc, types::CARRY)];
const CC_EXCLUDES: &[(Mod, Mod)] = &[(Mod::Cc, SAT)];
const MAD_NARROW: &[(Mod, &[Type])] = &[
    (SAT, types::S32_ONLY),
    (Mod::Cc, types::CARRY),
    (WIDE, types::WIDE),
];
const MAD_REQUIRES: &[(Mod, Mod)] = &[(SAT, HI)];
const MAD_EXCLUDES: &[(Mod, Mod)] = &[(Mod::Cc, SAT), (Mod::Cc, WIDE)];
const MUL_NARROW: &[(Mod, &[Type])] = &[(WIDE, types::WIDE)];
const MAD24_NARROW: &[(Mod, &[Type])] = &[(SAT, types::S32_ONLY)];
const RELU_NARROW: &[(Mod, &[Type])] = &[(Mod::Relu, types::RELU)];

/// The accepted syntax of every opcode, in the order of [`OPCODES`].
pub const SYNTAX: &[Syntax] = &[
    video(Opcode::Vadd, SCALAR_MODS),
    video(Opcode::Vsub, SCALAR_MODS),
    video(Opcode::Vabsdiff, SCALAR_MODS),
    video(Opcode::Vmin, SCALAR_MODS),
    video(Opcode::Vmax, SCALAR_MODS),
    shift(Opcode::Vshl),
    shift(Opcode::Vshr),
    {
        let mut s = video(Opcode::Vmad, VMAD_MODS);
        s.negation = true;
        s
    },
    vset(Opcode::Vset, VSET_MODS),
    simd(Opcode::Vadd2),
    simd(Opcode::Vsub2),
    simd(Opcode::Vavrg2),
    simd(Opcode::Vabsdiff2),
    simd(Opcode::Vmin2),
    simd(Opcode::Vmax2),
    vset(Opcode::Vset2, VSETN_MODS),
    simd(Opcode::Vadd4),
    simd(Opcode::Vsub4),
    simd(Opcode::Vavrg4),
    simd(Opcode::Vabsdiff4),
    simd(Opcode::Vmin4),
    simd(Opcode::Vmax4),
    vset(Opcode::Vset4, VSETN_MODS),
    {
        let mut s = integer(Opcode::Add, T_INT_X2, &[SAT, Mod::Cc]);
        s.narrow = ADD_NARROW;
        s.excludes = CC_EXCLUDES;
        s
    },
    {
        let mut s = integer(Opcode::Sub, T_INT, &[SAT, Mod::Cc]);
        s.narrow = ADD_NARROW;
        s.excludes = CC_EXCLUDES;
        s
    },
    {
        let mut s = with_mode_first(integer(Opcode::Mul, T_INT, &[HI, LO, WIDE]));
        s.narrow = MUL_NARROW;
        s
    },
    {
        let mut s = with_mode_first(integer(Opcode::Mad, T_INT, &[HI, LO, WIDE, SAT, Mod::Cc]));
        s.narrow = MAD_NARROW;
        s.requires = MAD_REQUIRES;
        s.excludes = MAD_EXCLUDES;
        s
    },
    with_mode_first(integer(Opcode::Mul24, T_US32, &[HI, LO])),
    {
        let mut s = with_mode_first(integer(Opcode::Mad24, T_US32, &[HI, LO, SAT]));
        s.narrow = MAD24_NARROW;
        s.requires = MAD_REQUIRES;
        s
    },
    integer(Opcode::Sad, T_INT, &[]),
    integer(Opcode::Div, T_INT, &[]),
    integer(Opcode::Rem, T_INT, &[]),
    integer(Opcode::Abs, T_SIGNED, &[]),
    integer(Opcode::Neg, T_SIGNED, &[]),
    {
        let mut s = integer(Opcode::Min, T_INT_X2, &[Mod::Relu]);
        s.narrow = RELU_NARROW;
        s
    },
    {
        let mut s = integer(Opcode::Max, T_INT_X2, &[Mod::Relu]);
        s.narrow = RELU_NARROW;
        s
    },
    integer(Opcode::Popc, T_BITS, &[]),
    integer(Opcode::Clz, T_BITS, &[]),
    integer(Opcode::Bfind, T_WORDS, &[Mod::Shiftamt]),
    integer(Opcode::Fns, T_B32, &[]),
    integer(Opcode::Brev, T_BITS, &[]),
    integer(Opcode::Bfe, T_WORDS, &[]),
    integer(Opcode::Bfi, T_BITS, &[]),
    {
        let mut s = integer(Opcode::Szext, T_US32, &[CLAMP, WRAP]);
        s.required = Some(ModGroup::Mode);
        s
    },
    {
        let mut s = integer(Opcode::Bmsk, T_B32, &[CLAMP, WRAP]);
        s.required = Some(ModGroup::Mode);
        s
    },
    {
        let mut s = integer(Opcode::Dp4a, T_DP, &[]);
        s.type_names = DP_NAMES;
        s
    },
    {
        let mut s = with_mode_first(integer(Opcode::Dp2a, T_DP, &[HI, LO]));
        s.type_names = DP_NAMES;
        s
    },
];

impl Opcode {
    /// The syntax ptxas accepts for this opcode.
    pub fn syntax(self) -> &'static Syntax {
        &SYNTAX[self as usize]
    }
}

/// Widths in bits of `d`, `a`, `b`, `c`, `e` as the instruction's types and mode ask.
pub fn operand_bits(insn: &Instruction) -> [u32; 5] {
    let op = insn.opcode;
    if op.is_video() {
        return [32; 5];
    }
    let w = insn.form.types[0].map_or(32, Type::bits);
    let wide = insn.form.half == Some(HalfMode::Wide);
    match op {
        Opcode::Fns | Opcode::Szext | Opcode::Bmsk | Opcode::Dp4a | Opcode::Dp2a => [32; 5],
        Opcode::Mul24 | Opcode::Mad24 => [32; 5],
        Opcode::Popc | Opcode::Clz | Opcode::Bfind => [32, w, 32, 32, 32],
        Opcode::Bfe => [w, w, 32, 32, 32],
        Opcode::Bfi => [w, w, w, 32, 32],
        Opcode::Mul | Opcode::Mad if wide => {
            let d = w.saturating_mul(2);
            [d, w, w, d, 32]
        }
        _ => [w; 5],
    }
}

/// Suffixes ptxas reads on a register and then ignores: `.b01`, `.b12`, `.b23` (digits as
/// written). The machine code is the same as without them.
pub const IGNORED_SUFFIXES: [[u8; 2]; 3] = [[0, 1], [1, 2], [2, 3]];

/// Whether ptxas accepts and ignores the suffix `sel` on operand `position` (0 = `d`, 1 = `a`,
/// ...): on `d` and `c` of the scalar video instructions and `vmad`, and on every 32-bit operand
/// of the integer instructions other than `div rem popc clz bfind brev bfe bfi`. Elsewhere it
/// is an error like any other wrong selector.
pub fn suffix_ignored(insn: &Instruction, position: usize, sel: &crate::ast::Selector) -> bool {
    if sel.kind != crate::ast::SelKind::B || !IGNORED_SUFFIXES.iter().any(|s| s == sel.digits()) {
        return false;
    }
    match insn.opcode.family() {
        Family::ScalarVideo | Family::Vmad => position == 0 || position == 3,
        Family::Simd2 | Family::Simd4 => false,
        Family::Integer => {
            !matches!(
                insn.opcode,
                Opcode::Div
                    | Opcode::Rem
                    | Opcode::Popc
                    | Opcode::Clz
                    | Opcode::Bfind
                    | Opcode::Brev
                    | Opcode::Bfe
                    | Opcode::Bfi
            ) && operand_bits(insn).get(position) == Some(&32)
        }
    }
}

/// Which selector each operand position takes: `[d, a, b, c, e]`. `merge` says whether a
/// scalar video instruction writes a part of `d` (three sources, no secondary operation).
pub fn selector_rules(opcode: Opcode, merge: bool) -> [SelRule; 5] {
    use SelRule::*;
    match opcode.family() {
        Family::ScalarVideo => [
            if merge { Scalar } else { None },
            Scalar,
            Scalar,
            None,
            None,
        ],
        Family::Vmad => [None, Scalar, Scalar, None, None],
        Family::Simd2 => [Mask2, Lanes2, Lanes2, None, None],
        Family::Simd4 => [Mask4, Lanes4, Lanes4, None, None],
        Family::Integer => [None; 5],
    }
}

/// Whether an immediate may stand in source position `i` (0 = `a`), and the range its value
/// must lie in when limited.
pub fn immediate_rule(insn: &Instruction, i: usize) -> Option<Option<(i64, i64)>> {
    let op = insn.opcode;
    match op.family() {
        Family::Simd2 | Family::Simd4 => None,
        Family::ScalarVideo | Family::Vmad => Some(None),
        Family::Integer => {
            if matches!(insn.form.types[0], Some(Type::U16x2 | Type::S16x2)) {
                return None;
            }
            match (op, i) {
                (Opcode::Bfe, 1 | 2) | (Opcode::Bfi, 2 | 3) => Some(Some((0, 255))),
                _ => Some(None),
            }
        }
    }
}

/// Number of sources accepted: scalar video takes 2 or 3 (3 with a secondary operation or a
/// destination part), the others a fixed count.
pub fn source_counts(opcode: Opcode) -> (usize, usize) {
    match opcode.family() {
        Family::ScalarVideo => (2, 3),
        _ => {
            let n = opcode.info().sources as usize;
            (n, n)
        }
    }
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
