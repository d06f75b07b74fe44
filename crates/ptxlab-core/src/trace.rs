//! The stage-by-stage trace of one evaluation, designed for display.
//!
//! Evaluators are generic over a [`Tracer`]. With [`NoTrace`] every `stage` call compiles to
//! nothing (the closure that builds the stage is never called), so evaluation without a trace
//! allocates nothing; with [`FlagSet`] only the stage's flags are kept; with [`Recorder`] each
//! stage is kept. All run the same code, and a flag is declared once, with its stage, so the
//! trace can never disagree with the fast answer or its flags.
//!
//! ```
//! use ptxlab_core::trace::{Flag, FlagSet, StageKind};
//! use ptxlab_core::{check, eval, evaluate_traced, Inputs};
//!
//! let insn = check("vadd.u32.u32.u32.sat d, a.b0, b.b0;").unwrap();
//! let inputs = Inputs::new(0xff, 0x01, 0, 0);
//! // Every stage, for display.
//! let t = evaluate_traced(&insn, &inputs);
//! let clamp = t.stages.iter().find(|s| s.kind == StageKind::Clamp).unwrap();
//! assert!(clamp.flags.is_empty(), "0xff + 1 fits the 32-bit destination");
//! assert_eq!(t.views.hex, "0x00000100");
//! // Only the notable events, without building any stage.
//! let mut flags = FlagSet::default();
//! eval::run(&insn, &inputs, &mut flags);
//! assert!(!flags.contains(Flag::ClampedHigh));
//! ```

use serde::{Deserialize, Serialize};

use crate::differences::{DiffId, Reading};

/// Receives stages from an evaluator.
///
/// A stage comes as the notable events it carries, each with its condition, and a closure that
/// builds it: the one place a flag is declared. [`Recorder`] builds the stage and puts the flags
/// that hold on it; [`FlagSet`] builds nothing and keeps the flags as a mask; [`NoTrace`] keeps
/// nothing. So a trace's stage flags and a batch's or sweep's flags are the same set by
/// construction, and no value may be computed inside the closure (quiet runs never call it).
pub trait Tracer {
    /// Whether stages are kept; evaluators may skip work that only feeds the trace.
    const ON: bool;
    /// Offer a stage carrying `flags` (each given with whether it holds); `build` makes the
    /// stage and is only called when stages are kept.
    fn stage<const N: usize>(&mut self, flags: [(bool, Flag); N], build: impl FnOnce() -> Stage);
}

/// The flags of `flags` that hold, as a mask of [`Flag::bit`].
#[inline(always)]
#[allow(clippy::needless_range_loop)] // See below.
pub(crate) fn mask_of<const N: usize>(flags: &[(bool, Flag); N]) -> u32 {
    let mut m = 0;
    // An index loop: the array's iterator stays a call in the size-optimised wasm build.
    for k in 0..N {
        let (on, f) = flags[k];
        if on {
            m |= f.bit();
        }
    }
    m
}

/// Keeps nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn stage<const N: usize>(&mut self, _flags: [(bool, Flag); N], _build: impl FnOnce() -> Stage) {
    }
}

/// Keeps every stage in order, with the flags that hold on each, and all of them as a mask.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    /// The stages offered so far, in order.
    pub stages: Vec<Stage>,
    /// Every flag that held on a stage offered so far, as a mask of [`Flag::bit`] (what a
    /// [`FlagSet`] collects from the same run).
    pub notes: u32,
    /// Whether the two readings' answers differ for this case (known before the run). A stage
    /// that [`Stage::differs_if`] marks keeps the mark only then: where the readings agree in
    /// the end, no step is shown as the place they part.
    pub answers_part: bool,
}

impl Recorder {
    /// A recorder for a case whose readings' answers differ (`answers_part`) or agree.
    pub fn new(answers_part: bool) -> Recorder {
        Recorder {
            answers_part,
            ..Recorder::default()
        }
    }
}

impl Tracer for Recorder {
    const ON: bool = true;
    fn stage<const N: usize>(&mut self, flags: [(bool, Flag); N], build: impl FnOnce() -> Stage) {
        let mut s = build();
        for (on, f) in flags {
            if on && !s.flags.contains(&f) {
                s.flags.push(f);
            }
        }
        self.notes |= mask_of(&flags);
        if !self.answers_part && s.difference.is_some() {
            s.flags.retain(|f| *f != Flag::HardwareDiffersFromText);
            s.difference = None;
        }
        self.stages.push(s);
    }
}

