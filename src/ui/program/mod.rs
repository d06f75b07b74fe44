//! The Program view: several lines of PTX run step by step over a register file. The state is
//! [`crate::program_model::Prog`]; everything shown comes from it, and through it from
//! `ptxlab_core::program` (the machine and each step's trace).

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::fetched::{placeholder, use_data, Load, Which};
use crate::program_model::{Action, Field, MemRow, Prog, Row, Shown};

use super::figure;

mod page;
pub use page::ProgramPage;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub prog: Rc<Prog>,
    pub dispatch: Callback<Action>,
}

/// The step keys: ArrowRight/j forward, ArrowLeft/k back, End to the end, Home restart.
fn key_action(key: &str) -> Option<Action> {
    Some(match key {
        "ArrowRight" | "j" => Action::Forward,
        "ArrowLeft" | "k" => Action::Back,
        "End" => Action::ToEnd,
        "Home" => Action::Restart,
        _ => return None,
    })
}

/// Restart, Step back, Step forward, Run to end, and where the run stands.
fn controls(p: &Prog, dispatch: &Callback<Action>) -> Html {
    let cur = p.step;
    let end = p.at_end();
    let btn = |label: &'static str, key: &'static str, a: Action, disabled: bool| {
        let d = dispatch.clone();
        html! {
            <button type="button" aria-keyshortcuts={key} disabled={disabled}
                onclick={Callback::from(move |_| d.emit(a.clone()))}>{ label }</button>
        }
    };
    let onkeydown = {
        let d = dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            if let Some(a) = key_action(&e.key()) {
                e.prevent_default();
                d.emit(a);
            }
        })
    };
    html! {
        <div class="program-controls" role="toolbar" aria-label="Step through the program" tabindex="0" {onkeydown}>
            { btn("Restart", "Home", Action::Restart, cur == 0) }
            { btn("Step back", "ArrowLeft", Action::Back, cur == 0) }
            { btn("Step forward", "ArrowRight", Action::Forward, end) }
            { btn("Run to end", "End", Action::ToEnd, end) }
            <span class="program-pos" aria-live="polite">{ p.position() }</span>
        </div>
    }
}

fn field(f: &Field, dispatch: &Callback<Action>) -> Html {
    let oninput = {
        let d = dispatch.clone();
        let name = f.name.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlInputElement = e.target_unchecked_into();
            d.emit(Action::SetReg {
                name: name.clone(),
                text: el.value(),
            });
        })
    };
    let id = format!(
        "start-{}",
        f.name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    );
    let err_id = format!("{id}-error");
    let kind = if f.name == ptxlab_core::program::CARRY_FLAG {
        "carry bit".to_string()
    } else if f.bits == 1 {
        "predicate".to_string()
    } else {
        format!("{} bits", f.bits)
    };
    html! {
        <div class={classes!("start-reg", f.error.is_some().then_some("bad"))}>
            <label for={id.clone()}><code>{ &f.name }</code><small>{ format!(" {kind}") }</small></label>
            <input id={id} type="text" spellcheck="false" autocomplete="off"
                aria-label={format!("{} starting value", f.name)}
                placeholder={f.default.clone()}
                aria-invalid={f.error.is_some().then_some("true")}
                aria-describedby={f.error.is_some().then_some(err_id.clone())}
                value={f.text.clone()} {oninput} />
            if let Some(e) = &f.error {
                <span class="field-error" id={err_id}>{ format!("{e}; it starts at 0") }</span>
            }
        </div>
    }
}

fn row(r: &Row, picked: bool, dispatch: &Callback<Action>) -> Html {
    let onclick = {
        let d = dispatch.clone();
        let name = r.name.clone();
        Callback::from(move |_| d.emit(Action::Pick(Some(name.clone()))))
    };
    let writer = match r.written_by {
        Some(l) => format!("line {l}"),
        None if r.given => "(given)".to_string(),
        None if r.special => "(its default)".to_string(),
        None => "(0 at start)".to_string(),
    };
    html! {
        <tr class={classes!(r.changed.then_some("changed"), picked.then_some("picked"))} data-reg={r.name.clone()}>
            <th scope="row">
                <button type="button" class="reg-name" {onclick} aria-pressed={picked.to_string()}
                    title="Show the instruction that last wrote it">{ &r.name }</button>
                if r.changed { <span class="changed-mark" title="changed by the last step">{ " ●" }<span class="sr-only">{ " changed by the last step" }</span></span> }
            </th>
            <td class="hex"><code>{ &r.hex }</code></td>
            <td class="unsigned">{ &r.unsigned }</td>
            <td class="signed">{ &r.signed }</td>
            <td class="writer">{ writer }</td>
        </tr>
    }
}

