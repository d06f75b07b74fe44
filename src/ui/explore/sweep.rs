//! The sweep panel: two source fields of the current instruction chosen as axes, the result over
//! their grid drawn as a heat map on a canvas, overlays for the notable cells, the case under the
//! pointer (or the keyboard cursor), and a click that loads it into the main view. The grid is
//! evaluated only when asked (on opening, on changing an axis, or with the Draw button), never
//! on an edit of the main view.

use std::rc::Rc;

use ptxlab_core::ast::SOURCE_NAMES;
use ptxlab_core::sweep::{
    case_at, default_axes, suggest_axes, sweep_with, Sweep, SweepAxis, MAX_STEPS,
};
use ptxlab_core::trace::{Flag, Views};
use ptxlab_core::{widths, Inputs, Instruction, Plan};
use yew::prelude::*;

use super::heat::{self, Overlay};
use crate::model::Action;
use crate::ui::perf;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Instruction>,
    pub inputs: Inputs,
    /// Whether `d` reads as a signed number (for the colour scale).
    pub signed: bool,
    pub dispatch: Callback<Action>,
    /// The settings from the address (see [`Spec`]), read when the panel opens.
    #[prop_or_default]
    pub spec: Option<String>,
}

/// Grid sizes offered: steps along each axis.
pub const GRIDS: [u32; 5] = [64, 128, 256, 512, 1024];

/// The sweep view's settings as the address carries them in `sweep=`:
/// `x:<axis>;y:<axis>;o:<overlays>;s:<axis>.<step>` where an axis is
/// `<operand>.<lo>.<width>.<start hex>.<step hex>.<steps>` (the field `width` bits wide at bit
/// `lo` of operand `a`, `b`, `c` or `e`, and its range), the overlays are their keys joined by
/// `.` (`clamped`, `masked`, `wrapped`, `text`), and `s:` is the scrubbed field with the
/// slider's step (absent: the main view's value). The grid size is the two axes' steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spec {
    pub x: Option<SweepAxis>,
    pub y: Option<SweepAxis>,
    pub overlays: Option<Vec<Overlay>>,
    pub scrub: Option<(SweepAxis, u32)>,
}

fn axis_text(a: &SweepAxis) -> String {
    format!(
        "{}.{}.{}.{:x}.{:x}.{}",
        SOURCE_NAMES[a.operand.min(3)],
        a.lo,
        a.width,
        a.start,
        a.step,
        a.len()
    )
}

/// An axis written as [`axis_text`] writes it, if it names one of `choices` and its range is
/// in bounds.
fn read_axis(choices: &[SweepAxis], s: &str) -> Option<SweepAxis> {
    let p: Vec<&str> = s.split('.').collect();
    if p.len() != 6 {
        return None;
    }
    let operand = SOURCE_NAMES.iter().position(|n| *n == p[0])?;
    let lo: u32 = p[1].parse().ok()?;
    let width: u32 = p[2].parse().ok()?;
    let start = u64::from_str_radix(p[3], 16).ok()?;
    let step = u64::from_str_radix(p[4], 16).ok()?;
    let steps: u32 = p[5].parse().ok()?;
    if steps == 0 || steps > MAX_STEPS {
        return None;
    }
    let c = choices
        .iter()
        .find(|c| c.operand == operand && c.lo == lo && c.width == width)?;
    Some(c.clone().with_range(start, step, steps))
}

impl Spec {
    /// The text for the address.
    pub fn text(
        x: &SweepAxis,
        y: &SweepAxis,
        shown: &[Overlay],
        scrub: Option<&(SweepAxis, u32)>,
    ) -> String {
        let o: Vec<&str> = shown.iter().map(|o| o.key()).collect();
        let mut s = format!("x:{};y:{};o:{}", axis_text(x), axis_text(y), o.join("."));
        if let Some((a, i)) = scrub {
            s.push_str(&format!(";s:{}.{i}", axis_text(a)));
        }
        s
    }

