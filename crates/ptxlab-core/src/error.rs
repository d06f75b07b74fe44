//! Messages about bad input: what is wrong, where, and what is allowed there.
//!
//! ```
//! use ptxlab_core::check;
//!
//! let text = "vadd.u32.u32 d, a, b;";
//! let err = check(text).unwrap_err();
//! assert_eq!(&text[err.span.clone()], "vadd.u32.u32");
//! assert_eq!(err.allowed, [".u32", ".s32"]);
//! // The message, the text, and a caret line under the offending token.
//! let shown = err.render(text);
//! assert_eq!(shown.lines().nth(2), Some("^^^^^^^^^^^^"));
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::ast::Span;

/// A problem with instruction text, pointing at the offending token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Byte range of the offending token in the text that was parsed.
    pub span: Span,
    /// What is wrong, naming the token.
    pub message: String,
    /// What would be accepted at that place, when there is a short list.
    pub allowed: Vec<String>,
}

impl Diagnostic {
    /// A message about the text at `span`, with no list of allowed values.
    pub fn new(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span,
            message: message.into(),
            allowed: Vec::new(),
        }
    }
    /// With the values that would be accepted at that place.
    pub fn allowed<I, S>(mut self, items: I) -> Diagnostic
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.allowed = items.into_iter().map(Into::into).collect();
        self
    }
    /// The message with a caret line under the offending token of `text`.
    pub fn render(&self, text: &str) -> String {
        let start = self.span.start.min(text.len());
        let end = self.span.end.clamp(start, text.len());
        let col = text[..start].chars().count();
        let width = text[start..end].chars().count().max(1);
        format!(
            "{}\n{}\n{}{}",
            self,
            text,
            " ".repeat(col),
            "^".repeat(width)
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.allowed.is_empty() {
            write!(f, " (allowed: {})", self.allowed.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}
