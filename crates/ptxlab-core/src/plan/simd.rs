//! Plans of the SIMD video instructions (`vop2`, `vop4`): the model of [`crate::eval::simd`]
//! with the selectors turned into shift counts and the mask into a word, computed in 32-bit
//! lanes (every lane value fits: 17 bits at most, sums of four lanes 19 bits).

use super::{drive, fns, CmpBits, Fns, Kernel, Notes, Operands};
#[cfg(not(target_arch = "wasm32"))]
use super::{words, SOA};
use crate::ast::{Cmp, Instruction, Selector};
use crate::eval::simd::{lane_op, Lane};
use crate::eval::Inputs;
use crate::isa::SimdOp;
use crate::trace::Flag;

#[cfg(target_arch = "x86_64")]
mod x86;

const M32: u64 = 0xffff_ffff;

// The operations as const parameters of the kernels (a const parameter cannot be an enum);
// every kernel reads its parameter back as a `SimdOp` with `const { op_of(OP) }`.
const ADD: u8 = 0;
const SUB: u8 = 1;
const AVRG: u8 = 2;
const ABSDIFF: u8 = 3;
const MIN: u8 = 4;
const MAX: u8 = 5;
const SET: u8 = 6;

/// The operation a kernel constant stands for. Evaluated at compile time where it is used, so a
/// constant that stands for none does not compile.
// The wasm build has no const-generic kernels (one loop reads the plan).
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
const fn op_of(op: u8) -> SimdOp {
    match op {
        ADD => SimdOp::Add,
        SUB => SimdOp::Sub,
        AVRG => SimdOp::Avrg,
        ABSDIFF => SimdOp::Absdiff,
        MIN => SimdOp::Min,
        MAX => SimdOp::Max,
        SET => SimdOp::Set,
        _ => panic!("not a SIMD operation constant"),
    }
}

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

/// The batch loop without notes of half-word lanes with selectors, lane by lane over chunks of
/// cases: each lane is one plain loop over the chunk (a shift, the operation in 32 bits, the
/// clamp, into the packed or summed result), which the compiler vectorises across cases whatever
/// the selectors are (each lane's shift is the same for every case).
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn simd_soa_halves<const OP: u8, const SAT: bool, const ADD: bool>(
    k: &Simd,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
) {
    let n = ins.len().min(out.len());
    let mut w = [[0u32; SOA]; 3];
    let mut acc = [0u32; SOA];
    // Lanes outside the mask add nothing and are not written: they are not computed. With no
    // lane in the mask, `d` is `c` (or `c` plus nothing).
    let first = (0..2).find(|&i| k.mask >> i & 1 != 0);
    // `c` is read to add to, or to fill the lanes outside the mask.
    let need_c = ADD || k.keep != u32::MAX;
    for (ic, oc) in ins[..n].chunks(SOA).zip(out[..n].chunks_mut(SOA)) {
        let m = ic.len();
        words(ops, ic, &mut w, need_c);
        let acc = &mut acc[..m];
        if first.is_none() {
            acc.fill(0);
        }
        for i in 0..2 {
            if k.mask >> i & 1 == 0 {
                continue;
            }
            let (sa, sb) = (k.ash[i], k.bsh[i]);
            // A lane never straddles the two words of the pool.
            let (xa, xs) = (&w[(sa / 32) as usize][..m], sa % 32);
            let (yb, ys) = (&w[(sb / 32) as usize][..m], sb % 32);
            let at = 16 * i as u32;
            for ((d, &x), &y) in acc.iter_mut().zip(xa).zip(yb) {
                let x = i32::lane(x >> xs, 16) & k.akeep;
                let y = i32::lane(y >> ys, 16) & k.bkeep;
                let r = lane_op(const { op_of(OP) }, k.cmp, x, y);
                let r = if SAT { r.max(k.lo).min(k.hi) } else { r } as u32;
                let v = if ADD { r } else { (r & 0xffff) << at };
                // The first lane starts the result.
                *d = if Some(i) == first {
                    v
                } else if ADD {
                    d.wrapping_add(v)
                } else {
                    *d | v
                };
            }
        }
        let keep = k.keep;
        for ((o, &d), &c) in oc.iter_mut().zip(acc.iter()).zip(&w[2][..m]) {
            *o = u64::from(if ADD {
                c.wrapping_add(d)
            } else {
                (d & keep) | (c & !keep)
            });
        }
    }
}

