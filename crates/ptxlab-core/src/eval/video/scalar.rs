//! The scalar video instructions: `vadd`, `vsub`, `vabsdiff`, `vmin`, `vmax`, `vshl`, `vshr`
//! and `vset`.

use super::{outside, read_part, src_sel, CmpBits, Part, M32, S32_MAX, S32_MIN, U32_MAX};
use crate::ast::{ClampMode, Cmp, Instruction, SecOp, Selector};
use crate::bits::{clamp_i64, field, int_range, sext};
use crate::differences::DiffId;
use crate::eval::semantics::Semantics;
use crate::isa::{Operation, ScalarOp};
use crate::trace::{Detail, Flag, Flow, Saturation, Stage, StageKind, Tracer, Val};

/// The primary operation of a scalar instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prim {
    Add,
    Sub,
    Absdiff,
    Min,
    Max,
    Shl,
    Shr,
    Set(Cmp),
}

impl Prim {
    fn of(op: ScalarOp, insn: &Instruction) -> Prim {
        match op {
            ScalarOp::Add => Prim::Add,
            ScalarOp::Sub => Prim::Sub,
            ScalarOp::Absdiff => Prim::Absdiff,
            ScalarOp::Min => Prim::Min,
            ScalarOp::Max => Prim::Max,
            ScalarOp::Shl => Prim::Shl,
            ScalarOp::Shr => Prim::Shr,
            // A comparison written without its `.cmp` is invalid; read it as `.eq`.
            ScalarOp::Set => Prim::Set(insn.form.cmp.unwrap_or(Cmp::Eq)),
        }
    }
    /// The operation, without `vset`'s comparison.
    fn op(self) -> ScalarOp {
        match self {
            Prim::Add => ScalarOp::Add,
            Prim::Sub => ScalarOp::Sub,
            Prim::Absdiff => ScalarOp::Absdiff,
            Prim::Min => ScalarOp::Min,
            Prim::Max => ScalarOp::Max,
            Prim::Shl => ScalarOp::Shl,
            Prim::Shr => ScalarOp::Shr,
            Prim::Set(_) => ScalarOp::Set,
        }
    }
    fn is_shift(self) -> bool {
        matches!(self, Prim::Shl | Prim::Shr)
    }
    fn word_only(self, sat: bool) -> bool {
        word_only(self.op(), sat)
    }
    /// How the primary operation's bits depend on `ta` and `tb` (`n`, the shift amount).
    fn flow(self, n: i64) -> Flow {
        match self {
            Prim::Add | Prim::Sub => Flow::Carry,
            // ta is sign-extended to 33 bits, so the bits shifted past its top copy its bit 32.
            Prim::Shl => Flow::shifted(-(n as i32), true),
            Prim::Shr => Flow::shifted(n as i32, true),
            Prim::Absdiff | Prim::Min | Prim::Max | Prim::Set(_) => Flow::All,
        }
    }
    fn formula(self) -> String {
        match self {
            Prim::Add => "ta + tb",
            Prim::Sub => "ta - tb",
            Prim::Absdiff => "|ta - tb|",
            Prim::Min => "min(ta, tb)",
            Prim::Max => "max(ta, tb)",
            Prim::Shl => "ta << n",
            Prim::Shr => "ta >> n",
            Prim::Set(c) => return format!("ta {} tb ? 1 : 0", c.symbol()),
        }
        .to_string()
    }
}

/// Shift amount after `.clamp` (at most 32) or `.wrap` (modulo 32).
fn shift_amount<T: Tracer>(raw: u64, sel: Option<&Selector>, mode: ClampMode, t: &mut T) -> u32 {
    let p = Part::of(sel);
    let b = field(raw, p.lo, p.width);
    let n = match mode {
        ClampMode::Clamp => b.min(32) as u32,
        ClampMode::Wrap => (b & 31) as u32,
    };
    let flag = match mode {
        ClampMode::Clamp => Flag::AmountClamped,
        ClampMode::Wrap => Flag::AmountWrapped,
    };
    t.stage([(u64::from(n) != b, flag)], || {
        let (label, op) = match mode {
            ClampMode::Clamp => ("shift amount limited to 32 (.clamp)", "min(tb, 32)"),
            ClampMode::Wrap => ("shift amount taken modulo 32 (.wrap)", "tb & 0x1f"),
        };
        Stage::new(
            StageKind::Adjust,
            label,
            Val::new("n", 6, false, i128::from(n)),
        )
        .op(op)
        .input(Val::new("tb", 33, true, i128::from(b)))
    });
    n
}

