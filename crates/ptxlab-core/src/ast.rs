//! The typed form of one parsed PTX instruction.
//!
//! The parser fills an [`Instruction`] from text without judging whether the combination is legal;
//! [`crate::validate()`] decides that, and the evaluator reads the typed [`Form`] and operands.
//!
//! ```
//! use ptxlab_core::ast::{OperandKind, SelKind};
//! use ptxlab_core::parse;
//!
//! let insn = parse("@!p vadd.s32.s32.s32.sat d, a.b2, -5;").unwrap();
//! assert!(insn.guard.as_ref().unwrap().negated);
//! assert_eq!(insn.instr.name(), "vadd");
//! assert!(insn.form.sat);
//! let a = &insn.srcs[0];
//! assert_eq!(a.sel.unwrap().kind, SelKind::B);
//! assert_eq!(insn.srcs[1].kind, OperandKind::Imm(-5));
//! assert_eq!(insn.canonical(), "@!p vadd.s32.s32.s32.sat d, a.b2, -5;");
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

pub mod program;
use std::ops::Range;

pub use crate::isa::vocab::{
    ClampMode, Cmp, Form, HalfMode, Mod, Scale, SecOp, SelKind, Selector, Type,
};
use crate::isa::{self, Instr, Opcode, POp, Widths};
use crate::value::FloatLit;

/// Byte range into the source text, used to point at the offending token in messages.
pub type Span = Range<usize>;

/// What an operand names: a register, an immediate value, a floating-point literal, or
/// nothing (`_`). One vocabulary for the operands of both tables; the table's instructions
/// take only registers and integer immediates (the shape checker lets nothing else through).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OperandKind {
    /// A register, by the name written (`%r1`, `a`).
    Reg(String),
    /// The immediate as written, reduced to 64 bits two's complement.
    Imm(i64),
    /// A floating-point literal (`0f3f800000`, `1.5`), as a program row reads it.
    Float(FloatLit),
    /// `_`: a destination whose value is dropped, or an element of a vector read as 0.
    Sink,
}

/// One operand of an instruction of either table, with its optional negation and selector.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Operand {
    /// A register, an immediate, a float literal or `_`.
    pub kind: OperandKind,
    /// Written with a leading `-` (`vmad` sources).
    pub neg: bool,
    /// Written `!p`: a predicate source read negated.
    #[serde(default)]
    pub not: bool,
    /// The selector or mask written after it (`.b2`, `.h10`), if any.
    pub sel: Option<Selector>,
    /// Where the operand is in the text (empty where it was not read from text).
    pub span: Span,
}

