//! Time of one 256 × 256 sweep (65,536 evaluations, each with its flags and the text reading)
//! for a scalar, a SIMD and a vmad form, and of program instructions (their plan runs each
//! cell's own evaluation without stages, with its flags) over `a` by `b`. Run:
//! `cargo bench -p ptxlab-core --bench sweep`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ptxlab_core::insn::check;
use ptxlab_core::sweep::{default_axes, sweep, SweepAxis};
use ptxlab_core::Inputs;

const FORMS: &[(&str, &str)] = &[
    ("scalar", "vsub.s32.s32.s32.sat d.b1, a.b0, b.b2, c;"),
    ("scalar-secop", "vadd.u32.u32.s32.min d, a.h0, b.h1, c;"),
    (
        "simd4",
        "vabsdiff4.u32.s32.u32.sat d.b210, a.b7351, b.b0246, c;",
    ),
    ("simd2-add", "vadd2.s32.s32.s32.add d, a, b, c;"),
    ("vmad", "vmad.s32.s32.u32.sat.shr15 d, -a.h1, b.b3, c;"),
    ("integer-mad", "mad.lo.s16 d, a, b, c;"),
];

fn bench_sweep(c: &mut Criterion) {
    let mut g = c.benchmark_group("sweep-256x256");
    g.sample_size(20);
    let base = Inputs::new(0x1234_5678, 0x9abc_def0, 0x0f1e_2d3c, 0);
    for (name, text) in FORMS {
        let insn = check(text).expect("benchmark form is valid");
        let (x, y) = default_axes(&insn);
        assert_eq!(
            x.len() * y.len(),
            65536,
            "{text}: {} by {}",
            x.label,
            y.label
        );
        g.bench_function(*name, |b| {
            b.iter(|| sweep(black_box(&insn), black_box(&base), &x, &y).flags_seen)
        });
    }
    // Program instructions: a and b over 256 evenly spaced whole words each.
    let x = SweepAxis::field("a", 0, 0, 32, false).with_range(0, 1 << 24, 256);
    let y = SweepAxis::field("b", 1, 0, 32, false).with_range(0, 1 << 24, 256);
    for (name, text) in [
        ("shf", "shf.l.wrap.b32 d, a, b, c;"),
        ("prmt", "prmt.b32 d, a, b, c;"),
        ("lop3", "lop3.b32 d, a, b, c, 0xb2;"),
        ("setp", "setp.lt.s32 p|q, a, b;"),
    ] {
        let insn = check(text).expect("benchmark form is valid");
        g.bench_function(name, |b| {
            b.iter(|| sweep(black_box(&insn), black_box(&base), &x, &y).flags_seen)
        });
    }
    g.finish();
}

criterion_group!(benches, bench_sweep);
criterion_main!(benches);
