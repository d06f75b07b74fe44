//! Bit provenance: for any bit of any value in a [`Trace`], the bits of earlier values it came
//! from, back to the sources.
//!
//! It is computed from the trace alone, after the evaluation: every stage's output is a node,
//! and each of its bits depends on bits of the stage's inputs. How, each stage says where it is
//! made, as a typed rule ([`crate::trace::Flow`]): bitwise operations take the same bit, sums,
//! differences and products the bits at and below it (a carry only travels upwards), parts,
//! extensions, truncations and shifts by a known amount a bit at a known place, pools and packed
//! pairs their inputs side by side; a stage without a rule (comparisons, clamps, minimum and
//! maximum, searches, divisions, anything whose path a bit can change) depends on every bit of
//! every input. A lane merge without a rule follows its diagram.
//! The formula's text is for reading only: nothing here parses it.
//!
//! The rules hold one bit at a time: flipping a source bit that a result bit's provenance
//! leaves out does not change that result bit (`tests/provenance.rs` checks it on generated
//! forms of every table opcode and on every program form ptxas accepts).
//!
//! Inputs of a stage are found by name: the latest earlier stage (in the same lane, or outside
//! lanes) whose output carries that name, a source register (`a`, `b`...), a part of one
//! (`a.b2`, `b.h1`), the lanes of a value assembled from per-lane stages (`t` from `t[0]`
//! ... `t[3]`), the parts of a byte-wise result (`d` from `d.b0` ... `d.b3`), or a value made
//! in a lane. Values a stage reads without listing them are named in [`crate::trace::Stage::also`]
//! and count wholly. Inside SIMD lanes the operands are read through the pool `b:a`, so a lane's
//! bits lead back to the pool entry it took.
//!
//! ```
//! use ptxlab_core::provenance::Provenance;
//! use ptxlab_core::{check, evaluate_traced, Inputs};
//!
//! // Bit 0 of d comes from bit 0 of the byte a.b2 selects: bit 16 of a.
//! let insn = check("vadd.u32.u32.u32 d, a.b2, b.b0;").unwrap();
//! let t = evaluate_traced(&insn, &Inputs::new(0x0001_0000, 0, 0, 0));
//! let p = Provenance::of(&t);
//! assert_eq!(p.len(), t.stages.len());
//! let last = t.stages.len() - 1;
//! let lit = p.lit(last, 0);
//! assert_eq!(lit[0] & (1 << 16), 1 << 16, "stage 0 reads a; bit 16 of it feeds bit 0 of d");
//! ```

use crate::trace::{mask128, Detail, Flow, StageKind, Trace};

/// A set of bits of one node (stage index), as a mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits {
    /// The stage whose output holds the bits.
    pub node: usize,
    /// Which bits of that output (bit `i` of the mask is bit `i` of the value).
    pub mask: u128,
}

/// Where the bits of one input of a stage are held: input bits `in_lo .. in_lo + width` are bits
/// `node_lo ..` of stage `node`'s output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    node: usize,
    node_lo: u32,
    in_lo: u32,
    width: u32,
}

/// The direct dependencies of every bit of every stage's output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// `deps[stage][bit]`: the bits of earlier stages that bit depends on directly.
    deps: Vec<Vec<Vec<Bits>>>,
    /// For each stage, the stages its inputs were found in (in the order of its inputs; `None`
    /// where an input could not be found).
    feeds: Vec<Vec<Option<usize>>>,
    /// The inputs (listed or named in `also`) found in no earlier stage: (stage, name).
    unresolved: Vec<(usize, String)>,
}

impl Provenance {
    /// Works out the dependencies of every stage of `t`.
    pub fn of(t: &Trace) -> Provenance {
        let mut deps = Vec::with_capacity(t.stages.len());
        let mut feeds = Vec::with_capacity(t.stages.len());
        let mut unresolved = Vec::new();
        for i in 0..t.stages.len() {
            let (ins, pieces) = resolve_inputs(t, i);
            let s = &t.stages[i];
            let names = s.inputs.iter().map(|v| &v.name).chain(&s.also);
            for (name, p) in names.zip(&pieces) {
                if p.is_empty() {
                    unresolved.push((i, name.clone()));
                }
            }
            feeds.push(
                pieces
                    .iter()
                    .map(|p| p.first().map(|x| x.node))
                    .collect::<Vec<_>>(),
            );
            deps.push(stage_deps(t, i, &ins, &pieces));
        }
        Provenance {
            deps,
            feeds,
            unresolved,
        }
    }

