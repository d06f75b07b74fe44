//! Reads one PTX instruction as people write it.
//!
//! The parser only checks the shape of the text (guard, opcode, known modifiers, operands,
//! selectors, immediates); whether the combination is legal is [`crate::validate()`]'s job.
//!
//! ```
//! use ptxlab_core::parse;
//!
//! let insn = parse("  vmin4.s32.u32.u32.add %r1, %r2.b0000, %r3, %r1 ;").unwrap();
//! assert_eq!(insn.srcs.len(), 3);
//! // Only the shape is checked here: an unknown opcode is refused, with its span.
//! let err = parse("vfoo.u32 d, a;").unwrap_err();
//! assert_eq!(err.span, 0..4);
//! ```

use crate::ast::{Form, Guard, Instruction, Mod, Operand, OperandKind, SelKind, Selector, Span};
use crate::error::Diagnostic;
use crate::isa::{Opcode, OPCODES};
use crate::scan::{ident_start, Scan};

/// Suffixes that look like selectors but are words of their own to ptxas: its parser stops at
/// them (`.b1024` is a data type name; every other `.b` with four digits 0-7 reads as a selector).
pub const RESERVED_WORDS: &[&str] = &["b1024"];

/// Longest text accepted, in bytes: one instruction never needs more.
pub const MAX_LEN: usize = 4096;

/// Parse one instruction. Accepts an optional guard (`@p`, `@!p`), an optional trailing `;`
/// and a trailing `//` comment.
pub fn parse(text: &str) -> Result<Instruction, Diagnostic> {
    if text.len() > MAX_LEN {
        return Err(Diagnostic::new(
            0..0,
            format!(
                "instruction text is {} bytes long; at most {MAX_LEN} are accepted",
                text.len()
            ),
        ));
    }
    let mut p = Parser { s: text, i: 0 };
    p.instruction()
}

struct Parser<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Scan<'a> for Parser<'a> {
    fn text(&self) -> &'a str {
        self.s
    }
    fn pos(&self) -> usize {
        self.i
    }
    fn set_pos(&mut self, i: usize) {
        self.i = i;
    }
}

impl<'a> Parser<'a> {
    /// White space and a `//` comment to the end of the text.
    fn skip_ws(&mut self) {
        self.ws();
        if self.rest().starts_with("//") {
            self.i = self.s.len();
        }
    }
    /// The token from byte `start`, for messages: up to the next space, comma or semicolon.
    fn token(&self, start: usize) -> Span {
        self.token_span(start, ",;")
    }
    fn ident(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
        let start = self.i;
        match self.peek() {
            Some(c) if ident_start(c) => {
                self.bump();
                self.word();
                Ok((self.s[start..self.i].to_string(), start..self.i))
            }
            Some(_) => Err(Diagnostic::new(
                self.token(start),
                format!("expected {what} at '{}'", &self.s[self.token(start)]),
            )),
            None => Err(Diagnostic::new(
                start..start,
                format!("expected {what}, found the end of the text"),
            )),
        }
    }

