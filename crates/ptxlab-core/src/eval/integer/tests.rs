use super::*;
use crate::eval::{evaluate, evaluate_traced, Inputs};
use crate::parse;
use crate::trace::StageKind;

/// Evaluate `text` with the given sources, checking that the traced path agrees.
fn ev(text: &str, src: &[u64]) -> u64 {
    let insn = parse(text).unwrap();
    let mut v = [0u64; 4];
    v[..src.len()].copy_from_slice(src);
    let inputs = Inputs::new(v[0], v[1], v[2], v[3]);
    let d = evaluate(&insn, &inputs);
    let tr = evaluate_traced(&insn, &inputs);
    assert_eq!(
        tr.result.raw() as u64,
        d,
        "{text}: traced and fast paths differ"
    );
    let last = tr.stages.last().unwrap();
    assert_eq!(last.kind, StageKind::Result, "{text}: last stage");
    assert_eq!(last.output.name, "d");
    assert_eq!(last.output.raw() as u64, d, "{text}: Result stage");
    d
}

fn flags(text: &str, src: &[u64]) -> Vec<Flag> {
    let insn = parse(text).unwrap();
    let mut v = [0u64; 4];
    v[..src.len()].copy_from_slice(src);
    let tr = evaluate_traced(&insn, &Inputs::new(v[0], v[1], v[2], v[3]));
    tr.stages.iter().flat_map(|s| s.flags.clone()).collect()
}

fn w(text: &str) -> (u32, Vec<u32>) {
    let insn = parse(text).unwrap();
    let w = insn.widths();
    (w.dst, w.src[..w.sources].to_vec())
}

#[test]
fn widths_follow_each_instruction() {
    assert_eq!(w("add.s16 d, a, b;"), (16, vec![16, 16]));
    assert_eq!(w("add.u16x2 d, a, b;"), (32, vec![32, 32]));
    assert_eq!(w("mul.wide.s32 d, a, b;"), (64, vec![32, 32]));
    assert_eq!(w("mul.wide.u16 d, a, b;"), (32, vec![16, 16]));
    assert_eq!(w("mul.hi.u64 d, a, b;"), (64, vec![64, 64]));
    assert_eq!(w("mad.wide.u16 d, a, b, c;"), (32, vec![16, 16, 32]));
    assert_eq!(w("mad.wide.s32 d, a, b, c;"), (64, vec![32, 32, 64]));
    assert_eq!(w("mad.lo.s16 d, a, b, c;"), (16, vec![16, 16, 16]));
    assert_eq!(w("popc.b64 d, a;"), (32, vec![64]));
    assert_eq!(w("clz.b64 d, a;"), (32, vec![64]));
    assert_eq!(w("bfind.shiftamt.s64 d, a;"), (32, vec![64]));
    assert_eq!(w("brev.b64 d, a;"), (64, vec![64]));
    assert_eq!(w("bfe.u64 d, a, b, c;"), (64, vec![64, 32, 32]));
    assert_eq!(w("bfi.b64 d, a, b, c, e;"), (64, vec![64, 64, 32, 32]));
    assert_eq!(w("fns.b32 d, a, b, c;"), (32, vec![32, 32, 32]));
    assert_eq!(w("szext.wrap.s32 d, a, b;"), (32, vec![32, 32]));
    assert_eq!(w("bmsk.clamp.b32 d, a, b;"), (32, vec![32, 32]));
    assert_eq!(w("dp4a.u32.s32 d, a, b, c;"), (32, vec![32, 32, 32]));
    assert_eq!(w("dp2a.hi.s32.s32 d, a, b, c;"), (32, vec![32, 32, 32]));
    assert_eq!(w("mul24.hi.s32 d, a, b;"), (32, vec![32, 32]));
    // Never wider than a 64-bit register, even for a form ptxas rejects.
    assert_eq!(w("mul.wide.u64 d, a, b;").0, 64);
}