    /// Number of stages.
    pub fn len(&self) -> usize {
        self.deps.len()
    }

    /// The inputs, by stage and name, that no earlier stage holds: a stage that reads a value
    /// the trace never shows. Empty for every trace the evaluators make (the tests check it).
    pub fn unresolved(&self) -> &[(usize, String)] {
        &self.unresolved
    }

    /// Whether the trace had no stages.
    pub fn is_empty(&self) -> bool {
        self.deps.is_empty()
    }

    /// The bits `bit` of stage `stage`'s output depends on directly.
    pub fn direct(&self, stage: usize, bit: u32) -> &[Bits] {
        self.deps
            .get(stage)
            .and_then(|d| d.get(bit as usize))
            .map_or(&[], |v| v.as_slice())
    }

    /// The stages whose outputs feed stage `stage` (each once, in input order).
    pub fn feeds(&self, stage: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for f in self.feeds.get(stage).into_iter().flatten().flatten() {
            if !out.contains(f) {
                out.push(*f);
            }
        }
        out
    }

    /// Every bit that `bit` of stage `stage` came from, through every stage back to the
    /// sources: one mask per stage (index = stage), the pointed bit itself not included.
    pub fn lit(&self, stage: usize, bit: u32) -> Vec<u128> {
        let n = self.deps.len();
        let mut lit = vec![0u128; n];
        if stage >= n {
            return lit;
        }
        for b in self.direct(stage, bit) {
            lit[b.node] |= b.mask;
        }
        // Dependencies only point to earlier stages, so one pass from the back is complete.
        for node in (0..stage).rev() {
            let mut m = lit[node];
            while m != 0 {
                let b = m.trailing_zeros();
                m &= m - 1;
                for d in self.direct(node, b) {
                    lit[d.node] |= d.mask;
                }
            }
        }
        lit
    }
}

/// Bits `lo ..= hi` as a mask (empty when `hi < lo`).
fn span(lo: u32, hi: u32) -> u128 {
    if hi < lo || lo >= 128 {
        0
    } else {
        mask128(hi.min(127) + 1) & !mask128(lo)
    }
}

/// Source register names.
fn is_source(name: &str) -> bool {
    matches!(name, "a" | "b" | "c" | "e")
}

/// The latest stage before `i` whose output is called `name`, outside lanes or in `lane`.
fn latest(t: &Trace, i: usize, name: &str, lane: Option<u8>) -> Option<usize> {
    (0..i).rev().find(|&j| {
        let s = &t.stages[j];
        s.output.name == name && (s.lane.is_none() || s.lane == lane)
    })
}

fn whole(node: usize, width: u32) -> Vec<Piece> {
    vec![Piece {
        node,
        node_lo: 0,
        in_lo: 0,
        width,
    }]
}

/// The inputs of stage `i` (the listed ones, then the ones it names in `also`): the width of
/// each and where it lives. A value named in `also` is as wide as what holds it.
fn resolve_inputs(t: &Trace, i: usize) -> (Vec<u32>, Vec<Vec<Piece>>) {
    let s = &t.stages[i];
    let mut widths: Vec<u32> = s.inputs.iter().map(|v| v.bits.min(128)).collect();
    let mut pieces: Vec<Vec<Piece>> = s
        .inputs
        .iter()
        .map(|v| resolve(t, i, &v.name, v.bits.min(128), s.lane))
        .collect();
    for n in &s.also {
        let p = resolve(t, i, n, 128, s.lane);
        widths.push(p.iter().map(|x| x.in_lo + x.width).max().unwrap_or(0));
        pieces.push(p);
    }
    (widths, pieces)
}

