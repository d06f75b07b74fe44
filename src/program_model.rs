//! The Program view's whole state and the pure function that moves it: the program text, the
//! starting values typed per register, the step reached and the register picked. Nothing here
//! touches the browser, so it is tested natively.
//!
//! Every value shown comes from `ptxlab_core::program` (the parser, the machine and each step's
//! trace) and every number is written by `ptxlab_core::value::format`; this module only
//! decides which program to run, from which values, and how far.

use std::rc::Rc;

use ptxlab_core::program::memory::{self, Bytes, Space};
use ptxlab_core::program::{parse_assignments, parse_program, Machine, Program, Step, CARRY_FLAG};
use ptxlab_core::trace::Trace;

use crate::num::{self, View};
use crate::query;

/// The program shown first: `__vcmpgtu4` written out the way compilers do.
pub const EXAMPLE: &str = "\
// a byte of %r1 above the byte of %r2: 0xff, else 0x00 (__vcmpgtu4)
not.b32 %r3, %r2;
and.b32 %r4, %r1, 0x7f7f7f7f;
and.b32 %r5, %r3, 0x7f7f7f7f;
add.u32 %r6, %r4, %r5;
lop3.b32 %r7, %r1, %r3, %r6, 0xe8;   // majority: carry out of bit 7
and.b32 %r8, %r7, 0x80808080;
prmt.b32 %r9, %r8, 0, 0xba98;        // replicate each byte's sign
setp.ne.u32 %p1, %r9, 0;
@%p1 vset4.u32.u32.gt %r10, %r1, %r2, %r0;";

/// Starting values of the example, as `NAME=VALUE` items.
pub const EXAMPLE_REGS: &str = "%r1=0x10ff7f80,%r2=0x0fff807f";

/// One register's starting-value field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub bits: u32,
    /// What was typed; empty means `default`.
    pub text: String,
    /// Why the text is not used, if it is not.
    pub error: Option<String>,
    /// The value it starts at when nothing is typed, as the field shows it: `0`, `false`, or a
    /// special register's default (`1` for `%ntid.x`).
    pub default: String,
}

/// One row of the register file as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    pub bits: u32,
    pub hex: String,
    pub unsigned: String,
    pub signed: String,
    /// Written by the last step.
    pub changed: bool,
    /// Line of the instruction that last wrote it.
    pub written_by: Option<usize>,
    /// Its starting value was given (else it started at 0).
    pub given: bool,
    /// A special register (`%tid.x`), which starts at its default.
    pub special: bool,
}

/// One run of bytes of the memory as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemRow {
    /// `global`, `shared`...
    pub space: String,
    /// The first byte's address in hex.
    pub address: String,
    /// The bytes, lowest address first, two hex digits each.
    pub bytes: Vec<String>,
    /// Which of them the last step wrote or read.
    pub touched: Vec<bool>,
}

/// What the memory panel shows: the bytes written and the bytes read, in address order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemView {
    pub written: Vec<MemRow>,
    pub read: Vec<MemRow>,
}

/// One line of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub line: usize,
    pub text: String,
    /// The next instruction to run.
    pub next: bool,
    /// The instruction the last step ran.
    pub last: bool,
    /// The labels that stand before it.
    pub labels: Vec<String>,
    /// The last step was this `bra`: whether it was taken, and the line it went on at (None:
    /// the end).
    pub branch: Option<(bool, Option<usize>)>,
}

/// What the figure shows: an instruction's line and text, and its trace (None: the guard was
/// false and it did nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub line: usize,
    pub text: String,
    pub trace: Option<Rc<Trace>>,
    /// Shown because a register was picked: that register's name.
    pub for_reg: Option<String>,
    /// Whether it ran (false: its guard was false).
    pub executed: bool,
    /// What a step without stages did, in words: the bytes a load read or a store wrote, the
    /// branch taken, the registers written (the carry chain), the end of the thread.
    pub did: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Prog {
    pub text: String,
    /// Starting values as typed, by register name, in the order first typed.
    pub inputs: Vec<(String, String)>,
    /// Bytes put in memory before the run, as typed: `[SPACE:]ADDR=HEXBYTES` items.
    pub mem: String,
    /// Why an item of `mem` is not used, if one is not.
    pub mem_error: Option<String>,
    /// Steps taken (clamped to the program's length).
    pub step: usize,
    /// The register whose last writer the figure shows.
    pub picked: Option<String>,
    /// The compact widget for an iframe.
    pub embed: bool,
    /// What was wrong with the address, in plain words.
    pub notes: Vec<String>,
    /// The registers of the last program that parsed (kept while the text does not parse).
    pub fields: Vec<Field>,
    /// The machine after `step` steps, or the message naming the line that is refused.
    pub run: Result<Rc<Machine>, String>,
}

