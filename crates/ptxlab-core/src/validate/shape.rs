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
#[derive(Clone, Copy, PartialEq, Eq)]
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
#[derive(Clone, Copy)]
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

    /// What no position takes in the shape that [`Slot::shape`] let through: never made, as
    /// every caller reads each shape the checker allows, but a message rather than a panic.
    pub(crate) fn misplaced(a: &Arg) -> Diagnostic {
        Diagnostic::new(a.span.clone(), "this operand cannot stand here")
    }

    /// What was written at `a` may stand here, or why not. A destination written `d|_` gives
    /// back `d` (ptxas accepts a sink as a second destination of any instruction and ignores
    /// it: `add.u32 d|_, a, b;` computes what `add.u32 d, a, b;` does, measured on an H200);
    /// `p|q` where a pair stands, and braced parts where parts stand, come back whole for the
    /// caller to read.
    pub(crate) fn shape<'x>(&self, a: &'x Arg) -> Result<&'x Arg, Diagnostic> {
        self.misfit(a).map_err(|(span, says)| {
            let n = self.instr.name();
            let msg = match says {
                Says::Of(rest) => format!("{} of '{n}' {rest}", self.name),
                Says::Named(rest) => format!("'{n}' {rest}"),
                Says::Plain(s) => s.to_string(),
                Says::Owned(s) => s,
            };
            Diagnostic::new(span, msg)
        })
    }

    /// [`Slot::shape`]'s decision, its message in pieces.
    fn misfit<'x>(&self, a: &'x Arg) -> Result<&'x Arg, (Span, Says)> {
        let whole = a.span.clone();
        // `%tid.x`: a special register, which has a value only in a program. (One with no dot,
        // `%laneid`, reads like any register here: by position.)
        let written = self.text[whole.clone()].trim_start_matches(['-', '!']);
        if a.suffix.is_some() && crate::isa::is_dotted_special(written) {
            let reads = matches!(self.instr, Instr::Program(p) if p.row().operands.specials);
            let tail = match (self.dst, reads) {
                (true, _) => ", which is read only".to_string(),
                (false, true) => format!(": it has a value only in a program (the Program view, or `ptxlab run` with {written}=V)"),
                (false, false) => format!(": it has a value only in a program (the Program view, or `ptxlab run` with {written}=V), where ptxas reads it with mov or cvt"),
            };
            let msg = format!("'{written}' is a special register{tail}");
            return Err((whole, Says::Owned(msg)));
        }
        match &a.atom {
            Atom::Pair(..) if self.pair => return Ok(a),
            Atom::Pair(first, second) if self.dst && self.first => {
                let plain = !(second.not || second.neg || second.suffix.is_some());
                if matches!(second.atom, Atom::Sink) && plain && !a.not && !a.neg {
                    return self.misfit(first);
                }
                return Err((
                    second.span.clone(),
                    Says::Named("writes no predicate: after '|' only '_' (nothing) is accepted"),
                ));
            }
            Atom::Pair(_, second) => {
                return Err((
                    second.span.clone(),
                    Says::Of("takes no pair: '|' joins two destinations (setp's p|q, or d|_)"),
                ))
            }
            Atom::Vector(_) if self.parts => return Ok(a),
            Atom::Vector(_) => {
                return Err((
                    whole,
                    Says::Of(if self.dst {
                        "takes no vector ({...}): braces hold the parts of mov.bN; write a register"
                    } else {
                        "takes no vector ({...}): braces hold the parts of mov.bN; write a register or a number"
                    }),
                ))
            }
            _ => {}
        }
        let first = a.span.start..a.span.start + 1;
        if self.dst {
            return match a.atom {
                _ if a.neg => Err((
                    first,
                    Says::Plain("a destination cannot be negated; drop the '-'"),
                )),
                _ if a.not => Err((
                    first,
                    Says::Plain("a destination cannot be negated; drop the '!'"),
                )),
                Atom::Sink if self.sink => Ok(a),
                Atom::Sink => Err((
                    whole,
                    Says::Named(
                        "cannot drop its result: '_' is not a destination it takes (ptxas refuses it)",
                    ),
                )),
                Atom::Imm(_) | Atom::Float(_) if self.pred => Err((
                    whole,
                    Says::Of("must be a predicate register, not a number"),
                )),
                Atom::Imm(_) | Atom::Float(_) => {
                    Err((whole, Says::Of("must be a register, not a number")))
                }
                _ => Ok(a),
            };
        }
        match a.atom {
            Atom::Sink => Err((
                whole,
                Says::Plain("'_' stands for a result dropped; it cannot be a source"),
            )),
            _ if a.not && !matches!(a.atom, Atom::Reg(_)) => Err((
                first,
                Says::Plain("'!' negates a predicate register, not a number"),
            )),
            _ if a.not && !self.pred => Err((
                first,
                Says::Owned(format!(
                    "'!' negates a predicate, and {} of '{}' is not one: write a register or a number",
                    self.name,
                    self.instr.name()
                )),
            )),
            _ if a.neg && !self.neg => Err((first, Says::Named("does not negate its sources"))),
            Atom::Float(_) if self.shift => Err((
                whole,
                Says::Of("is a shift amount: write an integer, not a floating-point literal"),
            )),
            Atom::Float(f) if !self.float.takes(f) => Err((
                whole.clone(),
                Says::Owned(format!(
                    "'{}' is a floating-point literal, and {} of '{}' is an integer{}",
                    &self.text[whole],
                    self.name,
                    self.instr.name(),
                    if self.float != FloatLits::Never {
                        " (a float literal stands where a float is read, and as bits: 0f.. for .b32, 0d.. for .b64)"
                    } else {
                        ""
                    }
                )),
            )),
            Atom::Imm(_) if self.float == FloatLits::Float => Err((
                whole,
                Says::Of(
                    "is a floating-point value: write a float literal (0f3f800000), not an integer",
                ),
            )),
            Atom::Imm(_) | Atom::Float(_) if !self.imm => {
                Err((whole, Says::Of("must be a register, not a number")))
            }
            Atom::Reg(_) => match self.imm_only {
                Some(what) => Err((
                    whole,
                    Says::Owned(format!(
                        "{} of '{}' must be a number ({what}), not a register",
                        self.name,
                        self.instr.name()
                    )),
                )),
                None => Ok(a),
            },
            _ => Ok(a),
        }
    }
}

/// A refusal's message in pieces, put together once ([`Slot::shape`]).
enum Says {
    /// After "b of 'add' ".
    Of(&'static str),
    /// After "'add' ".
    Named(&'static str),
    Plain(&'static str),
    Owned(String),
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
