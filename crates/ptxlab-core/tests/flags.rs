//! A flag is declared once, where its stage is made, and every consumer reads the same set: on
//! every case the H100 ran, the flags on the stages of the recorded trace equal those a
//! `FlagSet` collects from the same evaluation, those the plan notes (the sweep's marks), and
//! those of `ptxlab batch`'s flags column.
//!
//! Two kinds of mark are left out of the comparison, and why:
//! - `sign-extended` and `zero-extended` on the trace's extract and field stages describe how an
//!   operand of a signed or unsigned type was read (every `vadd.s32` reads its `a` sign-extended):
//!   they say the type again, not an event of this case, so they are stage-only marks and the
//!   evaluators give them with the stage (`Stage::extended`), never as a flag of the case.
//! - `hardware-differs-from-text` depends on both readings, not on one run: the trace keeps it
//!   where the two answers differ, and the batch and sweep set it by comparing the answers. This
//!   test checks that the trace has it exactly where the answers differ.

mod shared;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};

use ptxlab_core::batch::{evaluate_batch, BatchLine};
use ptxlab_core::differences::Reading;
use ptxlab_core::trace::{Flag, FlagSet};
use ptxlab_core::{check, eval, evaluate_traced, Inputs, Plan};

fn hex(v: &serde_json::Value, key: &str) -> u64 {
    v.get(key)
        .and_then(|x| x.as_str())
        .map(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex value"))
        .unwrap_or(0)
}

/// Every measured case, grouped by instruction text.
fn h100_cases() -> Option<BTreeMap<String, Vec<Inputs>>> {
    let path = shared::conformance_file("h100-cases.jsonl.gz")?;
    let f = std::fs::File::open(path).expect("readable");
    let mut by_ptx: BTreeMap<String, Vec<Inputs>> = BTreeMap::new();
    for l in BufReader::new(flate2::read::GzDecoder::new(f)).lines() {
        let v: serde_json::Value = serde_json::from_str(&l.expect("line")).expect("json");
        let ptx = v["ptx"].as_str().expect("ptx").to_string();
        let i = Inputs::new(hex(&v, "a"), hex(&v, "b"), hex(&v, "c"), hex(&v, "e"));
        by_ptx.entry(ptx).or_default().push(i);
    }
    Some(by_ptx)
}

const DESCRIPTIVE: u32 = Flag::SignExtended.bit() | Flag::ZeroExtended.bit();
const DIFFERS: u32 = Flag::HardwareDiffersFromText.bit();

fn names(bits: u32) -> String {
    let v: Vec<&str> = FlagSet { bits }.flags().map(Flag::name).collect();
    format!("[{}]", v.join(" "))
}

#[test]
fn trace_flagset_plan_and_batch_read_the_same_flags_on_every_h100_case() {
    let Some(by_ptx) = h100_cases() else { return };
    let (mut cases, mut equal) = (0usize, 0usize);
    let mut per_opcode: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (ptx, inputs) in &by_ptx {
        let insn = check(ptx).unwrap_or_else(|e| panic!("{ptx}: {}", e.message));
        let plan = Plan::new(&insn);
        let lines: Vec<BatchLine> = inputs
            .iter()
            .enumerate()
            .map(|(k, i)| BatchLine {
                line: k + 1,
                inputs: Ok(*i),
            })
            .collect();
        let rows = evaluate_batch(&insn, &lines);
        let mut plan_d = vec![0u64; inputs.len()];
        let mut plan_f = vec![0u16; inputs.len()];
        plan.eval_many_flags(inputs, &mut plan_d, &mut plan_f);
        for (k, i) in inputs.iter().enumerate() {
            cases += 1;
            let trace = evaluate_traced(&insn, i);
            let traced = trace
                .stages
                .iter()
                .flat_map(|s| s.flags.iter())
                .fold(0u32, |m, f| m | f.bit());
            let mut fs = FlagSet::default();
            let d = eval::run(&insn, i, &mut fs);
            let text = eval::evaluate_as(&insn, i, Reading::Text);
            let batch = rows[k].flags.iter().fold(0u32, |m, f| m | f.bit());
            let want_differs = if text != d { DIFFERS } else { 0 };
            let ok = traced & !DESCRIPTIVE & !DIFFERS == fs.bits
                && traced & DIFFERS == want_differs
                && u32::from(plan_f[k]) == fs.bits
                && batch == fs.bits | want_differs
                && plan_d[k] == d;
            if ok {
                equal += 1;
            } else {
                *per_opcode.entry(insn.name().to_string()).or_default() += 1;
                if failures.len() < 20 {
                    failures.push(format!(
                        "{ptx} {i:x?}: trace {} flagset {} plan {} batch {} (readings {})",
                        names(traced),
                        names(fs.bits),
                        names(u32::from(plan_f[k])),
                        names(batch),
                        if text != d { "differ" } else { "agree" }
                    ));
                }
            }
        }
    }
    println!("{equal} of {cases} H100 cases: trace, FlagSet, plan and batch read the same flags");
    assert_eq!(cases, 159_632, "the measured file changed size");
    assert!(
        equal == cases,
        "{} cases differ, by opcode {per_opcode:?}:\n{}",
        cases - equal,
        failures.join("\n")
    );
}

/// The sweep's marks are the same set, cell by cell: on the default grid of a form of every
/// opcode whose flags the trace used to carry alone, and a few more.
#[test]
fn sweep_marks_are_the_trace_flags_of_each_cell() {
    use ptxlab_core::sweep::{case_at, default_axes, sweep};
    let forms = [
        "abs.s32 d, a;",
        "neg.s16 d, a;",
        "bfind.s32 d, a;",
        "bfe.s32 d, a, b, c;",
        "bfi.b32 d, a, b, c, e;",
        "bmsk.clamp.b32 d, a, b;",
        "szext.wrap.s32 d, a, b;",
        "fns.b32 d, a, b, c;",
        "vmad.s32.s32.s32 d, -a, b, c;",
        "vshl.u32.u32.u32.clamp.sat.max d, a, b, c;",
        "vadd.s32.s32.s32.sat.min d, a, b, c;",
        "vadd4.s32.s32.s32.sat d.b10, a, b, c;",
        "div.s32 d, a, b;",
    ];
    let mut cells = 0usize;
    for ptx in forms {
        let insn = check(ptx).unwrap_or_else(|e| panic!("{ptx}: {}", e.message));
        let base = Inputs::new(0x8000_0001, 0x21, 0x1f, 0x7);
        let (x, y) = default_axes(&insn);
        let s = sweep(&insn, &base, &x, &y);
        let mut seen = 0u32;
        // At most 64 by 64 cells of the grid (the edges of a clamp or wrap lie on every step
        // of a 64-step axis, and on a sample of a longer one).
        let (sx, sy) = ((s.width / 64).max(1), (s.height / 64).max(1));
        for row in (0..s.height).step_by(sy as usize) {
            for col in (0..s.width).step_by(sx as usize) {
                let i = case_at(&base, &x, &y, col, row);
                let trace = evaluate_traced(&insn, &i);
                let traced = trace
                    .stages
                    .iter()
                    .flat_map(|st| st.flags.iter())
                    .fold(0u32, |m, f| m | f.bit())
                    & !DESCRIPTIVE;
                let mark = u32::from(s.flags_at(col, row).expect("cell"));
                assert_eq!(names(mark), names(traced), "{ptx} at ({col}, {row}) {i:x?}");
                seen |= mark;
                cells += 1;
            }
        }
        assert!(seen != 0, "{ptx}: the grid shows no flag at all");
    }
    println!("{cells} sweep cells: marks equal the trace's flags");
}