/// Collects only the flags, as a mask: what a sweep or batch needs per evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlagSet {
    /// The flags, as a mask of [`Flag::bit`].
    pub bits: u32,
}

impl FlagSet {
    /// Whether `f` is in the set.
    pub fn contains(self, f: Flag) -> bool {
        self.bits & f.bit() != 0
    }
    /// The flags in the set, in the order of [`Flag::ALL`].
    pub fn flags(self) -> impl Iterator<Item = Flag> {
        Flag::ALL.into_iter().filter(move |f| self.contains(*f))
    }
}

impl Tracer for FlagSet {
    const ON: bool = false;
    #[inline(always)]
    fn stage<const N: usize>(&mut self, flags: [(bool, Flag); N], _build: impl FnOnce() -> Stage) {
        self.bits |= mask_of(&flags);
    }
}

/// A value at some stage: a mathematical integer with the width and signedness it is held in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Val {
    /// Short name shown beside it: `a`, `ta`, `tmp`, `lane 2`, `d`...
    pub name: String,
    /// Width in bits of the container (33 for extended video operands, 34 for the intermediate).
    pub bits: u32,
    /// Whether `value` is read as signed.
    pub signed: bool,
    /// The value as an integer (already sign-interpreted when `signed`).
    #[serde(with = "i128_string")]
    pub value: i128,
}

impl Val {
    /// A value named `name`, held in `bits` bits, read as signed when `signed`.
    pub fn new(name: impl Into<String>, bits: u32, signed: bool, value: i128) -> Val {
        Val {
            name: name.into(),
            bits,
            signed,
            value,
        }
    }
    /// An unsigned register value of `bits` bits.
    pub fn reg(name: impl Into<String>, bits: u32, raw: u64) -> Val {
        Val::new(name, bits, false, (raw as u128 & mask128(bits)) as i128)
    }
    /// Two's complement bit pattern of the value in `bits` bits.
    pub fn raw(&self) -> u128 {
        (self.value as u128) & mask128(self.bits)
    }
    /// Hex of the bit pattern, zero-padded to the width, with `0x`.
    pub fn hex(&self) -> String {
        let digits = self.bits.div_ceil(4) as usize;
        format!("0x{:0digits$x}", self.raw())
    }
    /// Binary of the bit pattern, zero-padded to the width.
    pub fn binary(&self) -> String {
        let w = self.bits as usize;
        format!("{:0w$b}", self.raw())
    }
}

/// All ones in the low `bits` bits.
pub fn mask128(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// What kind of step a stage is; the UI picks a diagram by this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageKind {
    /// A source register as read.
    Read,
    /// A byte/half-word/word taken from a source and sign- or zero-extended.
    Extract,
    /// SIMD: the byte or half-word pool formed from `b:a`.
    Pool,
    /// The primary arithmetic operation.
    Operate,
    /// Multiplication (full product before anything is dropped).
    Product,
    /// Negation, complement or plus-one adjustments (`vmad`, `neg`).
    Adjust,
    /// Right shift that scales a result (`vmad .shr7/.shr15`).
    Scale,
    /// Saturation to a range.
    Clamp,
    /// Secondary `.add/.min/.max` with `c`.
    Secondary,
    /// Merge of a part of the result into `c` (scalar `d.bN/.hN`, SIMD mask).
    Merge,
    /// SIMD `.add`: lanes summed into `c`.
    Accumulate,
    /// A bit field: position and length (bfe, bfi, bmsk, szext).
    Field,
    /// A bit search or count (bfind, fns, clz, popc, brev).
    Search,
    /// Part of a wider value kept (`.hi`, `.lo`, truncation to the destination).
    Truncate,
    /// Comparison producing 1 or 0.
    Compare,
    /// Division and remainder.
    Divide,
    /// The value written to `d`.
    Result,
}

