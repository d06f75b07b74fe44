//! The rows of the logic, shift, data-movement, comparison and conversion instructions that
//! real code uses around the video and integer arithmetic ones: `mov`, `and or xor not cnot`,
//! `lop3`, `shf`, `shl shr`, `prmt`, `setp`, `set`, `selp`, `slct`, integer `cvt`, `cvt.pack` and
//! the carry chain. One row per opcode
//! ([`OP_ROWS`](super::OP_ROWS)), read the same way as [`super::OPCODES`]: the name, family, documentation
//! anchor, the types and modifiers ptxas accepts, the operand form (in its opcode's documentation), an accepted example and a
//! summary in our own words. [`crate::ops`] parses, validates and evaluates them from these rows.
//!
//! Every one of them has been measured on an NVIDIA H100 (sm_90), the GPU the table's opcodes
//! were measured on: `tests/data/gpu-programs-h100.jsonl.gz` holds 138,096 cases of 2,593 forms,
//! and ptxlab's values equal the GPU's on all of them (`tests/gpu_programs.rs`). An H200 ran the
//! same forms first (`tests/data/gpu-programs.jsonl.gz`, 128,256 cases) with the same results.
//! Each row says so ([`Row::measured`]).
//!
//! ```
//! use ptxlab_core::isa::{Family, POp, Type, OP_ROWS};
//!
//! let prmt = POp::from_name("prmt").unwrap();
//! assert_eq!(prmt.family(), Family::Move);
//! assert_eq!(prmt.types(), &[Type::B32]);
//! assert!(prmt.doc_url().ends_with("#data-movement-and-conversion-instructions-prmt"));
//! assert!(OP_ROWS.iter().all(|r| r.instr.row().name == r.name && r.measured.is_some()));
//! ```

use serde::{Deserialize, Serialize};

pub use super::operand::{CarryUse, LastSource, Operands};
use super::operand::{FloatRule, OperandSpec, PositionKind, Role, SignRule, WidthRule};
use super::vocab::{ATYPE, DTYPE, TYPE};
pub use super::{Beyond, Need, NeedOf};
use super::{
    BoolOp, ClampMode, Cmp, Family, Gpu, HalfMode, Instr, Mod, ModGroup, Mods, PrmtMode, Row,
    ShiftDir, Syntax, Type, TypeSlot,
};

/// A program operand: a value (a register or an immediate) of a width, sign and float rule.
const fn opd(width: WidthRule, sign: SignRule, float: FloatRule) -> OperandSpec {
    OperandSpec::value("a", width, sign).float(float)
}
use FloatRule::Never as NOT_FLOAT;
/// The instruction type (slot 0) and the second type (slot 1) as sign rules.
const OF_TYPE: SignRule = SignRule::Slot(0);
const OF_SECOND: SignRule = SignRule::Slot(1);
/// A value of the instruction's type, unsigned (bit operations).
const BITS: OperandSpec = opd(WidthRule::Type, SignRule::Unsigned, NOT_FLOAT);
/// A value of the instruction's type, with its sign.
const TYPED: OperandSpec = opd(WidthRule::Type, OF_TYPE, NOT_FLOAT);
/// A value of the instruction's type, with its sign, a float for the float types.
const VALUE: OperandSpec = opd(WidthRule::Type, OF_TYPE, FloatRule::Slot(0));
const PRED: OperandSpec = opd(WidthRule::Pred, SignRule::Unsigned, NOT_FLOAT);
/// A shift amount: 32 bits, unsigned.
const AMOUNT: OperandSpec =
    opd(WidthRule::Bits(32), SignRule::Unsigned, NOT_FLOAT).role(Role::Shift);
const WORD: OperandSpec = opd(WidthRule::Bits(32), SignRule::Unsigned, NOT_FLOAT);

/// A row's operand positions, reading no wider registers and no special registers.
const fn ops(
    dsts: &'static [OperandSpec],
    srcs: &'static [OperandSpec],
    last: LastSource,
    carry: CarryUse,
) -> Operands {
    Operands {
        dsts,
        srcs,
        last,
        carry,
        wider: false,
        specials: false,
    }
}
const fn simple(dsts: &'static [OperandSpec], srcs: &'static [OperandSpec]) -> Operands {
    ops(dsts, srcs, LastSource::Always, CarryUse::None)
}

