//! Arbitrary text and values never panic the parser, validator or evaluator.

use proptest::prelude::*;
use ptxlab_core::gen::{instruction, Rng};
use ptxlab_core::sweep::{default_axes, suggest_axes, sweep};
use ptxlab_core::{
    batch, compare_readings, evaluate, evaluate_reading, evaluate_traced, evaluate_traced_reading,
    parse, sass, validate, Inputs, Instruction, Reading,
};

/// The explorer's entry points on one instruction of either kind: axes, a small sweep, a batch
/// read from `text` and its CSV.
fn explore(any: &Instruction, text: &str, inputs: &Inputs) {
    let _ = suggest_axes(any);
    let (x, y) = default_axes(any);
    let s = sweep(
        any,
        inputs,
        &x.with_range(inputs.a, 0x1_0001, 3),
        &y.with_range(inputs.b, 7, 3),
    );
    assert_eq!(s.d.len(), 9);
    let lines = batch::parse_batch(text, any);
    let rows = batch::evaluate_batch(any, &lines);
    let _ = batch::batch_csv(any, &rows);
}

/// Run everything the library offers on one text and one set of values.
fn exercise(text: &str, inputs: &Inputs) {
    // Either table's instructions (`vadd`, `prmt`, `setp`...) through the same entry points.
    if let Ok(insn) = parse(text) {
        let _ = insn.canonical();
        let valid = validate(&insn).is_ok();
        // The evaluator must also survive instructions the validator rejects.
        let d = evaluate(&insn, inputs);
        let t = evaluate_traced(&insn, inputs);
        // The trace's result is the first destination written (a program row's `_` is not).
        let first = match insn.opcode() {
            Some(_) => t.result.raw() as u64,
            None => insn.evaluate(inputs).values[0].value.unwrap_or(0),
        };
        assert_eq!(first, d, "trace and fast path disagree on {text}");
        // Both readings, their comparison, and the explorer's entry points.
        assert_eq!(evaluate_reading(&insn, inputs, Reading::Hardware), d);
        let tx = evaluate_reading(&insn, inputs, Reading::Text);
        let tt = evaluate_traced_reading(&insn, inputs, Reading::Text);
        assert_eq!(tt.result.raw() as u64, tx, "text trace disagrees on {text}");
        match compare_readings(&insn, inputs) {
            Some(div) => assert!(div.hardware == d && div.text == tx && d != tx),
            None => assert_eq!(d, tx, "{text}"),
        }
        explore(&insn, text, inputs);
        let _ = sass::lookup(&insn);
        if valid {
            // A valid instruction's canonical text parses back to the same meaning.
            let again = parse(&insn.canonical()).expect("canonical text parses");
            assert_eq!(again.instr, insn.instr);
            assert_eq!(again.form, insn.form, "{text}");
            assert!(
                validate(&again).is_ok(),
                "canonical of valid {text} is rejected"
            );
            assert_eq!(evaluate(&again, inputs), d);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,80}", a: u64, b: u64, c: u64, e: u64) {
        exercise(&text, &Inputs::new(a, b, c, e));
    }

    #[test]
    fn instruction_like_text_never_panics(seed: u64, a: u64, b: u64, c: u64, e: u64) {
        let mut r = Rng::new(seed);
        let text = instruction(&mut r);
        exercise(&text, &Inputs::new(a, b, c, e));
    }

    #[test]
    fn ascii_soup_never_panics(text in "[a-z0-9.,;@!%_ -]{0,60}") {
        exercise(&text, &Inputs::default());
    }
}

#[test]
fn very_long_text_is_rejected_with_a_message() {
    let text = "vadd.u32.u32.u32 d, a, b".repeat(10_000);
    let e = parse(&text).unwrap_err();
    assert!(e.message.contains("at most"), "{}", e.message);
}
