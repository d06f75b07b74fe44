//! Integer literals and constant expressions as operands, read as ptxas reads them: C's
//! operators and precedence over 64-bit integers (`123 + 123 * 7`, `(3 + 7) * 10 / 5`, `~7`,
//! `!1`, `3 == 1`, `1 ? 3 : 2`, `-1 >> 1`). The one reader of instruction text (`scan`, for
//! the table and the program instructions alike) reads immediates here, so a literal has one
//! definition.
//!
//! What ptxas does, measured on an H200 (`tests/data/gpu-programs.jsonl.gz`, `mov` forms):
//! - a literal is signed 64-bit unless it has the suffix `U` or does not fit in a signed 64-bit
//!   integer (`0xffffffffffffffff`): then it is unsigned, and so is every operation it takes
//!   part in, as in C (`0xffffffffffffffff >> 60` is 15, `(-1) >> 60` is -1);
//! - a hex, binary or octal literal wider than 64 bits keeps its low 64 bits
//!   (`0x10000000000000000` is 0, `0x1ffffffffffffffff` is all ones);
//! - arithmetic wraps at 64 bits (`0x7fffffffffffffff + 1` is `0x8000000000000000`), division
//!   truncates toward zero (`-7 / 2` is -3), comparisons and `!`, `&&`, `||` give 0 or 1;
//! - `%` is refused: ptxas reads it as the start of a register name.
//!
//! ```
//! use ptxlab_core::constexpr::eval;
//!
//! assert_eq!(eval("123 + 123 * 7").unwrap(), 984);
//! assert_eq!(eval("0xffffffffffffffff >> 60").unwrap(), 15);
//! assert_eq!(eval("(-1) >> 60").unwrap(), -1);
//! assert!(eval("1 / 0").unwrap_err().message.contains("division by zero"));
//! ```

use crate::ast::Span;
use crate::error::Diagnostic;

/// A value of a constant expression: 64 bits, read as unsigned or signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct V {
    bits: u64,
    unsigned: bool,
}

impl V {
    fn signed(bits: u64) -> V {
        V {
            bits,
            unsigned: false,
        }
    }
    fn bool(b: bool) -> V {
        V::signed(b as u64)
    }
}

/// An integer literal's digits (after any `-`), as ptxas reads them: decimal, `0x` hex, `0b`
/// binary, `0` octal, with an optional `U` suffix. Gives the low 64 bits and whether it is
/// unsigned, or the message for a word that is not a literal, or one ptxas refuses as too long.
///
/// ptxas builds the value digit by digit in 64 bits, keeping the low 64 bits, and refuses the
/// literal ("Constant overflow") when a digit follows a value of 2^63 or more: `0x1ffffffffffffffff`
/// is accepted (all ones), `0xfffffffffffffffff` and `0x80000000000000000` are refused, and so
/// is `92233720368547758080` (found by asking ptxas 13.5; `tests/data/ptxas-literals.jsonl`).
pub fn literal(word: &str) -> Result<(u64, bool), String> {
    let not_a_number = || {
        format!(
            "'{word}' is not a number: write decimal (42, -5), hex (0x2a), binary (0b101) or \
             octal (052)"
        )
    };
    let (body, suffix_u) = match word.strip_suffix('U') {
        Some(b) => (b, true),
        None => (word, false),
    };
    let (digits, radix) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16)
        } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (b, 2)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() {
        return Err(not_a_number());
    }
    // (low 64 bits, whether the literal is wider than 64 bits)
    let (mut v, mut wide) = (0u64, false);
    for c in digits.chars() {
        let d = u64::from(c.to_digit(radix).ok_or_else(not_a_number)?);
        if v >> 63 != 0 {
            return Err(format!(
                "'{word}' is too long: ptxas refuses a literal once a digit follows a value of \
                 2^63 or more (\"Constant overflow\"); a shorter one wider than 64 bits keeps \
                 its low 64 bits"
            ));
        }
        let exact = v
            .checked_mul(u64::from(radix))
            .and_then(|x| x.checked_add(d));
        wide |= exact.is_none();
        v = v.wrapping_mul(u64::from(radix)).wrapping_add(d);
    }
    Ok((v, suffix_u || wide || v > i64::MAX as u64))
}

