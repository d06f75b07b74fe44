//! Lessons: short markdown files in `crates/ptxlab-core/lessons/` (in the package) (compiled in, so they work offline), read into
//! blocks the playground draws. A fenced block marked `ptxlab` is a prepared case, shown as a
//! live widget:
//!
//! ````text
//! ```ptxlab
//! vadd.u32.u32.u32.sat d, a, b;
//! a = 0xffffffff
//! b = 0x1
//! d = 0x0
//! ```
//! ````
//!
//! The first line is the instruction, then source values (`a`, `b`, `c`, `e`, in hex), and an
//! optional `d = ` line: the value the lesson states. A lesson states values only there, so the
//! test that evaluates every case with the core (`tests/lessons.rs`) checks every value a lesson
//! shows.
//!
//! Other markdown read: `#`/`##` headings, paragraphs, `-` lists; inline `` `code` ``,
//! `**bold**` and `[links](url)` are left in the text for the page to draw.

use crate::eval::Inputs;
use crate::insn;
use crate::value::parse_value;

/// A prepared case: an instruction and its source values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The instruction as written.
    pub text: String,
    /// Values of `a`, `b`, `c`, `e` (missing: 0), and whether each was given.
    pub values: [Option<u64>; 4],
    /// The `d` the lesson states, if it states one.
    pub stated: Option<u64>,
}

impl Case {
    /// The core's `d` for this case, or why it does not evaluate.
    pub fn d(&self) -> Result<u64, String> {
        let i = insn::check(&self.text).map_err(|d| d.message.clone())?;
        let [a, b, c, e] = self.values.map(|v| v.unwrap_or(0));
        Ok(i.trace(&Inputs::new(a, b, c, e)).result.raw() as u64)
    }
}

/// One block of a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A heading of level 2 or 3 (the lesson's `#` title is [`Lesson::title`]).
    Heading(String),
    /// A paragraph of inline text.
    Para(String),
    /// A list of inline texts.
    List(Vec<String>),
    /// A prepared case, drawn as a live widget.
    Case(Case),
}

/// A lesson: its name (the address's `lesson=`), title and blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// The name in the address.
    pub name: &'static str,
    /// The `#` title.
    pub title: String,
    /// Everything after the title.
    pub blocks: Vec<Block>,
}

impl Lesson {
    /// Its cases, in order.
    pub fn cases(&self) -> impl Iterator<Item = &Case> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Case(c) => Some(c),
            _ => None,
        })
    }
    /// The first paragraph, as the index's summary.
    pub fn summary(&self) -> &str {
        self.blocks
            .iter()
            .find_map(|b| match b {
                Block::Para(p) => Some(p.as_str()),
                _ => None,
            })
            .unwrap_or("")
    }
}

/// The lessons' names, in course order: each is the file `lessons/NAME.md`.
pub const NAMES: [&str; 9] = [
    "selectors",
    "saturation",
    "secondary",
    "simd",
    "vmad",
    "hardware",
    "wide",
    "fields",
    "intrinsics",
];

/// The lessons' sources, in course order: name and markdown (with the `embed` feature; without
/// it, [`install`] them first).
#[cfg(feature = "embed")]
pub const SOURCES: &[(&str, &str)] = &[
    ("selectors", include_str!("../lessons/selectors.md")),
    ("saturation", include_str!("../lessons/saturation.md")),
    ("secondary", include_str!("../lessons/secondary.md")),
    ("simd", include_str!("../lessons/simd.md")),
    ("vmad", include_str!("../lessons/vmad.md")),
    ("hardware", include_str!("../lessons/hardware.md")),
    ("wide", include_str!("../lessons/wide.md")),
    ("fields", include_str!("../lessons/fields.md")),
    ("intrinsics", include_str!("../lessons/intrinsics.md")),
];

static INSTALLED: std::sync::OnceLock<Vec<(&'static str, &'static str)>> =
    std::sync::OnceLock::new();

/// Take the lessons' sources (name and markdown, in course order) fetched from elsewhere; the
/// first set that reads stays (a later call only checks its text). An error names the first lesson that does not read, or a name
/// that is not one of [`NAMES`]; nothing is kept then.
pub fn install(sources: &[(String, String)]) -> Result<(), String> {
    let mut v = Vec::new();
    for (n, md) in sources {
        let name = NAMES
            .iter()
            .find(|x| **x == n)
            .ok_or_else(|| format!("no lesson is called “{n}”"))?;
        parse(name, md).map_err(|e| format!("lesson {n}: {e}"))?;
        v.push((*name, &*Box::leak(md.clone().into_boxed_str())));
    }
    let _ = INSTALLED.set(v);
    Ok(())
}

/// The sources in use: those [`install`]ed, else the embedded ones, else none.
fn sources() -> &'static [(&'static str, &'static str)] {
    if let Some(v) = INSTALLED.get() {
        return v;
    }
    #[cfg(feature = "embed")]
    return SOURCES;
    #[cfg(not(feature = "embed"))]
    return &[];
}

/// Whether the lessons are there ([`install`]ed, or embedded).
pub fn installed() -> bool {
    !sources().is_empty()
}

/// Every lesson, read (a lesson that does not read is left out; the tests make sure none is).
pub fn all() -> Vec<Lesson> {
    sources()
        .iter()
        .filter_map(|(n, md)| parse(n, md).ok())
        .collect()
}

/// The lesson named `name`.
pub fn find(name: &str) -> Option<Lesson> {
    sources()
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(n, md)| parse(n, md).ok())
}