const D_BITS: OperandSpec = BITS.named("d");
const D_TYPED: OperandSpec = TYPED.named("d");
const O_LOGIC1: Operands = simple(&[D_BITS], &[BITS]);
const O_LOGIC2: Operands = simple(&[D_BITS], &[BITS, BITS.named("b")]);
const O_LOP3: Operands = simple(
    &[D_BITS.kind(PositionKind::Droppable)],
    &[
        BITS,
        BITS.named("b"),
        BITS.named("c"),
        opd(WidthRule::Bits(8), SignRule::Unsigned, NOT_FLOAT)
            .named("immLut")
            .kind(PositionKind::Imm(
                "the truth table, e.g. 0xca for a ? b : c",
            )),
    ],
);
const O_SHF: Operands = simple(&[D_BITS], &[BITS, BITS.named("b"), AMOUNT.named("c")]);
const O_PRMT: Operands = simple(
    &[D_BITS],
    &[BITS, BITS.named("b"), BITS.named("c").role(Role::Selector)],
);
const O_SHL: Operands = simple(&[D_TYPED], &[BITS, AMOUNT.named("b")]);
const O_SHR: Operands = simple(&[D_TYPED], &[TYPED, AMOUNT.named("b")]);
const O_MOV: Operands = Operands {
    specials: true,
    ..simple(
        &[opd(WidthRule::Part, OF_TYPE, NOT_FLOAT)
            .named("d")
            .kind(PositionKind::Parts)],
        &[
            opd(WidthRule::Part, OF_TYPE, FloatRule::Slot(0)).kind(PositionKind::Parts),
            opd(WidthRule::Part, OF_TYPE, NOT_FLOAT).kind(PositionKind::Parts),
            opd(WidthRule::Part, SignRule::Unsigned, NOT_FLOAT).kind(PositionKind::Parts),
        ],
    )
};
const O_SETP: Operands = ops(
    &[
        PRED.named("p").kind(PositionKind::PredPair),
        PRED.named("q").kind(PositionKind::PredPair),
    ],
    &[VALUE, VALUE.named("b"), PRED.named("c")],
    LastSource::WithCombine,
    CarryUse::None,
);
const O_SELP: Operands = simple(&[D_TYPED], &[VALUE, VALUE.named("b"), PRED.named("c")]);
const O_CVT: Operands = Operands {
    wider: true,
    specials: true,
    ..simple(&[D_TYPED], &[opd(WidthRule::Second, OF_SECOND, NOT_FLOAT)])
};
/// `cvt.pack`'s `a` and `b`: the second type, `.s32` (the only one the row takes).
const PACKED: OperandSpec = opd(WidthRule::Bits(32), OF_SECOND, NOT_FLOAT);
const O_PACK: Operands = ops(
    &[WORD.named("d")],
    &[PACKED, PACKED.named("b"), WORD.named("c")],
    LastSource::WithThirdType,
    CarryUse::None,
);
const O_SLCT: Operands = simple(
    &[D_TYPED],
    &[
        VALUE,
        VALUE.named("b"),
        opd(
            WidthRule::Bits(32),
            SignRule::SlotIs(1, Type::S32),
            FloatRule::SlotIs(1, Type::F32),
        )
        .named("c"),
    ],
);
/// `set`'s compared values: the second type.
const COMPARED: OperandSpec = opd(WidthRule::Second, OF_SECOND, FloatRule::Slot(1));
const O_SET: Operands = ops(
    &[D_TYPED],
    &[COMPARED, COMPARED.named("b"), PRED.named("c")],
    LastSource::WithCombine,
    CarryUse::None,
);
/// The carry chain's sources: `a`, `b` (and `mad`'s `c`) of the type.
const CARRY_AB: &[OperandSpec] = &[TYPED, TYPED.named("b")];
const CARRY_ABC: &[OperandSpec] = &[TYPED, TYPED.named("b"), TYPED.named("c")];
const O_ADD_CC: Operands = ops(&[D_TYPED], CARRY_AB, LastSource::Always, CarryUse::Writes);
const O_ADDC: Operands = ops(&[D_TYPED], CARRY_AB, LastSource::Always, CarryUse::Reads);
const O_MAD_CC: Operands = ops(&[D_TYPED], CARRY_ABC, LastSource::Always, CarryUse::Writes);
const O_MADC: Operands = ops(&[D_TYPED], CARRY_ABC, LastSource::Always, CarryUse::Reads);

