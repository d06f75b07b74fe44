//! Any one instruction the playground and the `ptxlab` tool evaluate on its own: one
//! [`Instruction`], whose row is one of the 47 video and integer arithmetic opcodes of
//! [`crate::isa::OPCODES`] or one of the 23 logic, shift, move, compare, convert and
//! carry-chain instructions of [`crate::isa::OP_ROWS`]. [`check`] reads either with one reader
//! of text and checks it by its row; [`Instruction::evaluate`] gives every destination's value
//! and the stage [`Trace`].
//!
//! Sources are bound by position: the first source reads [`Inputs::a`], the second `b`, the
//! third `c`, the fourth `e`; an immediate written in the text stands for itself.
//!
//! ```
//! use ptxlab_core::insn::check;
//! use ptxlab_core::isa::{Instr, Opcode};
//! use ptxlab_core::Inputs;
//!
//! let prmt = check("prmt.b32 d, a, b, c;").unwrap();
//! // Nibbles 0, 8, b, 3: byte 0, byte 0's sign, byte 3's sign, byte 3.
//! let out = prmt.evaluate(&Inputs::new(0x8000_007f, 0, 0x3b80, 0));
//! assert_eq!(out.values[0].value, Some(0x80ff_007f));
//! assert_eq!(out.trace.result.raw(), 0x80ff_007f);
//!
//! let setp = check("setp.lt.s32 p|q, a, b;").unwrap();
//! let out = setp.evaluate(&Inputs::new(-1i64 as u64, 1, 0, 0));
//! let names: Vec<&str> = out.values.iter().map(|v| v.name.as_str()).collect();
//! assert_eq!(names, ["p", "q"]);
//! assert_eq!((out.values[0].value, out.values[1].value), (Some(1), Some(0)));
//!
//! // The 47 table opcodes read into the same record.
//! assert_eq!(check("vadd.u32.u32.u32 d, a, b;").unwrap().instr, Instr::Table(Opcode::Vadd));
//! // Errors stay specific, and point into the text.
//! let e = check("@p cvt.sat.s32.s16 d, a;").unwrap_err();
//! assert_eq!(&"@p cvt.sat.s32.s16 d, a;"[e.span], ".sat");
//! ```

use serde::{Deserialize, Serialize};

use crate::ast::{Instruction, OperandKind, SOURCE_NAMES};
use crate::differences::Reading;
use crate::error::Diagnostic;
use crate::eval::{evaluate_traced, mask64, Inputs};
use crate::isa::{Instr, Mod, ModGroup, Type};
use crate::ops::OpInsn;
use crate::plan::Plan;
use crate::readings::{
    compare_readings, evaluate_reading, evaluate_traced_reading, readings_may_differ, Divergence,
};
use crate::scan::Head;
use crate::trace::{FlagSet, Trace};

/// One destination's value after an evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    /// Its name: `d`; `p`, `q` for `setp`; for the parts of an unpacking `mov`, the registers
    /// as written (`lo`, `hi` in `mov.b32 {lo, hi}, a;`).
    pub name: String,
    /// Its width in bits (1 for a predicate).
    pub bits: u32,
    /// The value written; `None` for a `_` sink.
    pub value: Option<u64>,
}

/// What one evaluation gives: every destination, and the stages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Every destination in order.
    pub values: Vec<Written>,
    /// The stages (the hardware's reading).
    pub trace: Trace,
}

/// Parse and validate one instruction of either table. One reader reads the text
/// (`scan`: guard, opcode word, modifiers, operands); the row its words name gives it its
/// meaning ([`crate::parse()`]), and [`crate::validate()`] judges a table row's combination (a
/// program row is judged as it is read). An optional guard (`@p`, `@!p`) is read and kept.
pub fn check(text: &str) -> Result<Instruction, Diagnostic> {
    read(text, true)
}

/// Parse and validate one statement of a program, of either kind: [`check`] without its test
/// for a program instruction that names one register twice where that is refused (the program
/// reader checks registers across statements itself). A trailing `//` comment is not part of
/// the statement.
pub fn parse_unguarded(stmt: &str) -> Result<Instruction, Diagnostic> {
    read(stmt, false)
}

fn read(text: &str, conflicts: bool) -> Result<Instruction, Diagnostic> {
    let insn = crate::parse::from_head(&Head::read(text)?)?;
    match insn.instr {
        // A program row is checked as it is read, but for its registers.
        Instr::Program(_) if conflicts => crate::validate::program::register_conflict(&insn)?,
        Instr::Program(_) => {}
        Instr::Table(_) => crate::validate(&insn)?,
    }
    Ok(insn)
}

/// One register an instruction writes, as a program's register file takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Write<'a> {
    /// The register's name as written.
    pub reg: &'a str,
    /// The value written, `bits` wide.
    pub value: u64,
    /// How many bits the instruction writes.
    pub bits: u32,
    /// Whether the written type is signed (a wider register takes it sign-extended).
    pub signed: bool,
}

