//! Plans of the integer arithmetic instructions: the form decoded once, as the evaluator decodes
//! it ([`IntForm`]). The forms with a fast path of the plan's own (`add`/`sub`, the half-word
//! pairs, `mul`/`mad`, `mul24`/`mad24`, `min`/`max`, the dot products) compute values of 32 bits
//! or fewer in `i64` and raise their stages' flags with [`Notes::note_if`]; every other form runs
//! the evaluator's step functions ([`Int::Steps`]), its arithmetic and flags as written there.

use super::{drive, fns, Fns, Kernel, Notes, Operands};
use crate::ast::{HalfMode, Instruction};
use crate::bits::sext as sx;
use crate::eval::integer::add_sub::X2Op;
use crate::eval::integer::{ext, range, IntForm};
use crate::eval::{mask64, Hardware, Inputs};
use crate::isa::IntOp;
use crate::trace::Flag;

const M32: u64 = 0xffff_ffff;

#[inline(always)]
fn ext64(raw: u64, bits: u32, signed: bool) -> i64 {
    if signed {
        sx(raw, bits)
    } else {
        (raw & mask64(bits)) as i64
    }
}

/// Range of a 1..=32-bit integer in `i64`.
#[inline(always)]
fn range64(bits: u32, signed: bool) -> (i64, i64) {
    if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    }
}

#[inline(always)]
fn wrap_to<T: Notes>(t: &mut T, exact: i128, bits: u32, signed: bool) -> u64 {
    let (lo, hi) = range(bits, signed);
    t.note_if(exact < lo || exact > hi, Flag::Wrapped);
    (exact as u64) & mask64(bits)
}

#[inline(always)]
fn saturate<T: Notes>(t: &mut T, exact: i128, bits: u32, signed: bool) -> u64 {
    let (lo, hi) = range(bits, signed);
    t.note_if(exact > hi, Flag::ClampedHigh);
    t.note_if(exact < lo, Flag::ClampedLow);
    (exact.clamp(lo, hi) as u64) & mask64(bits)
}

/// The low `bits` (1..=32) of an exact `i64`, saturated or wrapped, with its notes.
#[inline(always)]
fn reduce64<T: Notes>(t: &mut T, exact: i64, bits: u32, signed: bool, sat: bool) -> u64 {
    let (lo, hi) = range64(bits, signed);
    if sat {
        t.note_if(exact > hi, Flag::ClampedHigh);
        t.note_if(exact < lo, Flag::ClampedLow);
        (exact.clamp(lo, hi) as u64) & mask64(bits)
    } else {
        t.note_if(exact < lo || exact > hi, Flag::Wrapped);
        (exact as u64) & mask64(bits)
    }
}

/// One integer instruction, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Int {
    AddSub {
        n: u32,
        s: bool,
        sub: bool,
        sat: bool,
    },
    X2 {
        s: bool,
        op: X2Op,
        relu: bool,
    },
    /// `mul`/`mad` `.lo`/`.hi` on 32 bits or fewer.
    MulMad32 {
        n: u32,
        s: bool,
        hi: bool,
        mad: bool,
        sat: bool,
    },
    MulMad {
        n: u32,
        s: bool,
        half: HalfMode,
        mad: bool,
        sat: bool,
    },
    Mul24 {
        s: bool,
        hi: bool,
        mad: bool,
        sat: bool,
    },
    MinMax {
        n: u32,
        s: bool,
        min: bool,
        relu: bool,
    },
    /// Every other form: the evaluator's step functions on the decoded form (no fast path of
    /// the plan's own, so nothing is restated here).
    Steps {
        form: IntForm,
    },
    Dot {
        four: bool,
        sa: bool,
        sb: bool,
        bsel: u32,
    },
}