    /// Read the settings for `insn`; parts that do not read or do not fit it are left out.
    pub fn read(text: &str, insn: &Instruction) -> Spec {
        let choices = axis_choices(insn);
        let mut spec = Spec::default();
        for part in text.split(';') {
            let Some((k, v)) = part.split_once(':') else {
                continue;
            };
            match k {
                "x" => spec.x = read_axis(&choices, v),
                "y" => spec.y = read_axis(&choices, v),
                "o" => {
                    spec.overlays = Some(
                        Overlay::ALL
                            .into_iter()
                            .filter(|o| v.split('.').any(|k| k == o.key()))
                            .collect(),
                    )
                }
                "s" => {
                    spec.scrub = v.rsplit_once('.').and_then(|(a, i)| {
                        let a = read_axis(&choices, a)?;
                        let i: u32 = i.parse().ok()?;
                        (i < a.len()).then_some((a, i))
                    })
                }
                _ => {}
            }
        }
        spec
    }
}

/// The axis a slider scrubs by default: the first field that is neither axis.
pub fn default_scrub(choices: &[SweepAxis], x: &SweepAxis, y: &SweepAxis) -> Option<SweepAxis> {
    choices
        .iter()
        .find(|a| !same_field(a, x) && !same_field(a, y))
        .cloned()
}

/// `a` over `steps` steps covering the same values: every value for small fields, evenly
/// spaced ones otherwise (more steps than values wrap around the field).
pub fn with_grid(a: &SweepAxis, steps: u32) -> SweepAxis {
    let steps = steps.clamp(1, MAX_STEPS);
    let span = if a.width >= 64 {
        u128::from(u64::MAX) + 1
    } else {
        1u128 << a.width
    };
    let step = (span / u128::from(steps)).max(1) as u64;
    a.clone().with_range(a.start, step, steps)
}

/// A drawn map and what it was drawn from.
#[derive(Debug, PartialEq)]
pub struct Drawn {
    pub sweep: Sweep,
    pub insn: Rc<Instruction>,
    pub base: Inputs,
    pub x: SweepAxis,
    pub y: SweepAxis,
    pub signed: bool,
    pub range: (i128, i128),
    /// The scrubbed field and its step, written into `base`.
    pub scrub: Option<(SweepAxis, u32)>,
    /// Whether the ISA text's reading was compared (the text overlay needs it).
    pub text: bool,
    /// Cells each overlay marks, in [`Overlay::ALL`] order.
    pub counts: [usize; 4],
    pub eval_ms: f64,
    /// Counts draws, so the canvas is repainted once per new map.
    pub generation: u64,
}

/// The axis choices for an instruction: the suggested fields, with the default pair included.
pub fn axis_choices(insn: &Instruction) -> Vec<SweepAxis> {
    let mut all = suggest_axes(insn);
    let (x, y) = default_axes(insn);
    for a in [x, y] {
        if !all.iter().any(|b| same_field(b, &a)) {
            all.push(a);
        }
    }
    all
}

/// Whether two axes sweep the same bits of the same operand (ranges aside).
pub fn same_field(a: &SweepAxis, b: &SweepAxis) -> bool {
    a.operand == b.operand && a.lo == b.lo && a.width == b.width && a.label == b.label
}

/// Read a range typed for an axis: start (hex, decimal or negative), step, number of steps.
pub fn read_range(
    axis: &SweepAxis,
    start: &str,
    step: &str,
    steps: &str,
) -> Result<SweepAxis, String> {
    let start = ptxlab_core::batch::parse_operand_value(start, axis.width)
        .map_err(|e| format!("start: {e}"))?;
    let step = ptxlab_core::batch::parse_operand_value(step, axis.width)
        .map_err(|e| format!("step: {e}"))?;
    let n: u32 = steps
        .trim()
        .parse()
        .map_err(|_| format!("steps: a whole number from 1 to {MAX_STEPS}"))?;
    if n == 0 || n > MAX_STEPS {
        return Err(format!("steps: a whole number from 1 to {MAX_STEPS}"));
    }
    Ok(axis.clone().with_range(start, step, n))
}

fn hex_of(v: u64, bits: u32) -> String {
    Views::of(v, bits).hex
}

