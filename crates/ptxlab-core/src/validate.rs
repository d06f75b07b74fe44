//! Decides whether ptxas (sm_90) accepts an instruction, with a specific message when not.

use crate::ast::Instruction;
use crate::error::Diagnostic;

/// Check a parsed instruction the way ptxas does for sm_90.
pub fn validate(_insn: &Instruction) -> Result<(), Diagnostic> {
    Ok(())
}
