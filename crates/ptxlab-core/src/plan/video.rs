//! Plans of the scalar video instructions and `vmad`: the same stages as
//! [`crate::eval::video`] on the hardware's reading, with the form decoded beforehand.

use super::{drive, fns, CmpBits, Field, Fns, Kernel, Notes, Operands};
use crate::ast::{ClampMode, Instruction, SecOp, Selector};
use crate::bits::int_range;
use crate::eval::video::scalar::{
    lane_saturation, merge, primary_of, secondary, word_bounds, word_only,
};
use crate::eval::video::{outside, vmad, Part};
use crate::eval::Inputs;
use crate::isa::lanes::scalar_part;
use crate::isa::ScalarOp;
use crate::trace::Flag;
#[cfg(not(target_arch = "wasm32"))]
use {super::drive4, crate::trace::NoTrace};

const M32: u64 = 0xffff_ffff;

// The primary operations, as const parameters of the kernels.
const ADD: u8 = 0;
const SUB: u8 = 1;
const ABSDIFF: u8 = 2;
const MIN: u8 = 3;
const MAX: u8 = 4;
const SHL: u8 = 5;
const SHR: u8 = 6;
const SET: u8 = 7;

// What follows the primary operation (and the optional saturation).
const PLAIN: u8 = 0;
const SEC_ADD: u8 = 1;
const SEC_MINMAX: u8 = 2;
const MERGE: u8 = 3;

/// The operation a kernel constant stands for (a const parameter cannot be an enum). Evaluated
/// at compile time where it is used, so a constant that stands for none does not compile.
// The wasm build has no const-generic kernels (one loop reads the plan).
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
const fn op_of(p: u8) -> ScalarOp {
    match p {
        ADD => ScalarOp::Add,
        SUB => ScalarOp::Sub,
        ABSDIFF => ScalarOp::Absdiff,
        MIN => ScalarOp::Min,
        MAX => ScalarOp::Max,
        SHL => ScalarOp::Shl,
        SHR => ScalarOp::Shr,
        SET => ScalarOp::Set,
        _ => panic!("not a scalar video operation constant"),
    }
}

/// What follows the primary operation (and the optional saturation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tail {
    /// The result is `d`.
    Plain,
    /// `.add`: plus `c`.
    SecAdd,
    /// `.min` / `.max` with `c`.
    SecMinMax,
    /// A selector on `d`: the result merged into `c`.
    Merge,
}

impl Tail {
    /// As the kernels' constant parameter.
    const fn code(self) -> u8 {
        match self {
            Tail::Plain => PLAIN,
            Tail::SecAdd => SEC_ADD,
            Tail::SecMinMax => SEC_MINMAX,
            Tail::Merge => MERGE,
        }
    }

    /// The tail a kernel constant stands for; see [`op_of`].
    // The wasm build has no const-generic kernels (one loop reads the plan).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    const fn of(t: u8) -> Tail {
        match t {
            PLAIN => Tail::Plain,
            SEC_ADD => Tail::SecAdd,
            SEC_MINMAX => Tail::SecMinMax,
            MERGE => Tail::Merge,
            _ => panic!("not a scalar video tail constant"),
        }
    }
}

fn src_sel(insn: &Instruction, i: usize) -> Option<&Selector> {
    insn.srcs.get(i).and_then(|o| o.sel.as_ref())
}

#[inline(always)]
fn sext32(x: i64) -> i64 {
    x as i32 as i64
}

#[inline(always)]
fn sext34(x: i64) -> i64 {
    ((x as u64) << 30) as i64 >> 30
}

/// `vadd vsub vabsdiff vmin vmax vshl vshr vset`, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scalar {
    /// The operation (the kernels' constant parameter stands for one, see [`op_of`]).
    op: ScalarOp,
    cmp: CmpBits,
    a: Field,
    /// `b`'s part: extended for the arithmetic, or the unsigned shift amount.
    b: Field,
    /// Shift amount: `.clamp` (else `.wrap`).
    clamp: bool,
    dsig: bool,
    sat: bool,
    tail: Tail,
    /// The secondary operation, when the tail is one.
    sec: SecOp,
    /// Merge: the part of `d` written.
    m: Part,
    /// Saturation bound of the merged lane.
    lane_max: u64,
    /// Bounds of the word's saturation (signed: the s32 range; unsigned shifts: the u32 range;
    /// other unsigned results are only raised to 0).
    sat_lo: i64,
    sat_hi: i64,
    /// Neither source has a selector (both are whole words).
    whole: bool,
}

