//! Performance marks that the end-to-end tests read: navigation to the first rendered result,
//! and an operand edit to the updated diagram.

use std::cell::Cell;

/// Mark placed when the first result is in the page.
pub const FIRST_RESULT: &str = "ptxlab-first-result";
/// Marks and measure around one operand edit.
pub const EDIT_START: &str = "ptxlab-edit-start";
pub const EDIT_END: &str = "ptxlab-edit-end";
pub const EDIT: &str = "ptxlab-edit";

/// Marks and measures around one sweep: the evaluations alone, and everything up to the drawn map.
pub const SWEEP_START: &str = "ptxlab-sweep-start";
pub const SWEEP_EVAL_END: &str = "ptxlab-sweep-eval-end";
pub const SWEEP_END: &str = "ptxlab-sweep-end";
pub const SWEEP_EVAL: &str = "ptxlab-sweep-eval";
pub const SWEEP: &str = "ptxlab-sweep";

thread_local! {
    static EDIT_PENDING: Cell<bool> = const { Cell::new(false) };
}

#[cfg(target_arch = "wasm32")]
fn performance() -> Option<web_sys::Performance> {
    web_sys::window().and_then(|w| w.performance())
}

pub fn mark(name: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(p) = performance() {
        let _ = p.mark(name);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = name;
}

/// A measure between two marks already placed.
pub fn measure(name: &str, start: &str, end: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(p) = performance() {
        let _ = p.measure_with_start_mark_and_end_mark(name, start, end);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (name, start, end);
}

/// Milliseconds on the page's clock (0 outside the browser).
pub fn now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        performance().map_or(0.0, |p| p.now())
    }
    #[cfg(not(target_arch = "wasm32"))]
    0.0
}

/// Call just before dispatching an operand edit.
pub fn edit_started() {
    EDIT_PENDING.with(|p| p.set(true));
    mark(EDIT_START);
}

/// Call after every render: closes an open edit measurement.
pub fn after_render() {
    if EDIT_PENDING.with(|p| p.replace(false)) {
        mark(EDIT_END);
        #[cfg(target_arch = "wasm32")]
        if let Some(p) = performance() {
            let _ = p.measure_with_start_mark_and_end_mark(EDIT, EDIT_START, EDIT_END);
        }
    }
}

/// A seed for the random-value buttons.
pub fn seed(salt: u64) -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        let r = js_sys::Math::random() * 9_007_199_254_740_992.0;
        (r as u64) ^ salt.rotate_left(17)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        salt.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5151
    }
}
