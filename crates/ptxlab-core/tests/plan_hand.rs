//! The hand-written functions the plan benchmark compares against give what the evaluator
//! gives, on edge values and random ones: the comparison is between equals.

#[path = "../benches/hand/mod.rs"]
mod hand;

use ptxlab_core::gen::Rng;
use ptxlab_core::{check, evaluate, Inputs, Plan};

#[test]
fn hand_written_functions_equal_the_evaluator() {
    let mut r = Rng::new(0x4a4d);
    for f in hand::FORMS {
        let insn = check(f.ptx).unwrap_or_else(|e| panic!("{}: {}", f.ptx, e.message));
        let plan = Plan::new(&insn);
        for _ in 0..200_000 {
            let (a, b, c) = (r.value() as u32, r.value() as u32, r.value() as u32);
            let i = Inputs::new(a.into(), b.into(), c.into(), 0);
            let want = evaluate(&insn, &i);
            let got = u64::from((f.hand)(a, b, c));
            assert_eq!(got, want, "{} a={a:#x} b={b:#x} c={c:#x}", f.ptx);
            assert_eq!(plan.eval(&i), want, "{}", f.ptx);
        }
    }
}
