//! The "Copy as CUDA" statements equal the ones compiled with nvcc for sm_90
//! (tests/data/cuda-asm.jsonl, made by scripts/check-cuda.py).

use std::path::PathBuf;

use ptxlab_cli::read_jsonl;
use ptxlab_core::{check, cuda::asm_statement, Opcode};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Checked {
    ptx: String,
    asm: String,
}

#[test]
fn generator_matches_nvcc_checked_statements() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/cuda-asm.jsonl");
    let mut seen = std::collections::BTreeSet::new();
    let mut n = 0;
    for (line, c) in read_jsonl::<Checked>(&path).expect("fixture readable") {
        let c = c.unwrap_or_else(|e| panic!("fixture line {line}: {e}"));
        let insn = check(&c.ptx).unwrap_or_else(|d| panic!("fixture line {line}: {d}"));
        assert_eq!(
            asm_statement(&insn),
            c.asm,
            "fixture line {line}: {}",
            c.ptx
        );
        seen.extend(insn.opcode());
        n += 1;
    }
    assert!(n > 300, "fixture has only {n} statements");
    let missing: Vec<&str> = Opcode::ALL
        .iter()
        .filter(|o| !seen.contains(o))
        .map(|o| o.name())
        .collect();
    assert!(
        missing.is_empty(),
        "opcodes without a checked statement: {missing:?}"
    );
    assert!(seen.contains(&Opcode::Vmad));
}
