//! Programs: several lines of straight-line PTX over a register file, run one step at a time.
//!
//! ```
//! use ptxlab_core::program::{parse_program, Machine};
//!
//! let prog = parse_program("
//!     .reg .b32 %r<4>;
//!     xor.b32 %r3, %r1, %r2;          // bits that differ
//!     prmt.b32 %r3, %r3, 0, 0xba98;   // each byte's sign bit, replicated over the byte
//! ").unwrap();
//! let mut m = Machine::new(prog, &[("%r1".into(), 0x80ff_0001), ("%r2".into(), 0x0000_0001)]).unwrap();
//! m.run();
//! assert_eq!(m.value("%r3"), Some(0xffff_0000));
//! m.step_back();
//! assert_eq!(m.value("%r3"), Some(0x80ff_0000));
//! ```
//!
//! Registers are named as people write them (`%r1`, `%rd2`, `%p1`, `$x`, `_t`); a register's
//! width comes from its `.reg` declaration or else from its first use, and every register the
//! user does not set starts at 0. Guards (`@%p1`, `@!%p1`), comments, blank lines, labels and
//! `{ }` scopes are accepted. Branches, loads, stores and instructions outside the table are
//! refused with a message naming the line.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use crate::ast::{Instruction, OperandKind};
use crate::eval::{evaluate, evaluate_traced, widths, Inputs};
use crate::ops::{width_fits, width_name};
use crate::trace::Trace;

pub use crate::ops;

pub use ops::{parse_op, OpInsn, POp};

/// A problem with a program, at a line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramError {
    /// Line (1-based) of the problem.
    pub line: usize,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ProgramError {}

fn perr(line: usize, message: impl Into<String>) -> ProgramError {
    ProgramError {
        line,
        message: message.into(),
    }
}

/// What a statement runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// One of the 47 video and integer arithmetic instructions of the opcode table.
    Table(Box<Instruction>),
    /// One of the program instructions of [`ops`].
    Op(Box<OpInsn>),
}

/// One instruction of a program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statement {
    /// Line (1-based) where it starts.
    pub line: usize,
    /// The text as written, without the guard and comments.
    pub text: String,
    /// `@p` (false) or `@!p` (true).
    pub guard: Option<(bool, String)>,
    /// What it runs.
    pub body: Body,
}

/// A register of the program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Register {
    /// The name as written (`%r1`, `$x`).
    pub name: String,
    /// 1 for a predicate.
    pub bits: u32,
    /// Line of its `.reg` declaration, if any.
    pub declared: Option<usize>,
}

/// A parsed program: its statements and every register it names, in order of appearance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    /// The instructions in order.
    pub statements: Vec<Statement>,
    /// Every register named, declared or used, in order of appearance.
    pub registers: Vec<Register>,
}

/// Instructions that would leave straight-line code.
const BRANCHES: &[&str] = &[
    "bra", "brx", "call", "ret", "exit", "trap", "brkpt", "bar", "barrier", "bssy", "bsync",
];
/// Instructions that touch memory.
const MEMORY: &[&str] = &[
    "ld",
    "ldu",
    "st",
    "atom",
    "red",
    "cp",
    "prefetch",
    "prefetchu",
    "tex",
    "tld4",
    "suld",
    "sust",
    "sured",
    "cvta",
    "isspacep",
    "ldmatrix",
    "stmatrix",
    "mbarrier",
    "cp.async",
    "multimem",
    "discard",
    "applypriority",
    "createpolicy",
];

/// Every opcode a program may use.
pub fn supported_opcodes() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = crate::isa::OPCODES.iter().map(|o| o.name).collect();
    v.extend(POp::all().map(|o| o.name()));
    v
}

/// Check one instruction text as ptxas would: the program instructions of [`ops`] and the 47 of
/// the opcode table alike (an optional guard is read and not judged).
pub fn check_any(text: &str) -> Result<(), crate::error::Diagnostic> {
    crate::insn::check(text).map(|_| ())
}

/// Read starting register values written as `NAME=VALUE` separated by spaces, commas or line
/// breaks: hex (`0x1f`), binary (`0b101`), decimal (`42`, `-5`, two's complement) or
/// `true`/`false`.
pub fn parse_assignments(text: &str) -> Result<Vec<(String, u64)>, String> {
    let mut out = Vec::new();
    for item in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        if item.is_empty() {
            continue;
        }
        let Some((name, v)) = item.split_once('=') else {
            return Err(format!("'{item}' is not NAME=VALUE (e.g. %r1=0x1234)"));
        };
        if !is_reg_name(name) {
            return Err(format!("'{name}' is not a register name"));
        }
        out.push((
            name.to_string(),
            parse_number(v).map_err(|e| format!("{name}: {e}"))?,
        ));
    }
    Ok(out)
}

fn parse_number(s: &str) -> Result<u64, String> {
    match s {
        "true" => Ok(1),
        "false" => Ok(0),
        _ => crate::value::parse_value(s, 64, None),
    }
}

