//! Lessons (`?lesson=NAME`, `?lesson=index` for the list): the markdown files of `crates/ptxlab-core/lessons/`,
//! read by `ptxlab_core::lesson` and compiled in, so they work offline. Each prepared case is a
//! live widget: an element `<div data-ptxlab="…" data-a="…">` that `www/embed.js` turns into
//! the embedded playground (`embed=1`), where the reader changes values, steps through the
//! stages and can press "Predict d".

use ptxlab_core::lesson::{self, Block, Case, Inline, Lesson};

use crate::fetched::{placeholder, use_data, Load, Which};
use yew::prelude::*;

use crate::exercise_model::ExerciseSet;
use crate::query;

/// The address of a lesson.
pub fn href(name: &str) -> String {
    format!("?lesson={}", query::encode(name))
}

fn inline(s: &str) -> Html {
    html! { <>{ for lesson::inline(s).into_iter().map(|i| match i {
        Inline::Text(t) => html! { { t } },
        Inline::Code(c) => html! { <code>{ c }</code> },
        Inline::Bold(b) => html! { <strong>{ b }</strong> },
        Inline::Link(t, u) => {
            let external = u.starts_with("http");
            html! { <a href={u} target={external.then_some("_blank")} rel={external.then_some("noopener")}>{ t }</a> }
        }
    }) }</> }
}

fn case(c: &Case, n: usize) -> Html {
    let d = c.d().map(|d| format!("{d:#x}")).unwrap_or_default();
    let v = |i: usize| c.values[i].map(|x| format!("{x:#x}"));
    html! {
        <figure class="lesson-case">
            <div class="lesson-widget" data-ptxlab={c.text.clone()} data-a={v(0)} data-b={v(1)} data-c={v(2)} data-e={v(3)}
                data-height="620" data-title={format!("Live figure {n}: {}", c.text)} data-d={d.clone()}>
                <p class="muted">{ "Loading the live figure…" }</p>
            </div>
            <figcaption><code>{ c.text.clone() }</code>{ format!(" gives d = {d}") }</figcaption>
        </figure>
    }
}

fn body(l: &Lesson) -> Html {
    let mut n = 0;
    html! { <>{ for l.blocks.iter().map(|b| match b {
        Block::Heading(h) => html! { <h3>{ inline(h) }</h3> },
        Block::Para(p) => html! { <p>{ inline(p) }</p> },
        Block::List(items) => html! { <ul>{ for items.iter().map(|i| html! { <li>{ inline(i) }</li> }) }</ul> },
        Block::Case(c) => { n += 1; case(c, n) }
    }) }</> }
}

/// For a teacher: one link for an exercise set of this lesson's cases, and one of cases drawn
/// within the lesson's forms.
fn exercise_links(l: &Lesson) -> Html {
    #[cfg(target_arch = "wasm32")]
    let seed = js_sys::Date::now() as u64;
    #[cfg(not(target_arch = "wasm32"))]
    let seed = 1;
    let own = ExerciseSet::of_lesson(l).link(None);
    let drawn = ExerciseSet::draw(l, 6, seed).link(None);
    html! {
        <section class="lesson-sets" aria-labelledby="sets-h">
            <h3 id="sets-h">{ "Exercise set" }</h3>
            <p>{ "Give your class one link: each student predicts d for every case in turn; their answers stay in their browser until they send you the link the summary gives them." }</p>
            <ul>
                <li><a class="set-own" href={own}>{ "An exercise set of this lesson's cases" }</a></li>
                <li><a class="set-drawn" href={drawn}>{ "Six cases drawn within this lesson's forms (new values each time)" }</a></li>
            </ul>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The lesson's name, or `index`.
    pub name: String,
}

/// The lessons index or one lesson, once the lessons (fetched when this view opens) are there.
#[function_component]
pub fn Lessons(p: &Props) -> Html {
    let load = use_data(Which::Lessons);
    if load == Load::Ready {
        html! { <LessonPage name={p.name.clone()} /> }
    } else {
        html! { <main class="lesson-page">{ placeholder(Which::Lessons, &load) }</main> }
    }
}

/// The lessons index or one lesson.
#[function_component]
fn LessonPage(p: &Props) -> Html {
    let found = lesson::find(&p.name);
    // The widgets mount after each render (embed.js replaces the placeholders by iframes).
    use_effect_with(p.name.clone(), |_| {
        #[cfg(target_arch = "wasm32")]
        if let Some(w) = web_sys::window() {
            use wasm_bindgen::JsCast;
            let f = js_sys::Reflect::get(&w, &"ptxlabEmbed".into())
                .and_then(|e| js_sys::Reflect::get(&e, &"mountAll".into()));
            if let Ok(f) = f.and_then(|f| f.dyn_into::<js_sys::Function>()) {
                let _ = f.call0(&w);
            }
        }
    });
    let all = lesson::all();
    let content = match &found {
        Some(l) => {
            let i = all.iter().position(|x| x.name == l.name).unwrap_or(0);
            html! {
                <article class="lesson" aria-labelledby="lesson-title">
                    <p class="lesson-crumbs"><a href={href("index")}>{ "All lessons" }</a>{ format!(" · lesson {} of {}", i + 1, all.len()) }</p>
                    <h2 id="lesson-title">{ l.title.clone() }</h2>
                    { body(l) }
                    { exercise_links(l) }
                    <nav class="lesson-nav" aria-label="Other lessons">
                        if let Some(prev) = i.checked_sub(1).and_then(|j| all.get(j)) {
                            <a href={href(prev.name)}>{ format!("← {}", prev.title) }</a>
                        }
                        if let Some(next) = all.get(i + 1) {
                            <a href={href(next.name)}>{ format!("{} →", next.title) }</a>
                        }
                    </nav>
                </article>
            }
        }
        None => html! {
            <article class="lesson lesson-index" aria-labelledby="lesson-title">
                <h2 id="lesson-title">{ "Lessons" }</h2>
                if p.name != "index" {
                    <p role="status">{ format!("There is no lesson named “{}”; here are all of them.", query::excerpt(&p.name, 40)) }</p>
                }
                <p>{ "Short lessons, each with live figures: change a value in a figure and watch the stages change, or press Predict d to test yourself." }</p>
                <ol class="lesson-list">
                    { for all.iter().map(|l| html! {
                        <li><a href={href(l.name)}>{ l.title.clone() }</a><p class="muted">{ inline(l.summary()) }</p></li>
                    }) }
                </ol>
            </article>
        },
    };
    html! {
        <>
        <super::root::Header />
        <main class="lesson-page">{ content }</main>
        </>
    }
}
