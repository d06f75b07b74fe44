//! The rows: one per opcode, in the order the ISA lists them. Adding an opcode means adding a
//! row here (and its evaluator); everything else reads the row.
//!
//! ```
//! use ptxlab_core::isa::{rows::types, Opcode, OPCODES};
//! use ptxlab_core::check;
//!
//! // Every row's example is accepted as written.
//! for row in OPCODES {
//!     check(row.example).unwrap();
//! }
//! assert_eq!(Opcode::Dp4a.name(), "dp4a");
//! assert!(types::VIDEO.iter().all(|t| t.bits() == 32));
//! ```

use super::operand::{ImmRule, OperandSpec, Operands, Role, SelRule, SignRule, WidthRule};
use super::operation::{IntOp, Operation, ScalarOp, SimdOp};
use super::vocab::{
    ClampMode, Cmp, HalfMode, Mod, ModGroup, Scale, SecOp, Type, TypeSlot, ATYPE, BTYPE, DTYPE,
};
use super::{Gpu, Instr, Mods, Need, NeedOf, Row, Syntax};

macro_rules! opcodes {
    ($($var:ident $name:literal $kind:ident $(($op:path))? $srcs:literal $anchor:expr,
       $syntax:expr, $ops:expr, $example:literal, $summary:literal;)*) => {
        /// Every opcode in scope.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Opcode {
            $(
                #[doc = concat!("`", $name, "`")]
                $var,
            )*
        }

        /// One row per opcode, in the order the ISA lists them: the first rows of
        /// [`super::ROWS`], which the table reads as [`super::OPCODES`].
        pub(super) const TABLE: &[Row] = &[
            $(Row {
                instr: Instr::Table(Opcode::$var),
                name: $name,
                family: Operation::$kind $(($op))?.family(),
                doc_anchor: $anchor,
                summary: $summary,
                example: $example,
                measured: Some(Gpu::H100),
                syntax: $syntax,
                operands: Operands::table($ops, $srcs),
            },)*
        ];

        impl Opcode {
            /// Every opcode, in table order.
            pub const ALL: &[Opcode] = &[$(Opcode::$var,)*];
            /// What the opcode computes: its family's operation, named in its row.
            pub const fn operation(self) -> Operation {
                match self {
                    $(Opcode::$var => Operation::$kind $(($op))?,)*
                }
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Types and modifiers.

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

/// Type sets used by the rows.
pub mod types {
    use super::*;
    /// The video types.
    pub const VIDEO: &[Type] = &[U32, S32];
    /// The type of a `vshl`/`vshr` shift amount.
    pub const SHIFT_AMOUNT: &[Type] = &[U32];
    /// Signed and unsigned integers of 16, 32 and 64 bits.
    pub const INT: &[Type] = &[U16, U32, U64, S16, S32, S64];
    /// The integers and the two 16-bit-lane types.
    pub const INT_X2: &[Type] = &[U16, U32, U64, S16, S32, S64, U16X2, S16X2];
    /// Signed integers.
    pub const SIGNED: &[Type] = &[S16, S32, S64];
    /// Untyped 32 and 64 bits.
    pub const BITS: &[Type] = &[B32, B64];
    /// Untyped 32 bits only.
    pub const B32_ONLY: &[Type] = &[B32];
    /// 32- and 64-bit integers.
    pub const WORDS: &[Type] = &[U32, U64, S32, S64];
    /// Signed 32 bits only.
    pub const S32_ONLY: &[Type] = &[S32];
    /// The types `.relu` accepts.
    pub const RELU: &[Type] = &[S32, S16X2];
    /// The types `.wide` accepts (16 and 32 bits).
    pub const WIDE: &[Type] = &[U16, U32, S16, S32];
    /// The types `.cc` accepts.
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

// ---------------------------------------------------------------------------------------------
// Syntax builders.

/// The slots `dtype`, `atype` and `btype`, the types of `d`, `a` and `b`.
const fn dtype(types: &'static [Type]) -> TypeSlot {
    TypeSlot::new(DTYPE, types).of("d")
}
const fn atype(types: &'static [Type]) -> TypeSlot {
    TypeSlot::new(ATYPE, types).of("a")
}
const fn btype(types: &'static [Type]) -> TypeSlot {
    TypeSlot::new(BTYPE, types).of("b")
}
const VID_TYPES: &[TypeSlot] = &[
    dtype(types::VIDEO),
    atype(types::VIDEO),
    btype(types::VIDEO),
];
const SHIFT_TYPES: &[TypeSlot] = &[
    dtype(types::VIDEO),
    atype(types::VIDEO),
    btype(types::SHIFT_AMOUNT),
];
const AB_TYPES: &[TypeSlot] = &[atype(types::VIDEO), btype(types::VIDEO)];

const fn video(mods: &'static [Mod]) -> Syntax {
    Syntax {
        slots: VID_TYPES,
        mods: Mods::new(mods),
        needs: &[],
        beyond: None,
        negation: false,
    }
}

const fn integer(slots: &'static [TypeSlot], mods: &'static [Mod]) -> Syntax {
    Syntax {
        slots,
        mods: Mods::new(mods),
        needs: &[],
        beyond: None,
        negation: false,
    }
}

const SCALAR_MODS: &[Mod] = &[SAT, ADD, MIN, MAX];
const SHIFT_MODS: &[Mod] = &[SAT, ADD, MIN, MAX, CLAMP, WRAP];
const VMAD_MODS: &[Mod] = &[SAT, SHR7, SHR15, Mod::Po];
const VSET_MODS: &[Mod] = &[ADD, MIN, MAX, EQ, NE, LT, LE, GT, GE];
const SIMD_MODS: &[Mod] = &[SAT, ADD];
const VSETN_MODS: &[Mod] = &[ADD, EQ, NE, LT, LE, GT, GE];
/// The SIMD `.sat` and `.add` exclude each other.
const SIMD_EXCLUDES: &[Need] = &[Need {
    modifier: SAT,
    of: NeedOf::Without(ADD),
    why: "saturation applies to the lanes, which .add sums into c",
}];

const SCALAR: Syntax = video(SCALAR_MODS);
const SHIFT: Syntax = {
    let mut s = video(SHIFT_MODS);
    s.slots = SHIFT_TYPES;
    s.mods.required = &[ModGroup::Mode];
    s
};
const VMAD: Syntax = {
    let mut s = video(VMAD_MODS);
    s.negation = true;
    s
};
const SIMD: Syntax = {
    let mut s = video(SIMD_MODS);
    s.needs = SIMD_EXCLUDES;
    s
};
const fn vset(mods: &'static [Mod]) -> Syntax {
    let mut s = video(mods);
    s.slots = AB_TYPES;
    s.mods.required = &[ModGroup::Cmp];
    s
}
const fn with_half_first(mut s: Syntax) -> Syntax {
    s.mods.required = &[ModGroup::Half];
    s.mods.first = Some(ModGroup::Half);
    s
}
const fn with_needs(mut s: Syntax, needs: &'static [Need]) -> Syntax {
    s.needs = needs;
    s
}
const fn with_mode_required(mut s: Syntax) -> Syntax {
    s.mods.required = &[ModGroup::Mode];
    s
}

const T_INT: &[TypeSlot] = &TypeSlot::only(types::INT);
const T_INT_X2: &[TypeSlot] = &TypeSlot::only(types::INT_X2);
const T_SIGNED: &[TypeSlot] = &TypeSlot::only(types::SIGNED);
const T_BITS: &[TypeSlot] = &TypeSlot::only(types::BITS);
const T_B32: &[TypeSlot] = &TypeSlot::only(types::B32_ONLY);
const T_WORDS: &[TypeSlot] = &TypeSlot::only(types::WORDS);
const T_US32: &[TypeSlot] = &TypeSlot::only(types::VIDEO);
// `add.cc`, `sub.cc` and `mad.cc` are rows of their own among the program instructions
// (`OP_ROWS`: they write the carry flag), not a modifier of these rows.
/// `.sat` of `add` and `sub`: `.s32` only, on sm_90 (newer PTX takes others, not for sm_90:
/// `docs/hardware-vs-spec.md`).
const SAT_S32: Need = Need {
    modifier: SAT,
    of: NeedOf::Type(0, types::S32_ONLY),
    why: "PTX defines it on .s32 only for sm_90",
};
/// `.sat` of `mad.hi` and `mad24.hi`: `.s32` only, a 32-bit signed addition.
const SAT_S32_HI: Need = Need {
    modifier: SAT,
    of: NeedOf::Type(0, types::S32_ONLY),
    why: "it clamps a signed 32-bit sum",
};
/// `.wide` of `mul` and `mad`: 16- and 32-bit types.
const WIDE_TYPES: Need = Need {
    modifier: WIDE,
    of: NeedOf::Type(0, types::WIDE),
    why: "it writes a product twice the type's width, which PTX defines for 16- and 32-bit types only",
};
const ADD_NEEDS: &[Need] = &[SAT_S32];
const MAD_NEEDS: &[Need] = &[SAT_HI, SAT_S32_HI, WIDE_TYPES];
/// `.sat` of `mad` and `mad24` with `.hi` only.
const SAT_HI: Need = Need {
    modifier: SAT,
    of: NeedOf::Mod(HI),
    why: "saturation is defined for the .hi form only",
};
const MUL_NEEDS: &[Need] = &[WIDE_TYPES];
const MAD24_NEEDS: &[Need] = &[SAT_HI, SAT_S32_HI];
const RELU_NEEDS: &[Need] = &[Need {
    modifier: Mod::Relu,
    of: NeedOf::Type(0, types::RELU),
    why: "ptxas takes it on these two signed types only",
}];

const ADD_SUB: Syntax = with_needs(integer(T_INT_X2, &[SAT]), ADD_NEEDS);
const SUB: Syntax = {
    let mut s = ADD_SUB;
    s.slots = T_INT;
    s
};
const MUL: Syntax = with_needs(with_half_first(integer(T_INT, &[HI, LO, WIDE])), MUL_NEEDS);
const MAD: Syntax = with_needs(
    with_half_first(integer(T_INT, &[HI, LO, WIDE, SAT])),
    MAD_NEEDS,
);
const MAD24: Syntax = with_needs(
    with_half_first(integer(T_US32, &[HI, LO, SAT])),
    MAD24_NEEDS,
);
const MINMAX: Syntax = with_needs(integer(T_INT_X2, &[Mod::Relu]), RELU_NEEDS);
const DP4A: Syntax = integer(AB_TYPES, &[]);
const DP2A: Syntax = with_half_first(integer(AB_TYPES, &[HI, LO]));

// ---------------------------------------------------------------------------------------------
// Operand builders.

use SignRule::{Either, Signed, Slot, Unsigned};
use WidthRule::{Type as TW, Wide};
/// 32 bits wide, whatever the types.
const W32: WidthRule = WidthRule::Bits(32);

const fn v(name: &'static str, width: WidthRule, sign: SignRule) -> OperandSpec {
    OperandSpec::value(name, width, sign)
}

/// Scalar video: `d` (a part of it when merging), `a`, `b` with byte/half-word selectors, and
/// `c` for the secondary operation or merge; `.b01`-style suffixes are ignored on `d` and `c`.
const SCALAR_OPS: &[OperandSpec] = &[
    v("d", W32, Slot(0)).sel(SelRule::Scalar).loose(),
    v("a", W32, Slot(1)).sel(SelRule::Scalar),
    v("b", W32, Slot(2)).sel(SelRule::Scalar),
    v("c", W32, Slot(0)).loose(),
];
const SHIFT_OPS: &[OperandSpec] = &[
    SCALAR_OPS[0],
    SCALAR_OPS[1],
    SCALAR_OPS[2].role(Role::Shift),
    SCALAR_OPS[3],
];
/// `vset` is written `.atype.btype`; its `c` follows `atype` on the hardware.
const VSET_OPS: &[OperandSpec] = &[
    v("d", W32, Unsigned).sel(SelRule::Scalar).loose(),
    v("a", W32, Slot(0)).sel(SelRule::Scalar),
    v("b", W32, Slot(1)).sel(SelRule::Scalar),
    v("c", W32, Slot(0)).loose(),
];
const VMAD_OPS: &[OperandSpec] = &[
    v("d", W32, Slot(0)).loose(),
    v("a", W32, Slot(1)).sel(SelRule::Scalar),
    v("b", W32, Slot(2)).sel(SelRule::Scalar),
    v("c", W32, Slot(0)).loose(),
];
const fn simd_ops(mask: SelRule, lanes: SelRule, set: bool) -> [OperandSpec; 4] {
    let (d, a, b) = if set {
        (Unsigned, Slot(0), Slot(1))
    } else {
        (Slot(0), Slot(1), Slot(2))
    };
    [
        v("d", W32, d).sel(mask).imm(ImmRule::Never),
        v("a", W32, a).sel(lanes).imm(ImmRule::Never),
        v("b", W32, b).sel(lanes).imm(ImmRule::Never),
        v("c", W32, Unsigned).imm(ImmRule::Never),
    ]
}
const SIMD2_OPS: &[OperandSpec] = &simd_ops(SelRule::Mask2, SelRule::Lanes2, false);
const SIMD4_OPS: &[OperandSpec] = &simd_ops(SelRule::Mask4, SelRule::Lanes4, false);
const VSET2_OPS: &[OperandSpec] = &simd_ops(SelRule::Mask2, SelRule::Lanes2, true);
const VSET4_OPS: &[OperandSpec] = &simd_ops(SelRule::Mask4, SelRule::Lanes4, true);

/// Integer operands of the type's width and sign; `.b01`-style suffixes ignored when 32-bit.
const INT1: &[OperandSpec] = &[v("d", TW, Slot(0)).loose(), v("a", TW, Slot(0)).loose()];
const INT2: &[OperandSpec] = &[INT1[0], INT1[1], v("b", TW, Slot(0)).loose()];
const INT3: &[OperandSpec] = &[INT1[0], INT1[1], INT2[2], v("c", TW, Slot(0)).loose()];
/// The same without ignored suffixes (`div`, `rem`, `brev`).
const STRICT1: &[OperandSpec] = &[v("d", TW, Slot(0)), v("a", TW, Slot(0))];
const STRICT2: &[OperandSpec] = &[STRICT1[0], STRICT1[1], v("b", TW, Slot(0))];
const MUL_OPS: &[OperandSpec] = &[v("d", Wide, Slot(0)).loose(), INT1[1], INT2[2]];
const MAD_OPS: &[OperandSpec] = &[MUL_OPS[0], INT1[1], INT2[2], v("c", Wide, Slot(0)).loose()];
const W32_3: &[OperandSpec] = &[
    v("d", W32, Slot(0)).loose(),
    v("a", W32, Slot(0)).loose(),
    v("b", W32, Slot(0)).loose(),
    v("c", W32, Slot(0)).loose(),
];
const W32_2: &[OperandSpec] = &[W32_3[0], W32_3[1], W32_3[2]];
const COUNT_OPS: &[OperandSpec] = &[v("d", W32, Unsigned), v("a", TW, Slot(0))];
const FNS_OPS: &[OperandSpec] = &[
    v("d", W32, Unsigned).loose(),
    v("a", W32, Unsigned).loose(),
    v("b", W32, Unsigned).role(Role::Position).loose(),
    v("c", W32, Signed).role(Role::Offset).loose(),
];
const BYTE: ImmRule = ImmRule::Range(0, 255);
const BFE_OPS: &[OperandSpec] = &[
    v("d", TW, Slot(0)),
    v("a", TW, Slot(0)),
    v("b", W32, Unsigned).role(Role::Position).imm(BYTE),
    v("c", W32, Unsigned).role(Role::Length).imm(BYTE),
];
const BFI_OPS: &[OperandSpec] = &[
    v("d", TW, Unsigned),
    v("a", TW, Unsigned),
    v("b", TW, Unsigned),
    v("c", W32, Unsigned).role(Role::Position).imm(BYTE),
    v("e", W32, Unsigned).role(Role::Length).imm(BYTE),
];
const SZEXT_OPS: &[OperandSpec] = &[
    v("d", W32, Slot(0)).loose(),
    v("a", W32, Slot(0)).loose(),
    v("b", W32, Unsigned).role(Role::Length).loose(),
];
const BMSK_OPS: &[OperandSpec] = &[
    v("d", W32, Unsigned).loose(),
    v("a", W32, Unsigned).role(Role::Position).loose(),
    v("b", W32, Unsigned).role(Role::Length).loose(),
];
const DOT_OPS: &[OperandSpec] = &[
    v("d", W32, Either(0, 1)).loose(),
    v("a", W32, Slot(0)).loose(),
    v("b", W32, Slot(1)).loose(),
    v("c", W32, Either(0, 1)).loose(),
];

const SV: &str = "scalar-video-instructions-vadd-vsub-vabsdiff-vmin-vmax";
const SH: &str = "scalar-video-instructions-vshl-vshr";
const S2: &str = "simd-video-instructions-vadd2-vsub2-vavrg2-vabsdiff2-vmin2-vmax2";
const S4: &str = "simd-video-instructions-vadd4-vsub4-vavrg4-vabsdiff4-vmin4-vmax4";

opcodes! {
    Vadd "vadd" Scalar(ScalarOp::Add) 2 SV, SCALAR, SCALAR_OPS, "vadd.s32.s32.s32 d, a.b0, b.h0;",
        "Adds one selected byte, half-word or word of a to one of b, in 34-bit precision.";
    Vsub "vsub" Scalar(ScalarOp::Sub) 2 SV, SCALAR, SCALAR_OPS, "vsub.s32.s32.s32 d, a.b2, b.b0;",
        "Subtracts a selected part of b from a selected part of a, in 34-bit precision.";
    Vabsdiff "vabsdiff" Scalar(ScalarOp::Absdiff) 2 SV, SCALAR, SCALAR_OPS,
        "vabsdiff.u32.u32.u32 d, a.b3, b;",
        "Absolute difference of a selected part of a and of b.";
    Vmin "vmin" Scalar(ScalarOp::Min) 2 SV, SCALAR, SCALAR_OPS, "vmin.s32.s32.s32 d, a.h0, b.h1;",
        "Smaller of a selected part of a and of b, each read signed or unsigned.";
    Vmax "vmax" Scalar(ScalarOp::Max) 2 SV, SCALAR, SCALAR_OPS, "vmax.s32.s32.s32 d, a.h0, b.h0;",
        "Larger of a selected part of a and of b, each read signed or unsigned.";
    Vshl "vshl" Scalar(ScalarOp::Shl) 2 SH, SHIFT, SHIFT_OPS, "vshl.u32.u32.u32.wrap d, a, b.b1;",
        "Shifts a selected part of a left by an unsigned amount taken from b.";
    Vshr "vshr" Scalar(ScalarOp::Shr) 2 SH, SHIFT, SHIFT_OPS,
        "vshr.s32.s32.u32.wrap d, a.h0, b.b2;",
        "Shifts a selected part of a right (arithmetic when a is signed) by an amount from b.";
    Vmad "vmad" Vmad 3 "scalar-video-instructions-vmad", VMAD, VMAD_OPS,
        "vmad.u32.s32.s32 d, a, b, c;",
        "Multiplies selected parts of a and b and adds c, with optional negation, plus one and scaling.";
    Vset "vset" Scalar(ScalarOp::Set) 2 "scalar-video-instructions-vset", vset(VSET_MODS), VSET_OPS,
        "vset.s32.s32.lt d, a, b.b2;",
        "Compares a selected part of a with one of b, giving 1 or 0.";
    Vadd2 "vadd2" Simd2(SimdOp::Add) 3 S2, SIMD, SIMD2_OPS, "vadd2.s32.s32.s32 d, a, b, c;",
        "Adds two pairs of half-words chosen from a and b.";
    Vsub2 "vsub2" Simd2(SimdOp::Sub) 3 S2, SIMD, SIMD2_OPS, "vsub2.s32.s32.s32 d, a, b.h01, c;",
        "Subtracts two pairs of half-words chosen from a and b.";
    Vavrg2 "vavrg2" Simd2(SimdOp::Avrg) 3 S2, SIMD, SIMD2_OPS, "vavrg2.u32.u32.u32 d, a.h03, b, c;",
        "Averages two pairs of half-words, rounding halves away from zero.";
    Vabsdiff2 "vabsdiff2" Simd2(SimdOp::Absdiff) 3 S2, SIMD, SIMD2_OPS,
        "vabsdiff2.u32.u32.u32 d, a, b, c;",
        "Absolute differences of two pairs of half-words.";
    Vmin2 "vmin2" Simd2(SimdOp::Min) 3 S2, SIMD, SIMD2_OPS, "vmin2.s32.s32.s32 d.h10, a, b, c;",
        "Per-half-word minimum.";
    Vmax2 "vmax2" Simd2(SimdOp::Max) 3 S2, SIMD, SIMD2_OPS, "vmax2.s32.s32.s32 d, a.h01, b.h13, c;",
        "Per-half-word maximum.";
    Vset2 "vset2" Simd2(SimdOp::Set) 3 "simd-video-instructions-vset2", vset(VSETN_MODS), VSET2_OPS,
        "vset2.s32.s32.lt d, a.h13, b.h33, c;",
        "Per-half-word comparison giving 1 or 0 in each lane.";
    Vadd4 "vadd4" Simd4(SimdOp::Add) 3 S4, SIMD, SIMD4_OPS, "vadd4.s32.u32.u32 d, a, b, c;",
        "Adds four pairs of bytes chosen from a and b.";
    Vsub4 "vsub4" Simd4(SimdOp::Sub) 3 S4, SIMD, SIMD4_OPS, "vsub4.s32.s32.s32 d, a, b.b1664, c;",
        "Subtracts four pairs of bytes chosen from a and b.";
    Vavrg4 "vavrg4" Simd4(SimdOp::Avrg) 3 S4, SIMD, SIMD4_OPS, "vavrg4.u32.u32.u32 d.b30, a, b, c;",
        "Averages four pairs of bytes, rounding halves away from zero.";
    Vabsdiff4 "vabsdiff4" Simd4(SimdOp::Absdiff) 3 S4, SIMD, SIMD4_OPS,
        "vabsdiff4.u32.u32.u32 d.b31, a, b, c;",
        "Absolute differences of four pairs of bytes.";
    Vmin4 "vmin4" Simd4(SimdOp::Min) 3 S4, SIMD, SIMD4_OPS, "vmin4.s32.s32.s32 d.b21, a, b, c;",
        "Per-byte minimum.";
    Vmax4 "vmax4" Simd4(SimdOp::Max) 3 S4, SIMD, SIMD4_OPS, "vmax4.u32.u32.u32 d, a, b, c;",
        "Per-byte maximum.";
    Vset4 "vset4" Simd4(SimdOp::Set) 3 "simd-video-instructions-vset4", vset(VSETN_MODS), VSET4_OPS,
        "vset4.s32.s32.lt d, a, b, c;",
        "Per-byte comparison giving 1 or 0 in each lane.";
    Add "add" Int(IntOp::Add) 2 "integer-arithmetic-instructions-add", ADD_SUB, INT2,
        "add.s32 d, a, b;",
        "Sum, wrapping or (for .s32 with .sat) clamped.";
    Sub "sub" Int(IntOp::Sub) 2 "integer-arithmetic-instructions-sub", SUB, INT2,
        "sub.s32 d, a, b;",
        "Difference, wrapping or (for .s32 with .sat) clamped.";
    Mul "mul" Int(IntOp::Mul) 2 "integer-arithmetic-instructions-mul", MUL, MUL_OPS,
        "mul.lo.s32 d, a, b;",
        "Full product; keeps the low half, the high half, or all of it (.wide).";
    Mad "mad" Int(IntOp::Mad) 3 "integer-arithmetic-instructions-mad", MAD, MAD_OPS,
        "mad.lo.s32 d, a, b, c;",
        "Product (low, high or wide) plus c.";
    Mul24 "mul24" Int(IntOp::Mul24) 2 "integer-arithmetic-instructions-mul24",
        with_half_first(integer(T_US32, &[HI, LO])), W32_2,
        "mul24.lo.s32 d, a, b;",
        "Product of the low 24 bits of a and b (read signed for .s32); keeps bits 0-31 or 16-47 of the 48-bit product.";
    Mad24 "mad24" Int(IntOp::Mad24) 3 "integer-arithmetic-instructions-mad24", MAD24, W32_3,
        "mad24.lo.s32 d, a, b, c;",
        "Product of the low 24 bits of a and b (read signed for .s32): bits 0-31 (.lo) or 16-47 (.hi) of it, plus c.";
    Sad "sad" Int(IntOp::Sad) 3 "integer-arithmetic-instructions-sad", integer(T_INT, &[]), INT3,
        "sad.u32 d, a, b, c;",
        "Absolute difference of a and b, plus c.";
    Div "div" Int(IntOp::Div) 2 "integer-arithmetic-instructions-div", integer(T_INT, &[]), STRICT2,
        "div.s32 d, a, b;",
        "Quotient rounded toward zero.";
    Rem "rem" Int(IntOp::Rem) 2 "integer-arithmetic-instructions-rem", integer(T_INT, &[]), STRICT2,
        "rem.s32 d, a, b;",
        "Remainder with the sign of a.";
    Abs "abs" Int(IntOp::Abs) 1 "integer-arithmetic-instructions-abs", integer(T_SIGNED, &[]), INT1,
        "abs.s32 d, a;",
        "Absolute value (the most negative value stays as it is).";
    Neg "neg" Int(IntOp::Neg) 1 "integer-arithmetic-instructions-neg", integer(T_SIGNED, &[]), INT1,
        "neg.s32 d, a;",
        "Two's complement negation.";
    Min "min" Int(IntOp::Min) 2 "integer-arithmetic-instructions-min", MINMAX, INT2,
        "min.s32 d, a, b;",
        "Smaller of a and b; per half-word for x2 types; .relu clamps below at zero.";
    Max "max" Int(IntOp::Max) 2 "integer-arithmetic-instructions-max", MINMAX, INT2,
        "max.s32 d, a, b;",
        "Larger of a and b; per half-word for x2 types; .relu clamps below at zero.";
    Popc "popc" Int(IntOp::Popc) 1 "integer-arithmetic-instructions-popc", integer(T_BITS, &[]),
        COUNT_OPS, "popc.b32 d, a;",
        "Number of one bits.";
    Clz "clz" Int(IntOp::Clz) 1 "integer-arithmetic-instructions-clz", integer(T_BITS, &[]),
        COUNT_OPS, "clz.b32 d, a;",
        "Number of leading zero bits.";
    Bfind "bfind" Int(IntOp::Bfind) 1 "integer-arithmetic-instructions-bfind",
        integer(T_WORDS, &[Mod::Shiftamt]), COUNT_OPS, "bfind.u32 d, a;",
        "Position of the most significant non-sign bit, or its distance from the top with .shiftamt.";
    Fns "fns" Int(IntOp::Fns) 3 "integer-arithmetic-instructions-fns", integer(T_B32, &[]), FNS_OPS,
        "fns.b32 d, a, b, c;",
        "Finds the n-th set bit of a mask counting from a base position.";
    Brev "brev" Int(IntOp::Brev) 1 "integer-arithmetic-instructions-brev", integer(T_BITS, &[]), STRICT1,
        "brev.b32 d, a;",
        "Reverses the order of the bits.";
    Bfe "bfe" Int(IntOp::Bfe) 3 "integer-arithmetic-instructions-bfe", integer(T_WORDS, &[]), BFE_OPS,
        "bfe.u32 d, a, b, c;",
        "Extracts a bit field of a at position b, length c, sign- or zero-extended.";
    Bfi "bfi" Int(IntOp::Bfi) 4 "integer-arithmetic-instructions-bfi", integer(T_BITS, &[]), BFI_OPS,
        "bfi.b32 d, a, b, c, e;",
        "Inserts the low bits of a into b at position c, length e.";
    Szext "szext" Int(IntOp::Szext) 2 "integer-arithmetic-instructions-szext",
        with_mode_required(integer(T_US32, &[CLAMP, WRAP])), SZEXT_OPS,
        "szext.wrap.s32 d, a, b;",
        "Sign- or zero-extends the low b bits of a.";
    Bmsk "bmsk" Int(IntOp::Bmsk) 2 "integer-arithmetic-instructions-bmsk",
        with_mode_required(integer(T_B32, &[CLAMP, WRAP])), BMSK_OPS,
        "bmsk.wrap.b32 d, a, b;",
        "A mask of b ones starting at bit a.";
    Dp4a "dp4a" Int(IntOp::Dp4a) 3 "integer-arithmetic-instructions-dp4a", DP4A, DOT_OPS,
        "dp4a.s32.s32 d, a, b, c;",
        "Dot product of four byte pairs plus c.";
    Dp2a "dp2a" Int(IntOp::Dp2a) 3 "integer-arithmetic-instructions-dp2a", DP2A, DOT_OPS,
        "dp2a.lo.s32.s32 d, a, b, c;",
        "The two half-words of a times two bytes of b (bytes 0-1 with .lo, 2-3 with .hi), summed, plus c.";
}
