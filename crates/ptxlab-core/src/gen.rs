//! Random instruction texts for robustness testing: mostly well-formed shapes with random
//! modifiers, selectors and operands, mixed with mutations, so tests reach deep into the
//! validator and evaluator instead of stopping at the first syntax error.

use crate::ast::Mod;
use crate::isa::{self, lanes, ImmRule, ModGroup, SelRule, OPCODES};

/// A small deterministic generator (xorshift64*), enough for test inputs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15 | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        (self.next_u64() % den as u64) < num as u64
    }
    /// A value biased to edges: 0, 1, all ones, sign bits, byte patterns, or uniform.
    pub fn value(&mut self) -> u64 {
        const EDGES: [u64; 12] = [
            0,
            1,
            u64::MAX,
            0x7f,
            0x80,
            0xff,
            0x7fff,
            0x8000,
            0x7fff_ffff,
            0x8000_0000,
            0x8080_8080,
            0x8000_0000_0000_0000,
        ];
        match self.below(4) {
            0 => EDGES[self.below(EDGES.len())],
            1 => self.below(70) as u64,
            _ => self.next_u64(),
        }
    }
}

fn selector(r: &mut Rng) -> String {
    let kind = if r.chance(1, 2) { 'b' } else { 'h' };
    let max = if r.chance(1, 10) { 6 } else { 4 };
    let n = 1 + r.below(max);
    let digits: String = (0..n)
        .map(|_| {
            let top = if r.chance(1, 8) { 10 } else { 8 };
            char::from(b'0' + r.below(top) as u8)
        })
        .collect();
    format!(".{kind}{digits}")
}

fn operand(r: &mut Rng, name: &str) -> String {
    let mut s = String::new();
    if r.chance(1, 8) {
        s.push('-');
    }
    match r.below(10) {
        0 => s.push_str(&format!("{}", r.value() as i64 % 1000)),
        1 => s.push_str(&format!("0x{:x}", r.value())),
        2 => s.push_str(&format!("%r{}", r.below(100))),
        _ => s.push_str(name),
    }
    if r.chance(1, 3) {
        s.push_str(&selector(r));
    }
    s
}

fn pick<T: Copy>(r: &mut Rng, xs: &[T]) -> T {
    xs[r.below(xs.len())]
}

/// A selector a position's rule takes (or none, a third of the time).
fn selector_for(r: &mut Rng, rule: SelRule, n: usize) -> String {
    if rule == SelRule::None || r.chance(1, 3) {
        return String::new();
    }
    match rule {
        SelRule::Lanes2 | SelRule::Lanes4 => {
            let picks: Vec<u8> = (0..n).map(|_| r.below(2 * n) as u8).collect();
            lanes::lanes_selector(r.below(2), &picks).map_or(String::new(), |s| s.to_string())
        }
        _ => pick(r, &rule.selectors()).to_string(),
    }
}

