//! Operand values as people write them: one reader for the CLI, batch input and the
//! playground's value fields, and the four views values are shown in.
//!
//! [`parse_value`] reads a value for a `bits`-bit operand, either in one [`View`] (what a field
//! of that view accepts) or in any notation (`0x..` hex, `0b..` binary, decimal, negative
//! decimal or hex as two's complement). Every failure is a short message, never a panic.
//!
//! ```
//! use ptxlab_core::value::{format, parse_value, View};
//!
//! assert_eq!(parse_value("0xff", 8, None), Ok(0xff));
//! assert_eq!(parse_value("-1", 16, None), Ok(0xffff));
//! assert_eq!(parse_value("-128", 8, Some(View::Signed)), Ok(0x80));
//! assert!(parse_value("zz", 32, None).is_err());
//! assert_eq!(format(0x80, 8, View::Signed), "-128");
//! assert_eq!(format(5, 8, View::Binary), "00000101");
//! ```

/// Read `text` as a value of a `bits`-bit operand: in the given view, or (with `None`) in any
/// of the notations, detected from the text.
pub fn parse_value(text: &str, bits: u32, view: Option<View>) -> Result<u64, String> {
    match view {
        Some(v) => parse_view(text, bits, v),
        None => parse_auto(text, bits),
    }
}

/// The four ways an operand can be typed or shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum View {
    /// Hexadecimal, `0x` and zero-padded to the width.
    Hex,
    /// Unsigned decimal.
    Unsigned,
    /// Signed decimal (two's complement in the width).
    Signed,
    /// Binary, zero-padded to the width.
    Binary,
}

impl View {
    /// Every view, in the order the page shows them.
    pub const ALL: [View; 4] = [View::Hex, View::Unsigned, View::Signed, View::Binary];

    /// The word used in labels: `a (hex)`, `a (unsigned)`...
    pub fn word(self) -> &'static str {
        match self {
            View::Hex => "hex",
            View::Unsigned => "unsigned",
            View::Signed => "signed",
            View::Binary => "binary",
        }
    }
}

/// All ones in the low `bits` bits.
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The value read as a two's complement number of `bits` bits.
pub fn as_signed(v: u64, bits: u32) -> i64 {
    crate::bits::sext(v, bits.clamp(1, 64))
}

/// Text of `v` (truncated to `bits`) in the given view.
pub fn format(v: u64, bits: u32, view: View) -> String {
    let v = v & mask(bits);
    match view {
        View::Hex => {
            let digits = bits.div_ceil(4) as usize;
            format!("0x{v:0digits$x}")
        }
        View::Unsigned => v.to_string(),
        View::Signed => as_signed(v, bits).to_string(),
        View::Binary => {
            let w = bits as usize;
            format!("{v:0w$b}")
        }
    }
}

/// Remove separators people paste: spaces, underscores, apostrophes.
fn squeeze(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '\'')
        .collect()
}

fn too_wide(bits: u32) -> String {
    format!("does not fit in {bits} bits")
}

