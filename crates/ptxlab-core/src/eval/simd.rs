//! SIMD video instructions: two half-word lanes or four byte lanes.
//!
//! The model, as the H100 computes it:
//!
//! 1. `b:a` forms a pool of 8 bytes (4 half-words); entries `0..N` come from `a`, the rest
//!    from `b`. Each digit of `asel`/`bsel` picks one pool entry for one lane (defaults
//!    `.b3210`/`.h10` for the first operand, `.b7654`/`.h32` for the second).
//! 2. Each picked entry is sign- or zero-extended by its operand's type.
//! 3. The operation runs per lane on the exact values (`vset*` gives 1 or 0).
//! 4. With `.sat`, each lane is clamped to the signed or unsigned range of a lane of `dtype`.
//! 5. Without `.add`, lanes in the mask keep the low bits of their result and the other lanes
//!    of `d` are copied from `c` (also for `vset*`, whose text names `b`). With `.add`, the
//!    exact (signed) results of the lanes in the mask are summed into `c`, modulo 2^32.
//!
//! ```
//! use ptxlab_core::eval::{simd, Hardware};
//! use ptxlab_core::trace::NoTrace;
//! use ptxlab_core::check;
//!
//! let insn = check("vadd4.u32.u32.u32.sat d, a, b, c;").unwrap();
//! let v = [0x7f80_ff01, 0x0000_0124, 0, 0];
//! // Each byte lane saturates on its own: 0xff + 0x01 stays 0xff.
//! assert_eq!(simd::eval::<Hardware, _>(&insn, &v, &mut NoTrace), 0x7f80_ff25);
//! ```

use super::semantics::Semantics;
use super::video::CmpBits;
use crate::ast::{Cmp, Instruction, Selector};
use crate::differences::DiffId;
use crate::isa::{lanes, Operation, SimdOp};
use crate::trace::{Detail, Flag, Flow, Saturation, Stage, StageKind, Tracer, Val};

/// Width of the extended operands and of the intermediate, in the ISA's model.
const EXT_BITS: u32 = 33;
const TMP_BITS: u32 = 34;

/// The per-lane operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Avrg,
    Absdiff,
    Min,
    Max,
    Set(Cmp),
}

impl Op {
    #[inline(always)]
    fn of(op: SimdOp, insn: &Instruction) -> Op {
        match op {
            SimdOp::Add => Op::Add,
            SimdOp::Sub => Op::Sub,
            SimdOp::Avrg => Op::Avrg,
            SimdOp::Absdiff => Op::Absdiff,
            SimdOp::Min => Op::Min,
            SimdOp::Max => Op::Max,
            // A comparison written without its `.cmp` is invalid; read it as `.eq`.
            SimdOp::Set => Op::Set(insn.form.cmp.unwrap_or(Cmp::Eq)),
        }
    }

    /// The formula shown for a lane.
    fn formula(self, lane: usize, sum: i64) -> String {
        let (a, b) = (format!("ta[{lane}]"), format!("tb[{lane}]"));
        match self {
            Op::Add => format!("{a} + {b}"),
            Op::Sub => format!("{a} - {b}"),
            Op::Avrg if sum >= 0 => format!("({a} + {b} + 1) >> 1"),
            Op::Avrg => format!("({a} + {b}) >> 1"),
            Op::Absdiff => format!("|{a} - {b}|"),
            Op::Min => format!("min({a}, {b})"),
            Op::Max => format!("max({a}, {b})"),
            Op::Set(c) => format!("{a} {} {b} ? 1 : 0", c.symbol()),
        }
    }
}

/// Evaluate `vop2`/`vop4`: `v` holds `a`, `b`, `c` already truncated to 32 bits.
/// 0 for an instruction of another family.
pub fn eval<S: Semantics, T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    match insn.operation() {
        Some(Operation::Simd2(op)) => eval_lanes::<2, S, T>(op, insn, v, t),
        Some(Operation::Simd4(op)) => eval_lanes::<4, S, T>(op, insn, v, t),
        Some(Operation::Scalar(_) | Operation::Vmad | Operation::Int(_)) | None => 0,
    }
}

/// Pool entry chosen for each lane by a selector ([`lanes::pool_pick`]).
#[inline(always)]
fn picks_of<const N: usize>(sel: Option<&Selector>, src: usize) -> [usize; N] {
    std::array::from_fn(|i| lanes::pool_pick(sel, src, i, N))
}

/// Lanes of `d` written from the result ([`lanes::mask_bits`]).
#[inline(always)]
fn mask_bits<const N: usize>(sel: Option<&Selector>) -> u32 {
    lanes::mask_bits(sel, N)
}