#[test]
fn add_sub_wrap_or_saturate() {
    // 0x7fff + 1 = 32768 does not fit s16: wraps to -32768.
    assert_eq!(ev("add.s16 d, a, b;", &[0x7fff, 1]), 0x8000);
    assert!(flags("add.s16 d, a, b;", &[0x7fff, 1]).contains(&Flag::Wrapped));
    // 0xffffffff + 1 wraps to 0.
    assert_eq!(ev("add.u32 d, a, b;", &[0xffff_ffff, 1]), 0);
    // .sat: 2^31 - 1 + 5 clamps at 2^31 - 1; -2^31 - 1 clamps at -2^31.
    assert_eq!(ev("add.sat.s32 d, a, b;", &[0x7fff_ffff, 5]), 0x7fff_ffff);
    assert_eq!(ev("sub.sat.s32 d, a, b;", &[0x8000_0000, 1]), 0x8000_0000);
    assert!(flags("sub.sat.s32 d, a, b;", &[0x8000_0000, 1]).contains(&Flag::ClampedLow));
    // 3 - 5 = -2 in 64 bits.
    assert_eq!(ev("sub.s64 d, a, b;", &[3, 5]), (-2i64) as u64);
}

#[test]
fn half_word_pairs_are_independent() {
    // Lane 0: 1 + 1 = 2; lane 1: 0xffff + 1 wraps to 0 without carrying into anything.
    assert_eq!(
        ev("add.u16x2 d, a, b;", &[0xffff_0001, 0x0001_0001]),
        0x0000_0002
    );
    // Lane 0: 0x7fff + 1 wraps to 0x8000 and does not carry into lane 1.
    assert_eq!(
        ev("add.s16x2 d, a, b;", &[0x0000_7fff, 0x0000_0001]),
        0x0000_8000
    );
    // Signed lanes: min(-1, 1) = -1 per lane; unsigned: min(0xffff, 1) = 1.
    assert_eq!(
        ev("min.s16x2 d, a, b;", &[0xffff_0001, 0x0001_ffff]),
        0xffff_ffff
    );
    assert_eq!(
        ev("min.u16x2 d, a, b;", &[0xffff_0001, 0x0001_ffff]),
        0x0001_0001
    );
    // .relu: lane 0 max(-8, -24) = -8 -> 0; lane 1 max(2066, -32732) = 2066.
    assert_eq!(
        ev("max.relu.s16x2 d, a, b;", &[0x0812_fff8, 0x8024_ffe8]),
        0x0812_0000
    );
    assert_eq!(
        ev("min.relu.s16x2 d, a, b;", &[0x0005_0003, 0xfffe_0009]),
        0x0000_0003
    );
}

#[test]
fn products_keep_the_chosen_half() {
    // 0x80000000 * 4 = 2^33: high word 2, low word 0.
    assert_eq!(ev("mul.hi.u32 d, a, b;", &[0x8000_0000, 4]), 2);
    assert_eq!(ev("mul.lo.u32 d, a, b;", &[0x8000_0000, 4]), 0);
    // -1 * 1 = -1: the high word of a signed product is all ones.
    assert_eq!(ev("mul.hi.s32 d, a, b;", &[0xffff_ffff, 1]), 0xffff_ffff);
    assert_eq!(ev("mul.hi.u32 d, a, b;", &[0xffff_ffff, 1]), 0);
    // (-1) * (-1) = 1 in 32 bits; 0xffff * 0xffff = 0xfffe0001 unsigned.
    assert_eq!(ev("mul.wide.s16 d, a, b;", &[0xffff, 0xffff]), 1);
    assert_eq!(ev("mul.wide.u16 d, a, b;", &[0xffff, 0xffff]), 0xfffe_0001);
    // (2^64 - 1)^2 = 2^128 - 2^65 + 1: high half 2^64 - 2.
    assert_eq!(
        ev("mul.hi.u64 d, a, b;", &[u64::MAX, u64::MAX]),
        0xffff_ffff_ffff_fffe
    );
    // -2^63 * -2^63 = 2^126: high half 2^62.
    let m = 1u64 << 63;
    assert_eq!(ev("mul.hi.s64 d, a, b;", &[m, m]), 1 << 62);
}

#[test]
fn mad_adds_c_at_the_kept_width() {
    // 0xffffffff * 2 = 0x1fffffffe, plus 2^40 in the 64-bit c.
    assert_eq!(
        ev("mad.wide.u32 d, a, b, c;", &[0xffff_ffff, 2, 1 << 40]),
        0x101_ffff_fffe
    );
    // (2^31-1)^2 = 2^62 - 2^32 + 1: high word 0x3fffffff; + 0x7fffffff overflows, .sat clamps.
    assert_eq!(
        ev(
            "mad.hi.sat.s32 d, a, b, c;",
            &[0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff]
        ),
        0x7fff_ffff
    );
    // Without .sat: 0x3fffffff + 0x7fffffff = 0xbffffffe.
    assert_eq!(
        ev(
            "mad.hi.s32 d, a, b, c;",
            &[0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff]
        ),
        0xbfff_fffe
    );
    // 3 * 4 + 0xffff wraps in 16 bits to 11.
    assert_eq!(ev("mad.lo.u16 d, a, b, c;", &[3, 4, 0xffff]), 11);
}