fn figure_of(shown: Option<Shown>, p: &Prog) -> Html {
    let Some(s) = shown else {
        let why = match &p.picked {
            Some(r) => format!("{r} has not been written yet: it holds its starting value."),
            None => "Step forward to see the instruction's stages.".to_string(),
        };
        return html! { <p class="muted program-figure-none">{ why }</p> };
    };
    let head = match &s.for_reg {
        Some(r) => format!("line {}: {} (last wrote {r})", s.line, s.text),
        None => format!("line {}: {}", s.line, s.text),
    };
    match s.trace {
        None if !s.executed => html! {
            <p class="program-skip">{ format!("{head}: skipped, its guard is false") }</p>
        },
        None => html! {
            <div class="program-did">
                <p><code>{ head }</code></p>
                <ul>{ for s.did.iter().map(|d| html! { <li>{ d }</li> }) }</ul>
            </div>
        },
        Some(t) => html! {
            <figure class="program-figure">
                <figcaption>{ head }</figcaption>
                <figure::Pipeline trace={t} compact={p.embed} />
            </figure>
        },
    }
}

/// The listing, the register file and the figure for the current step.
fn run_view(p: &Prog, dispatch: &Callback<Action>) -> Html {
    let lines = p.lines();
    let listing = html! {
        <ol class="program-lines" aria-label="Program lines">
            { for lines.iter().map(|l| html! {
                <li class={classes!(l.next.then_some("next"), l.last.then_some("done-last"))}
                    aria-current={l.next.then_some("step")}>
                    { for l.labels.iter().map(|lab| html! { <span class="label">{ format!("{lab}:") }</span> }) }
                    <span class="ln">{ l.line }</span>
                    <code>{ &l.text }</code>
                    if l.next { <span class="tag">{ " ← next" }</span> }
                    if let Some((taken, to)) = l.branch {
                        <span class="tag branch-edge">{
                            match (taken, to) {
                                (true, Some(t)) => format!(" ↷ taken: on to line {t}"),
                                (true, None) => " ↷ taken: to the end".to_string(),
                                (false, _) => " not taken".to_string(),
                            }
                        }</span>
                    }
                </li>
            }) }
        </ol>
    };
    let rows = p.rows();
    let table = html! {
        <div class="program-regs-wrap">
            <table class="program-regs" aria-label="Registers">
                <thead><tr><th scope="col">{ "register" }</th><th scope="col">{ "hex" }</th><th scope="col">{ "unsigned" }</th><th scope="col">{ "signed" }</th><th scope="col">{ "last written by" }</th></tr></thead>
                <tbody>
                    { for rows.iter().map(|r| row(r, p.picked.as_deref() == Some(r.name.as_str()), dispatch)) }
                </tbody>
            </table>
        </div>
    };
    let mem = p.memory();
    let memory = (!mem.written.is_empty() || !mem.read.is_empty()).then(|| {
        html! {
            <div class="program-mem-wrap">
                <table class="program-mem" aria-label="Memory">
                    <thead><tr><th scope="col">{ "" }</th><th scope="col">{ "space" }</th><th scope="col">{ "address" }</th><th scope="col">{ "bytes, lowest address first" }</th></tr></thead>
                    <tbody>
                        { for mem.written.iter().map(|r| mem_row(r, "written")) }
                        { for mem.read.iter().map(|r| mem_row(r, "read")) }
                    </tbody>
                </table>
            </div>
        }
    });
    html! {
        <div class="program-run">
            { listing }
            { table }
            { for memory }
            if let Some(why) = p.stopped() {
                <p class="program-error" role="alert">{ why }</p>
            }
            <div class="program-fig">{ figure_of(p.shown(), p) }</div>
        </div>
    }
}