/// Pool entry `k` sign-extended (`k` is below `2 * N`, so the shift stays within 0..64).
#[inline(always)]
fn lane_of<const N: usize>(pool: u64, k: usize) -> i64 {
    let bits = 32 / N as u32;
    let top = bits * ((k & (2 * N - 1)) as u32 + 1);
    ((pool << (64 - top)) as i64) >> (64 - bits)
}

// Branch-free minimum, maximum and absolute value of lane values (all far inside the `i64`
// range). Written with the sign of a difference so that the compiler keeps them free of
// branches, which random lane data would mispredict half of the time.

#[inline(always)]
fn min_of(x: i64, y: i64) -> i64 {
    let d = x - y;
    y + (d & (d >> 63))
}

#[inline(always)]
fn max_of(x: i64, y: i64) -> i64 {
    let d = x - y;
    x - (d & (d >> 63))
}

#[inline(always)]
fn abs_of(x: i64) -> i64 {
    let m = x >> 63;
    (x ^ m) - m
}

#[inline(always)]
fn lanewise<const N: usize>(x: &[i64; N], y: &[i64; N], f: impl Fn(i64, i64) -> i64) -> [i64; N] {
    let mut r = [0i64; N];
    for i in 0..N {
        r[i] = f(x[i], y[i]);
    }
    r
}

/// The integer type lanes are computed in: in the plans `i16` for byte lanes (every value and
/// result of a byte lane fits, and 16-bit lanes vectorise twice as wide with native min and
/// max) and `i32` for half-word lanes; in the evaluator `i64`.
pub(crate) trait Lane:
    Copy
    + Default
    + Ord
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Shr<u32, Output = Self>
    + std::ops::BitAnd<Output = Self>
{
    /// `x` truncated to this type (the caller knows it fits).
    fn of(x: i32) -> Self;
    /// The low `bits` (8 or 16) of `w`, sign-extended.
    fn lane(w: u32, bits: u32) -> Self;
    fn i32(self) -> i32;
    fn abs(self) -> Self;
    fn test(c: CmpBits, x: Self, y: Self) -> Self;
}

impl Lane for i16 {
    #[inline(always)]
    fn of(x: i32) -> i16 {
        x as i16
    }
    #[inline(always)]
    fn lane(w: u32, bits: u32) -> i16 {
        debug_assert_eq!(bits, 8);
        i16::from(w as u8 as i8)
    }
    #[inline(always)]
    fn i32(self) -> i32 {
        i32::from(self)
    }
    #[inline(always)]
    fn abs(self) -> i16 {
        self.abs()
    }
    #[inline(always)]
    fn test(c: CmpBits, x: i16, y: i16) -> i16 {
        c.test32(i32::from(x), i32::from(y)) as i16
    }
}

impl Lane for i32 {
    #[inline(always)]
    fn of(x: i32) -> i32 {
        x
    }
    #[inline(always)]
    fn lane(w: u32, bits: u32) -> i32 {
        ((w << (32 - bits)) as i32) >> (32 - bits)
    }
    #[inline(always)]
    fn i32(self) -> i32 {
        self
    }
    #[inline(always)]
    fn abs(self) -> i32 {
        self.abs()
    }
    #[inline(always)]
    fn test(c: CmpBits, x: i32, y: i32) -> i32 {
        c.test32(x, y)
    }
}

impl Lane for i64 {
    #[inline(always)]
    fn of(x: i32) -> i64 {
        i64::from(x)
    }
    #[inline(always)]
    fn lane(w: u32, bits: u32) -> i64 {
        i64::from(((w << (32 - bits)) as i32) >> (32 - bits))
    }
    #[inline(always)]
    fn i32(self) -> i32 {
        self as i32
    }
    #[inline(always)]
    fn abs(self) -> i64 {
        abs_of(self)
    }
    #[inline(always)]
    fn test(c: CmpBits, x: i64, y: i64) -> i64 {
        c.test(x, y)
    }
}

/// The primary operation on one lane: the one definition of the SIMD lane arithmetic, run by
/// the evaluator (in `i64`, `op` a constant in each of its arms) and by the plans' kernels
/// (`plan::simd`, in `i16` or `i32` lanes, `op` a constant of the kernel).
#[inline(always)]
pub(crate) fn lane_op<L: Lane>(op: SimdOp, cmp: CmpBits, x: L, y: L) -> L {
    match op {
        SimdOp::Add => x + y,
        SimdOp::Sub => x - y,
        SimdOp::Avrg => {
            let s = x + y;
            (s + L::of((s >= L::default()) as i32)) >> 1
        }
        SimdOp::Absdiff => (x - y).abs(),
        SimdOp::Min => x.min(y),
        SimdOp::Max => x.max(y),
        SimdOp::Set => L::test(cmp, x, y),
    }
}

/// Value of a `bits`-wide field (already masked), sign-extended when `signed`.
#[inline(always)]
fn extend(raw: u64, bits: u32, signed: bool) -> i64 {
    if signed {
        crate::bits::sext(raw, bits)
    } else {
        raw as i64
    }
}