/// [`simd_soa_halves`] for byte lanes, in 16-bit arithmetic throughout: each chunk's words are split
/// into half-words once, so every lane's loop reads, computes and writes 16-bit values (eight
/// cases to a 128-bit vector, with no conversion between widths in the loop). The result is
/// built in two half-words per case (lanes 0 and 1, lanes 2 and 3), or with `.add` one sum of
/// the lanes (at most four of them, each within 9 bits: it fits 16).
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn simd_soa_bytes<const OP: u8, const SAT: bool, const ADD: bool>(
    k: &Simd,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
) {
    let n = ins.len().min(out.len());
    let (akeep, bkeep) = (k.akeep as i16, k.bkeep as i16);
    let (lo, hi) = (k.lo as i16, k.hi as i16);
    let mut w = [[0u32; SOA]; 3];
    // The half-words of the pool: a's low and high, b's low and high.
    let mut hw = [[0u16; SOA]; 4];
    // Lanes 0-1 and lanes 2-3 of the result; with `.add`, the sum in the first.
    let mut acc = [[0u16; SOA]; 2];
    let need_c = ADD || k.keep != u32::MAX;
    for (ic, oc) in ins[..n].chunks(SOA).zip(out[..n].chunks_mut(SOA)) {
        let m = ic.len();
        words(ops, ic, &mut w, need_c);
        for (h, src) in hw.chunks_mut(2).zip(&w[..2]) {
            let [l, u] = h else { unreachable!() };
            for ((l, u), &x) in l.iter_mut().zip(u.iter_mut()).zip(&src[..m]) {
                (*l, *u) = (x as u16, (x >> 16) as u16);
            }
        }
        for a in acc.iter_mut() {
            a[..m].fill(0);
        }
        for i in 0..4 {
            if k.mask >> i & 1 == 0 {
                continue;
            }
            let (sa, sb) = (k.ash[i], k.bsh[i]);
            let (xa, xs) = (&hw[(sa / 16) as usize][..m], sa % 16);
            let (yb, ys) = (&hw[(sb / 16) as usize][..m], sb % 16);
            let (d, at) = if ADD {
                (&mut acc[0][..m], 0)
            } else {
                (&mut acc[i / 2][..m], 8 * (i as u32 % 2))
            };
            for ((d, &x), &y) in d.iter_mut().zip(xa).zip(yb) {
                let x = i16::from((x >> xs) as u8 as i8) & akeep;
                let y = i16::from((y >> ys) as u8 as i8) & bkeep;
                let r = lane_op(const { op_of(OP) }, k.cmp, x, y);
                let r = if SAT { r.max(lo).min(hi) } else { r };
                *d = if ADD {
                    d.wrapping_add(r as u16)
                } else {
                    *d | ((r as u16 & 0xff) << at)
                };
            }
        }
        let keep = k.keep;
        let [l, u] = &acc;
        for (((o, &l), &u), &c) in oc.iter_mut().zip(&l[..m]).zip(&u[..m]).zip(&w[2][..m]) {
            *o = u64::from(if ADD {
                c.wrapping_add(l as i16 as u32)
            } else {
                let d = u32::from(l) | u32::from(u) << 16;
                (d & keep) | (c & !keep)
            });
        }
    }
}

/// The batch loop without notes: [`flat_drive`] with the form's lane operation and clamp.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn simd_flat<S: Store, const OP: u8, const SAT: bool, const ADD: bool>(
    k: &Simd,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
) {
    let lb = 32 / S::N as u32;
    let (akeep, bkeep) = (S::L::of(k.akeep), S::L::of(k.bkeep));
    let (lo, hi) = (S::L::of(k.lo), S::L::of(k.hi));
    flat_drive::<S, ADD>(k, ops, ins, out, |x, y| {
        let x = S::L::lane(x.bits(), lb) & akeep;
        let y = S::L::lane(y.bits(), lb) & bkeep;
        let r = lane_op(const { op_of(OP) }, k.cmp, x, y);
        if SAT {
            r.max(lo).min(hi)
        } else {
            r
        }
    });
}

/// The batch loop without notes: the loop that suits the form. Selectors: lane by lane (each
/// lane's shift the same for every case), byte lanes in 16-bit arithmetic
/// ([`simd_soa_bytes`]), half-word lanes in 32-bit ([`simd_soa_halves`]); the default selectors: the
/// lanes side by side in their own width ([`simd_flat`]).
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn simd_plain<const N: usize, const OP: u8, const SAT: bool, const ADD: bool, const ID: bool>(
    k: &Simd,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
) {
    match (ID, N) {
        (false, 4) => simd_soa_bytes::<OP, SAT, ADD>(k, ops, ins, out),
        (false, _) => simd_soa_halves::<OP, SAT, ADD>(k, ops, ins, out),
        (true, 4) => simd_flat::<u8, OP, SAT, ADD>(k, ops, ins, out),
        (true, _) => simd_flat::<u16, OP, SAT, ADD>(k, ops, ins, out),
    }
}

/// How a batch keeps one lane of a source: `u8` for byte lanes, `u16` for half-word lanes.
#[cfg(not(target_arch = "wasm32"))]
trait Store: Copy + Default {
    /// Lanes per word.
    const N: usize;
    /// The type the lane operation computes in.
    type L: Lane;
    /// The `N` lanes of `w`, lowest first, into `d`.
    fn put(w: u32, d: &mut [Self]);
    /// The word whose lanes are `s` (`N` of them).
    fn get(s: &[Self]) -> u32;
    /// The lane's bits, zero-extended.
    fn bits(self) -> u32;
    /// The low bits of `x`.
    fn of(x: i32) -> Self;
    /// A lane's result for `.add`, plus a bias that makes every result non-negative.
    type Sum: Copy + Default;
    fn biased(x: Self::L) -> Self::Sum;
    /// The sum of a case's `N` biased results, less the biases.
    fn sum(s: &[Self::Sum]) -> i32;
}

