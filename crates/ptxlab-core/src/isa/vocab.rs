//! The words of the instruction set, for both tables: types, comparisons, the modes and
//! operations modifiers name (`BoolOp`, `PrmtMode`, `ClampMode` ...), the table's modifiers
//! and the typed [`Form`] they gather into, selectors, and the names of the type slots. Nothing here knows about a parsed instruction;
//! [`crate::ast`] re-exports these so both paths name the same items.
//!
//! ```
//! use ptxlab_core::isa::{Mod, SelKind, Selector, Type};
//!
//! assert_eq!(Type::from_name("s16x2"), Some(Type::S16x2));
//! assert!(Type::S16x2.is_signed());
//! assert_eq!(Mod::from_name("shr15").map(|m| m.name()), Some("shr15"));
//! let sel = Selector::new(SelKind::B, &[3, 2, 1, 0]);
//! assert_eq!((sel.lane(0), sel.to_string()), (0, String::from(".b3210")));
//! ```

use serde::{Deserialize, Serialize};

use std::fmt;

/// Types: every type name an instruction of either table may carry, the one vocabulary of
/// type names, widths and signs. The table's opcodes take eleven of them ([`Type::TABLE`]);
/// the program instructions (`cvt`, `mov`, `setp` ...) take the others too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Type {
    /// Untyped 8 bits (`.b8`).
    B8,
    /// Untyped 16 bits (`.b16`).
    B16,
    /// Untyped 32 bits (`.b32`).
    B32,
    /// Untyped 64 bits (`.b64`).
    B64,
    /// Unsigned 8 bits (`.u8`).
    U8,
    /// Unsigned 16 bits (`.u16`).
    U16,
    /// Unsigned 32 bits (`.u32`).
    U32,
    /// Unsigned 64 bits (`.u64`).
    U64,
    /// Signed 8 bits (`.s8`).
    S8,
    /// Signed 16 bits (`.s16`).
    S16,
    /// Signed 32 bits (`.s32`).
    S32,
    /// Signed 64 bits (`.s64`).
    S64,
    /// A predicate, one bit (`.pred`).
    Pred,
    /// Half-precision float (`.f16`).
    F16,
    /// Single-precision float (`.f32`).
    F32,
    /// Double-precision float (`.f64`).
    F64,
    /// Two unsigned 16-bit lanes in 32 bits (`.u16x2`).
    U16x2,
    /// Two signed 16-bit lanes in 32 bits (`.s16x2`).
    S16x2,
    /// Untyped 128 bits (`.b128`).
    B128,
    /// Unsigned 4 bits (`.u4`, `cvt.pack`'s parts).
    U4,
    /// Signed 4 bits (`.s4`).
    S4,
    /// Unsigned 2 bits (`.u2`).
    U2,
    /// Signed 2 bits (`.s2`).
    S2,
}

impl Type {
    /// Every type name the readers know.
    pub const ALL: [Type; 23] = [
        Type::B8,
        Type::B16,
        Type::B32,
        Type::B64,
        Type::U8,
        Type::U16,
        Type::U32,
        Type::U64,
        Type::S8,
        Type::S16,
        Type::S32,
        Type::S64,
        Type::Pred,
        Type::F16,
        Type::F32,
        Type::F64,
        Type::U16x2,
        Type::S16x2,
        Type::B128,
        Type::U4,
        Type::S4,
        Type::U2,
        Type::S2,
    ];
    /// The eleven type words of the table's video and integer opcodes: the types their rows
    /// take, and `.b16`, which none takes (the validator says which types fit).
    pub const TABLE: [Type; 11] = [
        Type::U16,
        Type::U32,
        Type::U64,
        Type::S16,
        Type::S32,
        Type::S64,
        Type::B16,
        Type::B32,
        Type::B64,
        Type::U16x2,
        Type::S16x2,
    ];
    /// The type as written, without the leading dot: `u32`, `s16x2`.
    pub const fn name(self) -> &'static str {
        match self {
            Type::B8 => "b8",
            Type::B16 => "b16",
            Type::B32 => "b32",
            Type::B64 => "b64",
            Type::U8 => "u8",
            Type::U16 => "u16",
            Type::U32 => "u32",
            Type::U64 => "u64",
            Type::S8 => "s8",
            Type::S16 => "s16",
            Type::S32 => "s32",
            Type::S64 => "s64",
            Type::Pred => "pred",
            Type::F16 => "f16",
            Type::F32 => "f32",
            Type::F64 => "f64",
            Type::U16x2 => "u16x2",
            Type::S16x2 => "s16x2",
            Type::B128 => "b128",
            Type::U4 => "u4",
            Type::S4 => "s4",
            Type::U2 => "u2",
            Type::S2 => "s2",
        }
    }
    /// The type written `s` (without the dot), if it is one.
    pub fn from_name(s: &str) -> Option<Type> {
        Type::ALL.into_iter().find(|t| t.name() == s)
    }
    /// The values of this integer type as (min, max); a float's as its bits read unsigned
    /// (`.b128`'s as the 64-bit type's, which no instruction here reads).
    pub fn range(self) -> (i128, i128) {
        let b = self.bits().min(64);
        if self.is_signed() {
            (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
        } else {
            (0, (1i128 << b) - 1)
        }
    }
    /// Width of a register of this type, in bits (1 for a predicate).
    #[inline]
    pub const fn bits(self) -> u32 {
        match self {
            Type::Pred => 1,
            Type::B8 | Type::U8 | Type::S8 => 8,
            Type::B16 | Type::U16 | Type::S16 | Type::F16 => 16,
            Type::B32 | Type::U32 | Type::S32 | Type::F32 | Type::U16x2 | Type::S16x2 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 => 64,
            Type::B128 => 128,
            Type::U4 | Type::S4 => 4,
            Type::U2 | Type::S2 => 2,
        }
    }
    /// Whether values of this type are read as signed integers (`.s2` ... `.s64`, and the
    /// signed pair `.s16x2`).
    #[inline]
    pub const fn is_signed(self) -> bool {
        matches!(
            self,
            Type::S2 | Type::S4 | Type::S8 | Type::S16 | Type::S32 | Type::S64 | Type::S16x2
        )
    }
    /// Whether a type slot holds a signed type (`false` when it holds none): one load of a
    /// table indexed by the slot's byte, which the evaluators read per case.
    #[inline(always)]
    pub(crate) const fn slot_signed(t: Option<Type>) -> bool {
        let i = match t {
            Some(t) => t as usize,
            None => Type::ALL.len(),
        };
        Type::SLOT_SIGNED[i]
    }
    const SLOT_SIGNED: [bool; Type::ALL.len() + 1] = {
        let mut t = [false; Type::ALL.len() + 1];
        let mut i = 0;
        // `ALL` lists every type in declaration order, so its index is the type's number
        // and the last place, none's.
        while i < Type::ALL.len() {
            assert!(Type::ALL[i] as usize == i);
            let ty = Type::ALL[i];
            t[ty as usize] = ty.is_signed();
            i += 1;
        }
        t
    };
    /// A bit type (`.b8` ... `.b64`).
    pub const fn is_bits(self) -> bool {
        matches!(self, Type::B8 | Type::B16 | Type::B32 | Type::B64)
    }
    /// An unsigned integer type (`.u2` ... `.u64`).
    pub const fn is_unsigned(self) -> bool {
        matches!(
            self,
            Type::U2 | Type::U4 | Type::U8 | Type::U16 | Type::U32 | Type::U64
        )
    }
    /// A floating-point type.
    pub const fn is_float(self) -> bool {
        matches!(self, Type::F16 | Type::F32 | Type::F64)
    }
}