/// Whether an operand starting at byte `at` of `text` is a constant expression with an
/// operator or a parenthesis (not a plain literal, which each parser reads as before): it
/// starts with `(`, `~`, or `!`/`-`/`+` before one of those or a digit, or it is a literal
/// followed by a binary operator.
pub fn starts_expression(text: &str, at: usize) -> bool {
    let rest = text[at..].trim_start();
    let mut chars = rest.chars();
    match chars.next() {
        Some('(' | '~') => true,
        Some('!' | '-' | '+') => {
            let after = chars.as_str().trim_start();
            let next = after.chars().next();
            match next {
                Some('(' | '~' | '!') => true,
                Some(c) if c.is_ascii_digit() => {
                    // `-5` alone is a literal; `-5 + 1` and `!1` are expressions.
                    rest.starts_with('!') || rest.starts_with('+') || binary_follows(after)
                }
                _ => false,
            }
        }
        Some(c) if c.is_ascii_digit() => binary_follows(rest),
        _ => false,
    }
}

/// Whether a literal at the start of `s` is followed by a binary operator (or `?`).
fn binary_follows(s: &str) -> bool {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    let after = s[end..].trim_start();
    // `1e-5`, `1E+5`: digits and an exponent's sign, a decimal float, not `1e` minus 5.
    let word = &s[..end];
    let mantissa = word.strip_suffix(['e', 'E']).unwrap_or("");
    if !mantissa.is_empty()
        && mantissa.bytes().all(|c| c.is_ascii_digit())
        && s[end..].starts_with(['+', '-'])
    {
        return false;
    }
    after.starts_with(['+', '-', '*', '/', '&', '|', '^', '<', '>', '?', '%'])
        || after.starts_with("==")
        || after.starts_with("!=")
}

/// Evaluate a whole text as one constant expression (for tests and tools); the value as a
/// signed 64-bit integer (its bits are the 64-bit result).
pub fn eval(text: &str) -> Result<i64, Diagnostic> {
    let (v, end) = parse(text, 0)?;
    if text[end..].trim().is_empty() {
        Ok(v)
    } else {
        Err(Diagnostic::new(
            end..text.len(),
            format!("unexpected '{}' after the expression", text[end..].trim()),
        ))
    }
}

/// Read one constant expression from byte `at` of `text`, up to what cannot continue it (`,`,
/// `;`, `}` or the end). Gives the value's 64 bits as an `i64` and the byte after the
/// expression's last character.
pub fn parse(text: &str, at: usize) -> Result<(i64, usize), Diagnostic> {
    let mut p = Expr {
        s: text,
        i: at,
        depth: 0,
    };
    let v = p.ternary()?;
    let end = at + text[at..p.i].trim_end().len();
    Ok((v.bits as i64, end))
}

struct Expr<'a> {
    s: &'a str,
    i: usize,
    /// Parentheses and unary operators open at the cursor: the reader recurses on each, so it
    /// stops at [`MAX_DEPTH`] with a message instead of running out of stack.
    depth: u32,
}

/// How deeply parentheses and unary operators may nest.
const MAX_DEPTH: u32 = 64;

