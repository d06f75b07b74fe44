//! What sm_90 runs: the machine instructions ptxas emitted for the current form (or the closest
//! measured form of the same opcode), without the loads and stores around them, and whether one
//! dedicated instruction does the work or ordinary ones emulate it.

use std::rc::Rc;

use ptxlab_core::sass::{lookup, SassForm, SassKind};
use ptxlab_core::Instruction;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Instruction>,
}

/// The classification, explained.
pub fn kind_explained(form: &SassForm) -> String {
    let n = form.instructions.len();
    let core = form.core.as_deref().unwrap_or("?");
    match form.kind {
        SassKind::Native => format!(
            "Native: the GPU has a machine instruction for this, and {core} alone computes the result."
        ),
        SassKind::NativeWithGlue => format!(
            "Native, with help: {core} is a machine instruction built for this kind of work; the other {} line{} move bytes into place or finish its result.",
            n.saturating_sub(1),
            if n == 2 { "" } else { "s" }
        ),
        SassKind::Emulated => format!(
            "Emulated: sm_90 has no machine instruction for this form, so ptxas builds it from {n} general-purpose integer instruction{} (byte permutes, adds, shifts, selects).",
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// A short word for the kind, for the badge.
pub fn kind_word(k: SassKind) -> &'static str {
    match k {
        SassKind::Native => "native",
        SassKind::NativeWithGlue => "native with glue",
        SassKind::Emulated => "emulated",
    }
}

fn mnemonic(line: &str) -> &str {
    let t = line.trim_start();
    let t = if t.starts_with('@') {
        t.split_once(char::is_whitespace).map_or("", |x| x.1)
    } else {
        t
    };
    t.split_whitespace()
        .next()
        .unwrap_or("")
        .split('.')
        .next()
        .unwrap_or("")
}

#[function_component]
pub fn SassPanel(props: &Props) -> Html {
    let found = lookup(&props.insn);
    let Some(l) = found else {
        return html! {
            <div class="sass">
                <p class="sass-none">
                    { format!("Not measured: the sm_90 data holds no machine code for {} in any form.", props.insn.opcode.info().name) }
                </p>
            </div>
        };
    };
    let f = l.form;
    let core = f.core.clone();
    html! {
        <div class="sass" data-kind={kind_word(f.kind)}>
            if l.exact {
                <p class="sass-what">{ "What ptxas emitted for exactly this form on sm_90 (from the measured kernel's listing):" }</p>
            } else {
                <p class="sass-what sass-closest">
                    { "This form was not measured. Closest measured form of this opcode: " }
                    <code>{ f.ptx.clone() }</code>
                </p>
            }
            <p>
                <span class={classes!("badge", if f.kind == SassKind::Emulated { "dim" } else { "info" }, "sass-kind")}>{ kind_word(f.kind) }</span>
                { " " }
                <span class="sass-explain">{ kind_explained(f) }</span>
            </p>
            <ol class="sass-code" aria-label="machine instructions">
                { for f.instructions.iter().map(|i| {
                    let is_core = core.as_deref().is_some_and(|c| mnemonic(i) == mnemonic(c) || i.starts_with(c));
                    html! { <li class={classes!(is_core.then_some("core"))}><code>{ i.clone() }</code></li> }
                }) }
            </ol>
            <p class="muted small-note">{ "Only the instructions that compute the result are listed: the loads of the sources, the store of d and the kernel's address arithmetic are left out. Register numbers are those ptxas chose in the test kernel." }</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::check;

    #[test]
    fn native_and_emulated_forms() {
        let n = lookup(&check("vabsdiff4.u32.u32.u32 d, a, b, c;").unwrap()).unwrap();
        assert!(n.exact);
        assert!(kind_explained(n.form).contains("VABSDIFF4"));
        let e = lookup(&check("vadd.u32.u32.u32 d, a.b3, b.b3;").unwrap()).unwrap();
        assert_eq!(e.form.kind, SassKind::Emulated);
        assert!(kind_explained(e.form).starts_with("Emulated"));
        assert_eq!(mnemonic("@P0 IMAD.MOV R0, RZ, RZ, -R0"), "IMAD");
    }
}
