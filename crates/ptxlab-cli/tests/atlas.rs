//! The lowering atlas (`crates/ptxlab-cli/src/atlas.txt`, written by `scripts/atlas.py` from ptxas 13.5):
//! `ptxlab sass FORM --arch A --json` and `--all-archs`.

use std::collections::BTreeMap;
use std::process::Command;

use ptxlab_cli::atlas::atlas;
use ptxlab_core::atlas::ARCHS;

fn ptxlab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxlab"))
        .args(args)
        .output()
        .expect("ptxlab runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(form: &str, arch: &str) -> serde_json::Value {
    let (ok, out, err) = ptxlab(&["sass", form, "--arch", arch, "--json"]);
    assert!(ok, "{form} {arch}: {err}");
    serde_json::from_str(&out).expect("JSON")
}

fn multiset(v: &serde_json::Value) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for x in v.as_array().expect("an array") {
        *m.entry(x.as_str().expect("text").to_string()).or_insert(0) += 1;
    }
    m
}

/// The core read again from each listing, by the rule written out independently: drop
/// loads, stores, moves, constant loads, S2R/CS2R and control.
fn core_by_rule(sass: &[String]) -> Vec<String> {
    const DROP: &[&str] = &[
        "LDG", "STG", "LD", "ST", "MOV", "UMOV", "MOV32I", "LDC", "LDCU", "ULDC", "S2R", "S2UR",
        "CS2R", "EXIT", "BRA", "NOP", "RET", "CALL", "BSSY", "BSYNC", "WARPSYNC", "BAR",
    ];
    sass.iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let op = if words.first()?.starts_with('@') {
                words.get(1)?
            } else {
                words.first()?
            };
            let base = op.split('.').next()?;
            let const_move = base == "HFMA2" && l.contains("-RZ, RZ,");
            (!DROP.contains(&base) && !op.starts_with("IMAD.MOV") && !const_move)
                .then(|| op.to_string())
        })
        .collect()
}

#[test]
fn the_data_covers_every_form_on_every_architecture() {
    let a = atlas();
    assert_eq!(a.archs(), ARCHS);
    let n = a.forms().count();
    assert!(n > 2000, "{n} forms");
    let mut names = std::collections::BTreeSet::new();
    for (k, f) in a.forms().enumerate() {
        names.insert(f.split(['.', ' ']).next().unwrap_or("").to_string());
        for arch in 0..ARCHS.len() {
            let c = a.cost(k, arch);
            if c.available {
                assert!(!c.sass.is_empty(), "{f} {}", c.arch);
                assert_eq!(c.core, core_by_rule(&c.sass), "{f} {}", c.arch);
                assert_eq!(c.native, c.core.len() == 1);
            } else {
                assert!(c.message.as_deref().is_some_and(|m| !m.is_empty()), "{f}");
            }
        }
    }
    // The 47 table opcodes and the 23 program instructions.
    assert!(names.len() >= 61, "{} opcodes: {names:?}", names.len());
}

#[test]
fn the_json_gives_what_ptxas_13_5_emitted() {
    // Counts measured with ptxas 13.5 -O3 (issue 25's table), not read from the atlas.
    let v = json("vabsdiff4.u32.u32.u32.add d, a, b, c;", "sm_120");
    assert_eq!(v["available"], true);
    assert_eq!(v["native"], false);
    let want: BTreeMap<String, usize> = [
        ("VIMNMX.U8x4", 2),
        ("VIADD.U8x4", 1),
        ("IDP.4A.U8.U8", 1),
        ("IADD", 1),
    ]
    .iter()
    .map(|(k, n)| (k.to_string(), *n))
    .collect();
    assert_eq!(multiset(&v["core"]), want);
    let v = json("vabsdiff4.u32.u32.u32.add d, a, b, c;", "sm_90");
    assert_eq!(v["native"], true);
    assert_eq!(multiset(&v["core"]).len(), 1);
    for (form, arch, n) in [
        ("mad.hi.sat.s32 d, a, b, c;", "sm_90", 6),
        ("mad.hi.sat.s32 d, a, b, c;", "sm_120", 2),
        ("sub.sat.s32 d, a, b;", "sm_86", 5),
        ("sub.sat.s32 d, a, b;", "sm_120", 1),
        ("min.u64 d, a, b;", "sm_100", 4),
        ("min.u64 d, a, b;", "sm_120", 1),
        ("max.s16 d, a, b;", "sm_89", 3),
        ("max.s16 d, a, b;", "sm_90", 1),
        ("vadd.u32.u32.u32 d, a.b3, b.b3;", "sm_75", 3),
    ] {
        let v = json(form, arch);
        assert_eq!(v["exact"], true, "{form}");
        assert_eq!(
            v["core"].as_array().map(Vec::len),
            Some(n),
            "{form} {arch}: {v}"
        );
        assert!(v["sass"].as_array().is_some_and(|s| s.len() > n));
    }
    let v = json("mad.hi.sat.s32 d, a, b, c;", "120");
    assert!(v["core"].to_string().contains("VIADD.S32.ISAT"));
}

