//! The root of the page: the current [`Route`], the one `popstate` listener, and the one
//! header with the tabs of every view.
//!
//! Invariant: only [`Root`] listens to back and forward. It reads the route from the address
//! and, when the view on screen is the one the route names, hands it the address (the view
//! registered a receiver with [`use_arrivals`]); otherwise the view named is mounted afresh and
//! reads the address itself. Every view draws the same [`Header`].
//!
//! The views of the second wasm module (program, intrinsic, lessons, exercises) are drawn by
//! that module inside a [`ViewsHost`](super::host::ViewsHost), under a [`Nav`] of their own
//! whose route and arrivals come from here and whose `go` comes back here.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::address::{self, Write};
use super::host::ViewsHost;
use super::{lessons, share, App};
use crate::route::{Route, Side};

/// A view's receiver of back and forward: the route and the address.
pub(crate) type Receiver = Callback<(Route, String)>;

/// Where the view on screen registers its [`Receiver`], for the routes of one side.
pub(crate) type Slot = Rc<RefCell<Option<(Side, Receiver)>>>;

/// What the root shares with the views: the route on screen, a way to switch, and the slot
/// where the view on screen registers its receiver.
#[derive(Clone)]
pub struct Nav {
    pub route: Route,
    /// Switch to a view: to another side, its last address is pushed; between the instruction
    /// and program views only the route changes (the view writes its address).
    pub go: Callback<Route>,
    receiver: Slot,
}

impl Nav {
    /// The navigation of views drawn by the second module: the route the root gave, the root's
    /// `go`, and the slot the root's arrivals are handed to.
    pub(crate) fn hosted(route: Route, go: Callback<Route>, receiver: Slot) -> Nav {
        Nav {
            route,
            go,
            receiver,
        }
    }
}

/// Hand an arrival to the receiver in `slot`, if it is registered for the route's side.
pub(crate) fn hand_over(slot: &Slot, to: Route, q: String) {
    // Cloned out first: the receiver dispatches, which must not find it borrowed.
    let on = slot.borrow().clone();
    if let Some((side, on)) = on {
        if side == to.side() {
            on.emit((to, q));
        }
    }
}

impl PartialEq for Nav {
    fn eq(&self, other: &Nav) -> bool {
        self.route == other.route && Rc::ptr_eq(&self.receiver, &other.receiver)
    }
}

/// The root's [`Nav`].
#[hook]
pub fn use_nav() -> Nav {
    use_context::<Nav>().expect("every view is drawn inside Root")
}

/// Register the view's receiver of back and forward for the routes of `side`: it gets the
/// address when the route stays on that side.
#[hook]
pub fn use_arrivals(side: Side, on: Receiver) {
    use_arrivals_if(true, side, on)
}

/// [`use_arrivals`], registering only while `on_screen` (a hook is called on every render).
#[hook]
pub fn use_arrivals_if(on_screen: bool, side: Side, on: Receiver) {
    let slot = use_nav().receiver;
    if on_screen {
        *slot.borrow_mut() = Some((side, on));
    }
    use_effect_with((), move |_| {
        move || {
            let mut s = slot.borrow_mut();
            if s.as_ref().is_some_and(|(k, _)| *k == side) {
                *s = None;
            }
        }
    });
}

