//! The page: one reducer holding [`State`], and small components that draw parts of it.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::{Action, State};
use crate::route::{Route, Side};

mod address;
mod cost_table;
mod editor;
mod embed;
mod exercise;
pub(crate) mod explore;
mod figure;
pub(crate) mod host;
pub(crate) mod hosted;
mod intrinsic;
mod learn;
mod lessons;
mod operands;
pub mod perf;
mod picker_panel;
mod predict;
mod program;
mod result;
mod root;
mod share;
mod stages;
mod two_readings;

/// The figure's layout of a trace, for the native tests of the Program view's traces.
#[cfg(test)]
pub fn figure_drawn(t: &ptxlab_core::trace::Trace) {
    let _ = figure::Drawn::of(t, figure::layout::Metrics::default());
}

impl Reducible for State {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// Mount the app into `#app`, replacing the loading note: [`root::Root`], which draws the view
/// the address names.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    console_error_panic_hook::set_once();
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => {
            root.set_inner_html("");
            yew::Renderer::<root::Root>::with_root(root).render();
        }
        None => {
            yew::Renderer::<root::Root>::new().render();
        }
    }
}

#[function_component]
pub fn App() -> Html {
    // The instruction and program views: which one is on screen is the root's route.
    let nav = root::use_nav();
    let program_on = nav.route == Route::Program;
    let state = use_reducer(|| State::from_query(&address::current()));
    let recorder = use_mut_ref(address::Recorder::default);
    // Every action passes through the recorder, which decides how it reaches the history.
    let dispatch_as = |step: Option<address::Step>| {
        let state = state.clone();
        let recorder = recorder.clone();
        Callback::from(move |a: Action| {
            recorder.borrow_mut().before(&a, step);
            state.dispatch(a)
        })
    };
    let dispatch: Callback<Action> = dispatch_as(None);
    let dispatch_pick: Callback<Action> = dispatch_as(Some(address::Step::Commit));
    {
        let has_result = state.valid.is_some();
        use_effect_with((), move |_| {
            if has_result {
                perf::mark(perf::FIRST_RESULT);
            }
        });
    }
    use_effect(perf::after_render);
    // The address always describes what is on screen, so it can be shared or bookmarked. The
    // Program view (drawn by the second module) writes its own.
    {
        let recorder = recorder.clone();
        let embed = state.embed;
        use_effect_with((state.to_query(), program_on), move |(q, program_on)| {
            if !program_on {
                let current = address::current();
                let w = recorder
                    .borrow_mut()
                    .write(q, &current, address::now(), embed);
                address::apply(w, q);
            }
        });
    }
    // Back and forward bring back the state their address describes (the root listens, and
    // hands the address here while the route stays on the instruction and program views).
    {
        let dispatch = dispatch.clone();
        root::use_arrivals(
            Side::Ptx,
            Callback::from(move |(to, q): (Route, String)| {
                if to == Route::Program {
                    host::arrive(&to, &q);
                }
                dispatch.emit(Action::Load(q))
            }),
        );
    }
    // The embedded widget tells the page around it how tall it is.
    embed::use_report_height(state.embed && !program_on);

    if program_on {
        // The instruction view's state stays here while the Program tab is on screen.
        return html! { <host::ViewsHost route={Route::Program} arrivals=false /> };
    }
    if state.embed {
        return embedded(&state, &dispatch);
    }
    if state.present {
        if let Some(v) = state.valid.as_ref() {
            return html! { <Present trace={v.trace.clone()} dispatch={dispatch_pick.clone()} /> };
        }
    }
    let on_present = {
        let d = dispatch_pick.clone();
        Callback::from(move |()| {
            figure::export::enter_fullscreen();
            d.emit(Action::SetPresent(true))
        })
    };
    let stale = state.stale();
    let valid = state.valid.as_ref();
    html! {
        <>
        <root::Header share={state.share_query()} />
        <share::AddressNotes notes={state.notes.clone()} dispatch={dispatch.clone()} />
        <main class="layout">
            <section class="panel choose" aria-labelledby="h-choose">
                <h2 id="h-choose">{ "Choose" }</h2>
                <editor::InstructionField text={state.text.clone()} diag={state.diag.clone()} dispatch={dispatch.clone()} />
                if let Some(v) = valid {
                    <picker_panel::Pickers groups={v.groups.clone()} stale={stale} dispatch={dispatch_pick.clone()} />
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
                    { predict::toggle(&state, &dispatch_pick) }
                    <predict::PredictPanel state={Rc::new((*state).clone())} dispatch={dispatch.clone()} />
                    if !state.d_hidden() {
                        <result::ResultPanel trace={v.trace.clone()} stale={stale}
                            sources={v.widths.sources.min(4)} dispatch={dispatch.clone()} />
                    }
                    <share::CudaBlock insn={v.insn.clone()} stale={stale} />
                }
            </section>
            <section class={classes!("panel", "stages", stale.then_some("stale"))} aria-labelledby="h-stages">
                <h2 id="h-stages">{ "Stages" }</h2>
                if let Some(v) = valid {
                    if state.predict.is_some() {
                        { predicted_figure(&state, v, false) }
                    } else if v.insn.opcode().is_some() {
                        // A table instruction: its two readings side by side (a program row
                        // has one).
                        <two_readings::TwoReadings insn={v.insn.clone()} inputs={state.inputs()} trace={v.trace.clone()} on_present={on_present.clone()} />
                    } else {
                        <two_readings::OneReading trace={v.trace.clone()} on_present={on_present.clone()} />
                    }
                }
            </section>
            <section class="panel learn" aria-labelledby="h-learn">
                <h2 id="h-learn">{ "Learn" }</h2>
                if let Some(v) = valid {
                    <learn::Learn insn={v.insn.clone()} />
                }
            </section>
            <section class="panel explore" aria-labelledby="h-explore">
                <h2 id="h-explore">{ "Explore" }</h2>
                if let Some(v) = valid {
                    <explore::Explore insn={v.insn.clone()} inputs={state.inputs()}
                        signed={v.trace.result.signed} dispatch={dispatch.clone()}
                        sweep={state.sweep.clone()} batch={state.batch.clone()} />
                }
            </section>
        </main>
        <footer class="foot">
            <p>{ "Results follow what an NVIDIA H100 computes, measured for every instruction here; the text of each instruction is checked as ptxas for sm_90 would." }</p>
        </footer>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct PresentProps {
    trace: Rc<ptxlab_core::Trace>,
    dispatch: Callback<Action>,
}

/// Present mode (`present=1`): the figure alone, filling the screen, with the instruction and
/// `d` above it. The arrow keys and Space step; Escape (or leaving the browser's full screen)
/// returns to the page.
#[function_component]
fn Present(p: &PresentProps) -> Html {
    let exit = {
        let d = p.dispatch.clone();
        Callback::from(move |()| {
            figure::export::exit_fullscreen();
            d.emit(Action::SetPresent(false))
        })
    };
    {
        let exit = exit.clone();
        use_effect_with((), move |_| {
            let guard = figure::export::on_fullscreen_exit(exit);
            move || drop(guard)
        });
    }
    let t = &p.trace;
    html! {
        <main class="present" aria-label="Present mode">
            <div class="present-head">
                <h1 class="present-insn"><code>{ t.instruction.clone() }</code></h1>
                <label class="present-d">
                    <span class="reg">{ "d" }</span>{ " = " }
                    <input type="text" readonly=true aria-label="d (hex)" value={t.views.hex.clone()} />
                </label>
            </div>
            <figure::Pipeline trace={t.clone()} present=true on_exit={exit} />
        </main>
    }
}

/// The compact widget for an iframe (`embed=1`): instruction, operands, result and stages, no
/// page chrome, and a link to the full playground showing the same state.
fn embedded(state: &State, dispatch: &Callback<Action>) -> Html {
    let stale = state.stale();
    let valid = state.valid.as_ref();
    html! {
        <main class="embed">
            <share::AddressNotes notes={state.notes.clone()} dispatch={dispatch.clone()} />
            <editor::InstructionField text={state.text.clone()} diag={state.diag.clone()} dispatch={dispatch.clone()} />
            if let Some(v) = valid {
                <section class="embed-operands" aria-label="Operands">
                    <operands::Operands state={OperandsProps::from_state(state, v)} dispatch={dispatch.clone()} />
                </section>
                <section class={classes!("embed-result", stale.then_some("stale"))} aria-label="Result">
                    <h3><span class="reg">{ "d" }</span><small>{ " result" }</small></h3>
                    { predict::toggle(state, dispatch) }
                    <predict::PredictPanel state={Rc::new(state.clone())} dispatch={dispatch.clone()} />
                    if !state.d_hidden() {
                        <result::ResultPanel trace={v.trace.clone()} stale={stale}
                            sources={0} dispatch={dispatch.clone()} />
                    }
                </section>
                <section class={classes!("embed-figure", stale.then_some("stale"))} aria-label="Stages">
                    if state.predict.is_some() {
                        { predicted_figure(state, v, true) }
                    } else {
                        <figure::Pipeline trace={v.trace.clone()} compact=true />
                    }
                </section>
            }
            <p class="embed-foot">
                <a href={state.share_query()} target="_blank" rel="noopener">{ "Open in ptxlab" }</a>
            </p>
        </main>
    }
}

/// The figure in predict mode: the stages revealed so far, and the stage the verdict names lit.
fn predicted_figure(state: &State, v: &crate::model::Valid, compact: bool) -> Html {
    let verdict = state.verdict();
    let explain = verdict.as_ref().and_then(|x| x.stage);
    let shown = predict::shown_trace(state, &v.trace, verdict.as_ref());
    let explain = explain.filter(|&i| i < shown.stages.len());
    html! { <figure::Pipeline trace={shown} {compact} {explain} /> }
}

/// What the operand editor needs, gathered from the state.
pub use operands::OperandsData as OperandsProps;