impl Int {
    /// The form of `insn`, whose operation is `op`, decoded once ([`IntForm`], as the evaluator
    /// decodes it), with a fast path of its own where the plan has one.
    pub(crate) fn new(insn: &Instruction, op: IntOp) -> Int {
        let form = IntForm::new(insn, op);
        let IntForm {
            n,
            s,
            x2,
            sat,
            relu,
            half,
            sa,
            sb,
            ..
        } = form;
        let pair = |op| Int::X2 { s, op, relu };
        let mul = |mad: bool| {
            if n <= 32 && half != HalfMode::Wide {
                Int::MulMad32 {
                    n,
                    s,
                    hi: half == HalfMode::Hi,
                    mad,
                    sat,
                }
            } else {
                Int::MulMad {
                    n,
                    s,
                    half,
                    mad,
                    sat,
                }
            }
        };
        let dot = |four: bool| Int::Dot {
            four,
            sa,
            sb,
            bsel: if !four && half == HalfMode::Hi { 2 } else { 0 },
        };
        match op {
            IntOp::Add if x2 => pair(X2Op::Add),
            IntOp::Sub if x2 => pair(X2Op::Sub),
            IntOp::Min if x2 => pair(X2Op::Min),
            IntOp::Max if x2 => pair(X2Op::Max),
            IntOp::Add | IntOp::Sub => Int::AddSub {
                n,
                s,
                sub: op == IntOp::Sub,
                sat,
            },
            IntOp::Mul => mul(false),
            IntOp::Mad => mul(true),
            IntOp::Mul24 | IntOp::Mad24 => Int::Mul24 {
                s,
                hi: half == HalfMode::Hi,
                mad: op == IntOp::Mad24,
                sat,
            },
            IntOp::Min | IntOp::Max => Int::MinMax {
                n,
                s,
                min: op == IntOp::Min,
                relu,
            },
            IntOp::Dp4a => dot(true),
            IntOp::Dp2a => dot(false),
            IntOp::Sad
            | IntOp::Div
            | IntOp::Rem
            | IntOp::Abs
            | IntOp::Neg
            | IntOp::Popc
            | IntOp::Clz
            | IntOp::Bfind
            | IntOp::Fns
            | IntOp::Brev
            | IntOp::Bfe
            | IntOp::Bfi
            | IntOp::Szext
            | IntOp::Bmsk => Int::Steps { form },
        }
    }

    #[inline(always)]
    fn run<T: Notes>(&self, v: &[u64; 4], t: &mut T) -> u64 {
        match *self {
            Int::AddSub { n, s, sub, sat } => {
                if n <= 32 {
                    let a = ext64(v[0], n, s);
                    let b = ext64(v[1], n, s);
                    reduce64(t, if sub { a - b } else { a + b }, n, s, sat)
                } else {
                    let a = ext(v[0], n, s);
                    let b = ext(v[1], n, s);
                    let exact = if sub { a - b } else { a + b };
                    if sat {
                        saturate(t, exact, n, s)
                    } else {
                        wrap_to(t, exact, n, s)
                    }
                }
            }
            Int::X2 { s, op, relu } => {
                let mut d = 0u64;
                for lane in 0..2u32 {
                    let sh = 16 * lane;
                    let a = ext64(v[0] >> sh, 16, s);
                    let b = ext64(v[1] >> sh, 16, s);
                    let exact = op.apply(a, b);
                    let (lo, hi) = range64(16, s);
                    t.note_if(exact < lo || exact > hi, Flag::Wrapped);
                    let mut out = (exact as u64) & 0xffff;
                    if relu && s && exact < 0 {
                        out = 0;
                        t.note_if(true, Flag::ClampedLow);
                    }
                    d |= out << sh;
                }
                d
            }
            Int::MulMad32 { n, s, hi, mad, sat } => {
                let a = ext64(v[0], n, s);
                let b = ext64(v[1], n, s);
                // At most 64 bits: the bit pattern of the exact product.
                let p = a.wrapping_mul(b);
                let part = if hi {
                    ((p >> n) as u64) & mask64(n)
                } else {
                    (p as u64) & mask64(n)
                };
                if !hi {
                    let differs = if s {
                        sx(part, n) != p
                    } else {
                        part != p as u64
                    };
                    t.note_if(differs, Flag::Wrapped);
                }
                if !mad {
                    return part;
                }
                let c = ext64(v[2], n, s);
                let tp = ext64(part, n, s);
                reduce64(t, tp + c, n, s, sat)
            }
            Int::MulMad {
                n,
                s,
                half,
                mad,
                sat,
            } => {
                let a = ext(v[0], n, s);
                let b = ext(v[1], n, s);
                let p = a.wrapping_mul(b);
                let (kept_lo, kept_bits) = match half {
                    HalfMode::Lo => (0, n),
                    HalfMode::Hi => (n, n),
                    HalfMode::Wide => (0, (2 * n).min(64)),
                };
                let part = ((p >> kept_lo) as u64) & mask64(kept_bits);
                t.note_if(half == HalfMode::Lo && ext(part, n, s) != p, Flag::Wrapped);
                if !mad {
                    return part;
                }
                let c = ext(v[2], kept_bits, s);
                let tp = ext(part, kept_bits, s);
                let exact = tp + c;
                if sat {
                    saturate(t, exact, kept_bits, s)
                } else {
                    wrap_to(t, exact, kept_bits, s)
                }
            }
            Int::Mul24 { s, hi, mad, sat } => {
                let a = ext64(v[0], 24, s);
                let b = ext64(v[1], 24, s);
                let p = a * b;
                let part = ((p >> if hi { 16 } else { 0 }) as u64) & M32;
                if !mad {
                    return part;
                }
                let c = ext64(v[2], 32, s);
                let tp = ext64(part, 32, s);
                reduce64(t, tp + c, 32, s, sat)
            }
            Int::MinMax { n, s, min, relu } => {
                let a = ext(v[0], n, s);
                let b = ext(v[1], n, s);
                let x = if min { a.min(b) } else { a.max(b) };
                let mut out = x;
                if relu {
                    out = if s { x.max(0) } else { x };
                    t.note_if(out != x, Flag::ClampedLow);
                }
                (out as u64) & mask64(n)
            }
            Int::Steps { form } => form.run::<Hardware, T>(v, t),
            Int::Dot { four, sa, sb, bsel } => {
                let cs = sa || sb;
                let mut sum = ext64(v[2], 32, cs);
                if four {
                    for i in 0..4 {
                        let x = ext64(v[0] >> (8 * i), 8, sa);
                        let y = ext64(v[1] >> (8 * i), 8, sb);
                        sum += x * y;
                    }
                } else {
                    for i in 0..2 {
                        let x = ext64(v[0] >> (16 * i), 16, sa);
                        let y = ext64(v[1] >> (8 * (bsel + i)), 8, sb);
                        sum += x * y;
                    }
                }
                reduce64(t, sum, 32, cs, false)
            }
        }
    }

