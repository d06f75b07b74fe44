//! The figure's ties to the browser: which bit the pointer is on, saving the figure as an SVG
//! file, copying it as an image, and the reduced-motion preference.

use yew::prelude::*;

use super::Point;

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(inline_js = r#"
export function save_text(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
export function can_copy_image() {
  return !!(navigator.clipboard && navigator.clipboard.write && window.ClipboardItem);
}
export function copy_svg_as_png(text, width, height) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      const scale = 2;
      const c = document.createElement('canvas');
      c.width = Math.ceil(width * scale);
      c.height = Math.ceil(height * scale);
      const g = c.getContext('2d');
      g.scale(scale, scale);
      g.drawImage(img, 0, 0, width, height);
      c.toBlob((png) => {
        if (!png) { reject(new Error('no image')); return; }
        navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]).then(resolve, reject);
      }, 'image/png');
    };
    img.onerror = () => reject(new Error('the figure could not be drawn'));
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
  });
}
export function enter_fullscreen() {
  const el = document.documentElement;
  if (el.requestFullscreen && !document.fullscreenElement) {
    el.requestFullscreen().catch(() => {});
  }
}
export function exit_fullscreen() {
  if (document.fullscreenElement && document.exitFullscreen) {
    document.exitFullscreen().catch(() => {});
  }
}
export function is_fullscreen() {
  return !!document.fullscreenElement;
}
export function reduced_motion() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}
"#)]
    extern "C" {
        pub fn save_text(name: &str, text: &str, mime: &str);
        pub fn can_copy_image() -> bool;
        pub fn copy_svg_as_png(text: &str, width: f64, height: f64) -> js_sys::Promise;
        pub fn reduced_motion() -> bool;
        pub fn enter_fullscreen();
        pub fn exit_fullscreen();
        pub fn is_fullscreen() -> bool;
    }
}

/// The stage and bit under the pointer, read from the cell's `data-stage` and `data-bit`.
pub fn point_of(e: &MouseEvent) -> Point {
    #[cfg(target_arch = "wasm32")]
    {
        let Some(el) = e.target_dyn_into::<web_sys::Element>() else {
            return Point::default();
        };
        let num = |el: &web_sys::Element, a: &str| el.get_attribute(a).and_then(|v| v.parse().ok());
        let bit = num(&el, "data-bit");
        let stage = el
            .closest("[data-stage]")
            .ok()
            .flatten()
            .and_then(|g| num(&g, "data-stage"))
            .map(|s: u32| s as usize);
        Point { stage, bit }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = e;
        Point::default()
    }
}

/// The figure as a standalone SVG document.
#[cfg(target_arch = "wasm32")]
fn svg_text(node: &NodeRef) -> Option<(String, f64, f64)> {
    let el = node.cast::<web_sys::Element>()?;
    let w = number(&el, "width")?;
    let h = number(&el, "height")?;
    // Pointer marks are a moment of the page, not part of the picture.
    let text = el
        .outer_html()
        .replace(" data-lit=\"\"", "")
        .replace(" data-pointed=\"\"", "");
    Some((
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{text}\n"),
        w,
        h,
    ))
}

/// A number attribute of the figure, read by the browser: `str::parse::<f64>` would bring its
/// tables into the wasm (ptxlab_core reads decimal literals without them).
#[cfg(target_arch = "wasm32")]
fn number(el: &web_sys::Element, name: &str) -> Option<f64> {
    let v = js_sys::Number::parse_float(&el.get_attribute(name)?);
    (!v.is_nan()).then_some(v)
}