#[test]
fn a_refused_form_keeps_ptxas_message() {
    let v = json("min.relu.s16x2 d, a, b;", "sm_80");
    assert_eq!(v["available"], false);
    assert!(v["message"]
        .as_str()
        .is_some_and(|m| m.contains("requires .target sm_90")));
    assert_eq!(json("min.relu.s16x2 d, a, b;", "sm_90")["available"], true);
}

#[test]
fn the_table_marks_the_cheapest_and_dearest_architectures() {
    let (ok, out, _) = ptxlab(&["sass", "sub.sat.s32 d, a, b;", "--all-archs"]);
    assert!(ok);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("sm_")).collect();
    assert_eq!(rows.len(), 7);
    assert!(rows[6].contains("(cheapest)") && rows[6].contains("VIADD.S32.ISAT"));
    assert!(rows[0].contains("(dearest)"));
}

#[test]
fn a_form_outside_the_data_names_the_nearest_one() {
    let (ok, out, _) = ptxlab(&["sass", "vadd.u32.u32.u32 d, a.b2, b.b0;", "--arch", "sm_90"]);
    assert!(ok);
    assert!(out.starts_with("not in the atlas; the nearest measured form is shown: vadd."));
    let v = json("vadd.u32.u32.u32 d, a.b2, b.b0;", "sm_90");
    assert_eq!(v["exact"], false);
}

#[test]
fn bad_arguments_are_errors() {
    for args in [
        &["sass", "add.s32 d, a, b;", "--arch", "sm_70"][..],
        &["sass", "add.s32 d, a, b;", "--arch"],
        &["sass", "add.s32 d, a, b;", "--arch", "sm_90", "--all-archs"],
        &["sass", "nope d, a;", "--arch", "sm_90"],
    ] {
        let (ok, _, err) = ptxlab(args);
        assert!(!ok, "{args:?}");
        assert!(err.starts_with("ptxlab:"), "{args:?}: {err}");
    }
}

#[test]
fn a_cheaper_form_that_gives_the_same_d_is_named() {
    // vmin without .sat on u32 is min.u32 on every input; on sm_90 it costs more.
    let v = json("vmin.u32.u32.u32 d, a, b;", "sm_90");
    let ch = &v["cheaper"];
    let form = ch["form"].as_str().expect("a cheaper form");
    let theirs = json(form, "sm_90");
    let mine = v["core"].as_array().unwrap().len();
    let count = theirs["core"].as_array().unwrap().len();
    assert!(count < mine, "{form}: {count} against {mine}");
    assert_eq!(ch["count"], count);
    assert_eq!(ch["instead_of"], mine);
    assert_eq!(ch["method"], "sampled");
    assert_eq!(ch["random"], 1_000_000);
    assert_eq!(ch["seed"], "0x5eeda71a50000025");
    assert!(ch["proof"].as_str().unwrap().contains("edge vectors"));
    // The cheaper form has none cheaper than itself there.
    assert!(theirs["cheaper"].is_null());
    // A form of 16 bits of input in all was proven exhaustively.
    let ch = &json("cvt.s8.s16 d, a;", "sm_90")["cheaper"];
    assert_eq!(ch["method"], "exhaustive");
    assert_eq!(ch["bits"], 16);
    assert!(ch["proof"].as_str().unwrap().contains("all 65,536 inputs"));
    // The text says it too, and --all-archs names it for each architecture where it holds.
    let (ok, out, _) = ptxlab(&["sass", "vmin.u32.u32.u32 d, a, b;", "--arch", "sm_90"]);
    assert!(ok);
    assert!(
        out.contains(&format!("cheaper on sm_90: {form} gives the same d")),
        "{out}"
    );
    let (ok, out, _) = ptxlab(&["sass", "vmin.u32.u32.u32 d, a, b;", "--all-archs"]);
    assert!(ok);
    // One line for the architectures where the same form saves the same.
    let line = out
        .lines()
        .find(|l| l.starts_with("cheaper on "))
        .expect("a hint");
    assert!(line.contains("sm_90"), "{out}");
    // A form outside the atlas gets no hint (the nearest form is not the form asked about).
    let (ok, out, _) = ptxlab(&[
        "sass",
        "vmin.u32.u32.u32 d, a.b2, b.b1;",
        "--arch",
        "sm_90",
        "--json",
    ]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["exact"], false);
    assert!(v["cheaper"].is_null());
}
