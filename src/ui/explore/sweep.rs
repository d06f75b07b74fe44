//! The sweep panel: two source fields of the current instruction chosen as axes, the result over
//! their grid drawn as a heat map on a canvas, overlays for the notable cells, the case under the
//! pointer (or the keyboard cursor), and a click that loads it into the main view.
//!
//! The panel's state and what each event does to it are [`crate::sweep_model`] (tested
//! natively); this component dispatches the events, paints the map, and times the draws.

use std::rc::Rc;

use ptxlab_core::sweep::{Sweep, SweepAxis};
use ptxlab_core::Inputs;
use ptxlab_core::Instruction;
use yew::prelude::*;

use super::heat::{self, Overlay};
use crate::model::Action;
use crate::sweep_model::{
    case_lines, hex_of, legend_value, load_actions, read_range, same_field, Drawn, Env, Moment,
    Msg, Role, SweepState, GRIDS,
};
use crate::ui::perf;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The instruction of either kind, swept on its plan ([`Instruction::plan`]).
    pub insn: Rc<Instruction>,
    pub inputs: Inputs,
    /// Whether `d` reads as a signed number (for the colour scale).
    pub signed: bool,
    pub dispatch: Callback<Action>,
    /// The settings from the address (see [`crate::sweep_model::Spec`]), read when the panel
    /// opens.
    #[prop_or_default]
    pub spec: Option<String>,
}

impl Reducible for SweepState {
    type Action = (Env, Msg);
    fn reduce(self: Rc<Self>, (env, msg): (Env, Msg)) -> Rc<Self> {
        Rc::new((*self).clone().apply(&env, msg))
    }
}

/// The page's clock for a draw, marking each moment for the performance timeline.
fn clock(m: Moment) -> f64 {
    match m {
        Moment::Start => perf::mark(perf::SWEEP_START),
        Moment::Evaluated => {
            perf::mark(perf::SWEEP_EVAL_END);
            perf::measure(perf::SWEEP_EVAL, perf::SWEEP_START, perf::SWEEP_EVAL_END);
        }
    }
    perf::now()
}

fn axis_editor(
    role: Role,
    choices: &Rc<Vec<SweepAxis>>,
    current: &SweepAxis,
    on_pick: Callback<Result<SweepAxis, String>>,
    error: Option<String>,
) -> Html {
    let idx = choices.iter().position(|a| same_field(a, current));
    let onchange = {
        let choices = choices.clone();
        let on_pick = on_pick.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(a) = sel
                .value()
                .parse::<usize>()
                .ok()
                .and_then(|i| choices.get(i))
            {
                on_pick.emit(Ok(a.clone()));
            }
        })
    };
    let role = role.name();
    let id = |what: &str| format!("sweep-{role}-{what}");
    let range_change = {
        let current = current.clone();
        let on_pick = on_pick.clone();
        let ids = [id("start"), id("step"), id("steps")];
        Callback::from(move |_: Event| {
            let read = |i: &str| -> String {
                web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id(i))
                    .map(|e| {
                        use wasm_bindgen::JsCast;
                        e.unchecked_into::<web_sys::HtmlInputElement>().value()
                    })
                    .unwrap_or_default()
            };
            let (a, b, c) = (read(&ids[0]), read(&ids[1]), read(&ids[2]));
            on_pick.emit(read_range(&current, &a, &b, &c));
        })
    };
    html! {
        <fieldset class="sweep-axis">
            <legend>{ format!("{role} axis") }</legend>
            <label class="pick">
                <span>{ format!("{role} field") }</span>
                <select id={id("field")} onchange={onchange} aria-label={format!("{role} axis field")}>
                    { for choices.iter().enumerate().map(|(i, a)| html! {
                        <option value={i.to_string()} selected={Some(i) == idx}>{ a.label.clone() }</option>
                    }) }
                </select>
            </label>
            <label class="pick small">
                <span>{ "from" }</span>
                <input id={id("start")} type="text" value={hex_of(current.start, current.width)}
                    onchange={range_change.clone()} aria-label={format!("{role} axis start")} />
            </label>
            <label class="pick small">
                <span>{ "step" }</span>
                <input id={id("step")} type="text" value={current.step.to_string()}
                    onchange={range_change.clone()} aria-label={format!("{role} axis step")} />
            </label>
            <label class="pick small">
                <span>{ "steps" }</span>
                <input id={id("steps")} type="text" inputmode="numeric" value={current.len().to_string()}
                    onchange={range_change} aria-label={format!("{role} axis steps")} />
            </label>
            if let Some(e) = error {
                <p class="field-error" role="alert">{ e }</p>
            }
        </fieldset>
    }
}