/// Range of one lane of the destination.
#[inline(always)]
fn lane_range(bits: u32, signed: bool) -> (i64, i64) {
    if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    }
}

/// `op` on `N` lanes (2 or 4), as the family's dispatch reads it.
pub(crate) fn eval_lanes<const N: usize, S: Semantics, T: Tracer>(
    op: SimdOp,
    insn: &Instruction,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    let lb = 32 / N as u32;
    let lmask = (1u64 << lb) - 1;
    let op = Op::of(op, insn);
    let form = &insn.form;
    // From the row's sign rules (`vset2/vset4` are written `.atype.btype`, their d unsigned).
    let sg = insn.signs();
    let (d_signed, a_signed, b_signed) = (sg & 1 != 0, sg & 2 != 0, sg & 4 != 0);
    let sat = form.sat && !matches!(op, Op::Set(_));
    let add = form.secop.is_some();
    let (a, b, c) = (v[0] & 0xffff_ffff, v[1] & 0xffff_ffff, v[2] & 0xffff_ffff);
    let pool = (b << 32) | a;
    let asel = insn.srcs.first().and_then(|o| o.sel.as_ref());
    let bsel = insn.srcs.get(1).and_then(|o| o.sel.as_ref());
    let msel = insn.dst().sel.as_ref();
    let mask = mask_bits::<N>(msel);
    let (lo, hi) = lane_range(lb, d_signed);

    let picks = [picks_of::<N>(asel, 0), picks_of::<N>(bsel, 1)];

    // Extraction: shift the lane to the top of the pool, then back down arithmetically; an
    // unsigned operand keeps only the lane's own bits.
    let keep_a = if a_signed { -1 } else { lmask as i64 };
    let keep_b = if b_signed { -1 } else { lmask as i64 };
    let mut x = [0i64; N];
    let mut y = [0i64; N];
    for i in 0..N {
        x[i] = lane_of::<N>(pool, picks[0][i]) & keep_a;
        y[i] = lane_of::<N>(pool, picks[1][i]) & keep_b;
    }

    // The lane arithmetic is `lane_op`'s, which the plans run too; each arm names its
    // operation as a constant, so the loop holds only that operation's line.
    let none = CmpBits::NONE;
    let r = match op {
        Op::Add => lanewise(&x, &y, |x, y| lane_op(SimdOp::Add, none, x, y)),
        Op::Sub => lanewise(&x, &y, |x, y| lane_op(SimdOp::Sub, none, x, y)),
        Op::Avrg => lanewise(&x, &y, |x, y| lane_op(SimdOp::Avrg, none, x, y)),
        Op::Absdiff => lanewise(&x, &y, |x, y| lane_op(SimdOp::Absdiff, none, x, y)),
        Op::Min => lanewise(&x, &y, |x, y| lane_op(SimdOp::Min, none, x, y)),
        Op::Max => lanewise(&x, &y, |x, y| lane_op(SimdOp::Max, none, x, y)),
        Op::Set(c) => {
            let cmp = CmpBits::of(c);
            lanewise(&x, &y, |x, y| lane_op(SimdOp::Set, cmp, x, y))
        }
    };

    // Lane results: exact values, clamped with `.sat`.
    let mut res = r;
    if sat {
        for v in res.iter_mut() {
            *v = min_of(max_of(*v, lo), hi);
        }
    }

    if T::ON {
        trace_pool::<N, T>(t, a, b, &picks);
    }
    for i in 0..N {
        if T::ON {
            trace_extract::<N, T>(t, i, 'a', picks[0][i], a, b, a_signed, x[i]);
            trace_extract::<N, T>(t, i, 'b', picks[1][i], a, b, b_signed, y[i]);
            trace_operate(t, i, op, x[i], y[i], r[i]);
        }
        // The clamp's stage carries its flags, so it is offered to every tracer.
        if sat {
            trace_clamp(t, i, lb, d_signed, r[i], lo, hi);
        }
    }

    if add {
        accumulate::<N, T>(t, &res, mask, c, msel, d_signed, op)
    } else {
        merge::<N, S, T>(t, &res, mask, c, msel, d_signed, op, sat)
    }
}

