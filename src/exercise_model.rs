//! Exercise sets: a list of cases in one link (`?set=`), worked through in predict mode; the
//! student's answers (`answers=`) and the summary of which stages they got wrong. Pure, so it is
//! tested natively; the page keeps the answers in the browser's storage only.

use std::collections::BTreeMap;

use ptxlab_core::insn;
use ptxlab_core::lesson::Lesson;
use ptxlab_core::predict::{self, Verdict};
use ptxlab_core::{Inputs, Trace};

use crate::num::{self, View};
use crate::query;

/// The most cases a set holds.
pub const MAX_CASES: usize = 20;

/// One case of a set: an instruction and its four source values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetCase {
    pub text: String,
    pub values: [u64; 4],
}

impl SetCase {
    /// The core's trace of the case (`None` when the text does not check).
    pub fn trace(&self) -> Option<Trace> {
        let i = insn::check(&self.text).ok()?;
        let [a, b, c, e] = self.values;
        Some(i.trace(&Inputs::new(a, b, c, e)))
    }
}

/// A set of cases.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExerciseSet {
    pub cases: Vec<SetCase>,
}

impl ExerciseSet {
    /// The set's text in the address: one case a line, `instruction|a|b|c|e` in hex.
    pub fn encode(&self) -> String {
        self.cases
            .iter()
            .map(|c| {
                let v: Vec<String> = c.values.iter().map(|x| format!("{x:x}")).collect();
                format!("{}|{}", c.text, v.join("|"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Read a set's text; every instruction must check. Never panics.
    pub fn decode(s: &str) -> Result<ExerciseSet, String> {
        let mut cases = Vec::new();
        for line in s.lines().filter(|l| !l.trim().is_empty()) {
            if cases.len() == MAX_CASES {
                return Err(format!("a set holds at most {MAX_CASES} cases"));
            }
            let mut parts = line.split('|');
            let text = parts.next().unwrap_or("").trim().to_string();
            if text.chars().count() > query::MAX_INSTRUCTION {
                return Err("an instruction in the set is too long".to_string());
            }
            insn::check(&text).map_err(|d| {
                format!(
                    "case {}: “{}” does not check: {}",
                    cases.len() + 1,
                    query::excerpt(&text, 40),
                    d.message
                )
            })?;
            let mut values = [0u64; 4];
            for (v, p) in values.iter_mut().zip(parts) {
                *v = num::parse(p.trim(), 64, View::Hex)
                    .map_err(|e| format!("case {}: {e}", cases.len() + 1))?;
            }
            cases.push(SetCase { text, values });
        }
        if cases.is_empty() {
            return Err("the set has no cases".to_string());
        }
        Ok(ExerciseSet { cases })
    }

    /// The lesson's own cases.
    pub fn of_lesson(l: &Lesson) -> ExerciseSet {
        ExerciseSet {
            cases: l
                .cases()
                .take(MAX_CASES)
                .map(|c| SetCase {
                    text: c.text.clone(),
                    values: c.values.map(|v| v.unwrap_or(0)),
                })
                .collect(),
        }
    }

    /// `n` cases drawn within the lesson's constraints: each keeps the instruction of one of
    /// the lesson's cases (its form: SIMD with a mask, saturating mixed signs...) and draws new
    /// values for the sources that case gives, from `seed`.
    pub fn draw(l: &Lesson, n: usize, seed: u64) -> ExerciseSet {
        let base: Vec<_> = l.cases().collect();
        let mut s = seed;
        let mut cases = Vec::new();
        for k in 0..n.min(MAX_CASES) {
            let Some(c) = base.get(k % base.len().max(1)) else {
                break;
            };
            let mut values = c.values.map(|v| v.unwrap_or(0));
            for (i, v) in values.iter_mut().enumerate() {
                if c.values[i].is_some() {
                    s = num::next_random(s);
                    *v = s;
                }
            }
            // The widths of the instruction decide how much of each value is kept.
            if let Ok(i) = insn::check(&c.text) {
                let w = i.widths();
                for (j, v) in values.iter_mut().enumerate() {
                    *v &= num::mask(w.src.get(j).copied().unwrap_or(64));
                }
            }
            cases.push(SetCase {
                text: c.text.clone(),
                values,
            });
        }
        ExerciseSet { cases }
    }

    /// The address that opens the set (with the student's answers, when given).
    pub fn link(&self, answers: Option<&[Option<u64>]>) -> String {
        let mut q = format!("?set={}", query::encode(&self.encode()));
        if let Some(a) = answers {
            let a: Vec<String> = a
                .iter()
                .map(|x| x.map_or(String::new(), |v| format!("{v:x}")))
                .collect();
            q.push_str("&answers=");
            q.push_str(&query::encode(&a.join(",")));
        }
        q
    }

    /// The verdict on each answered case.
    pub fn verdicts(&self, answers: &[Option<u64>]) -> Vec<Option<Verdict>> {
        self.cases
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let a = answers.get(i).copied().flatten()?;
                Some(predict::check(&c.trace()?, a as u128))
            })
            .collect()
    }

    /// The summary: how many are right, and for each stage kind that explained wrong bits, how
    /// many cases and wrong bits.
    pub fn summary(&self, answers: &[Option<u64>]) -> Summary {
        let mut s = Summary {
            total: self.cases.len(),
            ..Summary::default()
        };
        for (i, v) in self.verdicts(answers).into_iter().enumerate() {
            let Some(v) = v else { continue };
            s.answered += 1;
            if v.correct {
                s.correct += 1;
                continue;
            }
            let kind = v
                .stage
                .and_then(|st| self.cases[i].trace().map(|t| t.stages[st].kind.name()))
                .unwrap_or("width");
            let e = s.stages.entry(kind.to_string()).or_default();
            e.0 += 1;
            e.1 += v.wrong.len();
        }
        s
    }
}

/// Read the answers of an address (`answers=1ff,,ff00`): one per case, empty when unanswered.
pub fn read_answers(s: &str, n: usize) -> Vec<Option<u64>> {
    let mut out: Vec<Option<u64>> = s
        .split(',')
        .take(n)
        .map(|x| num::parse(x.trim(), 64, View::Hex).ok())
        .collect();
    out.resize(n, None);
    out
}

/// What a worked set adds up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub total: usize,
    pub answered: usize,
    pub correct: usize,
    /// Stage kind → (cases it explained, wrong bits).
    pub stages: BTreeMap<String, (usize, usize)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_round_trips_and_sums_up() {
        crate::test_data();
        let l = ptxlab_core::lesson::find("simd").unwrap();
        let set = ExerciseSet::of_lesson(&l);
        assert_eq!(set.cases.len(), l.cases().count());
        assert_eq!(ExerciseSet::decode(&set.encode()), Ok(set.clone()));
        let drawn = ExerciseSet::draw(&l, 5, 7);
        assert_eq!(drawn.cases.len(), 5);
        assert_eq!(
            drawn.cases[3].text, set.cases[0].text,
            "drawn within the lesson's forms"
        );
        assert_ne!(drawn.cases[0].values, set.cases[0].values);
        assert_eq!(
            ExerciseSet::draw(&l, 5, 7),
            drawn,
            "the same seed draws the same set"
        );
        // Right answers, one wrong one, one missing.
        let mut answers: Vec<Option<u64>> = set
            .cases
            .iter()
            .map(|c| Some(c.trace().unwrap().result.raw() as u64))
            .collect();
        answers[0] = Some(0xffff_0406 ^ 0x100_0000);
        answers[1] = None;
        let s = set.summary(&answers);
        assert_eq!((s.total, s.answered, s.correct), (3, 2, 1));
        assert_eq!(s.stages.values().map(|x| x.1).sum::<usize>(), 1);
        let q = set.link(Some(&answers));
        let a = q.split("&answers=").nth(1).unwrap();
        assert_eq!(read_answers(&query::decode(a).unwrap(), 3), answers);
        // Bad sets are refused with a message, never a panic.
        assert!(ExerciseSet::decode("").is_err());
        assert!(ExerciseSet::decode("vaddd d, a;|1").is_err());
        assert!(ExerciseSet::decode("add.u32 d, a, b;|zz").is_err());
        assert!(ExerciseSet::decode(&"add.u32 d, a, b;|1\n".repeat(21)).is_err());
        assert_eq!(read_answers("x,,5", 4), vec![None, None, Some(5), None]);
    }
}