/// Secondary operation of scalar video instructions (`.add .min .max`); for SIMD video
/// instructions only `.add` (accumulate) exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SecOp {
    /// `.add`: add `c` to the result (SIMD: sum the lanes into `c`).
    Add,
    /// `.min`: the smaller of the result and `c`.
    Min,
    /// `.max`: the larger of the result and `c`.
    Max,
}

/// A comparison, the one vocabulary of `vset*`, `setp` and `set`: the six ordered words, the
/// unsigned words of `setp`/`set` on unsigned types, and the unordered and NaN words of their
/// float forms. `vset*` takes the first six ([`Cmp::VIDEO`]); which words `setp` and `set`
/// take depends on the type they compare ([`Cmp::for_type`]).
///
/// What a word means is one function, [`Cmp::holds`] on the order of two numbers, and
/// [`Cmp::on_nan`] when one of two floats is NaN: the video evaluators, their plans
/// (branch-free, through the same answers) and `setp`/`set` all read it.
///
/// ```
/// use ptxlab_core::isa::Cmp;
/// use std::cmp::Ordering::*;
///
/// assert!(Cmp::Le.holds(Equal) && !Cmp::Le.holds(Greater));
/// // lo is lt on the values read as unsigned, whatever the type says.
/// assert!(Cmp::Lo.reads_unsigned() && Cmp::Lo.holds(Less));
/// // Where a float is NaN, only the unordered words (and nan) hold.
/// assert!(Cmp::Ltu.on_nan() && !Cmp::Lt.on_nan() && Cmp::Nan.on_nan() && !Cmp::Num.on_nan());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cmp {
    /// `.eq`: equal.
    Eq,
    /// `.ne`: not equal.
    Ne,
    /// `.lt`: less than.
    Lt,
    /// `.le`: less than or equal.
    Le,
    /// `.gt`: greater than.
    Gt,
    /// `.ge`: greater than or equal.
    Ge,
    /// `.lo`: lower, `lt` on the values read as unsigned.
    Lo,
    /// `.ls`: lower or same, unsigned `le`.
    Ls,
    /// `.hi`: higher, unsigned `gt`.
    Hi,
    /// `.hs`: higher or same, unsigned `ge`.
    Hs,
    /// `.equ`: equal, or either float NaN.
    Equ,
    /// `.neu`: not equal, or either float NaN.
    Neu,
    /// `.ltu`: less than, or either float NaN.
    Ltu,
    /// `.leu`: less than or equal, or either float NaN.
    Leu,
    /// `.gtu`: greater than, or either float NaN.
    Gtu,
    /// `.geu`: greater than or equal, or either float NaN.
    Geu,
    /// `.num`: neither float is NaN.
    Num,
    /// `.nan`: either float is NaN.
    Nan,
}

