//! A reader that stops early (`ptxlab sass | head -1`) closes the pipe; the tool then ends
//! quietly with status 0, not with a panic and a backtrace on standard error.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn closes_quietly(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxlab"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ptxlab runs");
    // Read one line, as `head -1` would, then close the pipe.
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a line");
    assert!(!first.is_empty(), "{args:?} printed nothing");
    let out = child.wait_with_output().expect("ptxlab ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {:?}\n{err}", out.status);
    assert!(err.is_empty(), "{args:?} wrote to standard error: {err}");
}

#[test]
fn sass_listing_into_a_closed_pipe() {
    closes_quietly(&["sass"]);
}

#[test]
fn vectors_into_a_closed_pipe() {
    closes_quietly(&[
        "vectors",
        "vadd4.u32.u32.u32 d, a, b, c;",
        "--count",
        "100000",
    ]);
}

#[test]
fn intrinsic_list_into_a_closed_pipe() {
    closes_quietly(&["intrinsic", "--list"]);
}

/// Every write to standard output goes through out!/outln!: a `print!` or `println!` in the
/// tool's sources would panic on a closed pipe again.
#[test]
fn no_print_macros_in_the_tool() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("src") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("source");
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for m in ["println!(", "print!("] {
                if let Some(at) = code.find(m) {
                    if !code[..at].ends_with('e') {
                        found.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "use out!/outln!:\n{}", found.join("\n"));
}

#[test]
fn atlas_forms_into_a_closed_pipe() {
    closes_quietly(&["sass", "--forms"]);
}
