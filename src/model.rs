//! The whole state of the playground in one struct, and the pure function that moves it from one
//! state to the next. Nothing here touches the browser, so it is tested natively.
//!
//! Everything the page shows about semantics comes from the [`Trace`] computed here by
//! `ptxlab_core`; this module only decides which instruction and which values to evaluate.

use std::rc::Rc;

use ptxlab_core::ast::SOURCE_NAMES;
use ptxlab_core::insn;
use ptxlab_core::predict::{self, Hint, Verdict};
use ptxlab_core::Instruction;
use ptxlab_core::{Diagnostic, Inputs, Trace, Widths};

use crate::choices::{self, Group};
use crate::num::{self, Edge, View};
use crate::query;
use crate::templates::{DEFAULT_TEXT, DEFAULT_VALUES};

/// The last instruction that checked, with everything derived from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Valid {
    /// The text as typed when it checked.
    pub text: String,
    /// The instruction: one of the 47 table opcodes or one of the 23 program instructions.
    pub insn: Rc<Instruction>,
    pub widths: Widths,
    /// Shared with the views, so a render does not copy the trace.
    pub trace: Rc<Trace>,
    pub groups: Rc<Vec<Group>>,
}

/// Text being typed into one operand view; kept while it is being edited so that the field
/// shows exactly what was typed, with a message when it does not read as a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub src: usize,
    pub view: View,
    pub text: String,
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// What the instruction field shows.
    pub text: String,
    /// Why `text` is refused, if it is.
    pub diag: Option<Diagnostic>,
    pub valid: Option<Valid>,
    /// Source values by role: a, b, c, e.
    pub values: [u64; 4],
    pub draft: Option<Draft>,
    /// Counts edits that changed the result, so the page can tell a fresh diagram.
    pub revision: u64,
    /// View option from the address: the compact widget for an iframe (`embed=1`).
    pub embed: bool,
    /// View option from the address: the figure alone, full screen, for a lecture hall
    /// (`present=1`).
    pub present: bool,
    /// What was wrong with the address this state was read from, in plain words.
    pub notes: Vec<String>,
    /// The sweep view's settings, kept in the address while it is open (`sweep=`).
    pub sweep: Option<String>,
    /// Predict mode (`predict=1`): `d` is hidden until the student's value is checked.
    pub predict: Option<Predict>,
    /// The batch panel's operand sets as typed. Not in the address: kept while the page is
    /// open, across back and forward and while the panel is closed.
    pub batch: String,
}

/// The student's work in predict mode; all of it is in the address (`guess`, `check`, `hints`,
/// `answer`), so a link brings back the same moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Predict {
    /// The value typed (or built by clicking bits), as text.
    pub guess: String,
    /// Whether "Check" was pressed for this guess.
    pub checked: bool,
    /// How many hints are shown.
    pub hints: usize,
    /// Whether the answer is shown.
    pub answer: bool,
}

/// What the student does in predict mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PredictAction {
    /// Predict mode on (hides `d`) or off.
    Mode(bool),
    /// The value typed into `Your d (hex)`.
    Guess(String),
    /// One bit of the guess clicked.
    FlipBit(u32),
    Check,
    /// One more hint.
    Hint,
    /// Show `d`.
    Answer,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The instruction text changed (typed, pasted, or chosen with a picker).
    SetText(String),
    /// Text typed into one view of one source.
    EditValue {
        src: usize,
        view: View,
        text: String,
    },
    /// The field lost focus: show the value in its normal form again.
    EndEdit,
    SetValue {
        src: usize,
        value: u64,
    },
    FlipBit {
        src: usize,
        bit: u32,
    },
    SetEdge {
        src: usize,
        edge: Edge,
    },
    /// Fill a source with a random value drawn from `seed`.
    Random {
        src: usize,
        seed: u64,
    },
    /// Replace the whole state with the one an address query describes (back and forward).
    Load(String),
    /// Hide the notes about the address.
    DismissNotes,
    /// The sweep view's settings changed (`None`: the view closed).
    SetSweep(Option<String>),
    /// Present mode on or off.
    SetPresent(bool),
    /// Predict mode.
    Predict(PredictAction),
    /// The batch panel's text changed.
    SetBatch(String),
}