/// Parse the text of a program.
pub fn parse_program(text: &str) -> Result<Program, ProgramError> {
    if text.len() > 1 << 20 {
        return Err(perr(1, "a program of more than 1 MiB is not accepted"));
    }
    let clean = strip_comments(text);
    let mut statements = Vec::new();
    let mut regs = RegTable::default();
    let mut cur = String::new();
    let mut cur_line = 0;
    for (i, raw_line) in clean.lines().enumerate() {
        let n = i + 1;
        let mut rest = raw_line;
        loop {
            if cur.trim().is_empty() {
                cur.clear();
                let t = rest.trim_start();
                if let Some(r) = t.strip_prefix('{') {
                    regs.open_scope();
                    rest = r;
                    continue;
                }
                if let Some(r) = t.strip_prefix('}') {
                    regs.close_scope(n)?;
                    rest = r;
                    continue;
                }
                if let Some((label, after)) = label_split(t) {
                    let _ = label;
                    rest = after;
                    continue;
                }
                if t.is_empty() {
                    break;
                }
                cur_line = n;
                rest = t;
            }
            match rest.find(';') {
                Some(k) => {
                    cur.push_str(&rest[..k]);
                    let stmt = std::mem::take(&mut cur);
                    if let Some(s) = statement(stmt.trim(), cur_line, &mut regs)? {
                        statements.push(s);
                    }
                    rest = &rest[k + 1..];
                }
                None => {
                    cur.push_str(rest);
                    cur.push(' ');
                    break;
                }
            }
        }
    }
    if !cur.trim().is_empty() {
        // The last statement may omit its ';'.
        if let Some(s) = statement(cur.trim(), cur_line, &mut regs)? {
            statements.push(s);
        }
    }
    if statements.is_empty() {
        return Err(perr(
            1,
            "the program has no instructions: write one per line, e.g. add.s32 %r3, %r1, %r2;",
        ));
    }
    Ok(Program {
        statements,
        registers: regs.list,
    })
}

/// `name:` at the start of a statement.
fn label_split(t: &str) -> Option<(&str, &str)> {
    let end = t
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '%'))
        .map(|(k, _)| k)?;
    if end > 0 && t[end..].starts_with(':') {
        Some((&t[..end], &t[end + 1..]))
    } else {
        None
    }
}

/// Remove `//` and `/* */` comments, keeping line breaks.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut block = false;
    let mut line_comment = false;
    while let Some(c) = chars.next() {
        if block {
            if c == '*' && chars.peek() == Some(&'/') {
                chars.next();
                block = false;
            } else if c == '\n' {
                out.push('\n');
            }
            continue;
        }
        if line_comment {
            if c == '\n' {
                line_comment = false;
                out.push('\n');
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'/') {
            line_comment = true;
            continue;
        }
        if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            block = true;
            out.push(' ');
            continue;
        }
        out.push(c);
    }
    out
}

#[derive(Default)]
struct RegTable {
    list: Vec<Register>,
    /// The register each written name stands for here (an inner scope's declaration hides an
    /// outer register of the same name until its `}`).
    index: HashMap<String, usize>,
    /// Line where each register's width was fixed by a use.
    fixed_at: HashMap<String, usize>,
    /// The open `{ }` scopes, innermost last: each name declared in the scope, with what the
    /// name stood for before it (restored at the `}`).
    scopes: Vec<Vec<(String, Option<usize>)>>,
}

impl RegTable {
    fn open_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    fn close_scope(&mut self, line: usize) -> Result<(), ProgramError> {
        let Some(scope) = self.scopes.pop() else {
            return Err(perr(line, "this '}' closes no '{'"));
        };
        for (name, before) in scope.into_iter().rev() {
            match before {
                Some(k) => self.index.insert(name, k),
                None => self.index.remove(&name),
            };
        }
        Ok(())
    }

    /// The register's name in the program's register file: the name as written, or for a
    /// register that hides an outer one of the same name, that name with `#2`, `#3`...
    fn resolve<'n>(&'n self, name: &'n str) -> &'n str {
        self.index.get(name).map_or(name, |&k| &self.list[k].name)
    }

