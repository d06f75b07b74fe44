//! Plans beside the evaluator and a hand-written function per form, on the same 1,024 random
//! inputs and the same loop (each writes `d` of every case into one output slice):
//!
//! - `hand`: the form's hand-written function (`benches/hand`), called per element;
//! - `plan-eval`: `Plan::eval` per element;
//! - `plan-eval-many`: one `Plan::eval_many` over the slice;
//! - `evaluate`: `ptxlab_core::evaluate` per element;
//! - `hand-call`: the hand-written function through a pointer the compiler cannot see
//!   through, one call per element as `Plan::eval` makes (`hand` is inlined into the loop, and
//!   the compiler may vectorise it across elements).
//!
//! Run: `cargo bench -p ptxlab-core --bench plan` (add a filter such as `vadd4` for one form).
//! Times are kept short; for figures on a busy machine see `examples/plan_speed.rs`, which
//! counts on-CPU time.

mod hand;

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ptxlab_core::gen::Rng;
use ptxlab_core::{check, evaluate, Inputs, Plan};

const N: usize = 1024;

fn inputs() -> Vec<Inputs> {
    let mut r = Rng::new(7);
    (0..N)
        .map(|_| {
            Inputs::new(
                r.next_u64() & 0xffff_ffff,
                r.next_u64() & 0xffff_ffff,
                r.next_u64() & 0xffff_ffff,
                0,
            )
        })
        .collect()
}

/// One form's five contenders. `hand` is a function item, so the compiler inlines it into the
/// loop as it would in a program that calls it.
fn bench_form(
    c: &mut Criterion,
    name: &str,
    ptx: &str,
    hand: impl Fn(u32, u32, u32) -> u32,
    hand_ptr: fn(u32, u32, u32) -> u32,
) {
    let ins = inputs();
    let mut out = vec![0u64; N];
    let insn = check(ptx).expect("benchmark form is valid");
    let plan = Plan::new(&insn);
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("hand", |b| {
        b.iter(|| {
            for (o, i) in out.iter_mut().zip(black_box(&ins)) {
                *o = u64::from(hand(i.a as u32, i.b as u32, i.c as u32));
            }
        })
    });
    g.bench_function("plan-eval", |b| {
        b.iter(|| {
            let p = black_box(&plan);
            for (o, i) in out.iter_mut().zip(black_box(&ins)) {
                *o = p.eval(i);
            }
        })
    });
    g.bench_function("plan-eval-many", |b| {
        b.iter(|| black_box(&plan).eval_many(black_box(&ins), &mut out))
    });
    g.bench_function("evaluate", |b| {
        b.iter(|| {
            let insn = black_box(&insn);
            for (o, i) in out.iter_mut().zip(black_box(&ins)) {
                *o = evaluate(insn, i);
            }
        })
    });
    g.bench_function("hand-call", |b| {
        b.iter(|| {
            let f = black_box(hand_ptr);
            for (o, i) in out.iter_mut().zip(black_box(&ins)) {
                *o = u64::from(f(i.a as u32, i.b as u32, i.c as u32));
            }
        })
    });
    g.finish();
}

fn bench_plans(c: &mut Criterion) {
    // Each form with its own function item (the table in `hand` holds pointers, for the test).
    macro_rules! form {
        ($i:expr, $f:path) => {
            bench_form(
                c,
                hand::FORMS[$i].name,
                hand::FORMS[$i].ptx,
                $f,
                hand::FORMS[$i].hand,
            )
        };
    }
    form!(0, hand::vadd4_u32_sat);
    form!(1, hand::vabsdiff4_u32_add);
    form!(2, hand::vmin2_s32);
    form!(3, hand::vadd_s32_sat_add);
    form!(4, hand::vmad_s32_sat_shr15_h1_b3);
    form!(5, hand::dp4a_s32_u32);
    form!(6, hand::mad_hi_sat_s32);
    form!(7, hand::vsub4_sel_mask);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(800))
        .sample_size(20);
    targets = bench_plans
}
criterion_main!(benches);
