//! `mul`, `mad`, `mul24`, `mad24` and `sad`: products, the half kept, and a sum with `c`.

use super::{ext, mask64, result, rv, saturate, wrap_to};
use crate::ast::HalfMode;
use crate::trace::{Detail, Flag, Flow, Stage, StageKind, Tracer, Val};

/// `mul` (`mad` false) or `mad` of `n`-bit numbers, signed when `s`, keeping `half` of the
/// product; `mad` saturated when `sat`.
// Native: inside the copy of `mul` and of `mad` (`eval_as`), so the form's fields fold.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn eval_mul_mad<T: Tracer>(
    n: u32,
    s: bool,
    half: HalfMode,
    mad: bool,
    sat: bool,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
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
    t.stage([], || {
        Stage::new(
            StageKind::Product,
            format!("full {full_bits}-bit product"),
            Val::new("t", full_bits, s, p),
        )
        .flow(Flow::Carry)
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
    if half != HalfMode::Wide {
        t.stage(
            [(half == HalfMode::Lo && ext(part, n, s) != p, Flag::Wrapped)],
            || {
                let label = match half {
                    HalfMode::Lo => format!("low half: bits {}..0", n - 1),
                    HalfMode::Hi => format!("high half: bits {}..{n}", full_bits - 1),
                    HalfMode::Wide => format!("all {full_bits} bits kept (.wide)"),
                };
                Stage::new(StageKind::Truncate, label, rv("tp", kept_bits, s, part))
                    .flow(Flow::bits(kept_lo, kept_lo + kept_bits - 1, false))
                    .op(match half {
                        HalfMode::Lo => format!("t<{}..0>", n - 1),
                        HalfMode::Hi => format!("t<{}..{n}>", full_bits - 1),
                        HalfMode::Wide => "t".to_string(),
                    })
                    .input(Val::new("t", full_bits, s, p))
                // The low half alone no longer equals the product.
            },
        );
    }
    if !mad {
        result(t, kept_bits, s, part);
        return part;
    }
    let c = ext(v[2], kept_bits, s);
    let tp = ext(part, kept_bits, s);
    let exact = tp + c;
    t.stage([], || {
        Stage::new(
            StageKind::Operate,
            "exact sum with c",
            Val::new("tmp", kept_bits + 1, true, exact),
        )
        .flow(Flow::Carry)
        // With .wide the whole product is added: it is `t`, no half was taken.
        .op(if half == HalfMode::Wide {
            "t + c"
        } else {
            "tp + c"
        })
        .input(Val::new(
            if half == HalfMode::Wide { "t" } else { "tp" },
            kept_bits,
            s,
            tp,
        ))
        .input(Val::new("c", kept_bits, s, c))
    });
    let d = if sat {
        saturate(t, exact, kept_bits + 1, kept_bits, s, "tmp")
    } else {
        wrap_to(t, exact, kept_bits + 1, kept_bits, s, "tmp")
    };
    result(t, kept_bits, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// mul24, mad24

/// `mul24` (`mad` false) or `mad24`, signed when `s`, keeping bits 47..16 when `hi`; `mad24`
/// saturated when `sat`.
pub(super) fn eval_mul24<T: Tracer>(
    s: bool,
    hi: bool,
    mad: bool,
    sat: bool,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    let a = ext(v[0], 24, s);
    let b = ext(v[1], 24, s);
    for (name, raw, x) in [("a", v[0], a), ("b", v[1], b)] {
        t.stage([], || {
            Stage::new(
                StageKind::Extract,
                format!(
                    "low 24 bits of {name}, {}",
                    if s { "sign-extended" } else { "zero-extended" }
                ),
                Val::new(format!("{name}24"), 24, s, x),
            )
            .input(rv(name, 32, s, raw))
            .extended(s)
            .flow(Flow::field(0, 24, s))
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
    t.stage([], || {
        Stage::new(
            StageKind::Product,
            "full 48-bit product",
            Val::new("t", 48, s, p),
        )
        .flow(Flow::Carry)
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
    t.stage([], || {
        Stage::new(
            StageKind::Truncate,
            if hi {
                "bits 47..16 kept"
            } else {
                "bits 31..0 kept"
            },
            rv("tp", 32, s, part),
        )
        .flow(Flow::bits(kept_lo, kept_lo + 31, false))
        .op(if hi { "t<47..16>" } else { "t<31..0>" })
        .input(Val::new("t", 48, s, p))
    });
    if !mad {
        result(t, 32, s, part);
        return part;
    }
    let c = ext(v[2], 32, s);
    let tp = ext(part, 32, s);
    let exact = tp + c;
    t.stage([], || {
        Stage::new(
            StageKind::Operate,
            "exact sum with c",
            Val::new("tmp", 33, true, exact),
        )
        .flow(Flow::Carry)
        .op("tp + c")
        .input(Val::new("tp", 32, s, tp))
        .input(Val::new("c", 32, s, c))
    });
    let d = if sat {
        saturate(t, exact, 33, 32, s, "tmp")
    } else {
        wrap_to(t, exact, 33, 32, s, "tmp")
    };
    result(t, 32, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// sad

pub(super) fn eval_sad<T: Tracer>(n: u32, s: bool, v: &[u64; 4], t: &mut T) -> u64 {
    let a = ext(v[0], n, s);
    let b = ext(v[1], n, s);
    let c = ext(v[2], n, s);
    let diff = (a - b).abs();
    t.stage([], || {
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
    t.stage([], || {
        Stage::new(
            StageKind::Operate,
            "plus c",
            Val::new("tmp", n + 2, true, exact),
        )
        .flow(Flow::Carry)
        .op("c + ad")
        .input(Val::new("c", n, s, c))
        .input(Val::new("ad", n + 1, false, diff))
    });
    let d = wrap_to(t, exact, n + 2, n, s, "tmp");
    result(t, n, s, d);
    d
}
