//! Integer arithmetic instructions (PTX ISA 9.7.1), as an H100 computes them.
//!
//! Every operation works on the operand values already truncated to their widths (see
//! [`widths`](crate::isa::widths)); arithmetic is done exactly in `i128` and then reduced, so each stage can show
//! the exact value before anything is dropped.
//!
//! ```
//! use ptxlab_core::eval::{integer, Hardware};
//! use ptxlab_core::trace::NoTrace;
//! use ptxlab_core::check;
//!
//! let insn = check("add.sat.s32 d, a, b;").unwrap();
//! let v = [0x7fff_ffff, 1, 0, 0];
//! assert_eq!(integer::eval::<Hardware, _>(&insn, &v, &mut NoTrace), 0x7fff_ffff);
//! ```
//!
//! One module per group of instructions that share their arithmetic: [`add_sub`], [`mul`]
//! (with `mul24`, `mad24`, `sad`), [`div_rem`], [`min_max`] (with `abs`, `neg`), [`search`]
//! (bit searches), [`fields`] (bit fields) and [`dot`] (dot products). The helpers below
//! (exact reading, wrapping, saturation, the result stage) are shared by all of them.

use super::mask64;
use super::semantics::Semantics;
use crate::ast::{ClampMode, HalfMode, Instruction, Type};
use crate::bits::sext;
use crate::isa::{IntOp, Operation};
use crate::trace::{Flag, Flow, Saturation, Stage, StageKind, Tracer, Val};

pub mod add_sub;
pub mod div_rem;
pub mod dot;
pub mod fields;
pub mod min_max;
pub mod mul;
pub mod search;

use add_sub::{eval_add_sub, eval_x2, X2Op};
use div_rem::eval_div_rem;
use dot::eval_dot;
use fields::{eval_bfe, eval_bfi, eval_bmsk, eval_szext};
use min_max::{eval_abs_neg, eval_min_max};
use mul::{eval_mul24, eval_mul_mad, eval_sad};
use search::{eval_bfind, eval_brev, eval_clz, eval_fns, eval_popc};

/// Evaluate an integer instruction on source values already reduced to their widths.
/// 0 for an instruction of another family.
pub fn eval<S: Semantics, T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    match insn.operation() {
        Some(Operation::Int(op)) => eval_op::<S, T>(op, insn, v, t),
        Some(
            Operation::Scalar(_) | Operation::Vmad | Operation::Simd2(_) | Operation::Simd4(_),
        )
        | None => 0,
    }
}

/// [`eval`] of the operation `op`, as the family's dispatch reads it. Native builds jump to a
/// copy of [`IntForm::new`] and [`IntForm::run`] made for the operation (`eval_as`), so each
/// copy decodes only the fields its step function reads and runs only its own arm; the
/// playground's wasm keeps one copy (less code to download).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn eval_op<S: Semantics, T: Tracer>(
    op: IntOp,
    insn: &Instruction,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    #[cfg(target_arch = "wasm32")]
    return IntForm::new(insn, op).run::<S, T>(v, t);
    #[cfg(not(target_arch = "wasm32"))]
    {
        macro_rules! each {
            ($($o:ident)*) => {
                match op {
                    $(IntOp::$o => eval_as::<S, T, { IntOp::$o as u8 }>(insn, v, t),)*
                }
            };
        }
        each!(Add Sub Mul Mad Mul24 Mad24 Sad Div Rem Abs Neg Min Max Popc Clz Bfind Fns Brev Bfe
            Bfi Szext Bmsk Dp4a Dp2a)
    }
}

/// [`IntForm::new`] and [`IntForm::run`] for the operation numbered `OP` (`IntOp::ALL[OP]`,
/// read at compile time: a number that names no operation does not build). Inlined into the
/// dispatch: a call per case cost `mad.hi.sat`'s `evaluate` 2.4% more instructions than its
/// form had before the copies (callgrind, `examples/plan_speed`); inlined, every form runs
/// fewer than then.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn eval_as<S: Semantics, T: Tracer, const OP: u8>(
    insn: &Instruction,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    IntForm::new(insn, const { IntOp::ALL[OP as usize] }).run::<S, T>(v, t)
}

