//! One operand position of an instruction, as data, for both tables ([`super::OPCODES`] and
//! [`super::OP_ROWS`]): what may be written there (its kind: a value, a destination that may be
//! dropped, a `p|q` pair, an immediate only, braced parts), what it means (its role), how wide
//! it is, which type slot sets its sign and whether it is a float, which selector it takes and
//! which immediates may stand there.
//!
//! ```
//! use ptxlab_core::isa::{Opcode, Role};
//!
//! // `bfe d, a, b, c`: b is the position of the field, c its length.
//! assert_eq!(Opcode::Bfe.source(1).unwrap().role, Role::Position);
//! assert_eq!(Opcode::Bfe.source(2).unwrap().role, Role::Length);
//! assert_eq!(Opcode::Bfe.operands().dsts[0].name, "d");
//! ```

use serde::{Deserialize, Serialize};

use super::vocab::{Form, HalfMode, SelKind, Selector, Type};

/// What an operand means to the instruction; the Learn panel names it and the sweep picks its
/// range by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// A number the instruction computes with (or the result).
    Value,
    /// A bit position (`bfe` b, `bfi` c, `bmsk` a, `fns` b).
    Position,
    /// A field length in bits (`bfe` c, `bfi` e, `szext` b, `bmsk` b).
    Length,
    /// A shift amount (`vshl`/`vshr` b).
    Shift,
    /// A signed count of set bits to skip (`fns` c).
    Offset,
    /// Nibbles that pick bytes (`prmt` c).
    Selector,
}

impl Role {
    /// The role in a few words, for the UI.
    pub fn describe(self) -> &'static str {
        match self {
            Role::Value => "value",
            Role::Position => "bit position",
            Role::Length => "field length",
            Role::Shift => "shift amount",
            Role::Offset => "signed offset",
            Role::Selector => "byte selector",
        }
    }
    /// Whether the operand counts bits (position, length or shift amount).
    pub fn is_amount(self) -> bool {
        matches!(self, Role::Position | Role::Length | Role::Shift)
    }
}

/// How wide an operand's register is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WidthRule {
    /// A fixed number of bits (32 for most positions and amounts, 8 for `lop3`'s `immLut`).
    Bits(u8),
    /// The width of the first type written.
    Type,
    /// The width of the first type, doubled with `.wide` (at most 64 bits).
    Wide,
    /// The width of the second type written (`cvt`'s source type, `set`'s compared type), or
    /// the first's without one.
    Second,
    /// One of the braced parts packed into or split from the register (`mov`'s `{lo, hi}`):
    /// the first type's width over the number of parts, the whole type without braces.
    Part,
    /// One bit: a predicate.
    Pred,
}

impl WidthRule {
    /// The width in bits for a table instruction's form (which has no braced parts).
    #[inline]
    pub fn bits(self, form: &Form) -> u32 {
        let n = form.types[0].map_or(32, Type::bits);
        match self {
            WidthRule::Bits(b) => u32::from(b),
            WidthRule::Type | WidthRule::Part => n,
            WidthRule::Wide if form.half == Some(HalfMode::Wide) => (2 * n).min(64),
            WidthRule::Wide => n,
            WidthRule::Second => form.types[1].map_or(n, Type::bits),
            WidthRule::Pred => 1,
        }
    }
}

/// What decides whether an operand is read as signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignRule {
    /// Always unsigned (positions, lengths, masks).
    Unsigned,
    /// Always signed.
    Signed,
    /// The type written in slot `i`: for a table instruction an index into [`Form::types`],
    /// slot `i` of the syntax's [`super::Syntax::slots`]; for a program instruction 0 is its type and 1 its
    /// second type (`cvt`'s source type, `set`'s compared type).
    Slot(u8),
    /// Signed when either of the two type slots is (the `c` of `dp4a`/`dp2a`).
    Either(u8, u8),
    /// Signed when the type written in slot `i` is this one (`slct`'s `c` with `.s32`).
    SlotIs(u8, Type),
}

