//! A short explanation of the instruction and its modifiers, with a link to NVIDIA's section.

use std::rc::Rc;

use ptxlab_core::Instruction;
use yew::prelude::*;

use crate::query;
use ptxlab_core::notes::Note;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Instruction>,
}

#[function_component]
pub fn Learn(props: &Props) -> Html {
    let insn = props.insn.as_ref();
    let row = insn.instr;
    // What the types and modifiers do, and that -a, -b cancel where they are written.
    let mut notes = ptxlab_core::notes::modifier_notes(insn);
    notes.extend(ptxlab_core::notes::negation_note(insn));
    let sel_note = ptxlab_core::notes::selector_note(insn);
    html! {
        <div class="learn-body">
            <p><strong>{ row.name() }</strong>{ format!(" ({}): ", row.family().describe()) }{ row.summary() }</p>
            if !notes.is_empty() {
                <ul class="mods">
                    { for notes.iter().map(note_html) }
                </ul>
            }
            if let Some(n) = sel_note.as_ref() {
                <p>{ n.text.clone() }{ example_html(n) }</p>
            }
            { measured(row.measured()) }
            <EmittedBy opcode={row.name()} />
            <p><a href={row.doc_url()} target="_blank" rel="noopener noreferrer">
                { format!("The {} section of NVIDIA's PTX ISA documentation", row.name()) }
            </a></p>
        </div>
    }
}

/// Whether the row was measured, and on which GPU: the row's own field, in the core's words.
fn measured(m: Option<ptxlab_core::isa::Gpu>) -> Html {
    let class = if m.is_some() {
        "measured"
    } else {
        "not-measured"
    };
    html! { <p class={class}>{ ptxlab_core::isa::measured_sentence(m) }</p> }
}

/// One modifier's note: its sentence and, where it claims a value, the example the core evaluates
/// now.
fn note_html(n: &Note) -> Html {
    html! { <li>{ n.text.clone() }{ example_html(n) }</li> }
}

/// The worked example of a note, its `d` computed by the core as the panel is drawn.
fn example_html(n: &Note) -> Html {
    match n.example.as_ref().map(|e| e.worked()) {
        Some(Ok(w)) => html! { <span class="note-example">{ " " }{ w.sentence }</span> },
        Some(Err(e)) => {
            html! { <span class="note-example">{ format!(" (example not accepted: {e})") }</span> }
        }
        None => Html::default(),
    }
}

/// The CUDA intrinsics whose sm_90 PTX (as nvcc 13.5 emits it) uses this opcode, each a link
/// to the intrinsic view; nothing when none does.
#[derive(Properties, PartialEq)]
struct EmittedProps {
    opcode: &'static str,
}

/// [`emitted_by`] once the intrinsic data (fetched when this panel first shows) is there.
#[function_component]
fn EmittedBy(p: &EmittedProps) -> Html {
    match crate::fetched::use_text("intrinsics.txt") {
        Some(text) => emitted_by(&text, p.opcode),
        None => Html::default(),
    }
}

fn emitted_by(data: &str, opcode: &str) -> Html {
    let found = ptxlab_core::intrinsics::emitting_in(data, opcode);
    if found.is_empty() {
        return Html::default();
    }
    let n = found.len();
    let links = html! {
        <ul class="emitted-by">
            { for found.iter().map(|i| html! {
                <li><a href={format!("?fn={}", query::encode(i))}>{ *i }</a></li>
            }) }
        </ul>
    };
    let label = format!(
        "{n} CUDA intrinsic{} whose PTX uses {opcode}",
        if n == 1 { "" } else { "s" }
    );
    if n <= 8 {
        html! { <div class="emitted"><p>{ label }{ ":" }</p>{ links }</div> }
    } else {
        html! { <details class="emitted"><summary>{ label }</summary>{ links }</details> }
    }
}
