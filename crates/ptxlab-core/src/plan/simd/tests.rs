//! On x86-64 with SSSE3 and SSE4.1 [`Simd::pick`] replaces the one-case entry of every form
//! with one of [`x86`]; the entries it replaces (those of every other CPU) are checked here.

use super::*;
use crate::gen::{self, Rng};

#[test]
fn baseline_one_case_entries_equal_the_evaluator() {
    let mut r = Rng::new(0x51d);
    let mut forms = 0;
    while forms < 3_000 {
        let text = gen::plausible(&mut r);
        let Ok(insn) = crate::check(&text) else {
            continue;
        };
        let (op, n) = match insn.operation() {
            Some(crate::isa::Operation::Simd2(op)) => (op, 2),
            Some(crate::isa::Operation::Simd4(op)) => (op, 4),
            _ => continue,
        };
        forms += 1;
        let s = Simd::new(&insn, op, n);
        let fns = s.pick_portable();
        let (k, ops) = (Kernel::Simd(s), Operands::of(&insn));
        for _ in 0..16 {
            let i = Inputs::new(r.value(), r.value(), r.value(), r.value());
            // Immediates put in place, as `Plan::eval` does before it calls the entry; register
            // values go as they are.
            let i = if ops.imm { ops.inputs(&i) } else { i };
            // SAFETY: the baseline entries need no feature beyond the build's.
            let d = unsafe { (fns.one)(&k, &ops, &i) };
            assert_eq!(d, crate::evaluate(&insn, &i), "{text} on {i:?}");
        }
    }
}
