//! The playground's second wasm module: the Program, intrinsic, lesson and exercise views,
//! fetched by the first module when one of them opens (`ptxlab_web::ui::host`), so that the
//! first result does not wait for their code. `scripts/build-api.sh` builds it into
//! `dist/views/ptxlab-views.js`.

fn main() {}

#[cfg(target_arch = "wasm32")]
mod js {
    use ptxlab_web::{hosted, Route};
    use wasm_bindgen::prelude::*;
    use yew::Callback;

    /// A mounted view, as the first module holds it.
    #[wasm_bindgen]
    pub struct Views {
        app: Option<hosted::HostedApp>,
    }

    /// Draw the view `tag` names (`Route::tag`) into `el`; `go(tag)` switches views in the
    /// first module's root.
    #[wasm_bindgen]
    pub fn mount(el: web_sys::Element, tag: &str, go: js_sys::Function) -> Views {
        console_error_panic_hook::set_once();
        let go = Callback::from(move |r: Route| {
            let _ = go.call1(&JsValue::NULL, &JsValue::from_str(&r.tag()));
        });
        Views {
            app: Some(hosted::mount(el, Route::from_tag(tag), go)),
        }
    }

    #[wasm_bindgen]
    impl Views {
        /// The root's route changed to `tag`.
        pub fn route(&mut self, tag: &str) {
            if let Some(a) = self.app.as_mut() {
                a.set_route(Route::from_tag(tag));
            }
        }

        /// Back or forward landed on the address `q`, whose route is `tag`.
        pub fn arrive(&self, tag: &str, q: &str) {
            if let Some(a) = self.app.as_ref() {
                a.arrive(Route::from_tag(tag), q.to_string());
            }
        }

        /// Take the view down.
        pub fn destroy(&mut self) {
            if let Some(a) = self.app.take() {
                a.destroy();
            }
        }
    }
}
