//! Operand values written as text, as the `ptxlab` tool, the JavaScript module and the
//! conformance files write them.
//!
//! ```
//! use ptxlab_core::number::parse_value;
//!
//! assert_eq!(parse_value("0x1234"), Ok(0x1234));
//! assert_eq!(parse_value("-5"), Ok((-5i64) as u64));
//! assert_eq!(parse_value("0b101"), Ok(5));
//! assert!(parse_value("zz").unwrap_err().contains("is not a value"));
//! ```

/// Parse a value: `0x..` hex, `0b..` binary, decimal, or a negative decimal or hex number (its
/// 64-bit two's complement). Underscores between digits are ignored.
///
/// # Errors
///
/// A message naming the text and the forms that are accepted, or saying that a negative value
/// is below the smallest 64-bit value.
pub fn parse_value(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b.to_string()),
        None => (false, t.clone()),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        u64::from_str_radix(b, 2)
    } else {
        body.parse::<u64>()
    }
    .map_err(|_| {
        format!("'{s}' is not a value: write hex (0x1234), decimal (42, -5) or binary (0b101)")
    })?;
    if neg {
        if v > 1u64 << 63 {
            return Err(format!("'{s}' is below the smallest 64-bit value"));
        }
        Ok((v as i64).wrapping_neg() as u64)
    } else {
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_limits() {
        assert_eq!(parse_value("0x1234").unwrap(), 0x1234);
        assert_eq!(parse_value("0XFF").unwrap(), 0xff);
        assert_eq!(parse_value("-5").unwrap(), (-5i64) as u64);
        assert_eq!(parse_value("-0x8000000000000000").unwrap(), 1 << 63);
        assert_eq!(parse_value("1_000").unwrap(), 1000);
        assert_eq!(parse_value("0b101").unwrap(), 5);
        assert_eq!(parse_value("18446744073709551615").unwrap(), u64::MAX);
        assert!(parse_value("18446744073709551616").is_err());
        assert!(parse_value("-0x8000000000000001")
            .unwrap_err()
            .contains("below the smallest"));
        assert!(parse_value("zz").is_err());
        assert!(parse_value("0x").is_err());
        assert!(parse_value("").is_err());
    }
}