impl Cmp {
    /// Every comparison, the six ordered words first, then the unsigned, unordered and NaN
    /// words.
    pub const ALL: [Cmp; 18] = [
        Cmp::Eq,
        Cmp::Ne,
        Cmp::Lt,
        Cmp::Le,
        Cmp::Gt,
        Cmp::Ge,
        Cmp::Lo,
        Cmp::Ls,
        Cmp::Hi,
        Cmp::Hs,
        Cmp::Equ,
        Cmp::Neu,
        Cmp::Ltu,
        Cmp::Leu,
        Cmp::Gtu,
        Cmp::Geu,
        Cmp::Num,
        Cmp::Nan,
    ];
    /// The comparisons of `vset*`: the six ordered words.
    pub const VIDEO: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
    /// Whether it is one of [`Cmp::VIDEO`].
    pub const fn is_video(self) -> bool {
        let mut i = 0;
        while i < Cmp::VIDEO.len() {
            if Cmp::VIDEO[i] as u8 == self as u8 {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The comparison as written, without the dot.
    pub const fn name(self) -> &'static str {
        match self {
            Cmp::Eq => "eq",
            Cmp::Ne => "ne",
            Cmp::Lt => "lt",
            Cmp::Le => "le",
            Cmp::Gt => "gt",
            Cmp::Ge => "ge",
            Cmp::Lo => "lo",
            Cmp::Ls => "ls",
            Cmp::Hi => "hi",
            Cmp::Hs => "hs",
            Cmp::Equ => "equ",
            Cmp::Neu => "neu",
            Cmp::Ltu => "ltu",
            Cmp::Leu => "leu",
            Cmp::Gtu => "gtu",
            Cmp::Geu => "geu",
            Cmp::Num => "num",
            Cmp::Nan => "nan",
        }
    }

    /// The comparison written `s` (without the dot), if it is one.
    pub fn from_name(s: &str) -> Option<Cmp> {
        Cmp::ALL.into_iter().find(|c| c.name() == s)
    }

    /// Whether the comparison holds between two numbers, neither a NaN, in order `o` (`a`
    /// against `b`). `num` holds in every order, `nan` in none.
    #[inline]
    pub const fn holds(self, o: std::cmp::Ordering) -> bool {
        // Bit 0: holds when less, bit 1: when equal, bit 2: when greater.
        (self.orders() >> (o as i8 + 1)) & 1 != 0
    }

    /// [`Cmp::holds`] for the order given as whether `a < b` and whether `a > b` (neither:
    /// equal), the form a comparison of two integers gives without branches.
    #[inline]
    pub const fn holds_where(self, lt: bool, gt: bool) -> bool {
        (self.orders() >> (!lt as u8 + gt as u8)) & 1 != 0
    }

    /// The orders in which the comparison holds, as bits: 1 less, 2 equal, 4 greater.
    #[inline]
    pub(crate) const fn orders(self) -> u8 {
        const LT: u8 = 1;
        const EQ: u8 = 2;
        const GT: u8 = 4;
        match self {
            Cmp::Eq | Cmp::Equ => EQ,
            Cmp::Ne | Cmp::Neu => LT | GT,
            Cmp::Lt | Cmp::Lo | Cmp::Ltu => LT,
            Cmp::Le | Cmp::Ls | Cmp::Leu => LT | EQ,
            Cmp::Gt | Cmp::Hi | Cmp::Gtu => GT,
            Cmp::Ge | Cmp::Hs | Cmp::Geu => EQ | GT,
            Cmp::Num => LT | EQ | GT,
            Cmp::Nan => 0,
        }
    }

    /// The comparisons `setp` and `set` take on values of type `t`, as ptxas for sm_90 decides
    /// (`tests/data/ptxas-programs.jsonl`): bit types compare only for equality, signed types
    /// take the six ordered words, unsigned types also `lo ls hi hs`, and floats the ordered,
    /// unordered and NaN words.
    pub fn for_type(t: Type) -> &'static [Cmp] {
        use Cmp::*;
        if t.is_float() {
            &[
                Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
            ]
        } else if t.is_unsigned() {
            &[Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs]
        } else if t.is_signed() {
            &Cmp::VIDEO
        } else {
            &[Eq, Ne]
        }
    }

    /// Whether the comparison holds when either float is NaN: the unordered words and `nan`.
    pub const fn on_nan(self) -> bool {
        matches!(
            self,
            Cmp::Equ | Cmp::Neu | Cmp::Ltu | Cmp::Leu | Cmp::Gtu | Cmp::Geu | Cmp::Nan
        )
    }

    /// Whether the comparison reads its integers as unsigned whatever their type (`lo ls hi
    /// hs`).
    pub const fn reads_unsigned(self) -> bool {
        matches!(self, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs)
    }

    /// The relation as a formula writes it: `==`, `<=`; for `num` and `nan`, words.
    pub const fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq | Cmp::Equ => "==",
            Cmp::Ne | Cmp::Neu => "!=",
            Cmp::Lt | Cmp::Lo | Cmp::Ltu => "<",
            Cmp::Le | Cmp::Ls | Cmp::Leu => "<=",
            Cmp::Gt | Cmp::Hi | Cmp::Gtu => ">",
            Cmp::Ge | Cmp::Hs | Cmp::Geu => ">=",
            Cmp::Num => "both numbers",
            Cmp::Nan => "either NaN",
        }
    }

    /// The relation in words, for a sentence: "less than or equal to".
    pub const fn phrase(self) -> &'static str {
        match self {
            Cmp::Eq => "equal to",
            Cmp::Ne => "not equal to",
            Cmp::Lt => "less than",
            Cmp::Le => "less than or equal to",
            Cmp::Gt => "greater than",
            Cmp::Ge => "greater than or equal to",
            Cmp::Lo => "lower than (unsigned)",
            Cmp::Ls => "lower than or the same as (unsigned)",
            Cmp::Hi => "higher than (unsigned)",
            Cmp::Hs => "higher than or the same as (unsigned)",
            Cmp::Equ => "equal to, or unordered with,",
            Cmp::Neu => "not equal to, or unordered with,",
            Cmp::Ltu => "less than, or unordered with,",
            Cmp::Leu => "less than or equal to, or unordered with,",
            Cmp::Gtu => "greater than, or unordered with,",
            Cmp::Geu => "greater than or equal to, or unordered with,",
            Cmp::Num => "ordered with (neither is NaN)",
            Cmp::Nan => "unordered with (one is NaN)",
        }
    }
}

/// `.and .or .xor` of `setp` (and `lop3`'s predicate form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)] // the variants are PTX's own names, documented by NVIDIA
pub enum BoolOp {
    And,
    Or,
    Xor,
}

