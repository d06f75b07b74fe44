//! The one reader of an instruction's text, for every instruction: [`Head::read`] reads the
//! guard, the opcode word and the dotted words after it (ptxas also takes them separated by
//! spaces: `vadd.u32 .u32.u32`, `and .b32`), and [`Head::operands`] the operands in one
//! grammar (registers, integers and constant expressions, float literals, `-x`, `!p`, `_`,
//! `{x, y}`, `p|q`, a `.word` suffix). Nothing here knows a row: [`mod@crate::parse`] (the table
//! instructions) and [`crate::ops`] (the program instructions) give what was read its meaning,
//! each refusing with its own message what its rows do not take.

use crate::ast::{Guard, Span};
use crate::error::Diagnostic;
use crate::isa::Instr;
use crate::value::FloatLit;

/// Longest text accepted, in bytes: one instruction never needs more.
pub const MAX_LEN: usize = 4096;

/// A word after a dot in an instruction's head (`.u32`, `.sat`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Word<'a> {
    /// Its text, without the dot.
    pub text: &'a str,
    /// Where it is written, with the dot.
    pub span: Span,
    /// Whether white space comes before its dot (`vadd.u32 .u32.u32`).
    pub spaced: bool,
}

/// The refusal of the word `.word`, written at `span` apart from the opcode `opcode` it
/// belongs to: ptxas reads `mul.lo`, `mad.wide`, `shf.l`, `madc.hi` as one word, the opcode's.
/// Each table decides which of its words these are.
pub(crate) fn written_apart(word: &str, span: Span, opcode: &str) -> Diagnostic {
    Diagnostic::new(
        span,
        format!(
            "'.{word}' belongs to the opcode ({opcode}.{word}): write it right after '{opcode}', with no space before it"
        ),
    )
}

/// What an operand is, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Atom {
    /// A name: a register or an operand role (`%r1`, `a`).
    Reg(String),
    /// An integer literal or constant expression, its value as ptxas reads it.
    Imm(i64),
    /// A floating-point literal (`0f3f800000`, `0d3ff0000000000000`, `1.5`).
    Float(FloatLit),
    /// `_`: nothing.
    Sink,
    /// `{x, y}`: the parts of a vector.
    Vector(Vec<Arg>),
    /// `p|q`: two destinations.
    Pair(Box<Arg>, Box<Arg>),
}

/// One operand as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Arg {
    pub atom: Atom,
    /// `-x`.
    pub neg: bool,
    /// `!p`.
    pub not: bool,
    /// A `.word` after it (`a.b0`, `r.h1`, `5.b0`): where it is written, with the dot.
    pub suffix: Option<Span>,
    pub span: Span,
}

/// The head of an instruction's text: guard, opcode word, dotted words; the operands follow at
/// `operands_at`.
#[derive(Clone, Debug)]
pub(crate) struct Head<'a> {
    pub text: &'a str,
    pub guard: Option<Guard>,
    /// Where the guard is written (`@!p`), when there is one.
    pub guard_span: Option<Span>,
    pub name: &'a str,
    pub name_span: Span,
    pub words: Vec<Word<'a>>,
    pub operands_at: usize,
    /// Where a `//` comment starts (the text's length without one).
    end: usize,
    /// What is wrong right after the words (a `.` with no word, a character where white
    /// space must come): reported by [`Head::operands`], after the rows have judged the
    /// opcode and the words before it.
    after_words: Option<Diagnostic>,
}

