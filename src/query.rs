//! Percent-encoding for the address query that holds the playground's state.

/// Characters kept as they are: readable in an address and safe in a query value.
fn keep(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-_.~,;:@!/".contains(&b)
}

/// Encode a query value: spaces become `+`, other unsafe bytes `%XX`.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if keep(b) {
            out.push(b as char);
        } else if b == b' ' {
            out.push('+');
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decode a query value; malformed escapes are kept literally, invalid UTF-8 is replaced.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                if let Some(v) = hex {
                    out.push(v);
                    i += 2;
                } else {
                    out.push(b'%');
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for s in ["vadd.s32 d, a.b0, b;", "%r1 + 100%", "é🦀&=?#", ""] {
            assert_eq!(decode(&encode(s)), s);
        }
        assert_eq!(encode("a b%"), "a+b%25");
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%41+%42"), "A B");
    }
}