impl BoolOp {
    /// Every operation.
    pub const ALL: [BoolOp; 3] = [BoolOp::And, BoolOp::Or, BoolOp::Xor];
    /// The operation as written.
    pub const fn name(self) -> &'static str {
        match self {
            BoolOp::And => "and",
            BoolOp::Or => "or",
            BoolOp::Xor => "xor",
        }
    }
    /// The operation on two predicates.
    pub const fn apply(self, x: bool, y: bool) -> bool {
        match self {
            BoolOp::And => x && y,
            BoolOp::Or => x || y,
            BoolOp::Xor => x ^ y,
        }
    }
}

/// The direction of `shf`'s funnel shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShiftDir {
    /// `.l`: towards the high bits.
    L,
    /// `.r`: towards the low bits.
    R,
}

impl ShiftDir {
    /// Both directions.
    pub const ALL: [ShiftDir; 2] = [ShiftDir::L, ShiftDir::R];
    /// The direction as written.
    pub const fn name(self) -> &'static str {
        match self {
            ShiftDir::L => "l",
            ShiftDir::R => "r",
        }
    }
}

/// The modes of `prmt` (none is the generic form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)] // the variants are PTX's own names, documented by NVIDIA
pub enum PrmtMode {
    F4e,
    B4e,
    Rc8,
    Ecl,
    Ecr,
    Rc16,
}

impl PrmtMode {
    /// Every mode.
    pub const ALL: [PrmtMode; 6] = [
        PrmtMode::F4e,
        PrmtMode::B4e,
        PrmtMode::Rc8,
        PrmtMode::Ecl,
        PrmtMode::Ecr,
        PrmtMode::Rc16,
    ];
    /// The mode as written.
    pub const fn name(self) -> &'static str {
        match self {
            PrmtMode::F4e => "f4e",
            PrmtMode::B4e => "b4e",
            PrmtMode::Rc8 => "rc8",
            PrmtMode::Ecl => "ecl",
            PrmtMode::Ecr => "ecr",
            PrmtMode::Rc16 => "rc16",
        }
    }
    /// Source byte for d.b0 .. d.b3 (least significant first) when `c & 3 == k`.
    pub fn picks(self, k: u32) -> [u8; 4] {
        // Written as in the ISA's table: d.b3 d.b2 d.b1 d.b0.
        let row: [u8; 4] = match (self, k & 3) {
            (PrmtMode::F4e, 0) => [3, 2, 1, 0],
            (PrmtMode::F4e, 1) => [4, 3, 2, 1],
            (PrmtMode::F4e, 2) => [5, 4, 3, 2],
            (PrmtMode::F4e, _) => [6, 5, 4, 3],
            (PrmtMode::B4e, 0) => [5, 6, 7, 0],
            (PrmtMode::B4e, 1) => [6, 7, 0, 1],
            (PrmtMode::B4e, 2) => [7, 0, 1, 2],
            (PrmtMode::B4e, _) => [0, 1, 2, 3],
            (PrmtMode::Rc8, k) => [k as u8; 4],
            (PrmtMode::Ecl, 0) => [3, 2, 1, 0],
            (PrmtMode::Ecl, 1) => [3, 2, 1, 1],
            (PrmtMode::Ecl, 2) => [3, 2, 2, 2],
            (PrmtMode::Ecl, _) => [3, 3, 3, 3],
            (PrmtMode::Ecr, 0) => [0, 0, 0, 0],
            (PrmtMode::Ecr, 1) => [1, 1, 1, 0],
            (PrmtMode::Ecr, 2) => [2, 2, 1, 0],
            (PrmtMode::Ecr, _) => [3, 2, 1, 0],
            (PrmtMode::Rc16, 0) | (PrmtMode::Rc16, 2) => [1, 0, 1, 0],
            (PrmtMode::Rc16, _) => [3, 2, 3, 2],
        };
        [row[3], row[2], row[1], row[0]]
    }
}

/// `.clamp` / `.wrap`: the shift amount of `vshl`/`vshr` and `shf`, the position handling of
/// `szext`/`bmsk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClampMode {
    /// `.clamp`: amounts past the width are limited to it.
    Clamp,
    /// `.wrap`: amounts are taken modulo the width.
    Wrap,
}

impl ClampMode {
    /// Both modes.
    pub const ALL: [ClampMode; 2] = [ClampMode::Clamp, ClampMode::Wrap];
    /// The mode as written, without the dot.
    pub fn name(self) -> &'static str {
        match self {
            ClampMode::Clamp => "clamp",
            ClampMode::Wrap => "wrap",
        }
    }
}

/// `.shr7` / `.shr15` of `vmad`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    /// `.shr7`: shift the result right by 7.
    Shr7,
    /// `.shr15`: shift the result right by 15.
    Shr15,
}

/// `.hi` / `.lo` / `.wide` of `mul`, `mad`, `mul24`, `mad24`, `dp2a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HalfMode {
    /// `.hi`: the upper half of the double-width product (`mul24`/`mad24`: bits 16-47 of the
    /// 48-bit product; `dp2a`: bytes 2 and 3 of `b`).
    Hi,
    /// `.lo`: the lower half (`mul24`/`mad24`: bits 0-31; `dp2a`: bytes 0 and 1 of `b`).
    Lo,
    /// `.wide`: the whole double-width product.
    Wide,
}