impl Scalar {
    pub(crate) fn new(insn: &Instruction, op: ScalarOp) -> Scalar {
        let f = &insn.form;
        let set = op == ScalarOp::Set;
        let shift = matches!(op, ScalarOp::Shl | ScalarOp::Shr);
        let (dsig, asig, bsig) = if set {
            (
                f.ty(0).is_signed(),
                f.ty(0).is_signed(),
                f.ty(1).is_signed(),
            )
        } else {
            (
                f.ty(0).is_signed(),
                f.ty(1).is_signed(),
                f.ty(2).is_signed(),
            )
        };
        let (alo, aw) = scalar_part(src_sel(insn, 0));
        let (blo, bw) = scalar_part(src_sel(insn, 1));
        let merge = insn.dst().sel.as_ref().map(|s| scalar_part(Some(s)));
        let tail = match (merge, f.secop) {
            (Some(_), _) => Tail::Merge,
            (None, None) => Tail::Plain,
            (None, Some(SecOp::Add)) => Tail::SecAdd,
            (None, Some(_)) => Tail::SecMinMax,
        };
        let m = Part::of(insn.dst().sel.as_ref());
        let (sat_lo, sat_hi) = word_bounds(shift, dsig);
        Scalar {
            op,
            cmp: CmpBits::of(f.cmp.unwrap_or(crate::ast::Cmp::Eq)),
            a: Field::new(alo, aw, asig),
            b: Field::new(blo, bw, bsig && !shift),
            clamp: f.mode.unwrap_or(ClampMode::Clamp) == ClampMode::Clamp,
            dsig,
            sat: f.sat && !set,
            tail,
            sec: f.secop.unwrap_or(SecOp::Add),
            m,
            lane_max: int_range(m.width.min(31), dsig).1 as u64,
            sat_lo,
            sat_hi,
            whole: (alo, aw, blo, bw) == (0, 32, 0, 32),
        }
    }

    /// The kernel; the last four arguments are constants in the batch loops.
    #[inline(always)]
    fn run<T: Notes>(
        &self,
        v: &[u64; 4],
        t: &mut T,
        op: ScalarOp,
        sat: bool,
        tail: Tail,
        whole: bool,
    ) -> u64 {
        let shift = matches!(op, ScalarOp::Shl | ScalarOp::Shr);
        let dsig = self.dsig;
        let c = v[2] & M32;
        // Whole words: constant shifts.
        let (fa, fb) = if whole {
            (self.a.whole(), self.b.whole())
        } else {
            (self.a, self.b)
        };
        let ta = fa.get(v[0]);
        let tb = if shift {
            let b = fb.get(v[1]) as u64;
            let n = if self.clamp { b.min(32) } else { b & 31 };
            let flag = if self.clamp {
                Flag::AmountClamped
            } else {
                Flag::AmountWrapped
            };
            t.note_if(n != b, flag);
            n as i64
        } else {
            fb.get(v[1])
        };
        // The evaluator's primary arithmetic itself, with the operation a constant here.
        let tmp = primary_of(op, self.cmp, ta, tb);

        if tail == Tail::Merge {
            let orig = if shift { sext34(tmp) } else { tmp };
            let x = if sat {
                // The evaluator's saturation for the lane, and its flags.
                let l = lane_saturation(shift, orig, dsig, self.lane_max);
                let (high, low) = l.clamped(orig);
                t.note_if(high, Flag::ClampedHigh);
                t.note_if(low, Flag::ClampedLow);
                l.x
            } else {
                tmp as u64 & M32
            };
            t.note_if(!sat && outside(orig, self.m.width, dsig), Flag::Wrapped);
            // The evaluator's merge.
            return merge(x, c, self.m);
        }

        let r = if sat {
            let x = if shift { sext34(tmp) } else { tmp };
            // The evaluator's stage: a shifted value wrapped to the 34-bit intermediate.
            t.note_if(shift && x != tmp, Flag::Wrapped);
            let r = x.max(self.sat_lo).min(self.sat_hi);
            t.note_if(r < x, Flag::ClampedHigh);
            t.note_if(r > x, Flag::ClampedLow);
            r
        } else {
            tmp
        };
        // Whether the 32-bit word of the result is what the tail reads.
        let word_only = word_only(op, sat);
        match tail {
            Tail::Plain => {
                t.note_if(outside(r, 32, dsig), Flag::Wrapped);
                r as u64 & M32
            }
            Tail::SecAdd => {
                let seen = if word_only { sext32(r) } else { r };
                // The evaluator's secondary operation.
                let out = secondary(SecOp::Add, seen, c, dsig);
                let cx = if dsig { sext32(c as i64) } else { c as i64 };
                t.note_if(outside(r.wrapping_add(cx), 32, dsig), Flag::Wrapped);
                out
            }
            Tail::Merge => unreachable!("merged and returned above"),
            Tail::SecMinMax => {
                let seen = if word_only { sext32(r) } else { r };
                // The evaluator's stage: only the low 32 bits kept, then sign-extended.
                t.note_if(seen != r, Flag::Wrapped);
                // The evaluator's secondary operation.
                let out = secondary(self.sec, seen, c, dsig);
                t.note_if(out == r as u64 & M32 && outside(r, 32, dsig), Flag::Wrapped);
                out
            }
        }
    }