/// A text shaped like a valid instruction, read from a random row: a type from each slot's
/// list, the required modifiers and some optional ones, the right number of operands with
/// selectors their rules take and immediates in their ranges. Most are accepted, so the
/// evaluators are exercised on real forms; a few still break a rule (a modifier that narrows
/// the types, say).
pub fn plausible(r: &mut Rng) -> String {
    let opcode = isa::Opcode::ALL[r.below(isa::Opcode::ALL.len())];
    let row = opcode.info();
    let syn = &row.syntax;
    let mut mods: Vec<Mod> = syn
        .slots
        .iter()
        .map(|s| Mod::Type(pick(r, s.types)))
        .collect();
    for g in ModGroup::ALL {
        if g == ModGroup::Type {
            continue;
        }
        let offered: Vec<Mod> = g.members().filter(|m| syn.takes(*m)).collect();
        if offered.is_empty() {
            continue;
        }
        if syn.mods.required.contains(&g) || r.chance(1, 3) {
            mods.push(pick(r, &offered));
        }
    }
    // Exclusive pairs: drop the excluded modifier.
    for need in syn.needs {
        if let isa::NeedOf::Without(y) = need.of {
            if mods.contains(&need.modifier) && mods.contains(&y) {
                mods.retain(|m| *m != y);
            }
        }
    }
    let mut s = String::from(row.name);
    for m in isa::canonical_order(opcode, mods.iter().copied()) {
        s.push('.');
        s.push_str(m.name());
    }
    let (lo, hi) = isa::source_counts(opcode);
    let secop = mods.iter().any(|m| matches!(m, Mod::SecOp(_)));
    // Scalar video: a secondary operation, or a merge into a part of d, needs the third source.
    let merge = lo < hi && !secop && r.chance(1, 2);
    let nsrc = if secop || merge { hi } else { lo };
    let rules = isa::selector_rules(opcode, merge);
    let n = lanes::lane_count(row.family);
    let dsel = if merge {
        pick(r, &rules[0].selectors()).to_string()
    } else {
        selector_for(r, rules[0], n)
    };
    s.push_str(&format!(" d{dsel}"));
    for (i, spec) in row.operands.iter().skip(1).take(nsrc).enumerate() {
        s.push_str(", ");
        if syn.negation && r.chance(1, 4) {
            s.push('-');
        }
        match spec.imm {
            ImmRule::Range(lo, hi) if r.chance(1, 4) => {
                let span = (hi - lo + 1) as usize;
                s.push_str(&(lo + r.below(span) as i64).to_string());
            }
            ImmRule::Any if r.chance(1, 10) => s.push_str(&r.below(300).to_string()),
            _ => {
                s.push_str(spec.name);
                if i < 2 {
                    s.push_str(&selector_for(r, rules[i + 1], n));
                }
            }
        }
    }
    s.push(';');
    s
}

/// A random instruction text: half plausible forms, half free combinations of modifiers and
/// operands; a fifth of them damaged.
pub fn instruction(r: &mut Rng) -> String {
    if r.chance(1, 2) {
        let s = plausible(r);
        return mutate(r, s);
    }
    let op = OPCODES[r.below(OPCODES.len())].name;
    let mut s = String::new();
    if r.chance(1, 10) {
        s.push_str(if r.chance(1, 2) { "@p " } else { "@!p " });
    }
    s.push_str(op);
    let nmods = r.below(7);
    for _ in 0..nmods {
        s.push('.');
        s.push_str(Mod::TABLE[r.below(Mod::TABLE.len())].name());
    }
    s.push(' ');
    let nops = 1 + r.below(6);
    let names = ["d", "a", "b", "c", "e", "f"];
    for (i, name) in names.iter().enumerate().take(nops) {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&operand(r, name));
    }
    if r.chance(3, 4) {
        s.push(';');
    }
    mutate(r, s)
}

/// Occasionally damage a text: drop, duplicate or replace a character.
fn mutate(r: &mut Rng, s: String) -> String {
    if !r.chance(1, 5) || s.is_empty() {
        return s;
    }
    let mut chars: Vec<char> = s.chars().collect();
    let i = r.below(chars.len());
    match r.below(3) {
        0 => {
            chars.remove(i);
        }
        1 => {
            let c = chars[i];
            chars.insert(i, c);
        }
        _ => {
            const JUNK: &[char] = &['.', ',', ';', '-', '@', '!', 'x', '9', ' ', 'é', '\u{0}'];
            chars[i] = JUNK[r.below(JUNK.len())];
        }
    }
    chars.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check;
    use std::collections::BTreeSet;

    #[test]
    fn plausible_forms_are_mostly_accepted_for_every_opcode() {
        let mut r = Rng::new(7);
        let mut ok = 0;
        let mut accepted = BTreeSet::new();
        let n = 4000;
        for _ in 0..n {
            let t = plausible(&mut r);
            if let Ok(insn) = check(&t) {
                ok += 1;
                accepted.extend(insn.opcode());
            }
        }
        assert!(ok * 10 >= n * 7, "only {ok} of {n} accepted");
        assert_eq!(accepted.len(), OPCODES.len(), "some opcode never accepted");
    }
}