/// A modifier written after the opcode, of either table: the table's parser reads those of
/// [`Mod::TABLE`]; a program row lists the ones it takes ([`super::Mods`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mod {
    /// A type suffix (`.u32`).
    Type(Type),
    /// `.sat`: saturate to the destination range.
    Sat,
    /// A secondary operation (`.add .min .max`).
    SecOp(SecOp),
    /// A comparison: `vset*`'s six ([`Cmp::VIDEO`]; the table's parser reads only those as
    /// one, `.lo` and `.hi` are [`Mod::Half`] there) and all 18 of `setp` and `set`.
    Cmp(Cmp),
    /// `.clamp` or `.wrap`.
    Mode(ClampMode),
    /// `.shr7` or `.shr15` of `vmad`.
    Scale(Scale),
    /// `.po` of `vmad`: plus one (the average-rounding form).
    Po,
    /// `.hi`, `.lo` or `.wide`.
    Half(HalfMode),
    /// `.relu` of `max`/`min`: negative results become 0.
    Relu,
    /// `.shiftamt` of `bfind`: the shift amount rather than the bit position.
    Shiftamt,
    /// `shf`'s direction, `.l` or `.r`.
    Dir(ShiftDir),
    /// `prmt`'s mode, `.f4e` ... `.rc16`.
    Prmt(PrmtMode),
    /// The Boolean operation that combines a comparison with a predicate `c` (`setp`, `set`).
    Bool(BoolOp),
    /// `.ftz`: a subnormal `f32` reads as zero.
    Ftz,
    /// `.cc`: the carry out is written (the carry chain).
    Cc,
}

impl Mod {
    /// The modifier as written, without the leading dot.
    pub fn name(self) -> &'static str {
        match self {
            Mod::Type(t) => t.name(),
            Mod::Sat => "sat",
            Mod::SecOp(SecOp::Add) => "add",
            Mod::SecOp(SecOp::Min) => "min",
            Mod::SecOp(SecOp::Max) => "max",
            Mod::Cmp(c) => c.name(),
            Mod::Mode(m) => m.name(),
            Mod::Scale(Scale::Shr7) => "shr7",
            Mod::Scale(Scale::Shr15) => "shr15",
            Mod::Po => "po",
            Mod::Half(HalfMode::Hi) => "hi",
            Mod::Half(HalfMode::Lo) => "lo",
            Mod::Half(HalfMode::Wide) => "wide",
            Mod::Relu => "relu",
            Mod::Shiftamt => "shiftamt",
            Mod::Dir(d) => d.name(),
            Mod::Prmt(p) => p.name(),
            Mod::Bool(b) => b.name(),
            Mod::Ftz => "ftz",
            Mod::Cc => "cc",
        }
    }

    /// The modifiers the table's parser reads as modifiers: the table's type words
    /// ([`Type::TABLE`]), `.sat`, the secondary operations, `vset*`'s comparisons
    /// ([`Cmp::VIDEO`]), the modes, scales, `.po`, halves, `.relu` and `.shiftamt`. The first
    /// entries of [`Mod::ALL`].
    pub const TABLE: [Mod; 31] = {
        let others = [
            Mod::Sat,
            Mod::SecOp(SecOp::Add),
            Mod::SecOp(SecOp::Min),
            Mod::SecOp(SecOp::Max),
        ];
        let rest = [
            Mod::Mode(ClampMode::Clamp),
            Mod::Mode(ClampMode::Wrap),
            Mod::Scale(Scale::Shr7),
            Mod::Scale(Scale::Shr15),
            Mod::Po,
            Mod::Half(HalfMode::Lo),
            Mod::Half(HalfMode::Hi),
            Mod::Half(HalfMode::Wide),
            Mod::Relu,
            Mod::Shiftamt,
        ];
        let mut all = [Mod::Sat; 31];
        let mut n = 0;
        let mut i = 0;
        while i < Type::TABLE.len() {
            all[n] = Mod::Type(Type::TABLE[i]);
            (n, i) = (n + 1, i + 1);
        }
        i = 0;
        while i < others.len() {
            all[n] = others[i];
            (n, i) = (n + 1, i + 1);
        }
        i = 0;
        while i < Cmp::VIDEO.len() {
            all[n] = Mod::Cmp(Cmp::VIDEO[i]);
            (n, i) = (n + 1, i + 1);
        }
        i = 0;
        while i < rest.len() {
            all[n] = rest[i];
            (n, i) = (n + 1, i + 1);
        }
        assert!(n == 31);
        all
    };

    /// Every modifier of either table: [`Mod::TABLE`] (with the table's eleven type words; a
    /// program row's other types are not modifiers), then the comparisons only `setp` and
    /// `set` take, `shf`'s directions, `prmt`'s modes, the Boolean operations, `.ftz` and
    /// `.cc`. A word of two modifiers (`.lo`: a half, and an unsigned comparison) is the
    /// table's first; a program row names which it takes.
    pub const ALL: [Mod; 56] = {
        let mut all = [Mod::Sat; 56];
        let mut n = 0;
        while n < Mod::TABLE.len() {
            all[n] = Mod::TABLE[n];
            n += 1;
        }
        let mut i = 0;
        while i < Cmp::ALL.len() {
            if !Cmp::ALL[i].is_video() {
                all[n] = Mod::Cmp(Cmp::ALL[i]);
                n += 1;
            }
            i += 1;
        }
        i = 0;
        while i < ShiftDir::ALL.len() {
            all[n] = Mod::Dir(ShiftDir::ALL[i]);
            (n, i) = (n + 1, i + 1);
        }
        i = 0;
        while i < PrmtMode::ALL.len() {
            all[n] = Mod::Prmt(PrmtMode::ALL[i]);
            (n, i) = (n + 1, i + 1);
        }
        i = 0;
        while i < BoolOp::ALL.len() {
            all[n] = Mod::Bool(BoolOp::ALL[i]);
            (n, i) = (n + 1, i + 1);
        }
        all[n] = Mod::Ftz;
        all[n + 1] = Mod::Cc;
        assert!(n + 2 == 56);
        all
    };

    /// The modifier written `s` (without the dot), if it is one of either table ([`Mod::ALL`]):
    /// `.lo` and `.hi` are halves here.
    pub fn from_name(s: &str) -> Option<Mod> {
        Mod::ALL.into_iter().find(|m| m.name() == s)
    }

    /// The modifier written `s`, if the table's parser reads it as one ([`Mod::TABLE`]).
    pub fn table_word(s: &str) -> Option<Mod> {
        Mod::TABLE.into_iter().find(|m| m.name() == s)
    }
}