/// An integer instruction decoded once: its operation and what its form says. The evaluator
/// decodes it per call, a plan once; both run it through the same step functions
/// ([`IntForm::run`]), so each operation's arithmetic and flags are written once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IntForm {
    /// The operation.
    pub(crate) op: IntOp,
    /// Width of the type (`dtype` for the dot products) in bits.
    pub(crate) n: u32,
    /// Whether the type is signed (`.s16x2` for the half-word pairs).
    pub(crate) s: bool,
    /// `.u16x2` / `.s16x2`: two half-words.
    pub(crate) x2: bool,
    /// `.sat`.
    pub(crate) sat: bool,
    /// `.relu`.
    pub(crate) relu: bool,
    /// `.lo` (also when none is written), `.hi` or `.wide`.
    pub(crate) half: HalfMode,
    /// `.clamp` (also when no mode is written), not `.wrap`.
    pub(crate) clamp: bool,
    /// `.shiftamt`.
    pub(crate) shiftamt: bool,
    /// The signs of `a` and `b`, which `dp4a`/`dp2a` type apart (false for every other
    /// operation, which reads `s`).
    pub(crate) sa: bool,
    pub(crate) sb: bool,
}

impl IntForm {
    /// Decode `insn`, whose operation is `op`.
    #[inline(always)]
    pub(crate) fn new(insn: &Instruction, op: IntOp) -> IntForm {
        let f = &insn.form;
        let ty = f.ty(0);
        // Only the dot products type `a` and `b` apart; the others' signs are the type's, so
        // the table of operand signs is read for those two alone.
        let sg = if matches!(op, IntOp::Dp4a | IntOp::Dp2a) {
            insn.signs()
        } else {
            0
        };
        IntForm {
            op,
            n: ty.bits().min(64),
            s: ty.is_signed(),
            x2: is_x2(ty),
            sat: f.sat,
            relu: f.relu,
            half: f.half.unwrap_or(HalfMode::Lo),
            clamp: f.mode != Some(ClampMode::Wrap),
            shiftamt: f.shiftamt,
            sa: sg & 2 != 0,
            sb: sg & 4 != 0,
        }
    }

