//! Plans: an instruction decoded once, then evaluated over many inputs with no further decoding.
//!
//! [`crate::evaluate`] reads the instruction's form on every call: which opcode, which
//! selectors, signedness, `.sat`, the secondary operation. That is right for one case or a
//! trace. For many cases (a sweep, a batch, a conformance file) a [`Plan`] does that reading
//! once: selectors become shift counts, types become masks and clamp bounds, and the form picks
//! one kernel. [`Plan::eval_many`] chooses the kernel once per batch and runs a plain loop that
//! the compiler specialises to the form (const generics on the operation, `.sat`, the secondary
//! operation or merge, the lane count), so it can vectorise.
//!
//! A plan of a table instruction ([`Plan::new`]) gives the same value as [`crate::evaluate`],
//! and [`Plan::eval_many_flags`] the same notable events as [`crate::eval::run`] with a
//! [`FlagSet`]. Instructions that fail [`crate::validate()`] are not specialised: their plan calls
//! the evaluator (the answer is still the same, only not faster). A plan of a program
//! instruction ([`Plan::of_op`]) gives its first destination, as [`crate::Instruction::value`] does,
//! and the flags its stages carry.
//!
//! ```
//! use ptxlab_core::{check, evaluate, Inputs, Plan};
//!
//! let insn = check("vadd4.u32.u32.u32.sat d, a, b, c;").unwrap();
//! let plan = Plan::new(&insn);
//! let cases: Vec<Inputs> = (0..1000u64)
//!     .map(|i| Inputs::new(i * 0x0101_0101, 0x80c0_f0ff, 0, 0))
//!     .collect();
//! let mut d = vec![0; cases.len()];
//! plan.eval_many(&cases, &mut d);
//! for (i, c) in cases.iter().enumerate() {
//!     assert_eq!(d[i], evaluate(&insn, c));
//!     assert_eq!(plan.eval(c), d[i]);
//! }
//! ```

use crate::ast::{Instruction, OperandKind};
use crate::eval::{self, mask64, widths, Inputs};
use crate::isa::{Instr, Operation};
use crate::trace::{Flag, FlagSet, NoTrace, Tracer};

mod integer;
mod program;
mod simd;
mod video;

/// A tracer the plan's batch loops can make afresh per case and read back as a flag mask.
///
/// A kernel that runs the evaluator's own step functions gets its flags from their stages, as
/// every tracer does. A fast path that restates a step in its own arithmetic (SWAR lanes, `i64`
/// instead of `i128`) raises the same flags with [`Notes::note_if`], under the same conditions;
/// `tests/flags.rs` checks on every H100 case that the plan's flags equal the trace's.
pub(crate) trait Notes: Tracer + Copy {
    /// Whether the batch keeps the flags (false: the notes compile to nothing).
    const KEEP: bool;
    fn fresh() -> Self;
    fn bits(self) -> u16;
    /// Raise `flag` when `cond` holds (a fast path's restatement of a stage's flag).
    fn note_if(&mut self, cond: bool, flag: Flag);
}

impl Notes for NoTrace {
    const KEEP: bool = false;
    #[inline(always)]
    fn fresh() -> Self {
        NoTrace
    }
    #[inline(always)]
    fn bits(self) -> u16 {
        0
    }
    #[inline(always)]
    fn note_if(&mut self, _cond: bool, _flag: Flag) {}
}

impl Notes for FlagSet {
    const KEEP: bool = true;
    #[inline(always)]
    fn fresh() -> Self {
        FlagSet::default()
    }
    #[inline(always)]
    fn bits(self) -> u16 {
        self.bits as u16
    }
    #[inline(always)]
    fn note_if(&mut self, cond: bool, flag: Flag) {
        if cond {
            self.bits |= flag.bit();
        }
    }
}

/// How source values become the operands a kernel reads: immediates substituted, each value
/// truncated to its width. `v[i] = (input[i] & keep[i]) | fixed[i]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Operands {
    keep: [u64; 4],
    fixed: [u64; 4],
    dst: u64,
    /// Whether a source is an immediate.
    imm: bool,
}