/// The modifiers of an instruction of either table gathered into typed fields: the one
/// decoded form the evaluators read, set by [`Form::set`] (the one place a modifier word
/// becomes a field) and read back by [`Form::get`]. Where a modifier is repeated or
/// conflicting, the first is kept; the validator reports the conflict from the words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Form {
    /// Types in the order written: `[dtype, atype, btype]` for video instructions,
    /// `[type]` for most integer instructions, `[atype, btype]` for `dp4a`/`dp2a`, `vset`;
    /// a program row's instruction type, its second type (`cvt`'s source type) and its third
    /// (`cvt.pack`'s `c` type, with the packed types narrower than 16 bits).
    pub types: [Option<Type>; 3],
    /// `.sat` was written.
    pub sat: bool,
    /// The secondary operation, if any.
    pub secop: Option<SecOp>,
    /// The comparison of `vset*`, `setp` or `set`, if any.
    pub cmp: Option<Cmp>,
    /// `.clamp` or `.wrap`, if written.
    pub mode: Option<ClampMode>,
    /// The `vmad` scale, if any.
    pub scale: Option<Scale>,
    /// `.po` was written.
    pub po: bool,
    /// `.hi`, `.lo` or `.wide`, if written.
    pub half: Option<HalfMode>,
    /// `.relu` was written.
    pub relu: bool,
    /// `.shiftamt` was written.
    pub shiftamt: bool,
    /// `shf`'s direction, `.l` or `.r`.
    #[serde(default)]
    pub dir: Option<ShiftDir>,
    /// `prmt`'s mode (none: the generic form).
    #[serde(default)]
    pub prmt: Option<PrmtMode>,
    /// `setp`'s and `set`'s Boolean operation with `c`.
    #[serde(default)]
    pub bool_op: Option<BoolOp>,
    /// `.ftz`: subnormal floats read as zero.
    #[serde(default)]
    pub ftz: bool,
    /// `.cc`: the carry chain writes the carry flag.
    #[serde(default)]
    pub cc: bool,
}

impl Form {
    /// The form these modifiers give, in the order written ([`Form::set`] each).
    pub fn of(mods: impl IntoIterator<Item = Mod>) -> Form {
        let mut f = Form::default();
        for m in mods {
            f.set(m);
        }
        f
    }
    /// Number of types given.
    pub fn type_count(&self) -> usize {
        self.types.iter().filter(|t| t.is_some()).count()
    }
    /// The `i`-th type written; panics never: a missing type reads as `u32`.
    pub fn ty(&self, i: usize) -> Type {
        self.types.get(i).copied().flatten().unwrap_or(Type::U32)
    }
    /// Record modifier `m`: a type in the next free slot (past the third, none), any other
    /// in its group's field unless one of the group is already there (the first wins).
    pub fn set(&mut self, m: Mod) {
        match m {
            Mod::Type(t) => {
                if let Some(slot) = self.types.iter_mut().find(|x| x.is_none()) {
                    *slot = Some(t);
                }
            }
            Mod::Sat => self.sat = true,
            Mod::SecOp(s) => {
                self.secop.get_or_insert(s);
            }
            Mod::Cmp(c) => {
                self.cmp.get_or_insert(c);
            }
            Mod::Mode(c) => {
                self.mode.get_or_insert(c);
            }
            Mod::Scale(s) => {
                self.scale.get_or_insert(s);
            }
            Mod::Po => self.po = true,
            Mod::Half(h) => {
                self.half.get_or_insert(h);
            }
            Mod::Relu => self.relu = true,
            Mod::Shiftamt => self.shiftamt = true,
            Mod::Dir(d) => {
                self.dir.get_or_insert(d);
            }
            Mod::Prmt(p) => {
                self.prmt.get_or_insert(p);
            }
            Mod::Bool(b) => {
                self.bool_op.get_or_insert(b);
            }
            Mod::Ftz => self.ftz = true,
            Mod::Cc => self.cc = true,
        }
    }
    /// The modifier of group `g` recorded, if any (the types are no one modifier: `None`).
    pub fn get(&self, g: ModGroup) -> Option<Mod> {
        let on = |b: bool, m: Mod| b.then_some(m);
        match g {
            ModGroup::Type => None,
            ModGroup::Sat => on(self.sat, Mod::Sat),
            ModGroup::SecOp => self.secop.map(Mod::SecOp),
            ModGroup::Cmp => self.cmp.map(Mod::Cmp),
            ModGroup::Mode => self.mode.map(Mod::Mode),
            ModGroup::Scale => self.scale.map(Mod::Scale),
            ModGroup::Po => on(self.po, Mod::Po),
            ModGroup::Half => self.half.map(Mod::Half),
            ModGroup::Relu => on(self.relu, Mod::Relu),
            ModGroup::Shiftamt => on(self.shiftamt, Mod::Shiftamt),
            ModGroup::Dir => self.dir.map(Mod::Dir),
            ModGroup::Prmt => self.prmt.map(Mod::Prmt),
            ModGroup::Bool => self.bool_op.map(Mod::Bool),
            ModGroup::Ftz => on(self.ftz, Mod::Ftz),
            ModGroup::Cc => on(self.cc, Mod::Cc),
        }
    }
    /// Forget group `g` (the types: all of them).
    pub fn clear(&mut self, g: ModGroup) {
        match g {
            ModGroup::Type => self.types = [None; 3],
            ModGroup::Sat => self.sat = false,
            ModGroup::SecOp => self.secop = None,
            ModGroup::Cmp => self.cmp = None,
            ModGroup::Mode => self.mode = None,
            ModGroup::Scale => self.scale = None,
            ModGroup::Po => self.po = false,
            ModGroup::Half => self.half = None,
            ModGroup::Relu => self.relu = false,
            ModGroup::Shiftamt => self.shiftamt = false,
            ModGroup::Dir => self.dir = None,
            ModGroup::Prmt => self.prmt = None,
            ModGroup::Bool => self.bool_op = None,
            ModGroup::Ftz => self.ftz = false,
            ModGroup::Cc => self.cc = false,
        }
    }
}

