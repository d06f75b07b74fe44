//! Decimal floating-point literals (`1.5`, `2.5e-3`, `1E10`) read as the nearest `f64`, ties to
//! even, as `str::parse::<f64>` reads them, by exact integer arithmetic.
//!
//! Why not `str::parse`: its fast algorithm carries a table of 128-bit powers of five that,
//! with its code, was 13 KiB of the playground's compressed wasm, for literals a person types
//! now and then. Here the value is `digits × 10^exp` and the nearest `f64` is found with big
//! integers: slower, and small. The tests compare it with `str::parse` on edge cases and on
//! random literals.

use std::cmp::Ordering;

/// A natural number, 32-bit limbs, least significant first, no zero limb at the top.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for l in &mut self.0 {
            let v = u64::from(*l) * u64::from(m) + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn bits(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(&top) => 32 * (self.0.len() as u64 - 1) + u64::from(32 - top.leading_zeros()),
        }
    }

    fn shl(&self, n: u64) -> Big {
        let (limbs, bits) = ((n / 32) as usize, (n % 32) as u32);
        let mut v = vec![0u32; limbs];
        let mut carry = 0u32;
        for &l in &self.0 {
            v.push((l << bits) | carry);
            carry = if bits == 0 { 0 } else { l >> (32 - bits) };
        }
        if carry != 0 {
            v.push(carry);
        }
        let mut b = Big(v);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn cmp(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    /// `self -= o`, where `o <= self`.
    fn sub(&mut self, o: &Big) {
        let mut borrow = 0i64;
        for (i, l) in self.0.iter_mut().enumerate() {
            let v = i64::from(*l) - i64::from(o.0.get(i).copied().unwrap_or(0)) - borrow;
            *l = v as u32;
            borrow = i64::from(v < 0);
        }
        self.trim();
    }

    fn pow10(n: u32) -> Big {
        let mut b = Big(vec![1]);
        for _ in 0..n {
            b.mul_add(10, 0);
        }
        b
    }
}

/// The nearest `f64` to a decimal literal: digits with an optional fraction (`1`, `1.5`, `1.`,
/// `.5`) and an optional exponent (`e` or `E`, an optional sign, digits). `None` for anything
/// else, as `str::parse` would say, except that a sign of the literal's own (`-1`), `inf` and
/// `nan` are not read here.
pub fn parse(text: &str) -> Option<f64> {
    let (mant, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (int, frac) = match mant.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mant, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !all_digits(int) || !all_digits(frac) {
        return None;
    }
    // The exponent, saturated: beyond these bounds every literal is 0 or infinite anyway.
    let mut e10: i64 = match exp {
        None => 0,
        Some(e) => {
            let (neg, d) = match e.as_bytes().first() {
                Some(b'+') => (false, &e[1..]),
                Some(b'-') => (true, &e[1..]),
                _ => (false, e),
            };
            if d.is_empty() || !all_digits(d) {
                return None;
            }
            let v = d
                .bytes()
                .fold(0i64, |v, b| (v * 10 + i64::from(b - b'0')).min(1 << 40));
            if neg {
                -v
            } else {
                v
            }
        }
    };
    e10 -= frac.len() as i64;
    let digits = int.bytes().chain(frac.bytes()).skip_while(|&b| b == b'0');
    let mut num = Big(Vec::new());
    let mut n = 0i64;
    for b in digits {
        num.mul_add(10, u32::from(b - b'0'));
        n += 1;
    }
    if n == 0 {
        return Some(0.0);
    }
    // The value lies in [10^(n-1+e10), 10^(n+e10)).
    if n + e10 > 310 {
        return Some(f64::INFINITY);
    }
    if n + e10 < -324 {
        return Some(0.0);
    }
    let mut den = Big(vec![1]);
    if e10 >= 0 {
        let p = Big::pow10(e10 as u32);
        let mut prod = Big(vec![0; num.0.len() + p.0.len()]);
        for (i, &a) in num.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in p.0.iter().enumerate() {
                let v = u64::from(prod.0[i + j]) + u64::from(a) * u64::from(b) + carry;
                prod.0[i + j] = v as u32;
                carry = v >> 32;
            }
            prod.0[i + p.0.len()] = carry as u32;
        }
        prod.trim();
        num = prod;
    } else {
        den = Big::pow10((-e10) as u32);
    }
    // q = floor(num · 2^s / den) with 54 or 55 bits: 53 for the significand, one to round.
    let mut s = 54 - (num.bits() as i64 - den.bits() as i64);
    let a = num.shl(s.max(0) as u64);
    let b = den.shl((-s).max(0) as u64);
    let mut rem = a;
    let mut q: u64 = 0;
    for i in (0..=55u64).rev() {
        let bi = b.shl(i);
        if rem.cmp(&bi) != Ordering::Less {
            rem.sub(&bi);
            q |= 1 << i;
        }
    }
    let mut sticky = !rem.0.is_empty();
    if q >= 1 << 54 {
        sticky |= q & 1 != 0;
        q >>= 1;
        s -= 1;
    }
    // Below the normal range the last bit kept is 2^-1074: drop the bits under it.
    if s > 1075 {
        let k = (s - 1075).min(63) as u32;
        sticky |= q & ((1u64 << k) - 1) != 0;
        q >>= k;
        s = 1075;
    }
    let mut mant = q >> 1;
    if q & 1 != 0 && (sticky || mant & 1 != 0) {
        mant += 1;
    }
    // mant · 2^(1-s): the exponent field and the significand add up (a carry out of the
    // significand moves the exponent up, a subnormal has exponent field 0).
    // 1075 - s is below 2100 (the value is below 10^310), so the shift keeps every bit.
    let bits = (((1075 - s) as u64) << 52) + mant;
    Some(f64::from_bits(bits.min(f64::INFINITY.to_bits())))
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn same(t: &str) {
        let want = t.parse::<f64>().ok();
        let got = parse(t);
        assert_eq!(
            got.map(f64::to_bits),
            want.map(f64::to_bits),
            "{t}: {got:?} instead of {want:?}"
        );
    }

    #[test]
    fn edge_cases_as_std_reads_them() {
        for t in [
            "0", "0.0", "00.000", "1", "1.5", "0.1", "0.3", "123.456", "1e0", "1E5", "1e+5",
            "1e-5", "2.5e-3", "9007199254740993", "9007199254740995", "9007199254740992.5",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
            "1e308", "1e309", "2e308", "1e400", "1e99999999999999999999",
            "2.2250738585072014e-308", "2.2250738585072011e-308", "2.225073858507201e-308",
            "4.9e-324", "5e-324", "2.4703282292062328e-324", "2.4703282292062327e-324",
            "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
            "1e-324", "1e-325", "1e-400", "1e-99999999999999999999",
            "0.000000000000000000000000000000000001", "123456789012345678901234567890",
            "3.141592653589793238462643383279502884197", "1e23", "8.98846567431158e307",
            "1.", ".5", "1.e3", ".5e-3", ".", ".e3", "1e", "1e+", "e5", "1e5e3", "1.2.3", "",
            "1_0", "1e5.0", " 1", "1 ",
        ] {
            same(t);
        }
        // A sign, an infinity or a NaN is the caller's to read.
        for t in ["+1", "-1", "inf", "nan", "infinity", "-0.0"] {
            assert_eq!(parse(t), None, "{t}");
        }
    }

    #[test]
    fn random_literals_as_std_reads_them() {
        // xorshift: the same literals on every run.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let int_len = 1 + next() % 20;
            let frac_len = next() % 25;
            let mut t: String = (0..int_len)
                .map(|_| (b'0' + (next() % 10) as u8) as char)
                .collect();
            if frac_len > 0 {
                t.push('.');
                t.extend((0..frac_len).map(|_| (b'0' + (next() % 10) as u8) as char));
            }
            if next() % 2 == 0 {
                let e = (next() % 700) as i64 - 350;
                t.push_str(&format!("e{e}"));
            }
            same(&t);
        }
    }

    #[test]
    fn every_f64_written_shortest_reads_back() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x & !(1 << 63));
            if v.is_finite() {
                let t = format!("{v:e}");
                same(&t);
                assert_eq!(parse(&t).map(f64::to_bits), Some(v.to_bits()), "{t}");
            }
        }
    }
}