impl Instruction {
    /// Set the carry flag's value (`CC.CF`) where the instruction reads it: the source
    /// position after its written sources (`c` for `addc` and `subc`, `e` for `madc`). An
    /// error when it reads no carry flag.
    ///
    /// ```
    /// use ptxlab_core::insn::check;
    /// use ptxlab_core::Inputs;
    ///
    /// let addc = check("addc.cc.u32 d, a, b;").unwrap();
    /// let mut inputs = Inputs::new(0xffff_ffff, 0, 0, 0);
    /// addc.set_carry(&mut inputs, 1).unwrap();
    /// let out = addc.evaluate(&inputs);
    /// assert_eq!((out.values[0].value, out.values[1].value), (Some(0), Some(1)));
    /// assert!(check("add.u32 d, a, b;").unwrap().set_carry(&mut inputs, 1).is_err());
    /// ```
    pub fn set_carry(&self, inputs: &mut Inputs, cf: u64) -> Result<(), String> {
        let at = (0..self.srcs.len())
            .find(|&k| self.reads_carry(k))
            .ok_or_else(|| {
                format!(
                    "CC.CF: {} reads no carry flag (addc, subc and madc do)",
                    self.canonical()
                )
            })?;
        let mut v = inputs.as_array();
        v[at.min(3)] = cf;
        *inputs = Inputs::new(v[0], v[1], v[2], v[3]);
        Ok(())
    }
    /// The opcode's name as written: `vadd`, `prmt`.
    pub fn name(&self) -> &'static str {
        self.instr.name()
    }
    /// Link to the instruction's section of NVIDIA's documentation.
    pub fn doc_url(&self) -> String {
        self.instr.doc_url()
    }
    /// What it computes, in a sentence of our own.
    pub fn summary(&self) -> &'static str {
        self.instr.summary()
    }
    /// The GPU its values were measured on, read from its row: an H100 for every one (the 47
    /// table opcodes in `shared/conformance/h100-cases.jsonl.gz`, the 23 program instructions in
    /// `tests/data/gpu-programs-h100.jsonl.gz`).
    pub fn measured(&self) -> Option<crate::isa::Gpu> {
        self.instr.measured()
    }
    /// Which source positions read a value from [`Inputs`] (a register, not an immediate),
    /// with the role's name and width: `(position, name, bits)`.
    pub fn register_sources(&self) -> Vec<(usize, String, u32)> {
        self.srcs
            .iter()
            .enumerate()
            .take(4)
            .filter(|(_, s)| matches!(s.kind, OperandKind::Reg(_)))
            .map(|(k, _)| (k, self.src_name(k), self.src_bits(k)))
            .collect()
    }
    /// Every register it names, with the width it reads or writes and whether it is written:
    /// the destinations first, then the sources, in written order (immediates and `_` are not
    /// registers).
    pub fn registers(&self) -> Vec<(String, u32, bool)> {
        let mut out = Vec::new();
        for (k, o) in self.dsts.iter().enumerate() {
            if let OperandKind::Reg(r) = &o.kind {
                out.push((r.clone(), self.dst_bits(k), true));
            }
        }
        // A table instruction reads four inputs at most (`a`, `b`, `c` and `bfi`'s `e`); a
        // program row names every source it reads (a packing `mov`'s parts, the carry flag).
        let n = if self.as_op().is_some() {
            usize::MAX
        } else {
            4
        };
        for (k, o) in self.srcs.iter().enumerate().take(n) {
            if let OperandKind::Reg(r) = &o.kind {
                out.push((r.clone(), self.src_bits(k), false));
            }
        }
        out
    }
    /// Give every register it names (its guard's too) the name `to` makes of it.
    pub fn rename_registers(&mut self, to: impl Fn(&str) -> String) {
        for o in self.dsts.iter_mut().chain(self.srcs.iter_mut()) {
            if let OperandKind::Reg(r) = &mut o.kind {
                *r = to(r);
            }
        }
        if let Some(g) = &mut self.guard {
            g.pred = to(&g.pred);
        }
    }
    /// The value each source position reads: a register's from `read(name, bits)` (cut to
    /// `bits`), an immediate its own value as read (a table instruction's evaluator reads its
    /// immediates from the text: 0 there), `_` 0. A table instruction gives four positions.
    pub fn read_sources(&self, read: impl Fn(&str, u32) -> u64) -> Vec<u64> {
        match self.as_op() {
            None => {
                let w = self.widths();
                let mut v = vec![0u64; 4];
                for (k, o) in self.srcs.iter().enumerate().take(4) {
                    if let OperandKind::Reg(r) = &o.kind {
                        v[k] = read(r, w.src[k]) & mask64(w.src[k]);
                    }
                }
                v
            }
            Some(op) => {
                let mut v = vec![0; op.srcs.len()];
                op.sources_with(|k, name| read(name, op.src_bits(k)), &mut v);
                v
            }
        }
    }
    /// Run it on the source values `src` (from [`Instruction::read_sources`]): each register
    /// it writes goes to `write`, in order, and when `traced` the stages come back. Untraced,
    /// both tables run the same evaluation without building stages.
    pub fn execute<'a>(
        &'a self,
        src: &[u64],
        traced: bool,
        mut write: impl FnMut(Write<'a>),
    ) -> Option<Trace> {
        let mut trace = None;
        match self.as_op() {
            None => {
                let at = |k: usize| src.get(k).copied().unwrap_or(0);
                let inputs = Inputs::new(at(0), at(1), at(2), at(3));
                let value = if traced {
                    let t = evaluate_traced(self, &inputs);
                    let d = t.result.raw() as u64;
                    trace = Some(t);
                    d
                } else {
                    crate::eval::evaluate(self, &inputs)
                };
                if let OperandKind::Reg(reg) = &self.dst().kind {
                    write(Write {
                        reg,
                        value,
                        bits: self.widths().dst,
                        signed: self.form.ty(0).is_signed(),
                    });
                }
            }
            Some(op) => {
                let values = if traced {
                    let o = op.eval(src);
                    trace = Some(o.trace);
                    o.values
                } else {
                    op.eval_quiet(src).0
                };
                for (k, (d, v)) in self.dsts.iter().zip(&values).enumerate() {
                    if let (Some(reg), Some(value)) = (d.reg_name(), *v) {
                        write(Write {
                            reg,
                            value,
                            bits: op.dst_bits(k),
                            signed: op.dst_signed(k),
                        });
                    }
                }
            }
        }
        trace
    }
    /// Evaluate under one reading: every destination and the stages. The program instructions
    /// have one reading (the ISA text and the measured GPU agree), so `reading` changes only a
    /// table instruction's.
    pub fn evaluate_reading(&self, inputs: &Inputs, reading: Reading) -> Evaluation {
        match self.as_op() {
            None => {
                let trace = evaluate_traced_reading(self, inputs, reading);
                Evaluation {
                    values: vec![Written {
                        name: "d".into(),
                        bits: trace.result.bits,
                        value: Some(trace.result.raw() as u64),
                    }],
                    trace,
                }
            }
            Some(op) => {
                let out = op.outcome(&inputs.as_array(), reading);
                let trace = out.trace;
                let values = out
                    .values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Written {
                        name: op.dst_label(i),
                        bits: op.dst_bits(i),
                        value: *v,
                    })
                    .collect();
                Evaluation { values, trace }
            }
        }
    }
    /// Where the ISA text taken literally parts from the hardware on this case; `None` when
    /// they agree, and always for the program instructions (one reading).
    pub fn compare_readings(&self, inputs: &Inputs) -> Option<Divergence> {
        compare_readings(self, inputs)
    }
    /// Evaluate (the hardware's reading): every destination and the stages.
    pub fn evaluate(&self, inputs: &Inputs) -> Evaluation {
        self.evaluate_reading(inputs, Reading::Hardware)
    }
    /// The stages only (the hardware's reading).
    pub fn trace(&self, inputs: &Inputs) -> Trace {
        self.evaluate(inputs).trace
    }
    /// The first destination's value, zero-extended to 64 bits (a sink reads 0).
    pub fn value(&self, inputs: &Inputs) -> u64 {
        self.value_reading(inputs, Reading::Hardware)
    }
    /// [`Instruction::value`] under one reading (a program instruction has one).
    pub fn value_reading(&self, inputs: &Inputs, reading: Reading) -> u64 {
        evaluate_reading(self, inputs, reading)
    }
    /// Whether the ISA text taken literally may give another value than the hardware on some
    /// case (false for the program instructions, which have one reading).
    pub fn readings_may_differ(&self) -> bool {
        readings_may_differ(self)
    }
    /// Every destination's value (`None` for a `_` sink) and the notable events of one case,
    /// without stages: the flags the trace's stages would carry.
    pub fn values_quiet(&self, inputs: &Inputs) -> (Vec<Option<u64>>, FlagSet) {
        match self.as_op() {
            None => {
                let mut fs = FlagSet::default();
                let d = crate::eval::run(self, inputs, &mut fs);
                (vec![Some(d)], fs)
            }
            Some(op) => {
                let (v, flags) = op.eval_quiet(&op_sources(op, inputs));
                (
                    v,
                    FlagSet {
                        bits: u32::from(flags),
                    },
                )
            }
        }
    }
    /// Decode it once for many cases: a [`Plan`] whose value is the first destination's (a
    /// sink reads 0), with the flags its stages carry.
    pub fn plan(&self) -> Plan {
        Plan::new(self)
    }
    /// How many destinations it writes: one for a table instruction, `p` and `q` for `setp`,
    /// each part of an unpacking `mov`, and the carry flag after `d` for `add.cc`...
    pub fn dst_count(&self) -> usize {
        self.dsts.len()
    }
    /// Destination `k`'s name by its role: `d`; `p`, `q`; `d0`, `d1` for a `mov`'s parts;
    /// `CC.CF` for the carry flag.
    pub fn dst_name(&self, k: usize) -> String {
        match self.as_op() {
            None => "d".into(),
            Some(op) => op.dst_name(k),
        }
    }
    /// Destination `k`'s width in bits (1 for a predicate or the carry flag).
    pub fn dst_bits(&self, k: usize) -> u32 {
        match self.as_op() {
            None => self.widths().dst,
            Some(op) => op.dst_bits(k),
        }
    }
    /// Source `k`'s name by its role: `a`, `b`, `c`, `e`; `a0`, `a1` for the parts a `mov`
    /// packs; `CC.CF` for the carry flag the chain reads.
    pub fn src_name(&self, k: usize) -> String {
        match self.as_op() {
            None => SOURCE_NAMES.get(k).copied().unwrap_or("?").into(),
            Some(op) => op.src_name(k),
        }
    }
    /// Whether source `k` is read as a signed value.
    pub fn src_signed(&self, k: usize) -> bool {
        self.signed(k + 1)
    }
    /// Whether destination `k` is the carry flag (`CC.CF`) a link of the carry chain writes.
    pub fn writes_carry(&self, k: usize) -> bool {
        self.as_op().is_some_and(|o| o.writes_carry(k))
    }
    /// Whether source `k` is the carry flag (`CC.CF`) a link of the carry chain reads.
    pub fn reads_carry(&self, k: usize) -> bool {
        self.as_op().is_some_and(|o| o.reads_carry(k))
    }
    /// Whether destination `k` is written: not `_` (`lop3`'s `d`, one of `setp`'s `p|q`, a
    /// part of an unpacking `mov`).
    pub fn dst_written(&self, k: usize) -> bool {
        self.dsts.get(k).is_some_and(|d| !d.is_sink())
    }
    /// Source `k`'s width in bits as read (1 for a predicate or the carry flag).
    pub fn src_bits(&self, k: usize) -> u32 {
        match self.as_op() {
            None => self.widths().src.get(k).copied().unwrap_or(32),
            Some(op) => op.src_bits(k),
        }
    }
    /// Whether its destinations, and its sources, are written in braces (`mov`'s vectors).
    pub fn braced(&self) -> (bool, bool) {
        (self.unpack, self.pack)
    }
    /// The modifier of group `g` written, if any.
    pub fn modifier(&self, g: ModGroup) -> Option<Mod> {
        self.form.get(g)
    }
    /// The instruction with group `g` set to `m` (`None`: none of it), and the operands that
    /// come with it on a program row (a Boolean operation's predicate `c`, a carry out). Not
    /// validated: the pickers ask [`check`] about its text.
    pub fn with_modifier(&self, g: ModGroup, m: Option<Mod>) -> Instruction {
        if let Some(op) = self.as_op() {
            return op.with_modifier(g, m);
        }
        let mut c = self.clone();
        c.mods.retain(|(x, _)| ModGroup::of(*x) != g);
        if let Some(m) = m {
            c.mods.push((m, 0..0));
        }
        c.form = crate::parse::gather_form(&c.mods);
        c
    }
    /// The types written, slot by slot ([`crate::isa::Syntax::slots`]), as its form holds them.
    pub fn types(&self) -> Vec<Type> {
        self.form.types.iter().flatten().copied().collect()
    }
    /// The instruction with the type of slot `k` set to `t`, and the operands that come with
    /// it on a program row (`cvt.pack`'s narrow types read a `c`). Not validated.
    pub fn with_type(&self, k: usize, t: Type) -> Instruction {
        if let Some(op) = self.as_op() {
            return op.with_type(k, t);
        }
        let mut c = self.clone();
        if let Some((m, _)) = c
            .mods
            .iter_mut()
            .filter(|(m, _)| matches!(m, Mod::Type(_)))
            .nth(k)
        {
            *m = Mod::Type(t);
        }
        c.form = crate::parse::gather_form(&c.mods);
        c
    }
}

/// The source values of a program instruction as it reads them: position `k` takes input `k`
/// (`a`, `b`, `c`, `e`), an immediate its own value, a sink 0 ([`OpInsn::sources`]).
pub fn op_sources(op: OpInsn, inputs: &Inputs) -> Vec<u64> {
    op.sources(&inputs.as_array())
}