    fn instruction(&mut self) -> Result<Instruction, Diagnostic> {
        self.skip_ws();
        if self.i >= self.s.len() {
            return Err(Diagnostic::new(
                0..0,
                "empty instruction: type one, e.g. vadd.u32.u32.u32 d, a, b;",
            ));
        }
        let guard = if self.eat('@') {
            let negated = self.eat('!');
            let (pred, _) = self.ident("a predicate register after '@'")?;
            self.skip_ws();
            Some(Guard { negated, pred })
        } else {
            None
        };
        let op_start = self.i;
        let name = self.word();
        let op_span = op_start..self.i;
        if name.is_empty() {
            let sp = self.token(op_start);
            return Err(Diagnostic::new(
                sp.clone(),
                format!("expected an opcode at '{}'", &self.s[sp]),
            )
            .allowed(OPCODES.iter().map(|o| o.name)));
        }
        let opcode = Opcode::from_name(name).ok_or_else(|| {
            if crate::isa::POp::from_name(name).is_some() {
                // Read by `crate::ops::parse_op` (through `crate::insn::check`), not here.
                return Diagnostic::new(
                    op_span.clone(),
                    format!(
                        "'{name}' is a logic, move, compare, convert or carry-chain instruction; only the video and integer arithmetic opcodes are read here"
                    ),
                )
                .allowed(OPCODES.iter().map(|o| o.name));
            }
            Diagnostic::new(op_span.clone(), format!("unknown opcode '{name}'"))
                .allowed(suggest_opcodes(name))
        })?;
        let mut mods = Vec::new();
        loop {
            // ptxas also reads modifiers separated by spaces (`vadd.u32 .u32.u32`).
            let save = self.i;
            self.skip_ws();
            if self.peek() != Some('.') {
                self.i = save;
                break;
            }
            let start = self.i;
            self.bump();
            let m = self.word();
            let span = start..self.i;
            if m.is_empty() {
                return Err(Diagnostic::new(
                    start..start + 1,
                    format!("'.' after '{name}' must be followed by a modifier"),
                ));
            }
            let md = Mod::from_name(m).ok_or_else(|| {
                if let Some(p) = crate::isa::POp::of_statement(name, &[m]) {
                    // `add.cc`, `cvt.pack`: a program instruction's row, read by
                    // `crate::ops::parse_op` (through `crate::insn::check`), not here.
                    return Diagnostic::new(
                        span.clone(),
                        format!(
                            "'{}' is a program instruction of its own (family: {}); only the video and integer arithmetic opcodes are read here",
                            p.name(),
                            p.family().describe()
                        ),
                    );
                }
                Diagnostic::new(span.clone(), format!("unknown modifier '.{m}' on '{name}'"))
            })?;
            mods.push((md, span));
        }
        if let Some(c) = self.peek() {
            if !c.is_whitespace() {
                let sp = self.token(self.i);
                return Err(Diagnostic::new(
                    sp.clone(),
                    format!(
                        "unexpected '{}' after the opcode and modifiers; put a space before the operands",
                        &self.s[sp]
                    ),
                ));
            }
        }
        self.skip_ws();
        let mut operands = Vec::new();
        loop {
            if self.i >= self.s.len() || self.peek() == Some(';') {
                if operands.is_empty() {
                    return Err(Diagnostic::new(
                        self.i..self.i,
                        format!("'{name}' needs operands: a destination and its sources"),
                    ));
                }
                let sp = self.i..self.i;
                return Err(Diagnostic::new(sp, "expected an operand after ','"));
            }
            operands.push(self.operand()?);
            self.skip_ws();
            if operands.len() == 1 && self.peek() == Some('|') {
                // `d|_`: ptxas accepts a sink as a second destination and ignores it
                // (`add.u32 d|_, a, b;` computes what `add.u32 d, a, b;` does, measured on
                // an H200); a predicate there is refused.
                let bar = self.i;
                self.eat('|');
                self.skip_ws();
                let after = &self.s[self.i..];
                let sink = after.starts_with('_')
                    && !after[1..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
                if !sink {
                    let sp = self.token(bar);
                    return Err(Diagnostic::new(
                        sp,
                        format!("'{name}' writes no predicate: after '|' only '_' (nothing) is accepted"),
                    ));
                }
                self.i += 1;
                self.skip_ws();
            }
            if self.eat(',') {
                self.skip_ws();
                continue;
            }
            break;
        }
        self.skip_ws();
        self.eat(';');
        self.skip_ws();
        if self.i < self.s.len() {
            let sp = self.token(self.i);
            return Err(Diagnostic::new(
                sp.clone(),
                format!(
                    "unexpected '{}' after the operands; operands are separated by ',' and the instruction ends with ';'",
                    &self.s[sp]
                ),
            ));
        }
        let form = gather_form(&mods);
        let mut it = operands.into_iter();
        let dst = it.next().expect("at least one operand was parsed");
        let mut insn = Instruction {
            guard,
            opcode,
            opcode_span: op_span,
            mods,
            form,
            dst,
            srcs: it.collect(),
        };
        drop_ignored_suffixes(&mut insn);
        Ok(insn)
    }

    fn operand(&mut self) -> Result<Operand, Diagnostic> {
        let start = self.i;
        if crate::constexpr::starts_expression(self.s, start) {
            let (v, end) = crate::constexpr::parse(self.s, start)?;
            self.i = end;
            return self.immediate(start, v);
        }
        let mut neg = false;
        if self.eat('-') {
            self.skip_ws();
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                let v = self.number(start, true)?;
                return self.immediate(start, v);
            }
            neg = true;
        }
        let kind = match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let v = self.number(self.i, false)?;
                self.no_selector_on_number(start)?;
                OperandKind::Imm(v)
            }
            Some(c) if ident_start(c) => OperandKind::Reg(self.ident("an operand")?.0),
            _ => {
                let sp = self.token(self.i);
                let msg = if sp.is_empty() {
                    "expected an operand, found the end of the text".to_string()
                } else {
                    format!(
                        "expected an operand (a register name or a number) at '{}'",
                        &self.s[sp.clone()]
                    )
                };
                return Err(Diagnostic::new(sp, msg));
            }
        };
        let sel = self.selector()?;
        Ok(Operand {
            kind,
            neg,
            sel,
            span: start..self.i,
        })
    }

    fn number(&mut self, start: usize, negative: bool) -> Result<i64, Diagnostic> {
        let num_start = self.i;
        let w = self.word();
        let span = start..self.i;
        let parsed = crate::constexpr::literal(w).map(|(v, _)| v);
        let _ = num_start;
        match parsed {
            Ok(v) if !negative => Ok(v as i64),
            Ok(v) if v <= 1u64 << 63 => Ok((v as i64).wrapping_neg()),
            Ok(_) => Err(Diagnostic::new(
                span.clone(),
                format!("immediate '{}' does not fit in 64 bits", &self.s[span]),
            )),
            Err(m) => Err(Diagnostic::new(span, m)),
        }
    }

    /// An immediate operand from `start` to the cursor (no selector may follow it).
    fn immediate(&mut self, start: usize, v: i64) -> Result<Operand, Diagnostic> {
        self.no_selector_on_number(start)?;
        Ok(Operand {
            kind: OperandKind::Imm(v),
            neg: false,
            sel: None,
            span: start..self.i,
        })
    }

    /// ptxas reads `5.b0` as a syntax error: selectors pick parts of registers only.
    fn no_selector_on_number(&mut self, start: usize) -> Result<(), Diagnostic> {
        if self.peek() != Some('.') {
            return Ok(());
        }
        let dot = self.i;
        self.bump();
        self.word();
        let span = dot..self.i;
        Err(Diagnostic::new(
            span.clone(),
            format!(
                "'{}' cannot follow the number '{}': selectors pick parts of registers, so put the value in a register or drop the selector",
                &self.s[span],
                &self.s[start..dot]
            ),
        ))
    }

    fn selector(&mut self) -> Result<Option<Selector>, Diagnostic> {
        if self.peek() != Some('.') {
            return Ok(None);
        }
        let start = self.i;
        self.bump();
        let w = self.word();
        let span = start..self.i;
        let bad = || {
            Diagnostic::new(
                span.clone(),
                format!(
                    "unknown selector '.{w}': write .b followed by 1 to 4 byte digits (.b0, .b3210) or .h followed by 1 or 2 half-word digits (.h1, .h10)"
                ),
            )
        };
        if RESERVED_WORDS.contains(&w) {
            return Err(Diagnostic::new(
                span.clone(),
                format!(
                    "'.{w}' is a reserved word of PTX (a type name), so ptxas cannot read it as a selector"
                ),
            ));
        }
        let (kind, digits) = match w.as_bytes().first() {
            Some(b'b') => (SelKind::B, &w[1..]),
            Some(b'h') => (SelKind::H, &w[1..]),
            _ => return Err(bad()),
        };
        if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        let ds: Vec<u8> = digits.bytes().map(|c| c - b'0').collect();
        Ok(Some(Selector::new(kind, &ds)))
    }
}

