use crate::trace::{Flag, StageKind};
use crate::{check, evaluate, evaluate_traced, Inputs};

fn run(text: &str, a: u64, b: u64, c: u64) -> u64 {
    let insn = check(text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
    let inputs = Inputs::new(a, b, c, 0);
    let d = evaluate(&insn, &inputs);
    let tr = evaluate_traced(&insn, &inputs);
    assert_eq!(tr.result.raw() as u64, d, "{text}");
    let last = tr.stages.last().expect("stages");
    assert_eq!(last.kind, StageKind::Result);
    assert_eq!(last.output.name, "d");
    d
}

fn flagged(text: &str, a: u64, b: u64, c: u64) -> bool {
    let insn = check(text).unwrap();
    let tr = evaluate_traced(&insn, &Inputs::new(a, b, c, 0));
    tr.stages
        .iter()
        .any(|s| s.flags.contains(&Flag::HardwareDiffersFromText))
}

#[test]
fn plain_operations_extend_their_parts() {
    // 0x80 read as s8 is -128; 0x7f as u8 is 127.
    assert_eq!(
        run("vadd.s32.s32.u32 d, a.b1, b.b0;", 0x8000, 0x7f, 0),
        (-1i32) as u32 as u64
    );
    // |0x0001 - 0xffff (as s16 -1)| = 2
    assert_eq!(
        run("vabsdiff.u32.u32.s32 d, a.h0, b.h1;", 1, 0xffff_0000, 0),
        2
    );
    assert_eq!(run("vset.u32.u32.lt d, a, b;", 1, 2, 0), 1);
    assert_eq!(run("vset.s32.u32.lt d, a, b;", 0xffff_ffff, 2, 0), 1);
}

#[test]
fn shifts_clamp_or_wrap_the_amount() {
    assert_eq!(run("vshl.u32.u32.u32.clamp d, a, b;", 1, 40, 0), 0);
    assert_eq!(run("vshl.u32.u32.u32.wrap d, a, b;", 1, 33, 0), 2);
    assert_eq!(
        run("vshr.s32.s32.u32.clamp d, a, b;", 0x8000_0000, 40, 0),
        M32
    );
}

const M32: u64 = 0xffff_ffff;

#[test]
fn vshl_saturation_wraps_to_34_bits_first() {
    // 0x40 << 32 = 2^38: its low 34 bits are zero, so .sat gives 0, not 0xffffffff.
    assert_eq!(
        run("vshl.u32.u32.u32.sat.clamp d, a.b0, b;", 0x40, 32, 0),
        0
    );
    // 0xe << 30 = 0x3_8000_0000: negative as a 34-bit number, so it saturates to 0.
    assert_eq!(run("vshl.u32.u32.u32.sat.wrap d, a.b0, b;", 0xe, 30, 0), 0);
    // 3 << 31 = 0x1_8000_0000: positive, above U32_MAX.
    assert_eq!(run("vshl.u32.u32.u32.sat.wrap d, a.b0, b;", 3, 31, 0), M32);
}

#[test]
fn unsigned_saturation_does_not_limit_above() {
    // 0xfffffffe + 0x28 = 0x1_0000_0026: kept as 0x26, then + c.
    assert_eq!(
        run(
            "vadd.u32.u32.u32.sat.add d, a, b, c;",
            0xffff_fffe,
            0x28,
            0x100
        ),
        0x126
    );
    // Negative results still become 0.
    assert_eq!(run("vsub.u32.u32.u32.sat d, a, b;", 1, 2, 0), 0);
    assert!(flagged(
        "vadd.u32.u32.u32.sat d, a, b;",
        0xffff_fffe,
        0x28,
        0
    ));
}

#[test]
fn unsigned_secondary_compares_the_sign_extended_word() {
    // a + b = 0xb87d06c1: bit 31 set, so it counts as larger than c = 0xfffffffc.
    assert_eq!(
        run(
            "vadd.u32.u32.s32.min d, a, b, c;",
            0xb87d_06b4,
            0xd,
            0xffff_fffc
        ),
        0xffff_fffc
    );
    // -12 (u32 destination) counts as larger than any c.
    assert_eq!(
        run(
            "vadd.u32.u32.s32.max d, a, b, c;",
            0,
            (-12i32) as u32 as u64,
            0x4501_4a31
        ),
        0xffff_fff4
    );
    // Signed destination: plain signed comparison of the low word.
    assert_eq!(
        run(
            "vadd.s32.u32.u32.min d, a, b.b0, c;",
            0xffff_fffe,
            0xff,
            0x0180_8000
        ),
        0xfd
    );
    // vabsdiff keeps the whole value: 0x1_3b5b_0c74 is above c, so max keeps it.
    assert_eq!(
        run(
            "vabsdiff.u32.u32.s32.sat.max d, a, b, c;",
            0xbb5b_0c74,
            0x8000_0000,
            0x21
        ),
        0x3b5b_0c74
    );
    // vset: the first type decides. s32: c = 0xfffe01ff is negative, so min takes it.
    assert_eq!(
        run("vset.s32.u32.eq.min d, a, b, c;", 1, 2, 0xfffe_01ff),
        0xfffe_01ff
    );
    assert_eq!(run("vset.u32.u32.eq.min d, a, b, c;", 1, 2, 0xfffe_01ff), 0);
}

#[test]
fn vshl_secondary_sees_64_bits() {
    // 14 << 32 is positive and large: min with c keeps c.
    assert_eq!(
        run(
            "vshl.s32.s32.u32.clamp.min d, a.b2, b, c;",
            0x000e_0000,
            32,
            0x6c_0000
        ),
        0x6c_0000
    );
}

#[test]
fn merges() {
    // Byte lanes take the low byte of the result, moved to the lane.
    assert_eq!(
        run("vadd.u32.u32.u32 d.b1, a, b, c;", 0x12, 0x01, 0xaabb_ccdd),
        0xaabb_13dd
    );
    // .h1 takes bits 16-31 of the result in place: 16 has none.
    assert_eq!(
        run("vmin.s32.s32.u32 d.h1, a.b3, b, c;", 0x6000_0000, 16, 0),
        0
    );
    assert_eq!(
        run(
            "vadd.u32.u32.u32 d.h1, a, b, c;",
            0x0001_0000,
            0x0002_0005,
            0xaaaa_bbbb
        ),
        0x0003_bbbb
    );
    assert!(flagged(
        "vadd.u32.u32.u32 d.h1, a, b, c;",
        0x0001_0000,
        0x0002_0005,
        0xaaaa_bbbb
    ));
}

#[test]
fn lane_saturation_sends_negatives_to_the_maximum() {
    // 1 - 0x27 = -38: saturates to 0x7f for a signed byte lane.
    assert_eq!(
        run(
            "vsub.s32.s32.s32.sat d.b1, a.b0, b.b2, c;",
            0x8001,
            0x8c27_aa83,
            4
        ),
        0x7f04
    );
    // Unsigned half-word: -1 saturates to 0xffff.
    assert_eq!(
        run("vsub.u32.u32.u32.sat d.h0, a, b, c;", 0, 1, 0x1234_0000),
        0x1234_ffff
    );
    // In range: kept.
    assert_eq!(
        run("vadd.s32.s32.s32.sat d.b0, a, b, c;", 3, 4, 0xffff_ff00),
        0xffff_ff07
    );
    // Shifts saturate to the 32-bit range and keep the lane's bits: 0x1ff stays 0xff in b0.
    assert_eq!(
        run("vshl.u32.u32.u32.sat.clamp d.b0, a, b, c;", 0x1ff, 0, 0),
        0xff
    );
}

#[test]
fn vmad_rules() {
    // (u32 * u32) + u32 without scaling: low 32 bits of the sum.
    assert_eq!(run("vmad.u32.u32.u32 d, a, b, c;", 3, 5, 7), 22);
    // A whole-word .u32 with its top bit set multiplies as negative: 0xffffffff * 2 = -2;
    // with .sat (unsigned result) that clamps to 0.
    assert_eq!(run("vmad.u32.u32.u32.sat d, a, b, c;", M32, 2, 0), 0);
    // c is sign-extended even for an unsigned result: 0 + 0xffffffff (-1) -> clamps to 0.
    assert_eq!(run("vmad.u32.u32.u32.sat d, a.b0, b.b0, c;", 0, 0, M32), 0);
    // Unsigned scaling is a logical shift of the 64-bit sum: -1 >>> 7 = 0x01ff_ffff_ffff_ffff.
    assert_eq!(
        run("vmad.u32.u32.u32.shr7 d, a.b0, b.b0, c;", 0, 0, M32),
        M32
    );
    // Signed scaling is arithmetic.
    assert_eq!(
        run(
            "vmad.s32.s32.s32.shr7 d, a, b, c;",
            (-256i32) as u32 as u64,
            1,
            0
        ),
        (-2i32) as u32 as u64
    );
    // -(a*b) + c = ~(a*b) + c + 1.
    assert_eq!(run("vmad.s32.s32.s32 d, -a, b, c;", 3, 4, 20), 8);
    // a*b - c = a*b + ~c + 1.
    assert_eq!(
        run("vmad.s32.s32.s32 d, a, b, -c;", 3, 4, 20),
        (-8i32) as u32 as u64
    );
    // .po adds one.
    assert_eq!(run("vmad.u32.u32.u32.po d, a, b, c;", 3, 4, 5), 18);
    assert!(flagged("vmad.u32.u32.u32.sat d, a, b, c;", M32, 2, 0));
}

#[test]
fn invalid_forms_do_not_panic() {
    for text in [
        "vadd d, a, b;",
        "vadd.u32.u32.u32.min d, a, b;",
        "vshl.u32.u32.u32 d, a, b;",
        "vmad.u32.u32.u32 d, a, b;",
        "vadd.u32.u32.u32 d.b7, a.h3, b.b9, c;",
        "vset.u32.u32.lt.sat d.h1, a, b, c;",
    ] {
        if let Ok(insn) = crate::parse(text) {
            for &(a, b, c) in &[(0, 0, 0), (M32, M32, M32), (0x8000_0000, 0x7fff_ffff, 1)] {
                let i = Inputs::new(a, b, c, 0);
                assert_eq!(
                    evaluate(&insn, &i),
                    evaluate_traced(&insn, &i).result.raw() as u64
                );
            }
        }
    }
}