/// `.add`: the exact results of the lanes in the mask summed into `c`, modulo 2^32.
fn accumulate<const N: usize, T: Tracer>(
    t: &mut T,
    res: &[i64; N],
    mask: u32,
    c: u64,
    msel: Option<&Selector>,
    d_signed: bool,
    op: Op,
) -> u64 {
    let mut sum = c as i64;
    for (i, &r) in res.iter().enumerate() {
        // `r` when lane `i` is in the mask, 0 otherwise.
        sum += r & -((mask >> i & 1) as i64);
    }
    let d = sum as u64 & 0xffff_ffff;
    let (lo32, hi32) = lane_range(32, d_signed);
    let exact = sum - c as i64 + extend(c, 32, d_signed);
    let lane_bits = if matches!(op, Op::Set(_)) {
        1
    } else {
        TMP_BITS
    };
    let lane_signed = !matches!(op, Op::Set(_));
    // Stages that carry flags are offered to every tracer; the others only when kept.
    for (i, &r) in res.iter().enumerate() {
        if mask >> i & 1 == 0 {
            t.stage([(true, Flag::MaskedOff)], || {
                Stage::new(
                    StageKind::Accumulate,
                    format!(
                        "lane {i} is not in the mask {}: left out of the sum",
                        mask_text::<N>(msel)
                    ),
                    Val::new(format!("t[{i}]"), lane_bits, lane_signed, r as i128),
                )
                // The lane's result as it was made, shown where the sum leaves it out.
                .input(Val::new(
                    format!("t[{i}]"),
                    lane_bits,
                    lane_signed,
                    r as i128,
                ))
                .flow(Flow::extend(false))
                .lane(i as u8)
            });
        }
    }
    if T::ON {
        let c_val = Val::new("c", 32, d_signed, extend(c, 32, d_signed) as i128);
        let mut formula = String::from("c");
        let mut inputs = vec![c_val.clone()];
        for (i, &r) in res.iter().enumerate() {
            if mask >> i & 1 != 0 {
                formula.push_str(&format!(" + t[{i}]"));
                inputs.push(Val::new(
                    format!("t[{i}]"),
                    lane_bits,
                    lane_signed,
                    r as i128,
                ));
            }
        }
        t.stage([], || {
            Stage::new(
                StageKind::Accumulate,
                if lane_signed {
                    "lane results in the mask added to c, each in full and with its sign"
                } else {
                    "comparison results (1 or 0) in the mask added to c"
                },
                Val::new("sum", TMP_BITS, true, i128::from(exact)),
            )
            .flow(Flow::Carry)
            .op(formula)
            .inputs(inputs)
        });
    }
    t.stage([(exact < lo32 || exact > hi32, Flag::Wrapped)], || {
        Stage::new(
            StageKind::Result,
            "the low 32 bits of the sum are written to d",
            Val::reg("d", 32, d),
        )
        .flow(Flow::extend(false))
        .op("sum mod 2^32")
        .input(Val::new("sum", TMP_BITS, true, i128::from(exact)))
    });
    d
}

