//! What a selector means, decoded once: the byte or half-word a scalar selector picks, the
//! pool entry each SIMD lane takes, the lanes of `d` a SIMD mask writes. The evaluators, the
//! sweep and the front end's pickers all read these functions.
//!
//! ```
//! use ptxlab_core::isa::lanes::{pool_entry_name, scalar_part};
//! use ptxlab_core::isa::{SelKind, Selector};
//!
//! // `.b2` picks bits 16..24; `.h1` bits 16..32.
//! assert_eq!(scalar_part(Some(&Selector::new(SelKind::B, &[2]))), (16, 8));
//! assert_eq!(scalar_part(Some(&Selector::new(SelKind::H, &[1]))), (16, 16));
//! assert_eq!(scalar_part(None), (0, 32));
//! assert_eq!(pool_entry_name(5, 4), "5: b.b1");
//! ```

use super::vocab::{SelKind, Selector};
use super::Family;

/// Number of lanes of a family's operands: 2 half-words, 4 bytes, or 1 (a whole word).
#[inline(always)]
pub const fn lane_count(family: Family) -> usize {
    match family {
        Family::Simd2 => 2,
        Family::Simd4 => 4,
        _ => 1,
    }
}

/// Bits in one lane of a SIMD family with `n` lanes.
#[inline(always)]
pub const fn lane_bits(n: usize) -> u32 {
    32 / n as u32
}

/// The selector kind a SIMD family with `n` lanes is written with (`.h` for 2, `.b` for 4).
pub const fn lane_kind(n: usize) -> SelKind {
    if n == 2 {
        SelKind::H
    } else {
        SelKind::B
    }
}

/// Bit offset and width that a scalar selector names in a 32-bit word (the whole word without
/// one). Digits out of range wrap, as the hardware's field decoding does.
#[inline(always)]
pub fn scalar_part(sel: Option<&Selector>) -> (u32, u32) {
    match sel {
        None => (0, 32),
        Some(s) => {
            let d = u32::from(s.lane(0));
            match s.kind {
                SelKind::B => (8 * (d & 3), 8),
                SelKind::H => (16 * (d & 1), 16),
            }
        }
    }
}

/// The pool entry that lane `lane` of SIMD source `src` (0 = `a`, 1 = `b`) takes, for `n`
/// lanes: the selector's digit for that lane, wrapped within the `2n` entries of `b:a`, or
/// the operand's own lane without a selector. Lanes without a digit take entry 0.
#[inline(always)]
pub fn pool_pick(sel: Option<&Selector>, src: usize, lane: usize, n: usize) -> usize {
    match sel {
        // One digit per lane (the usual case): the digit of lane `lane`, read without the
        // checks `Selector::lane` needs for shorter selectors.
        Some(s) if usize::from(s.len) == n && lane < n => {
            usize::from(s.digits[(n - 1 - lane) & 3]) & (2 * n - 1)
        }
        Some(s) => s.lane(lane) as usize & (2 * n - 1),
        None => src * n + lane,
    }
}

/// The register (0 = `a`, 1 = `b`) and its lane that pool entry `k` of `n`-lane operands is.
#[inline(always)]
pub const fn pool_entry(k: usize, n: usize) -> (usize, usize) {
    if k < n {
        (0, k)
    } else {
        (1, k - n)
    }
}

/// Pool entry `k` as the user reads it: `5: b.b1`.
pub fn pool_entry_name(k: usize, n: usize) -> String {
    let (r, pos) = pool_entry(k, n);
    let kind = match lane_kind(n) {
        SelKind::B => 'b',
        SelKind::H => 'h',
    };
    format!("{k}: {}.{kind}{pos}", ["a", "b"][r])
}

/// The selector that makes source `src` take the pool entries `picks` (least significant lane
/// first), or none when they are the operand's own lanes in order.
pub fn lanes_selector(src: usize, picks: &[u8]) -> Option<Selector> {
    let n = picks.len();
    if picks
        .iter()
        .enumerate()
        .all(|(i, &d)| usize::from(d) == src * n + i)
    {
        return None;
    }
    let digits: Vec<u8> = picks.iter().rev().copied().collect();
    Some(Selector::new(lane_kind(n), &digits))
}

/// Lanes of `d` a SIMD mask writes: one bit per lane, least significant first (all without a
/// mask). Digits that name no lane are ignored.
#[inline(always)]
pub fn mask_bits(sel: Option<&Selector>, n: usize) -> u32 {
    match sel {
        Some(s) => s
            .digits()
            .iter()
            .filter(|&&d| (d as usize) < n)
            .fold(0, |m, &d| m | 1 << d),
        None => (1 << n) - 1,
    }
}

/// The mask selector that writes the lanes set in `bits` (`None` for all of them; an empty
/// selector when none, which the validator refuses).
pub fn mask_selector(bits: u32, n: usize) -> Option<Selector> {
    if bits == (1 << n) - 1 {
        return None;
    }
    let digits: Vec<u8> = (0..n as u8).rev().filter(|&l| bits >> l & 1 == 1).collect();
    Some(Selector::new(lane_kind(n), &digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_and_masks_round_trip() {
        let s = Selector::new(SelKind::B, &[7, 2, 0, 5]);
        let picks: Vec<u8> = (0..4).map(|i| pool_pick(Some(&s), 1, i, 4) as u8).collect();
        assert_eq!(picks, [5, 0, 2, 7]);
        assert_eq!(lanes_selector(1, &picks), Some(s));
        assert_eq!(lanes_selector(1, &[4, 5, 6, 7]), None);
        assert_eq!(pool_pick(None, 1, 1, 2), 3);
        assert_eq!(pool_entry_name(5, 4), "5: b.b1");
        assert_eq!(pool_entry_name(1, 2), "1: a.h1");
        let m = Selector::new(SelKind::B, &[3, 1]);
        assert_eq!(mask_bits(Some(&m), 4), 0b1010);
        assert_eq!(mask_selector(0b1010, 4), Some(m));
        assert_eq!(mask_selector(0b11, 2), None);
        assert_eq!(
            scalar_part(Some(&Selector::new(SelKind::H, &[1]))),
            (16, 16)
        );
    }
}
