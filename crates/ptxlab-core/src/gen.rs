//! Random instruction texts for robustness testing: mostly well-formed shapes with random
//! modifiers, selectors and operands, mixed with mutations, so tests reach deep into the
//! validator and evaluator instead of stopping at the first syntax error.

use crate::ast::Mod;
use crate::isa::{Family, OPCODES};

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

fn pick<'a>(r: &mut Rng, xs: &[&'a str]) -> &'a str {
    xs[r.below(xs.len())]
}

fn digits(r: &mut Rng, n: usize, top: usize) -> String {
    (0..n)
        .map(|_| char::from(b'0' + r.below(top) as u8))
        .collect()
}

/// A text shaped like a valid instruction of its family: right number of types, modifiers that
/// belong to it and selectors of the right kind. Most are accepted, so the evaluators are
/// exercised on real forms; a few still break a rule.
pub fn plausible(r: &mut Rng) -> String {
    let info = &OPCODES[r.below(OPCODES.len())];
    let op = info.name;
    let vt = ["u32", "s32"];
    let mut s = String::from(op);
    match info.family {
        Family::ScalarVideo | Family::Vmad => {
            let ntypes = if op == "vset" { 2 } else { 3 };
            for i in 0..ntypes {
                let t = if i == 2 && (op == "vshl" || op == "vshr") {
                    "u32"
                } else {
                    pick(r, &vt)
                };
                s.push('.');
                s.push_str(t);
            }
            if op == "vmad" && r.chance(1, 4) {
                s.push_str(".po");
            }
            if op != "vset" && r.chance(1, 2) {
                s.push_str(".sat");
            }
            if op == "vshl" || op == "vshr" {
                s.push('.');
                s.push_str(pick(r, &["clamp", "wrap"]));
            }
            if op == "vmad" && r.chance(1, 2) {
                s.push('.');
                s.push_str(pick(r, &["shr7", "shr15"]));
            }
            if op == "vset" {
                s.push('.');
                s.push_str(pick(r, &["eq", "ne", "lt", "le", "gt", "ge"]));
            }
            let sel = |r: &mut Rng| -> String {
                if r.chance(1, 3) {
                    String::new()
                } else if r.chance(1, 2) {
                    format!(".b{}", r.below(4))
                } else {
                    format!(".h{}", r.below(2))
                }
            };
            let neg = |r: &mut Rng| {
                if op == "vmad" && r.chance(1, 4) {
                    "-"
                } else {
                    ""
                }
            };
            if op == "vmad" {
                let (na, nb, nc) = (neg(r), neg(r), neg(r));
                let (sa, sb) = (sel(r), sel(r));
                s.push_str(&format!(" d, {na}a{sa}, {nb}b{sb}, {nc}c;"));
            } else {
                let (sa, sb) = (sel(r), sel(r));
                match r.below(3) {
                    0 => s.push_str(&format!(" d, a{sa}, b{sb};")),
                    1 => {
                        let op2 = pick(r, &["add", "min", "max"]);
                        s.push_str(&format!(".{op2} d, a{sa}, b{sb}, c;"));
                    }
                    _ => {
                        let ds = sel(r);
                        s.push_str(&format!(" d{ds}, a{sa}, b{sb}, c;"));
                    }
                }
            }
        }
        Family::Simd2 | Family::Simd4 => {
            let four = info.family == Family::Simd4;
            let ntypes = if op.starts_with("vset") { 2 } else { 3 };
            for _ in 0..ntypes {
                s.push('.');
                s.push_str(pick(r, &vt));
            }
            if op.starts_with("vset") {
                s.push('.');
                s.push_str(pick(r, &["eq", "ne", "lt", "le", "gt", "ge"]));
            }
            match r.below(3) {
                0 if !op.starts_with("vset") => s.push_str(".sat"),
                1 => s.push_str(".add"),
                _ => {}
            }
            let (k, n, top) = if four { ('b', 4, 8) } else { ('h', 2, 4) };
            let sel = |r: &mut Rng| {
                if r.chance(1, 3) {
                    String::new()
                } else {
                    format!(".{k}{}", digits(r, n, top))
                }
            };
            let (sa, sb) = (sel(r), sel(r));
            let mask = if r.chance(1, 2) {
                String::new()
            } else {
                let lanes: Vec<usize> = (0..n).rev().filter(|_| r.chance(1, 2)).collect();
                if lanes.is_empty() {
                    String::new()
                } else {
                    let ds: String = lanes.iter().map(|d| char::from(b'0' + *d as u8)).collect();
                    format!(".{k}{ds}")
                }
            };
            s.push_str(&format!(" d{mask}, a{sa}, b{sb}, c;"));
        }
        Family::Integer => {
            let all = [
                "u16", "u32", "u64", "s16", "s32", "s64", "b32", "b64", "u16x2", "s16x2",
            ];
            if matches!(op, "mul" | "mad" | "mul24" | "mad24" | "dp2a") {
                s.push('.');
                s.push_str(pick(r, &["lo", "hi", "wide"]));
            }
            if matches!(op, "szext" | "bmsk") {
                s.push('.');
                s.push_str(pick(r, &["clamp", "wrap"]));
            }
            if op == "bfind" && r.chance(1, 2) {
                s.push_str(".shiftamt");
            }
            if matches!(op, "add" | "sub" | "mad" | "mad24") && r.chance(1, 4) {
                s.push_str(".sat");
            }
            if matches!(op, "min" | "max") && r.chance(1, 4) {
                s.push_str(".relu");
            }
            s.push('.');
            s.push_str(pick(r, &all));
            if matches!(op, "dp4a" | "dp2a") {
                s.push('.');
                s.push_str(pick(r, &vt));
            }
            let names = ["a", "b", "c", "e"];
            s.push_str(" d");
            for n in names.iter().take(info.sources as usize) {
                s.push_str(", ");
                if r.chance(1, 10) {
                    s.push_str(&format!("{}", r.below(300)));
                } else {
                    s.push_str(n);
                }
            }
            s.push(';');
        }
    }
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
