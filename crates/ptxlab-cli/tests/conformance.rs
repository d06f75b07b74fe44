//! Every measured case in `../shared/conformance/` is compared, one test per instruction family,
//! so a failure names the family and shows its first failing cases with their traces. Without
//! the shared data each test says what is missing (see `shared/mod.rs`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use ptxlab_cli::{decide, describe_mismatch, opcode_of, read_jsonl, Case, Decision, Outcome};
use ptxlab_core::{Family, Opcode};

#[path = "../../ptxlab-core/tests/shared/mod.rs"]
mod shared;

/// The measured H100 cases, or `None` (explained on stderr) when the shared data is absent.
fn cases() -> Option<&'static Vec<Case>> {
    static CASES: OnceLock<Option<Vec<Case>>> = OnceLock::new();
    CASES
        .get_or_init(|| {
            let path = shared::conformance_file("h100-cases.jsonl.gz")?;
            let lines = read_jsonl::<Case>(&path).expect("readable");
            Some(
                lines
                    .into_iter()
                    .map(|(n, c)| c.unwrap_or_else(|e| panic!("h100-cases line {n}: {e}")))
                    .collect(),
            )
        })
        .as_ref()
}

fn family_of(ptx: &str) -> Option<Family> {
    Opcode::from_name(&opcode_of(ptx)).map(Opcode::family)
}

/// Check every case of one family; fail with the count per opcode and the first failures.
fn check_family(fam: Family) {
    let mut total = 0;
    let mut failed: BTreeMap<String, usize> = BTreeMap::new();
    let mut shown = Vec::new();
    let Some(cases) = cases() else { return };
    for case in cases.iter().filter(|c| family_of(&c.ptx) == Some(fam)) {
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
    let Some(cases) = cases() else { return };
    let unknown: Vec<&str> = cases
        .iter()
        .filter(|c| family_of(&c.ptx).is_none())
        .map(|c| c.ptx.as_str())
        .take(5)
        .collect();
    assert!(
        unknown.is_empty(),
        "cases with unknown opcodes: {unknown:?}"
    );
    assert_eq!(cases.len(), 159_632, "the measured file changed size");
}

fn check_decisions(file: &str) {
    let Some(path) = shared::conformance_file(file) else {
        return;
    };
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

/// On every measured case the text reading differs from the hardware exactly when the hardware
/// trace flags a stage as departing from the text, and such a case names its entry of
/// `docs/hardware-vs-spec.md`.
#[test]
fn text_reading_differs_exactly_where_flagged() {
    use ptxlab_core::trace::{Flag, FlagSet};
    use ptxlab_core::{check, compare_readings, evaluate_reading, evaluate_traced, Reading};
    let mut differ: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_entry: BTreeMap<&str, usize> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut notes_problems = Vec::new();
    let Some(cases) = cases() else { return };
    for case in cases {
        let (Ok(insn), Ok(inputs)) = (check(&case.ptx), case.inputs()) else {
            continue;
        };
        let hw = evaluate_reading(&insn, &inputs, Reading::Hardware);
        let text = evaluate_reading(&insn, &inputs, Reading::Text);
        let trace = evaluate_traced(&insn, &inputs);
        let flagged = trace
            .stages
            .iter()
            .any(|s| s.flags.contains(&Flag::HardwareDiffersFromText));
        if flagged != (hw != text) && problems.len() < 10 {
            problems.push(format!(
                "{} a={:?} b={:?} c={:?}: hw 0x{hw:x} text 0x{text:x} flagged {flagged}",
                case.ptx, case.a, case.b, case.c
            ));
        }
        // The cheap notes agree with the flags the stages show.
        let mut fs = FlagSet::default();
        ptxlab_core::eval::run(&insn, &inputs, &mut fs);
        // Wrapped is noted when the value written did not fit `d`; stages also flag the
        // hardware's internal truncations, so only one direction holds for it.
        for f in [
            Flag::ClampedHigh,
            Flag::ClampedLow,
            Flag::MaskedOff,
            Flag::DivideByZero,
            Flag::Wrapped,
        ] {
            let in_stages = trace.stages.iter().any(|s| s.flags.contains(&f));
            let agree = if f == Flag::Wrapped {
                in_stages || !fs.contains(f)
            } else {
                in_stages == fs.contains(f)
            };
            if !agree && notes_problems.len() < 10 {
                notes_problems.push(format!(
                    "{} a={:?} b={:?} c={:?}: {f:?} noted {} in stages {in_stages}",
                    case.ptx,
                    case.a,
                    case.b,
                    case.c,
                    fs.contains(f)
                ));
            }
        }
        if hw != text {
            *differ.entry(opcode_of(&case.ptx)).or_default() += 1;
            let div = compare_readings(&insn, &inputs).expect("readings differ");
            match div.difference {
                Some(id) => *by_entry.entry(id.anchor()).or_default() += 1,
                None if problems.len() < 10 => {
                    problems.push(format!("{}: no entry explains it", case.ptx))
                }
                None => {}
            }
        }
    }
    println!("cases where the text reading differs, by opcode: {differ:?}");
    println!("by entry: {by_entry:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(notes_problems.is_empty(), "{}", notes_problems.join("\n"));
    let total: usize = differ.values().sum();
    assert_eq!(
        (total, by_entry.get("simd-merge-lanes").copied()),
        (48_247, Some(39_163)),
        "the counts quoted in docs/hardware-vs-spec.md changed"
    );
}

/// The claims of `docs/hardware-vs-spec.md#ptxas-vs-isa`: ptxas decisions the validator follows.
#[test]
fn ptxas_vs_isa_claims() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/ptxas-vs-isa.jsonl");
    let mut n = 0;
    for (line, d) in read_jsonl::<Decision>(&path).expect("readable") {
        let d = d.unwrap_or_else(|e| panic!("line {line}: {e}"));
        let (agree, diag) = decide(&d);
        assert!(
            agree,
            "line {line}: {} ({:?})",
            d.ptx,
            diag.map(|x| x.message)
        );
        n += 1;
    }
    assert!(n >= 15, "only {n} claims");
}