impl Default for State {
    fn default() -> State {
        State::new(DEFAULT_TEXT, DEFAULT_VALUES)
    }
}

impl State {
    pub fn new(text: &str, values: [u64; 4]) -> State {
        let mut s = State {
            text: String::new(),
            diag: None,
            valid: None,
            values,
            draft: None,
            revision: 0,
            embed: false,
            present: false,
            notes: Vec::new(),
            sweep: None,
            predict: None,
            batch: String::new(),
        };
        s.set_text(text.to_string());
        s
    }

    /// Width of source `src` in the current instruction (32 when none is valid).
    pub fn width(&self, src: usize) -> u32 {
        self.valid
            .as_ref()
            .and_then(|v| v.widths.src.get(src).copied())
            .unwrap_or(32)
    }

    /// Whether the shown result belongs to older text (the current text is refused).
    pub fn stale(&self) -> bool {
        self.diag.is_some()
    }

    /// The text shown in one view of one source.
    pub fn field_text(&self, src: usize, view: View) -> String {
        match &self.draft {
            Some(d) if d.src == src && d.view == view => d.text.clone(),
            _ => num::format(self.values[src], self.width(src), view),
        }
    }

    /// The message for one view of one source, if what was typed there does not read.
    pub fn field_error(&self, src: usize, view: View) -> Option<&str> {
        match &self.draft {
            Some(d) if d.src == src && d.view == view => d.error.as_deref(),
            _ => None,
        }
    }

    fn set_text(&mut self, text: String) {
        match insn::check(&text) {
            Ok(insn) => {
                let w = insn.widths();
                for (i, v) in self.values.iter_mut().enumerate() {
                    *v &= num::mask(w.src.get(i).copied().unwrap_or(64));
                }
                let groups = match &self.valid {
                    // Same instruction written differently: keep the pickers.
                    Some(old) if old.insn.canonical() == insn.canonical() => old.groups.clone(),
                    _ => Rc::new(choices::groups(&insn)),
                };
                let trace = insn.trace(&self.inputs());
                self.valid = Some(Valid {
                    text: text.clone(),
                    insn: Rc::new(insn),
                    widths: w,
                    trace: Rc::new(trace),
                    groups,
                });
                self.diag = None;
            }
            Err(d) => self.diag = Some(d),
        }
        self.text = text;
        self.draft = None;
    }

    /// The state a shared address describes: `?i=<instruction>&a=0x..&b=..&c=..&e=..`, plus
    /// `embed=1` for the compact widget. Whatever the query holds, the result is a working
    /// state: unreadable parts keep their defaults and are explained in `notes` (see
    /// [`query::read`]); refused text shows its message over the default instruction's result.
    pub fn from_query(q: &str) -> State {
        State::read_query(q, true)
    }

    /// [`State::from_query`]; `explain_refused` adds a note when the text does not check (not
    /// wanted when back or forward returns to a moment when the text was being typed).
    fn read_query(q: &str, explain_refused: bool) -> State {
        let req = query::read(q);
        let mut values = DEFAULT_VALUES;
        for (v, r) in values.iter_mut().zip(req.values) {
            if let Some(x) = r {
                *v = x;
            }
        }
        let mut s = State::new(DEFAULT_TEXT, values);
        if let Some(t) = req.text {
            s.values = values;
            s.set_text(t);
        }
        s.embed = req.embed;
        s.present = req.present && !req.embed;
        s.sweep = req.sweep;
        s.notes = req.notes;
        if req.predict {
            s.predict = Some(Predict {
                guess: req.guess.unwrap_or_default(),
                checked: req.checked,
                hints: req.hints,
                answer: req.answer,
            });
        }
        if s.stale() && explain_refused {
            s.notes.push(
                "The instruction in this address does not check (see the message under it); the result shown is the default instruction's."
                    .to_string(),
            );
        }
        s
    }

    /// The address query that brings back this state (see [`State::from_query`]).
    pub fn to_query(&self) -> String {
        let mut q = self.share_query();
        if self.embed {
            q.push_str("&embed=1");
        }
        if self.present {
            q.push_str("&present=1");
        }
        q
    }