macro_rules! op_rows {
    ($($var:ident $name:literal $fam:ident $anchor:literal, $slots:expr, $mods:expr,
       $form:literal $ops:ident $(beyond $beyond:ident)? $(needs $needs:ident)?,
       $example:literal,
       $summary:literal;)*) => {
        /// The program instructions: logic, shift, data movement, comparison and conversion.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum POp {
            $(
                #[doc = concat!("`", $name, " ", $form, "`")]
                $var,
            )*
        }

        impl POp {
            /// Every program opcode, in table order.
            pub const ALL: &[POp] = &[$(POp::$var,)*];
        }

        /// One row per program instruction: the last rows of [`super::ROWS`], read as
        /// [`super::OP_ROWS`].
        pub(super) const PROGRAM: &[Row] = &[
            $(Row {
                instr: Instr::Program(POp::$var),
                name: $name,
                family: Family::$fam,
                doc_anchor: $anchor,
                syntax: Syntax {
                    slots: $slots,
                    mods: $mods,
                    needs: op_rows!(@list $($needs)?),
                    beyond: op_rows!(@opt $($beyond)?),
                    negation: false,
                },
                operands: $ops,
                example: $example,
                summary: $summary,
                measured: Some(Gpu::H100),
            },)*
        ];
    };
    (@opt) => { None };
    (@opt $v:expr) => { Some($v) };
    (@list) => { &[] };
    (@list $v:expr) => { $v };
}

use Type::{Pred, B16, B32, B64, F32, F64, S16, S2, S32, S4, S64, S8, U16, U2, U32, U4, U64, U8};

const LOGIC_TYPES: &[Type] = &[B16, B32, B64, Pred];
const BITS3: &[Type] = &[B16, B32, B64];
const B32_ONLY: &[Type] = &[B32];
const SHR_TYPES: &[Type] = &[B16, B32, B64, U16, U32, U64, S16, S32, S64];
const CMP_TYPES: &[Type] = &[B16, B32, B64, U16, U32, U64, S16, S32, S64, F32, F64];
const MOV_TYPES: &[Type] = &[B16, B32, B64, U16, U32, U64, S16, S32, S64, Pred, F32, F64];
const CVT_TYPES: &[Type] = &[U8, U16, U32, U64, S8, S16, S32, S64];
const SET_TYPES: &[Type] = &[U32, S32, F32];
const SLCT_TYPES: &[Type] = &[B16, B32, B64, U16, U32, U64, S16, S32, S64, F32, F64];
const SLCT_SELECTOR: &[Type] = &[S32, F32];
const PACK_TYPES: &[Type] = &[U16, S16, U8, S8, U4, S4, U2, S2];
const S32_ONLY: &[Type] = &[S32];
const CARRY_TYPES: &[Type] = &[U32, S32, U64, S64];
const CARRY_IN_TYPES: &[Type] = &[U16, S16, U32, S32, U64, S64];

const PACK_NARROW: &[Type] = &[U8, S8, U4, S4, U2, S2];

const LOP3_BOOL: Beyond = Beyond {
    words: &["and", "or"],
    operands: Some(6),
    why: "lop3 with a Boolean operation (.and, .or) and a predicate result needs PTX ISA 8.2; ptxlab follows PTX ISA 8.0 (sm_90) here",
};
const CVT_ROUNDING: Beyond = Beyond {
    words: &[
        "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna", "rs",
    ],
    operands: None,
    why: "conversions between integer types take no rounding modifier",
};
const SET_HALF: Beyond = Beyond {
    words: &["f16"],
    operands: None,
    why:
        "the half-precision types belong to the half-precision set, outside ptxlab's integer scope",
};

