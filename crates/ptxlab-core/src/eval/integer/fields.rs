//! Bit fields: `bfe`, `bfi`, `szext` and `bmsk`.

use super::{mask64, result, rv};
use crate::bits::sext;
use crate::differences::DiffId;
use crate::eval::semantics::Semantics;
use crate::trace::{Detail, Flag, Flow, Stage, StageKind, Tracer};

/// Position and length of `bfe`/`bfi`. For 32-bit types only the low byte of each operand
/// counts (the ISA's rule); for 64-bit types the H100 reads the whole 32-bit unsigned value, so
/// a position or length of 256 or more is not reduced modulo 256.
fn pos_len<S: Semantics, T: Tracer>(
    t: &mut T,
    n: u32,
    pv: u64,
    lv: u64,
    pname: &'static str,
    lname: &'static str,
) -> (u64, u64) {
    // The hardware reads all 32 bits of both for 64-bit forms; the text reduces both to their
    // low byte for every width.
    let full = S::pick(|| n == 64, || false);
    let m = if full { 0xffff_ffff } else { 0xff };
    let pos = pv & m;
    let len = lv & m;
    for (what, name, raw, x) in [("position", pname, pv, pos), ("length", lname, lv, len)] {
        t.stage([(raw != x, Flag::AmountWrapped)], || {
            let (label, bits, op) = if full {
                (format!("{what}: all 32 bits"), 32, name.to_string())
            } else if n == 64 {
                (
                    format!("{what}: low byte (the text's rule for every width)"),
                    8,
                    format!("{name} & 0xff"),
                )
            } else {
                (format!("{what}: low byte"), 8, format!("{name} & 0xff"))
            };
            Stage::new(
                StageKind::Field,
                label,
                rv(
                    if what == "position" { "pos" } else { "len" },
                    bits,
                    false,
                    x,
                ),
            )
            .flow(Flow::Bitwise)
            .op(op)
            .input(rv(name, 32, false, raw))
            .differs_if(n == 64 && raw > 0xff, DiffId::BitField64)
        });
    }
    (pos, len)
}

/// The bits of a field at `pos` of `len` bits that lie inside an `n`-bit value: from bit `lo`,
/// `width` of them (`bfe` and `bfi`).
#[inline(always)]
fn window(n: u32, pos: u64, len: u64) -> (u32, u32) {
    let lo = pos.min(u64::from(n)) as u32;
    (lo, len.min(u64::from(n - lo)) as u32)
}

/// `bfi`'s field of `width` bits at `lo`: its mask, and `a`'s low bits moved into it.
#[inline(always)]
fn bfi_field(a: u64, lo: u32, width: u32) -> (u64, u64) {
    let fmask = if width == 0 { 0 } else { mask64(width) << lo };
    (fmask, if width == 0 { 0 } else { (a << lo) & fmask })
}

/// What `bfe` takes from `a` (`n` bits, already masked) at `pos` for `len` bits, and the
/// result.
#[derive(Clone, Copy, Debug)]
struct BfeField {
    /// The bits of the field that lie inside `a`: from bit `lo`, `width` of them.
    lo: u32,
    pub width: u32,
    /// The field runs past `a`'s top bit.
    pub len_cut: bool,
    /// The bits the result is extended from (the field, or `a`'s top bit alone).
    pub src_lo: u32,
    pub src_width: u32,
    /// The result, `n` bits.
    pub d: u64,
}

#[inline(always)]
fn bfe_field(n: u32, s: bool, a: u64, pos: u64, len: u64) -> BfeField {
    let (lo, width) = window(n, pos, len);
    let len_cut = u64::from(width) < len;
    let field = if width == 0 {
        0
    } else {
        (a >> lo) & mask64(width)
    };
    // The fill bit: the field's top bit, or a's top bit when the field runs past it.
    let (src_lo, src_width) = if s && len > 0 && width == 0 {
        // Starts beyond a's top bit: every bit is a copy of a's top bit.
        (n - 1, 1)
    } else if len == 0 {
        (lo.min(n - 1), 0)
    } else {
        (lo, width)
    };
    let d = if s && src_width > 0 {
        let f = (a >> src_lo) & mask64(src_width);
        (sext(f, src_width) as u64) & mask64(n)
    } else {
        field
    };
    BfeField {
        lo,
        width,
        len_cut,
        src_lo,
        src_width,
        d,
    }
}

