//! Operand values in the playground: the views and the reader come from the core
//! ([`ptxlab_core::value`]); here are the named edge values and the random source.

pub use ptxlab_core::value::{format, mask, View};

/// Read text typed into one view (the core's one reader of values).
pub fn parse(text: &str, bits: u32, view: View) -> Result<u64, String> {
    ptxlab_core::value::parse_value(text, bits, Some(view))
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
