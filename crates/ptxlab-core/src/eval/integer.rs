//! Integer arithmetic instructions (PTX ISA 9.7.1).

use super::Widths;
use crate::ast::Instruction;
use crate::trace::Tracer;

/// Operand widths of an integer instruction.
pub fn widths(insn: &Instruction) -> Widths {
    let bits = insn.form.ty(0).bits();
    Widths {
        dst: bits,
        src: [bits; 4],
        sources: insn.srcs.len().min(4),
    }
}

pub fn eval<T: Tracer>(_insn: &Instruction, _v: &[u64; 4], _t: &mut T) -> u64 {
    0
}