impl SignRule {
    /// Whether the operand is signed in a table instruction's form.
    #[inline]
    pub fn signed(self, form: &Form) -> bool {
        self.signed_with(|i| form.types.get(usize::from(i)).copied().flatten())
    }
    /// Whether the operand is signed, given the type written in each slot (`slot(i)`, `None`
    /// where none is): the rule read the same way for any instruction.
    #[inline]
    pub fn signed_with(self, slot: impl Fn(u8) -> Option<Type>) -> bool {
        let signed = |i: u8| slot(i).is_some_and(Type::is_signed);
        match self {
            SignRule::Unsigned => false,
            SignRule::Signed => true,
            SignRule::Slot(i) => signed(i),
            SignRule::Either(i, j) => signed(i) || signed(j),
            SignRule::SlotIs(i, t) => slot(i) == Some(t),
        }
    }
}

/// Whether an operand is read as a float, so that its immediates are float literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FloatRule {
    /// Never (every operand of the video and integer instructions).
    Never,
    /// When the type written in slot `i` is a float type (`setp.f32`'s `a` and `b`); slots
    /// are numbered as for [`SignRule::Slot`].
    Slot(u8),
    /// When the type written in slot `i` is this one (`slct`'s `c` with `.f32`).
    SlotIs(u8, Type),
}

impl FloatRule {
    /// Whether the operand is a float, given the type written in each slot (`None` where
    /// none is).
    #[inline]
    pub fn float_with(self, slot: impl Fn(u8) -> Option<Type>) -> bool {
        match self {
            FloatRule::Never => false,
            FloatRule::Slot(i) => slot(i).is_some_and(Type::is_float),
            FloatRule::SlotIs(i, t) => slot(i) == Some(t),
        }
    }
}

/// What may be written at an operand position besides a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PositionKind {
    /// A register; a source may also be an immediate where its [`ImmRule`] allows one (a
    /// float literal where it reads a float).
    Value,
    /// A destination that may be `_`, the result dropped (`lop3`'s `d`, which ptxas allows).
    Droppable,
    /// One of two predicate destinations written `p` or `p|q`, either one (not both) `_`
    /// (`setp`'s `p` and `q`); the first position's kind decides how the text is read.
    PredPair,
    /// An immediate only, never a register: the hint says what it holds (`lop3`'s `immLut`).
    Imm(&'static str),
    /// A register, or parts in braces packed into it or split from it (`mov`'s `d` and `a`).
    Parts,
}

/// Whether an immediate may stand in a position, and in what range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImmRule {
    /// Only a register.
    Never,
    /// Any value (reduced to the operand's width).
    Any,
    /// A value in `lo..=hi`.
    Range(i64, i64),
}

impl ImmRule {
    /// The rule in the shape the validator reads: `None` (no immediate), `Some(None)` (any),
    /// `Some(Some(range))`.
    pub fn as_option(self) -> Option<Option<(i64, i64)>> {
        match self {
            ImmRule::Never => None,
            ImmRule::Any => Some(None),
            ImmRule::Range(lo, hi) => Some(Some((lo, hi))),
        }
    }
}

/// One operand position of an instruction, of either table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OperandSpec {
    /// The name used throughout: `d`, `a`, `b`, `c`, `e`; `p`, `q`, `immLut`.
    pub name: &'static str,
    /// What may be written there.
    pub kind: PositionKind,
    /// What the operand means to the instruction.
    pub role: Role,
    /// How wide its register is.
    pub width: WidthRule,
    /// Whether it is read as signed.
    pub sign: SignRule,
    /// Whether it is read as a float.
    pub float: FloatRule,
    /// Which selectors it may carry.
    pub sel: SelRule,
    /// Whether an immediate may stand there.
    pub imm: ImmRule,
    /// ptxas accepts and ignores `.b01`, `.b12`, `.b23` here when the operand is 32 bits wide.
    pub loose: bool,
}

