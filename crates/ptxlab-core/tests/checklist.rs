//! The checklist of `docs/architecture.md` ("Adding an opcode"), as a test: every row of the
//! instruction tables has each thing an instruction needs, and this fails naming the row and
//! the missing piece. For a table opcode (`isa::OPCODES`): an accepted example that evaluates
//! with stages, a plan that gives the evaluator's `d`, its words (summary and documentation
//! link), forms from the random generator, forms in the lowering atlas
//! (`crates/ptxlab-cli/src/atlas.txt`), and H100 cases in the conformance data. For a program instruction (`isa::OP_ROWS`): an example that evaluates with
//! stages, Learn notes, its words, forms asked of ptxas (`tests/data/ptxas-programs.jsonl`)
//! and measured on the GPU (`tests/data/gpu-programs.jsonl.gz`), and forms in the atlas.

use std::collections::BTreeSet;
use std::io::Read;

use ptxlab_core::gen::{instruction, Rng};
use ptxlab_core::insn::check;
use ptxlab_core::isa::{OPCODES, OP_ROWS};
use ptxlab_core::plan::Plan;
use ptxlab_core::{evaluate, evaluate_traced, Inputs};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// An instruction text without its guard (`@p`).
fn unguarded(text: &str) -> &str {
    let t = text.trim_start();
    if t.starts_with('@') {
        t.split_once(' ').map_or("", |x| x.1).trim_start()
    } else {
        t
    }
}

/// The opcode word of an instruction text (`vadd` of `vadd.u32.u32.u32 d, a, b;`).
fn opcode(text: &str) -> &str {
    unguarded(text)
        .split(|c: char| c == '.' || c.is_whitespace())
        .next()
        .unwrap_or("")
}

/// The row an instruction text names: its opcode word, or for a program instruction the row
/// its modifiers choose (`add.cc` of `add.cc.u32 d, a, b;`, `cvt.pack` of `cvt.pack.sat...`).
fn row_name(text: &str) -> String {
    ptxlab_core::ops::statement_op(unguarded(text))
        .map_or_else(|| opcode(text).to_string(), |p| p.name().to_string())
}

/// The rows named by the `"ptx"` field of every line of a JSON-lines text.
fn opcodes_in(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["ptx"].as_str().map(row_name))
        .collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read_gz(path: &str) -> String {
    let f = std::fs::File::open(format!("{ROOT}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut s = String::new();
    flate2::read::GzDecoder::new(f)
        .read_to_string(&mut s)
        .expect("gzip text");
    s
}

/// The opcodes of the lowering atlas's forms (`F FORM<TAB>...` lines of the data the CLI
/// carries and the page fetches).
fn atlas_opcodes() -> BTreeSet<String> {
    read("crates/ptxlab-cli/src/atlas.txt")
        .lines()
        .filter_map(|l| l.strip_prefix("F "))
        .map(|l| row_name(l.split('\t').next().unwrap_or("")))
        .collect()
}

#[test]
fn every_table_opcode_has_its_evaluator_plan_words_generator_atlas_and_data() {
    let mut generated = BTreeSet::new();
    let mut r = Rng::new(23);
    for _ in 0..20_000 {
        generated.insert(opcode(&instruction(&mut r)).to_string());
    }
    let atlas = atlas_opcodes();
    let h100 = std::fs::read_dir(format!("{ROOT}/../shared/conformance"))
        .ok()
        .map(|dir| {
            let mut names = BTreeSet::new();
            for e in dir.flatten() {
                let p = e.path();
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                if name.ends_with(".jsonl.gz") && !name.contains("ptxas") {
                    let f = std::fs::File::open(&p).expect("readable");
                    let mut text = String::new();
                    flate2::read::GzDecoder::new(f)
                        .read_to_string(&mut text)
                        .expect("gzip text");
                    names.extend(opcodes_in(&text));
                }
            }
            names
        });
    let mut missing = Vec::new();
    for row in OPCODES {
        let name = row.name;
        let mut lacks = |what: &str| missing.push(format!("{name}: {what}"));
        match ptxlab_core::check(row.example) {
            Err(e) => lacks(&format!("its example does not check: {e}")),
            Ok(insn) => {
                let inputs = Inputs::new(0x8000_00ff, 0x7f01_fe02, 0x0102_0304, 3);
                let t = evaluate_traced(&insn, &inputs);
                if t.stages.len() < 2 {
                    lacks("stages from the evaluator");
                }
                let plan = Plan::new(&insn);
                if plan.eval(&inputs) != evaluate(&insn, &inputs) {
                    lacks("a plan that gives the evaluator's d");
                }
            }
        }
        if !row.summary.ends_with('.') || row.doc_anchor.is_empty() {
            lacks("a summary in our words and a documentation link");
        }
        if !generated.contains(name) {
            lacks("forms from the random generator (gen)");
        }
        if !atlas.contains(name) {
            lacks("forms in the lowering atlas (scripts/atlas.py)");
        }
        if let Some(h) = &h100 {
            // A row that says it was measured on an H100 has H100 cases.
            if row.measured != Some(ptxlab_core::isa::Gpu::H100) || !h.contains(name) {
                lacks("H100 cases in ../shared/conformance");
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_program_instruction_has_its_evaluator_notes_words_ptxas_gpu_and_atlas() {
    let ptxas = opcodes_in(&read("tests/data/ptxas-programs.jsonl"));
    let h100 = opcodes_in(&read_gz("tests/data/gpu-programs-h100.jsonl.gz"));
    let h200 = opcodes_in(&read_gz("tests/data/gpu-programs.jsonl.gz"));
    let atlas = atlas_opcodes();
    let mut missing = Vec::new();
    for row in OP_ROWS {
        let name = row.name;
        let mut lacks = |what: &str| missing.push(format!("{name}: {what}"));
        match check(row.example) {
            Err(e) => lacks(&format!("its example does not check: {e}")),
            Ok(insn) => {
                let out = insn.evaluate(&Inputs::new(0x8000_00ff, 0x7f01_fe02, 0x3210, 3));
                if out.trace.stages.len() < 2 || out.values.is_empty() {
                    lacks("stages and values from the evaluator");
                }
                if ptxlab_core::notes::for_insn(&insn).is_empty() {
                    lacks("Learn notes (notes.rs)");
                }
            }
        }
        if !row.summary.ends_with('.') || row.doc_anchor.is_empty() {
            lacks("a summary in our words and a documentation link");
        }
        // The row says H100, and both GPUs' data hold its cases.
        if row.measured != Some(ptxlab_core::isa::Gpu::H100) || !h100.contains(name) {
            lacks("H100 measurements (scripts/gpu_programs.py)");
        }
        if !h200.contains(name) {
            lacks("H200 measurements (scripts/gpu_programs.py)");
        }
        if !ptxas.contains(name) {
            lacks("ptxas decisions (scripts/ptxas_programs.py)");
        }
        if !atlas.contains(name) {
            lacks("forms in the lowering atlas (scripts/atlas.py)");
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
