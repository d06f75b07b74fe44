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
//!
//! # Layers
//!
//! The modules form layers; a module uses only modules of its own layer or below, never one
//! above (`tests/layers.rs` reads every `crate::` path and checks it):
//!
//! 1. [`isa`]: opcodes, families, types, modifiers, one row per opcode with its operands.
//!    Knows nothing else. Beside it, [`bits`]: fields and sign extension.
//! 2. [`differences`]: the entries of `docs/hardware-vs-spec.md` and [`Reading`].
//! 3. [`ast`], [`error`], [`value`]: the one instruction record of both tables
//!    ([`Instruction`], with the program rows' readers in [`ast::program`]), diagnostics,
//!    operand values;
//!    `scan`: the cursor over text that both instruction parsers read with.
//! 4. [`parse`](mod@parse), [`validate`](mod@validate): text to an [`Instruction`] of either
//!    table, and what ptxas accepts ([`validate::program`] reads a program row's statement).
//! 5. [`trace`]: stages and tracers. A tracer observes; it never chooses the semantics.
//! 6. [`eval`]: the evaluators, generic over the semantics ([`eval::semantics`]) and a tracer;
//!    beside it, [`ops`]: the evaluation of the logic, shift, move, compare, convert and
//!    carry-chain instructions of [`isa::OP_ROWS`], with a trace.
//! 7. [`readings`]: both readings of one case and where they part; [`plan`]: an instruction
//!    decoded once for evaluating many cases; [`insn`]: what any instruction (the 47 table
//!    opcodes or the 23 program instructions) does with its values, behind one `check` and
//!    `evaluate`.
//! 8. [`sweep`], [`batch`], [`cuda`], [`sass`], and what builds on them.
//!
//! Invariants: every fact about an opcode lives in its row of [`isa::OPCODES`] (the rest of
//! the crate, the CLI and the front end derive theirs from it); operand widths come from
//! [`isa::widths`] only; the hardware reading is the default everywhere and the text reading
//! is chosen by a type, never by a tracer.

#![warn(missing_docs)]

pub mod ast;
pub mod atlas;
pub mod batch;
pub mod bits;
pub mod constexpr;
pub mod cuda;
mod decimal;
pub mod differences;
pub mod equiv;
pub mod error;
pub mod eval;
#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod gen;
pub mod insn;
pub mod intrinsics;
pub mod isa;
pub mod lesson;
pub mod notes;
pub mod ops;
pub mod parse;
pub mod plan;
pub mod predict;
pub mod program;
pub mod provenance;
pub mod readings;
pub mod sass;
mod scan;
pub mod sweep;
pub mod trace;
pub mod validate;
pub mod value;

/// The former name of [`isa`], kept so that `ptxlab_core::table::...` paths still resolve.
pub use isa as table;

pub use ast::{Instruction, Type};
pub use error::Diagnostic;
pub use eval::{evaluate, evaluate_traced, widths, Inputs, Widths};
pub use isa::{Family, Opcode, Row, OPCODES};
pub use parse::parse;
pub use plan::Plan;
pub use readings::{
    compare_readings, evaluate_reading, evaluate_traced_reading, readings_may_differ, DiffId,
    DiffKind, Difference, Divergence, Reading, DIFFERENCES,
};
pub use trace::{Stage, StageKind, Trace, Val};
pub use validate::validate;

/// Parse and validate in one step.
pub fn check(text: &str) -> Result<Instruction, Diagnostic> {
    let insn = parse(text)?;
    validate(&insn)?;
    Ok(insn)
}

/// The examples of the crate's README, run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;
