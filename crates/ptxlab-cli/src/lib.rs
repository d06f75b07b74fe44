//! Reading and checking conformance files: measured H100 results and ptxas accept/reject
//! decisions. Shared by the `ptxlab` tool and the conformance tests.

/// Like `print!`, but a closed pipe (`ptxlab sass | head`) ends the process quietly, with
/// status 0, where `print!` would panic; see [`write_stdout`].
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => { $crate::write_stdout(format_args!($($t)*)) };
}

/// Like `println!`, with [`out!`]'s handling of a closed pipe.
#[macro_export]
macro_rules! outln {
    () => { $crate::write_stdout(format_args!("\n")) };
    ($($t:tt)*) => { $crate::write_stdout(format_args!("{}\n", format_args!($($t)*))) };
}

/// Write to standard output. When the reader has gone (a closed pipe), the output is no
/// longer wanted: exit at once with status 0 and say nothing. Any other write error is
/// reported on standard error with status 1.
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("ptxlab: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

pub mod atlas;
pub mod intrinsic;
pub mod vectors;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use ptxlab_core::{Diagnostic, Inputs, Instruction, Plan};
use serde::Deserialize;

pub mod run;

/// One measured case: an instruction, its source values and the destination the H100 wrote.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub ptx: String,
    pub a: Option<String>,
    pub b: Option<String>,
    pub c: Option<String>,
    pub e: Option<String>,
    pub d: String,
}

/// One ptxas decision.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    pub ptx: String,
    pub accepted: bool,
    #[serde(default)]
    pub ptxas: String,
}

/// A line that could not be read, with its 1-based number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Open a file that may be gzip-compressed (detected by its magic bytes).
pub fn open_maybe_gz(path: &Path) -> std::io::Result<Box<dyn BufRead>> {
    let mut f = File::open(path)?;
    let mut magic = [0u8; 2];
    let n = f.read(&mut magic)?;
    let f = File::open(path)?;
    if n == 2 && magic == [0x1f, 0x8b] {
        Ok(Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(
            f,
        ))))
    } else {
        Ok(Box::new(BufReader::new(f)))
    }
}

/// Read JSON lines of type `T`; blank lines are skipped, bad lines reported with their number.
pub fn read_jsonl<T: for<'de> Deserialize<'de>>(
    path: &Path,
) -> std::io::Result<Vec<(usize, Result<T, LineError>)>> {
    let r = open_maybe_gz(path)?;
    let mut out = Vec::new();
    for (i, line) in r.lines().enumerate() {
        let n = i + 1;
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                out.push((
                    n,
                    Err(LineError {
                        line: n,
                        message: format!("cannot read: {e}"),
                    }),
                ));
                break;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let parsed = serde_json::from_str::<T>(&line).map_err(|e| LineError {
            line: n,
            message: format!("malformed case: {e}"),
        });
        out.push((n, parsed));
    }
    Ok(out)
}

/// Parse a value as written on the command line or in a case: `0x..` hex, `0b..` binary,
/// decimal, or negative decimal/hex (two's complement), up to 64 bits. The core's one reader
/// of values ([`ptxlab_core::value::parse_value`]).
pub fn parse_value(s: &str) -> Result<u64, String> {
    ptxlab_core::value::parse_value(s, 64, None)
}

/// Result of checking one case.
#[derive(Debug)]
pub enum Outcome {
    Pass,
    /// We computed `got`, the hardware gave `want`.
    Mismatch {
        insn: Box<Instruction>,
        inputs: Inputs,
        got: u64,
        want: u64,
    },
    /// The case could not be evaluated (text rejected, bad value).
    Error(String),
}

impl Case {
    /// The source values of the case.
    pub fn inputs(&self) -> Result<Inputs, String> {
        let get = |v: &Option<String>| v.as_deref().map(parse_value).transpose();
        Ok(Inputs {
            a: get(&self.a)?.unwrap_or(0),
            b: get(&self.b)?.unwrap_or(0),
            c: get(&self.c)?.unwrap_or(0),
            e: get(&self.e)?.unwrap_or(0),
        })
    }