    /// The query of the full playground showing this state (no view options).
    pub fn share_query(&self) -> String {
        let mut q = format!("?i={}", query::encode(&self.text));
        let n = self.valid.as_ref().map_or(0, |v| v.widths.sources.min(4));
        for (i, name) in SOURCE_NAMES.iter().enumerate().take(n) {
            q.push('&');
            q.push_str(name);
            q.push('=');
            q.push_str(&num::format(self.values[i], self.width(i), View::Hex));
        }
        if let Some(sw) = &self.sweep {
            q.push_str("&sweep=");
            q.push_str(&query::encode(sw));
        }
        if let Some(p) = &self.predict {
            q.push_str("&predict=1");
            if !p.guess.is_empty() {
                q.push_str("&guess=");
                q.push_str(&query::encode(&p.guess));
            }
            if p.checked {
                q.push_str("&check=1");
            }
            if p.hints > 0 {
                q.push_str(&format!("&hints={}", p.hints));
            }
            if p.answer {
                q.push_str("&answer=1");
            }
        }
        q
    }

    /// The width of `d` (32 when nothing checks).
    pub fn d_width(&self) -> u32 {
        self.valid.as_ref().map_or(32, |v| v.trace.result.bits)
    }

    /// The guess as a value, or why it does not read as one.
    pub fn guess_value(&self) -> Option<Result<u64, String>> {
        let p = self.predict.as_ref()?;
        let g = p.guess.trim();
        if g.is_empty() {
            return None;
        }
        Some(num::parse(g, 64, View::Hex))
    }

    /// The core's verdict on the checked guess (`None` before "Check" or when the guess does
    /// not read).
    pub fn verdict(&self) -> Option<Verdict> {
        let p = self.predict.as_ref()?;
        if !p.checked {
            return None;
        }
        let v = self.valid.as_ref()?;
        let g = self.guess_value()?.ok()?;
        Some(predict::check(&v.trace, g as u128))
    }

    /// The hints shown so far.
    pub fn hints(&self) -> Vec<Hint> {
        match (&self.predict, &self.valid) {
            (Some(p), Some(v)) => predict::hints(&v.trace).into_iter().take(p.hints).collect(),
            _ => Vec::new(),
        }
    }

    /// How many hints there are in all.
    pub fn hint_count(&self) -> usize {
        self.valid
            .as_ref()
            .map_or(0, |v| predict::hints(&v.trace).len())
    }

    /// Whether `d` is hidden: predict mode, before the answer is shown or a right guess checked.
    pub fn d_hidden(&self) -> bool {
        match &self.predict {
            Some(p) => !p.answer && !self.verdict().is_some_and(|v| v.correct),
            None => false,
        }
    }

    /// A new case: the work on the old one no longer applies.
    fn restart_prediction(&mut self) {
        if let Some(p) = &mut self.predict {
            *p = Predict::default();
        }
    }

    fn apply_predict(&mut self, a: PredictAction) {
        if let PredictAction::Mode(on) = a {
            self.predict = on.then(Predict::default);
            return;
        }
        let n = self.hint_count();
        let w = self.d_width();
        let current = self.guess_value().and_then(Result::ok).unwrap_or(0);
        let Some(p) = &mut self.predict else {
            return;
        };
        match a {
            PredictAction::Mode(_) => {}
            PredictAction::Guess(g) => {
                p.guess = g.chars().take(query::MAX_VALUE).collect();
                p.checked = false;
            }
            PredictAction::FlipBit(b) => {
                if b < w {
                    p.guess = num::format((current ^ (1u64 << b)) & num::mask(w), w, View::Hex);
                    p.checked = false;
                }
            }
            PredictAction::Check => p.checked = !p.guess.trim().is_empty(),
            PredictAction::Hint => p.hints = (p.hints + 1).min(n),
            PredictAction::Answer => p.answer = true,
        }
    }

    pub fn inputs(&self) -> Inputs {
        let [a, b, c, e] = self.values;
        Inputs::new(a, b, c, e)
    }

    fn retrace(&mut self) {
        self.restart_prediction();
        let inputs = self.inputs();
        if let Some(v) = &mut self.valid {
            v.trace = Rc::new(v.insn.trace(&inputs));
        }
        self.revision += 1;
    }

