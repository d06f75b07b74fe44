//! Provenance never leaves out a bit that matters: on generated forms of every table opcode and
//! on every form of the program rows ptxas accepts, flipping one bit of one source register
//! changes only bits whose provenance names that source bit: of every stage, where the flip
//! leaves the stages as they were, and of the result where it changes the path. One case of every
//! form in the H100 conformance data is flipped the same way.

use std::collections::HashMap;

use ptxlab_core::gen::{self, Rng};
use ptxlab_core::insn::check;
use ptxlab_core::provenance::Provenance;
use ptxlab_core::trace::{StageKind, Trace};
use ptxlab_core::Inputs;
use ptxlab_core::Instruction;

/// A stage's output, as raw bits.
fn out_bits(s: &ptxlab_core::trace::Stage) -> u128 {
    (s.output.value as u128) & ptxlab_core::trace::mask128(s.output.bits.min(128))
}

/// What identifies a stage across two runs of one form: its kind, output name, lane and width.
fn shape(t: &Trace) -> Vec<(StageKind, String, Option<u8>, u32)> {
    t.stages
        .iter()
        .map(|s| (s.kind, s.output.name.clone(), s.lane, s.output.bits))
        .collect()
}

/// For one case: every bit of every register source, flipped. Where the flipped run has the
/// same stages, every bit of every stage that changes must name the flipped bit; otherwise
/// (the path changed) the result must. The failures are described in `out`.
fn check_case(text: &str, insn: &Instruction, inputs: &Inputs, out: &mut Vec<String>) {
    let t = insn.trace(inputs);
    let Some(last) = t.stages.len().checked_sub(1) else {
        return;
    };
    let p = Provenance::of(&t);
    // Every value a stage reads is found in an earlier stage.
    for (i, name) in p.unresolved() {
        out.push(format!(
            "{text}: stage {i} ({}) reads {name}, which no earlier stage holds",
            t.stages[*i].label
        ));
    }
    let base_shape = shape(&t);
    let mut lit: HashMap<(usize, u32), Vec<u128>> = HashMap::new();
    for (k, name, width) in insn.register_sources() {
        // The stage that reads the source register.
        let Some(node) = t
            .stages
            .iter()
            .position(|s| s.kind == StageKind::Read && s.output.name == name)
        else {
            out.push(format!("{text}: no read stage for {name}"));
            continue;
        };
        for j in 0..width.min(64) {
            let mut v = inputs.as_array();
            v[k] ^= 1 << j;
            let flipped = insn.trace(&Inputs::new(v[0], v[1], v[2], v[3]));
            let stages: Vec<usize> = if shape(&flipped) == base_shape {
                (node + 1..t.stages.len()).collect()
            } else {
                vec![last]
            };
            for i in stages {
                let other = if i == last {
                    flipped.stages.last().expect("a stage")
                } else {
                    &flipped.stages[i]
                };
                let changed = out_bits(&t.stages[i]) ^ out_bits(other);
                for b in 0..t.stages[i].output.bits.min(128) {
                    if changed >> b & 1 == 0 {
                        continue;
                    }
                    let l = lit.entry((i, b)).or_insert_with(|| p.lit(i, b));
                    if l[node] >> j & 1 == 0 {
                        out.push(format!(
                            "{text} with {:x?}: bit {b} of stage {i} ({}) changes when bit {j} \
                             of {name} flips, but its provenance leaves that bit out",
                            inputs.as_array(),
                            t.stages[i].label
                        ));
                        return;
                    }
                }
            }
        }
    }
}

#[test]
fn flipping_a_source_bit_changes_only_bits_that_name_it_table() {
    let mut r = Rng::new(23);
    let (mut seen, mut bad) = (0, Vec::new());
    for _ in 0..1500 {
        let text = gen::plausible(&mut r);
        let Ok(insn) = check(&text) else { continue };
        let inputs = Inputs::new(r.value(), r.value(), r.value(), r.value());
        check_case(&text, &insn, &inputs, &mut bad);
        seen += 1;
    }
    assert!(seen > 500, "only {seen} generated cases");
    assert!(
        bad.is_empty(),
        "{} of {seen}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn flipping_a_source_bit_changes_only_bits_that_name_it_programs() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/ptxas-programs.jsonl"
    ))
    .expect("ptxas decisions");
    let mut r = Rng::new(9);
    let (mut seen, mut bad) = (0, Vec::new());
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        if v["accepted"] != true {
            continue;
        }
        let ptx = v["ptx"].as_str().expect("ptx");
        let Ok(insn) = check(ptx) else { continue };
        if insn.opcode().is_some() {
            continue;
        }
        let inputs = Inputs::new(r.value(), r.value(), r.value(), r.value());
        check_case(ptx, &insn, &inputs, &mut bad);
        seen += 1;
    }
    assert!(seen > 1000, "only {seen} program forms");
    assert!(
        bad.is_empty(),
        "{} of {seen}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The shared conformance folder: `$PTXLAB_SHARED/conformance`, or `shared/` beside the
/// repository.
fn conformance() -> std::path::PathBuf {
    let p = match std::env::var_os("PTXLAB_SHARED") {
        Some(s) => std::path::PathBuf::from(s),
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let p = p.join("conformance");
    assert!(p.is_dir(), "conformance data not found at {}", p.display());
    p
}

#[test]
fn flipping_a_source_bit_changes_only_bits_that_name_it_h100_forms() {
    use std::io::{BufRead, BufReader};
    let f = std::fs::File::open(conformance().join("h100-cases.jsonl.gz")).expect("H100 cases");
    let hex = |v: &serde_json::Value, k: &str| {
        v[k].as_str().map_or(0, |s| {
            u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex")
        })
    };
    // One case of every form the H100 ran (the forms as the conformance data writes them, with
    // selectors, immediates and merges), with that case's values.
    let mut seen = std::collections::BTreeSet::new();
    let (mut n, mut bad) = (0, Vec::new());
    for line in BufReader::new(flate2::read::GzDecoder::new(f)).lines() {
        let v: serde_json::Value = serde_json::from_str(&line.expect("line")).expect("json");
        let ptx = v["ptx"].as_str().expect("ptx").to_string();
        if !seen.insert(ptx.clone()) {
            continue;
        }
        let insn = check(&ptx).unwrap_or_else(|d| panic!("{ptx}: {d}"));
        let inputs = Inputs::new(hex(&v, "a"), hex(&v, "b"), hex(&v, "c"), hex(&v, "e"));
        check_case(&ptx, &insn, &inputs, &mut bad);
        n += 1;
    }
    assert!(n > 1000, "only {n} forms");
    assert!(bad.is_empty(), "{} of {n}:\n{}", bad.len(), bad.join("\n"));
}
