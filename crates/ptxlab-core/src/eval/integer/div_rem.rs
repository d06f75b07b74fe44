//! `div` and `rem`.

use super::{ext, mask64, result, rv, wrap_to};
use crate::bits::sext;
use crate::trace::{Flag, Stage, StageKind, Tracer, Val};

/// `div` (`div` true) or `rem` of the low `n` bits, read signed when `s`.
pub(super) fn eval_div_rem<T: Tracer>(n: u32, s: bool, div: bool, v: &[u64; 4], t: &mut T) -> u64 {
    let m = mask64(n);
    let by_zero = v[1] & m == 0;
    let d = div_rem(v[0], v[1], n, s, div);
    // Only the most negative value divided by -1 leaves the range: its quotient wraps.
    let overflow =
        div && s && !by_zero && sext(v[1], n) == -1 && sext(v[0], n) == sext(1 << (n - 1), n);
    let a = ext(v[0], n, s);
    let b = ext(v[1], n, s);
    let exact = move || {
        if by_zero {
            m as i128
        } else if div {
            a / b
        } else {
            a % b
        }
    };
    t.stage([(by_zero, Flag::DivideByZero)], || {
        let label = match (div, by_zero) {
            (_, true) => "division by zero: all ones",
            (true, false) => "quotient, rounded toward zero",
            (false, false) => "remainder, with the sign of a",
        };
        let out = if by_zero {
            rv("tmp", n, s, d)
        } else {
            Val::new("tmp", n + 1, true, exact())
        };
        Stage::new(StageKind::Divide, label, out)
            .op(if div { "a / b" } else { "a % b" })
            .input(Val::new("a", n, s, a))
            .input(Val::new("b", n, s, b))
    });
    if overflow {
        wrap_to(t, -a, n + 1, n, s, "tmp");
    }
    result(t, n, s, d);
    d
}

/// `div` (`div` true) or `rem` of the low `n` bits of `a` by those of `b`, signed or not, with
/// the value the H100 writes. Quotient rounded toward zero; the remainder takes the
/// sign of `a`. Only the most negative value divided by -1 overflows: the quotient wraps back
/// to that value, the remainder is 0. Division by zero writes all ones, for the quotient and
/// the remainder alike.
#[inline(always)]
fn div_rem(a: u64, b: u64, n: u32, s: bool, div: bool) -> u64 {
    let m = mask64(n);
    let by_zero = b & m == 0;
    if by_zero {
        m
    } else if s {
        let (a, b) = (sext(a, n), sext(b, n));
        let x = if div {
            a.wrapping_div(b)
        } else {
            a.wrapping_rem(b)
        };
        (x as u64) & m
    } else {
        let (a, b) = (a & m, b & m);
        if div {
            a / b
        } else {
            a % b
        }
    }
}
