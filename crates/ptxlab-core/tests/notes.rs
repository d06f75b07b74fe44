//! Every worked example the reader sees: the notes of every modifier and selector form
//! (`ptxlab_core::notes`) and every example of every difference entry. Each must be accepted
//! and evaluate; a note's sentence must show the value the core computes; every example marked
//! measured must be an H100 case with that very value. A wrong example, or an evaluator that
//! changes, fails here.

mod shared;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};

use ptxlab_core::differences::{DiffKind, DIFFERENCES};
use ptxlab_core::eval::evaluate_as;
use ptxlab_core::notes::{every_note, Example, SelectorNote};
use ptxlab_core::{check, Inputs, Reading};

/// The measured cases, keyed by instruction and sources, with the H100's `d`.
fn measured() -> Option<HashMap<(String, [u64; 4]), u64>> {
    let path = shared::conformance_file("h100-cases.jsonl.gz")?;
    let f = std::fs::File::open(path).expect("readable");
    let hex = |v: &serde_json::Value, k: &str| {
        v.get(k)
            .and_then(|x| x.as_str())
            .map(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex"))
            .unwrap_or(0)
    };
    let mut m = HashMap::new();
    for l in BufReader::new(flate2::read::GzDecoder::new(f)).lines() {
        let v: serde_json::Value = serde_json::from_str(&l.expect("line")).expect("json");
        let ptx = v["ptx"].as_str().expect("ptx").to_string();
        let key = [hex(&v, "a"), hex(&v, "b"), hex(&v, "c"), hex(&v, "e")];
        m.insert((ptx, key), hex(&v, "d"));
    }
    Some(m)
}

fn key(ex: &Example) -> (String, [u64; 4]) {
    (ex.ptx.clone(), [ex.a, ex.b, ex.c, ex.e])
}

#[test]
fn every_note_example_evaluates_and_shows_its_value() {
    let notes = every_note();
    assert!(notes.len() > 47 * 3, "every opcode and modifier has a note");
    let mut with_example = 0;
    for (whence, note) in &notes {
        assert!(!note.text.is_empty(), "{whence}: empty note");
        let Some(ex) = &note.example else { continue };
        with_example += 1;
        let w = ex
            .worked()
            .unwrap_or_else(|e| panic!("{whence}: example `{}` is not accepted: {e}", ex.ptx));
        let insn = ptxlab_core::insn::check(&ex.ptx).expect("checked above");
        assert_eq!(w.d, insn.value(&ex.inputs()), "{whence}");
        let shown = note.render();
        assert!(shown.starts_with(&note.text), "{whence}");
        assert!(shown.contains(&ex.ptx), "{whence}: {shown}");
        assert!(!shown.contains("not accepted"), "{whence}: {shown}");
        // The value the sentence shows is the value the core computed.
        let shown_d = shown
            .split("gives d=0x")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|h| u64::from_str_radix(h, 16).ok());
        assert_eq!(
            shown_d,
            Some(w.d),
            "{whence}: the sentence shows d: {shown}"
        );
    }
    assert!(
        with_example > 47,
        "most notes carry an example ({with_example})"
    );
}