impl PartialEq for Prog {
    fn eq(&self, o: &Prog) -> bool {
        self.text == o.text
            && self.inputs == o.inputs
            && self.mem == o.mem
            && self.step == o.step
            && self.picked == o.picked
            && self.embed == o.embed
            && self.notes == o.notes
            && self.fields == o.fields
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    SetText(String),
    /// A starting value typed for a register.
    SetReg {
        name: String,
        text: String,
    },
    /// The memory's starting bytes, as typed.
    SetMem(String),
    Forward,
    Back,
    ToEnd,
    Restart,
    /// Show the instruction that last wrote this register (None: the last step's).
    Pick(Option<String>),
    /// Replace the state with the one an address query describes.
    Load(String),
    DismissNotes,
}

impl Default for Prog {
    fn default() -> Prog {
        Prog::new(EXAMPLE, EXAMPLE_REGS, 0)
    }
}

/// Split `NAME=VALUE` items (separated by commas, semicolons or spaces) as typed.
fn split_items(regs: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for item in regs.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        if let Some((n, v)) = item.split_once('=') {
            if !n.is_empty() {
                out.retain(|(m, _)| m != n);
                out.push((n.to_string(), v.to_string()));
            }
        }
    }
    out
}

impl Prog {
    /// Steps a run in the page takes at most (each keeps its stages for the figure).
    pub const MAX_STEPS: usize = 5_000;

    pub fn new(text: &str, regs: &str, step: usize) -> Prog {
        Prog::with_memory(text, regs, "", step)
    }

    pub fn with_memory(text: &str, regs: &str, mem: &str, step: usize) -> Prog {
        let mut p = Prog {
            text: text.to_string(),
            inputs: split_items(regs),
            mem: mem.to_string(),
            mem_error: None,
            step,
            picked: None,
            embed: false,
            notes: Vec::new(),
            fields: Vec::new(),
            run: Err(String::new()),
        };
        p.recompute();
        p
    }

    /// Whether the run is over (at the end, after `ret`, or stopped at the step limit), so
    /// there is no next step.
    pub fn at_end(&self) -> bool {
        self.run
            .as_ref()
            .map_or(true, |m| m.at_end() || m.stopped().is_some())
    }

    /// Where the run stands, in words: "step 3 of 9" for straight-line code (every line runs
    /// once), "step 14" with branches, and ", the end" once the thread has ended.
    pub fn position(&self) -> String {
        match &self.run {
            Ok(m) if m.program.straight() => {
                format!("step {} of {}", self.step, m.program.statements.len())
            }
            Ok(_) if self.at_end() => format!("step {}, the end", self.step),
            _ => format!("step {}", self.step),
        }
    }

    /// Why the run stopped before its end, if it did.
    pub fn stopped(&self) -> Option<String> {
        self.run.as_ref().ok()?.stopped().map(String::from)
    }

    /// The memory's starting bytes read from `mem`: the items, or the first problem.
    fn fills(&self) -> Result<Vec<Bytes>, String> {
        memory::parse_fills(&self.mem).map_err(|(t, e)| format!("{}: {e}", query::excerpt(t, 24)))
    }

