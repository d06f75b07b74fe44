//! Plans beside the evaluator and a hand-written function per form, in evaluations per second
//! of on-CPU time (Linux `/proc/self/schedstat`), so the figures hold on a busy machine:
//! `cargo run --release -p ptxlab-core --example plan_speed`. Each contender writes `d` of the
//! same 1,024 random cases into one output slice. The four contenders take turns: each round
//! runs every one of them for a short slice of CPU time, and the table gives the median over
//! the rounds of each rate and of each round's ratio to the hand-written function (so a change
//! in load hits both sides of a ratio alike). The criterion benchmark
//! `cargo bench -p ptxlab-core --bench plan` measures the same in wall-clock time.
//!
//! Arguments: `[ROUNDS] [FILTER] [CONTENDER]`: rounds per form (default 7); only the forms whose
//! text contains FILTER; only one contender (`hand`, `eval`, `many`, `evaluate`, `hand-call`), for profiling
//! (with `PLAN_SPEED_CALLS=n` in the environment it makes exactly n calls of 1,024 cases and
//! prints no rate, for an instruction count under `valgrind --tool=callgrind`).

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

/// Cases per CPU second of `f` (one call does `per_call` cases) over about 30 ms of CPU time.
fn rate(per_call: u64, f: &mut dyn FnMut()) -> f64 {
    f();
    let start = cpu_ns();
    let mut calls = 0u64;
    while cpu_ns() - start < 30_000_000 {
        for _ in 0..32 {
            f();
        }
        calls += 32;
    }
    let secs = (cpu_ns() - start) as f64 / 1e9;
    (calls * per_call) as f64 / secs
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

const NAMES: [&str; 5] = ["hand", "eval", "many", "evaluate", "hand-call"];

fn form(
    ptx: &str,
    hand: impl Fn(u32, u32, u32) -> u32,
    hand_ptr: fn(u32, u32, u32) -> u32,
    rounds: usize,
    only: Option<&str>,
) {
    let mut r = Rng::new(7);
    let ins: Vec<Inputs> = (0..1024)
        .map(|_| {
            let mut w = || r.next_u64() & 0xffff_ffff;
            Inputs::new(w(), w(), w(), 0)
        })
        .collect();
    // Each contender writes its own output slice.
    let mut outs = vec![vec![0u64; ins.len()]; 5];
    let [o0, o1, o2, o3, o4] = &mut outs[..] else {
        unreachable!()
    };
    let insn = check(ptx).expect("form is valid");
    let plan = Plan::new(&insn);
    let n = ins.len() as u64;
    let mut h = || {
        let out = &mut *o0;
        for (o, i) in out.iter_mut().zip(black_box(&ins)) {
            *o = u64::from(hand(i.a as u32, i.b as u32, i.c as u32));
        }
        black_box(&out);
    };
    let mut pe = || {
        let out = &mut *o1;
        let p = black_box(&plan);
        for (o, i) in out.iter_mut().zip(black_box(&ins)) {
            *o = p.eval(i);
        }
        black_box(&out);
    };
    let mut pm = || {
        let out = &mut *o2;
        black_box(&plan).eval_many(black_box(&ins), out);
        black_box(&out);
    };
    let mut ev = || {
        let out = &mut *o3;
        let insn = black_box(&insn);
        for (o, i) in out.iter_mut().zip(black_box(&ins)) {
            *o = evaluate(insn, i);
        }
        black_box(&out);
    };
    // The same function through a pointer the compiler cannot see through: one call per case,
    // as `Plan::eval` makes (the `hand` loop above inlines the function, and may vectorise it).
    let mut hc = || {
        let out = &mut *o4;
        let f = black_box(hand_ptr);
        for (o, i) in out.iter_mut().zip(black_box(&ins)) {
            *o = u64::from(f(i.a as u32, i.b as u32, i.c as u32));
        }
        black_box(&out);
    };
    let mut fs: [&mut dyn FnMut(); 5] = [&mut h, &mut pe, &mut pm, &mut ev, &mut hc];
    if let Some(c) = only {
        let k = NAMES.iter().position(|&x| x == c).expect("contender name");
        let f = &mut *fs[k];
        // A fixed number of calls instead (for an instruction count under a tool).
        if let Some(calls) = std::env::var("PLAN_SPEED_CALLS")
            .ok()
            .and_then(|s| s.parse().ok())
        {
            for _ in 0..calls {
                f();
            }
            return;
        }
        let m = (0..rounds).map(|_| rate(n, f)).collect();
        println!("| `{ptx}` {c} | {:.0} M/s |", median(m) / 1e6);
        return;
    }
    let mut rates: [Vec<f64>; 5] = Default::default();
    for _ in 0..rounds {
        for (k, f) in fs.iter_mut().enumerate() {
            rates[k].push(rate(n, &mut **f));
        }
    }
    let ratio =
        |k: usize, to: usize| median((0..rounds).map(|r| rates[k][r] / rates[to][r]).collect());
    let m = |k: usize| median(rates[k].clone()) / 1e6;
    println!(
        "| `{ptx}` | {:.0} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} | {:.2} | {:.0} | {:.2} |",
        m(0),
        m(1),
        m(2),
        m(3),
        ratio(1, 0),
        ratio(2, 0),
        ratio(3, 0),
        m(4),
        ratio(1, 4)
    );
}

fn main() {
    if try_cpu_ns().is_none() {
        eprintln!("/proc/self/schedstat is not readable here; use `cargo bench -p ptxlab-core --bench plan`");
        std::process::exit(2);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = args.first().and_then(|s| s.parse().ok()).unwrap_or(7);
    let filter = args.get(1).map(String::as_str).unwrap_or("");
    let only = args.get(2).map(String::as_str);
    println!("M evaluations per CPU second, one core, median of {rounds} interleaved rounds; ratios to the hand-written function (median of the rounds' ratios).\n");
    println!("| form | hand | Plan::eval | Plan::eval_many | evaluate | eval/hand | eval_many/hand | evaluate/hand | hand-call | eval/hand-call |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    macro_rules! f {
        ($i:expr, $f:path) => {
            if hand::FORMS[$i].ptx.contains(filter) {
                form(hand::FORMS[$i].ptx, $f, hand::FORMS[$i].hand, rounds, only)
            }
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
