//! `add` and `sub`, and `add`/`sub`/`min`/`max` on two half-words (`.u16x2`, `.s16x2`).

use super::{ext, range, result, rv, saturate, wrap_to};
use crate::trace::{Detail, Flag, Flow, Stage, StageKind, Tracer, Val};

/// `add` (`sub` false) or `sub` of `n`-bit numbers, signed when `s`, saturated when `sat`.
pub(super) fn eval_add_sub<T: Tracer>(
    n: u32,
    s: bool,
    sub: bool,
    sat: bool,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    let a = ext(v[0], n, s);
    let b = ext(v[1], n, s);
    let exact = if sub { a - b } else { a + b };
    t.stage([], || {
        Stage::new(
            StageKind::Operate,
            if sub { "exact difference" } else { "exact sum" },
            Val::new("tmp", n + 1, true, exact),
        )
        .flow(Flow::Carry)
        .op(if sub { "a - b" } else { "a + b" })
        .input(Val::new("a", n, s, a))
        .input(Val::new("b", n, s, b))
    });
    let d = if sat {
        saturate(t, exact, n + 1, n, s, "tmp")
    } else {
        wrap_to(t, exact, n + 1, n, s, "tmp")
    };
    result(t, n, s, d);
    d
}

// ---------------------------------------------------------------------------------------------
// add, sub, min, max on two half-words

/// The operation of `add`, `sub`, `min` or `max` on two half-words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum X2Op {
    Add,
    Sub,
    Min,
    Max,
}

impl X2Op {
    /// The operation on one lane's values.
    #[inline(always)]
    pub(crate) fn apply<N: Copy + Ord + std::ops::Add<Output = N> + std::ops::Sub<Output = N>>(
        self,
        a: N,
        b: N,
    ) -> N {
        match self {
            X2Op::Add => a + b,
            X2Op::Sub => a - b,
            X2Op::Min => a.min(b),
            X2Op::Max => a.max(b),
        }
    }
}

/// `op` on the two half-words, signed when `s` (`.s16x2`), `.relu` when `relu`.
pub(super) fn eval_x2<T: Tracer>(op: X2Op, s: bool, relu: bool, v: &[u64; 4], t: &mut T) -> u64 {
    let mut d = 0u64;
    for lane in 0..2u32 {
        let sh = 16 * lane;
        let a = ext(v[0] >> sh, 16, s);
        let b = ext(v[1] >> sh, 16, s);
        let exact = op.apply(a, b);
        let formula = match op {
            X2Op::Add => "a.h + b.h",
            X2Op::Sub => "a.h - b.h",
            X2Op::Min => "min(a.h, b.h)",
            X2Op::Max => "max(a.h, b.h)",
        };
        let (lo, hi) = range(16, s);
        let wrapped = exact < lo || exact > hi;
        let lane_val = (exact as u64) & 0xffff;
        t.stage([(wrapped, Flag::Wrapped)], || {
            let an = format!("a.h{lane}");
            let bn = format!("b.h{lane}");
            Stage::new(
                StageKind::Operate,
                format!("half-word {lane}"),
                rv(&format!("d.h{lane}"), 16, s, lane_val),
            )
            .flow(if matches!(op, X2Op::Add | X2Op::Sub) {
                Flow::Carry
            } else {
                Flow::All
            })
            .op(formula.replace("a.h", &an).replace("b.h", &bn))
            .input(Val::new(an, 16, s, a))
            .input(Val::new(bn, 16, s, b))
            .lane(lane as u8)
        });
        // A negative lane (of a signed type) becomes 0, even where its low bits were already 0.
        let clamped = relu && s && exact < 0;
        let out = if clamped { 0 } else { lane_val };
        if relu {
            t.stage([(clamped, Flag::ClampedLow)], || {
                Stage::new(
                    StageKind::Clamp,
                    format!("half-word {lane}: negative becomes 0 (.relu)"),
                    rv(&format!("d.h{lane}"), 16, s, out),
                )
                .op("max(x, 0)")
                .input(Val::new(format!("d.h{lane}"), 16, s, exact))
                .lane(lane as u8)
                .detail(Detail::Range {
                    min: 0,
                    max: range(16, s).1,
                })
            });
        }
        d |= out << sh;
    }
    t.stage([], || {
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