/// Read text typed into one view. Every failure is a short message, never a panic.
fn parse_view(text: &str, bits: u32, view: View) -> Result<u64, String> {
    let s = squeeze(text);
    if s.is_empty() {
        return Err("type a value".into());
    }
    let bits = bits.clamp(1, 64);
    match view {
        View::Hex => {
            let h = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .unwrap_or(&s);
            if h.is_empty() {
                return Err("type hex digits after 0x".into());
            }
            if let Some(bad) = h.chars().find(|c| !c.is_ascii_hexdigit()) {
                return Err(format!("'{bad}' is not a hex digit"));
            }
            let digits = h.trim_start_matches('0');
            if digits.len() > 16 {
                return Err(too_wide(bits));
            }
            let v = u64::from_str_radix(if digits.is_empty() { "0" } else { digits }, 16)
                .map_err(|_| too_wide(bits))?;
            if v & !mask(bits) != 0 {
                return Err(too_wide(bits));
            }
            Ok(v)
        }
        View::Binary => {
            let b = s
                .strip_prefix("0b")
                .or_else(|| s.strip_prefix("0B"))
                .unwrap_or(&s);
            if b.is_empty() {
                return Err("type binary digits after 0b".into());
            }
            if let Some(bad) = b.chars().find(|c| *c != '0' && *c != '1') {
                return Err(format!("'{bad}' is not a binary digit"));
            }
            let digits = b.trim_start_matches('0');
            if digits.len() > bits as usize {
                return Err(too_wide(bits));
            }
            Ok(u64::from_str_radix(if digits.is_empty() { "0" } else { digits }, 2).unwrap_or(0))
        }
        View::Unsigned => {
            if s.starts_with('-') {
                return Err("unsigned values cannot be negative".into());
            }
            if let Some(bad) = s.chars().find(|c| !c.is_ascii_digit() && *c != '+') {
                return Err(format!("'{bad}' is not a decimal digit"));
            }
            let v: u128 = s.parse().map_err(|_| too_wide(bits))?;
            if v > mask(bits) as u128 {
                return Err(format!(
                    "largest {bits}-bit unsigned value is {}",
                    mask(bits)
                ));
            }
            Ok(v as u64)
        }
        View::Signed => {
            if let Some(bad) = s
                .chars()
                .enumerate()
                .find(|(i, c)| !(c.is_ascii_digit() || (*i == 0 && (*c == '-' || *c == '+'))))
            {
                return Err(format!("'{}' is not a decimal digit", bad.1));
            }
            let v: i128 = s.parse().map_err(|_| too_wide(bits))?;
            let min = -(1i128 << (bits - 1));
            let max = (1i128 << (bits - 1)) - 1;
            if v < min || v > max {
                return Err(format!("{bits}-bit signed values run from {min} to {max}"));
            }
            Ok((v as u64) & mask(bits))
        }
    }
}

/// A value as written, checked against a `bits`-bit operand.
fn parse_auto(s: &str, bits: u32) -> Result<u64, String> {
    let t: String = s.trim().chars().filter(|&c| c != '_').collect();
    if t.is_empty() {
        return Err("empty value".into());
    }
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(&t)),
    };
    let lower = body.to_ascii_lowercase();
    let parsed = if let Some(h) = lower.strip_prefix("0x") {
        u128::from_str_radix(h, 16)
    } else if let Some(b) = lower.strip_prefix("0b") {
        u128::from_str_radix(b, 2)
    } else {
        lower.parse::<u128>()
    }
    .map_err(|_| {
        format!(
            "'{}' is not a number: write hex (0x1f), decimal (31, -5) or binary (0b11111)",
            s.trim()
        )
    })?;
    let bits = bits.clamp(1, 64);
    let span = 1u128 << bits;
    if neg {
        if parsed > span / 2 {
            return Err(format!(
                "'{}' is below the smallest {bits}-bit value (-{})",
                s.trim(),
                span / 2
            ));
        }
        Ok((span - parsed) as u64 & mask(bits))
    } else if parsed >= span {
        Err(format!("'{}' does not fit in {bits} bits", s.trim()))
    } else {
        Ok(parsed as u64)
    }
}

/// A floating-point literal as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum FloatLit {
    /// `0f` and 8 hex digits: the bits of an f32.
    F32(u32),
    /// `0d` and 16 hex digits: the bits of an f64.
    F64(u64),
    /// A decimal number such as `1.5` or `-2e3`, as the bits of an f64.
    Dec(u64),
}

