//! The second module's side of the split: [`mount`] draws the Program, intrinsic, lesson or
//! exercise view into an element the first module's [`ViewsHost`](super::host::ViewsHost)
//! gives, under a [`Nav`] whose route and arrivals come from the first module's root and whose
//! `go` goes back to it.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::root::{hand_over, Nav, Slot};
use super::{exercise, intrinsic, lessons, program};
use crate::route::Route;

#[derive(Properties)]
pub struct HostedProps {
    route: Route,
    go: Callback<Route>,
    receiver: Slot,
}

impl PartialEq for HostedProps {
    fn eq(&self, other: &Self) -> bool {
        self.route == other.route && Rc::ptr_eq(&self.receiver, &other.receiver)
    }
}

/// The view the route names, inside its [`Nav`].
#[function_component]
fn Hosted(p: &HostedProps) -> Html {
    let nav = Nav::hosted(p.route.clone(), p.go.clone(), p.receiver.clone());
    let view = match &p.route {
        Route::Program => html! { <program::ProgramPage /> },
        Route::Intrinsic => html! { <intrinsic::IntrinsicGate /> },
        Route::Lesson(name) => html! { <lessons::Lessons name={name.clone()} /> },
        Route::Exercise { set, answers } => {
            html! { <exercise::Exercise set={set.clone()} answers={answers.clone()} /> }
        }
        // The first module draws the instruction view itself.
        Route::Instruction => html! {},
    };
    html! {
        <ContextProvider<Nav> context={nav}>{ view }</ContextProvider<Nav>>
    }
}

/// A mounted view: change its route, hand it back and forward, take it down.
pub struct HostedApp {
    app: yew::AppHandle<Hosted>,
    go: Callback<Route>,
    receiver: Slot,
}

/// Draw `route`'s view into `el`; `go` switches views in the first module's root.
pub fn mount(el: web_sys::Element, route: Route, go: Callback<Route>) -> HostedApp {
    let receiver: Slot = Rc::new(RefCell::new(None));
    let props = HostedProps {
        route,
        go: go.clone(),
        receiver: receiver.clone(),
    };
    HostedApp {
        app: yew::Renderer::<Hosted>::with_root_and_props(el, props).render(),
        go,
        receiver,
    }
}

impl HostedApp {
    /// Draw another route's view (the root's route changed).
    pub fn set_route(&mut self, route: Route) {
        self.app.update(HostedProps {
            route,
            go: self.go.clone(),
            receiver: self.receiver.clone(),
        });
    }

    /// Back or forward landed on `q`, whose route is `to`.
    pub fn arrive(&self, to: Route, q: String) {
        hand_over(&self.receiver, to, q);
    }

    /// Take the view down.
    pub fn destroy(self) {
        self.app.destroy();
    }
}
