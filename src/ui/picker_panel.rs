//! The pickers: drop-down lists and check boxes built from [`crate::choices::groups`]. Choices the
//! checker refuses are greyed out, and the reasons are listed under the panel.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::choices::{Control, Group, Row};
use crate::model::Action;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub groups: Rc<Vec<Group>>,
    pub stale: bool,
    pub dispatch: Callback<Action>,
}

#[function_component]
pub fn Pickers(props: &Props) -> Html {
    let rows = [
        (Row::Opcode, "Family and opcode"),
        (Row::Modifiers, "Types and modifiers"),
        (Row::Selectors, "Parts, lanes and mask"),
    ];
    let off: Vec<(String, String, String)> = props
        .groups
        .iter()
        .flat_map(|g| {
            g.choices.iter().filter_map(move |c| {
                c.error
                    .as_ref()
                    .map(|e| (g.label.clone(), c.label.clone(), e.clone()))
            })
        })
        .collect();
    html! {
        <div class={classes!("pickers", props.stale.then_some("stale"))}>
            { for rows.iter().map(|(row, title)| {
                let items: Vec<&Group> = props.groups.iter().filter(|g| g.row == *row).collect();
                if items.is_empty() {
                    return html! {};
                }
                html! {
                    <fieldset class="pick-row">
                        <legend>{ *title }</legend>
                        { for items.into_iter().map(|g| html! {
                            <GroupControl key={g.key.clone()} group={g.clone()} dispatch={props.dispatch.clone()} />
                        }) }
                    </fieldset>
                }
            }) }
            if !off.is_empty() {
                <details class="why-off">
                    <summary>{ if off.len() == 1 {
                        "Why 1 choice is greyed out".to_string()
                    } else {
                        format!("Why {} choices are greyed out", off.len())
                    } }</summary>
                    <ul>
                        { for off.iter().map(|(g, c, e)| html! {
                            <li><strong>{ format!("{g}: {c}") }</strong>{ " — " }{ e }</li>
                        }) }
                    </ul>
                </details>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct GroupProps {
    group: Group,
    dispatch: Callback<Action>,
}

#[function_component]
fn GroupControl(props: &GroupProps) -> Html {
    let g = &props.group;
    let id = format!("pick-{}", g.key);
    let select_ref = use_node_ref();
    let selected = g.choices.iter().position(|c| c.selected);
    {
        // Keep a drop-down list showing the current choice after every render (its options may
        // have changed while the selected position stayed the same).
        let select_ref = select_ref.clone();
        use_effect(move || {
            if let Some(el) = select_ref.cast::<HtmlSelectElement>() {
                el.set_selected_index(selected.map_or(-1, |i| i as i32));
            }
        });
    }
    match g.control {
        Control::Select => {
            let onchange = {
                let dispatch = props.dispatch.clone();
                let texts: Vec<String> = g.choices.iter().map(|c| c.text.clone()).collect();
                Callback::from(move |e: Event| {
                    let el: HtmlSelectElement = e.target_unchecked_into();
                    let i = el.selected_index();
                    if let Some(t) = usize::try_from(i).ok().and_then(|i| texts.get(i)) {
                        dispatch.emit(Action::SetText(t.clone()));
                    }
                })
            };
            html! {
                <div class="pick">
                    <label for={id.clone()}>{ g.label.clone() }</label>
                    <select id={id} ref={select_ref} {onchange} data-key={g.key.clone()}>
                        { for g.choices.iter().map(|c| {
                            let text = if c.error.is_some() { format!("{} ✕", c.label) } else { c.label.clone() };
                            html! {
                                <option selected={c.selected} disabled={c.error.is_some()}
                                    title={c.error.clone()}>{ text }</option>
                            }
                        }) }
                    </select>
                </div>
            }
        }
        Control::Toggle => {
            let on = g.selected().is_some_and(|c| c.label == "on");
            let other = g.choices.iter().find(|c| !c.selected).cloned();
            let disabled = other.as_ref().is_none_or(|c| c.error.is_some());
            let hint = other.as_ref().and_then(|c| c.error.clone());
            let onchange = {
                let dispatch = props.dispatch.clone();
                let text = other.map(|c| c.text);
                Callback::from(move |e: Event| {
                    let el: HtmlInputElement = e.target_unchecked_into();
                    let _ = el.checked();
                    if let Some(t) = &text {
                        dispatch.emit(Action::SetText(t.clone()));
                    }
                })
            };
            html! {
                <div class={classes!("pick", "toggle", disabled.then_some("off"))} title={hint}>
                    <input type="checkbox" id={id.clone()} checked={on} {disabled} {onchange} data-key={g.key.clone()} />
                    <label for={id}>{ g.label.clone() }</label>
                </div>
            }
        }
    }
}
