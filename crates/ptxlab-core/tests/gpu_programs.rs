//! The program instructions against what a Hopper GPU computed: every case of
//! `tests/data/gpu-programs.jsonl.gz` (made by `scripts/gpu_programs.py` on an H200, sm_90;
//! see `tests/data/README.md`), compared one destination at a time.
//!
//! That includes `slct`, `cvt.pack` and the carry chain, whose carry flag is a destination
//! (`CC.CF`, the data's `CF`) and a source like any other; in a program it is part of the
//! register file, and [`every_gpu_case_of_the_carry_chain_in_a_program`] runs every carry case
//! as a one-line program as well.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};

use ptxlab_core::insn::check;
use ptxlab_core::ops::CARRY_FLAG;
use ptxlab_core::Inputs;
use ptxlab_core::Instruction;

/// The data's name for a register: the carry flag is `CF` there.
fn data_name(name: &str) -> &str {
    if name == CARRY_FLAG {
        "CF"
    } else {
        name
    }
}

struct Case {
    ptx: String,
    /// Every register the instruction reads or writes before it runs: sources, then prior
    /// values of destinations (a destination that is also a source reads its prior value).
    regs: BTreeMap<String, u64>,
    out: BTreeMap<String, u64>,
}

fn hex_map(v: &serde_json::Value) -> BTreeMap<String, u64> {
    v.as_object()
        .map(|o| {
            o.iter()
                .map(|(k, x)| {
                    let s = x.as_str().expect("a hex string");
                    let n = u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex");
                    (k.clone(), n)
                })
                .collect()
        })
        .unwrap_or_default()
}

fn cases() -> Vec<Case> {
    cases_in(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/gpu-programs.jsonl.gz"
    ))
}

fn cases_in(path: &str) -> Vec<Case> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    BufReader::new(flate2::read::GzDecoder::new(f))
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l.expect("a line")).expect("json");
            let mut regs = hex_map(&v["prior"]);
            regs.extend(hex_map(&v["in"]));
            Case {
                ptx: v["ptx"].as_str().expect("ptx").to_string(),
                regs,
                out: hex_map(&v["out"]),
            }
        })
        .collect()
}

/// Every destination by name, as ptxlab computes it for one case.
fn ours(insn: &Instruction, c: &Case) -> BTreeMap<String, u64> {
    match insn.as_op() {
        Some(op) => {
            let mut v = [0u64; 4];
            for (k, s) in op.srcs.iter().enumerate().take(4) {
                if let Some(name) = s.reg_name() {
                    v[k] = *c.regs.get(data_name(name)).unwrap_or_else(|| {
                        panic!("{}: no value for source {name}", c.ptx);
                    });
                }
            }
            let e = insn.evaluate(&Inputs::new(v[0], v[1], v[2], v[3]));
            op.dsts
                .iter()
                .zip(&e.values)
                .filter_map(|(d, w)| {
                    let n = d.reg_name()?;
                    Some((
                        data_name(n).to_string(),
                        w.value.expect("a written register"),
                    ))
                })
                .collect()
        }
        None => {
            // The table instructions name their sources a, b, c, e by role.
            let r = |n: &str| c.regs.get(n).copied().unwrap_or(0);
            let e = insn.evaluate(&Inputs::new(r("a"), r("b"), r("c"), r("e")));
            [("d".to_string(), e.values[0].value.expect("d"))].into()
        }
    }
}

/// ptxlab against every destination of `cases`.
#[derive(Default)]
struct Compared {
    /// The forms seen.
    forms: BTreeSet<String>,
    /// The forms ptxlab refuses, with its message.
    refused: BTreeMap<String, String>,
    /// The destinations whose value differs, described.
    wrong: Vec<String>,
    /// Destinations compared, and how many of them were the carry flag.
    compared: usize,
    carries: usize,
}

fn compare(cases: &[Case]) -> Compared {
    let mut r = Compared::default();
    let mut checked: BTreeMap<String, Result<Instruction, String>> = BTreeMap::new();
    for c in cases {
        r.forms.insert(c.ptx.clone());
        let insn = checked
            .entry(c.ptx.clone())
            .or_insert_with(|| check(&c.ptx).map_err(|d| d.to_string()));
        let insn = match insn {
            Ok(i) => i,
            Err(e) => {
                r.refused.insert(c.ptx.clone(), e.clone());
                continue;
            }
        };
        let got = ours(insn, c);
        for (name, want) in &c.out {
            r.compared += 1;
            r.carries += usize::from(name == "CF");
            match got.get(name) {
                Some(v) if v == want => {}
                other => r.wrong.push(format!(
                    "{}  in {:x?}  {name}: GPU {want:#x}, ptxlab {other:x?}",
                    c.ptx, c.regs
                )),
            }
        }
    }
    r
}

#[test]
fn every_gpu_case_of_the_program_instructions() {
    let cases = cases();
    assert!(cases.len() > 100_000, "{} cases", cases.len());
    let Compared {
        forms,
        refused,
        wrong,
        compared,
        carries,
    } = compare(&cases);
    assert!(
        wrong.is_empty(),
        "{} of {compared} destinations differ from the GPU; first ones:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(30)].join("\n")
    );
    // Every form the GPU ran is read.
    let refused: Vec<_> = refused.iter().map(|(p, e)| format!("{p}: {e}")).collect();
    assert!(
        refused.is_empty(),
        "ptxlab refuses forms the GPU ran:\n{}",
        refused.join("\n")
    );
    for op in [
        "slct.",
        "cvt.pack.",
        "addc.",
        "subc.",
        "madc.",
        "add.cc.",
        "mad.hi.cc.",
    ] {
        assert!(
            forms.iter().any(|p| p.starts_with(op)),
            "no GPU form of {op} compared"
        );
    }
    assert!(carries >= 32 * 48, "{carries} carries out compared");
    assert!(compared > 100_000, "{compared} destinations compared");
    eprintln!(
        "{} forms, {compared} destinations equal to the GPU's ({carries} carries out)",
        forms.len()
    );
}

