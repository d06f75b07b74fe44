//! Bit provenance: for any bit of any value in a [`Trace`], the bits of earlier values it came
//! from, back to the sources.
//!
//! It is computed from the trace alone, after the evaluation: every stage's output is a node,
//! and each of its bits depends on bits of the stage's inputs. Selections, extensions, the SIMD
//! pool, merges, shifts by a known amount, truncations and bitwise operations map bits exactly;
//! for arithmetic (sums, differences, products) a bit depends on the bits at and below its
//! position in each operand (a carry can only travel upwards); for anything else (comparisons,
//! clamps, minimum and maximum, searches, divisions) a bit depends on every bit of every input,
//! since any of them can change it.
//!
//! Inputs of a stage are found by name: the latest earlier stage (in the same lane, or outside
//! lanes) whose output carries that name, a source register (`a`, `b`...), a part of one
//! (`a.b2`, `b.h1`), or the lanes of a value assembled from per-lane stages (`t` from `t[0]`
//! ... `t[3]`). Inside SIMD lanes the operands are read through the pool `b:a`, so a lane's
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

use crate::trace::{mask128, Detail, StageKind, Trace};

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
}

impl Provenance {
    /// Works out the dependencies of every stage of `t`.
    pub fn of(t: &Trace) -> Provenance {
        let mut deps = Vec::with_capacity(t.stages.len());
        let mut feeds = Vec::with_capacity(t.stages.len());
        for i in 0..t.stages.len() {
            let (ins, pieces) = resolve_inputs(t, i);
            feeds.push(
                pieces
                    .iter()
                    .map(|p| p.first().map(|x| x.node))
                    .collect::<Vec<_>>(),
            );
            deps.push(stage_deps(t, i, &ins, &pieces));
        }
        Provenance { deps, feeds }
    }

