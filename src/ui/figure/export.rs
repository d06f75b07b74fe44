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
export function reduced_motion() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}
"#)]
    extern "C" {
        pub fn save_text(name: &str, text: &str, mime: &str);
        pub fn can_copy_image() -> bool;
        pub fn copy_svg_as_png(text: &str, width: f64, height: f64) -> js_sys::Promise;
        pub fn reduced_motion() -> bool;
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
    let w = el.get_attribute("width")?.parse().ok()?;
    let h = el.get_attribute("height")?.parse().ok()?;
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