    fn declare(&mut self, name: &str, bits: u32, line: usize) -> Result<(), ProgramError> {
        let before = self.index.get(name).copied();
        if let Some(k) = before {
            let here = self
                .scopes
                .last()
                .is_some_and(|s| s.iter().any(|(n, _)| n == name));
            let r = &self.list[k];
            // In an inner scope, a declared outer register of this name is hidden until the '}'.
            let hides = !self.scopes.is_empty() && !here && r.declared.is_some();
            if !hides {
                return Err(perr(
                    line,
                    match r.declared {
                        Some(l) => format!("{name} is declared a second time (first on line {l})"),
                        None => format!(
                            "{name} is declared after its first use on line {}; declare registers before using them",
                            self.fixed_at.get(name).copied().unwrap_or(0)
                        ),
                    },
                ));
            }
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), before));
        }
        // An outer or closed scope may have a register of this name: this one is another.
        let internal = self.fresh(name);
        self.index.insert(name.to_string(), self.list.len());
        self.list.push(Register {
            name: internal,
            bits,
            declared: Some(line),
        });
        Ok(())
    }

    /// `name`, or `name#N` when the register file already holds registers of that name.
    fn fresh(&self, name: &str) -> String {
        let copies = self
            .list
            .iter()
            .filter(|r| {
                r.name == name
                    || r.name.strip_prefix(name).is_some_and(|t| {
                        t.strip_prefix('#')
                            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
                    })
            })
            .count();
        if copies == 0 {
            name.to_string()
        } else {
            format!("{name}#{}", copies + 1)
        }
    }

    /// A use of `name` as `bits` wide (`dst`: written).
    fn use_reg(
        &mut self,
        name: &str,
        bits: u32,
        loose: bool,
        line: usize,
        text: &str,
    ) -> Result<(), ProgramError> {
        match self.index.get(name) {
            None => {
                // cvt's 8-bit types live in 16-bit registers, as compilers emit them.
                let bits = if loose && bits == 8 { 16 } else { bits };
                let internal = self.fresh(name);
                self.index.insert(name.to_string(), self.list.len());
                self.fixed_at.insert(name.to_string(), line);
                self.list.push(Register {
                    name: internal,
                    bits,
                    declared: None,
                });
                Ok(())
            }
            Some(&k) => {
                let r = &self.list[k];
                let from = match r.declared {
                    Some(l) => format!("declared on line {l}"),
                    None => format!(
                        "from its first use on line {}",
                        self.fixed_at.get(name).copied().unwrap_or(line)
                    ),
                };
                if (r.bits == 1) != (bits == 1) {
                    return Err(perr(
                        line,
                        format!(
                            "{name} is {} ({from}), but '{text}' uses it as {}",
                            width_name(r.bits),
                            width_name(bits)
                        ),
                    ));
                }
                if !width_fits(r.bits, bits, loose) {
                    return Err(perr(
                        line,
                        format!(
                            "{name} is {} bits wide ({from}), but '{text}' reads or writes {bits} bits there; registers must match the instruction's width (only cvt takes wider ones)",
                            r.bits
                        ),
                    ));
                }
                Ok(())
            }
        }
    }
}

/// A `.reg` line: `.reg .b32 %r1, %r2;` or `.reg .b32 %r<5>;` (registers %r0 .. %r4).
fn declaration(t: &str, line: usize, regs: &mut RegTable) -> Result<(), ProgramError> {
    let rest = t.strip_prefix(".reg").unwrap_or(t).trim_start();
    let Some(rest) = rest.strip_prefix('.') else {
        return Err(perr(
            line,
            "a .reg declaration names a type: .reg .b32 %r1;",
        ));
    };
    let tend = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
    let tname = &rest[..tend];
    let ty = ops::PType::from_name(tname).filter(|t| *t != ops::PType::B128);
    let Some(ty) = ty else {
        return Err(perr(
            line,
            format!(
                "'.{tname}' is not a register type: use .pred, .b16, .b32, .b64, .u32, .s32 ..."
            ),
        ));
    };
    let bits = ty.bits();
    let names = rest[tend..].trim();
    if names.is_empty() {
        return Err(perr(line, format!(".reg .{tname} needs register names")));
    }
    for part in names.split(',') {
        let p = part.trim();
        if let Some((base, count)) = p.strip_suffix('>').and_then(|x| x.split_once('<')) {
            let n: usize = count
                .trim()
                .parse()
                .map_err(|_| perr(line, format!("'{p}': the count in <N> must be a number")))?;
            if n > 4096 {
                return Err(perr(line, format!("'{p}': at most 4096 registers at once")));
            }
            for k in 0..n {
                regs.declare(&format!("{}{k}", base.trim()), bits, line)?;
            }
        } else if is_reg_name(p) {
            regs.declare(p, bits, line)?;
        } else {
            return Err(perr(line, format!("'{p}' is not a register name")));
        }
    }
    Ok(())
}

fn is_reg_name(s: &str) -> bool {
    let mut it = s.chars();
    matches!(it.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '%' || c == '$')
        && it.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && s != "_"
}

