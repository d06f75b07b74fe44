//! The two readings of the current case: the H100's and the ISA text's taken literally. When
//! they give different values, a banner says so in words, with both values, the stage where the
//! traces part and the entry of `docs/hardware-vs-spec.md` that explains why; a toggle swaps the
//! pipeline figure for the literal reading's.

use std::rc::Rc;

use ptxlab_core::trace::Views;
use ptxlab_core::{
    compare_readings, evaluate_traced_reading, readings_may_differ, widths, DiffKind, Divergence,
    Inputs, Instruction, Reading, Trace,
};
use yew::prelude::*;

use super::figure::Pipeline;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Instruction>,
    pub inputs: Inputs,
    /// The hardware reading's trace, already computed by the state.
    pub trace: Rc<Trace>,
    /// Opens present mode (the figure's "Present" button).
    #[prop_or_default]
    pub on_present: Option<Callback<()>>,
}

/// The banner's sentence: both values and the stage where the readings part.
pub fn banner_text(div: &Divergence, dst_bits: u32) -> String {
    let hex = |v: u64| Views::of(v, dst_bits).hex;
    let stage = div
        .hardware_stage
        .as_ref()
        .or(div.text_stage.as_ref())
        .map_or_else(|| div.kind.name().to_string(), |s| s.label.clone());
    format!(
        "The ISA text, read literally, gives {} here; the H100 gives {}. They part at stage {}: {}.",
        hex(div.text),
        hex(div.hardware),
        div.stage + 1,
        stage
    )
}

/// How an entry of the page relates the text to the hardware, in words.
pub fn kind_words(k: DiffKind) -> &'static str {
    match k {
        DiffKind::Contradicts => "the pseudocode, followed to the letter, gives another value",
        DiffKind::ProseOnly => "the pseudocode agrees, but the prose suggests another value",
        DiffKind::Unspecified => "the text leaves the value open",
        DiffKind::Assembler => "about which texts ptxas accepts",
    }
}

/// Bring a stage into view (without touching the address, which describes the state).
fn scroll_to(stage: usize) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        #[cfg(target_arch = "wasm32")]
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&format!("stage-{stage}")))
        {
            el.scroll_into_view();
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = stage;
    })
}

#[function_component]
pub fn TwoReadings(props: &Props) -> Html {
    let show_text = use_state(|| false);
    let may_differ = readings_may_differ(&props.insn);
    let div = {
        let key = (props.insn.clone(), props.inputs);
        use_memo(key, |(insn, inputs)| compare_readings(insn, inputs))
    };
    let text_trace = {
        let key = (props.insn.clone(), props.inputs, *show_text && may_differ);
        use_memo(key, |(insn, inputs, on)| {
            on.then(|| Rc::new(evaluate_traced_reading(insn, inputs, Reading::Text)))
        })
    };
    let dst_bits = widths(&props.insn).dst;
    let highlight = div.as_ref().as_ref().map(|d| d.stage);
    let toggle = {
        let show_text = show_text.clone();
        Callback::from(move |_: MouseEvent| show_text.set(!*show_text))
    };
    let shown: Rc<Trace> = match text_trace.as_ref() {
        Some(t) => t.clone(),
        None => props.trace.clone(),
    };
    let literal = text_trace.is_some();
    html! {
        <div class="readings">
            if let Some(d) = div.as_ref() {
                <div class="readings-banner" role="note" aria-label="hardware and ISA text differ">
                    <p class="readings-say">{ banner_text(d, dst_bits) }</p>
                    <dl class="readings-values">
                        <dt>{ "ISA text, literally" }</dt><dd><code class="text-d">{ Views::of(d.text, dst_bits).hex }</code></dd>
                        <dt>{ "H100" }</dt><dd><code class="hardware-d">{ Views::of(d.hardware, dst_bits).hex }</code></dd>
                    </dl>
                    if let Some(id) = d.difference {
                        <p class="readings-why">
                            <strong>{ id.info().title }</strong>
                            { format!(" ({}). ", kind_words(id.info().kind)) }
                            { id.info().summary }
                            { " " }
                            <a class="doc-link" href={id.doc_link()} target="_blank" rel="noopener">
                                { "Read the full entry: where the H100 departs from the ISA text" }
                            </a>
                        </p>
                    }
                    <p class="readings-jump">
                        <button type="button" class="edge" onclick={scroll_to(d.stage)}>{ format!("Go to stage {}", d.stage + 1) }</button>
                    </p>
                </div>
            }
            if may_differ {
                <div class="readings-toggle">
                    <button type="button" class="edge" aria-pressed={literal.to_string()} onclick={toggle}>
                        { if literal { "Show the H100's stages" } else { "Show the literal reading's stages" } }
                    </button>
                    <span class="muted reading-now">
                        { if literal { "Stages below: the ISA text followed literally." } else { "Stages below: what the H100 computes." } }
                    </span>
                </div>
            }
            <div class={classes!("reading-stages", literal.then_some("literal"))} data-reading={if literal { "text" } else { "hardware" }}>
                <Pipeline trace={shown} {highlight} on_present={props.on_present.clone()} />
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct OneProps {
    pub trace: Rc<Trace>,
    /// Opens present mode (the figure's "Present" button).
    #[prop_or_default]
    pub on_present: Option<Callback<()>>,
}

/// The stages of an instruction that has one reading: the program instructions (`prmt`,
/// `lop3`, the carry chain ...), as the measured GPU computes them. (Where the ISA text read
/// literally departs, as for a subtraction's carry, `docs/hardware-vs-spec.md` says so.)
#[function_component]
pub fn OneReading(props: &OneProps) -> Html {
    html! {
        <div class="readings">
            <p class="muted reading-now">
                { one_reading_text(&props.trace) }
            </p>
            <div class="reading-stages" data-reading="text">
                <Pipeline trace={props.trace.clone()} on_present={props.on_present.clone()} />
            </div>
        </div>
    }
}

/// The line above a program instruction's stages: which GPU they were measured on (the
/// trace's `measured`, from the row).
fn one_reading_text(trace: &Trace) -> String {
    match trace.measured {
        Some(g) => format!(
            "Stages below: {} as {} computes it; ptxlab's values equal the GPU's on every \
             measured case.",
            trace.opcode,
            g.describe()
        ),
        None => format!(
            "Stages below: {} as the ISA text describes it; not yet measured on a GPU.",
            trace.opcode
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::check;

    #[test]
    fn banner_for_a_documented_case() {
        let insn = check("vadd.u32.u32.u32 d.h1, a.b1, b.h1, c;").unwrap();
        let inputs = Inputs::new(0x4936304f, 0x040f05be, 0xffe66ba5, 0);
        let d = compare_readings(&insn, &inputs).unwrap();
        let s = banner_text(&d, 32);
        assert!(s.contains("0x043f6ba5"), "{s}");
        assert!(s.contains("0x00006ba5"), "{s}");
        assert!(s.starts_with("The ISA text, read literally, gives"));
    }
}
