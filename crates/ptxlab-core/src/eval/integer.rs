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

use super::mask64;
use super::semantics::Semantics;
use crate::ast::{ClampMode, HalfMode, Instruction, Type};
use crate::bits::sext;
use crate::differences::DiffId;
use crate::isa::Opcode;
use crate::trace::{Detail, Flag, Stage, StageKind, Tracer, Val};

/// Evaluate an integer instruction on source values already reduced to their widths.
pub fn eval<S: Semantics, T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    let ty = insn.form.ty(0);
    match insn.opcode {
        Opcode::Add | Opcode::Sub if is_x2(ty) => eval_x2(insn, ty, v, t),
        Opcode::Min | Opcode::Max if is_x2(ty) => eval_x2(insn, ty, v, t),
        Opcode::Add | Opcode::Sub => eval_add_sub(insn, ty, v, t),
        Opcode::Mul | Opcode::Mad => eval_mul_mad(insn, ty, v, t),
        Opcode::Mul24 | Opcode::Mad24 => eval_mul24(insn, ty, v, t),
        Opcode::Sad => eval_sad(ty, v, t),
        Opcode::Div | Opcode::Rem => eval_div_rem(insn, ty, v, t),
        Opcode::Abs | Opcode::Neg => eval_abs_neg(insn, ty, v, t),
        Opcode::Min | Opcode::Max => eval_min_max(insn, ty, v, t),
        Opcode::Popc => eval_popc(ty, v, t),
        Opcode::Clz => eval_clz(ty, v, t),
        Opcode::Bfind => eval_bfind(insn, ty, v, t),
        Opcode::Fns => eval_fns::<S, _>(v, t),
        Opcode::Brev => eval_brev(ty, v, t),
        Opcode::Bfe => eval_bfe::<S, _>(ty, v, t),
        Opcode::Bfi => eval_bfi::<S, _>(ty, v, t),
        Opcode::Szext => eval_szext(insn, ty, v, t),
        Opcode::Bmsk => eval_bmsk(insn, v, t),
        Opcode::Dp4a | Opcode::Dp2a => eval_dot(insn, v, t),
        _ => 0,
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

fn is_x2(ty: Type) -> bool {
    matches!(ty, Type::U16x2 | Type::S16x2)
}

/// `raw` read as a `bits`-bit number, signed or unsigned.
#[inline(always)]
fn ext(raw: u64, bits: u32, signed: bool) -> i128 {
    if signed {
        sext(raw, bits) as i128
    } else {
        (raw & mask64(bits)) as i128
    }
}

/// Smallest and largest value of a `bits`-bit integer.
#[inline(always)]
fn range(bits: u32, signed: bool) -> (i128, i128) {
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
    t.stage(|| Stage::new(StageKind::Result, "written to d", rv("d", bits, signed, d)));
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
    t.note_if(wrapped, Flag::Wrapped);
    if T::ON {
        t.stage(|| {
            Stage::new(
                StageKind::Truncate,
                format!("low {bits} bits kept"),
                rv("tmp", bits, signed, d),
            )
            .op(format!("{what} mod 2^{bits}"))
            .input(Val::new(what, exact_bits, true, exact))
            .flag_if(wrapped, Flag::Wrapped)
        });
    }
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
    t.note_if(exact > hi, Flag::ClampedHigh);
    t.note_if(exact < lo, Flag::ClampedLow);
    t.stage(|| {
        Stage::new(
            StageKind::Clamp,
            format!("saturated to the {bits}-bit range"),
            Val::new("tmp", bits, signed, c),
        )
        .op(format!("clamp({what}, {lo}, {hi})"))
        .input(Val::new(what, exact_bits, true, exact))
        .flag_if(exact > hi, Flag::ClampedHigh)
        .flag_if(exact < lo, Flag::ClampedLow)
        .detail(Detail::Range { min: lo, max: hi })
    });
    (c as u64) & mask64(bits)
}

fn sign_word(signed: bool) -> &'static str {
    if signed {
        "signed"
    } else {
        "unsigned"
    }
}

// ---------------------------------------------------------------------------------------------
// add, sub

fn eval_add_sub<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let s = ty.is_signed();
    let a = ext(v[0], n, s);
    let b = ext(v[1], n, s);
    let sub = insn.opcode == Opcode::Sub;
    let exact = if sub { a - b } else { a + b };
    t.stage(|| {
        Stage::new(
            StageKind::Operate,
            if sub { "exact difference" } else { "exact sum" },
            Val::new("tmp", n + 1, true, exact),
        )
        .op(if sub { "a - b" } else { "a + b" })
        .input(Val::new("a", n, s, a))
        .input(Val::new("b", n, s, b))
    });
    let d = if insn.form.sat {
        saturate(t, exact, n + 1, n, s, "tmp")
    } else {
        wrap_to(t, exact, n + 1, n, s, "tmp")
    };
    result(t, n, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// add, sub, min, max on two half-words

fn eval_x2<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let s = ty == Type::S16x2;
    let op = insn.opcode;
    let relu = insn.form.relu;
    let mut d = 0u64;
    for lane in 0..2u32 {
        let sh = 16 * lane;
        let a = ext(v[0] >> sh, 16, s);
        let b = ext(v[1] >> sh, 16, s);
        let (exact, formula) = match op {
            Opcode::Add => (a + b, "a.h + b.h"),
            Opcode::Sub => (a - b, "a.h - b.h"),
            Opcode::Min => (a.min(b), "min(a.h, b.h)"),
            _ => (a.max(b), "max(a.h, b.h)"),
        };
        let (lo, hi) = range(16, s);
        let wrapped = exact < lo || exact > hi;
        t.note_if(wrapped, Flag::Wrapped);
        let lane_val = (exact as u64) & 0xffff;
        t.stage(|| {
            let an = format!("a.h{lane}");
            let bn = format!("b.h{lane}");
            Stage::new(
                StageKind::Operate,
                format!("half-word {lane}"),
                rv(&format!("d.h{lane}"), 16, s, lane_val),
            )
            .op(formula.replace("a.h", &an).replace("b.h", &bn))
            .input(Val::new(an, 16, s, a))
            .input(Val::new(bn, 16, s, b))
            .lane(lane as u8)
            .flag_if(wrapped, Flag::Wrapped)
        });
        let mut out = lane_val;
        if relu && s && exact < 0 {
            out = 0;
            t.note(Flag::ClampedLow);
        }
        if relu {
            t.stage(|| {
                Stage::new(
                    StageKind::Clamp,
                    format!("half-word {lane}: negative becomes 0 (.relu)"),
                    rv(&format!("d.h{lane}"), 16, s, out),
                )
                .op("max(x, 0)")
                .input(Val::new(format!("d.h{lane}"), 16, s, exact))
                .lane(lane as u8)
                .flag_if(out != lane_val, Flag::ClampedLow)
                .detail(Detail::Range {
                    min: 0,
                    max: range(16, s).1,
                })
            });
        }
        d |= out << sh;
    }
    t.stage(|| {
        Stage::new(
            StageKind::Result,
            "written to d (two half-words)",
            rv("d", 32, false, d),
        )
        .input(rv("d.h1", 16, s, d >> 16))
        .input(rv("d.h0", 16, s, d))
    });
    d
}

// ---------------------------------------------------------------------------------------------
// mul, mad