impl OperandSpec {
    /// A value operand of a width rule and sign rule, with no selector, taking any immediate.
    pub const fn value(name: &'static str, width: WidthRule, sign: SignRule) -> OperandSpec {
        OperandSpec {
            name,
            kind: PositionKind::Value,
            role: Role::Value,
            width,
            sign,
            float: FloatRule::Never,
            sel: SelRule::None,
            imm: ImmRule::Any,
            loose: false,
        }
    }
    /// The same rules under another name (`b` of a rule written for `a`).
    pub const fn named(mut self, name: &'static str) -> OperandSpec {
        self.name = name;
        self
    }
    /// With another kind.
    pub const fn kind(mut self, kind: PositionKind) -> OperandSpec {
        self.kind = kind;
        self
    }
    /// With a float rule.
    pub const fn float(mut self, float: FloatRule) -> OperandSpec {
        self.float = float;
        self
    }
    /// With another role.
    pub const fn role(mut self, role: Role) -> OperandSpec {
        self.role = role;
        self
    }
    /// With a selector rule.
    pub const fn sel(mut self, sel: SelRule) -> OperandSpec {
        self.sel = sel;
        self
    }
    /// With an immediate rule.
    pub const fn imm(mut self, imm: ImmRule) -> OperandSpec {
        self.imm = imm;
        self
    }
    /// Accepting the ignored `.b01`, `.b12`, `.b23` on 32-bit operands.
    pub const fn loose(mut self) -> OperandSpec {
        self.loose = true;
        self
    }
}

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
    pub fn accepts(self, sel: &Selector) -> bool {
        use SelKind::{B, H};
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
            SelRule::Lanes2 => vec![".hxy with x, y in 0-3 (e.g. .h10, .h32)".to_string()],
            SelRule::Lanes4 => {
                vec![".bxyzw with each digit in 0-7 (e.g. .b3210, .b7654)".to_string()]
            }
            _ => self.selectors().iter().map(Selector::to_string).collect(),
        }
    }
    /// Every selector this position takes, when they can be listed (scalar parts and masks);
    /// empty for the lane selectors, whose lanes are chosen one by one
    /// ([`super::lanes::pool_pick`]).
    pub fn selectors(self) -> Vec<Selector> {
        match self {
            SelRule::Scalar => (0..4)
                .map(|d| Selector::new(SelKind::B, &[d]))
                .chain((0..2).map(|d| Selector::new(SelKind::H, &[d])))
                .collect(),
            SelRule::Mask2 | SelRule::Mask4 => {
                let n = if self == SelRule::Mask2 { 2 } else { 4 };
                let kind = super::lanes::lane_kind(n);
                (1..(1u8 << n))
                    .map(|bits| {
                        let digits: Vec<u8> =
                            (0..n as u8).rev().filter(|l| bits >> l & 1 == 1).collect();
                        Selector::new(kind, &digits)
                    })
                    .collect()
            }
            _ => Vec::new(),
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

/// When an instruction's last listed source is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastSource {
    /// Always.
    Always,
    /// With a Boolean operation (`.and`, `.or`, `.xor`) only: the predicate `c` of `setp`
    /// and `set`.
    WithCombine,
    /// With the third type only: `cvt.pack`'s `c`, with the packed types narrower than 16
    /// bits.
    WithThirdType,
    /// When the text writes it: the video instructions' `c`, which the table's validator
    /// asks for where a secondary operation or a part of `d` reads it.
    Optional,
}

/// How an instruction uses the carry flag (`CC.CF`), which stands after its written
/// operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CarryUse {
    /// Not at all.
    None,
    /// Writes it, always (`add.cc`, `sub.cc`, `mad.cc`).
    Writes,
    /// Reads it, and writes it when `.cc` is written (`addc`, `subc`, `madc`).
    Reads,
}

/// The operand positions of a row of either table: every position that may be written
/// (`setp`'s `q` and `c`, `cvt.pack`'s `c`, the video instructions' `c`, are listed though
/// they may be left out; `mov`'s braced parts aside: a part past the end of a list takes the
/// list's last entry).
/// The carry flag, which the carry-chain rows read or write after their last written operand,
/// is not listed: it is one unsigned bit wherever it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Operands {
    /// The destinations, in order.
    pub dsts: &'static [OperandSpec],
    /// The sources, in order.
    pub srcs: &'static [OperandSpec],
    /// When the last source is written.
    pub last: LastSource,
    /// How the carry flag is used.
    pub carry: CarryUse,
    /// A data register wider than an operand serves it, and ptxas does not ignore the suffixes
    /// `.b01` ... on its registers (`cvt`, which converts from or to the register's low bits).
    pub wider: bool,
    /// It may read a special register (`%tid.x` ...), as ptxas allows `mov` and `cvt` alone.
    pub specials: bool,
}