    /// Evaluate and compare with the measured destination (the first destination: `p` for
    /// `setp`). The value comes from the instruction's [`Plan`] (decoded once per run of cases
    /// with the same text), for either kind of instruction.
    pub fn check(&self) -> Outcome {
        let (insn, plan) = match planned(&self.ptx) {
            Ok(p) => p,
            Err(d) => return Outcome::Error(format!("rejected: {d}")),
        };
        let inputs = match self.inputs() {
            Ok(i) => i,
            Err(e) => return Outcome::Error(e),
        };
        let want = match parse_value(&self.d) {
            Ok(v) => v,
            Err(e) => return Outcome::Error(format!("d: {e}")),
        };
        let got = plan.eval(&inputs);
        if got == want {
            Outcome::Pass
        } else {
            Outcome::Mismatch {
                insn: Box::new(insn),
                inputs,
                got,
                want,
            }
        }
    }
}

/// The instruction and its plan for `ptx`, reusing the last one made when the text repeats (a
/// file of cases lists each form's cases together).
fn planned(ptx: &str) -> Result<(Instruction, Plan), Diagnostic> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, Instruction, Plan)>> =
            const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((text, insn, plan)) = last.as_ref() {
            if text == ptx {
                return Ok((insn.clone(), plan.clone()));
            }
        }
        let insn = ptxlab_core::insn::check(ptx)?;
        let plan = insn.plan();
        *last = Some((ptx.to_string(), insn.clone(), plan.clone()));
        Ok((insn, plan))
    })
}

/// The opcode of an instruction text (its first word before a dot), for grouping.
pub fn opcode_of(ptx: &str) -> String {
    let t = ptx.trim_start();
    let t = if t.starts_with('@') {
        t.split_once(char::is_whitespace)
            .map_or("", |x| x.1)
            .trim_start()
    } else {
        t
    };
    t.split(['.', ' ']).next().unwrap_or("").to_string()
}

/// Tally of a run of checks.
#[derive(Debug, Default)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    /// Failures per opcode.
    pub by_opcode: BTreeMap<String, usize>,
}

impl Tally {
    pub fn record(&mut self, opcode: &str, ok: bool) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
            *self.by_opcode.entry(opcode.to_string()).or_default() += 1;
        }
    }
}

/// Describe a mismatch with its full trace, for people.
pub fn describe_mismatch(
    case: &Case,
    insn: &Instruction,
    inputs: &Inputs,
    got: u64,
    want: u64,
) -> String {
    let mut s = format!(
        "MISMATCH {}  a={} b={} c={} e={}  hardware d={}  ours d=0x{got:x}\n",
        case.ptx,
        case.a.as_deref().unwrap_or("-"),
        case.b.as_deref().unwrap_or("-"),
        case.c.as_deref().unwrap_or("-"),
        case.e.as_deref().unwrap_or("-"),
        case.d,
    );
    let _ = want;
    s.push_str(&render_trace(&insn.trace(inputs)));
    s
}

/// A readable multi-line rendering of a trace.
pub fn render_trace(t: &ptxlab_core::Trace) -> String {
    let mut s = format!("{}\n", t.instruction);
    for st in &t.stages {
        let lane = st.lane.map(|l| format!("[lane {l}] ")).unwrap_or_default();
        let ins: Vec<String> = st
            .inputs
            .iter()
            .map(|v| format!("{}={} ({})", v.name, v.hex(), v.value))
            .collect();
        s.push_str(&format!(
            "  {lane}{:<10} {}{}{}  -> {} = {} ({}, {} bits{})",
            st.kind.name(),
            st.label,
            if st.op.is_empty() {
                String::new()
            } else {
                format!("  [{}]", st.op)
            },
            if ins.is_empty() {
                String::new()
            } else {
                format!("  {}", ins.join(" "))
            },
            st.output.name,
            st.output.hex(),
            st.output.value,
            st.output.bits,
            if st.output.signed { ", signed" } else { "" },
        ));
        if !st.flags.is_empty() {
            let names: Vec<&str> = st.flags.iter().map(|f| f.name()).collect();
            s.push_str(&format!("  [{}]", names.join(", ")));
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "  d = {}  unsigned {}  signed {}  binary {}\n",
        t.views.hex, t.views.unsigned, t.views.signed, t.views.binary
    ));
    s
}