    /// Number of stages.
    pub fn len(&self) -> usize {
        self.deps.len()
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

/// An input of a stage: one it lists, or a value its formula names without listing it (the
/// lane products of `c + p0 + p1`, the `pos` and `len` of `a<pos+len-1..pos>`).
#[derive(Clone, Debug)]
struct In {
    name: String,
    bits: u32,
    signed: bool,
    value: i128,
}

/// The inputs of stage `i` and where each lives.
fn resolve_inputs(t: &Trace, i: usize) -> (Vec<In>, Vec<Vec<Piece>>) {
    let s = &t.stages[i];
    let mut ins: Vec<In> = s
        .inputs
        .iter()
        .map(|v| In {
            name: v.name.clone(),
            bits: v.bits.min(128),
            signed: v.signed,
            value: v.value,
        })
        .collect();
    let mut pieces: Vec<Vec<Piece>> = ins
        .iter()
        .map(|v| resolve(t, i, &v.name, v.bits, s.lane))
        .collect();
    for tok in tokens(&s.op) {
        let Tok::Name(n) = tok else { continue };
        if ins.iter().any(|v| v.name == n) {
            continue;
        }
        let any_lane = || (0..i).rev().find(|&j| t.stages[j].output.name == n);
        if let Some(j) = latest(t, i, n, s.lane).or_else(any_lane) {
            let o = &t.stages[j].output;
            ins.push(In {
                name: n.to_string(),
                bits: o.bits.min(128),
                signed: o.signed,
                value: o.value,
            });
            pieces.push(whole(j, o.bits.min(128)));
        }
    }
    (ins, pieces)
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
        let lw = bits / lanes.len() as u32;
        return lanes
            .iter()
            .enumerate()
            .map(|(k, &j)| Piece {
                node: j,
                node_lo: 0,
                in_lo: k as u32 * lw,
                width: lw.min(t.stages[j].output.bits),
            })
            .collect();
    }
    // An extended operand with no stage of its own (`tb` of a shift amount): the register.
    if let Some(reg) = name.strip_prefix('t').filter(|r| is_source(r)) {
        if let Some(j) = latest(t, i, reg, lane) {
            return whole(j, t.stages[j].output.bits.min(bits));
        }
    }
    Vec::new()
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

fn stage_deps(t: &Trace, i: usize, ins: &[In], pieces: &[Vec<Piece>]) -> Vec<Vec<Bits>> {
    let s = &t.stages[i];
    let out_bits = s.output.bits.min(128);
    let in_bits = |k: usize| ins.get(k).map_or(0, |v| v.bits);
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

    // The result stage reads the previous value outside lanes.
    if ins.is_empty() {
        if s.kind == StageKind::Result {
            let prev = (0..i).rev().find(|&j| t.stages[j].lane.is_none());
            if let Some(j) = prev {
                let w = t.stages[j].output.bits.min(128);
                return (0..out_bits)
                    .map(|b| {
                        if b < w {
                            vec![Bits {
                                node: j,
                                mask: 1 << b,
                            }]
                        } else {
                            Vec::new()
                        }
                    })
                    .collect();
            }
        }
        return vec![Vec::new(); out_bits as usize];
    }

    let rule: Box<Rule> = match &s.detail {
        Detail::Field {
            lo, width, signed, ..
        } => {
            let (lo, width, signed) = (*lo, *width, *signed);
            // Values the formula names beyond the listed inputs (a field's position and
            // length) decide which bits are taken.
            let listed = s.inputs.len().max(1);
            Box::new(move |b: u32, k: usize| {
                if k >= listed {
                    all(b, k)
                } else if k > 0 {
                    0
                } else if b < width {
                    span(lo + b, lo + b)
                } else if signed && width > 0 {
                    span(lo + width - 1, lo + width - 1)
                } else {
                    0
                }
            })
        }
        Detail::Pool { .. } => {
            let lo_bits = in_bits(0);
            Box::new(move |b: u32, k: usize| match k {
                0 if b < lo_bits => 1u128 << b,
                1 if b >= lo_bits => span(b - lo_bits, b - lo_bits),
                _ => 0,
            })
        }
        Detail::Merge {
            lane_bits,
            from_result,
            other,
            moved,
        } => {
            let lb = (*lane_bits).max(1);
            let other_k = ins.iter().position(|v| &v.name == other);
            let result_k = ins.iter().position(|v| &v.name != other).unwrap_or(0);
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
        Detail::Product { kept_lo, .. } if s.kind == StageKind::Truncate => {
            let lo = *kept_lo;
            Box::new(first_only(move |b| span(lo + b, lo + b)))
        }
        _ => op_rule(t, i, ins, &all, &below, &same),
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

/// A rule that reads only the first input.
fn first_only(f: impl Fn(u32) -> u128) -> impl Fn(u32, usize) -> u128 {
    move |b, k| if k == 0 { f(b) } else { 0 }
}

/// A token of a stage's formula.
#[derive(Debug, PartialEq)]
enum Tok<'a> {
    Name(&'a str),
    Num(u128),
    Sym(char),
}

fn tokens(op: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let b = op.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i] as char).is_ascii_alphanumeric() {
                i += 1;
            }
            let s = &op[start..i];
            let n = match s.strip_prefix("0x") {
                Some(h) => u128::from_str_radix(h, 16).ok(),
                None => s.parse().ok(),
            };
            match n {
                Some(n) => out.push(Tok::Num(n)),
                None => out.push(Tok::Name(s)),
            }
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() {
                let d = b[i] as char;
                if d.is_ascii_alphanumeric() || d == '_' || d == '.' || d == ':' {
                    i += 1;
                } else if d == '[' {
                    // `t[0]`: an index belongs to the name.
                    match op[i..].find(']') {
                        Some(e) => i += e + 1,
                        None => break,
                    }
                } else {
                    break;
                }
            }
            out.push(Tok::Name(&op[start..i]));
        } else {
            out.push(Tok::Sym(c));
            i += c.len_utf8();
        }
    }
    out
}

/// The rule for a stage without a detail that decides it: read from its kind and formula.
fn op_rule<'a>(
    t: &'a Trace,
    i: usize,
    ins: &'a [In],
    all: &'a (dyn Fn(u32, usize) -> u128 + 'a),
    below: &'a (dyn Fn(u32, usize) -> u128 + 'a),
    same: &'a (dyn Fn(u32, usize) -> u128 + 'a),
) -> Box<Rule<'a>> {
    let s = &t.stages[i];
    let op = s.op.trim();
    let input = |name: &str| ins.iter().position(|v| v.name == name);
    let value_of = |name: &str| -> Option<i128> {
        input(name)
            .map(|k| ins[k].value)
            .or_else(|| latest(t, i, name, s.lane).map(|j| t.stages[j].output.value))
    };
    // A lane of a register kept as it is (a SIMD lane masked off takes c's lane).
    if op.is_empty() && s.lane.is_some() && s.kind == StageKind::Merge {
        let lo = u32::from(s.lane.unwrap_or(0)) * s.output.bits;
        return Box::new(move |b: u32, k: usize| if k == 0 { span(lo + b, lo + b) } else { 0 });
    }
    // No formula: the value passes as it is (an unsaturated clamp, a plain extension).
    if op.is_empty() {
        let w = ins.first().map_or(0, |v| v.bits);
        let sign = s.output.signed && ins.first().is_some_and(|v| v.signed);
        return Box::new(move |b: u32, k: usize| {
            if k != 0 {
                0
            } else if b < w {
                1 << b
            } else if sign && w > 0 {
                span(w - 1, w - 1)
            } else {
                0
            }
        });
    }
    // Low part kept: `tmp mod 2^32`.
    if op.contains(" mod 2^") {
        return Box::new(move |b: u32, k: usize| if k == 0 { same(b, 0) } else { 0 });
    }
    let toks = tokens(op);
    // A bit range: `t<63..32>`, `a<pos+len-1..pos>`, `a<N-1..0>`.
    if let Some(r) = bit_range(&toks, &value_of) {
        let k0 = input(r.name).unwrap_or(0);
        let w = ins.get(k0).map_or(0, |v| v.bits);
        let hi = r.hi.min(i128::from(w) - 1);
        let lo = r.lo.max(0);
        let sign = s.output.signed;
        // The named amounts decide which bits are taken, so they count too.
        let extra: Vec<usize> = r
            .names
            .iter()
            .filter_map(|n| input(n))
            .filter(|&k| k != k0)
            .collect();
        return Box::new(move |b: u32, k: usize| {
            if extra.contains(&k) {
                return all(b, k);
            }
            if k != k0 || hi < lo {
                return 0;
            }
            let src = lo + i128::from(b);
            if src <= hi {
                span(src as u32, src as u32)
            } else if sign {
                span(hi as u32, hi as u32)
            } else {
                0
            }
        });
    }
    // A shift by a known amount: `ta >> n`, `tmp >> 15`, `ta << n`.
    // (`>>>` is the logical shift.)
    let shift = match toks.as_slice() {
        [Tok::Name(x), Tok::Sym(c1), Tok::Sym(c2), amount] if c1 == c2 => {
            Some((x, c1, amount, false))
        }
        [Tok::Name(x), Tok::Sym('>'), Tok::Sym('>'), Tok::Sym('>'), amount] => {
            Some((x, &'>', amount, true))
        }
        _ => None,
    };
    if let Some((x, c1, amount, logical)) = shift {
        if *c1 == '>' || *c1 == '<' {
            if let Some(k0) = input(x) {
                let (n, by) = match amount {
                    Tok::Num(n) => (Some(*n as i128), None),
                    Tok::Name(a) => (value_of(a), input(a)),
                    Tok::Sym(_) => (None, None),
                };
                if let Some(n) = n {
                    let n = n.clamp(0, 128) as u32;
                    let w = ins[k0].bits;
                    let right = *c1 == '>';
                    let sign = right && ins[k0].signed && !logical;
                    return Box::new(move |b: u32, k: usize| {
                        if Some(k) == by {
                            return all(b, k);
                        }
                        if k != k0 {
                            return 0;
                        }
                        if right {
                            let src = b + n;
                            if src < w {
                                1 << src
                            } else if sign && w > 0 {
                                span(w - 1, w - 1)
                            } else {
                                0
                            }
                        } else if b >= n && b - n < w {
                            1 << (b - n)
                        } else {
                            0
                        }
                    });
                }
            }
        }
    }
    let names_known = toks.iter().all(|t| match t {
        Tok::Name(n) => input(n).is_some(),
        _ => true,
    });
    let syms = |ok: &str| {
        toks.iter().all(|t| match t {
            Tok::Sym(c) => ok.contains(*c),
            _ => true,
        })
    };
    // Bit order reversed.
    if let [Tok::Name("reverse"), Tok::Sym('('), Tok::Name(x), Tok::Sym(')')] = toks.as_slice() {
        if let Some(k0) = input(x) {
            let w = ins[k0].bits;
            return Box::new(move |b: u32, k: usize| {
                if k == k0 && b < w {
                    1 << (w - 1 - b)
                } else {
                    0
                }
            });
        }
    }
    // Bitwise formulas over the inputs and constants: each bit from the same bit.
    if names_known && syms("&|^~() ") {
        return Box::new(same);
    }
    // Sums, differences and products: a bit depends on the bits at and below it.
    if names_known && syms("+-*() ") {
        return Box::new(below);
    }
    Box::new(all)
}

