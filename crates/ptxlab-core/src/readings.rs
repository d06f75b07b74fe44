//! Two readings of every instruction: what the H100 computes, and what the ISA text's
//! pseudocode gives when followed literally.
//!
//! Both readings run the same evaluator, with the semantics chosen by a type
//! ([`crate::eval::semantics`]). At the few stages where the hardware departs from the text
//! (each listed in [`DIFFERENCES`] and explained in `docs/hardware-vs-spec.md`), the type picks
//! the step; the hardware path pays nothing for the other reading.
//!
//! ```
//! use ptxlab_core::{check, compare_readings, evaluate_reading, Inputs, Reading};
//!
//! let insn = check("vadd.u32.u32.u32 d.h1, a.b1, b.h1, c;").unwrap();
//! let inputs = Inputs::new(0x4936304f, 0x040f05be, 0xffe66ba5, 0);
//! assert_eq!(evaluate_reading(&insn, &inputs, Reading::Hardware), 0x0000_6ba5);
//! assert_eq!(evaluate_reading(&insn, &inputs, Reading::Text), 0x043f_6ba5);
//! let div = compare_readings(&insn, &inputs).unwrap();
//! assert_eq!(div.difference.unwrap().anchor(), "merge-h1");
//! ```

use serde::Serialize;

pub use crate::differences::{
    DiffId, DiffKind, Difference, Example, Reading, DIFFERENCES, DOC_PAGE, DOC_PATH,
};

use crate::ast::Instruction;
use crate::eval::{self, Inputs};
use crate::eval::{Hardware, Text};
use crate::trace::{Stage, StageKind, Trace};

impl Example {
    /// The example's source values.
    pub fn inputs(&self) -> Inputs {
        Inputs::new(self.a, self.b, self.c, self.e)
    }
}

/// Where the two readings of one case part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    /// The H100's value.
    pub hardware: u64,
    /// The literal text's value.
    pub text: u64,
    /// Index (in both traces' `stages`) of the first stage whose kind, lane or value differs.
    pub stage: usize,
    /// That stage's kind in the hardware trace (or in the text trace when the hardware trace is
    /// shorter).
    pub kind: StageKind,
    /// The hardware's stage there, when its trace has one.
    pub hardware_stage: Option<Stage>,
    /// The text's stage there, when its trace has one.
    pub text_stage: Option<Stage>,
    /// The entry of `docs/hardware-vs-spec.md` that explains the difference.
    pub difference: Option<DiffId>,
}

/// Whether the two readings can ever give different values for this instruction: every video
/// instruction, the 64-bit `bfe`/`bfi` and `fns`. For the other integer instructions the text
/// reading runs exactly the hardware's code, and a program row has one reading.
pub fn readings_may_differ(insn: &Instruction) -> bool {
    use crate::isa::{Family, Instr, Opcode};
    match insn.instr {
        Instr::Table(Opcode::Bfe | Opcode::Bfi) => insn.form.ty(0).bits() == 64,
        Instr::Table(Opcode::Fns) => true,
        Instr::Table(op) => op.family() != Family::Integer,
        // One reading: the ISA text and the measured GPU agree.
        Instr::Program(_) => false,
    }
}

/// Evaluate with either reading. Allocates nothing.
#[inline]
pub fn evaluate_reading(insn: &Instruction, inputs: &Inputs, reading: Reading) -> u64 {
    eval::evaluate_as(insn, inputs, reading)
}

/// Evaluate with either reading and record every stage. Stages where the hardware departs from
/// the text carry [`crate::trace::Flag::HardwareDiffersFromText`] (and the entry explaining it) only when the
/// two readings' answers differ.
pub fn evaluate_traced_reading(insn: &Instruction, inputs: &Inputs, reading: Reading) -> Trace {
    match reading {
        Reading::Hardware => eval::traced::<Hardware>(insn, inputs),
        Reading::Text => eval::traced::<Text>(insn, inputs),
    }
}

/// Whether two stages show the same step with the same value.
fn same_step(x: &Stage, y: &Stage) -> bool {
    x.kind == y.kind && x.lane == y.lane && x.output.value == y.output.value
}

