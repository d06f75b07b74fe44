//! What each GPU runs: the lowering atlas's row per architecture for the current form (or the
//! nearest measured form of the same opcode): the instructions that compute, their count,
//! native or emulated, the cheapest and dearest architectures marked; a row opens the full
//! machine code. The atlas (`atlas.txt`, written by `scripts/atlas.py`) is fetched when the view
//! first opens, not compiled into the wasm; the service worker keeps it for offline use.
//!
//! Below the table, where the core has proven that another form of the atlas gives the same `d`
//! on every input and that form costs fewer instructions on some architectures, a hint names it
//! with a link, and says how it was proven. The groups come from `equivalents.txt` (written by
//! the core's example `equivalents`), fetched with the atlas.

use std::cell::RefCell;
use std::rc::Rc;

use ptxlab_core::atlas::{Atlas, Cost};
use ptxlab_core::equiv::{Cheaper, Equivalents};
use ptxlab_core::Instruction;

use crate::fetched::fetch_text;
use crate::ui::cost_table::{CostRow, CostTable};
use yew::prelude::*;

/// Where the page fetches the atlas from, relative to the page.
const URL: &str = "atlas.txt";
/// Where it fetches the groups of forms that give the same `d`.
const EQUIVALENTS_URL: &str = "equivalents.txt";

/// The atlas and the groups of equal forms (none if their file could not be read).
#[derive(PartialEq)]
struct Data {
    atlas: Atlas,
    equivalents: Equivalents,
}

thread_local! {
    /// The data once fetched and read: later openings of the view use it at once.
    static ATLAS: RefCell<Option<Rc<Data>>> = const { RefCell::new(None) };
}

#[derive(Clone, PartialEq)]
enum Load {
    Loading,
    Ready(Rc<Data>),
    Failed(String),
}

async fn fetch_data() -> Result<Data, String> {
    let atlas = Atlas::parse(&fetch_text(URL).await?)?;
    // Without the groups the table still stands; the hints are left out.
    let equivalents = match fetch_text(EQUIVALENTS_URL).await {
        Ok(t) => Equivalents::parse(&t).unwrap_or_default(),
        Err(_) => Equivalents::default(),
    };
    Ok(Data { atlas, equivalents })
}

/// One architecture of the atlas as a row of the shared table.
fn row(c: &Cost) -> CostRow {
    CostRow {
        arch: c.arch.to_string(),
        available: c.available,
        core: c.core.clone(),
        kind: if !c.available {
            "refused"
        } else if c.native {
            "native"
        } else {
            "emulated"
        },
        native: c.native,
        core_lines: c
            .sass
            .iter()
            .map(|l| !ptxlab_core::atlas::core_of(std::slice::from_ref(l)).is_empty())
            .collect(),
        code: c.sass.clone(),
        message: c.message.clone(),
        tag: None,
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Instruction>,
}

#[function_component]
pub fn SassPanel(props: &Props) -> Html {
    let load = use_state(|| match ATLAS.with(|a| a.borrow().clone()) {
        Some(a) => Load::Ready(a),
        None => Load::Loading,
    });
    {
        let load = load.clone();
        use_effect_with((), move |_| {
            if matches!(*load, Load::Loading) {
                wasm_bindgen_futures::spawn_local(async move {
                    let got = fetch_data().await.map(Rc::new);
                    match got {
                        Ok(a) => {
                            ATLAS.with(|c| *c.borrow_mut() = Some(a.clone()));
                            load.set(Load::Ready(a));
                        }
                        Err(e) => load.set(Load::Failed(e)),
                    }
                });
            }
        });
    }
    let data = match &*load {
        Load::Loading => {
            return html! { <div class="atlas"><p class="atlas-loading muted">{ "Loading the machine code of every GPU…" }</p></div> }
        }
        Load::Failed(e) => {
            return html! { <div class="atlas"><p class="atlas-failed">{ format!("The machine code data could not be loaded ({e}); it is fetched once and then kept for offline use.") }</p></div> }
        }
        Load::Ready(a) => a.clone(),
    };
    let atlas = &data.atlas;
    let Some(found) = atlas.find(&props.insn) else {
        return html! {
            <div class="atlas">
                <p class="sass-none">{ format!("Not measured: the atlas holds no machine code for {} in any form.", props.insn.name()) }</p>
            </div>
        };
    };
    let costs: Vec<Cost> = atlas.costs(found.index);
    let rows: Rc<Vec<CostRow>> = Rc::new(costs.iter().map(row).collect());
    // One hint per cheaper form and saving, with its architectures; only for the form itself.
    let mut hints: Vec<(Vec<&'static str>, Cheaper)> = Vec::new();
    if found.exact {
        for (k, c) in costs.iter().enumerate() {
            let Some(h) = data.equivalents.cheaper(atlas, &found.form, k) else {
                continue;
            };
            match hints
                .iter_mut()
                .find(|(_, x)| (&x.form, x.count, x.instead_of) == (&h.form, h.count, h.instead_of))
            {
                Some((archs, _)) => archs.push(c.arch),
                None => hints.push((vec![c.arch], h)),
            }
        }
    }
    html! {
        <div class="atlas">
            if found.exact {
                <p class="sass-what">{ "What ptxas 13.5 (-O3) emits for exactly this form, on each GPU architecture:" }</p>
            } else {
                <p class="sass-what atlas-nearest">
                    { "This form is not in the atlas. The nearest measured form is shown: " }
                    <code>{ found.form.clone() }</code>
                </p>
            }
            <CostTable rows={rows} label="machine code per GPU" />
            if !hints.is_empty() {
                <div class="atlas-cheaper" role="note" aria-label="cheaper equivalent">
                    <p class="atlas-cheaper-title">{ "A cheaper form gives the same d" }</p>
                    <ul>
                    { for hints.iter().map(|(archs, h)| html! {
                        <li class="atlas-hint" data-form={h.form.clone()}>
                            { format!("On {}: ", archs.join(", ")) }
                            <a href={format!("?i={}", crate::query::encode(&h.form))}><code>{ h.form.clone() }</code></a>
                            { format!(" computes the same d on every input, in {} instruction{} instead of {}. ",
                                h.count, if h.count == 1 { "" } else { "s" }, h.instead_of) }
                            <span class="atlas-proof muted">{ format!("Proven by ptxlab's evaluator: {}.", h.proof) }</span>
                        </li>
                    }) }
                    </ul>
                </div>
            }
            <p class="muted small-note">{ "Each form was assembled alone in a kernel that loads its sources from global memory and stores d (ptxas 13.5, -O3). The count is of the instructions that compute: loads, stores, moves, constant loads, S2R/CS2R and control are left out. Native: one instruction does it all. Open a row for the whole kernel's machine code, computing lines marked. A sweep or batch does not change the cost." }</p>
        </div>
    }
}
