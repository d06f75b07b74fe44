//! The round trip the README shows: `ptxlab vectors` writes vectors, another implementation
//! fills in its own `d`, and `ptxlab check` compares. A correct implementation passes every
//! vector; one with a classic bug (wrapping instead of saturating) fails on the vectors that
//! sit at the saturation boundaries. The C output compiles and drives a C implementation.

use std::path::PathBuf;
use std::process::Command;

fn ptxlab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxlab"))
        .args(args)
        .output()
        .expect("run ptxlab");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxlab-vectors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn hex(v: &serde_json::Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// Replace each line's `d` by `imp(a, b, c)`, write the file, and run `ptxlab check` on it.
fn check_with(name: &str, jsonl: &str, imp: impl Fn(u64, u64, u64) -> u64) -> (bool, String) {
    let mut out = String::new();
    for line in jsonl.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        let get = |k: &str| v.get(k).map_or(0, hex);
        let d = imp(get("a"), get("b"), get("c"));
        v["d"] = serde_json::Value::String(format!("0x{d:08x}"));
        out.push_str(&v.to_string());
        out.push('\n');
    }
    let path = scratch(name);
    std::fs::write(&path, out).unwrap();
    let (ok, stdout, _) = ptxlab(&["check", "--show", "1000", path.to_str().unwrap()]);
    (ok, stdout)
}

fn add_sat_s32(a: u64, b: u64) -> u64 {
    (a as u32 as i32).saturating_add(b as u32 as i32) as u32 as u64
}

fn add_wrapping_s32(a: u64, b: u64) -> u64 {
    (a as u32).wrapping_add(b as u32) as u64
}

#[test]
fn correct_implementation_passes_and_a_wrapping_one_fails_at_the_boundaries() {
    let (ok, jsonl, err) = ptxlab(&[
        "vectors",
        "add.sat.s32 d, a, b;",
        "--count",
        "50",
        "--edges",
    ]);
    assert!(ok, "{err}");
    let n = jsonl.lines().count();
    assert!(n > 100, "edges, boundaries and 50 random vectors: {n}");

    let (ok, out) = check_with("good.jsonl", &jsonl, |a, b, _| add_sat_s32(a, b));
    assert!(ok, "{out}");
    assert!(out.contains(&format!("{n} passed, 0 failed")), "{out}");

    let (ok, out) = check_with("bad.jsonl", &jsonl, |a, b, _| add_wrapping_s32(a, b));
    assert!(!ok, "a wrapping add must not pass: {out}");
    // Every vector where saturation matters is caught, and only those.
    let expect_bad = jsonl
        .lines()
        .filter(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let (a, b) = (hex(&v["a"]), hex(&v["b"]));
            add_sat_s32(a, b) != add_wrapping_s32(a, b)
        })
        .count();
    assert!(
        expect_bad >= 4,
        "the vectors must include overflowing sums: {expect_bad}"
    );
    assert!(
        out.contains(&format!("{} passed, {expect_bad} failed", n - expect_bad)),
        "{out}"
    );
}

#[test]
fn simd_lanes_round_trip() {
    let insn = "vadd4.u32.u32.u32.sat d, a, b, c;";
    let (ok, jsonl, err) = ptxlab(&["vectors", insn]);
    assert!(ok, "{err}");
    // Four byte lanes, each an unsigned saturating add.
    let imp = |a: u64, b: u64, _c: u64| {
        (0..4).fold(0u64, |d, k| {
            let (x, y) = ((a >> (8 * k)) as u8, (b >> (8 * k)) as u8);
            d | (u64::from(x.saturating_add(y)) << (8 * k))
        })
    };
    let (ok, out) = check_with("simd.jsonl", &jsonl, imp);
    assert!(ok, "{out}");
    // Wrapping lanes fail somewhere.
    let wrong = |a: u64, b: u64, _c: u64| {
        (0..4).fold(0u64, |d, k| {
            let (x, y) = ((a >> (8 * k)) as u8, (b >> (8 * k)) as u8);
            d | (u64::from(x.wrapping_add(y)) << (8 * k))
        })
    };
    assert!(!check_with("simd-bad.jsonl", &jsonl, wrong).0);
}

#[test]
fn csv_reads_back_with_batch() {
    let insn = "vmad.s32.s32.u32.sat.shr15 d, a.h1, b.b3, c;";
    let (ok, csv, err) = ptxlab(&[
        "vectors", insn, "--format", "csv", "--count", "20", "--edges",
    ]);
    assert!(ok, "{err}");
    let path = scratch("vmad.csv");
    std::fs::write(&path, &csv).unwrap();
    let (ok, batch, err) = ptxlab(&["batch", insn, path.to_str().unwrap()]);
    assert!(ok, "{err}");
    // The last column of each of our rows is d; batch recomputes it.
    let ours: Vec<&str> = csv
        .lines()
        .skip(2)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    let d_col = batch
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|h| h == "d")
        .expect("a d column");
    let theirs: Vec<String> = batch
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(d_col).unwrap().to_string())
        .collect();
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(
            u64::from_str_radix(a.trim_start_matches("0x"), 16).unwrap(),
            u64::from_str_radix(b.trim_start_matches("0x"), 16).unwrap()
        );
    }
}

#[test]
fn c_array_compiles_and_drives_a_c_implementation() {
    let (ok, c, err) = ptxlab(&["vectors", "add.sat.s32 d, a, b;", "--format", "c"]);
    assert!(ok, "{err}");
    let header = scratch("vectors.h");
    std::fs::write(&header, &c).unwrap();
    let main = scratch("main.c");
    std::fs::write(
        &main,
        r#"#include <stdio.h>
#include "vectors.h"
static int32_t add_sat(int32_t a, int32_t b) {
    int64_t s = (int64_t)a + b;
    if (s > INT32_MAX) s = INT32_MAX;
    if (s < INT32_MIN) s = INT32_MIN;
    return (int32_t)s;
}
int main(void) {
    unsigned bad = 0;
    for (size_t i = 0; i < PTXLAB_VECTOR_COUNT; i++) {
        const struct ptxlab_vector *v = &ptxlab_vectors[i];
        if ((uint32_t)add_sat((int32_t)v->a, (int32_t)v->b) != v->d) bad++;
    }
    printf("%u of %u differ\n", bad, (unsigned)PTXLAB_VECTOR_COUNT);
    return bad != 0;
}
"#,
    )
    .unwrap();
    let exe = scratch("vectors-main");
    // Any Rust toolchain on Linux or macOS has a C compiler as its linker.
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(&main)
        .status()
        .expect("a C compiler (cc)");
    assert!(status.success(), "the vectors must compile as C99");
    let run = Command::new(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}");
    assert!(text.starts_with("0 of "), "{text}");
}

/// Vectors name the table's sources (`a`, `b`, `c`, `e`) and one `d`: a program instruction,
/// which the checker reads too, is refused with where to go instead, not written with columns
/// that misname its carry flag or its parts.
#[test]
fn program_instructions_are_refused_with_a_pointer() {
    for insn in [
        "addc.u32 d, a, b;",
        "setp.lt.s32 _|q, a, b;",
        "mov.b32 d, {a, b};",
    ] {
        let (ok, out, err) = ptxlab(&["vectors", insn]);
        assert!(!ok && out.is_empty(), "{insn}: {out}");
        assert!(
            err.contains("ptxlab batch or ptxlab sweep"),
            "{insn}: {err}"
        );
    }
}
