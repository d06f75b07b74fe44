//! The meanings in the core agree with nvcc's PTX run as a program.
//!
//! `scripts/intrinsics_check.py` interprets the PTX recorded for each intrinsic over edge values,
//! random inputs and every pair of lane values, compares with `ptxlab intrinsic --batch`, and
//! writes `tests/data/intrinsics-ptx.txt`: per intrinsic the number of inputs and an FNV-1a
//! digest of the PTX results. This test builds the same inputs, evaluates the meanings and
//! compares the digests, so a meaning that drifts from the PTX fails here (the script then shows
//! the inputs where they part).

use ptxlab_core::intrinsics::{self, evaluate, CType, Intrinsic};

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

fn halfwords() -> Vec<u64> {
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

/// The inputs of scripts/intrinsics_check.py, in its order.
fn inputs(k: usize, i: &Intrinsic) -> Vec<Vec<u64>> {
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
    let n = i.name;
    let four = (n.starts_with("__v") && n.ends_with('4') && n.len() > 4) || n.starts_with("__dp4a");
    let two = (n.starts_with("__v") && n.ends_with('2') && n.len() > 4)
        || n.contains("16x2")
        || n.starts_with("__dp2a");
    if four || two {
        let vals: Vec<u64> = if four {
            (0..256).map(|x| x * 0x01010101).collect()
        } else {
            halfwords().into_iter().map(|h| h * 0x10001).collect()
        };
        if i.args.len() == 1 {
            out.extend(vals.iter().map(|&x| vec![x]));
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
                    out.push(t);
                }
            }
        }
    }
    out
}

fn fnv(results: &[u64]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for r in results {
        for b in r.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

#[test]
fn meanings_agree_with_the_ptx_on_every_recorded_input() {
    let text = include_str!("data/intrinsics-ptx.txt");
    let mut recorded = std::collections::HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let count: usize = f[1].parse().unwrap();
        let digest = u64::from_str_radix(f[2], 16).unwrap();
        recorded.insert(f[0].to_string(), (count, digest));
    }
    let mut disagree = Vec::new();
    let mut total = 0;
    for (k, i) in intrinsics::all().enumerate() {
        let Some(&(count, digest)) = recorded.get(i.name) else {
            disagree.push(format!("{}: not in the recorded PTX results", i.name));
            continue;
        };
        let ins = inputs(k, i);
        assert_eq!(ins.len(), count, "{}: inputs built differently", i.name);
        // d, then any bools the intrinsic writes.
        let results: Vec<u64> = ins
            .iter()
            .flat_map(|a| {
                let e = evaluate(i, a).expect("arity");
                std::iter::once(e.result).chain(e.outputs.into_iter().map(|(_, v)| v))
            })
            .collect();
        total += ins.len();
        if fnv(&results) != digest {
            disagree.push(format!("{}: meaning and PTX differ", i.name));
        }
    }
    assert!(
        disagree.is_empty(),
        "{} of the intrinsics (run scripts/intrinsics_check.py --only NAME):\n{}",
        disagree.len(),
        disagree.join("\n")
    );
    assert!(total > 5_000_000, "only {total} inputs");
}
