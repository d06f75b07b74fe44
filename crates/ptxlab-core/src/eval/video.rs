//! Scalar video instructions and `vmad`, as the H100 computes them.
//!
//! The ISA text describes 33-bit extended operands, a 34-bit intermediate, a saturation to the
//! destination's range and a secondary operation or merge. Measured results follow that outline
//! but differ from a literal reading in several stages (see `docs/hardware-vs-spec.md`); each such
//! stage is a small function below, and the trace flags it with
//! [`Flag::HardwareDiffersFromText`] when the literal reading would give another value.
//!
//! The hardware keeps the intermediate as a 64-bit value. Where the text and the hardware agree
//! that value is the exact mathematical result (it always fits in 34 bits, except for `vshl`).
//!
//! ```
//! use ptxlab_core::eval::{video, Hardware};
//! use ptxlab_core::trace::NoTrace;
//! use ptxlab_core::check;
//!
//! let insn = check("vadd.s32.u32.s32.sat d, a.b0, b.h0;").unwrap();
//! let v = [0x1234, 0xffff_fffb, 0, 0];
//! assert_eq!(video::eval_scalar::<Hardware, _>(&insn, &v, &mut NoTrace), 0x2f);
//! ```

use super::bits::{clamp_i64, extend_field, field, int_range, sext};
use super::semantics::{Hardware, Semantics, Text};
use crate::ast::{ClampMode, Cmp, Instruction, Scale, SecOp, SelKind, Selector};
use crate::differences::DiffId;
use crate::isa::Opcode;
use crate::trace::{Detail, Flag, NoTrace, Stage, StageKind, Tracer, Val};

const M32: u64 = 0xffff_ffff;
const U32_MAX: i64 = 0xffff_ffff;
const S32_MIN: i64 = i32::MIN as i64;
const S32_MAX: i64 = i32::MAX as i64;

/// The part of a register a selector names: bit offset and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    lo: u32,
    width: u32,
}

impl Part {
    /// `.bN` is byte N, `.hN` half-word N, no selector the whole word. Digits out of range wrap
    /// (an invalid selector still reads some part of the register).
    fn of(sel: Option<&Selector>) -> Part {
        match sel {
            None => Part { lo: 0, width: 32 },
            Some(s) => {
                let d = u32::from(s.lane(0));
                match s.kind {
                    SelKind::B => Part {
                        lo: 8 * (d & 3),
                        width: 8,
                    },
                    SelKind::H => Part {
                        lo: 16 * (d & 1),
                        width: 16,
                    },
                }
            }
        }
    }
}

fn src_sel(insn: &Instruction, i: usize) -> Option<&Selector> {
    insn.srcs.get(i).and_then(|o| o.sel.as_ref())
}

fn src_neg(insn: &Instruction, i: usize) -> bool {
    insn.srcs.get(i).is_some_and(|o| o.neg)
}

/// Read a byte, half-word or word of `raw` and extend it (stage 1 of every scalar instruction).
fn read_part<T: Tracer>(
    name: &'static str,
    raw: u64,
    sel: Option<&Selector>,
    signed: bool,
    t: &mut T,
) -> i64 {
    let p = Part::of(sel);
    let x = extend_field(raw, p.lo, p.width, signed);
    t.stage(|| {
        let what = match sel {
            Some(s) => format!("{name}{s}"),
            None => name.to_string(),
        };
        let (how, f, flag) = if signed {
            ("sign-extended", "sext", Flag::SignExtended)
        } else {
            ("zero-extended", "zext", Flag::ZeroExtended)
        };
        Stage::new(
            StageKind::Extract,
            format!("{what} {how} to 33 bits"),
            Val::new(format!("t{name}"), 33, true, i128::from(x)),
        )
        .op(format!("{f}({what})"))
        .input(Val::reg(name, 32, raw))
        .flag(flag)
        .detail(Detail::Field {
            source: raw & M32,
            source_bits: 32,
            lo: p.lo,
            width: p.width,
            signed,
            out_bits: 33,
        })
    });
    x
}

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
    fn of(insn: &Instruction) -> Prim {
        match insn.opcode {
            Opcode::Vadd => Prim::Add,
            Opcode::Vsub => Prim::Sub,
            Opcode::Vabsdiff => Prim::Absdiff,
            Opcode::Vmin => Prim::Min,
            Opcode::Vmax => Prim::Max,
            Opcode::Vshl => Prim::Shl,
            Opcode::Vshr => Prim::Shr,
            _ => Prim::Set(insn.form.cmp.unwrap_or(Cmp::Eq)),
        }
    }
    fn is_shift(self) -> bool {
        matches!(self, Prim::Shl | Prim::Shr)
    }
    /// Whether the hardware keeps only the low 32 bits of the saturated intermediate
    /// (sign-extended) for the secondary operation, rather than the whole value.
    fn word_only(self, sat: bool) -> bool {
        matches!(self, Prim::Add | Prim::Sub) || (self.is_shift() && sat)
    }
    fn formula(self) -> &'static str {
        match self {
            Prim::Add => "ta + tb",
            Prim::Sub => "ta - tb",
            Prim::Absdiff => "|ta - tb|",
            Prim::Min => "min(ta, tb)",
            Prim::Max => "max(ta, tb)",
            Prim::Shl => "ta << n",
            Prim::Shr => "ta >> n",
            Prim::Set(Cmp::Eq) => "ta == tb ? 1 : 0",
            Prim::Set(Cmp::Ne) => "ta != tb ? 1 : 0",
            Prim::Set(Cmp::Lt) => "ta < tb ? 1 : 0",
            Prim::Set(Cmp::Le) => "ta <= tb ? 1 : 0",
            Prim::Set(Cmp::Gt) => "ta > tb ? 1 : 0",
            Prim::Set(Cmp::Ge) => "ta >= tb ? 1 : 0",
        }
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
    match mode {
        ClampMode::Clamp => t.note_if(u64::from(n) != b, Flag::AmountClamped),
        ClampMode::Wrap => t.note_if(u64::from(n) != b, Flag::AmountWrapped),
    }
    t.stage(|| {
        let (label, op, flag) = match mode {
            ClampMode::Clamp => (
                "shift amount limited to 32 (.clamp)",
                "min(tb, 32)",
                Flag::AmountClamped,
            ),
            ClampMode::Wrap => (
                "shift amount taken modulo 32 (.wrap)",
                "tb & 0x1f",
                Flag::AmountWrapped,
            ),
        };
        Stage::new(
            StageKind::Adjust,
            label,
            Val::new("n", 6, false, i128::from(n)),
        )
        .op(op)
        .input(Val::new("tb", 33, true, i128::from(b)))
        .flag_if(u64::from(n) != b, flag)
    });
    n
}

