//! The shape of a written operand, checked the same way on both tables: whether a register, a
//! number, `_`, `p|q`, `{…}`, `!p`, `-a` or a float literal may stand at a position.
//!
//! Both parsers ask [`Slot::shape`] first, with the position's rules from the row's
//! [`Operands`](crate::isa::Operands); what the value then means (an immediate's range, a
//! selector's lanes, which sources a negation may fall on, a register's width) each table
//! checks after, from the same rows. So one mistake reads the same on `add` and on `shl`.

use crate::ast::Span;
use crate::error::Diagnostic;
use crate::isa::{Instr, OperandSpec, PositionKind, Role};
use crate::scan::{Arg, Atom};
use crate::value::FloatLit;

/// Where a float literal may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FloatLits {
    /// Nowhere on this instruction (the table's rows read integers).
    Never,
    /// As the bits of an operand this many bits wide: `0f..` where 32, `0d..` where 64, either
    /// where 1 (an element of braced parts), none where 0; an integer stands there too. The
    /// message says where float literals stand.
    Bits(u32),
    /// Any float literal, and only a float literal: the position reads a float.
    Float,
}

impl FloatLits {
    fn takes(self, f: FloatLit) -> bool {
        match self {
            FloatLits::Never => false,
            FloatLits::Float => true,
            FloatLits::Bits(w) => matches!(
                (f, w),
                (FloatLit::F32(_), 32 | 1) | (FloatLit::F64(_), 64 | 1)
            ),
        }
    }
}

/// One operand position as the shape checker reads it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot<'a> {
    instr: Instr,
    text: &'a str,
    name: &'a str,
    dst: bool,
    /// The first destination: `d|_` may be written there.
    first: bool,
    /// A predicate is read or written there.
    pred: bool,
    /// A destination that may be `_`.
    sink: bool,
    /// `p|q`, two destinations, may stand there (the caller reads both).
    pair: bool,
    /// Braced parts may stand there (the caller reads them).
    parts: bool,
    /// `-` may be written there (the caller decides on which sources it may fall).
    neg: bool,
    float: FloatLits,
    /// An immediate may stand there (its range is checked after).
    imm: bool,
    /// Only an immediate: what it holds.
    imm_only: Option<&'static str>,
    shift: bool,
}

