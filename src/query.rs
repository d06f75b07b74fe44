//! The address query that holds the playground's state: percent-encoding, and a defensive
//! reader that turns any query, however hostile, into known parts plus plain-text notes.
//!
//! Whatever arrives is only ever read as text: values are checked against length caps before
//! they are decoded, decoding is strict (a malformed escape or bytes that are not UTF-8 reject
//! the whole address), and every note quotes at most a short, cleaned excerpt of the input.

use ptxlab_core::ast::SOURCE_NAMES;

use crate::num::{self, View};

/// The longest query read at all; anything longer is refused before it is decoded.
pub const MAX_QUERY: usize = 16384;
/// The longest instruction text taken from the address.
pub const MAX_INSTRUCTION: usize = 200;
/// The longest operand value taken from the address.
pub const MAX_VALUE: usize = 80;
/// The longest program text taken from the address (about 40 lines with comments).
pub const MAX_PROGRAM: usize = 4000;
/// The longest list of starting registers taken from the address.
pub const MAX_REGS: usize = 2000;
/// Keys the address may carry: the instruction, the four sources, view options, the sweep
/// view's settings (read by the sweep panel, see `sweep_model::Spec`), a program
/// with its starting registers, its memory's starting bytes (`mem`) and the step reached (read
/// by the Program view), and `fn`, a
/// CUDA intrinsic (the Intrinsic view, whose arguments are `a`, `b`, `c`), and `present`,
/// the figure alone full screen; predict mode (`predict`, with the student's `guess`, `check`,
/// `hints` shown and `answer`); `lesson`, a lesson by name; `set`, an exercise set, with the
/// student's `answers`.
pub const KEYS: [&str; 19] = [
    "i", "a", "b", "c", "e", "embed", "present", "sweep", "prog", "regs", "mem", "step", "fn",
    "predict", "guess", "check", "hints", "answer", "lesson",
];
/// The longest lesson name taken from the address.
pub const MAX_LESSON: usize = 40;
/// The longest sweep setting taken from the address.
pub const MAX_SWEEP: usize = 300;
/// The longest intrinsic name taken from the address.
pub const MAX_FUNCTION: usize = 40;

/// Characters kept as they are: readable in an address and safe in a query value.
fn keep(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-_.~,;:@!/".contains(&b)
}

/// Encode a query value: spaces become `+`, other unsafe bytes `%XX`.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if keep(b) {
            out.push(b as char);
        } else if b == b' ' {
            out.push('+');
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Why a query value could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// A `%` not followed by two hex digits; holds the excerpt from the `%`.
    BadEscape(String),
    /// The escapes spell bytes that are not UTF-8 text.
    NotUtf8,
}

/// Decode a query value strictly: `+` is a space, `%XX` a byte; anything else is an error.
pub fn decode(s: &str) -> Result<String, DecodeError> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => {
                        let end = (i + 3).min(bytes.len());
                        let excerpt = String::from_utf8_lossy(&bytes[i..end]).into_owned();
                        return Err(DecodeError::BadEscape(excerpt));
                    }
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| DecodeError::NotUtf8)
}

/// A short, printable excerpt of untrusted text for a message: at most `max` characters,
/// control characters replaced. It is still only ever rendered as text.
pub fn excerpt(s: &str, max: usize) -> String {
    let mut out: String = s
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// What an address asks for. Parts that are absent or unreadable are `None` (the default),
/// and each problem found is explained in `notes`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub text: Option<String>,
    /// The intrinsic named by `fn`, not yet looked up.
    pub function: Option<String>,
    pub values: [Option<u64>; 4],
    pub embed: bool,
    /// Present mode (`present=1`): the figure alone, full screen.
    pub present: bool,
    /// The sweep view's settings as written (checked by the sweep panel when it opens).
    pub sweep: Option<String>,
    pub notes: Vec<String>,
    /// A program (`prog`): the page opens in the Program view.
    pub program: Option<String>,
    /// Its starting registers (`regs`), `NAME=VALUE` items separated by commas.
    pub regs: Option<String>,
    /// Its memory's starting bytes (`mem`), `[SPACE:]ADDR=HEXBYTES` items separated by commas.
    pub mem: Option<String>,
    /// Steps taken (`step`).
    pub step: Option<usize>,
    /// Predict mode (`predict=1`).
    pub predict: bool,
    /// The student's value for `d` (`guess`), as typed.
    pub guess: Option<String>,
    /// Whether the guess was checked (`check=1`).
    pub checked: bool,
    /// Hints shown (`hints`).
    pub hints: usize,
    /// Whether the answer is shown (`answer=1`).
    pub answer: bool,
    /// A lesson by name (`lesson`), not yet looked up.
    pub lesson: Option<String>,
    /// An exercise set (`set`), not yet read.
    pub set: Option<String>,
    /// The student's answers to the set (`answers`), not yet read.
    pub answers: Option<String>,
}

