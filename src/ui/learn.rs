//! A short explanation of the instruction and its modifiers, with a link to NVIDIA's section.

use std::rc::Rc;

use ptxlab_core::ast::Mod;

use ptxlab_core::Instruction;
use yew::prelude::*;

use crate::choices::family_name;
use crate::templates::{explain_mod, explain_selectors};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Instruction>,
}

#[function_component]
pub fn Learn(props: &Props) -> Html {
    let insn = &props.insn;
    let info = insn.opcode.info();
    let mods = insn.canonical_mods();
    let has_sel = insn.dst.sel.is_some() || insn.srcs.iter().any(|o| o.sel.is_some());
    let sel_note = explain_selectors(insn.opcode);
    let roles: &[&str] = match insn.form.type_count() {
        3 => &["d", "a", "b"],
        2 => &["a", "b"],
        _ => &[],
    };
    let mut type_index = 0;
    let notes: Vec<String> = mods
        .iter()
        .map(|m| {
            let note = explain_mod(insn.opcode, *m);
            if matches!(m, Mod::Type(_)) {
                let role = roles.get(type_index).copied();
                type_index += 1;
                if let Some(r) = role {
                    return format!("{r} {note}");
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
                    { for notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
                </ul>
            }
            if has_sel && !sel_note.is_empty() {
                <p>{ sel_note }</p>
            }
            <p><a href={insn.opcode.doc_url()} target="_blank" rel="noopener noreferrer">
                { format!("The {} section of NVIDIA's PTX ISA documentation", info.name) }
            </a></p>
        </div>
    }
}
