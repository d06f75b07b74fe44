//! Predict mode: `d` hidden, the student's value typed (`Your d (hex)`) or built bit by bit,
//! "Check" answered in a status region from the core's verdict (`ptxlab_core::predict`), hints
//! one stage at a time, then the answer. Everything shown is read from the state.

use std::rc::Rc;

use ptxlab_core::predict::Verdict;
use ptxlab_core::Trace;
use yew::prelude::*;

use crate::model::{Action, PredictAction, State};

/// The "Predict d" switch.
pub fn toggle(state: &State, dispatch: &Callback<Action>) -> Html {
    let on = state.predict.is_some();
    let d = dispatch.clone();
    let onclick =
        Callback::from(move |_: MouseEvent| d.emit(Action::Predict(PredictAction::Mode(!on))));
    html! {
        <button type="button" class="edge predict-toggle" aria-pressed={on.to_string()} {onclick}
            title="Hide d and predict it yourself; Check says which bits are wrong and why">
            { if on { "Stop predicting" } else { "Predict d" } }
        </button>
    }
}

/// The trace the figure shows in predict mode: while `d` is hidden, only the stages a hint has
/// revealed or the verdict names, never the one that writes `d`.
pub fn shown_trace(state: &State, trace: &Rc<Trace>, verdict: Option<&Verdict>) -> Rc<Trace> {
    if !state.d_hidden() {
        return trace.clone();
    }
    let reads = trace
        .stages
        .iter()
        .take_while(|s| s.kind == ptxlab_core::StageKind::Read)
        .count();
    let hinted = state.hints().last().map_or(0, |h| h.stage + 1);
    let named = verdict.and_then(|v| v.stage).map_or(0, |s| s + 1);
    let limit = ptxlab_core::predict::d_stage(trace).unwrap_or(0);
    let keep = reads.max(hinted).max(named).min(limit);
    let mut t = (**trace).clone();
    t.stages.truncate(keep);
    Rc::new(t)
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: Rc<State>,
    pub dispatch: Callback<Action>,
}

/// The predict panel: the guess, its bits, Check, the status, hints and the answer.
#[function_component]
pub fn PredictPanel(p: &Props) -> Html {
    let s = &p.state;
    let Some(pr) = s.predict.as_ref() else {
        return html! {};
    };
    let width = s.d_width();
    let guess = s.guess_value();
    let bad = match &guess {
        Some(Err(e)) => Some(e.clone()),
        _ => None,
    };
    let g = guess.and_then(Result::ok).unwrap_or(0);
    let verdict = s.verdict();
    let wrong: Vec<u32> = verdict
        .as_ref()
        .map(|v| v.wrong.clone())
        .unwrap_or_default();
    let emit = |a: PredictAction| {
        let d = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Predict(a.clone())))
    };
    let oninput = {
        let d = p.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let el: web_sys::HtmlInputElement = e.target_unchecked_into();
            d.emit(Action::Predict(PredictAction::Guess(el.value())));
        })
    };
    let onkeydown = {
        let d = p.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                d.emit(Action::Predict(PredictAction::Check));
            }
        })
    };
    let hints = s.hints();
    let total = s.hint_count();
    let status = match (&verdict, pr.checked, &bad) {
        (_, _, Some(e)) if pr.checked => format!("Your value does not read: {e}"),
        (Some(v), _, _) => v.message.clone(),
        _ => String::new(),
    };
    let correct = verdict.as_ref().is_some_and(|v| v.correct);
    html! {
        <div class="predict" data-stage={verdict.as_ref().and_then(|v| v.stage).map(|x| x.to_string())}>
            <p class="muted">{ format!("d is hidden. Work out its {width} bits, then check.") }</p>
            <label class="predict-guess">
                <span>{ "Your d" }</span>
                <input type="text" aria-label="Your d (hex)" spellcheck="false" autocomplete="off"
                    placeholder="0x…" value={pr.guess.clone()} {oninput} {onkeydown}
                    aria-invalid={bad.is_some().then_some("true")} />
            </label>
            <div class="predict-bits" role="group" aria-label="Your d, bit by bit (bit 0 at the right)">
                { for (0..width).rev().map(|b| {
                    let on = g >> b & 1 == 1;
                    let is_wrong = wrong.contains(&b);
                    html! {
                        <button type="button" class={classes!("pbit", on.then_some("on"), is_wrong.then_some("wrong"), (b % 8 == 0).then_some("byte-end"))}
                            aria-pressed={on.to_string()} aria-label={format!("bit {b}{}: {}", if is_wrong { ", wrong" } else { "" }, u8::from(on))}
                            data-bit={b.to_string()} onclick={emit(PredictAction::FlipBit(b))}>
                            { if on { "1" } else { "0" } }
                        </button>
                    }
                }) }
            </div>
            <div class="edges predict-actions">
                <button type="button" class="edge" onclick={emit(PredictAction::Check)}
                    disabled={pr.guess.trim().is_empty()}>{ "Check" }</button>
                if !correct && !pr.answer {
                    if hints.len() < total {
                        <button type="button" class="edge" onclick={emit(PredictAction::Hint)}>
                            { format!("Hint ({} of {total})", hints.len() + 1) }
                        </button>
                    } else {
                        <button type="button" class="edge" onclick={emit(PredictAction::Answer)}>{ "Show the answer" }</button>
                    }
                }
            </div>
            <p role="status" class={classes!("predict-status", correct.then_some("ok"), (verdict.is_some() && !correct).then_some("bad"))}>{ status }</p>
            if !hints.is_empty() {
                <ol class="hints" aria-label="Hints">
                    { for hints.iter().map(|h| html! { <li data-stage={h.stage.to_string()}>{ h.text.clone() }</li> }) }
                </ol>
            }
        </div>
    }
}