    pub(crate) fn pick(&self) -> Fns {
        let (sat, tail, whole) = (self.sat, self.tail.code(), self.whole);
        let fns = self.pick_any(sat, tail, whole);
        #[cfg(not(target_arch = "wasm32"))]
        if let Some((plain, one)) = self.word() {
            // Without notes: the form as 32-bit arithmetic; the notes come from the general
            // kernel.
            return Fns { plain, one, ..fns };
        }
        fns
    }

    fn pick_any(&self, sat: bool, tail: u8, whole: bool) -> Fns {
        match self.op {
            ScalarOp::Add => pick_p::<ADD>(sat, tail, whole),
            ScalarOp::Sub => pick_p::<SUB>(sat, tail, whole),
            ScalarOp::Absdiff => pick_p::<ABSDIFF>(sat, tail, whole),
            ScalarOp::Min => pick_p::<MIN>(sat, tail, whole),
            ScalarOp::Max => pick_p::<MAX>(sat, tail, whole),
            ScalarOp::Shl => pick_p::<SHL>(sat, tail, whole),
            ScalarOp::Shr => pick_p::<SHR>(sat, tail, whole),
            ScalarOp::Set => pick_p::<SET>(sat, tail, whole),
        }
    }
}

/// The entry points without notes (the batch loop and one case) of a whole-word form in 32-bit
/// arithmetic, where there is one (see [`word`]).
#[cfg(not(target_arch = "wasm32"))]
impl Scalar {
    fn word(&self) -> Option<(super::BatchFn, super::OneFn)> {
        let signed = self.dsig;
        let fits = self.whole
            && matches!(
                self.op,
                ScalarOp::Add | ScalarOp::Sub | ScalarOp::Min | ScalarOp::Max
            )
            && matches!(self.tail, Tail::Plain | Tail::SecAdd)
            && (self.a.keep == -1) == signed
            && (self.b.keep == -1) == signed;
        if !fits {
            return None;
        }
        macro_rules! arms {
            ($($v:ident $p:ident),*) => {
                match (self.op, signed, self.sat, self.tail == Tail::SecAdd) {
                    $(
                        (ScalarOp::$v, false, false, false) => word_fns::<$p, false, false, false>(),
                        (ScalarOp::$v, false, false, true) => word_fns::<$p, false, false, true>(),
                        (ScalarOp::$v, false, true, false) => word_fns::<$p, false, true, false>(),
                        (ScalarOp::$v, false, true, true) => word_fns::<$p, false, true, true>(),
                        (ScalarOp::$v, true, false, false) => word_fns::<$p, true, false, false>(),
                        (ScalarOp::$v, true, false, true) => word_fns::<$p, true, false, true>(),
                        (ScalarOp::$v, true, true, false) => word_fns::<$p, true, true, false>(),
                        (ScalarOp::$v, true, true, true) => word_fns::<$p, true, true, true>(),
                    )*
                    _ => unreachable!("checked above"),
                }
            };
        }
        Some(arms!(Add ADD, Sub SUB, Min MIN, Max MAX))
    }
}

