//! The first module's side of the split: [`ViewsHost`] fetches the second wasm module
//! (`views/ptxlab-views.js`, the Program, intrinsic, lesson and exercise views) the first time
//! one of those views opens, mounts it into an element of its own, and passes it the route, the
//! arrivals of back and forward, and a way back to the root's `go`.
//!
//! Invariants: at most one mounted view module at a time ([`CURRENT`]); the host's element has
//! no children of this module's rendering, so the two renderers never touch the same nodes; a
//! host that goes away before the module arrives mounts nothing.

use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

use super::root::{use_arrivals_if, use_nav, Header};
use crate::route::Route;

/// The view module's address, relative to the page.
#[cfg(target_arch = "wasm32")]
const MODULE: &str = "views/ptxlab-views.js";

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;

    // The module is imported once; its wasm is instantiated by its default export. A relative
    // address is read against the page's, not this snippet's.
    #[wasm_bindgen(inline_js = r#"
let views = null;
export function load_views(path) {
  if (!views) {
    const url = new URL(path, document.baseURI).href;
    views = import(url).then(async (m) => { await m.default(); return m; });
    views.catch(() => { views = null; });
  }
  return views;
}
export function mount_views(m, el, tag, go) { return m.mount(el, tag, go); }
export function views_route(v, tag) { v.route(tag); }
export function views_arrive(v, tag, q) { v.arrive(tag, q); }
export function views_destroy(v) { v.destroy(); }
"#)]
    extern "C" {
        pub fn load_views(path: &str) -> js_sys::Promise;
        pub fn mount_views(
            m: &JsValue,
            el: &web_sys::Element,
            tag: &str,
            go: &js_sys::Function,
        ) -> JsValue;
        pub fn views_route(v: &JsValue, tag: &str);
        pub fn views_arrive(v: &JsValue, tag: &str, q: &str);
        pub fn views_destroy(v: &JsValue);
    }
}

thread_local! {
    /// The mounted view module's handle (a `Views` object of `src/views.rs`), if one is.
    #[cfg(target_arch = "wasm32")]
    static CURRENT: std::cell::RefCell<Option<wasm_bindgen::JsValue>> =
        const { std::cell::RefCell::new(None) };
}

/// Hand back or forward to the mounted view module, if there is one (otherwise the module reads
/// the address itself when it mounts).
pub fn arrive(to: &Route, q: &str) {
    #[cfg(target_arch = "wasm32")]
    CURRENT.with(|c| {
        if let Some(v) = c.borrow().as_ref() {
            js::views_arrive(v, &to.tag(), q);
        }
    });
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (to, q);
}

#[derive(Properties, PartialEq)]
pub struct HostProps {
    /// The route to draw: program, intrinsic, lesson or exercise.
    pub route: Route,
    /// Whether the host registers the arrivals of its route's side (the instruction view keeps
    /// those of the program tab, since it stays mounted beside it).
    pub arrivals: bool,
}

/// The element the view module draws into, and the fetch and mount of the module.
#[function_component]
pub fn ViewsHost(p: &HostProps) -> Html {
    let nav = use_nav();
    let node = use_node_ref();
    let failed = use_state(|| None::<String>);
    let loading = use_state(|| true);
    // The latest route and `go`, read when the module arrives and when it navigates.
    let route = use_mut_ref(|| p.route.clone());
    *route.borrow_mut() = p.route.clone();
    let go = use_mut_ref(|| nav.go.clone());
    *go.borrow_mut() = nav.go.clone();
    use_arrivals_if(
        p.arrivals,
        p.route.side(),
        Callback::from(|(to, q): (Route, String)| arrive(&to, &q)),
    );
    {
        let node = node.clone();
        let failed = failed.clone();
        let loading = loading.clone();
        let route = route.clone();
        use_effect_with((), move |_| {
            let gone = Rc::new(Cell::new(false));
            #[cfg(target_arch = "wasm32")]
            {
                use wasm_bindgen::prelude::*;
                let gone = gone.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let m = wasm_bindgen_futures::JsFuture::from(js::load_views(MODULE)).await;
                    if gone.get() {
                        return;
                    }
                    loading.set(false);
                    let (m, el) = match (m, node.cast::<web_sys::Element>()) {
                        (Ok(m), Some(el)) => (m, el),
                        (Err(e), _) => {
                            let why = e
                                .dyn_ref::<js_sys::Error>()
                                .map(|e| String::from(e.message()))
                                .unwrap_or_else(|| "the download failed".into());
                            failed.set(Some(format!(
                                "This view's code (views/ptxlab-views.js) could not be loaded: {why}. Reload the page to try again."
                            )));
                            return;
                        }
                        (Ok(_), None) => return,
                    };
                    let to_root = Closure::<dyn Fn(String)>::new(move |tag: String| {
                        let go = go.borrow().clone();
                        go.emit(Route::from_tag(&tag))
                    });
                    let tag = route.borrow().tag();
                    let v = js::mount_views(&m, &el, &tag, to_root.as_ref().unchecked_ref());
                    // The view module holds the function as long as it is mounted; it is
                    // never freed after that, a few bytes per visit to these views.
                    to_root.forget();
                    CURRENT.with(|c| *c.borrow_mut() = Some(v));
                });
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (node, failed, loading, route, go);
            move || {
                gone.set(true);
                #[cfg(target_arch = "wasm32")]
                if let Some(v) = CURRENT.with(|c| c.borrow_mut().take()) {
                    js::views_destroy(&v);
                }
            }
        });
    }
    // A new route on the same host: the mounted module draws it.
    use_effect_with(p.route.clone(), |r| {
        #[cfg(target_arch = "wasm32")]
        CURRENT.with(|c| {
            if let Some(v) = c.borrow().as_ref() {
                js::views_route(v, &r.tag());
            }
        });
        #[cfg(not(target_arch = "wasm32"))]
        let _ = r;
    });
    html! {
        <>
        if *loading {
            <p class="views-loading muted" role="status">{ "Loading this view…" }</p>
        }
        if let Some(why) = &*failed {
            // The views' own header did not come: this one still leads to the other views.
            <Header />
            <p class="views-failed" role="alert">{ why.clone() }</p>
        }
        <div class="views-host" ref={node}></div>
        </>
    }
}