const DEFAULT_VIEW: &str = "Showing the default instruction instead.";

/// Read an address query (with or without its leading `?`). Never panics; never keeps more
/// than the caps allow. A query that is too long or does not decode is ignored as a whole.
pub fn read(query: &str) -> Request {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut r = Request::default();
    if query.len() > MAX_QUERY {
        r.notes.push(format!(
            "This address is too long to read ({} characters; at most {MAX_QUERY} are read). {DEFAULT_VIEW}",
            query.len()
        ));
        return r;
    }
    let mut unknown = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = match (decode(k), decode(v)) {
            (Ok(k), Ok(v)) => (k, v),
            (Err(e), _) | (_, Err(e)) => {
                let why = match e {
                    DecodeError::BadEscape(s) => {
                        format!("“{}” is not a valid percent escape", excerpt(&s, 8))
                    }
                    DecodeError::NotUtf8 => "its escapes do not spell UTF-8 text".to_string(),
                };
                return Request {
                    notes: vec![format!(
                        "This address could not be read: {why}. {DEFAULT_VIEW}"
                    )],
                    ..Request::default()
                };
            }
        };
        match k.as_str() {
            "i" => {
                let n = v.chars().count();
                if n > MAX_INSTRUCTION {
                    r.notes.push(format!(
                        "The instruction in this address is too long ({n} characters; at most {MAX_INSTRUCTION}). {DEFAULT_VIEW}"
                    ));
                    r.text = None;
                } else if v.chars().any(char::is_control) {
                    r.notes.push(format!(
                        "The instruction in this address contains control characters. {DEFAULT_VIEW}"
                    ));
                    r.text = None;
                } else {
                    r.text = Some(v);
                }
            }
            "prog" | "regs" | "mem" => {
                let (max, what) = match k.as_ref() {
                    "prog" => (MAX_PROGRAM, "program"),
                    "regs" => (MAX_REGS, "list of starting registers"),
                    _ => (MAX_PROGRAM, "memory"),
                };
                let n = v.chars().count();
                if n > max {
                    r.notes.push(format!(
                        "The {what} in this address is too long ({n} characters; at most {max}); it is not read."
                    ));
                } else if v
                    .chars()
                    .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
                {
                    r.notes.push(format!(
                        "The {what} in this address contains control characters; it is not read."
                    ));
                } else if k == "prog" {
                    r.program = Some(v);
                } else if k == "regs" {
                    r.regs = Some(v);
                } else {
                    r.mem = Some(v);
                }
            }
            "guess" => {
                if v.chars().count() > MAX_VALUE || v.chars().any(char::is_control) {
                    r.notes.push(format!(
                        "Ignored the guess in this address: at most {MAX_VALUE} plain characters are read."
                    ));
                } else {
                    r.guess = Some(v);
                }
            }
            "lesson" => {
                if v.len() > MAX_LESSON
                    || !v
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    r.notes.push(format!(
                        "Ignored lesson=“{}”: a lesson name is at most {MAX_LESSON} letters, digits and dashes.",
                        excerpt(&v, 24)
                    ));
                } else {
                    r.lesson = Some(v);
                }
            }
            "set" | "answers" => {
                if v.chars().any(|c| c.is_control() && c != '\n') {
                    r.notes.push(format!(
                        "Ignored the {k} in this address: it holds control characters."
                    ));
                } else if k == "set" {
                    r.set = Some(v);
                } else {
                    r.answers = Some(v);
                }
            }
            "hints" => match v.parse::<usize>() {
                Ok(n) if v.len() <= 3 => r.hints = n,
                _ => r.notes.push(format!(
                    "Ignored hints=“{}”: it takes a number of hints.",
                    excerpt(&v, 16)
                )),
            },
            "step" => match v.parse::<usize>() {
                Ok(n) if v.len() <= 6 => r.step = Some(n),
                _ => r.notes.push(format!(
                    "Ignored step=“{}”: it takes a number of steps.",
                    excerpt(&v, 16)
                )),
            },
            "sweep" => {
                if v.len() > MAX_SWEEP || v.chars().any(char::is_control) {
                    r.notes.push(format!(
                        "Ignored the sweep settings in this address: at most {MAX_SWEEP} plain characters are read."
                    ));
                } else {
                    r.sweep = Some(v);
                }
            }
            "fn" => {
                let n = v.chars().count();
                if n > MAX_FUNCTION || v.chars().any(|c| c.is_control()) {
                    r.notes.push(format!(
                        "The intrinsic name in this address is too long or holds control characters (at most {MAX_FUNCTION} characters); showing the default intrinsic."
                    ));
                } else {
                    r.function = Some(v);
                }
            }
            "embed" | "present" | "predict" | "check" | "answer" => {
                let on = match v.as_str() {
                    "1" | "true" => Some(true),
                    "0" | "false" | "" => Some(false),
                    other => {
                        r.notes.push(format!(
                            "Ignored {k}=“{}”: it takes 1 or 0.",
                            excerpt(other, 16)
                        ));
                        None
                    }
                };
                if let Some(on) = on {
                    match k.as_str() {
                        "embed" => r.embed = on,
                        "present" => r.present = on,
                        "predict" => r.predict = on,
                        "check" => r.checked = on,
                        _ => r.answer = on,
                    }
                }
            }
            _ => match SOURCE_NAMES.iter().position(|n| *n == k) {
                Some(i) if i < 4 => {
                    let parsed = if v.len() > MAX_VALUE {
                        None
                    } else {
                        num::parse(&v, 64, View::Hex).ok()
                    };
                    match parsed {
                        Some(x) => r.values[i] = Some(x),
                        None => r.notes.push(format!(
                            "The value given for {k}, “{}”, is not a hexadecimal number; {k} keeps its default.",
                            excerpt(&v, 24)
                        )),
                    }
                }
                _ => unknown.push(k),
            },
        }
    }
    if !unknown.is_empty() {
        let shown: Vec<String> = unknown
            .iter()
            .take(3)
            .map(|k| format!("“{}”", excerpt(k, 24)))
            .collect();
        let more = match unknown.len() {
            0..=3 => String::new(),
            n => format!(" and {} more", n - 3),
        };
        let s = if unknown.len() == 1 { "" } else { "s" };
        r.notes.push(format!(
            "Ignored unknown address parameter{s} {}{more}; ptxlab reads {}.",
            shown.join(", "),
            KEYS.join(", ")
        ));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for s in ["vadd.s32 d, a.b0, b;", "%r1 + 100%", "é🦀&=?#", ""] {
            assert_eq!(decode(&encode(s)).unwrap(), s);
        }
        assert_eq!(encode("a b%"), "a+b%25");
        assert_eq!(decode("%41+%42").unwrap(), "A B");
        assert_eq!(decode("%zz"), Err(DecodeError::BadEscape("%zz".into())));
        assert_eq!(decode("%4"), Err(DecodeError::BadEscape("%4".into())));
        assert_eq!(decode("%+1"), Err(DecodeError::BadEscape("%+1".into())));
        assert_eq!(decode("%C3%28"), Err(DecodeError::NotUtf8));
        assert_eq!(decode("%FF"), Err(DecodeError::NotUtf8));
        assert_eq!(decode("%E0%A4%A"), Err(DecodeError::BadEscape("%A".into())));
    }

    #[test]
    fn reads_the_parts() {
        let r = read("?i=add.s32+d,+a,+b;&a=0x10&b=ff&embed=1");
        assert_eq!(r.text.as_deref(), Some("add.s32 d, a, b;"));
        assert_eq!(r.values, [Some(16), Some(255), None, None]);
        assert!(r.embed);
        assert!(r.notes.is_empty());
        assert!(read("?present=1").present);
        assert!(!read("?present=0").present);
        assert_eq!(read("?present=x").notes.len(), 1);
        let r = read("?prog=add.u32+%25r,+%25a,+%25b;%0A&regs=%25a%3D0x1,%25b%3D2&step=1");
        assert_eq!(r.program.as_deref(), Some("add.u32 %r, %a, %b;\n"));
        assert_eq!(r.regs.as_deref(), Some("%a=0x1,%b=2"));
        assert_eq!(r.step, Some(1));
        assert!(r.notes.is_empty());
        let r = read(&format!(
            "?prog={}&regs=%07&step=x",
            "n".repeat(MAX_PROGRAM + 1)
        ));
        assert_eq!((r.program, r.regs, r.step), (None, None, None));
        assert_eq!(r.notes.len(), 3, "{:?}", r.notes);
        assert_eq!(read(""), Request::default());
        assert_eq!(read("?"), Request::default());
    }

    #[test]
    fn reads_predict_mode_and_lessons() {
        let r = read("?predict=1&guess=0x1ff&check=1&hints=2&answer=0&lesson=saturation");
        assert!(r.predict && r.checked && !r.answer);
        assert_eq!(r.guess.as_deref(), Some("0x1ff"));
        assert_eq!(r.hints, 2);
        assert_eq!(r.lesson.as_deref(), Some("saturation"));
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        let r = read("?hints=99999&lesson=../x&guess=%07&predict=maybe");
        assert_eq!(
            (r.hints, r.lesson, r.guess, r.predict),
            (0, None, None, false)
        );
        assert_eq!(r.notes.len(), 4, "{:?}", r.notes);
    }

    #[test]
    fn hostile_queries_give_notes_and_defaults() {
        let big = format!("?i={}", "x".repeat(1 << 20));
        for q in [
            &big[..],
            "?i=%ZZ",
            "?i=%E0%A4%A",
            "?a=%C3%28",
            "?b=%FF",
            "?%ZZ=1",
        ] {
            let r = read(q);
            assert_eq!(r.text, None, "{q:.40}");
            assert_eq!(r.values, [None; 4]);
            assert_eq!(r.notes.len(), 1, "{q:.40}");
            assert!(r.notes[0].contains("default"), "{}", r.notes[0]);
            assert!(r.notes[0].len() < 200);
        }
        let r = read("?i=<script>alert(1)</script>&a=<img+src=x+onerror=alert(1)>");
        assert_eq!(r.text.as_deref(), Some("<script>alert(1)</script>"));
        assert_eq!(r.values[0], None);
        assert_eq!(r.notes.len(), 1);
        assert!(r.notes[0].contains("“<img src=x onerror=alert…”"));
        let r = read(&format!("?i={}", "v".repeat(MAX_INSTRUCTION + 1)));
        assert_eq!(r.text, None);
        let r = read("?i=vadd%0A&x=1&y=2&<b>=3&z&w=");
        assert_eq!(r.text, None);
        assert_eq!(r.notes.len(), 2);
        assert!(
            r.notes[1].contains("“x”, “y”, “<b>” and 2 more"),
            "{}",
            r.notes[1]
        );
        let r = read(&format!("?fn={}", "v".repeat(MAX_FUNCTION + 1)));
        assert_eq!(r.function, None);
        assert_eq!(r.notes.len(), 1);
        assert_eq!(read("?fn=__dp4a").function.as_deref(), Some("__dp4a"));
        let r = read(&format!("?a={}", "1".repeat(MAX_VALUE + 1)));
        assert_eq!(r.values[0], None);
        assert_eq!(r.notes.len(), 1);
        assert_eq!(excerpt("ab\u{0}c", 2), "ab…");
        assert_eq!(excerpt("a\u{7}", 9), "a\u{fffd}");
    }
}
