//! Where the measured data lives, for the tests that compare against it.
//!
//! The folder is `$PTXLAB_SHARED/conformance` when `PTXLAB_SHARED` is set, else
//! `shared/conformance` beside the repository. When a file is missing, a test explains what is
//! missing and where to put it, then passes without comparing; with `PTXLAB_REQUIRE_SHARED=1`
//! (as `scripts/test.sh` sets) the same explanation fails the test, so CI cannot pass without
//! the data.

#![allow(dead_code)]

use std::path::PathBuf;

/// The conformance folder as configured (it may not exist).
pub fn conformance_dir() -> PathBuf {
    match std::env::var_os("PTXLAB_SHARED") {
        Some(root) => PathBuf::from(root).join("conformance"),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance"),
    }
}

/// The path of `file` in the conformance folder, or `None` after saying what is missing (a
/// failure instead when `PTXLAB_REQUIRE_SHARED=1`).
pub fn conformance_file(file: &str) -> Option<PathBuf> {
    let path = conformance_dir().join(file);
    if path.is_file() {
        return Some(path);
    }
    let why = format!(
        "measured data not found: {} is missing. These tests compare with the H100 and ptxas \
         measurements in the shared folder; put it beside the repository as `shared/`, or set \
         PTXLAB_SHARED to the folder that holds `conformance/`.",
        path.display()
    );
    if std::env::var("PTXLAB_REQUIRE_SHARED").is_ok_and(|v| v == "1") {
        panic!("{why} (PTXLAB_REQUIRE_SHARED=1, so this is an error)");
    }
    eprintln!("skipped: {why}");
    None
}