struct Range<'a> {
    name: &'a str,
    hi: i128,
    lo: i128,
    names: Vec<&'a str>,
}

/// `x<HI..LO>`, with HI and LO sums of numbers and named values.
fn bit_range<'a>(toks: &[Tok<'a>], value_of: &dyn Fn(&str) -> Option<i128>) -> Option<Range<'a>> {
    let [Tok::Name(x), Tok::Sym('<'), rest @ ..] = toks else {
        return None;
    };
    let (Tok::Sym('>'), inner) = rest.split_last()? else {
        return None;
    };
    let mut names = Vec::new();
    let mut parts = inner
        .split(|t| *t == Tok::Sym('.'))
        .filter(|p| !p.is_empty());
    let (h, l) = (parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let mut sum = |p: &[Tok<'a>]| -> Option<i128> {
        let mut total = 0i128;
        let mut sign = 1i128;
        for t in p {
            match t {
                Tok::Num(n) => total += sign * (*n as i128),
                Tok::Name(n) => {
                    total += sign * value_of(n)?;
                    names.push(*n);
                }
                Tok::Sym('+') => sign = 1,
                Tok::Sym('-') => sign = -1,
                _ => return None,
            }
        }
        Some(total)
    };
    let hi = sum(h)?;
    let lo = sum(l)?;
    Some(Range {
        name: x,
        hi,
        lo,
        names,
    })
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