const FTZ_F32: &[Need] = &[Need {
    modifier: Mod::Ftz,
    of: NeedOf::Type(0, &[F32]),
    why: "it reads a subnormal f32 as zero",
}];
const SET_FTZ: &[Need] = &[Need {
    modifier: Mod::Ftz,
    of: NeedOf::Type(1, &[F32]),
    why: "it reads a subnormal f32 as zero",
}];
const SLCT_FTZ: &[Need] = &[Need {
    modifier: Mod::Ftz,
    of: NeedOf::Type(1, &[F32]),
    why: "it reads a subnormal f32 c as zero",
}];
const CARRY_OUT: &[Need] = &[Need {
    modifier: Mod::Cc,
    of: NeedOf::Type(0, CARRY_TYPES),
    why: "the 16-bit forms read the carry but write none",
}];
const SAT_NARROWS: &[Need] = &[Need {
    modifier: Mod::Sat,
    of: NeedOf::Narrower,
    why: "there is nothing to saturate",
}];

use TypeSlot as S;
const T_LOGIC: &[TypeSlot] = &S::only(LOGIC_TYPES);
const T_BITS3: &[TypeSlot] = &S::only(BITS3);
const T_B32: &[TypeSlot] = &S::only(B32_ONLY);
const T_SHR: &[TypeSlot] = &S::only(SHR_TYPES);
const T_MOV: &[TypeSlot] = &S::only(MOV_TYPES);
const T_SELP: &[TypeSlot] = &S::only(CMP_TYPES);
const T_CARRY: &[TypeSlot] = &S::only(CARRY_TYPES);
const T_CARRY_IN: &[TypeSlot] = &S::only(CARRY_IN_TYPES);
const T_SETP: &[TypeSlot] = &[TypeSlot::new(TYPE, CMP_TYPES).of("a and b")];
const T_SET: &[TypeSlot] = &[
    TypeSlot::new(DTYPE, SET_TYPES).of("d"),
    TypeSlot::new("stype", CMP_TYPES).of("a and b"),
];
const T_CVT: &[TypeSlot] = &[
    TypeSlot::new(DTYPE, CVT_TYPES).of("d"),
    TypeSlot::new(ATYPE, CVT_TYPES).of("a"),
];
const T_PACK: &[TypeSlot] = &[
    TypeSlot::new("convertType", PACK_TYPES).of("the parts of d"),
    TypeSlot::new("abType", S32_ONLY).of("a and b"),
    TypeSlot::new("cType", B32_ONLY).of("c").with(PACK_NARROW),
];
const T_SLCT: &[TypeSlot] = &[
    TypeSlot::new(DTYPE, SLCT_TYPES).of("d, a and b"),
    TypeSlot::new("ctype", SLCT_SELECTOR).of("c"),
];

