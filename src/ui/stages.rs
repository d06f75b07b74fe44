//! Every stage of the trace as a diagram, chosen by the stage's kind and detail: bit fields with
//! their extension, clamp ranges with a marker, merges lane by lane, the SIMD pool with a line
//! from each selector to the byte it picks, and products with the bits kept. Per-lane stages are
//! laid out in one column per lane.

use std::collections::BTreeMap;
use std::rc::Rc;

use ptxlab_core::trace::{Detail, Flag, Stage, StageKind, Val};
use ptxlab_core::Trace;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub trace: Rc<Trace>,
    /// The stage where the two readings part, drawn highlighted.
    #[prop_or_default]
    pub highlight: Option<usize>,
}

/// Stages in display order: single stages, and runs of per-lane stages gathered by lane.
#[derive(Debug, PartialEq)]
pub enum Block<'a> {
    Single(usize, &'a Stage),
    Lanes(BTreeMap<u8, Vec<(usize, &'a Stage)>>),
}

pub fn blocks(stages: &[Stage]) -> Vec<Block<'_>> {
    let mut out: Vec<Block<'_>> = Vec::new();
    for (i, s) in stages.iter().enumerate() {
        match s.lane {
            Some(l) => {
                if let Some(Block::Lanes(m)) = out.last_mut() {
                    m.entry(l).or_default().push((i, s));
                } else {
                    let mut m = BTreeMap::new();
                    m.insert(l, vec![(i, s)]);
                    out.push(Block::Lanes(m));
                }
            }
            None => out.push(Block::Single(i, s)),
        }
    }
    out
}

/// `SignExtended` -> `sign extended`.
pub fn words(debug: &str) -> String {
    let mut s = String::new();
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            s.push(' ');
        }
        s.push(c.to_ascii_lowercase());
    }
    s
}

fn flag_class(f: Flag) -> &'static str {
    match f {
        Flag::ClampedHigh | Flag::ClampedLow | Flag::Wrapped | Flag::DivideByZero => "warn",
        Flag::HardwareDiffersFromText => "note",
        Flag::MaskedOff | Flag::NotFound => "dim",
        _ => "info",
    }
}

fn kind_word(k: StageKind) -> String {
    words(&format!("{k:?}"))
}

#[function_component]
pub fn Stages(props: &Props) -> Html {
    let t = &props.trace;
    let hl = props.highlight;
    if t.stages.is_empty() {
        return html! { <p class="muted">{ "This instruction's trace has no stages yet." }</p> };
    }
    html! {
        <div class="stage-list">
            { for blocks(&t.stages).into_iter().map(|b| match b {
                Block::Single(i, s) => stage_card(i, s, hl),
                Block::Lanes(m) => html! {
                    <div class="lanes" style={format!("--lanes:{}", m.len())}>
                        { for m.iter().rev().map(|(lane, items)| html! {
                            <div class="lane" data-lane={lane.to_string()}>
                                <h3 class="lane-title">{ format!("lane {lane}") }</h3>
                                { for items.iter().map(|(i, s)| stage_card(*i, s, hl)) }
                            </div>
                        }) }
                    </div>
                },
            }) }
        </div>
    }
}

fn val_text(v: &Val) -> String {
    format!(
        "{} = {} ({}{}, {} bits)",
        v.name,
        v.hex(),
        v.value,
        if v.signed { " signed" } else { "" },
        v.bits
    )
}

fn stage_card(i: usize, s: &Stage, highlight: Option<usize>) -> Html {
    let kind = kind_word(s.kind);
    let parts = highlight == Some(i);
    html! {
        <article key={i.to_string()} class={classes!("stage", format!("kind-{}", kind.replace(' ', "-")), parts.then_some("parts"))}
            data-kind={kind.clone()} data-index={i.to_string()} id={format!("stage-{i}")}>
            <header class="stage-head">
                <span class="kind">{ kind }</span>
                <span class="stage-label">{ s.label.clone() }</span>
                { for s.flags.iter().map(|f| html! {
                    <span class={classes!("badge", flag_class(*f))}>{ words(&format!("{f:?}")) }</span>
                }) }
                if let Some(d) = s.difference {
                    <a class="badge note diff-link" href={d.doc_link()} target="_blank" rel="noopener"
                        title={d.info().title}>{ "why: hardware vs ISA text" }</a>
                }
                if parts {
                    <span class="badge warn parts-here">{ "the readings part here" }</span>
                }
            </header>
            if !s.op.is_empty() {
                <p class="op"><code>{ s.op.clone() }</code></p>
            }
            { diagram(s) }
            <div class="io">
                if !s.inputs.is_empty() {
                    <ul class="inputs">
                        { for s.inputs.iter().map(|v| html! { <li><code>{ val_text(v) }</code></li> }) }
                    </ul>
                }
                <p class="output"><span aria-hidden="true">{ "→ " }</span><code>{ val_text(&s.output) }</code></p>
            </div>
        </article>
    }
}

