//! Exercise sets (`?set=`): the cases one at a time in predict mode, the answers kept in the
//! browser's storage only, and at the end a summary of the stages that explained wrong bits,
//! with a link carrying the answers that the student can send back (`&answers=`). Nothing goes
//! to a server.

use yew::prelude::*;

use crate::exercise_model::{read_answers, ExerciseSet};
use crate::num::{self, View};

/// The storage key of a set's answers.
fn key(set: &ExerciseSet) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in set.encode().bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    format!("ptxlab-set-{h:016x}")
}

#[cfg(target_arch = "wasm32")]
fn storage_call(method: &str, args: &[&str]) -> Option<String> {
    use wasm_bindgen::JsCast;
    let w = web_sys::window()?;
    let st = js_sys::Reflect::get(&w, &"localStorage".into()).ok()?;
    let f: js_sys::Function = js_sys::Reflect::get(&st, &method.into())
        .ok()?
        .dyn_into()
        .ok()?;
    let r = match args {
        [a] => f.call1(&st, &(*a).into()),
        [a, b] => f.call2(&st, &(*a).into(), &(*b).into()),
        _ => return None,
    }
    .ok()?;
    r.as_string()
}

fn load(set: &ExerciseSet) -> Vec<Option<u64>> {
    #[cfg(target_arch = "wasm32")]
    let saved = storage_call("getItem", &[&key(set)]).unwrap_or_default();
    #[cfg(not(target_arch = "wasm32"))]
    let saved = String::new();
    read_answers(&saved, set.cases.len())
}

fn save(set: &ExerciseSet, answers: &[Option<u64>]) {
    let text: Vec<String> = answers
        .iter()
        .map(|x| x.map_or(String::new(), |v| format!("{v:x}")))
        .collect();
    #[cfg(target_arch = "wasm32")]
    let _ = storage_call("setItem", &[&key(set), &text.join(",")]);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (key(set), text);
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub set: String,
    pub answers: Option<String>,
}

fn summary(set: &ExerciseSet, answers: &[Option<u64>], sent: bool) -> Html {
    let s = set.summary(answers);
    let link = set.link(Some(answers));
    let verdicts = set.verdicts(answers);
    html! {
        <section class="set-summary" aria-labelledby="set-summary-h">
            <h2 id="set-summary-h">{ if sent { "Answers sent back" } else { "Summary" } }</h2>
            <p class="set-score">{ format!("{} of {} correct ({} answered).", s.correct, s.total, s.answered) }</p>
            if s.stages.is_empty() {
                <p>{ "No stage explained a wrong bit." }</p>
            } else {
                <table class="set-stages">
                    <caption>{ "Stages that explained wrong bits" }</caption>
                    <thead><tr><th scope="col">{ "stage" }</th><th scope="col">{ "cases" }</th><th scope="col">{ "wrong bits" }</th></tr></thead>
                    <tbody>
                        { for s.stages.iter().map(|(k, (c, b))| html! {
                            <tr><th scope="row">{ k.clone() }</th><td>{ c }</td><td>{ b }</td></tr>
                        }) }
                    </tbody>
                </table>
            }
            <ol class="set-cases">
                { for set.cases.iter().zip(verdicts).map(|(c, v)| html! {
                    <li><code>{ c.text.clone() }</code>{ " " }
                        { match v { None => "not answered".to_string(), Some(v) => v.message } }
                    </li>
                }) }
            </ol>
            if !sent {
                <p>{ "Send this link back to your teacher. It carries your answers; nothing was sent anywhere." }</p>
                <p><a class="set-return" href={link.clone()}>{ "Link with your answers" }</a></p>
                <input type="text" readonly=true aria-label="Link with your answers" value={link} />
            }
        </section>
    }
}

