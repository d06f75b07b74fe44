//! ptxas 13.5's decisions (sm_90) about lines of kernel code, in `tests/data/ptxas-kernels.jsonl`
//! (made by `scripts/ptxas_kernels.py`): loads and stores in every space, vectors, addresses,
//! cvta, branches, variables, special registers and the carry chain, each inside the same whole
//! kernel. ptxlab reads the same kernel text with `parse_program` and must accept exactly what
//! ptxas accepts, but for the disagreements named in [`KNOWN`], each with why.

use ptxlab_core::program::parse_program;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Lines where ptxlab's verdict is knowingly not ptxas's, by how the line starts, with the
/// reason.
const KNOWN: &[(&str, &str)] = &[
    (
        "cvta.shared.",
        "generic addresses of the shared, local, const and param spaces are not modelled: \
         ptxlab's generic addresses are global ones, so it refuses cvta for the others",
    ),
    ("cvta.to.shared.", "as cvta.shared"),
    ("cvta.local.", "as cvta.shared"),
    ("cvta.to.local.", "as cvta.shared"),
    ("cvta.const.", "as cvta.shared"),
    ("cvta.to.const.", "as cvta.shared"),
    ("cvta.param.", "as cvta.shared"),
    ("cvta.to.param.", "as cvta.shared"),
];

/// The kernel the script puts each line into (its KERNEL string).
fn kernel() -> String {
    let script = std::fs::read_to_string(format!("{ROOT}/scripts/ptxas_kernels.py")).unwrap();
    let start = script.find("KERNEL = \"\"\"").expect("the KERNEL string") + 12;
    let end = start + script[start..].find("\"\"\"").unwrap();
    script[start..end].to_string()
}

#[test]
fn ptxlab_accepts_the_kernel_lines_ptxas_accepts() {
    let template = kernel();
    let text = std::fs::read_to_string(format!("{ROOT}/tests/data/ptxas-kernels.jsonl")).unwrap();
    let mut wrong = Vec::new();
    let (mut n, mut known, mut crashed) = (0, 0, Vec::new());
    for l in text.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let line = v["ptx"].as_str().unwrap();
        let ours = parse_program(&template.replace("LINE", line));
        let Some(accepted) = v["accepted"].as_bool() else {
            // ptxas crashed: no decision to compare. They are listed and counted below.
            crashed.push(line.to_string());
            continue;
        };
        n += 1;
        if ours.is_ok() != accepted && KNOWN.iter().any(|(k, _)| line.starts_with(k)) {
            known += 1;
            continue;
        }
        if ours.is_ok() != accepted {
            wrong.push(format!(
                "{line}: ptxas {} ({}), ptxlab {}",
                if accepted { "accepts" } else { "rejects" },
                v["ptxas"].as_str().unwrap_or(""),
                match &ours {
                    Ok(_) => "accepts".to_string(),
                    Err(e) => format!("rejects: {e}"),
                }
            ));
        }
    }
    assert!(n >= 500, "{n} lines");
    assert!(
        wrong.is_empty(),
        "{} of {n} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert_eq!(known, 8, "the cvta lines of KNOWN");
    // ptxas 13.5 crashes (signal 11) on 16-bit .v8 loads; ptxlab reads them.
    assert!(
        crashed.iter().all(|l| l.contains(".v8.u16 {")) && crashed.len() == 4,
        "{crashed:?}"
    );
    eprintln!(
        "{n} ptxas decisions compared: {} equal, {known} known differences",
        n - known
    );
}
