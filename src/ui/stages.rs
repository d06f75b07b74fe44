//! The details of one stage, shown beside the pipeline figure for the stage in focus: its kind,
//! what it does in words, its flags, the formula, every input and the output with their
//! widths, and where the hardware departs from the ISA text, the entry that explains why.

use ptxlab_core::trace::{Flag, Stage, Val};
use yew::prelude::*;

fn flag_class(f: Flag) -> &'static str {
    match f {
        Flag::ClampedHigh | Flag::ClampedLow | Flag::Wrapped | Flag::DivideByZero => "warn",
        Flag::HardwareDiffersFromText => "note",
        Flag::MaskedOff | Flag::NotFound => "dim",
        _ => "info",
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

/// The card of stage `i`; `highlight` is the stage where two readings part.
pub fn stage_card(i: usize, s: &Stage, highlight: Option<usize>) -> Html {
    let kind = s.kind.name().to_string();
    let parts = highlight == Some(i);
    html! {
        <article key={i.to_string()} class={classes!("stage-card", format!("kind-{}", kind.replace(' ', "-")), parts.then_some("parts"))}
            data-kind={kind.clone()} data-index={i.to_string()}>
            <header class="stage-head">
                <span class="kind">{ format!("{} · {kind}", i + 1) }</span>
                if let Some(l) = s.lane {
                    <span class="kind">{ format!("lane {l}") }</span>
                }
                <span class="stage-label">{ s.label.clone() }</span>
                { for s.flags.iter().map(|f| html! {
                    <span class={classes!("badge", flag_class(*f))}>{ f.label() }</span>
                }) }
                if let Some(d) = s.difference {
                    <a class="badge note" href={d.doc_link()} target="_blank" rel="noopener"
                        title={d.info().title}>{ "why: hardware vs ISA text" }</a>
                }
                if parts {
                    <span class="badge warn parts-here">{ "the readings part here" }</span>
                }
            </header>
            if !s.op.is_empty() {
                <p class="op"><code>{ s.op.clone() }</code></p>
            }
            <div class="io">
                if !s.inputs.is_empty() {
                    <ul class="inputs">
                        { for s.inputs.iter().map(|v| html! { <li><code>{ val_text(v) }</code></li> }) }
                    </ul>
                }
                <p class="out"><span aria-hidden="true">{ "→ " }</span><code>{ val_text(&s.output) }</code></p>
            </div>
        </article>
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    include!("../../crates/ptxlab-cli/tests/support/debug_formats.rs");

    /// The page shows the core's names (`StageKind::name`, `Flag::label`, `Display`), never
    /// text built from `Debug` output.
    #[test]
    fn no_text_on_the_page_is_built_from_debug() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let found = debug_formats(&src);
        assert!(
            found.is_empty(),
            "Debug output in text for people:\n{}",
            found.join("\n")
        );
    }
}
