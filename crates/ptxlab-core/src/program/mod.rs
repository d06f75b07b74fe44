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
//! `{ }` scopes are accepted.
//!
//! A program may also be one thread of a kernel as nvcc writes it: an `.entry` (or `.func`)
//! with `.param` arguments (given by name, like registers), `ld`/`st` over a sparse byte memory
//! ([`memory`]), `cvta.to.global`, special registers given as values (`%tid.x=5`; `%ntid.*` and
//! `%nctaid.*` start at 1, the others at 0), variables (`.global`, `.const`, `.shared`,
//! `.local`, with initialisers; a name stands for its address), labels, `bra` (guarded or not),
//! `ret` and `exit`.
//! A run stops after [`Machine::max_steps`] steps with a message, so an endless loop ends.
//! What is not modelled (floating point, atomics, barriers, warp-wide instructions, textures,
//! calls) is refused with a message that names the line and what is supported.
//!
//! ```
//! use ptxlab_core::program::{memory, parse_program, Machine};
//!
//! let prog = parse_program("
//!     .entry twice(.param .u64 out, .param .u32 n)
//!     {
//!         .reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .pred %p1;
//!         ld.param.u64 %rd1, [out];
//!         ld.param.u32 %r1, [n];
//!         mov.u32 %r2, %tid.x;
//!     LOOP:
//!         st.global.u8 [%rd1], %r2;
//!         add.s64 %rd1, %rd1, 1;
//!         add.s32 %r2, %r2, 1;
//!         setp.lt.u32 %p1, %r2, %r1;
//!         @%p1 bra LOOP;
//!         ret;
//!     }").unwrap();
//! let init = [("out".into(), 0x2000), ("n".into(), 4), ("%tid.x".into(), 1)];
//! let mut m = Machine::new(prog, &init).unwrap();
//! m.run();
//! let w = m.memory().written();
//! assert_eq!((w[0].address, w[0].hex()), (0x2000, "010203".to_string()));
//! ```

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use crate::ast::Instruction;
use crate::insn::parse_unguarded;
use crate::isa::Instr;
use crate::ops::{width_fits, width_name};
use crate::trace::Trace;

pub use crate::ops;

pub mod memory;

use memory::{Access, Base, Bytes, Cvta, Memory, Slot, Space};

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
    /// An instruction that computes: one of the table's video and integer arithmetic
    /// instructions or a program row (`mov`, `prmt`, `setp`, the carry chain ...), the same
    /// [`Instruction`] `ptxlab eval` and the playground evaluate alone (its guard is the statement's).
    Insn(Box<Instruction>),
    /// `ld` or `st`.
    Access(Box<Access>),
    /// `cvta`: an address from one space's numbering to another's.
    Cvta(Box<Cvta>),
    /// `bra LABEL`: go on at a statement (`target`, the number of statements for a label at
    /// the end).
    Branch {
        /// The label as written.
        label: String,
        /// The statement it names.
        target: usize,
    },
    /// `ret` or `exit`: the thread ends.
    End,
}

/// The name of the carry flag in the register file: the carry chain reads and writes it as a
/// register.
pub use crate::ops::CARRY_FLAG;

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
    /// A special register (`%tid.x`): read only, its value given or its default.
    #[serde(default)]
    pub special: bool,
}

/// A parsed program: its statements and every register it names, in order of appearance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    /// The instructions in order.
    pub statements: Vec<Statement>,
    /// Every register named, declared or used, in order of appearance.
    pub registers: Vec<Register>,
    /// The `.entry` or `.func` the program is, if it is one: its name and parameters.
    #[serde(default)]
    pub kernel: Option<Kernel>,
    /// Every label and the statement it stands before.
    #[serde(default)]
    pub labels: Vec<(String, usize)>,
    /// The variables it declares (`.global`, `.const`, `.shared`, `.local`).
    #[serde(default)]
    pub variables: Vec<Variable>,
}

/// A variable: a name for bytes at a fixed address of a space. Its name stands for that
/// address in instructions (`mov.u64 %rd1, ktab;`, `ld.const.u32 %r1, [ktab+4];`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its space.
    pub space: Space,
    /// Its first byte's address in that space (global variables from 0x600000000000, the
    /// others from 0).
    pub address: u64,
    /// Its size in bytes.
    pub size: u64,
    /// The bytes its initialiser gives, from its start (the rest is 0).
    pub init: Vec<u8>,
}

/// A kernel's (or function's) name and parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// `.func` (true) or `.entry`.
    pub func: bool,
    /// Its `.param` arguments in order.
    pub params: Vec<Param>,
}

/// One `.param` argument.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its width in bits (8 to 64).
    pub bits: u32,
    /// Its address in the param space.
    pub offset: u64,
}

impl Program {
    /// Whether every statement runs once, in order (no branch, no memory, no end).
    pub fn straight(&self) -> bool {
        self.statements
            .iter()
            .all(|s| matches!(s.body, Body::Insn(_)))
    }
    /// The parameter of this name.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.kernel.as_ref()?.params.iter().find(|p| p.name == name)
    }
}

pub use crate::isa::SPECIAL;

/// The special register of this name: its width and default value.
pub fn special(name: &str) -> Option<(u32, u64)> {
    SPECIAL
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, b, v)| (b, v))
}

/// How a special register is written inside an instruction's text for the instruction parsers,
/// whose names have no dots: `%tid.x` as `%tid$x`.
fn hide_dot(name: &str) -> String {
    name.replace('.', "$")
}

/// The name of a special register from its hidden form (`%tid$x` -> `%tid.x`).
fn unhide(name: &str) -> String {
    let shown = name.replace('$', ".");
    if name.starts_with('%') && special(&shown).is_some() {
        shown
    } else {
        name.to_string()
    }
}

/// Instructions a thread of a kernel may use besides the arithmetic ones.
const CONTROL_AND_MEMORY: &str =
    "ld, st (global, shared, local, const and param spaces, .v2 and .v4), cvta.to.global, bra, ret and exit";

