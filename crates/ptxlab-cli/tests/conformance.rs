//! Every measured case in `../shared/conformance/` is compared, one test per instruction family,
//! so a failure names the family and shows its first failing cases with their traces.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use ptxlab_cli::{decide, describe_mismatch, opcode_of, read_jsonl, Case, Decision, Outcome};
use ptxlab_core::{Family, Opcode};

fn shared() -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance");
    assert!(
        p.is_dir(),
        "conformance data not found at {}: the shared folder must sit beside the repository",
        p.display()
    );
    p
}

fn cases() -> &'static Vec<Case> {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let lines = read_jsonl::<Case>(&shared().join("h100-cases.jsonl.gz")).expect("readable");
        lines
            .into_iter()
            .map(|(n, c)| c.unwrap_or_else(|e| panic!("h100-cases line {n}: {e}")))
            .collect()
    })
}

fn family_of(ptx: &str) -> Option<Family> {
    Opcode::from_name(&opcode_of(ptx)).map(Opcode::family)
}

/// Check every case of one family; fail with the count per opcode and the first failures.
fn check_family(fam: Family) {
    let mut total = 0;
    let mut failed: BTreeMap<String, usize> = BTreeMap::new();
    let mut shown = Vec::new();
    for case in cases().iter().filter(|c| family_of(&c.ptx) == Some(fam)) {
        total += 1;
        let msg = match case.check() {
            Outcome::Pass => continue,
            Outcome::Error(e) => format!("{}: {e}", case.ptx),
            Outcome::Mismatch {
                insn,
                inputs,
                got,
                want,
            } => describe_mismatch(case, &insn, &inputs, got, want),
        };
        let n = failed.entry(opcode_of(&case.ptx)).or_default();
        if *n == 0 && shown.len() < 8 {
            shown.push(msg);
        }
        *n += 1;
    }
    assert!(total > 0, "no cases for {fam:?}");
    let nfail: usize = failed.values().sum();
    assert!(
        nfail == 0,
        "{fam:?}: {} passed, {nfail} failed; failures by opcode: {failed:?}\nfirst failure of each opcode:\n{}",
        total - nfail,
        shown.join("\n")
    );
}

#[test]
fn h100_scalar_video() {
    check_family(Family::ScalarVideo);
}

#[test]
fn h100_vmad() {
    check_family(Family::Vmad);
}

#[test]
fn h100_simd2() {
    check_family(Family::Simd2);
}

#[test]
fn h100_simd4() {
    check_family(Family::Simd4);
}

#[test]
fn h100_integer() {
    check_family(Family::Integer);
}

#[test]
fn h100_every_case_belongs_to_a_family() {
    let unknown: Vec<&str> = cases()
        .iter()
        .filter(|c| family_of(&c.ptx).is_none())
        .map(|c| c.ptx.as_str())
        .take(5)
        .collect();
    assert!(
        unknown.is_empty(),
        "cases with unknown opcodes: {unknown:?}"
    );
    assert_eq!(cases().len(), 159_632, "the measured file changed size");
}

fn check_decisions(file: &str) {
    let path = shared().join(file);
    let mut total = 0;
    let mut failed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (n, d) in read_jsonl::<Decision>(&path).expect("readable") {
        let d = d.unwrap_or_else(|e| panic!("{file} line {n}: {e}"));
        total += 1;
        let (agree, diag) = decide(&d);
        if !agree {
            let why = if d.accepted {
                format!("ptxas accepts, we reject ({}): {}", diag.unwrap(), d.ptx)
            } else {
                format!("ptxas rejects ({}), we accept: {}", d.ptxas, d.ptx)
            };
            failed.entry(opcode_of(&d.ptx)).or_default().push(why);
        }
    }
    let nfail: usize = failed.values().map(Vec::len).sum();
    let firsts: Vec<String> = failed
        .iter()
        .map(|(k, v)| format!("{k} ({} disagreements), first: {}", v.len(), v[0]))
        .collect();
    assert!(
        nfail == 0,
        "{file}: {} passed, {nfail} failed\n{}",
        total - nfail,
        firsts.join("\n")
    );
}

#[test]
fn ptxas_acceptance() {
    check_decisions("ptxas-acceptance.jsonl");
}