impl<'a> Slot<'a> {
    /// Position `spec` of `instr`, in `text`: a destination (`first` for the first one) or a
    /// source. It takes no predicate, no `-` and no float literal until told so.
    pub(crate) fn new(
        instr: Instr,
        text: &'a str,
        spec: &OperandSpec,
        dst: bool,
        first: bool,
    ) -> Slot<'a> {
        Slot {
            instr,
            text,
            name: spec.name,
            dst,
            first,
            pred: false,
            sink: matches!(spec.kind, PositionKind::Droppable | PositionKind::PredPair),
            pair: spec.kind == PositionKind::PredPair,
            parts: spec.kind == PositionKind::Parts,
            neg: false,
            float: FloatLits::Never,
            imm: spec.imm != crate::isa::ImmRule::Never,
            imm_only: match spec.kind {
                PositionKind::Imm(what) => Some(what),
                _ => None,
            },
            shift: spec.role == Role::Shift,
        }
    }

    /// An element of braced parts (`mov`'s `{lo, hi}`), a destination or a source.
    pub(crate) fn part(instr: Instr, text: &'a str, dst: bool) -> Slot<'a> {
        let spec = OperandSpec::value(
            "an element",
            crate::isa::WidthRule::Part,
            crate::isa::SignRule::Unsigned,
        );
        Slot {
            sink: dst,
            float: FloatLits::Bits(1),
            ..Slot::new(instr, text, &spec, dst, false)
        }
    }

    /// Whether a predicate is read or written there.
    pub(crate) fn pred(self, pred: bool) -> Slot<'a> {
        Slot { pred, ..self }
    }

    /// Whether `-` may be written there.
    pub(crate) fn negatable(self, neg: bool) -> Slot<'a> {
        Slot { neg, ..self }
    }

    /// Where float literals stand.
    pub(crate) fn floats(self, float: FloatLits) -> Slot<'a> {
        Slot { float, ..self }
    }

    /// Neither a pair nor braced parts: one of `p|q`, or of the parts.
    pub(crate) fn alone(self) -> Slot<'a> {
        Slot {
            pair: false,
            parts: false,
            first: false,
            ..self
        }
    }

    /// Whether an immediate may stand there (its range is checked after).
    pub(crate) fn immediates(self, imm: bool) -> Slot<'a> {
        Slot { imm, ..self }
    }

    /// "b of 'add'".
    fn of(&self) -> String {
        format!("{} of '{}'", self.name, self.instr.name())
    }

    /// What was written at `a` may stand here, or why not. A destination written `d|_` gives
    /// back `d` (ptxas accepts a sink as a second destination of any instruction and ignores
    /// it: `add.u32 d|_, a, b;` computes what `add.u32 d, a, b;` does, measured on an H200);
    /// `p|q` where a pair stands, and braced parts where parts stand, come back whole for the
    /// caller to read.
    pub(crate) fn shape<'x>(&self, a: &'x Arg) -> Result<&'x Arg, Diagnostic> {
        let n = self.instr.name();
        let refuse = |sp: Span, msg: String| Err(Diagnostic::new(sp, msg));
        // `%tid.x`: a special register, which has a value only in a program. (One with no dot,
        // `%laneid`, reads like any register here: by position.)
        let written = self.text[a.span.clone()].trim_start_matches(['-', '!']);
        if a.suffix.is_some() && crate::isa::is_special(written) {
            if self.dst {
                return refuse(
                    a.span.clone(),
                    format!("'{written}' is a special register, which is read only"),
                );
            }
            let reads = matches!(self.instr, Instr::Program(p) if p.row().operands.specials);
            return refuse(
                a.span.clone(),
                format!(
                    "'{written}' is a special register: it has a value only in a program (the Program view, or `ptxlab run` with {written}=V){}",
                    if reads {
                        ""
                    } else {
                        ", where ptxas reads it with mov or cvt"
                    }
                ),
            );
        }
        match &a.atom {
            Atom::Pair(..) if self.pair => return Ok(a),
            Atom::Pair(first, second) if self.dst && self.first => {
                let plain = !(second.not || second.neg || second.suffix.is_some());
                if matches!(second.atom, Atom::Sink) && plain && !a.not && !a.neg {
                    return self.shape(first);
                }
                return refuse(
                    second.span.clone(),
                    format!("'{n}' writes no predicate: after '|' only '_' (nothing) is accepted"),
                );
            }
            Atom::Pair(_, second) => {
                return refuse(
                    second.span.clone(),
                    format!(
                        "{} takes no pair: '|' joins two destinations (setp's p|q, or d|_)",
                        self.of()
                    ),
                )
            }
            Atom::Vector(_) if self.parts => return Ok(a),
            Atom::Vector(_) => {
                return refuse(
                    a.span.clone(),
                    format!(
                        "{} takes no vector ({{...}}): braces hold the parts of mov.bN; write a register{}",
                        self.of(),
                        if self.dst { "" } else { " or a number" }
                    ),
                )
            }
            _ => {}
        }
        let first = a.span.start..a.span.start + 1;
        if self.dst {
            if a.neg || a.not {
                let c = if a.neg { '-' } else { '!' };
                return refuse(
                    first,
                    format!("a destination cannot be negated; drop the '{c}'"),
                );
            }
            return match a.atom {
                Atom::Sink if self.sink => Ok(a),
                Atom::Sink => refuse(
                    a.span.clone(),
                    format!(
                        "'{n}' cannot drop its result: '_' is not a destination it takes (ptxas refuses it)"
                    ),
                ),
                Atom::Imm(_) | Atom::Float(_) => refuse(
                    a.span.clone(),
                    format!(
                        "{} must be a {}register, not a number",
                        self.of(),
                        if self.pred { "predicate " } else { "" }
                    ),
                ),
                _ => Ok(a),
            };
        }
        if matches!(a.atom, Atom::Sink) {
            return refuse(
                a.span.clone(),
                "'_' stands for a result dropped; it cannot be a source".to_string(),
            );
        }
        if a.not {
            if !matches!(a.atom, Atom::Reg(_)) {
                return refuse(
                    first,
                    "'!' negates a predicate register, not a number".to_string(),
                );
            }
            if !self.pred {
                return refuse(
                    first,
                    format!(
                        "'!' negates a predicate, and {} is not one: write a register or a number",
                        self.of()
                    ),
                );
            }
        }
        if a.neg && !self.neg {
            return refuse(first, format!("'{n}' does not negate its sources"));
        }
        match a.atom {
            Atom::Float(_) if self.shift => refuse(
                a.span.clone(),
                format!(
                    "{} is a shift amount: write an integer, not a floating-point literal",
                    self.of()
                ),
            ),
            Atom::Float(f) if !self.float.takes(f) => refuse(
                a.span.clone(),
                format!(
                    "'{}' is a floating-point literal, and {} is an integer{}",
                    &self.text[a.span.clone()],
                    self.of(),
                    if self.float != FloatLits::Never {
                        " (a float literal stands where a float is read, and as bits: 0f.. for .b32, 0d.. for .b64)"
                    } else {
                        ""
                    }
                ),
            ),
            Atom::Imm(_) if self.float == FloatLits::Float => refuse(
                a.span.clone(),
                format!(
                    "{} is a floating-point value: write a float literal (0f3f800000), not an integer",
                    self.of()
                ),
            ),
            Atom::Imm(_) | Atom::Float(_) if !self.imm => refuse(
                a.span.clone(),
                format!("{} must be a register, not a number", self.of()),
            ),
            Atom::Reg(_) if self.imm_only.is_some() => refuse(
                a.span.clone(),
                format!(
                    "{} must be a number ({}), not a register",
                    self.of(),
                    self.imm_only.unwrap_or_default()
                ),
            ),
            _ => Ok(a),
        }
    }
}

/// A selector written where the instruction takes none, the same words on both tables.
pub(crate) fn no_selector(instr: Instr, sel: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        span,
        format!(
            "'{sel}': selectors belong to video instructions; '{}' takes none",
            instr.name()
        ),
    )
}