#[cfg(not(target_arch = "wasm32"))]
impl Store for u8 {
    const N: usize = 4;
    type L = i16;
    #[inline(always)]
    fn put(w: u32, d: &mut [u8]) {
        d.copy_from_slice(&w.to_le_bytes());
    }
    #[inline(always)]
    fn get(s: &[u8]) -> u32 {
        u32::from_le_bytes([s[0], s[1], s[2], s[3]])
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn of(x: i32) -> u8 {
        x as u8
    }
    // A byte lane's result lies in [-383, 510]; biased, four of them sum below 2^16.
    type Sum = u16;
    #[inline(always)]
    fn biased(x: i16) -> u16 {
        (x + 512) as u16
    }
    #[inline(always)]
    fn sum(s: &[u16]) -> i32 {
        // The four 16-bit sums side by side in one word, added in two steps.
        let w =
            u64::from(s[0]) | u64::from(s[1]) << 16 | u64::from(s[2]) << 32 | u64::from(s[3]) << 48;
        let y = w + (w >> 32);
        ((y + (y >> 16)) & 0xffff) as i32 - 4 * 512
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Store for u16 {
    const N: usize = 2;
    type L = i32;
    #[inline(always)]
    fn put(w: u32, d: &mut [u16]) {
        d[0] = w as u16;
        d[1] = (w >> 16) as u16;
    }
    #[inline(always)]
    fn get(s: &[u16]) -> u32 {
        u32::from(s[0]) | u32::from(s[1]) << 16
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn of(x: i32) -> u16 {
        x as u16
    }
    type Sum = i32;
    #[inline(always)]
    fn biased(x: i32) -> i32 {
        x
    }
    #[inline(always)]
    fn sum(s: &[i32]) -> i32 {
        s[0].wrapping_add(s[1])
    }
}

/// The batch loop without notes of the default selectors, over chunks of cases, in three plain
/// loops the compiler vectorises across cases: the cases' lanes are laid side by side (lane `i`
/// of case `j` at `N * j + i`, as the words hold them), then `lane` maps every pair of them at
/// once (16 byte lanes or 8 half-word lanes to a 128-bit vector), then each case's lanes are
/// packed into a word and merged with `c` under the mask, or (`.add`) summed into `c`. `lane`
/// gives the lane's result after any clamp.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn flat_drive<S: Store, const ADD: bool>(
    k: &Simd,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    lane: impl Fn(S, S) -> S::L,
) {
    let n = ins.len().min(out.len());
    let nl = S::N;
    let keep = k.keep;
    // `c` is read to add to, or to fill the lanes outside the mask.
    let need_c = ADD || keep != u32::MAX;
    let mut xs = [S::default(); 4 * SOA];
    let mut ys = [S::default(); 4 * SOA];
    let mut cs = [0u32; SOA];
    let mut rs = [S::default(); 4 * SOA];
    let mut sums = [S::Sum::default(); 4 * SOA];
    // With `.add`, each lane's mask (all ones in the mask, else 0) at each lane position.
    let mut masks = [S::L::default(); 4 * SOA];
    if ADD {
        for (i, m) in masks.iter_mut().enumerate() {
            *m = S::L::of(k.in_mask[i % nl]);
        }
    }
    for (ic, oc) in ins[..n].chunks(SOA).zip(out[..n].chunks_mut(SOA)) {
        let m = ic.len();
        let mut gather = |v: [u64; 4], j: usize| {
            let (x, y) = (v[0] as u32, v[1] as u32);
            S::put(x, &mut xs[nl * j..nl * j + nl]);
            S::put(y, &mut ys[nl * j..nl * j + nl]);
            if need_c {
                cs[j] = v[2] as u32;
            }
        };
        if ops.imm {
            for (j, i) in ic.iter().enumerate() {
                gather(ops.values(i), j);
            }
        } else {
            for (j, i) in ic.iter().enumerate() {
                gather(i.as_array(), j);
            }
        }
        let (xs, ys) = (&xs[..nl * m], &ys[..nl * m]);
        if ADD {
            for (((r, &x), &y), &mk) in sums.iter_mut().zip(xs).zip(ys).zip(&masks) {
                *r = S::biased(lane(x, y) & mk);
            }
            for ((j, o), &c) in oc.iter_mut().enumerate().zip(&cs) {
                *o = u64::from(c.wrapping_add(S::sum(&sums[nl * j..nl * j + nl]) as u32));
            }
        } else {
            for ((r, &x), &y) in rs.iter_mut().zip(xs).zip(ys) {
                *r = S::of(lane(x, y).i32());
            }
            for (j, o) in oc.iter_mut().enumerate() {
                let w = S::get(&rs[nl * j..nl * j + nl]);
                *o = u64::from(if need_c {
                    (w & keep) | (cs[j] & !keep)
                } else {
                    w
                });
            }
        }
    }
}

/// `vop2` / `vop4`, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Simd {
    lanes: usize,
    /// The operation (the kernels' constant parameter stands for one, see [`op_of`]).
    kind: SimdOp,
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
    /// Lane i of the result reads lane i of `a` and of `b` (the default selectors).
    id: bool,
    /// The same, as the vectors of the x86-64 one-case entries ([`x86`]).
    #[cfg(target_arch = "x86_64")]
    v: x86::Vectors,
}

impl Simd {
    /// `op` on `n` lanes (2 or 4).
    pub(crate) fn new(insn: &Instruction, kind: SimdOp, n: usize) -> Simd {
        let lb = 32 / n as u32;
        let lmask = (1u32 << lb) - 1;
        let f = &insn.form;
        let (d_signed, a_signed, b_signed) = if kind == SimdOp::Set {
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
        let msel = insn.dst().sel.as_ref();
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
        let s = Simd {
            lanes: n,
            kind,
            cmp: CmpBits::of(f.cmp.unwrap_or(Cmp::Eq)),
            ash,
            bsh,
            akeep: if a_signed { -1 } else { lmask as i32 },
            bkeep: if b_signed { -1 } else { lmask as i32 },
            sat: f.sat && kind != SimdOp::Set,
            add: f.secop.is_some(),
            d_signed,
            lo,
            hi,
            mask,
            in_mask,
            keep,
            id: (0..n).all(|i| pa[i] == i as u32 && pb[i] == (n + i) as u32),
            #[cfg(target_arch = "x86_64")]
            v: x86::Vectors::default(),
        };
        #[cfg(target_arch = "x86_64")]
        let s = Simd {
            v: x86::Vectors::new(pa, pb, &s),
            ..s
        };
        s
    }

    // Lanes are indexed in step across several arrays, as in the evaluator.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run<T: Notes, const N: usize, L: Lane>(
        &self,
        v: &[u64; 4],
        t: &mut T,
        op: SimdOp,
        sat: bool,
        add: bool,
        id: bool,
    ) -> u64 {
        let lb = 32 / N as u32;
        let pool = ((v[1] & M32) << 32) | (v[0] & M32);
        let c = (v[2] & M32) as u32;
        let (akeep, bkeep) = (L::of(self.akeep), L::of(self.bkeep));
        let (lo, hi) = (L::of(self.lo), L::of(self.hi));
        let mut r = [L::default(); N];
        for i in 0..N {
            // With the default selectors the shifts are constants.
            let (sa, sb) = if id {
                (lb * i as u32, 32 + lb * i as u32)
            } else {
                (self.ash[i], self.bsh[i])
            };
            let x = L::lane((pool >> sa) as u32, lb) & akeep;
            let y = L::lane((pool >> sb) as u32, lb) & bkeep;
            r[i] = lane_op(op, self.cmp, x, y);
        }
        let mut res = r;
        if sat {
            for (i, x) in res.iter_mut().enumerate() {
                t.note_if(r[i] > hi, Flag::ClampedHigh);
                t.note_if(r[i] < lo, Flag::ClampedLow);
                *x = (*x).max(lo).min(hi);
            }
        }
        t.note_if(self.mask != (1 << N) - 1, Flag::MaskedOff);
        if add {
            let mut sum = c as i32;
            let mut lanes = 0i64;
            for i in 0..N {
                let x = res[i].i32() & self.in_mask[i];
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
                packed |= (x.i32() as u32 & lmask) << (lb * i as u32);
            }
            if !sat && op != SimdOp::Set {
                for (i, &x) in res.iter().enumerate() {
                    t.note_if(self.mask >> i & 1 != 0 && (x < lo || x > hi), Flag::Wrapped);
                }
            }
            u64::from((packed & self.keep) | (c & !self.keep))
        }
    }

    /// [`Simd::run`] in the lane type of `N` lanes.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run_l<T: Notes, const N: usize>(
        &self,
        v: &[u64; 4],
        t: &mut T,
        op: SimdOp,
        sat: bool,
        add: bool,
        id: bool,
    ) -> u64 {
        if N == 4 {
            self.run::<T, N, i16>(v, t, op, sat, add, id)
        } else {
            self.run::<T, N, i32>(v, t, op, sat, add, id)
        }
    }

    pub(crate) fn pick(&self) -> Fns {
        #[allow(unused_mut)]
        let mut fns = self.pick_portable();
        // One case in vector instructions where the CPU has them.
        #[cfg(target_arch = "x86_64")]
        if let Some(one) = x86::pick(self) {
            fns.one = one;
        }
        fns
    }

    /// The entries of every CPU (no feature beyond the build's baseline).
    fn pick_portable(&self) -> Fns {
        if self.lanes == 2 {
            self.pick_n::<2>()
        } else {
            self.pick_n::<4>()
        }
    }

    fn pick_n<const L: usize>(&self) -> Fns {
        let (sat, add, id) = (self.sat, self.add, self.id);
        match self.kind {
            // The SWAR forms (native builds; in wasm they take the general arms below).
            #[cfg(not(target_arch = "wasm32"))]
            SimdOp::Add | SimdOp::Sub if !add && id && self.uniform() => {
                addsub_fns::<L>(self.kind == SimdOp::Sub, sat, self.d_signed)
            }
            #[cfg(not(target_arch = "wasm32"))]
            SimdOp::Add | SimdOp::Sub if add && !sat && id => {
                lanesum_fns::<L>(self.kind == SimdOp::Sub, self.akeep == -1, self.bkeep == -1)
            }
            #[cfg(not(target_arch = "wasm32"))]
            SimdOp::Absdiff if !sat && id && self.akeep == self.bkeep => {
                absdiff_fns::<L>(add, self.akeep == -1)
            }
            #[cfg(not(target_arch = "wasm32"))]
            SimdOp::Min | SimdOp::Max if L == 4 && !add && id && self.uniform() => {
                minmax_avg_fns::<L>(self.kind, self.d_signed, sat)
            }
            #[cfg(not(target_arch = "wasm32"))]
            SimdOp::Avrg if !add && id && self.uniform() && !self.d_signed => {
                minmax_avg_fns::<L>(SimdOp::Avrg, false, sat)
            }
            SimdOp::Add => pick_o::<L, ADD>(sat, add, id),
            SimdOp::Sub => pick_o::<L, SUB>(sat, add, id),
            SimdOp::Avrg => pick_o::<L, AVRG>(sat, add, id),
            SimdOp::Absdiff => pick_o::<L, ABSDIFF>(sat, add, id),
            #[cfg(not(target_arch = "wasm32"))]
            SimdOp::Min | SimdOp::Max if L == 2 && self.uniform() => {
                pick_minmax2(self.kind == SimdOp::Max, sat, add, id, self.d_signed)
            }
            SimdOp::Min => pick_o::<L, MIN>(sat, add, id),
            SimdOp::Max => pick_o::<L, MAX>(sat, add, id),
            SimdOp::Set => pick_o::<L, SET>(sat, add, id),
        }
    }

    /// Whether `a`, `b` and `d` are all signed or all unsigned.
    #[cfg(not(target_arch = "wasm32"))]
    fn uniform(&self) -> bool {
        self.akeep == self.bkeep && (self.akeep == -1) == self.d_signed
    }
}

// SWAR forms: with the default selectors, some SIMD forms compute all lanes of a case within
// one 32-bit word. Each is a type of [`Swar`] (its `d` from `a`, `b`, `c` and the mask); one
// batch loop and one one-case entry serve them all, and the noted batch stays the general loop.

/// A SIMD form whose lanes one 32-bit word computes (SWAR).
#[cfg(not(target_arch = "wasm32"))]
trait Swar {
    /// `d` of one case from the low words of `a`, `b` and `c`; `keep`: the bits of the lanes in
    /// the mask.
    fn d(a: u32, b: u32, c: u32, keep: u32) -> u64;
}

/// `S`'s batch without notes and one-case entry, with the noted batch of `general` (its form's
/// general loop).
#[cfg(not(target_arch = "wasm32"))]
fn swar<S: Swar>(general: Fns) -> Fns {
    Fns {
        plain: swar_batch::<S>,
        one: swar_one::<S>,
        ..general
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn swar_batch<S: Swar>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    let Kernel::Simd(k) = k else { return };
    let keep = k.keep;
    super::drive4::<crate::trace::NoTrace, true>(ops, ins, out, fl, |v, _| {
        S::d(v[0] as u32, v[1] as u32, v[2] as u32, keep)
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn swar_one<S: Swar>(k: &Kernel, _: &Operands, i: &Inputs) -> u64 {
    let Kernel::Simd(k) = k else { return 0 };
    // Plan::eval has put any immediates in place.
    let v = i.as_array();
    S::d(v[0] as u32, v[1] as u32, v[2] as u32, k.keep)
}

/// The lanes `r` in the mask, the rest of `c`.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn merged(r: u32, c: u32, keep: u32) -> u64 {
    u64::from((r & keep) | (c & !keep))
}

/// The top bit of each of `L` lanes.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn tops<const L: usize>() -> u32 {
    if L == 4 {
        0x8080_8080
    } else {
        0x8000_8000
    }
}

/// All the bits of each lane whose top bit `x` has (`x` has no other bits).
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn fill<const L: usize>(x: u32) -> u32 {
    let w = 32 / L as u32;
    (x >> (w - 1)).wrapping_mul((1 << w) - 1)
}

/// `vadd2/4` / `vsub2/4` of one signedness with the default selectors and no `.add`: SWAR
/// ([`AddSubLanes`]).
#[cfg(not(target_arch = "wasm32"))]
fn addsub_fns<const L: usize>(sub: bool, sat: bool, signed: bool) -> Fns {
    macro_rules! arms {
        ($($s:literal $t:literal $g:literal),*) => {
            // Without `.sat` the lanes wrap alike whatever their signedness.
            match (sub, sat, sat && signed) {
                $(($s, $t, $g) => swar::<AddSubLanes<L, $s, $t, $g>>(if $s {
                    pick_o::<L, SUB>($t, false, true)
                } else {
                    pick_o::<L, ADD>($t, false, true)
                }),)*
                (_, false, true) => unreachable!("no signedness without .sat"),
            }
        };
    }
    arms!(false false false, false true false, false true true,
          true false false, true true false, true true true)
}

/// The lanes of a `vadd2/4` or `vsub2/4` whose sources and destination share a signedness:
/// each lane's top bit is kept out of the sum, so no carry or borrow crosses into the next
/// lane, and put back by XOR; the top bits then tell which lanes carried out (unsigned) or
/// overflowed (signed), and `.sat` sets those lanes to their bound. Merged with `c`.
#[cfg(not(target_arch = "wasm32"))]
struct AddSubLanes<const L: usize, const SUB: bool, const SAT: bool, const SIGNED: bool>;

#[cfg(not(target_arch = "wasm32"))]
impl<const L: usize, const SUB: bool, const SAT: bool, const SIGNED: bool> Swar
    for AddSubLanes<L, SUB, SAT, SIGNED>
{
    #[inline(always)]
    fn d(a: u32, b: u32, c: u32, keep: u32) -> u64 {
        let (w, h) = (32 / L as u32, tops::<L>());
        // `t`: each lane of the sum without its top bit, whose place takes the carry out of
        // the lower bits (a difference: [`lane_sub`], which also gives each lane's borrow).
        let t = (a & !h).wrapping_add(b & !h);
        let (r, borrow) = if SUB {
            lane_sub::<L, false>(a, b)
        } else {
            (t ^ ((a ^ b) & h), 0)
        };
        let r = match (SAT, SIGNED) {
            (false, _) => r,
            (true, true) => {
                // Overflow: the operands' signs (b's flipped for a difference) agree and the
                // result's differs; the bound is the maximum, or the minimum where a is
                // negative.
                let same = if SUB { a ^ b } else { !(a ^ b) };
                let over = fill::<L>(same & (a ^ r) & h);
                let bound = h
                    .wrapping_sub(h >> (w - 1))
                    .wrapping_add((a & h) >> (w - 1));
                (r & !over) | (bound & over)
            }
            (true, false) => {
                if SUB {
                    // A borrow out of the lane: the difference is below 0.
                    r & !fill::<L>(borrow)
                } else {
                    // A carry out of the lane (the top bit of a full adder, the carry in being
                    // `t`'s top bit): the sum is above the maximum.
                    r | fill::<L>(((a & b) | ((a | b) & t)) & h)
                }
            }
        };
        merged(r, c, keep)
    }
}

/// `vabsdiff2/4` without `.sat` whose sources share a signedness, with the default selectors:
/// SWAR ([`AbsDiffLanes`]).
#[cfg(not(target_arch = "wasm32"))]
fn absdiff_fns<const L: usize>(add: bool, signed: bool) -> Fns {
    macro_rules! arms {
        ($($a:literal $g:literal),*) => {
            match (add, signed) {
                $(($a, $g) => swar::<AbsDiffLanes<L, $a, $g>>(pick_o::<L, ABSDIFF>(false, $a, true)),)*
            }
        };
    }
    arms!(false false, false true, true false, true true)
}

/// Each lane's `|a - b|`: the difference `a - b` of [`lane_sub`], negated where it borrowed
/// (`a < b`) as `!d + 1`, which cannot carry out since such a `d` is not 0. Merged with `c`
/// under the mask, or (`.add`) the lanes in the mask summed into it.
#[cfg(not(target_arch = "wasm32"))]
struct AbsDiffLanes<const L: usize, const ADD: bool, const SIGNED: bool>;

#[cfg(not(target_arch = "wasm32"))]
impl<const L: usize, const ADD: bool, const SIGNED: bool> Swar for AbsDiffLanes<L, ADD, SIGNED> {
    #[inline(always)]
    fn d(a: u32, b: u32, c: u32, keep: u32) -> u64 {
        let (d, borrow) = lane_sub::<L, SIGNED>(a, b);
        let r = (d ^ fill::<L>(borrow)).wrapping_add(borrow >> (32 / L as u32 - 1));
        if ADD {
            u64::from(c.wrapping_add(lane_sum::<L, false>(r, keep)))
        } else {
            merged(r, c, keep)
        }
    }
}

/// Each lane's `a - b` (modulo the lane) and, in each lane's top bit, whether it borrowed:
/// whether `a < b`. Each lane's top bit is kept out of the difference and put back by XOR.
/// Signed lanes are offset by half their range first (top bit flipped), which keeps every
/// difference and turns their order into the unsigned one.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn lane_sub<const L: usize, const SIGNED: bool>(a: u32, b: u32) -> (u32, u32) {
    let h = tops::<L>();
    let (a, b) = if SIGNED { (a ^ h, b ^ h) } else { (a, b) };
    let d = (a | h).wrapping_sub(b & !h) ^ ((a ^ !b) & h);
    // The top bit of a full subtractor, the borrow in being `d`'s top bit there.
    (d, ((!a & b) | ((!a | b) & d)) & h)
}

/// `vadd2/4.add` and `vsub2/4.add` without `.sat`, with the default selectors: SWAR
/// ([`LaneSums`]).
#[cfg(not(target_arch = "wasm32"))]
fn lanesum_fns<const L: usize>(sub: bool, a_signed: bool, b_signed: bool) -> Fns {
    macro_rules! arms {
        ($($s:literal $x:literal $y:literal),*) => {
            match (sub, a_signed, b_signed) {
                $(($s, $x, $y) => swar::<LaneSums<L, $s, $x, $y>>(if $s {
                    pick_o::<L, SUB>(false, true, true)
                } else {
                    pick_o::<L, ADD>(false, true, true)
                }),)*
            }
        };
    }
    arms!(false false false, false false true, false true false, false true true,
          true false false, true false true, true true false, true true true)
}

/// The lanes' exact sums or differences added into `c` are the sum of `a`'s lanes plus or
/// minus the sum of `b`'s (each lane extended by its own type), over the lanes in the mask.
#[cfg(not(target_arch = "wasm32"))]
struct LaneSums<const L: usize, const SUB: bool, const SA: bool, const SB: bool>;

#[cfg(not(target_arch = "wasm32"))]
impl<const L: usize, const SUB: bool, const SA: bool, const SB: bool> Swar
    for LaneSums<L, SUB, SA, SB>
{
    #[inline(always)]
    fn d(a: u32, b: u32, c: u32, keep: u32) -> u64 {
        let (x, y) = (lane_sum::<L, SA>(a, keep), lane_sum::<L, SB>(b, keep));
        u64::from(if SUB {
            c.wrapping_add(x).wrapping_sub(y)
        } else {
            c.wrapping_add(x).wrapping_add(y)
        })
    }
}

/// The sum of the lanes of `x` that `keep` covers (whole lanes), each extended by its type,
/// modulo 2^32. A signed lane is its bits with the top one flipped, less half the lane's range.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn lane_sum<const L: usize, const SIGNED: bool>(x: u32, keep: u32) -> u32 {
    let h = tops::<L>();
    let x = if SIGNED { (x ^ h) & keep } else { x & keep };
    // Bytes in pairs into two 16-bit sums first.
    let pairs = if L == 4 {
        (x & 0x00ff_00ff) + (x >> 8 & 0x00ff_00ff)
    } else {
        x
    };
    let sum = (pairs & 0xffff) + (pairs >> 16);
    if SIGNED {
        // Half the range once for each lane in the mask: the unsigned sum of `h`'s lanes.
        sum.wrapping_sub(lane_sum::<L, false>(h, keep))
    } else {
        sum
    }
}

/// `vmin4` / `vmax4` of one signedness and unsigned `vavrg2/4`, with the default selectors and
/// no `.add`: SWAR ([`MinMaxAvgLanes`]). Each lane's result lies in the lane's range, so
/// `.sat` changes nothing.
#[cfg(not(target_arch = "wasm32"))]
fn minmax_avg_fns<const L: usize>(op: SimdOp, signed: bool, sat: bool) -> Fns {
    macro_rules! arms {
        ($($v:ident $o:ident $g:literal),*) => {
            match (op, signed) {
                $((SimdOp::$v, $g) => swar::<MinMaxAvgLanes<L, $o, $g>>(pick_o::<L, $o>(sat, false, true)),)*
                _ => unreachable!("SWAR lanes: min, max, or an unsigned average"),
            }
        };
    }
    arms!(Min MIN false, Min MIN true, Max MAX false, Max MAX true, Avrg AVRG false)
}

/// The minimum or maximum picks each lane from `a` or `b` by whether `a < b` ([`lane_sub`]'s
/// borrow); the unsigned average rounding up is `(a | b) - ((a ^ b) >> 1)` per lane, whose
/// halved bits are kept within their lane. Merged with `c` under the mask.
#[cfg(not(target_arch = "wasm32"))]
struct MinMaxAvgLanes<const L: usize, const OP: u8, const SIGNED: bool>;

#[cfg(not(target_arch = "wasm32"))]
impl<const L: usize, const OP: u8, const SIGNED: bool> Swar for MinMaxAvgLanes<L, OP, SIGNED> {
    #[inline(always)]
    fn d(a: u32, b: u32, c: u32, keep: u32) -> u64 {
        let r = if OP == AVRG {
            (a | b).wrapping_sub(((a ^ b) >> 1) & !tops::<L>())
        } else {
            let less = fill::<L>(lane_sub::<L, SIGNED>(a, b).1);
            if OP == MIN {
                (a & less) | (b & !less)
            } else {
                (b & less) | (a & !less)
            }
        };
        merged(r, c, keep)
    }
}

/// `vmin2` / `vmax2` with `a`, `b` and `d` all of one signedness: the result lane is one of
/// the source lanes, so it needs no clamp and fits 16 bits; the batch loop computes it in
/// `i16` or `u16` (a vector instruction each), `.sat` or not.
#[cfg(not(target_arch = "wasm32"))]
fn pick_minmax2(max: bool, sat: bool, add: bool, id: bool, signed: bool) -> Fns {
    let fns = pick_minmax2_any(max, sat, add, id);
    if add || !id {
        return fns;
    }
    let one: super::OneFn = match (max, signed) {
        (false, false) => minmax2_one::<u16, false>,
        (false, true) => minmax2_one::<i16, false>,
        (true, false) => minmax2_one::<u16, true>,
        (true, true) => minmax2_one::<i16, true>,
    };
    Fns { one, ..fns }
}

/// One case of a uniform `vmin2` / `vmax2` with the default selectors and no `.add`: each
/// half-word's minimum or maximum in its own type, merged with `c` under the mask.
#[cfg(not(target_arch = "wasm32"))]
fn minmax2_one<H: Half, const MX: bool>(k: &Kernel, _: &Operands, i: &Inputs) -> u64 {
    let Kernel::Simd(k) = k else { return 0 };
    // Plan::eval has put any immediates in place.
    let v = i.as_array();
    let (a, b) = (v[0] as u32, v[1] as u32);
    let half = |x: u32, y: u32| {
        let (x, y) = (H::of(x), H::of(y));
        (if MX { x.max(y) } else { x.min(y) }).ext() & 0xffff
    };
    let w = half(a, b) | half(a >> 16, b >> 16) << 16;
    u64::from((w & k.keep) | (v[2] as u32 & !k.keep))
}

#[cfg(not(target_arch = "wasm32"))]
fn pick_minmax2_any(max: bool, sat: bool, add: bool, id: bool) -> Fns {
    macro_rules! arms {
        ($($m:literal $a:literal $i:literal),*) => {
            match (max, add, id) {
                $(($m, $a, $i) => match (sat, $m) {
                    (false, false) => fns!(minmax2_batch[$m, false, $a, $i], simd_one[2, MIN, false, $a, $i]),
                    (true, false) => fns!(minmax2_batch[$m, true, $a, $i], simd_one[2, MIN, true, $a, $i]),
                    (false, true) => fns!(minmax2_batch[$m, false, $a, $i], simd_one[2, MAX, false, $a, $i]),
                    (true, true) => fns!(minmax2_batch[$m, true, $a, $i], simd_one[2, MAX, true, $a, $i]),
                },)*
            }
        };
    }
    arms!(false false false, false false true, false true false, false true true,
          true false false, true false true, true true false, true true true)
}

#[cfg(not(target_arch = "wasm32"))]
fn minmax2_batch<N: Notes, const MX: bool, const SAT: bool, const ADD: bool, const ID: bool>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Simd(k) = k {
        if N::KEEP {
            let op = if MX { SimdOp::Max } else { SimdOp::Min };
            drive::<N, true>(ops, ins, out, fl, |v, t| {
                k.run_l::<N, 2>(v, t, op, SAT, ADD, ID)
            });
        } else if ADD || !ID {
            if MX {
                simd_plain::<2, MAX, SAT, ADD, ID>(k, ops, ins, out);
            } else {
                simd_plain::<2, MIN, SAT, ADD, ID>(k, ops, ins, out);
            }
        } else if k.d_signed {
            minmax2_flat::<i16, MX>(k, ops, ins, out);
        } else {
            minmax2_flat::<u16, MX>(k, ops, ins, out);
        }
    }
}