impl Operand {
    /// An operand of this kind, written plainly (no `-`, `!` or selector), at `span`.
    pub fn new(kind: OperandKind, span: Span) -> Operand {
        Operand {
            kind,
            neg: false,
            not: false,
            sel: None,
            span,
        }
    }
    /// The register named `name`, not read from text.
    pub fn reg(name: impl Into<String>) -> Operand {
        Operand::new(OperandKind::Reg(name.into()), 0..0)
    }
    /// `_`, not read from text.
    pub fn sink() -> Operand {
        Operand::new(OperandKind::Sink, 0..0)
    }
    /// The register's name, if it is a register.
    pub fn reg_name(&self) -> Option<&str> {
        match &self.kind {
            OperandKind::Reg(r) => Some(r),
            _ => None,
        }
    }
    /// Whether it is `_`.
    pub fn is_sink(&self) -> bool {
        self.kind == OperandKind::Sink
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            f.write_str("-")?;
        }
        if self.not {
            f.write_str("!")?;
        }
        match &self.kind {
            OperandKind::Reg(r) => f.write_str(r)?,
            OperandKind::Imm(v) => {
                if *v < 0 {
                    write!(f, "{v}")?
                } else if *v > 9 {
                    write!(f, "0x{v:x}")?
                } else {
                    write!(f, "{v}")?
                }
            }
            OperandKind::Float(x) => f.write_str(&x.text())?,
            OperandKind::Sink => f.write_str("_")?,
        }
        if let Some(s) = &self.sel {
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Guard predicate `@p` / `@!p` (shown, not evaluated: the playground always executes).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Guard {
    /// Written `@!p`: the instruction runs when the predicate is false.
    pub negated: bool,
    /// The predicate register's name.
    pub pred: String,
}

/// One instruction of either table: a row of [`crate::isa::ROWS`] (which [`Instr`] says),
/// its types and modifiers decoded into one [`Form`], and its operands. The 47 video and
/// integer arithmetic instructions have one destination; a program row may have several
/// (`setp`'s `p|q`, the parts of an unpacking `mov`, the carry flag `CC.CF` last).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Instruction {
    /// `@p` or `@!p` before the opcode, if written.
    pub guard: Option<Guard>,
    /// Its row: the opcode, of either table.
    pub instr: Instr,
    /// Where the opcode is in the text.
    pub opcode_span: Span,
    /// Modifiers in the order written, with where each was written.
    pub mods: Vec<(Mod, Span)>,
    /// The same modifiers gathered by kind.
    pub form: Form,
    /// The destinations in order: `d` (its selector the scalar `dsel` or the SIMD mask);
    /// `p`, `q` for `setp`; the parts of an unpacking `mov`; the carry flag last where a link
    /// of the carry chain writes it. Never empty once read.
    pub dsts: Vec<Operand>,
    /// Sources in order: `a`, `b`, `c`, and for `bfi` a fifth operand called `e` here; the
    /// parts a packing `mov` packs; the carry flag last where a link of the chain reads it.
    pub srcs: Vec<Operand>,
    /// Written with its destinations in braces (`mov.b32 {lo, hi}, a;`).
    #[serde(default)]
    pub unpack: bool,
    /// Written with its sources in braces (`mov.b32 d, {lo, hi};`).
    #[serde(default)]
    pub pack: bool,
}

/// What [`Instruction::dst`] reads of an instruction built by hand with no destination.
static NO_DESTINATION: Operand = Operand {
    kind: OperandKind::Sink,
    neg: false,
    not: false,
    sel: None,
    span: 0..0,
};

/// Names of the source roles, in operand order.
pub const SOURCE_NAMES: [&str; 4] = ["a", "b", "c", "e"];

impl Instruction {
    /// The table opcode, for one of the 47 video and integer arithmetic instructions.
    #[inline]
    pub fn opcode(&self) -> Option<Opcode> {
        match self.instr {
            Instr::Table(o) => Some(o),
            Instr::Program(_) => None,
        }
    }
    /// What a table row computes ([`Opcode::operation`]); `None` for a program row.
    #[inline]
    pub fn operation(&self) -> Option<isa::Operation> {
        self.opcode().map(Opcode::operation)
    }
    /// The program row, for one of the logic, move, compare, convert and carry-chain
    /// instructions.
    #[inline]
    pub fn program_op(&self) -> Option<POp> {
        match self.instr {
            Instr::Table(_) => None,
            Instr::Program(p) => Some(p),
        }
    }
    /// The first destination (`d`, or `p` of `setp`).
    #[inline]
    pub fn dst(&self) -> &Operand {
        self.dsts.first().unwrap_or(&NO_DESTINATION)
    }
    /// The first destination, to change it (one is added, `_`, where there is none).
    pub fn dst_mut(&mut self) -> &mut Operand {
        if self.dsts.is_empty() {
            self.dsts.push(Operand::sink());
        }
        &mut self.dsts[0]
    }
    /// The modifiers in the order the ISA's syntax lists them (a program row's as written).
    pub fn canonical_mods(&self) -> Vec<Mod> {
        let mods = self.mods.iter().map(|(m, _)| *m);
        match self.instr {
            Instr::Table(o) => isa::canonical_order(o, mods),
            Instr::Program(_) => mods.collect(),
        }
    }
    /// Operand widths, from the row: the first destination and the first four sources.
    #[inline]
    pub fn widths(&self) -> Widths {
        match self.instr {
            Instr::Table(o) => isa::widths(o, &self.form, self.srcs.len()),
            Instr::Program(op) => program::OpInsn { op, insn: self }.widths(),
        }
    }
    /// Whether operand position `p` (0 = `d`, 1 = `a`, ...) is read as signed, from the row.
    #[inline]
    pub fn signed(&self, p: usize) -> bool {
        match self.instr {
            Instr::Table(o) => isa::operand_signed(o, &self.form, p),
            Instr::Program(op) => program::OpInsn { op, insn: self }.signed(p),
        }
    }
    /// Whether each operand position is read as signed, as bits (bit 0 = `d`, bit 1 = `a`,
    /// ...), from the row: one lookup for all positions of a table row.
    #[inline]
    pub fn signs(&self) -> u8 {
        match self.instr {
            Instr::Table(o) => isa::operand_signs(o, &self.form),
            Instr::Program(op) => program::OpInsn { op, insn: self }.signs(),
        }
    }
    /// Canonical text: modifiers in the order ptxas documents them, single spaces, `;` at the end.
    pub fn canonical(&self) -> String {
        let mut s = String::new();
        if let Some(g) = &self.guard {
            s.push('@');
            if g.negated {
                s.push('!');
            }
            s.push_str(&g.pred);
            s.push(' ');
        }
        if let Instr::Program(op) = self.instr {
            s.push_str(&program::OpInsn { op, insn: self }.canonical());
            return s;
        }
        s.push_str(self.instr.name());
        for m in self.canonical_mods() {
            s.push('.');
            s.push_str(m.name());
        }
        s.push(' ');
        s.push_str(&self.dst().to_string());
        for o in &self.srcs {
            s.push_str(", ");
            s.push_str(&o.to_string());
        }
        s.push(';');
        s
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical())
    }
}
