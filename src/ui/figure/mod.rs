//! The pipeline figure: every stage of the trace drawn as one datapath in SVG, with a stepper
//! for teaching, bit provenance under the pointer, a details panel for the stage in focus, the
//! stages as a list in words (the figure's text alternative), and an SVG export.
//!
//! Everything drawn comes from the [`Trace`]; which bits feed which comes from
//! [`Provenance`], computed by the core.

use std::rc::Rc;

use ptxlab_core::provenance::Provenance;
use ptxlab_core::trace::{Detail, StageKind, Trace};
use yew::prelude::*;

use super::stages::stage_card;

pub mod export;
pub mod layout;
mod svg;

use layout::{layout, Layout, Metrics};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub trace: Rc<Trace>,
    /// The stage where the two readings part, drawn highlighted.
    #[prop_or_default]
    pub highlight: Option<usize>,
    /// The stage that explains a wrong prediction (predict mode), drawn lit.
    #[prop_or_default]
    pub explain: Option<usize>,
    /// The embedded widget: the list in words and the details start folded.
    #[prop_or_default]
    pub compact: bool,
    /// Present mode: the figure alone at lecture-hall size; the arrow keys and Space step
    /// anywhere on the page, and Escape calls `on_exit`.
    #[prop_or_default]
    pub present: bool,
    /// Where a "Present" button sends the figure into present mode (none: no button).
    #[prop_or_default]
    pub on_present: Option<Callback<()>>,
    /// Leaves present mode.
    #[prop_or_default]
    pub on_exit: Option<Callback<()>>,
}

/// The stepper's position: `None` shows every stage at once.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Step {
    pub at: Option<usize>,
    pub len: usize,
}

pub enum StepAction {
    Next,
    Prev,
    First,
    Last,
    Set(usize),
    Clear,
    Len(usize),
}

impl Reducible for Step {
    type Action = StepAction;
    fn reduce(self: Rc<Self>, a: StepAction) -> Rc<Self> {
        let last = self.len.saturating_sub(1);
        let at = match a {
            StepAction::Next => Some(self.at.map_or(0, |s| (s + 1).min(last))),
            StepAction::Prev => Some(self.at.map_or(last, |s| s.saturating_sub(1))),
            StepAction::First => Some(0),
            StepAction::Last => Some(last),
            StepAction::Set(i) => Some(i.min(last)),
            StepAction::Clear => None,
            StepAction::Len(len) => {
                return Rc::new(Step {
                    at: self.at.filter(|&s| s < len),
                    len,
                })
            }
        };
        Rc::new(Step {
            at: if self.len == 0 { None } else { at },
            len: self.len,
        })
    }
}

/// What the pointer is on: a stage, and a bit of its value when it is on a cell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    pub stage: Option<usize>,
    pub bit: Option<u32>,
}

/// The figure's data, computed once per trace and width.
pub struct Drawn {
    pub prov: Provenance,
    pub layout: Layout,
    /// The figure's style sheet, for its text size.
    pub style: String,
    /// For each stage, the bits some later stage reads (the rest are dropped).
    pub used: Vec<u128>,
}

impl Drawn {
    pub fn of(t: &Trace, m: Metrics) -> Drawn {
        let prov = Provenance::of(t);
        let layout = layout(t, &prov, m);
        let style = svg::style(&m);
        let mut used = vec![0u128; t.stages.len()];
        for (i, s) in t.stages.iter().enumerate() {
            for b in 0..s.output.bits.min(128) {
                for d in prov.direct(i, b) {
                    used[d.node] |= d.mask;
                }
            }
        }
        Drawn {
            prov,
            layout,
            style,
            used,
        }
    }
}

/// One line in words for a stage: what the list and the step counter say.
pub fn stage_words(i: usize, t: &Trace) -> String {
    let s = &t.stages[i];
    let lane = s.lane.map(|l| format!("lane {l}, ")).unwrap_or_default();
    format!("{}. {}{}: {}", i + 1, lane, s.kind.name(), s.label)
}