const NO_MODS: Mods = Mods::new(&[]);
const SHF_MODS: Mods = Mods {
    all: &[
        Mod::Dir(ShiftDir::L),
        Mod::Dir(ShiftDir::R),
        Mod::Mode(ClampMode::Wrap),
        Mod::Mode(ClampMode::Clamp),
    ],
    required: &[ModGroup::Dir, ModGroup::Mode],
    first: Some(ModGroup::Dir),
};
/// `prmt`'s modes: every [`PrmtMode`] (none written is the generic form).
const PRMT_WORDS: [Mod; 6] = {
    let mut w = [Mod::Sat; 6];
    let mut i = 0;
    while i < w.len() {
        w[i] = Mod::Prmt(PrmtMode::ALL[i]);
        i += 1;
    }
    w
};
/// `setp`'s and `set`'s modifiers: every comparison ([`Cmp::ALL`]), every Boolean operation
/// that combines it with a predicate ([`BoolOp::ALL`]), and `.ftz`.
const SETP_WORDS: [Mod; 22] = {
    let mut w = [Mod::Ftz; 22];
    let mut i = 0;
    while i < Cmp::ALL.len() {
        w[i] = Mod::Cmp(Cmp::ALL[i]);
        i += 1;
    }
    let mut j = 0;
    while j < BoolOp::ALL.len() {
        w[i + j] = Mod::Bool(BoolOp::ALL[j]);
        j += 1;
    }
    assert!(i + j + 1 == w.len());
    w
};
const PRMT_MODS: Mods = Mods::new(&PRMT_WORDS);
const SETP_MODS: Mods = Mods {
    required: &[ModGroup::Cmp],
    ..Mods::new(&SETP_WORDS)
};
const CVT_MODS: Mods = Mods::new(&[Mod::Sat]);
const SLCT_MODS: Mods = Mods::new(&[Mod::Ftz]);
const PACK_MODS: Mods = Mods {
    required: &[ModGroup::Sat],
    ..Mods::new(&[Mod::Sat])
};
const CC: Mods = Mods::new(&[Mod::Cc]);
const HALF: Mods = Mods {
    all: &[Mod::Half(HalfMode::Lo), Mod::Half(HalfMode::Hi)],
    required: &[ModGroup::Half],
    first: Some(ModGroup::Half),
};
const HALF_CC: Mods = Mods {
    all: &[Mod::Half(HalfMode::Lo), Mod::Half(HalfMode::Hi), Mod::Cc],
    ..HALF
};