/// The words shown for one cell: where it is on each axis, every source, `d` and the flags.
pub fn case_lines(d: &Drawn, col: u32, row: u32) -> Vec<(String, String)> {
    let w = widths(&d.insn);
    let inputs = case_at(&d.base, &d.x, &d.y, col, row);
    let arr = inputs.as_array();
    let mut out = vec![
        (d.x.label.clone(), d.x.value(col).to_string()),
        (d.y.label.clone(), d.y.value(row).to_string()),
    ];
    for (i, name) in SOURCE_NAMES.iter().enumerate().take(w.sources.min(4)) {
        out.push((name.to_string(), hex_of(arr[i], w.src[i])));
    }
    if let Some(v) = d.sweep.d_at(col, row) {
        out.push(("d".into(), hex_of(v, d.sweep.dst_bits)));
    }
    let flags = d.sweep.flags_at(col, row).unwrap_or(0);
    let names: Vec<&str> = Flag::ALL
        .iter()
        .filter(|f| u32::from(flags) & f.bit() != 0)
        .filter(|f| !matches!(f, Flag::SignExtended | Flag::ZeroExtended))
        .map(|f| f.name())
        .collect();
    if !names.is_empty() {
        out.push(("events".into(), names.join(", ")));
    }
    out
}

/// The actions that load a cell's case into the main view: the operands the axes write.
pub fn load_actions(d: &Drawn, col: u32, row: u32) -> Vec<Action> {
    let now = case_at(&d.base, &d.x, &d.y, col, row).as_array();
    let mut srcs = vec![d.x.operand.min(3), d.y.operand.min(3)];
    if let Some((a, _)) = &d.scrub {
        srcs.push(a.operand.min(3));
    }
    srcs.sort_unstable();
    srcs.dedup();
    srcs.into_iter()
        .map(|src| Action::SetValue {
            src,
            value: now[src],
        })
        .collect()
}

/// Whether a drawn map still shows `insn` over `inputs`: the same instruction and axes, and the
/// same operands apart from the swept fields (loading a case from the map keeps it current).
pub fn map_holds(
    d: &Drawn,
    insn: &Instruction,
    inputs: &Inputs,
    x: &SweepAxis,
    y: &SweepAxis,
) -> bool {
    *d.insn == *insn
        && d.x == *x
        && d.y == *y
        && case_at(&d.base, x, y, 0, 0) == case_at(inputs, x, y, 0, 0)
}

/// A value at an end of the colour scale: hex for unsigned results, decimal for signed ones.
pub fn legend_value(v: i128, bits: u32, signed: bool) -> String {
    if signed {
        v.to_string()
    } else {
        hex_of(v as u64, bits)
    }
}

#[derive(Clone, Copy, PartialEq)]
struct Timing {
    eval_ms: f64,
    total_ms: f64,
}

