//! The character-level reading both text parsers share: [`crate::parse`] (the table
//! instructions) and [`crate::ops`] (the program instructions). Each keeps its own grammar and
//! messages; this is only the cursor over the text, so a rule such as what an identifier is
//! has one definition.

use crate::ast::Span;

/// The first character of a name: a register (`%r1`), an operand role (`a`) or a word.
pub(crate) fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '%' || c == '$'
}

/// A character after the first in a name.
pub(crate) fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// A cursor over `text()`, at byte `*pos()` (always on a character boundary).
pub(crate) trait Scan<'a> {
    fn text(&self) -> &'a str;
    fn pos(&self) -> usize;
    fn set_pos(&mut self, i: usize);

    /// What is left from the cursor on.
    fn rest(&self) -> &'a str {
        &self.text()[self.pos()..]
    }
    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    /// Steps over the next character and gives it.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.set_pos(self.pos() + c.len_utf8());
        Some(c)
    }
    /// Steps over white space.
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
        let start = self.pos();
        while self.peek().is_some_and(ident_char) {
            self.bump();
        }
        &self.text()[start..self.pos()]
    }
    /// The token from byte `start`, for messages: up to white space or one of `stops`, and at
    /// least one character where any is left.
    fn token_span(&self, start: usize, stops: &str) -> Span {
        let rest = &self.text()[start..];
        let len = rest
            .char_indices()
            .find(|&(_, c)| c.is_whitespace() || stops.contains(c))
            .map_or(rest.len(), |(k, _)| k);
        start..start + len.max(rest.chars().next().map_or(0, char::len_utf8))
    }
}
