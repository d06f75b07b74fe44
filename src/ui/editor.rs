//! The instruction text field, with the checker's message under the offending token.

use ptxlab_core::Diagnostic;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::model::Action;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub text: String,
    pub diag: Option<Diagnostic>,
    pub dispatch: Callback<Action>,
}

/// Split `text` around `span` safely: (before, token, after). Out-of-range or mid-character
/// spans fall back to pointing at the end of the text.
pub fn split_at_span<'a>(
    text: &'a str,
    span: &std::ops::Range<usize>,
) -> (&'a str, &'a str, &'a str) {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    match (text.get(..start), text.get(start..end), text.get(end..)) {
        (Some(a), Some(b), Some(c)) => (a, b, c),
        _ => (text, "", ""),
    }
}

#[function_component]
pub fn InstructionField(props: &Props) -> Html {
    let oninput = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            dispatch.emit(Action::SetText(input.value()));
        })
    };
    let invalid = props.diag.is_some();
    let message = props.diag.as_ref().map(|d| {
        let (before, token, after) = split_at_span(&props.text, &d.span);
        html! {
            <div class="diag" id="insn-msg" role="alert">
                <code class="diag-line">
                    <span>{ before }</span>
                    if token.is_empty() {
                        <mark class="bad gap" title="here">{ "\u{2009}" }</mark>
                    } else {
                        <mark class="bad">{ token }</mark>
                    }
                    <span>{ after }</span>
                </code>
                <p class="diag-msg">{ d.to_string() }</p>
            </div>
        }
    });
    html! {
        <div class="insn-field">
            <label for="insn">{ "Instruction" }</label>
            <input id="insn" type="text" class={classes!("insn", invalid.then_some("invalid"))}
                value={props.text.clone()}
                spellcheck="false" autocomplete="off" autocapitalize="off"
                aria-invalid={if invalid { "true" } else { "false" }}
                aria-describedby={invalid.then_some("insn-msg")}
                {oninput} />
            { for message }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::split_at_span;

    #[test]
    fn spans_split_safely() {
        assert_eq!(split_at_span("abc def", &(4..7)), ("abc ", "def", ""));
        assert_eq!(split_at_span("abc", &(9..12)), ("abc", "", ""));
        assert_eq!(split_at_span("é", &(1..2)), ("é", "", ""));
        #[allow(clippy::reversed_empty_ranges)]
        let r = 2..1;
        assert_eq!(split_at_span("abc", &r), ("ab", "", "c"));
    }
}