/// ptxas accepts `.b01`, `.b12`, `.b23` on some operands and then ignores them (the machine code
/// is the same as without); drop them there so that the instruction means what ptxas runs.
fn drop_ignored_suffixes(insn: &mut Instruction) {
    let keep = |insn: &Instruction, pos: usize, o: &Operand| {
        o.sel
            .filter(|s| !crate::isa::suffix_ignored(insn.opcode, &insn.form, pos, s))
    };
    let d = keep(insn, 0, &insn.dst);
    let srcs: Vec<Option<Selector>> = insn
        .srcs
        .iter()
        .enumerate()
        .map(|(i, o)| keep(insn, i + 1, o))
        .collect();
    insn.dst.sel = d;
    for (o, s) in insn.srcs.iter_mut().zip(srcs) {
        o.sel = s;
    }
}

/// Gather modifiers by kind; the first of each kind wins (the validator reports repeats).
fn gather_form(mods: &[(Mod, Span)]) -> Form {
    let mut f = Form::default();
    let mut nt = 0;
    for (m, _) in mods {
        match *m {
            Mod::Type(t) => {
                if nt < 3 {
                    f.types[nt] = Some(t);
                }
                nt += 1;
            }
            Mod::Sat => f.sat = true,
            Mod::SecOp(s) => {
                f.secop.get_or_insert(s);
            }
            Mod::Cmp(c) => {
                f.cmp.get_or_insert(c);
            }
            Mod::Mode(c) => {
                f.mode.get_or_insert(c);
            }
            Mod::Scale(s) => {
                f.scale.get_or_insert(s);
            }
            Mod::Po => f.po = true,
            Mod::Half(h) => {
                f.half.get_or_insert(h);
            }
            Mod::Relu => f.relu = true,
            Mod::Shiftamt => f.shiftamt = true,
        }
    }
    f
}