#[test]
fn measured_examples_are_h100_cases_with_the_same_value() {
    let Some(data) = measured() else { return };
    let mut checked = 0;
    let note_examples = every_note()
        .into_iter()
        .filter_map(|(w, n)| n.example.map(|e| (w, e)));
    for (whence, ex) in note_examples {
        if !ex.measured {
            continue;
        }
        let Some(&hw) = data.get(&key(&ex)) else {
            panic!(
                "{whence}: `{}` a={:#x} b={:#x} c={:#x} is marked measured but is not in the data",
                ex.ptx, ex.a, ex.b, ex.c
            );
        };
        let w = ex.worked().expect("accepted");
        assert_eq!(w.d, hw, "{whence}: the core's d and the H100's differ");
        checked += 1;
    }
    // Every difference example about values is a measured case.
    for entry in DIFFERENCES.iter().filter(|e| e.kind != DiffKind::Assembler) {
        for ex in entry.examples {
            let k = (ex.ptx.to_string(), [ex.a, ex.b, ex.c, ex.e]);
            let Some(&hw) = data.get(&k) else {
                panic!(
                    "{}: `{}` a={:#x} b={:#x} c={:#x} e={:#x} is not a measured case",
                    entry.title, ex.ptx, ex.a, ex.b, ex.c, ex.e
                );
            };
            assert_eq!(
                ex.hardware, hw,
                "{}: the page's H100 value is not the data's",
                entry.title
            );
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked} measured examples");
}

#[test]
fn difference_examples_evaluate_to_both_stated_values() {
    for entry in DIFFERENCES.iter().filter(|e| e.kind != DiffKind::Assembler) {
        assert!(!entry.examples.is_empty(), "{}", entry.title);
        for ex in entry.examples {
            let insn = check(ex.ptx).unwrap_or_else(|e| panic!("{}: {e}", entry.title));
            let i = Inputs::new(ex.a, ex.b, ex.c, ex.e);
            assert_eq!(
                evaluate_as(&insn, &i, Reading::Hardware),
                ex.hardware,
                "{}",
                entry.title
            );
            assert_eq!(
                evaluate_as(&insn, &i, Reading::Text),
                ex.text,
                "{}",
                entry.title
            );
        }
    }
}

#[test]
fn notes_are_chosen_by_the_form() {
    let of = |t: &str| SelectorNote::of(&check(t).unwrap());
    assert_eq!(
        of("vadd2.u32.u32.u32.add d.h1, a, b, c;"),
        Some(SelectorNote::Simd2Add)
    );
    assert_eq!(
        of("vadd2.u32.u32.u32 d.h1, a, b, c;"),
        Some(SelectorNote::Simd2Merge)
    );
    assert_eq!(
        of("vadd4.u32.u32.u32.add d, a, b, c;"),
        Some(SelectorNote::Simd4Add)
    );
    assert_eq!(
        of("vmad.u32.u32.u32 d, a.b0, b, c;"),
        Some(SelectorNote::Vmad)
    );
    assert_eq!(
        of("vadd.u32.u32.u32 d, a.b0, b;"),
        Some(SelectorNote::Scalar)
    );
    assert_eq!(of("add.u32 d, a, b;"), None);
    // A program instruction's mode note carries an example of that mode.
    let ecl = ptxlab_core::insn::check("prmt.b32.ecl d, a, b, c;").unwrap();
    let notes = ptxlab_core::notes::program(ecl.as_op().unwrap());
    let mode = notes
        .iter()
        .find(|n| n.text.starts_with(".ecl:"))
        .expect("the .ecl note");
    let ex = mode.example.as_ref().expect("an example");
    assert!(ex.ptx.contains(".ecl"));
    // Byte 1 (c & 3) is repeated into byte 0; bytes 1-3 stay.
    assert_eq!(ex.worked().unwrap().d, 0x4433_2222);
    // The vmad note does not speak of a d selector as a merge; the .add note does not say the
    // other lanes come from c.
    assert!(!SelectorNote::Vmad.note().text.contains("merges"));
    assert!(!SelectorNote::Simd2Add
        .note()
        .text
        .contains("the other lanes are c's"));
}

/// `cargo test -p ptxlab-core --test notes print_every_note -- --ignored --nocapture` shows
/// every note as the reader sees it.
#[test]
#[ignore]
fn print_every_note() {
    for (whence, note) in every_note() {
        println!("{whence}: {}", note.render());
    }
}

/// Every saturation stage's formula, range and output come from one `Saturation`; in debug
/// builds `Stage::saturate` checks that the output is what the formula gives. Tracing every
/// measured saturated case (both readings) runs that check over the data.
#[test]
fn every_saturation_stage_computes_its_own_formula_on_the_data() {
    let Some(data) = measured() else { return };
    let mut traced = 0;
    for (ptx, [a, b, c, e]) in data.keys().filter(|(p, _)| p.contains(".sat")) {
        let insn = check(ptx).expect("measured texts check");
        let i = Inputs::new(*a, *b, *c, *e);
        for r in [Reading::Hardware, Reading::Text] {
            let t = ptxlab_core::evaluate_traced_reading(&insn, &i, r);
            for s in t
                .stages
                .iter()
                .filter(|s| s.kind == ptxlab_core::StageKind::Clamp)
            {
                assert!(!s.op.is_empty(), "{ptx}: a clamp stage without formula");
            }
        }
        traced += 1;
    }
    assert!(traced > 1000, "{traced} saturated cases");
}