/// One destination as `ptxlab eval` prints it: `d = 0x0000ff25  (unsigned 65317, signed
/// 65317, 32 bits)`; a predicate `p = 1  (true, predicate)`; the carry flag `CC.CF = 1  (the
/// carry flag)`; a sink `d1 = _  (dropped)`.
pub fn written_line(w: &ptxlab_core::insn::Written) -> String {
    match w.value {
        None => format!("{} = _  (dropped)", w.name),
        Some(v) if w.name == ptxlab_core::ops::CARRY_FLAG => {
            format!("{} = {v}  (the carry flag)", w.name)
        }
        Some(v) if w.bits == 1 => format!("{} = {v}  ({}, predicate)", w.name, v != 0),
        Some(v) => {
            let views = ptxlab_core::trace::Views::of(v, w.bits);
            format!(
                "{} = {}  (unsigned {}, signed {}, {} bits)",
                w.name, views.hex, views.unsigned, views.signed, w.bits
            )
        }
    }
}

/// Whether our validator agrees with one ptxas decision; returns our diagnostic when rejecting.
pub fn decide(d: &Decision) -> (bool, Option<Diagnostic>) {
    match ptxlab_core::program::check_any(&d.ptx) {
        Ok(()) => (d.accepted, None),
        Err(diag) => (!d.accepted, Some(diag)),
    }
}

/// A standalone HTML page for one of the project's markdown documents, so that the playground can
/// link to its entries by anchor when served (browsers show markdown as plain text).
pub fn markdown_page(markdown: &str) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let title = markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("ptxlab");
    let mut body = String::new();
    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    html::push_html(&mut body, Parser::new_ext(markdown, opts));
    // The markdown's own anchors (`<a id="...">` in headings) pass through as they are.
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('`', "")
    };
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"color-scheme\" content=\"light dark\">\n<link rel=\"icon\" href=\"data:,\">\n<title>{} · ptxlab</title>\n\
<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}}\
code,pre{{font-family:ui-monospace,monospace;font-size:.92em}}pre{{overflow-x:auto;padding:.6rem;\
border:1px solid #8884}}table{{border-collapse:collapse}}td,th{{border:1px solid #8884;padding:.2rem .5rem}}\
h2{{margin-top:2.2rem}}:target{{outline:2px solid #e0a800}}</style>\n</head>\n<body>\n\
<!-- Generated from the markdown beside this file by `ptxlab doc-html`; edit that instead. -->\n\
{}</body>\n</html>\n",
        esc(title),
        body
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(parse_value("0x1234").unwrap(), 0x1234);
        assert_eq!(parse_value("-5").unwrap(), (-5i64) as u64);
        assert_eq!(parse_value("0b101").unwrap(), 5);
        assert!(parse_value("zz").is_err());
        assert!(parse_value("0x").is_err());
    }

    #[test]
    fn opcode_names() {
        assert_eq!(opcode_of("vadd.u32.u32.u32 d, a, b;"), "vadd");
        assert_eq!(opcode_of("@p popc.b32 d, a;"), "popc");
    }

    #[test]
    fn unknown_field_is_reported() {
        let r: Result<Case, _> = serde_json::from_str(r#"{"ptx":"x","d":"0x0","zz":1}"#);
        assert!(r.is_err());
    }
}