#[test]
fn mul24_uses_the_low_24_bits() {
    // 0x00ffffff is -1 as a 24-bit signed number; the top byte of a is ignored.
    assert_eq!(ev("mul24.lo.s32 d, a, b;", &[0xabff_ffff, 2]), 0xffff_fffe);
    assert_eq!(ev("mul24.lo.u32 d, a, b;", &[0xabff_ffff, 2]), 0x01ff_fffe);
    // (2^24-1)^2 = 2^48 - 2^25 + 1; bits 47..16 are 0xfffffe00.
    assert_eq!(
        ev("mul24.hi.u32 d, a, b;", &[0x00ff_ffff, 0x00ff_ffff]),
        0xffff_fe00
    );
    // 2^23-1 squared = 2^46 - 2^24 + 1; bits 47..16 = 0x3fff_ff00; + 2^30 ... saturates.
    assert_eq!(
        ev(
            "mad24.hi.sat.s32 d, a, b, c;",
            &[0x7f_ffff, 0x7f_ffff, 0x4000_0100]
        ),
        0x7fff_ffff
    );
    assert_eq!(ev("mad24.lo.u32 d, a, b, c;", &[3, 5, 7]), 22);
}

#[test]
fn sad_adds_absolute_difference() {
    // |-5 - 3| + 10 = 18.
    assert_eq!(
        ev("sad.s32 d, a, b, c;", &[(-5i32) as u32 as u64, 3, 10]),
        18
    );
    // Unsigned: |1 - 65535| = 65534.
    assert_eq!(ev("sad.u16 d, a, b, c;", &[1, 0xffff, 0]), 0xfffe);
    // Signed s16: |-1 - 1| = 2.
    assert_eq!(ev("sad.s16 d, a, b, c;", &[0xffff, 1, 0]), 2);
}

#[test]
fn division_truncates_and_by_zero_gives_all_ones() {
    let m7 = (-7i32) as u32 as u64;
    assert_eq!(ev("div.s32 d, a, b;", &[m7, 2]), (-3i32) as u32 as u64);
    assert_eq!(ev("rem.s32 d, a, b;", &[m7, 2]), 0xffff_ffff);
    assert_eq!(ev("rem.s32 d, a, b;", &[7, (-2i32) as u32 as u64]), 1);
    assert_eq!(ev("div.u32 d, a, b;", &[7, 0]), 0xffff_ffff);
    assert_eq!(ev("rem.u32 d, a, b;", &[7, 0]), 0xffff_ffff);
    assert_eq!(ev("div.s16 d, a, b;", &[0x9a50, 0]), 0xffff);
    assert_eq!(ev("rem.s16 d, a, b;", &[1, 0]), 0xffff);
    assert_eq!(ev("div.u64 d, a, b;", &[5, 0]), u64::MAX);
    assert!(flags("div.u64 d, a, b;", &[5, 0]).contains(&Flag::DivideByZero));
    // The most negative value divided by -1 wraps back to itself; its remainder is 0.
    assert_eq!(
        ev("div.s32 d, a, b;", &[0x8000_0000, 0xffff_ffff]),
        0x8000_0000
    );
    assert!(flags("div.s32 d, a, b;", &[0x8000_0000, 0xffff_ffff]).contains(&Flag::Wrapped));
    assert_eq!(ev("rem.s32 d, a, b;", &[0x8000_0000, 0xffff_ffff]), 0);
    let m = 1u64 << 63;
    assert_eq!(ev("div.s64 d, a, b;", &[m, u64::MAX]), m);
}