fn resolve(t: &Trace, i: usize, name: &str, bits: u32, lane: Option<u8>) -> Vec<Piece> {
    // Inside SIMD lanes, a and b are read through the pool b:a.
    if lane.is_some() && (name == "a" || name == "b") {
        if let Some(p) = (0..i).rev().find(|&j| t.stages[j].kind == StageKind::Pool) {
            let lo = if name == "b" {
                t.stages[p].inputs.first().map_or(32, |v| v.bits)
            } else {
                0
            };
            return vec![Piece {
                node: p,
                node_lo: lo,
                in_lo: 0,
                width: bits,
            }];
        }
    }
    if let Some(j) = latest(t, i, name, lane) {
        return whole(j, t.stages[j].output.bits.min(bits));
    }
    // A byte or half-word of a register: `a.b2`, `b.h1`.
    if let Some((reg, part)) = name.split_once('.') {
        let size = match part.as_bytes().first() {
            Some(b'b') => 8,
            Some(b'h') => 16,
            _ => 0,
        };
        if let (true, Ok(n)) = (size > 0, part[1..].parse::<u32>()) {
            if let Some(j) = latest(t, i, reg, lane) {
                return vec![Piece {
                    node: j,
                    node_lo: n * size,
                    in_lo: 0,
                    width: size.min(bits),
                }];
            }
        }
    }
    // A value assembled from per-lane stages `name[0]`, `name[1]`...
    let lanes: Vec<usize> = (0..8u8)
        .map_while(|k| latest(t, i, &format!("{name}[{k}]"), Some(k)))
        .collect();
    if !lanes.is_empty() {
        return side_by_side(t, &lanes, bits / lanes.len() as u32);
    }
    // A value made as parts: the bytes `d.b0` ... or half-words `d.h0` ... of `d`.
    for (part, size) in [("b", 8u32), ("h", 16)] {
        let parts: Vec<usize> = (0..8)
            .map_while(|k| {
                let n = format!("{name}.{part}{k}");
                (0..i).rev().find(|&j| t.stages[j].output.name == n)
            })
            .collect();
        if !parts.is_empty() {
            return side_by_side(t, &parts, size);
        }
    }
    // An extended operand with no stage of its own (`tb` of a shift amount): the register.
    if let Some(reg) = name.strip_prefix('t').filter(|r| is_source(r)) {
        if let Some(j) = latest(t, i, reg, lane) {
            return whole(j, t.stages[j].output.bits.min(bits));
        }
    }
    // A value made in a lane, read outside it (a dot product's `p0`).
    if let Some(j) = (0..i).rev().find(|&j| t.stages[j].output.name == name) {
        return whole(j, t.stages[j].output.bits.min(bits));
    }
    Vec::new()
}

/// A value made of the outputs of `stages` side by side, the first lowest, each `width` bits.
fn side_by_side(t: &Trace, stages: &[usize], width: u32) -> Vec<Piece> {
    stages
        .iter()
        .enumerate()
        .map(|(k, &j)| Piece {
            node: j,
            node_lo: 0,
            in_lo: k as u32 * width,
            width: width.min(t.stages[j].output.bits),
        })
        .collect()
}

/// The node bits behind input bits `mask` of an input held in `pieces`.
fn through(pieces: &[Piece], mask: u128, out: &mut Vec<Bits>) {
    for p in pieces {
        let sel = (mask >> p.in_lo) & mask128(p.width);
        if sel == 0 || p.node_lo >= 128 {
            continue;
        }
        let m = sel << p.node_lo;
        match out.iter_mut().find(|b| b.node == p.node) {
            Some(b) => b.mask |= m,
            None => out.push(Bits {
                node: p.node,
                mask: m,
            }),
        }
    }
}

/// How one output bit depends on one input: the input bits, as a mask.
type Rule<'a> = dyn Fn(u32, usize) -> u128 + 'a;

