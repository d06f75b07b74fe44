//! An independent model of the program instructions, written from the ISA text
//! (`../shared/spec/ptx-isa-programs.md`) and nothing else: no code is shared with the crate.
//! Values are raw bit patterns in `u64`; `w` is the operand width in bits. The one departure,
//! marked at [`carry`], is the carry chain's, where the H200's measurements decide (see "The
//! carry chain" in `docs/hardware-vs-spec.md`).

#![allow(dead_code)]

pub fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1 << w) - 1
    }
}

/// The value of the low `w` bits of `v` read as a signed number.
pub fn signed(v: u64, w: u32) -> i128 {
    let v = v & mask(w);
    if w < 64 && v >> (w - 1) & 1 == 1 {
        v as i128 - (1i128 << w)
    } else if w == 64 {
        v as i64 as i128
    } else {
        v as i128
    }
}

pub fn and(w: u32, a: u64, b: u64) -> u64 {
    a & b & mask(w)
}
pub fn or(w: u32, a: u64, b: u64) -> u64 {
    (a | b) & mask(w)
}
pub fn xor(w: u32, a: u64, b: u64) -> u64 {
    (a ^ b) & mask(w)
}
pub fn not(w: u32, a: u64) -> u64 {
    !a & mask(w)
}
/// C's `!a`.
pub fn cnot(w: u32, a: u64) -> u64 {
    if a & mask(w) == 0 {
        1
    } else {
        0
    }
}

/// `lop3`: the function whose truth table is `lut`, built as a sum of minterms: for every row
/// r whose bit is set in `lut`, the inputs equal r's bits (a is the row's bit 2, as ta = 0xF0).
pub fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut d = 0u32;
    for r in 0..8 {
        if lut >> r & 1 == 0 {
            continue;
        }
        let pa = if r & 4 != 0 { a } else { !a };
        let pb = if r & 2 != 0 { b } else { !b };
        let pc = if r & 1 != 0 { c } else { !c };
        d |= pa & pb & pc;
    }
    d
}

/// `shf` as the ISA's pseudo-code reads, shifts of 32 giving 0.
pub fn shf(left: bool, clamp: bool, a: u32, b: u32, c: u32) -> u32 {
    let n = if clamp { c.min(32) } else { c & 0x1f };
    let shl = |x: u32, k: u32| if k >= 32 { 0 } else { x << k };
    let shr = |x: u32, k: u32| if k >= 32 { 0 } else { x >> k };
    if left {
        shl(b, n) | shr(a, 32 - n)
    } else {
        shl(b, 32 - n) | shr(a, n)
    }
}

/// `shl`: amounts above the width give 0.
pub fn shl(w: u32, a: u64, b: u32) -> u64 {
    if b >= w {
        0
    } else {
        (a << b) & mask(w)
    }
}

/// `shr`: zeros in for `.b`/`.u`, sign copies in for `.s`; amounts above the width are the
/// width.
pub fn shr(w: u32, is_signed: bool, a: u64, b: u32) -> u64 {
    let n = b.min(w);
    if is_signed {
        let s = signed(a, w);
        ((s >> n.min(127)) as u64) & mask(w)
    } else if n >= w {
        0
    } else {
        (a & mask(w)) >> n
    }
}

/// `prmt` mode table from the ISA, one string per mode, four entries per `c & 3`, each entry
/// the source bytes of d.b3 d.b2 d.b1 d.b0.
const MODES: [(&str, [&str; 4]); 6] = [
    ("f4e", ["3210", "4321", "5432", "6543"]),
    ("b4e", ["5670", "6701", "7012", "0123"]),
    ("rc8", ["0000", "1111", "2222", "3333"]),
    ("ecl", ["3210", "3211", "3222", "3333"]),
    ("ecr", ["0000", "1110", "2210", "3210"]),
    ("rc16", ["1010", "3232", "1010", "3232"]),
];

pub fn prmt(mode: Option<&str>, a: u32, b: u32, c: u32) -> u32 {
    let tmp64 = (b as u64) << 32 | a as u64;
    let byte = |k: u32| (tmp64 >> (8 * k)) as u32 & 0xff;
    let mut d = 0u32;
    match mode {
        None => {
            for i in 0..4 {
                let ctl = c >> (4 * i) & 0xf;
                let v = byte(ctl & 7);
                let v = if ctl & 8 != 0 {
                    if v & 0x80 != 0 {
                        0xff
                    } else {
                        0
                    }
                } else {
                    v
                };
                d |= v << (8 * i);
            }
        }
        Some(m) => {
            let row = MODES.iter().find(|x| x.0 == m).expect("a prmt mode").1[(c & 3) as usize];
            for (pos, ch) in row.chars().enumerate() {
                // pos 0 is d.b3.
                let k = ch.to_digit(10).unwrap();
                d |= byte(k) << (8 * (3 - pos as u32));
            }
        }
    }
    d
}

/// `setp`'s comparison `cmp` of integer type (`kind` 'b', 'u' or 's') of width `w`.
pub fn compare(cmp: &str, kind: char, w: u32, a: u64, b: u64) -> bool {
    let (ua, ub) = (a & mask(w), b & mask(w));
    let (sa, sb) = (signed(a, w), signed(b, w));
    let (x, y) = if kind == 's' {
        (sa, sb)
    } else {
        (ua as i128, ub as i128)
    };
    match cmp {
        "eq" => x == y,
        "ne" => x != y,
        "lt" => x < y,
        "le" => x <= y,
        "gt" => x > y,
        "ge" => x >= y,
        "lo" => ua < ub,
        "ls" => ua <= ub,
        "hi" => ua > ub,
        "hs" => ua >= ub,
        other => panic!("not an integer comparison: {other}"),
    }
}