    /// The value written to `d` (before the destination's mask), with the semantics `S`,
    /// observed by `t`: one step function per operation.
    #[inline(always)]
    pub(crate) fn run<S: Semantics, T: Tracer>(&self, v: &[u64; 4], t: &mut T) -> u64 {
        let IntForm {
            op,
            n,
            s,
            x2,
            sat,
            relu,
            half,
            clamp,
            shiftamt,
            sa,
            sb,
        } = *self;
        match op {
            IntOp::Add if x2 => eval_x2(X2Op::Add, s, relu, v, t),
            IntOp::Sub if x2 => eval_x2(X2Op::Sub, s, relu, v, t),
            IntOp::Min if x2 => eval_x2(X2Op::Min, s, relu, v, t),
            IntOp::Max if x2 => eval_x2(X2Op::Max, s, relu, v, t),
            IntOp::Add => eval_add_sub(n, s, false, sat, v, t),
            IntOp::Sub => eval_add_sub(n, s, true, sat, v, t),
            IntOp::Mul => eval_mul_mad(n, s, half, false, sat, v, t),
            IntOp::Mad => eval_mul_mad(n, s, half, true, sat, v, t),
            IntOp::Mul24 => eval_mul24(s, half == HalfMode::Hi, false, sat, v, t),
            IntOp::Mad24 => eval_mul24(s, half == HalfMode::Hi, true, sat, v, t),
            IntOp::Sad => eval_sad(n, s, v, t),
            IntOp::Div => eval_div_rem(n, s, true, v, t),
            IntOp::Rem => eval_div_rem(n, s, false, v, t),
            IntOp::Abs => eval_abs_neg(n, s, true, v, t),
            IntOp::Neg => eval_abs_neg(n, s, false, v, t),
            IntOp::Min => eval_min_max(n, s, true, relu, v, t),
            IntOp::Max => eval_min_max(n, s, false, relu, v, t),
            IntOp::Popc => eval_popc(n, v, t),
            IntOp::Clz => eval_clz(n, v, t),
            IntOp::Bfind => eval_bfind(n, s, shiftamt, v, t),
            IntOp::Fns => eval_fns::<S, _>(v, t),
            IntOp::Brev => eval_brev(n, v, t),
            IntOp::Bfe => eval_bfe::<S, _>(n, s, v, t),
            IntOp::Bfi => eval_bfi::<S, _>(n, v, t),
            IntOp::Szext => eval_szext(s, clamp, v, t),
            IntOp::Bmsk => eval_bmsk(clamp, v, t),
            IntOp::Dp4a => eval_dot::<true, T>(sa, sb, false, v, t),
            IntOp::Dp2a => eval_dot::<false, T>(sa, sb, half == HalfMode::Hi, v, t),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

fn is_x2(ty: Type) -> bool {
    matches!(ty, Type::U16x2 | Type::S16x2)
}

/// `raw` read as a `bits`-bit number, signed or unsigned.
#[inline(always)]
pub(crate) fn ext(raw: u64, bits: u32, signed: bool) -> i128 {
    if signed {
        sext(raw, bits) as i128
    } else {
        (raw & mask64(bits)) as i128
    }
}

/// Smallest and largest value of a `bits`-bit integer.
#[inline(always)]
pub(crate) fn range(bits: u32, signed: bool) -> (i128, i128) {
    let bits = bits.clamp(1, 127);
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// A register-like value: the low `bits` bits of `raw`, read signed or unsigned.
fn rv(name: &str, bits: u32, signed: bool, raw: u64) -> Val {
    Val::new(name, bits, signed, ext(raw, bits, signed))
}

/// The final stage: what is written to `d`.
fn result<T: Tracer>(t: &mut T, bits: u32, signed: bool, d: u64) {
    t.stage([], || {
        Stage::new(StageKind::Result, "written to d", rv("d", bits, signed, d))
    });
}

/// Reduce an exact value to `bits` bits (two's complement), tracing the wrap if it changed the
/// value as read in the destination's signedness. `what` names the exact value.
fn wrap_to<T: Tracer>(
    t: &mut T,
    exact: i128,
    exact_bits: u32,
    bits: u32,
    signed: bool,
    what: &str,
) -> u64 {
    let d = (exact as u64) & mask64(bits);
    let (lo, hi) = range(bits, signed);
    let wrapped = exact < lo || exact > hi;
    t.stage([(wrapped, Flag::Wrapped)], || {
        Stage::new(
            StageKind::Truncate,
            format!("low {bits} bits kept"),
            rv("tmp", bits, signed, d),
        )
        .flow(Flow::extend(false))
        .op(format!("{what} mod 2^{bits}"))
        .input(Val::new(what, exact_bits, true, exact))
    });
    d
}

/// Clamp an exact value to the `bits`-bit range (`.sat`).
fn saturate<T: Tracer>(
    t: &mut T,
    exact: i128,
    exact_bits: u32,
    bits: u32,
    signed: bool,
    what: &str,
) -> u64 {
    let (lo, hi) = range(bits, signed);
    let c = exact.clamp(lo, hi);
    t.stage(
        [
            (exact > hi, Flag::ClampedHigh),
            (exact < lo, Flag::ClampedLow),
        ],
        || {
            Stage::new(
                StageKind::Clamp,
                format!("saturated to the {bits}-bit range"),
                Val::new("tmp", bits, signed, c),
            )
            .saturate(
                Saturation::Range { lo, hi },
                Val::new(what, exact_bits, true, exact),
            )
        },
    );
    (c as u64) & mask64(bits)
}

fn sign_word(signed: bool) -> &'static str {
    if signed {
        "signed"
    } else {
        "unsigned"
    }
}

#[cfg(test)]
mod tests;