#[test]
fn abs_neg_and_min_max() {
    assert_eq!(ev("abs.s32 d, a;", &[0x8000_0000]), 0x8000_0000);
    assert_eq!(ev("abs.s16 d, a;", &[0xfffb]), 5);
    assert_eq!(ev("neg.s16 d, a;", &[0x8000]), 0x8000);
    assert_eq!(ev("neg.s64 d, a;", &[1]), u64::MAX);
    // 0xffffffff is -1 signed but the largest unsigned value.
    assert_eq!(ev("min.s32 d, a, b;", &[0xffff_ffff, 1]), 0xffff_ffff);
    assert_eq!(ev("min.u32 d, a, b;", &[0xffff_ffff, 1]), 1);
    assert_eq!(ev("max.s64 d, a, b;", &[u64::MAX, 1]), 1);
    // .relu: max(-5, -3) = -3 becomes 0; min(-5, 7) = -5 becomes 0.
    let m5 = (-5i32) as u32 as u64;
    assert_eq!(ev("max.relu.s32 d, a, b;", &[m5, (-3i32) as u32 as u64]), 0);
    assert_eq!(ev("min.relu.s32 d, a, b;", &[m5, 7]), 0);
    assert_eq!(ev("max.relu.s32 d, a, b;", &[m5, 7]), 7);
}

#[test]
fn counts_and_searches() {
    assert_eq!(ev("popc.b64 d, a;", &[u64::MAX]), 64);
    assert_eq!(ev("popc.b32 d, a;", &[0x8000_0101]), 3);
    assert_eq!(ev("clz.b32 d, a;", &[0]), 32);
    assert!(flags("clz.b32 d, a;", &[0]).contains(&Flag::NotFound));
    assert_eq!(ev("clz.b64 d, a;", &[1]), 63);
    assert_eq!(ev("clz.b32 d, a;", &[0x0001_0000]), 15);
    // bfind: highest 1 of a non-negative value, highest 0 of a negative one.
    assert_eq!(ev("bfind.u64 d, a;", &[1 << 40]), 40);
    assert_eq!(ev("bfind.u32 d, a;", &[0]), 0xffff_ffff);
    // -24 = ...11101000: highest 0 is bit 4.
    assert_eq!(ev("bfind.s32 d, a;", &[0xffff_ffe8]), 4);
    assert_eq!(ev("bfind.s32 d, a;", &[0xffff_ffff]), 0xffff_ffff);
    assert_eq!(ev("bfind.shiftamt.u32 d, a;", &[1]), 31);
    assert_eq!(ev("bfind.shiftamt.s64 d, a;", &[0x7fff_ffff_ffff_ffff]), 1);
    assert_eq!(ev("bfind.shiftamt.u32 d, a;", &[0]), 0xffff_ffff);
    assert_eq!(ev("brev.b32 d, a;", &[1]), 0x8000_0000);
    assert_eq!(ev("brev.b64 d, a;", &[0x3]), 0xc000_0000_0000_0000);
}

#[test]
fn fns_counts_from_base() {
    // The ISA's own examples.
    let m = 0xaaaa_aaaa;
    assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 3, 1]), 3);
    assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 3, 0xffff_ffff]), 3);
    assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 2, 1]), 3);
    assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 2, 0xffff_ffff]), 1);
    // offset 0: only bit base itself.
    assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 2, 0]), 0xffff_ffff);
    assert_eq!(ev("fns.b32 d, a, b, c;", &[m, 3, 0]), 3);
    // One bits of 0b1011_0100 are 2, 4, 5, 7: the third from bit 0 is 5, the fourth 7.
    assert_eq!(ev("fns.b32 d, a, b, c;", &[0xb4, 0, 3]), 5);
    assert_eq!(ev("fns.b32 d, a, b, c;", &[0xb4, 0, 4]), 7);
    // Only four one bits: the fifth is not found; from bit 3 up only 4, 5, 7 count.
    assert_eq!(ev("fns.b32 d, a, b, c;", &[0xb4, 0, 5]), 0xffff_ffff);
    assert_eq!(ev("fns.b32 d, a, b, c;", &[0xb4, 3, 3]), 7);
    // Second one bit at or below bit 31 of 0x80000001: bit 0.
    assert_eq!(
        ev(
            "fns.b32 d, a, b, c;",
            &[0x8000_0001, 31, (-2i32) as u32 as u64]
        ),
        0
    );
    // A base of 32 or more finds nothing.
    assert_eq!(
        ev("fns.b32 d, a, b, c;", &[u64::from(u32::MAX), 32, 1]),
        0xffff_ffff
    );
    assert_eq!(
        ev("fns.b32 d, a, b, c;", &[u64::from(u32::MAX), 40, 0]),
        0xffff_ffff
    );
    // offset -2^31: negating it overflows, the count check passes, the answer is bit 0.
    assert_eq!(ev("fns.b32 d, a, b, c;", &[0, 5, 0x8000_0000]), 0);
    assert_eq!(
        ev(
            "fns.b32 d, a, b, c;",
            &[0x82bc_eed3, 0x2de8_8000, 0x8000_0000]
        ),
        0
    );
}

