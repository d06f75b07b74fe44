//! Reading and writing operand values in the four views the playground offers (hex, unsigned,
//! signed, binary), for registers of 16, 32 or 64 bits. Pure functions: no browser needed.

/// The four ways an operand can be typed or shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    Hex,
    Unsigned,
    Signed,
    Binary,
}

impl View {
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
    let bits = bits.clamp(1, 64);
    let sh = 64 - bits;
    ((v << sh) as i64) >> sh
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
pub fn parse(text: &str, bits: u32, view: View) -> Result<u64, String> {
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

/// Named values worth trying: the edges where arithmetic changes behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Zero,
    One,
    AllOnes,
    SignedMin,
    SignedMax,
    Bytes80,
    Bytes7f,
    Halves8000,
}

impl Edge {
    pub const ALL: [Edge; 8] = [
        Edge::Zero,
        Edge::One,
        Edge::AllOnes,
        Edge::SignedMin,
        Edge::SignedMax,
        Edge::Bytes80,
        Edge::Bytes7f,
        Edge::Halves8000,
    ];

    /// Short button text.
    pub fn label(self) -> &'static str {
        match self {
            Edge::Zero => "0",
            Edge::One => "1",
            Edge::AllOnes => "-1",
            Edge::SignedMin => "MIN",
            Edge::SignedMax => "MAX",
            Edge::Bytes80 => "80…80",
            Edge::Bytes7f => "7f…7f",
            Edge::Halves8000 => "8000…",
        }
    }

    /// What the button sets, for its tooltip.
    pub fn describe(self) -> &'static str {
        match self {
            Edge::Zero => "zero",
            Edge::One => "one",
            Edge::AllOnes => "all ones: -1 signed, the unsigned maximum",
            Edge::SignedMin => "most negative signed value",
            Edge::SignedMax => "largest signed value",
            Edge::Bytes80 => "0x80 in every byte",
            Edge::Bytes7f => "0x7f in every byte",
            Edge::Halves8000 => "0x8000 in every half-word",
        }
    }

    pub fn value(self, bits: u32) -> u64 {
        let m = mask(bits);
        let top = 1u64 << (bits.clamp(1, 64) - 1);
        match self {
            Edge::Zero => 0,
            Edge::One => 1,
            Edge::AllOnes => m,
            Edge::SignedMin => top,
            Edge::SignedMax => m & !top,
            Edge::Bytes80 => 0x8080_8080_8080_8080 & m,
            Edge::Bytes7f => 0x7f7f_7f7f_7f7f_7f7f & m,
            Edge::Halves8000 => 0x8000_8000_8000_8000 & m,
        }
    }
}

/// One step of a small deterministic generator (xorshift64*), for the random-value buttons.
pub fn next_random(state: u64) -> u64 {
    let mut x = if state == 0 {
        0x9e37_79b9_7f4a_7c15
    } else {
        state
    };
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    x.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn formats_round_trip() {
        for bits in [16, 32, 64] {
            for e in Edge::ALL {
                let v = e.value(bits);
                for view in View::ALL {
                    let t = format(v, bits, view);
                    assert_eq!(parse(&t, bits, view), Ok(v), "{t} {bits} {view:?}");
                }
            }
        }
        assert_eq!(format(0x1b, 32, View::Hex), "0x0000001b");
        assert_eq!(format(0xffff, 16, View::Signed), "-1");
    }

    #[test]
    fn edges() {
        assert_eq!(Edge::SignedMin.value(32), 0x8000_0000);
        assert_eq!(Edge::SignedMax.value(16), 0x7fff);
        assert_eq!(Edge::Bytes80.value(32), 0x8080_8080);
        assert_eq!(Edge::AllOnes.value(64), u64::MAX);
        assert_ne!(next_random(1), next_random(2));
        assert_ne!(next_random(0), 0);
    }
}
