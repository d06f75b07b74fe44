//! Drawing the laid-out figure as SVG. The figure carries its own style sheet, so the same
//! element saved as a file reads the same without the page.

use std::rc::Rc;

use ptxlab_core::trace::{Detail, Flag, Trace};
use yew::prelude::*;

use super::layout::{Metrics, Reg};
use super::{extension, Drawn, Point};

/// What changes from one moment to the next: lit bits, the pointed bit, the step.
pub struct Marks<'a> {
    pub lit: &'a [u128],
    pub point: Point,
    pub step: Option<usize>,
    pub highlight: Option<usize>,
    /// The stage that explains a wrong prediction.
    pub explain: Option<usize>,
}

/// The figure's own style: light colours on a white ground, so that it reads the same in the
/// page (either colour scheme) and saved on its own. Every text is at least `m.font` pixels.
pub fn style(m: &Metrics) -> String {
    let f = m.font;
    let tf = m.title_font();
    format!(
        "
.pf text{{font:{f}px ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono','Liberation Mono',monospace;fill:#1d232b}}
.pf .title{{font-size:{tf}px;font-weight:600}}
.pf .ground{{fill:#fff}}
.pf .cell{{fill:#f4f6f9;stroke:#a3acb9;stroke-width:.6}}
.pf .cell.on{{fill:#2b5d8f}}
.pf .cell.sign{{fill:#fbe0b8}}.pf .cell.sign.on{{fill:#c26a00}}
.pf .cell.zero{{fill:#e4e6ea;stroke-dasharray:1.5 1.5}}
.pf .cell.other{{fill:#e3f1e6}}.pf .cell.other.on{{fill:#2f7d45}}
.pf .cell.dropped{{opacity:.35}}
.pf .cell[data-lit]{{stroke:#e8590c;stroke-width:2.2}}
.pf .cell[data-lit].on{{fill:#d9480f}}
.pf .cell[data-lit]:not(.on){{fill:#ffe8cc}}
.pf .cell[data-pointed]{{stroke:#c92a2a;stroke-width:3}}
.pf .bit{{fill:#1d232b;pointer-events:none}}
.pf .bit.on{{fill:#fff}}
.pf .wire{{fill:#2b5d8f;opacity:.14}}
.pf .wire.lit{{fill:#e8590c;opacity:.35}}
.pf .bus{{fill:none;stroke:#2b5d8f;stroke-width:1.5}}
.pf .tap{{fill:#2b5d8f;stroke:#2b5d8f;stroke-width:1.5}}
.pf .tap.inv{{fill:#fff}}
.pf .lane-col{{fill:#f7f8fa;stroke:#d5dae1}}
.pf .lane-col.masked{{fill:#eceef1;stroke-dasharray:4 3}}
.pf .masked-note{{fill:#4f5661;font-style:italic}}
.pf .future{{opacity:.12}}
.pf .current .frame{{fill:none;stroke:#2b5d8f;stroke-width:1.5;stroke-dasharray:3 2}}
.pf .parts .frame{{fill:none;stroke:#c92a2a;stroke-width:1.5}}
.pf .explains .frame{{fill:#fff3bf;fill-opacity:.5;stroke:#e8590c;stroke-width:2.5}}
.pf .track{{stroke:#6b7480;stroke-width:2}}
.pf .range{{stroke:#2b5d8f;stroke-width:{rw};opacity:.25}}
.pf .before{{fill:#fff;stroke:#c26a00;stroke-width:2}}
.pf .after{{fill:#2b5d8f}}
.pf .jump{{stroke:#c26a00;stroke-width:1.5;stroke-dasharray:3 2}}
.pf .kind{{fill:#4f5661}}
.pf .legend{{fill:#4f5661}}
",
        rw = (0.6 * f).round()
    )
}

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

/// The bits of one register, with their roles. A collapsed extension is one cell that stands
/// for all its bits: it carries the first of them in `data-bit` and the range in `data-bits`.
fn cells(t: &Trace, d: &Drawn, r: &Reg, lit: u128, pointed: Option<u32>) -> Html {
    let m = &d.layout.metrics;
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
    let cw = AttrValue::from(f(r.cw));
    let ch = AttrValue::from(f(r.ch));
    let text_dy = r.ch / 2.0 + m.font * 0.36;
    let role_of = |b: u32| match (ext, merge) {
        (Some((w, signed)), _) if b >= w => Some(if signed { "sign" } else { "zero" }),
        (_, Some((lb, from))) => {
            let lane = (b / lb.max(1)) as usize;
            (!from.get(lane).copied().unwrap_or(true)).then_some("other")
        }
        _ => None,
    };
    let shown = match r.collapsed {
        Some((w, _, _)) => w,
        None => r.bits,
    };
    let collapsed = r.collapsed.map(|(w, signed, ew)| {
        let top = r.bits - 1;
        let span = super::range_mask(w, top);
        let on = (raw >> w) & 1 == 1;
        let dropped = !last && used != 0 && used & span == 0;
        let n = r.bits - w;
        let x = r.cell_x(w);
        let y = r.cell_y(w);
        let what = if signed { "copies of the sign bit" } else { "zeros" };
        html! {
            <>
            <rect class={cell_class(on, role_of(w), dropped)} x={f(x)} y={f(y)} width={f(ew)} height={ch.clone()}
                data-src={name.clone()} data-bit={w.to_string()} data-bits={format!("{w}-{top}")} data-stage={stage.clone()}
                data-lit={(lit & span != 0).then_some("")} data-pointed={pointed.is_some_and(|p| p >= w).then_some("")}>
                <title>{ format!("bits {top}–{w}: {n} {what}") }</title>
            </rect>
            <text class={if on { "bit on" } else { "bit" }} x={f(x + ew / 2.0)} y={f(y + text_dy)}
                text-anchor="middle">{ Metrics::ext_text(n, signed) }</text>
            </>
        }
    });
    BIT_NAMES.with(|names| {
        html! {
            <>
            { for (0..shown).map(|b| {
                let on = (raw >> b) & 1 == 1;
                let dropped = !last && used != 0 && (used >> b) & 1 == 0;
                let x = r.cell_x(b);
                let y = r.cell_y(b);
                let is_lit = (lit >> b) & 1 == 1;
                let is_pointed = pointed == Some(b);
                let bit = names.get(b as usize).cloned().unwrap_or_else(|| AttrValue::from(b.to_string()));
                html! {
                    <>
                    <rect class={cell_class(on, role_of(b), dropped)}
                        x={f(x)} y={f(y)} width={cw.clone()} height={ch.clone()}
                        data-src={name.clone()} data-bit={bit} data-stage={stage.clone()}
                        data-lit={is_lit.then_some("")} data-pointed={is_pointed.then_some("")} />
                    <text class={if on { "bit on" } else { "bit" }} x={f(x + r.cw / 2.0)} y={f(y + text_dy)}
                        text-anchor="middle">{ if on { "1" } else { "0" } }</text>
                    </>
                }
            }) }
            { for collapsed }
            </>
        }
    })
}

/// The label above a register: kind, name and value, cut to the room there is.
fn label(t: &Trace, m: &Metrics, r: &Reg) -> Html {
    let s = &t.stages[r.stage];
    let kind = s.kind.name().to_string();
    let mut text = format!("{} = {}", s.output.name, s.output.hex());
    if s.output.bits > 1 {
        text.push_str(&format!(" ({})", s.output.value));
    }
    let room_chars = m.chars_in(r.room - 2.0);
    let full = format!("{kind} · {text}");
    let shown = if full.chars().count() <= room_chars {
        full
    } else if text.chars().count() <= room_chars {
        text
    } else {
        let mut cut: String = text.chars().take(room_chars.saturating_sub(1)).collect();
        cut.push('…');
        cut
    };
    html! {
        <text class="lbl" x={f(r.label_x)} y={f(r.y + r.label_h - m.font * 0.4)}>{ shown }</text>
    }
}

/// A clamp's number line: the range, where the value fell and where it was put.
fn number_line(t: &Trace, m: &Metrics, i: usize, x: f64, y: f64, w: f64) -> Html {
    let s = &t.stages[i];
    let Detail::Range { min, max } = s.detail else {
        return html! {};
    };
    let fs = m.font;
    let before = s.inputs.first().map_or(s.output.value, |v| v.value);
    let after = s.output.value;
    let inset = (w * 0.12).min(3.6 * fs);
    let (x0, x1) = (x + inset, x + w - inset);
    let span = (max as f64 - min as f64).max(1.0);
    let pos = |v: i128| x0 + (x1 - x0) * ((v as f64 - min as f64) / span).clamp(-0.08, 1.08);
    let yl = y + 0.8 * fs;
    let yt = yl + 1.35 * fs;
    let (xb, xa) = (pos(before), pos(after));
    // The words between the ends, cut to the room between the two end labels.
    let (lo, hi) = (min.to_string(), max.to_string());
    let ends = (lo.chars().count() + hi.chars().count() + 2) as f64 * m.char_w();
    let words = if before == after {
        format!("{before} in range")
    } else {
        format!("{before} → {after}")
    };
    let room = m.chars_in(w - ends);
    let words = if words.chars().count() <= room {
        words
    } else {
        String::new()
    };
    html! {
        <g class="numline">
            <line class="track" x1={f(x0 - inset / 2.0)} y1={f(yl)} x2={f(x1 + inset / 2.0)} y2={f(yl)} />
            <line class="range" x1={f(x0)} y1={f(yl)} x2={f(x1)} y2={f(yl)} />
            <text class="legend" x={f(x)} y={f(yt)}>{ lo }</text>
            <text class="legend" x={f(x + w)} y={f(yt)} text-anchor="end">{ hi }</text>
            if before != after {
                <line class="jump" x1={f(xb)} y1={f(yl)} x2={f(xa)} y2={f(yl)} />
            }
            <circle class="before" cx={f(xb)} cy={f(yl)} r={f(0.4 * fs)} />
            <rect class="after" x={f(xa - 0.3 * fs)} y={f(yl - 0.75 * fs)} width={f(0.6 * fs)} height={f(0.6 * fs)} />
            if !words.is_empty() {
                <text x={f(x + w / 2.0)} y={f(yt)} text-anchor="middle">{ words }</text>
            }
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
    #[prop_or_default]
    pub explains: bool,
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
                self.explains,
            ) == (
                o.stage, o.lit, o.pointed, o.future, o.current, o.parts, o.explains,
            )
    }
}

#[function_component]
pub fn StageReg(p: &StageProps) -> Html {
    let (t, d, i) = (&*p.trace, &*p.drawn, p.stage);
    let Some(Some(r)) = d.layout.regs.get(i) else {
        return html! {};
    };
    let m = &d.layout.metrics;
    let s = &t.stages[i];
    let kind = s.kind.name().to_string();
    let line = d.layout.lines.iter().find(|x| x.stage == i);
    let masked = s.flags.contains(&Flag::MaskedOff);
    let (future, current, parts, explains) = (p.future, p.current, p.parts, p.explains);
    html! {
        <g class={classes!("fig-stage", future.then_some("future"), current.then_some("current"), parts.then_some("parts"), explains.then_some("explains"), masked.then_some("masked"))}
            data-stage={i.to_string()} data-kind={kind} aria-current={current.then_some("step")}
            data-explains={explains.then_some("")}>
            if current || parts || explains {
                <rect class="frame" x={f((r.x - 3.0).max(0.5))} y={f(r.y - 1.0)} width={f((r.width() + 6.0).min(m.width - 1.0))}
                    height={f(r.height() + 4.0)} rx="3" />
            }
            { label(t, m, r) }
            { cells(t, d, r, p.lit, p.pointed) }
            if let Some(nl) = line {
                { number_line(t, m, i, nl.x, nl.y, nl.w) }
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
    let mt = &l.metrics;
    let (w_all, h) = (l.width(), l.height);
    let state = |i: usize| {
        let future = m.step.is_some_and(|s| i > s);
        let current = m.step == Some(i);
        (future, current)
    };
    let wire_poly = |from: &Reg, to: &Reg, w: &super::layout::Wire| {
        let y0 = from.bottom();
        // The source bits' span (they may lie in two rows of a wrapped register).
        let xs = |r: &Reg, lo: u32, hi: u32| {
            (lo..=hi.min(r.bits - 1)).fold((f64::MAX, f64::MIN), |(a, b), bit| {
                let x = r.cell_x(bit);
                (a.min(x), b.max(x + r.cell_w(bit)))
            })
        };
        let (a0, a1) = xs(from, w.from_lo, w.from_hi);
        let (b0, b1) = xs(to, w.to_lo, w.to_hi);
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
                let y1 = to.y + 2.0;
                let yc = to.cells_y();
                format!(
                    "{},{} {},{} {},{} {},{} {},{} {},{}",
                    f(a0),
                    f(y0),
                    f(a1),
                    f(y0),
                    f(b1),
                    f(y1),
                    f(b1),
                    f(yc),
                    f(b0),
                    f(yc),
                    f(b0),
                    f(y1)
                )
            }
        }
    };
    let lane_room = |c: &super::layout::LaneCol| mt.chars_in(c.w - mt.font);
    let title_y = |k: usize| mt.title_line() * (k as f64 + 1.0) - mt.title_font() * 0.35;
    html! {
        <svg ref={node} class="pf" xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {} {}", f(w_all), f(h))}
            width={f(w_all)} height={f(h)} aria-hidden="true" onmouseover={on_over} onmouseleave={on_leave}>
            <style>{ d.style.clone() }</style>
            <rect class="ground" x="0" y="0" width={f(w_all)} height={f(h)} />
            { for l.title.iter().enumerate().map(|(k, line)| html! {
                <text class="title" x="2" y={f(title_y(k))}>{ line.clone() }</text>
            }) }
            { for l.lanes.iter().map(|c| {
                let full = match (c.masked, c.summed) {
                    (true, true) => format!("lane {} · masked off: not in the sum", c.lane),
                    (true, false) => format!("lane {} · masked off: d keeps c's lane", c.lane),
                    _ => format!("lane {}", c.lane),
                };
                let room = lane_room(c);
                let words = if full.chars().count() <= room {
                    full
                } else if c.masked && room >= 17 {
                    format!("lane {} · masked off", c.lane)
                } else {
                    format!("lane {}", c.lane)
                };
                html! {
                    <g class="lane">
                        <rect class={classes!("lane-col", c.masked.then_some("masked"))}
                            x={f(c.x + 1.0)} y={f(c.y)} width={f(c.w - 2.0)} height={f(c.h)} rx="4" />
                        <text class={classes!(c.masked.then_some("masked-note"))} x={f(c.x + mt.font * 0.5)} y={f(c.y + mt.lane_title() - mt.font * 0.35)}>
                            { words }
                        </text>
                    </g>
                }
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
            { for l.buses.iter().filter_map(|b| {
                let src = l.regs.get(b.from)?.as_ref()?;
                let last = b.taps.iter().rev().find_map(|&(k, _)| l.regs.get(k)?.as_ref())?;
                let y_end = last.cells_y() + last.ch / 2.0;
                let r_tap = mt.font * 0.3;
                Some(html! {
                    <g class="feed" data-from={src.stage.to_string()}>
                        <polyline class="bus" points={format!("{},{} {},{} {},{}", f(src.x), f(b.y0), f(b.x), f(b.y0), f(b.x), f(y_end))} />
                        { for b.taps.iter().filter_map(|&(k, inv)| {
                            let r = l.regs.get(k)?.as_ref()?;
                            let y = r.cells_y() + r.ch / 2.0;
                            let (future, _) = state(k);
                            Some(html! {
                                <g class={classes!(future.then_some("future"))}>
                                    <line class="bus" x1={f(b.x)} y1={f(y)} x2={f(r.x)} y2={f(y)} />
                                    <circle class={classes!("tap", inv.then_some("inv"))} cx={f(b.x)} cy={f(y)} r={f(r_tap)} />
                                </g>
                            })
                        }) }
                    </g>
                })
            }) }
            { for l.regs.iter().flatten().map(|r| {
                let i = r.stage;
                let (future, current) = state(i);
                html! {
                    <StageReg key={i} trace={t.clone()} drawn={d.clone()} stage={i}
                        lit={m.lit.get(i).copied().unwrap_or(0)}
                        pointed={if m.point.stage == Some(i) { m.point.bit } else { None }}
                        {future} {current} parts={m.highlight == Some(i)} explains={m.explain == Some(i)} />
                }
            }) }
        </svg>
    }
}
