//! The embedded widget's side of the iframe contract: whenever the widget's height changes, it
//! tells the page around it with `postMessage({type: "ptxlab:height", height})`, so that
//! `www/embed.js` can size the iframe to fit. The height is all the message carries.

/// The `type` field of the height message.
pub const HEIGHT_MESSAGE: &str = "ptxlab:height";

/// Report the widget's height to the page around it ([`report_height`]) while `on`: what every
/// view that has an embedded form (`embed=1`) calls.
#[yew::hook]
pub fn use_report_height(on: bool) {
    yew::use_effect_with(on, |&on| {
        #[cfg(target_arch = "wasm32")]
        let guard = if on { report_height() } else { None };
        #[cfg(not(target_arch = "wasm32"))]
        let _ = on;
        move || {
            #[cfg(target_arch = "wasm32")]
            drop(guard);
        }
    });
}

/// Watches `#app` and posts its height to the parent page, if there is one. The returned
/// guard stops watching when dropped.
#[cfg(target_arch = "wasm32")]
pub fn report_height() -> Option<impl Drop> {
    use std::cell::Cell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;

    let window = web_sys::window()?;
    let parent = window.parent().ok().flatten()?;
    if js_sys::Object::is(&parent, &window) {
        return None;
    }
    let root = window.document()?.get_element_by_id("app")?;
    let last = Rc::new(Cell::new(-1.0f64));
    let post = {
        let root = root.clone();
        move || {
            let r = root.get_bounding_client_rect();
            let scroll = web_sys::window()
                .and_then(|w| w.scroll_y().ok())
                .unwrap_or(0.0);
            let h = (r.bottom() + scroll).ceil().max(0.0);
            if h != last.get() {
                last.set(h);
                let msg = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&msg, &"type".into(), &HEIGHT_MESSAGE.into());
                let _ = js_sys::Reflect::set(&msg, &"height".into(), &h.into());
                let _ = parent.post_message(&msg, "*");
            }
        }
    };
    post();
    let callback = Closure::<dyn FnMut()>::new(post);
    let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    observer.observe(&root);

    struct Guard(
        web_sys::ResizeObserver,
        #[allow(dead_code)] Closure<dyn FnMut()>,
    );
    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.disconnect();
        }
    }
    Some(Guard(observer, callback))
}
