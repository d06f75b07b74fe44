//! Plans of the SIMD video instructions (`vop2`, `vop4`): the model of [`crate::eval::simd`]
//! with the selectors turned into shift counts and the mask into a word, computed in 32-bit
//! lanes (every lane value fits: 17 bits at most, sums of four lanes 19 bits).

use super::{drive, BatchFn, CmpBits, Kernel, Notes, Operands};
use crate::ast::{Cmp, Instruction, Selector};
use crate::eval::Inputs;
use crate::isa::{Family, Opcode};
use crate::trace::{Flag, Tracer};

const M32: u64 = 0xffff_ffff;

const ADD: u8 = 0;
const SUB: u8 = 1;
const AVRG: u8 = 2;
const ABSDIFF: u8 = 3;
const MIN: u8 = 4;
const MAX: u8 = 5;
const SET: u8 = 6;

/// Pool entry picked for each lane (as `eval::simd::picks_of`).
fn picks(sel: Option<&Selector>, n: usize, base: usize) -> [u32; 4] {
    let mut p = [0u32; 4];
    for (i, e) in p.iter_mut().enumerate().take(n) {
        *e = match sel {
            Some(s) if s.len as usize == n => {
                (s.digits[(n - 1 - i) & 3] as usize & (2 * n - 1)) as u32
            }
            Some(s) => (s.lane(i) as usize & (2 * n - 1)) as u32,
            None => (base + i) as u32,
        };
    }
    p
}

/// `vop2` / `vop4`, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Simd {
    lanes: usize,
    op: u8,
    cmp: CmpBits,
    /// Shift of each lane's pool entry, for the first and second operand.
    ash: [u32; 4],
    bsh: [u32; 4],
    /// AND-ed into an extended lane: all ones when signed, the lane's bits when unsigned.
    akeep: i32,
    bkeep: i32,
    sat: bool,
    add: bool,
    d_signed: bool,
    lo: i32,
    hi: i32,
    /// Lanes in the mask, one bit each; `in_mask[i]` is all ones for a lane in it.
    mask: u32,
    in_mask: [i32; 4],
    /// Bits of `d` that come from the result (the others from `c`).
    keep: u32,
}

impl Simd {
    pub(crate) fn new(insn: &Instruction) -> Simd {
        let n = if insn.opcode.family() == Family::Simd2 {
            2
        } else {
            4
        };
        let lb = 32 / n as u32;
        let lmask = (1u32 << lb) - 1;
        let op = match insn.opcode {
            Opcode::Vadd2 | Opcode::Vadd4 => ADD,
            Opcode::Vsub2 | Opcode::Vsub4 => SUB,
            Opcode::Vavrg2 | Opcode::Vavrg4 => AVRG,
            Opcode::Vabsdiff2 | Opcode::Vabsdiff4 => ABSDIFF,
            Opcode::Vmin2 | Opcode::Vmin4 => MIN,
            Opcode::Vmax2 | Opcode::Vmax4 => MAX,
            _ => SET,
        };
        let f = &insn.form;
        let (d_signed, a_signed, b_signed) = if op == SET {
            (false, f.ty(0).is_signed(), f.ty(1).is_signed())
        } else {
            (
                f.ty(0).is_signed(),
                f.ty(1).is_signed(),
                f.ty(2).is_signed(),
            )
        };
        let asel = insn.srcs.first().and_then(|o| o.sel.as_ref());
        let bsel = insn.srcs.get(1).and_then(|o| o.sel.as_ref());
        let msel = insn.dst.sel.as_ref();
        let mask = match msel {
            Some(s) => s
                .digits()
                .iter()
                .filter(|&&d| (d as usize) < n)
                .fold(0u32, |m, &d| m | 1 << d),
            None => (1 << n) - 1,
        };
        let pa = picks(asel, n, 0);
        let pb = picks(bsel, n, n);
        let mut ash = [0; 4];
        let mut bsh = [0; 4];
        let mut in_mask = [0; 4];
        let mut keep = 0u32;
        for i in 0..n {
            ash[i] = lb * pa[i];
            bsh[i] = lb * pb[i];
            in_mask[i] = -((mask >> i & 1) as i32);
            keep |= (lmask * (mask >> i & 1)) << (lb * i as u32);
        }
        let (lo, hi) = if d_signed {
            (-(1i32 << (lb - 1)), (1i32 << (lb - 1)) - 1)
        } else {
            (0, lmask as i32)
        };
        Simd {
            lanes: n,
            op,
            cmp: CmpBits::of(f.cmp.unwrap_or(Cmp::Eq)),
            ash,
            bsh,
            akeep: if a_signed { -1 } else { lmask as i32 },
            bkeep: if b_signed { -1 } else { lmask as i32 },
            sat: f.sat && op != SET,
            add: f.secop.is_some(),
            d_signed,
            lo,
            hi,
            mask,
            in_mask,
            keep,
        }
    }

