//! What the CLI prints is written for people: no text is built from `Debug` output (`{:?}`),
//! which would show `Some(...)`, Rust paths or CamelCase enum names. This reads the CLI's
//! sources (outside their tests) and names every `{:?}` it finds; the core's names (`name()`,
//! `label()`, `Display`) are what the output uses instead.

use std::fs;
use std::path::Path;

include!("support/debug_formats.rs");

#[test]
fn no_output_is_built_from_debug() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = debug_formats(&src);
    assert!(
        found.is_empty(),
        "Debug output in text for people:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_debug_formats() {
    let dir = std::env::temp_dir().join(format!("ptxlab-plain-text-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("a.rs"),
        "fn f(x: Option<u8>) -> String {\n    format!(\"{x:?}\")\n}\n// {:?} in a comment\n\
         #[cfg(test)]\nmod tests { fn g() { println!(\"{:?}\", 1); } }\n",
    )
    .unwrap();
    let found = debug_formats(&dir);
    fs::remove_dir_all(&dir).ok();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with(":2: format!(\"{x:?}\")"), "{found:?}");
}