#[test]
fn bfe_extracts_and_extends() {
    // Bits 7..4 of 0xf0: 0xf, zero- or sign-extended.
    assert_eq!(ev("bfe.u32 d, a, b, c;", &[0xf0, 4, 4]), 0xf);
    assert_eq!(ev("bfe.s32 d, a, b, c;", &[0xf0, 4, 4]), 0xffff_ffff);
    // 32-bit: only the low byte of position and length counts (0x104 -> 4).
    assert_eq!(ev("bfe.u32 d, a, b, c;", &[0xf0, 0x104, 0x204]), 0xf);
    // Length 0 gives 0.
    assert_eq!(ev("bfe.s32 d, a, b, c;", &[0xffff_ffff, 0, 0]), 0);
    // Field past bit 31: bits 31..28 of 0x80000000 = 0b1000, sign from bit 31.
    assert_eq!(
        ev("bfe.s32 d, a, b, c;", &[0x8000_0000, 28, 10]),
        0xffff_fff8
    );
    assert_eq!(ev("bfe.u32 d, a, b, c;", &[0x8000_0000, 28, 10]), 0x8);
    // Position past bit 31: copies of the top bit (signed) or 0.
    assert_eq!(
        ev("bfe.s32 d, a, b, c;", &[0x8000_0000, 40, 3]),
        0xffff_ffff
    );
    assert_eq!(ev("bfe.u32 d, a, b, c;", &[0x8000_0000, 40, 3]), 0);
    // 64-bit: the whole 32-bit position and length count. Position 0x104 = 260 is past
    // bit 63 (the low byte alone would say 4).
    assert_eq!(ev("bfe.u64 d, a, b, c;", &[0xf0, 0x104, 4]), 0);
    // Length 0x100 = 256 takes everything from the position up (the low byte would say 0).
    assert_eq!(
        ev("bfe.u64 d, a, b, c;", &[0x8000_0000_0000_0001, 38, 0x100]),
        0x0200_0000
    );
    assert_eq!(
        ev("bfe.s64 d, a, b, c;", &[0x8000_0000_0000_0001, 38, 0x100]),
        0xffff_ffff_fe00_0000
    );
    assert_eq!(
        ev("bfe.s64 d, a, b, c;", &[1 << 63, 0x8000_0000, 1]),
        u64::MAX
    );
}

#[test]
fn bfi_inserts_into_b() {
    // Low 4 bits of 0xff placed at bit 8 of 0.
    assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0, 8, 4]), 0xf00);
    // Existing bits of b outside the field stay.
    assert_eq!(
        ev("bfi.b32 d, a, b, c, e;", &[0, 0xffff_ffff, 8, 4]),
        0xffff_f0ff
    );
    // 32-bit: length 0x104 is 4; a field running past bit 31 is cut.
    assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0, 8, 0x104]), 0xf00);
    assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0, 30, 8]), 0xc000_0000);
    // Position past the top or length 0: b unchanged.
    assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0x1234, 32, 8]), 0x1234);
    assert_eq!(ev("bfi.b32 d, a, b, c, e;", &[0xff, 0x1234, 0, 0]), 0x1234);
    // 64-bit: length 0x100 is 256, not 0: all of a from bit 8 up replaces b.
    assert_eq!(
        ev(
            "bfi.b64 d, a, b, c, e;",
            &[0x1122_3344_5566_7788, 0xab, 8, 0x100]
        ),
        0x2233_4455_6677_88ab
    );
    // 64-bit: position 0x108 = 264 is past the top: b unchanged.
    assert_eq!(
        ev("bfi.b64 d, a, b, c, e;", &[u64::MAX, 0xab, 0x108, 4]),
        0xab
    );
}

