//! The meanings in the core agree with nvcc's PTX run as a program.
//!
//! `scripts/intrinsics_check.py` interprets the PTX recorded for each intrinsic over edge values,
//! random inputs and every pair of lane values, compares with `ptxlab intrinsic --batch`, and
//! writes `tests/data/intrinsics-ptx.txt`: per intrinsic the number of inputs and an FNV-1a
//! digest of the PTX results. This test builds the same inputs, evaluates the meanings and
//! compares the digests, so a meaning that drifts from the PTX fails here (the script then shows
//! the inputs where they part). `intrinsics_program.rs` runs the same PTX through the core's own
//! program runner instead of the script's interpreter.
//!
//! `scripts/gpu_intrinsics.py` runs the real intrinsics on an NVIDIA GPU over the same inputs and
//! writes `tests/data/intrinsics-gpu.txt` in the same format: the hardware's digests, which the
//! second test compares with the meanings.

mod support;

use ptxlab_core::intrinsics::{self, evaluate};
use support::intrinsic_inputs::inputs;

fn fnv(results: &[u64]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for r in results {
        for b in r.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// `NAME COUNT DIGEST` lines (after `#` comments): name -> (count, digest).
fn recorded(text: &str) -> std::collections::HashMap<String, (usize, u64)> {
    let mut out = std::collections::HashMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let count: usize = f[1].parse().unwrap();
        let digest = u64::from_str_radix(f[2], 16).unwrap();
        out.insert(f[0].to_string(), (count, digest));
    }
    out
}

/// The number of inputs the `k`th intrinsic is tried on and the digest of the meaning's
/// results: d, then any bools the intrinsic writes.
fn meaning_digest(k: usize, i: &intrinsics::Intrinsic) -> (usize, u64) {
    let ins = inputs(k, i);
    let results: Vec<u64> = ins
        .iter()
        .flat_map(|a| {
            let e = evaluate(i, a).expect("arity");
            std::iter::once(e.result).chain(e.outputs.into_iter().map(|(_, v)| v))
        })
        .collect();
    (ins.len(), fnv(&results))
}

#[test]
fn meanings_agree_with_the_ptx_on_every_recorded_input() {
    let recorded = recorded(include_str!("data/intrinsics-ptx.txt"));
    let mut disagree = Vec::new();
    let mut total = 0;
    for (k, i) in intrinsics::all().enumerate() {
        let Some(&(count, digest)) = recorded.get(i.name) else {
            disagree.push(format!("{}: not in the recorded PTX results", i.name));
            continue;
        };
        let (n, got) = meaning_digest(k, i);
        assert_eq!(n, count, "{}: inputs built differently", i.name);
        total += n;
        if got != digest {
            disagree.push(format!("{}: meaning and PTX differ", i.name));
        }
    }
    assert!(
        disagree.is_empty(),
        "{} of the intrinsics (run scripts/intrinsics_check.py --only NAME):\n{}",
        disagree.len(),
        disagree.join("\n")
    );
    assert!(total > 5_000_000, "only {total} inputs");
}

/// The hardware's results, as `scripts/gpu_intrinsics.py --out DIR` measured them on a GPU (its
/// first line says which) and DIR/intrinsics-gpu.txt was copied to tests/data.
#[test]
fn meanings_agree_with_the_gpu_on_every_recorded_input() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/intrinsics-gpu.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{path}: {e}; run `python3 scripts/gpu_intrinsics.py --out DIR` on a machine with an \
             NVIDIA GPU and copy DIR/intrinsics-gpu.txt there"
        )
    });
    let recorded = recorded(&text);
    let known: Vec<&str> = intrinsics::all().map(|i| i.name).collect();
    let mut disagree: Vec<String> = recorded
        .keys()
        .filter(|n| !known.contains(&n.as_str()))
        .map(|n| format!("{n}: measured on the GPU but not an intrinsic of the core"))
        .collect();
    let mut checked = 0;
    for (k, i) in intrinsics::all().enumerate() {
        let Some(&(count, digest)) = recorded.get(i.name) else {
            continue;
        };
        let (n, got) = meaning_digest(k, i);
        assert_eq!(n, count, "{}: inputs built differently", i.name);
        checked += 1;
        if got != digest {
            disagree.push(format!("{}: meaning and GPU differ", i.name));
        }
    }
    disagree.sort();
    assert!(
        disagree.is_empty(),
        "{} of the intrinsics (scripts/gpu_intrinsics.py writes the inputs where the GPU and the \
         PTX part to DIR/differences.txt):\n{}",
        disagree.len(),
        disagree.join("\n")
    );
    assert!(
        checked >= 140,
        "only {checked} intrinsics measured on the GPU in {path}"
    );
}
