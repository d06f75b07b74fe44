//! ptxas 13.5's decisions (sm_90) about lines of kernel code, in `tests/data/ptxas-kernels.jsonl`
//! (made by `scripts/ptxas_kernels.py`): loads and stores in every space, vectors, addresses,
//! cvta, branches, variables, special registers and the carry chain, each inside the same whole
//! kernel. ptxlab reads the same kernel text with `parse_program` and must accept exactly what
//! ptxas accepts (`cvta` to and from every space included, since generic addresses have a
//! window for each space).

use ptxlab_core::program::parse_program;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

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
    let (mut n, mut crashed) = (0, Vec::new());
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
    // ptxas 13.5 crashes (signal 11) on 16-bit .v8 loads, which ptxlab reads, and on a store
    // to the parameters through a 32-bit register, which ptxlab refuses (no st to a kernel's
    // parameters).
    assert!(
        crashed
            .iter()
            .all(|l| l.contains(".v8.u16 {") || l == "st.param.u32 [%r2], %r1;")
            && crashed.len() == 5,
        "{crashed:?}"
    );
    eprintln!("{n} ptxas decisions compared, all equal");
}