impl StageKind {
    /// Every kind, in declaration order.
    pub const ALL: [StageKind; 17] = [
        StageKind::Read,
        StageKind::Extract,
        StageKind::Pool,
        StageKind::Operate,
        StageKind::Product,
        StageKind::Adjust,
        StageKind::Scale,
        StageKind::Clamp,
        StageKind::Secondary,
        StageKind::Merge,
        StageKind::Accumulate,
        StageKind::Field,
        StageKind::Search,
        StageKind::Truncate,
        StageKind::Compare,
        StageKind::Divide,
        StageKind::Result,
    ];
    /// The name shown to people and used in JSON: `read`, `extract`, `product`...
    pub fn name(self) -> &'static str {
        match self {
            StageKind::Read => "read",
            StageKind::Extract => "extract",
            StageKind::Pool => "pool",
            StageKind::Operate => "operate",
            StageKind::Product => "product",
            StageKind::Adjust => "adjust",
            StageKind::Scale => "scale",
            StageKind::Clamp => "clamp",
            StageKind::Secondary => "secondary",
            StageKind::Merge => "merge",
            StageKind::Accumulate => "accumulate",
            StageKind::Field => "field",
            StageKind::Search => "search",
            StageKind::Truncate => "truncate",
            StageKind::Compare => "compare",
            StageKind::Divide => "divide",
            StageKind::Result => "result",
        }
    }
}

/// Something notable that happened in a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Flag {
    /// A narrower value was sign-extended (its top bit copied upwards).
    SignExtended,
    /// A narrower value was zero-extended.
    ZeroExtended,
    /// Clamped down to the maximum of the range.
    ClampedHigh,
    /// Clamped up to the minimum of the range.
    ClampedLow,
    /// Wrapped around (bits dropped, modular arithmetic).
    Wrapped,
    /// A shift amount or position was limited (`.clamp`).
    AmountClamped,
    /// A shift amount or position was reduced modulo the width (`.wrap`).
    AmountWrapped,
    /// A SIMD lane not in the mask: `d` takes that lane from elsewhere.
    MaskedOff,
    /// Division or remainder by zero (the hardware still writes a defined value).
    DivideByZero,
    /// A value was negated (`vmad` with `-a`, `neg`).
    Negated,
    /// One was added (`vmad .po`).
    PlusOne,
    /// A search found nothing.
    NotFound,
    /// The hardware differs from a literal reading of the ISA text here, and the answer
    /// differs because of it.
    HardwareDiffersFromText,
}

impl Flag {
    /// Every flag, in declaration order ([`Flag::bit`] is `1 << index`).
    pub const ALL: [Flag; 13] = [
        Flag::SignExtended,
        Flag::ZeroExtended,
        Flag::ClampedHigh,
        Flag::ClampedLow,
        Flag::Wrapped,
        Flag::AmountClamped,
        Flag::AmountWrapped,
        Flag::MaskedOff,
        Flag::DivideByZero,
        Flag::Negated,
        Flag::PlusOne,
        Flag::NotFound,
        Flag::HardwareDiffersFromText,
    ];
    /// This flag's bit in a mask ([`FlagSet`], sweep cells).
    #[inline(always)]
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }
    /// The flag in words, for people: `clamped high`, `hardware differs from text`...
    pub fn label(self) -> &'static str {
        match self {
            Flag::SignExtended => "sign extended",
            Flag::ZeroExtended => "zero extended",
            Flag::ClampedHigh => "clamped high",
            Flag::ClampedLow => "clamped low",
            Flag::Wrapped => "wrapped",
            Flag::AmountClamped => "amount clamped",
            Flag::AmountWrapped => "amount wrapped",
            Flag::MaskedOff => "masked off",
            Flag::DivideByZero => "divide by zero",
            Flag::Negated => "negated",
            Flag::PlusOne => "plus one",
            Flag::NotFound => "not found",
            Flag::HardwareDiffersFromText => "hardware differs from text",
        }
    }
    /// The name used in JSON and CSV: `clamped-high`, `masked-off`...
    pub fn name(self) -> &'static str {
        match self {
            Flag::SignExtended => "sign-extended",
            Flag::ZeroExtended => "zero-extended",
            Flag::ClampedHigh => "clamped-high",
            Flag::ClampedLow => "clamped-low",
            Flag::Wrapped => "wrapped",
            Flag::AmountClamped => "amount-clamped",
            Flag::AmountWrapped => "amount-wrapped",
            Flag::MaskedOff => "masked-off",
            Flag::DivideByZero => "divide-by-zero",
            Flag::Negated => "negated",
            Flag::PlusOne => "plus-one",
            Flag::NotFound => "not-found",
            Flag::HardwareDiffersFromText => "hardware-differs-from-text",
        }
    }
}

