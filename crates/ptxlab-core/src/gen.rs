//! Random instruction texts for robustness testing: mostly well-formed shapes with random
//! modifiers, selectors and operands, mixed with mutations, so tests reach deep into the
//! validator and evaluator instead of stopping at the first syntax error.

use crate::ast::Mod;
use crate::table::OPCODES;

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

/// A random instruction text.
pub fn instruction(r: &mut Rng) -> String {
    let op = OPCODES[r.below(OPCODES.len())].name;
    let mut s = String::new();
    if r.chance(1, 10) {
        s.push_str(if r.chance(1, 2) { "@p " } else { "@!p " });
    }
    s.push_str(op);
    let nmods = r.below(7);
    for _ in 0..nmods {
        s.push('.');
        s.push_str(Mod::ALL[r.below(Mod::ALL.len())].name());
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