/// The primary operation on the extended operands. For shifts `tb` is the shift amount.
/// The value is exact, except that `vshl` keeps 64 bits (the hardware's width), read as signed.
#[inline]
fn primary(p: Prim, ta: i64, tb: i64) -> i64 {
    match p {
        Prim::Add => ta + tb,
        Prim::Sub => ta - tb,
        Prim::Absdiff => (ta - tb).abs(),
        Prim::Min => ta.min(tb),
        Prim::Max => ta.max(tb),
        // The amount is at most 32 and ta fits in 33 bits: nothing is lost below bit 64.
        Prim::Shl => ((ta as u64) << (tb & 63)) as i64,
        Prim::Shr => ta >> (tb & 63),
        Prim::Set(c) => i64::from(match c {
            Cmp::Eq => ta == tb,
            Cmp::Ne => ta != tb,
            Cmp::Lt => ta < tb,
            Cmp::Le => ta <= tb,
            Cmp::Gt => ta > tb,
            Cmp::Ge => ta >= tb,
        }),
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
    if dsig {
        clamp_i64(x, S32_MIN, S32_MAX)
    } else if p.is_shift() {
        clamp_i64(x, 0, U32_MAX)
    } else {
        x.max(0)
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
    if p.is_shift() {
        let (lo, hi) = int_range(32, dsig);
        clamp_i64(sext(tmp as u64, 34), lo, hi) as u64 & M32
    } else {
        let (_, max) = int_range(lane_bits, dsig);
        let x = if (0..=U32_MAX).contains(&tmp) {
            tmp as u64
        } else {
            M32
        };
        x.min(max as u64)
    }
}

/// The secondary operation with `c`. `r` is the (saturated) intermediate as the hardware holds
/// it; `signed` is the signedness of the comparison (the destination type's; for `vset`, the
/// first source type's). min/max compare 64-bit values: `r` against `c` sign- or
/// zero-extended.
#[inline]
fn secondary(op: SecOp, r: i64, c: u64, signed: bool) -> u64 {
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
#[inline]
fn merge(x: u64, c: u64, part: Part) -> u64 {
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

fn range_detail(lo: i64, hi: i64) -> Detail {
    Detail::Range {
        min: i128::from(lo),
        max: i128::from(hi),
    }
}

/// `vadd vsub vabsdiff vmin vmax vshl vshr vset`.
pub fn eval_scalar<S: Semantics, T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    let f = &insn.form;
    let p = Prim::of(insn);
    let set = matches!(p, Prim::Set(_));
    let shift = p.is_shift();
    // Signedness of the secondary operation (c's sign rule: dtype, or for vset, which has no
    // destination type, atype as the hardware does), of a and of b, from the row.
    let (dsig, asig, bsig) = (insn.signed(3), insn.signed(1), insn.signed(2));
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
    t.stage(|| {
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
            _ => (StageKind::Operate, "primary operation, exact in 34 bits"),
        };
        let out = match p {
            Prim::Shl if S::TEXT => Val::new("tmp", 34, true, i128::from(tmp)),
            Prim::Shl if !asig => Val::new("tmp", 64, false, i128::from(tmp as u64)),
            Prim::Shl => Val::new("tmp", 64, true, i128::from(tmp)),
            Prim::Set(_) => Val::new("tmp", 34, false, i128::from(tmp)),
            _ => Val::new("tmp", 34, true, i128::from(tmp)),
        };
        let second = if shift {
            Val::new("n", 6, false, i128::from(tb))
        } else {
            Val::new("tb", 33, true, i128::from(tb))
        };
        Stage::new(kind, label, out)
            .op(p.formula())
            .input(Val::new("ta", 33, true, i128::from(ta)))
            .input(second)
    });

    let (d, wrapped) = if let Some(ds) = insn.dst.sel.as_ref() {
        merge_path::<S, _>(p, tmp, c, Part::of(Some(ds)), sat, dsig, t)
    } else {
        word_path::<S, _>(p, tmp, c, f.secop, sat, dsig, set, t)
    };
    t.note_if(wrapped, Flag::Wrapped);
    t.stage(|| {
        Stage::new(
            StageKind::Result,
            "value written to d",
            Val::reg("d", 32, d),
        )
        .flag_if(wrapped, Flag::Wrapped)
    });
    d
}

/// Whether `x` lies outside the range of a `bits`-bit destination (its low bits are written).
#[inline(always)]
fn outside(x: i64, bits: u32, signed: bool) -> bool {
    let (lo, hi) = int_range(bits, signed);
    x < lo || x > hi
}

/// Note a saturation that changed the value.
#[inline(always)]
fn note_clamp<T: Tracer>(t: &mut T, before: i64, after: i64) {
    t.note_if(after < before, Flag::ClampedHigh);
    t.note_if(after > before, Flag::ClampedLow);
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
            t.stage(|| {
                Stage::new(
                    StageKind::Truncate,
                    "shifted value wrapped to the 34-bit intermediate",
                    Val::new("tmp", 34, true, i128::from(w)),
                )
                .op("tmp mod 2^34")
                .input(Val::new("tmp", 64, true, i128::from(tmp)))
                .flag_if(w != tmp, Flag::Wrapped)
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
        note_clamp(t, x, r);
        t.stage(|| {
            let (lo, hi, label) = if dsig {
                (S32_MIN, S32_MAX, "saturated to the s32 range")
            } else if p.is_shift() || S::TEXT {
                (0, U32_MAX, "saturated to the u32 range")
            } else {
                (
                    0,
                    (1i64 << 33) - 1,
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
            .op(format!("clamp(tmp, {lo}, {hi})"))
            .input(Val::new("tmp", 34, true, i128::from(x)))
            .flag_if(r < x, Flag::ClampedHigh)
            .flag_if(r > x, Flag::ClampedLow)
            .differs_if(text != hw, DiffId::UnsignedWordSaturation)
            .detail(range_detail(lo, hi))
        });
        r
    } else {
        if !set {
            t.stage(|| {
                Stage::new(
                    StageKind::Clamp,
                    "no .sat: the intermediate is not saturated",
                    Val::new("tmp", 34, true, i128::from(tmp)),
                )
                .input(Val::new("tmp", 34, true, i128::from(tmp)))
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
            t.stage(|| {
                Stage::new(
                    StageKind::Truncate,
                    "only the low 32 bits are kept, then sign-extended",
                    Val::new("tmp", 33, true, i128::from(w)),
                )
                .op("sext(tmp & 0xffffffff)")
                .input(Val::new("tmp", 34, true, i128::from(r)))
                .flag_if(w != r, Flag::Wrapped)
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
        _ => out == r as u64 & M32 && outside(r, 32, dsig),
    };
    t.stage(|| {
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
        let x = if S::TEXT {
            saturate_text(orig, dsig, part.width) as u64 & M32
        } else {
            saturate_lane(p, tmp, dsig, part.width)
        };
        // The value the clamp produced, read in its range (the lane's or, for the hardware's
        // shifts, the 32-bit range).
        let val = if S::TEXT {
            saturate_text(orig, dsig, part.width)
        } else if p.is_shift() {
            let (lo, hi) = int_range(32, dsig);
            clamp_i64(orig, lo, hi)
        } else {
            x as i64
        };
        let (lo, hi, label) = if S::TEXT {
            let (lo, hi) = int_range(part.width, dsig);
            (lo, hi, "saturated to the range of the lane")
        } else if p.is_shift() {
            let (lo, hi) = int_range(32, dsig);
            (
                lo,
                hi,
                "saturated to the 32-bit range of d (not the lane's), after wrapping to 34 bits",
            )
        } else {
            let (_, hi) = int_range(part.width, dsig);
            (
                0,
                hi,
                "saturated for the lane: anything outside 0..2^32 (negatives too) becomes the lane maximum",
            )
        };
        // Which end it was clamped to (the hardware sends negative values to the top).
        let (high, low) = (val != orig && val == hi, val != orig && val == lo);
        t.note_if(high, Flag::ClampedHigh);
        t.note_if(low, Flag::ClampedLow);
        t.stage(|| {
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
            .op(format!("clamp(tmp, {lo}, {hi})"))
            .input(Val::new("tmp", 34, true, i128::from(tmp)))
            .flag_if(high, Flag::ClampedHigh)
            .flag_if(low, Flag::ClampedLow)
            .differs_if(text & lane != hw & lane, id)
            .detail(range_detail(lo, hi))
        });
        x
    } else {
        t.stage(|| {
            Stage::new(
                StageKind::Clamp,
                "no .sat: the intermediate is not saturated",
                Val::new("tmp", 34, true, i128::from(tmp)),
            )
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
    t.stage(|| {
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
            })
    });
    (d, wrapped)
}

/// `vmad`: `(±a·b) + (±c)` with optional plus one, scaling and saturation.
///
/// As measured: the two extended operands are multiplied as signed 32-bit numbers (a whole-word
/// `.u32` operand with its top bit set counts as negative), `c` is always sign-extended, the sum
/// is kept in 64 bits, `.shr7/.shr15` shift arithmetically when the result is signed and
/// logically otherwise, and `.sat` clamps the 64-bit value to the s32 or u32 range.
pub fn eval_vmad<S: Semantics, T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    let f = &insn.form;
    let (asig, bsig) = (insn.signed(1), insn.signed(2));
    let (na, nb, nc) = (src_neg(insn, 0), src_neg(insn, 1), src_neg(insn, 2));
    let negp = na ^ nb;
    let signed_final = asig || bsig || negp || nc;
    let c = v[2] & M32;

    let ta = read_part("a", v[0], src_sel(insn, 0), asig, t);
    let tb = read_part("b", v[1], src_sel(insn, 1), bsig, t);
    if S::TEXT {
        return vmad_text(insn, ta, tb, c, t);
    }

    // The literal reading's answer, only when tracing: a stage is flagged when it departs from
    // the text and the answer differs because of it.
    let final_differs = T::ON
        && eval_vmad::<Text, _>(insn, v, &mut NoTrace)
            != eval_vmad::<Hardware, _>(insn, v, &mut NoTrace);
    // The entry that explains a difference: the product when an operand changed its sign.
    let words_signed = sext(ta as u64, 32) != ta || sext(tb as u64, 32) != tb;
    let vmad_id = if words_signed {
        DiffId::VmadWordsSigned
    } else {
        DiffId::VmadCSignExtended
    };

    // The product of the operands read as signed 32-bit numbers.
    let ma = sext(ta as u64, 32);
    let mb = sext(tb as u64, 32);
    let prod = ma.wrapping_mul(mb);
    t.stage(|| {
        let differs = ma != ta || mb != tb;
        let label = if differs {
            "product of a and b read as signed 32-bit words (a .u32 word with its top bit set counts as negative)"
        } else {
            "full product of a and b"
        };
        Stage::new(
            StageKind::Product,
            label,
            Val::new("p", 64, true, i128::from(prod)),
        )
        .op("ta * tb")
        .input(Val::new("ta", 32, true, i128::from(ma)))
        .input(Val::new("tb", 32, true, i128::from(mb)))
        .differs_if(differs && final_differs, DiffId::VmadWordsSigned)
        .detail(Detail::Product {
            full_bits: 64,
            kept_lo: 0,
            kept_bits: 64,
        })
    });

    // Negation of the product or of c, and plus one.
    let (p, cc, lsb) = vmad_adjust(f.po, negp, nc, i128::from(prod), "p", 64, c, t);
    // The product fits in 64 bits, and so does its complement.
    let p = p as i64;
    let cx = sext(cc, 32);
    t.stage(|| {
        Stage::new(
            StageKind::Extract,
            "c sign-extended to 64 bits (even when the result is unsigned)",
            Val::new("c", 64, true, i128::from(cx)),
        )
        .op("sext(c)")
        .input(Val::reg("c", 32, cc))
        .flag(Flag::SignExtended)
        .differs_if(
            !signed_final && cx < 0 && final_differs && !words_signed,
            DiffId::VmadCSignExtended,
        )
        .detail(Detail::Field {
            source: cc,
            source_bits: 32,
            lo: 0,
            width: 32,
            signed: true,
            out_bits: 64,
        })
    });

    let sum = p.wrapping_add(cx).wrapping_add(lsb);
    t.stage(|| {
        let op = if lsb == 1 { "p + c + 1" } else { "p + c" };
        Stage::new(
            StageKind::Operate,
            "sum in 64 bits",
            Val::new("tmp", 64, true, i128::from(sum)),
        )
        .op(op)
        .input(Val::new("p", 64, true, i128::from(p)))
        .input(Val::new("c", 64, true, i128::from(cx)))
    });

    let scaled = match f.scale {
        None => sum,
        Some(s) => {
            let k = match s {
                Scale::Shr7 => 7,
                Scale::Shr15 => 15,
            };
            let r = if signed_final {
                sum >> k
            } else {
                ((sum as u64) >> k) as i64
            };
            t.stage(|| {
                let (label, op) = if signed_final {
                    (
                        "scaled: arithmetic right shift (signed result)",
                        format!("tmp >> {k}"),
                    )
                } else {
                    (
                        "scaled: logical right shift (unsigned result)",
                        format!("tmp >>> {k}"),
                    )
                };
                Stage::new(
                    StageKind::Scale,
                    label,
                    Val::new(
                        "tmp",
                        64,
                        signed_final,
                        if signed_final {
                            i128::from(r)
                        } else {
                            i128::from(r as u64)
                        },
                    ),
                )
                .op(op)
                .input(Val::new("tmp", 64, true, i128::from(sum)))
                .differs_if(
                    !signed_final && sum < 0 && final_differs && !words_signed,
                    DiffId::VmadCSignExtended,
                )
            });
            r
        }
    };

    let d = if f.sat {
        let (lo, hi) = if signed_final {
            (S32_MIN, S32_MAX)
        } else {
            (0, U32_MAX)
        };
        let r = clamp_i64(scaled, lo, hi);
        note_clamp(t, scaled, r);
        t.stage(|| {
            let label = if signed_final {
                "saturated to the s32 range (signed result)"
            } else {
                "saturated to the u32 range (unsigned result)"
            };
            Stage::new(
                StageKind::Clamp,
                label,
                Val::new("tmp", 33, true, i128::from(r)),
            )
            .op(format!("clamp(tmp, {lo}, {hi})"))
            .input(Val::new("tmp", 64, true, i128::from(scaled)))
            .flag_if(r < scaled, Flag::ClampedHigh)
            .flag_if(r > scaled, Flag::ClampedLow)
            .detail(range_detail(lo, hi))
        });
        r as u64 & M32
    } else {
        t.stage(|| {
            Stage::new(
                StageKind::Truncate,
                "no .sat: the low 32 bits are kept",
                Val::reg("tmp", 32, scaled as u64),
            )
            .op("tmp & 0xffffffff")
            .input(Val::new("tmp", 64, true, i128::from(scaled)))
            .flag_if(outside(scaled, 32, signed_final), Flag::Wrapped)
        });
        t.note_if(outside(scaled, 32, signed_final), Flag::Wrapped);
        scaled as u64 & M32
    };
    t.stage(|| {
        Stage::new(
            StageKind::Result,
            "value written to d",
            Val::reg("d", 32, d),
        )
        .differs_if(final_differs, vmad_id)
    });
    d
}

/// `vmad` as the ISA text's pseudocode reads literally, from the extracted operands on: a
/// 128-bit product and sum, `c` zero-extended for an unsigned result, a logical shift of the
/// 128-bit sum kept to 64 bits, and a clamp of that 64-bit value.
/// The `.po`, negated-product and negated-`c` step of `vmad`, the same in both readings: returns
/// the product (named `name`, `bits` wide in the trace), `c` and the one added to the sum.
#[allow(clippy::too_many_arguments)]
fn vmad_adjust<T: Tracer>(
    po: bool,
    negp: bool,
    nc: bool,
    prod: i128,
    name: &'static str,
    bits: u32,
    c: u64,
    t: &mut T,
) -> (i128, u64, i64) {
    if po {
        t.stage(|| {
            Stage::new(
                StageKind::Adjust,
                ".po: one is added to the sum",
                Val::new("lsb", 1, false, 1),
            )
            .flag(Flag::PlusOne)
        });
        (prod, c, 1)
    } else if negp {
        let p = !prod;
        t.stage(|| {
            Stage::new(
                StageKind::Adjust,
                "product negated: complemented here, one added to the sum",
                Val::new(name, bits, true, p),
            )
            .op(format!("~{name}"))
            .input(Val::new(name, bits, true, prod))
            .flag(Flag::Negated)
            .flag(Flag::PlusOne)
        });
        (p, c, 1)
    } else if nc {
        let cc = !c & M32;
        t.stage(|| {
            Stage::new(
                StageKind::Adjust,
                "c negated: complemented here, one added to the sum",
                Val::reg("c", 32, cc),
            )
            .op("~c")
            .input(Val::reg("c", 32, c))
            .flag(Flag::Negated)
            .flag(Flag::PlusOne)
        });
        (prod, cc, 1)
    } else {
        (prod, c, 0)
    }
}

fn vmad_text<T: Tracer>(insn: &Instruction, ta: i64, tb: i64, c: u64, t: &mut T) -> u64 {
    let f = &insn.form;
    let (asig, bsig) = (insn.signed(1), insn.signed(2));
    let (na, nb, nc) = (src_neg(insn, 0), src_neg(insn, 1), src_neg(insn, 2));
    let negp = na ^ nb;
    let signed_final = asig || bsig || negp || nc;
    let prod = i128::from(ta) * i128::from(tb);
    t.stage(|| {
        Stage::new(
            StageKind::Product,
            "full product of the extended a and b, in 128 bits",
            Val::new("tmp", 128, true, prod),
        )
        .op("ta * tb")
        .input(Val::new("ta", 33, true, i128::from(ta)))
        .input(Val::new("tb", 33, true, i128::from(tb)))
        .detail(Detail::Product {
            full_bits: 128,
            kept_lo: 0,
            kept_bits: 128,
        })
    });
    let (tmp, cc, lsb) = vmad_adjust(f.po, negp, nc, prod, "tmp", 128, c, t);
    let c128 = if signed_final {
        i128::from(sext(cc, 32))
    } else {
        i128::from(cc)
    };
    t.stage(|| {
        let (label, f, flag) = if signed_final {
            (
                "c sign-extended (signed result)",
                "sext(c)",
                Flag::SignExtended,
            )
        } else {
            (
                "c zero-extended (unsigned result)",
                "zext(c)",
                Flag::ZeroExtended,
            )
        };
        Stage::new(StageKind::Extract, label, Val::new("c", 128, true, c128))
            .op(f)
            .input(Val::reg("c", 32, cc))
            .flag(flag)
    });
    let sum = tmp.wrapping_add(c128).wrapping_add(i128::from(lsb));
    t.stage(|| {
        let op = if lsb == 1 { "tmp + c + 1" } else { "tmp + c" };
        Stage::new(
            StageKind::Operate,
            "sum in 128 bits",
            Val::new("tmp", 128, true, sum),
        )
        .op(op)
        .input(Val::new("tmp", 128, true, tmp))
        .input(Val::new("c", 128, true, c128))
    });
    let k = match f.scale {
        None => 0,
        Some(Scale::Shr7) => 7,
        Some(Scale::Shr15) => 15,
    };
    let result = ((sum as u128) >> k) as u64;
    t.stage(|| {
        let label = if k == 0 {
            "low 64 bits of the sum"
        } else {
            "scaled: the 128-bit sum shifted right, low 64 bits kept"
        };
        Stage::new(
            StageKind::Scale,
            label,
            Val::new(
                "result",
                64,
                signed_final,
                if signed_final {
                    i128::from(result as i64)
                } else {
                    i128::from(result)
                },
            ),
        )
        .op(format!("(tmp >> {k}) & 0xffffffffffffffff"))
        .input(Val::new("tmp", 128, true, sum))
    });
    let d = if f.sat {
        let (lo, hi) = if signed_final {
            (S32_MIN, S32_MAX)
        } else {
            (0, U32_MAX)
        };
        // The 64-bit result read with the final result's sign.
        let x = if signed_final {
            i128::from(result as i64)
        } else {
            i128::from(result)
        };
        let r = x.clamp(i128::from(lo), i128::from(hi));
        t.note_if(r < x, Flag::ClampedHigh);
        t.note_if(r > x, Flag::ClampedLow);
        t.stage(|| {
            Stage::new(
                StageKind::Clamp,
                if signed_final {
                    "saturated to the s32 range (signed result)"
                } else {
                    "saturated to the u32 range (unsigned result)"
                },
                Val::new("result", 33, true, r),
            )
            .op(format!("clamp(result, {lo}, {hi})"))
            .input(Val::new("result", 64, signed_final, x))
            .flag_if(r < x, Flag::ClampedHigh)
            .flag_if(r > x, Flag::ClampedLow)
            .detail(range_detail(lo, hi))
        });
        r as u64 & M32
    } else {
        let wrapped = outside(result as i64, 32, signed_final) || (!signed_final && result > M32);
        t.note_if(wrapped, Flag::Wrapped);
        t.stage(|| {
            Stage::new(
                StageKind::Truncate,
                "no .sat: the low 32 bits are kept",
                Val::reg("result", 32, result),
            )
            .op("result & 0xffffffff")
            .input(Val::new("result", 64, false, i128::from(result)))
            .flag_if(wrapped, Flag::Wrapped)
        });
        result & M32
    };
    t.stage(|| {
        Stage::new(
            StageKind::Result,
            "value written to d",
            Val::reg("d", 32, d),
        )
    });
    d
}

#[cfg(test)]
mod tests {
    use crate::trace::{Flag, StageKind};
    use crate::{check, evaluate, evaluate_traced, Inputs};

    fn run(text: &str, a: u64, b: u64, c: u64) -> u64 {
        let insn = check(text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
        let inputs = Inputs::new(a, b, c, 0);
        let d = evaluate(&insn, &inputs);
        let tr = evaluate_traced(&insn, &inputs);
        assert_eq!(tr.result.raw() as u64, d, "{text}");
        let last = tr.stages.last().expect("stages");
        assert_eq!(last.kind, StageKind::Result);
        assert_eq!(last.output.name, "d");
        d
    }

    fn flagged(text: &str, a: u64, b: u64, c: u64) -> bool {
        let insn = check(text).unwrap();
        let tr = evaluate_traced(&insn, &Inputs::new(a, b, c, 0));
        tr.stages
            .iter()
            .any(|s| s.flags.contains(&Flag::HardwareDiffersFromText))
    }

    #[test]
    fn plain_operations_extend_their_parts() {
        // 0x80 read as s8 is -128; 0x7f as u8 is 127.
        assert_eq!(
            run("vadd.s32.s32.u32 d, a.b1, b.b0;", 0x8000, 0x7f, 0),
            (-1i32) as u32 as u64
        );
        // |0x0001 - 0xffff (as s16 -1)| = 2
        assert_eq!(
            run("vabsdiff.u32.u32.s32 d, a.h0, b.h1;", 1, 0xffff_0000, 0),
            2
        );
        assert_eq!(run("vset.u32.u32.lt d, a, b;", 1, 2, 0), 1);
        assert_eq!(run("vset.s32.u32.lt d, a, b;", 0xffff_ffff, 2, 0), 1);
    }

    #[test]
    fn shifts_clamp_or_wrap_the_amount() {
        assert_eq!(run("vshl.u32.u32.u32.clamp d, a, b;", 1, 40, 0), 0);
        assert_eq!(run("vshl.u32.u32.u32.wrap d, a, b;", 1, 33, 0), 2);
        assert_eq!(
            run("vshr.s32.s32.u32.clamp d, a, b;", 0x8000_0000, 40, 0),
            M32
        );
    }

    const M32: u64 = 0xffff_ffff;

    #[test]
    fn vshl_saturation_wraps_to_34_bits_first() {
        // 0x40 << 32 = 2^38: its low 34 bits are zero, so .sat gives 0, not 0xffffffff.
        assert_eq!(
            run("vshl.u32.u32.u32.sat.clamp d, a.b0, b;", 0x40, 32, 0),
            0
        );
        // 0xe << 30 = 0x3_8000_0000: negative as a 34-bit number, so it saturates to 0.
        assert_eq!(run("vshl.u32.u32.u32.sat.wrap d, a.b0, b;", 0xe, 30, 0), 0);
        // 3 << 31 = 0x1_8000_0000: positive, above U32_MAX.
        assert_eq!(run("vshl.u32.u32.u32.sat.wrap d, a.b0, b;", 3, 31, 0), M32);
    }

    #[test]
    fn unsigned_saturation_does_not_limit_above() {
        // 0xfffffffe + 0x28 = 0x1_0000_0026: kept as 0x26, then + c.
        assert_eq!(
            run(
                "vadd.u32.u32.u32.sat.add d, a, b, c;",
                0xffff_fffe,
                0x28,
                0x100
            ),
            0x126
        );
        // Negative results still become 0.
        assert_eq!(run("vsub.u32.u32.u32.sat d, a, b;", 1, 2, 0), 0);
        assert!(flagged(
            "vadd.u32.u32.u32.sat d, a, b;",
            0xffff_fffe,
            0x28,
            0
        ));
    }

    #[test]
    fn unsigned_secondary_compares_the_sign_extended_word() {
        // a + b = 0xb87d06c1: bit 31 set, so it counts as larger than c = 0xfffffffc.
        assert_eq!(
            run(
                "vadd.u32.u32.s32.min d, a, b, c;",
                0xb87d_06b4,
                0xd,
                0xffff_fffc
            ),
            0xffff_fffc
        );
        // -12 (u32 destination) counts as larger than any c.
        assert_eq!(
            run(
                "vadd.u32.u32.s32.max d, a, b, c;",
                0,
                (-12i32) as u32 as u64,
                0x4501_4a31
            ),
            0xffff_fff4
        );
        // Signed destination: plain signed comparison of the low word.
        assert_eq!(
            run(
                "vadd.s32.u32.u32.min d, a, b.b0, c;",
                0xffff_fffe,
                0xff,
                0x0180_8000
            ),
            0xfd
        );
        // vabsdiff keeps the whole value: 0x1_3b5b_0c74 is above c, so max keeps it.
        assert_eq!(
            run(
                "vabsdiff.u32.u32.s32.sat.max d, a, b, c;",
                0xbb5b_0c74,
                0x8000_0000,
                0x21
            ),
            0x3b5b_0c74
        );
        // vset: the first type decides. s32: c = 0xfffe01ff is negative, so min takes it.
        assert_eq!(
            run("vset.s32.u32.eq.min d, a, b, c;", 1, 2, 0xfffe_01ff),
            0xfffe_01ff
        );
        assert_eq!(run("vset.u32.u32.eq.min d, a, b, c;", 1, 2, 0xfffe_01ff), 0);
    }

    #[test]
    fn vshl_secondary_sees_64_bits() {
        // 14 << 32 is positive and large: min with c keeps c.
        assert_eq!(
            run(
                "vshl.s32.s32.u32.clamp.min d, a.b2, b, c;",
                0x000e_0000,
                32,
                0x6c_0000
            ),
            0x6c_0000
        );
    }

    #[test]
    fn merges() {
        // Byte lanes take the low byte of the result, moved to the lane.
        assert_eq!(
            run("vadd.u32.u32.u32 d.b1, a, b, c;", 0x12, 0x01, 0xaabb_ccdd),
            0xaabb_13dd
        );
        // .h1 takes bits 16-31 of the result in place: 16 has none.
        assert_eq!(
            run("vmin.s32.s32.u32 d.h1, a.b3, b, c;", 0x6000_0000, 16, 0),
            0
        );
        assert_eq!(
            run(
                "vadd.u32.u32.u32 d.h1, a, b, c;",
                0x0001_0000,
                0x0002_0005,
                0xaaaa_bbbb
            ),
            0x0003_bbbb
        );
        assert!(flagged(
            "vadd.u32.u32.u32 d.h1, a, b, c;",
            0x0001_0000,
            0x0002_0005,
            0xaaaa_bbbb
        ));
    }

    #[test]
    fn lane_saturation_sends_negatives_to_the_maximum() {
        // 1 - 0x27 = -38: saturates to 0x7f for a signed byte lane.
        assert_eq!(
            run(
                "vsub.s32.s32.s32.sat d.b1, a.b0, b.b2, c;",
                0x8001,
                0x8c27_aa83,
                4
            ),
            0x7f04
        );
        // Unsigned half-word: -1 saturates to 0xffff.
        assert_eq!(
            run("vsub.u32.u32.u32.sat d.h0, a, b, c;", 0, 1, 0x1234_0000),
            0x1234_ffff
        );
        // In range: kept.
        assert_eq!(
            run("vadd.s32.s32.s32.sat d.b0, a, b, c;", 3, 4, 0xffff_ff00),
            0xffff_ff07
        );
        // Shifts saturate to the 32-bit range and keep the lane's bits: 0x1ff stays 0xff in b0.
        assert_eq!(
            run("vshl.u32.u32.u32.sat.clamp d.b0, a, b, c;", 0x1ff, 0, 0),
            0xff
        );
    }

    #[test]
    fn vmad_rules() {
        // (u32 * u32) + u32 without scaling: low 32 bits of the sum.
        assert_eq!(run("vmad.u32.u32.u32 d, a, b, c;", 3, 5, 7), 22);
        // A whole-word .u32 with its top bit set multiplies as negative: 0xffffffff * 2 = -2;
        // with .sat (unsigned result) that clamps to 0.
        assert_eq!(run("vmad.u32.u32.u32.sat d, a, b, c;", M32, 2, 0), 0);
        // c is sign-extended even for an unsigned result: 0 + 0xffffffff (-1) -> clamps to 0.
        assert_eq!(run("vmad.u32.u32.u32.sat d, a.b0, b.b0, c;", 0, 0, M32), 0);
        // Unsigned scaling is a logical shift of the 64-bit sum: -1 >>> 7 = 0x01ff_ffff_ffff_ffff.
        assert_eq!(
            run("vmad.u32.u32.u32.shr7 d, a.b0, b.b0, c;", 0, 0, M32),
            M32
        );
        // Signed scaling is arithmetic.
        assert_eq!(
            run(
                "vmad.s32.s32.s32.shr7 d, a, b, c;",
                (-256i32) as u32 as u64,
                1,
                0
            ),
            (-2i32) as u32 as u64
        );
        // -(a*b) + c = ~(a*b) + c + 1.
        assert_eq!(run("vmad.s32.s32.s32 d, -a, b, c;", 3, 4, 20), 8);
        // a*b - c = a*b + ~c + 1.
        assert_eq!(
            run("vmad.s32.s32.s32 d, a, b, -c;", 3, 4, 20),
            (-8i32) as u32 as u64
        );
        // .po adds one.
        assert_eq!(run("vmad.u32.u32.u32.po d, a, b, c;", 3, 4, 5), 18);
        assert!(flagged("vmad.u32.u32.u32.sat d, a, b, c;", M32, 2, 0));
    }

    #[test]
    fn invalid_forms_do_not_panic() {
        for text in [
            "vadd d, a, b;",
            "vadd.u32.u32.u32.min d, a, b;",
            "vshl.u32.u32.u32 d, a, b;",
            "vmad.u32.u32.u32 d, a, b;",
            "vadd.u32.u32.u32 d.b7, a.h3, b.b9, c;",
            "vset.u32.u32.lt.sat d.h1, a, b, c;",
        ] {
            if let Ok(insn) = crate::parse(text) {
                for &(a, b, c) in &[(0, 0, 0), (M32, M32, M32), (0x8000_0000, 0x7fff_ffff, 1)] {
                    let i = Inputs::new(a, b, c, 0);
                    assert_eq!(
                        evaluate(&insn, &i),
                        evaluate_traced(&insn, &i).result.raw() as u64
                    );
                }
            }
        }
    }
}