/// Extra data that lets the UI draw a stage as a diagram rather than only numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Detail {
    #[default]
    /// No diagram: numbers only.
    None,
    /// A field of `source` (bits `lo .. lo+width`) extended to `out_bits`; the bits above the
    /// field are copies of its top bit when `signed`, zeros otherwise.
    Field {
        /// The register the field comes from.
        source: u64,
        /// Width of that register in bits.
        source_bits: u32,
        /// First bit of the field.
        lo: u32,
        /// Width of the field in bits.
        width: u32,
        /// Whether the bits above the field copy its top bit (sign extension).
        signed: bool,
        /// Width of the extended value.
        out_bits: u32,
    },
    /// A clamp: the range and where the value fell.
    Range {
        #[serde(with = "i128_string")]
        /// The smallest value of the range.
        min: i128,
        #[serde(with = "i128_string")]
        /// The largest value of the range.
        max: i128,
    },
    /// Lanes of `d`: which come from the result and which from another operand.
    Merge {
        /// Width of one lane in bits (8 or 16; 32 for a scalar merge of the whole word).
        lane_bits: u32,
        /// One entry per lane of `d`, least significant first: true when it comes from the result.
        from_result: Vec<bool>,
        /// The operand the other lanes come from (`c`, or `b` for some SIMD forms).
        other: String,
        /// Whether a lane taken from the result comes from the result's lowest lane (a scalar
        /// video merge into a byte or `d.h0`, and the ISA text's `d.h1`), rather than from the
        /// same position (SIMD lanes, the H100's `d.h1`).
        #[serde(default)]
        moved: bool,
    },
    /// SIMD pool: the 8 bytes (or 4 half-words) of `b:a`, and which pool entry each lane took.
    Pool {
        /// Width of one pool entry in bits (8 or 16).
        lane_bits: u32,
        /// Pool entries, least significant first (entries 0-3 from `a`, 4-7 from `b` for bytes).
        entries: Vec<u64>,
        /// For each lane of the first operand (least significant first), the pool index chosen.
        picks_a: Vec<u8>,
        /// The same for the second operand.
        picks_b: Vec<u8>,
    },
    /// A product: how wide it is in full and which bits are kept.
    Product {
        /// Width of the full product in bits.
        full_bits: u32,
        /// First bit kept.
        kept_lo: u32,
        /// Number of bits kept.
        kept_bits: u32,
    },
    /// The inputs combined bit by bit, some read inverted (`lop3`'s truth-table rows,
    /// `a & ~b & c`): the figure draws a tap from each.
    Terms {
        /// One entry per input, in the stage's order: whether it is read inverted (`~b`).
        inverted: Vec<bool>,
    },
}

/// One step of an evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stage {
    /// What kind of step this is.
    pub kind: StageKind,
    /// The SIMD lane (least significant = 0) or byte this stage is about, if any.
    pub lane: Option<u8>,
    /// A short description in words: "a.b1 zero-extended to 33 bits".
    pub label: String,
    /// The operation as a formula over the input names: "ta + tb".
    pub op: String,
    /// The values the step reads.
    pub inputs: Vec<Val>,
    /// The value the step produces.
    pub output: Val,
    /// Notable events of the step.
    pub flags: Vec<Flag>,
    /// What the UI needs to draw the step as a diagram.
    pub detail: Detail,
    /// How each bit of the output depends on the inputs' bits, said where the stage is made:
    /// what bit provenance reads (never the formula's text).
    #[serde(default, skip_serializing_if = "Flow::is_all")]
    pub flow: Flow,
    /// Values, by name, the step reads without listing them as inputs (a shift's amount, a
    /// field's position, a selector): every output bit depends on all of their bits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// Where the stage carries [`Flag::HardwareDiffersFromText`]: the entry of
    /// `docs/hardware-vs-spec.md` that explains the difference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difference: Option<DiffId>,
}

