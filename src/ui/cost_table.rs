//! The table of what each GPU runs, one row per architecture: the count of instructions that
//! compute, native or emulated, the instructions, the cheapest and dearest architectures
//! marked; a row with machine code opens it. "What each GPU runs" (from the lowering atlas) and
//! the Intrinsic view's "Cost on each GPU" (from the intrinsic data) both draw this one table.

use std::rc::Rc;

use yew::prelude::*;

/// One architecture's row.
#[derive(Clone, Debug, PartialEq)]
pub struct CostRow {
    /// `sm_90`.
    pub arch: String,
    /// Whether the compiler gives code for it (false: `message` says why).
    pub available: bool,
    /// The instructions that compute, mnemonics with modifiers.
    pub core: Vec<String>,
    /// `native`, `native with glue` or `emulated` (`refused` where not available).
    pub kind: &'static str,
    /// Whether the kind counts as native (one dedicated instruction does the work).
    pub native: bool,
    /// The whole machine code, one line each, for the row to open (empty: the row does not open).
    pub code: Vec<String>,
    /// Whether a line of `code` is one of the computing instructions.
    pub core_lines: Vec<bool>,
    /// The compiler's message where it refuses.
    pub message: Option<String>,
    /// A further word about the row, shown beside the kind (`lane / video`).
    pub tag: Option<&'static str>,
}

/// The GPU generation each architecture names.
pub fn generation(arch: &str) -> &'static str {
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

/// The rows with the fewest and the most computing instructions among those available; both
/// empty when every count is the same (the core's rule, `atlas::extremes`).
fn extremes(rows: &[CostRow]) -> (Vec<usize>, Vec<usize>) {
    let counts: Vec<Option<usize>> = rows
        .iter()
        .map(|r| r.available.then_some(r.core.len()))
        .collect();
    ptxlab_core::atlas::extremes(&counts)
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub rows: Rc<Vec<CostRow>>,
    /// The table's accessible name.
    pub label: AttrValue,
}

#[function_component]
pub fn CostTable(props: &Props) -> Html {
    let open = use_state(|| None::<usize>);
    let (cheap, dear) = extremes(&props.rows);
    html! {
        <table class="atlas-table" aria-label={props.label.clone()}>
            <thead><tr>
                <th scope="col">{ "GPU" }</th>
                <th scope="col">{ "count" }</th>
                <th scope="col">{ "kind" }</th>
                <th scope="col">{ "instructions that compute" }</th>
            </tr></thead>
            <tbody>
            { for props.rows.iter().enumerate().map(|(k, c)| {
                let is_open = *open == Some(k);
                let opens = !c.code.is_empty() || c.message.is_some();
                let toggle = {
                    let open = open.clone();
                    Callback::from(move |_: MouseEvent| if opens { open.set(if is_open { None } else { Some(k) }) })
                };
                let mark = if cheap.contains(&k) { Some("cheapest") } else if dear.contains(&k) { Some("dearest") } else { None };
                let kind_class = match c.kind { "native with glue" => "native glue", k => k };
                html! {
                    <>
                    <tr class={classes!("atlas-row", kind_class.split(' ').map(str::to_string).collect::<Vec<_>>(), mark)} data-arch={c.arch.clone()} onclick={toggle.clone()}>
                        <th scope="row">
                            if opens {
                                <button type="button" class="atlas-arch" aria-expanded={is_open.to_string()}
                                    onclick={Callback::from(move |e: MouseEvent| { e.stop_propagation(); toggle.emit(e) })}>
                                    { c.arch.clone() }
                                </button>
                            } else {
                                <span class="atlas-arch-plain">{ c.arch.clone() }</span>
                            }
                            <span class="muted small-note">{ format!(" {}", generation(&c.arch)) }</span>
                        </th>
                        <td class="atlas-count">{ if c.available { c.core.len().to_string() } else { "–".into() } }</td>
                        <td class="atlas-kind">
                            <span class={classes!("badge", "atlas-kind-word", if c.native { "info" } else { "dim" })}>{ c.kind }</span>
                            if let Some(t) = c.tag {
                                { " " }<span class="badge atlas-tag">{ t }</span>
                            }
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
                                    { for c.code.iter().enumerate().map(|(n, l)| {
                                        let is_core = c.core_lines.get(n).copied().unwrap_or(false);
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
    }
}
