//! What each GPU runs: the lowering atlas's row per architecture for the current form (or the
//! nearest measured form of the same opcode): the instructions that compute, their count,
//! native or emulated, the cheapest and dearest architectures marked; a row opens the full
//! machine code. The atlas (`atlas.txt`, written by `scripts/atlas.py`) is fetched when the view
//! first opens, not compiled into the wasm; the service worker keeps it for offline use.

use std::cell::RefCell;
use std::rc::Rc;

use ptxlab_core::atlas::{Atlas, Cost};
use ptxlab_core::insn::Insn;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// Where the page fetches the atlas from, relative to the page.
const URL: &str = "atlas.txt";

thread_local! {
    /// The atlas once fetched and read: later openings of the view use it at once.
    static ATLAS: RefCell<Option<Rc<Atlas>>> = const { RefCell::new(None) };
}

#[derive(Clone, PartialEq)]
enum Load {
    Loading,
    Ready(Rc<Atlas>),
    Failed(String),
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let w = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(|_| "the network request failed".to_string())?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| "not a response".to_string())?;
    if !resp.ok() {
        return Err(format!("the server answered {}", resp.status()));
    }
    let text = resp.text().map_err(|_| "no body".to_string())?;
    JsFuture::from(text)
        .await
        .map_err(|_| "the body could not be read".to_string())?
        .as_string()
        .ok_or_else(|| "the body is not text".to_string())
}

/// The GPU generation each architecture names.
fn generation(arch: &str) -> &'static str {
    match arch {
        "sm_75" => "Turing",
        "sm_80" => "Ampere (A100)",
        "sm_86" => "Ampere (RTX 30)",
        "sm_89" => "Ada",
        "sm_90" => "Hopper (H100, H200)",
        "sm_100" => "Blackwell (B200)",
        "sm_120" => "Blackwell (RTX 50)",
        _ => "",
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub insn: Rc<Insn>,
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
                    let got = fetch_text(URL)
                        .await
                        .and_then(|t| Atlas::parse(&t).map(Rc::new));
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
    let open = use_state(|| None::<usize>);
    let atlas = match &*load {
        Load::Loading => {
            return html! { <div class="atlas"><p class="atlas-loading muted">{ "Loading the machine code of every GPU…" }</p></div> }
        }
        Load::Failed(e) => {
            return html! { <div class="atlas"><p class="atlas-failed">{ format!("The machine code data could not be loaded ({e}); it is fetched once and then kept for offline use.") }</p></div> }
        }
        Load::Ready(a) => a.clone(),
    };
    let Some(found) = atlas.find(&props.insn) else {
        return html! {
            <div class="atlas">
                <p class="sass-none">{ format!("Not measured: the atlas holds no machine code for {} in any form.", props.insn.name()) }</p>
            </div>
        };
    };
    let costs: Vec<Cost> = atlas.costs(found.index);
    let (cheap, dear) = atlas.extremes(found.index);
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
            <table class="atlas-table" aria-label="machine code per GPU">
                <thead><tr>
                    <th scope="col">{ "GPU" }</th>
                    <th scope="col">{ "count" }</th>
                    <th scope="col">{ "kind" }</th>
                    <th scope="col">{ "instructions that compute" }</th>
                </tr></thead>
                <tbody>
                { for costs.iter().enumerate().map(|(k, c)| {
                    let is_open = *open == Some(k);
                    let toggle = {
                        let open = open.clone();
                        Callback::from(move |_: MouseEvent| open.set(if is_open { None } else { Some(k) }))
                    };
                    let mark = if cheap.contains(&k) { Some("cheapest") } else if dear.contains(&k) { Some("dearest") } else { None };
                    let kind = if !c.available { "refused" } else if c.native { "native" } else { "emulated" };
                    html! {
                        <>
                        <tr class={classes!("atlas-row", kind, mark)} data-arch={c.arch} onclick={toggle.clone()}>
                            <th scope="row">
                                <button type="button" class="atlas-arch" aria-expanded={is_open.to_string()}
                                    onclick={Callback::from(move |e: MouseEvent| { e.stop_propagation(); toggle.emit(e) })}>
                                    { c.arch }
                                </button>
                                <span class="muted small-note">{ format!(" {}", generation(c.arch)) }</span>
                            </th>
                            <td class="atlas-count">{ if c.available { c.core.len().to_string() } else { "–".into() } }</td>
                            <td class="atlas-kind">
                                <span class={classes!("badge", if c.native { "info" } else { "dim" })}>{ kind }</span>
                                if let Some(m) = mark {
                                    { " " }<span class={classes!("badge", "atlas-mark", m)}>{ m }</span>
                                }
                            </td>
                            <td class="atlas-core">
                                if c.available {
                                    { for c.core.iter().map(|i| html! { <><code>{ i.clone() }</code>{ " " }</> }) }
                                } else {
                                    <span class="atlas-message">{ format!("ptxas refuses it: {}", c.message.clone().unwrap_or_default()) }</span>
                                }
                            </td>
                        </tr>
                        if is_open {
                            <tr class="atlas-sass"><td colspan="4">
                                if c.available {
                                    <ol class="sass-code" aria-label={format!("{} machine code", c.arch)}>
                                        { for c.sass.iter().map(|l| {
                                            let is_core = !ptxlab_core::atlas::core_of(std::slice::from_ref(l)).is_empty();
                                            html! { <li class={classes!(is_core.then_some("core"))}><code>{ l.clone() }</code></li> }
                                        }) }
                                    </ol>
                                } else {
                                    <p>{ c.message.clone().unwrap_or_default() }</p>
                                }
                            </td></tr>
                        }
                        </>
                    }
                }) }
                </tbody>
            </table>
            <p class="muted small-note">{ "Each form was assembled alone in a kernel that loads its sources from global memory and stores d (ptxas 13.5, -O3). The count is of the instructions that compute: loads, stores, moves, constant loads, S2R/CS2R and control are left out. Native: one instruction does it all. Open a row for the whole kernel's machine code, computing lines marked. A sweep or batch does not change the cost." }</p>
        </div>
    }
}