/// Without `.add`: lanes in the mask take the low bits of their result, the others come from `c`.
#[allow(clippy::too_many_arguments)]
fn merge<const N: usize, S: Semantics, T: Tracer>(
    t: &mut T,
    res: &[i64; N],
    mask: u32,
    c: u64,
    msel: Option<&Selector>,
    d_signed: bool,
    op: Op,
    sat: bool,
) -> u64 {
    let lb = 32 / N as u32;
    let lmask = (1u64 << lb) - 1;
    let mut packed = 0u64;
    let mut keep = 0u64;
    for (i, &r) in res.iter().enumerate() {
        let sh = lb as usize * i;
        packed |= (r as u64 & lmask) << sh;
        keep |= (lmask * (mask >> i & 1) as u64) << sh;
    }
    let hw = (packed & keep) | (c & !keep & 0xffff_ffff);
    let d = if S::TEXT {
        merge_text::<N>(res, mask, c, d_signed)
    } else {
        hw
    };
    let (lo, hi) = lane_range(lb, d_signed);
    let is_set = matches!(op, Op::Set(_));
    // Stages that carry flags are offered to every tracer; the others only when kept.
    for (i, &r) in res.iter().enumerate() {
        let sh = lb as usize * i;
        if mask >> i & 1 == 0 {
            t.stage([(true, Flag::MaskedOff)], || {
                let from_c = (c >> sh) & lmask;
                let mask_name = mask_text::<N>(msel);
                let (label, out) = if S::TEXT {
                        (
                            format!(
                                "lane {i} is not in the mask {mask_name}: Vc[{i}], lane {i} of c extended"
                            ),
                            Val::new(
                                format!("Vc[{i}]"),
                                lb,
                                d_signed,
                                extend(from_c, lb, d_signed) as i128,
                            ),
                        )
                    } else {
                        (
                            format!("lane {i} is not in the mask {mask_name}: d keeps lane {i} of c"),
                            Val::reg(format!("d[{i}]"), lb, from_c),
                        )
                    };
                    Stage::new(StageKind::Merge, label, out)
                        .input(Val::reg("c", 32, c))
                        .lane(i as u8)
                        .flow(Flow::field(sh as u32, lb, S::TEXT && d_signed))
                        .detail(Detail::Field {
                            source: c,
                            source_bits: 32,
                            lo: sh as u32,
                            width: lb,
                            signed: S::TEXT && d_signed,
                            out_bits: lb,
                        })
                });
        } else if !is_set && !sat && !S::TEXT {
            t.stage([(r < lo || r > hi, Flag::Wrapped)], || {
                let kept = extend((packed >> sh) & lmask, lb, d_signed);
                Stage::new(
                    StageKind::Truncate,
                    format!("lane {i} keeps the low {lb} bits of its result"),
                    Val::new(format!("t[{i}]"), lb, d_signed, kept as i128),
                )
                .flow(Flow::extend(false))
                .op(format!("t[{i}] mod 2^{lb}"))
                .input(Val::new(format!("t[{i}]"), TMP_BITS, true, r as i128))
                .lane(i as u8)
            });
        }
    }
    if T::ON {
        let mask_name = mask_text::<N>(msel);
        let text = if S::TEXT {
            d
        } else {
            merge_text::<N>(res, mask, c, d_signed)
        };
        t.stage([], || {
            if S::TEXT {
                let mut formula = String::from("0");
                for i in 0..N {
                    if mask >> i & 1 != 0 {
                        formula.push_str(&format!(" | t[{i}]"));
                    } else {
                        formula.push_str(&format!(" | Vc[{i}]"));
                    }
                }
                Stage::new(
                    StageKind::Merge,
                    format!(
                        "lanes in the mask {mask_name} (t[i]) and the others (Vc[i]) OR-ed together where they are, as the pseudocode's d |= ... reads"
                    ),
                    Val::reg("d", 32, d),
                )
                .op(formula)
                .inputs(
                    res.iter()
                        .enumerate()
                        .filter(|(i, _)| mask >> i & 1 != 0)
                        .map(|(i, &r)| Val::new(format!("t[{i}]"), TMP_BITS, true, r as i128)),
                )
                .input(Val::reg("c", 32, c))
                .differs_if(hw != d, DiffId::SimdMergeLanes)
            } else {
                let from_result: Vec<bool> = (0..N).map(|i| mask >> i & 1 != 0).collect();
                let keep_hex = format!("0x{keep:08x}");
                let other_hex = format!("0x{:08x}", !keep & 0xffff_ffff);
                Stage::new(
                    StageKind::Merge,
                    format!("lanes in the mask {mask_name} from the result, the others from c"),
                    Val::reg("d", 32, d),
                )
                .op(format!("(t & {keep_hex}) | (c & {other_hex})"))
                .input(Val::reg("t", 32, packed))
                .input(Val::reg("c", 32, c))
                .detail(Detail::Merge {
                    lane_bits: lb,
                    from_result,
                    other: "c".into(),
                    moved: false,
                })
                .differs_if(text != d, DiffId::SimdMergeLanes)
            }
        });
        t.stage([], || {
            Stage::new(
                StageKind::Result,
                "the merged word is written to d",
                Val::reg("d", 32, d),
            )
        });
    }
    d
}

/// The pseudocode's merge read literally: `d = 0; d |= mask[i] ? t[i] : Vc[i]` with every lane
/// value OR-ed in where it is (not moved to its lane, not cut to the lane's width), `Vc[i]`
/// being lane `i` of `c` extended by the destination's signedness.
fn merge_text<const N: usize>(res: &[i64; N], mask: u32, c: u64, signed: bool) -> u64 {
    let lb = 32 / N as u32;
    let lmask = (1u64 << lb) - 1;
    let mut d = 0i64;
    for (i, &r) in res.iter().enumerate() {
        d |= if mask >> i & 1 != 0 {
            r
        } else {
            extend((c >> (lb as usize * i)) & lmask, lb, signed)
        };
    }
    d as u64 & 0xffff_ffff
}

/// The mask as written, or the default it stands for.
fn mask_text<const N: usize>(msel: Option<&Selector>) -> String {
    match msel {
        Some(s) => s.to_string(),
        None if N == 2 => ".h10 (default)".into(),
        None => ".b3210 (default)".into(),
    }
}

/// Name of pool entry `k`: `a.b2`, `b.h1`...
fn entry_name<const N: usize>(k: usize) -> String {
    let kind = if N == 2 { 'h' } else { 'b' };
    if k < N {
        format!("a.{kind}{k}")
    } else {
        format!("b.{kind}{}", k - N)
    }
}

