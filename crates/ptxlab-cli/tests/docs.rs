//! The HTML page the playground links to is the current rendering of its markdown.

use std::path::PathBuf;

#[test]
fn hardware_vs_spec_html_is_current() {
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let md = std::fs::read_to_string(docs.join("hardware-vs-spec.md")).expect("markdown");
    let html = std::fs::read_to_string(docs.join("hardware-vs-spec.html")).expect("html");
    assert!(
        html == ptxlab_cli::markdown_page(&md),
        "docs/hardware-vs-spec.html is stale: run `cargo run --bin ptxlab -- doc-html \
         docs/hardware-vs-spec.md > docs/hardware-vs-spec.html`"
    );
    // Every entry the playground links to has its anchor in the page.
    for id in ptxlab_core::readings::DiffId::ALL {
        let anchor = format!("id=\"{}\"", id.anchor());
        assert!(html.contains(&anchor), "no {anchor} in the HTML page");
    }
}
