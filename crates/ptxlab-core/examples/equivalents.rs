//! Writes `crates/ptxlab-cli/src/equivalents.txt`: the groups of the lowering atlas's forms that
//! give the same `d` on every input and cost differently on some architecture, each form proven
//! against its group's first (see `ptxlab_core::equiv`).
//!
//! `cargo run --release -p ptxlab-core --example equivalents` (about a minute); with `--check`
//! it writes nothing and fails if the file differs from what it would write.

use std::path::Path;
use std::process::ExitCode;

use ptxlab_core::atlas::Atlas;
use ptxlab_core::equiv;

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ptxlab-cli/src");
    let atlas_text = match std::fs::read_to_string(root.join("atlas.txt")) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("equivalents: cannot read atlas.txt: {e}");
            return ExitCode::FAILURE;
        }
    };
    let atlas = match Atlas::parse(&atlas_text) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("equivalents: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = equiv::derive(&atlas).to_text();
    let path = root.join("equivalents.txt");
    if std::env::args().any(|a| a == "--check") {
        let now = std::fs::read_to_string(&path).unwrap_or_default();
        if now != text {
            eprintln!("equivalents: {} is out of date", path.display());
            return ExitCode::FAILURE;
        }
        println!("equivalents: {} is up to date", path.display());
        return ExitCode::SUCCESS;
    }
    if let Err(e) = std::fs::write(&path, &text) {
        eprintln!("equivalents: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!(
        "equivalents: wrote {} groups to {}",
        text.lines().filter(|l| l.starts_with("E ")).count(),
        path.display()
    );
    ExitCode::SUCCESS
}