fn trace_pool<const N: usize, T: Tracer>(t: &mut T, a: u64, b: u64, picks: &[[usize; N]; 2]) {
    let lb = 32 / N as u32;
    let lmask = (1u64 << lb) - 1;
    let pool = (b << 32) | a;
    let entries: Vec<u64> = (0..2 * N)
        .map(|k| (pool >> (lb as usize * k)) & lmask)
        .collect();
    let (unit, count) = if N == 2 {
        ("half-words", 4)
    } else {
        ("bytes", 8)
    };
    t.stage([], || {
        Stage::new(
            StageKind::Pool,
            format!(
                "the {count} {unit} of b:a, numbered from the low end: 0-{} from a, {}-{} from b",
                N - 1,
                N,
                2 * N - 1
            ),
            Val::reg("b:a", 64, pool),
        )
        .op("b:a")
        .input(Val::reg("a", 32, a))
        .input(Val::reg("b", 32, b))
        .flow(Flow::Concat)
        .detail(Detail::Pool {
            lane_bits: lb,
            entries,
            picks_a: picks[0].iter().map(|&k| k as u8).collect(),
            picks_b: picks[1].iter().map(|&k| k as u8).collect(),
        })
    });
}

#[allow(clippy::too_many_arguments)]
fn trace_extract<const N: usize, T: Tracer>(
    t: &mut T,
    lane: usize,
    which: char,
    k: usize,
    a: u64,
    b: u64,
    signed: bool,
    x: i64,
) {
    let lb = 32 / N as u32;
    let (src_name, src, pos) = if k < N { ("a", a, k) } else { ("b", b, k - N) };
    t.stage([], || {
        Stage::new(
            StageKind::Extract,
            format!(
                "lane {lane} of t{which}: pool entry {k} ({}) {}-extended to {EXT_BITS} bits",
                entry_name::<N>(k),
                if signed { "sign" } else { "zero" }
            ),
            Val::new(format!("t{which}[{lane}]"), EXT_BITS, true, x as i128),
        )
        .input(Val::reg(src_name, 32, src))
        .lane(lane as u8)
        .extended(signed)
        .flow(Flow::field(lb * pos as u32, lb, signed))
        .detail(Detail::Field {
            source: src,
            source_bits: 32,
            lo: lb * pos as u32,
            width: lb,
            signed,
            out_bits: EXT_BITS,
        })
    });
}

fn trace_clamp<T: Tracer>(t: &mut T, i: usize, lb: u32, d_signed: bool, r: i64, lo: i64, hi: i64) {
    let s = r.clamp(lo, hi);
    t.stage(
        [(r > hi, Flag::ClampedHigh), (r < lo, Flag::ClampedLow)],
        || {
            Stage::new(
                StageKind::Clamp,
                format!(
                    "lane {i} clamped to the {} {lb}-bit range",
                    if d_signed { "signed" } else { "unsigned" }
                ),
                Val::new(format!("t[{i}]"), lb, d_signed, s as i128),
            )
            .saturate(
                Saturation::Range {
                    lo: lo.into(),
                    hi: hi.into(),
                },
                Val::new(format!("t[{i}]"), TMP_BITS, true, r as i128),
            )
            .lane(i as u8)
        },
    );
}

fn trace_operate<T: Tracer>(t: &mut T, lane: usize, op: Op, x: i64, y: i64, r: i64) {
    let (kind, bits, signed) = match op {
        Op::Set(_) => (StageKind::Compare, 1, false),
        Op::Add | Op::Sub | Op::Avrg | Op::Absdiff | Op::Min | Op::Max => {
            (StageKind::Operate, TMP_BITS, true)
        }
    };
    t.stage([], || {
        Stage::new(
            kind,
            match op {
                Op::Set(_) => format!("lane {lane}: compare"),
                Op::Avrg => format!("lane {lane}: average, halves rounded away from zero"),
                Op::Add | Op::Sub | Op::Absdiff | Op::Min | Op::Max => {
                    format!("lane {lane}: operate on the exact values")
                }
            },
            Val::new(format!("t[{lane}]"), bits, signed, r as i128),
        )
        .flow(if matches!(op, Op::Add | Op::Sub) {
            Flow::Carry
        } else {
            Flow::All
        })
        .op(op.formula(lane, x + y))
        .input(Val::new(format!("ta[{lane}]"), EXT_BITS, true, x as i128))
        .input(Val::new(format!("tb[{lane}]"), EXT_BITS, true, y as i128))
        .lane(lane as u8)
    });
}

#[cfg(test)]
mod tests {
    use crate::eval::{evaluate, evaluate_traced, Inputs};
    use crate::trace::{Detail, Flag, StageKind};
    use crate::{check, parse};