#[test]
fn szext_and_bmsk() {
    assert_eq!(ev("szext.wrap.s32 d, a, b;", &[0x80, 8]), 0xffff_ff80);
    assert_eq!(ev("szext.wrap.u32 d, a, b;", &[0x1ff, 8]), 0xff);
    // .wrap: 40 is 8; .clamp: 40 is 32, a unchanged.
    assert_eq!(ev("szext.wrap.s32 d, a, b;", &[0x180, 40]), 0xffff_ff80);
    assert_eq!(ev("szext.clamp.s32 d, a, b;", &[0x180, 40]), 0x180);
    // Width 0 (or 32 wrapped to 0) gives 0.
    assert_eq!(ev("szext.wrap.u32 d, a, b;", &[0xffff_ffff, 0]), 0);
    assert_eq!(ev("szext.wrap.s32 d, a, b;", &[0xffff_ffff, 32]), 0);
    // bmsk: the ISA's example, width 2 at bit 1.
    assert_eq!(ev("bmsk.wrap.b32 d, a, b;", &[1, 2]), 0x6);
    assert_eq!(ev("bmsk.clamp.b32 d, a, b;", &[0, 32]), 0xffff_ffff);
    assert_eq!(ev("bmsk.clamp.b32 d, a, b;", &[32, 4]), 0);
    // Mask cut at bit 31.
    assert_eq!(ev("bmsk.clamp.b32 d, a, b;", &[30, 40]), 0xc000_0000);
    // .wrap: position 33 -> 1, width 34 -> 2.
    assert_eq!(ev("bmsk.wrap.b32 d, a, b;", &[33, 34]), 0x6);
    assert_eq!(ev("bmsk.wrap.b32 d, a, b;", &[3, 32]), 0);
}

#[test]
fn dot_products() {
    // 1*4 + 2*3 + 3*2 + 4*1 = 20, plus 10.
    assert_eq!(
        ev("dp4a.u32.u32 d, a, b, c;", &[0x0403_0201, 0x0102_0304, 10]),
        30
    );
    // Signed a: four bytes of -1 times 1 each: c - 4.
    assert_eq!(
        ev("dp4a.s32.u32 d, a, b, c;", &[0xffff_ffff, 0x0101_0101, 10]),
        6
    );
    // Unsigned a: 255 * 1 four times.
    assert_eq!(
        ev("dp4a.u32.u32 d, a, b, c;", &[0xffff_ffff, 0x0101_0101, 0]),
        1020
    );
    // dp2a.lo: a.h0 * b.b0 + a.h1 * b.b1 = 3*4 + 2*5 = 22; .hi uses b.b2, b.b3.
    assert_eq!(
        ev(
            "dp2a.lo.u32.u32 d, a, b, c;",
            &[0x0002_0003, 0x0706_0504, 0]
        ),
        22
    );
    assert_eq!(
        ev(
            "dp2a.hi.u32.u32 d, a, b, c;",
            &[0x0002_0003, 0x0706_0504, 0]
        ),
        32
    );
    // Signed b: -1 * 3 + -1 * 2 = -5.
    assert_eq!(
        ev(
            "dp2a.lo.u32.s32 d, a, b, c;",
            &[0x0002_0003, 0x0000_ffff, 0]
        ),
        (-5i32) as u32 as u64
    );
}

#[test]
fn odd_forms_never_panic() {
    let texts = [
        "add d, a, b;",
        "mul.wide.u64 d, a, b;",
        "mad.wide.s64 d, a, b, c;",
        "bfe.u64 d, a;",
        "bfi.b16 d, a, b, c, e;",
        "fns.b32 d;",
        "dp2a.s32 d, a, b, c;",
        "szext.s16 d, a, b;",
        "bmsk.b64 d, a, b;",
        "clz.b16 d, a;",
        "bfind.s16 d, a;",
        "brev.u16 d, a;",
        "add.sat.u16 d, a, b;",
        "min.relu.u32 d, a, b;",
        "sub.s16x2 d, a, b;",
        "mul24.hi.s64 d, a, b;",
        "div.s64 d, a, b;",
    ];
    let vals = [0, 1, 0xff, 0x8000_0000, u64::MAX, 1 << 63, 0x1_0000_0000];
    for t in texts {
        let insn = parse(t).unwrap();
        for &a in &vals {
            for &b in &vals {
                let inp = Inputs::new(a, b, a ^ b, b.wrapping_sub(a));
                let d = evaluate(&insn, &inp);
                assert_eq!(evaluate_traced(&insn, &inp).result.raw() as u64, d, "{t}");
            }
        }
    }
}
