//! The words of the instruction set: types, modifiers, the typed [`Form`] they gather into,
//! selectors, and the names of the type slots. Nothing here knows about a parsed instruction;
//! [`crate::ast`] re-exports these so both paths name the same items.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Operand and instruction types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Type {
    U16,
    U32,
    U64,
    S16,
    S32,
    S64,
    B16,
    B32,
    B64,
    U16x2,
    S16x2,
}

impl Type {
    pub const ALL: [Type; 11] = [
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
    /// Width of a register of this type, in bits.
    pub fn bits(self) -> u32 {
        match self {
            Type::U16 | Type::S16 | Type::B16 => 16,
            Type::U32 | Type::S32 | Type::B32 | Type::U16x2 | Type::S16x2 => 32,
            Type::U64 | Type::S64 | Type::B64 => 64,
        }
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Type::S16 | Type::S32 | Type::S64 | Type::S16x2)
    }
    pub fn name(self) -> &'static str {
        match self {
            Type::U16 => "u16",
            Type::U32 => "u32",
            Type::U64 => "u64",
            Type::S16 => "s16",
            Type::S32 => "s32",
            Type::S64 => "s64",
            Type::B16 => "b16",
            Type::B32 => "b32",
            Type::B64 => "b64",
            Type::U16x2 => "u16x2",
            Type::S16x2 => "s16x2",
        }
    }
    pub fn from_name(s: &str) -> Option<Type> {
        Type::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// Secondary operation of scalar video instructions (`.add .min .max`); for SIMD video
/// instructions only `.add` (accumulate) exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SecOp {
    Add,
    Min,
    Max,
}

/// Comparison of `vset*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// `.clamp` / `.wrap` (shift amount of `vshl`/`vshr`, position handling of `szext`/`bmsk`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClampMode {
    Clamp,
    Wrap,
}

/// `.shr7` / `.shr15` of `vmad`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    Shr7,
    Shr15,
}

/// `.hi` / `.lo` / `.wide` of `mul`, `mad`, `mul24`, `mad24`, `dp2a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HalfMode {
    Hi,
    Lo,
    Wide,
}

/// One modifier token after the opcode, as recognised by the parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mod {
    Type(Type),
    Sat,
    SecOp(SecOp),
    Cmp(Cmp),
    Mode(ClampMode),
    Scale(Scale),
    Po,
    Half(HalfMode),
    Relu,
    Shiftamt,
    /// `.cc` of `add`/`sub`/`mad`: also write the carry flag (the result in `d` is unchanged).
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
            Mod::Cmp(Cmp::Eq) => "eq",
            Mod::Cmp(Cmp::Ne) => "ne",
            Mod::Cmp(Cmp::Lt) => "lt",
            Mod::Cmp(Cmp::Le) => "le",
            Mod::Cmp(Cmp::Gt) => "gt",
            Mod::Cmp(Cmp::Ge) => "ge",
            Mod::Mode(ClampMode::Clamp) => "clamp",
            Mod::Mode(ClampMode::Wrap) => "wrap",
            Mod::Scale(Scale::Shr7) => "shr7",
            Mod::Scale(Scale::Shr15) => "shr15",
            Mod::Po => "po",
            Mod::Half(HalfMode::Hi) => "hi",
            Mod::Half(HalfMode::Lo) => "lo",
            Mod::Half(HalfMode::Wide) => "wide",
            Mod::Relu => "relu",
            Mod::Shiftamt => "shiftamt",
            Mod::Cc => "cc",
        }
    }

    /// Every modifier the parser knows.
    pub const ALL: [Mod; 32] = [
        Mod::Type(Type::U16),
        Mod::Type(Type::U32),
        Mod::Type(Type::U64),
        Mod::Type(Type::S16),
        Mod::Type(Type::S32),
        Mod::Type(Type::S64),
        Mod::Type(Type::B16),
        Mod::Type(Type::B32),
        Mod::Type(Type::B64),
        Mod::Type(Type::U16x2),
        Mod::Type(Type::S16x2),
        Mod::Sat,
        Mod::SecOp(SecOp::Add),
        Mod::SecOp(SecOp::Min),
        Mod::SecOp(SecOp::Max),
        Mod::Cmp(Cmp::Eq),
        Mod::Cmp(Cmp::Ne),
        Mod::Cmp(Cmp::Lt),
        Mod::Cmp(Cmp::Le),
        Mod::Cmp(Cmp::Gt),
        Mod::Cmp(Cmp::Ge),
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
        Mod::Cc,
    ];

    pub fn from_name(s: &str) -> Option<Mod> {
        Mod::ALL.into_iter().find(|m| m.name() == s)
    }
}

