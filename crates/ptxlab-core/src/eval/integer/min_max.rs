//! `abs`, `neg`, `min` and `max`.

use super::{ext, mask64, range, result, sign_word, wrap_to};
use crate::trace::{Detail, Flag, Flow, Stage, StageKind, Tracer, Val};

/// `abs` (`abs` true) or `neg` of the low `n` bits of `a`, read signed when `s`.
pub(super) fn eval_abs_neg<T: Tracer>(n: u32, s: bool, abs: bool, v: &[u64; 4], t: &mut T) -> u64 {
    let a = ext(v[0], n, s);
    let exact = if abs { a.abs() } else { -a };
    t.stage([(!abs || a < 0, Flag::Negated)], || {
        Stage::new(
            StageKind::Adjust,
            if abs { "absolute value" } else { "negated" },
            Val::new("tmp", n + 1, true, exact),
        )
        .flow(if abs { Flow::All } else { Flow::Carry })
        .op(if abs { "|a|" } else { "-a" })
        .input(Val::new("a", n, s, a))
    });
    let d = wrap_to(t, exact, n + 1, n, s, "tmp");
    result(t, n, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// min, max

/// `min` (`is_min`) or `max` of `n`-bit numbers, signed when `s`, `.relu` when `relu`.
pub(super) fn eval_min_max<T: Tracer>(
    n: u32,
    s: bool,
    is_min: bool,
    relu: bool,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    let a = ext(v[0], n, s);
    let b = ext(v[1], n, s);
    let x = if is_min { a.min(b) } else { a.max(b) };
    t.stage([], || {
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
    if relu {
        out = if s { x.max(0) } else { x };
        t.stage([(out != x, Flag::ClampedLow)], || {
            Stage::new(
                StageKind::Clamp,
                "negative becomes 0 (.relu)",
                Val::new("tmp", n, s, out),
            )
            .op("max(tmp, 0)")
            .input(Val::new("tmp", n, s, x))
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
