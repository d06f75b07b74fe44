//! Evaluation: one generic engine per family, its semantics chosen by a type ([`Semantics`])
//! and observed by a [`Tracer`].
//!
//! ```
//! use ptxlab_core::eval::{evaluate, evaluate_as, widths};
//! use ptxlab_core::{check, Inputs, Reading};
//!
//! let insn = check("mul.wide.u32 d, a, b;").unwrap();
//! let w = widths(&insn);
//! assert_eq!((w.dst, w.src[0]), (64, 32));
//! let d = evaluate(&insn, &Inputs::new(0xffff_ffff, 0xffff_ffff, 0, 0));
//! assert_eq!(d, 0xffff_fffe_0000_0001);
//! // Integer instructions read the same under both readings.
//! assert_eq!(evaluate_as(&insn, &Inputs::new(3, 4, 0, 0), Reading::Text), 12);
//! ```

use crate::ast::{Instruction, OperandKind, SOURCE_NAMES};
use crate::differences::Reading;
use crate::isa::{self, Instr, Opcode, Operation};
use crate::trace::{NoTrace, Recorder, Stage, StageKind, Trace, Tracer, Val, Views};

/// The bit helpers, at their old path.
pub use crate::bits;
pub mod integer;
pub mod semantics;
pub mod simd;
pub mod video;

pub use semantics::{Hardware, Semantics, Text};

/// Source values by role. Values wider than an operand are truncated to its width.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Inputs {
    /// The first source.
    pub a: u64,
    /// The second source.
    pub b: u64,
    /// The third source.
    pub c: u64,
    /// The fifth operand of `bfi` (the ISA calls it `d`).
    pub e: u64,
}

impl Inputs {
    /// Sources `a`, `b`, `c` and `e`.
    pub fn new(a: u64, b: u64, c: u64, e: u64) -> Inputs {
        Inputs { a, b, c, e }
    }
    /// The sources in operand order: `[a, b, c, e]`.
    pub fn as_array(&self) -> [u64; 4] {
        [self.a, self.b, self.c, self.e]
    }
}

pub use crate::isa::Widths;

/// Operand widths of a (valid) instruction of either table, from its row
/// ([`Instruction::widths`]).
#[inline]
pub fn widths(insn: &Instruction) -> Widths {
    insn.widths()
}

/// Source values with immediates substituted and each truncated to its width.
#[inline]
fn operand_values(insn: &Instruction, inputs: &Inputs, w: &Widths) -> [u64; 4] {
    masked_values(insn, inputs, w.src.map(mask64))
}

/// Source values with immediates substituted and each source the instruction has masked
/// with its entry of `masks` (the others are passed as given).
#[inline(always)]
fn masked_values(insn: &Instruction, inputs: &Inputs, masks: [u64; 4]) -> [u64; 4] {
    let mut v = inputs.as_array();
    // An index loop: iterator adapters here stay calls in the size-optimised wasm build.
    for i in 0..insn.srcs.len().min(4) {
        if let OperandKind::Imm(x) = insn.srcs[i].kind {
            v[i] = x as u64;
        }
        v[i] &= masks[i];
    }
    v
}

