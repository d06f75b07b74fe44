//! Dot products: `dp4a` and `dp2a`.

use super::{ext, result, wrap_to};
use crate::trace::{Detail, Flow, Stage, StageKind, Tracer, Val};

/// `dp4a` (`FOUR`) or `dp2a` (`.hi` when `hi`), `a` signed when `sa`, `b` when `sb`. The lane
/// count is a constant, so each loop is unrolled with constant shifts.
pub(super) fn eval_dot<const FOUR: bool, T: Tracer>(
    sa: bool,
    sb: bool,
    hi: bool,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    let four = FOUR;
    let (lanes, abits, bsel) = if four {
        (4u32, 8u32, 0u32)
    } else {
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
        t.stage([], || {
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
            .flow(Flow::Carry)
            .op(format!("{an} * {bn}"))
            .input(Val::new(an, abits, sa, x))
            .input(Val::new(bn, 8, sb, y))
            .lane(i as u8)
            .extended_if(sa || sb, true)
            .extended_if(!sa || !sb, false)
            .detail(Detail::Product {
                full_bits: pbits,
                kept_lo: 0,
                kept_bits: pbits,
            })
        });
    }
    t.stage([], || {
        let terms = (0..lanes).map(|i| format!(" + p{i}")).collect::<String>();
        Stage::new(
            StageKind::Accumulate,
            "products summed into c",
            Val::new("tmp", 35, true, sum),
        )
        .flow(Flow::Carry)
        .op(format!("c{terms}"))
        .input(Val::new("c", 32, cs, c))
        // The lane products are inputs too: each bit of the sum depends on the bits at and
        // below it of every term.
        .inputs((0..lanes).map(|i| {
            let x = ext(v[0] >> (abits * i), abits, sa);
            let y = ext(v[1] >> (8 * (bsel + i)), 8, sb);
            Val::new(format!("p{i}"), abits + 8, sa || sb, x * y)
        }))
    });
    let d = wrap_to(t, sum, 35, 32, cs, "tmp");
    result(t, 32, cs, d);
    d
}