/// The carry chain runs in programs, where the carry flag `CC.CF` is part of the register file:
/// every GPU case of `add.cc`, `addc`, `sub.cc`, `subc`, `mad.lo.cc`, `mad.hi.cc` and `madc`
/// (u32, s32, u64, s64, with and without `.cc`), run as a one-line program with `CC.CF` set to
/// the GPU's carry in, must give the GPU's `d` and carry out.
#[test]
fn every_gpu_case_of_the_carry_chain_in_a_program() {
    use ptxlab_core::program::{parse_program, Machine, CARRY_FLAG};
    let chain = |p: &str| {
        [
            "add.cc.",
            "sub.cc.",
            "mad.lo.cc.",
            "mad.hi.cc.",
            "addc.",
            "subc.",
            "madc.",
        ]
        .iter()
        .any(|x| p.starts_with(x))
    };
    let (mut cases, mut compared, mut carries) = (0usize, 0usize, 0usize);
    let mut forms = BTreeSet::new();
    let mut machines: BTreeMap<String, Machine> = BTreeMap::new();
    for c in cases_of(chain) {
        cases += 1;
        forms.insert(c.ptx.clone());
        let m = machines.entry(c.ptx.clone()).or_insert_with(|| {
            let p = parse_program(&c.ptx).unwrap_or_else(|e| panic!("{}: {e}", c.ptx));
            Machine::new(p, &[]).expect("a machine")
        });
        let mut init: Vec<(String, u64)> = c
            .regs
            .iter()
            .filter(|(k, _)| k.as_str() != "CF")
            .filter(|(k, _)| m.register_index(k).is_some())
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        if let Some(cf) = c.regs.get("CF") {
            init.push((CARRY_FLAG.to_string(), *cf));
        }
        m.start_with(&init)
            .unwrap_or_else(|e| panic!("{}: {e}", c.ptx));
        m.run();
        // The stages say the same: d, and the carry out where one is written.
        let t = m.history()[0]
            .trace
            .as_ref()
            .expect("a carry step keeps its stages");
        assert_eq!(Some(t.result.raw() as u64), m.value("d"), "{}", c.ptx);
        let cf_stage = t
            .stages
            .iter()
            .find(|s| s.output.name == CARRY_FLAG && s.kind != ptxlab_core::trace::StageKind::Read);
        assert_eq!(
            cf_stage.map(|s| s.output.raw() as u64),
            c.out.get("CF").copied(),
            "{}",
            c.ptx
        );
        for (name, want) in &c.out {
            let reg = if name == "CF" {
                CARRY_FLAG
            } else {
                name.as_str()
            };
            let got = m.value(reg);
            assert_eq!(
                got,
                Some(*want),
                "{} with {:x?}: {name}: GPU {want:#x}, ptxlab {got:x?}",
                c.ptx,
                c.regs
            );
            compared += 1;
            carries += usize::from(name == "CF");
        }
    }
    // 56 register forms, and 27 with immediates or ignored suffixes measured on 2026-11-27.
    assert_eq!(forms.len(), 83, "{forms:?}");
    assert!(cases >= 83 * 48, "{cases} cases");
    assert!(carries >= 32 * 48, "{carries} carries out");
    eprintln!("carry chain: {cases} GPU cases of {} forms, {compared} results equal ({carries} carries out)", forms.len());
}

fn cases_of(pick: impl Fn(&str) -> bool) -> Vec<Case> {
    cases().into_iter().filter(|c| pick(&c.ptx)).collect()
}

/// The same forms and inputs run on an H100 (`tests/data/gpu-programs-h100.jsonl.gz`, every
/// form file of `tests/data/` but the one-element vectors): ptxlab gives the H100's value for
/// every destination, and the H100 wrote what the H200 wrote wherever both ran a case.
#[test]
fn the_h100_computes_what_the_h200_did() {
    let h100 = cases_in(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/gpu-programs-h100.jsonl.gz"
    ));
    assert!(h100.len() > 130_000, "{} cases", h100.len());
    // Keyed by the form and every register it read (sources and prior values).
    type Key = (String, BTreeMap<String, u64>);
    let h200: BTreeMap<Key, BTreeMap<String, u64>> = cases()
        .into_iter()
        .map(|c| ((c.ptx, c.regs), c.out))
        .collect();
    let mut both = 0usize;
    for c in &h100 {
        if let Some(out) = h200.get(&(c.ptx.clone(), c.regs.clone())) {
            assert_eq!(
                out, &c.out,
                "{}: H100 and H200 differ for {:x?}",
                c.ptx, c.regs
            );
            both += 1;
        }
    }
    let r = compare(&h100);
    assert!(r.refused.is_empty(), "ptxlab refuses: {:?}", r.refused);
    assert!(
        r.wrong.is_empty(),
        "{} differ:\n{}",
        r.wrong.len(),
        r.wrong[..r.wrong.len().min(20)].join("\n")
    );
    assert!(both > 130_000, "{both} cases in both files");
    eprintln!(
        "H100: {} cases of {} forms equal ptxlab's; {both} of them equal the H200's",
        h100.len(),
        r.forms.len()
    );
}