/// `setp`: (p, q) from t and the optional Boolean operation with c.
pub fn setp(t: bool, boolop: Option<&str>, c: bool) -> (bool, bool) {
    let f = |x: bool| match boolop {
        None => x,
        Some("and") => x && c,
        Some("or") => x || c,
        Some("xor") => x ^ c,
        Some(o) => panic!("not a Boolean operation: {o}"),
    };
    (f(t), f(!t))
}

/// `set`: the answer `r` (the comparison, combined with c as `setp`'s p is) written as d's
/// type: all ones for `.u32` and `.s32`, 1.0 for `.f32`, else 0.
pub fn set(r: bool, dtype: &str) -> u64 {
    match (r, dtype) {
        (false, _) => 0,
        (true, "f32") => 0x3f80_0000,
        (true, "u32" | "s32") => 0xffff_ffff,
        (_, other) => panic!("not a destination type of set: {other}"),
    }
}

pub fn selp(a: u64, b: u64, c: bool) -> u64 {
    if c {
        a
    } else {
        b
    }
}

/// Integer `cvt` from (`aw` bits, `asigned`) to (`dw` bits, `dsigned`), with `.sat` clamping to
/// the destination's range; without it the low `dw` bits of the value.
pub fn cvt(dw: u32, dsigned: bool, aw: u32, asigned: bool, sat: bool, a: u64) -> u64 {
    let x: i128 = if asigned {
        signed(a, aw)
    } else {
        (a & mask(aw)) as i128
    };
    let (lo, hi) = if dsigned {
        (-(1i128 << (dw - 1)), (1i128 << (dw - 1)) - 1)
    } else {
        (0, (1i128 << dw) - 1)
    };
    let y = if sat { x.max(lo).min(hi) } else { x };
    (y as u64) & mask(dw)
}

/// `mov d, {e0, e1, ...}`: the first element in the lowest bits.
pub fn pack(ew: u32, elems: &[u64]) -> u64 {
    elems
        .iter()
        .enumerate()
        .fold(0, |d, (i, e)| d | (e & mask(ew)) << (ew * i as u32))
}

/// `mov {e0, e1, ...}, a`.
pub fn unpack(ew: u32, n: u32, a: u64) -> Vec<u64> {
    (0..n).map(|i| a >> (ew * i) & mask(ew)).collect()
}

/// `slct` with a signed 32-bit selector: `a` when `c >= 0`, else `b`.
pub fn slct_s32(a: u64, b: u64, c: u32) -> u64 {
    if (c as i32) >= 0 {
        a
    } else {
        b
    }
}

/// `slct` with an f32 selector: `a` when `c >= 0.0` as a float comparison (so -0.0 counts, NaN
/// does not); with `ftz` a subnormal `c` is read as zero first.
pub fn slct_f32(ftz: bool, a: u64, b: u64, c: u32) -> u64 {
    let mut x = f32::from_bits(c);
    if ftz && x.is_subnormal() {
        x = 0.0;
    }
    if x >= 0.0 {
        a
    } else {
        b
    }
}

/// `cvt.pack.sat`: `a` and `b` (signed 32-bit) each clamped to the `w`-bit type's range, `b`
/// in the low `w` bits and `a` above it; for `w < 16`, `c`'s low bits fill the rest of `d`.
pub fn cvt_pack(w: u32, is_signed: bool, a: u32, b: u32, c: u32) -> u32 {
    let (lo, hi): (i64, i64) = if is_signed {
        (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    } else {
        (0, (1 << w) - 1)
    };
    let clamp = |x: u32| ((x as i32 as i64).clamp(lo, hi) as u64 & mask(w)) as u32;
    let pair = (clamp(a) << w) | clamp(b);
    if w >= 16 {
        pair
    } else {
        pair | (c << (2 * w))
    }
}

/// A link of the carry chain, from the text's definitions with one carry bit that a
/// subtraction reads and writes as "no borrow": `(d, carry out)`. `op` is `add`, `sub` or
/// `mad` (`hi`: the upper half of the `2w`-bit product); `cin` the carry in (`None`: the
/// `.cc` form, whose carry in is 0 for `add` and `mad` and 1 for `sub`). The "no borrow" carry
/// and 16-bit `.hi` are the H200's, not the text's.
// The operands and the form's switches, as the text lists them: a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn carry(
    op: &str,
    w: u32,
    is_signed: bool,
    hi: bool,
    a: u64,
    b: u64,
    c: u64,
    cin: Option<bool>,
) -> (u64, u64) {
    let m = mask(w) as u128;
    let (a, b, c) = (a as u128 & m, b as u128 & m, c as u128 & m);
    let cin = match (op, cin) {
        (_, Some(x)) => x as u128,
        ("sub", None) => 1,
        _ => 0,
    };
    let (x, y) = match op {
        "add" => (a, b),
        "sub" => (a, !b & m),
        _ => {
            let p: i128 = if is_signed {
                signed(a as u64, w) * signed(b as u64, w)
            } else {
                (a * b) as i128
            };
            // 16-bit operands are widened to 32 bits first, so .hi is bits 32..47.
            let shift = if w == 16 { 32 } else { w };
            let half = if hi { (p as u128) >> shift } else { p as u128 };
            (half & m, c)
        }
    };
    let sum = x + y + cin;
    ((sum & m) as u64, (sum >> w) as u64 & 1)
}
