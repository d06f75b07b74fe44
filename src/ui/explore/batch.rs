//! The batch panel: many operand sets pasted as text (CSV with an optional header, plain values
//! one set per line, or `name=value` pairs), a table of results with the notable events of each
//! evaluation and the ISA text's value where it differs, per-line messages, and CSV export.

use std::rc::Rc;

use ptxlab_core::batch::{batch_csv, evaluate_batch, parse_batch, BatchRow};
use ptxlab_core::trace::{Flag, Views};
use ptxlab_core::Instruction;
use yew::prelude::*;

use crate::model::Action;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Instruction>,
    /// The operand sets as typed ([`crate::model::State::batch`]).
    pub text: String,
    pub dispatch: Callback<Action>,
}

/// The register sources of an instruction, as the table's columns: (index, name, bits).
pub fn columns(insn: &Instruction) -> Vec<(usize, String, u32)> {
    insn.register_sources()
}

/// The destinations as the table names them: `d` (or `p`, `q` for `setp`), with their widths.
pub fn destinations(insn: &Instruction) -> Vec<(String, u32)> {
    (0..insn.dst_count())
        .map(|k| (insn.dst_name(k), insn.dst_bits(k)))
        .collect()
}

/// A header and two example lines for the placeholder.
pub fn placeholder(insn: &Instruction) -> String {
    let cols = columns(insn);
    let names: Vec<&str> = cols.iter().map(|c| c.1.as_str()).collect();
    let ex1: Vec<&str> = cols.iter().map(|_| "0x7f").collect();
    let ex2: Vec<&str> = cols.iter().map(|_| "-1").collect();
    format!("{}\n{}\n{}", names.join(","), ex1.join(","), ex2.join(","))
}

/// The flags worth a column: the events, not the routine extensions.
fn event_names(flags: &[Flag]) -> String {
    flags
        .iter()
        .filter(|f| !matches!(f, Flag::SignExtended | Flag::ZeroExtended))
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn download(csv: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(csv));
        let opts = web_sys::BlobPropertyBag::new();
        opts.set_type("text/csv");
        let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
            return;
        };
        let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
            return;
        };
        let doc = web_sys::window().and_then(|w| w.document());
        if let Some(a) = doc
            .as_ref()
            .and_then(|d| d.create_element("a").ok())
            .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            a.set_href(&url);
            a.set_download("ptxlab-batch.csv");
            a.click();
        }
        let _ = web_sys::Url::revoke_object_url(&url);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = csv;
}

