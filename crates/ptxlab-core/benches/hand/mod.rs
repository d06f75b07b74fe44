//! Functions written by hand for one form each, the way an emulator or translator runtime would
//! write them: the yardstick for plans. Shared by the `plan` benchmark, the `plan_speed`
//! example and the test that checks each against the evaluator (`tests/plan_hand.rs`).

#![allow(dead_code)]

/// One benchmark form: its text and its hand-written function of `a`, `b`, `c`.
pub struct Form {
    pub name: &'static str,
    pub ptx: &'static str,
    pub hand: fn(u32, u32, u32) -> u32,
}

pub const FORMS: &[Form] = &[
    Form {
        name: "vadd4.sat",
        ptx: "vadd4.u32.u32.u32.sat d, a, b, c;",
        hand: vadd4_u32_sat,
    },
    Form {
        name: "vabsdiff4.add",
        ptx: "vabsdiff4.u32.u32.u32.add d, a, b, c;",
        hand: vabsdiff4_u32_add,
    },
    Form {
        name: "vmin2",
        ptx: "vmin2.s32.s32.s32 d, a, b, c;",
        hand: vmin2_s32,
    },
    Form {
        name: "vadd.sat.add",
        ptx: "vadd.s32.s32.s32.sat.add d, a, b, c;",
        hand: vadd_s32_sat_add,
    },
    Form {
        name: "vmad.sat.shr15",
        ptx: "vmad.s32.s32.u32.sat.shr15 d, a.h1, b.b3, c;",
        hand: vmad_s32_sat_shr15_h1_b3,
    },
    Form {
        name: "dp4a",
        ptx: "dp4a.s32.u32 d, a, b, c;",
        hand: dp4a_s32_u32,
    },
    Form {
        name: "mad.hi.sat",
        ptx: "mad.hi.sat.s32 d, a, b, c;",
        hand: mad_hi_sat_s32,
    },
    Form {
        name: "vsub4.sel.mask",
        ptx: "vsub4.s32.u32.s32.sat d.b210, a.b0123, b.b4567, c;",
        hand: vsub4_sel_mask,
    },
];

/// `vadd4.u32.u32.u32.sat`: four unsigned byte sums, each saturated to 0xff.
#[inline]
pub fn vadd4_u32_sat(a: u32, b: u32, _c: u32) -> u32 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    u32::from_le_bytes([
        a[0].saturating_add(b[0]),
        a[1].saturating_add(b[1]),
        a[2].saturating_add(b[2]),
        a[3].saturating_add(b[3]),
    ])
}

/// `vabsdiff4.u32.u32.u32.add`: the four byte distances added to `c`.
#[inline]
pub fn vabsdiff4_u32_add(a: u32, b: u32, c: u32) -> u32 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    let mut s = c;
    for i in 0..4 {
        s = s.wrapping_add(u32::from(a[i].abs_diff(b[i])));
    }
    s
}

/// `vmin2.s32.s32.s32`: the signed minimum of each half-word.
#[inline]
pub fn vmin2_s32(a: u32, b: u32, _c: u32) -> u32 {
    let lo = (a as i16).min(b as i16) as u16;
    let hi = ((a >> 16) as i16).min((b >> 16) as i16) as u16;
    (u32::from(hi) << 16) | u32::from(lo)
}

/// `vadd.s32.s32.s32.sat.add`: a saturated signed sum, plus `c` modulo 2^32.
#[inline]
pub fn vadd_s32_sat_add(a: u32, b: u32, c: u32) -> u32 {
    (a as i32).saturating_add(b as i32).wrapping_add(c as i32) as u32
}

/// `vmad.s32.s32.u32.sat.shr15 d, a.h1, b.b3, c`: signed high half-word of `a` times the top byte
/// of `b`, plus `c` (sign-extended), arithmetic shift by 15, saturated to s32.
#[inline]
pub fn vmad_s32_sat_shr15_h1_b3(a: u32, b: u32, c: u32) -> u32 {
    let x = i64::from((a >> 16) as i16);
    let y = i64::from(b >> 24);
    let sum = x * y + i64::from(c as i32);
    (sum >> 15).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
}

/// `dp4a.s32.u32`: signed bytes of `a` times unsigned bytes of `b`, summed into `c`.
#[inline]
pub fn dp4a_s32_u32(a: u32, b: u32, c: u32) -> u32 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    let mut s = c as i32;
    for i in 0..4 {
        s = s.wrapping_add(i32::from(a[i] as i8) * i32::from(b[i]));
    }
    s as u32
}

/// `mad.hi.sat.s32`: the high word of the signed product, plus `c`, saturated.
#[inline]
pub fn mad_hi_sat_s32(a: u32, b: u32, c: u32) -> u32 {
    let hi = (i64::from(a as i32) * i64::from(b as i32)) >> 32;
    (hi + i64::from(c as i32)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
}

/// `vsub4.s32.u32.s32.sat d.b210, a.b0123, b.b4567, c`: lane i takes byte 3-i of `a` (unsigned)
/// minus byte 3-i of `b` (signed), saturated to a signed byte; lane 3 of `d` comes from `c`.
#[inline]
pub fn vsub4_sel_mask(a: u32, b: u32, c: u32) -> u32 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    let mut d = c & 0xff00_0000;
    for i in 0..3 {
        let x = i32::from(a[3 - i]);
        let y = i32::from(b[3 - i] as i8);
        let r = (x - y).clamp(-128, 127);
        d |= (r as u32 & 0xff) << (8 * i);
    }
    d
}
