//! ptxlab playground: pick or type a PTX video or integer instruction, set its operands, and see
//! every stage of what the GPU computes, drawn from `ptxlab_core`'s trace.
//!
//! Built for `wasm32-unknown-unknown` by Trunk. A native build exists only so that `cargo test`
//! can run the pure state logic; nothing is rendered there, hence the dead-code allowance.

#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod choices;
mod exercise_model;
mod gallery;
mod intrinsic_model;
mod model;
mod num;
mod program_model;
mod query;
mod sweep_model;
mod templates;
mod ui;

fn main() {
    #[cfg(target_arch = "wasm32")]
    ui::start();
}