#[function_component]
pub fn BatchPanel(props: &Props) -> Html {
    let rows: Rc<Vec<BatchRow>> = {
        let key = (props.insn.clone(), props.text.clone());
        (*use_memo(key, |(insn, t)| {
            Rc::new(evaluate_batch(insn, &parse_batch(t, insn)))
        }))
        .clone()
    };
    let csv = use_memo((props.insn.clone(), rows.clone()), |(insn, rows)| {
        batch_csv(insn, rows)
    });
    let cols = columns(&props.insn);
    let dsts = destinations(&props.insn);
    let (first, dst_bits) = dsts[0].clone();
    let more: Vec<(String, u32)> = dsts[1..].to_vec();
    let oninput = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let t: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            dispatch.emit(Action::SetBatch(t.value()));
        })
    };
    let export = {
        let csv = csv.clone();
        Callback::from(move |_: MouseEvent| download(&csv))
    };
    let errors = rows.iter().filter(|r| r.error.is_some()).count();
    let differ = rows.iter().filter(|r| r.text_d.is_some()).count();
    let span = (cols.len() + more.len() + 5).to_string();
    html! {
        <div class="batch">
            <label for="batch-input" class="batch-label">{ "Operand sets, one per line" }</label>
            <p class="muted" id="batch-help">
                { "CSV (commas, semicolons or tabs) or spaces, in the order " }
                <code>{ cols.iter().map(|c| c.1.clone()).collect::<Vec<_>>().join(", ") }</code>
                { format!("; an optional header line names the columns (a {first} column is ignored); or ") }
                <code>{ "a=0x12 b=-5" }</code>
                { ". Hex, binary (0b), decimal and negative values; # starts a comment." }
            </p>
            <textarea id="batch-input" class="batch-input" rows="6" spellcheck="false"
                aria-describedby="batch-help" placeholder={placeholder(&props.insn)}
                value={props.text.clone()} {oninput} />
            if !rows.is_empty() {
                <p class="batch-summary" role="status">
                    { format!("{} operand set{} read", rows.len(), if rows.len() == 1 { "" } else { "s" }) }
                    { if errors > 0 { format!(", {errors} with an error") } else { String::new() } }
                    { if differ > 0 { format!(", {differ} where the ISA text gives another value") } else { String::new() } }
                    { "." }
                </p>
                <div class="batch-table-wrap">
                    <table class="batch-table">
                        <thead>
                            <tr>
                                <th scope="col">{ "line" }</th>
                                { for cols.iter().map(|c| html! { <th scope="col">{ c.1.clone() }</th> }) }
                                <th scope="col">{ format!("{first} (hex)") }</th>
                                <th scope="col">{ format!("{first} unsigned") }</th>
                                <th scope="col">{ format!("{first} signed") }</th>
                                { for more.iter().map(|m| html! { <th scope="col">{ m.0.clone() }</th> }) }
                                <th scope="col">{ "events" }</th>
                                <th scope="col">{ "ISA text's d" }</th>
                            </tr>
                        </thead>
                        <tbody>
                            { for rows.iter().map(|r| match (r.error.is_none(), &r.views, r.inputs) {
                                (true, Some(v), inputs) => {
                                    let arr = inputs.map(|i| i.as_array()).unwrap_or_default();
                                    html! {
                                        <tr data-line={r.line.to_string()} class={classes!(r.text_d.is_some().then_some("differs"))}>
                                            <td>{ r.line }</td>
                                            { for cols.iter().map(|&(i, _, bits)| html! { <td><code>{ Views::of(arr[i], bits).hex }</code></td> }) }
                                            <td class="batch-d"><code>{ v.hex.clone() }</code></td>
                                            <td><code>{ v.unsigned.clone() }</code></td>
                                            <td><code>{ if dst_bits == 1 { v.unsigned.clone() } else { v.signed.clone() } }</code></td>
                                            { for more.iter().enumerate().map(|(k, m)| html! {
                                                <td><code>{ r.more.get(k).copied().flatten().map(|x| Views::of(x, m.1).hex).unwrap_or_else(|| "_".into()) }</code></td>
                                            }) }
                                            <td class="batch-flags">{ event_names(&r.flags) }</td>
                                            <td>{ r.text_d.map(|t| html! { <code>{ Views::of(t, dst_bits).hex }</code> }).unwrap_or_default() }</td>
                                        </tr>
                                    }
                                }
                                _ => html! {
                                    <tr class="batch-error" data-line={r.line.to_string()}>
                                        <td>{ r.line }</td>
                                        <td colspan={span.clone()} class="field-error">{ r.error.clone().unwrap_or_default() }</td>
                                    </tr>
                                },
                            }) }
                        </tbody>
                    </table>
                </div>
                <div class="batch-actions">
                    <button type="button" class="edge primary" onclick={export}>{ "Export CSV" }</button>
                </div>
                <details class="batch-csv-box">
                    <summary>{ "Show the CSV" }</summary>
                    <textarea class="batch-csv" readonly=true rows="6" aria-label="CSV of the table" value={(*csv).clone()} />
                </details>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::insn::check;

    #[test]
    fn columns_skip_immediates() {
        let insn = check("add.s32 d, a, 5;").unwrap();
        assert_eq!(columns(&insn).len(), 1);
        let insn = check("vadd4.u32.u32.u32 d, a, b, c;").unwrap();
        let c = columns(&insn);
        assert_eq!(
            c.iter().map(|c| c.1.as_str()).collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
        assert_eq!(placeholder(&insn).lines().next(), Some("a,b,c"));
        // The program instructions: immediates left out, destinations by role.
        let insn = check("prmt.b32 d, a, b, 0x7c40;").unwrap();
        assert_eq!(placeholder(&insn).lines().next(), Some("a,b"));
        let insn = check("setp.lt.s32 p|q, a, b;").unwrap();
        assert_eq!(
            destinations(&insn),
            [("p".to_string(), 1), ("q".to_string(), 1)]
        );
    }
}