impl Operands {
    fn of(insn: &Instruction) -> Operands {
        let w = widths(insn);
        let mut keep = [u64::MAX; 4];
        let mut fixed = [0u64; 4];
        for (i, o) in insn.srcs.iter().enumerate().take(4) {
            let m = mask64(w.src[i]);
            match o.kind {
                OperandKind::Imm(x) => {
                    keep[i] = 0;
                    fixed[i] = x as u64 & m;
                }
                // No table instruction validates with these; read as a program row reads
                // them (`_` as 0, a literal's bits).
                OperandKind::Float(f) => {
                    keep[i] = 0;
                    fixed[i] = f.value(w.src[i], false) & m;
                }
                OperandKind::Sink => keep[i] = 0,
                OperandKind::Reg(_) => keep[i] = m,
            }
        }
        Operands {
            keep,
            fixed,
            dst: mask64(w.dst),
            imm: keep.contains(&0),
        }
    }

    #[inline(always)]
    pub(crate) fn values(&self, i: &Inputs) -> [u64; 4] {
        [
            (i.a & self.keep[0]) | self.fixed[0],
            (i.b & self.keep[1]) | self.fixed[1],
            (i.c & self.keep[2]) | self.fixed[2],
            (i.e & self.keep[3]) | self.fixed[3],
        ]
    }

    /// The case `i` as the kernels read it: [`Operands::values`] as an [`Inputs`].
    #[inline(always)]
    pub(crate) fn inputs(&self, i: &Inputs) -> Inputs {
        let [a, b, c, e] = self.values(i);
        Inputs::new(a, b, c, e)
    }
}

/// A batch loop of one kernel, specialised to its form: `(kernel, operands, inputs, out, flags)`.
pub(crate) type BatchFn = fn(&Kernel, &Operands, &[Inputs], &mut [u64], &mut [u16]);

/// One case of one kernel without notes (`Plan::eval`), specialised as its [`BatchFn`].
///
/// # Safety
/// An entry may be compiled for CPU features beyond the build's baseline (SSSE3 or SSE4.1 on
/// x86-64);
/// it may be called only where the CPU has them. A kernel's `pick` chooses such an entry only
/// after detecting the features at run time.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type OneFn = unsafe fn(&Kernel, &Operands, &Inputs) -> u64;

/// A kernel's entry points: its batch loop without notes and with them, and one case.
#[derive(Clone, Copy)]
pub(crate) struct Fns {
    pub(crate) plain: BatchFn,
    pub(crate) noted: BatchFn,
    /// Native only: in wasm `Plan::eval` runs the batch loop on one case (less code).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) one: OneFn,
}

/// [`Fns`] of a kernel's batch loop `$b` (generic over the notes first) and one-case entry `$o`,
/// each with its generic arguments in brackets.
macro_rules! fns {
    ($b:ident [$($p:tt),*], $o:ident [$($q:tt),*]) => {
        $crate::plan::Fns {
            plain: $b::<$crate::trace::NoTrace, $($p),*>,
            noted: $b::<$crate::trace::FlagSet, $($p),*>,
            #[cfg(not(target_arch = "wasm32"))]
            one: $o::<$($q),*>,
        }
    };
}
pub(crate) use fns;

/// The kernel a plan runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    Scalar(video::Scalar),
    Vmad(video::Vmad),
    Simd(simd::Simd),
    Int(integer::Int),
    /// A program instruction: its own evaluation, the sources read once.
    Program(crate::isa::POp, Box<Instruction>),
    /// Not specialised (the instruction is not valid): the evaluator itself.
    Evaluator(Box<Instruction>),
}

/// An instruction decoded once for fast evaluation of many cases. See the [module](self).
#[derive(Clone)]
pub struct Plan {
    ops: Operands,
    kernel: Kernel,
    /// The kernel's loop without notes, and with them; chosen when the plan is made.
    fns: Fns,
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("ops", &self.ops)
            .field("kernel", &self.kernel)
            .finish()
    }
}