fn mem_row(r: &MemRow, what: &'static str) -> Html {
    html! {
        <tr class={what}>
            <th scope="row">{ what }</th>
            <td>{ &r.space }</td>
            <td><code>{ &r.address }</code></td>
            <td class="mem-bytes"><code>
                { for r.bytes.iter().zip(&r.touched).map(|(b, t)| html! {
                    <span class={classes!("byte", t.then_some("changed"))}>{ format!("{b} ") }</span>
                }) }
            </code></td>
        </tr>
    }
}

/// The whole Program view (editor, controls, listing, registers, figure).
#[function_component]
pub fn ProgramView(props: &Props) -> Html {
    let p = &props.prog;
    let dispatch = &props.dispatch;
    let on_text = {
        let d = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlTextAreaElement = e.target_unchecked_into();
            d.emit(Action::SetText(el.value()));
        })
    };
    let unused = p.unused_inputs();
    let on_mem = {
        let d = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlTextAreaElement = e.target_unchecked_into();
            d.emit(Action::SetMem(el.value()));
        })
    };
    let body = match &p.run {
        Err(msg) => html! { <p class="program-error" role="alert">{ msg }</p> },
        Ok(_) => run_view(p, dispatch),
    };
    let rows = p.text.lines().count().clamp(6, 16);
    html! {
        <div class={classes!("program-view", p.embed.then_some("compact"))}>
            if !p.embed {
                <p class="muted">{ format!("PTX over named registers (%r1, %rd2, %p1 ...): the video and integer instructions and {} (CC.CF is a register); or one thread of an .entry as nvcc writes it, with its parameters and variables, ld/st over the memory below, special registers such as %tid.x, labels and bra.", ptxlab_core::ops::program_names()) }</p>
            }
            <div class="program-edit">
                <label class="program-field">{ "Program" }
                    <textarea aria-label="Program" rows={rows.to_string()} spellcheck="false"
                        value={p.text.clone()} oninput={on_text} />
                </label>
                <fieldset class="start-regs">
                    <legend>{ "Starting registers" }</legend>
                    <p class="muted start-note">{ "Every register left empty starts at 0 (predicates at false)." }</p>
                    <div class="start-grid">
                        { for p.fields.iter().map(|f| field(f, dispatch)) }
                    </div>
                    if !unused.is_empty() {
                        <p class="muted">{ format!("Not used by this program, ignored: {}", unused.join(" ")) }</p>
                    }
                    <label class="program-field mem-field">{ "Memory" }
                        <small class="muted">{ " ADDR=HEXBYTES, lowest address first (0x2000=04030201); shared:0x10=ff for another space" }</small>
                        <textarea aria-label="Memory" rows="2" spellcheck="false"
                            aria-invalid={p.mem_error.is_some().then_some("true")}
                            value={p.mem.clone()} oninput={on_mem} />
                    </label>
                    if let Some(e) = &p.mem_error {
                        <span class="field-error" role="alert">{ format!("{e}; the memory starts empty") }</span>
                    }
                </fieldset>
            </div>
            { controls(p, dispatch) }
            { body }
            if !p.embed {
                <Gallery />
            }
        </div>
    }
}

/// Links to the gallery's programs: kernels as nvcc writes them, run as one thread. Their PTX
/// is fetched when the gallery is first shown.
#[function_component]
fn Gallery() -> Html {
    let load = use_data(Which::Gallery);
    let links = if load == Load::Ready {
        crate::gallery::links().unwrap_or_default()
    } else {
        Vec::new()
    };
    html! {
        <nav class="program-gallery" aria-label="Gallery of real programs">
            <h3>{ "Real programs" }</h3>
            <p class="muted">{ "Kernels as nvcc 13.0 writes them for sm_90, each run as one thread with the memory of a launch measured on an H200; the bytes they write equal the GPU's." }</p>
            { placeholder(Which::Gallery, &load) }
            <ul>
                { for links.into_iter().map(|(e, href)| html! {
                    <li><a {href}>{ e.title }</a>{ format!(": {}", e.about) }</li>
                }) }
            </ul>
        </nav>
    }
}
