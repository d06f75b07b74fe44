//! Evaluation: one generic engine per family, driven by a [`Tracer`].

use crate::ast::{Instruction, OperandKind, SOURCE_NAMES};
use crate::table::Family;
use crate::trace::{NoTrace, Recorder, Stage, StageKind, Trace, Tracer, Val, Views};

pub mod bits;
pub mod integer;
pub mod simd;
pub mod video;

/// Source values by role. Values wider than an operand are truncated to its width.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Inputs {
    pub a: u64,
    pub b: u64,
    pub c: u64,
    /// The fifth operand of `bfi` (the ISA calls it `d`).
    pub e: u64,
}

impl Inputs {
    pub fn new(a: u64, b: u64, c: u64, e: u64) -> Inputs {
        Inputs { a, b, c, e }
    }
    pub fn as_array(&self) -> [u64; 4] {
        [self.a, self.b, self.c, self.e]
    }
}

/// Bit widths of an instruction's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Widths {
    pub dst: u32,
    /// Width of each source in operand order; only the first `sources` entries are meaningful.
    pub src: [u32; 4],
    pub sources: usize,
}

/// Operand widths of a (valid) instruction.
pub fn widths(insn: &Instruction) -> Widths {
    let sources = insn.srcs.len().min(4);
    match insn.opcode.family() {
        Family::Integer => integer::widths(insn),
        _ => Widths {
            dst: 32,
            src: [32; 4],
            sources,
        },
    }
}

/// Source values with immediates substituted and each truncated to its width.
#[inline]
fn operand_values(insn: &Instruction, inputs: &Inputs, w: &Widths) -> [u64; 4] {
    let mut v = inputs.as_array();
    for (i, o) in insn.srcs.iter().enumerate().take(4) {
        if let OperandKind::Imm(x) = o.kind {
            v[i] = x as u64;
        }
        v[i] &= mask64(w.src[i]);
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

fn eval_with<T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    match insn.opcode.family() {
        Family::ScalarVideo => video::eval_scalar(insn, v, t),
        Family::Vmad => video::eval_vmad(insn, v, t),
        Family::Simd2 | Family::Simd4 => simd::eval(insn, v, t),
        Family::Integer => integer::eval(insn, v, t),
    }
}

/// Evaluate a validated instruction: the value written to `d`, zero-extended to 64 bits.
/// Allocates nothing.
#[inline]
pub fn evaluate(insn: &Instruction, inputs: &Inputs) -> u64 {
    run(insn, inputs, &mut NoTrace)
}

/// Evaluate with any tracer (no stages for the sources as read): the value written to `d`.
/// With [`crate::trace::FlagSet`] this gives the notable events of one evaluation cheaply;
/// with [`crate::trace::Literal`] the ISA text's reading.
#[inline]
pub fn run<T: Tracer>(insn: &Instruction, inputs: &Inputs, t: &mut T) -> u64 {
    let w = widths(insn);
    let v = operand_values(insn, inputs, &w);
    eval_with(insn, &v, t) & mask64(w.dst)
}

/// Evaluate a validated instruction and record every stage (the hardware's reading; see
/// [`crate::readings::evaluate_traced_reading`] for the text's).
pub fn evaluate_traced(insn: &Instruction, inputs: &Inputs) -> Trace {
    crate::readings::evaluate_traced_reading(insn, inputs, crate::readings::Reading::Hardware)
}

/// Access to a recorder's stages, for [`traced_with`].
pub(crate) trait Recording: Tracer {
    fn take_stages(&mut self) -> Vec<Stage>;
}

impl Recording for Recorder {
    fn take_stages(&mut self) -> Vec<Stage> {
        std::mem::take(&mut self.stages)
    }
}

impl Recording for crate::trace::Literal<Recorder> {
    fn take_stages(&mut self) -> Vec<Stage> {
        std::mem::take(&mut self.0.stages)
    }
}

/// Evaluate with a recording tracer and build the trace (flags as the evaluator set them).
pub(crate) fn traced_with<R: Recording>(insn: &Instruction, inputs: &Inputs, rec: &mut R) -> Trace {
    let w = widths(insn);
    let v = operand_values(insn, inputs, &w);
    let sources: Vec<Val> = (0..w.sources)
        .map(|i| Val::reg(SOURCE_NAMES[i], w.src[i], v[i]))
        .collect();
    for s in &sources {
        let s = s.clone();
        rec.stage(|| Stage::new(StageKind::Read, format!("{} as read", s.name), s));
    }
    let d = eval_with(insn, &v, rec) & mask64(w.dst);
    let result = Val::reg("d", w.dst, d);
    Trace {
        instruction: insn.canonical(),
        opcode: insn.opcode.name().to_string(),
        family: insn.opcode.family(),
        sources,
        stages: rec.take_stages(),
        result,
        views: Views::of(d, w.dst),
        doc_url: insn.opcode.doc_url(),
        reading: crate::readings::Reading::Hardware,
    }
}