/// How each bit of a stage's output depends on the bits of its inputs (and of the values it
/// names in [`Stage::also`]), one bit flipped at a time with the others as they are: a flip of
/// an input bit the rule leaves out does not change the output bit. A lane merge left at the
/// default follows its [`Detail::Merge`] instead; the other diagrams are drawn only (a
/// [`Detail::Field`] may show the result itself, as `bmsk`'s mask does), so a field of the
/// first input says so with [`Flow::field`] and a pool with [`Flow::Concat`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum Flow {
    /// Every output bit depends on every bit of every input: comparisons, clamps, minimum and
    /// maximum, searches, divisions, anything whose path a bit can change. The safe default.
    #[default]
    All,
    /// Each output bit depends on the same bit of each input: bitwise logic.
    Bitwise,
    /// Each output bit depends on the bits at and below it of each input (a carry only travels
    /// upwards): sums, differences, products, negation.
    Carry,
    /// Output bit `b` is bit `b + shift` of the first input (`shift` below zero: a left shift)
    /// when that bit is below `top` (the input's width when `None`); above it, a copy of bit
    /// `top - 1` when `sign`, else nothing. The other inputs count wholly. Extensions
    /// (`shift` 0), truncations, parts and lanes at a known place, shifts by a known amount.
    Take {
        /// How far down the input's bits move (negative: up).
        shift: i32,
        /// The first bit past the part taken; the input's width when `None`.
        top: Option<u32>,
        /// Whether the bits above the part copy its top bit.
        sign: bool,
    },
    /// Output bit `b` is bit `w - 1 - b` of the first input (`w` its width): a bit reversal.
    Reverse,
    /// The listed inputs side by side, the first in the lowest bits: output bit `b` is the bit
    /// of the input it falls in, counted from that input's place (a pool `b:a`, a packed pair).
    Concat,
}

impl Flow {
    /// Whether it is the default, [`Flow::All`].
    pub fn is_all(&self) -> bool {
        *self == Flow::All
    }
    /// The first input as it is, extended: its top bit copied above it when `sign`.
    pub fn extend(sign: bool) -> Flow {
        Flow::shifted(0, sign)
    }
    /// The whole first input moved down by `by` bits (up when `by` is negative), its top bit
    /// copied above it when `sign`: a shift by a known amount.
    pub fn shifted(by: i32, sign: bool) -> Flow {
        Flow::Take {
            shift: by,
            top: None,
            sign,
        }
    }
    /// Bits `lo ..= hi` of the first input, the top one copied above when `sign`.
    pub fn bits(lo: u32, hi: u32, sign: bool) -> Flow {
        Flow::field(lo, hi + 1 - lo, sign)
    }
    /// The field of `width` bits from bit `lo` of the first input, its top bit copied above
    /// when `sign` (nothing taken when `width` is 0): what a [`Detail::Field`] of the first
    /// input draws.
    pub fn field(lo: u32, width: u32, sign: bool) -> Flow {
        if width == 0 {
            // An empty field: nothing is taken, nothing is copied.
            return Flow::Take {
                shift: 0,
                top: Some(0),
                sign: false,
            };
        }
        Flow::Take {
            shift: lo as i32,
            top: Some(lo + width),
            sign,
        }
    }
}

/// How a saturation stage limits its input: one description from which the stage's formula,
/// its diagram's range and (checked in debug builds) its output all follow, so the three cannot
/// drift apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saturation {
    /// `clamp(x, lo, hi)`.
    Range {
        /// The smallest value kept.
        lo: i128,
        /// The largest value kept.
        hi: i128,
    },
    /// `max(x, lo)`: nothing is limited above; the diagram draws the range up to `shown_max`.
    Floor {
        /// The smallest value kept.
        lo: i128,
        /// The top of the range the diagram draws (not a limit).
        shown_max: i128,
    },
    /// A value outside `0..=0xffffffff` (a negative one too) counts as `0xffffffff`, then the
    /// smaller of that and `max` is kept: the hardware's saturation before a byte or half-word
    /// merge.
    OutsideToTop {
        /// The lane's maximum.
        max: i128,
    },
}

