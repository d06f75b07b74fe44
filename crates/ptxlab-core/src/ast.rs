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
//! assert_eq!(insn.opcode.name(), "vadd");
//! assert!(insn.form.sat);
//! let a = &insn.srcs[0];
//! assert_eq!(a.sel.unwrap().kind, SelKind::B);
//! assert_eq!(insn.srcs[1].kind, OperandKind::Imm(-5));
//! assert_eq!(insn.canonical(), "@!p vadd.s32.s32.s32.sat d, a.b2, -5;");
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;

pub use crate::isa::vocab::{
    ClampMode, Cmp, Form, HalfMode, Mod, Scale, SecOp, SelKind, Selector, Type,
};
use crate::isa::{self, Opcode, Widths};
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

/// A parsed instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Instruction {
    /// `@p` or `@!p` before the opcode, if written.
    pub guard: Option<Guard>,
    /// The opcode.
    pub opcode: Opcode,
    /// Where the opcode is in the text.
    pub opcode_span: Span,
    /// Modifiers in the order written, with where each was written.
    pub mods: Vec<(Mod, Span)>,
    /// The same modifiers gathered by kind.
    pub form: Form,
    /// The destination (`d`); its selector is the scalar `dsel` or the SIMD mask.
    pub dst: Operand,
    /// Sources in order: `a`, `b`, `c`, and for `bfi` a fifth operand called `e` here.
    pub srcs: Vec<Operand>,
}

/// Names of the source roles, in operand order.
pub const SOURCE_NAMES: [&str; 4] = ["a", "b", "c", "e"];

impl Instruction {
    /// The modifiers in the order the ISA's syntax lists them.
    pub fn canonical_mods(&self) -> Vec<Mod> {
        isa::canonical_order(self.opcode, self.mods.iter().map(|(m, _)| *m))
    }
    /// Operand widths, from the opcode's row.
    #[inline]
    pub fn widths(&self) -> Widths {
        isa::widths(self.opcode, &self.form, self.srcs.len())
    }
    /// Whether operand position `p` (0 = `d`, 1 = `a`, ...) is read as signed, from the row.
    #[inline]
    pub fn signed(&self, p: usize) -> bool {
        isa::operand_signed(self.opcode, &self.form, p)
    }
    /// Whether each operand position is read as signed, as bits (bit 0 = `d`, bit 1 = `a`,
    /// ...), from the row: one lookup for all positions.
    #[inline]
    pub fn signs(&self) -> u8 {
        isa::operand_signs(self.opcode, &self.form)
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
        s.push_str(self.opcode.name());
        for m in self.canonical_mods() {
            s.push('.');
            s.push_str(m.name());
        }
        s.push(' ');
        s.push_str(&self.dst.to_string());
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