/// A 16-bit lane type for [`minmax2_flat`].
#[cfg(not(target_arch = "wasm32"))]
trait Half: Copy + Ord {
    fn of(w: u32) -> Self;
    /// Extended to 32 bits by the type's signedness.
    fn ext(self) -> u32;
}

#[cfg(not(target_arch = "wasm32"))]
impl Half for i16 {
    #[inline(always)]
    fn of(w: u32) -> i16 {
        w as u16 as i16
    }
    #[inline(always)]
    fn ext(self) -> u32 {
        i32::from(self) as u32
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Half for u16 {
    #[inline(always)]
    fn of(w: u32) -> u16 {
        w as u16
    }
    #[inline(always)]
    fn ext(self) -> u32 {
        u32::from(self)
    }
}

/// [`simd_flat`] of a uniform `vmin2` / `vmax2` in 16-bit lanes of type `H`.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn minmax2_flat<H: Half, const MX: bool>(
    k: &Simd,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
) {
    flat_drive::<u16, false>(k, ops, ins, out, |x, y| {
        let (x, y) = (H::of(u32::from(x)), H::of(u32::from(y)));
        if MX { x.max(y) } else { x.min(y) }.ext() as i32
    });
}

/// Without vector instructions (wasm32 here) specialising on the operation, `.sat`, `.add` and
/// the selectors gains little and costs code size (the playground's wasm budget): one loop per
/// lane count reads them from the plan.
#[cfg(target_arch = "wasm32")]
fn pick_o<const L: usize, const OP: u8>(_sat: bool, _add: bool, _id: bool) -> Fns {
    fns!(simd_batch_l[L], simd_batch_l[L])
}

#[cfg(target_arch = "wasm32")]
fn simd_batch_l<N: Notes, const L: usize>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Simd(k) = k {
        drive::<N, true>(ops, ins, out, fl, |v, t| {
            k.run_l::<N, L>(v, t, k.kind, k.sat, k.add, false)
        });
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn pick_o<const L: usize, const OP: u8>(sat: bool, add: bool, id: bool) -> Fns {
    macro_rules! arms {
        ($($s:literal $a:literal $i:literal),*) => {
            match (sat, add, id) {
                $(($s, $a, $i) => fns!(
                    simd_batch[L, OP, $s, $a, $i],
                    simd_one[L, OP, $s, $a, $i]
                ),)*
            }
        };
    }
    arms!(false false false, false false true, false true false, false true true,
          true false false, true false true, true true false, true true true)
}

#[cfg(not(target_arch = "wasm32"))]
fn simd_batch<
    N: Notes,
    const L: usize,
    const OP: u8,
    const SAT: bool,
    const ADD: bool,
    const ID: bool,
>(
    k: &Kernel,
    ops: &Operands,
    ins: &[Inputs],
    out: &mut [u64],
    fl: &mut [u16],
) {
    if let Kernel::Simd(k) = k {
        if !N::KEEP {
            simd_plain::<L, OP, SAT, ADD, ID>(k, ops, ins, out);
            return;
        }
        drive::<N, true>(ops, ins, out, fl, |v, t| {
            k.run_l::<N, L>(v, t, const { op_of(OP) }, SAT, ADD, ID)
        });
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn simd_one<const L: usize, const OP: u8, const SAT: bool, const ADD: bool, const ID: bool>(
    k: &Kernel,
    ops: &Operands,
    i: &Inputs,
) -> u64 {
    match k {
        Kernel::Simd(k) => {
            // In 32-bit lanes: one case gains nothing from narrow lanes.
            super::drive_one::<true>(ops, i, |v, t| {
                k.run::<_, L, i32>(v, t, const { op_of(OP) }, SAT, ADD, ID)
            })
        }
        _ => unreachable!("picked for a SIMD kernel only"),
    }
}

/// The baseline one-case entries, which `x86` replaces on this machine.
#[cfg(all(test, target_arch = "x86_64"))]
mod tests;