#[function_component]
pub fn SweepPanel(props: &Props) -> Html {
    let canon = props.insn.canonical();
    // Decoded once per instruction: every redraw and scrub runs on it.
    let plan = {
        let insn = props.insn.clone();
        use_memo(canon.clone(), move |_| insn.plan())
    };
    let env = Env {
        insn: props.insn.clone(),
        plan,
        inputs: props.inputs,
        signed: props.signed,
        clock,
    };
    let state = {
        let (insn, spec) = (props.insn.clone(), props.spec.clone());
        use_reducer(move || SweepState::new(&insn, spec.as_deref()))
    };
    let send = {
        let dispatcher = state.dispatcher();
        let env = env.clone();
        Callback::from(move |m: Msg| dispatcher.dispatch((env.clone(), m)))
    };
    // Until the instruction change below is applied, show its axes already.
    let view: Rc<SweepState> = if state.canon == canon {
        Rc::new((*state).clone())
    } else {
        Rc::new((*state).clone().apply(&env, Msg::Retarget))
    };
    let canvas = use_node_ref();

    // Draw once when the panel opens.
    {
        let send = send.clone();
        use_effect_with((), move |_| send.emit(Msg::Open));
    }
    // Another instruction in the main view: its default axes (the map waits for Draw).
    {
        let send = send.clone();
        let needs = state.canon != canon;
        use_effect_with(canon.clone(), move |_| {
            if needs {
                send.emit(Msg::Retarget);
            }
        });
    }
    // The address carries the settings while the panel is open.
    {
        let dispatch = props.dispatch.clone();
        use_effect_with(view.spec_text(), move |spec| {
            dispatch.emit(Action::SetSweep(Some(spec.clone())));
        });
    }
    {
        let dispatch = props.dispatch.clone();
        use_effect_with((), move |_| move || dispatch.emit(Action::SetSweep(None)));
    }

    // Paint the canvas for every new map and every change of overlays; the first painting of
    // a new map reports the clock's time, and the state times the whole draw.
    {
        let canvas = canvas.clone();
        let send = send.clone();
        let timed = view.timing.map_or(0, |t| t.generation);
        let key = (
            view.generation,
            view.shown.iter().map(|o| o.key()).collect::<Vec<_>>(),
        );
        let drawn_now = view.drawn.clone();
        let shown_now = view.shown.clone();
        use_effect_with(key, move |_| {
            if let Some(d) = drawn_now {
                paint(&canvas, &d, &shown_now);
                if timed < d.generation {
                    let at_ms = perf::now();
                    perf::mark(perf::SWEEP_END);
                    perf::measure(perf::SWEEP, perf::SWEEP_START, perf::SWEEP_END);
                    send.emit(Msg::Painted {
                        generation: d.generation,
                        at_ms,
                    });
                }
            }
        });
    }

    let pick = |role: Role| {
        let send = send.clone();
        Callback::from(move |a: Result<SweepAxis, String>| send.emit(Msg::Pick(role, a)))
    };
    let error_for = |role: Role| {
        view.range_error
            .as_ref()
            .filter(|(r, _)| *r == role)
            .map(|(_, m)| m.clone())
    };
    let redraw = {
        let send = send.clone();
        Callback::from(move |_: MouseEvent| send.emit(Msg::Draw))
    };
    let on_grid = {
        let send = send.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Ok(n) = sel.value().parse::<u32>() {
                send.emit(Msg::Grid(n));
            }
        })
    };
    // The slider: each move writes the step's value into the scrubbed field and redraws.
    let on_scrub_field = {
        let send = send.clone();
        let choices = view.choices.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(a) = sel
                .value()
                .parse::<usize>()
                .ok()
                .and_then(|i| choices.get(i))
            {
                send.emit(Msg::ScrubField(a.clone()));
            }
        })
    };
    let on_scrub = {
        let send = send.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(i) = input.value().parse::<u32>() {
                send.emit(Msg::Scrub(i));
            }
        })
    };

    let d = view.drawn.clone();
    let stale = view.stale(&props.insn, &props.inputs);
    let on_move = {
        let send = send.clone();
        let d = d.clone();
        let cursor = view.cursor;
        Callback::from(move |e: MouseEvent| {
            let Some(d) = &d else { return };
            let cell = pointer_cell(&e, &d.sweep);
            if cell.is_some() && cell != cursor {
                send.emit(Msg::Cursor(cell));
            }
        })
    };
    let load = {
        let dispatch = props.dispatch.clone();
        // A map of another instruction has nothing to load: Draw first.
        let d = view.loadable(&props.insn);
        move |cell: Option<(u32, u32)>| {
            if let (Some(d), Some((c, r))) = (&d, cell) {
                perf::edit_started();
                for a in load_actions(d, c, r) {
                    dispatch.emit(a);
                }
            }
        }
    };
    let on_click = {
        let load = load.clone();
        let send = send.clone();
        let d = d.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(dd) = &d else { return };
            let cell = pointer_cell(&e, &dd.sweep);
            if cell.is_some() {
                send.emit(Msg::Cursor(cell));
            }
            load(cell);
        })
    };
    let on_key = {
        let send = send.clone();
        let cursor = view.cursor;
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" | " " => {
                e.prevent_default();
                load(Some(cursor.unwrap_or((0, 0))));
            }
            "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" => {
                e.prevent_default();
                send.emit(Msg::Key {
                    key: e.key(),
                    shift: e.shift_key(),
                });
            }
            _ => {}
        })
    };
    let on_leave = {
        let send = send.clone();
        Callback::from(move |_: MouseEvent| send.emit(Msg::Cursor(None)))
    };
    let toggle = |o: Overlay| {
        let send = send.clone();
        Callback::from(move |_: Event| send.emit(Msg::Toggle(o)))
    };

    // The current case's place on the map, when the map reaches it.
    let here = d.as_ref().and_then(|d| {
        let cx = d.x.step_of(d.x.field_of(&props.inputs))?;
        let cy = d.y.step_of(d.y.field_of(&props.inputs))?;
        Some((cx, cy, d.sweep.width, d.sweep.height))
    });
    let cur = view.cursor.filter(|(c, r)| {
        d.as_ref()
            .is_some_and(|d| *c < d.sweep.width && *r < d.sweep.height)
    });
    let (x, y) = (&view.x, &view.y);
    let choices = &view.choices;
    let scrub_axis = &view.scrub;
    let scrub_at = view.scrub_at;
    let shown = &view.shown;
    let grid = view.grid();

    html! {
        <div class="sweep">
            <p class="muted">{ "The result for every pair of values of two source fields; the other bits of every operand stay as they are in the main view." }</p>
            <div class="sweep-axes">
                { axis_editor(Role::X, choices, x, pick(Role::X), error_for(Role::X)) }
                { axis_editor(Role::Y, choices, y, pick(Role::Y), error_for(Role::Y)) }
            </div>
            <div class="sweep-actions">
                <label class="pick small">
                    <span>{ "grid" }</span>
                    <select id="sweep-grid" aria-label="grid size" onchange={on_grid}>
                        { for GRIDS.iter().map(|&g| html! {
                            <option value={g.to_string()} selected={g == grid}>{ format!("{g} × {g}") }</option>
                        }) }
                        if !GRIDS.contains(&grid) {
                            <option value={grid.to_string()} selected=true>{ format!("{} × {}", x.len(), y.len()) }</option>
                        }
                    </select>
                </label>
                <button type="button" class="edge primary" onclick={redraw}>{ "Draw" }</button>
                if stale {
                    <span class="muted sweep-stale">{ "The main view changed since this map was drawn." }</span>
                }
            </div>
            if let Some(sa) = &scrub_axis {
                <fieldset class="sweep-scrub">
                    <legend>{ "Scrub a third field" }</legend>
                    <label class="pick">
                        <span>{ "field" }</span>
                        <select id="sweep-scrub-field" aria-label="scrubbed field" onchange={on_scrub_field}>
                            { for choices.iter().enumerate().filter(|(_, a)| !same_field(a, x) && !same_field(a, y)).map(|(i, a)| html! {
                                <option value={i.to_string()} selected={same_field(a, sa)}>{ a.label.clone() }</option>
                            }) }
                        </select>
                    </label>
                    <label class="pick scrub-slider">
                        <span>{ scrub_at.map_or_else(|| "as in the main view".to_string(), |i| format!("{} = {}", sa.label, sa.value(i))) }</span>
                        <input id="sweep-scrub" type="range" min="0" max={(sa.len() - 1).to_string()}
                            value={scrub_at.or_else(|| sa.step_of(sa.field_of(&props.inputs))).unwrap_or(0).to_string()}
                            aria-label={format!("scrub {}", sa.label)} oninput={on_scrub} />
                    </label>
                </fieldset>
            }
            <fieldset class="sweep-overlays">
                <legend>{ "Mark cells where" }</legend>
                { for Overlay::ALL.iter().map(|&o| {
                    let i = Overlay::ALL.iter().position(|x| *x == o).unwrap_or(0);
                    let n = match &d {
                        Some(d) if o != Overlay::TextDiffers || d.text => d.counts[i].to_string(),
                        Some(_) => "not compared".to_string(),
                        None => "0".to_string(),
                    };
                    html! {
                        <label class="pick toggle">
                            <input type="checkbox" id={format!("overlay-{}", o.key())}
                                checked={shown.contains(&o)} onchange={toggle(o)} />
                            <span class="swatch" style={format!("background:{}", o.css())}></span>
                            { format!("{} ({n})", o.label()) }
                        </label>
                    }
                }) }
            </fieldset>
            if let Some(dd) = &d {
                <div class="sweep-view">
                <div class="sweep-figure">
                <div class="sweep-map">
                    <div class="sweep-ylabel" aria-hidden="true">{ format!("↓ {}", dd.y.label) }</div>
                    <div class="sweep-canvas-wrap">
                        <canvas ref={canvas.clone()} class="sweep-canvas" tabindex="0"
                            width={dd.sweep.width.to_string()} height={dd.sweep.height.to_string()}
                            role="img"
                            aria-label={format!("heat map of d over {} ({} values) and {} ({} values); arrow keys move, Enter loads the case", dd.x.label, dd.sweep.width, dd.y.label, dd.sweep.height)}
                            onmousemove={on_move} onclick={on_click} onkeydown={on_key} onmouseleave={on_leave} />
                        if let Some((cx, cy, w, h)) = here {
                            <div class="sweep-here" aria-hidden="true" title="the case in the main view"
                                style={format!("left:{}%;top:{}%;width:{}%;height:{}%", 100.0 * cx as f64 / w as f64, 100.0 * cy as f64 / h as f64, 100.0 / w as f64, 100.0 / h as f64)}></div>
                        }
                        if let Some((c, r)) = cur {
                            <div class="sweep-cursor" aria-hidden="true"
                                style={format!("left:{}%;top:{}%;width:{}%;height:{}%", 100.0 * c as f64 / dd.sweep.width as f64, 100.0 * r as f64 / dd.sweep.height as f64, 100.0 / dd.sweep.width as f64, 100.0 / dd.sweep.height as f64)}></div>
                        }
                    </div>
                    <div class="sweep-xlabel" aria-hidden="true">{ format!("→ {}", dd.x.label) }</div>
                </div>
                <div class="sweep-legend">
                    <span class="legend-end">{ legend_value(dd.range.0, dd.sweep.dst_bits, dd.signed) }</span>
                    <span class="legend-bar" style={format!("background:{}", heat::gradient_css())}></span>
                    <span class="legend-end">{ legend_value(dd.range.1, dd.sweep.dst_bits, dd.signed) }</span>
                    <span class="muted">{ format!(" d{}", if dd.signed { ", signed" } else { "" }) }</span>
                </div>
                </div>
                <div class="sweep-tip" role="status" aria-live="polite">
                    if let Some((c, r)) = cur {
                        <dl class="case" data-col={c.to_string()} data-row={r.to_string()}>
                            { for case_lines(dd, c, r).into_iter().map(|(k, v)| html! {
                                <>
                                    <dt>{ k.clone() }</dt>
                                    <dd data-name={k}>{ v }</dd>
                                </>
                            }) }
                        </dl>
                        <p class="muted">{ "Click (or press Enter) to load this case." }</p>
                    } else {
                        <p class="muted">{ "Point at the map, or focus it and use the arrow keys, to see a case." }</p>
                    }
                </div>
                </div>
                if let Some(t) = view.timing {
                    <p class="sweep-timing" data-eval-ms={format!("{:.2}", t.eval_ms)} data-total-ms={format!("{:.2}", t.total_ms)}>
                        { format!("{} evaluations in {:.1} ms; drawn in {:.1} ms in all.", dd.sweep.d.len(), t.eval_ms, t.total_ms) }
                    </p>
                }
            }
        </div>
    }
}

/// Put the map's pixels on the canvas.
fn paint(canvas: &NodeRef, d: &Drawn, shown: &[Overlay]) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::{Clamped, JsCast};
        let Some(el) = canvas.cast::<web_sys::HtmlCanvasElement>() else {
            return;
        };
        let (w, h) = (d.sweep.width, d.sweep.height);
        if el.width() != w {
            el.set_width(w);
        }
        if el.height() != h {
            el.set_height(h);
        }
        let Ok(Some(ctx)) = el.get_context("2d") else {
            return;
        };
        let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else {
            return;
        };
        let px = heat::pixels(&d.sweep, d.signed, shown);
        if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&px), w, h) {
            let _ = ctx.put_image_data(&img, 0.0, 0.0);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (canvas, d, shown);
}

/// The cell of the map under the pointer of a mouse event on the canvas.
fn pointer_cell(e: &MouseEvent, sweep: &Sweep) -> Option<(u32, u32)> {
    let el: web_sys::Element = e.target_unchecked_into();
    heat::cell_at(
        e.offset_x() as f64,
        e.offset_y() as f64,
        el.client_width() as f64,
        el.client_height() as f64,
        sweep.width,
        sweep.height,
    )
}
