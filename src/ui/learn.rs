//! A short explanation of the instruction and its modifiers, with a link to NVIDIA's section.

use std::rc::Rc;

use ptxlab_core::ast::Mod;

use ptxlab_core::insn::Insn;
use ptxlab_core::ops::OpInsn;
use ptxlab_core::Instruction;
use yew::prelude::*;

use crate::choices::family_name;
use crate::query;
use crate::templates::{explain_mod, explain_selectors};
use ptxlab_core::notes::Note;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Insn>,
}

#[function_component]
pub fn Learn(props: &Props) -> Html {
    match props.insn.as_ref() {
        Insn::Table(i) => table(i),
        Insn::Op { op, .. } => program_op(op),
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

/// A program instruction (`prmt`, `lop3`, ...): its row's summary, what its type and each
/// modifier do (from the core), and whether it was measured.
fn program_op(op: &OpInsn) -> Html {
    let row = op.op.row();
    html! {
        <div class="learn-body">
            <p><strong>{ row.name }</strong>{ format!(" ({}): ", row.family.describe()) }{ row.summary }</p>
            <ul class="mods">
                { for ptxlab_core::notes::program(op).iter().map(note_html) }
            </ul>
            { measured(row.measured) }
            <EmittedBy opcode={row.name} />
            <p><a href={op.op.doc_url()} target="_blank" rel="noopener noreferrer">
                { format!("The {} section of NVIDIA's PTX ISA documentation", row.name) }
            </a></p>
        </div>
    }
}

fn table(insn: &Instruction) -> Html {
    let info = insn.opcode.info();
    let mods = insn.canonical_mods();
    let has_sel = insn.dst.sel.is_some() || insn.srcs.iter().any(|o| o.sel.is_some());
    let sel_note = explain_selectors(insn);
    let roles: &[&str] = match insn.form.type_count() {
        3 => &["d", "a", "b"],
        2 => &["a", "b"],
        _ => &[],
    };
    let mut type_index = 0;
    let notes: Vec<Note> = mods
        .iter()
        .map(|m| {
            let mut note = explain_mod(insn.opcode, *m);
            if matches!(m, Mod::Type(_)) {
                let role = roles.get(type_index).copied();
                type_index += 1;
                if let Some(r) = role {
                    note.text = format!("{r} {}", note.text);
                }
            }
            note
        })
        .collect();
    html! {
        <div class="learn-body">
            <p><strong>{ info.name }</strong>{ format!(" ({}): ", family_name(info.family)) }{ info.summary }</p>
            if !mods.is_empty() {
                <ul class="mods">
                    { for notes.iter().map(note_html) }
                </ul>
            }
            if has_sel {
                if let Some(n) = sel_note.as_ref() {
                    <p>{ n.text.clone() }{ example_html(n) }</p>
                }
            }
            { measured(info.measured) }
            <EmittedBy opcode={info.name} />
            <p><a href={insn.opcode.doc_url()} target="_blank" rel="noopener noreferrer">
                { format!("The {} section of NVIDIA's PTX ISA documentation", info.name) }
            </a></p>
        </div>
    }
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
