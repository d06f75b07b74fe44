//! The inputs every intrinsic is tried on, built exactly as `scripts/intrinsics_check.py` builds
//! them (same values, same order): every combination of edge values, random values, and for the
//! lane-wise ones every pair of lane values.

#![allow(dead_code)]

use ptxlab_core::intrinsics::{CType, Intrinsic};

const EDGE32: [u64; 32] = [
    0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffff, 0x800000,
    0xffffff, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x01010101, 0x7f7f7f7f,
    0x80808080, 0xfefefefe, 0x7fff7fff, 0x80008000, 0xff00ff00, 31, 32, 33, 0x12345678, 0x89abcdef,
];
const EDGE64_MORE: [u64; 7] = [
    u64::MAX,
    0x8000000000000000,
    0x7fffffffffffffff,
    1 << 32,
    0xffffffff,
    0xfffffffe00000000,
    0x0123456789abcdef,
];
const SMALL32: [u64; 14] = [
    0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff, 32,
    0x01020304, 0xfefdfcfb,
];

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
}

fn mask(t: CType) -> u64 {
    if t.bits() == 64 {
        u64::MAX
    } else {
        0xffff_ffff
    }
}

/// 256 halfwords: the edges around 0, 0x100, 0x8000 and 0x10000, then random ones.
pub fn halfwords() -> Vec<u64> {
    let mut hs: Vec<u64> = (0..32)
        .chain(0x7fe0..0x8020)
        .chain(0xffe0..0x10000)
        .chain(0xf0..0x110)
        .collect();
    let mut g = SplitMix(0x5eed);
    while hs.len() < 256 {
        hs.push(g.next() & 0xffff);
    }
    hs
}

/// The inputs of `scripts/intrinsics_check.py` for the `k`-th intrinsic of
/// [`ptxlab_core::intrinsics::all`], in its order: [`word_inputs`], then [`lane_pairs`].
pub fn inputs(k: usize, i: &Intrinsic) -> Vec<Vec<u64>> {
    let mut out = word_inputs(k, i);
    out.extend(lane_pairs(i).into_iter().map(|p| p.args));
    out
}

/// Every combination of edge values (all pairs for two arguments, a smaller set for three),
/// then 2000 random values (splitmix64 seeded with the intrinsic's position `k`).
pub fn word_inputs(k: usize, i: &Intrinsic) -> Vec<Vec<u64>> {
    let edges = |t: CType| -> Vec<u64> {
        let mut e = EDGE32.to_vec();
        if t.bits() == 64 {
            e.extend(EDGE64_MORE);
        }
        e
    };
    let mut out: Vec<Vec<u64>> = Vec::new();
    match i.args.len() {
        1 => out.extend(edges(i.args[0]).into_iter().map(|x| vec![x])),
        2 => {
            for x in edges(i.args[0]) {
                for y in edges(i.args[1]) {
                    out.push(vec![x, y]);
                }
            }
        }
        _ => {
            for x in SMALL32 {
                for y in SMALL32 {
                    for z in SMALL32 {
                        out.push(vec![x, y, z]);
                    }
                }
            }
        }
    }
    let mut g = SplitMix(k as u64 + 1);
    for _ in 0..2000 {
        out.push(i.args.iter().map(|&t| g.next() & mask(t)).collect());
    }
    out
}

/// How the lane pairs of an intrinsic are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// No lane pairs.
    None,
    /// Byte values, each replicated into the four bytes.
    Four,
    /// [`halfwords`], each replicated into both halves.
    Two,
}

/// Which lane pairs the intrinsic gets, by its name as the script decides it.
pub fn lanes(i: &Intrinsic) -> Lanes {
    let n = i.name;
    let four = (n.starts_with("__v") && n.ends_with('4') && n.len() > 4) || n.starts_with("__dp4a");
    let two = (n.starts_with("__v") && n.ends_with('2') && n.len() > 4)
        || n.contains("16x2")
        || n.starts_with("__dp2a");
    if four {
        Lanes::Four
    } else if two {
        Lanes::Two
    } else {
        Lanes::None
    }
}

/// One input built from lane values.
pub struct LanePair {
    /// Index of the first argument's lane value (0..256: a byte, or a place in [`halfwords`]).
    pub a: usize,
    /// Index of the second argument's lane value (0 for one-argument intrinsics).
    pub b: usize,
    /// The arguments.
    pub args: Vec<u64>,
}

/// The lane values replicated into every lane: for one argument each of the 256 values, for
/// two or three every pair (the third argument follows from the pair).
pub fn lane_pairs(i: &Intrinsic) -> Vec<LanePair> {
    let kind = lanes(i);
    let four = kind == Lanes::Four;
    let vals: Vec<u64> = match kind {
        Lanes::None => return Vec::new(),
        Lanes::Four => (0..256).map(|x| x * 0x01010101).collect(),
        Lanes::Two => halfwords().into_iter().map(|h| h * 0x10001).collect(),
    };
    let mut out = Vec::new();
    if i.args.len() == 1 {
        out.extend((0..256).map(|a| LanePair {
            a,
            b: 0,
            args: vec![vals[a]],
        }));
    } else {
        for a in 0..256usize {
            for b in 0..256usize {
                let mut t = vec![vals[a], vals[b]];
                if i.args.len() == 3 {
                    t.push(if four {
                        ((a << 8 | b) as u64) * 0x0001_0001
                    } else {
                        vals[(a + b) & 255]
                    });
                }
                out.push(LanePair { a, b, args: t });
            }
        }
    }
    out
}