/// Opcodes that start like `name`, or all of them when none does.
fn suggest_opcodes(name: &str) -> Vec<&'static str> {
    crate::isa::instr::suggest_among(name, OPCODES.iter().map(|o| o.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Type;

    #[test]
    fn parses_scalar_video() {
        let i = parse("vadd.s32.u32.s32.sat d, a.b0, b.h0;").unwrap();
        assert_eq!(i.opcode, Opcode::Vadd);
        assert_eq!(
            i.form.types,
            [Some(Type::S32), Some(Type::U32), Some(Type::S32)]
        );
        assert!(i.form.sat);
        assert_eq!(i.srcs.len(), 2);
        assert_eq!(i.srcs[0].sel, Some(Selector::new(SelKind::B, &[0])));
        assert_eq!(i.canonical(), "vadd.s32.u32.s32.sat d, a.b0, b.h0;");
    }

    #[test]
    fn parses_guard_registers_and_immediates() {
        let i = parse("@!p vmin4.s32.u32.u32.add %r1.b0, %r2.b0000, -0x10, 7").unwrap();
        assert!(i.guard.as_ref().unwrap().negated);
        assert_eq!(i.srcs[1].kind, OperandKind::Imm(-16));
        assert_eq!(i.srcs[2].kind, OperandKind::Imm(7));
        assert_eq!(i.dst.sel.unwrap().digits(), &[0]);
    }

    #[test]
    fn negated_register() {
        let i = parse("vmad.s32.s32.u32.sat r0, r1, r2, -r3;").unwrap();
        assert!(i.srcs[2].neg);
    }

    #[test]
    fn canonical_reorders_modifiers() {
        let i = parse("vmax.sat.s32.s32.s32 d.h0, a.h0, b.b1, c").unwrap();
        assert_eq!(i.canonical(), "vmax.s32.s32.s32.sat d.h0, a.h0, b.b1, c;");
    }

    #[test]
    fn errors_point_at_token() {
        let t = "vaddd.u32.u32.u32 d, a, b;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], "vaddd");
        assert!(e.allowed.contains(&"vadd".to_string()));
        let t = "vadd.u32.foo.u32 d, a, b;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".foo");
        let t = "vadd4.u32.u32.u32 d, a.b00000, b, c;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".b00000");
        let t = "vadd.u32.u32.u32 d, a,, b;";
        assert!(parse(t).is_err());
        assert!(parse("").is_err());
        assert!(parse("vadd.u32.u32.u32").is_err());
        assert!(parse("vadd.u32.u32.u32 d, a, b; junk").is_err());
        let t = "vadd4.u32.u32.u32 d, a.b1024, b, c;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".b1024");
        let t = "vadd.u32.u32.u32 d, 5.b0, b;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".b0");
        let t = "vmad.u32.u32.u32 d, a, -3.h1, c;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".h1");
    }
}
