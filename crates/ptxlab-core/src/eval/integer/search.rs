//! Bit searches: `popc`, `clz`, `bfind`, `fns` and `brev`.

use super::{mask64, result, rv};
use crate::bits::sext;
use crate::differences::DiffId;
use crate::eval::semantics::Semantics;
use crate::trace::{Flag, Flow, Stage, StageKind, Tracer};

pub(super) fn eval_popc<T: Tracer>(n: u32, v: &[u64; 4], t: &mut T) -> u64 {
    let a = v[0] & mask64(n);
    let d = a.count_ones() as u64;
    t.stage([], || {
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

pub(super) fn eval_clz<T: Tracer>(n: u32, v: &[u64; 4], t: &mut T) -> u64 {
    let a = v[0] & mask64(n);
    // Leading zeros within the n-bit operand; all n bits when a is zero.
    let d = (a.leading_zeros() - (64 - n)) as u64;
    t.stage([(a == 0, Flag::NotFound)], || {
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
    });
    result(t, 32, false, d);
    d
}

/// `bfind` of the low `n` bits of `a`, read signed when `s`; `.shiftamt` when `shiftamt`.
pub(super) fn eval_bfind<T: Tracer>(
    n: u32,
    s: bool,
    shiftamt: bool,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    let m = mask64(n);
    let a = v[0] & m;
    let negative = s && (a >> (n - 1)) & 1 == 1;
    let x = if negative { !a & m } else { a };
    if negative {
        t.stage([(true, Flag::Negated)], || {
            Stage::new(
                StageKind::Adjust,
                "negative: bits inverted, so the highest 0 becomes the highest 1",
                rv("x", n, false, x),
            )
            .flow(Flow::Bitwise)
            .op("~a")
            .input(rv("a", n, true, a))
        });
    }
    let found = x != 0;
    let pos = if found { 63 - x.leading_zeros() } else { 0 };
    let pos_val = if found { pos as u64 } else { 0xffff_ffff };
    t.stage([(!found, Flag::NotFound)], || {
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
    });
    let d = if shiftamt && found {
        let sa = (n - 1 - pos) as u64;
        t.stage([], || {
            Stage::new(
                StageKind::Adjust,
                format!("shift that moves bit {pos} to bit {} (.shiftamt)", n - 1),
                rv("amt", 32, false, sa),
            )
            .flow(Flow::Carry)
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
pub(super) fn eval_fns<S: Semantics, T: Tracer>(v: &[u64; 4], t: &mut T) -> u64 {
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
    t.stage([(!in_range, Flag::AmountClamped)], || {
        let label = if !in_range {
            "base is 32 or more: no bits to search".to_string()
        } else if offset == 0 {
            format!("only bit {base} of the mask a")
        } else if down {
            format!("bits of the mask a at or below bit {base}")
        } else {
            format!("bits of the mask a at or above bit {base}")
        };
        Stage::new(StageKind::Field, label, rv("bits", 32, false, window))
            // The inputs are named as the sources: the mask a, the base b.
            .op(if offset == 0 {
                "a & (1 << b)"
            } else if down {
                "a & ones(b + 1)"
            } else {
                "a & (~0 << b)"
            })
            .input(rv("a", 32, false, mask))
            .input(rv("b", 32, false, base))
            // The offset's sign chooses the side searched.
            .also(["c"])
    });
    let d = fns_search(window, count, k, down);
    t.stage([(d == NOT_FOUND, Flag::NotFound)], || {
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
            // The offset is the source c.
            .op(if down {
                "n-th highest one bit of bits, n = -c"
            } else {
                "n-th lowest one bit of bits, n = max(c, 1)"
            })
            .input(rv("bits", 32, false, window))
            .input(rv("c", 32, true, offset as u32 as u64))
            .differs_if(offset == i32::MIN, DiffId::FnsMinOffset)
    });
    result(t, 32, false, d);
    d
}

pub(super) fn eval_brev<T: Tracer>(n: u32, v: &[u64; 4], t: &mut T) -> u64 {
    let a = v[0] & mask64(n);
    let d = a.reverse_bits() >> (64 - n);
    t.stage([], || {
        Stage::new(
            StageKind::Search,
            format!("bit order reversed: bit i moves to bit {}-i", n - 1),
            rv("tmp", n, false, d),
        )
        .flow(Flow::Reverse)
        .op("reverse(a)")
        .input(rv("a", n, false, a))
    });
    result(t, n, false, d);
    d
}

/// `fns`'s search over the 32-bit window (as a u64): the position of the `k`th set bit counted
/// from the base, downwards or upwards, or `0xffffffff` when the window holds fewer than `k`.
/// A negative `k` means `|offset|` overflowed: the search passes every bit and stops at the far
/// end.
fn fns_search(window: u64, count: i64, k: i64, down: bool) -> u64 {
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
