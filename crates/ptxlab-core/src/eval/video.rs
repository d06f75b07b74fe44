//! Scalar video instructions and `vmad`.

use crate::ast::Instruction;
use crate::trace::Tracer;

/// `vadd vsub vabsdiff vmin vmax vshl vshr vset`.
pub fn eval_scalar<T: Tracer>(_insn: &Instruction, _v: &[u64; 4], _t: &mut T) -> u64 {
    0
}

/// `vmad`.
pub fn eval_vmad<T: Tracer>(_insn: &Instruction, _v: &[u64; 4], _t: &mut T) -> u64 {
    0
}