fn eval_mul_mad<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits().min(64);
    let s = ty.is_signed();
    let half = insn.form.half.unwrap_or(HalfMode::Lo);
    let a = ext(v[0], n, s);
    let b = ext(v[1], n, s);
    let full_bits = 2 * n;
    // The full 2n-bit product; for 64-bit operands the 128 bits are kept as a bit pattern.
    let p = a.wrapping_mul(b);
    let (kept_lo, kept_bits) = match half {
        HalfMode::Lo => (0, n),
        HalfMode::Hi => (n, n),
        HalfMode::Wide => (0, full_bits.min(64)),
    };
    t.stage(|| {
        Stage::new(
            StageKind::Product,
            format!("full {full_bits}-bit product"),
            Val::new("t", full_bits, s, p),
        )
        .op("a * b")
        .input(Val::new("a", n, s, a))
        .input(Val::new("b", n, s, b))
        .detail(Detail::Product {
            full_bits,
            kept_lo,
            kept_bits,
        })
    });
    let part = ((p >> kept_lo) as u64) & mask64(kept_bits);
    t.note_if(half == HalfMode::Lo && ext(part, n, s) != p, Flag::Wrapped);
    if half != HalfMode::Wide {
        t.stage(|| {
            let label = match half {
                HalfMode::Lo => format!("low half: bits {}..0", n - 1),
                HalfMode::Hi => format!("high half: bits {}..{n}", full_bits - 1),
                HalfMode::Wide => format!("all {full_bits} bits kept (.wide)"),
            };
            Stage::new(StageKind::Truncate, label, rv("tp", kept_bits, s, part))
                .op(match half {
                    HalfMode::Lo => format!("t<{}..0>", n - 1),
                    HalfMode::Hi => format!("t<{}..{n}>", full_bits - 1),
                    HalfMode::Wide => "t".to_string(),
                })
                .input(Val::new("t", full_bits, s, p))
                // The low half alone no longer equals the product.
                .flag_if(half == HalfMode::Lo && ext(part, n, s) != p, Flag::Wrapped)
        });
    }
    if insn.opcode == Opcode::Mul {
        result(t, kept_bits, s, part);
        return part;
    }
    let c = ext(v[2], kept_bits, s);
    let tp = ext(part, kept_bits, s);
    let exact = tp + c;
    t.stage(|| {
        Stage::new(
            StageKind::Operate,
            "exact sum with c",
            Val::new("tmp", kept_bits + 1, true, exact),
        )
        .op("tp + c")
        .input(Val::new("tp", kept_bits, s, tp))
        .input(Val::new("c", kept_bits, s, c))
    });
    let d = if insn.form.sat {
        saturate(t, exact, kept_bits + 1, kept_bits, s, "tmp")
    } else {
        wrap_to(t, exact, kept_bits + 1, kept_bits, s, "tmp")
    };
    result(t, kept_bits, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// mul24, mad24

fn eval_mul24<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let s = ty.is_signed();
    let hi = insn.form.half == Some(HalfMode::Hi);
    let a = ext(v[0], 24, s);
    let b = ext(v[1], 24, s);
    for (name, raw, x) in [("a", v[0], a), ("b", v[1], b)] {
        t.stage(|| {
            Stage::new(
                StageKind::Extract,
                format!(
                    "low 24 bits of {name}, {}",
                    if s { "sign-extended" } else { "zero-extended" }
                ),
                Val::new(format!("{name}24"), 24, s, x),
            )
            .input(rv(name, 32, s, raw))
            .flag(if s {
                Flag::SignExtended
            } else {
                Flag::ZeroExtended
            })
            .detail(Detail::Field {
                source: raw,
                source_bits: 32,
                lo: 0,
                width: 24,
                signed: s,
                out_bits: 48,
            })
        });
    }
    let p = a * b;
    let kept_lo = if hi { 16 } else { 0 };
    t.stage(|| {
        Stage::new(
            StageKind::Product,
            "full 48-bit product",
            Val::new("t", 48, s, p),
        )
        .op("a24 * b24")
        .input(Val::new("a24", 24, s, a))
        .input(Val::new("b24", 24, s, b))
        .detail(Detail::Product {
            full_bits: 48,
            kept_lo,
            kept_bits: 32,
        })
    });
    let part = ((p >> kept_lo) as u64) & 0xffff_ffff;
    t.stage(|| {
        Stage::new(
            StageKind::Truncate,
            if hi {
                "bits 47..16 kept"
            } else {
                "bits 31..0 kept"
            },
            rv("tp", 32, s, part),
        )
        .op(if hi { "t<47..16>" } else { "t<31..0>" })
        .input(Val::new("t", 48, s, p))
    });
    if insn.opcode == Opcode::Mul24 {
        result(t, 32, s, part);
        return part;
    }
    let c = ext(v[2], 32, s);
    let tp = ext(part, 32, s);
    let exact = tp + c;
    t.stage(|| {
        Stage::new(
            StageKind::Operate,
            "exact sum with c",
            Val::new("tmp", 33, true, exact),
        )
        .op("tp + c")
        .input(Val::new("tp", 32, s, tp))
        .input(Val::new("c", 32, s, c))
    });
    let d = if insn.form.sat {
        saturate(t, exact, 33, 32, s, "tmp")
    } else {
        wrap_to(t, exact, 33, 32, s, "tmp")
    };
    result(t, 32, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// sad

fn eval_sad<T: Tracer>(ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let s = ty.is_signed();
    let a = ext(v[0], n, s);
    let b = ext(v[1], n, s);
    let c = ext(v[2], n, s);
    let diff = (a - b).abs();
    t.stage(|| {
        Stage::new(
            StageKind::Operate,
            "exact absolute difference",
            Val::new("ad", n + 1, false, diff),
        )
        .op("|a - b|")
        .input(Val::new("a", n, s, a))
        .input(Val::new("b", n, s, b))
    });
    let exact = c + diff;
    t.stage(|| {
        Stage::new(
            StageKind::Operate,
            "plus c",
            Val::new("tmp", n + 2, true, exact),
        )
        .op("c + ad")
        .input(Val::new("c", n, s, c))
        .input(Val::new("ad", n + 1, false, diff))
    });
    let d = wrap_to(t, exact, n + 2, n, s, "tmp");
    result(t, n, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// div, rem

fn eval_div_rem<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let s = ty.is_signed();
    let div = insn.opcode == Opcode::Div;
    let m = mask64(n);
    let by_zero = v[1] & m == 0;
    t.note_if(by_zero, Flag::DivideByZero);
    // Quotient rounded toward zero; the remainder takes the sign of a. Only the most negative
    // value divided by -1 overflows: the quotient wraps back to that value, the remainder is 0.
    let d = if by_zero {
        // The H100 writes all ones, for the quotient and the remainder alike.
        m
    } else if s {
        let (a, b) = (sext(v[0], n), sext(v[1], n));
        let x = if div {
            a.wrapping_div(b)
        } else {
            a.wrapping_rem(b)
        };
        // Only the most negative value divided by -1 overflows.
        t.note_if(div && b == -1 && a == sext(1 << (n - 1), n), Flag::Wrapped);
        (x as u64) & m
    } else {
        let (a, b) = (v[0] & m, v[1] & m);
        if div {
            a / b
        } else {
            a % b
        }
    };
    if T::ON {
        let a = ext(v[0], n, s);
        let b = ext(v[1], n, s);
        let exact = if by_zero {
            m as i128
        } else if div {
            a / b
        } else {
            a % b
        };
        t.stage(|| {
            let label = match (div, by_zero) {
                (_, true) => "division by zero: all ones",
                (true, false) => "quotient, rounded toward zero",
                (false, false) => "remainder, with the sign of a",
            };
            let out = if by_zero {
                rv("tmp", n, s, d)
            } else {
                Val::new("tmp", n + 1, true, exact)
            };
            Stage::new(StageKind::Divide, label, out)
                .op(if div { "a / b" } else { "a % b" })
                .input(Val::new("a", n, s, a))
                .input(Val::new("b", n, s, b))
                .flag_if(by_zero, Flag::DivideByZero)
        });
        let (lo, hi) = range(n, s);
        if !by_zero && (exact < lo || exact > hi) {
            wrap_to(t, exact, n + 1, n, s, "tmp");
        }
    }
    result(t, n, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// abs, neg

fn eval_abs_neg<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let s = ty.is_signed();
    let a = ext(v[0], n, s);
    let abs = insn.opcode == Opcode::Abs;
    let exact = if abs { a.abs() } else { -a };
    t.stage(|| {
        Stage::new(
            StageKind::Adjust,
            if abs { "absolute value" } else { "negated" },
            Val::new("tmp", n + 1, true, exact),
        )
        .op(if abs { "|a|" } else { "-a" })
        .input(Val::new("a", n, s, a))
        .flag_if(!abs || a < 0, Flag::Negated)
    });
    let d = wrap_to(t, exact, n + 1, n, s, "tmp");
    result(t, n, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// min, max

fn eval_min_max<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let s = ty.is_signed();
    let a = ext(v[0], n, s);
    let b = ext(v[1], n, s);
    let is_min = insn.opcode == Opcode::Min;
    let x = if is_min { a.min(b) } else { a.max(b) };
    t.stage(|| {
        Stage::new(
            StageKind::Compare,
            format!(
                "{} of a and b, read {}",
                if is_min { "smaller" } else { "larger" },
                sign_word(s)
            ),
            Val::new("tmp", n, s, x),
        )
        .op(if is_min { "min(a, b)" } else { "max(a, b)" })
        .input(Val::new("a", n, s, a))
        .input(Val::new("b", n, s, b))
    });
    let mut out = x;
    if insn.form.relu {
        out = if s { x.max(0) } else { x };
        t.note_if(out != x, Flag::ClampedLow);
        t.stage(|| {
            Stage::new(
                StageKind::Clamp,
                "negative becomes 0 (.relu)",
                Val::new("tmp", n, s, out),
            )
            .op("max(tmp, 0)")
            .input(Val::new("tmp", n, s, x))
            .flag_if(out != x, Flag::ClampedLow)
            .detail(Detail::Range {
                min: 0,
                max: range(n, s).1,
            })
        });
    }
    let d = (out as u64) & mask64(n);
    result(t, n, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// popc, clz, bfind, fns, brev

fn eval_popc<T: Tracer>(ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let a = v[0] & mask64(n);
    let d = a.count_ones() as u64;
    t.stage(|| {
        Stage::new(
            StageKind::Search,
            "one bits counted",
            rv("count", 32, false, d),
        )
        .op("popcount(a)")
        .input(rv("a", n, false, a))
    });
    result(t, 32, false, d);
    d
}

fn eval_clz<T: Tracer>(ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let a = v[0] & mask64(n);
    // Leading zeros within the n-bit operand; all n bits when a is zero.
    let d = (a.leading_zeros() - (64 - n)) as u64;
    t.stage(|| {
        Stage::new(
            StageKind::Search,
            if a == 0 {
                format!("no one bit: all {n} bits are leading zeros")
            } else {
                format!(
                    "zeros above the highest one bit (bit {})",
                    63 - a.leading_zeros()
                )
            },
            rv("count", 32, false, d),
        )
        .op("clz(a)")
        .input(rv("a", n, false, a))
        .flag_if(a == 0, Flag::NotFound)
    });
    result(t, 32, false, d);
    d
}

fn eval_bfind<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let s = ty.is_signed();
    let m = mask64(n);
    let a = v[0] & m;
    let negative = s && (a >> (n - 1)) & 1 == 1;
    let x = if negative { !a & m } else { a };
    if negative {
        t.stage(|| {
            Stage::new(
                StageKind::Adjust,
                "negative: bits inverted, so the highest 0 becomes the highest 1",
                rv("x", n, false, x),
            )
            .op("~a")
            .input(rv("a", n, true, a))
            .flag(Flag::Negated)
        });
    }
    let found = x != 0;
    let pos = if found { 63 - x.leading_zeros() } else { 0 };
    let pos_val = if found { pos as u64 } else { 0xffff_ffff };
    t.stage(|| {
        let what = if s && negative {
            "highest 0 bit of a"
        } else {
            "highest 1 bit"
        };
        Stage::new(
            StageKind::Search,
            if found {
                format!("{what}: bit {pos}")
            } else {
                "no non-sign bit: 0xffffffff".to_string()
            },
            rv("pos", 32, false, pos_val),
        )
        .op(if negative { "msb(~a)" } else { "msb(a)" })
        .input(rv(if negative { "x" } else { "a" }, n, false, x))
        .flag_if(!found, Flag::NotFound)
    });
    let d = if insn.form.shiftamt && found {
        let sa = (n - 1 - pos) as u64;
        t.stage(|| {
            Stage::new(
                StageKind::Adjust,
                format!("shift that moves bit {pos} to bit {} (.shiftamt)", n - 1),
                rv("amt", 32, false, sa),
            )
            .op(format!("{} - pos", n - 1))
            .input(rv("pos", 32, false, pos_val))
        });
        sa
    } else {
        pos_val
    };
    result(t, 32, false, d);
    d
}

/// `fns`: the n-th one bit of `mask` counting up (offset > 0) or down (offset < 0) from `base`.
///
/// The H100 runs ptxas's expansion: keep the bits of `mask` on the searched side of `base`
/// (none when `base` is 32 or more), count them, and if there are at least `|offset|` (compared
/// as signed 32-bit numbers) find the `|offset|`-th. For `offset = -2^31` the negation
/// overflows, the count check passes and the search runs off the end, giving 0.
fn eval_fns<S: Semantics, T: Tracer>(v: &[u64; 4], t: &mut T) -> u64 {
    const NOT_FOUND: u64 = 0xffff_ffff;
    let mask = v[0] & 0xffff_ffff;
    let base = v[1] & 0xffff_ffff;
    let offset = sext(v[2], 32) as i32;
    let in_range = base < 32;
    let down = offset < 0;
    let side = if !in_range {
        0
    } else if offset == 0 {
        1u64 << base
    } else if down {
        mask64(base as u32 + 1)
    } else {
        (0xffff_ffffu64 << base) & 0xffff_ffff
    };
    let window = mask & side;
    // How many one bits to pass: |offset|. The hardware negates in 32 bits, so -2^31 stays
    // negative; the text's count is the mathematical 2^31.
    let k: i64 = if offset == 0 {
        1
    } else {
        // The hardware negates in 32 bits (-2^31 stays negative); the text takes |offset|.
        S::pick(
            || i64::from(offset.wrapping_abs()),
            || i64::from(offset).abs(),
        )
    };
    let count = i64::from(window.count_ones());
    t.stage(|| {
        let label = if !in_range {
            "base is 32 or more: no bits to search".to_string()
        } else if offset == 0 {
            format!("only bit {base} of mask")
        } else if down {
            format!("bits of mask at or below bit {base}")
        } else {
            format!("bits of mask at or above bit {base}")
        };
        Stage::new(StageKind::Field, label, rv("bits", 32, false, window))
            .op(if offset == 0 {
                "mask & (1 << base)"
            } else if down {
                "mask & ones(base + 1)"
            } else {
                "mask & (~0 << base)"
            })
            .input(rv("mask", 32, false, mask))
            .input(rv("base", 32, false, base))
            .flag_if(!in_range, Flag::AmountClamped)
    });
    let d = fns_search(window, count, k, down);
    t.stage(|| {
        let n = if S::TEXT {
            k.unsigned_abs()
        } else {
            u64::from(offset.unsigned_abs())
        };
        let label = if d == NOT_FOUND {
            format!("fewer than {n} one bits: not found (0xffffffff)")
        } else if k < 0 {
            "offset -2^31: |offset| overflows and the search ends at bit 0".to_string()
        } else {
            format!(
                "one bit number {n} counting {} from bit {base}: bit {d}",
                if down { "down" } else { "up" }
            )
        };
        Stage::new(StageKind::Search, label, rv("pos", 32, false, d))
            .op(if down {
                "n-th highest one bit of bits, n = -offset"
            } else {
                "n-th lowest one bit of bits, n = max(offset, 1)"
            })
            .input(rv("bits", 32, false, window))
            .input(rv("offset", 32, true, offset as u32 as u64))
            .flag_if(d == NOT_FOUND, Flag::NotFound)
            .differs_if(offset == i32::MIN, DiffId::FnsMinOffset)
    });
    t.note_if(d == NOT_FOUND, Flag::NotFound);
    result(t, 32, false, d);
    d
}

fn eval_brev<T: Tracer>(ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let a = v[0] & mask64(n);
    let d = a.reverse_bits() >> (64 - n);
    t.stage(|| {
        Stage::new(
            StageKind::Search,
            format!("bit order reversed: bit i moves to bit {}-i", n - 1),
            rv("tmp", n, false, d),
        )
        .op("reverse(a)")
        .input(rv("a", n, false, a))
    });
    result(t, n, false, d);
    d
}

// ---------------------------------------------------------------------------------------------
// bfe, bfi, szext, bmsk

/// Position and length of `bfe`/`bfi`. For 32-bit types only the low byte of each operand
/// counts (the ISA's rule); for 64-bit types the H100 reads the whole 32-bit unsigned value, so
/// a position or length of 256 or more is not reduced modulo 256.
fn pos_len<S: Semantics, T: Tracer>(
    t: &mut T,
    n: u32,
    pv: u64,
    lv: u64,
    pname: &'static str,
    lname: &'static str,
) -> (u64, u64) {
    // The hardware reads all 32 bits of both for 64-bit forms; the text reduces both to their
    // low byte for every width.
    let full = S::pick(|| n == 64, || false);
    let m = if full { 0xffff_ffff } else { 0xff };
    let pos = pv & m;
    let len = lv & m;
    for (what, name, raw, x) in [("position", pname, pv, pos), ("length", lname, lv, len)] {
        t.stage(|| {
            let (label, bits, op) = if full {
                (format!("{what}: all 32 bits"), 32, name.to_string())
            } else if n == 64 {
                (
                    format!("{what}: low byte (the text's rule for every width)"),
                    8,
                    format!("{name} & 0xff"),
                )
            } else {
                (format!("{what}: low byte"), 8, format!("{name} & 0xff"))
            };
            Stage::new(
                StageKind::Field,
                label,
                rv(
                    if what == "position" { "pos" } else { "len" },
                    bits,
                    false,
                    x,
                ),
            )
            .op(op)
            .input(rv(name, 32, false, raw))
            .flag_if(raw != x, Flag::AmountWrapped)
            .differs_if(n == 64 && raw > 0xff, DiffId::BitField64)
        });
    }
    (pos, len)
}

fn eval_bfe<S: Semantics, T: Tracer>(ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let s = ty.is_signed();
    let a = v[0] & mask64(n);
    let (pos, len) = pos_len::<S, _>(t, n, v[1], v[2], "b", "c");
    // Bits of the field that lie inside a.
    let lo = pos.min(n as u64) as u32;
    let width = len.min((n - lo) as u64) as u32;
    let len_cut = (width as u64) < len;
    let field = if width == 0 {
        0
    } else {
        (a >> lo) & mask64(width)
    };
    // The fill bit: the field's top bit, or a's top bit when the field runs past it.
    let (src_lo, src_width) = if s && len > 0 && width == 0 {
        // Starts beyond a's top bit: every bit is a copy of a's top bit.
        (n - 1, 1)
    } else if len == 0 {
        (lo.min(n - 1), 0)
    } else {
        (lo, width)
    };
    let d = if s && src_width > 0 {
        let f = (a >> src_lo) & mask64(src_width);
        (sext(f, src_width) as u64) & mask64(n)
    } else {
        field
    };
    t.stage(|| {
        let label = if len == 0 {
            "length 0: result is 0".to_string()
        } else if src_width == 1 && width == 0 {
            format!("starts past bit {}: copies of a's top bit", n - 1)
        } else if len_cut {
            format!(
                "bits {}..{lo} of a (field cut at bit {}), {}",
                lo + width - 1,
                n - 1,
                if s { "sign-extended" } else { "zero-extended" }
            )
        } else {
            format!(
                "bits {}..{lo} of a, {}",
                lo + width - 1,
                if s { "sign-extended" } else { "zero-extended" }
            )
        };
        Stage::new(StageKind::Field, label, rv("tmp", n, s, d))
            .op("a<pos+len-1..pos>")
            .input(rv("a", n, false, a))
            .flag_if(len_cut, Flag::AmountClamped)
            .flag_if(
                len > 0,
                if s {
                    Flag::SignExtended
                } else {
                    Flag::ZeroExtended
                },
            )
            .detail(Detail::Field {
                source: a,
                source_bits: n,
                lo: src_lo,
                width: src_width,
                signed: s,
                out_bits: n,
            })
    });
    result(t, n, s, d);
    d
}

fn eval_bfi<S: Semantics, T: Tracer>(ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let n = ty.bits();
    let m = mask64(n);
    let a = v[0] & m;
    let b = v[1] & m;
    let (pos, len) = pos_len::<S, _>(t, n, v[2], v[3], "c", "e");
    let lo = pos.min(n as u64) as u32;
    let width = len.min((n - lo) as u64) as u32;
    let len_cut = (width as u64) < len;
    let fmask = if width == 0 { 0 } else { mask64(width) << lo };
    let placed = if width == 0 { 0 } else { (a << lo) & fmask };
    t.stage(|| {
        Stage::new(
            StageKind::Field,
            if width == 0 {
                "empty field: nothing of a is inserted".to_string()
            } else {
                format!(
                    "low {width} bits of a moved to bits {}..{lo}",
                    lo + width - 1
                )
            },
            rv("field", n, false, placed),
        )
        .op("(a << pos) & mask")
        .input(rv("a", n, false, a))
        .flag_if(len_cut, Flag::AmountClamped)
        .detail(Detail::Field {
            source: a,
            source_bits: n,
            lo: 0,
            width,
            signed: false,
            out_bits: n,
        })
    });
    let d = placed | (b & !fmask);
    t.stage(|| {
        Stage::new(
            StageKind::Merge,
            "field written over b",
            rv("tmp", n, false, d),
        )
        .op("field | (b & ~mask)")
        .input(rv("field", n, false, placed))
        .input(rv("b", n, false, b))
        .input(rv("mask", n, false, fmask))
    });
    result(t, n, false, d);
    d
}

fn eval_szext<T: Tracer>(insn: &Instruction, ty: Type, v: &[u64; 4], t: &mut T) -> u64 {
    let s = ty.is_signed();
    let a = v[0] & 0xffff_ffff;
    let b = v[1] & 0xffff_ffff;
    let clamp = insn.form.mode != Some(ClampMode::Wrap);
    let big = b >= 32;
    let len = if big {
        if clamp {
            32
        } else {
            (b & 31) as u32
        }
    } else {
        b as u32
    };
    t.stage(|| {
        Stage::new(
            StageKind::Field,
            if !big {
                "width of the value".to_string()
            } else if clamp {
                "width limited to 32 (.clamp)".to_string()
            } else {
                "width taken modulo 32 (.wrap)".to_string()
            },
            rv("N", 32, false, len as u64),
        )
        .op(if clamp { "min(b, 32)" } else { "b & 31" })
        .input(rv("b", 32, false, b))
        .flag_if(big && clamp, Flag::AmountClamped)
        .flag_if(big && !clamp, Flag::AmountWrapped)
    });
    let d = if len == 0 {
        0
    } else if s {
        (sext(a, len) as u64) & 0xffff_ffff
    } else {
        a & mask64(len)
    };
    t.stage(|| {
        Stage::new(
            StageKind::Field,
            if len == 0 {
                "width 0: result is 0".to_string()
            } else {
                format!(
                    "bits {}..0 of a, {}",
                    len - 1,
                    if s { "sign-extended" } else { "zero-extended" }
                )
            },
            rv("tmp", 32, s, d),
        )
        .op("a<N-1..0>")
        .input(rv("a", 32, false, a))
        .flag_if(
            len > 0,
            if s {
                Flag::SignExtended
            } else {
                Flag::ZeroExtended
            },
        )
        .detail(Detail::Field {
            source: a,
            source_bits: 32,
            lo: 0,
            width: len,
            signed: s,
            out_bits: 32,
        })
    });
    result(t, 32, s, d);
    d
}

fn eval_bmsk<T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    let a = v[0] & 0xffff_ffff;
    let b = v[1] & 0xffff_ffff;
    let clamp = insn.form.mode != Some(ClampMode::Wrap);
    let (pos, width) = if clamp {
        (a.min(32) as u32, b.min(32) as u32)
    } else {
        ((a & 31) as u32, (b & 31) as u32)
    };
    t.stage(|| {
        Stage::new(
            StageKind::Field,
            if clamp {
                "position and width limited to 32 (.clamp)"
            } else {
                "position and width taken modulo 32 (.wrap)"
            },
            rv("pos", 32, false, pos as u64),
        )
        .op(if clamp { "min(a, 32)" } else { "a & 31" })
        .input(rv("a", 32, false, a))
        .input(rv("b", 32, false, b))
        .input(rv("width", 32, false, width as u64))
        .flag_if(clamp && (a > 32 || b > 32), Flag::AmountClamped)
        .flag_if(!clamp && (a > 31 || b > 31), Flag::AmountWrapped)
    });
    let top = (pos + width).min(32);
    let d = if pos >= 32 {
        0
    } else {
        mask64(top) & !mask64(pos)
    };
    t.stage(|| {
        Stage::new(
            StageKind::Field,
            if d == 0 {
                "empty mask".to_string()
            } else {
                format!("ones in bits {}..{pos}", top - 1)
            },
            rv("tmp", 32, false, d),
        )
        .op("ones(width) << pos")
        .input(rv("pos", 32, false, pos as u64))
        .input(rv("width", 32, false, width as u64))
        .flag_if(pos + width > 32, Flag::AmountClamped)
        .detail(Detail::Field {
            source: d,
            source_bits: 32,
            lo: pos.min(31),
            width: top.saturating_sub(pos),
            signed: false,
            out_bits: 32,
        })
    });
    result(t, 32, false, d);
    d
}

// ---------------------------------------------------------------------------------------------
// dp4a, dp2a

fn eval_dot<T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    let (sa, sb) = (insn.signed(1), insn.signed(2));
    let four = insn.opcode == Opcode::Dp4a;
    let (lanes, abits, bsel) = if four {
        (4u32, 8u32, 0u32)
    } else {
        let hi = insn.form.half == Some(HalfMode::Hi);
        (2, 16, if hi { 2 } else { 0 })
    };
    let cs = sa || sb;
    let c = ext(v[2], 32, cs);
    let mut sum = c;
    for i in 0..lanes {
        let x = ext(v[0] >> (abits * i), abits, sa);
        let bi = bsel + i;
        let y = ext(v[1] >> (8 * bi), 8, sb);
        let p = x * y;
        sum += p;
        t.stage(|| {
            let an = if four {
                format!("a.b{i}")
            } else {
                format!("a.h{i}")
            };
            let bn = format!("b.b{bi}");
            let pbits = abits + 8;
            Stage::new(
                StageKind::Product,
                format!("lane {i}: {an} × {bn}"),
                Val::new(format!("p{i}"), pbits, sa || sb, p),
            )
            .op(format!("{an} * {bn}"))
            .input(Val::new(an, abits, sa, x))
            .input(Val::new(bn, 8, sb, y))
            .lane(i as u8)
            .flag_if(sa || sb, Flag::SignExtended)
            .flag_if(!sa || !sb, Flag::ZeroExtended)
            .detail(Detail::Product {
                full_bits: pbits,
                kept_lo: 0,
                kept_bits: pbits,
            })
        });
    }
    t.stage(|| {
        let terms = (0..lanes).map(|i| format!(" + p{i}")).collect::<String>();
        Stage::new(
            StageKind::Accumulate,
            "products summed into c",
            Val::new("tmp", 35, true, sum),
        )
        .op(format!("c{terms}"))
        .input(Val::new("c", 32, cs, c))
    });
    let d = wrap_to(t, sum, 35, 32, cs, "tmp");
    result(t, 32, cs, d);
    d
}

/// `fns`'s search over the 32-bit window (as a u64): the position of the `k`th set bit counted
/// from the base, downwards or upwards, or `0xffffffff` when the window holds fewer than `k`.
/// A negative `k` means `|offset|` overflowed: the search passes every bit and stops at the far
/// end. Shared by the evaluator and the plan kernel, so both search the same way.
pub(crate) fn fns_search(window: u64, count: i64, k: i64, down: bool) -> u64 {
    const NOT_FOUND: u64 = 0xffff_ffff;
    if count < k {
        NOT_FOUND
    } else if k < 0 {
        if down {
            0
        } else {
            31
        }
    } else {
        let mut x = window;
        for _ in 1..k {
            if down {
                x &= !(1u64 << (63 - x.leading_zeros()));
            } else {
                x &= x.wrapping_sub(1);
            }
        }
        if down {
            u64::from(63 - x.leading_zeros())
        } else {
            u64::from(x.trailing_zeros())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, evaluate_traced, Inputs};
    use crate::parse;
    use crate::trace::StageKind;

    /// Evaluate `text` with the given sources, checking that the traced path agrees.
    fn ev(text: &str, src: &[u64]) -> u64 {
        let insn = parse(text).unwrap();
        let mut v = [0u64; 4];
        v[..src.len()].copy_from_slice(src);
        let inputs = Inputs::new(v[0], v[1], v[2], v[3]);
        let d = evaluate(&insn, &inputs);
        let tr = evaluate_traced(&insn, &inputs);
        assert_eq!(
            tr.result.raw() as u64,
            d,
            "{text}: traced and fast paths differ"
        );
        let last = tr.stages.last().unwrap();
        assert_eq!(last.kind, StageKind::Result, "{text}: last stage");
        assert_eq!(last.output.name, "d");
        assert_eq!(last.output.raw() as u64, d, "{text}: Result stage");
        d
    }

    fn flags(text: &str, src: &[u64]) -> Vec<Flag> {
        let insn = parse(text).unwrap();
        let mut v = [0u64; 4];
        v[..src.len()].copy_from_slice(src);
        let tr = evaluate_traced(&insn, &Inputs::new(v[0], v[1], v[2], v[3]));
        tr.stages.iter().flat_map(|s| s.flags.clone()).collect()
    }

    fn w(text: &str) -> (u32, Vec<u32>) {
        let insn = parse(text).unwrap();
        let w = insn.widths();
        (w.dst, w.src[..w.sources].to_vec())
    }

    #[test]
    fn widths_follow_each_instruction() {
        assert_eq!(w("add.s16 d, a, b;"), (16, vec![16, 16]));
        assert_eq!(w("add.u16x2 d, a, b;"), (32, vec![32, 32]));
        assert_eq!(w("mul.wide.s32 d, a, b;"), (64, vec![32, 32]));
        assert_eq!(w("mul.wide.u16 d, a, b;"), (32, vec![16, 16]));
        assert_eq!(w("mul.hi.u64 d, a, b;"), (64, vec![64, 64]));
        assert_eq!(w("mad.wide.u16 d, a, b, c;"), (32, vec![16, 16, 32]));
        assert_eq!(w("mad.wide.s32 d, a, b, c;"), (64, vec![32, 32, 64]));
        assert_eq!(w("mad.lo.s16 d, a, b, c;"), (16, vec![16, 16, 16]));
        assert_eq!(w("popc.b64 d, a;"), (32, vec![64]));
        assert_eq!(w("clz.b64 d, a;"), (32, vec![64]));
        assert_eq!(w("bfind.shiftamt.s64 d, a;"), (32, vec![64]));
        assert_eq!(w("brev.b64 d, a;"), (64, vec![64]));
        assert_eq!(w("bfe.u64 d, a, b, c;"), (64, vec![64, 32, 32]));
        assert_eq!(w("bfi.b64 d, a, b, c, e;"), (64, vec![64, 64, 32, 32]));
        assert_eq!(w("fns.b32 d, a, b, c;"), (32, vec![32, 32, 32]));
        assert_eq!(w("szext.wrap.s32 d, a, b;"), (32, vec![32, 32]));
        assert_eq!(w("bmsk.clamp.b32 d, a, b;"), (32, vec![32, 32]));
        assert_eq!(w("dp4a.u32.s32 d, a, b, c;"), (32, vec![32, 32, 32]));
        assert_eq!(w("dp2a.hi.s32.s32 d, a, b, c;"), (32, vec![32, 32, 32]));
        assert_eq!(w("mul24.hi.s32 d, a, b;"), (32, vec![32, 32]));
        // Never wider than a 64-bit register, even for a form ptxas rejects.
        assert_eq!(w("mul.wide.u64 d, a, b;").0, 64);
    }

    #[test]
    fn add_sub_wrap_or_saturate() {
        // 0x7fff + 1 = 32768 does not fit s16: wraps to -32768.
        assert_eq!(ev("add.s16 d, a, b;", &[0x7fff, 1]), 0x8000);
        assert!(flags("add.s16 d, a, b;", &[0x7fff, 1]).contains(&Flag::Wrapped));
        // 0xffffffff + 1 wraps to 0.
        assert_eq!(ev("add.u32 d, a, b;", &[0xffff_ffff, 1]), 0);
        // .sat: 2^31 - 1 + 5 clamps at 2^31 - 1; -2^31 - 1 clamps at -2^31.
        assert_eq!(ev("add.sat.s32 d, a, b;", &[0x7fff_ffff, 5]), 0x7fff_ffff);
        assert_eq!(ev("sub.sat.s32 d, a, b;", &[0x8000_0000, 1]), 0x8000_0000);
        assert!(flags("sub.sat.s32 d, a, b;", &[0x8000_0000, 1]).contains(&Flag::ClampedLow));
        // 3 - 5 = -2 in 64 bits.
        assert_eq!(ev("sub.s64 d, a, b;", &[3, 5]), (-2i64) as u64);
    }

    #[test]
    fn half_word_pairs_are_independent() {
        // Lane 0: 1 + 1 = 2; lane 1: 0xffff + 1 wraps to 0 without carrying into anything.
        assert_eq!(
            ev("add.u16x2 d, a, b;", &[0xffff_0001, 0x0001_0001]),
            0x0000_0002
        );
        // Lane 0: 0x7fff + 1 wraps to 0x8000 and does not carry into lane 1.
        assert_eq!(
            ev("add.s16x2 d, a, b;", &[0x0000_7fff, 0x0000_0001]),
            0x0000_8000
        );
        // Signed lanes: min(-1, 1) = -1 per lane; unsigned: min(0xffff, 1) = 1.
        assert_eq!(
            ev("min.s16x2 d, a, b;", &[0xffff_0001, 0x0001_ffff]),
            0xffff_ffff
        );
        assert_eq!(
            ev("min.u16x2 d, a, b;", &[0xffff_0001, 0x0001_ffff]),
            0x0001_0001
        );
        // .relu: lane 0 max(-8, -24) = -8 -> 0; lane 1 max(2066, -32732) = 2066.
        assert_eq!(
            ev("max.relu.s16x2 d, a, b;", &[0x0812_fff8, 0x8024_ffe8]),
            0x0812_0000
        );
        assert_eq!(
            ev("min.relu.s16x2 d, a, b;", &[0x0005_0003, 0xfffe_0009]),
            0x0000_0003
        );
    }

    #[test]
    fn products_keep_the_chosen_half() {
        // 0x80000000 * 4 = 2^33: high word 2, low word 0.
        assert_eq!(ev("mul.hi.u32 d, a, b;", &[0x8000_0000, 4]), 2);
        assert_eq!(ev("mul.lo.u32 d, a, b;", &[0x8000_0000, 4]), 0);
        // -1 * 1 = -1: the high word of a signed product is all ones.
        assert_eq!(ev("mul.hi.s32 d, a, b;", &[0xffff_ffff, 1]), 0xffff_ffff);
        assert_eq!(ev("mul.hi.u32 d, a, b;", &[0xffff_ffff, 1]), 0);
        // (-1) * (-1) = 1 in 32 bits; 0xffff * 0xffff = 0xfffe0001 unsigned.
        assert_eq!(ev("mul.wide.s16 d, a, b;", &[0xffff, 0xffff]), 1);
        assert_eq!(ev("mul.wide.u16 d, a, b;", &[0xffff, 0xffff]), 0xfffe_0001);
        // (2^64 - 1)^2 = 2^128 - 2^65 + 1: high half 2^64 - 2.
        assert_eq!(
            ev("mul.hi.u64 d, a, b;", &[u64::MAX, u64::MAX]),
            0xffff_ffff_ffff_fffe
        );
        // -2^63 * -2^63 = 2^126: high half 2^62.
        let m = 1u64 << 63;
        assert_eq!(ev("mul.hi.s64 d, a, b;", &[m, m]), 1 << 62);
    }

    #[test]
    fn mad_adds_c_at_the_kept_width() {
        // 0xffffffff * 2 = 0x1fffffffe, plus 2^40 in the 64-bit c.
        assert_eq!(
            ev("mad.wide.u32 d, a, b, c;", &[0xffff_ffff, 2, 1 << 40]),
            0x101_ffff_fffe
        );
        // (2^31-1)^2 = 2^62 - 2^32 + 1: high word 0x3fffffff; + 0x7fffffff overflows, .sat clamps.
        assert_eq!(
            ev(
                "mad.hi.sat.s32 d, a, b, c;",
                &[0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff]
            ),
            0x7fff_ffff
        );
        // Without .sat: 0x3fffffff + 0x7fffffff = 0xbffffffe.
        assert_eq!(
            ev(
                "mad.hi.s32 d, a, b, c;",
                &[0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff]
            ),
            0xbfff_fffe
        );
        // 3 * 4 + 0xffff wraps in 16 bits to 11.
        assert_eq!(ev("mad.lo.u16 d, a, b, c;", &[3, 4, 0xffff]), 11);
    }

    #[test]
    fn mul24_uses_the_low_24_bits() {
        // 0x00ffffff is -1 as a 24-bit signed number; the top byte of a is ignored.
        assert_eq!(ev("mul24.lo.s32 d, a, b;", &[0xabff_ffff, 2]), 0xffff_fffe);
        assert_eq!(ev("mul24.lo.u32 d, a, b;", &[0xabff_ffff, 2]), 0x01ff_fffe);
        // (2^24-1)^2 = 2^48 - 2^25 + 1; bits 47..16 are 0xfffffe00.
        assert_eq!(
            ev("mul24.hi.u32 d, a, b;", &[0x00ff_ffff, 0x00ff_ffff]),
            0xffff_fe00
        );
        // 2^23-1 squared = 2^46 - 2^24 + 1; bits 47..16 = 0x3fff_ff00; + 2^30 ... saturates.
        assert_eq!(
            ev(
                "mad24.hi.sat.s32 d, a, b, c;",
                &[0x7f_ffff, 0x7f_ffff, 0x4000_0100]
            ),
            0x7fff_ffff
        );
        assert_eq!(ev("mad24.lo.u32 d, a, b, c;", &[3, 5, 7]), 22);
    }

    #[test]
    fn sad_adds_absolute_difference() {
        // |-5 - 3| + 10 = 18.
        assert_eq!(
            ev("sad.s32 d, a, b, c;", &[(-5i32) as u32 as u64, 3, 10]),
            18
        );
        // Unsigned: |1 - 65535| = 65534.
        assert_eq!(ev("sad.u16 d, a, b, c;", &[1, 0xffff, 0]), 0xfffe);
        // Signed s16: |-1 - 1| = 2.
        assert_eq!(ev("sad.s16 d, a, b, c;", &[0xffff, 1, 0]), 2);
    }

    #[test]
    fn division_truncates_and_by_zero_gives_all_ones() {
        let m7 = (-7i32) as u32 as u64;
        assert_eq!(ev("div.s32 d, a, b;", &[m7, 2]), (-3i32) as u32 as u64);
        assert_eq!(ev("rem.s32 d, a, b;", &[m7, 2]), 0xffff_ffff);
        assert_eq!(ev("rem.s32 d, a, b;", &[7, (-2i32) as u32 as u64]), 1);
        assert_eq!(ev("div.u32 d, a, b;", &[7, 0]), 0xffff_ffff);
        assert_eq!(ev("rem.u32 d, a, b;", &[7, 0]), 0xffff_ffff);
        assert_eq!(ev("div.s16 d, a, b;", &[0x9a50, 0]), 0xffff);
        assert_eq!(ev("rem.s16 d, a, b;", &[1, 0]), 0xffff);
        assert_eq!(ev("div.u64 d, a, b;", &[5, 0]), u64::MAX);
        assert!(flags("div.u64 d, a, b;", &[5, 0]).contains(&Flag::DivideByZero));
        // The most negative value divided by -1 wraps back to itself; its remainder is 0.
        assert_eq!(
            ev("div.s32 d, a, b;", &[0x8000_0000, 0xffff_ffff]),
            0x8000_0000
        );
        assert!(flags("div.s32 d, a, b;", &[0x8000_0000, 0xffff_ffff]).contains(&Flag::Wrapped));
        assert_eq!(ev("rem.s32 d, a, b;", &[0x8000_0000, 0xffff_ffff]), 0);
        let m = 1u64 << 63;
        assert_eq!(ev("div.s64 d, a, b;", &[m, u64::MAX]), m);
    }

    #[test]
    fn abs_neg_and_min_max() {
        assert_eq!(ev("abs.s32 d, a;", &[0x8000_0000]), 0x8000_0000);
        assert_eq!(ev("abs.s16 d, a;", &[0xfffb]), 5);
        assert_eq!(ev("neg.s16 d, a;", &[0x8000]), 0x8000);
        assert_eq!(ev("neg.s64 d, a;", &[1]), u64::MAX);
        // 0xffffffff is -1 signed but the largest unsigned value.
        assert_eq!(ev("min.s32 d, a, b;", &[0xffff_ffff, 1]), 0xffff_ffff);
        assert_eq!(ev("min.u32 d, a, b;", &[0xffff_ffff, 1]), 1);
        assert_eq!(ev("max.s64 d, a, b;", &[u64::MAX, 1]), 1);
        // .relu: max(-5, -3) = -3 becomes 0; min(-5, 7) = -5 becomes 0.
        let m5 = (-5i32) as u32 as u64;
        assert_eq!(ev("max.relu.s32 d, a, b;", &[m5, (-3i32) as u32 as u64]), 0);
        assert_eq!(ev("min.relu.s32 d, a, b;", &[m5, 7]), 0);
        assert_eq!(ev("max.relu.s32 d, a, b;", &[m5, 7]), 7);
    }

    #[test]
    fn counts_and_searches() {
        assert_eq!(ev("popc.b64 d, a;", &[u64::MAX]), 64);
        assert_eq!(ev("popc.b32 d, a;", &[0x8000_0101]), 3);
        assert_eq!(ev("clz.b32 d, a;", &[0]), 32);
        assert!(flags("clz.b32 d, a;", &[0]).contains(&Flag::NotFound));
        assert_eq!(ev("clz.b64 d, a;", &[1]), 63);
        assert_eq!(ev("clz.b32 d, a;", &[0x0001_0000]), 15);
        // bfind: highest 1 of a non-negative value, highest 0 of a negative one.
        assert_eq!(ev("bfind.u64 d, a;", &[1 << 40]), 40);
        assert_eq!(ev("bfind.u32 d, a;", &[0]), 0xffff_ffff);
        // -24 = ...11101000: highest 0 is bit 4.
        assert_eq!(ev("bfind.s32 d, a;", &[0xffff_ffe8]), 4);
        assert_eq!(ev("bfind.s32 d, a;", &[0xffff_ffff]), 0xffff_ffff);
        assert_eq!(ev("bfind.shiftamt.u32 d, a;", &[1]), 31);
        assert_eq!(ev("bfind.shiftamt.s64 d, a;", &[0x7fff_ffff_ffff_ffff]), 1);
        assert_eq!(ev("bfind.shiftamt.u32 d, a;", &[0]), 0xffff_ffff);
        assert_eq!(ev("brev.b32 d, a;", &[1]), 0x8000_0000);
        assert_eq!(ev("brev.b64 d, a;", &[0x3]), 0xc000_0000_0000_0000);
    }

    #[test]
    fn fns_counts_from_base() {
        // The ISA's own examples.
        let m = 0xaaaa_aaaa;
        assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 3, 1]), 3);
        assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 3, 0xffff_ffff]), 3);
        assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 2, 1]), 3);
        assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 2, 0xffff_ffff]), 1);
        // offset 0: only bit base itself.
        assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 2, 0]), 0xffff_ffff);
        assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 3, 0]), 3);
        // One bits of 0b1011_0100 are 2, 4, 5, 7: the third from bit 0 is 5, the fourth 7.
        assert_eq!(ev("fns.b32 d, a, b, c;", &[0xb4, 0, 3]), 5);
        assert_eq!(ev("fns.b32 d, a, b, c;", &[0xb4, 0, 4]), 7);
        // Only four one bits: the fifth is not found; from bit 3 up only 4, 5, 7 count.
        assert_eq!(ev("fns.b32 d, a, b, c;", &[0xb4, 0, 5]), 0xffff_ffff);
        assert_eq!(ev("fns.b32 d, a, b, c;", &[0xb4, 3, 3]), 7);
        // Second one bit at or below bit 31 of 0x80000001: bit 0.
        assert_eq!(
            ev(
                "fns.b32 d, a, b, c;",
                &[0x8000_0001, 31, (-2i32) as u32 as u64]
            ),
            0
        );
        // A base of 32 or more finds nothing.
        assert_eq!(
            ev("fns.b32 d, a, b, c;", &[u64::from(u32::MAX), 32, 1]),
            0xffff_ffff
        );
        assert_eq!(
            ev("fns.b32 d, a, b, c;", &[u64::from(u32::MAX), 40, 0]),
            0xffff_ffff
        );
        // offset -2^31: negating it overflows, the count check passes, the answer is bit 0.
        assert_eq!(ev("fns.b32 d, a, b, c;", &[0, 5, 0x8000_0000]), 0);
        assert_eq!(
            ev(
                "fns.b32 d, a, b, c;",
                &[0x82bc_eed3, 0x2de8_8000, 0x8000_0000]
            ),
            0
        );
    }

    #[test]
    fn bfe_extracts_and_extends() {
        // Bits 7..4 of 0xf0: 0xf, zero- or sign-extended.
        assert_eq!(ev("bfe.u32 d, a, b, c;", &[0xf0, 4, 4]), 0xf);
        assert_eq!(ev("bfe.s32 d, a, b, c;", &[0xf0, 4, 4]), 0xffff_ffff);
        // 32-bit: only the low byte of position and length counts (0x104 -> 4).
        assert_eq!(ev("bfe.u32 d, a, b, c;", &[0xf0, 0x104, 0x204]), 0xf);
        // Length 0 gives 0.
        assert_eq!(ev("bfe.s32 d, a, b, c;", &[0xffff_ffff, 0, 0]), 0);
        // Field past bit 31: bits 31..28 of 0x80000000 = 0b1000, sign from bit 31.
        assert_eq!(
            ev("bfe.s32 d, a, b, c;", &[0x8000_0000, 28, 10]),
            0xffff_fff8
        );
        assert_eq!(ev("bfe.u32 d, a, b, c;", &[0x8000_0000, 28, 10]), 0x8);
        // Position past bit 31: copies of the top bit (signed) or 0.
        assert_eq!(
            ev("bfe.s32 d, a, b, c;", &[0x8000_0000, 40, 3]),
            0xffff_ffff
        );
        assert_eq!(ev("bfe.u32 d, a, b, c;", &[0x8000_0000, 40, 3]), 0);
        // 64-bit: the whole 32-bit position and length count. Position 0x104 = 260 is past
        // bit 63 (the low byte alone would say 4).
        assert_eq!(ev("bfe.u64 d, a, b, c;", &[0xf0, 0x104, 4]), 0);
        // Length 0x100 = 256 takes everything from the position up (the low byte would say 0).
        assert_eq!(
            ev("bfe.u64 d, a, b, c;", &[0x8000_0000_0000_0001, 38, 0x100]),
            0x0200_0000
        );
        assert_eq!(
            ev("bfe.s64 d, a, b, c;", &[0x8000_0000_0000_0001, 38, 0x100]),
            0xffff_ffff_fe00_0000
        );
        assert_eq!(
            ev("bfe.s64 d, a, b, c;", &[1 << 63, 0x8000_0000, 1]),
            u64::MAX
        );
    }

    #[test]
    fn bfi_inserts_into_b() {
        // Low 4 bits of 0xff placed at bit 8 of 0.
        assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0, 8, 4]), 0xf00);
        // Existing bits of b outside the field stay.
        assert_eq!(
            ev("bfi.b32 d, a, b, c, e;", &[0, 0xffff_ffff, 8, 4]),
            0xffff_f0ff
        );
        // 32-bit: length 0x104 is 4; a field running past bit 31 is cut.
        assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0, 8, 0x104]), 0xf00);
        assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0, 30, 8]), 0xc000_0000);
        // Position past the top or length 0: b unchanged.
        assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0x1234, 32, 8]), 0x1234);
        assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0x1234, 0, 0]), 0x1234);
        // 64-bit: length 0x100 is 256, not 0: all of a from bit 8 up replaces b.
        assert_eq!(
            ev(
                "bfi.b64 d, a, b, c, e;",
                &[0x1122_3344_5566_7788, 0xab, 8, 0x100]
            ),
            0x2233_4455_6677_88ab
        );
        // 64-bit: position 0x108 = 264 is past the top: b unchanged.
        assert_eq!(
            ev("bfi.b64 d, a, b, c, e;", &[u64::MAX, 0xab, 0x108, 4]),
            0xab
        );
    }

    #[test]
    fn szext_and_bmsk() {
        assert_eq!(ev("szext.wrap.s32 d, a, b;", &[0x80, 8]), 0xffff_ff80);
        assert_eq!(ev("szext.wrap.u32 d, a, b;", &[0x1ff, 8]), 0xff);
        // .wrap: 40 is 8; .clamp: 40 is 32, a unchanged.
        assert_eq!(ev("szext.wrap.s32 d, a, b;", &[0x180, 40]), 0xffff_ff80);
        assert_eq!(ev("szext.clamp.s32 d, a, b;", &[0x180, 40]), 0x180);
        // Width 0 (or 32 wrapped to 0) gives 0.
        assert_eq!(ev("szext.wrap.u32 d, a, b;", &[0xffff_ffff, 0]), 0);
        assert_eq!(ev("szext.wrap.s32 d, a, b;", &[0xffff_ffff, 32]), 0);
        // bmsk: the ISA's example, width 2 at bit 1.
        assert_eq!(ev("bmsk.wrap.b32 d, a, b;", &[1, 2]), 0x6);
        assert_eq!(ev("bmsk.clamp.b32 d, a, b;", &[0, 32]), 0xffff_ffff);
        assert_eq!(ev("bmsk.clamp.b32 d, a, b;", &[32, 4]), 0);
        // Mask cut at bit 31.
        assert_eq!(ev("bmsk.clamp.b32 d, a, b;", &[30, 40]), 0xc000_0000);
        // .wrap: position 33 -> 1, width 34 -> 2.
        assert_eq!(ev("bmsk.wrap.b32 d, a, b;", &[33, 34]), 0x6);
        assert_eq!(ev("bmsk.wrap.b32 d, a, b;", &[3, 32]), 0);
    }

    #[test]
    fn dot_products() {
        // 1*4 + 2*3 + 3*2 + 4*1 = 20, plus 10.
        assert_eq!(
            ev("dp4a.u32.u32 d, a, b, c;", &[0x0403_0201, 0x0102_0304, 10]),
            30
        );
        // Signed a: four bytes of -1 times 1 each: c - 4.
        assert_eq!(
            ev("dp4a.s32.u32 d, a, b, c;", &[0xffff_ffff, 0x0101_0101, 10]),
            6
        );
        // Unsigned a: 255 * 1 four times.
        assert_eq!(
            ev("dp4a.u32.u32 d, a, b, c;", &[0xffff_ffff, 0x0101_0101, 0]),
            1020
        );
        // dp2a.lo: a.h0 * b.b0 + a.h1 * b.b1 = 3*4 + 2*5 = 22; .hi uses b.b2, b.b3.
        assert_eq!(
            ev(
                "dp2a.lo.u32.u32 d, a, b, c;",
                &[0x0002_0003, 0x0706_0504, 0]
            ),
            22
        );
        assert_eq!(
            ev(
                "dp2a.hi.u32.u32 d, a, b, c;",
                &[0x0002_0003, 0x0706_0504, 0]
            ),
            32
        );
        // Signed b: -1 * 3 + -1 * 2 = -5.
        assert_eq!(
            ev(
                "dp2a.lo.u32.s32 d, a, b, c;",
                &[0x0002_0003, 0x0000_ffff, 0]
            ),
            (-5i32) as u32 as u64
        );
    }

    #[test]
    fn odd_forms_never_panic() {
        let texts = [
            "add d, a, b;",
            "mul.wide.u64 d, a, b;",
            "mad.wide.s64 d, a, b, c;",
            "bfe.u64 d, a;",
            "bfi.b16 d, a, b, c, e;",
            "fns.b32 d;",
            "dp2a.s32 d, a, b, c;",
            "szext.s16 d, a, b;",
            "bmsk.b64 d, a, b;",
            "clz.b16 d, a;",
            "bfind.s16 d, a;",
            "brev.u16 d, a;",
            "add.sat.u16 d, a, b;",
            "min.relu.u32 d, a, b;",
            "sub.s16x2 d, a, b;",
            "mul24.hi.s64 d, a, b;",
            "div.s64 d, a, b;",
        ];
        let vals = [0, 1, 0xff, 0x8000_0000, u64::MAX, 1 << 63, 0x1_0000_0000];
        for t in texts {
            let insn = parse(t).unwrap();
            for &a in &vals {
                for &b in &vals {
                    let inp = Inputs::new(a, b, a ^ b, b.wrapping_sub(a));
                    let d = evaluate(&insn, &inp);
                    assert_eq!(evaluate_traced(&insn, &inp).result.raw() as u64, d, "{t}");
                }
            }
        }
    }
}