fn diagram(s: &Stage) -> Html {
    match &s.detail {
        Detail::Field {
            source,
            source_bits,
            lo,
            width,
            signed,
            out_bits,
        } => field(s, *source, *source_bits, *lo, *width, *signed, *out_bits),
        Detail::Range { min, max } => range(s, *min, *max),
        Detail::Merge {
            lane_bits,
            from_result,
            other,
        } => merge(s, *lane_bits, from_result, other),
        Detail::Pool {
            lane_bits,
            entries,
            picks_a,
            picks_b,
        } => pool(*lane_bits, entries, picks_a, picks_b),
        Detail::Product {
            full_bits,
            kept_lo,
            kept_bits,
        } => product(s, *full_bits, *kept_lo, *kept_bits),
        // Without a detail, the output's bits: the wide intermediate, the scaled sum, d...
        Detail::None => bit_row(&s.output, None, &s.output.name),
    }
}

/// Bits of a value, most significant first, grouped by byte with wider gaps between half-words.
/// `class_of(bit)` may colour individual bits.
pub fn bit_cells(raw: u128, bits: u32, class_of: &dyn Fn(u32) -> Option<&'static str>) -> Html {
    let bits = bits.min(128);
    let groups = bits.div_ceil(8);
    html! {
        <span class="bitrow">
            { for (0..groups).rev().map(|g| {
                let top = ((g + 1) * 8).min(bits);
                html! {
                    <span class={classes!("byte", (g % 2 == 1).then_some("hw-low"))}>
                        { for (g * 8..top).rev().map(|b| {
                            let on = (raw >> b) & 1 == 1;
                            html! {
                                <span class={classes!("b", on.then_some("on"), class_of(b))} title={format!("bit {b}")}>
                                    { if on { "1" } else { "0" } }
                                </span>
                            }
                        }) }
                    </span>
                }
            }) }
        </span>
    }
}

/// A labelled row of a value's bits.
pub fn bit_row(
    v: &Val,
    class_of: Option<&dyn Fn(u32) -> Option<&'static str>>,
    name: &str,
) -> Html {
    let none = |_: u32| None;
    let f: &dyn Fn(u32) -> Option<&'static str> = class_of.unwrap_or(&none);
    html! {
        <div class="bits-line">
            <span class="bits-name">{ name.to_string() }</span>
            { bit_cells(v.raw(), v.bits, f) }
        </div>
    }
}

#[allow(clippy::too_many_arguments)]
fn field(
    s: &Stage,
    source: u64,
    source_bits: u32,
    lo: u32,
    width: u32,
    signed: bool,
    out_bits: u32,
) -> Html {
    let hi = lo.saturating_add(width);
    let in_field = move |b: u32| {
        if b >= lo && b < hi {
            Some("sel")
        } else {
            Some("dim")
        }
    };
    let ext = if signed { "sign" } else { "zero" };
    let out_class = move |b: u32| if b < width { Some("sel") } else { Some(ext) };
    let src_name = s
        .inputs
        .first()
        .map_or("source".to_string(), |v| v.name.clone());
    let out_raw = s.output.raw();
    html! {
        <div class="diagram field">
            <div class="bits-line">
                <span class="bits-name">{ src_name }</span>
                { bit_cells(source as u128, source_bits, &in_field) }
            </div>
            <div class="bits-line">
                <span class="bits-name">{ s.output.name.clone() }</span>
                { bit_cells(out_raw, out_bits, &out_class) }
            </div>
            <p class="legend">
                <span class="b sel">{ "1" }</span>{ format!(" bits {}..{} taken ", hi.saturating_sub(1), lo) }
                if signed {
                    <span class="b sign">{ "1" }</span>{ " copies of the sign bit" }
                } else {
                    <span class="b zero">{ "0" }</span>{ " zeros added above" }
                }
            </p>
        </div>
    }
}