/// Saves the figure as `ptxlab-<opcode>.svg`.
pub fn download(node: &NodeRef, opcode: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some((text, _, _)) = svg_text(node) {
        js::save_text(&format!("ptxlab-{opcode}.svg"), &text, "image/svg+xml");
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (node, opcode);
}

pub fn can_copy_image() -> bool {
    #[cfg(target_arch = "wasm32")]
    return js::can_copy_image();
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// Copies the figure to the clipboard as a PNG, saying on the button how it went.
pub fn copy_image(node: &NodeRef, said: UseStateHandle<Option<&'static str>>) {
    #[cfg(target_arch = "wasm32")]
    if let Some((text, w, h)) = svg_text(node) {
        let promise = js::copy_svg_as_png(&text, w, h);
        wasm_bindgen_futures::spawn_local(async move {
            let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
            said.set(Some(if ok { "Image copied" } else { "Copy failed" }));
            let said = said.clone();
            gloo_timers::callback::Timeout::new(2500, move || said.set(None)).forget();
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (node, said);
}

pub fn reduced_motion() -> bool {
    #[cfg(target_arch = "wasm32")]
    return js::reduced_motion();
    #[cfg(not(target_arch = "wasm32"))]
    false
}

thread_local! {
    /// The width the last figure measured, so that the next one starts there.
    static LAST_WIDTH: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// The width to lay a new figure out for before it is measured: the last one measured, or
/// a guess from the window's width.
pub fn last_width() -> f64 {
    let w = LAST_WIDTH.with(std::cell::Cell::get);
    if w > 0.0 {
        return w;
    }
    #[cfg(target_arch = "wasm32")]
    {
        let inner = web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(1000.0);
        (inner - 40.0).clamp(super::layout::MIN_WIDTH, 1400.0)
    }
    #[cfg(not(target_arch = "wasm32"))]
    900.0
}

/// Calls `set` with the inner width of the figure's box whenever it changes; the guard
/// stops watching.
pub fn watch_width(node: &NodeRef, set: impl Fn(f64) + 'static) -> Option<impl Drop> {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::prelude::*;
        use wasm_bindgen::JsCast;
        let el = node.cast::<web_sys::HtmlElement>()?;
        let read = {
            let el = el.clone();
            move || {
                // The inner width, unrounded (clientWidth rounds, and a figure a fraction of
                // a pixel too wide would be scaled below its text size).
                let frame = f64::from(el.offset_width() - el.client_width());
                let w = el.get_bounding_client_rect().width() - frame;
                if w > 0.0 {
                    LAST_WIDTH.with(|c| c.set(w));
                    set(w);
                }
            }
        };
        read();
        let callback = Closure::<dyn FnMut()>::new(read);
        let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        observer.observe(&el);
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
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (node, set);
        None::<NoGuard>
    }
}

/// A guard that holds nothing (native builds).
#[cfg(not(target_arch = "wasm32"))]
pub struct NoGuard;
#[cfg(not(target_arch = "wasm32"))]
impl Drop for NoGuard {
    fn drop(&mut self) {}
}

/// Sends the window's key presses to `on_key` until the guard is dropped (present mode).
pub fn window_keys(on_key: Callback<KeyboardEvent>) -> Option<impl Drop> {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let w = web_sys::window()?;
        let opts = gloo_events::EventListenerOptions::enable_prevent_default();
        Some(gloo_events::EventListener::new_with_options(
            &w,
            "keydown",
            opts,
            move |e| {
                if let Some(e) = e.dyn_ref::<KeyboardEvent>() {
                    // Keys typed into a field or pressed on a button are theirs.
                    let own = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|el| {
                            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                                || (el.tag_name() == "BUTTON"
                                    && matches!(e.key().as_str(), " " | "Enter"))
                        });
                    if !own {
                        on_key.emit(e.clone());
                    }
                }
            },
        ))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = on_key;
        None::<NoGuard>
    }
}

/// Scrolls the figure's box so that stage `i` is in view (where the figure scrolls: the
/// embed, present mode).
pub fn show_stage(node: &NodeRef, i: usize) {
    #[cfg(target_arch = "wasm32")]
    if let Some(el) = node.cast::<web_sys::Element>() {
        if el.scroll_height() <= el.client_height() {
            return;
        }
        if let Ok(Some(g)) = el.query_selector(&format!(".fig-stage[data-stage=\"{i}\"]")) {
            let (box_r, g_r) = (el.get_bounding_client_rect(), g.get_bounding_client_rect());
            if g_r.top() < box_r.top() || g_r.bottom() > box_r.bottom() {
                let top =
                    f64::from(el.scroll_top()) + g_r.top() - box_r.top() - box_r.height() / 3.0;
                el.set_scroll_top(top.max(0.0) as i32);
            }
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (node, i);
}

/// Asks the browser to show the page full screen (from a click: browsers allow it only
/// then); a refusal leaves present mode filling the window.
pub fn enter_fullscreen() {
    #[cfg(target_arch = "wasm32")]
    js::enter_fullscreen();
}

/// Leaves the browser's full screen, if the page is in it.
pub fn exit_fullscreen() {
    #[cfg(target_arch = "wasm32")]
    js::exit_fullscreen();
}

/// Calls `left` when the browser leaves full screen (Escape there is the browser's own, and
/// the page may not see the key), until the guard is dropped.
pub fn on_fullscreen_exit(left: Callback<()>) -> Option<impl Drop> {
    #[cfg(target_arch = "wasm32")]
    {
        let doc = web_sys::window()?.document()?;
        Some(gloo_events::EventListener::new(
            &doc,
            "fullscreenchange",
            move |_| {
                if !js::is_fullscreen() {
                    left.emit(());
                }
            },
        ))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = left;
        None::<NoGuard>
    }
}
