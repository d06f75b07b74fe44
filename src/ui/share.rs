//! Sharing what is on screen: the "Copy link" button, the "Copy as CUDA" statement, and the
//! notes about an address that could not be fully read.

use std::rc::Rc;

use ptxlab_core::{cuda, Instruction};
use yew::prelude::*;

use crate::model::Action;

/// How a copy went, shown next to its button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Copied {
    Idle,
    Done,
    /// The browser refused the clipboard: the text is shown selected for copying by hand.
    Failed,
}

/// Copy `text` to the clipboard, then report whether it worked. Uses the asynchronous
/// clipboard API where there is one, else the older `execCommand("copy")` on a hidden field.
fn copy_text(text: String, done: Callback<bool>) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let promise = web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w.navigator(), &"clipboard".into()).ok())
            .filter(|c| c.is_object())
            .and_then(|c| {
                let f = js_sys::Reflect::get(&c, &"writeText".into()).ok()?;
                let f: js_sys::Function = f.dyn_into().ok()?;
                f.call1(&c, &text.as_str().into()).ok()
            })
            .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
        match promise {
            Some(p) => yew::platform::spawn_local(async move {
                let ok = wasm_bindgen_futures::JsFuture::from(p).await.is_ok();
                done.emit(ok || copy_by_command(&text));
            }),
            None => done.emit(copy_by_command(&text)),
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = text;
        done.emit(false);
    }
}

/// The fallback copy: select the text in a temporary field and ask the document to copy it.
#[cfg(target_arch = "wasm32")]
fn copy_by_command(text: &str) -> bool {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Some(body) = doc.body() else {
        return false;
    };
    let Ok(field) = doc.create_element("textarea") else {
        return false;
    };
    let Ok(field) = field.dyn_into::<web_sys::HtmlTextAreaElement>() else {
        return false;
    };
    field.set_value(text);
    let _ = field.set_attribute("readonly", "");
    let _ = field.set_attribute("aria-hidden", "true");
    let _ = field.set_attribute("style", "position:fixed;top:0;left:-9999px;opacity:0");
    if body.append_child(&field).is_err() {
        return false;
    }
    field.select();
    let ok = doc
        .dyn_ref::<web_sys::HtmlDocument>()
        .and_then(|d| d.exec_command("copy").ok())
        .unwrap_or(false);
    field.remove();
    ok
}

/// The status line after a copy: "Copied", or what to do by hand.
fn copy_status(c: Copied, what: &str) -> Html {
    match c {
        Copied::Idle => html! {},
        Copied::Done => html! { <span class="copied">{ "Copied" }</span> },
        Copied::Failed => html! {
            <span class="copy-failed">{ format!("The browser did not allow copying; select the {what} and copy it by hand.") }</span>
        },
    }
}

/// A copy button's state, reset to idle a few seconds after each copy.
#[hook]
fn use_copy() -> (Copied, Callback<String>) {
    let state = use_state_eq(|| Copied::Idle);
    let copy = {
        let state = state.clone();
        Callback::from(move |text: String| {
            let state = state.clone();
            copy_text(
                text,
                Callback::from(move |ok: bool| {
                    state.set(if ok { Copied::Done } else { Copied::Failed });
                    if ok {
                        let state = state.clone();
                        gloo_timers::callback::Timeout::new(2500, move || state.set(Copied::Idle))
                            .forget();
                    }
                }),
            )
        })
    };
    (*state, copy)
}

/// The address of the full playground showing `query`.
pub fn link_for(query: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let loc = web_sys::window().map(|w| w.location());
        let origin = loc
            .as_ref()
            .and_then(|l| l.origin().ok())
            .unwrap_or_default();
        let path = loc
            .as_ref()
            .and_then(|l| l.pathname().ok())
            .unwrap_or_default();
        format!("{origin}{path}{query}")
    }
    #[cfg(not(target_arch = "wasm32"))]
    query.to_string()
}

#[derive(Properties, PartialEq)]
pub struct LinkProps {
    /// The query of the state to link to, without view options that only fit an iframe.
    pub query: String,
}

/// "Copy link": the address of exactly what is on screen.
#[function_component]
pub fn CopyLink(props: &LinkProps) -> Html {
    let (status, copy) = use_copy();
    let link = link_for(&props.query);
    let onclick = {
        let link = link.clone();
        Callback::from(move |_: MouseEvent| copy.emit(link.clone()))
    };
    html! {
        <div class="share-link">
            <button type="button" class="copy" {onclick}
                title="Copy the address of this view: instruction, operands and options">{ "Copy link" }</button>
            <span role="status" class="copy-status">{ copy_status(status, "link") }</span>
            if status == Copied::Failed {
                <input type="text" readonly=true class="link-text" aria-label="Link to this view"
                    value={link} onfocus={Callback::from(|e: FocusEvent| {
                        let el: web_sys::HtmlInputElement = e.target_unchecked_into();
                        el.select();
                    })} />
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct CudaProps {
    pub insn: Rc<Instruction>,
    pub stale: bool,
}

/// "Copy as CUDA": the inline-assembly statement for the instruction, with declarations of
/// the variables it uses, as generated by `ptxlab_core::cuda`.
#[function_component]
pub fn CudaBlock(props: &CudaProps) -> Html {
    let (status, copy) = use_copy();
    let statement = cuda::asm_statement(&props.insn);
    let decls = cuda::insn_declarations(&props.insn);
    let onclick = {
        let statement = statement.clone();
        Callback::from(move |_: MouseEvent| copy.emit(statement.clone()))
    };
    html! {
        <div class={classes!("cuda", props.stale.then_some("stale"))}>
            <h3 id="h-cuda">{ "CUDA" }</h3>
            <pre class="cuda-decl" aria-label="CUDA variable declarations"><code>{ decls }</code></pre>
            <pre class="cuda-asm" aria-labelledby="h-cuda"><code id="cuda-asm">{ statement }</code></pre>
            <div class="share-link">
                <button type="button" class="copy" {onclick}
                    title="Copy the inline-assembly statement, ready to paste into CUDA C++">{ "Copy as CUDA" }</button>
                <span role="status" class="copy-status">{ copy_status(status, "statement") }</span>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct NotesProps {
    pub notes: Vec<String>,
    pub dispatch: Callback<Action>,
}

/// What could not be read from the address, in plain text, with a button to hide it.
#[function_component]
pub fn AddressNotes(props: &NotesProps) -> Html {
    if props.notes.is_empty() {
        return html! {};
    }
    let dispatch = props.dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| dispatch.emit(Action::DismissNotes));
    html! {
        <div class="address-note" id="address-note" role="alert">
            { for props.notes.iter().map(|n| html! { <p>{ n.clone() }</p> }) }
            <button type="button" class="edge" {onclick}>{ "Dismiss" }</button>
        </div>
    }
}