/// Instructions ptxlab does not model, by kind: the kind's words and its opcodes.
const NOT_MODELLED: &[(&str, &[&str])] = &[
    (
        "calls are not modelled",
        &["call", "brx", "trap", "brkpt", "nanosleep", "pmevent"],
    ),
    (
        "barriers and fences are not modelled: a program is one thread",
        &[
            "bar",
            "barrier",
            "bssy",
            "bsync",
            "membar",
            "fence",
            "griddepcontrol",
            "elect",
        ],
    ),
    (
        "warp-wide instructions are not modelled: a program is one thread",
        &["shfl", "vote", "match", "redux", "activemask"],
    ),
    (
        "atomics are not modelled",
        &["atom", "red", "mbarrier", "multimem"],
    ),
    (
        "textures and surfaces are not modelled",
        &[
            "tex", "tld4", "txq", "suld", "sust", "sured", "suq", "istypep",
        ],
    ),
    (
        "these memory instructions are not modelled",
        &[
            "prefetch",
            "prefetchu",
            "isspacep",
            "ldmatrix",
            "stmatrix",
            "cp",
            "discard",
            "applypriority",
            "createpolicy",
            "alloca",
            "stackrestore",
            "stacksave",
        ],
    ),
    (
        "floating point is not modelled",
        &[
            "fma", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "testp", "copysign",
        ],
    ),
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
        if !is_reg_name(name) && name != CARRY_FLAG && special(name).is_none() {
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
    let mut regs = RegTable::default();
    let (clean, kernel) = take_header(&clean, &mut regs)?;
    regs.strict = kernel.is_some();
    let param_names: Vec<&str> = kernel
        .as_ref()
        .map(|k| k.params.iter().map(|p| p.name.as_str()).collect())
        .unwrap_or_default();
    let param_addresses: Vec<(String, u64)> = kernel
        .as_ref()
        .map(|k| {
            k.params
                .iter()
                .map(|p| (p.name.clone(), p.offset))
                .collect()
        })
        .unwrap_or_default();
    let mut cx = Ctx {
        regs: &mut regs,
        params: &param_names,
        param_addresses: &param_addresses,
        vars: Vec::new(),
    };
    let mut labels: Vec<(String, usize)> = Vec::new();
    let mut statements = Vec::new();
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
                    cx.regs.open_scope();
                    rest = r;
                    continue;
                }
                if let Some(r) = t.strip_prefix('}') {
                    cx.regs.close_scope(n)?;
                    rest = r;
                    continue;
                }
                if let Some((label, after)) = label_split(t) {
                    if labels.iter().any(|(l, _)| l == label) {
                        return Err(perr(n, format!("the label {label} is defined twice")));
                    }
                    labels.push((label.to_string(), statements.len()));
                    rest = after;
                    continue;
                }
                if t.is_empty() {
                    break;
                }
                // Module directives take the rest of their line and need no ';'.
                if [".version", ".target", ".address_size"].iter().any(|d| {
                    t.strip_prefix(d)
                        .is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace))
                }) {
                    break;
                }
                cur_line = n;
                rest = t;
            }
            match rest.find(';') {
                Some(k) => {
                    cur.push_str(&rest[..k]);
                    let stmt = std::mem::take(&mut cur);
                    if let Some(s) = statement(stmt.trim(), cur_line, &mut cx)? {
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
        if let Some(s) = statement(cur.trim(), cur_line, &mut cx)? {
            statements.push(s);
        }
    }
    if statements.is_empty() {
        return Err(perr(
            1,
            "the program has no instructions: write one per line, e.g. add.s32 %r3, %r1, %r2;",
        ));
    }
    for s in &mut statements {
        if let Body::Branch { label, target } = &mut s.body {
            match labels.iter().find(|(l, _)| l == label) {
                Some(&(_, k)) => *target = k,
                None => {
                    let known: Vec<&str> = labels.iter().map(|(l, _)| l.as_str()).collect();
                    return Err(perr(
                        s.line,
                        format!(
                            "the label {label} is not defined (labels: {})",
                            if known.is_empty() {
                                "none".to_string()
                            } else {
                                known.join(" ")
                            }
                        ),
                    ));
                }
            }
        }
    }
    let variables = std::mem::take(&mut cx.vars);
    Ok(Program {
        statements,
        registers: regs.list,
        kernel,
        labels,
        variables,
    })
}

/// An initialiser's element with the variables it names replaced by their addresses: a name
/// alone is its address in its own space, `generic(name)` its generic address (its space's
/// window added, [`Space::window`]); `{ generic(foo), generic(foo)+4 }` is a table of pointers.
fn initial_addresses(item: &str, vars: &[Variable], line: usize) -> Result<String, ProgramError> {
    let mut out = item.to_string();
    while let Some(k) = out.find("generic(") {
        let close = out[k..]
            .find(')')
            .map(|c| k + c)
            .ok_or_else(|| perr(line, format!("'{item}': generic( without its ')'")))?;
        let name = out[k + 8..close].trim();
        let v = vars.iter().find(|v| v.name == name).ok_or_else(|| {
            perr(
                line,
                format!("'{item}': generic() names a variable declared before, not '{name}'"),
            )
        })?;
        let at = v.space.window().wrapping_add(v.address);
        out.replace_range(k..=close, &format!("0x{at:x}"));
    }
    for v in vars {
        if out.contains(v.name.as_str()) {
            out = replace_word(&out, &v.name, &format!("0x{:x}", v.address));
        }
    }
    Ok(out)
}

/// Where the dynamic shared memory (`.extern .shared` arrays) starts in the shared space: past
/// any static shared variables (at most 16 MiB each; a GPU has a few hundred KiB).
pub const DYNAMIC_SHARED: u64 = 0x100_0000;

/// Where variables of a space start: the global ones far from where people put buffers, the
/// others at the start of their own space.
fn variable_base(space: Space) -> u64 {
    match space {
        Space::Global => 0x6000_0000_0000,
        _ => 0,
    }
}

/// A variable declaration, `.local .align 16 .b8 __local_depot0[64];` or
/// `.const .align 4 .b8 ktab[16] = {185, 121, ...};`: its place in its space, and the bytes of
/// its initialiser (the rest of it is 0).
fn variable(t: &str, line: usize, vars: &[Variable]) -> Result<Variable, ProgramError> {
    let (decl, init) = match t.split_once('=') {
        Some((d, i)) => (d.trim(), Some(i.trim())),
        None => (t.trim(), None),
    };
    let mut words: Vec<&str> = decl.split_whitespace().collect();
    // `.extern .shared ... name[];`: the block's dynamic shared memory, whose size the launch
    // gives. Every such array starts at the same address, DYNAMIC_SHARED, as every extern
    // __shared__ array of CUDA starts where the dynamic shared memory does.
    let dynamic = words.first() == Some(&".extern");
    if dynamic {
        words.remove(0);
        if words.first() != Some(&".shared") {
            return Err(perr(
                line,
                "only .extern .shared arrays are supported: the block's dynamic shared memory, .extern .shared .align N .bT name[];",
            ));
        }
    }
    let space = words
        .first()
        .and_then(|w| w.strip_prefix('.'))
        .and_then(Space::from_name)
        .ok_or_else(|| perr(line, format!("'{decl}' is not a variable declaration")))?;
    let mut align = 1u64;
    let mut ty = None;
    let mut k = 1;
    while k < words.len() - 1 {
        match words[k] {
            ".align" => {
                align = words
                    .get(k + 1)
                    .and_then(|a| a.parse().ok())
                    .filter(|a: &u64| a.is_power_of_two())
                    .ok_or_else(|| perr(line, ".align takes a power of two"))?;
                k += 2;
                continue;
            }
            w => match w.strip_prefix('.').and_then(crate::isa::Type::from_name) {
                Some(t) if t.bits() <= 64 && t.bits() >= 8 => ty = Some(t),
                _ => {
                    return Err(perr(
                        line,
                        format!("'{w}' in '{decl}': a variable is .SPACE [.align N] .TYPE name[N]"),
                    ))
                }
            },
        }
        k += 1;
    }
    let ty = ty.ok_or_else(|| perr(line, format!("'{decl}' names no type")))?;
    let last = words.last().copied().unwrap_or("");
    let (name, count) = match last.split_once('[') {
        Some((n, c)) if dynamic && c.trim() == "]" => (n, 0),
        Some(_) if dynamic => {
            return Err(perr(
                line,
                format!("'{last}': an .extern .shared array has no size: name[]"),
            ))
        }
        Some((n, c)) => {
            let c = c.trim_end_matches(']');
            let count: u64 = c
                .trim()
                .parse()
                .map_err(|_| perr(line, format!("'{last}': the count in [N] must be a number")))?;
            (n, count)
        }
        None => (last, 1),
    };
    if !is_reg_name(name) {
        return Err(perr(line, format!("'{name}' is not a variable name")));
    }
    if vars.iter().any(|v| v.name == name) {
        return Err(perr(line, format!("the variable {name} is declared twice")));
    }
    let elem = (ty.bits() / 8) as u64;
    let size = elem.saturating_mul(count);
    if size > 1 << 24 {
        return Err(perr(line, format!("{name}: at most 16 MiB a variable")));
    }
    // Static variables follow one another; the dynamic shared memory is apart.
    let end = vars
        .iter()
        .filter(|v| v.space == space && !(space == Space::Shared && v.address == DYNAMIC_SHARED))
        .map(|v| v.address + v.size)
        .max()
        .unwrap_or(variable_base(space));
    let address = if dynamic {
        DYNAMIC_SHARED
    } else {
        end.div_ceil(align.max(elem)) * align.max(elem)
    };
    if dynamic && init.is_some() {
        return Err(perr(
            line,
            format!("{name}: an .extern array takes no initialiser"),
        ));
    }
    let mut bytes = Vec::new();
    if let Some(init) = init {
        let inner = init
            .strip_prefix('{')
            .and_then(|x| x.strip_suffix('}'))
            .unwrap_or(init);
        for item in inner.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let item = &initial_addresses(item, vars, line)?;
            let v = crate::constexpr::eval(item).map_err(|_| {
                perr(
                    line,
                    format!("'{item}' in the initialiser of {name} is not a number"),
                )
            })?;
            bytes.extend_from_slice(&(v as u64).to_le_bytes()[..elem as usize]);
        }
        if bytes.len() as u64 > size {
            return Err(perr(
                line,
                format!("the initialiser of {name} has more elements than its {count}"),
            ));
        }
    }
    Ok(Variable {
        name: name.to_string(),
        space,
        address,
        size,
        init: bytes,
    })
}

