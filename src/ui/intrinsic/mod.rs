//! The Intrinsic view: pick a CUDA SIMD or integer intrinsic by name or by what it does, set its
//! arguments, and see its result with its meaning, a per-lane picture, the PTX nvcc emits, the
//! sm_90 machine code and its cost on each GPU.

use std::rc::Rc;

use ptxlab_core::intrinsics::Intrinsic;
use ptxlab_core::sass::SassKind;

use crate::fetched::{placeholder, use_data, Load, Which};
use crate::ui::cost_table::{CostRow, CostTable};
use yew::prelude::*;

use super::address::{self, Write};
use super::root::{use_arrivals, Header};
use crate::intrinsic_model::{IAction, IState, ARG_NAMES};
use crate::num::{Edge, View};
use crate::route::{Route, Side};

mod lanes;

impl Reducible for IState {
    type Action = IAction;
    fn reduce(self: Rc<Self>, action: IAction) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// How the next state reaches the browser's history.
fn write_of(a: &IAction) -> Write {
    match a {
        IAction::Pick(_) | IAction::PickActive | IAction::SetArg { .. } => Write::Push,
        IAction::Load(_) => Write::Nothing,
        _ => Write::Replace,
    }
}

/// The intrinsic view once its data (fetched when the view first opens) is there.
#[function_component]
pub fn IntrinsicGate() -> Html {
    let load = use_data(Which::Intrinsics);
    if load == Load::Ready {
        html! { <IntrinsicApp /> }
    } else {
        html! {
            <>
            if !crate::query::read(&address::current()).embed {
                <Header />
            }
            <main class="layout intrinsic-layout">{ placeholder(Which::Intrinsics, &load) }</main>
            </>
        }
    }
}

#[function_component]
pub fn IntrinsicApp() -> Html {
    let state = use_reducer(|| IState::from_query(&address::current()));
    let pending = use_mut_ref(|| None::<Write>);
    let dispatch = {
        let state = state.clone();
        let pending = pending.clone();
        Callback::from(move |a: IAction| {
            *pending.borrow_mut() = Some(write_of(&a));
            state.dispatch(a)
        })
    };
    {
        let pending = pending.clone();
        let embed = state.embed;
        use_effect_with(state.to_query(), move |q| {
            let w = pending.borrow_mut().take().unwrap_or(Write::Replace);
            let w = if embed && w == Write::Push {
                Write::Replace
            } else {
                w
            };
            if *q != address::current() {
                address::apply(w, q);
            }
        });
    }
    // Back and forward within this view (the root listens and hands the address here).
    {
        let dispatch = dispatch.clone();
        use_arrivals(
            Side::Intrinsic,
            Callback::from(move |(_, q): (Route, String)| dispatch.emit(IAction::Load(q))),
        );
    }
    let s: &IState = &state;
    let i = s.intrinsic();
    if s.embed {
        return html! {
            <main class="embed intrinsic-embed">
                <Notes notes={s.notes.clone()} dispatch={dispatch.clone()} />
                <p class="fn-call"><code>{ s.call_text() }</code></p>
                <Args state={state.clone()} dispatch={dispatch.clone()} />
                <ResultBox state={state.clone()} />
                <p class="embed-foot">
                    <a href={s.share_query()} target="_blank" rel="noopener">{ "Open in ptxlab" }</a>
                </p>
            </main>
        };
    }
    html! {
        <>
        <Header share={s.share_query()} />
        <Notes notes={s.notes.clone()} dispatch={dispatch.clone()} />
        <main class="layout intrinsic-layout">
            <section class="panel fn-choose" aria-labelledby="h-fn-choose">
                <h2 id="h-fn-choose">{ "Choose" }</h2>
                <Search state={state.clone()} dispatch={dispatch.clone()} />
                <p class="fn-meaning"><strong>{ i.name }</strong>{ ": " }{ i.meaning }</p>
                if let Some(n) = i.note {
                    <p class="fn-note"><span class="badge note">{ "note" }</span>{ " " }{ n }</p>
                }
                <p><a href={i.doc_url} target="_blank" rel="noopener noreferrer">
                    { format!("{} in NVIDIA's CUDA Math API documentation", i.function) }
                </a></p>
            </section>
            <section class="panel fn-args" aria-labelledby="h-fn-args">
                <h2 id="h-fn-args">{ "Arguments" }</h2>
                <p class="fn-call"><code>{ s.call_text() }</code></p>
                <Args state={state.clone()} dispatch={dispatch.clone()} />
            </section>
            <section class="panel fn-result" aria-labelledby="h-fn-result">
                <h2 id="h-fn-result">{ "Result" }</h2>
                <ResultBox state={state.clone()} />
            </section>
            <section class="panel fn-ptx" aria-labelledby="h-fn-ptx">
                <h2 id="h-fn-ptx">{ "PTX (nvcc -arch=sm_90)" }</h2>
                <p class="muted">{ "What nvcc emits between the loads of the arguments (%a, %b, %c) and the store of the result (%d)." }</p>
                <pre class="fn-code" aria-label="PTX sequence"><code>{ i.ptx.join("\n") }</code></pre>
                <p><a class="open-program" href={s.program_query()}>{ "Open in Program view" }</a>
                    <span class="muted">{ " to step through it with each instruction's stages." }</span></p>
            </section>
            <section class="panel fn-cost" aria-labelledby="h-fn-cost">
                <h2 id="h-fn-cost">{ "Machine code and cost" }</h2>
                <Cost state={state.clone()} />
            </section>
        </main>
        <footer class="foot">
            <p>{ "Meanings are written per lane in ptxlab's core, checked against the PTX nvcc 13.5 emits and against an NVIDIA H200 running each intrinsic on the same 7.7 million inputs; machine code from ptxas for sm_75 to sm_120." }</p>
        </footer>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct StateProps {
    state: UseReducerHandle<IState>,
}

#[derive(Properties, PartialEq)]
struct DispatchProps {
    state: UseReducerHandle<IState>,
    dispatch: Callback<IAction>,
}

#[derive(Properties, PartialEq)]
struct NotesProps {
    notes: Vec<String>,
    dispatch: Callback<IAction>,
}

/// What could not be read from the address.
#[function_component]
fn Notes(props: &NotesProps) -> Html {
    if props.notes.is_empty() {
        return html! {};
    }
    let dispatch = props.dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| dispatch.emit(IAction::DismissNotes));
    html! {
        <div class="address-note" role="alert">
            { for props.notes.iter().map(|n| html! { <p>{ n.clone() }</p> }) }
            <button type="button" class="edge" {onclick}>{ "Dismiss" }</button>
        </div>
    }
}

/// The search field and the list of matches (an ARIA combobox).
#[function_component]
fn Search(props: &DispatchProps) -> Html {
    let s = &*props.state;
    let matches: Vec<&'static Intrinsic> = if s.open { s.matches() } else { Vec::new() };
    let count = if s.open { s.match_count() } else { 0 };
    let d = props.dispatch.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        let el: web_sys::HtmlInputElement = e.target_unchecked_into();
        d.emit(IAction::Search(el.value()));
    });
    let d = props.dispatch.clone();
    let open = s.open;
    let onkeydown = Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
        "ArrowDown" => {
            e.prevent_default();
            d.emit(IAction::Move(1));
        }
        "ArrowUp" => {
            e.prevent_default();
            d.emit(IAction::Move(-1));
        }
        "Enter" if open => {
            e.prevent_default();
            d.emit(IAction::PickActive);
        }
        "Escape" => d.emit(IAction::Close),
        _ => {}
    });
    let d = props.dispatch.clone();
    let onblur = Callback::from(move |_: FocusEvent| d.emit(IAction::Close));
    let active = (s.open && !matches.is_empty()).then(|| format!("fn-opt-{}", s.active));
    html! {
        <div class="fn-search">
            <label for="fn-search">{ "Intrinsic" }</label>
            <input id="fn-search" type="text" class="insn" role="combobox" autocomplete="off"
                spellcheck="false" aria-autocomplete="list" aria-controls="fn-list"
                aria-expanded={if s.open { "true" } else { "false" }}
                aria-activedescendant={active}
                placeholder="name, or what it does: unsigned byte compare"
                value={s.search.clone()} {oninput} {onkeydown} {onblur} />
            <p class="muted fn-count" role="status">
                if s.open {
                    { match count {
                        0 => "No intrinsic matches.".to_string(),
                        1 => "1 intrinsic matches.".to_string(),
                        n if n > matches.len() => format!("{n} intrinsics match; the first {} are listed.", matches.len()),
                        n => format!("{n} intrinsics match."),
                    } }
                }
            </p>
            <ul id="fn-list" role="listbox" aria-label="Matching intrinsics" class="fn-list" hidden={!s.open || matches.is_empty()}>
                { for matches.iter().enumerate().map(|(k, m)| {
                    let d = props.dispatch.clone();
                    let name = m.name.to_string();
                    let onclick = Callback::from(move |_: MouseEvent| d.emit(IAction::Pick(name.clone())));
                    // Keep the focus in the field, so that its blur does not close the list first.
                    let onmousedown = Callback::from(|e: MouseEvent| e.prevent_default());
                    let on = k == s.active;
                    html! {
                        <li id={format!("fn-opt-{k}")} role="option" aria-selected={if on { "true" } else { "false" }}
                            class={classes!("fn-opt", on.then_some("active"))} {onclick} {onmousedown}>
                            <code>{ m.name }</code>{ " " }<span class="fn-opt-meaning">{ m.meaning }</span>
                        </li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// One field per argument, in hex, with its C type and decimal value.
#[function_component]
fn Args(props: &DispatchProps) -> Html {
    let s = &*props.state;
    let i = s.intrinsic();
    html! {
        <div class="fn-arg-list">
            { for i.args.iter().enumerate().map(|(k, t)| {
                let id = format!("fn-arg-{}", ARG_NAMES[k]);
                let d = props.dispatch.clone();
                let oninput = Callback::from(move |e: InputEvent| {
                    let el: web_sys::HtmlInputElement = e.target_unchecked_into();
                    d.emit(IAction::EditArg { arg: k, text: el.value() });
                });
                let d = props.dispatch.clone();
                let onblur = Callback::from(move |_: FocusEvent| d.emit(IAction::EndEdit));
                let view = if t.signed() { View::Signed } else { View::Unsigned };
                let error = s.arg_error(k).map(str::to_string);
                html! {
                    <div class="fn-arg">
                        <label for={id.clone()}><span class="reg">{ format!("arg {}", ARG_NAMES[k]) }</span></label>
                        <span class="muted fn-type">{ format!(" {}", t.c_name()) }</span>
                        <input id={id.clone()} type="text" spellcheck="false" autocomplete="off"
                            class={classes!("insn", error.is_some().then_some("invalid"))}
                            aria-invalid={error.is_some().then_some("true")}
                            value={s.arg_text(k)} {oninput} {onblur} />
                        <span class="muted fn-dec">{ format!("= {}", crate::num::format(s.args[k], s.width(k), view)) }</span>
                        if let Some(e) = error {
                            <span class="field-error" role="alert">{ e }</span>
                        }
                        <div class="edges fn-edges" role="group" aria-label={format!("values to try for {}", ARG_NAMES[k])}>
                            { for Edge::ALL.iter().map(|e| {
                                let d = props.dispatch.clone();
                                let value = e.value(t.bits());
                                let onclick = Callback::from(move |_: MouseEvent| d.emit(IAction::SetArg { arg: k, value }));
                                html! {
                                    <button type="button" class="edge" {onclick}
                                        aria-label={format!("{}: set {} to {}", e.label(), ARG_NAMES[k], e.describe())}
                                        title={e.describe()}>{ e.label() }</button>
                                }
                            }) }
                        </div>
                    </div>
                }
            }) }
        </div>
    }
}

/// The result in three views, its meaning, the bools it writes, and the lanes.
#[function_component]
fn ResultBox(props: &StateProps) -> Html {
    let s = &*props.state;
    let i = s.intrinsic();
    let views = [
        ("hex", View::Hex),
        ("unsigned", View::Unsigned),
        ("signed", View::Signed),
    ];
    html! {
        <div class="fn-result-body">
            <div class="views">
                { for views.iter().map(|(word, v)| html! {
                    <div class={classes!("view", format!("view-{word}"))}>
                        <span class="view-name" aria-hidden="true">{ *word }</span>
                        <input type="text" readonly=true aria-label={format!("d ({word})")} value={s.result_text(*v)} />
                    </div>
                }) }
            </div>
            if !s.eval.outputs.is_empty() {
                <p class="fn-outputs">
                    { for s.eval.outputs.iter().map(|(n, v)| html! {
                        <span class="badge">{ format!("*{} = {v}", n.trim_start_matches('%')) }</span>
                    }) }
                </p>
            }
            <p class="fn-meaning-short">{ i.meaning }</p>
            <lanes::Lanes eval={s.eval.clone()} shape={i.shape} result_bits={i.result.bits()} />
        </div>
    }
}

fn kind_word(k: SassKind) -> &'static str {
    match k {
        SassKind::Native => "native",
        SassKind::NativeWithGlue => "native with glue",
        SassKind::Emulated => "emulated",
    }
}

/// The sm_90 machine code and the table of costs per architecture.
#[function_component]
fn Cost(props: &StateProps) -> Html {
    let s = &*props.state;
    let i = s.intrinsic();
    let (native, other) = s.native_split();
    let rows: Rc<Vec<CostRow>> = Rc::new(
        i.cost
            .iter()
            .map(|c| {
                let code: Vec<String> = if c.arch == 90 {
                    i.sass_sm90.iter().map(|l| l.to_string()).collect()
                } else {
                    Vec::new()
                };
                CostRow {
                    arch: format!("sm_{}", c.arch),
                    available: true,
                    core: c.opcodes.iter().map(|o| o.to_string()).collect(),
                    kind: kind_word(c.kind),
                    native: c.kind != SassKind::Emulated,
                    core_lines: code
                        .iter()
                        .map(|l| !ptxlab_core::atlas::core_of(std::slice::from_ref(l)).is_empty())
                        .collect(),
                    code,
                    message: None,
                    tag: c.video.then_some("lane / video"),
                }
            })
            .collect(),
    );
    let summary = match (native.is_empty(), other.is_empty()) {
        (true, _) => "Emulated on every GPU measured: no machine instruction does this on its own, so each builds it from several ordinary ones.".to_string(),
        (false, true) => format!("Native on every GPU measured ({}): a dedicated machine instruction does the work.", native.join(", ")),
        (false, false) => format!(
            "Native on {}: a dedicated machine instruction does the work. Emulated on {}: {} no such instruction and build{} it from several.",
            native.join(", "),
            other.join(", "),
            if other.len() == 1 { "it has" } else { "they have" },
            if other.len() == 1 { "s" } else { "" }
        ),
    };
    html! {
        <div class="fn-cost-body">
            <h3>{ "sm_90 machine code" }</h3>
            <ol class="sass-code fn-code" aria-label="sm_90 machine code">
                { for i.sass_sm90.iter().map(|l| html! { <li><code>{ *l }</code></li> }) }
            </ol>
            <h3>{ "Cost on each GPU" }</h3>
            <p class="fn-native-summary">{ summary }</p>
            <div class="fn-table-wrap">
                <CostTable rows={rows} label="Cost on each GPU" />
            </div>
            <p class="muted">{ "The same table as the view \"What each GPU runs\" of a PTX form. Counted between the loads of the arguments and the store of the result (nvcc -O3, one intrinsic a kernel); \"lane / video\" marks code with an instruction that works on bytes or halfwords (VABSDIFF4, VIADD.16x2, IDP.4A, VIMNMX3 ...). Open sm_90 for its whole machine code." }</p>
        </div>
    }
}