    fn run(text: &str, a: u64, b: u64, c: u64) -> u64 {
        let insn = check(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let d = evaluate(&insn, &Inputs::new(a, b, c, 0));
        let traced = evaluate_traced(&insn, &Inputs::new(a, b, c, 0));
        assert_eq!(
            traced.result.raw() as u64,
            d,
            "trace and fast path differ: {text}"
        );
        d
    }

    #[test]
    fn default_selectors_pair_a_with_b() {
        // a.b3210 with b.b7654: byte i of a with byte i of b.
        assert_eq!(
            run("vadd4.u32.u32.u32 d, a, b, c;", 0x0403_0201, 0x4030_2010, 0),
            0x4433_2211
        );
        // a.h10 with b.h32.
        assert_eq!(
            run("vadd2.u32.u32.u32 d, a, b, c;", 0x0002_0001, 0x0020_0010, 0),
            0x0022_0011
        );
    }

    #[test]
    fn selector_digits_index_the_pool_of_b_and_a() {
        // b.h10 names half-words 1 and 0 of the pool, which come from a, not from b.
        assert_eq!(
            run(
                "vadd2.u32.u32.u32 d, a.h10, b.h10, c;",
                0x0003_0002,
                0x0005_0004,
                0
            ),
            0x0006_0004
        );
        // a.b4567 reverses b's bytes; b.b0000 repeats a's byte 0 in every lane.
        assert_eq!(
            run(
                "vadd4.u32.u32.u32 d, a.b4567, b.b0000, c;",
                0x0000_0001,
                0x4030_2010,
                0
            ),
            0x1121_3141
        );
    }

    #[test]
    fn lanes_wrap_within_themselves_without_sat() {
        // 0xff + 1 in byte 0 gives 0x00; nothing carries into byte 1.
        assert_eq!(run("vadd4.u32.u32.u32 d, a, b, c;", 0xff, 0x01, 0), 0);
        // 0 - 1 in half-word 0 gives 0xffff; nothing borrows from half-word 1.
        assert_eq!(
            run("vsub2.u32.u32.u32 d, a, b, c;", 0x0001_0000, 0x0000_0001, 0),
            0x0001_ffff
        );
    }

    #[test]
    fn sat_clamps_each_lane_to_the_destination_lane_range() {
        assert_eq!(
            run("vadd4.u32.u32.u32.sat d, a, b, c;", 0xff, 0x01, 0),
            0xff
        );
        assert_eq!(
            run("vsub4.u32.u32.u32.sat d, a, b, c;", 0x00, 0x01, 0),
            0x00
        );
        // Lane 0: 0x7fff + 1 clamps to 0x7fff; lane 1: -32768 + -32768 clamps to -32768.
        assert_eq!(
            run(
                "vadd2.s32.s32.s32.sat d, a, b, c;",
                0x8000_7fff,
                0x8000_0001,
                0
            ),
            0x8000_7fff
        );
        // |-128 - 127| = 255: wraps to 0xff without .sat, clamps to 127 for a signed dtype.
        assert_eq!(
            run("vabsdiff4.u32.s32.s32 d, a, b, c;", 0x80, 0x7f, 0),
            0xff
        );
        assert_eq!(
            run("vabsdiff4.s32.s32.s32.sat d, a, b, c;", 0x80, 0x7f, 0),
            0x7f
        );
    }

    #[test]
    fn average_rounds_halves_away_from_zero() {
        // Lane 0: (1 + 2) / 2 = 1.5 -> 2; lane 1: (-1 + -2) / 2 = -1.5 -> -2.
        assert_eq!(
            run(
                "vavrg2.s32.s32.s32 d, a, b, c;",
                0xffff_0001,
                0xfffe_0002,
                0
            ),
            0xfffe_0002
        );
        // Bytes: (-1 + 0) / 2 = -0.5 -> -1; (1 + 0) / 2 = 0.5 -> 1.
        assert_eq!(run("vavrg4.s32.s32.s32 d, a, b, c;", 0x01ff, 0, 0), 0x01ff);
    }

    #[test]
    fn each_operand_is_extended_by_its_own_type() {
        // a.h0 = 0x8000 is 32768 unsigned, -32768 signed; b.h0 = 1.
        assert_eq!(
            run("vmin2.u32.u32.s32 d, a, b, c;", 0x8000, 0x0001, 0),
            0x0001
        );
        assert_eq!(
            run("vmin2.u32.s32.s32 d, a, b, c;", 0x8000, 0x0001, 0),
            0x8000
        );
        assert_eq!(run("vset4.u32.s32.lt d, a, b, c;", 0x80, 0x01, 0), 0);
        assert_eq!(run("vset4.s32.u32.lt d, a, b, c;", 0x80, 0x01, 0), 1);
    }

    #[test]
    fn lanes_outside_the_mask_come_from_c() {
        assert_eq!(
            run(
                "vadd4.u32.u32.u32 d.b20, a, b, c;",
                0x0101_0101,
                0x0101_0101,
                0xaabb_ccdd
            ),
            0xaa02_cc02
        );
        // vset2: the text names b as the source of the other lanes; the H100 uses c.
        assert_eq!(
            run(
                "vset2.u32.u32.eq d.h0, a, b, c;",
                0x0000_0005,
                0x1234_0005,
                0xabcd_0000
            ),
            0xabcd_0001
        );
        assert_eq!(
            run(
                "vset4.u32.u32.ne d.b1, a, b, c;",
                0,
                0x0000_0100,
                0x1122_3344
            ),
            0x1122_0144
        );
    }

    #[test]
    fn accumulate_adds_exact_signed_lanes_in_the_mask() {
        // Lane 0: 0 - 1 = -1 is added as -1 although dtype is u32.
        assert_eq!(run("vsub4.u32.u32.u32.add d, a, b, c;", 0, 1, 10), 9);
        // Each lane is 0xff + 0xff = 510, added in full: 4 * 510 = 0x7f8.
        assert_eq!(
            run(
                "vadd4.u32.u32.u32.add d, a, b, c;",
                0xffff_ffff,
                0xffff_ffff,
                0
            ),
            0x7f8
        );
        // Only lanes 3 and 1 count.
        assert_eq!(run("vset4.u32.u32.eq.add d.b31, a, b, c;", 7, 7, 100), 102);
        // The sum wraps modulo 2^32.
        assert_eq!(
            run(
                "vadd2.u32.u32.u32.add d, a, b, c;",
                0x0000_0002,
                0,
                0xffff_ffff
            ),
            1
        );
    }

    #[test]
    fn trace_shows_pool_mask_and_merge() {
        let insn = check("vset4.u32.u32.eq d.b20, a.b0123, b, c;").unwrap();
        let tr = evaluate_traced(
            &insn,
            &Inputs::new(0x0403_0201, 0x0102_0304, 0xffff_ffff, 0),
        );
        let pool = tr
            .stages
            .iter()
            .find(|s| s.kind == StageKind::Pool)
            .unwrap();
        match &pool.detail {
            Detail::Pool {
                entries,
                picks_a,
                picks_b,
                lane_bits,
            } => {
                assert_eq!(*lane_bits, 8);
                assert_eq!(entries, &[1, 2, 3, 4, 4, 3, 2, 1]);
                assert_eq!(picks_a, &[3, 2, 1, 0]);
                assert_eq!(picks_b, &[4, 5, 6, 7]);
            }
            d => panic!("unexpected detail {d:?}"),
        }
        let masked: Vec<u8> = tr
            .stages
            .iter()
            .filter(|s| s.flags.contains(&Flag::MaskedOff))
            .filter_map(|s| s.lane)
            .collect();
        assert_eq!(masked, [1, 3]);
        let merge = tr
            .stages
            .iter()
            .find(|s| matches!(s.detail, Detail::Merge { .. }))
            .unwrap();
        assert!(merge.flags.contains(&Flag::HardwareDiffersFromText));
        assert_eq!(
            merge.detail,
            Detail::Merge {
                lane_bits: 8,
                from_result: vec![true, false, true, false],
                other: "c".into(),
                moved: false,
            }
        );
        let last = tr.stages.last().unwrap();
        assert_eq!(last.kind, StageKind::Result);
        assert_eq!(last.output.name, "d");
        // Lanes: 4 vs 4 -> 1, 1 vs 1 -> 1 in lanes 0 and 2.
        assert_eq!(tr.result.raw(), 0xff01_ff01);
    }

    #[test]
    fn clamp_stages_flag_the_side_clamped() {
        let insn = check("vsub2.s32.s32.s32.sat d, a, b, c;").unwrap();
        let tr = evaluate_traced(&insn, &Inputs::new(0x7fff_8000, 0xffff_0001, 0, 0));
        let clamps: Vec<_> = tr
            .stages
            .iter()
            .filter(|s| s.kind == StageKind::Clamp)
            .collect();
        assert_eq!(clamps.len(), 2);
        assert!(clamps[0].flags.contains(&Flag::ClampedLow));
        assert!(clamps[1].flags.contains(&Flag::ClampedHigh));
        assert_eq!(tr.result.raw(), 0x7fff_8000);
    }

    #[test]
    fn malformed_instructions_do_not_panic() {
        let texts = [
            "vadd4.u32.u32.u32 d.b7, a.b9, b.b1, c;",
            "vadd2 d.h5, a.h7, b.h3210, c;",
            "vset4.u32.u32 d, a, b, c;",
            "vavrg4.s32.s32.s32.sat.add d, a.b7777, b.b0, c;",
            "vmax2.s32.s32.s32 d.b3210, a.b76543210, b, c;",
        ];
        let mut parsed = 0;
        for text in texts {
            let Ok(mut insn) = parse(text) else { continue };
            parsed += 1;
            for v in [0u64, u64::MAX, 0x8000_8000, 0x7f7f_7f7f] {
                let inputs = Inputs::new(v, !v, v ^ 0x1234, 0);
                evaluate(&insn, &inputs);
                evaluate_traced(&insn, &inputs);
            }
            insn.srcs.clear();
            evaluate(&insn, &Inputs::default());
            evaluate_traced(&insn, &Inputs::default());
        }
        assert!(parsed >= 3, "only {parsed} texts parsed");
    }
}
