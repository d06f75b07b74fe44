//! # ptxlab-core
//!
//! Bit-exact semantics of the PTX video instructions (ISA section 9.7.18) and integer arithmetic
//! instructions (9.7.1), as an NVIDIA H100 computes them, with a trace of every stage.
//!
//! ```
//! use ptxlab_core::{parse, validate, evaluate, evaluate_traced, Inputs};
//!
//! let insn = parse("vadd.s32.u32.s32.sat d, a.b0, b.h0;").unwrap();
//! validate(&insn).unwrap();
//! let inputs = Inputs { a: 0x1234, b: (-5i32) as u32 as u64, ..Inputs::default() };
//! let d = evaluate(&insn, &inputs);
//! let trace = evaluate_traced(&insn, &inputs);
//! assert_eq!(trace.result.raw() as u64, d);
//! for stage in &trace.stages {
//!     println!("{:?}: {} = {}", stage.kind, stage.label, stage.output.hex());
//! }
//! ```
//!
//! Beyond one case: [`readings`] evaluates the ISA text's literal reading beside the hardware's
//! and says where they part; [`sweep`] evaluates a grid of two source fields for a heat map;
//! [`batch`] reads many operand sets pasted as text; [`sass`] shows the machine code ptxas
//! emits on sm_90.

pub mod ast;
pub mod batch;
pub mod cuda;
pub mod error;
pub mod eval;
#[doc(hidden)]
pub mod gen;
pub mod parse;
pub mod program;
pub mod readings;
pub mod sass;
pub mod sweep;
pub mod table;
pub mod trace;
pub mod validate;

pub use ast::{Instruction, Type};
pub use error::Diagnostic;
pub use eval::{evaluate, evaluate_traced, widths, Inputs, Widths};
pub use parse::parse;
pub use readings::{
    compare_readings, evaluate_reading, evaluate_traced_reading, readings_may_differ, DiffId,
    DiffKind, Difference, Divergence, Reading, DIFFERENCES,
};
pub use table::{Family, Opcode, OpcodeInfo, OPCODES};
pub use trace::{Stage, StageKind, Trace, Val};
pub use validate::validate;

/// Parse and validate in one step.
pub fn check(text: &str) -> Result<Instruction, Diagnostic> {
    let insn = parse(text)?;
    validate(&insn)?;
    Ok(insn)
}