impl Saturation {
    /// The value the rule gives for `x`.
    pub fn apply(self, x: i128) -> i128 {
        match self {
            Saturation::Range { lo, hi } => x.clamp(lo, hi),
            Saturation::Floor { lo, .. } => x.max(lo),
            Saturation::OutsideToTop { max } => {
                let w = if (0..=0xffff_ffff).contains(&x) {
                    x
                } else {
                    0xffff_ffff
                };
                w.min(max)
            }
        }
    }
    /// The rule as a formula over the input's name.
    pub fn formula(self, x: &str) -> String {
        match self {
            Saturation::Range { lo, hi } => format!("clamp({x}, {lo}, {hi})"),
            Saturation::Floor { lo, .. } => format!("max({x}, {lo})"),
            Saturation::OutsideToTop { max } => {
                format!("min({x} outside 0..0xffffffff ? 0xffffffff : {x}, {max})")
            }
        }
    }
    /// The range the diagram draws.
    pub fn detail(self) -> Detail {
        let (min, max) = match self {
            Saturation::Range { lo, hi } => (lo, hi),
            Saturation::Floor { lo, shown_max } => (lo, shown_max),
            Saturation::OutsideToTop { max } => (0, max),
        };
        Detail::Range { min, max }
    }
}

impl Stage {
    /// With the saturation `sat` applied to `input`: the formula, the input and the diagram's
    /// range, all from `sat`. In debug builds (the tests), the stage's output must be what `sat`
    /// gives for the input.
    pub fn saturate(self, sat: Saturation, input: Val) -> Stage {
        // The output is compared as its container holds it (a lane may show a clamped
        // negative value as its unsigned bits).
        debug_assert_eq!(
            sat.apply(input.value) as u128 & mask128(self.output.bits),
            self.output.value as u128 & mask128(self.output.bits),
            "the stage '{}' does not compute its own formula",
            self.label
        );
        let op = sat.formula(&input.name);
        self.op(op).input(input).detail(sat.detail())
    }
    /// A stage of `kind` described by `label` producing `output`, with no inputs, flags or diagram yet.
    pub fn new(kind: StageKind, label: impl Into<String>, output: Val) -> Stage {
        Stage {
            kind,
            lane: None,
            label: label.into(),
            op: String::new(),
            inputs: Vec::new(),
            output,
            flags: Vec::new(),
            detail: Detail::None,
            flow: Flow::All,
            also: Vec::new(),
            difference: None,
        }
    }
    /// With how its output bits depend on its inputs' (see [`Flow`]).
    pub fn flow(mut self, f: Flow) -> Stage {
        self.flow = f;
        self
    }
    /// With values it reads without listing them as inputs, by name (see [`Stage::also`]).
    pub fn also<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Stage {
        self.also.extend(names.into_iter().map(Into::into));
        self
    }
    /// With the operation written as a formula over the input names.
    pub fn op(mut self, op: impl Into<String>) -> Stage {
        self.op = op.into();
        self
    }
    /// With one more input.
    pub fn input(mut self, v: Val) -> Stage {
        self.inputs.push(v);
        self
    }
    /// With more inputs.
    pub fn inputs(mut self, v: impl IntoIterator<Item = Val>) -> Stage {
        self.inputs.extend(v);
        self
    }
    /// Marked as read sign-extended (`signed`) or zero-extended. A descriptive mark of the stage
    /// alone: it says how an operand of the form's type is read (every `.s32` operand is read
    /// sign-extended), not an event of this case, so it is not offered to the tracer as a flag
    /// and a batch's or sweep's flags do not carry it.
    pub fn extended(self, signed: bool) -> Stage {
        self.extended_if(true, signed)
    }
    /// [`Stage::extended`] when `cond` holds.
    pub fn extended_if(mut self, cond: bool, signed: bool) -> Stage {
        let f = if signed {
            Flag::SignExtended
        } else {
            Flag::ZeroExtended
        };
        if cond && !self.flags.contains(&f) {
            self.flags.push(f);
        }
        self
    }
    /// When `cond` holds: the hardware departs from the ISA text at this stage, as entry `id`
    /// of `docs/hardware-vs-spec.md` explains (flag and entry together).
    pub fn differs_if(mut self, cond: bool, id: DiffId) -> Stage {
        if cond {
            if !self.flags.contains(&Flag::HardwareDiffersFromText) {
                self.flags.push(Flag::HardwareDiffersFromText);
            }
            if self.difference.is_none() {
                self.difference = Some(id);
            }
        }
        self
    }
    /// About SIMD lane `lane`.
    pub fn lane(mut self, lane: u8) -> Stage {
        self.lane = Some(lane);
        self
    }
    /// With a diagram.
    pub fn detail(mut self, d: Detail) -> Stage {
        self.detail = d;
        self
    }
}

