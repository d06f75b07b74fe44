//! Provenance never leaves out a bit that matters: on generated forms of every table opcode and
//! on every form of the program rows ptxas accepts, flipping one bit of one source register
//! changes only bits of the result whose provenance names that source bit. One case of every
//! form in the H100 conformance data is flipped the same way.

use ptxlab_core::gen::{self, Rng};
use ptxlab_core::insn::{check, Insn};
use ptxlab_core::provenance::Provenance;
use ptxlab_core::trace::{StageKind, Trace};
use ptxlab_core::Inputs;

/// The last stage's output, as raw bits.
fn last_bits(t: &Trace) -> u128 {
    let s = t.stages.last().expect("a stage");
    (s.output.value as u128) & ptxlab_core::trace::mask128(s.output.bits.min(128))
}

/// For one case: every bit of every register source, flipped; the failures described.
fn check_case(text: &str, insn: &Insn, inputs: &Inputs, out: &mut Vec<String>) {
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
    let base = last_bits(&t);
    let bits = t.stages[last].output.bits.min(128);
    let lit: Vec<Vec<u128>> = (0..bits).map(|b| p.lit(last, b)).collect();
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
            let flipped = Inputs::new(v[0], v[1], v[2], v[3]);
            let changed = base ^ last_bits(&insn.trace(&flipped));
            for b in 0..bits {
                if changed >> b & 1 == 1 && lit[b as usize][node] >> j & 1 == 0 {
                    out.push(format!(
                        "{text} with {:x?}: bit {b} of the result changes when bit {j} of {name} \
                         flips, but its provenance leaves that bit out",
                        inputs.as_array()
                    ));
                    return;
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
        if matches!(insn, Insn::Table(_)) {
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