/// The exercise-set page.
#[function_component]
pub fn Exercise(p: &Props) -> Html {
    let parsed = use_memo(p.set.clone(), |s| ExerciseSet::decode(s));
    let answers = {
        let parsed = parsed.clone();
        use_state(move || match &*parsed {
            Ok(set) => load(set),
            Err(_) => Vec::new(),
        })
    };
    let index = use_state(|| 0usize);
    let guess = use_state(String::new);
    let checked = use_state(|| false);
    let header = html! { <super::root::Header /> };
    let set = match &*parsed {
        Ok(s) => s.clone(),
        Err(e) => {
            return html! { <>{ header }<main class="lesson-page"><p role="status">{ format!("This exercise set cannot be read: {e}.") }</p></main></> };
        }
    };
    if let Some(a) = &p.answers {
        let a = read_answers(a, set.cases.len());
        return html! { <>{ header }<main class="lesson-page">{ summary(&set, &a, true) }</main></> };
    }
    let n = set.cases.len();
    let i = *index;
    if i >= n {
        return html! { <>{ header }<main class="lesson-page">{ summary(&set, &answers, false) }</main></> };
    }
    let case = &set.cases[i];
    let trace = case.trace();
    let widths = ptxlab_core::insn::check(&case.text)
        .map(|x| x.widths())
        .ok();
    let sources = widths.as_ref().map_or(0, |w| w.sources.min(4));
    let src_width = |k: usize| {
        widths
            .as_ref()
            .and_then(|w| w.src.get(k).copied())
            .unwrap_or(32)
    };
    let width = trace.as_ref().map_or(32, |t| t.result.bits);
    let verdict = match (*checked, &trace, answers.get(i).copied().flatten()) {
        (true, Some(t), Some(a)) => Some(ptxlab_core::predict::check(t, a as u128)),
        _ => None,
    };
    let bad = (*checked && verdict.is_none()).then_some("Type d in hex, for example 0x1ff.");
    let oninput = {
        let guess = guess.clone();
        let checked = checked.clone();
        Callback::from(move |e: InputEvent| {
            let el: web_sys::HtmlInputElement = e.target_unchecked_into();
            guess.set(el.value());
            checked.set(false);
        })
    };
    let on_check = {
        let (guess, answers, checked, set) =
            (guess.clone(), answers.clone(), checked.clone(), set.clone());
        Callback::from(move |_: MouseEvent| {
            let mut a = (*answers).clone();
            if let Some(slot) = a.get_mut(i) {
                *slot = num::parse(guess.trim(), 64, View::Hex).ok();
            }
            save(&set, &a);
            answers.set(a);
            checked.set(true);
        })
    };
    let on_next = {
        let (index, guess, checked) = (index.clone(), guess.clone(), checked.clone());
        Callback::from(move |_: MouseEvent| {
            index.set(i + 1);
            guess.set(String::new());
            checked.set(false);
        })
    };
    let names = ["a", "b", "c", "e"];
    html! {
        <>
        { header }
        <main class="lesson-page exercise">
            <h2>{ format!("Case {} of {n}", i + 1) }</h2>
            <p><code class="set-insn">{ case.text.clone() }</code></p>
            <ul class="set-operands">
                { for (0..sources).map(|k| html! { <li><span class="reg">{ names[k] }</span>{ format!(" = {}", num::format(case.values[k], src_width(k), View::Hex)) }</li> }) }
            </ul>
            <label class="predict-guess">
                <span>{ format!("Your d ({width} bits)") }</span>
                <input type="text" aria-label="Your d (hex)" spellcheck="false" autocomplete="off" placeholder="0x…"
                    value={(*guess).clone()} {oninput} />
            </label>
            <div class="edges predict-actions">
                <button type="button" class="edge" onclick={on_check} disabled={guess.trim().is_empty()}>{ "Check" }</button>
                <button type="button" class="edge" onclick={on_next} disabled={!*checked}>
                    { if i + 1 == n { "Finish" } else { "Next case" } }
                </button>
            </div>
            <p role="status" class="predict-status">
                { verdict.map(|v| v.message).or(bad.map(str::to_string)).unwrap_or_default() }
            </p>
        </main>
        </>
    }
}
