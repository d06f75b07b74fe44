//! One case of a SIMD video form in x86-64 vector instructions, for [`crate::Plan::eval`].
//!
//! A case is small enough that the cost is the call and the extraction of the lanes. Here the
//! selectors of both sources are one byte shuffle (`pshufb`, SSSE3) of the pool `b:a`, which puts
//! every lane of `a` and of `b` into its own lane of one vector; the operation, the clamp and the
//! packing or the sum are then a few vector instructions on all lanes at once. Byte lanes are
//! computed in `i16` (every value and result of a byte lane fits), half-word lanes in `i32`
//! (min, max and the clamp of those need SSE4.1).
//!
//! These entries are compiled for features beyond the x86-64 baseline (SSE2), so [`pick`] offers
//! one only where the running CPU has them, and the entry is compiled for them as a whole (it is
//! not a baseline function calling one that is, which would cost a second call per case).

use std::arch::x86_64::*;

use super::{op_of, Simd, ABSDIFF, ADD, AVRG, MAX, MIN, SET, SUB};
use crate::eval::Inputs;
use crate::isa::SimdOp;
use crate::plan::{Kernel, OneFn, Operands};

/// The constants of a form's one case, 16 bytes each, aligned for 128-bit loads. The lanes of a
/// vector are `i16` (byte lanes) or `i32` (half-word lanes): the low half of the vector is for
/// `a` and the result, the high half for `b`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(super) struct Vectors {
    /// Byte shuffle of the pool `b:a`: each lane of each operand into the top of its vector
    /// lane, zero below it (index 0x80), so an arithmetic shift right extends its sign.
    shuf: [u8; 16],
    /// AND-ed into the sign-extended lanes: all ones (signed) or the lane's bits (unsigned).
    keep: [u8; 16],
    /// The clamp's bounds.
    lo: [u8; 16],
    hi: [u8; 16],
    /// All ones in the lanes of `d`'s mask.
    in_mask: [u8; 16],
    /// `vset`'s comparison: 1 in every lane where `<`, `==`, `>` count as true.
    lt: [u8; 16],
    eq: [u8; 16],
    gt: [u8; 16],
}

/// A vector of eight `i16` or four `i32`, as its 16 bytes.
fn lanes(n: usize, f: impl Fn(usize) -> i32) -> [u8; 16] {
    let mut v = [0u8; 16];
    let w = 16 / (2 * n);
    for (i, chunk) in v.chunks_exact_mut(w).enumerate() {
        chunk.copy_from_slice(&f(i).to_le_bytes()[..w]);
    }
    v
}

impl Vectors {
    /// `pa`, `pb`: the pool entry of each lane of `a` and `b`.
    pub(super) fn new(pa: [u32; 4], pb: [u32; 4], s: &Simd) -> Vectors {
        let n = s.lanes;
        // Bytes per source lane and per vector lane (twice as wide).
        let (sb, vb) = (4 / n, 8 / n);
        let mut shuf = [0x80u8; 16];
        for i in 0..n {
            for (half, p) in [(0, pa[i]), (8, pb[i])] {
                let at = half + vb * i + (vb - sb);
                for k in 0..sb {
                    shuf[at + k] = (sb * p as usize + k) as u8;
                }
            }
        }
        let in_a = |i: usize| i % (2 * n) < n;
        let all = |x: i64| lanes(n, |_| x as i32);
        Vectors {
            shuf,
            keep: lanes(n, |i| if in_a(i) { s.akeep } else { s.bkeep }),
            lo: all(s.lo.into()),
            hi: all(s.hi.into()),
            in_mask: lanes(n, |i| if in_a(i) { s.in_mask[i] } else { 0 }),
            lt: all(s.cmp.lt),
            eq: all(s.cmp.eq),
            gt: all(s.cmp.gt),
        }
    }
}

/// The one-case entry for `s`, where this CPU can run one.
pub(super) fn pick(s: &Simd) -> Option<OneFn> {
    macro_rules! arms {
        ($f:ident; $($k:ident $o:ident)*) => {
            match (s.kind, s.sat, s.add) {
                $(
                    (SimdOp::$k, false, false) => $f::<$o, false, false>,
                    (SimdOp::$k, false, true) => $f::<$o, false, true>,
                    (SimdOp::$k, true, false) => $f::<$o, true, false>,
                    (SimdOp::$k, true, true) => $f::<$o, true, true>,
                )*
            }
        };
    }
    if s.lanes == 4 && is_x86_feature_detected!("ssse3") {
        Some(arms!(bytes_one; Add ADD Sub SUB Avrg AVRG Absdiff ABSDIFF Min MIN Max MAX Set SET))
    } else if s.lanes == 2 && is_x86_feature_detected!("sse4.1") {
        Some(arms!(halves_one; Add ADD Sub SUB Avrg AVRG Absdiff ABSDIFF Min MIN Max MAX Set SET))
    } else {
        None
    }
}

