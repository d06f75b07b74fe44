//! Evaluations per second per core, measured in on-CPU time (Linux `/proc/self/schedstat`), so
//! the figure holds on a busy machine where wall-clock benchmarks are disturbed by other work:
//! `cargo run --release -p ptxlab-core --example throughput`. Criterion's `cargo bench` gives
//! the same in wall-clock time on a quiet machine.

use std::hint::black_box;

use ptxlab_core::gen::Rng;
use ptxlab_core::{check, evaluate, evaluate_traced, parse, Inputs};

const FORMS: &[(&str, &str)] = &[
    ("scalar video", "vadd.s32.u32.s32.sat d.b1, a.b0, b.h1, c;"),
    (
        "scalar video .max",
        "vabsdiff.u32.s32.s32.sat.max d, a.h1, b.b2, c;",
    ),
    ("scalar shift", "vshl.s32.s32.u32.sat.clamp d, a.b0, b, c;"),
    ("vmad", "vmad.s32.s32.u32.sat.shr15 d, -a.h1, b.b3, c;"),
    ("simd2", "vavrg2.s32.s32.u32.sat d.h10, a.h21, b.h30, c;"),
    (
        "simd4 .add",
        "vabsdiff4.u32.s32.u32.add d.b210, a.b7351, b.b0246, c;",
    ),
    ("vset4", "vset4.s32.u32.lt d.b3210, a, b, c;"),
    ("mad.hi.sat", "mad.hi.sat.s32 d, a, b, c;"),
    ("div.s64", "div.s64 d, a, b;"),
    ("bfe.s64", "bfe.s64 d, a, b, c;"),
    ("dp4a", "dp4a.s32.u32 d, a, b, c;"),
];

/// Nanoseconds this process has spent on a CPU, if the system tells.
fn try_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
}

fn cpu_ns() -> u64 {
    try_cpu_ns().unwrap_or(0)
}

/// Run `f` (which does `per_call` units of work) until a quarter of a CPU second has passed;
/// units per CPU second.
fn rate(per_call: u64, mut f: impl FnMut() -> u64) -> f64 {
    let mut sink = 0u64;
    for _ in 0..3 {
        sink ^= f();
    }
    let start = cpu_ns();
    let mut calls = 0u64;
    while cpu_ns() - start < 250_000_000 {
        for _ in 0..16 {
            sink ^= f();
        }
        calls += 16;
    }
    let secs = (cpu_ns() - start) as f64 / 1e9;
    black_box(sink);
    (calls * per_call) as f64 / secs
}

fn main() {
    if try_cpu_ns().is_none() {
        eprintln!("/proc/self/schedstat is not readable here; use `cargo bench -p ptxlab-core`");
        std::process::exit(2);
    }
    let mut r = Rng::new(7);
    let ins: Vec<Inputs> = (0..1024)
        .map(|_| Inputs::new(r.value(), r.value(), r.value(), r.value()))
        .collect();
    println!(
        "{:<20} {:>16} {:>16}",
        "form", "trace off (M/s)", "trace on (k/s)"
    );
    for (name, text) in FORMS {
        let insn = check(text).expect("form is valid");
        let off = rate(ins.len() as u64, || {
            let mut acc = 0;
            for i in &ins {
                acc ^= evaluate(black_box(&insn), black_box(i));
            }
            acc
        });
        let on = rate(64, || {
            let mut acc = 0;
            for i in ins.iter().take(64) {
                acc += evaluate_traced(black_box(&insn), black_box(i)).stages.len() as u64;
            }
            acc
        });
        println!("{name:<20} {:>16.1} {:>16.1}", off / 1e6, on / 1e3);
    }
    let texts: Vec<&str> = FORMS.iter().map(|f| f.1).collect();
    let parses = rate(texts.len() as u64, || {
        texts.iter().filter(|t| parse(black_box(t)).is_ok()).count() as u64
    });
    let checks = rate(texts.len() as u64, || {
        texts.iter().filter(|t| check(black_box(t)).is_ok()).count() as u64
    });
    println!(
        "parse: {:.2} M/s, parse + validate: {:.2} M/s",
        parses / 1e6,
        checks / 1e6
    );
}