/// Binary operators by precedence, lowest first (C's order; `?:` is handled above them).
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<=", ">=", "<", ">"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Expr<'_> {
    fn ws(&mut self) {
        while let Some(c) = self.s[self.i..]
            .chars()
            .next()
            .filter(|c| c.is_whitespace())
        {
            self.i += c.len_utf8();
        }
    }
    fn rest(&self) -> &str {
        &self.s[self.i..]
    }
    fn here(&self) -> Span {
        let len = self.rest().chars().next().map_or(0, char::len_utf8);
        self.i..self.i + len
    }

    fn ternary(&mut self) -> Result<V, Diagnostic> {
        let c = self.binary(0)?;
        self.ws();
        if !self.rest().starts_with('?') {
            return Ok(c);
        }
        self.i += 1;
        let t = self.nested(Self::ternary)?;
        self.ws();
        if !self.rest().starts_with(':') {
            return Err(Diagnostic::new(
                self.here(),
                "expected ':' in a conditional expression (c ? x : y)",
            ));
        }
        self.i += 1;
        let f = self.nested(Self::ternary)?;
        let unsigned = t.unsigned || f.unsigned;
        let bits = if c.bits != 0 { t.bits } else { f.bits };
        Ok(V { bits, unsigned })
    }

    /// The operator of `level` at the cursor, if any (not the first character of a longer
    /// operator of another level: `<` of `<<`, `&` of `&&`, `|` of `||`).
    fn op_at(&self, level: usize) -> Option<&'static str> {
        let r = self.rest();
        LEVELS[level].iter().copied().find(|op| {
            r.starts_with(op)
                && !matches!(
                    (*op, r[op.len()..].chars().next()),
                    ("<", Some('<' | '='))
                        | (">", Some('>' | '='))
                        | ("&", Some('&'))
                        | ("|", Some('|'))
                )
        })
    }

    fn binary(&mut self, level: usize) -> Result<V, Diagnostic> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut l = self.binary(level + 1)?;
        loop {
            self.ws();
            let Some(op) = self.op_at(level) else {
                return Ok(l);
            };
            let at = self.i..self.i + op.len();
            if op == "%" {
                return Err(Diagnostic::new(
                    at,
                    "'%' is not an operator here: ptxas reads '%' as the start of a register \
                     name, so a constant expression cannot take a remainder",
                ));
            }
            self.i += op.len();
            let r = self.binary(level + 1)?;
            l = apply(op, l, r, at)?;
        }
    }

    /// `f` one level deeper: parentheses, unary operators and `?:` arms recurse.
    fn nested(&mut self, f: fn(&mut Self) -> Result<V, Diagnostic>) -> Result<V, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::new(
                self.here(),
                format!("the constant expression nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        let v = f(self);
        self.depth -= 1;
        v
    }

    fn unary(&mut self) -> Result<V, Diagnostic> {
        self.ws();
        self.nested(Self::unary_inner)
    }

    fn unary_inner(&mut self) -> Result<V, Diagnostic> {
        let r = self.rest();
        if let Some(c @ ('-' | '+' | '~' | '!')) = r.chars().next() {
            self.i += 1;
            let v = self.unary()?;
            return Ok(match c {
                '-' => V {
                    bits: v.bits.wrapping_neg(),
                    ..v
                },
                '~' => V { bits: !v.bits, ..v },
                '!' => V::bool(v.bits == 0),
                _ => v,
            });
        }
        if r.starts_with('(') {
            let open = self.i;
            self.i += 1;
            let v = self.ternary()?;
            self.ws();
            if !self.rest().starts_with(')') {
                return Err(Diagnostic::new(
                    open..open + 1,
                    "this '(' is not closed in the constant expression",
                ));
            }
            self.i += 1;
            return Ok(v);
        }
        let start = self.i;
        let end = start
            + r.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(r.len());
        let word = &self.s[start..end];
        if word.is_empty() {
            return Err(Diagnostic::new(
                self.here(),
                "expected a number, '(' or one of - ~ ! in the constant expression",
            ));
        }
        match literal(word) {
            Ok((bits, unsigned)) => {
                self.i = end;
                Ok(V { bits, unsigned })
            }
            Err(m) if word.starts_with(|c: char| c.is_ascii_digit()) => {
                Err(Diagnostic::new(start..end, m))
            }
            Err(_) => Err(Diagnostic::new(
                start..end,
                format!(
                    "'{word}' is not a constant: a constant expression takes numbers, not \
                     registers"
                ),
            )),
        }
    }
}