op_rows! {
    Mov "mov" Move "data-movement-and-conversion-instructions-mov", T_MOV, NO_MODS,
        "d, a  |  d, {a0, a1, ...}  |  {d0, d1, ...}, a" O_MOV,
        "mov.b32 d, {a, b};",
        "Copies a register or a value; with braces, packs parts into one register or splits one into parts.";
    And "and" Logic "logic-and-shift-instructions-and", T_LOGIC, NO_MODS,
        "d, a, b" O_LOGIC2, "and.b32 d, a, b;",
        "Bitwise and (logical and for predicates).";
    Or "or" Logic "logic-and-shift-instructions-or", T_LOGIC, NO_MODS,
        "d, a, b" O_LOGIC2, "or.b32 d, a, b;",
        "Bitwise or (logical or for predicates).";
    Xor "xor" Logic "logic-and-shift-instructions-xor", T_LOGIC, NO_MODS,
        "d, a, b" O_LOGIC2, "xor.b32 d, a, b;",
        "Bitwise exclusive or (for predicates: true when exactly one is).";
    Not "not" Logic "logic-and-shift-instructions-not", T_LOGIC, NO_MODS,
        "d, a" O_LOGIC1, "not.b32 d, a;",
        "Flips every bit (negates a predicate).";
    Cnot "cnot" Logic "logic-and-shift-instructions-cnot", T_BITS3, NO_MODS,
        "d, a" O_LOGIC1, "cnot.b32 d, a;",
        "1 when a is zero, else 0, like C's !a.";
    Lop3 "lop3" Logic "logic-and-shift-instructions-lop3", T_B32, NO_MODS,
        "d, a, b, c, immLut" O_LOP3 beyond LOP3_BOOL, "lop3.b32 d, a, b, c, 0xb2;",
        "Any function of three inputs, bit by bit: each bit's (a, b, c) picks a row of the 8-entry truth table immLut.";
    Shf "shf" Logic "logic-and-shift-instructions-shf", T_B32, SHF_MODS,
        "d, a, b, c" O_SHF, "shf.l.wrap.b32 d, a, b, c;",
        "Funnel shift: shifts the 64-bit b:a left or right and keeps 32 bits; rotates when a and b are the same.";
    Shl "shl" Logic "logic-and-shift-instructions-shl", T_BITS3, NO_MODS,
        "d, a, b" O_SHL, "shl.b32 d, a, b;",
        "Shift left; amounts of the width or more give 0.";
    Shr "shr" Logic "logic-and-shift-instructions-shr", T_SHR, NO_MODS,
        "d, a, b" O_SHR, "shr.s32 d, a, b;",
        "Shift right, filling with the sign for .s types and zeros otherwise.";
    Prmt "prmt" Move "data-movement-and-conversion-instructions-prmt", T_B32,
        PRMT_MODS, "d, a, b, c" O_PRMT, "prmt.b32 d, a, b, c;",
        "Builds a word from bytes of b:a: without a mode, each of four selector nibbles of c picks one of the eight bytes (and may replicate its sign); with a mode (.f4e ... .rc16), the low two bits of c pick one of the mode's fixed patterns.";
    Setp "setp" Compare "comparison-and-selection-instructions-setp", T_SETP,
        SETP_MODS, "p[|q], a, b[, c]" O_SETP needs FTZ_F32, "setp.lt.s32 p|q, a, b;",
        "Compares a with b and writes the result to p and its negation to q; with .and/.or/.xor each is first combined with the predicate c, so p and q need not be opposites.";
    Set "set" Compare "comparison-and-selection-instructions-set", T_SET,
        SETP_MODS, "d, a, b[, c]" O_SET beyond SET_HALF needs SET_FTZ, "set.lt.u32.s32 d, a, b;",
        "Compares a with b, like setp, and writes the answer as a number: all ones (or 1.0 for an .f32 d) when true, 0 when false; with .and/.or/.xor the answer is first combined with the predicate c.";
    Selp "selp" Compare "comparison-and-selection-instructions-selp", T_SELP,
        NO_MODS, "d, a, b, c" O_SELP, "selp.b32 d, a, b, c;",
        "a when the predicate c is true, else b.";
    Cvt "cvt" Convert "data-movement-and-conversion-instructions-cvt", T_CVT,
        CVT_MODS, "d, a" O_CVT beyond CVT_ROUNDING
        needs SAT_NARROWS, "cvt.sat.s8.s32 d, a;",
        "Converts between integer types: truncates or extends, and with .sat clamps to the destination's range.";
    CvtPack "cvt.pack" Convert "data-movement-and-conversion-instructions-cvt-pack", T_PACK,
        PACK_MODS, "d, a, b[, c]" O_PACK, "cvt.pack.sat.u8.s32.b32 d, a, b, c;",
        "Clamps a and b to a narrow type and packs them side by side, b in the lowest bits and a just above; the 16-bit types fill d, the narrower ones take the rest of d from the low bits of c.";
    Slct "slct" Compare "comparison-and-selection-instructions-slct", T_SLCT,
        SLCT_MODS, "d, a, b, c" O_SLCT needs SLCT_FTZ, "slct.s32.s32 d, a, b, c;",
        "a when c is zero or positive, b when c is negative; c is a signed 32-bit integer or an f32.";
    AddCc "add.cc" Carry "extended-precision-arithmetic-instructions-add-cc", T_CARRY, NO_MODS, "d, a, b" O_ADD_CC, "add.cc.u32 d, a, b;",
        "a + b, and the carry out of the top bit written to the carry flag CC.CF: the first link of a multi-word addition.";
    Addc "addc" Carry "extended-precision-arithmetic-instructions-addc", T_CARRY_IN, CC, "d, a, b" O_ADDC needs CARRY_OUT, "addc.cc.u32 d, a, b;",
        "a + b + CC.CF; with .cc it writes its own carry out, so the chain goes on.";
    SubCc "sub.cc" Carry "extended-precision-arithmetic-instructions-sub-cc", T_CARRY, NO_MODS, "d, a, b" O_ADD_CC, "sub.cc.u32 d, a, b;",
        "a - b, computed as a + ~b + 1, with the carry out (1 when nothing was borrowed) written to CC.CF.";
    Subc "subc" Carry "extended-precision-arithmetic-instructions-subc", T_CARRY_IN, CC, "d, a, b" O_ADDC needs CARRY_OUT, "subc.cc.u32 d, a, b;",
        "a + ~b + CC.CF: a - b less one when the previous link borrowed; with .cc it writes its own carry.";
    MadCc "mad.cc" Carry "extended-precision-arithmetic-instructions-mad-cc", T_CARRY, HALF, "d, a, b, c" O_MAD_CC, "mad.lo.cc.u32 d, a, b, c;",
        "The low or high half of a * b, plus c, with the carry out of the addition written to CC.CF.";
    Madc "madc" Carry "extended-precision-arithmetic-instructions-madc", T_CARRY_IN, HALF_CC, "d, a, b, c" O_MADC needs CARRY_OUT, "madc.hi.cc.u32 d, a, b, c;",
        "The low or high half of a * b, plus c and CC.CF; with .cc it writes its own carry.";
}