fn stage_deps(t: &Trace, i: usize, ins: &[u32], pieces: &[Vec<Piece>]) -> Vec<Vec<Bits>> {
    let s = &t.stages[i];
    let out_bits = s.output.bits.min(128);
    let in_bits = |k: usize| ins.get(k).copied().unwrap_or(0);
    let all = |_: u32, k: usize| mask128(in_bits(k));
    let below = |b: u32, k: usize| span(0, b.min(in_bits(k).saturating_sub(1)));
    let same = |b: u32, k: usize| {
        let w = in_bits(k);
        if b < w {
            1u128 << b
        } else {
            0
        }
    };

    // A result stage reads the value of its own name (made outside lanes, in one lane, as the
    // parts `d.b0` ... of a byte-wise result), else the previous value outside lanes.
    if ins.is_empty() {
        if s.kind == StageKind::Result {
            let mut own = resolve(t, i, &s.output.name, out_bits, None);
            if own.is_empty() {
                if let Some(j) = (0..i).rev().find(|&j| t.stages[j].lane.is_none()) {
                    own = whole(j, t.stages[j].output.bits.min(out_bits));
                }
            }
            return (0..out_bits)
                .map(|b| {
                    let mut out = Vec::new();
                    through(&own, 1 << b, &mut out);
                    out
                })
                .collect();
        }
        return vec![Vec::new(); out_bits as usize];
    }

    // A rule said where the stage was made decides; without one, a lane merge's diagram.
    let rule: Box<Rule> = match &s.detail {
        _ if !s.flow.is_all() => flow_rule(s.flow, s.inputs.len(), ins, &all, &below, &same),
        Detail::Merge {
            lane_bits,
            from_result,
            other,
            moved,
        } => {
            let lb = (*lane_bits).max(1);
            let other_k = s.inputs.iter().position(|v| &v.name == other);
            let result_k = s.inputs.iter().position(|v| &v.name != other).unwrap_or(0);
            // A scalar video merge takes the low part of the result into the selected part of
            // c, unless the stage's detail says it keeps it in place.
            let moved = *moved;
            let from = from_result.clone();
            Box::new(move |b: u32, k: usize| {
                let lane = (b / lb) as usize;
                let take = from.get(lane).copied().unwrap_or(false);
                if take && k == result_k {
                    let src = if moved { b % lb } else { b };
                    span(src, src)
                } else if !take && Some(k) == other_k {
                    span(b, b)
                } else {
                    0
                }
            })
        }
        _ => Box::new(all),
    };
    (0..out_bits)
        .map(|b| {
            let mut out = Vec::new();
            for (k, p) in pieces.iter().enumerate() {
                let m = rule(b, k);
                if m != 0 {
                    through(p, m, &mut out);
                }
            }
            out
        })
        .collect()
}

