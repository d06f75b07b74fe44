//! The meanings in the core agree with nvcc's PTX run as a program.
//!
//! `scripts/intrinsics_check.py` interprets the PTX recorded for each intrinsic over edge values,
//! random inputs and every pair of lane values, compares with `ptxlab intrinsic --batch`, and
//! writes `tests/data/intrinsics-ptx.txt`: per intrinsic the number of inputs and an FNV-1a
//! digest of the PTX results. This test builds the same inputs, evaluates the meanings and
//! compares the digests, so a meaning that drifts from the PTX fails here (the script then shows
//! the inputs where they part). `intrinsics_program.rs` runs the same PTX through the core's own
//! program runner instead of the script's interpreter.

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

#[test]
fn meanings_agree_with_the_ptx_on_every_recorded_input() {
    let text = include_str!("data/intrinsics-ptx.txt");
    let mut recorded = std::collections::HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let count: usize = f[1].parse().unwrap();
        let digest = u64::from_str_radix(f[2], 16).unwrap();
        recorded.insert(f[0].to_string(), (count, digest));
    }
    let mut disagree = Vec::new();
    let mut total = 0;
    for (k, i) in intrinsics::all().enumerate() {
        let Some(&(count, digest)) = recorded.get(i.name) else {
            disagree.push(format!("{}: not in the recorded PTX results", i.name));
            continue;
        };
        let ins = inputs(k, i);
        assert_eq!(ins.len(), count, "{}: inputs built differently", i.name);
        // d, then any bools the intrinsic writes.
        let results: Vec<u64> = ins
            .iter()
            .flat_map(|a| {
                let e = evaluate(i, a).expect("arity");
                std::iter::once(e.result).chain(e.outputs.into_iter().map(|(_, v)| v))
            })
            .collect();
        total += ins.len();
        if fnv(&results) != digest {
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