impl Operands {
    /// Destination `i`'s rules.
    pub fn dst(&self, i: usize) -> OperandSpec {
        self.dsts[i.min(self.dsts.len() - 1)]
    }
    /// Source `i`'s rules.
    pub fn src(&self, i: usize) -> OperandSpec {
        self.srcs[i.min(self.srcs.len() - 1)]
    }
    /// A table row's positions: `d`, then the sources of `all`, of which `required` must be
    /// written (the others: the video instructions' `c`).
    pub const fn table(all: &'static [OperandSpec], required: usize) -> Operands {
        let Some((d, srcs)) = all.split_first() else {
            panic!("a table row lists d first")
        };
        Operands {
            dsts: std::slice::from_ref(d),
            srcs,
            last: if required == srcs.len() {
                LastSource::Always
            } else {
                LastSource::Optional
            },
            carry: CarryUse::None,
            wider: false,
            specials: false,
        }
    }
    /// The number of positions, destinations and sources.
    pub const fn len(&self) -> usize {
        self.dsts.len() + self.srcs.len()
    }
    /// Whether it has no position (no row is so).
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Position `p`: the destinations first, then the sources (`d` is 0 on the table).
    pub const fn at(&self, p: usize) -> Option<&'static OperandSpec> {
        let (dsts, srcs) = (self.dsts, self.srcs);
        if p < dsts.len() {
            Some(&dsts[p])
        } else if p - dsts.len() < srcs.len() {
            Some(&srcs[p - dsts.len()])
        } else {
            None
        }
    }
    /// Every position, the destinations first.
    pub fn iter(&self) -> impl Iterator<Item = &'static OperandSpec> {
        self.dsts.iter().chain(self.srcs)
    }
    /// The sources that are always written (the last is not where it is optional).
    pub fn required_sources(&self) -> usize {
        self.srcs.len() - usize::from(self.last == LastSource::Optional)
    }
    /// Whether braced parts may stand for an operand (`mov`).
    pub fn parts(&self) -> bool {
        self.dsts
            .iter()
            .chain(self.srcs)
            .any(|o| o.kind == PositionKind::Parts)
    }
}

/// The special registers a kernel reads, each with its width and the value it has when none is
/// given (`crate::program` gives them values; `mov` and `cvt` read them, `Operands::specials`).
pub const SPECIAL: &[(&str, u32, u64)] = &[
    ("%tid.x", 32, 0),
    ("%tid.y", 32, 0),
    ("%tid.z", 32, 0),
    ("%ntid.x", 32, 1),
    ("%ntid.y", 32, 1),
    ("%ntid.z", 32, 1),
    ("%ctaid.x", 32, 0),
    ("%ctaid.y", 32, 0),
    ("%ctaid.z", 32, 0),
    ("%nctaid.x", 32, 1),
    ("%nctaid.y", 32, 1),
    ("%nctaid.z", 32, 1),
    ("%tid.w", 32, 0),
    ("%ntid.w", 32, 0),
    ("%ctaid.w", 32, 0),
    ("%nctaid.w", 32, 0),
    ("%laneid", 32, 0),
    ("%warpid", 32, 0),
    ("%nwarpid", 32, 1),
    ("%smid", 32, 0),
    ("%nsmid", 32, 1),
    ("%gridid", 64, 0),
    ("%lanemask_eq", 32, 1),
    ("%lanemask_le", 32, 1),
    ("%lanemask_lt", 32, 0),
    ("%lanemask_ge", 32, 0xffff_ffff),
    ("%lanemask_gt", 32, 0xffff_fffe),
    ("%clock", 32, 0),
    ("%clock64", 64, 0),
    ("%globaltimer", 64, 0),
    ("%dynamic_smem_size", 32, 0),
    ("%total_smem_size", 32, 0),
];

/// Whether `name` is a special register with a dot: a component of `%tid`, `%ntid`, `%ctaid`
/// or `%nctaid` (`%tid.x`), the ones of [`SPECIAL`] an operand's suffix could be taken for.
pub fn is_dotted_special(name: &str) -> bool {
    matches!(
        name.split_once('.'),
        Some((
            "%tid" | "%ntid" | "%ctaid" | "%nctaid",
            "x" | "y" | "z" | "w"
        ))
    )
}
