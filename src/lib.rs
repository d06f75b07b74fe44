//! ptxlab playground: pick or type a PTX video or integer instruction, set its operands, and see
//! every stage of what the GPU computes, drawn from `ptxlab_core`'s trace.
//!
//! The playground is two wasm modules built from this library:
//! - `ptxlab-web` (`src/main.rs`, built by Trunk): the page's root, its header and the
//!   instruction view, everything the first result needs;
//! - `ptxlab-views` (`src/views.rs`, built by `scripts/build-api.sh`): the Program, intrinsic,
//!   lesson and exercise views, loaded when one of them opens ([`ui::host`]) and mounted into
//!   the page by [`hosted`].
//!
//! A native build exists only so that `cargo test` can run the pure state logic; nothing is
//! rendered there, hence the dead-code allowance.

#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod choices;
mod exercise_model;
mod fetched;
mod gallery;
mod intrinsic_model;
mod model;
mod num;
mod program_model;
mod query;
mod route;
mod sweep_model;
mod templates;
mod ui;

pub use route::Route;
#[cfg(target_arch = "wasm32")]
pub use ui::start;

/// The second module's side: the views it draws, mounted into an element of the page.
pub mod hosted {
    pub use crate::ui::hosted::{mount, HostedApp};
}

/// The tests read the intrinsic data and the lessons from the repository (the wasm fetches
/// them: see `fetched`).
#[cfg(test)]
fn test_data() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/crates/ptxlab-core/src/intrinsics.txt"))
        .expect("the intrinsic data");
    ptxlab_core::intrinsics::install(&text).expect("the intrinsic data reads");
    let lessons: Vec<(String, String)> = ptxlab_core::lesson::NAMES
        .iter()
        .map(|n| {
            let md = std::fs::read_to_string(format!("{root}/crates/ptxlab-core/lessons/{n}.md"))
                .expect("a lesson");
            (n.to_string(), md)
        })
        .collect();
    ptxlab_core::lesson::install(&lessons).expect("the lessons read");
}