fn statement(t: &str, line: usize, regs: &mut RegTable) -> Result<Option<Statement>, ProgramError> {
    if t.starts_with(".reg") {
        declaration(t, line, regs)?;
        return Ok(None);
    }
    if let Some(d) = t.strip_prefix('.') {
        let w: String = d
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if matches!(w.as_str(), "version" | "target" | "address_size") {
            return Ok(None);
        }
        return Err(perr(
            line,
            format!(
                "'.{w}' is not supported here: a program is instructions and .reg declarations"
            ),
        ));
    }
    // Guard.
    let (guard, body) = if let Some(g) = t.strip_prefix('@') {
        let g = g.trim_start();
        let (neg, g) = match g.strip_prefix('!') {
            Some(x) => (true, x.trim_start()),
            None => (false, g),
        };
        let end = g
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '%'))
            .unwrap_or(g.len());
        let name = &g[..end];
        if !is_reg_name(name) || g[end..].starts_with('.') {
            return Err(perr(
                line,
                "'@' must be followed by a predicate register, e.g. @%p1 or @!%p1",
            ));
        }
        (Some((neg, name.to_string())), g[end..].trim_start())
    } else {
        (None, t)
    };
    let word: String = body
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let opname = word.as_str();
    let text = body.to_string();
    let with_semicolon = format!("{body};");
    let stmt = if ops::is_op_name(opname) {
        let insn = parse_op(&with_semicolon).map_err(|d| perr(line, format!("{d} in '{body}'")))?;
        Statement {
            line,
            text,
            guard,
            body: Body::Op(Box::new(insn)),
        }
    } else if crate::isa::Opcode::from_name(opname).is_some() {
        let insn =
            crate::check(&with_semicolon).map_err(|d| perr(line, format!("{d} in '{body}'")))?;
        Statement {
            line,
            text,
            guard,
            body: Body::Table(Box::new(insn)),
        }
    } else if BRANCHES.contains(&opname) {
        return Err(perr(
            line,
            format!(
                "'{opname}' is not supported: programs are straight-line code (no branches, calls or returns); use @%p guards or selp instead"
            ),
        ));
    } else if MEMORY.contains(&opname) {
        return Err(perr(
            line,
            format!(
                "'{opname}' is not supported: programs do not load or store memory; give the values as initial registers instead"
            ),
        ));
    } else if opname.is_empty() {
        return Err(perr(line, format!("expected an instruction at '{body}'")));
    } else {
        return Err(perr(
            line,
            format!(
                "unknown instruction '{opname}'; programs may use {}",
                supported_opcodes().join(" ")
            ),
        ));
    };
    // Register widths, from declarations or first use.
    if let Some((_, g)) = &stmt.guard {
        regs.use_reg(g, 1, false, line, body)?;
    }
    let loose = matches!(&stmt.body, Body::Op(o) if o.op == POp::Cvt);
    for (name, bits) in uses(&stmt) {
        regs.use_reg(&name, bits, loose, line, body)?;
    }
    let mut stmt = stmt;
    rename(&mut stmt, |n| regs.resolve(n).to_string());
    Ok(Some(stmt))
}

/// Give every register a statement names its name in the register file (`to`), so that a
/// register declared in an inner `{ }` scope is told apart from an outer one of the same name.
fn rename(s: &mut Statement, to: impl Fn(&str) -> String) {
    if let Some((_, g)) = &mut s.guard {
        *g = to(g);
    }
    match &mut s.body {
        Body::Table(insn) => {
            if let Some(g) = &mut insn.guard {
                g.pred = to(&g.pred);
            }
            for o in std::iter::once(&mut insn.dst).chain(insn.srcs.iter_mut()) {
                if let OperandKind::Reg(r) = &mut o.kind {
                    *r = to(r);
                }
            }
        }
        Body::Op(insn) => {
            for d in &mut insn.dsts {
                if let ops::Dst::Reg(r) = d {
                    *r = to(r);
                }
            }
            for x in &mut insn.srcs {
                if let ops::Src::Reg { name, .. } = x {
                    *name = to(name);
                }
            }
        }
    }
}

/// Every register a statement names with the width it reads or writes, in written order.
fn uses(s: &Statement) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    match &s.body {
        Body::Table(insn) => {
            let w = widths(insn);
            if let OperandKind::Reg(r) = &insn.dst.kind {
                out.push((r.clone(), w.dst));
            }
            for (i, o) in insn.srcs.iter().enumerate().take(4) {
                if let OperandKind::Reg(r) = &o.kind {
                    out.push((r.clone(), w.src[i]));
                }
            }
        }
        Body::Op(insn) => out = insn.uses_written(),
    }
    out
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// A value written into a register `reg_bits` wide by an instruction writing `bits` bits:
/// extended by sign for signed types, by zeros otherwise.
fn extend(v: u64, bits: u32, signed: bool, reg_bits: u32) -> u64 {
    let v = v & mask(bits);
    let x = if signed && bits < 64 && bits > 1 && (v >> (bits - 1)) & 1 == 1 {
        v | !mask(bits)
    } else {
        v
    };
    x & mask(reg_bits)
}

/// One register changed by a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Write {
    /// The register written.
    pub reg: String,
    /// Its width in bits.
    pub bits: u32,
    /// Its value before the step.
    pub old: u64,
    /// Its value after the step.
    pub new: u64,
    /// The statement that had written it before (index), for stepping back.
    pub old_writer: Option<usize>,
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Index of the statement in [`Program::statements`].
    pub index: usize,
    /// The line (1-based) the statement starts on.
    pub line: usize,
    /// False when its guard was false: nothing was written.
    pub executed: bool,
    /// The instruction's stages (None when the guard was false).
    pub trace: Option<Trace>,
    /// The registers it wrote.
    pub writes: Vec<Write>,
}