/// The page: the view the route names, inside the [`Nav`] context.
#[function_component]
pub fn Root() -> Html {
    let route = use_state_eq(|| Route::of(&address::current()));
    let receiver = use_mut_ref(|| None::<(Side, Receiver)>);
    // The last address of each side, to come back to it.
    let last = use_mut_ref(|| {
        [
            (Side::Ptx, String::from("?")),
            (Side::Intrinsic, String::from("?fn=__vcmpgtu4")),
            (Side::Reading, lessons::href("index")),
        ]
    });
    // Back and forward: the one listener of the page.
    {
        let route = route.clone();
        let receiver = receiver.clone();
        use_effect_with((), move |_| {
            #[cfg(target_arch = "wasm32")]
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "popstate", move |_| {
                    let q = address::current();
                    let to = Route::of(&q);
                    hand_over(&receiver, to.clone(), q);
                    route.set(to);
                })
            });
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (route, receiver);
            move || {
                #[cfg(target_arch = "wasm32")]
                drop(listener);
            }
        });
    }
    let go = {
        let route = route.clone();
        Callback::from(move |to: Route| {
            let from = (*route).clone();
            if from.side() == to.side() {
                route.set(to);
                return;
            }
            let here = address::current();
            let mut l = last.borrow_mut();
            let mut target = None;
            for (side, q) in l.iter_mut() {
                if *side == from.side() {
                    *q = here.clone();
                } else if *side == to.side() {
                    target = Some(q.clone());
                }
            }
            if let Some(t) = target {
                address::apply(Write::Push, &t);
                route.set(Route::of(&t));
            }
        })
    };
    let nav = Nav {
        route: (*route).clone(),
        go,
        receiver: receiver.clone(),
    };
    let view = match &*route {
        Route::Instruction | Route::Program => html! { <App /> },
        other => html! { <ViewsHost route={other.clone()} arrivals=true /> },
    };
    html! {
        <ContextProvider<Nav> context={nav}>{ view }</ContextProvider<Nav>>
    }
}

/// What a header shows besides the tabs: the view's link to copy, if it has one.
#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    #[prop_or_default]
    pub share: Option<String>,
}

/// The one header of the page: the title, the links between the instruction, intrinsic and
/// reading sides, the tabs of the instruction and program views, and the view's link to copy.
#[function_component]
pub fn Header(p: &HeaderProps) -> Html {
    let nav = use_nav();
    let side = nav.route.side();
    let tagline = match &nav.route {
        Route::Intrinsic => {
            "What a CUDA intrinsic computes, the PTX nvcc emits for it, and what it costs on each GPU."
        }
        Route::Exercise { .. } => "Exercise set: predict d for each case.",
        _ => "What PTX video and integer instructions compute, stage by stage.",
    };
    let link = |to: Route| {
        let go = nav.go.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            go.emit(to.clone())
        })
    };
    let current = |s: Side| (side == s).then_some("page");
    html! {
        <header class="top">
            <div class="title">
                <h1>{ "ptxlab" }</h1>
                <p class="tagline">{ tagline }</p>
            </div>
            <nav class="view-links" aria-label="Views">
                <a href="?" aria-current={current(Side::Ptx)}
                    onclick={link(Route::Instruction)}>{ "PTX instruction" }</a>
                <a href="?fn=__vcmpgtu4" aria-current={current(Side::Intrinsic)}
                    onclick={link(Route::Intrinsic)}>{ "CUDA intrinsic" }</a>
                <a class="lessons-link" href={lessons::href("index")}
                    aria-current={current(Side::Reading)}>
                    { "Lessons" }</a>
            </nav>
            if side == Side::Ptx {
                { tabs(&nav.route, &nav.go) }
            }
            if let Some(q) = &p.share {
                <share::CopyLink query={q.clone()} />
            }
        </header>
    }
}

/// The tabs of the instruction and program views.
fn tabs(route: &Route, go: &Callback<Route>) -> Html {
    let tab = |r: Route, label: &'static str, id: &'static str| {
        let go = go.clone();
        let on = *route == r;
        html! {
            <button type="button" role="tab" id={id} class={classes!("view-tab", on.then_some("on"))}
                aria-selected={on.to_string()} tabindex={if on { "0" } else { "-1" }}
                onclick={Callback::from(move |_| go.emit(r.clone()))}>{ label }</button>
        }
    };
    let onkeydown = {
        let go = go.clone();
        Callback::from(move |e: KeyboardEvent| {
            let r = match e.key().as_str() {
                "ArrowLeft" | "Home" => Route::Instruction,
                "ArrowRight" | "End" => Route::Program,
                _ => return,
            };
            e.prevent_default();
            let id = if r == Route::Program {
                "tab-program"
            } else {
                "tab-instruction"
            };
            go.emit(r);
            #[cfg(target_arch = "wasm32")]
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(id))
            {
                use wasm_bindgen::JsCast;
                if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = id;
        })
    };
    html! {
        <div class="view-tabs" role="tablist" aria-label="View" {onkeydown}>
            { tab(Route::Instruction, "One instruction", "tab-instruction") }
            { tab(Route::Program, "Program", "tab-program") }
        </div>
    }
}