/// `text` with every whole word `name` replaced by `with`.
/// Inside `[ ]` it is left as it is (an address names the variable itself).
fn replace_word(text: &str, name: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find(name) {
        // The character before: in what is left, or (at its start) the last one kept.
        let before = rest[..k]
            .chars()
            .next_back()
            .or_else(|| out.chars().next_back());
        let after = rest[k + name.len()..].chars().next();
        let word_char = |c: Option<char>| c.is_some_and(|c| crate::scan::ident_char(c) || c == '%');
        let in_brackets = out.matches('[').count() + rest[..k].matches('[').count()
            > out.matches(']').count() + rest[..k].matches(']').count();
        out.push_str(&rest[..k]);
        if word_char(before) || word_char(after) || in_brackets {
            out.push_str(name);
        } else {
            out.push_str(with);
        }
        rest = &rest[k + name.len()..];
    }
    out.push_str(rest);
    out
}

/// Find an `.entry` or `.func` header, read its parameters, and blank it out of the text
/// (keeping line breaks, so lines keep their numbers); its body's braces stay as a scope.
fn take_header(text: &str, regs: &mut RegTable) -> Result<(String, Option<Kernel>), ProgramError> {
    let line_of = |k: usize| text[..k].matches('\n').count() + 1;
    let found: Vec<(usize, bool)> = text
        .match_indices('.')
        .filter_map(|(k, _)| {
            let rest = &text[k..];
            let before_ok = k == 0 || text[..k].ends_with(|c: char| c.is_whitespace());
            let kw = if rest.starts_with(".entry") {
                Some((6, false))
            } else if rest.starts_with(".func") {
                Some((5, true))
            } else {
                None
            };
            let (len, func) = kw?;
            let after_ok = !rest[len..].starts_with(crate::scan::ident_char);
            (before_ok && after_ok).then_some((k, func))
        })
        .collect();
    let Some(&(at, func)) = found.first() else {
        return Ok((text.to_string(), None));
    };
    if let Some(&(k, _)) = found.get(1) {
        return Err(perr(
            line_of(k),
            "a second .entry or .func: a program is one kernel or function",
        ));
    }
    let start = text[..at].rfind('\n').map_or(0, |k| k + 1);
    let mut pos = at + if func { 5 } else { 6 };
    let skip_ws = |p: &mut usize| {
        while text[*p..].starts_with(char::is_whitespace) {
            *p += text[*p..].chars().next().map_or(1, char::len_utf8);
        }
    };
    let group = |p: &mut usize| -> Result<Option<&str>, ProgramError> {
        if !text[*p..].starts_with('(') {
            return Ok(None);
        }
        let close = text[*p..].find(')').ok_or_else(|| {
            perr(
                line_of(*p),
                "this '(' of the parameter list is never closed",
            )
        })?;
        let inner = &text[*p + 1..*p + close];
        *p += close + 1;
        Ok(Some(inner))
    };
    skip_ws(&mut pos);
    let mut lists: Vec<(usize, &str)> = Vec::new();
    if func {
        let at_ret = pos;
        if let Some(r) = group(&mut pos)? {
            lists.push((at_ret, r));
        }
        skip_ws(&mut pos);
    }
    let name_end = text[pos..]
        .find(|c: char| !crate::scan::ident_char(c))
        .map_or(text.len(), |k| pos + k);
    let name = text[pos..name_end].to_string();
    if name.is_empty() {
        return Err(perr(line_of(pos), "the .entry or .func needs a name"));
    }
    pos = name_end;
    skip_ws(&mut pos);
    let at_params = pos;
    if let Some(p) = group(&mut pos)? {
        lists.push((at_params, p));
    }
    let open = text[pos..].find(['{', ';']).map(|k| pos + k);
    let body = match open {
        Some(k) if text[k..].starts_with('{') => k,
        _ => {
            return Err(perr(
                line_of(at),
                format!("{name} has no body: write its instructions between {{ and }}"),
            ))
        }
    };
    let mut params: Vec<Param> = Vec::new();
    let mut offset = 0u64;
    for (at, list) in lists {
        for item in list.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let line = line_of(at + list.find(item).unwrap_or(0) + 1);
            let words: Vec<&str> = item.split_whitespace().collect();
            let pname = *words.last().unwrap_or(&"");
            if pname.contains('[') {
                return Err(perr(
                    line,
                    format!("'{item}': array (struct) parameters are not modelled; pass a pointer and fill the memory"),
                ));
            }
            let ty = words
                .iter()
                .filter_map(|w| w.strip_prefix('.'))
                .find_map(crate::isa::Type::from_name)
                .filter(|t| t.bits() <= 64);
            let (Some(ty), true) = (ty, is_reg_name(pname)) else {
                return Err(perr(
                    line,
                    format!("'{item}' is not a parameter: write .param .u64 name"),
                ));
            };
            match words[0] {
                ".param" => {
                    let bytes = (ty.bits() / 8).max(1) as u64;
                    offset = offset.div_ceil(bytes) * bytes;
                    if params.iter().any(|p| p.name == pname) {
                        return Err(perr(line, format!("the parameter {pname} is named twice")));
                    }
                    params.push(Param {
                        name: pname.to_string(),
                        bits: ty.bits().max(8),
                        offset,
                    });
                    offset += bytes;
                }
                ".reg" => regs.declare(pname, ty.bits(), line)?,
                w => {
                    return Err(perr(
                        line,
                        format!("'{w}': a parameter is .param (or .reg in a .func)"),
                    ))
                }
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..start]);
    out.extend(
        text[start..body]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' }),
    );
    out.push_str(&text[body..]);
    Ok((out, Some(Kernel { name, func, params })))
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
    /// Every register must be declared (in an `.entry` or `.func`, as ptxas requires); else a
    /// register's first use declares it.
    strict: bool,
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
            special: false,
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

    /// A special register read (`shown` as people write it, `hidden` as the statement names it).
    fn use_special(&mut self, shown: &str, hidden: &str, bits: u32) {
        if self.index.contains_key(hidden) {
            return;
        }
        self.index.insert(hidden.to_string(), self.list.len());
        self.list.push(Register {
            name: shown.to_string(),
            bits,
            declared: None,
            special: true,
        });
    }

    /// A register read as an address: 64 bits (its width when this is its first use) or 16,
    /// or with `narrow` (an address of the shared, local, const or param space) 32 too; never
    /// a predicate.
    fn use_address(
        &mut self,
        name: &str,
        narrow: bool,
        line: usize,
        text: &str,
    ) -> Result<(), ProgramError> {
        match self.index.get(name) {
            Some(&k) if self.list[k].bits == 1 => Err(perr(
                line,
                format!("{name} is a predicate, but '{text}' uses it as an address"),
            )),
            // ptxas takes a 16-bit register as an address of any space, a 32-bit one of any
            // space but global (tests/data/ptxas-kernels.jsonl).
            Some(&k) if self.list[k].bits == 16 || (narrow && self.list[k].bits == 32) => Ok(()),
            Some(&k) if self.list[k].bits != 64 => Err(perr(
                line,
                format!(
                    "{name} is {} bits wide, but an address register is 64 bits (.address_size 64)",
                    self.list[k].bits
                ),
            )),
            Some(_) => Ok(()),
            None => self.use_reg(name, 64, false, line, text),
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
            None if self.strict && name != CARRY_FLAG => Err(perr(
                line,
                format!(
                    "{name} is not declared: in an .entry or .func every register is declared with .reg (as ptxas requires), e.g. .reg .b32 {name};"
                ),
            )),
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
                    special: false,
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
    let ty = crate::isa::Type::from_name(tname).filter(|t| *t != crate::isa::Type::B128);
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

/// What a statement is read with: the register table and the kernel's parameter names.
struct Ctx<'a> {
    regs: &'a mut RegTable,
    params: &'a [&'a str],
    /// Each parameter's address in the param space, for its name written outside `[ ]`.
    param_addresses: &'a [(String, u64)],
    /// The variables declared so far (`.global`, `.const`, `.shared`, `.local`).
    vars: Vec<Variable>,
}

fn statement(t: &str, line: usize, cx: &mut Ctx) -> Result<Option<Statement>, ProgramError> {
    if t.starts_with(".reg") {
        declaration(t, line, cx.regs)?;
        return Ok(None);
    }
    if let Some(d) = t.strip_prefix('.') {
        let w: String = d
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if matches!(
            w.as_str(),
            "version" | "target" | "address_size" | "pragma" | "loc" | "file" | "section"
        ) {
            return Ok(None);
        }
        if matches!(
            w.as_str(),
            "global" | "shared" | "local" | "const" | "extern"
        ) {
            let v = variable(t, line, &cx.vars)?;
            cx.vars.push(v);
            return Ok(None);
        }
        let what = match w.as_str() {
            "param" => "'.param' is declared in the parameter list of an .entry or .func".into(),
            "entry" | "func" => format!("a second '.{w}': a program is one .entry or .func"),
            _ => format!(
                "'.{w}' is not supported here: a program is instructions and .reg declarations, or one .entry or .func"
            ),
        };
        return Err(perr(line, what));
    }
    // Special registers are written without their dot for the instruction parsers, and
    // variables' names as their addresses; the text shown is the one written.
    let written = t;
    let mut t = std::borrow::Cow::Borrowed(t);
    for (name, _, _) in SPECIAL {
        if t.contains(name) {
            t = std::borrow::Cow::Owned(t.replace(name, &hide_dot(name)));
        }
    }
    // A parameter's name outside [ ] is its address in the param space, as a variable's is.
    let named = cx
        .vars
        .iter()
        .map(|v| (&v.name, v.address, v.space == Space::Global))
        .chain(cx.param_addresses.iter().map(|(n, a)| (n, *a, false)));
    for (name, address, global) in named {
        if t.contains(name.as_str()) {
            let replaced = replace_word(&t, name, &format!("0x{address:x}"));
            if replaced != *t {
                // Outside an address, a variable's name is a value only for mov and cvta, as
                // ptxas takes it: its address, in 64 bits.
                let word = t
                    .split_whitespace()
                    .find(|w| !w.starts_with('@'))
                    .unwrap_or("");
                // A narrower mov keeps the low bits. ptxas takes a 16-bit one of any address,
                // a 32-bit one of any space but global, and of a global variable only with an
                // offset (`mov.u32 %r1, gtab+4;` but not `mov.u32 %r1, gtab;`).
                // Where the name stands as a word is what replace_word decides: mark it there.
                let offset = replace_word(&t, name, "\u{1}")
                    .split('\u{1}')
                    .skip(1)
                    .any(|after| after.trim_start().starts_with(['+', '-']));
                let w16 = [".u16", ".b16", ".s16"].iter().any(|x| word.ends_with(x));
                let w32 = [".u32", ".b32", ".s32"].iter().any(|x| word.ends_with(x));
                let narrow_ok = w16 || (w32 && (!global || offset));
                let ok = (word.starts_with("mov.")
                    && ([".u64", ".b64", ".s64"].iter().any(|x| word.ends_with(x)) || narrow_ok))
                    || (word.starts_with("cvta.") && !word.starts_with("cvta.to."));
                if !ok {
                    return Err(perr(
                        line,
                        format!(
                            "{name} is a variable: its name is its address in mov.u64 (mov.u64 %rd1, {name}) and cvta, or inside [ ]"
                        ),
                    ));
                }
                t = std::borrow::Cow::Owned(replaced);
            }
        }
    }
    let t: &str = &t;
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
    let full_word = body.split(char::is_whitespace).next().unwrap_or("");
    let text = written[t.len() - body.len()..].to_string();
    let with_semicolon = format!("{body};");
    // Which row reads it: the one reader of instruction text names it (words written apart
    // too, `add .u32 .cc`), from the one index of both tables.
    let head = crate::scan::Head::read(body).ok();
    let instr = head.as_ref().and_then(|h| h.instr());
    let words = head.as_ref().map_or_else(
        || full_word.split('.').skip(1).collect(),
        |h| h.word_texts(),
    );
    let shown = |d: &dyn fmt::Display| perr(line, format!("{d} in '{text}'"));
    let body_of = |b: Body| Statement {
        line,
        text: text.clone(),
        guard: guard.clone(),
        body: b,
    };
    let float = words.iter().any(|&m| {
        matches!(
            m,
            "f16"
                | "f16x2"
                | "bf16"
                | "bf16x2"
                | "f32"
                | "f64"
                | "rn"
                | "rz"
                | "rm"
                | "rp"
                | "ftz"
                | "approx"
                | "full"
        )
    });
    let stmt = if matches!(opname, "ld" | "ldu" | "st") {
        let vars: Vec<(&str, Space)> = cx.vars.iter().map(|v| (v.name.as_str(), v.space)).collect();
        let names = memory::Names {
            params: cx.params,
            vars: &vars,
        };
        let a = memory::parse_access(body, names).map_err(|e| shown(&e))?;
        body_of(Body::Access(Box::new(a)))
    } else if opname == "cvta" {
        let c = memory::parse_cvta(body).map_err(|e| shown(&e))?;
        body_of(Body::Cvta(Box::new(c)))
    } else if opname == "bra" {
        let rest = body[full_word.len()..].trim();
        if !matches!(full_word, "bra" | "bra.uni") {
            return Err(shown(&"bra takes .uni or nothing"));
        }
        if !is_reg_name(rest) {
            return Err(shown(&"bra names a label: bra $L__BB0_2"));
        }
        body_of(Body::Branch {
            label: rest.to_string(),
            target: usize::MAX,
        })
    } else if matches!(opname, "ret" | "exit") {
        if !matches!(full_word, "ret" | "ret.uni" | "exit")
            || !body[full_word.len()..].trim().is_empty()
        {
            return Err(shown(&format!("{opname} takes no operands")));
        }
        body_of(Body::End)
    } else if float
        && instr.is_some()
        && !matches!(instr, Some(Instr::Program(p)) if p.takes_float())
    {
        return Err(perr(
            line,
            format!("'{full_word}': floating point is not modelled; programs compute with integer and bit types"),
        ));
    } else if instr.is_some() {
        let insn = parse_unguarded(&with_semicolon).map_err(|d| shown(&d))?;
        body_of(Body::Insn(Box::new(insn)))
    } else if let Some((why, _)) = NOT_MODELLED.iter().find(|(_, ops)| ops.contains(&opname)) {
        return Err(perr(
            line,
            format!("'{opname}' is not supported: {why}; a program may use the arithmetic, logic, move and compare instructions, and {CONTROL_AND_MEMORY}"),
        ));
    } else if opname.is_empty() {
        return Err(perr(line, format!("expected an instruction at '{text}'")));
    } else {
        return Err(perr(
            line,
            format!(
                "unknown instruction '{opname}'; programs may use {}, and {CONTROL_AND_MEMORY}",
                supported_opcodes().join(" ")
            ),
        ));
    };
    let regs = &mut *cx.regs;
    // Register widths, from declarations or first use.
    if let Some((_, g)) = &stmt.guard {
        regs.use_reg(g, 1, false, line, &text)?;
    }
    let op = match &stmt.body {
        Body::Insn(i) => i.program_op(),
        _ => None,
    };
    let loose = op.is_some_and(|o| o.row().operands.wider) || matches!(&stmt.body, Body::Access(_));
    let moves = op.is_some_and(|o| o.row().operands.specials);
    for (name, bits, written) in uses(&stmt) {
        let shown_name = unhide(&name);
        if matches!(name.as_str(), "%tid" | "%ntid" | "%ctaid" | "%nctaid") {
            return Err(perr(
                line,
                format!("{name} is a vector: name a component, {name}.x, .y or .z"),
            ));
        }
        if let Some((sb, _)) = special(&shown_name) {
            if written {
                return Err(perr(line, format!("{shown_name} is read only")));
            }
            if !moves {
                return Err(perr(
                    line,
                    format!(
                        "{shown_name} is a special register: read it with mov (or cvt) first, as ptxas requires"
                    ),
                ));
            }
            regs.use_special(&shown_name, &name, sb);
            // A narrower read keeps the low bits (mov.u16 %rs1, %tid.x).
            if (bits > sb || sb == 64) && !ops::width_fits(sb, bits, loose) {
                return Err(perr(
                    line,
                    format!("{shown_name} is {sb} bits wide, but '{text}' reads {bits} bits there"),
                ));
            }
            continue;
        }
        if bits == 0 {
            // An address: 64 bits for global (and generic) memory; the other spaces are small
            // enough for 16- and 32-bit registers too, as ptxas takes them.
            let narrow =
                matches!(&stmt.body, Body::Access(a) if !a.generic && a.space != Space::Global);
            regs.use_address(&name, narrow, line, &text)?;
            continue;
        }
        regs.use_reg(&name, bits, loose, line, &text)?;
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
        Body::Insn(insn) => insn.rename_registers(&to),
        Body::Access(a) => {
            for x in &mut a.slots {
                if let Slot::Reg(r) = x {
                    *r = to(r);
                }
            }
            if let Base::Reg(r) = &mut a.address.base {
                *r = to(r);
            }
        }
        Body::Cvta(c) => {
            c.dst = to(&c.dst);
            if let Slot::Reg(r) = &mut c.src {
                *r = to(r);
            }
        }
        Body::Branch { .. } | Body::End => {}
    }
}

/// Every register a statement names with the width it reads or writes (0 for an address, read
/// at the register's own width) and whether it is written, in written order.
fn uses(s: &Statement) -> Vec<(String, u32, bool)> {
    let mut out = Vec::new();
    match &s.body {
        Body::Insn(insn) => out = insn.registers(),
        Body::Access(a) => {
            for x in &a.slots {
                if let Slot::Reg(r) = x {
                    out.push((r.clone(), a.bits, !a.store));
                }
            }
            if let Base::Reg(r) = &a.address.base {
                out.push((r.clone(), 0, false));
            }
        }
        Body::Cvta(c) => {
            out.push((c.dst.clone(), c.bits, true));
            if let Slot::Reg(r) = &c.src {
                out.push((r.clone(), c.bits, false));
            }
        }
        Body::Branch { .. } | Body::End => {}
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

/// Bytes one step read or wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemAccess {
    /// Written (`st`) or read (`ld`).
    pub store: bool,
    /// The space.
    pub space: Space,
    /// The first byte's address.
    pub address: u64,
    /// The bytes read, or written, lowest address first.
    pub bytes: Vec<u8>,
    /// For a store, the bytes that were there before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub old: Vec<u8>,
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
    /// The instruction's stages (None when the guard was false, for a statement that is not an
    /// arithmetic instruction, or in a run that keeps no stages).
    pub trace: Option<Trace>,
    /// The registers it wrote.
    pub writes: Vec<Write>,
    /// The statement run next (the number of statements at the end).
    #[serde(default)]
    pub next: usize,
    /// For a `bra`: whether it was taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken: Option<bool>,
    /// The bytes it read or wrote.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory: Vec<MemAccess>,
    /// `ret` or `exit` ran: the thread ended.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ended: bool,
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
    /// A special register (`%tid.x`): when not given, it starts at its default, not 0.
    #[serde(default)]
    pub special: bool,
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

/// A program being run: the register file, the memory, the next statement, and the steps
/// taken.
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
    pc: usize,
    ended: bool,
    /// Bytes put in memory before the run (`--mem`).
    fills: Vec<Bytes>,
    /// The parameters' values, as given.
    param_values: Vec<(String, u64)>,
    start_mem: Memory,
    mem: Memory,
    /// Steps a run takes at most before it stops with a message.
    pub max_steps: usize,
    /// Whether each step keeps its instruction's stages (a long loop may not want them).
    pub keep_traces: bool,
    stopped: Option<String>,
}

impl Machine {
    /// Steps a run takes at most unless told otherwise.
    pub const MAX_STEPS: usize = 100_000;

    /// Start a program with the given register, parameter and special register values; every
    /// other register is 0 (a special register its default). A value wider than its register
    /// is refused.
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
            pc: 0,
            ended: false,
            fills: Vec::new(),
            param_values: Vec::new(),
            start_mem: Memory::default(),
            mem: Memory::default(),
            max_steps: Machine::MAX_STEPS,
            keep_traces: true,
            stopped: None,
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
        for (k, r) in self.program.registers.iter().enumerate() {
            if let Some((_, v)) = special(&r.name).filter(|_| r.special) {
                start[k] = v;
            }
        }
        let mut params = Vec::new();
        for (name, v) in initial {
            if let Some(p) = self.program.param(name) {
                if !fits(*v, p.bits) {
                    return Err(format!(
                        "the parameter {name} is {} bits wide, too narrow for 0x{v:x}",
                        p.bits
                    ));
                }
                params.push((name.clone(), *v & mask(p.bits)));
                continue;
            }
            let Some(&k) = self.index.get(name) else {
                if let Some((bits, _)) = special(name) {
                    // A special register the program does not read.
                    if !fits(*v, bits) {
                        return Err(format!(
                            "{name} is {bits} bits wide, too narrow for 0x{v:x}"
                        ));
                    }
                    continue;
                }
                let mut names: Vec<&str> = self
                    .program
                    .registers
                    .iter()
                    .map(|r| r.name.as_str())
                    .collect();
                if let Some(k) = &self.program.kernel {
                    names.extend(k.params.iter().map(|p| p.name.as_str()));
                }
                return Err(format!(
                    "{name} is not a register{} of the program (it uses {})",
                    if self.program.kernel.is_some() {
                        " or parameter"
                    } else {
                        ""
                    },
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(" ")
                    }
                ));
            };
            let bits = self.program.registers[k].bits;
            if !fits(*v, bits) {
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
        self.param_values = params;
        self.build_memory();
        self.restart();
        Ok(())
    }

    /// Put bytes in memory before the run (each `--mem` item), replacing those given before,
    /// and go back to the first statement.
    pub fn set_memory(&mut self, fills: Vec<Bytes>) {
        self.fills = fills;
        self.build_memory();
        self.restart();
    }

    fn build_memory(&mut self) {
        let mut mem = Memory::default();
        for v in &self.program.variables {
            mem.fill(&Bytes {
                space: v.space,
                address: v.address,
                bytes: v.init.clone(),
            });
        }
        for f in &self.fills {
            mem.fill(f);
        }
        if let Some(k) = &self.program.kernel {
            for p in &k.params {
                let v = self
                    .param_values
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .map_or(0, |(_, v)| *v);
                let bytes = (p.bits / 8) as usize;
                mem.fill(&Bytes {
                    space: Space::Param,
                    address: p.offset,
                    bytes: v.to_le_bytes()[..bytes].to_vec(),
                });
            }
        }
        self.start_mem = mem;
    }

    /// Index of the next statement to run (equal to the number of statements at the end).
    pub fn pc(&self) -> usize {
        if self.ended {
            self.program.statements.len()
        } else {
            self.pc
        }
    }
    /// Whether the run is over: past the last statement, or `ret`/`exit` ran.
    pub fn at_end(&self) -> bool {
        self.pc() >= self.program.statements.len()
    }
    /// Why the run stopped before its end (the step limit), if it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }
    /// The steps taken so far.
    pub fn history(&self) -> &[Step] {
        &self.history
    }
    /// The memory as it is now: every space's bytes, and which were read and written.
    pub fn memory(&self) -> &Memory {
        &self.mem
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
                special: r.special,
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

    /// Whether statement `i`'s guard lets it run on the register values `values`.
    fn guard_holds(&self, values: &[u64], i: usize) -> bool {
        let s = &self.program.statements[i];
        match &s.guard {
            Some((neg, g)) => (self.read(values, g, 1) != 0) != *neg,
            None => true,
        }
    }

    /// The values an arithmetic statement `i` reads from the register values `values` (sources
    /// cut to the widths it reads, immediates included); None when its guard keeps it from
    /// running.
    fn sources(&self, values: &[u64], i: usize) -> Option<Vec<u64>> {
        if !self.guard_holds(values, i) {
            return None;
        }
        Some(match &self.program.statements[i].body {
            Body::Insn(insn) => insn.read_sources(|name, bits| self.read(values, name, bits)),
            Body::Access(_) | Body::Cvta(_) | Body::Branch { .. } | Body::End => Vec::new(),
        })
    }

    /// Run arithmetic statement `i` on the values it reads (from [`Machine::sources`]): what it
    /// writes (register index, value, width written, written as signed) and, when `traced`,
    /// its stages. Without `traced` both kinds of instruction run untraced (the same
    /// evaluation, no stages built).
    #[allow(clippy::type_complexity)]
    fn execute(
        &self,
        i: usize,
        src: &[u64],
        traced: bool,
    ) -> (Vec<(usize, u64, u32, bool)>, Option<Trace>) {
        let mut out: Vec<(usize, u64, u32, bool)> = Vec::new();
        let mut trace = None;
        if let Body::Insn(insn) = &self.program.statements[i].body {
            trace = insn.execute(src, traced, |w| {
                out.push((self.index[w.reg], w.value, w.bits, w.signed));
            });
        }
        (out, trace)
    }

    /// The address an access names, from the register values now.
    fn address(&self, a: &Access) -> u64 {
        let base = match &a.address.base {
            Base::Reg(r) => {
                let k = self.index[r];
                self.values[k] & mask(self.program.registers[k].bits)
            }
            Base::Param(p) => self.program.param(p).map_or(0, |p| p.offset),
            Base::Var(v) => self
                .program
                .variables
                .iter()
                .find(|x| x.name == *v)
                .map_or(0, |x| x.address),
            Base::Abs(v) => *v,
        };
        base.wrapping_add(a.address.offset as u64)
    }

    /// Run the next statement; None at the end, or when the step limit is reached (see
    /// [`Machine::stopped`]).
    pub fn step(&mut self) -> Option<&Step> {
        if self.at_end() {
            return None;
        }
        if self.history.len() >= self.max_steps {
            let line = self.program.statements[self.pc].line;
            self.stopped = Some(format!(
                "line {line}: stopped after {} steps, before this line ran again: the program may loop forever (a run takes at most {} steps)",
                self.history.len(),
                self.max_steps
            ));
            return None;
        }
        let i = self.pc;
        let line = self.program.statements[i].line;
        let holds = self.guard_holds(&self.values, i);
        let mut out: Vec<(usize, u64, u32, bool)> = Vec::new();
        let mut trace = None;
        let mut next = i + 1;
        let mut taken = None;
        let mut memory = Vec::new();
        let mut ended = false;
        // The statement is borrowed from `self.program` while the memory (`self.mem`, another
        // field) changes: nothing is copied.
        match &self.program.statements[i].body {
            Body::Insn(_) => {
                if let Some(src) = self.sources(&self.values, i) {
                    (out, trace) = self.execute(i, &src, self.keep_traces);
                }
            }
            Body::Access(a) if holds => {
                let addr = self.address(a);
                let n = a.bits / 8;
                for (k, slot) in a.slots.iter().enumerate() {
                    let at = addr.wrapping_add(k as u64 * n as u64);
                    // A generic address names the space whose window holds it.
                    let (space, at) = if a.generic {
                        Space::of_generic(at)
                    } else {
                        (a.space, at)
                    };
                    if a.store {
                        let v = match slot {
                            Slot::Reg(r) => self.read(&self.values, r, a.bits),
                            Slot::Imm(v) => *v & mask(a.bits),
                            Slot::Sink => 0,
                        };
                        let old = self.mem.store(space, at, n, v);
                        memory.push(MemAccess {
                            store: true,
                            space,
                            address: at,
                            bytes: v.to_le_bytes()[..n as usize].to_vec(),
                            old,
                        });
                    } else {
                        let v = self.mem.load(space, at, n);
                        memory.push(MemAccess {
                            store: false,
                            space,
                            address: at,
                            bytes: v.to_le_bytes()[..n as usize].to_vec(),
                            old: Vec::new(),
                        });
                        if let Slot::Reg(r) = slot {
                            out.push((self.index[r], v, a.bits, a.signed));
                        }
                    }
                }
            }
            Body::Cvta(c) if holds => {
                let v = match &c.src {
                    Slot::Reg(r) => self.read(&self.values, r, c.bits),
                    Slot::Imm(v) => *v & mask(c.bits),
                    Slot::Sink => 0,
                };
                let w = c.space.window();
                let v = if c.to {
                    v.wrapping_sub(w)
                } else {
                    v.wrapping_add(w)
                };
                out.push((self.index[&c.dst], v, c.bits, false));
            }
            Body::Branch { target, .. } => {
                taken = Some(holds);
                if holds {
                    next = *target;
                }
            }
            Body::End if holds => {
                ended = true;
                next = self.program.statements.len();
            }
            Body::Access(_) | Body::Cvta(_) | Body::End => {}
        }
        let mut step = Step {
            index: i,
            line,
            executed: holds,
            trace,
            writes: Vec::new(),
            next,
            taken,
            memory,
            ended,
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
        self.pc = next;
        self.ended = ended;
        self.history.push(step);
        self.history.last()
    }

    /// Run from the start to the end without recording anything, leaving the machine as it
    /// is: the value each register ends with, in the order of [`Program::registers`] (see
    /// [`Machine::register_index`]). The same values [`Machine::run`] leaves, without the stages;
    /// for running one program on many inputs (with [`Machine::start_with`]). For a straight
    /// program, `memo` keeps what each statement wrote for the values it read, so a statement
    /// that meets the same values again (one that reads only some of the inputs, or a constant)
    /// is not evaluated again; give each program its own. A program with branches or memory
    /// runs step by step on a copy.
    pub fn run_quiet(&self, memo: &mut Memo) -> Vec<u64> {
        if !self.program.straight() {
            let mut m = self.clone();
            m.keep_traces = false;
            m.restart();
            m.run();
            return m.values;
        }
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
        for a in s.memory.iter().rev().filter(|a| a.store) {
            self.mem.restore(a.space, a.address, &a.old);
        }
        if !s.memory.is_empty() {
            // Which bytes were read and written: those of the steps that remain.
            self.mem.clear_marks();
            for st in &self.history {
                for a in &st.memory {
                    self.mem.mark(a.space, a.address, a.bytes.len(), a.store);
                }
            }
        }
        self.pc = s.index;
        self.ended = false;
        self.stopped = None;
        true
    }

    /// Run to the end (or to the step limit); the number of steps taken.
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
        self.mem = self.start_mem.clone();
        self.pc = 0;
        self.ended = false;
        self.stopped = None;
    }
}

/// Whether `v` fits a register of `bits` bits, as an unsigned or a two's complement value.
fn fits(v: u64, bits: u32) -> bool {
    v & !mask(bits) == 0
        || (bits < 64 && bits > 1 && (v as i64) < 0 && (v as i64) >= -(1i64 << (bits - 1)))
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
            ("mov.b32 %r1, 1;\nbra L;", 2, "not defined"),
            (
                "\n\natom.global.add.u32 %r1, [%rd1], 1;",
                3,
                "atomics are not modelled",
            ),
            ("fma.rn.f32 %f1, %f2, %f3, %f4;", 1, "floating point"),
            ("frob.b32 %r1, %r2;", 1, "programs may use"),
            ("add.u32 %r1, %r2;", 1, "add"),
            (".global .u32 x;", 1, "no instructions"),
            (".maxnreg 32;", 1, "not supported here"),
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
    fn generic_addresses_of_shared_and_local_memory_reach_those_spaces() {
        // A shared array's generic address (cvta.shared) is read and written through plain
        // ld/st; cvta.to.shared gives the shared address back; a local one likewise.
        let text = ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n.shared .align 4 .b8 sbuf[16];\n.local .align 4 .b8 lbuf[8];\nmov.u64 %rd1, sbuf;\ncvta.shared.u64 %rd2, %rd1;\nst.u32 [%rd2+4], 0x11223344;\nld.shared.u32 %r1, [sbuf+4];\ncvta.to.shared.u64 %rd3, %rd2;\nmov.u64 %rd4, lbuf;\ncvta.local.u64 %rd5, %rd4;\nst.u32 [%rd5], %r1;\nld.local.u32 %r2, [lbuf];\nld.u32 %r3, [%rd2+4];\nret;\n}";
        let p = parse_program(text).unwrap();
        let mut m = Machine::new(p, &[]).unwrap();
        m.run();
        assert_eq!(m.value("%r1"), Some(0x1122_3344));
        assert_eq!(m.value("%r2"), Some(0x1122_3344));
        assert_eq!(m.value("%r3"), Some(0x1122_3344));
        assert_eq!(m.value("%rd3"), m.value("%rd1"));
        assert_eq!(
            m.value("%rd2"),
            Some(Space::Shared.window() + m.value("%rd1").unwrap())
        );
        // Nothing went to global memory.
        assert!(m
            .memory()
            .written()
            .iter()
            .all(|b| b.space != Space::Global));
        assert_eq!(
            Space::of_generic(Space::Local.window() + 8),
            (Space::Local, 8)
        );
        assert_eq!(Space::of_generic(0x2000), (Space::Global, 0x2000));
    }

    #[test]
    fn extern_shared_arrays_are_the_dynamic_shared_memory() {
        // As ZLUDA's extern_shared test writes it: the array outside the kernel, its address
        // taken, made generic, stored through and read back by name. Two extern arrays alias;
        // a static shared variable declared after them still starts at 0.
        let text = ".extern .shared .align 4 .b32 dyn[];\n.extern .shared .align 8 .b64 dyn2[];\n.visible .entry k(.param .u64 input)\n{\n.reg .u64 a, t, s;\n.shared .align 4 .b8 sbuf[8];\nld.param.u64 a, [input];\nld.global.u64 t, [a];\nmov.u64 s, dyn;\ncvta.shared.u64 s, s;\nst.u64 [s], t;\nld.shared.u64 t, [dyn2];\nmov.u64 a, sbuf;\nret;\n}";
        let p = parse_program(text).unwrap();
        let mut m = Machine::new(p, &[("input".into(), 0x1000)]).unwrap();
        m.set_memory(vec![memory::Bytes {
            space: Space::Global,
            address: 0x1000,
            bytes: vec![1, 2, 3, 4, 5, 6, 7, 8],
        }]);
        m.run();
        assert_eq!(m.value("t"), Some(0x0807_0605_0403_0201));
        assert_eq!(m.value("a"), Some(0));
        let bad = parse_program(".extern .shared .b32 d[4];\nmov.u32 %r1, 1;").unwrap_err();
        assert!(bad.message.contains("has no size"), "{bad}");
        let bad = parse_program(".extern .global .b32 g[];\nmov.u32 %r1, 1;").unwrap_err();
        assert!(bad.message.contains("only .extern .shared"), "{bad}");
    }

    #[test]
    fn a_narrow_mov_of_a_global_address_needs_an_offset_wherever_the_name_stands() {
        // The name u also appears inside .u32: only the word u decides.
        let k = |line: &str| {
            parse_program(&format!(
                ".global .align 4 .b8 u[8];\n.visible .entry k()\n{{\n.reg .b32 %r<3>;\n{line}\nret;\n}}"
            ))
        };
        assert!(k("mov.u32 %r1, u+4;").is_ok());
        assert!(k("mov.u32 %r1, u;").is_err());
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