/// The four ways the final value is shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Views {
    /// Hex, zero-padded to the width: `0x0000ff25`.
    pub hex: String,
    /// Unsigned decimal.
    pub unsigned: String,
    /// Signed decimal (two's complement in the width).
    pub signed: String,
    /// Binary, zero-padded to the width.
    pub binary: String,
}

impl Views {
    /// The views of the low `bits` bits of `raw`.
    pub fn of(raw: u64, bits: u32) -> Views {
        let m = mask128(bits) as u64;
        let u = raw & m;
        let s = i128::from(crate::bits::sext(u, bits));
        let v = Val::new("", bits, false, u as i128);
        Views {
            hex: v.hex(),
            unsigned: u.to_string(),
            signed: s.to_string(),
            binary: v.binary(),
        }
    }
}

/// A whole evaluation: what was computed, how, and the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// The instruction in canonical form.
    pub instruction: String,
    /// The opcode's name: `vadd`, `mad`.
    pub opcode: String,
    /// The opcode's family.
    pub family: crate::isa::Family,
    /// Source values as read (only the operands the instruction reads).
    pub sources: Vec<Val>,
    /// Every stage, in order (the sources as read first).
    pub stages: Vec<Stage>,
    /// What is written to `d`.
    pub result: Val,
    /// `d` in hex, unsigned, signed and binary.
    pub views: Views,
    /// Link to the instruction's section of NVIDIA's documentation.
    pub doc_url: String,
    /// Which reading produced it: the H100's, or the ISA text's taken literally.
    #[serde(default)]
    pub reading: Reading,
    /// The GPU whose measured values these equal: the row's ([`crate::isa::Row::measured`]) for
    /// the hardware's reading; `None` for the ISA text's literal reading or an unmeasured row.
    #[serde(default)]
    pub measured: Option<crate::isa::Gpu>,
}

mod i128_string {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &i128, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saturation_gives_its_formula_range_and_value_from_one_description() {
        let lane = Saturation::OutsideToTop { max: 0x7f };
        assert_eq!(lane.apply(-38), 0x7f);
        assert_eq!(lane.apply(5), 5);
        assert_eq!(lane.apply(0x1_0000_0000), 0x7f);
        let floor = Saturation::Floor {
            lo: 0,
            shown_max: (1 << 33) - 1,
        };
        assert_eq!(floor.apply(0x1_0000_0026), 0x1_0000_0026);
        assert_eq!(floor.apply(-1), 0);
        let s32 = Saturation::Range {
            lo: -(1 << 31),
            hi: (1 << 31) - 1,
        };
        assert_eq!(s32.formula("tmp"), "clamp(tmp, -2147483648, 2147483647)");
        let st = Stage::new(StageKind::Clamp, "x", Val::new("d", 32, true, 0x7fff_ffff))
            .saturate(s32, Val::new("tmp", 64, true, 1 << 40));
        assert_eq!(st.op, "clamp(tmp, -2147483648, 2147483647)");
        assert_eq!(
            st.detail,
            Detail::Range {
                min: -(1 << 31),
                max: (1 << 31) - 1
            }
        );
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "does not compute its own formula")]
    fn a_stage_whose_output_is_not_its_formula_fails_in_tests() {
        // clamp(-38, 0, 127) is 0, not 127: the lane rule is OutsideToTop, not a range.
        let _ = Stage::new(StageKind::Clamp, "wrong", Val::new("tmp", 32, false, 0x7f)).saturate(
            Saturation::Range { lo: 0, hi: 0x7f },
            Val::new("tmp", 34, true, -38),
        );
    }

    #[test]
    fn views_read_width() {
        let v = Views::of(0xff, 8);
        assert_eq!(v.hex, "0xff");
        assert_eq!(v.unsigned, "255");
        assert_eq!(v.signed, "-1");
        assert_eq!(v.binary, "11111111");
        let w = Views::of(0x8000_0000_0000_0000, 64);
        assert_eq!(w.signed, i64::MIN.to_string());
    }

    #[test]
    fn val_hex_of_negative_34_bit() {
        let v = Val::new("tmp", 34, true, -1);
        assert_eq!(v.hex(), "0x3ffffffff");
    }
}