/// The batch loop of a plan that calls the evaluator.
fn evaluator_batch<N: Notes>(
    k: &Kernel,
    _ops: &Operands,
    inputs: &[Inputs],
    out: &mut [u64],
    flags: &mut [u16],
) {
    if let Kernel::Evaluator(insn) = k {
        for ((inp, o), i) in inputs.iter().zip(out.iter_mut()).zip(0..) {
            let mut t = N::fresh();
            *o = eval::run(insn, inp, &mut t);
            if N::KEEP {
                flags[i] = t.bits();
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn evaluator_one(k: &Kernel, _ops: &Operands, i: &Inputs) -> u64 {
    match k {
        Kernel::Evaluator(insn) => eval::run(insn, i, &mut NoTrace),
        _ => unreachable!("picked for the evaluator's kernel only"),
    }
}

impl Kernel {
    fn pick(&self) -> Fns {
        match self {
            Kernel::Scalar(k) => k.pick(),
            Kernel::Vmad(k) => k.pick(),
            Kernel::Simd(k) => k.pick(),
            Kernel::Int(k) => k.pick(),
            Kernel::Program(op, insn) => program::pick(crate::ops::OpInsn { op: *op, insn }),
            Kernel::Evaluator(_) => fns!(evaluator_batch[], evaluator_one[]),
        }
    }
}

impl Plan {
    /// Decode `insn` once. A valid table instruction, and a program instruction of the shape
    /// its row's evaluation reads ([`crate::ops::OpInsn::runnable`]), gets a kernel of its
    /// own; any other a plan that calls [`crate::evaluate`] (same answers, no speed-up).
    pub fn new(insn: &Instruction) -> Plan {
        let opcode = match insn.instr {
            Instr::Table(o) => o,
            Instr::Program(op) => return Plan::of_op(crate::ops::OpInsn { op, insn }),
        };
        let ops = Operands::of(insn);
        let kernel = if crate::validate(insn).is_err() {
            Kernel::Evaluator(Box::new(insn.clone()))
        } else {
            match opcode.operation() {
                Operation::Scalar(op) => Kernel::Scalar(video::Scalar::new(insn, op)),
                Operation::Vmad => Kernel::Vmad(video::Vmad::new(insn)),
                Operation::Simd2(op) => Kernel::Simd(simd::Simd::new(insn, op, 2)),
                Operation::Simd4(op) => Kernel::Simd(simd::Simd::new(insn, op, 4)),
                Operation::Int(op) => Kernel::Int(integer::Int::new(insn, op)),
            }
        };
        Plan {
            ops,
            fns: kernel.pick(),
            kernel,
        }
    }

    /// Decode a program instruction (`prmt`, `setp`, `mov`...) once: its sources are read in
    /// place for every case, and each case runs the instruction's own evaluation with the
    /// plan's notes as its tracer (what [`OpInsn::eval_quiet`] runs, without reading the
    /// sources again). The plan gives its first destination (a `_` sink reads 0) and the flags
    /// its stages carry.
    ///
    /// [`OpInsn::eval_quiet`]: crate::ops::OpInsn::eval_quiet
    pub fn of_op(op: crate::ops::OpInsn) -> Plan {
        let kernel = if op.runnable() {
            Kernel::Program(op.op(), Box::new(op.insn().clone()))
        } else {
            // A record of a shape its row's evaluation does not read (built by hand): the
            // evaluator, which writes no value for it.
            Kernel::Evaluator(Box::new(op.insn().clone()))
        };
        Plan {
            ops: program::operands(op),
            fns: kernel.pick(),
            kernel,
        }
    }

    /// Whether this plan runs a kernel decoded for its form (false: a table instruction that
    /// failed validation, whose plan calls the evaluator on every case).
    pub fn is_specialised(&self) -> bool {
        !matches!(self.kernel, Kernel::Evaluator(_))
    }

    /// Width of `d` in bits.
    pub fn dst_bits(&self) -> u32 {
        64 - self.ops.dst.leading_zeros()
    }

    /// The value written to `d` (a program instruction's first destination), zero-extended to
    /// 64 bits: the same as [`crate::evaluate`] ([`crate::Instruction::value`]).
    /// Runs the form's own code on one case.
    #[inline]
    pub fn eval(&self, inputs: &Inputs) -> u64 {
        // Immediates are put in place here, in the caller's loop (where the test is the same
        // every time), so the one-case entries read the values as they are.
        if self.ops.imm {
            return self.eval_imm(inputs);
        }
        self.one(inputs)
    }

    /// [`Plan::eval`] with immediates: out of the caller's loop body, so that the common case
    /// (registers only) falls through to the one call it makes.
    #[cold]
    #[inline(never)]
    fn eval_imm(&self, inputs: &Inputs) -> u64 {
        self.one(&self.ops.inputs(inputs))
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn one(&self, inputs: &Inputs) -> u64 {
        // SAFETY: `Kernel::pick` chose `one` for this CPU (see `OneFn`).
        unsafe { (self.fns.one)(&self.kernel, &self.ops, inputs) }
    }

    #[cfg(target_arch = "wasm32")]
    fn one(&self, inputs: &Inputs) -> u64 {
        let mut d = [0u64];
        (self.fns.plain)(
            &self.kernel,
            &self.ops,
            std::slice::from_ref(inputs),
            &mut d,
            &mut [],
        );
        d[0]
    }

    /// `d` and the notable events of one case (a mask of [`crate::trace::Flag::bit`]), as
    /// [`crate::eval::run`] with a [`FlagSet`] notes them.
    pub fn eval_flags(&self, inputs: &Inputs) -> (u64, u16) {
        let (mut d, mut f) = ([0u64], [0u16]);
        (self.fns.noted)(
            &self.kernel,
            &self.ops,
            std::slice::from_ref(inputs),
            &mut d,
            &mut f,
        );
        (d[0], f[0])
    }

    /// Evaluate every case: `out[i]` gets `d` of `inputs[i]`. The kernel is chosen once; the
    /// loop runs on the form's own code. Only `min(inputs.len(), out.len())` cases are done.
    pub fn eval_many(&self, inputs: &[Inputs], out: &mut [u64]) {
        (self.fns.plain)(&self.kernel, &self.ops, inputs, out, &mut []);
    }

    /// [`Plan::eval_many`] that also writes each case's notable events to `flags[i]` (a mask of
    /// [`crate::trace::Flag::bit`]: clamps, wraps, masked-off lanes, division by zero, amounts
    /// limited, nothing found). Only `min` of the three lengths are done.
    pub fn eval_many_flags(&self, inputs: &[Inputs], out: &mut [u64], flags: &mut [u16]) {
        let n = inputs.len().min(out.len()).min(flags.len());
        (self.fns.noted)(
            &self.kernel,
            &self.ops,
            &inputs[..n],
            &mut out[..n],
            &mut flags[..n],
        );
    }
}

/// How many cases [`drive`] puts immediates into at a time.
const CHUNK: usize = 64;

/// The batch loop every kernel shares: operands, the kernel, the destination mask, the flags.
///
/// `RAW`: the kernel reads only the bits of each source that its width keeps (it masks or
/// extends them itself) and its result fits `d`, so register values go to it as they are, with
/// no masking per case. Immediates are then put in place a chunk of cases at a time.
#[inline(always)]
pub(crate) fn drive<N: Notes, const RAW: bool>(
    ops: &Operands,
    inputs: &[Inputs],
    out: &mut [u64],
    flags: &mut [u16],
    f: impl Fn(&[u64; 4], &mut N) -> u64,
) {
    drive_by::<N, RAW, false>(ops, inputs, out, flags, f)
}

/// [`drive`] whose loop without notes takes four cases a turn (native builds): for the kernels
/// specialised to their form, short and light on registers, whose four bodies interleave. A
/// general kernel (a `match` on its form per case) or one that holds many values in registers
/// runs slower unrolled, so those keep [`drive`].
#[inline(always)]
pub(crate) fn drive4<N: Notes, const RAW: bool>(
    ops: &Operands,
    inputs: &[Inputs],
    out: &mut [u64],
    flags: &mut [u16],
    f: impl Fn(&[u64; 4], &mut N) -> u64,
) {
    drive_by::<N, RAW, { cfg!(not(target_arch = "wasm32")) }>(ops, inputs, out, flags, f)
}

#[inline(always)]
fn drive_by<N: Notes, const RAW: bool, const FOUR: bool>(
    ops: &Operands,
    inputs: &[Inputs],
    out: &mut [u64],
    flags: &mut [u16],
    f: impl Fn(&[u64; 4], &mut N) -> u64,
) {
    // In wasm every kernel takes masked operands (no chunk buffer in each loop: less code).
    if cfg!(target_arch = "wasm32") && RAW {
        return drive_by::<N, false, FOUR>(ops, inputs, out, flags, f);
    }
    let n = inputs.len().min(out.len());
    // Made only for immediates (no buffer to clear on every call otherwise).
    let mut buf: Option<[Inputs; CHUNK]> = None;
    let mut k = 0;
    while k < n {
        // One call site of the loop, so one copy of it.
        let chunk = if RAW && ops.imm {
            let m = CHUNK.min(n - k);
            let buf = buf.get_or_insert([Inputs::default(); CHUNK]);
            for (b, i) in buf.iter_mut().zip(&inputs[k..k + m]) {
                *b = ops.inputs(i);
            }
            &buf[..m]
        } else {
            &inputs[k..n]
        };
        let m = chunk.len();
        let fl = if N::KEEP {
            &mut flags[k..k + m]
        } else {
            &mut []
        };
        run_loop::<N, RAW, FOUR>(ops, chunk, &mut out[k..k + m], fl, &f);
        k += m;
    }
}

#[inline(always)]
fn run_loop<N: Notes, const RAW: bool, const FOUR: bool>(
    ops: &Operands,
    inputs: &[Inputs],
    out: &mut [u64],
    flags: &mut [u16],
    f: &impl Fn(&[u64; 4], &mut N) -> u64,
) {
    let dst = if RAW { u64::MAX } else { ops.dst };
    let vals = |i: &Inputs| if RAW { i.as_array() } else { ops.values(i) };
    if N::KEEP {
        for ((i, o), g) in inputs.iter().zip(out.iter_mut()).zip(flags.iter_mut()) {
            let mut t = N::fresh();
            *o = f(&vals(i), &mut t) & dst;
            *g = t.bits();
        }
    } else if FOUR {
        // Four cases a turn: the loop's own counting and branch are paid once for four, and the
        // four bodies, independent, interleave (the compiler does not unroll these loops itself).
        let one = |i: &Inputs, o: &mut u64| *o = f(&vals(i), &mut N::fresh()) & dst;
        let mut ic = inputs.chunks_exact(4);
        let mut oc = out.chunks_exact_mut(4);
        for (i4, o4) in (&mut ic).zip(&mut oc) {
            for (i, o) in i4.iter().zip(o4) {
                one(i, o);
            }
        }
        for (i, o) in ic.remainder().iter().zip(oc.into_remainder()) {
            one(i, o);
        }
    } else {
        for (i, o) in inputs.iter().zip(out.iter_mut()) {
            *o = f(&vals(i), &mut N::fresh()) & dst;
        }
    }
}

/// Cases per chunk of the batch loops that go lane by lane or stage by stage.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const SOA: usize = 64;

/// The low words of `a`, `b` and (if `with_c`) `c` of each case of `ins` (at most [`SOA`]),
/// immediates put in place, into `w[0]`, `w[1]` and `w[2]`.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
pub(crate) fn words(ops: &Operands, ins: &[Inputs], w: &mut [[u32; SOA]; 3], with_c: bool) {
    let [wa, wb, wc] = w;
    if ops.imm {
        let dst = wa.iter_mut().zip(wb.iter_mut()).zip(wc.iter_mut());
        for (i, ((a, b), c)) in ins.iter().zip(dst) {
            let v = ops.values(i);
            (*a, *b, *c) = (v[0] as u32, v[1] as u32, v[2] as u32);
        }
    } else {
        // SAFETY: SSE2 is part of the x86-64 baseline: every x86-64 CPU has it.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            if with_c {
                sse2::words::<true>(ins, wa, wb, wc)
            } else {
                sse2::words::<false>(ins, wa, wb, wc)
            }
        };
        #[cfg(not(target_arch = "x86_64"))]
        for (i, ((a, b), c)) in ins
            .iter()
            .zip(wa.iter_mut().zip(wb.iter_mut()).zip(wc.iter_mut()))
        {
            (*a, *b) = (i.a as u32, i.b as u32);
            if with_c {
                *c = i.c as u32;
            }
        }
    }
}

/// Batch loops' pieces in SSE2 intrinsics, for what the compiler does not find by itself.
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse2 {
    use super::{Inputs, SOA};
    use std::arch::x86_64::*;

    /// The low words of `a`, `b` and `c` of the first four cases of `i`, a vector each:
    /// 128-bit loads and shuffles instead of twelve loads of 32 bits (which is what the
    /// compiler makes of a loop over the 32-byte `Inputs`).
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(crate) fn abc4(i: &[Inputs]) -> (__m128i, __m128i, __m128i) {
        let ps = _mm_castsi128_ps;
        let ab = |i: &Inputs| ps(_mm_set_epi64x(i.b as i64, i.a as i64));
        let ce = |i: &Inputs| ps(_mm_set_epi64x(i.e as i64, i.c as i64));
        // [a0 b0 a1 b1] and [a2 b2 a3 b3]; then the a's and the b's.
        let x01 = _mm_shuffle_ps::<0b10_00_10_00>(ab(&i[0]), ab(&i[1]));
        let x23 = _mm_shuffle_ps::<0b10_00_10_00>(ab(&i[2]), ab(&i[3]));
        let c01 = _mm_shuffle_ps::<0b10_00_10_00>(ce(&i[0]), ce(&i[1]));
        let c23 = _mm_shuffle_ps::<0b10_00_10_00>(ce(&i[2]), ce(&i[3]));
        let si = _mm_castps_si128;
        (
            si(_mm_shuffle_ps::<0b10_00_10_00>(x01, x23)),
            si(_mm_shuffle_ps::<0b11_01_11_01>(x01, x23)),
            si(_mm_shuffle_ps::<0b10_00_10_00>(c01, c23)),
        )
    }

    /// [`super::words`] of register values (`c` only if `C`), four cases at a time.
    #[target_feature(enable = "sse2")]
    pub(crate) fn words<const C: bool>(
        ins: &[Inputs],
        wa: &mut [u32; SOA],
        wb: &mut [u32; SOA],
        wc: &mut [u32; SOA],
    ) {
        let n = ins.len().min(SOA);
        let four = n - n % 4;
        for (k, i) in ins[..four].chunks_exact(4).enumerate() {
            let (a, b, c) = abc4(i);
            let at = 4 * k;
            // SAFETY: `at + 4 <= four <= SOA`: each store writes four u32 inside its array.
            unsafe {
                _mm_storeu_si128(wa[at..at + 4].as_mut_ptr().cast(), a);
                _mm_storeu_si128(wb[at..at + 4].as_mut_ptr().cast(), b);
                if C {
                    _mm_storeu_si128(wc[at..at + 4].as_mut_ptr().cast(), c);
                }
            }
        }
        for (j, i) in ins[four..n].iter().enumerate() {
            let k = four + j;
            (wa[k], wb[k], wc[k]) = (i.a as u32, i.b as u32, i.c as u32);
        }
    }

    /// The four 32-bit lanes of `d`, zero-extended, into `out`.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(crate) fn put4(d: __m128i, out: &mut [u64; 4]) {
        let zero = _mm_setzero_si128();
        // SAFETY: `out` is 32 bytes: two stores of 16.
        unsafe {
            _mm_storeu_si128(out[..2].as_mut_ptr().cast(), _mm_unpacklo_epi32(d, zero));
            _mm_storeu_si128(out[2..].as_mut_ptr().cast(), _mm_unpackhi_epi32(d, zero));
        }
    }
}

/// One case without notes (`Plan::eval`, which has put any immediates in place), on the kernel
/// `f`; `RAW` as in [`drive`].
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
pub(crate) fn drive_one<const RAW: bool>(
    ops: &Operands,
    i: &Inputs,
    f: impl Fn(&[u64; 4], &mut NoTrace) -> u64,
) -> u64 {
    if RAW {
        f(&i.as_array(), &mut NoTrace)
    } else {
        f(&ops.values(i), &mut NoTrace) & ops.dst
    }
}

/// A bit field moved to the bottom and extended: `((v << sl) as i64 >> sr) & keep`, where
/// `keep` is all ones for a signed field and the field's own bits for an unsigned one (no
/// branch, so loops over it stay straight).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    sl: u32,
    sr: u32,
    keep: i64,
}

impl Field {
    /// The `width`-bit field at bit `lo` (lo + width <= 64, width >= 1).
    pub(crate) fn new(lo: u32, width: u32, signed: bool) -> Field {
        Field {
            sl: 64 - lo - width,
            sr: 64 - width,
            keep: if signed { -1 } else { mask64(width) as i64 },
        }
    }
    /// The same extension of a whole 32-bit word (constant shifts once inlined).
    #[inline(always)]
    pub(crate) fn whole(self) -> Field {
        Field {
            sl: 32,
            sr: 32,
            keep: self.keep,
        }
    }
    #[inline(always)]
    pub(crate) fn get(self, v: u64) -> i64 {
        (((v << self.sl) as i64) >> self.sr) & self.keep
    }
    /// Width of the field in bits.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn width(self) -> u32 {
        64 - self.sr
    }
    /// Whether the field is sign-extended.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn signed(self) -> bool {
        self.keep == -1
    }
    /// [`Field::get`] of a field within a 32-bit word, in 32-bit arithmetic.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub(crate) fn get32(self, v: u32) -> i32 {
        (((v << (self.sl - 32)) as i32) >> (self.sr - 32)) & self.keep as i32
    }
}

/// Branch-free comparison (one definition, the evaluator's too).
pub(crate) use crate::eval::video::CmpBits;