/// Whether the hardware keeps only the low 32 bits of the saturated intermediate
/// (sign-extended) for the secondary operation, rather than the whole value. The evaluator and
/// the plans (`plan::video`) both read it here.
#[inline(always)]
pub(crate) fn word_only(op: ScalarOp, sat: bool) -> bool {
    matches!(op, ScalarOp::Add | ScalarOp::Sub)
        || (matches!(op, ScalarOp::Shl | ScalarOp::Shr) && sat)
}

/// The primary operation on the extended operands. For shifts `tb` is the shift amount.
/// The value is exact, except that `vshl` keeps 64 bits (the hardware's width), read as signed.
#[inline]
fn primary(p: Prim, ta: i64, tb: i64) -> i64 {
    // Each arm names its operation as a constant, so `primary_of` folds to that operation's
    // line (no comparison is read but by `vset`).
    let none = CmpBits::NONE;
    match p {
        Prim::Add => primary_of(ScalarOp::Add, none, ta, tb),
        Prim::Sub => primary_of(ScalarOp::Sub, none, ta, tb),
        Prim::Absdiff => primary_of(ScalarOp::Absdiff, none, ta, tb),
        Prim::Min => primary_of(ScalarOp::Min, none, ta, tb),
        Prim::Max => primary_of(ScalarOp::Max, none, ta, tb),
        Prim::Shl => primary_of(ScalarOp::Shl, none, ta, tb),
        Prim::Shr => primary_of(ScalarOp::Shr, none, ta, tb),
        Prim::Set(c) => primary_of(ScalarOp::Set, CmpBits::of(c), ta, tb),
    }
}

/// [`primary`] of the operation `op` (`cmp` for `vset`): the one definition of the primary
/// arithmetic, which the plans' kernels (`plan::video`) run too, with `op` a constant there.
#[inline(always)]
pub(crate) fn primary_of(op: ScalarOp, cmp: CmpBits, ta: i64, tb: i64) -> i64 {
    match op {
        ScalarOp::Add => ta + tb,
        ScalarOp::Sub => ta - tb,
        ScalarOp::Absdiff => (ta - tb).abs(),
        ScalarOp::Min => ta.min(tb),
        ScalarOp::Max => ta.max(tb),
        // The amount is at most 32 and ta fits in 33 bits: nothing is lost below bit 64.
        ScalarOp::Shl => ((ta as u64) << (tb & 63)) as i64,
        ScalarOp::Shr => ta >> (tb & 63),
        ScalarOp::Set => cmp.test(ta, tb),
    }
}

/// Saturation of a whole-word result (no merge), as the hardware does it. Returns the value the
/// secondary operation sees (before any reduction to the low word).
///
/// Signed: clamp to the s32 range. Unsigned: shifts clamp to `0..=U32_MAX`; the other
/// operations only raise negative values to 0 and leave values above `U32_MAX` as they are,
/// so only their low 32 bits reach `d`.
#[inline]
fn saturate_word(p: Prim, tmp: i64, dsig: bool) -> i64 {
    let x = if p.is_shift() {
        sext(tmp as u64, 34)
    } else {
        tmp
    };
    let (lo, hi) = word_bounds(p.is_shift(), dsig);
    clamp_i64(x, lo, hi)
}

/// The bounds of [`saturate_word`]: the s32 range for a signed result, `0..=U32_MAX` for an
/// unsigned shift, and only a floor of 0 for the other unsigned results. The plans
/// (`plan::video`) decode them once from here.
#[inline(always)]
pub(crate) fn word_bounds(shift: bool, dsig: bool) -> (i64, i64) {
    match (dsig, shift) {
        (true, _) => (S32_MIN, S32_MAX),
        (false, true) => (0, U32_MAX),
        (false, false) => (0, i64::MAX),
    }
}

/// The text's saturation: clamp to the range of the destination (or of its byte/half-word).
fn saturate_text(tmp: i64, dsig: bool, lane_bits: u32) -> i64 {
    let (lo, hi) = int_range(lane_bits, dsig);
    clamp_i64(tmp, lo, hi)
}