impl POp {
    /// This opcode's row of [`OP_ROWS`](super::OP_ROWS).
    pub fn row(self) -> &'static Row {
        Instr::Program(self).row()
    }
    /// Whether any of its types is a float type (`mov`, `setp`, `set`, `selp`, `slct`): its
    /// parser, not the program's, decides what a float type means for it.
    pub fn takes_float(self) -> bool {
        self.row()
            .syntax
            .slots
            .iter()
            .any(|s| s.types.iter().any(|t| t.is_float()))
    }
    /// Whether it compares two values under a comparison modifier (`setp`, `set`).
    pub fn compares(self) -> bool {
        self.row()
            .syntax
            .mods
            .of_group(ModGroup::Cmp)
            .next()
            .is_some()
    }
    /// Every program opcode, in table order.
    pub fn all() -> impl Iterator<Item = POp> {
        POp::ALL.iter().copied()
    }
    /// The opcode as written.
    pub fn name(self) -> &'static str {
        self.row().name
    }
    /// Its family.
    pub fn family(self) -> Family {
        self.row().family
    }
    /// The opcode named `s`, if it is a program instruction.
    pub fn from_name(s: &str) -> Option<POp> {
        POp::all().find(|p| p.name() == s)
    }
    /// Anchor of the instruction's section in NVIDIA's PTX documentation.
    pub fn doc_anchor(self) -> &'static str {
        self.row().doc_anchor
    }
    /// Link to the section of NVIDIA's PTX documentation.
    pub fn doc_url(self) -> String {
        self.row().doc_url()
    }
    /// What it computes, in a sentence of our own.
    pub fn summary(self) -> &'static str {
        self.row().summary
    }
    /// An accepted example.
    pub fn example(self) -> &'static str {
        self.row().example
    }
    /// The types it takes (for `cvt`, the destination type).
    pub fn types(self) -> &'static [Type] {
        self.row().types(0)
    }
}

impl POp {
    /// The program instruction a statement names, from its opcode word and the modifiers
    /// after it: `add`, `sub` and `mad` with `.cc` are links of the carry chain, and `cvt`
    /// with `.pack` right after it is `cvt.pack`. None for any other opcode word.
    pub fn of_statement(word: &str, mods: &[&str]) -> Option<POp> {
        POp::all()
            .find(|p| match p.name().split_once('.') {
                Some((w0, w1)) if w0 == word => match p.name_word() {
                    Some(_) => mods.first() == Some(&w1),
                    None => mods.contains(&w1),
                },
                _ => false,
            })
            .or_else(|| POp::from_name(word))
    }
    /// The second word of its name when that word belongs to the opcode and comes right after
    /// it (`cvt.pack`'s `pack`); `None` without one, or when it is a modifier that may stand
    /// anywhere among the others (`add.cc`'s `cc`, a carry out).
    pub fn name_word(self) -> Option<&'static str> {
        let (_, w) = self.name().split_once('.')?;
        Mod::from_name(w).is_none().then_some(w)
    }
    /// A link of the carry chain.
    pub fn is_carry(self) -> bool {
        self.row().operands.carry != CarryUse::None
    }
    /// Reads the carry flag: `addc`, `subc`, `madc`.
    pub fn carry_in(self) -> bool {
        self.row().operands.carry == CarryUse::Reads
    }
    /// The opcode word as written before the modifiers: `add` for `add.cc`, `cvt` for
    /// `cvt.pack`.
    pub fn word(self) -> &'static str {
        let name = self.name();
        name.split('.').next().unwrap_or(name)
    }
}
