//! Operand editors: for each source the instruction reads, hex, unsigned, signed and binary
//! fields (all editable), clickable bits with byte and half-word boundaries, and buttons for
//! edge and random values.

use ptxlab_core::ast::SOURCE_NAMES;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::model::{Action, State, Valid};
use crate::num::{Edge, View};

use super::perf;

/// One source as the editor shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub src: usize,
    pub name: &'static str,
    pub bits: u32,
    pub value: u64,
    /// Text of each view, in [`View::ALL`] order.
    pub fields: [String; 4],
    pub errors: [Option<String>; 4],
    /// The immediate written in the instruction, when this source is not a register.
    pub immediate: Option<String>,
    /// What the instruction reads here when it is not written among its operands (the carry
    /// flag of `addc`, `subc`, `madc`).
    pub implicit: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OperandsData {
    pub sources: Vec<Source>,
    pub revision: u64,
}

impl OperandsData {
    pub fn from_state(state: &State, valid: &Valid) -> OperandsData {
        let n = valid.widths.sources.min(4);
        let sources = (0..n)
            .map(|i| {
                let bits = state.width(i);
                let register = valid.insn.register_sources().iter().any(|r| r.0 == i);
                // An immediate shows the value the trace read, in every view.
                let imm_value = (!register)
                    .then(|| valid.trace.sources.get(i).map(|v| v.raw() as u64))
                    .flatten();
                let immediate = imm_value.map(|v| crate::num::format(v, bits, View::Hex));
                Source {
                    src: i,
                    name: SOURCE_NAMES[i],
                    bits,
                    value: imm_value.unwrap_or(state.values[i]),
                    fields: View::ALL.map(|v| match imm_value {
                        Some(x) => crate::num::format(x, bits, v),
                        None => state.field_text(i, v),
                    }),
                    errors: View::ALL.map(|v| state.field_error(i, v).map(str::to_string)),
                    immediate,
                    implicit: valid
                        .insn
                        .reads_carry(i)
                        .then_some(ptxlab_core::ops::CARRY_FLAG),
                }
            })
            .collect();
        OperandsData {
            sources,
            revision: state.revision,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: OperandsData,
    pub dispatch: Callback<Action>,
}

#[function_component]
pub fn Operands(props: &Props) -> Html {
    html! {
        <div class="operand-list">
            { for props.state.sources.iter().map(|s| html! {
                <OperandCard key={s.name} source={s.clone()} revision={props.state.revision} dispatch={props.dispatch.clone()} />
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct CardProps {
    source: Source,
    revision: u64,
    dispatch: Callback<Action>,
}

/// Dispatch an operand action with the edit timing marks around it.
fn timed(dispatch: &Callback<Action>, a: Action) {
    perf::edit_started();
    dispatch.emit(a);
}

#[function_component]
fn OperandCard(props: &CardProps) -> Html {
    let s = &props.source;
    let src = s.src;
    let readonly = s.immediate.is_some();
    // A predicate (one bit) is true or false, not a signed number: no signed view.
    let fields = View::ALL.iter().enumerate().filter(|&(_, &view)| !(view == View::Signed && s.bits == 1)).map(|(k, &view)| {
        let oninput = {
            let dispatch = props.dispatch.clone();
            Callback::from(move |e: InputEvent| {
                let el: HtmlInputElement = e.target_unchecked_into();
                timed(&dispatch, Action::EditValue { src, view, text: el.value() });
            })
        };
        let onblur = {
            let dispatch = props.dispatch.clone();
            Callback::from(move |_: FocusEvent| dispatch.emit(Action::EndEdit))
        };
        let label = format!("{} ({})", s.name, view.word());
        let err = s.errors[k].clone();
        let err_id = format!("err-{}-{}", s.name, view.word());
        let value = match (&s.immediate, view) {
            (Some(imm), View::Hex) => imm.clone(),
            _ => s.fields[k].clone(),
        };
        html! {
            <div class={classes!("view", format!("view-{}", view.word()))}>
                <span class="view-name" aria-hidden="true">{ view.word() }</span>
                <input type="text" aria-label={label} value={value}
                    class={classes!(err.is_some().then_some("invalid"))}
                    aria-invalid={if err.is_some() { "true" } else { "false" }}
                    aria-describedby={err.as_ref().map(|_| err_id.clone())}
                    readonly={readonly}
                    spellcheck="false" autocomplete="off" inputmode={if view == View::Hex || view == View::Binary { "text" } else { "numeric" }}
                    {oninput} {onblur} />
                if let Some(e) = err {
                    <span class="field-error" id={err_id} role="status">{ e }</span>
                }
            </div>
        }
    });
    let bits = bit_buttons(s, &props.dispatch, readonly);
    let edges = Edge::ALL.iter().map(|&edge| {
        let dispatch = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| timed(&dispatch, Action::SetEdge { src, edge }));
        html! {
            <button type="button" class="edge" title={edge.describe()} disabled={readonly}
                aria-label={format!("{}: set {} to {}", edge.label(), s.name, edge.describe())} {onclick}>{ edge.label() }</button>
        }
    });
    let random = {
        let dispatch = props.dispatch.clone();
        let salt = props.revision ^ ((src as u64) << 40);
        Callback::from(move |_: MouseEvent| {
            timed(
                &dispatch,
                Action::Random {
                    src,
                    seed: perf::seed(salt),
                },
            )
        })
    };
    html! {
        <div class="operand" data-src={s.name}>
            <h3>
                <span class="reg">{ s.name }</span>
                <small>{ format!(" {}-bit", s.bits) }</small>
                if let Some(reg) = s.implicit {
                    <small class="imm">{ format!(" = {reg}, the carry flag the instruction reads") }</small>
                }
                if let Some(imm) = &s.immediate {
                    <small class="imm">{ format!(" immediate {imm} from the text") }</small>
                }
            </h3>
            <div class="views">{ for fields }</div>
            { bits }
            <div class="edges" role="group" aria-label={format!("{} presets", s.name)}>
                { for edges }
                <button type="button" class="edge random" disabled={readonly} onclick={random}
                    aria-label={format!("set {} to a random value", s.name)}>{ "random" }</button>
            </div>
        </div>
    }
}

/// The bits of a source as buttons, most significant first, grouped by byte and half-word.
fn bit_buttons(s: &Source, dispatch: &Callback<Action>, readonly: bool) -> Html {
    let src = s.src;
    let halves = s.bits.div_ceil(16);
    let half = |h: u32| {
        let bytes = (0..2).rev().map(move |byte| {
            let bits = (0..8).rev().map(move |k| {
                let bit = h * 16 + byte * 8 + k;
                let on = (s.value >> bit) & 1 == 1;
                let dispatch = dispatch.clone();
                let onclick =
                    Callback::from(move |_: MouseEvent| timed(&dispatch, Action::FlipBit { src, bit }));
                html! {
                    <button type="button" class={classes!("bit", on.then_some("on"))}
                        aria-label={format!("{} bit {bit}: {}", s.name, u8::from(on))} aria-pressed={if on { "true" } else { "false" }}
                        title={format!("bit {bit}")} disabled={readonly} {onclick}>
                        { if on { "1" } else { "0" } }
                    </button>
                }
            });
            html! { <span class="byte" data-byte={(h * 2 + byte).to_string()}>{ for bits }</span> }
        });
        html! { <span class="half">{ for bytes }</span> }
    };
    html! {
        <div class="bits" role="group" aria-label={format!("{} bits", s.name)}>
            { for (0..halves).rev().map(half) }
        </div>
    }
}

#[cfg(test)]
mod immediate_tests {
    use super::*;

    /// An immediate source shows the value the instruction reads in every view, not the
    /// (unused) value the state keeps for that position.
    #[test]
    fn immediates_show_their_value_in_every_view() {
        let s = State::new("lop3.b32 d, a, b, c, 0xb2;", [1, 2, 3, 0x55]);
        let d = OperandsData::from_state(&s, s.valid.as_ref().unwrap());
        let e = &d.sources[3];
        assert_eq!(e.immediate.as_deref(), Some("0xb2"));
        assert_eq!(e.value, 0xb2);
        assert_eq!(e.fields[1], "178");
        assert_eq!(e.fields[3], "10110010");
        assert!(d.sources[0].immediate.is_none());
        let s = State::new("add.s32 d, a, -5;", [1, 0, 0, 0]);
        let d = OperandsData::from_state(&s, s.valid.as_ref().unwrap());
        assert_eq!(d.sources[1].fields[2], "-5");
    }
}