/// Saturation before a merge into a byte or half-word of `c`, as the hardware does it.
///
/// Shifts clamp to the 32-bit range of the destination type; the lane then takes the low bits.
/// The other operations treat any value outside `0..2^32` (negative ones included) as the
/// largest value, then take the unsigned minimum with the lane's maximum: a negative result
/// saturates to 0x7f/0x7fff (signed) or 0xff/0xffff (unsigned).
#[inline]
fn saturate_lane(p: Prim, tmp: i64, dsig: bool, lane_bits: u32) -> u64 {
    let orig = if p.is_shift() {
        sext(tmp as u64, 34)
    } else {
        tmp
    };
    lane_saturation(
        p.is_shift(),
        orig,
        dsig,
        int_range(lane_bits, dsig).1 as u64,
    )
    .x
}

/// What the hardware's saturation before a merge gives ([`saturate_lane`]): the value `x` the
/// merge takes, the clamp's value `val` read in its range, and that range (`lo`, `hi`), which
/// say whether and at which end it clamped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneSat {
    /// The value the merge takes (32 bits).
    pub(crate) x: u64,
    /// The clamp's value in its range: the 32-bit range of `d` for a shift, `0..=lane_max`
    /// for the others.
    pub(crate) val: i64,
    /// The range's low end.
    pub(crate) lo: i64,
    /// The range's high end.
    pub(crate) hi: i64,
}

impl LaneSat {
    /// Whether it clamped `orig` (the intermediate, wrapped to 34 bits for a shift) to the
    /// high end, and to the low end: the flags `ClampedHigh` and `ClampedLow`.
    #[inline(always)]
    pub(crate) fn clamped(self, orig: i64) -> (bool, bool) {
        let moved = self.val != orig;
        (moved && self.val == self.hi, moved && self.val == self.lo)
    }
}

/// The hardware's saturation before a merge, with the lane's maximum decoded once
/// (`int_range(lane_bits, dsig).1`): the evaluator and the plans (`plan::video`) both run it.
/// `orig` is the intermediate, wrapped to 34 bits for a shift. Shifts clamp it to the 32-bit
/// range of `d`; the others send anything outside `0..2^32` to the top, then take the
/// unsigned minimum with the lane's maximum.
#[inline(always)]
pub(crate) fn lane_saturation(shift: bool, orig: i64, dsig: bool, lane_max: u64) -> LaneSat {
    if shift {
        let (lo, hi) = int_range(32, dsig);
        let val = orig.clamp(lo, hi);
        LaneSat {
            x: val as u64 & M32,
            val,
            lo,
            hi,
        }
    } else {
        let x = if (0..=U32_MAX).contains(&orig) {
            orig as u64
        } else {
            M32
        };
        let x = x.min(lane_max);
        LaneSat {
            x,
            val: x as i64,
            lo: 0,
            hi: lane_max as i64,
        }
    }
}

/// The secondary operation with `c`. `r` is the (saturated) intermediate as the hardware holds
/// it; `signed` is the signedness of the comparison (the destination type's; for `vset`, the
/// first source type's). min/max compare 64-bit values: `r` against `c` sign- or
/// zero-extended.
/// The plans' kernels (`plan::video`) run it too.
#[inline(always)]
pub(crate) fn secondary(op: SecOp, r: i64, c: u64, signed: bool) -> u64 {
    match op {
        SecOp::Add => (r as u64).wrapping_add(c) & M32,
        SecOp::Min | SecOp::Max => {
            let pick_r = if signed {
                let cs = sext(c, 32);
                if op == SecOp::Min {
                    r <= cs
                } else {
                    r >= cs
                }
            } else {
                let ru = r as u64;
                let cu = c & M32;
                if op == SecOp::Min {
                    ru <= cu
                } else {
                    ru >= cu
                }
            };
            if pick_r {
                r as u64 & M32
            } else {
                c & M32
            }
        }
    }
}

/// The text's secondary operation: mathematical min/max/sum of the intermediate and `c`
/// extended by the destination's signedness (`vset`: unsigned).
fn secondary_text(op: SecOp, r: i64, c: u64, signed: bool) -> u64 {
    let cv = if signed {
        sext(c, 32)
    } else {
        (c & M32) as i64
    };
    let x = match op {
        SecOp::Add => r.wrapping_add(cv),
        SecOp::Min => r.min(cv),
        SecOp::Max => r.max(cv),
    };
    x as u64 & M32
}

