//! Fixed-work loop for instruction counting under `valgrind --tool=callgrind`:
//! `cargo build --release -p ptxlab-core --example callcount`, then
//! `valgrind --tool=callgrind target/release/examples/callcount N` runs form N of the list
//! (the same forms as the throughput example) over 10,000 inputs; with no argument it runs
//! no evaluation at all, which gives the fixed cost (parsing, setup) to subtract.

use std::hint::black_box;

use ptxlab_core::gen::Rng;
use ptxlab_core::{check, evaluate, Inputs};

const FORMS: &[&str] = &[
    "vadd.s32.u32.s32.sat d.b1, a.b0, b.h1, c;",
    "vabsdiff.u32.s32.s32.sat.max d, a.h1, b.b2, c;",
    "vshl.s32.s32.u32.sat.clamp d, a.b0, b, c;",
    "vmad.s32.s32.u32.sat.shr15 d, -a.h1, b.b3, c;",
    "vavrg2.s32.s32.u32.sat d.h10, a.h21, b.h30, c;",
    "vabsdiff4.u32.s32.u32.add d.b210, a.b7351, b.b0246, c;",
    "vset4.s32.u32.lt d.b3210, a, b, c;",
    "mad.hi.sat.s32 d, a, b, c;",
    "div.s64 d, a, b;",
    "bfe.s64 d, a, b, c;",
    "dp4a.s32.u32 d, a, b, c;",
];

/// Evaluations per run of one form.
const COUNT: usize = 10_000;

fn main() {
    let which: Option<usize> = std::env::args().nth(1).and_then(|s| s.parse().ok());
    let mut r = Rng::new(7);
    let ins: Vec<Inputs> = (0..COUNT)
        .map(|_| Inputs::new(r.value(), r.value(), r.value(), r.value()))
        .collect();
    let insn = check(FORMS[which.unwrap_or(0)]).expect("form is valid");
    let mut acc = 0u64;
    if which.is_some() {
        for i in &ins {
            acc ^= evaluate(black_box(&insn), black_box(i));
        }
    }
    println!("{acc:x}");
}