impl<'a> Head<'a> {
    /// Read the head of `text`: an optional guard (`@p`, `@!p`), the opcode word and every
    /// dotted word after it, with or without white space before the dot.
    pub fn read(text: &'a str) -> Result<Head<'a>, Diagnostic> {
        if text.len() > MAX_LEN {
            return Err(Diagnostic::new(
                0..0,
                format!(
                    "instruction text is {} bytes long; at most {MAX_LEN} are accepted",
                    text.len()
                ),
            ));
        }
        // A `//` comment ends the text: nothing after it is read (PTX text has no strings).
        let end = text.find("//").unwrap_or(text.len());
        let mut c = Cursor {
            s: &text[..end],
            i: 0,
        };
        c.ws();
        if c.i >= c.s.len() {
            return Err(Diagnostic::new(
                0..0,
                "empty instruction: type one, e.g. vadd.u32.u32.u32 d, a, b;",
            ));
        }
        let (guard, guard_span) = if c.peek() == Some('@') {
            let at = c.i;
            c.bump();
            // ptxas reads `@ p` and `@! p` as `@p` and `@!p`.
            c.ws();
            let negated = c.eat('!');
            c.ws();
            let start = c.i;
            match c.peek() {
                Some(ch) if ident_start(ch) => {
                    c.bump();
                    c.word();
                }
                _ => {
                    let what = "a predicate register after '@' (as in @p or @!p)";
                    return Err(c.expected(start, what, ""));
                }
            }
            let pred = text[start..c.i].to_string();
            let span = at..c.i;
            c.ws();
            (Some(Guard { negated, pred }), Some(span))
        } else {
            (None, None)
        };
        let name_start = c.i;
        let name = c.word();
        let name_span = name_start..c.i;
        if name.is_empty() {
            let e = c.expected(name_start, "an opcode", "");
            return Err(e.allowed(Instr::all().map(Instr::name)));
        }
        let mut words = Vec::new();
        let mut after_words = None;
        loop {
            let save = c.i;
            c.ws();
            if c.peek() != Some('.') {
                c.i = save;
                break;
            }
            let start = c.i;
            c.bump();
            let w = c.word();
            if w.is_empty() {
                after_words = Some(Diagnostic::new(
                    start..start + 1,
                    format!("'.' after '{name}' must be followed by a modifier"),
                ));
                break;
            }
            words.push(Word {
                text: w,
                span: start..c.i,
                spaced: start != save,
            });
        }
        match c.peek() {
            Some(ch) if after_words.is_none() && !ch.is_whitespace() && ch != ';' => {
                let sp = c.token(c.i);
                after_words = Some(Diagnostic::new(
                    sp.clone(),
                    format!(
                        "unexpected '{}' after the opcode and modifiers; put a space before the operands",
                        &text[sp]
                    ),
                ));
            }
            _ => {}
        }
        c.ws();
        Ok(Head {
            text,
            guard,
            guard_span,
            name,
            name_span,
            words,
            operands_at: c.i,
            end,
            after_words,
        })
    }

    /// The dotted words' texts.
    pub fn word_texts(&self) -> Vec<&'a str> {
        self.words.iter().map(|w| w.text).collect()
    }

    /// The row the head names: its opcode word and, for `add.cc` and `cvt.pack`, a word of the
    /// row's name. A word that belongs to the opcode (`cvt.pack`'s `.pack`) counts only written
    /// right after it, as ptxas reads it (`cvt .pack` is `cvt` with an unknown modifier).
    pub fn instr(&self) -> Option<Instr> {
        let texts = self.word_texts();
        match Instr::of_words(self.name, &texts) {
            Some(Instr::Program(p))
                if p.name_word().is_some() && self.words.first().is_some_and(|w| w.spaced) =>
            {
                Instr::of_words(self.name, &[])
            }
            found => found,
        }
    }

    /// The operands, in order, up to an optional `;` and a `//` comment; none when the text
    /// ends after the head. An error in the head after its words comes first.
    pub fn operands(&self) -> Result<Vec<Arg>, Diagnostic> {
        if let Some(d) = &self.after_words {
            return Err(d.clone());
        }
        let text = &self.text[..self.end];
        let mut c = Cursor {
            s: text,
            i: self.operands_at,
        };
        let mut out = Vec::new();
        if c.i < text.len() && c.peek() != Some(';') {
            loop {
                out.push(c.operand()?);
                c.ws();
                if c.eat(',') {
                    c.ws();
                    if c.i >= text.len() || c.peek() == Some(';') {
                        return Err(Diagnostic::new(c.i..c.i, "expected an operand after ','"));
                    }
                    continue;
                }
                break;
            }
        }
        c.ws();
        c.eat(';');
        c.ws();
        if c.i < text.len() {
            let sp = c.token(c.i);
            return Err(Diagnostic::new(
                sp.clone(),
                format!(
                    "unexpected '{}' after the operands; operands are separated by ',' and the instruction ends with ';'",
                    &text[sp]
                ),
            ));
        }
        Ok(out)
    }
}

