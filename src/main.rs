//! The playground's first wasm module: the page's root, header and instruction view (see the
//! library's documentation for the split between the two modules).

fn main() {
    #[cfg(target_arch = "wasm32")]
    ptxlab_web::start();
}
