//! Turning a [`Sweep`] into pixels: a colour scale over the values of `d`, and overlays that
//! mark the cells where something notable happened. Pure functions, tested natively; the sweep
//! panel hands their output to the canvas.

use ptxlab_core::sweep::Sweep;
use ptxlab_core::trace::Flag;

/// Stops of the colour scale, low to high (a dark blue through teal and green to yellow, which
/// stays readable on light and dark pages and for the common colour-vision deficiencies).
pub const STOPS: [[u8; 3]; 5] = [
    [68, 1, 84],
    [59, 82, 139],
    [33, 145, 140],
    [94, 201, 98],
    [253, 231, 37],
];

/// The scale's colour at `t` in `0..=1`.
pub fn colour(t: f64) -> [u8; 3] {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: u8, q: u8| (p as f64 + (q as f64 - p as f64) * f).round() as u8;
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

/// The CSS gradient of the scale, for the legend.
pub fn gradient_css() -> String {
    let stops: Vec<String> = STOPS
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "rgb({},{},{}) {}%",
                c[0],
                c[1],
                c[2],
                i * 100 / (STOPS.len() - 1)
            )
        })
        .collect();
    format!("linear-gradient(to right, {})", stops.join(", "))
}

/// `d` as a number: its low `bits` bits, read signed when `signed` (the exact reading the
/// colour scale's `f64` one is tested against).
#[cfg(test)]
pub fn value_of(d: u64, bits: u32, signed: bool) -> i128 {
    let bits = bits.clamp(1, 64);
    let m = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let u = d & m;
    if signed && bits < 128 && (u >> (bits - 1)) & 1 == 1 {
        u as i128 - (1i128 << bits)
    } else {
        u as i128
    }
}

/// `d` read as a number, in `f64` (for the colour scale: fast, exact enough for a colour).
#[inline(always)]
fn value_f64(d: u64, bits: u32, signed: bool) -> f64 {
    let bits = bits.clamp(1, 64);
    let sh = 64 - bits;
    if signed {
        (((d << sh) as i64) >> sh) as f64
    } else {
        ((d << sh) >> sh) as f64
    }
}

/// The smallest and largest value of `d` over the sweep (in machine integers: a million cells
/// take a millisecond or two).
pub fn value_range(s: &Sweep, signed: bool) -> (i128, i128) {
    let bits = s.dst_bits.clamp(1, 64);
    let sh = 64 - bits;
    if s.d.is_empty() {
        return (0, 0);
    }
    if signed {
        let (lo, hi) = s.d.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &d| {
            let v = ((d << sh) as i64) >> sh;
            (lo.min(v), hi.max(v))
        });
        (i128::from(lo), i128::from(hi))
    } else {
        let (lo, hi) = s.d.iter().fold((u64::MAX, 0u64), |(lo, hi), &d| {
            let v = (d << sh) >> sh;
            (lo.min(v), hi.max(v))
        });
        (i128::from(lo), i128::from(hi))
    }
}

/// A kind of cell the map can mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    Clamped,
    MaskedOff,
    Wrapped,
    TextDiffers,
}

impl Overlay {
    pub const ALL: [Overlay; 4] = [
        Overlay::Clamped,
        Overlay::MaskedOff,
        Overlay::Wrapped,
        Overlay::TextDiffers,
    ];
    /// The sweep flags this overlay marks.
    pub fn mask(self) -> u16 {
        let bits = match self {
            Overlay::Clamped => Flag::ClampedHigh.bit() | Flag::ClampedLow.bit(),
            Overlay::MaskedOff => Flag::MaskedOff.bit(),
            Overlay::Wrapped => Flag::Wrapped.bit(),
            Overlay::TextDiffers => Flag::HardwareDiffersFromText.bit(),
        };
        bits as u16
    }
    pub fn label(self) -> &'static str {
        match self {
            Overlay::Clamped => "saturation clamped",
            Overlay::MaskedOff => "lane masked off",
            Overlay::Wrapped => "result wrapped",
            Overlay::TextDiffers => "ISA text differs",
        }
    }
    /// Short name for element ids and test hooks.
    pub fn key(self) -> &'static str {
        match self {
            Overlay::Clamped => "clamped",
            Overlay::MaskedOff => "masked",
            Overlay::Wrapped => "wrapped",
            Overlay::TextDiffers => "text",
        }
    }
    /// The colour of the marking dots: apart from every colour of the scale.
    pub fn colour(self) -> [u8; 3] {
        match self {
            Overlay::Clamped => [230, 30, 40],
            Overlay::MaskedOff => [0, 0, 0],
            Overlay::Wrapped => [255, 255, 255],
            Overlay::TextDiffers => [255, 0, 220],
        }
    }
    pub fn css(self) -> String {
        let [r, g, b] = self.colour();
        format!("rgb({r},{g},{b})")
    }
    /// How many cells of the sweep this overlay would mark.
    #[cfg(test)]
    pub fn count(self, s: &Sweep) -> usize {
        let m = self.mask();
        s.flags.iter().filter(|&&f| f & m != 0).count()
    }
}