#[function_component]
pub fn Pipeline(props: &Props) -> Html {
    let t = props.trace.clone();
    let n = t.stages.len();
    // The figure is laid out for the width it has, measured, and drawn at that size.
    let fig_ref = use_node_ref();
    let width = use_state_eq(export::last_width);
    {
        let width = width.clone();
        let fig_ref = fig_ref.clone();
        use_effect_with((), move |_| {
            let guard = export::watch_width(&fig_ref, move |w| width.set(w));
            move || drop(guard)
        });
    }
    let metrics = Metrics::new(*width, props.present);
    let drawn = use_memo((t.clone(), metrics), |(t, m)| Drawn::of(t, *m));
    let step = use_reducer(|| Step { at: None, len: n });
    let point = use_state(Point::default);
    let playing = use_state(|| false);
    let svg_ref = use_node_ref();
    let copied = use_state(|| None::<&'static str>);

    // A new instruction (another number of stages) starts over.
    {
        let step = step.dispatcher();
        use_effect_with((t.instruction.clone(), n), move |(_, n)| {
            step.dispatch(StepAction::Len(*n));
        });
    }
    // Play: one stage at a readable pace (slower where motion should be reduced).
    {
        let step_d = step.dispatcher();
        let playing_h = playing.clone();
        let at_end = step.at == Some(n.saturating_sub(1));
        use_effect_with((*playing, at_end), move |&(on, end)| {
            if on && end {
                playing_h.set(false);
            }
            #[cfg(target_arch = "wasm32")]
            let timer = on.then(|| {
                let ms = if export::reduced_motion() { 2000 } else { 1100 };
                gloo_timers::callback::Interval::new(ms, move || step_d.dispatch(StepAction::Next))
            });
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (on, step_d);
            move || {
                #[cfg(target_arch = "wasm32")]
                drop(timer);
            }
        });
    }

    let lit = match (point.stage, point.bit) {
        (Some(s), Some(b)) if s < n => drawn.prov.lit(s, b),
        _ => vec![0; n],
    };
    let focus = point.stage.or(step.at).filter(|&s| s < n);

    let on_over = {
        let point = point.clone();
        Callback::from(move |e: MouseEvent| {
            let p = export::point_of(&e);
            if p != *point {
                point.set(p);
            }
        })
    };
    let on_leave = {
        let point = point.clone();
        Callback::from(move |_: MouseEvent| point.set(Point::default()))
    };
    let on_key = {
        let step = step.dispatcher();
        let exit = props.on_exit.clone().filter(|_| props.present);
        Callback::from(move |e: KeyboardEvent| {
            let a = match e.key().as_str() {
                "ArrowRight" | "ArrowDown" | " " => StepAction::Next,
                "ArrowLeft" | "ArrowUp" => StepAction::Prev,
                "Home" => StepAction::First,
                "End" => StepAction::Last,
                "Escape" => {
                    if let Some(exit) = &exit {
                        e.prevent_default();
                        exit.emit(());
                        return;
                    }
                    StepAction::Clear
                }
                _ => return,
            };
            e.prevent_default();
            step.dispatch(a);
        })
    };
    // In present mode the keys step wherever the focus is (the figure's own handler is
    // left out, so that a key is not taken twice); the current stage is kept in view.
    {
        let on_key = on_key.clone();
        use_effect_with(props.present, move |&present| {
            let guard = present.then(|| export::window_keys(on_key));
            move || drop(guard)
        });
    }
    {
        let fig_ref = fig_ref.clone();
        use_effect_with(step.at, move |&at| {
            if let Some(i) = at {
                export::show_stage(&fig_ref, i);
            }
        });
    }
    let click = |a: fn() -> StepAction| {
        let step = step.dispatcher();
        let playing = playing.clone();
        Callback::from(move |_: MouseEvent| {
            playing.set(false);
            step.dispatch(a())
        })
    };
    let on_play = {
        let playing = playing.clone();
        let step_d = step.dispatcher();
        let restart = step.at.is_none_or(|s| s + 1 >= n);
        Callback::from(move |_: MouseEvent| {
            if !*playing && restart {
                step_d.dispatch(StepAction::First);
            }
            playing.set(!*playing)
        })
    };
    let on_download = {
        let svg_ref = svg_ref.clone();
        let name = t.opcode.clone();
        Callback::from(move |_: MouseEvent| export::download(&svg_ref, &name))
    };
    let on_copy = {
        let svg_ref = svg_ref.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| export::copy_image(&svg_ref, copied.clone()))
    };
    let pick = {
        let step = step.dispatcher();
        move |i: usize| {
            let step = step.clone();
            Callback::from(move |_: MouseEvent| step.dispatch(StepAction::Set(i)))
        }
    };
    let on_present = props
        .on_present
        .clone()
        .map(|cb| Callback::from(move |_: MouseEvent| cb.emit(())));
    let on_exit = props
        .on_exit
        .clone()
        .map(|cb| Callback::from(move |_: MouseEvent| cb.emit(())));
    let counter = match step.at {
        Some(s) if s < n => stage_words(s, &t),
        _ => format!("All {n} stages"),
    };

    html! {
        <div class={classes!("pipeline", props.compact.then_some("compact"), props.present.then_some("presenting"))}>
            <div class="fig-tools" role="toolbar" aria-label="Step through the stages">
                <button type="button" class="edge" onclick={click(|| StepAction::Prev)}
                    disabled={step.at == Some(0)}>{ "Previous stage" }</button>
                <button type="button" class="edge" onclick={click(|| StepAction::Next)}
                    disabled={step.at == Some(n.saturating_sub(1))}>{ "Next stage" }</button>
                <button type="button" class="edge" aria-pressed={(*playing).to_string()} onclick={on_play}>
                    { if *playing { "Pause" } else { "Play" } }
                </button>
                if step.at.is_some() {
                    <button type="button" class="edge" onclick={click(|| StepAction::Clear)}>{ "Show all" }</button>
                }
                <span class="fig-step" aria-live="polite">{ counter }</span>
                <span class="fig-export">
                    if let Some(cb) = on_present {
                        <button type="button" class="edge present-btn" onclick={cb}
                            title="The figure alone, full screen; arrow keys or Space step, Escape returns">{ "Present" }</button>
                    }
                    if let Some(cb) = on_exit {
                        <button type="button" class="edge" onclick={cb} title="Back to the page (Escape)">{ "Exit present mode" }</button>
                    }
                    <button type="button" class="edge" onclick={on_download}>{ "Download SVG" }</button>
                    if export::can_copy_image() {
                        <button type="button" class="edge" onclick={on_copy}>
                            { copied.unwrap_or("Copy image") }
                        </button>
                    }
                </span>
            </div>
            <div class="fig-wrap">
                <div class="fig" role="figure" aria-label="Pipeline" tabindex="0" ref={fig_ref}
                    aria-describedby="pipeline-words" onkeydown={(!props.present).then_some(on_key)}>
                    { svg::draw(&t, &drawn, &svg::Marks {
                        lit: &lit,
                        point: *point,
                        step: step.at,
                        highlight: props.highlight,
                        explain: props.explain,
                    }, svg_ref.clone(), on_over, on_leave) }
                </div>
                <aside class="stage-details" aria-label="Stage details" hidden={props.present || (props.compact && focus.is_none())}>
                    if let Some(f) = focus {
                        { stage_card(f, &t.stages[f], props.highlight) }
                    } else if !props.compact {
                        <p class="muted hint">{ "Point at a bit to light the bits it came from; step through, or point at a stage, for its details." }</p>
                    }
                </aside>
            </div>
            <details class="fig-words" open={!props.compact && !props.present}>
                <summary>{ "Stages in words" }</summary>
                <ol id="pipeline-words" class="stage-list">
                    { for t.stages.iter().enumerate().map(|(i, s)| {
                        let kind = s.kind.name().to_string();
                        let current = step.at == Some(i);
                        let parts = props.highlight == Some(i);
                        let explains = props.explain == Some(i);
                        html! {
                            <li key={i} id={format!("stage-{i}")} data-index={i.to_string()} data-kind={kind.clone()}
                                data-explains={explains.then_some("")}
                                class={classes!("stage", format!("kind-{}", kind.replace(' ', "-")), parts.then_some("parts"), explains.then_some("explains"), current.then_some("current"))}
                                aria-current={current.then_some("step")}>
                                <button type="button" class="stage-pick" onclick={pick(i)}>
                                    { stage_words(i, &t) }
                                </button>
                                { " " }
                                if !s.op.is_empty() { <code class="op">{ s.op.clone() }</code>{ " " } }
                                <span aria-hidden="true">{ "→ " }</span>
                                <code class="output">{ format!("{} = {}", s.output.name, s.output.hex()) }</code>
                                { for s.flags.iter().map(|f| html! { <span class="badge">{ f.label() }</span> }) }
                                if let Some(d) = s.difference {
                                    <a class="badge note diff-link" href={d.doc_link()} target="_blank" rel="noopener"
                                        title={d.info().title}>{ "why: hardware vs ISA text" }</a>
                                }
                                if parts { <span class="badge warn">{ "the readings part here" }</span> }
                                if explains { <span class="badge warn">{ "explains your wrong bits" }</span> }
                            </li>
                        }
                    }) }
                </ol>
            </details>
        </div>
    }
}

/// Bits `lo ..= hi` as a mask.
pub fn range_mask(lo: u32, hi: u32) -> u128 {
    if hi < lo || lo >= 128 {
        return 0;
    }
    let top = if hi >= 127 {
        u128::MAX
    } else {
        (1u128 << (hi + 1)) - 1
    };
    top & !((1u128 << lo) - 1)
}

/// Whether a stage's bits above the field are sign copies (true), zeros (false), or neither.
pub fn extension(t: &Trace, i: usize) -> Option<(u32, bool)> {
    match t.stages[i].detail {
        Detail::Field { width, signed, .. }
            if t.stages[i].kind != StageKind::Field || width > 0 =>
        {
            Some((width, signed))
        }
        _ => None,
    }
}