/// Whether a selector was written with `b` (bytes) or `h` (half-words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SelKind {
    /// `b`: byte lanes.
    B,
    /// `h`: half-word lanes.
    H,
}

/// A selector or mask suffix on an operand, exactly as written: `.b0` is `{B, [0]}`,
/// `.h10` is `{H, [1, 0]}`, `.b3210` is `{B, [3, 2, 1, 0]}`. Its meaning (byte select,
/// SIMD lane selection, destination mask) depends on the instruction and operand position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Selector {
    /// Bytes or half-words.
    pub kind: SelKind,
    /// Digits as written, most significant lane first; only `len` entries are meaningful.
    pub digits: [u8; 4],
    /// How many digits were written (1 to 4).
    pub len: u8,
}

impl Selector {
    /// A selector of `kind` with `digits` as written, most significant lane first (at most 4 kept).
    pub fn new(kind: SelKind, digits: &[u8]) -> Selector {
        let mut d = [0u8; 4];
        let len = digits.len().min(4);
        d[..len].copy_from_slice(&digits[..len]);
        Selector {
            kind,
            digits: d,
            len: len as u8,
        }
    }
    /// The digits as written, most significant lane first.
    pub fn digits(&self) -> &[u8] {
        &self.digits[..self.len as usize]
    }
    /// Lane `i` counted from the least significant lane: for `.b3210` lane 0 reads digit `0`.
    pub fn lane(&self, i: usize) -> u8 {
        let n = self.len as usize;
        if i < n {
            self.digits[n - 1 - i]
        } else {
            0
        }
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.kind {
            SelKind::B => ".b",
            SelKind::H => ".h",
        })?;
        for d in self.digits() {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// The kind of slot a modifier fills; two modifiers of one group (other than the repeatable
/// ones) conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModGroup {
    /// The type suffixes.
    Type,
    /// `.sat`.
    Sat,
    /// The secondary operation.
    SecOp,
    /// The comparison.
    Cmp,
    /// `.clamp` / `.wrap`.
    Mode,
    /// `.shr7` / `.shr15`.
    Scale,
    /// `.po`.
    Po,
    /// `.hi` / `.lo` / `.wide`.
    Half,
    /// `.relu`.
    Relu,
    /// `.shiftamt`.
    Shiftamt,
    /// `shf`'s direction, `.l` / `.r`.
    Dir,
    /// `prmt`'s mode.
    Prmt,
    /// The Boolean operation with a predicate `c`, `.and` / `.or` / `.xor`.
    Bool,
    /// `.ftz`.
    Ftz,
    /// `.cc`: the carry out.
    Cc,
}

impl ModGroup {
    /// The group `m` belongs to.
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
            Mod::Dir(_) => ModGroup::Dir,
            Mod::Prmt(_) => ModGroup::Prmt,
            Mod::Bool(_) => ModGroup::Bool,
            Mod::Ftz => ModGroup::Ftz,
            Mod::Cc => ModGroup::Cc,
        }
    }
    /// Writing the same modifier of this group twice is accepted (and means it once):
    /// measured with ptxas 13.5 (`.sat.sat`, `.cc.cc`; `tests/data/ptxas-acceptance.jsonl`
    /// and `ptxas-programs.jsonl`).
    pub fn repeatable(self) -> bool {
        matches!(
            self,
            ModGroup::Sat | ModGroup::Relu | ModGroup::Shiftamt | ModGroup::Cc
        )
    }
    /// Every group, in the order the table's pickers show their controls (a program row
    /// lists its own, in its order).
    pub const ALL: [ModGroup; 15] = [
        ModGroup::Type,
        ModGroup::Sat,
        ModGroup::SecOp,
        ModGroup::Cmp,
        ModGroup::Mode,
        ModGroup::Scale,
        ModGroup::Po,
        ModGroup::Half,
        ModGroup::Relu,
        ModGroup::Shiftamt,
        ModGroup::Dir,
        ModGroup::Prmt,
        ModGroup::Bool,
        ModGroup::Ftz,
        ModGroup::Cc,
    ];
    /// The modifiers of this group, in [`Mod::ALL`] order.
    pub fn members(self) -> impl Iterator<Item = Mod> {
        Mod::ALL
            .into_iter()
            .filter(move |m| ModGroup::of(*m) == self)
    }
    /// Whether the group is a single modifier, written or not (a check box in the pickers).
    pub fn is_switch(self) -> bool {
        self.members().count() == 1
    }
    /// A stable short name (element ids, test selectors): `sat`, `cmp`, `half`...
    pub fn key(self) -> &'static str {
        match self {
            ModGroup::Type => "type",
            ModGroup::Sat => "sat",
            ModGroup::SecOp => "secop",
            ModGroup::Cmp => "cmp",
            ModGroup::Mode => "mode",
            ModGroup::Scale => "scale",
            ModGroup::Po => "po",
            ModGroup::Half => "half",
            ModGroup::Relu => "relu",
            ModGroup::Shiftamt => "shiftamt",
            ModGroup::Dir => "dir",
            ModGroup::Prmt => "prmt",
            ModGroup::Bool => "bool",
            ModGroup::Ftz => "ftz",
            ModGroup::Cc => "cc",
        }
    }
    /// The label of the group's control.
    pub fn label(self) -> &'static str {
        match self {
            ModGroup::Type => "Type",
            ModGroup::Sat => ".sat",
            ModGroup::SecOp => "Second step",
            ModGroup::Cmp => "Comparison",
            ModGroup::Mode => "Mode",
            ModGroup::Scale => "Scale",
            ModGroup::Po => ".po (plus one)",
            ModGroup::Half => "Part kept",
            ModGroup::Relu => ".relu",
            ModGroup::Shiftamt => ".shiftamt",
            ModGroup::Dir => "Direction",
            ModGroup::Prmt => "Mode",
            ModGroup::Bool => "Combine with c",
            ModGroup::Ftz => "Flush subnormals",
            ModGroup::Cc => "Carry out",
        }
    }
    /// The label of the group's control on one instruction: `dp2a`'s `.lo`/`.hi` choose bytes
    /// of `b`, not a part of a product; `shf`'s mode is what it does to the shift amount.
    pub fn label_for(self, instr: super::Instr) -> &'static str {
        use super::{Instr, Opcode, POp};
        match (self, instr) {
            (ModGroup::Half, Instr::Table(Opcode::Dp2a)) => "Bytes of b",
            (ModGroup::Half, Instr::Table(Opcode::Mul24 | Opcode::Mad24)) => "Product bits kept",
            (ModGroup::Half, Instr::Program(_)) => "Half of the product",
            (ModGroup::Mode, Instr::Program(POp::Shf)) => "Shift amount",
            _ => self.label(),
        }
    }
    /// The group's noun in messages: "result part", "comparison". The messages add the words
    /// a row takes of it.
    pub fn describe(self) -> &'static str {
        match self {
            ModGroup::Type => "type",
            ModGroup::Sat => "saturation",
            ModGroup::SecOp => "secondary operation",
            ModGroup::Cmp => "comparison",
            ModGroup::Mode => "mode",
            ModGroup::Scale => "scaling shift",
            ModGroup::Po => "plus-one mode",
            ModGroup::Half => "result part",
            ModGroup::Relu => "clamp at zero",
            ModGroup::Shiftamt => "shift-amount form",
            ModGroup::Dir => "direction",
            ModGroup::Prmt => "mode",
            ModGroup::Bool => "Boolean operation",
            ModGroup::Ftz => "flush to zero",
            ModGroup::Cc => "carry out",
        }
    }
    /// The group's noun on one instruction, as [`ModGroup::label_for`] labels its control:
    /// `dp2a`'s `.lo`/`.hi` pick bytes of `b`, the carry chain's pick a half of the product.
    pub fn describe_for(self, instr: super::Instr) -> &'static str {
        use super::{Instr, Opcode};
        match (self, instr) {
            (ModGroup::Half, Instr::Table(Opcode::Dp2a)) => "half of b",
            (ModGroup::Half, Instr::Program(_)) => "half of the product",
            _ => self.describe(),
        }
    }
}

