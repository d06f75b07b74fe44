//! The page: one reducer holding [`State`], and small components that draw parts of it.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::{Action, State};

mod editor;
mod explore;
mod learn;
mod operands;
pub mod perf;
mod pickers;
mod readings;
mod result;
mod stages;

impl Reducible for State {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// Mount the app into `#app`, replacing the loading note.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    console_error_panic_hook::set_once();
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => {
            root.set_inner_html("");
            yew::Renderer::<App>::with_root(root).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

/// The query part of the page's address (`?i=...&a=...`), or nothing.
fn address_query() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    String::new()
}

/// Replace the query part of the address without adding a history entry.
fn set_address_query(query: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(w) = web_sys::window() {
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(query));
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = query;
}

#[function_component]
pub fn App() -> Html {
    let state = use_reducer(|| State::from_query(&address_query()));
    let dispatch: Callback<Action> = {
        let state = state.clone();
        Callback::from(move |a: Action| state.dispatch(a))
    };
    {
        let has_result = state.valid.is_some();
        use_effect_with((), move |_| {
            if has_result {
                perf::mark(perf::FIRST_RESULT);
            }
        });
    }
    use_effect(perf::after_render);
    // The address always describes what is on screen, so it can be shared or bookmarked.
    use_effect_with(state.to_query(), |q| set_address_query(q));

    let stale = state.stale();
    let valid = state.valid.as_ref();
    html! {
        <>
        <header class="top">
            <h1>{ "ptxlab" }</h1>
            <p class="tagline">{ "What PTX video and integer instructions compute, stage by stage." }</p>
        </header>
        <main class="layout">
            <section class="panel choose" aria-labelledby="h-choose">
                <h2 id="h-choose">{ "Choose" }</h2>
                <editor::InstructionField text={state.text.clone()} diag={state.diag.clone()} dispatch={dispatch.clone()} />
                if let Some(v) = valid {
                    <pickers::Pickers groups={v.groups.clone()} stale={stale} dispatch={dispatch.clone()} />
                }
            </section>
            <section class="panel operands" aria-labelledby="h-operands">
                <h2 id="h-operands">{ "Operands" }</h2>
                if let Some(v) = valid {
                    <operands::Operands
                        state={OperandsProps::from_state(&state, v)}
                        dispatch={dispatch.clone()} />
                } else {
                    <p class="muted">{ "Operands appear once the instruction checks." }</p>
                }
            </section>
            <section class={classes!("panel", "result", stale.then_some("stale"))} aria-labelledby="h-result">
                <h2 id="h-result">{ "Result" }</h2>
                if let Some(v) = valid {
                    <result::ResultPanel trace={Rc::new(v.trace.clone())} stale={stale}
                        sources={v.widths.sources.min(4)} dispatch={dispatch.clone()} />
                }
            </section>
            <section class={classes!("panel", "stages", stale.then_some("stale"))} aria-labelledby="h-stages">
                <h2 id="h-stages">{ "Stages" }</h2>
                if let Some(v) = valid {
                    <readings::StagesView insn={Rc::new(v.insn.clone())} inputs={state.inputs()} trace={Rc::new(v.trace.clone())} />
                }
            </section>
            <section class="panel learn" aria-labelledby="h-learn">
                <h2 id="h-learn">{ "Learn" }</h2>
                if let Some(v) = valid {
                    <learn::Learn insn={Rc::new(v.insn.clone())} />
                }
            </section>
            <section class="panel explore" aria-labelledby="h-explore">
                <h2 id="h-explore">{ "Explore" }</h2>
                if let Some(v) = valid {
                    <explore::Explore insn={Rc::new(v.insn.clone())} inputs={state.inputs()}
                        signed={v.trace.result.signed} dispatch={dispatch.clone()} />
                }
            </section>
        </main>
        <footer class="foot">
            <p>{ "Results follow what an NVIDIA H100 computes; the text of each instruction is checked as ptxas for sm_90 would." }</p>
        </footer>
        </>
    }
}

/// What the operand editor needs, gathered from the state.
pub use operands::OperandsData as OperandsProps;
