//! Scalar video instructions and `vmad`, as the H100 computes them.
//!
//! The ISA text describes 33-bit extended operands, a 34-bit intermediate, a saturation to the
//! destination's range and a secondary operation or merge. Measured results follow that outline
//! but differ from a literal reading in several stages (see `docs/hardware-vs-spec.md`); each such
//! stage is a small function in [`scalar`] or [`vmad`], and the trace flags it with
//! [`Flag::HardwareDiffersFromText`](crate::trace::Flag::HardwareDiffersFromText) when the literal reading would give another value.
//!
//! The hardware keeps the intermediate as a 64-bit value. Where the text and the hardware agree
//! that value is the exact mathematical result (it always fits in 34 bits, except for `vshl`).
//!
//! ```
//! use ptxlab_core::eval::{video, Hardware};
//! use ptxlab_core::trace::NoTrace;
//! use ptxlab_core::check;
//!
//! let insn = check("vadd.s32.u32.s32.sat d, a.b0, b.h0;").unwrap();
//! let v = [0x1234, 0xffff_fffb, 0, 0];
//! assert_eq!(video::eval_scalar::<Hardware, _>(&insn, &v, &mut NoTrace), 0x2f);
//! ```

use crate::ast::{Instruction, Selector};
use crate::bits::{extend_field, int_range};
use crate::isa::lanes;
use crate::trace::{Detail, Flow, Stage, StageKind, Tracer, Val};

const M32: u64 = 0xffff_ffff;
const U32_MAX: i64 = 0xffff_ffff;
const S32_MIN: i64 = i32::MIN as i64;
const S32_MAX: i64 = i32::MAX as i64;

/// The part of a register a selector names: bit offset and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) lo: u32,
    pub(crate) width: u32,
}

impl Part {
    /// `.bN` is byte N, `.hN` half-word N, no selector the whole word, as
    /// [`lanes::scalar_part`] decodes it (digits out of range wrap: an invalid selector still
    /// reads some part of the register).
    #[inline(always)]
    pub(crate) fn of(sel: Option<&Selector>) -> Part {
        let (lo, width) = lanes::scalar_part(sel);
        Part { lo, width }
    }
}

fn src_sel(insn: &Instruction, i: usize) -> Option<&Selector> {
    insn.srcs.get(i).and_then(|o| o.sel.as_ref())
}

fn src_neg(insn: &Instruction, i: usize) -> bool {
    insn.srcs.get(i).is_some_and(|o| o.neg)
}

/// Read a byte, half-word or word of `raw` and extend it (stage 1 of every scalar instruction).
fn read_part<T: Tracer>(
    name: &'static str,
    raw: u64,
    sel: Option<&Selector>,
    signed: bool,
    t: &mut T,
) -> i64 {
    let p = Part::of(sel);
    let x = extend_field(raw, p.lo, p.width, signed);
    t.stage([], || {
        let what = match sel {
            Some(s) => format!("{name}{s}"),
            None => name.to_string(),
        };
        let (how, f) = if signed {
            ("sign-extended", "sext")
        } else {
            ("zero-extended", "zext")
        };
        Stage::new(
            StageKind::Extract,
            format!("{what} {how} to 33 bits"),
            Val::new(format!("t{name}"), 33, true, i128::from(x)),
        )
        .op(format!("{f}({what})"))
        .input(Val::reg(name, 32, raw))
        .extended(signed)
        .flow(Flow::field(p.lo, p.width, signed))
        .detail(Detail::Field {
            source: raw & M32,
            source_bits: 32,
            lo: p.lo,
            width: p.width,
            signed,
            out_bits: 33,
        })
    });
    x
}

/// Whether `x` lies outside the range of a `bits`-bit destination (its low bits are written).
/// The plans (`plan::video`) read it too.
#[inline(always)]
pub(crate) fn outside(x: i64, bits: u32, signed: bool) -> bool {
    let (lo, hi) = int_range(bits, signed);
    x < lo || x > hi
}

pub mod scalar;
pub mod vmad;

pub use scalar::eval_scalar;
pub use vmad::eval_vmad;

#[cfg(test)]
mod tests;

/// Branch-free comparison: `cmp` as which of `<`, `==`, `>` count as true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CmpBits {
    pub(crate) lt: i64,
    pub(crate) eq: i64,
    pub(crate) gt: i64,
}

impl CmpBits {
    /// Never true (for an operation that reads no comparison).
    pub(crate) const NONE: CmpBits = CmpBits {
        lt: 0,
        eq: 0,
        gt: 0,
    };
    /// The answers [`Cmp::holds`](crate::isa::Cmp::holds) gives for `<`, `==` and `>`.
    #[inline]
    pub(crate) fn of(c: crate::ast::Cmp) -> CmpBits {
        // One row per comparison, made at compile time: the evaluators read it per case.
        const TABLE: [CmpBits; crate::ast::Cmp::ALL.len()] = {
            let mut t = [CmpBits::NONE; crate::ast::Cmp::ALL.len()];
            let mut i = 0;
            while i < t.len() {
                let c = crate::ast::Cmp::ALL[i];
                use std::cmp::Ordering::{Equal, Greater, Less};
                t[c as usize] = CmpBits {
                    lt: c.holds(Less) as i64,
                    eq: c.holds(Equal) as i64,
                    gt: c.holds(Greater) as i64,
                };
                i += 1;
            }
            t
        };
        TABLE[c as usize]
    }
    #[inline(always)]
    pub(crate) fn test(self, x: i64, y: i64) -> i64 {
        (((x < y) as i64) & self.lt) | (((x == y) as i64) & self.eq) | (((x > y) as i64) & self.gt)
    }
    #[inline(always)]
    pub(crate) fn test32(self, x: i32, y: i32) -> i32 {
        (((x < y) as i32) & self.lt as i32)
            | (((x == y) as i32) & self.eq as i32)
            | (((x > y) as i32) & self.gt as i32)
    }
}
