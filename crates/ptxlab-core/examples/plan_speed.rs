//! Plans beside the evaluator and a hand-written function per form, in evaluations per second
//! of on-CPU time (Linux `/proc/self/schedstat`), so the figures hold on a busy machine:
//! `cargo run --release -p ptxlab-core --example plan_speed`. Each contender writes `d` of the
//! same 1,024 random cases into one output slice; the best of five rounds is kept. The criterion
//! benchmark `cargo bench -p ptxlab-core --bench plan` measures the same in wall-clock time.

#[path = "../benches/hand/mod.rs"]
mod hand;

use std::hint::black_box;

use ptxlab_core::gen::Rng;
use ptxlab_core::{check, evaluate, Inputs, Plan};

fn try_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
}

fn cpu_ns() -> u64 {
    try_cpu_ns().unwrap_or(0)
}

/// Cases per CPU second of `f` (one call does `per_call` cases), best of five short rounds.
fn rate(per_call: u64, mut f: impl FnMut()) -> f64 {
    let mut best = 0f64;
    for _ in 0..5 {
        f();
        let start = cpu_ns();
        let mut calls = 0u64;
        while cpu_ns() - start < 60_000_000 {
            for _ in 0..32 {
                f();
            }
            calls += 32;
        }
        let secs = (cpu_ns() - start) as f64 / 1e9;
        best = best.max((calls * per_call) as f64 / secs);
    }
    best
}

fn form(name: &str, ptx: &str, hand: impl Fn(u32, u32, u32) -> u32) {
    let mut r = Rng::new(7);
    let ins: Vec<Inputs> = (0..1024)
        .map(|_| {
            let mut w = || r.next_u64() & 0xffff_ffff;
            Inputs::new(w(), w(), w(), 0)
        })
        .collect();
    let mut out = vec![0u64; ins.len()];
    let insn = check(ptx).expect("form is valid");
    let plan = Plan::new(&insn);
    let n = ins.len() as u64;
    let h = rate(n, || {
        for (o, i) in out.iter_mut().zip(black_box(&ins)) {
            *o = u64::from(hand(i.a as u32, i.b as u32, i.c as u32));
        }
        black_box(&out);
    });
    let pe = rate(n, || {
        let p = black_box(&plan);
        for (o, i) in out.iter_mut().zip(black_box(&ins)) {
            *o = p.eval(i);
        }
        black_box(&out);
    });
    let pm = rate(n, || {
        black_box(&plan).eval_many(black_box(&ins), &mut out);
        black_box(&out);
    });
    let ev = rate(n, || {
        let insn = black_box(&insn);
        for (o, i) in out.iter_mut().zip(black_box(&ins)) {
            *o = evaluate(insn, i);
        }
        black_box(&out);
    });
    let m = |x: f64| x / 1e6;
    println!(
        "| `{ptx}` | {:.0} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} | {:.2} |",
        m(h),
        m(pe),
        m(pm),
        m(ev),
        pe / h,
        pm / h,
        ev / h
    );
    let _ = name;
}

fn main() {
    if try_cpu_ns().is_none() {
        eprintln!("/proc/self/schedstat is not readable here; use `cargo bench -p ptxlab-core --bench plan`");
        std::process::exit(2);
    }
    println!("M evaluations per CPU second, one core; ratios to the hand-written function.\n");
    println!("| form | hand | Plan::eval | Plan::eval_many | evaluate | eval/hand | eval_many/hand | evaluate/hand |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    macro_rules! f {
        ($i:expr, $f:path) => {
            form(hand::FORMS[$i].name, hand::FORMS[$i].ptx, $f)
        };
    }
    f!(0, hand::vadd4_u32_sat);
    f!(1, hand::vabsdiff4_u32_add);
    f!(2, hand::vmin2_s32);
    f!(3, hand::vadd_s32_sat_add);
    f!(4, hand::vmad_s32_sat_shr15_h1_b3);
    f!(5, hand::dp4a_s32_u32);
    f!(6, hand::mad_hi_sat_s32);
    f!(7, hand::vsub4_sel_mask);
}