/// Merge of the saturated result `x` into `c` at `part` (byte lanes or half-words).
///
/// Bytes and `.h0` take the low bits of `x`, moved to the lane. `.h1` takes bits 16-31 of `x`
/// where they are: `d = (x & 0xffff0000) | (c & 0xffff)`.
/// The plans' kernels (`plan::video`) run it too.
#[inline(always)]
pub(crate) fn merge(x: u64, c: u64, part: Part) -> u64 {
    if part.width == 16 && part.lo == 16 {
        (x & 0xffff_0000) | (c & 0xffff)
    } else {
        let lane = (1u64 << part.width) - 1;
        let m = lane << part.lo;
        ((x & lane) << part.lo) | (c & !m & M32)
    }
}

/// The text's merge: the low bits of the result moved to the lane.
fn merge_text(x: u64, c: u64, part: Part) -> u64 {
    let lane = (1u64 << part.width) - 1;
    let m = lane << part.lo;
    ((x & lane) << part.lo) | (c & !m & M32)
}

/// `vadd vsub vabsdiff vmin vmax vshl vshr vset`; 0 for an instruction of another family.
pub fn eval_scalar<S: Semantics, T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    match insn.operation() {
        Some(Operation::Scalar(op)) => eval_op::<S, T>(op, insn, v, t),
        Some(Operation::Vmad | Operation::Simd2(_) | Operation::Simd4(_) | Operation::Int(_))
        | None => 0,
    }
}

/// [`eval_scalar`] of the operation `op`, as the family's dispatch reads it.
pub(crate) fn eval_op<S: Semantics, T: Tracer>(
    op: ScalarOp,
    insn: &Instruction,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    let f = &insn.form;
    let p = Prim::of(op, insn);
    let set = matches!(p, Prim::Set(_));
    let shift = p.is_shift();
    // Signedness of the secondary operation (c's sign rule: dtype, or for vset, which has no
    // destination type, atype as the hardware does), of a and of b, from the row.
    let sg = insn.signs();
    let (dsig, asig, bsig) = (sg & 8 != 0, sg & 2 != 0, sg & 4 != 0);
    let sat = f.sat && !set;
    let c = v[2] & M32;

    let ta = read_part("a", v[0], src_sel(insn, 0), asig, t);
    let tb = if shift {
        let mode = f.mode.unwrap_or(ClampMode::Clamp);
        i64::from(shift_amount(v[1], src_sel(insn, 1), mode, t))
    } else {
        read_part("b", v[1], src_sel(insn, 1), bsig, t)
    };

    // The text keeps every intermediate as an .s34 value, vshl's too; the hardware keeps the
    // shifted value in 64 bits.
    let tmp = if S::TEXT && p == Prim::Shl {
        sext(primary(p, ta, tb) as u64, 34)
    } else {
        primary(p, ta, tb)
    };
    t.stage([], || {
        let (kind, label) = match p {
            Prim::Set(_) => (StageKind::Compare, "comparison: 1 when true, 0 when false"),
            Prim::Shl if S::TEXT => (
                StageKind::Operate,
                "a shifted left, kept as the 34-bit intermediate (zeros shifted in)",
            ),
            Prim::Shl => (
                StageKind::Operate,
                "a shifted left, kept in 64 bits (zeros shifted in)",
            ),
            Prim::Shr if asig => (
                StageKind::Operate,
                "a shifted right, copies of the sign bit shifted in",
            ),
            Prim::Shr => (StageKind::Operate, "a shifted right, zeros shifted in"),
            Prim::Add | Prim::Sub | Prim::Absdiff | Prim::Min | Prim::Max => {
                (StageKind::Operate, "primary operation, exact in 34 bits")
            }
        };
        let out = match p {
            Prim::Shl if S::TEXT => Val::new("tmp", 34, true, i128::from(tmp)),
            Prim::Shl if !asig => Val::new("tmp", 64, false, i128::from(tmp as u64)),
            Prim::Shl => Val::new("tmp", 64, true, i128::from(tmp)),
            Prim::Set(_) => Val::new("tmp", 34, false, i128::from(tmp)),
            Prim::Shr | Prim::Add | Prim::Sub | Prim::Absdiff | Prim::Min | Prim::Max => {
                Val::new("tmp", 34, true, i128::from(tmp))
            }
        };
        let second = if shift {
            Val::new("n", 6, false, i128::from(tb))
        } else {
            Val::new("tb", 33, true, i128::from(tb))
        };
        Stage::new(kind, label, out)
            .flow(p.flow(tb))
            .op(p.formula())
            .input(Val::new("ta", 33, true, i128::from(ta)))
            .input(second)
    });

    let (d, wrapped) = if let Some(ds) = insn.dst().sel.as_ref() {
        merge_path::<S, _>(p, tmp, c, Part::of(Some(ds)), sat, dsig, t)
    } else {
        word_path::<S, _>(p, tmp, c, f.secop, sat, dsig, set, t)
    };
    t.stage([(wrapped, Flag::Wrapped)], || {
        Stage::new(
            StageKind::Result,
            "value written to d",
            Val::reg("d", 32, d),
        )
    });
    d
}

