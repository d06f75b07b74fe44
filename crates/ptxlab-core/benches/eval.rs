//! Evaluations per second for a parsed instruction on random values, per family, with the trace
//! off and on; and parses per second. Run: `cargo bench -p ptxlab-core`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ptxlab_core::gen::Rng;
use ptxlab_core::{check, evaluate, evaluate_traced, Inputs};

const FORMS: &[(&str, &str)] = &[
    ("scalar-video", "vadd.s32.u32.s32.sat d.b1, a.b0, b.h1, c;"),
    (
        "scalar-video-secop",
        "vabsdiff.u32.s32.s32.sat.max d, a.h1, b.b2, c;",
    ),
    ("scalar-shift", "vshl.s32.s32.u32.sat.clamp d, a.b0, b, c;"),
    ("vmad", "vmad.s32.s32.u32.sat.shr15 d, -a.h1, b.b3, c;"),
    ("simd2", "vavrg2.s32.s32.u32.sat d.h10, a.h21, b.h30, c;"),
    (
        "simd4",
        "vabsdiff4.u32.s32.u32.add d.b210, a.b7351, b.b0246, c;",
    ),
    ("vset4", "vset4.s32.u32.lt d.b3210, a, b, c;"),
    ("integer-mad", "mad.hi.sat.s32 d, a, b, c;"),
    ("integer-div", "div.s64 d, a, b;"),
    ("integer-bfe", "bfe.s64 d, a, b, c;"),
    ("integer-dp4a", "dp4a.s32.u32 d, a, b, c;"),
];

const N: usize = 1024;

fn inputs() -> Vec<Inputs> {
    let mut r = Rng::new(7);
    (0..N)
        .map(|_| Inputs::new(r.value(), r.value(), r.value(), r.value()))
        .collect()
}

fn bench_eval(c: &mut Criterion) {
    let ins = inputs();
    let forms: Vec<_> = FORMS
        .iter()
        .map(|(name, text)| (name, check(text).expect("benchmark form is valid")))
        .collect();
    let mut g = c.benchmark_group("trace-off");
    g.throughput(Throughput::Elements(N as u64));
    for (name, insn) in &forms {
        g.bench_function(**name, |bch| {
            bch.iter(|| {
                let mut acc = 0u64;
                for i in &ins {
                    acc ^= evaluate(black_box(insn), black_box(i));
                }
                acc
            })
        });
    }
    g.finish();
    const TRACED: usize = 64;
    let mut g = c.benchmark_group("trace-on");
    g.throughput(Throughput::Elements(TRACED as u64));
    for (name, insn) in &forms {
        g.bench_function(**name, |bch| {
            bch.iter(|| {
                let mut acc = 0usize;
                for i in ins.iter().take(TRACED) {
                    acc += evaluate_traced(black_box(insn), black_box(i)).stages.len();
                }
                acc
            })
        });
    }
    g.finish();
}

fn bench_parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse");
    let texts: Vec<&str> = FORMS.iter().map(|f| f.1).collect();
    g.throughput(Throughput::Elements(texts.len() as u64));
    g.bench_function("parse+validate", |b| {
        b.iter(|| {
            let mut ok = 0;
            for t in &texts {
                ok += check(black_box(t)).is_ok() as usize;
            }
            ok
        })
    });
    g.finish();
}

criterion_group!(benches, bench_eval, bench_parse);
criterion_main!(benches);