/// The cursor [`Head`] reads with: over `s`, at byte `i` (always on a character boundary).
struct Cursor<'a> {
    s: &'a str,
    i: usize,
}

impl Cursor<'_> {
    /// The token from byte `start`, for messages: up to white space or one of `,;{}|`, and at
    /// least one character where any is left.
    fn token(&self, start: usize) -> Span {
        let rest = &self.s[start..];
        let len = rest
            .char_indices()
            .find(|&(_, c)| c.is_whitespace() || ",;{}|".contains(c))
            .map_or(rest.len(), |(k, _)| k);
        start..start + len.max(rest.chars().next().map_or(0, char::len_utf8))
    }

    /// "expected `what`" at the token from `start` (with `hint` before the token quoted), or
    /// at the end of the text.
    fn expected(&self, start: usize, what: &str, hint: &str) -> Diagnostic {
        let sp = self.token(start);
        let msg = if sp.is_empty() {
            format!("expected {what}, found the end of the text")
        } else {
            format!("expected {what}{hint} at '{}'", &self.s[sp.clone()])
        };
        Diagnostic::new(sp, msg)
    }

    /// A number from the cursor: an `0f`/`0d` float, a decimal float (a fraction or an
    /// exponent), or an integer literal; `neg` when a `-` came before it (from `start`).
    fn number(&mut self, start: usize, neg: bool) -> Result<Atom, Diagnostic> {
        let st = self.i;
        let w = self.word();
        if !neg {
            for (p, n) in [("0f", 8), ("0F", 8), ("0d", 16), ("0D", 16)] {
                if let Some(h) = w.strip_prefix(p) {
                    if h.len() == n {
                        if let Ok(v) = u64::from_str_radix(h, 16) {
                            return Ok(Atom::Float(if n == 8 {
                                FloatLit::F32(v as u32)
                            } else {
                                FloatLit::F64(v)
                            }));
                        }
                    }
                }
            }
        }
        // A decimal float: digits with a fraction and/or an exponent.
        let is_dec = w
            .chars()
            .all(|c| c.is_ascii_digit() || c == 'e' || c == 'E');
        let frac = is_dec
            && self.peek() == Some('.')
            && self.s[self.i + 1..].starts_with(|c: char| c.is_ascii_digit());
        let expo = is_dec && w.contains(['e', 'E']);
        if frac || expo {
            if frac {
                self.bump();
                self.word();
            }
            if self.s[..self.i].ends_with(['e', 'E'])
                && self.peek().is_some_and(|c| c == '+' || c == '-')
            {
                self.bump();
                self.word();
            }
            let t = &self.s[st..self.i];
            // Any digit of the mantissa (before the exponent) not zero: the number is not 0.
            let nonzero = t
                .split(['e', 'E'])
                .next()
                .is_some_and(|m| m.bytes().any(|c| (b'1'..=b'9').contains(&c)));
            return match crate::decimal::parse(t) {
                // And below the smallest normal double, where a double holds it only
                // subnormal or as 0 (1e-320, 1e-400): ptxas 13.5 says the same.
                Some(x) if nonzero && x.abs() < f64::MIN_POSITIVE => Err(Diagnostic::new(
                    st..self.i,
                    format!(
                        "'{t}' is below the smallest normal double (about 2.2e-308): a constant overflow"
                    ),
                )),
                // ptxas 13.5 refuses it as a constant overflow (1e400, 1.8e308).
                Some(x) if x.is_infinite() => Err(Diagnostic::new(
                    st..self.i,
                    format!(
                        "'{t}' is past the largest double (about 1.8e308): a constant overflow"
                    ),
                )),
                Some(x) => Ok(Atom::Float(FloatLit::Dec(
                    (if neg { -x } else { x }).to_bits(),
                ))),
                None => Err(Diagnostic::new(
                    st..self.i,
                    format!("'{t}' is not a number"),
                )),
            };
        }
        let span = start..self.i;
        match crate::constexpr::literal(w).map(|(v, _)| v) {
            Ok(v) if !neg => Ok(Atom::Imm(v as i64)),
            Ok(v) if v <= 1 << 63 => Ok(Atom::Imm((v as i64).wrapping_neg())),
            Ok(_) => Err(Diagnostic::new(
                span.clone(),
                format!("immediate '{}' does not fit in 64 bits", &self.s[span]),
            )),
            Err(m) => Err(Diagnostic::new(st..self.i, m)),
        }
    }

    /// A register, number, constant expression or `_`; with `!`, `-` and a `.word` suffix.
    fn simple(&mut self) -> Result<Arg, Diagnostic> {
        let st = self.i;
        if crate::constexpr::starts_expression(self.s, st) {
            let (v, end) = crate::constexpr::parse(self.s, st)?;
            self.i = end;
            return Ok(self.suffix(Atom::Imm(v), false, false, st));
        }
        let (mut neg, mut not) = (false, false);
        if self.eat('!') {
            not = true;
            self.ws();
        } else if self.eat('-') {
            self.ws();
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                let atom = self.number(st, true)?;
                return Ok(self.suffix(atom, false, false, st));
            }
            neg = true;
        }
        let atom = match self.peek() {
            Some(c) if c.is_ascii_digit() => self.number(self.i, false)?,
            Some('_') if !self.s[self.i + 1..].starts_with(ident_char) => {
                self.bump();
                Atom::Sink
            }
            Some(c) if ident_start(c) => {
                let s0 = self.i;
                self.bump();
                self.word();
                Atom::Reg(self.s[s0..self.i].to_string())
            }
            _ => return Err(self.expected(self.i, "an operand", " (a register or a number)")),
        };
        Ok(self.suffix(atom, neg, not, st))
    }

    /// `atom` from `st`, with a `.word` after it if one follows.
    fn suffix(&mut self, atom: Atom, neg: bool, not: bool, st: usize) -> Arg {
        let mut suffix = None;
        if self.peek() == Some('.') {
            let dot = self.i;
            self.bump();
            self.word();
            suffix = Some(dot..self.i);
        }
        Arg {
            atom,
            neg,
            not,
            suffix,
            span: st..self.i,
        }
    }

    /// One operand: a simple one, a vector `{x, y}` or a pair `p|q`.
    fn operand(&mut self) -> Result<Arg, Diagnostic> {
        let st = self.i;
        if self.eat('{') {
            let mut elems = Vec::new();
            loop {
                self.ws();
                elems.push(self.simple()?);
                self.ws();
                if self.eat(',') {
                    continue;
                }
                if self.eat('}') {
                    break;
                }
                let sp = self.token(self.i);
                return Err(Diagnostic::new(
                    sp,
                    "a vector's elements are separated by ',' and closed with '}'",
                ));
            }
            return Ok(Arg {
                atom: Atom::Vector(elems),
                neg: false,
                not: false,
                suffix: None,
                span: st..self.i,
            });
        }
        let first = self.simple()?;
        let save = self.i;
        self.ws();
        if self.eat('|') {
            self.ws();
            let second = self.simple()?;
            return Ok(Arg {
                atom: Atom::Pair(Box::new(first), Box::new(second)),
                neg: false,
                not: false,
                suffix: None,
                span: st..self.i,
            });
        }
        self.i = save;
        Ok(first)
    }
}

/// The first character of a name: a register (`%r1`), an operand role (`a`) or a word.
fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '%' || c == '$'
}

/// A character after the first in a name (the program reader's names follow the same rule).
pub(crate) fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

impl<'a> Cursor<'a> {
    /// What is left from the cursor on.
    fn rest(&self) -> &'a str {
        &self.s[self.i..]
    }
    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    /// Steps over the next character and gives it.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        Some(c)
    }
    /// Steps over white space (the reader's text ends before any `//` comment).
    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
    /// Steps over `c` if it comes next.
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.bump();
            true
        } else {
            false
        }
    }
    /// The run of name characters from the cursor on (possibly empty).
    fn word(&mut self) -> &'a str {
        let start = self.i;
        while self.peek().is_some_and(ident_char) {
            self.bump();
        }
        &self.s[start..self.i]
    }
}