/// The secondary operation's entry: vset's signedness, vshl's 64-bit value or the comparison.
fn secondary_id(p: Prim, set: bool, vshl_wide: bool) -> DiffId {
    if set {
        DiffId::VsetSecondarySign
    } else if p == Prim::Shl && vshl_wide {
        DiffId::VshlSecondaryWide
    } else {
        DiffId::SecondaryMinMax
    }
}

/// No merge: optional saturation, then the optional secondary operation. Returns the value
/// and whether it wrapped (did not fit the destination's type).
#[allow(clippy::too_many_arguments)]
#[inline]
fn word_path<S: Semantics, T: Tracer>(
    p: Prim,
    tmp: i64,
    c: u64,
    secop: Option<SecOp>,
    sat: bool,
    dsig: bool,
    set: bool,
    t: &mut T,
) -> (u64, bool) {
    let r = if sat {
        if p.is_shift() && !S::TEXT {
            let w = sext(tmp as u64, 34);
            t.stage([(w != tmp, Flag::Wrapped)], || {
                Stage::new(
                    StageKind::Truncate,
                    "shifted value wrapped to the 34-bit intermediate",
                    Val::new("tmp", 34, true, i128::from(w)),
                )
                .flow(Flow::extend(false))
                .op("tmp mod 2^34")
                .input(Val::new("tmp", 64, true, i128::from(tmp)))
            });
        }
        let x = if p.is_shift() {
            sext(tmp as u64, 34)
        } else {
            tmp
        };
        let r = if S::TEXT {
            saturate_text(x, dsig, 32)
        } else {
            saturate_word(p, tmp, dsig)
        };
        t.stage(
            [(r < x, Flag::ClampedHigh), (r > x, Flag::ClampedLow)],
            || {
                let (sat, label) = if dsig {
                    (
                        Saturation::Range {
                            lo: S32_MIN.into(),
                            hi: S32_MAX.into(),
                        },
                        "saturated to the s32 range",
                    )
                } else if p.is_shift() || S::TEXT {
                    (
                        Saturation::Range {
                            lo: 0,
                            hi: U32_MAX.into(),
                        },
                        "saturated to the u32 range",
                    )
                } else {
                    (
                        Saturation::Floor {
                            lo: 0,
                            shown_max: (1i128 << 33) - 1,
                        },
                        "unsigned saturation: negative values become 0, nothing is limited above",
                    )
                };
                let (text, hw) = if S::TEXT {
                    (r, saturate_word(p, x, dsig))
                } else {
                    (saturate_text(x, dsig, 32), r)
                };
                Stage::new(
                    StageKind::Clamp,
                    label,
                    Val::new("tmp", 34, true, i128::from(r)),
                )
                .saturate(sat, Val::new("tmp", 34, true, i128::from(x)))
                .differs_if(text != hw, DiffId::UnsignedWordSaturation)
            },
        );
        r
    } else {
        if !set {
            // The hardware keeps vshl's shifted value in 64 bits; the rest fit 34.
            let bits = if p == Prim::Shl && !S::TEXT { 64 } else { 34 };
            t.stage([], || {
                Stage::new(
                    StageKind::Clamp,
                    "no .sat: the intermediate is not saturated",
                    Val::new("tmp", bits, true, i128::from(tmp)),
                )
                .flow(Flow::extend(true))
                .input(Val::new("tmp", bits, true, i128::from(tmp)))
            });
        }
        tmp
    };
    let Some(op) = secop else {
        return (r as u64 & M32, outside(r, 32, dsig));
    };
    // The text reads c and compares with the destination's signedness; vset's as unsigned.
    let text_signed = dsig && !set;
    let word_only = p.word_only(sat);
    let seen = if word_only && !S::TEXT {
        let w = sext(r as u64 & M32, 32);
        if op != SecOp::Add {
            t.stage([(w != r, Flag::Wrapped)], || {
                Stage::new(
                    StageKind::Truncate,
                    "only the low 32 bits are kept, then sign-extended",
                    Val::new("tmp", 33, true, i128::from(w)),
                )
                .flow(Flow::bits(0, 31, true))
                .op("sext(tmp & 0xffffffff)")
                .input(Val::new("tmp", 34, true, i128::from(r)))
            });
        }
        w
    } else {
        r
    };
    let out = if S::TEXT {
        secondary_text(op, r, c, text_signed)
    } else {
        secondary(op, seen, c, dsig)
    };
    let cx = if text_signed || (dsig && !S::TEXT) {
        sext(c, 32)
    } else {
        c as i64
    };
    let wrapped = match op {
        SecOp::Add => outside(r.wrapping_add(cx), 32, dsig),
        SecOp::Min | SecOp::Max => out == r as u64 & M32 && outside(r, 32, dsig),
    };
    t.stage([], || {
        // Each reading's step on this stage's own input, to flag where they part.
        let (text, hw, vshl_wide) = if S::TEXT {
            let hw_seen = if word_only {
                sext(r as u64 & M32, 32)
            } else {
                r
            };
            (out, secondary(op, hw_seen, c, dsig), false)
        } else {
            // The text's intermediate entering this stage: vshl's without .sat is 34 bits wide.
            let r_text = if p == Prim::Shl && !sat {
                sext(r as u64, 34)
            } else {
                r
            };
            let text = secondary_text(op, r_text, c, text_signed);
            // With the full 64-bit value the text's comparison would agree: the width is why.
            let wide = r_text != r && secondary_text(op, r, c, text_signed) == out;
            (text, out, wide)
        };
        let (label, formula) = match (op, S::TEXT, dsig) {
            (SecOp::Add, _, _) => ("secondary .add with c", "tmp + c"),
            (SecOp::Min, true, _) => (
                "secondary .min with c, compared as plain numbers",
                "min(tmp, c)",
            ),
            (SecOp::Max, true, _) => (
                "secondary .max with c, compared as plain numbers",
                "max(tmp, c)",
            ),
            (SecOp::Min, false, true) => (
                "secondary .min with c, signed 64-bit compare",
                "min(tmp, c)",
            ),
            (SecOp::Max, false, true) => (
                "secondary .max with c, signed 64-bit compare",
                "max(tmp, c)",
            ),
            (SecOp::Min, false, false) => (
                "secondary .min with c, unsigned 64-bit compare (a negative tmp counts as huge)",
                "min(tmp, c)",
            ),
            (SecOp::Max, false, false) => (
                "secondary .max with c, unsigned 64-bit compare (a negative tmp counts as huge)",
                "max(tmp, c)",
            ),
        };
        let cv = Val::new("c", 33, true, i128::from(cx));
        let tin = if p == Prim::Shl && !sat && !S::TEXT {
            Val::new(
                "tmp",
                64,
                dsig,
                if dsig {
                    i128::from(seen)
                } else {
                    i128::from(seen as u64)
                },
            )
        } else {
            Val::new("tmp", 34, true, i128::from(seen))
        };
        Stage::new(
            StageKind::Secondary,
            label,
            Val::new("tmp", 32, false, i128::from(out)),
        )
        .flow(if op == SecOp::Add {
            Flow::Carry
        } else {
            Flow::All
        })
        .op(formula)
        .input(tin)
        .input(cv)
        .differs_if(
            op != SecOp::Add && text != hw,
            secondary_id(p, set, vshl_wide),
        )
    });
    (out, wrapped)
}