/// Compare the two readings of one case: `None` when they give the same value; otherwise both
/// values, the first stage where the traces part and the entry that explains why.
pub fn compare_readings(insn: &Instruction, inputs: &Inputs) -> Option<Divergence> {
    if !readings_may_differ(insn) {
        return None;
    }
    let hardware = evaluate_reading(insn, inputs, Reading::Hardware);
    let text = evaluate_reading(insn, inputs, Reading::Text);
    if hardware == text {
        return None;
    }
    let h = evaluate_traced_reading(insn, inputs, Reading::Hardware);
    let t = evaluate_traced_reading(insn, inputs, Reading::Text);
    let n = h.stages.len().min(t.stages.len());
    let stage = (0..n)
        .find(|&i| !same_step(&h.stages[i], &t.stages[i]))
        .unwrap_or(n);
    let hardware_stage = h.stages.get(stage).cloned();
    let text_stage = t.stages.get(stage).cloned();
    let kind = hardware_stage
        .as_ref()
        .or(text_stage.as_ref())
        .map_or(StageKind::Result, |s| s.kind);
    let difference = h
        .stages
        .iter()
        .chain(t.stages.iter())
        .find_map(|s| s.difference);
    Some(Divergence {
        hardware,
        text,
        stage,
        kind,
        hardware_stage,
        text_stage,
        difference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check;
    use crate::trace::Flag;

    #[test]
    fn table_follows_the_enum() {
        assert_eq!(DIFFERENCES.len(), DiffId::ALL.len());
        for (i, d) in DIFFERENCES.iter().enumerate() {
            assert_eq!(d.id as usize, i, "{:?} out of order", d.id);
            assert_eq!(DiffId::from_anchor(d.anchor()), Some(d.id));
            assert!(!d.summary.is_empty() && !d.title.is_empty());
        }
    }

    #[test]
    fn every_example_gives_both_documented_values() {
        for d in DIFFERENCES {
            for e in d.examples {
                let insn = check(e.ptx).unwrap_or_else(|x| panic!("{}: {}", e.ptx, x.message));
                let i = e.inputs();
                let hw = evaluate_reading(&insn, &i, Reading::Hardware);
                let tx = evaluate_reading(&insn, &i, Reading::Text);
                assert_eq!(
                    hw,
                    e.hardware,
                    "{}: hardware reading of {}",
                    d.anchor(),
                    e.ptx
                );
                assert_eq!(tx, e.text, "{}: text reading of {}", d.anchor(), e.ptx);
                // Traces end on the same values.
                let th = evaluate_traced_reading(&insn, &i, Reading::Hardware);
                let tt = evaluate_traced_reading(&insn, &i, Reading::Text);
                assert_eq!(th.result.raw() as u64, hw);
                assert_eq!(tt.result.raw() as u64, tx);
                assert_eq!(tt.reading, Reading::Text);
                match d.kind {
                    DiffKind::Contradicts => assert_ne!(hw, tx, "{}", d.anchor()),
                    DiffKind::Unspecified => assert_eq!(hw, tx, "{}", d.anchor()),
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn contradictions_are_explained_by_their_own_entry() {
        for d in DIFFERENCES
            .iter()
            .filter(|d| d.kind == DiffKind::Contradicts)
        {
            for e in d.examples {
                let insn = check(e.ptx).unwrap();
                let div = compare_readings(&insn, &e.inputs())
                    .unwrap_or_else(|| panic!("{}: readings agree", e.ptx));
                assert_eq!(div.hardware, e.hardware);
                assert_eq!(div.text, e.text);
                assert_eq!(div.difference, Some(d.id), "{}", e.ptx);
                let t = evaluate_traced_reading(&insn, &e.inputs(), Reading::Hardware);
                assert!(t
                    .stages
                    .iter()
                    .any(|s| s.flags.contains(&Flag::HardwareDiffersFromText)));
            }
        }
    }

    #[test]
    fn agreeing_readings_carry_no_difference_flag() {
        let insn = check("vadd.u32.u32.u32 d.h1, a.b1, b.h1, c;").unwrap();
        // The result's low half-word is 0: both merges give the same word.
        let i = Inputs::new(0, 0, 0x1234_5678, 0);
        assert!(compare_readings(&insn, &i).is_none());
        let t = evaluate_traced_reading(&insn, &i, Reading::Hardware);
        assert!(t
            .stages
            .iter()
            .all(|s| s.difference.is_none() && !s.flags.contains(&Flag::HardwareDiffersFromText)));
    }
}

#[cfg(test)]
mod doc_tests {
    use super::*;
    use crate::{check, widths};

    const DOC: &str = include_str!("../../../docs/hardware-vs-spec.md");

    /// The `## <a id="..."></a>` headings of the page, with each section's text.
    fn sections() -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for line in DOC.lines() {
            if let Some(rest) = line.strip_prefix("## ") {
                let anchor = rest
                    .strip_prefix("<a id=\"")
                    .and_then(|r| r.split_once("\"></a>"))
                    .map(|(a, _)| a.to_string())
                    .unwrap_or_default();
                out.push((anchor, String::new()));
            } else if let Some(last) = out.last_mut() {
                last.1.push_str(line);
                last.1.push('\n');
            }
        }
        out
    }

    #[test]
    fn every_entry_has_its_section_and_every_section_its_entry() {
        let secs = sections();
        let anchors: Vec<&str> = secs
            .iter()
            .map(|(a, _)| a.as_str())
            .filter(|a| !a.is_empty())
            .collect();
        for d in DIFFERENCES {
            assert!(
                anchors.contains(&d.anchor()),
                "no section with anchor {}",
                d.anchor()
            );
        }
        for a in &anchors {
            assert!(DiffId::from_anchor(a).is_some(), "section {a} has no entry");
        }
        assert_eq!(anchors.len(), DIFFERENCES.len(), "an anchor appears twice");
    }

    #[test]
    fn every_example_is_written_in_its_section_with_both_values() {
        let secs = sections();
        for d in DIFFERENCES {
            let text = &secs.iter().find(|(a, _)| a == d.anchor()).unwrap().1;
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            for e in d.examples {
                assert!(
                    flat.contains(e.ptx),
                    "{}: {} not in the page",
                    d.anchor(),
                    e.ptx
                );
                let bits = widths(&check(e.ptx).unwrap()).dst;
                let digits = bits.div_ceil(4) as usize;
                for v in [e.hardware, e.text] {
                    let hex = format!("0x{v:0digits$x}");
                    assert!(flat.contains(&hex), "{}: {hex} not in the page", d.anchor());
                }
            }
        }
    }
}