impl FloatLit {
    /// The bits an operand of `bits` bits receives; `float`: the operand is a float (the value
    /// is converted), else the literal's bits are taken as they are.
    ///
    /// One exception, measured: an `0f` literal where an `.f64` is read is not converted but
    /// zero-extended (`set.lt.u32.f64 d, a, 0f3f800000;` compares `a` with the f64 whose bits
    /// are `0x000000003f800000`, a subnormal, not with 1.0: an H200 says so, and ptxas 13.5 puts
    /// that 64-bit pattern in the register for `setp`, `set` and `mov`). An `0d` literal where
    /// an `.f32` is read is converted (`0d3ff8000000000001` gives 1.5).
    pub fn value(self, bits: u32, float: bool) -> u64 {
        if let (FloatLit::F32(b), true, 64) = (self, float, bits) {
            return u64::from(b);
        }
        let as_f64 = match self {
            FloatLit::F32(b) => f32::from_bits(b) as f64,
            FloatLit::F64(b) | FloatLit::Dec(b) => f64::from_bits(b),
        };
        if float {
            if bits == 32 {
                (as_f64 as f32).to_bits() as u64
            } else {
                as_f64.to_bits()
            }
        } else {
            let raw = match self {
                FloatLit::F32(b) => b as u64,
                FloatLit::F64(b) | FloatLit::Dec(b) => b,
            };
            crate::bits::field(raw, 0, bits)
        }
    }
    /// The literal as written.
    pub fn text(self) -> String {
        match self {
            FloatLit::F32(b) => format!("0f{b:08x}"),
            FloatLit::F64(b) => format!("0d{b:016x}"),
            FloatLit::Dec(b) => format!("{:?}", f64::from_bits(b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, bits: u32, view: View) -> Result<u64, String> {
        parse_value(text, bits, Some(view))
    }

    #[test]
    fn any_notation() {
        assert_eq!(parse_value("0x1234", 64, None), Ok(0x1234));
        assert_eq!(parse_value("-5", 64, None), Ok((-5i64) as u64));
        assert_eq!(parse_value("-1", 16, None), Ok(0xffff));
        assert_eq!(parse_value("0b101", 8, None), Ok(5));
        assert_eq!(parse_value("1_000", 32, None), Ok(1000));
        assert!(parse_value("zz", 32, None)
            .unwrap_err()
            .contains("is not a number"));
        assert!(parse_value("0x", 32, None).is_err());
        assert!(parse_value("0x10000", 16, None)
            .unwrap_err()
            .contains("does not fit in 16 bits"));
        assert!(parse_value("-32769", 16, None)
            .unwrap_err()
            .contains("below the smallest 16-bit"));
    }

    #[test]
    fn hex_with_and_without_prefix() {
        assert_eq!(parse("0x2808cf1b", 32, View::Hex), Ok(0x2808cf1b));
        assert_eq!(parse("2808CF1B", 32, View::Hex), Ok(0x2808cf1b));
        assert_eq!(parse(" 0x2808_cf1b ", 32, View::Hex), Ok(0x2808cf1b));
        assert_eq!(parse("0x0000ffff", 16, View::Hex), Ok(0xffff));
        assert!(parse("0x1ffff", 16, View::Hex).is_err());
        assert!(parse("0x", 32, View::Hex).is_err());
        assert!(parse("xyz", 32, View::Hex).is_err());
        assert!(parse("", 32, View::Hex).is_err());
        assert_eq!(parse("0xffffffffffffffff", 64, View::Hex), Ok(u64::MAX));
        assert!(parse("0x1ffffffffffffffff", 64, View::Hex).is_err());
        assert!(parse("0x00000000000000000001", 64, View::Hex).is_ok());
    }

    #[test]
    fn decimal_views_check_ranges() {
        assert_eq!(parse("-1", 32, View::Signed), Ok(0xffff_ffff));
        assert_eq!(parse("-32768", 16, View::Signed), Ok(0x8000));
        assert!(parse("-32769", 16, View::Signed).is_err());
        assert!(parse("32768", 16, View::Signed).is_err());
        assert_eq!(parse("65535", 16, View::Unsigned), Ok(0xffff));
        assert!(parse("65536", 16, View::Unsigned).is_err());
        assert!(parse("-3", 16, View::Unsigned).is_err());
        assert!(parse("1-2", 16, View::Signed).is_err());
        assert!(parse(
            "99999999999999999999999999999999999999999",
            64,
            View::Signed
        )
        .is_err());
    }

    #[test]
    fn binary_view() {
        assert_eq!(parse("0b1010", 8, View::Binary), Ok(10));
        assert_eq!(parse("1111 0000", 8, View::Binary), Ok(0xf0));
        assert!(parse("102", 8, View::Binary).is_err());
        assert!(parse("111111111", 8, View::Binary).is_err());
    }
}