fn axis_editor(
    role: &'static str,
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
    let choices = use_memo(canon.clone(), |_| Rc::new(axis_choices(&props.insn)));
    let choices: Rc<Vec<SweepAxis>> = (*choices).clone();
    // Decoded once per instruction: every redraw and scrub runs on it.
    let plan = use_memo(canon.clone(), |_| Rc::new(Plan::new(&props.insn)));
    let plan: Rc<Plan> = (*plan).clone();
    // The settings the address brought, for the instruction they were written for.
    let from_address = use_memo((), |_| {
        props
            .spec
            .as_deref()
            .map(|t| Spec::read(t, &props.insn))
            .unwrap_or_default()
    });
    // The chosen axes, for the instruction they were chosen for.
    let chosen = use_state(|| {
        let (dx, dy) = default_axes(&props.insn);
        match (&from_address.x, &from_address.y) {
            (None, None) => None,
            (x, y) => Some((
                props.insn.canonical(),
                x.clone().unwrap_or(dx),
                y.clone().unwrap_or(dy),
            )),
        }
    });
    let range_error = use_state(|| None::<(&'static str, String)>);
    let (x, y) = match &*chosen {
        Some((c, x, y)) if *c == canon => (x.clone(), y.clone()),
        _ => default_axes(&props.insn),
    };
    // The scrubbed field and the slider's step (`None`: the main view's value).
    let scrub = use_state(|| {
        from_address
            .scrub
            .clone()
            .map(|(a, i)| (props.insn.canonical(), a, Some(i)))
    });
    let (scrub_axis, scrub_at) = match &*scrub {
        Some((c, a, i)) if *c == canon => (Some(a.clone()), *i),
        _ => (default_scrub(&choices, &x, &y), None),
    };
    let scrub_now: Option<(SweepAxis, u32)> = scrub_axis.clone().zip(scrub_at);
    let drawn = use_state(|| None::<Rc<Drawn>>);
    let generation = use_mut_ref(|| 0u64);
    let pending = use_mut_ref(|| None::<f64>);
    let timing = use_state(|| None::<Timing>);
    let shown = use_state(|| {
        from_address
            .overlays
            .clone()
            .unwrap_or_else(|| vec![Overlay::Clamped, Overlay::TextDiffers])
    });
    let cursor = use_state(|| None::<(u32, u32)>);
    let canvas = use_node_ref();
    let text_on = shown.contains(&Overlay::TextDiffers);

    let compute = {
        let insn = props.insn.clone();
        let plan = plan.clone();
        let inputs = props.inputs;
        let signed = props.signed;
        let drawn = drawn.clone();
        let generation = generation.clone();
        let pending = pending.clone();
        Rc::new(
            move |x: SweepAxis, y: SweepAxis, scrub: Option<(SweepAxis, u32)>, text: bool| {
                perf::mark(perf::SWEEP_START);
                let t0 = perf::now();
                let mut base = inputs;
                if let Some((a, i)) = &scrub {
                    a.apply(&mut base, *i);
                }
                let s = sweep_with(&plan, &insn, &base, &x, &y, text);
                let t1 = perf::now();
                perf::mark(perf::SWEEP_EVAL_END);
                perf::measure(perf::SWEEP_EVAL, perf::SWEEP_START, perf::SWEEP_EVAL_END);
                let range = heat::value_range(&s, signed);
                let mut counts = [0usize; 4];
                let any = Overlay::ALL.iter().fold(0u16, |m, o| m | o.mask());
                if s.flags_seen & any != 0 {
                    // Most cells carry no flag: one test each, the overlays only where one is set.
                    for &f in s.flags.iter().filter(|&&f| f & any != 0) {
                        for (n, o) in counts.iter_mut().zip(Overlay::ALL) {
                            *n += usize::from(f & o.mask() != 0);
                        }
                    }
                }
                *pending.borrow_mut() = Some(t0);
                let g = {
                    let mut g = generation.borrow_mut();
                    *g += 1;
                    *g
                };
                drawn.set(Some(Rc::new(Drawn {
                    sweep: s,
                    insn: insn.clone(),
                    base,
                    x,
                    y,
                    signed,
                    range,
                    scrub,
                    text,
                    counts,
                    eval_ms: t1 - t0,
                    generation: g,
                })));
            },
        )
    };

    // Draw once when the panel opens.
    {
        let compute = compute.clone();
        let (x, y, sc) = (x.clone(), y.clone(), scrub_now.clone());
        use_effect_with((), move |_| compute(x, y, sc, text_on));
    }
    // The text overlay turned on over a map drawn without the text's reading: draw again.
    {
        let compute = compute.clone();
        let (x, y, sc) = (x.clone(), y.clone(), scrub_now.clone());
        let needs = text_on && drawn.as_ref().is_some_and(|d| !d.text);
        use_effect_with(needs, move |&needs| {
            if needs {
                compute(x, y, sc, true);
            }
        });
    }
    // The address carries the settings while the panel is open.
    {
        let dispatch = props.dispatch.clone();
        let spec = Spec::text(&x, &y, &shown, scrub_now.as_ref());
        use_effect_with(spec, move |spec| {
            dispatch.emit(Action::SetSweep(Some(spec.clone())));
        });
    }
    {
        let dispatch = props.dispatch.clone();
        use_effect_with((), move |_| move || dispatch.emit(Action::SetSweep(None)));
    }

    // Paint the canvas for every new map and every change of overlays.
    {
        let canvas = canvas.clone();
        let timing = timing.clone();
        let pending = pending.clone();
        let key = (
            drawn.as_ref().map_or(0, |d| d.generation),
            (*shown).iter().map(|o| o.key()).collect::<Vec<_>>(),
        );
        let drawn_now = (*drawn).clone();
        let shown_now = (*shown).clone();
        use_effect_with(key, move |_| {
            if let Some(d) = drawn_now {
                paint(&canvas, &d, &shown_now);
                if let Some(t0) = pending.borrow_mut().take() {
                    let t2 = perf::now();
                    perf::mark(perf::SWEEP_END);
                    perf::measure(perf::SWEEP, perf::SWEEP_START, perf::SWEEP_END);
                    timing.set(Some(Timing {
                        eval_ms: d.eval_ms,
                        total_ms: t2 - t0,
                    }));
                }
            }
        });
    }

    let pick = |role: &'static str| {
        let chosen = chosen.clone();
        let range_error = range_error.clone();
        let compute = compute.clone();
        let (x, y, sc) = (x.clone(), y.clone(), scrub_now.clone());
        let canon = canon.clone();
        Callback::from(move |a: Result<SweepAxis, String>| {
            let a = match a {
                Ok(a) => a,
                Err(msg) => {
                    range_error.set(Some((role, msg)));
                    return;
                }
            };
            range_error.set(None);
            let (nx, ny) = if role == "x" {
                (a, y.clone())
            } else {
                (x.clone(), a)
            };
            chosen.set(Some((canon.clone(), nx.clone(), ny.clone())));
            compute(nx, ny, sc.clone(), text_on);
        })
    };
    let error_for = |role: &'static str| {
        range_error
            .as_ref()
            .filter(|(r, _)| *r == role)
            .map(|(_, m)| m.clone())
    };

    let redraw = {
        let compute = compute.clone();
        let (x, y, sc) = (x.clone(), y.clone(), scrub_now.clone());
        Callback::from(move |_: MouseEvent| compute(x.clone(), y.clone(), sc.clone(), text_on))
    };

    // Grid size: both axes over that many steps.
    let grid = x.len().max(y.len());
    let on_grid = {
        let chosen = chosen.clone();
        let compute = compute.clone();
        let (x, y, sc) = (x.clone(), y.clone(), scrub_now.clone());
        let canon = canon.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let Ok(n) = sel.value().parse::<u32>() else {
                return;
            };
            let (nx, ny) = (with_grid(&x, n), with_grid(&y, n));
            chosen.set(Some((canon.clone(), nx.clone(), ny.clone())));
            compute(nx, ny, sc.clone(), text_on);
        })
    };

    // The slider: each move writes the step's value into the scrubbed field and redraws.
    let on_scrub_field = {
        let scrub = scrub.clone();
        let choices = choices.clone();
        let canon = canon.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(a) = sel
                .value()
                .parse::<usize>()
                .ok()
                .and_then(|i| choices.get(i))
            {
                scrub.set(Some((canon.clone(), a.clone(), None)));
            }
        })
    };
    let on_scrub = {
        let scrub = scrub.clone();
        let compute = compute.clone();
        let (x, y) = (x.clone(), y.clone());
        let axis = scrub_axis.clone();
        let canon = canon.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let (Some(a), Ok(i)) = (axis.clone(), input.value().parse::<u32>()) else {
                return;
            };
            let i = i.min(a.len() - 1);
            scrub.set(Some((canon.clone(), a.clone(), Some(i))));
            compute(x.clone(), y.clone(), Some((a, i)), text_on);
        })
    };

    let d = (*drawn).clone();
    let stale = d.as_ref().is_some_and(|d| {
        let mut now = props.inputs;
        if let Some((a, i)) = &d.scrub {
            a.apply(&mut now, *i);
        }
        !map_holds(d, &props.insn, &now, &x, &y)
    });
    let on_move = {
        let cursor = cursor.clone();
        let d = d.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(d) = &d else { return };
            let cell = pointer_cell(&e, &d.sweep);
            if cell.is_some() && cell != *cursor {
                cursor.set(cell);
            }
        })
    };
    let load = {
        let dispatch = props.dispatch.clone();
        // A map of another instruction has nothing to load: Draw first.
        let d = d.clone().filter(|d| *d.insn == *props.insn);
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
        let cursor = cursor.clone();
        let d = d.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(dd) = &d else { return };
            let cell = pointer_cell(&e, &dd.sweep);
            if cell.is_some() {
                cursor.set(cell);
            }
            load(cell);
        })
    };
    let on_key = {
        let cursor = cursor.clone();
        let d = d.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(d) = &d else { return };
            let (w, h) = (d.sweep.width, d.sweep.height);
            let (c, r) = cursor.unwrap_or((0, 0));
            let big = if e.shift_key() { 16 } else { 1 };
            let next = match e.key().as_str() {
                "ArrowLeft" => Some((c.saturating_sub(big), r)),
                "ArrowRight" => Some(((c + big).min(w - 1), r)),
                "ArrowUp" => Some((c, r.saturating_sub(big))),
                "ArrowDown" => Some((c, (r + big).min(h - 1))),
                "Enter" | " " => {
                    e.prevent_default();
                    load(Some((c, r)));
                    None
                }
                _ => None,
            };
            if let Some(n) = next {
                e.prevent_default();
                cursor.set(Some(n));
            }
        })
    };
    let on_leave = {
        let cursor = cursor.clone();
        Callback::from(move |_: MouseEvent| cursor.set(None))
    };

    let toggle = |o: Overlay| {
        let shown = shown.clone();
        Callback::from(move |_: Event| {
            let mut v = (*shown).clone();
            if let Some(i) = v.iter().position(|x| *x == o) {
                v.remove(i);
            } else {
                v.push(o);
                v.sort_by_key(|x| Overlay::ALL.iter().position(|y| y == x));
            }
            shown.set(v);
        })
    };

    // The current case's place on the map, when the map reaches it.
    let here = d.as_ref().and_then(|d| {
        let cx = d.x.step_of(d.x.field_of(&props.inputs))?;
        let cy = d.y.step_of(d.y.field_of(&props.inputs))?;
        Some((cx, cy, d.sweep.width, d.sweep.height))
    });
    let cur = (*cursor).filter(|(c, r)| {
        d.as_ref()
            .is_some_and(|d| *c < d.sweep.width && *r < d.sweep.height)
    });

    html! {
        <div class="sweep">
            <p class="muted">{ "The result for every pair of values of two source fields; the other bits of every operand stay as they are in the main view." }</p>
            <div class="sweep-axes">
                { axis_editor("x", &choices, &x, pick("x"), error_for("x")) }
                { axis_editor("y", &choices, &y, pick("y"), error_for("y")) }
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
                            { for choices.iter().enumerate().filter(|(_, a)| !same_field(a, &x) && !same_field(a, &y)).map(|(i, a)| html! {
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
                if let Some(t) = *timing {
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

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::check;

    fn drawn(ptx: &str, base: Inputs) -> Drawn {
        let insn = Rc::new(check(ptx).unwrap());
        let (x, y) = default_axes(&insn);
        let s = ptxlab_core::sweep::sweep(&insn, &base, &x, &y);
        Drawn {
            range: heat::value_range(&s, false),
            scrub: None,
            text: true,
            counts: [0; 4],
            sweep: s,
            insn,
            base,
            x,
            y,
            signed: false,
            eval_ms: 0.0,
            generation: 1,
        }
    }

    #[test]
    fn a_case_and_its_loading() {
        let d = drawn(
            "vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;",
            Inputs::new(0x1111_1111, 0x2222_2222, 0x3333_3333, 0),
        );
        let lines = case_lines(&d, 0xff, 0x01);
        let get = |k: &str| lines.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        assert_eq!(get("a").as_deref(), Some("0x111111ff"));
        assert_eq!(get("b").as_deref(), Some("0x22012222"));
        assert_eq!(get("d").as_deref(), Some("0x333333ff"));
        assert!(get("events").unwrap().contains("clamped-high"));
        let acts = load_actions(&d, 0xff, 0x01);
        assert_eq!(
            acts,
            vec![
                Action::SetValue {
                    src: 0,
                    value: 0x1111_11ff
                },
                Action::SetValue {
                    src: 1,
                    value: 0x2201_2222
                }
            ]
        );
        // The map still holds after loading one of its cases; not after another c.
        let loaded = Inputs::new(0x1111_11ff, 0x2201_2222, 0x3333_3333, 0);
        assert!(map_holds(
            &d,
            &d.insn.clone(),
            &loaded,
            &d.x.clone(),
            &d.y.clone()
        ));
        let other_c = Inputs::new(0x1111_11ff, 0x2201_2222, 0x3333_3334, 0);
        assert!(!map_holds(
            &d,
            &d.insn.clone(),
            &other_c,
            &d.x.clone(),
            &d.y.clone()
        ));
        assert_eq!(legend_value(255, 32, false), "0x000000ff");
        assert_eq!(legend_value(-3, 32, true), "-3");
        // Loading the case into the state gives the d the map showed.
        let s = crate::model::State::new(
            "vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;",
            [0x1111_1111, 0x2222_2222, 0x3333_3333, 0],
        );
        let s = acts.into_iter().fold(s, |s, a| s.apply(a));
        assert_eq!(s.valid.unwrap().trace.views.hex, get("d").unwrap());
    }

    #[test]
    fn ranges_typed_for_an_axis() {
        let insn = check("add.s32 d, a, b;").unwrap();
        let choices = axis_choices(&insn);
        assert!(!choices.is_empty());
        let a = &choices[0];
        let r = read_range(a, "-16", "1", "32").unwrap();
        assert_eq!(r.len(), 32);
        assert_eq!(r.value(0), -16);
        assert!(read_range(a, "zz", "1", "32").is_err());
        assert!(read_range(a, "0", "1", "0").is_err());
        assert!(read_range(a, "0", "1", "5000").is_err());
    }

    #[test]
    fn settings_round_trip_through_the_address() {
        let insn = check("vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;").unwrap();
        let choices = axis_choices(&insn);
        let (x, y) = default_axes(&insn);
        let x = with_grid(&x, 1024);
        assert_eq!((x.len(), x.step), (1024, 1));
        let y = y.with_range(0x10, 2, 64);
        let sc = default_scrub(&choices, &x, &y).expect("c is free");
        assert_eq!(sc.operand, 2);
        let text = Spec::text(
            &x,
            &y,
            &[Overlay::Clamped, Overlay::Wrapped],
            Some(&(sc.clone(), 17)),
        );
        assert_eq!(
            text,
            "x:a.0.8.0.1.1024;y:b.16.8.10.2.64;o:clamped.wrapped;s:c.0.32.0.1000000.256.17"
        );
        let back = Spec::read(&text, &insn);
        assert_eq!(back.x.as_ref(), Some(&x));
        assert_eq!(back.y.as_ref(), Some(&y));
        assert_eq!(
            back.overlays,
            Some(vec![Overlay::Clamped, Overlay::Wrapped])
        );
        assert_eq!(back.scrub, Some((sc, 17)));
        // Parts that do not fit are left out, never a panic.
        let odd = Spec::read(
            "x:z.0.8.0.1.4;y:b.16.8.0.1.0;s:c.0.32.0.1.4.9;o:;junk;;q:1",
            &insn,
        );
        assert_eq!(odd.x, None);
        assert_eq!(odd.y, None);
        assert_eq!(odd.scrub, None);
        assert_eq!(odd.overlays, Some(vec![]));
        // A 32-bit field over 1024 steps: evenly spaced values.
        let c = with_grid(&choices[2], 1024);
        assert_eq!((c.step, c.len()), (1 << 22, 1024));
    }

    #[test]
    fn loading_a_scrubbed_case_loads_the_scrubbed_operand() {
        let mut d = drawn(
            "vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;",
            Inputs::new(0x1111_1111, 0x2222_2222, 0x3333_3333, 0),
        );
        let sc = default_scrub(&axis_choices(&d.insn), &d.x, &d.y).unwrap();
        d.scrub = Some((sc, 3));
        let acts = load_actions(&d, 0, 0);
        assert_eq!(acts.len(), 3);
        assert!(acts.contains(&Action::SetValue {
            src: 2,
            value: 0x3333_3333
        }));
    }
}