fn range(s: &Stage, min: i128, max: i128) -> Html {
    let before = s.inputs.first().map_or(s.output.value, |v| v.value);
    let after = s.output.value;
    let (lo, hi) = (min as f64, max as f64);
    let span = (hi - lo).max(1.0);
    let pos = |x: i128| 30.0 + 240.0 * ((x as f64 - lo) / span).clamp(-0.1, 1.1);
    let (xb, xa) = (pos(before), pos(after));
    let clamped = before != after;
    let where_ = if before < min {
        "below the range"
    } else if before > max {
        "above the range"
    } else {
        "inside the range"
    };
    html! {
        <div class="diagram range">
            <svg viewBox="0 0 300 64" role="img"
                aria-label={format!("clamp range {min} to {max}; value {before} fell {where_}{}", if clamped { format!(", clamped to {after}") } else { String::new() })}>
                <line class="track" x1="30" y1="26" x2="270" y2="26" />
                <line class="tick" x1="30" y1="18" x2="30" y2="34" />
                <line class="tick" x1="270" y1="18" x2="270" y2="34" />
                <text class="lbl" x="30" y="50" text-anchor="start">{ format!("min {min}") }</text>
                <text class="lbl" x="270" y="50" text-anchor="end">{ format!("max {max}") }</text>
                if clamped {
                    <line class="jump" x1={xb.to_string()} y1="26" x2={xa.to_string()} y2="26" />
                }
                <circle class="before" cx={xb.to_string()} cy="26" r="6" />
                <rect class="after" x={(xa - 4.0).to_string()} y="8" width="8" height="8" />
                <text class="lbl val" x={xb.clamp(40.0, 260.0).to_string()} y="62" text-anchor="middle">{ before.to_string() }</text>
            </svg>
            <p class="legend">
                <span class="dot before"></span>{ format!(" value {before} ({where_}) ") }
                <span class="dot after"></span>
                { if clamped { format!(" clamped to {after}") } else { " kept as it is".to_string() } }
            </p>
        </div>
    }
}

fn merge(s: &Stage, lane_bits: u32, from_result: &[bool], other: &str) -> Html {
    let raw = s.output.raw();
    let lane_bits = lane_bits.clamp(1, 64);
    let m = if lane_bits >= 128 {
        u128::MAX
    } else {
        (1u128 << lane_bits) - 1
    };
    let digits = lane_bits.div_ceil(4) as usize;
    html! {
        <div class="diagram merge">
            <div class="merge-lanes">
                { for from_result.iter().enumerate().rev().map(|(i, &r)| {
                    let v = (raw >> (i as u32 * lane_bits)) & m;
                    html! {
                        <div class={classes!("mlane", if r { "from-result" } else { "from-other" })}>
                            <span class="mlane-name">{ format!("d lane {i}") }</span>
                            <code>{ format!("{v:0digits$x}") }</code>
                            <span class="mlane-src">{ if r { "result".to_string() } else { format!("from {other}") } }</span>
                        </div>
                    }
                }) }
            </div>
        </div>
    }
}