/// Read a case block's lines.
fn read_case(lines: &[&str]) -> Result<Case, String> {
    let mut it = lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty());
    let text = it.next().ok_or("an empty case block")?.to_string();
    let mut values = [None; 4];
    let mut stated = None;
    for l in it {
        let (k, v) = l
            .split_once('=')
            .ok_or_else(|| format!("“{l}” is not NAME = VALUE"))?;
        let x = parse_value(v.trim(), 64, None).map_err(|e| format!("{}: {e}", k.trim()))?;
        match k.trim() {
            "a" => values[0] = Some(x),
            "b" => values[1] = Some(x),
            "c" => values[2] = Some(x),
            "e" => values[3] = Some(x),
            "d" => stated = Some(x),
            other => return Err(format!("unknown name “{other}” in a case")),
        }
    }
    Ok(Case {
        text,
        values,
        stated,
    })
}

/// Read a lesson's markdown.
pub fn parse(name: &'static str, md: &str) -> Result<Lesson, String> {
    let mut title = None;
    let mut blocks = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let mut list: Vec<String> = Vec::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    let flush = |para: &mut Vec<&str>, list: &mut Vec<String>, blocks: &mut Vec<Block>| {
        if !para.is_empty() {
            blocks.push(Block::Para(para.join(" ")));
            para.clear();
        }
        if !list.is_empty() {
            blocks.push(Block::List(std::mem::take(list)));
        }
    };
    while i < lines.len() {
        let l = lines[i].trim_end();
        let t = l.trim_start();
        if let Some(rest) = t.strip_prefix("```") {
            flush(&mut para, &mut list, &mut blocks);
            let end = lines[i + 1..]
                .iter()
                .position(|x| x.trim_start().starts_with("```"))
                .ok_or_else(|| format!("{name}: a fenced block is not closed"))?;
            let body = &lines[i + 1..i + 1 + end];
            if rest.trim() == "ptxlab" {
                blocks.push(Block::Case(
                    read_case(body).map_err(|e| format!("{name}: {e}"))?,
                ));
            } else {
                blocks.push(Block::Para(body.join("\n")));
            }
            i += end + 2;
            continue;
        }
        if let Some(h) = t.strip_prefix("# ") {
            flush(&mut para, &mut list, &mut blocks);
            title = Some(h.trim().to_string());
        } else if let Some(h) = t.strip_prefix("## ").or_else(|| t.strip_prefix("### ")) {
            flush(&mut para, &mut list, &mut blocks);
            blocks.push(Block::Heading(h.trim().to_string()));
        } else if let Some(item) = t.strip_prefix("- ") {
            if !para.is_empty() {
                flush(&mut para, &mut Vec::new(), &mut blocks);
            }
            list.push(item.trim().to_string());
        } else if t.is_empty() {
            flush(&mut para, &mut list, &mut blocks);
        } else if !list.is_empty() && l.starts_with("  ") {
            if let Some(last) = list.last_mut() {
                last.push(' ');
                last.push_str(t);
            }
        } else {
            if !list.is_empty() {
                flush(&mut Vec::new(), &mut list, &mut blocks);
            }
            para.push(t);
        }
        i += 1;
    }
    flush(&mut para, &mut list, &mut blocks);
    Ok(Lesson {
        name,
        title: title.ok_or_else(|| format!("{name}: no # title"))?,
        blocks,
    })
}

/// A piece of inline text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    /// Plain text.
    Text(String),
    /// `` `code` ``.
    Code(String),
    /// `**bold**`.
    Bold(String),
    /// Text and address.
    Link(String, String),
}

/// Split inline text into plain text, `` `code` ``, `**bold**` and `[links](url)`.
pub fn inline(s: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let found = match c {
            '`' => rest[1..]
                .find('`')
                .map(|e| (Inline::Code(rest[1..1 + e].to_string()), e + 2)),
            '*' if rest.starts_with("**") => rest[2..]
                .find("**")
                .map(|e| (Inline::Bold(rest[2..2 + e].to_string()), e + 4)),
            '[' => rest.find("](").and_then(|m| {
                rest[m + 2..].find(')').map(|e| {
                    (
                        Inline::Link(rest[1..m].to_string(), rest[m + 2..m + 2 + e].to_string()),
                        m + 3 + e,
                    )
                })
            }),
            _ => None,
        };
        match found {
            Some((piece, len)) => {
                if !text.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut text)));
                }
                out.push(piece);
                rest = &rest[len..];
            }
            None => {
                text.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if !text.is_empty() {
        out.push(Inline::Text(text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_blocks_and_inline() {
        let l = parse(
            "x",
            "# T\n\nOne `a` and **b**\nwith [c](https://e.org).\n\n- i\n- j\n\n```ptxlab\nadd.u32 d, a, b;\na = 0x1\nb = 2\nd = 0x3\n```\n",
        )
        .unwrap();
        assert_eq!(l.title, "T");
        assert_eq!(l.blocks.len(), 3, "{:?}", l.blocks);
        let c = l.cases().next().unwrap();
        assert_eq!(c.d(), Ok(3));
        assert_eq!(c.stated, Some(3));
        assert_eq!(
            inline(l.summary()),
            vec![
                Inline::Text("One ".into()),
                Inline::Code("a".into()),
                Inline::Text(" and ".into()),
                Inline::Bold("b".into()),
                Inline::Text(" with ".into()),
                Inline::Link("c".into(), "https://e.org".into()),
                Inline::Text(".".into()),
            ]
        );
        assert!(parse("x", "no title").is_err());
        assert!(parse("x", "# T\n```ptxlab\nadd.u32 d, a, b;\nq = 1\n```").is_err());
        assert!(parse("x", "# T\n```ptxlab\n").is_err());
        assert_eq!(
            inline("`open and [x]("),
            vec![Inline::Text("`open and [x](".into())]
        );
    }
}
