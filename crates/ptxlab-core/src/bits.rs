//! Small bit-level helpers: fields, sign extension (written once, here), clamps and ranges.
//! The lowest layer beside [`crate::isa`]; the evaluators, traces and value reader use it.
//!
//! ```
//! use ptxlab_core::bits::{extend_field, field, int_range, sext};
//!
//! assert_eq!(field(0x1234_5678, 8, 8), 0x56);
//! assert_eq!(sext(0x80, 8), -128);
//! assert_eq!(extend_field(0x0000_ff00, 8, 8, true), -1);
//! assert_eq!(int_range(8, true), (-128, 127));
//! ```

/// The `width`-bit field of `v` starting at bit `lo`, zero-extended. Widths of 0 give 0 and
/// widths of 64 or more give the whole (shifted) value; never panics.
#[inline(always)]
pub fn field(v: u64, lo: u32, width: u32) -> u64 {
    let shifted = v.checked_shr(lo).unwrap_or(0);
    if width >= 64 {
        shifted
    } else {
        shifted & ((1u64 << width) - 1)
    }
}

/// The low `bits` bits of `v` read as a two's complement number (bits 1..=64; 0 reads as 0).
#[inline(always)]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits == 0 {
        0
    } else if bits >= 64 {
        v as i64
    } else {
        let sh = 64 - bits;
        ((v << sh) as i64) >> sh
    }
}

/// The `width`-bit field of `v` at bit `lo`, sign-extended when `signed`, zero-extended otherwise.
#[inline(always)]
pub fn extend_field(v: u64, lo: u32, width: u32, signed: bool) -> i64 {
    let f = field(v, lo, width);
    if signed {
        sext(f, width)
    } else {
        f as i64
    }
}

/// `x` limited to `lo..=hi` (assumes `lo <= hi`).
#[inline(always)]
pub fn clamp_i64(x: i64, lo: i64, hi: i64) -> i64 {
    x.max(lo).min(hi)
}

/// The range of a `bits`-bit integer, signed or unsigned (bits 1..=32).
#[inline(always)]
pub fn int_range(bits: u32, signed: bool) -> (i64, i64) {
    let bits = bits.clamp(1, 32);
    if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_extension() {
        assert_eq!(field(0x1234_5678, 8, 8), 0x56);
        assert_eq!(field(0x1234_5678, 64, 8), 0);
        assert_eq!(extend_field(0x0000_8000, 0, 16, true), -32768);
        assert_eq!(extend_field(0x0000_8000, 0, 16, false), 32768);
        assert_eq!(sext(0xffff_ffff, 32), -1);
        assert_eq!(sext(0x2_0000_0000, 34), -(1i64 << 33));
        assert_eq!(int_range(8, true), (-128, 127));
        assert_eq!(int_range(32, false), (0, 0xffff_ffff));
        assert_eq!(clamp_i64(300, 0, 255), 255);
    }
}