/// RGBA pixels of the map, one per cell, row by row. A cell with a shown overlay keeps its
/// colour on half its pixels (a checkerboard across neighbouring cells), the overlay's colour on
/// the other half, so both stay visible; the first shown overlay in [`Overlay::ALL`] order wins.
/// The scale is looked up in 256 steps.
pub fn pixels(s: &Sweep, signed: bool, shown: &[Overlay]) -> Vec<u8> {
    let (lo, hi) = value_range(s, signed);
    let span = (hi - lo) as f64;
    let lut: Vec<[u8; 4]> = (0..256)
        .map(|k| {
            let [r, g, b] = colour(if span > 0.0 { k as f64 / 255.0 } else { 0.5 });
            [r, g, b, 255]
        })
        .collect();
    let scale = if span > 0.0 { 255.0 / span } else { 0.0 };
    let lo = lo as f64;
    // The overlay drawn in a cell with these flags: the first shown that marks one of them.
    let marks: Vec<(u16, [u8; 4])> = shown
        .iter()
        .map(|o| {
            let [r, g, b] = o.colour();
            (o.mask(), [r, g, b, 255])
        })
        .collect();
    let any_mask = marks.iter().fold(0u16, |m, o| m | o.0);
    let w = (s.width as usize).max(1);
    let mut out = vec![0u8; s.d.len() * 4];
    for (row, ((px, ds), fs)) in out
        .chunks_mut(w * 4)
        .zip(s.d.chunks(w))
        .zip(s.flags.chunks(w))
        .enumerate()
    {
        for (col, ((p, &d), &f)) in px.chunks_exact_mut(4).zip(ds).zip(fs).enumerate() {
            let k = ((value_f64(d, s.dst_bits, signed) - lo) * scale + 0.5) as usize;
            let mut rgba = lut[k.min(255)];
            if f & any_mask != 0 && (col + row) % 2 == 0 {
                if let Some(m) = marks.iter().find(|m| f & m.0 != 0) {
                    rgba = m.1;
                }
            }
            p.copy_from_slice(&rgba);
        }
    }
    out
}

/// The cell under a point `(x, y)` of an element `cw` by `ch` pixels showing a `w` by `h` map.
pub fn cell_at(x: f64, y: f64, cw: f64, ch: f64, w: u32, h: u32) -> Option<(u32, u32)> {
    if cw <= 0.0 || ch <= 0.0 || x < 0.0 || y < 0.0 || x >= cw || y >= ch {
        return None;
    }
    let col = ((x / cw) * w as f64).floor() as u32;
    let row = ((y / ch) * h as f64).floor() as u32;
    Some((col.min(w.saturating_sub(1)), row.min(h.saturating_sub(1))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::insn::check;
    use ptxlab_core::sweep::{default_axes, sweep};
    use ptxlab_core::Inputs;

    #[test]
    fn scale_ends() {
        assert_eq!(colour(0.0), STOPS[0]);
        assert_eq!(colour(1.0), STOPS[4]);
        assert_eq!(colour(f64::NAN), STOPS[0]);
        assert_eq!(colour(0.5), STOPS[2]);
        assert!(gradient_css().starts_with("linear-gradient(to right, rgb(68,1,84) 0%"));
    }

    #[test]
    fn values_signed_and_unsigned() {
        assert_eq!(value_of(0xff, 8, true), -1);
        assert_eq!(value_of(0xff, 8, false), 255);
        assert_eq!(value_of(u64::MAX, 64, true), -1);
        assert_eq!(value_of(u64::MAX, 64, false), u64::MAX as i128);
        assert_eq!(value_of(0x1_0000_0005, 32, false), 5);
        for (d, bits, signed) in [
            (0xffu64, 8, true),
            (0x8000_0000, 32, true),
            (u64::MAX, 64, false),
            (5, 32, false),
        ] {
            assert_eq!(value_f64(d, bits, signed), value_of(d, bits, signed) as f64);
        }
    }

    #[test]
    fn pixels_of_a_saturating_sweep() {
        let insn = check("vadd.u32.u32.u32.sat d.b0, a.b0, b.b0, c;").unwrap();
        let (x, y) = default_axes(&insn);
        let s = sweep(&insn, &Inputs::default(), &x, &y);
        assert_eq!(value_range(&s, false), (0, 255));
        let plain = pixels(&s, false, &[]);
        assert_eq!(plain.len(), 256 * 256 * 4);
        // Cell (0, 0) is 0: the low end of the scale.
        assert_eq!(&plain[..4], &[68, 1, 84, 255]);
        let marked = pixels(&s, false, &[Overlay::Clamped]);
        assert!(Overlay::Clamped.count(&s) > 0);
        // (255, 1) clamps and (255 + 1) is even: drawn in the overlay's colour.
        let i = (256 + 255) * 4;
        assert!(s.has(255, 1, Flag::ClampedHigh));
        assert_eq!(&marked[i..i + 3], &Overlay::Clamped.colour());
        assert_ne!(plain[i..i + 3], marked[i..i + 3]);
    }

    #[test]
    fn cells_under_the_pointer() {
        assert_eq!(cell_at(0.0, 0.0, 512.0, 512.0, 256, 256), Some((0, 0)));
        assert_eq!(cell_at(511.9, 2.0, 512.0, 512.0, 256, 256), Some((255, 1)));
        assert_eq!(cell_at(512.0, 2.0, 512.0, 512.0, 256, 256), None);
        assert_eq!(cell_at(-1.0, 2.0, 512.0, 512.0, 256, 256), None);
        assert_eq!(cell_at(5.0, 5.0, 0.0, 512.0, 256, 256), None);
    }
}
