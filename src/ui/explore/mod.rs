//! Explore beyond one case: a sweep heat map, the machine code each GPU runs, and a batch table.
//! Each opens on demand from a row of buttons, so the main view stays uncluttered and nothing
//! here is computed until its panel is open.

use std::rc::Rc;

use ptxlab_core::Inputs;
use ptxlab_core::Instruction;
use yew::prelude::*;

use crate::model::Action;

pub mod batch;
pub mod heat;
pub mod sass;
pub mod sweep;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Sweep,
    Sass,
    Batch,
}

impl Tab {
    pub const ALL: [Tab; 3] = [Tab::Sweep, Tab::Sass, Tab::Batch];
    pub fn title(self) -> &'static str {
        match self {
            Tab::Sweep => "Sweep heat map",
            Tab::Sass => "What each GPU runs",
            Tab::Batch => "Batch",
        }
    }
    pub fn key(self) -> &'static str {
        match self {
            Tab::Sweep => "sweep",
            Tab::Sass => "sass",
            Tab::Batch => "batch",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The instruction of either kind: every view reads it.
    pub insn: Rc<Instruction>,
    pub inputs: Inputs,
    /// Whether `d` reads as a signed number.
    pub signed: bool,
    pub dispatch: Callback<Action>,
    /// The sweep view's settings from the address: the view opens with them.
    #[prop_or_default]
    pub sweep: Option<String>,
    /// The batch panel's operand sets (held by the page's state).
    #[prop_or_default]
    pub batch: String,
}

#[function_component]
pub fn Explore(props: &Props) -> Html {
    let open = use_state(|| props.sweep.as_ref().map(|_| Tab::Sweep));
    html! {
        <div class="explore-body">
            <div class="explore-tabs" role="group" aria-label="explore views">
                { for Tab::ALL.iter().map(|&t| {
                    let is_open = *open == Some(t);
                    let onclick = {
                        let open = open.clone();
                        Callback::from(move |_: MouseEvent| open.set(if is_open { None } else { Some(t) }))
                    };
                    html! {
                        <button type="button" class={classes!("explore-tab", is_open.then_some("open"))}
                            id={format!("tab-{}", t.key())}
                            aria-expanded={is_open.to_string()} aria-controls={format!("panel-{}", t.key())}
                            {onclick}>
                            { t.title() }
                        </button>
                    }
                }) }
            </div>
            if let Some(t) = *open {
                <div class="explore-panel" id={format!("panel-{}", t.key())} role="region" aria-labelledby={format!("tab-{}", t.key())}>
                    { match t {
                        Tab::Sweep => html! {
                            <sweep::SweepPanel insn={props.insn.clone()} inputs={props.inputs}
                                signed={props.signed} dispatch={props.dispatch.clone()}
                                spec={props.sweep.clone()} />
                        },
                        Tab::Sass => html! { <sass::SassPanel insn={props.insn.clone()} /> },
                        Tab::Batch => html! {
                            <batch::BatchPanel insn={props.insn.clone()} text={props.batch.clone()}
                                dispatch={props.dispatch.clone()} />
                        },
                    } }
                </div>
            } else {
                <p class="muted">{ "Open a view: the result over a grid of two source fields, the machine code ptxas emits for this form on each GPU, or many operand sets at once." }</p>
            }
        </div>
    }
}