/// `vadd vsub vmin vmax` of whole words, sources and destination of one signedness, with no
/// secondary operation or with `.add`: on the hardware's reading that is plain 32-bit
/// arithmetic. Signed `.sat` saturates the word; unsigned `.sat` only raises a result below 0 to
/// 0 (the sum is never below 0, so it wraps as without `.sat`); `.add` adds `c` modulo 2^32.
/// The compiler makes a few instructions of it and vectorises batches across cases.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn word<const P: u8, const SIGNED: bool, const SAT: bool, const ADDC: bool>(
    a: u32,
    b: u32,
    c: u32,
) -> u32 {
    let r = if SIGNED {
        let (a, b) = (a as i32, b as i32);
        (match const { op_of(P) } {
            ScalarOp::Add if SAT => a.saturating_add(b),
            ScalarOp::Add => a.wrapping_add(b),
            ScalarOp::Sub if SAT => a.saturating_sub(b),
            ScalarOp::Sub => a.wrapping_sub(b),
            ScalarOp::Min => a.min(b),
            ScalarOp::Max => a.max(b),
            other => unreachable!("whole-word arithmetic is add, sub, min or max, not {other:?}"),
        }) as u32
    } else {
        match const { op_of(P) } {
            ScalarOp::Add => a.wrapping_add(b),
            ScalarOp::Sub if SAT => a.saturating_sub(b),
            ScalarOp::Sub => a.wrapping_sub(b),
            ScalarOp::Min => a.min(b),
            ScalarOp::Max => a.max(b),
            other => unreachable!("whole-word arithmetic is add, sub, min or max, not {other:?}"),
        }
    };
    if ADDC {
        r.wrapping_add(c)
    } else {
        r
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn word_fns<const P: u8, const SIGNED: bool, const SAT: bool, const ADDC: bool>(
) -> (super::BatchFn, super::OneFn) {
    (
        word_batch::<P, SIGNED, SAT, ADDC>,
        word_one::<P, SIGNED, SAT, ADDC>,
    )
}

#[cfg(not(target_arch = "wasm32"))]
fn word_batch<const P: u8, const SIGNED: bool, const SAT: bool, const ADDC: bool>(
    _k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    _fl: &mut [u16],
) {
    let f = |v: [u64; 4]| {
        u64::from(word::<P, SIGNED, SAT, ADDC>(
            v[0] as u32,
            v[1] as u32,
            v[2] as u32,
        ))
    };
    let pairs = ins.iter().zip(out.iter_mut());
    if ops.imm {
        for (i, o) in pairs {
            *o = f(ops.values(i));
        }
    } else {
        for (i, o) in pairs {
            *o = f(i.as_array());
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn word_one<const P: u8, const SIGNED: bool, const SAT: bool, const ADDC: bool>(
    _k: &Kernel,
    _ops: &Operands,
    i: &Inputs,
) -> u64 {
    // Plan::eval has put any immediates in place.
    let v = i.as_array();
    u64::from(word::<P, SIGNED, SAT, ADDC>(
        v[0] as u32,
        v[1] as u32,
        v[2] as u32,
    ))
}

/// Without vector instructions (wasm32 here) specialising on the operation, `.sat`, the tail
/// and the selectors gains little and costs code size (the playground's wasm budget): one loop
/// reads them from the plan.
#[cfg(target_arch = "wasm32")]
fn pick_p<const P: u8>(_sat: bool, _tail: u8, _whole: bool) -> Fns {
    fns!(scalar_batch_any[], scalar_batch_any[])
}

#[cfg(target_arch = "wasm32")]
fn scalar_batch_any<N: Notes>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Scalar(k) = k {
        drive::<N, true>(ops, ins, out, fl, |v, t| {
            k.run(v, t, k.op, k.sat, k.tail, false)
        });
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn pick_p<const P: u8>(sat: bool, tail: u8, whole: bool) -> Fns {
    macro_rules! arms {
        ($($s:literal $t:ident),*) => {
            match (sat, tail, whole) {
                $(
                    ($s, $t, false) => fns!(
                        scalar_batch[P, $s, $t, false],
                        scalar_one[P, $s, $t, false]
                    ),
                    ($s, $t, true) => fns!(
                        scalar_batch[P, $s, $t, true],
                        scalar_one[P, $s, $t, true]
                    ),
                )*
                _ => unreachable!("a scalar tail is one of four"),
            }
        };
    }
    arms!(false PLAIN, false SEC_ADD, false SEC_MINMAX, false MERGE,
          true PLAIN, true SEC_ADD, true SEC_MINMAX, true MERGE)
}

#[cfg(not(target_arch = "wasm32"))]
fn scalar_batch<N: Notes, const P: u8, const SAT: bool, const TAIL: u8, const WHOLE: bool>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Scalar(k) = k {
        drive4::<N, true>(ops, ins, out, fl, |v, t| {
            k.run(
                v,
                t,
                const { op_of(P) },
                SAT,
                const { Tail::of(TAIL) },
                WHOLE,
            )
        });
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn scalar_one<const P: u8, const SAT: bool, const TAIL: u8, const WHOLE: bool>(
    k: &Kernel,
    ops: &Operands,
    i: &Inputs,
) -> u64 {
    match k {
        Kernel::Scalar(k) => super::drive_one::<true>(ops, i, |v, t| {
            k.run(
                v,
                t,
                const { op_of(P) },
                SAT,
                const { Tail::of(TAIL) },
                WHOLE,
            )
        }),
        _ => unreachable!("picked for a scalar video kernel only"),
    }
}

/// `vmad`, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Vmad {
    /// The operands as the product reads them: signed 32-bit words.
    a: Field,
    b: Field,
    /// The evaluator's adjustment of the sum: the product and `c` complemented, one added.
    adjust: vmad::Adjust,
    /// `.shr7` / `.shr15`, or 0.
    k: u32,
    signed_final: bool,
    sat: bool,
}

impl Vmad {
    pub(crate) fn new(insn: &Instruction) -> Vmad {
        // The evaluator's decoded form.
        let vf = vmad::VmadForm::of(insn);
        let (alo, aw) = scalar_part(src_sel(insn, 0));
        let (blo, bw) = scalar_part(src_sel(insn, 1));
        // A whole word multiplies as a signed 32-bit number whatever its type.
        Vmad {
            a: Field::new(alo, aw, vf.asig || aw == 32),
            b: Field::new(blo, bw, vf.bsig || bw == 32),
            adjust: vf.adjust,
            k: vf.k,
            signed_final: vf.signed_final,
            sat: insn.form.sat,
        }
    }

    /// The kernel; `k` is the scale's shift (a constant in the native loops).
    #[inline(always)]
    fn run<T: Notes>(&self, v: &[u64; 4], t: &mut T, sat: bool, sf: bool, k: u32) -> u64 {
        let ma = self.a.get(v[0]);
        let mb = self.b.get(v[1]);
        self.finish(ma, mb, v[2] as u32, t, sat, sf, k)
    }

    /// What follows reading the fields `ma` and `mb`: the product, `c`, the scale, the clamp.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn finish<T: Notes>(
        &self,
        ma: i64,
        mb: i64,
        c: u32,
        t: &mut T,
        sat: bool,
        sf: bool,
        k: u32,
    ) -> u64 {
        // The evaluator's adjust stage: a negation completed by one, or `.po`.
        let adj = self.adjust;
        t.note_if(adj.p_not != 0 || adj.c_not != 0, Flag::Negated);
        t.note_if(adj.lsb != 0, Flag::PlusOne);
        // The evaluator's product and sum.
        let sum = adj.sum(ma, mb, u64::from(c)).sum;
        // The evaluator's scale and bounds.
        let scaled = vmad::scale(sum, sf, k);
        if sat {
            let (lo, hi) = vmad::sat_bounds(sf);
            let r = scaled.clamp(lo, hi);
            t.note_if(r < scaled, Flag::ClampedHigh);
            t.note_if(r > scaled, Flag::ClampedLow);
            r as u64 & M32
        } else {
            t.note_if(outside(scaled, 32, sf), Flag::Wrapped);
            scaled as u64 & M32
        }
    }

    pub(crate) fn pick(&self) -> Fns {
        let fns = pick_v(self.sat, self.signed_final, self.k);
        #[cfg(not(target_arch = "wasm32"))]
        if self.narrow() {
            // The batch without notes, and one case, without the clamp.
            return match self.k {
                0 => narrow_fns::<0>(fns),
                7 => narrow_fns::<7>(fns),
                15 => narrow_fns::<15>(fns),
                _ => unreachable!("a vmad scale shifts by 0, 7 or 15"),
            };
        }
        fns
    }

    /// Whether [`Vmad::narrow_d`] gives `d`. Both fields must fit 16 signed bits (bytes, or
    /// signed half-words), so the product fits 32 bits and the sum 34. Then the saturation
    /// never clamps a signed result that is scaled (shifted right by 7 or 15): it is within 32
    /// signed bits. Without `.sat`, `d` is the low 32 bits of the (shifted) sum, which an
    /// arithmetic shift gives as well as the logical one of an unsigned result: the two differ
    /// only from bit 64 - 15 up.
    #[cfg(not(target_arch = "wasm32"))]
    fn narrow(&self) -> bool {
        let fits = |f: Field| f.width() == 8 || (f.width() == 16 && f.signed());
        fits(self.a) && fits(self.b) && (!self.sat || (self.signed_final && self.k > 0))
    }

    /// `d` of a [`Vmad::narrow`] form from the low words of `a`, `b` and `c`: the same as
    /// [`Vmad::finish`] on such a form, with no clamp, and a product of 16-bit numbers (which
    /// vectorises).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn narrow_d<const K: u32>(&self, a: u32, b: u32, c: u32) -> u32 {
        let ma = self.a.get32(a) as i16;
        let mb = self.b.get32(b) as i16;
        let adj = self.adjust;
        let p = (i32::from(ma) * i32::from(mb)) ^ adj.p_not as i32;
        let c = (c ^ adj.c_not as u32) as i32;
        let l = adj.lsb as i32;
        ((i64::from(p) + i64::from(c) + i64::from(l)) >> K) as u32
    }
}

/// `fns` with the batch without notes and the one case of a [`Vmad::narrow`] form scaled by `K`.
#[cfg(not(target_arch = "wasm32"))]
fn narrow_fns<const K: u32>(fns: Fns) -> Fns {
    Fns {
        plain: vmad_narrow_batch::<K>,
        one: vmad_narrow_one::<K>,
        ..fns
    }
}

/// The batch without notes of a [`Vmad::narrow`] form (the batch with notes is the general
/// one, which notes any wrap).
#[cfg(not(target_arch = "wasm32"))]
fn vmad_narrow_batch<const K: u32>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    _: &mut [u16],
) {
    if let Kernel::Vmad(k) = k {
        let n = ins.len().min(out.len());
        // Register values four cases at a time in SSE2 (x86-64); the rest one by one.
        let four = if cfg!(target_arch = "x86_64") && !ops.imm {
            n - n % 4
        } else {
            0
        };
        // SAFETY: SSE2 is part of the x86-64 baseline: every x86-64 CPU has it.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            k.narrow_sse2::<K>(&ins[..four], &mut out[..four])
        };
        let rest = four..n;
        drive4::<NoTrace, true>(ops, &ins[rest.clone()], &mut out[rest], &mut [], |v, _| {
            u64::from(k.narrow_d::<K>(v[0] as u32, v[1] as u32, v[2] as u32))
        });
    }
}

/// [`Vmad::narrow_d`] of four cases in SSE2. The product is `pmaddwd` of the fields (each fits
/// 16 signed bits, `b`'s high half cleared, so each 32-bit lane holds one product), and the
/// shifted sum comes from halves that cannot overflow 32 bits:
/// `(p + c + l) >> k == ((p >> 1) + (c >> 1) + ((p & 1) + (c & 1) + l) >> 1) >> (k - 1)`.
#[cfg(target_arch = "x86_64")]
impl Vmad {
    #[target_feature(enable = "sse2")]
    fn narrow_sse2<const K: u32>(&self, ins: &[Inputs], out: &mut [u64]) {
        use std::arch::x86_64::*;
        let count = |x: u32| _mm_cvtsi32_si128(x as i32);
        let (asl, asr) = (count(self.a.sl - 32), count(self.a.sr - 32));
        let (bsl, bsr) = (count(self.b.sl - 32), count(self.b.sr - 32));
        let akeep = _mm_set1_epi32(self.a.keep as i32);
        let bkeep = _mm_set1_epi32(self.b.keep as i32 & 0xffff);
        let p_not = _mm_set1_epi32(self.adjust.p_not as i32);
        let c_not = _mm_set1_epi32(self.adjust.c_not as i32);
        let l = _mm_set1_epi32(self.adjust.lsb as i32);
        let one = _mm_set1_epi32(1);
        let k1 = count(K.saturating_sub(1));
        for (i, o) in ins.chunks_exact(4).zip(out.chunks_exact_mut(4)) {
            let (a, b, c) = super::sse2::abc4(i);
            let ma = _mm_and_si128(_mm_sra_epi32(_mm_sll_epi32(a, asl), asr), akeep);
            let mb = _mm_and_si128(_mm_sra_epi32(_mm_sll_epi32(b, bsl), bsr), bkeep);
            let p = _mm_xor_si128(_mm_madd_epi16(ma, mb), p_not);
            let c = _mm_xor_si128(c, c_not);
            let d = if K == 0 {
                _mm_add_epi32(_mm_add_epi32(p, c), l)
            } else {
                let odd = _mm_add_epi32(_mm_and_si128(p, one), _mm_and_si128(c, one));
                let halves = _mm_add_epi32(_mm_srai_epi32::<1>(p), _mm_srai_epi32::<1>(c));
                let half = _mm_add_epi32(halves, _mm_srai_epi32::<1>(_mm_add_epi32(odd, l)));
                _mm_sra_epi32(half, k1)
            };
            super::sse2::put4(d, o.try_into().expect("four"));
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn vmad_narrow_one<const K: u32>(k: &Kernel, _: &Operands, i: &Inputs) -> u64 {
    match k {
        Kernel::Vmad(k) => u64::from(k.narrow_d::<K>(i.a as u32, i.b as u32, i.c as u32)),
        _ => unreachable!("picked for a vmad kernel only"),
    }
}

#[cfg(target_arch = "wasm32")]
fn pick_v(sat: bool, sf: bool, _k: u32) -> Fns {
    macro_rules! arms {
        ($($s:literal $f:literal),*) => {
            match (sat, sf) {
                $(($s, $f) => fns!(vmad_batch[$s, $f, 99], vmad_batch[]),)*
            }
        };
    }
    arms!(false false, false true, true false, true true)
}

#[cfg(not(target_arch = "wasm32"))]
fn pick_v(sat: bool, sf: bool, k: u32) -> Fns {
    macro_rules! arms {
        ($($s:literal $f:literal $k:literal),*) => {
            match (sat, sf, k) {
                $(($s, $f, $k) => fns!(vmad_batch[$s, $f, $k], vmad_one[$s, $f, $k]),)*
                _ => unreachable!("a vmad scale shifts by 0, 7 or 15"),
            }
        };
    }
    arms!(false false 0, false false 7, false false 15, false true 0, false true 7, false true 15,
          true false 0, true false 7, true false 15, true true 0, true true 7, true true 15)
}

/// `K`: the scale's shift, or 99 to read it from the plan.
fn vmad_batch<N: Notes, const SAT: bool, const SF: bool, const K: u32>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Vmad(k) = k {
        let sh = if K == 99 { k.k } else { K };
        drive::<N, true>(ops, ins, out, fl, |v, t| k.run(v, t, SAT, SF, sh));
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn vmad_one<const SAT: bool, const SF: bool, const K: u32>(
    k: &Kernel,
    ops: &Operands,
    i: &Inputs,
) -> u64 {
    match k {
        Kernel::Vmad(k) => super::drive_one::<true>(ops, i, |v, t| k.run(v, t, SAT, SF, K)),
        _ => unreachable!("picked for a vmad kernel only"),
    }
}
