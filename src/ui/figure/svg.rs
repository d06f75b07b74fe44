//! Drawing the laid-out figure as SVG. The figure carries its own style sheet, so the same
//! element saved as a file reads the same without the page.

use std::rc::Rc;

use ptxlab_core::trace::{Detail, Flag, Trace};
use yew::prelude::*;

use super::layout::{Reg, CH, LABEL_H, W};
use super::{extension, Drawn, Point};

/// What changes from one moment to the next: lit bits, the pointed bit, the step.
pub struct Marks<'a> {
    pub lit: &'a [u128],
    pub point: Point,
    pub step: Option<usize>,
    pub highlight: Option<usize>,
}

/// The figure's own style: light colours on a white ground, so that it reads the same in the
/// page (either colour scheme) and saved on its own.
const STYLE: &str = "
.pf text{font:10px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;fill:#1d232b}
.pf .title{font-size:12px;font-weight:600}
.pf .ground{fill:#fff}
.pf .cell{fill:#f4f6f9;stroke:#a3acb9;stroke-width:.6}
.pf .cell.on{fill:#2b5d8f}
.pf .cell.sign{fill:#fbe0b8}.pf .cell.sign.on{fill:#c26a00}
.pf .cell.zero{fill:#e4e6ea;stroke-dasharray:1.5 1.5}
.pf .cell.other{fill:#e3f1e6}.pf .cell.other.on{fill:#2f7d45}
.pf .cell.dropped{opacity:.35}
.pf .cell[data-lit]{stroke:#e8590c;stroke-width:2.2}
.pf .cell[data-lit].on{fill:#d9480f}
.pf .cell[data-lit]:not(.on){fill:#ffe8cc}
.pf .cell[data-pointed]{stroke:#c92a2a;stroke-width:3}
.pf .bit{font-size:8px;fill:#1d232b;pointer-events:none}
.pf .bit.on{fill:#fff}
.pf .wire{fill:#2b5d8f;opacity:.14}
.pf .wire.lit{fill:#e8590c;opacity:.35}
.pf .lane-col{fill:#f7f8fa;stroke:#d5dae1}
.pf .lane-col.masked{fill:#eceef1;stroke-dasharray:4 3}
.pf .masked-note{fill:#6b7480;font-style:italic}
.pf .future{opacity:.12}
.pf .current .frame{fill:none;stroke:#2b5d8f;stroke-width:1.5;stroke-dasharray:3 2}
.pf .parts .frame{fill:none;stroke:#c92a2a;stroke-width:1.5}
.pf .track{stroke:#6b7480;stroke-width:2}
.pf .range{stroke:#2b5d8f;stroke-width:6;opacity:.25}
.pf .before{fill:#fff;stroke:#c26a00;stroke-width:2}
.pf .after{fill:#2b5d8f}
.pf .jump{stroke:#c26a00;stroke-width:1.5;stroke-dasharray:3 2}
.pf .kind{fill:#6b7480}
.pf .legend{fill:#6b7480}
";

fn f(x: f64) -> String {
    format!("{x:.1}")
}

/// The class of a bit cell, from its value, role and whether a later stage reads it: picked
/// from a fixed table, so that no class list is built per cell per render.
fn cell_class(on: bool, role: Option<&'static str>, dropped: bool) -> &'static str {
    const T: [&str; 16] = [
        "cell",
        "cell dropped",
        "cell sign",
        "cell sign dropped",
        "cell zero",
        "cell zero dropped",
        "cell other",
        "cell other dropped",
        "cell on",
        "cell on dropped",
        "cell on sign",
        "cell on sign dropped",
        "cell on zero",
        "cell on zero dropped",
        "cell on other",
        "cell on other dropped",
    ];
    let r = match role {
        Some("sign") => 1,
        Some("zero") => 2,
        Some("other") => 3,
        _ => 0,
    };
    T[usize::from(on) * 8 + r * 2 + usize::from(dropped)]
}

thread_local! {
    /// Bit numbers as attribute values, made once.
    static BIT_NAMES: Vec<AttrValue> = (0..128u32).map(|b| AttrValue::from(b.to_string())).collect();
}

/// The bits of one register, with their roles.
fn cells(t: &Trace, d: &Drawn, r: &Reg, lit: u128, pointed: Option<u32>) -> Html {
    let s = &t.stages[r.stage];
    let raw = s.output.raw();
    let ext = extension(t, r.stage);
    let merge = match &s.detail {
        Detail::Merge {
            lane_bits,
            from_result,
            ..
        } => Some((*lane_bits, from_result.as_slice())),
        _ => None,
    };
    let used = d.used.get(r.stage).copied().unwrap_or(0);
    let last = r.stage + 1 == t.stages.len();
    // Values shared by every cell of the register: made once, cloned by reference count.
    let name = AttrValue::from(s.output.name.clone());
    let stage = AttrValue::from(r.stage.to_string());
    let y = AttrValue::from(f(r.cells_y()));
    let ty = AttrValue::from(f(r.cells_y() + CH - 3.5));
    let cw = AttrValue::from(f(r.cw));
    let ch = AttrValue::from(f(CH));
    let text = r.cw >= 9.0;
    BIT_NAMES.with(|names| {
        html! {
            { for (0..r.bits).map(|b| {
                let on = (raw >> b) & 1 == 1;
                let role = match (ext, merge) {
                    (Some((w, signed)), _) if b >= w => Some(if signed { "sign" } else { "zero" }),
                    (_, Some((lb, from))) => {
                        let lane = (b / lb.max(1)) as usize;
                        (!from.get(lane).copied().unwrap_or(true)).then_some("other")
                    }
                    _ => None,
                };
                let dropped = !last && used != 0 && (used >> b) & 1 == 0;
                let x = r.cell_x(b);
                let is_lit = (lit >> b) & 1 == 1;
                let is_pointed = pointed == Some(b);
                let bit = names.get(b as usize).cloned().unwrap_or_else(|| AttrValue::from(b.to_string()));
                html! {
                    <>
                    <rect class={cell_class(on, role, dropped)}
                        x={f(x)} y={y.clone()} width={cw.clone()} height={ch.clone()}
                        data-src={name.clone()} data-bit={bit} data-stage={stage.clone()}
                        data-lit={is_lit.then_some("")} data-pointed={is_pointed.then_some("")} />
                    if text {
                        <text class={if on { "bit on" } else { "bit" }} x={f(x + r.cw / 2.0)} y={ty.clone()}
                            text-anchor="middle">{ if on { "1" } else { "0" } }</text>
                    }
                    </>
                }
            }) }
        }
    })
}

/// The label above a register: kind, name and value, cut to the room there is.
fn label(t: &Trace, r: &Reg) -> Html {
    let s = &t.stages[r.stage];
    let kind = s.kind.name().to_string();
    let mut text = format!("{} = {}", s.output.name, s.output.hex());
    if s.output.bits > 1 {
        text.push_str(&format!(" ({})", s.output.value));
    }
    let room_chars = ((r.room - 4.0) / 6.0).max(8.0) as usize;
    let full = format!("{kind} · {text}");
    let shown = if full.chars().count() <= room_chars {
        full
    } else if text.chars().count() <= room_chars {
        text
    } else {
        text.chars().take(room_chars).collect()
    };
    html! {
        <text class="lbl" x={f(r.label_x)} y={f(r.y + LABEL_H - 3.0)}>{ shown }</text>
    }
}

/// A clamp's number line: the range, where the value fell and where it was put.
fn number_line(t: &Trace, i: usize, x: f64, y: f64, w: f64) -> Html {
    let s = &t.stages[i];
    let Detail::Range { min, max } = s.detail else {
        return html! {};
    };
    let before = s.inputs.first().map_or(s.output.value, |v| v.value);
    let after = s.output.value;
    let (x0, x1) = (x + 40.0, x + w - 40.0);
    let span = (max as f64 - min as f64).max(1.0);
    let pos = |v: i128| x0 + (x1 - x0) * ((v as f64 - min as f64) / span).clamp(-0.08, 1.08);
    let yl = y + 9.0;
    let (xb, xa) = (pos(before), pos(after));
    html! {
        <g class="numline">
            <line class="track" x1={f(x0 - 20.0)} y1={f(yl)} x2={f(x1 + 20.0)} y2={f(yl)} />
            <line class="range" x1={f(x0)} y1={f(yl)} x2={f(x1)} y2={f(yl)} />
            <text class="legend" x={f(x)} y={f(yl + 14.0)}>{ min.to_string() }</text>
            <text class="legend" x={f(x + w)} y={f(yl + 14.0)} text-anchor="end">{ max.to_string() }</text>
            if before != after {
                <line class="jump" x1={f(xb)} y1={f(yl)} x2={f(xa)} y2={f(yl)} />
            }
            <circle class="before" cx={f(xb)} cy={f(yl)} r="4.5" />
            <rect class="after" x={f(xa - 3.0)} y={f(yl - 8.0)} width="6" height="6" />
            <text x={f(((x0 + x1) / 2.0).max(xb.min(x1)))} y={f(yl + 14.0)} text-anchor="middle">
                { if before == after { format!("{before} in range") } else { format!("{before} → {after}") } }
            </text>
        </g>
    }
}

/// One stage's register in the figure. Its props compare the trace and the figure's data by
/// pointer and the marks by value, so that pointing at a bit redraws only the stages whose lit
/// bits or pointed bit change, not every cell of the figure.
#[derive(Properties, Clone)]
pub struct StageProps {
    pub trace: Rc<Trace>,
    pub drawn: Rc<Drawn>,
    pub stage: usize,
    pub lit: u128,
    pub pointed: Option<u32>,
    pub future: bool,
    pub current: bool,
    pub parts: bool,
}

impl PartialEq for StageProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.trace, &o.trace)
            && Rc::ptr_eq(&self.drawn, &o.drawn)
            && (
                self.stage,
                self.lit,
                self.pointed,
                self.future,
                self.current,
                self.parts,
            ) == (o.stage, o.lit, o.pointed, o.future, o.current, o.parts)
    }
}

#[function_component]
pub fn StageReg(p: &StageProps) -> Html {
    let (t, d, i) = (&*p.trace, &*p.drawn, p.stage);
    let Some(Some(r)) = d.layout.regs.get(i) else {
        return html! {};
    };
    let s = &t.stages[i];
    let kind = s.kind.name().to_string();
    let line = d.layout.lines.iter().find(|x| x.stage == i);
    let masked = s.flags.contains(&Flag::MaskedOff);
    let (future, current, parts) = (p.future, p.current, p.parts);
    html! {
        <g class={classes!("fig-stage", future.then_some("future"), current.then_some("current"), parts.then_some("parts"), masked.then_some("masked"))}
            data-stage={i.to_string()} data-kind={kind} aria-current={current.then_some("step")}>
            if current || parts {
                <rect class="frame" x={f(r.x - 3.0)} y={f(r.y - 1.0)} width={f(r.width() + 6.0)}
                    height={f(LABEL_H + CH + 4.0)} rx="3" />
            }
            { label(t, r) }
            { cells(t, d, r, p.lit, p.pointed) }
            if let Some(nl) = line {
                { number_line(t, i, nl.x, nl.y, nl.w) }
            }
        </g>
    }
}

pub fn draw(
    t: &Rc<Trace>,
    d: &Rc<Drawn>,
    m: &Marks,
    node: NodeRef,
    on_over: Callback<MouseEvent>,
    on_leave: Callback<MouseEvent>,
) -> Html {
    let l = &d.layout;
    let h = l.height;
    let d_hex = t.result.hex();
    let state = |i: usize| {
        let future = m.step.is_some_and(|s| i > s);
        let current = m.step == Some(i);
        (future, current)
    };
    let wire_poly = |from: &Reg, to: &Reg, w: &super::layout::Wire| {
        let y0 = from.cells_y() + CH;
        let (a0, a1) = (from.cell_x(w.from_hi), from.cell_x(w.from_lo) + from.cw);
        let (b0, b1) = (to.cell_x(w.to_hi), to.cell_x(w.to_lo) + to.cw);
        match w.end_y {
            // Into a lane: down to the lane's top.
            Some(y1) => format!(
                "{},{} {},{} {},{} {},{}",
                f(a0),
                f(y0),
                f(a1),
                f(y0),
                f(b1),
                f(y1),
                f(b0),
                f(y1)
            ),
            None => {
                let y1 = to.cells_y() - LABEL_H + 2.0;
                format!(
                    "{},{} {},{} {},{} {},{} {},{} {},{}",
                    f(a0),
                    f(y0),
                    f(a1),
                    f(y0),
                    f(b1),
                    f(y1),
                    f(b1),
                    f(to.cells_y()),
                    f(b0),
                    f(to.cells_y()),
                    f(b0),
                    f(y1)
                )
            }
        }
    };
    html! {
        <svg ref={node} class="pf" xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {W} {}", f(h))}
            width={f(W)} height={f(h)} aria-hidden="true" onmouseover={on_over} onmouseleave={on_leave}>
            <style>{ STYLE }</style>
            <rect class="ground" x="0" y="0" width={f(W)} height={f(h)} />
            <text class="title" x="0" y="14">{ format!("{}   d = {}", t.instruction, d_hex) }</text>
            { for l.lanes.iter().map(|c| html! {
                <g class="lane">
                    <rect class={classes!("lane-col", c.masked.then_some("masked"))}
                        x={f(c.x)} y={f(c.y)} width={f(c.w)} height={f(c.h)} rx="4" />
                    <text class={classes!(c.masked.then_some("masked-note"))} x={f(c.x + 6.0)} y={f(c.y + 11.0)}>
                        { if c.masked { format!("lane {} · masked off: d keeps c's lane", c.lane) } else { format!("lane {}", c.lane) } }
                    </text>
                </g>
            }) }
            { for l.wires.iter().filter_map(|w| {
                let from = l.regs.get(w.from)?.as_ref()?;
                let to = l.regs.get(w.to)?.as_ref()?;
                let (future, _) = state(w.to);
                let lit = m.lit.get(w.from).is_some_and(|&x| x & crate::ui::figure::range_mask(w.from_lo, w.from_hi) != 0)
                    && (m.point.stage == Some(w.to) || m.lit.get(w.to).is_some_and(|&x| x != 0));
                Some(html! {
                    <polygon class={classes!("wire", future.then_some("future"), lit.then_some("lit"))}
                        points={wire_poly(from, to, w)} />
                })
            }) }
            { for l.regs.iter().flatten().map(|r| {
                let i = r.stage;
                let (future, current) = state(i);
                html! {
                    <StageReg key={i} trace={t.clone()} drawn={d.clone()} stage={i}
                        lit={m.lit.get(i).copied().unwrap_or(0)}
                        pointed={if m.point.stage == Some(i) { m.point.bit } else { None }}
                        {future} {current} parts={m.highlight == Some(i)} />
                }
            }) }
        </svg>
    }
}