    /// One loop per kind of instruction, so the match in `run` folds away inside it; 32-bit
    /// `mul`/`mad` and `dp4a` get loops of their own on their flags.
    pub(crate) fn pick(&self) -> Fns {
        match *self {
            Int::AddSub { .. } => fns!(int_batch[0], int_one[0]),
            Int::X2 { .. } => fns!(int_batch[1], int_one[1]),
            // Native only: in wasm the general loop (less code to download).
            #[cfg(not(target_arch = "wasm32"))]
            Int::MulMad32 {
                n: 32,
                s,
                hi,
                mad,
                sat,
            } => pick_mul32(s, hi, mad, sat),
            Int::MulMad32 { .. } => fns!(int_batch[2], int_one[2]),
            Int::MulMad { .. } => fns!(int_batch[3], int_one[3]),
            Int::Mul24 { .. } => fns!(int_batch[4], int_one[4]),
            Int::MinMax { .. } => fns!(int_batch[8], int_one[8]),
            Int::Steps { .. } => fns!(int_batch[9], int_one[9]),
            Int::Dot {
                four: true, sa, sb, ..
            } => match (sa, sb) {
                (false, false) => fns!(dot4_batch[false, false], dot4_one[false, false]),
                (false, true) => fns!(dot4_batch[false, true], dot4_one[false, true]),
                (true, false) => fns!(dot4_batch[true, false], dot4_one[true, false]),
                (true, true) => fns!(dot4_batch[true, true], dot4_one[true, true]),
            },
            Int::Dot { .. } => fns!(int_batch[11], int_one[11]),
        }
    }
}

/// The general loop: in native builds [`int_unswitched`] (one copy for every kind); in wasm
/// one loop that matches the form per case, `K` giving each kind of instruction a copy of its
/// own (less code).
fn int_batch<N: Notes, const K: u8>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Int(k) = k {
        #[cfg(not(target_arch = "wasm32"))]
        int_unswitched::<N>(*k, ops, ins, out, fl);
        #[cfg(target_arch = "wasm32")]
        drive::<N, false>(ops, ins, out, fl, |v, t| k.run(v, t));
    }
}

/// The variant of `k` matched once, outside the loop: each arm's loop rebuilds the variant from
/// its fields, so the compiler sees which one it is and [`Int::run`]'s `match` folds to that
/// variant's code (otherwise the loop takes the `match` for every case).
#[cfg(not(target_arch = "wasm32"))]
#[inline(never)]
fn int_unswitched<N: Notes>(
    k: Int,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    macro_rules! arms {
        ($($v:ident { $($f:ident),* }),* $(,)?) => {
            match k {
                $(Int::$v { $($f),* } => drive::<N, false>(ops, ins, out, fl, move |v, t| {
                    Int::$v { $($f),* }.run(v, t)
                }),)*
            }
        };
    }
    arms!(
        AddSub { n, s, sub, sat },
        X2 { s, op, relu },
        MulMad32 { n, s, hi, mad, sat },
        MulMad {
            n,
            s,
            half,
            mad,
            sat
        },
        Mul24 { s, hi, mad, sat },
        MinMax { n, s, min, relu },
        Steps { form },
        Dot { four, sa, sb, bsel },
    )
}