pub(super) fn eval_bfe<S: Semantics, T: Tracer>(n: u32, s: bool, v: &[u64; 4], t: &mut T) -> u64 {
    let a = v[0] & mask64(n);
    let (pos, len) = pos_len::<S, _>(t, n, v[1], v[2], "b", "c");
    let BfeField {
        lo,
        width,
        len_cut,
        src_lo,
        src_width,
        d,
    } = bfe_field(n, s, a, pos, len);
    t.stage([(len_cut, Flag::AmountClamped)], || {
        let label = if len == 0 {
            "length 0: result is 0".to_string()
        } else if src_width == 1 && width == 0 {
            format!("starts past bit {}: copies of a's top bit", n - 1)
        } else if len_cut {
            format!(
                "bits {}..{lo} of a (field cut at bit {}), {}",
                lo + width - 1,
                n - 1,
                if s { "sign-extended" } else { "zero-extended" }
            )
        } else {
            format!(
                "bits {}..{lo} of a, {}",
                lo + width - 1,
                if s { "sign-extended" } else { "zero-extended" }
            )
        };
        Stage::new(StageKind::Field, label, rv("tmp", n, s, d))
            .also(["pos", "len"])
            .op("a<pos+len-1..pos>")
            .input(rv("a", n, false, a))
            .extended_if(len > 0, s)
            .flow(Flow::field(src_lo, src_width, s))
            .detail(Detail::Field {
                source: a,
                source_bits: n,
                lo: src_lo,
                width: src_width,
                signed: s,
                out_bits: n,
            })
    });
    result(t, n, s, d);
    d
}

pub(super) fn eval_bfi<S: Semantics, T: Tracer>(n: u32, v: &[u64; 4], t: &mut T) -> u64 {
    let m = mask64(n);
    let a = v[0] & m;
    let b = v[1] & m;
    let (pos, len) = pos_len::<S, _>(t, n, v[2], v[3], "c", "e");
    let (lo, width) = window(n, pos, len);
    let len_cut = u64::from(width) < len;
    let (fmask, placed) = bfi_field(a, lo, width);
    t.stage([(len_cut, Flag::AmountClamped)], || {
        Stage::new(
            StageKind::Field,
            if width == 0 {
                "empty field: nothing of a is inserted".to_string()
            } else {
                format!(
                    "low {width} bits of a moved to bits {}..{lo}",
                    lo + width - 1
                )
            },
            rv("field", n, false, placed),
        )
        .also(["pos", "len"])
        .op("(a << pos) & mask")
        .input(rv("a", n, false, a))
        .flow(Flow::Take {
            shift: -(lo as i32),
            top: Some(width),
            sign: false,
        })
        .detail(Detail::Field {
            source: a,
            source_bits: n,
            lo: 0,
            width,
            signed: false,
            out_bits: n,
        })
    });
    // The mask of the bits the field takes, shown before the merge reads it.
    t.stage([], || {
        Stage::new(
            StageKind::Field,
            if width == 0 {
                "mask: empty".to_string()
            } else {
                format!("mask: ones in bits {}..{lo}", lo + width - 1)
            },
            rv("mask", n, false, fmask),
        )
        .op("ones(len) << pos")
        .also(["pos", "len"])
        .detail(Detail::Field {
            source: fmask,
            source_bits: n,
            lo: lo.min(n - 1),
            width,
            signed: false,
            out_bits: n,
        })
    });
    let d = placed | (b & !fmask);
    t.stage([], || {
        Stage::new(
            StageKind::Merge,
            "field written over b",
            rv("tmp", n, false, d),
        )
        .flow(Flow::Bitwise)
        .op("field | (b & ~mask)")
        .input(rv("field", n, false, placed))
        .input(rv("b", n, false, b))
        .input(rv("mask", n, false, fmask))
    });
    result(t, n, false, d);
    d
}

