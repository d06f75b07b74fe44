//! The kernel of a program instruction's plan (`mov`, `prmt`, `setp`, the carry chain...): the
//! sources read once into the plan's [`Operands`] (each register cut to the bits it reads,
//! every other source its value as read), then per case the instruction's own evaluation,
//! [`OpInsn::run`], with the plan's notes as its tracer. So a plan of a program instruction
//! gives its first destination and the flags its stages carry, as the evaluator does, with
//! no step of its own.

use super::{drive, fns, Fns, Kernel, Notes, Operands};
use crate::eval::{mask64, Inputs};
use crate::ops::OpInsn;
use crate::trace::Tracer;

/// How a plan reads the sources of `op`.
pub(super) fn operands(op: OpInsn) -> Operands {
    let (mut keep, mut fixed) = ([0u64; 4], [0u64; 4]);
    let n = op.srcs.len().min(4);
    for k in 0..n {
        let m = mask64(op.src_bits(k));
        match op.fixed_source(k) {
            Some(v) => fixed[k] = v & m,
            None => keep[k] = m,
        }
    }
    Operands {
        keep,
        fixed,
        dst: mask64(op.dst_bits(0)),
        imm: (0..n).any(|k| keep[k] == 0),
    }
}

/// The `S` of an instruction with more than four sources or destinations (no form the
/// assembler accepts has them).
const WIDE: usize = 5;

/// The entries for `op`, specialised to its number of sources (an array of that length,
/// passed whole: a slice of a longer one stays a call per case in the size-optimised wasm
/// build).
pub(super) fn pick(op: OpInsn) -> Fns {
    if op.dsts.len() > 4 {
        return fns!(batch[WIDE], one[WIDE]);
    }
    match op.srcs.len() {
        0 => fns!(batch[0], one[0]),
        1 => fns!(batch[1], one[1]),
        2 => fns!(batch[2], one[2]),
        3 => fns!(batch[3], one[3]),
        4 => fns!(batch[4], one[4]),
        _ => fns!(batch[WIDE], one[WIDE]),
    }
}

/// The first destination of one case of an instruction with `S` sources (a `_` sink reads 0);
/// [`WIDE`]: any number of sources and destinations, a source past the fourth reading its
/// fixed value, or 0.
#[inline(always)]
fn first<T: Tracer, const S: usize>(op: OpInsn, v: &[u64; 4], t: &mut T) -> u64 {
    if S == WIDE {
        let mut s: Vec<u64> = (0..op.srcs.len())
            .map(|k| match v.get(k) {
                Some(&x) => x,
                None => op.fixed_source(k).unwrap_or(0) & mask64(op.src_bits(k)),
            })
            .collect();
        let mut d = vec![None; op.dsts.len()];
        op.run(&mut s, t, &mut d);
        return d.first().copied().flatten().unwrap_or(0);
    }
    let mut s = [0u64; S];
    s.copy_from_slice(&v[..S]);
    let mut d = [None; 4];
    op.run(&mut s, t, &mut d);
    d[0].unwrap_or(0)
}

fn batch<N: Notes, const S: usize>(
    k: &Kernel,
    ops: &Operands,
    inputs: &[Inputs],
    out: &mut [u64],
    flags: &mut [u16],
) {
    if let Kernel::Program(op, insn) = k {
        let op = OpInsn { op: *op, insn };
        drive::<N, false>(ops, inputs, out, flags, |v, t| first::<N, S>(op, v, t));
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn one<const S: usize>(k: &Kernel, ops: &Operands, i: &Inputs) -> u64 {
    match k {
        Kernel::Program(op, insn) => {
            let op = OpInsn { op: *op, insn };
            super::drive_one::<false>(ops, i, |v, t| first::<_, S>(op, v, t))
        }
        _ => unreachable!("picked for a program kernel only"),
    }
}