/// The modifiers of an instruction gathered into typed fields (the evaluator reads these).
/// Where a modifier is repeated or conflicting, the parser keeps the first; the validator
/// reports the conflict from [`Instruction::mods`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Form {
    /// Types in the order written: `[dtype, atype, btype]` for video instructions,
    /// `[type]` for most integer instructions, `[atype, btype]` for `dp4a`/`dp2a`, `vset`.
    pub types: [Option<Type>; 3],
    pub sat: bool,
    pub secop: Option<SecOp>,
    pub cmp: Option<Cmp>,
    pub mode: Option<ClampMode>,
    pub scale: Option<Scale>,
    pub po: bool,
    pub half: Option<HalfMode>,
    pub relu: bool,
    pub shiftamt: bool,
    /// `.cc`: the carry-out is also written; `d` is the same as without it.
    #[serde(default)]
    pub cc: bool,
}

impl Form {
    /// Number of types given.
    pub fn type_count(&self) -> usize {
        self.types.iter().filter(|t| t.is_some()).count()
    }
    /// The `i`-th type written; panics never: a missing type reads as `u32`.
    pub fn ty(&self, i: usize) -> Type {
        self.types.get(i).copied().flatten().unwrap_or(Type::U32)
    }
}

/// Whether a selector was written with `b` (bytes) or `h` (half-words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SelKind {
    B,
    H,
}

/// A selector or mask suffix on an operand, exactly as written: `.b0` is `{B, [0]}`,
/// `.h10` is `{H, [1, 0]}`, `.b3210` is `{B, [3, 2, 1, 0]}`. Its meaning (byte select,
/// SIMD lane selection, destination mask) depends on the instruction and operand position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Selector {
    pub kind: SelKind,
    /// Digits as written, most significant lane first; only `len` entries are meaningful.
    pub digits: [u8; 4],
    pub len: u8,
}

impl Selector {
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
    /// Every group, in the order the pickers show their controls.
    pub const ALL: [ModGroup; 11] = [
        ModGroup::Type,
        ModGroup::Sat,
        ModGroup::SecOp,
        ModGroup::Cmp,
        ModGroup::Mode,
        ModGroup::Scale,
        ModGroup::Po,
        ModGroup::Half,
        ModGroup::Relu,
        ModGroup::Cc,
        ModGroup::Shiftamt,
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
            ModGroup::Cc => ".cc (carry out)",
        }
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

/// Names of type slots as the ISA's syntax writes them.
pub const DTYPE: &str = "dtype";
pub const ATYPE: &str = "atype";
pub const BTYPE: &str = "btype";
pub const TYPE: &str = "type";

/// A type slot's name as the user reads it: `dtype` is "d type".
pub fn type_slot_label(name: &str) -> &'static str {
    match name {
        DTYPE => "d type",
        ATYPE => "a type",
        BTYPE => "b type",
        _ => "type",
    }
}

/// The operand a type slot describes (`dtype` describes `d`), if the slot names one.
pub fn type_slot_operand(name: &str) -> Option<&'static str> {
    match name {
        DTYPE => Some("d"),
        ATYPE => Some("a"),
        BTYPE => Some("b"),
        _ => None,
    }
}