/// `szext` (signed when `s`), `.clamp` when `clamp`, else `.wrap`.
pub(super) fn eval_szext<T: Tracer>(s: bool, clamp: bool, v: &[u64; 4], t: &mut T) -> u64 {
    let a = v[0] & 0xffff_ffff;
    let b = v[1] & 0xffff_ffff;
    let big = b >= 32;
    let len = if big {
        if clamp {
            32
        } else {
            (b & 31) as u32
        }
    } else {
        b as u32
    };
    t.stage(
        [
            (big && clamp, Flag::AmountClamped),
            (big && !clamp, Flag::AmountWrapped),
        ],
        || {
            Stage::new(
                StageKind::Field,
                if !big {
                    "width of the value".to_string()
                } else if clamp {
                    "width limited to 32 (.clamp)".to_string()
                } else {
                    "width taken modulo 32 (.wrap)".to_string()
                },
                rv("N", 32, false, len as u64),
            )
            .flow(if clamp { Flow::All } else { Flow::Bitwise })
            .op(if clamp { "min(b, 32)" } else { "b & 31" })
            .input(rv("b", 32, false, b))
        },
    );
    let d = if len == 0 {
        0
    } else if s {
        (sext(a, len) as u64) & 0xffff_ffff
    } else {
        a & mask64(len)
    };
    t.stage([], || {
        Stage::new(
            StageKind::Field,
            if len == 0 {
                "width 0: result is 0".to_string()
            } else {
                format!(
                    "bits {}..0 of a, {}",
                    len - 1,
                    if s { "sign-extended" } else { "zero-extended" }
                )
            },
            rv("tmp", 32, s, d),
        )
        .also(["N"])
        .op("a<N-1..0>")
        .input(rv("a", 32, false, a))
        .extended_if(len > 0, s)
        .flow(Flow::field(0, len, s))
        .detail(Detail::Field {
            source: a,
            source_bits: 32,
            lo: 0,
            width: len,
            signed: s,
            out_bits: 32,
        })
    });
    result(t, 32, s, d);
    d
}

/// `bmsk`, `.clamp` when `clamp`, else `.wrap`.
pub(super) fn eval_bmsk<T: Tracer>(clamp: bool, v: &[u64; 4], t: &mut T) -> u64 {
    let a = v[0] & 0xffff_ffff;
    let b = v[1] & 0xffff_ffff;
    let (pos, width) = if clamp {
        (a.min(32) as u32, b.min(32) as u32)
    } else {
        ((a & 31) as u32, (b & 31) as u32)
    };
    // The position from a, the width from b: each limited (.clamp) or reduced (.wrap) alone.
    for (name, raw, x, what) in [("a", a, pos, "position"), ("b", b, width, "width")] {
        t.stage(
            [
                (clamp && raw > 32, Flag::AmountClamped),
                (!clamp && raw > 31, Flag::AmountWrapped),
            ],
            || {
                Stage::new(
                    StageKind::Field,
                    if clamp {
                        format!("{what} limited to 32 (.clamp)")
                    } else {
                        format!("{what} taken modulo 32 (.wrap)")
                    },
                    rv(
                        if name == "a" { "pos" } else { "width" },
                        32,
                        false,
                        u64::from(x),
                    ),
                )
                .flow(if clamp { Flow::All } else { Flow::Bitwise })
                .op(if clamp {
                    format!("min({name}, 32)")
                } else {
                    format!("{name} & 31")
                })
                .input(rv(name, 32, false, raw))
            },
        );
    }
    let top = (pos + width).min(32);
    let d = if pos >= 32 {
        0
    } else {
        mask64(top) & !mask64(pos)
    };
    t.stage([(pos + width > 32, Flag::AmountClamped)], || {
        Stage::new(
            StageKind::Field,
            if d == 0 {
                "empty mask".to_string()
            } else {
                format!("ones in bits {}..{pos}", top - 1)
            },
            rv("tmp", 32, false, d),
        )
        .op("ones(width) << pos")
        .input(rv("pos", 32, false, pos as u64))
        .input(rv("width", 32, false, width as u64))
        .detail(Detail::Field {
            source: d,
            source_bits: 32,
            lo: pos.min(31),
            width: top.saturating_sub(pos),
            signed: false,
            out_bits: 32,
        })
    });
    result(t, 32, false, d);
    d
}