    /// The memory written and read so far, each run of bytes with those the last step touched.
    pub fn memory(&self) -> MemView {
        let Ok(m) = &self.run else {
            return MemView::default();
        };
        let last = m.history().last();
        let row = |b: &Bytes, stores: bool| {
            let touched = (0..b.bytes.len() as u64)
                .map(|k| {
                    let a = b.address.wrapping_add(k);
                    last.is_some_and(|s| {
                        s.memory.iter().any(|x| {
                            x.store == stores
                                && x.space == b.space
                                && a.wrapping_sub(x.address) < x.bytes.len() as u64
                        })
                    })
                })
                .collect();
            MemRow {
                space: b.space.name().to_string(),
                address: format!("0x{:x}", b.address),
                bytes: b.bytes.iter().map(|x| format!("{x:02x}")).collect(),
                touched,
            }
        };
        let mem = m.memory();
        MemView {
            written: mem.written().iter().map(|b| row(b, true)).collect(),
            read: mem
                .read()
                .iter()
                .filter(|b| b.space != Space::Param || m.program.kernel.is_some())
                .map(|b| row(b, false))
                .collect(),
        }
    }

    fn input(&self, name: &str) -> &str {
        self.inputs
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// Check one register's typed value with the core: it must read as a value and fit.
    fn read_field(program: &Program, name: &str, text: &str) -> Result<Option<u64>, String> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        if t.contains(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '=') {
            return Err(format!(
                "“{}” is one value, such as 0x1f, 42, -5 or true",
                query::excerpt(t, 24)
            ));
        }
        let v = parse_assignments(&format!("{name}={t}"))?
            .first()
            .map(|x| x.1)
            .ok_or_else(|| "no value".to_string())?;
        Machine::new(program.clone(), &[(name.to_string(), v)])?;
        Ok(Some(v))
    }

    fn recompute(&mut self) {
        let program = match parse_program(&self.text) {
            Ok(p) => p,
            Err(e) => {
                self.run = Err(e.to_string());
                return;
            }
        };
        let mut start = Vec::new();
        let mut fields = Vec::new();
        let params: Vec<(String, u32)> = program
            .kernel
            .iter()
            .flat_map(|k| k.params.iter().map(|p| (p.name.clone(), p.bits)))
            .collect();
        let named = program
            .registers
            .iter()
            .map(|r| (r.name.clone(), r.bits))
            .chain(params);
        for (name, bits) in named {
            let default = match ptxlab_core::program::special(&name) {
                Some((_, v)) => v.to_string(),
                None if bits == 1 && name != CARRY_FLAG => "false".to_string(),
                None => "0".to_string(),
            };
            let r = Field {
                name,
                bits,
                text: String::new(),
                error: None,
                default,
            };
            let text = self.input(&r.name).to_string();
            let error = match Prog::read_field(&program, &r.name, &text) {
                Ok(Some(v)) => {
                    start.push((r.name.clone(), v));
                    None
                }
                Ok(None) => None,
                Err(e) => Some(e),
            };
            fields.push(Field {
                name: r.name.clone(),
                bits: r.bits,
                text,
                error,
                default: r.default,
            });
        }
        self.fields = fields;
        let fills = self.fills();
        self.mem_error = fills.as_ref().err().cloned();
        self.run = match Machine::new(program, &start) {
            Ok(mut m) => {
                m.max_steps = Prog::MAX_STEPS;
                m.set_memory(fills.unwrap_or_default());
                let mut taken = 0;
                while taken < self.step && m.step().is_some() {
                    taken += 1;
                }
                self.step = taken;
                Ok(Rc::new(m))
            }
            Err(e) => Err(format!("starting registers: {e}")),
        };
        if let Some(p) = &self.picked {
            if !self.fields.iter().any(|f| &f.name == p) {
                self.picked = None;
            }
        }
    }

