//! Plans in batches, per CPU second (Linux `/proc/self/schedstat`), on forms of every kind of
//! kernel: `Plan::eval_many`, `Plan::eval_many_flags` and `evaluate` per case, over the same
//! 1,024 random cases (half the amounts and positions small, half any word).
//! `cargo run --release -p ptxlab-core --example plan_batch -- [ROUNDS] [FILTER]` prints one
//! tab-separated line per form: the text, then the median rate of each in M cases per second.
//! Two builds (before and after a change) can be compared by running their binaries in turns.

use std::hint::black_box;

use ptxlab_core::gen::Rng;
use ptxlab_core::{check, evaluate, Inputs, Plan};

const FORMS: &[&str] = &[
    "add.s32 d, a, b;",
    "max.s16x2 d, a, b;",
    "mad.hi.sat.s32 d, a, b, c;",
    "dp4a.s32.u32 d, a, b, c;",
    "sad.u32 d, a, b, c;",
    "div.s32 d, a, b;",
    "rem.u64 d, a, b;",
    "abs.s32 d, a;",
    "neg.s16 d, a;",
    "popc.b64 d, a;",
    "clz.b32 d, a;",
    "bfind.s32 d, a;",
    "brev.b32 d, a;",
    "fns.b32 d, a, b, c;",
    "bfe.s32 d, a, b, c;",
    "bfe.u64 d, a, b, c;",
    "bfi.b32 d, a, b, c, e;",
    "szext.clamp.s32 d, a, b;",
    "bmsk.wrap.b32 d, a, b;",
    "vadd.s32.s32.s32.sat.add d, a, b, c;",
    "vshl.u32.u32.u32.clamp.max d, a, b, c;",
    "vmad.s32.s32.u32.sat.shr15 d, a.h1, b.b3, c;",
    "vmad.s32.s32.s32 d, -a, b, c;",
    "vadd4.u32.u32.u32.sat d, a, b, c;",
    "vabsdiff4.u32.u32.u32.add d, a, b, c;",
    "vmin2.s32.s32.s32 d, a, b, c;",
];

fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Cases per CPU second of `f` (one call does `per_call` cases) over about 20 ms of CPU time.
fn rate(per_call: u64, f: &mut dyn FnMut()) -> f64 {
    f();
    let start = cpu_ns();
    let mut calls = 0u64;
    while cpu_ns() - start < 20_000_000 {
        for _ in 0..16 {
            f();
        }
        calls += 16;
    }
    (calls * per_call) as f64 / ((cpu_ns() - start) as f64 / 1e9)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(3);
    let filter = args.get(1).map(String::as_str).unwrap_or("");
    let mut r = Rng::new(11);
    let word = |r: &mut Rng| {
        let w = r.next_u64() & 0xffff_ffff;
        if r.next_u64() & 1 == 0 {
            w & 0x3f
        } else {
            w
        }
    };
    let ins: Vec<Inputs> = (0..1024)
        .map(|_| {
            let a = r.next_u64();
            Inputs::new(a, word(&mut r), word(&mut r), word(&mut r))
        })
        .collect();
    let n = ins.len() as u64;
    for ptx in FORMS.iter().filter(|p| p.contains(filter)) {
        let insn = check(ptx).unwrap_or_else(|e| panic!("{ptx}: {}", e.message));
        let plan = Plan::new(&insn);
        let mut out = vec![0u64; ins.len()];
        let mut flags = vec![0u16; ins.len()];
        let mut rates: [Vec<f64>; 3] = Default::default();
        for _ in 0..rounds {
            rates[0].push(rate(n, &mut || {
                black_box(&plan).eval_many(black_box(&ins), &mut out);
                black_box(&out);
            }));
            rates[1].push(rate(n, &mut || {
                black_box(&plan).eval_many_flags(black_box(&ins), &mut out, &mut flags);
                black_box(&flags);
            }));
            rates[2].push(rate(n, &mut || {
                let insn = black_box(&insn);
                for (o, i) in out.iter_mut().zip(black_box(&ins)) {
                    *o = evaluate(insn, i);
                }
                black_box(&out);
            }));
        }
        let [a, b, c] = rates.map(|v| median(v) / 1e6);
        println!("{ptx}\t{a:.1}\t{b:.1}\t{c:.1}");
    }
}