/// The rule of a stage whose diagram does not decide it: read from its [`Flow`]. The values
/// named in `also` (the inputs past the `listed` ones) count wholly.
fn flow_rule<'a>(
    flow: Flow,
    listed: usize,
    ins: &'a [u32],
    all: &'a (dyn Fn(u32, usize) -> u128 + 'a),
    below: &'a (dyn Fn(u32, usize) -> u128 + 'a),
    same: &'a (dyn Fn(u32, usize) -> u128 + 'a),
) -> Box<Rule<'a>> {
    let w0 = ins.first().copied().unwrap_or(0);
    match flow {
        Flow::All => Box::new(all),
        Flow::Bitwise => Box::new(move |b, k| if k < listed { same(b, k) } else { all(b, k) }),
        Flow::Carry => Box::new(move |b, k| if k < listed { below(b, k) } else { all(b, k) }),
        Flow::Take { shift, top, sign } => {
            let top = top.unwrap_or(w0).min(w0);
            Box::new(move |b, k| {
                if k != 0 {
                    return all(b, k);
                }
                let src = i64::from(b) + i64::from(shift);
                if src < 0 {
                    0
                } else if src < i64::from(top) {
                    span(src as u32, src as u32)
                } else if sign && top > 0 {
                    span(top - 1, top - 1)
                } else {
                    0
                }
            })
        }
        Flow::Concat => {
            let widths = &ins[..listed.min(ins.len())];
            Box::new(move |b, k| {
                if k >= listed {
                    return all(b, k);
                }
                let lo: u32 = widths[..k].iter().sum();
                if b >= lo && b - lo < widths[k] {
                    span(b - lo, b - lo)
                } else {
                    0
                }
            })
        }
        Flow::Reverse => Box::new(move |b, k| {
            if k != 0 {
                all(b, k)
            } else if b < w0 {
                1 << (w0 - 1 - b)
            } else {
                0
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check, evaluate_traced, Inputs};

    /// The trace and provenance of one case.
    fn case(text: &str, a: u64, b: u64, c: u64, e: u64) -> (Trace, Provenance) {
        let insn = check(text).unwrap_or_else(|d| panic!("{text}: {}", d.message));
        let t = evaluate_traced(&insn, &Inputs::new(a, b, c, e));
        let p = Provenance::of(&t);
        (t, p)
    }

    /// The stage index of the last stage whose output is `name`.
    fn node(t: &Trace, name: &str) -> usize {
        t.stages
            .iter()
            .rposition(|s| s.output.name == name)
            .unwrap_or_else(|| panic!("no stage named {name}"))
    }

    /// The lit bits of the source register `name` when `d`'s bit `bit` is pointed at.
    fn lit_src(t: &Trace, p: &Provenance, bit: u32, name: &str) -> u128 {
        let d = t.stages.len() - 1;
        let lit = p.lit(d, bit);
        let j = t
            .stages
            .iter()
            .position(|s| s.kind == StageKind::Read && s.output.name == name)
            .unwrap();
        lit[j]
    }

    #[test]
    fn issue_example_merge_into_byte_1() {
        let (t, p) = case(
            "vadd.u32.u32.u32 d.b1, a.b2, b.b0, c;",
            0x9182f3a4,
            0x7f80ff01,
            0x12345678,
            0,
        );
        // d bit 0 comes from c bit 0 only.
        assert_eq!(lit_src(&t, &p, 0, "c"), 1);
        assert_eq!(lit_src(&t, &p, 0, "a"), 0);
        assert_eq!(lit_src(&t, &p, 0, "b"), 0);
        // d bit 8 is the sum's bit 0: a bit 16 and b bit 0, nothing of a.b0, nothing of c.
        assert_eq!(lit_src(&t, &p, 8, "a"), 1 << 16);
        assert_eq!(lit_src(&t, &p, 8, "b"), 1);
        assert_eq!(lit_src(&t, &p, 8, "c"), 0);
        // d bit 15 is the sum's bit 7: a bits 16..23 and b bits 0..7 (carries).
        assert_eq!(lit_src(&t, &p, 15, "a"), 0xff << 16);
        assert_eq!(lit_src(&t, &p, 15, "b"), 0xff);
        // The intermediate tmp bit 0 and ta bit 0 are lit on the way.
        let lit = p.lit(t.stages.len() - 1, 8);
        assert_eq!(lit[node(&t, "ta")], 1);
        assert_ne!(
            lit[t
                .stages
                .iter()
                .position(|s| s.kind == StageKind::Operate)
                .unwrap()]
                & 1,
            0
        );
    }

    #[test]
    fn sign_extension_lights_the_sign_bit() {
        let (t, p) = case("vadd.s32.s32.s32 d, a.h1, b.b0;", 0x8000_0000, 0, 0, 0);
        let ta = node(&t, "ta");
        // ta bit 20 is a copy of a bit 31 (the top of a.h1).
        let lit = p.lit(ta, 20);
        let a = 0;
        assert_eq!(lit[a], 1 << 31);
        // Zero-extended tb bit 20 comes from nothing.
        let (t2, p2) = case("vadd.u32.u32.u32 d, a.b1, b.b0;", 0, 0, 0, 0);
        let tb = node(&t2, "tb");
        assert!(p2.lit(tb, 20).iter().all(|&m| m == 0));
        assert_eq!(p2.lit(tb, 3)[1], 1 << 3);
    }

    #[test]
    fn simd_lanes_go_through_the_pool() {
        let (t, p) = case(
            "vabsdiff4.u32.s32.u32.sat d.b210, a.b7351, b.b0246, c;",
            0x9182f3a4,
            0x7f80ff01,
            0x12345678,
            0,
        );
        let pool = node(&t, "b:a");
        // ta[0] takes pool entry 1 (a.b1): its bit 0 is pool bit 8, which is a bit 8.
        let ta0 = node(&t, "ta[0]");
        let lit = p.lit(ta0, 0);
        assert_eq!(lit[pool], 1 << 8);
        assert_eq!(lit[0], 1 << 8);
        assert_eq!(lit[1], 0);
        // tb[1] takes entry 4 (b.b0): bit 2 is pool bit 34, b bit 2.
        let tb1 = node(&t, "tb[1]");
        let lit = p.lit(tb1, 2);
        assert_eq!(lit[pool], 1 << 34);
        assert_eq!(lit[1], 1 << 2);
        assert_eq!(lit[0], 0);
        // d lane 3 is masked off: d bit 27 is c bit 27, nothing of a or b.
        assert_eq!(lit_src(&t, &p, 27, "c"), 1 << 27);
        assert_eq!(lit_src(&t, &p, 27, "a"), 0);
        assert_eq!(lit_src(&t, &p, 27, "b"), 0);
        // d lane 0 (bit 0) comes from lane 0's clamp of |a.b1 - b.b2|: every bit of both bytes
        // and no bit of c.
        assert_eq!(lit_src(&t, &p, 0, "a"), 0xff << 8);
        assert_eq!(lit_src(&t, &p, 0, "b"), 0xff << 16);
        assert_eq!(lit_src(&t, &p, 0, "c"), 0);
    }

    #[test]
    fn half_word_merge_in_place_on_the_hardware() {
        // The H100 keeps bits 16-31 of the result in place for d.h1.
        let (t, p) = case("vadd.u32.u32.u32 d.h1, a.h1, b.h1, c;", 1, 2, 3, 0);
        assert_eq!(lit_src(&t, &p, 16, "a"), span(16, 31));
        assert_eq!(lit_src(&t, &p, 16, "c"), 0);
        assert_eq!(lit_src(&t, &p, 15, "c"), 1 << 15);
        assert_eq!(lit_src(&t, &p, 15, "a"), 0);
        // The ISA text read literally moves the low half-word up: d bit 16 is the result's
        // bit 0, the sum of a's and b's selected bit 0 (bit 16 of each). The merge stage's
        // detail says which (`moved`); its label is not read.
        let insn = check("vadd.u32.u32.u32 d.h1, a.h1, b.h1, c;").unwrap();
        let t =
            crate::evaluate_traced_reading(&insn, &Inputs::new(1, 2, 3, 0), crate::Reading::Text);
        let p = Provenance::of(&t);
        assert_eq!(lit_src(&t, &p, 16, "a"), 1 << 16);
        assert_eq!(lit_src(&t, &p, 17, "a"), span(16, 17));
        assert_eq!(lit_src(&t, &p, 16, "c"), 0);
    }

    #[test]
    fn shifts_map_bits_by_the_amount() {
        let (t, p) = case("vshr.u32.u32.u32.clamp d, a, b;", 0xf000_0000, 4, 0, 0);
        // d bit 0 is a bit 4; the amount (b) can change it, so all of b counts.
        assert_eq!(lit_src(&t, &p, 0, "a"), 1 << 4);
        assert_ne!(lit_src(&t, &p, 0, "b"), 0);
        // d bit 28 is beyond a's top after the shift: zeros, only the amount.
        assert_eq!(lit_src(&t, &p, 28, "a"), 0);
        // vmad .shr15: d bit 0 is the sum's bit 15: product bits 0..15 of both factors.
        let (t, p) = case("vmad.u32.u32.u32.shr15 d, a, b, c;", 3, 5, 7, 0);
        assert_eq!(lit_src(&t, &p, 0, "a"), span(0, 15));
        assert_eq!(lit_src(&t, &p, 0, "b"), span(0, 15));
        assert_eq!(lit_src(&t, &p, 0, "c"), span(0, 15));
    }

    #[test]
    fn integer_fields_and_halves() {
        // mul.hi: d bit 0 is product bit 32: every bit of both 32-bit factors can change it.
        let (t, p) = case("mul.hi.u32 d, a, b;", 3, 5, 0, 0);
        assert_eq!(lit_src(&t, &p, 0, "a"), span(0, 31));
        // mul.lo: d bit 3 depends on a and b bits 0..3 only.
        let (t, p) = case("mul.lo.u32 d, a, b;", 3, 5, 0, 0);
        assert_eq!(lit_src(&t, &p, 3, "a"), span(0, 3));
        assert_eq!(lit_src(&t, &p, 3, "b"), span(0, 3));
        // bfe.u32 with pos 8, len 4: d bit 1 is a bit 9; b and c (position and length) decide it.
        let (t, p) = case("bfe.u32 d, a, b, c;", 0xffff, 8, 4, 0);
        assert_eq!(lit_src(&t, &p, 1, "a"), 1 << 9);
        assert_eq!(lit_src(&t, &p, 1, "b"), 0xff);
        assert_eq!(lit_src(&t, &p, 1, "c"), 0xff);
        // brev: d bit 0 is a bit 31.
        let (t, p) = case("brev.b32 d, a;", 1, 0, 0, 0);
        assert_eq!(lit_src(&t, &p, 0, "a"), 1 << 31);
        // popc: any bit of a.
        let (t, p) = case("popc.b32 d, a;", 1, 0, 0, 0);
        assert_eq!(lit_src(&t, &p, 0, "a"), span(0, 31));
    }

    #[test]
    fn dot_products_per_lane() {
        let (t, p) = case("dp4a.u32.u32 d, a, b, c;", 0x01020304, 0x05060708, 9, 0);
        // d bit 0: bit 0 of every byte product and of c.
        assert_eq!(lit_src(&t, &p, 0, "a"), 0x0101_0101);
        assert_eq!(lit_src(&t, &p, 0, "b"), 0x0101_0101);
        assert_eq!(lit_src(&t, &p, 0, "c"), 1);
        let p0 = node(&t, "p0");
        assert_eq!(p.lit(p0, 0)[0], 1);
    }

    #[test]
    fn every_stage_has_one_entry_per_bit_and_points_backwards() {
        for text in [
            "vadd4.u32.u32.u32.add d, a, b, c;",
            "vmad.s32.s32.s32.sat.shr15 d, -a.h0, b, c;",
            "bfi.b64 d, a, b, c, e;",
            "mad.wide.s32 d, a, b, c;",
            "vset2.s32.s32.lt d, a.h13, b.h33, c;",
            "szext.wrap.s32 d, a, b;",
            "fns.b32 d, a, b, c;",
        ] {
            let (t, p) = case(text, 0x9182f3a4, 0x7f80ff01, 0x12345678, 4);
            assert_eq!(p.len(), t.stages.len());
            for (i, s) in t.stages.iter().enumerate() {
                for b in 0..s.output.bits.min(128) {
                    for d in p.direct(i, b) {
                        assert!(d.node < i, "{text}: stage {i} bit {b} points forward");
                    }
                }
            }
            // d depends on something for some bit.
            let d = t.stages.len() - 1;
            assert!(
                (0..t.result.bits).any(|b| p.lit(d, b).iter().any(|&m| m != 0)),
                "{text}"
            );
        }
    }

    #[test]
    fn never_panics_and_points_backwards_on_generated_cases() {
        let mut r = crate::gen::Rng::new(8);
        let mut seen = 0;
        for _ in 0..3000 {
            let text = crate::gen::plausible(&mut r);
            let Ok(insn) = check(&text) else { continue };
            let inputs = Inputs::new(r.value(), r.value(), r.value(), r.value());
            let t = evaluate_traced(&insn, &inputs);
            let p = Provenance::of(&t);
            seen += 1;
            for (i, s) in t.stages.iter().enumerate() {
                for b in 0..s.output.bits.min(128) {
                    assert!(p.direct(i, b).iter().all(|d| d.node < i), "{text}");
                }
            }
            let d = t.stages.len().saturating_sub(1);
            let _ = p.lit(d, 0);
        }
        assert!(seen > 500, "only {seen} generated cases checked");
    }
}