/// Merge into a byte or half-word of `c`, with optional saturation for that lane. Returns the
/// value and whether the result wrapped (did not fit the lane).
#[inline]
fn merge_path<S: Semantics, T: Tracer>(
    p: Prim,
    tmp: i64,
    c: u64,
    part: Part,
    sat: bool,
    dsig: bool,
    t: &mut T,
) -> (u64, bool) {
    let lane = (1u64 << part.width) - 1;
    let orig = if p.is_shift() {
        sext(tmp as u64, 34)
    } else {
        tmp
    };
    let x = if sat {
        // The value the merge takes, the clamp's value read in its range (the lane's or, for
        // the hardware's shifts, the 32-bit range) and that range.
        let l = if S::TEXT {
            let (lo, hi) = int_range(part.width, dsig);
            let val = saturate_text(orig, dsig, part.width);
            LaneSat {
                x: val as u64 & M32,
                val,
                lo,
                hi,
            }
        } else {
            lane_saturation(
                p.is_shift(),
                orig,
                dsig,
                int_range(part.width, dsig).1 as u64,
            )
        };
        let (x, lo, hi) = (l.x, l.lo, l.hi);
        let label = if S::TEXT {
            "saturated to the range of the lane"
        } else if p.is_shift() {
            "saturated to the 32-bit range of d (not the lane's), after wrapping to 34 bits"
        } else {
            "saturated for the lane: anything outside 0..2^32 (negatives too) becomes the lane maximum"
        };
        let sat = if S::TEXT || p.is_shift() {
            Saturation::Range {
                lo: lo.into(),
                hi: hi.into(),
            }
        } else {
            Saturation::OutsideToTop { max: hi.into() }
        };
        // Which end it was clamped to (the hardware sends negative values to the top).
        let (high, low) = l.clamped(orig);
        t.stage([(high, Flag::ClampedHigh), (low, Flag::ClampedLow)], || {
            let (text, hw) = if S::TEXT {
                (x, saturate_lane(p, tmp, dsig, part.width))
            } else {
                (saturate_text(orig, dsig, part.width) as u64, x)
            };
            let id = if p.is_shift() {
                DiffId::LaneSaturationShift
            } else {
                DiffId::LaneSaturation
            };
            Stage::new(
                StageKind::Clamp,
                label,
                Val::new("tmp", 32, false, i128::from(x)),
            )
            .saturate(sat, Val::new("tmp", 34, true, i128::from(orig)))
            .differs_if(text & lane != hw & lane, id)
        });
        x
    } else {
        t.stage([], || {
            Stage::new(
                StageKind::Clamp,
                "no .sat: the intermediate is not saturated",
                Val::new("tmp", 34, true, i128::from(tmp)),
            )
            .flow(Flow::extend(true))
            .input(Val::new("tmp", 34, true, i128::from(tmp)))
        });
        tmp as u64 & M32
    };
    let wrapped = !sat && outside(orig, part.width, dsig);
    let d = if S::TEXT {
        merge_text(x, c, part)
    } else {
        merge(x, c, part)
    };
    t.stage([], || {
        let lanes = 32 / part.width;
        let target = part.lo / part.width;
        let label = if part.width == 16 && part.lo == 16 && !S::TEXT {
            "merge into d.h1: bits 16-31 of the result, kept in place, over c"
        } else if part.width == 16 && part.lo == 16 {
            "merge into d.h1: the low half-word of the result, moved up, over c"
        } else if part.width == 16 {
            "merge into d.h0: the low half-word of the result over c"
        } else {
            "merge: the low byte of the result into the selected byte of c"
        };
        let (text, hw) = if S::TEXT {
            (d, merge(x, c, part))
        } else {
            (merge_text(x, c, part), d)
        };
        Stage::new(StageKind::Merge, label, Val::reg("tmp", 32, d))
            .op(format!(
                "merge(tmp, c) at {}{}",
                if part.width == 8 { "b" } else { "h" },
                target
            ))
            .input(Val::reg("tmp", 32, x))
            .input(Val::reg("c", 32, c))
            .differs_if(text != hw, DiffId::MergeH1)
            .detail(Detail::Merge {
                lane_bits: part.width,
                from_result: (0..lanes).map(|i| i == target).collect(),
                other: "c".to_string(),
                // The H100 keeps bits 16-31 of the result in place for d.h1.
                moved: !(part.width == 16 && part.lo == 16 && !S::TEXT),
            })
    });
    (d, wrapped)
}