fn pool(lane_bits: u32, entries: &[u64], picks_a: &[u8], picks_b: &[u8]) -> Html {
    let n = entries.len().max(1);
    let w = 64.0 * n as f64;
    let cell = w / n as f64;
    let ex = |i: usize| (n - 1 - i.min(n - 1)) as f64 * cell + cell / 2.0;
    let digits = lane_bits.div_ceil(4) as usize;
    let half = n / 2;
    let suffix = if lane_bits == 16 { "h" } else { "b" };
    let entry_name = |i: usize| {
        if i < half {
            format!("a.{suffix}{i}")
        } else {
            format!("b.{suffix}{}", i - half)
        }
    };
    let lane_row = |picks: &[u8], y: f64, line_to: f64, name: &str, class: &'static str| {
        let m = picks.len().max(1);
        let lw = w / m as f64;
        html! {
            <g class={class}>
                { for picks.iter().enumerate().map(|(j, &p)| {
                    let x = (m - 1 - j) as f64 * lw + lw / 2.0;
                    let px = ex(p as usize);
                    let ly = if y < line_to { y + 24.0 } else { y };
                    html! {
                        <g>
                            <line class="pick" x1={x.to_string()} y1={ly.to_string()} x2={px.to_string()} y2={line_to.to_string()} />
                            <rect class="lane-box" x={(x - lw / 2.0 + 3.0).to_string()} y={y.to_string()} width={(lw - 6.0).to_string()} height="24" rx="4" />
                            <text class="lbl" x={x.to_string()} y={(y + 16.0).to_string()} text-anchor="middle">{ format!("{name} lane {j} ← {p}") }</text>
                        </g>
                    }
                }) }
            </g>
        }
    };
    html! {
        <div class="diagram pool">
            <svg viewBox={format!("0 0 {w} 176")} role="img"
                aria-label={format!("pool of {} entries from b:a; first operand lanes take {:?}, second take {:?}", n, picks_a, picks_b)}>
                { lane_row(picks_a, 4.0, 68.0, "1st", "picks-a") }
                { for entries.iter().enumerate().map(|(i, e)| {
                    let x = ex(i);
                    html! {
                        <g class={classes!("entry", if i < half { "from-a" } else { "from-b" })}>
                            <rect x={(x - cell / 2.0 + 2.0).to_string()} y="68" width={(cell - 4.0).to_string()} height="40" rx="4" />
                            <text class="lbl" x={x.to_string()} y="84" text-anchor="middle">{ format!("{i}: {}", entry_name(i)) }</text>
                            <text class="lbl mono" x={x.to_string()} y="100" text-anchor="middle">{ format!("{e:0digits$x}") }</text>
                        </g>
                    }
                }) }
                { lane_row(picks_b, 148.0, 108.0, "2nd", "picks-b") }
            </svg>
        </div>
    }
}

fn product(s: &Stage, full_bits: u32, kept_lo: u32, kept_bits: u32) -> Html {
    let full = full_bits.max(1) as f64;
    let x = |b: u32| 10.0 + 280.0 * (1.0 - (b.min(full_bits) as f64) / full);
    let kept_hi = kept_lo.saturating_add(kept_bits).min(full_bits);
    html! {
        <div class="diagram product">
            <svg viewBox="0 0 300 44" role="img"
                aria-label={format!("{full_bits}-bit product; bits {}..{kept_lo} kept", kept_hi.saturating_sub(1))}>
                <rect class="full" x="10" y="6" width="280" height="18" rx="3" />
                <rect class="kept" x={x(kept_hi).to_string()} y="6" width={(x(kept_lo) - x(kept_hi)).max(1.0).to_string()} height="18" rx="3" />
                <text class="lbl" x="10" y="38" text-anchor="start">{ format!("bit {}", full_bits.saturating_sub(1)) }</text>
                <text class="lbl" x="290" y="38" text-anchor="end">{ "bit 0" }</text>
            </svg>
            <p class="legend">{ format!("{full_bits}-bit product of {}; bits {}..{kept_lo} are kept", s.inputs.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(" × "), kept_hi.saturating_sub(1)) }</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_are_grouped() {
        let v = Val::reg("x", 8, 1);
        let st = |lane: Option<u8>| {
            let mut s = Stage::new(StageKind::Operate, "x", v.clone());
            s.lane = lane;
            s
        };
        let stages = vec![st(None), st(Some(0)), st(Some(1)), st(Some(0)), st(None)];
        let b = blocks(&stages);
        assert_eq!(b.len(), 3);
        match &b[1] {
            Block::Lanes(m) => {
                assert_eq!(m[&0].len(), 2);
                assert_eq!(m[&1].len(), 1);
            }
            _ => panic!("expected lanes"),
        }
    }

    #[test]
    fn words_of_debug_names() {
        assert_eq!(words("SignExtended"), "sign extended");
        assert_eq!(words("Read"), "read");
    }
}