    // Lanes are indexed in step across several arrays, as in the evaluator.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn run<T: Tracer, const N: usize>(
        &self,
        v: &[u64; 4],
        t: &mut T,
        op: u8,
        sat: bool,
        add: bool,
    ) -> u64 {
        let lb = 32 / N as u32;
        let s = 32 - lb;
        let pool = ((v[1] & M32) << 32) | (v[0] & M32);
        let c = (v[2] & M32) as u32;
        let mut r = [0i32; N];
        for i in 0..N {
            let x = ((((pool >> self.ash[i]) as u32) << s) as i32 >> s) & self.akeep;
            let y = ((((pool >> self.bsh[i]) as u32) << s) as i32 >> s) & self.bkeep;
            r[i] = match op {
                ADD => x + y,
                SUB => x - y,
                AVRG => {
                    let s = x + y;
                    (s + (s >= 0) as i32) >> 1
                }
                ABSDIFF => (x - y).abs(),
                MIN => x.min(y),
                MAX => x.max(y),
                _ => self.cmp.test32(x, y),
            };
        }
        let mut res = r;
        if sat {
            for (i, x) in res.iter_mut().enumerate() {
                t.note_if(r[i] > self.hi, Flag::ClampedHigh);
                t.note_if(r[i] < self.lo, Flag::ClampedLow);
                *x = (*x).max(self.lo).min(self.hi);
            }
        }
        t.note_if(self.mask != (1 << N) - 1, Flag::MaskedOff);
        if add {
            let mut sum = c as i32;
            let mut lanes = 0i64;
            for i in 0..N {
                let x = res[i] & self.in_mask[i];
                sum = sum.wrapping_add(x);
                lanes += i64::from(x);
            }
            let cx = if self.d_signed {
                i64::from(c as i32)
            } else {
                i64::from(c)
            };
            let exact = lanes + cx;
            let (lo, hi) = if self.d_signed {
                (i64::from(i32::MIN), i64::from(i32::MAX))
            } else {
                (0, M32 as i64)
            };
            t.note_if(exact < lo || exact > hi, Flag::Wrapped);
            u64::from(sum as u32)
        } else {
            let lmask = (1u32 << lb).wrapping_sub(1);
            let mut packed = 0u32;
            for (i, &x) in res.iter().enumerate() {
                packed |= (x as u32 & lmask) << (lb * i as u32);
            }
            if !sat && op != SET {
                for (i, &x) in res.iter().enumerate() {
                    t.note_if(
                        self.mask >> i & 1 != 0 && (x < self.lo || x > self.hi),
                        Flag::Wrapped,
                    );
                }
            }
            u64::from((packed & self.keep) | (c & !self.keep))
        }
    }

    pub(crate) fn pick<N: Notes>(&self) -> BatchFn {
        if self.lanes == 2 {
            self.pick_n::<N, 2>()
        } else {
            self.pick_n::<N, 4>()
        }
    }

    fn pick_n<N: Notes, const L: usize>(&self) -> BatchFn {
        let (sat, add) = (self.sat, self.add);
        match self.op {
            ADD => pick_o::<N, L, ADD>(sat, add),
            SUB => pick_o::<N, L, SUB>(sat, add),
            AVRG => pick_o::<N, L, AVRG>(sat, add),
            ABSDIFF => pick_o::<N, L, ABSDIFF>(sat, add),
            MIN => pick_o::<N, L, MIN>(sat, add),
            MAX => pick_o::<N, L, MAX>(sat, add),
            _ => pick_o::<N, L, SET>(sat, add),
        }
    }
}

/// Without vector instructions (wasm32 here) specialising on `.sat` and `.add` gains little
/// and costs code size: one loop per operation and lane count reads them from the plan.
#[cfg(target_arch = "wasm32")]
fn pick_o<N: Notes, const L: usize, const OP: u8>(_sat: bool, _add: bool) -> BatchFn {
    simd_batch_op::<N, L, OP>
}

#[cfg(target_arch = "wasm32")]
fn simd_batch_op<N: Notes, const L: usize, const OP: u8>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Simd(k) = k {
        drive::<N>(ops, ins, out, fl, |v, t| {
            k.run::<N, L>(v, t, OP, k.sat, k.add)
        });
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn pick_o<N: Notes, const L: usize, const OP: u8>(sat: bool, add: bool) -> BatchFn {
    match (sat, add) {
        (false, false) => simd_batch::<N, L, OP, false, false>,
        (false, true) => simd_batch::<N, L, OP, false, true>,
        (true, false) => simd_batch::<N, L, OP, true, false>,
        (true, true) => simd_batch::<N, L, OP, true, true>,
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn simd_batch<N: Notes, const L: usize, const OP: u8, const SAT: bool, const ADD: bool>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Simd(k) = k {
        drive::<N>(ops, ins, out, fl, |v, t| k.run::<N, L>(v, t, OP, SAT, ADD));
    }
}