fn apply(op: &str, l: V, r: V, at: Span) -> Result<V, Diagnostic> {
    let unsigned = l.unsigned || r.unsigned;
    let (a, b) = (l.bits, r.bits);
    let (sa, sb) = (a as i64, b as i64);
    let both = |bits| V { bits, unsigned };
    Ok(match op {
        "+" => both(a.wrapping_add(b)),
        "-" => both(a.wrapping_sub(b)),
        "*" => both(a.wrapping_mul(b)),
        "/" if b == 0 => {
            return Err(Diagnostic::new(
                at,
                "division by zero in a constant expression",
            ))
        }
        "/" if unsigned => both(a / b),
        "/" => both(sa.wrapping_div(sb) as u64),
        "&" => both(a & b),
        "|" => both(a | b),
        "^" => both(a ^ b),
        // A shift takes the left operand's type; an amount of 64 or more shifts every bit out.
        "<<" => V {
            bits: if b >= 64 { 0 } else { a << b },
            ..l
        },
        ">>" if l.unsigned => V {
            bits: if b >= 64 { 0 } else { a >> b },
            ..l
        },
        ">>" => V {
            bits: (sa >> b.min(63)) as u64,
            ..l
        },
        "==" => V::bool(a == b),
        "!=" => V::bool(a != b),
        "<" | "<=" | ">" | ">=" => {
            let ord = if unsigned { a.cmp(&b) } else { sa.cmp(&sb) };
            V::bool(match op {
                "<" => ord.is_lt(),
                "<=" => ord.is_le(),
                ">" => ord.is_gt(),
                _ => ord.is_ge(),
            })
        }
        "&&" => V::bool(a != 0 && b != 0),
        "||" => V::bool(a != 0 || b != 0),
        _ => unreachable!("every operator of LEVELS is applied"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text of expression characters reads to a value or a message, alone and as an
        /// operand of both kinds of instruction; nothing panics.
        #[test]
        fn never_panics(s in "[0-9a-fxUb()+*/%&|^<>=!?:~ -]{0,48}") {
            let _ = eval(&s);
            let _ = crate::check(&format!("add.u32 d, a, {s};"));
            let _ = crate::insn::check(&format!("mov.u32 d, {s};"));
            let _ = crate::insn::check(&format!("prmt.b32 d, a, b, {s};"));
        }
    }

    #[test]
    fn precedence_and_types_as_c() {
        assert_eq!(eval("2 + 3 * 4").unwrap(), 14);
        assert_eq!(eval("(2 + 3) * 4").unwrap(), 20);
        assert_eq!(eval("1 << 2 + 1").unwrap(), 8);
        assert_eq!(eval("6 & 3 == 3").unwrap(), 0); // == binds tighter than &
        assert_eq!(eval("1 | 2 ^ 3 & 4").unwrap(), 3);
        assert_eq!(eval("0 ? 1 : 2 ? 3 : 4").unwrap(), 3);
        assert_eq!(eval("-1U >> 63").unwrap(), 1);
        assert_eq!(eval("-1 >> 63").unwrap(), -1);
        assert_eq!(eval("-1 < 0").unwrap(), 1);
        assert_eq!(eval("-1 < 0U").unwrap(), 0); // unsigned comparison
        assert_eq!(eval("!!5").unwrap(), 1);
        assert_eq!(eval("~0").unwrap(), -1);
        assert_eq!(
            eval("0x8000000000000000 / 2").unwrap(),
            0x4000_0000_0000_0000
        );
        assert_eq!(
            eval("-9223372036854775807 - 1 / -1").unwrap(),
            -9223372036854775806
        );
        assert_eq!(eval("1 << 64").unwrap(), 0);
    }

    #[test]
    fn literals() {
        assert_eq!(literal("0x10000000000000000"), Ok((0, true)));
        assert_eq!(literal("0x1ffffffffffffffff"), Ok((u64::MAX, true)));
        assert_eq!(literal("0x7ffffffffffffffff"), Ok((u64::MAX, true)));
        assert!(literal("0x80000000000000000")
            .unwrap_err()
            .contains("too long"));
        assert!(literal("0xfffffffffffffffff")
            .unwrap_err()
            .contains("too long"));
        assert_eq!(literal("18446744073709551615"), Ok((u64::MAX, true)));
        assert_eq!(literal("18446744073709551616"), Ok((0, true)));
        assert_eq!(
            literal("92233720368547758070"),
            Ok((0xffff_ffff_ffff_fff6, true))
        );
        assert!(literal("92233720368547758080").is_err());
        assert_eq!(literal("052"), Ok((42, false)));
        assert_eq!(literal("0b101U"), Ok((5, true)));
        assert!(literal("0x").unwrap_err().contains("not a number"));
        assert!(literal("5u").is_err()); // ptxas takes only an upper-case U
        assert!(literal("09").is_err());
    }

    #[test]
    fn messages_point_at_the_fault() {
        let e = eval("(1 + 2").unwrap_err();
        assert!(e.message.contains("not closed"), "{}", e.message);
        assert_eq!(e.span, 0..1);
        let e = eval("1 + a").unwrap_err();
        assert!(e.message.contains("not a constant"), "{}", e.message);
        assert_eq!(e.span, 4..5);
        let e = eval("99 % 10").unwrap_err();
        assert!(e.message.contains("register"), "{}", e.message);
        let e = eval("1 ? 2").unwrap_err();
        assert!(e.message.contains("':'"), "{}", e.message);
        let e = eval("4 / (2 - 2)").unwrap_err();
        assert!(e.message.contains("division by zero"), "{}", e.message);
        assert_eq!(e.span, 2..3);
        assert!(eval("1 +").is_err());
        // Deep nesting is refused with a message, not a stack overflow.
        let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(eval(&deep).unwrap_err().message.contains("deeper"));
        let deep = format!("{}1", "-~".repeat(100_000));
        assert!(eval(&deep).unwrap_err().message.contains("deeper"));
        assert_eq!(
            eval(&format!("{}1{}", "(".repeat(60), ")".repeat(60))).unwrap(),
            1
        );
        let deep = format!("{}1", "1 ? 1 : ".repeat(100_000));
        assert!(eval(&deep).unwrap_err().message.contains("deeper"));
        assert!(eval("").is_err());
    }

    #[test]
    fn where_an_expression_starts() {
        for s in [
            "1 + 2",
            "(3)",
            "~7",
            "!1",
            "-1 >> 1",
            "- (2)",
            "5 - 10",
            "1 ? 2 : 3",
            "3 == 1",
        ] {
            assert!(starts_expression(s, 0), "{s}");
        }
        for s in [
            "5",
            "-5",
            "0x7f",
            "a + 1",
            "-a",
            "!p",
            "5, 6",
            "0f3f800000",
            "5.b0",
        ] {
            assert!(!starts_expression(s, 0), "{s}");
        }
    }
}