/// A register and its current value, for display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegView {
    /// The register name.
    pub name: String,
    /// Its width in bits (1 for a predicate).
    pub bits: u32,
    /// Its current value.
    pub value: u64,
    /// Whether the last step wrote it.
    pub changed: bool,
    /// Line of the statement that last wrote it (None: still its initial value).
    pub written_by: Option<usize>,
    /// Whether the user gave its starting value.
    pub initial: bool,
}

/// What statements wrote for the values they read, kept between quiet runs of one program (see
/// [`Machine::run_quiet`]).
#[derive(Clone, Debug, Default)]
pub struct Memo {
    /// The values a statement read, then its index -> the registers it wrote and their values.
    seen: HashMap<Vec<u64>, Vec<(usize, u64)>, BuildHasherDefault<WordHasher>>,
}

/// A multiply-rotate hash of 64-bit words: the memo's keys are a few words and need no
/// protection from chosen collisions, and SipHash took a fifth of a quiet run.
#[derive(Clone, Copy, Debug, Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

impl Memo {
    /// Entries kept at most; past that the memo starts again empty.
    const MAX: usize = 1 << 17;
}

/// A program being run: the register file, the next statement, and the steps taken.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    /// The program being run.
    pub program: Program,
    start: Vec<u64>,
    given: Vec<bool>,
    values: Vec<u64>,
    writer: Vec<Option<usize>>,
    index: HashMap<String, usize>,
    history: Vec<Step>,
}