/// Names of type slots as the ISA's syntax writes them.
pub const DTYPE: &str = "dtype";
/// The name of the first source type slot.
pub const ATYPE: &str = "atype";
/// The name of the second source type slot.
pub const BTYPE: &str = "btype";
/// The name of the single type slot of integer instructions.
pub const TYPE: &str = "type";

/// One type slot of an instruction's syntax, for both tables: its name, what the type written
/// in it is the type of, the types it takes, and with which first types it is written at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TypeSlot {
    /// Its name in the ISA's syntax: `dtype`, `atype`, `btype`, `type`, `stype` ...
    pub name: &'static str,
    /// What the type written in it is the type of, for labels and messages: `"d"`,
    /// `"a and b"`; empty where it is the type of everything the instruction reads and
    /// writes (`add.u32`, `prmt.b32`).
    pub of: &'static str,
    /// The types it takes.
    pub types: &'static [Type],
    /// The first slot's types with which it is written (`cvt.pack`'s third slot, the type of
    /// `c`, comes with the packed types narrower than 16 bits only); empty: with every one.
    pub with: &'static [Type],
}

impl TypeSlot {
    /// A slot named `name` taking `types`, the type of everything, written with every first
    /// type.
    pub const fn new(name: &'static str, types: &'static [Type]) -> TypeSlot {
        TypeSlot {
            name,
            of: "",
            types,
            with: &[],
        }
    }
    /// The slot, as the type of `of`.
    pub const fn of(self, of: &'static str) -> TypeSlot {
        TypeSlot { of, ..self }
    }
    /// The slot, written with these first types only.
    pub const fn with(self, with: &'static [Type]) -> TypeSlot {
        TypeSlot { with, ..self }
    }
    /// The one slot `type`, the type of everything the instruction reads and writes.
    pub const fn only(types: &'static [Type]) -> [TypeSlot; 1] {
        [TypeSlot::new(TYPE, types)]
    }
    /// Whether it is written with the first type `first`.
    pub fn written_with(&self, first: Type) -> bool {
        self.with.is_empty() || self.with.contains(&first)
    }
    /// Its label as the user reads it: "Type of d", "Type of a and b", or "Type".
    pub fn label(&self) -> String {
        if self.of.is_empty() {
            "Type".into()
        } else {
            format!("Type of {}", self.of)
        }
    }
}