    fn set_value(&mut self, src: usize, value: u64) {
        if src < 4 {
            self.values[src] = value & num::mask(self.width(src));
            self.retrace();
        }
    }

    /// The next state. Never panics, whatever the action carries.
    pub fn apply(&self, action: Action) -> State {
        let mut s = self.clone();
        match action {
            Action::SetText(t) => {
                s.set_text(t);
                s.restart_prediction();
                s.revision += 1;
            }
            Action::EditValue { src, view, text } => {
                if src >= 4 {
                    return s;
                }
                let parsed = num::parse(&text, s.width(src), view);
                let error = parsed.as_ref().err().cloned();
                if let Ok(v) = parsed {
                    s.set_value(src, v);
                }
                s.draft = Some(Draft {
                    src,
                    view,
                    text,
                    error,
                });
            }
            Action::EndEdit => s.draft = None,
            Action::FlipBit { src, bit } => {
                if src < 4 && bit < s.width(src) {
                    s.draft = None;
                    let v = s.values[src] ^ (1u64 << bit);
                    s.set_value(src, v);
                }
            }
            Action::SetValue { src, value } => {
                s.draft = None;
                s.set_value(src, value);
            }
            Action::SetEdge { src, edge } => {
                s.draft = None;
                let v = edge.value(s.width(src));
                s.set_value(src, v);
            }
            Action::Random { src, seed } => {
                s.draft = None;
                s.set_value(src, num::next_random(seed));
            }
            Action::Load(q) => {
                s = State::read_query(&q, false);
                s.revision = self.revision + 1;
                s.batch = self.batch.clone();
            }
            Action::DismissNotes => s.notes.clear(),
            Action::SetSweep(v) => s.sweep = v,
            Action::SetPresent(on) => s.present = on && !s.embed,
            Action::Predict(a) => s.apply_predict(a),
            Action::SetBatch(t) => s.batch = t,
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predict_mode_hides_d_checks_and_round_trips() {
        let s = State::new("vadd4.u32.u32.u32.sat d, a, b, c;", [0xff00, 0x0100, 0, 0]);
        assert!(!s.d_hidden());
        let s = s.apply(Action::Predict(PredictAction::Mode(true)));
        assert!(s.d_hidden());
        assert_eq!(s.verdict(), None);
        let s = s.apply(Action::Predict(PredictAction::Guess("0x10000".into())));
        assert_eq!(s.verdict(), None, "nothing is checked before Check");
        let s = s.apply(Action::Predict(PredictAction::Check));
        let v = s.verdict().unwrap();
        assert!(!v.correct);
        assert!(s.d_hidden());
        let q = s.to_query();
        assert!(q.contains("&predict=1&guess=0x10000&check=1"), "{q}");
        assert_eq!(State::from_query(&q).predict, s.predict);
        // Clicking bit 16 off and bits 8-15 on gives 0xff00: correct, and d shows again.
        let mut t = s.apply(Action::Predict(PredictAction::FlipBit(16)));
        for b in 8..16 {
            t = t.apply(Action::Predict(PredictAction::FlipBit(b)));
        }
        assert_eq!(t.predict.as_ref().unwrap().guess, "0x0000ff00");
        let t = t.apply(Action::Predict(PredictAction::Check));
        assert!(t.verdict().unwrap().correct);
        assert!(!t.d_hidden());
        // Hints one at a time, never more than there are; then the answer.
        let n = s.hint_count();
        let mut h = s.clone();
        for i in 1..=n + 2 {
            h = h.apply(Action::Predict(PredictAction::Hint));
            assert_eq!(h.hints().len(), i.min(n));
        }
        let h = h.apply(Action::Predict(PredictAction::Answer));
        assert!(!h.d_hidden());
        // A new value is a new case; bits beyond d are refused; off clears everything.
        let k = h.apply(Action::SetValue { src: 0, value: 1 });
        assert_eq!(k.predict, Some(Predict::default()));
        let k = k.apply(Action::Predict(PredictAction::FlipBit(40)));
        assert_eq!(k.predict.as_ref().unwrap().guess, "");
        let k = k.apply(Action::Predict(PredictAction::Mode(false)));
        assert_eq!(k.predict, None);
        assert!(!k.to_query().contains("predict"));
        // Not in predict mode, its actions do nothing.
        assert_eq!(k.apply(Action::Predict(PredictAction::Check)), k);
        let bad = State::from_query("?predict=1&guess=zz&check=1");
        assert_eq!(bad.verdict(), None);
    }

    #[test]
    fn starts_valid_with_a_trace() {
        let s = State::default();
        assert!(s.diag.is_none());
        let v = s.valid.as_ref().unwrap();
        assert_eq!(v.widths.sources, 2);
        assert_eq!(v.trace.sources.len(), 2);
        assert_eq!(s.field_text(0, View::Hex), "0x2808cf1b");
    }

    #[test]
    fn invalid_text_keeps_last_result() {
        let s = State::default();
        let before = s.valid.clone();
        let s = s.apply(Action::SetText("vaddd.u32 d, a, b;".into()));
        assert!(s.stale());
        let d = s.diag.as_ref().unwrap();
        assert_eq!(&s.text[d.span.clone()], "vaddd");
        assert_eq!(s.valid, before);
        let s = s.apply(Action::SetText("vadd.u32.u32.u32 d, a, b;".into()));
        assert!(!s.stale());
        assert_eq!(s.valid.as_ref().unwrap().text, "vadd.u32.u32.u32 d, a, b;");
    }

    #[test]
    fn editing_values() {
        let s = State::default();
        let s = s.apply(Action::EditValue {
            src: 1,
            view: View::Hex,
            text: "ff".into(),
        });
        assert_eq!(s.values[1], 0xff);
        assert_eq!(s.field_text(1, View::Hex), "ff");
        assert_eq!(s.field_text(1, View::Signed), "255");
        assert!(s.field_error(1, View::Hex).is_none());
        let s = s.apply(Action::EditValue {
            src: 1,
            view: View::Hex,
            text: "fg".into(),
        });
        assert_eq!(s.values[1], 0xff, "a bad value keeps the last good one");
        assert!(s.field_error(1, View::Hex).is_some());
        let s = s.apply(Action::EndEdit);
        assert_eq!(s.field_text(1, View::Hex), "0x000000ff");
        let s = s.apply(Action::FlipBit { src: 1, bit: 31 });
        assert_eq!(s.values[1], 0x8000_00ff);
        let s = s.apply(Action::FlipBit { src: 1, bit: 99 });
        assert_eq!(s.values[1], 0x8000_00ff);
        let s = s.apply(Action::SetEdge {
            src: 0,
            edge: Edge::Bytes80,
        });
        assert_eq!(s.values[0], 0x8080_8080);
        let s = s.apply(Action::Random { src: 0, seed: 7 });
        assert!(s.values[0] <= u32::MAX as u64);
        let s = s.apply(Action::SetEdge {
            src: 9,
            edge: Edge::One,
        });
        assert_eq!(s.values[0] >> 32, 0);
    }

    #[test]
    fn narrower_types_mask_values() {
        let s = State::new("add.s32 d, a, b;", [u64::MAX, 0, 0, 0]);
        assert_eq!(s.values[0], 0xffff_ffff);
        let s = s.apply(Action::SetText("add.s16 d, a, b;".into()));
        assert_eq!(s.width(0), 16);
        assert_eq!(s.values[0], 0xffff);
        assert_eq!(s.field_text(0, View::Hex), "0xffff");
    }

    /// Every choice the pickers offer, from every opcode's example, checks and evaluates with
    /// edge values without panicking (a panic would stop the page).
    #[test]
    fn every_offered_choice_evaluates() {
        let values = [
            [0, 0, 0, 0],
            [u64::MAX, u64::MAX, u64::MAX, u64::MAX],
            [0x8080_8080_8080_8080, 0x7f7f_7f7f_7f7f_7f7f, 1, 63],
            [0x8000_0000, 0xffff_ffff, 0x7fff_ffff, 33],
        ];
        let mut offered = 0;
        for info in ptxlab_core::OPCODES {
            let s = State::new(info.example, values[0]);
            let groups = s.valid.as_ref().unwrap().groups.clone();
            for g in groups.iter() {
                for c in g.choices.iter().filter(|c| c.error.is_none()) {
                    offered += 1;
                    let mut t = s.apply(Action::SetText(c.text.clone()));
                    assert!(t.diag.is_none(), "{} -> {}: {:?}", g.key, c.text, t.diag);
                    for v in values {
                        for (src, x) in v.iter().enumerate() {
                            t = t.apply(Action::SetValue { src, value: *x });
                        }
                        t = t.apply(Action::Random { src: 0, seed: v[0] });
                    }
                }
            }
        }
        assert!(offered > 300, "{offered}");
    }

    /// The program instructions (`prmt`, `setp`, ...) check in the instruction field, evaluate
    /// with every destination in the trace, and every choice their pickers offer checks.
    #[test]
    fn program_instructions_in_the_single_view() {
        let s = State::new(
            "prmt.b32 d, a, b, c;",
            [0x1122_3344, 0x8899_aabb, 0x7c40, 0],
        );
        let v = s.valid.as_ref().unwrap();
        assert!(v.insn.opcode().is_none());
        assert_eq!(v.trace.result.raw(), 0x88ff_bb44);
        assert_eq!(v.widths.sources, 3);
        let s = s.apply(Action::SetValue {
            src: 2,
            value: 0x3210,
        });
        assert_eq!(s.valid.as_ref().unwrap().trace.result.raw(), 0x1122_3344);
        let s = s.apply(Action::SetText("setp.lt.s32 p|q, a, b;".into()));
        let v = s.valid.as_ref().unwrap();
        assert_eq!(v.trace.result.bits, 1);
        assert_eq!(
            v.trace.result.raw(),
            0,
            "0x11223344 < 0x8899aabb is false, read signed"
        );
        let mut offered = 0;
        for row in ptxlab_core::isa::OP_ROWS {
            let s = State::new(row.example, [1, 2, 3, 4]);
            assert!(s.diag.is_none(), "{}: {:?}", row.example, s.diag);
            let groups = s.valid.as_ref().unwrap().groups.clone();
            assert_eq!(
                groups[1].selected().map(|c| c.label.as_str()),
                Some(row.name)
            );
            for g in groups.iter() {
                for c in g.choices.iter().filter(|c| c.error.is_none()) {
                    offered += 1;
                    let t = s.apply(Action::SetText(c.text.clone()));
                    assert!(t.diag.is_none(), "{} -> {}: {:?}", g.key, c.text, t.diag);
                    let t = t.apply(Action::SetValue {
                        src: 0,
                        value: u64::MAX,
                    });
                    assert!(t.valid.is_some());
                }
            }
        }
        assert!(offered > 100, "{offered}");
    }

    #[test]
    fn query_round_trip() {
        let s = State::new(
            "vmin4.s32.u32.u32.add %r1.b0, %r2.b0000, %r3.b2222, %r1;",
            [0x80ff_017f, 0x1122_3344, 0x10, 0],
        );
        let q = s.to_query();
        assert_eq!(
            q,
            "?i=vmin4.s32.u32.u32.add+%25r1.b0,+%25r2.b0000,+%25r3.b2222,+%25r1;&a=0x80ff017f&b=0x11223344&c=0x00000010"
        );
        let t = State::from_query(&q);
        assert_eq!(t.text, s.text);
        assert_eq!(t.values, s.values);
        assert_eq!(t.valid, s.valid);
        let bad = State::from_query("?i=vaddd&a=zz&b=0x5");
        assert!(bad.stale());
        assert_eq!(bad.values[1], 5);
        assert_eq!(bad.values[0], DEFAULT_VALUES[0]);
        assert_eq!(bad.notes.len(), 2, "{:?}", bad.notes);
        assert!(State::from_query("").diag.is_none());
        assert!(State::from_query("").notes.is_empty());
        let broken = State::from_query("?%%%=&&=x&i=%ZZ%");
        assert!(broken.diag.is_none());
        assert_eq!(broken.text, DEFAULT_TEXT);
        assert_eq!(broken.notes.len(), 1);
        assert!(!broken
            .apply(Action::DismissNotes)
            .notes
            .iter()
            .any(|_| true));
    }

    #[test]
    fn present_mode_is_kept_in_the_address() {
        let s = State::from_query("?i=add.s32+d,+a,+b;&a=0x1&b=0x2&present=1");
        assert!(s.present);
        assert!(s.to_query().ends_with("&present=1"), "{}", s.to_query());
        assert!(!s.share_query().contains("present"));
        let off = s.apply(Action::SetPresent(false));
        assert!(!off.present);
        assert!(!off.to_query().contains("present"));
        let on = off.apply(Action::SetPresent(true));
        assert!(State::from_query(&on.to_query()).present);
        // The embed has no present mode.
        let e = State::from_query("?i=add.s32+d,+a,+b;&embed=1&present=1");
        assert!(e.embed && !e.present);
        assert!(!e.apply(Action::SetPresent(true)).present);
    }

    #[test]
    fn embed_option_and_loading() {
        let s = State::from_query("?i=add.s32+d,+a,+b;&a=0x1&b=0x2&embed=1");
        assert!(s.embed);
        assert_eq!(
            s.to_query(),
            "?i=add.s32+d,+a,+b;&a=0x00000001&b=0x00000002&embed=1"
        );
        assert_eq!(
            s.share_query(),
            "?i=add.s32+d,+a,+b;&a=0x00000001&b=0x00000002"
        );
        assert_eq!(State::from_query(&s.to_query()).valid, s.valid);
        let t = State::default().apply(Action::Load(s.to_query()));
        assert_eq!(t.text, s.text);
        assert_eq!(t.values, s.values);
        assert!(t.embed);
        assert_eq!(t.revision, 1);
        let typing = t.apply(Action::Load("?i=vadd4.u32&a=0x1".into()));
        assert!(typing.stale());
        assert!(typing.notes.is_empty(), "{:?}", typing.notes);
        let u = t.apply(Action::Load("?a=%FF".into()));
        assert_eq!(u.text, DEFAULT_TEXT);
        assert!(!u.embed);
        assert_eq!(u.notes.len(), 1);
    }

    #[test]
    fn the_batch_text_is_kept_but_not_shared() {
        let s = State::from_query("?i=add.s32+d,+a,+b;&a=0x1&b=0x2");
        let rows = "a,b\n1,2\n3,4";
        let t = s.apply(Action::SetBatch(rows.into()));
        assert_eq!(t.batch, rows);
        assert_eq!(t.revision, s.revision, "the result did not change");
        assert_eq!(t.to_query(), s.to_query(), "the address does not carry it");
        // Another instruction, back and forward: the operand sets stay.
        let u = t.apply(Action::SetText("add.u32 d, a, b;".into()));
        assert_eq!(u.batch, rows);
        let v = u.apply(Action::Load(s.to_query()));
        assert_eq!(v.text, s.text);
        assert_eq!(v.batch, rows);
    }

    /// Hostile addresses never panic and always leave a working state with a bounded note.
    #[test]
    fn hostile_addresses_give_a_working_state() {
        let huge = format!("?a={}", "f".repeat(1 << 20));
        for q in [
            "?i=<script>alert(1)</script>",
            "?a=<img+src=x+onerror=alert(1)>",
            &huge,
            "?i=%E0%A4%A",
            "?i=%ZZ",
            "?i=%C3%28",
            "?i=%FF",
            "?nope=1&%3Cb%3E=2",
            "?i=%00%01&a=%E2%80%AE",
            "?=&=&&&i",
            "?i=vadd.u32.u32.u32+d,+a,+b;&a=0x1&a=0x2&embed=2",
        ] {
            let s = State::from_query(q);
            assert!(s.valid.is_some(), "{q:.40}");
            assert!(!s.notes.is_empty(), "{q:.40}");
            assert!(s.notes.iter().all(|n| n.len() < 300), "{q:.40}");
            assert!(s.text.len() <= query::MAX_INSTRUCTION * 4);
        }
    }

    #[test]
    fn garbage_never_panics() {
        let mut s = State::default();
        for t in [
            "",
            ";",
            "@",
            "@!",
            "vadd.",
            "vadd.u32.u32.u32 d, a.b9999, b;",
            "é€ 🦀",
            "vadd d,,",
            "-",
            "add.s32 d, -99999999999999999999999, b;",
        ] {
            s = s.apply(Action::SetText(t.into()));
            s = s.apply(Action::EditValue {
                src: 3,
                view: View::Signed,
                text: t.into(),
            });
        }
        assert!(s.valid.is_some());
    }
}