/// Loads one of the constants.
#[inline(always)]
fn ld(x: &[u8; 16]) -> __m128i {
    // SAFETY: `x` is 16 bytes at a 16-byte aligned address: a field of `Vectors`, which is
    // `repr(C, align(16))` with fields of 16 bytes each.
    unsafe { _mm_load_si128(x.as_ptr().cast()) }
}

/// The pool `b:a` in the low 64 bits of a vector.
#[target_feature(enable = "sse2")]
#[inline]
fn pool(i: &Inputs) -> __m128i {
    _mm_cvtsi64_si128((((i.b & 0xffff_ffff) << 32) | (i.a & 0xffff_ffff)) as i64)
}

/// A one-case entry for lanes of one width, from the names of that width's intrinsics: `ext`
/// sign-extends the shuffled lanes (each at the top of its vector lane), `sum` adds the masked
/// lanes `m` of `a`'s half into the low 32 bits, `pack` puts the result lanes `r` side by side
/// in the low 32 bits.
macro_rules! one_case {
    (
        $(#[$doc:meta])*
        $name:ident, $feature:literal,
        $ext:ident::<$top:literal>, $add:ident, $sub:ident, $gt:ident, $eq:ident, $abs:ident,
        $min:ident, $max:ident, $sra:ident, $set1:ident,
        sum: |$m:ident| $sum:expr,
        pack: |$r:ident| $pack:expr $(,)?
    ) => {
        $(#[$doc])*
        #[target_feature(enable = $feature)]
        fn $name<const OP: u8, const SAT: bool, const SUM: bool>(
            k: &Kernel,
            _: &Operands,
            i: &Inputs,
        ) -> u64 {
            let Kernel::Simd(s) = k else {
                unreachable!("picked for a SIMD kernel only")
            };
            let v = &s.v;
            let t = _mm_shuffle_epi8(pool(i), ld(&v.shuf));
            let ext = _mm_and_si128($ext::<$top>(t), ld(&v.keep));
            let (x, y) = (ext, _mm_unpackhi_epi64(ext, ext));
            let r = match const { op_of(OP) } {
                SimdOp::Add => $add(x, y),
                SimdOp::Sub => $sub(x, y),
                SimdOp::Avrg => {
                    // (x + y + (x + y >= 0)) >> 1: the comparison is -1 where the sum is >= 0.
                    let sum = $add(x, y);
                    $sra::<1>($sub(sum, $gt(sum, $set1(-1))))
                }
                SimdOp::Absdiff => $abs($sub(x, y)),
                SimdOp::Min => $min(x, y),
                SimdOp::Max => $max(x, y),
                SimdOp::Set => {
                    let lt = _mm_and_si128($gt(y, x), ld(&v.lt));
                    let eq = _mm_and_si128($eq(x, y), ld(&v.eq));
                    let gt = _mm_and_si128($gt(x, y), ld(&v.gt));
                    _mm_or_si128(_mm_or_si128(lt, eq), gt)
                }
            };
            let r = if SAT {
                $min($max(r, ld(&v.lo)), ld(&v.hi))
            } else {
                r
            };
            let c = i.c as u32;
            let d = if SUM {
                let $m = _mm_and_si128(r, ld(&v.in_mask));
                c.wrapping_add(_mm_cvtsi128_si32($sum) as u32)
            } else {
                let $r = r;
                let w = _mm_cvtsi128_si32($pack) as u32;
                (w & s.keep) | (c & !s.keep)
            };
            u64::from(d)
        }
    };
}

one_case!(
    /// One case of a byte-lane form (`vop4`), in `i16` lanes.
    bytes_one, "ssse3",
    _mm_srai_epi16::<8>, _mm_add_epi16, _mm_sub_epi16, _mm_cmpgt_epi16, _mm_cmpeq_epi16,
    _mm_abs_epi16, _mm_min_epi16, _mm_max_epi16, _mm_srai_epi16, _mm_set1_epi16,
    // Added in pairs into 32 bits, then the two pairs.
    sum: |m| {
        let m = _mm_madd_epi16(m, _mm_set1_epi16(1));
        _mm_add_epi32(m, _mm_shuffle_epi32::<0b01>(m))
    },
    // The low bytes of the eight lanes, saturated after masking (so unchanged).
    pack: |r| {
        let low = _mm_and_si128(r, _mm_set1_epi16(0xff));
        _mm_packus_epi16(low, low)
    },
);

one_case!(
    /// One case of a half-word-lane form (`vop2`), in `i32` lanes.
    halves_one, "sse4.1",
    _mm_srai_epi32::<16>, _mm_add_epi32, _mm_sub_epi32, _mm_cmpgt_epi32, _mm_cmpeq_epi32,
    _mm_abs_epi32, _mm_min_epi32, _mm_max_epi32, _mm_srai_epi32, _mm_set1_epi32,
    sum: |m| _mm_add_epi32(m, _mm_shuffle_epi32::<0b01>(m)),
    // The low half-words of lanes 0 and 1.
    pack: |r| _mm_shufflelo_epi16::<0b00_00_10_00>(r),
);
