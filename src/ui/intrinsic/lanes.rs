//! The per-lane picture: the intrinsic's lanes side by side, most significant at the left as in
//! the hex value, each with its inputs and its output, all taken from the core's evaluation.

use ptxlab_core::intrinsics::{Evaluation, Shape};
use yew::prelude::*;

const LANE_W: f64 = 150.0;
const WORD_W: f64 = 330.0;
const ROW: f64 = 22.0;

fn hex(v: u64, bits: u32) -> String {
    crate::num::format(v, bits, crate::num::View::Hex)
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub eval: Evaluation,
    pub shape: Shape,
    /// Bits of the result.
    pub result_bits: u32,
}

#[function_component]
pub fn Lanes(props: &Props) -> Html {
    let e = &props.eval;
    let summing = matches!(props.shape, Shape::SumBytes | Shape::SumHalves);
    let n = e.lanes.len().max(1);
    let inputs = e.lanes.iter().map(|l| l.inputs.len()).max().unwrap_or(0);
    let lane_w = if n == 1 { WORD_W } else { LANE_W };
    let gap = 8.0;
    let width = n as f64 * (lane_w + gap) + gap;
    let lane_h = 28.0 + (inputs as f64 + 1.0) * ROW + 10.0;
    let sum_h = if summing { 2.0 * ROW + 8.0 } else { 0.0 };
    let height = lane_h + sum_h + 16.0;
    let names = ["a", "b", "c"];
    let out_name = if summing { "term" } else { "d" };
    let lanes = e.lanes.iter().rev().enumerate().map(|(pos, l)| {
        let x = gap + pos as f64 * (lane_w + gap);
        let title = if n == 1 {
            "whole word".to_string()
        } else {
            format!("lane {} ({} bits)", l.index, l.bits)
        };
        let out_y = 28.0 + (l.inputs.len() as f64 + 0.6) * ROW + 8.0;
        html! {
            <g class="lane" data-lane={l.index.to_string()} data-out={hex(l.output, if summing { 32 } else { l.bits })}>
                <rect x={x.to_string()} y="8" width={lane_w.to_string()} height={(lane_h - 8.0).to_string()}
                    rx="6" class="lane-box" />
                <text x={(x + 8.0).to_string()} y="26" class="lane-title">{ title }</text>
                { for l.inputs.iter().enumerate().map(|(k, v)| html! {
                    <text x={(x + 8.0).to_string()} y={(28.0 + (k as f64 + 0.8) * ROW).to_string()} class="lane-in">
                        <tspan class="lane-name">{ format!("{} ", names.get(k).unwrap_or(&"?")) }</tspan>
                        { hex(*v, l.bits) }
                    </text>
                }) }
                <line x1={(x + 8.0).to_string()} x2={(x + lane_w - 8.0).to_string()}
                    y1={(out_y - ROW * 0.75).to_string()} y2={(out_y - ROW * 0.75).to_string()} class="lane-rule" />
                <text x={(x + 8.0).to_string()} y={out_y.to_string()} class="lane-out">
                    <tspan class="lane-name">{ format!("{out_name} ") }</tspan>
                    { hex(l.output, if summing { 32 } else { l.bits }) }
                </text>
            </g>
        }
    });
    let sum = summing.then(|| {
        let y = lane_h + 14.0;
        let add = e
            .addend
            .map(|c| format!(" + c {}", hex(c, 32)))
            .unwrap_or_default();
        html! {
            <g class="lane-sum">
                <text x={gap.to_string()} y={y.to_string()} class="lane-in">
                    { format!("the terms of the {} lanes, added{add}:", e.lanes.len()) }
                </text>
                <text x={gap.to_string()} y={(y + ROW).to_string()} class="lane-out">
                    <tspan class="lane-name">{ "d " }</tspan>{ hex(e.result, props.result_bits) }
                </text>
            </g>
        }
    });
    html! {
        <div class="lanes-wrap">
            <svg role="figure" aria-label="Lanes" class="lanes" viewBox={format!("0 0 {width} {height}")}
                width={width.to_string()} height={height.to_string()} xmlns="http://www.w3.org/2000/svg">
                { for lanes }
                { for sum }
            </svg>
        </div>
    }
}