#[inline(always)]
pub(crate) fn mask64(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn eval_with<S: Semantics, T: Tracer>(
    opcode: Opcode,
    insn: &Instruction,
    v: &[u64; 4],
    t: &mut T,
) -> u64 {
    match opcode.operation() {
        Operation::Scalar(op) => video::scalar::eval_op::<S, T>(op, insn, v, t),
        Operation::Vmad => video::eval_vmad::<S, T>(insn, v, t),
        Operation::Simd2(op) => simd::eval_lanes::<2, S, T>(op, insn, v, t),
        Operation::Simd4(op) => simd::eval_lanes::<4, S, T>(op, insn, v, t),
        Operation::Int(op) => integer::eval_op::<S, T>(op, insn, v, t),
    }
}

/// Evaluate a validated instruction: the value written to `d`, zero-extended to 64 bits (for a
/// program row, its first destination: 0 when that is `_`, where its trace's `result` is the
/// first destination written). Allocates nothing for a table row.
#[inline]
pub fn evaluate(insn: &Instruction, inputs: &Inputs) -> u64 {
    run_as::<Hardware, _>(insn, inputs, &mut NoTrace)
}

/// Evaluate the hardware's reading with any tracer (no stages for the sources as read): the
/// value written to `d`. With [`crate::trace::FlagSet`] this gives the notable events of one
/// evaluation cheaply.
#[inline]
pub fn run<T: Tracer>(insn: &Instruction, inputs: &Inputs, t: &mut T) -> u64 {
    run_as::<Hardware, T>(insn, inputs, t)
}

/// Evaluate with the semantics `S` ([`Hardware`] or [`Text`]) and any tracer.
#[inline]
pub fn run_as<S: Semantics, T: Tracer>(insn: &Instruction, inputs: &Inputs, t: &mut T) -> u64 {
    const WORD: u64 = 0xffff_ffff;
    let opcode = match insn.instr {
        Instr::Table(o) => o,
        // A program row has one reading: its own evaluation.
        Instr::Program(op) => return crate::ops::OpInsn { op, insn }.first(&inputs.as_array(), t),
    };
    let (v, dst_mask) = if isa::word_operands(opcode) {
        // Every operand is a 32-bit word whatever the form (the row says so): the widths are
        // known without reading the form, and the masks are constants.
        (masked_values(insn, inputs, [WORD; 4]), WORD)
    } else {
        let w = widths(insn);
        (operand_values(insn, inputs, &w), mask64(w.dst))
    };
    eval_with::<S, T>(opcode, insn, &v, t) & dst_mask
}

/// Evaluate with either reading, chosen at run time. Allocates nothing.
#[inline]
pub fn evaluate_as(insn: &Instruction, inputs: &Inputs, reading: Reading) -> u64 {
    match reading {
        Reading::Hardware => run_as::<Hardware, _>(insn, inputs, &mut NoTrace),
        Reading::Text => run_as::<Text, _>(insn, inputs, &mut NoTrace),
    }
}

/// Evaluate a validated instruction and record every stage (the hardware's reading).
pub fn evaluate_traced(insn: &Instruction, inputs: &Inputs) -> Trace {
    traced::<Hardware>(insn, inputs)
}

/// Evaluate with the semantics `S` and record every stage. Stages where the hardware departs
/// from the text carry [`crate::trace::Flag::HardwareDiffersFromText`] (and the entry that
/// explains it) only when the two readings' answers differ: the recorder is told so before the
/// run, and keeps a stage's mark only then.
pub fn traced<S: Semantics>(insn: &Instruction, inputs: &Inputs) -> Trace {
    let opcode = match insn.instr {
        Instr::Table(o) => o,
        // A program row has one reading: its own evaluation's stages.
        Instr::Program(op) => {
            let op = crate::ops::OpInsn { op, insn };
            return op.outcome(&inputs.as_array(), S::READING).trace;
        }
    };
    let hardware = run_as::<Hardware, _>(insn, inputs, &mut NoTrace);
    let text = run_as::<Text, _>(insn, inputs, &mut NoTrace);
    let mut rec = Recorder::new(hardware != text);
    let w = widths(insn);
    let v = operand_values(insn, inputs, &w);
    let sources: Vec<Val> = (0..w.sources)
        .map(|i| Val::reg(SOURCE_NAMES[i], w.src[i], v[i]))
        .collect();
    for s in &sources {
        let s = s.clone();
        rec.stage([], || {
            Stage::new(StageKind::Read, format!("{} as read", s.name), s)
        });
    }
    let d = eval_with::<S, _>(opcode, insn, &v, &mut rec) & mask64(w.dst);
    let result = Val::reg("d", w.dst, d);
    Trace {
        instruction: insn.canonical(),
        opcode: opcode.name().to_string(),
        family: opcode.family(),
        sources,
        stages: rec.stages,
        result,
        views: Views::of(d, w.dst),
        doc_url: opcode.doc_url(),
        reading: S::READING,
        measured: match S::READING {
            Reading::Hardware => opcode.info().measured,
            Reading::Text => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::isa::{self, Form, Type, WidthRule, OPCODES};

    /// Every form of `row` the syntax allows, as far as types go (each slot's types, or none).
    fn forms(row: &isa::Row) -> Vec<Form> {
        let mut out = vec![Form::default()];
        for (slot, types) in row.syntax.slots.iter().map(|s| s.types).enumerate().take(3) {
            out = out
                .into_iter()
                .flat_map(|f| {
                    types.iter().map(move |&ty: &Type| {
                        let mut g = f;
                        g.types[slot] = Some(ty);
                        g
                    })
                })
                .collect();
        }
        out
    }

    /// The tables the evaluator reads (word-only opcodes, signs by lookup) say what the rows
    /// say, read rule by rule, for every row and every choice of types.
    #[test]
    fn lookup_tables_agree_with_the_rows() {
        for (&opcode, row) in crate::isa::Opcode::ALL.iter().zip(OPCODES) {
            let words = row.operands.iter().all(|o| o.width == WidthRule::Bits(32));
            assert_eq!(isa::word_operands(opcode), words, "{}", row.name);
            for form in forms(row) {
                let mut want = 0u8;
                for (p, o) in row.operands.iter().enumerate().take(5) {
                    want |= u8::from(o.sign.signed(&form)) << p;
                    if words {
                        assert_eq!(o.width.bits(&form), 32, "{} {form:?}", row.name);
                    }
                }
                assert_eq!(
                    isa::operand_signs(opcode, &form),
                    want,
                    "{} {form:?}",
                    row.name
                );
            }
        }
    }
}