    /// Starting values typed for names the program does not use (ignored).
    pub fn unused_inputs(&self) -> Vec<String> {
        if self.run.is_err() {
            return Vec::new();
        }
        self.inputs
            .iter()
            .filter(|(n, v)| !v.trim().is_empty() && !self.fields.iter().any(|f| &f.name == n))
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// The listing with the next and the last-run lines marked.
    pub fn lines(&self) -> Vec<Line> {
        let Ok(m) = &self.run else {
            return Vec::new();
        };
        let last_step = m.history().last();
        let last = last_step.map(|s| s.index);
        m.program
            .statements
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let g = s
                    .guard
                    .as_ref()
                    .map(|(neg, p)| format!("@{}{p} ", if *neg { "!" } else { "" }))
                    .unwrap_or_default();
                Line {
                    line: s.line,
                    text: format!("{g}{};", s.text),
                    next: i == m.pc() && m.stopped().is_none(),
                    last: Some(i) == last,
                    labels: m
                        .program
                        .labels
                        .iter()
                        .filter(|(_, k)| *k == i)
                        .map(|(l, _)| l.clone())
                        .collect(),
                    branch: last_step.filter(|st| st.index == i).and_then(|st| {
                        st.taken
                            .map(|t| (t, m.program.statements.get(st.next).map(|n| n.line)))
                    }),
                }
            })
            .collect()
    }

    /// Every register with its value in hex, unsigned and signed (predicates true/false).
    pub fn rows(&self) -> Vec<Row> {
        let Ok(m) = &self.run else {
            return Vec::new();
        };
        m.registers()
            .into_iter()
            .map(|r| {
                let (hex, unsigned, signed) = if r.name == CARRY_FLAG {
                    // The carry flag is a bit, not a predicate.
                    let b = r.value.to_string();
                    (format!("0x{b}"), b.clone(), b)
                } else if r.bits == 1 {
                    let b = if r.value != 0 { "true" } else { "false" };
                    (b.to_string(), b.to_string(), b.to_string())
                } else {
                    (
                        num::format(r.value, r.bits, View::Hex),
                        num::format(r.value, r.bits, View::Unsigned),
                        num::format(r.value, r.bits, View::Signed),
                    )
                };
                Row {
                    name: r.name,
                    bits: r.bits,
                    hex,
                    unsigned,
                    signed,
                    changed: r.changed,
                    written_by: r.written_by,
                    given: r.initial,
                    special: r.special,
                }
            })
            .collect()
    }

    fn shown_step(m: &Machine, st: &Step, for_reg: Option<String>) -> Shown {
        let s = &m.program.statements[st.index];
        let mut did = Vec::new();
        if st.executed && st.trace.is_none() {
            for a in &st.memory {
                did.push(format!(
                    "{} {} byte{} at {} 0x{:x}: {}",
                    if a.store { "wrote" } else { "read" },
                    a.bytes.len(),
                    if a.bytes.len() == 1 { "" } else { "s" },
                    a.space,
                    a.address,
                    memory::spaced_hex(&a.bytes)
                ));
            }
            if let Some(t) = st.taken {
                did.push(if t {
                    match m.program.statements.get(st.next) {
                        Some(n) => format!("taken: on to line {}", n.line),
                        None => "taken: to the end".to_string(),
                    }
                } else {
                    "not taken: on to the next line".to_string()
                });
            }
            for w in &st.writes {
                did.push(format!(
                    "{} = {}",
                    w.reg,
                    num::format(w.new, w.bits, View::Hex)
                ));
            }
            if st.ended {
                did.push("the thread ends".to_string());
            }
        }
        Shown {
            line: s.line,
            text: s.text.clone(),
            trace: st.trace.clone().map(Rc::new),
            for_reg,
            executed: st.executed,
            did,
        }
    }

    /// What the figure shows: the picked register's last writer, else the last step.
    pub fn shown(&self) -> Option<Shown> {
        let m = self.run.as_ref().ok()?;
        if let Some(name) = &self.picked {
            let st = m
                .history()
                .iter()
                .rev()
                .find(|s| s.writes.iter().any(|w| &w.reg == name));
            return st.map(|st| Prog::shown_step(m, st, Some(name.clone())));
        }
        m.history().last().map(|st| Prog::shown_step(m, st, None))
    }

    /// The starting values as the address writes them: `NAME=VALUE,...` in register order.
    pub fn regs_text(&self) -> String {
        let mut items: Vec<String> = Vec::new();
        let mut push = |n: &str, v: &str| {
            let v = v.trim();
            if !v.is_empty() && !v.contains(|c: char| c.is_whitespace() || ",;=".contains(c)) {
                items.push(format!("{n}={v}"));
            }
        };
        for f in &self.fields {
            push(&f.name, &f.text);
        }
        for (n, v) in &self.inputs {
            if !self.fields.iter().any(|f| &f.name == n) {
                push(n, v);
            }
        }
        items.join(",")
    }

    /// The query of the full playground showing this program: `?prog=..&regs=..&mem=..&step=N`.
    pub fn share_query(&self) -> String {
        let mut q = format!("?prog={}", query::encode(&self.text));
        let regs = self.regs_text();
        if !regs.is_empty() {
            q.push_str("&regs=");
            q.push_str(&query::encode(&regs));
        }
        let mem: Vec<&str> = self.mem.split_whitespace().collect();
        if !mem.is_empty() {
            q.push_str("&mem=");
            q.push_str(&query::encode(&mem.join(",")));
        }
        if self.step > 0 {
            q.push_str(&format!("&step={}", self.step));
        }
        q
    }

    /// The address query that brings back this state, view options included.
    pub fn to_query(&self) -> String {
        let mut q = self.share_query();
        if self.embed {
            q.push_str("&embed=1");
        }
        q
    }

    /// The state an address describes; without `prog`, the example program.
    pub fn from_query(q: &str) -> Prog {
        let r = query::read(q);
        let mut p = match &r.program {
            Some(t) => Prog::with_memory(
                t,
                r.regs.as_deref().unwrap_or(""),
                r.mem.as_deref().unwrap_or(""),
                r.step.unwrap_or(0),
            ),
            None => Prog::default(),
        };
        p.embed = r.embed;
        p.notes = r.notes;
        p
    }

    /// The next state. Never panics, whatever the action carries.
    pub fn apply(&self, a: Action) -> Prog {
        let mut s = self.clone();
        match a {
            Action::SetText(t) => {
                s.text = t;
                s.step = 0;
                s.picked = None;
                s.recompute();
            }
            Action::SetReg { name, text } => {
                s.inputs.retain(|(n, _)| n != &name);
                s.inputs.push((name, text));
                s.step = 0;
                s.picked = None;
                s.recompute();
            }
            Action::SetMem(text) => {
                s.mem = text;
                s.step = 0;
                s.picked = None;
                s.recompute();
            }
            Action::Forward | Action::Back | Action::ToEnd | Action::Restart => {
                s.step = match a {
                    Action::Forward => s.step + 1,
                    Action::Back => s.step.saturating_sub(1),
                    Action::ToEnd => usize::MAX,
                    _ => 0,
                };
                s.picked = None;
                s.recompute();
            }
            Action::Pick(r) => s.picked = r,
            Action::Load(q) => {
                s = Prog::from_query(&q);
                s.notes.clear();
            }
            Action::DismissNotes => s.notes.clear(),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(rows: &'a [Row], name: &str) -> &'a Row {
        rows.iter().find(|r| r.name == name).unwrap()
    }

    #[test]
    fn example_runs_to_the_video_answer() {
        let p = Prog::default().apply(Action::ToEnd);
        assert_eq!(p.step, 9);
        let rows = p.rows();
        assert_eq!(row(&rows, "%r9").hex, "0xff0000ff");
        assert_eq!(row(&rows, "%r10").hex, "0x01000001");
        assert_eq!(row(&rows, "%p1").hex, "true");
        assert!(row(&rows, "%r10").changed);
        assert!(!row(&rows, "%r9").changed);
        assert!(row(&rows, "%r1").given && !row(&rows, "%r3").given);
        let lines = p.lines();
        assert!(lines.iter().all(|l| !l.next), "at the end nothing is next");
        assert!(lines.last().unwrap().last);
    }

    #[test]
    fn stepping_marks_lines_and_rows() {
        let p = Prog::default();
        assert!(p.lines()[0].next);
        assert!(p.shown().is_none());
        let p = p.apply(Action::Forward).apply(Action::Forward);
        let lines = p.lines();
        assert!(lines[2].next && lines[1].last);
        assert_eq!(row(&p.rows(), "%r4").hex, "0x107f7f00");
        assert_eq!(row(&p.rows(), "%r4").written_by, Some(3));
        let shown = p.shown().unwrap();
        assert_eq!(
            (shown.line, shown.text.as_str()),
            (3, "and.b32 %r4, %r1, 0x7f7f7f7f")
        );
        assert!(shown.trace.is_some());
        let b = p.apply(Action::Back);
        assert_eq!(row(&b.rows(), "%r4").hex, "0x00000000");
        assert_eq!(b.apply(Action::Restart).step, 0);
        assert_eq!(b.apply(Action::Back).apply(Action::Back).step, 0);
        // Picking a register shows its last writer; the next step shows the step again.
        let p = p
            .apply(Action::Forward)
            .apply(Action::Pick(Some("%r3".into())));
        let shown = p.shown().unwrap();
        assert_eq!(shown.line, 2);
        assert_eq!(shown.for_reg.as_deref(), Some("%r3"));
        assert_eq!(p.apply(Action::Forward).shown().unwrap().line, 5);
        // Never written: nothing to show.
        assert!(p.apply(Action::Pick(Some("%r1".into()))).shown().is_none());
    }

    #[test]
    fn every_register_has_a_field_and_bad_values_say_why() {
        let p = Prog::new("setp.lt.s16 %p1, %h1, 0;\n@%p1 neg.s16 %h2, %h1;", "", 0);
        let names: Vec<(&str, u32)> = p.fields.iter().map(|f| (f.name.as_str(), f.bits)).collect();
        assert_eq!(names, [("%p1", 1), ("%h1", 16), ("%h2", 16)]);
        let p = p.apply(Action::SetReg {
            name: "%h1".into(),
            text: "-3".into(),
        });
        let p = p.apply(Action::ToEnd);
        assert_eq!(row(&p.rows(), "%h2").hex, "0x0003");
        assert_eq!(row(&p.rows(), "%h1").signed, "-3");
        let bad = p.apply(Action::SetReg {
            name: "%h1".into(),
            text: "0x12345".into(),
        });
        let f = bad.fields.iter().find(|f| f.name == "%h1").unwrap();
        assert!(f.error.as_ref().unwrap().contains("too narrow"), "{f:?}");
        assert_eq!(bad.step, 0);
        let bad = p.apply(Action::SetReg {
            name: "%p1".into(),
            text: "maybe".into(),
        });
        assert!(bad.fields[0].error.is_some());
        let bad = p.apply(Action::SetReg {
            name: "%h1".into(),
            text: "1 2".into(),
        });
        assert!(bad.fields[1].error.is_some());
        assert!(bad.run.is_ok(), "a bad field leaves the register at 0");
    }

    #[test]
    fn refused_lines_name_the_line_and_keep_the_fields() {
        let p = Prog::default();
        let fields = p.fields.clone();
        let e = p.apply(Action::SetText(
            "mov.b32 %r1, 1;\natom.global.add.u32 %r2, [%rd1], 1;".into(),
        ));
        let msg = e.run.as_ref().unwrap_err();
        assert!(msg.starts_with("line 2: "), "{msg}");
        assert_eq!(e.fields, fields);
        assert!(e.at_end(), "nothing runs");
        assert!(e.rows().is_empty() && e.lines().is_empty() && e.shown().is_none());
        let e = p.apply(Action::SetText("fma.rn.f32 %f1, %f2, %f3, %f4;".into()));
        assert!(e.run.unwrap_err().contains("line 1"));
    }

    #[test]
    fn a_kernel_thread_loops_over_memory_and_keeps_it_in_the_address() {
        let text = ".entry sum(.param .u64 p, .param .u32 n)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.reg .pred %p1;\nld.param.u64 %rd1, [p];\nld.param.u32 %r1, [n];\nL:\nld.global.u8 %r2, [%rd1];\nadd.u32 %r3, %r3, %r2;\nadd.s64 %rd1, %rd1, 1;\nsub.u32 %r1, %r1, 1;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra L;\nst.local.u32 [0x40], %r3;\nret;\n}";
        let p = Prog::with_memory(text, "p=0x10,n=3", "0x10=010203", 0);
        let names: Vec<&str> = p.fields.iter().map(|f| f.name.as_str()).collect();
        assert!(
            names.ends_with(&["p", "n"]),
            "parameters have fields: {names:?}"
        );
        assert_eq!(p.mem_error, None);
        let end = p.apply(Action::ToEnd);
        assert_eq!(end.step, 2 + 3 * 6 + 2, "three turns of the loop");
        assert!(end.at_end() && end.stopped().is_none());
        assert_eq!(row(&end.rows(), "%r3").hex, "0x00000006");
        let mem = end.memory();
        assert_eq!(mem.written.len(), 1);
        assert_eq!(
            (
                mem.written[0].address.as_str(),
                mem.written[0].bytes.join(" ")
            ),
            ("0x40", "06 00 00 00".to_string())
        );
        assert!(mem
            .read
            .iter()
            .any(|r| r.space == "global" && r.bytes.len() == 3));
        // The step after the first turn's bra: taken, back to line 9 (the label's line).
        let p8 = p.apply(Action::Load(p.to_query()));
        let mut s = p8;
        for _ in 0..8 {
            s = s.apply(Action::Forward);
        }
        let bra = s.lines().into_iter().find(|l| l.branch.is_some()).unwrap();
        assert_eq!(bra.branch, Some((true, Some(9))));
        let shown = s.shown().unwrap();
        assert!(shown.trace.is_none() && shown.executed);
        assert_eq!(shown.did, ["taken: on to line 9"]);
        let load = s.apply(Action::Forward).shown().unwrap();
        assert_eq!(
            load.did,
            ["read 1 byte at global 0x11: 02", "%r2 = 0x00000002"]
        );
        assert!(s.lines()[2].next, "the loop goes on at its first load");
        // The address keeps the memory.
        let q = end.to_query();
        assert!(q.contains("&mem=0x10%3D010203"), "{q}");
        assert_eq!(Prog::from_query(&q).apply(Action::ToEnd).memory(), mem);
        // A bad memory item says why and the memory starts empty.
        let bad = p.apply(Action::SetMem("0x10=0g".into()));
        assert!(
            bad.mem_error.as_ref().unwrap().contains("hex"),
            "{:?}",
            bad.mem_error
        );
        // Labels stand before their line; a special register's field shows its default.
        assert_eq!(end.lines()[2].labels, ["L"]);
        let sp =
            Prog::new("mov.u32 %r1, %ntid.x;\nmov.u32 %r2, %tid.x;", "", 0).apply(Action::ToEnd);
        let f = |n: &str| {
            sp.fields
                .iter()
                .find(|f| f.name == n)
                .unwrap()
                .default
                .clone()
        };
        assert_eq!(
            (f("%ntid.x"), f("%tid.x"), f("%r1")),
            ("1".into(), "0".into(), "0".into())
        );
        assert_eq!(row(&sp.rows(), "%r1").hex, "0x00000001");
        assert!(row(&sp.rows(), "%ntid.x").special);
        // The carry flag is a register; a carry step has its figure.
        let cc = Prog::new(
            "add.cc.u32 %r2, %r1, 1;\naddc.u32 %r3, 0, 0;",
            "%r1=0xffffffff",
            0,
        )
        .apply(Action::ToEnd);
        assert_eq!(row(&cc.rows(), "CC.CF").hex, "0x1");
        assert_eq!(row(&cc.rows(), "%r3").hex, "0x00000001");
        let shown = cc.shown().unwrap();
        assert!(shown
            .trace
            .unwrap()
            .stages
            .iter()
            .any(|s| s.label.contains("exact sum")));
        // An endless loop stops at the page's limit with a message.
        let spin = Prog::new("L: add.u32 %r1, %r1, 1;\nbra L;", "", 0).apply(Action::ToEnd);
        assert_eq!(spin.step, Prog::MAX_STEPS);
        assert!(spin.at_end() && spin.stopped().unwrap().contains("loop forever"));
    }

    #[test]
    fn address_round_trip() {
        let p = Prog::new(
            "xor.b32 %c, %a, %b;\nand.b32 %d, %c, 0x80808080;",
            "%a=0x01020304,%b=0x05060708",
            1,
        );
        let q = p.to_query();
        assert_eq!(
            q,
            "?prog=xor.b32+%25c,+%25a,+%25b;%0Aand.b32+%25d,+%25c,+0x80808080;&regs=%25a%3D0x01020304,%25b%3D0x05060708&step=1"
        );
        let t = Prog::from_query(&q);
        assert_eq!(t, p);
        assert_eq!(row(&t.rows(), "%c").hex, "0x0404040c");
        // The Intrinsic view's links: prog and regs, each encoded with query::encode.
        let link = format!(
            "?prog={}&regs={}",
            query::encode("add.u32 %r, %a, %b;"),
            query::encode("%a=0x01020304,%b=0x05060708")
        );
        let t = Prog::from_query(&link).apply(Action::ToEnd);
        assert_eq!(row(&t.rows(), "%r").hex, "0x06080a0c");
        assert!(t.notes.is_empty(), "{:?}", t.notes);
        // Embed and a step past the end.
        let t = Prog::from_query(&format!("{link}&step=99&embed=1"));
        assert!(t.embed && t.step == 1);
        assert!(t.to_query().ends_with("&step=1&embed=1"));
        assert!(!t.share_query().contains("embed"));
        // No program: the example; a program of 40 lines fits in the address.
        assert_eq!(Prog::from_query("?i=add.s32+d,+a,+b;"), Prog::default());
        let long: String = (0..40)
            .map(|i| {
                format!(
                    "lop3.b32 %r{}, %r{}, %r{}, %r{}, 0xe8;  // step {i}\n",
                    i + 3,
                    i + 2,
                    i + 1,
                    i
                )
            })
            .collect();
        let p = Prog::new(&long, "%r0=0x12345678,%r1=0x9abcdef0,%r2=0xffffffff", 40);
        let q = p.to_query();
        assert!(q.len() < query::MAX_QUERY, "{}", q.len());
        let t = Prog::from_query(&q);
        assert_eq!((t.to_query(), t.rows(), t.step), (q, p.rows(), 40));
    }

    #[test]
    fn hostile_addresses_give_a_working_state() {
        let huge = format!("?prog={}", "x".repeat(1 << 20));
        for q in [
            &huge[..],
            "?prog=%ZZ",
            "?prog=mov.b32+%25r1,+1;&regs=%25r1%3Dzz",
            "?prog=mov.b32+%25r1,+1;&regs=%25q%3D1",
            "?prog=mov.b32+%25r1,+1;&step=-1",
            "?prog=bra+L;",
            "?prog=%00&regs=%01",
            "?prog=&regs=&step=",
        ] {
            let p = Prog::from_query(q);
            assert!(p.notes.iter().all(|n| n.len() < 300), "{q:.40}");
            let _ = (p.rows(), p.lines(), p.shown(), p.to_query());
            let p = p.apply(Action::ToEnd).apply(Action::Back);
            let _ = p.rows();
        }
        let p = Prog::from_query("?prog=mov.b32+%25r1,+1;&regs=%25q%3D1");
        assert_eq!(p.unused_inputs(), ["%q"]);
        assert!(p.regs_text().contains("%q=1"));
    }

    /// Every step of programs using each kind of instruction gives a trace the figure can lay
    /// out (a panic there would stop the page).
    #[test]
    fn every_step_can_be_drawn() {
        let programs = [
            EXAMPLE,
            "mov.b32 {%h1, %h2}, %r1;\nneg.s16 %h1, %h1;\nmov.b32 %r2, {%h1, %h2};\nadd.s16x2 %r3, %r2, %r1;",
            "shf.l.wrap.b32 %r2, %r1, %r1, 8;\nshf.r.clamp.b32 %r3, %r1, %r2, 40;\nshl.b64 %rd1, %rd1, 3;\nshr.s32 %r4, %r1, 31;",
            "cvt.sat.s8.s32 %rs1, %r1;\ncvt.u64.u32 %rd1, %r1;\nselp.b32 %r2, %r1, 7, %p1;\nsetp.gt.and.s32 %p2, %r1, 0, %p1;",
            "or.pred %p1, %p2, %p3;\nnot.b16 %h1, %h2;\ncnot.b32 %r1, %r2;\nprmt.b32.f4e %r3, %r1, %r2, 1;",
            "add.cc.u32 %r2, %r1, %r1;\naddc.cc.u32 %r3, %r1, 7;\nsub.cc.u64 %rd1, %rd2, 1;\nsubc.u64 %rd3, %rd1, %rd2;\nmad.hi.cc.s32 %r4, %r1, %r1, %r2;\nmadc.lo.u32 %r5, %r1, %r3, 0;",
        ];
        for text in programs {
            for regs in ["%r1=0x80ff7f01", "%r1=0xffffffff", ""] {
                let p = Prog::new(text, regs, 0);
                assert!(p.run.is_ok(), "{text}: {:?}", p.run.as_ref().err());
                let mut p = p;
                while !p.at_end() {
                    p = p.apply(Action::Forward);
                    if let Some(Shown { trace: Some(t), .. }) = p.shown() {
                        crate::ui::figure_drawn(&t);
                    }
                }
            }
        }
    }
}
