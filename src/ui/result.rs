//! The value written to `d`, in the four views the trace provides.

use std::rc::Rc;

use ptxlab_core::ast::SOURCE_NAMES;
use ptxlab_core::Trace;
use yew::prelude::*;

use super::perf;
use crate::model::Action;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub trace: Rc<Trace>,
    pub stale: bool,
    /// Number of sources of the instruction, for the "d into a source" buttons.
    pub sources: usize,
    pub dispatch: Callback<Action>,
}

#[function_component]
pub fn ResultPanel(props: &Props) -> Html {
    let v = &props.trace.views;
    let views = [
        ("hex", v.hex.clone()),
        ("unsigned", v.unsigned.clone()),
        ("signed", v.signed.clone()),
        ("binary", v.binary.clone()),
    ];
    // Instructions with several destinations (setp's p and q, an unpacking mov) end their
    // trace with one result stage each; d above is the first.
    let results: Vec<(String, String)> = props
        .trace
        .stages
        .iter()
        .filter(|s| s.kind == ptxlab_core::StageKind::Result)
        .map(|s| {
            (
                s.output.name.clone(),
                format!("{}: {}", s.label, s.output.hex()),
            )
        })
        .collect();
    html! {
        <div class="result-body">
            <p class="canonical"><code>{ props.trace.instruction.clone() }</code></p>
            if results.len() > 1 {
                <ul class="destinations" aria-label="every destination">
                    { for results.iter().map(|(n, v)| html! { <li><span class="reg">{ n.clone() }</span>{ format!(" {v}") }</li> }) }
                </ul>
            }
            if props.stale {
                <p class="muted stale-note">{ "Showing the last instruction that checked." }</p>
            }
            <div class="views">
                // A predicate (one bit) is true or false, not a signed number.
                { for views.iter().filter(|(word, _)| !(*word == "signed" && props.trace.result.bits == 1)).map(|(word, value)| html! {
                    <div class={classes!("view", format!("view-{word}"))}>
                        <span class="view-name" aria-hidden="true">{ *word }</span>
                        <input type="text" readonly=true aria-label={format!("d ({word})")} value={value.clone()} />
                    </div>
                }) }
            </div>
            <div class="edges chain" role="group" aria-label="use the result as a source">
                { for SOURCE_NAMES.iter().enumerate().take(props.sources).map(|(src, name)| {
                    let dispatch = props.dispatch.clone();
                    let value = props.trace.result.raw() as u64;
                    let onclick = Callback::from(move |_: MouseEvent| {
                        perf::edit_started();
                        dispatch.emit(Action::SetValue { src, value });
                    });
                    html! {
                        <button type="button" class="edge" disabled={props.stale} {onclick}
                            title={format!("copy d into {name}, to chain instructions")}>{ format!("d → {name}") }</button>
                    }
                }) }
            </div>
        </div>
    }
}