#[cfg(not(target_arch = "wasm32"))]
fn int_one<const K: u8>(k: &Kernel, ops: &Operands, i: &Inputs) -> u64 {
    match k {
        Kernel::Int(k) => super::drive_one::<false>(ops, i, |v, t| k.run(v, t)),
        _ => unreachable!("picked for an integer kernel only"),
    }
}

/// The loop of a 32-bit `mul` / `mad` with its flags as constants.
#[cfg(not(target_arch = "wasm32"))]
fn pick_mul32(s: bool, hi: bool, mad: bool, sat: bool) -> Fns {
    macro_rules! arms {
        ($($s:literal $h:literal),*) => {
            match (s, hi, mad, sat) {
                $(
                    ($s, $h, false, false) => fns!(mul32_batch[$s, $h, false, false], mul32_one[$s, $h, false, false]),
                    ($s, $h, false, true) => fns!(mul32_batch[$s, $h, false, true], mul32_one[$s, $h, false, true]),
                    ($s, $h, true, false) => fns!(mul32_batch[$s, $h, true, false], mul32_one[$s, $h, true, false]),
                    ($s, $h, true, true) => fns!(mul32_batch[$s, $h, true, true], mul32_one[$s, $h, true, true]),
                )*
            }
        };
    }
    arms!(false false, false true, true false, true true)
}

/// `mul` / `mad` `.lo` / `.hi` on 32 bits, with the type's signedness, the half, `mad` and
/// `.sat` as constants, so the kernel folds to the form's own arithmetic.
#[cfg(not(target_arch = "wasm32"))]
const fn mul32(s: bool, hi: bool, mad: bool, sat: bool) -> Int {
    Int::MulMad32 {
        n: 32,
        s,
        hi,
        mad,
        sat,
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn mul32_batch<N: Notes, const S: bool, const HI: bool, const MAD: bool, const SAT: bool>(
    _: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    super::drive4::<N, true>(ops, ins, out, fl, |v, t| mul32(S, HI, MAD, SAT).run(v, t));
}

#[cfg(not(target_arch = "wasm32"))]
fn mul32_one<const S: bool, const HI: bool, const MAD: bool, const SAT: bool>(
    _: &Kernel,
    ops: &Operands,
    i: &Inputs,
) -> u64 {
    super::drive_one::<true>(ops, i, |v, t| mul32(S, HI, MAD, SAT).run(v, t))
}

fn dot4_batch<N: Notes, const SA: bool, const SB: bool>(
    _: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    super::drive4::<N, true>(ops, ins, out, fl, |v, t| dot4::<N, SA, SB>(v, t));
}

#[cfg(not(target_arch = "wasm32"))]
fn dot4_one<const SA: bool, const SB: bool>(_: &Kernel, ops: &Operands, i: &Inputs) -> u64 {
    super::drive_one::<true>(ops, i, dot4::<_, SA, SB>)
}

/// `dp4a` on its operand types: four byte products summed into `c`, in 32 bits (the exact sum
/// only for the notes).
#[inline(always)]
fn dot4<T: Notes, const SA: bool, const SB: bool>(v: &[u64; 4], t: &mut T) -> u64 {
    let (a, b, c) = (v[0] as u32, v[1] as u32, v[2] as u32);
    let byte = |w: u32, i: u32, s: bool| -> i32 {
        if s {
            ((w << (24 - 8 * i)) as i32) >> 24
        } else {
            ((w >> (8 * i)) & 0xff) as i32
        }
    };
    let mut prods = 0i32;
    for i in 0..4 {
        prods += byte(a, i, SA) * byte(b, i, SB);
    }
    let cs = SA || SB;
    let cx = if cs {
        i64::from(c as i32)
    } else {
        i64::from(c)
    };
    let exact = cx + i64::from(prods);
    let (lo, hi) = range64(32, cs);
    t.note_if(exact < lo || exact > hi, Flag::Wrapped);
    u64::from(c.wrapping_add(prods as u32))
}
