//! The address bar as the state: every change rewrites the query, and back and forward step
//! through meaningful edits.
//!
//! A discrete change (a picker, a bit, a preset button, a chained result) adds a history entry.
//! Typing in one field adds one entry when it starts and then rewrites that entry with every
//! keystroke, until the field loses focus, another field is edited, or the typing pauses for
//! [`PAUSE_MS`]. In the embedded widget nothing is added to the history, since an iframe's
//! entries would be stepped through by the back button of the page around it.

use crate::model::Action;

/// A pause in typing longer than this ends one edit in the history.
pub const PAUSE_MS: f64 = 1000.0;

/// How a state change should reach the address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Typing into a field: `None` is the instruction text, `Some(src)` an operand view.
    Typing(Option<usize>),
    /// A committed change: a new history entry.
    Commit,
    /// The state came from the address itself (back or forward): leave the address alone.
    Restore,
}

impl Step {
    /// The step an action makes when it comes from the keyboard or a button. Picker changes
    /// are text changes too; their callback marks them as [`Step::Commit`].
    pub fn of(a: &Action) -> Option<Step> {
        match a {
            Action::SetText(_) => Some(Step::Typing(None)),
            Action::EditValue { src, .. } => Some(Step::Typing(Some(*src))),
            Action::Load(_) => Some(Step::Restore),
            Action::EndEdit
            | Action::DismissNotes
            | Action::SetSweep(_)
            | Action::Predict(_)
            | Action::SetBatch(_) => None,
            Action::SetValue { .. }
            | Action::FlipBit { .. }
            | Action::SetEdge { .. }
            | Action::Random { .. }
            | Action::SetPresent(_) => Some(Step::Commit),
        }
    }
}

/// What to do with the browser's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    Nothing,
    Replace,
    Push,
}

/// Decides between adding and rewriting history entries. Pure, so it is tested natively.
#[derive(Debug, Default)]
pub struct Recorder {
    /// The step of the action being rendered, if any.
    pending: Option<Step>,
    /// The field being typed into, and when its last keystroke came.
    burst: Option<(Option<usize>, f64)>,
}

impl Recorder {
    /// Note the action about to be dispatched (`step` overrides its usual step).
    pub fn before(&mut self, a: &Action, step: Option<Step>) {
        if matches!(a, Action::EndEdit) {
            self.burst = None;
        }
        if let Some(s) = step.or_else(|| Step::of(a)) {
            self.pending = Some(s);
        }
    }

    /// The query changed to `query` at time `now` (ms); `current` is the address's query.
    pub fn write(&mut self, query: &str, current: &str, now: f64, embed: bool) -> Write {
        let step = self.pending.take();
        if query == current || step == Some(Step::Restore) {
            return Write::Nothing;
        }
        let step = match step {
            None => return Write::Replace,
            Some(_) if embed => return Write::Replace,
            Some(s) => s,
        };
        match step {
            Step::Typing(field) => {
                let same = matches!(self.burst, Some((f, t)) if f == field && now - t < PAUSE_MS);
                self.burst = Some((field, now));
                if same {
                    Write::Replace
                } else {
                    Write::Push
                }
            }
            _ => {
                self.burst = None;
                Write::Push
            }
        }
    }
}

/// The query part of the page's address (`?i=...&a=...`), or nothing.
pub fn current() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    String::new()
}

/// Put `query` in the address without reloading.
pub fn apply(w: Write, query: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let null = wasm_bindgen::JsValue::NULL;
        let _ = match w {
            Write::Nothing => Ok(()),
            Write::Replace => h.replace_state_with_url(&null, "", Some(query)),
            Write::Push => h.push_state_with_url(&null, "", Some(query)),
        };
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (w, query);
}

/// Milliseconds since the page started, for telling pauses in typing.
pub fn now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::View;

    fn edit(src: usize) -> Action {
        Action::EditValue {
            src,
            view: View::Hex,
            text: "1".into(),
        }
    }

    #[test]
    fn typing_adds_one_entry_per_burst() {
        let mut r = Recorder::default();
        // First render writes the canonical address in place.
        assert_eq!(r.write("?q0", "?x", 0.0, false), Write::Replace);
        let t = Action::SetText("x".into());
        r.before(&t, None);
        assert_eq!(r.write("?q1", "?q0", 10.0, false), Write::Push);
        r.before(&t, None);
        assert_eq!(r.write("?q2", "?q1", 300.0, false), Write::Replace);
        r.before(&t, None);
        assert_eq!(
            r.write("?q3", "?q2", 2000.0, false),
            Write::Push,
            "after a pause"
        );
        r.before(&edit(0), None);
        assert_eq!(
            r.write("?q4", "?q3", 2100.0, false),
            Write::Push,
            "another field"
        );
        r.before(&edit(0), None);
        assert_eq!(r.write("?q5", "?q4", 2200.0, false), Write::Replace);
        r.before(&Action::EndEdit, None);
        r.before(&edit(0), None);
        assert_eq!(
            r.write("?q6", "?q5", 2300.0, false),
            Write::Push,
            "after blur"
        );
        r.before(&t, Some(Step::Commit));
        assert_eq!(r.write("?q7", "?q6", 2310.0, false), Write::Push, "picker");
        r.before(&Action::FlipBit { src: 0, bit: 1 }, None);
        assert_eq!(r.write("?q8", "?q7", 2320.0, false), Write::Push);
        r.before(&Action::FlipBit { src: 0, bit: 1 }, None);
        assert_eq!(r.write("?q8", "?q8", 2330.0, false), Write::Nothing);
        r.before(&Action::Load("?q6".into()), None);
        assert_eq!(r.write("?q6", "?q6", 2340.0, false), Write::Nothing);
        r.before(&Action::Load("?bad".into()), None);
        assert_eq!(r.write("?q0", "?bad", 2350.0, false), Write::Nothing);
    }

    #[test]
    fn embedded_widget_never_adds_entries() {
        let mut r = Recorder::default();
        r.before(&Action::FlipBit { src: 0, bit: 1 }, None);
        assert_eq!(r.write("?q1", "?q0", 0.0, true), Write::Replace);
        r.before(&Action::SetText("x".into()), None);
        assert_eq!(r.write("?q2", "?q1", 1.0, true), Write::Replace);
    }
}