impl Machine {
    /// Start a program with the given register values; every other register is 0. A value
    /// wider than its register is refused.
    pub fn new(program: Program, initial: &[(String, u64)]) -> Result<Machine, String> {
        let index: HashMap<String, usize> = program
            .registers
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.clone(), i))
            .collect();
        let n = program.registers.len();
        let mut m = Machine {
            values: vec![0; n],
            writer: vec![None; n],
            start: vec![0; n],
            given: vec![false; n],
            index,
            history: Vec::new(),
            program,
        };
        m.start_with(initial)?;
        Ok(m)
    }

    /// Back to the first statement with new starting values (every other register 0), as
    /// [`Machine::new`] would start, without building the register table again. On an error
    /// the machine is left as it was.
    pub fn start_with(&mut self, initial: &[(String, u64)]) -> Result<(), String> {
        let n = self.program.registers.len();
        let mut start = vec![0u64; n];
        let mut given = vec![false; n];
        for (name, v) in initial {
            let Some(&k) = self.index.get(name) else {
                let names: Vec<&str> = self
                    .program
                    .registers
                    .iter()
                    .map(|r| r.name.as_str())
                    .collect();
                return Err(format!(
                    "{name} is not a register of the program (it uses {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(" ")
                    }
                ));
            };
            let bits = self.program.registers[k].bits;
            let fits = *v & !mask(bits) == 0
                || (bits < 64
                    && (*v as i64) < 0
                    && (*v as i64) >= -(1i64 << (bits - 1))
                    && bits > 1);
            if !fits {
                return Err(format!(
                    "{name} is {}, too narrow for 0x{v:x}",
                    width_name(bits)
                ));
            }
            start[k] = *v & mask(bits);
            given[k] = true;
        }
        self.start = start;
        self.given = given;
        self.restart();
        Ok(())
    }

    /// Index of the next statement to run (equal to the number of statements at the end).
    pub fn pc(&self) -> usize {
        self.history.len()
    }
    /// Whether every statement has run.
    pub fn at_end(&self) -> bool {
        self.pc() >= self.program.statements.len()
    }
    /// The steps taken so far.
    pub fn history(&self) -> &[Step] {
        &self.history
    }
    /// The current value of a register.
    pub fn value(&self, name: &str) -> Option<u64> {
        self.index.get(name).map(|&k| self.values[k])
    }
    /// Every register with its value.
    pub fn registers(&self) -> Vec<RegView> {
        let last: Vec<&str> = self
            .history
            .last()
            .map(|s| s.writes.iter().map(|w| w.reg.as_str()).collect())
            .unwrap_or_default();
        self.program
            .registers
            .iter()
            .enumerate()
            .map(|(k, r)| RegView {
                name: r.name.clone(),
                bits: r.bits,
                value: self.values[k],
                changed: last.contains(&r.name.as_str()),
                written_by: self.writer[k].map(|i| self.program.statements[i].line),
                initial: self.given[k],
            })
            .collect()
    }
    /// Registers written by any step so far, in order of first write.
    pub fn written(&self) -> Vec<(String, u32, u64)> {
        let mut seen: Vec<String> = Vec::new();
        for s in &self.history {
            for w in &s.writes {
                if !seen.contains(&w.reg) {
                    seen.push(w.reg.clone());
                }
            }
        }
        seen.into_iter()
            .map(|n| {
                let k = self.index[&n];
                (n, self.program.registers[k].bits, self.values[k])
            })
            .collect()
    }

    fn read(&self, values: &[u64], name: &str, bits: u32) -> u64 {
        self.index.get(name).map_or(0, |&k| values[k]) & mask(bits)
    }

    /// The values statement `i` reads from the register values `values` (sources cut to the
    /// widths it reads, immediates included); None when its guard keeps it from running.
    fn sources(&self, values: &[u64], i: usize) -> Option<Vec<u64>> {
        let s = &self.program.statements[i];
        if let Some((neg, g)) = &s.guard {
            if (self.read(values, g, 1) != 0) == *neg {
                return None;
            }
        }
        Some(match &s.body {
            Body::Table(insn) => {
                let w = widths(insn);
                let mut v = vec![0u64; 4];
                for (k, o) in insn.srcs.iter().enumerate().take(4) {
                    if let OperandKind::Reg(r) = &o.kind {
                        v[k] = self.read(values, r, w.src[k]);
                    }
                }
                v
            }
            Body::Op(insn) => insn
                .srcs
                .iter()
                .enumerate()
                .map(|(k, x)| match x {
                    ops::Src::Reg { name, .. } => self.read(values, name, insn.src_bits(k)),
                    ops::Src::Imm(v) => insn.imm_value(k, *v),
                    ops::Src::Float(f) => f.value(insn.src_bits(k), insn.src_is_float(k)),
                    ops::Src::Sink => 0,
                })
                .collect(),
        })
    }

    /// Run statement `i` on the values it reads (from [`Machine::sources`]): what it writes
    /// (register index, value, width written, written as signed) and, when `traced`, its
    /// stages. Without `traced` both kinds of instruction run untraced (the same evaluation,
    /// no stages built).
    #[allow(clippy::type_complexity)]
    fn execute(
        &self,
        i: usize,
        src: &[u64],
        traced: bool,
    ) -> (Vec<(usize, u64, u32, bool)>, Option<Trace>) {
        let mut out: Vec<(usize, u64, u32, bool)> = Vec::new();
        let mut trace = None;
        match &self.program.statements[i].body {
            Body::Table(insn) => {
                let w = widths(insn);
                let inputs = Inputs::new(src[0], src[1], src[2], src[3]);
                let d = if traced {
                    let t = evaluate_traced(insn, &inputs);
                    let d = t.result.raw() as u64;
                    trace = Some(t);
                    d
                } else {
                    evaluate(insn, &inputs)
                };
                if let OperandKind::Reg(r) = &insn.dst.kind {
                    let signed = insn.form.ty(0).is_signed();
                    out.push((self.index[r], d, w.dst, signed));
                }
            }
            Body::Op(insn) => {
                let values = if traced {
                    let o = insn.eval(src);
                    trace = Some(o.trace);
                    o.values
                } else {
                    insn.eval_quiet(src).0
                };
                for (k, (d, val)) in insn.dsts.iter().zip(&values).enumerate() {
                    if let (ops::Dst::Reg(r), Some(v)) = (d, val) {
                        out.push((self.index[r], *v, insn.dst_bits(k), insn.dst_signed(k)));
                    }
                }
            }
        }
        (out, trace)
    }

    /// Run the next statement; None at the end.
    pub fn step(&mut self) -> Option<&Step> {
        let i = self.pc();
        let line = self.program.statements.get(i)?.line;
        let src = self.sources(&self.values, i);
        let executed = src.is_some();
        let (out, trace) = match src {
            Some(src) => self.execute(i, &src, true),
            None => (Vec::new(), None),
        };
        let mut step = Step {
            index: i,
            line,
            executed,
            trace,
            writes: Vec::new(),
        };
        for (k, v, bits, signed) in out {
            let rb = self.program.registers[k].bits;
            let new = extend(v, bits, signed, rb);
            step.writes.push(Write {
                reg: self.program.registers[k].name.clone(),
                bits: rb,
                old: self.values[k],
                new,
                old_writer: self.writer[k],
            });
            self.values[k] = new;
            self.writer[k] = Some(i);
        }
        self.history.push(step);
        self.history.last()
    }

    /// Run from the start to the end without recording anything, leaving the machine as it
    /// is: the value each register ends with, in the order of [`Program::registers`] (see
    /// [`Machine::register_index`]). The same values [`Machine::run`] leaves, without the stages;
    /// for running one program on many inputs (with [`Machine::start_with`]). `memo` keeps what
    /// each statement wrote for the values it read, so a statement that meets the same values
    /// again (one that reads only some of the inputs, or a constant) is not evaluated again;
    /// give each program its own.
    pub fn run_quiet(&self, memo: &mut Memo) -> Vec<u64> {
        let mut values = self.start.clone();
        for i in 0..self.program.statements.len() {
            let Some(mut key) = self.sources(&values, i) else {
                continue;
            };
            key.push(i as u64);
            let writes = match memo.seen.get(&key) {
                Some(w) => w.clone(),
                None => {
                    let (out, _) = self.execute(i, &key[..key.len() - 1], false);
                    let w: Vec<(usize, u64)> = out
                        .into_iter()
                        .map(|(k, v, bits, signed)| {
                            (k, extend(v, bits, signed, self.program.registers[k].bits))
                        })
                        .collect();
                    if memo.seen.len() >= Memo::MAX {
                        memo.seen.clear();
                    }
                    memo.seen.insert(key, w.clone());
                    w
                }
            };
            for (k, v) in writes {
                values[k] = v;
            }
        }
        values
    }

    /// The place of a register in [`Program::registers`].
    pub fn register_index(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Undo the last step; false at the start.
    pub fn step_back(&mut self) -> bool {
        let Some(s) = self.history.pop() else {
            return false;
        };
        for w in s.writes.iter().rev() {
            let k = self.index[&w.reg];
            self.values[k] = w.old;
            self.writer[k] = w.old_writer;
        }
        true
    }

    /// Run to the end; the number of steps taken.
    pub fn run(&mut self) -> usize {
        let mut n = 0;
        while self.step().is_some() {
            n += 1;
        }
        n
    }

    /// Back to the first statement and the starting values.
    pub fn restart(&mut self) {
        self.values = self.start.clone();
        self.writer = vec![None; self.values.len()];
        self.history.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, init: &[(&str, u64)]) -> Machine {
        let p = parse_program(text).unwrap_or_else(|e| panic!("{e}"));
        let init: Vec<(String, u64)> = init.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let mut m = Machine::new(p, &init).unwrap();
        m.run();
        m
    }

    #[test]
    fn a_register_declared_in_a_scope_hides_the_outer_one_until_the_brace() {
        let p = parse_program(
            ".reg .b32 %r1, %r2, %r3;\nmov.b32 %r1, 5;\n{\n .reg .b32 %r1;\n mov.b32 %r1, 7;\n add.u32 %r2, %r1, 1;\n { .reg .b16 %r1; mov.b16 %r1, 9; }\n}\nadd.u32 %r3, %r1, 1;\n{ .reg .pred %t; setp.eq.u32 %t, %r3, 6; } { .reg .pred %t; setp.ne.u32 %t, %r3, 6; }",
        )
        .unwrap();
        let names: Vec<&str> = p.registers.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["%r1", "%r2", "%r3", "%r1#2", "%r1#3", "%t", "%t#2"]);
        assert_eq!(p.registers[4].bits, 16);
        let mut m = Machine::new(p, &[]).unwrap();
        m.run();
        assert_eq!(m.value("%r2"), Some(8), "the inner %r1 is 7");
        assert_eq!(
            m.value("%r3"),
            Some(6),
            "after the brace, %r1 is the outer one again"
        );
        assert_eq!(m.value("%r1#2"), Some(7));
        assert_eq!(m.value("%r1#3"), Some(9));
        assert_eq!((m.value("%t"), m.value("%t#2")), (Some(1), Some(0)));
        // A register used after the scope that declared the same name is another one.
        let p = parse_program("{ .reg .b32 %t; mov.b32 %t, 1; }\nmov.b32 %t, 2;").unwrap();
        let names: Vec<&str> = p.registers.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["%t", "%t#2"]);
        // Declared twice in one scope, or a brace that closes nothing: messages with the line.
        let e = parse_program("{ .reg .b32 %x;\n.reg .b32 %x; }").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("declared a second time"), "{e}");
        let e = parse_program("mov.b32 %x, 1;\n}").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("closes no"), "{e}");
    }

    #[test]
    fn scopes_labels_comments_and_multiline_statements() {
        let m = run(
            "{ .reg .b16 lo, hi; /* two\n halves */ mov.b32 {lo, hi}, %r1;\nL1:\n add.u16 lo,\n   lo, hi; // sum\n}",
            &[("%r1", 0x0002_0003)],
        );
        assert_eq!(m.value("lo"), Some(5));
        assert_eq!(m.program.statements[1].line, 4);
    }

    #[test]
    fn declarations_fix_widths_and_counts_expand() {
        let p = parse_program(".reg .b64 %rd<3>;\n.reg .pred %p1;\nmov.b64 %rd2, 5;").unwrap();
        let names: Vec<(&str, u32)> = p
            .registers
            .iter()
            .map(|r| (r.name.as_str(), r.bits))
            .collect();
        assert_eq!(
            names,
            [("%rd0", 64), ("%rd1", 64), ("%rd2", 64), ("%p1", 1)]
        );
        let e = parse_program(".reg .b64 %rd1;\nmov.b32 %rd1, 5;").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("declared on line 1"), "{e}");
        let e = parse_program("mov.b32 %r1, 1;\nsetp.eq.u32 %p1, %p1, 0;").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_program(".reg .b32 %r1;\n.reg .b32 %r1;").unwrap_err();
        assert!(e.message.contains("second time"), "{e}");
    }

    #[test]
    fn refusals_name_the_line_and_what_is_supported() {
        for (text, line, words) in [
            ("mov.b32 %r1, 1;\nbra L;", 2, "straight-line"),
            ("\n\nst.global.u32 [%rd1], %r1;", 3, "do not load or store"),
            ("fma.rn.f32 %f1, %f2, %f3, %f4;", 1, "programs may use"),
            ("add.u32 %r1, %r2;", 1, "add"),
            (".global .u32 x;", 1, "not supported here"),
            ("// nothing\n", 1, "no instructions"),
            ("@ add.u32 %r1, %r2, %r3;", 1, "predicate register"),
        ] {
            let e = parse_program(text).unwrap_err();
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.message.contains(words), "{text}: {e}");
        }
    }

    #[test]
    fn step_back_restores_every_register_and_writer() {
        let text = "setp.lt.s32 %p1, %r1, 0;\n@%p1 neg.s32 %r1, %r1;\ncvt.sat.s8.s32 %rs1, %r1;\nmov.b32 {%h1, %h2}, %r1;";
        let p = parse_program(text).unwrap();
        let mut m = Machine::new(p, &[("%r1".into(), (-300i64) as u64)]).unwrap();
        let mut states = vec![m.registers()];
        while m.step().is_some() {
            states.push(m.registers());
        }
        assert_eq!(m.value("%rs1"), Some(0x7f));
        assert_eq!(m.value("%r1"), Some(300));
        let last = m.registers();
        assert!(last
            .iter()
            .any(|r| r.name == "%h1" && r.changed && r.written_by == Some(4)));
        while m.step_back() {
            states.pop();
            let want: Vec<(String, u64, Option<usize>)> = states
                .last()
                .unwrap()
                .iter()
                .map(|r| (r.name.clone(), r.value, r.written_by))
                .collect();
            let got: Vec<(String, u64, Option<usize>)> = m
                .registers()
                .iter()
                .map(|r| (r.name.clone(), r.value, r.written_by))
                .collect();
            assert_eq!(got, want);
        }
        assert_eq!(m.pc(), 0);
        m.run();
        m.restart();
        assert_eq!(m.value("%r1"), Some((-300i64) as u64 & 0xffff_ffff));
        assert!(m.registers().iter().all(|r| !r.changed));
    }

    #[test]
    fn a_quiet_run_ends_with_the_values_of_a_traced_one() {
        let text = "setp.lt.s32 %p1, %r1, 0;\n@%p1 neg.s32 %r1, %r1;\ncvt.sat.s8.s32 %rs1, %r1;\nmov.b32 {%h1, %h2}, %r1;\nvadd.s32.s32.s32.sat %r2, %r1, %r1, %r1;\n@!%p1 add.u32 %r3, %r2, 1;";
        let p = parse_program(text).unwrap();
        let mut m = Machine::new(p, &[]).unwrap();
        // Values met twice take what the memo kept.
        let mut memo = Memo::default();
        for v in [
            0u64,
            1,
            0x7f,
            0x80,
            0x7fff_ffff,
            (-300i64) as u64,
            (-1i64) as u64,
            0,
            0x80,
        ] {
            m.start_with(&[("%r1".into(), v & 0xffff_ffff)]).unwrap();
            let quiet = m.run_quiet(&mut memo);
            assert_eq!(m.pc(), 0, "a quiet run leaves the machine as it was");
            m.run();
            let traced: Vec<u64> = m.registers().iter().map(|r| r.value).collect();
            assert_eq!(quiet, traced, "%r1 = {v:#x}");
            assert_eq!(
                quiet[m.register_index("%r2").unwrap()],
                m.value("%r2").unwrap()
            );
        }
        assert_eq!(m.register_index("%nope"), None);
    }

    #[test]
    fn assignments() {
        assert_eq!(
            parse_assignments("%r1=0x10, %p1=true\n$x=-1 _y=0b11").unwrap(),
            [
                ("%r1".to_string(), 16),
                ("%p1".to_string(), 1),
                ("$x".to_string(), u64::MAX),
                ("_y".to_string(), 3)
            ]
        );
        assert!(parse_assignments("%r1").is_err());
        assert!(parse_assignments("%r1=zz").is_err());
        assert!(parse_assignments("1x=3").is_err());
    }

    #[test]
    fn check_any_reads_both_kinds_and_one_register_one_width() {
        assert!(check_any("vadd.u32.u32.u32 d, a, b;").is_ok());
        assert!(check_any("@p lop3.b32 d, a, b, c, 0xca;").is_ok());
        assert!(check_any("selp.b32 d, c, b, c;").is_err());
        assert!(check_any("cvt.u32.u16 d, d;").is_ok());
        let e = check_any("  setp.lo.s32 p, a, b;").unwrap_err();
        assert_eq!(&"  setp.lo.s32 p, a, b;"[e.span.clone()], ".lo");
    }
}
