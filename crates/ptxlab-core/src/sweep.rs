//! Sweeps: one instruction evaluated over a grid of values of two source fields, for a heat
//! map. Each cell keeps the value written to `d` and a mask of the notable events of its
//! evaluation (clamps, wraps, masked-off lanes, division by zero, and whether the ISA text's
//! literal reading gives another value), gathered through [`Tracer::note`](crate::trace::Tracer)
//! without building any stage.
//!
//! Every instruction sweeps the same way: [`Instruction::plan`] decodes it once, and the plan's batch
//! loop fills each row of the grid. For a program instruction (`prmt`, `setp`...) `d` is its
//! first destination (`p` for `setp`; a `_` sink reads 0).
//!
//! ```
//! use ptxlab_core::insn::check;
//! use ptxlab_core::sweep::{default_axes, sweep};
//! use ptxlab_core::trace::Flag;
//! use ptxlab_core::Inputs;
//!
//! let insn = check("vadd.u32.u32.u32.sat d.b0, a.b0, b.b0, c;").unwrap();
//! let (x, y) = default_axes(&insn);
//! let s = sweep(&insn, &Inputs::default(), &x, &y);
//! assert_eq!((s.width, s.height), (256, 256));
//! // 0xff + 0x01 saturates in the byte lane.
//! assert!(s.has(0xff, 0x01, Flag::ClampedHigh));
//! assert_eq!(s.d_at(0xff, 0x01), Some(0xff));
//!
//! // A shift's amount runs a little past the width, and is clamped there.
//! let shl = check("shl.b32 d, a, b;").unwrap();
//! let (x, y) = default_axes(&shl);
//! assert_eq!(x.label, "b (shift amount)");
//! let s = sweep(&shl, &Inputs::new(1, 0, 0, 0), &x, &y);
//! assert!(s.has(40, 0, Flag::AmountClamped));
//! ```

use serde::Serialize;

use crate::ast::{Instruction, OperandKind, SOURCE_NAMES};
use crate::eval::{self, widths, Inputs};
use crate::isa::{lanes, Family, Instr, Opcode, Role};
use crate::ops::OpInsn;
use crate::plan::Plan;
use crate::readings::Reading;
use crate::trace::Flag;

/// At most this many steps along one axis.
pub const MAX_STEPS: u32 = 1024;

/// One axis of a sweep: a bit field of one source operand and the values it takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SweepAxis {
    /// What the axis is, for display: `a.b0`, `b (shift amount)`, `lane 1 of the first operand (b.b1)`.
    pub label: String,
    /// The source operand: 0 = `a`, 1 = `b`, 2 = `c`, 3 = `e`.
    pub operand: usize,
    /// First bit of the field in the operand.
    pub lo: u32,
    /// Width of the field in bits (1 to 64).
    pub width: u32,
    /// Whether the field is read as a signed number (for labels; the default range then runs
    /// from the most negative value up).
    pub signed: bool,
    /// The field's value at step 0 (its low `width` bits count; later steps wrap within them).
    pub start: u64,
    /// Added to the field's value at each step.
    pub step: u64,
    /// Number of steps (1 to [`MAX_STEPS`]).
    pub steps: u32,
}

impl SweepAxis {
    /// An axis over the `width`-bit field at bit `lo` of operand `operand`, covering the whole
    /// field: every value for fields of 8 bits or fewer, otherwise 256 evenly spaced values
    /// from the smallest (the most negative when `signed`).
    pub fn field(
        label: impl Into<String>,
        operand: usize,
        lo: u32,
        width: u32,
        signed: bool,
    ) -> SweepAxis {
        let width = width.clamp(1, 64);
        let (step, steps) = if width <= 8 {
            (1, 1u32 << width)
        } else {
            (1u64 << (width - 8), 256)
        };
        let start = if signed { 1u64 << (width - 1) } else { 0 };
        SweepAxis {
            label: label.into(),
            operand: operand.min(3),
            lo: lo.min(63),
            width,
            signed,
            start,
            step,
            steps,
        }
    }

    /// The same field over a chosen range: `steps` values from `start`, `step` apart.
    pub fn with_range(mut self, start: u64, step: u64, steps: u32) -> SweepAxis {
        self.start = start;
        self.step = step;
        self.steps = steps;
        self
    }

    fn mask(&self) -> u64 {
        eval::mask64(self.width.clamp(1, 64))
    }

    /// Steps actually taken (within `1..=MAX_STEPS`).
    pub fn len(&self) -> u32 {
        self.steps.clamp(1, MAX_STEPS)
    }

    /// Never empty: an axis always has at least one step.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The field's bits at step `i`.
    pub fn raw(&self, i: u32) -> u64 {
        self.start
            .wrapping_add(self.step.wrapping_mul(u64::from(i)))
            & self.mask()
    }

    /// The field's value at step `i`, read signed when the axis is.
    pub fn value(&self, i: u32) -> i128 {
        let r = self.raw(i);
        if self.signed {
            i128::from(crate::eval::bits::sext(r, self.width.clamp(1, 64)))
        } else {
            i128::from(r)
        }
    }

    /// The step at which the field holds `raw` (its low `width` bits), if the axis reaches it:
    /// where the current case sits on the map.
    pub fn step_of(&self, raw: u64) -> Option<u32> {
        let m = self.mask();
        let diff = raw.wrapping_sub(self.start) & m;
        let step = self.step & m;
        let i = if step == 0 {
            (diff == 0).then_some(0)?
        } else if diff.is_multiple_of(step) {
            diff / step
        } else {
            return None;
        };
        (i < u64::from(self.len())).then_some(i as u32)
    }

    /// The raw value of this axis's field in `inputs`.
    pub fn field_of(&self, inputs: &Inputs) -> u64 {
        let v = match self.operand {
            0 => inputs.a,
            1 => inputs.b,
            2 => inputs.c,
            _ => inputs.e,
        };
        crate::eval::bits::field(v, self.lo, self.width)
    }

    /// Write step `i`'s value into the field of `inputs` (the operand's other bits are kept).
    pub fn apply(&self, inputs: &mut Inputs, i: u32) {
        let (m, v) = self.placed(i);
        let slot = self.slot(inputs);
        *slot = (*slot & !m) | v;
    }

    /// The field's mask in place and step `i`'s value in place, for writing many cases.
    fn placed(&self, i: u32) -> (u64, u64) {
        let m = self.mask().checked_shl(self.lo).unwrap_or(0);
        let v = self.raw(i).checked_shl(self.lo).unwrap_or(0);
        (m, v & m)
    }

    // Always inlined: it runs once per cell, and stays a call in the size-optimised wasm build.
    #[inline(always)]
    fn slot<'a>(&self, inputs: &'a mut Inputs) -> &'a mut u64 {
        match self.operand {
            0 => &mut inputs.a,
            1 => &mut inputs.b,
            2 => &mut inputs.c,
            _ => &mut inputs.e,
        }
    }
}

/// The result of a sweep: `width` columns (the x axis) by `height` rows (the y axis), row by row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sweep {
    /// Number of columns: steps of the x axis.
    pub width: u32,
    /// Number of rows: steps of the y axis.
    pub height: u32,
    /// Width of `d` in bits.
    pub dst_bits: u32,
    /// The value written to `d` in each cell: `d[row * width + col]`.
    pub d: Vec<u64>,
    /// Each cell's notable events, a mask of [`Flag::bit`]: clamps, wraps, masked-off lanes,
    /// division by zero, amounts limited; [`Flag::HardwareDiffersFromText`] when the ISA text's
    /// literal reading gives another value.
    pub flags: Vec<u16>,
    /// Every flag seen in some cell.
    pub flags_seen: u16,
}

impl Sweep {
    fn index(&self, col: u32, row: u32) -> Option<usize> {
        (col < self.width && row < self.height)
            .then(|| row as usize * self.width as usize + col as usize)
    }
    /// `d` at a cell.
    pub fn d_at(&self, col: u32, row: u32) -> Option<u64> {
        self.index(col, row).and_then(|i| self.d.get(i).copied())
    }
    /// The flags mask at a cell.
    pub fn flags_at(&self, col: u32, row: u32) -> Option<u16> {
        self.index(col, row)
            .and_then(|i| self.flags.get(i).copied())
    }
    /// Whether a cell has a flag.
    pub fn has(&self, col: u32, row: u32, f: Flag) -> bool {
        self.flags_at(col, row)
            .is_some_and(|m| u32::from(m) & f.bit() != 0)
    }
    /// How many cells have a flag.
    pub fn count(&self, f: Flag) -> usize {
        self.flags
            .iter()
            .filter(|&&m| u32::from(m) & f.bit() != 0)
            .count()
    }
}

/// The inputs of one cell: `base` with the x axis at step `col` and then the y axis at step
/// `row` written in (where the two fields overlap, y wins).
pub fn case_at(base: &Inputs, x: &SweepAxis, y: &SweepAxis, col: u32, row: u32) -> Inputs {
    let mut i = *base;
    x.apply(&mut i, col);
    y.apply(&mut i, row);
    i
}

/// The grid's cases a row at a time: `f(row, cases)`, the cases of the row in column order,
/// each the one [`case_at`] gives (y's field written over x's where the two overlap). x's
/// values are written once for all rows, and y's value once per row.
fn rows(base: &Inputs, x: &SweepAxis, y: &SweepAxis, mut f: impl FnMut(usize, &[Inputs])) {
    let xs: Vec<Inputs> = (0..x.len())
        .map(|col| {
            let mut i = *base;
            x.apply(&mut i, col);
            i
        })
        .collect();
    let mut row_in = xs.clone();
    for row in 0..y.len() {
        let (m, v) = y.placed(row);
        for (r, xi) in row_in.iter_mut().zip(&xs) {
            *r = *xi;
            let slot = y.slot(r);
            *slot = (*slot & !m) | v;
        }
        f(row as usize, &row_in);
    }
}

/// Evaluate `insn` over the grid of `x` by `y` (at most [`MAX_STEPS`] steps each), the other
/// bits of every operand taken from `base`, with the ISA text's reading compared in every cell.
/// Allocates the two result vectors and one row of inputs.
pub fn sweep(insn: &Instruction, base: &Inputs, x: &SweepAxis, y: &SweepAxis) -> Sweep {
    sweep_with(&insn.plan(), insn, base, x, y, true)
}

/// [`sweep`] on `insn`'s plan ([`Instruction::plan`]) made beforehand (for redrawing the same
/// instruction often). The values and notes come from the plan's batch loop, a row at a time.
/// With `text` each cell is also evaluated on the ISA text's reading (one evaluator call per
/// cell, where the two readings can differ at all) to set [`Flag::HardwareDiffersFromText`];
/// without it that flag is never set.
pub fn sweep_with(
    plan: &Plan,
    insn: &Instruction,
    base: &Inputs,
    x: &SweepAxis,
    y: &SweepAxis,
    text: bool,
) -> Sweep {
    let (w, h) = (x.len() as usize, y.len() as usize);
    let n = w * h;
    let mut d = vec![0u64; n];
    let mut flags = vec![0u16; n];
    let text = text && insn.readings_may_differ();
    let text_bit = Flag::HardwareDiffersFromText.bit() as u16;
    rows(base, x, y, |row, cases| {
        let (d, flags) = (
            &mut d[row * w..(row + 1) * w],
            &mut flags[row * w..(row + 1) * w],
        );
        plan.eval_many_flags(cases, d, flags);
        if text {
            for ((i, &v), f) in cases.iter().zip(d.iter()).zip(flags.iter_mut()) {
                if insn.value_reading(i, Reading::Text) != v {
                    *f |= text_bit;
                }
            }
        }
    });
    let seen = flags.iter().fold(0u16, |m, &f| m | f);
    Sweep {
        width: w as u32,
        height: h as u32,
        dst_bits: insn.dst_bits(0),
        d,
        flags,
        flags_seen: seen,
    }
}

fn is_reg(insn: &Instruction, i: usize) -> bool {
    insn.srcs
        .get(i)
        .is_some_and(|o| matches!(o.kind, OperandKind::Reg(_)))
}

/// An axis over a shift amount, position or length: 0 up to a little past the operand width.
fn amount(label: String, operand: usize, lo: u32, width: u32, limit: u32) -> SweepAxis {
    SweepAxis::field(label, operand, lo, width, false).with_range(0, 1, limit + 9)
}

/// Axes worth sweeping for `insn`, most useful first. Immediates are left out.
///
/// - For the video and integer instructions: the fields its selectors pick (scalar video,
///   `vmad`), each lane of each SIMD operand, the operands of integer instructions (with shift
///   amounts, positions and lengths over `0..` a little past the width).
/// - For a program instruction, from its row: a shift amount over `0..` a little past the
///   width, each selector nibble of `prmt`'s `c` (or `c & 3` in a mode), a predicate's two
///   values, and every other register source whole and by its low byte.
pub fn suggest_axes(insn: &Instruction) -> Vec<SweepAxis> {
    match insn.instr {
        Instr::Table(opcode) => table_axes(opcode, insn),
        Instr::Program(op) => program_axes(OpInsn { op, insn }),
    }
}

/// [`suggest_axes`] of a video or integer instruction, from its form and its row's roles.
fn table_axes(opcode: Opcode, insn: &Instruction) -> Vec<SweepAxis> {
    let f = &insn.form;
    let w = widths(insn);
    let mut out: Vec<SweepAxis> = Vec::new();
    match opcode.family() {
        Family::ScalarVideo | Family::Vmad => {
            let shift = |i: usize| opcode.source(i).is_some_and(|o| o.role == Role::Shift);
            for (i, src) in SOURCE_NAMES.iter().enumerate().take(2) {
                if !is_reg(insn, i) {
                    continue;
                }
                let sel = insn.srcs[i].sel.as_ref();
                let (lo, width) = lanes::scalar_part(sel);
                let name = match sel {
                    Some(s) => format!("{src}{s}"),
                    None => src.to_string(),
                };
                if shift(i) {
                    out.push(amount(format!("{name} (shift amount)"), 1, lo, width, 55));
                } else {
                    out.push(SweepAxis::field(name, i, lo, width, insn.signed(i + 1)));
                }
            }
            if is_reg(insn, 2) {
                out.push(SweepAxis::field("c", 2, 0, 32, insn.signed(3)));
            }
        }
        Family::Simd2 | Family::Simd4 => {
            let n = lanes::lane_count(opcode.family());
            let lb = lanes::lane_bits(n);
            let kind = if n == 2 { 'h' } else { 'b' };
            let (asig, bsig) = (insn.signed(1), insn.signed(2));
            let mut lanes = Vec::new();
            // Lane 0 of each operand first, then the other lanes in order.
            for lane in 0..n {
                for (which, signed) in [(0usize, asig), (1usize, bsig)] {
                    let sel = insn.srcs.get(which).and_then(|o| o.sel.as_ref());
                    let k = lanes::pool_pick(sel, which, lane, n);
                    let (op, pos) = lanes::pool_entry(k, n);
                    let ord = if which == 0 { "first" } else { "second" };
                    lanes.push(SweepAxis::field(
                        format!(
                            "lane {lane} of the {ord} operand ({}.{kind}{pos})",
                            SOURCE_NAMES[op]
                        ),
                        op,
                        lb * pos as u32,
                        lb,
                        signed,
                    ));
                }
            }
            out.extend(lanes);
            out.push(SweepAxis::field(format!("c.{kind}0"), 2, 0, lb, false));
        }
        Family::Integer => {
            let ty = f.ty(0);
            let s = ty.is_signed();
            let name = |i: usize| SOURCE_NAMES[i].to_string();
            match opcode {
                Opcode::Add | Opcode::Sub | Opcode::Min | Opcode::Max
                    if matches!(ty, crate::ast::Type::U16x2 | crate::ast::Type::S16x2) =>
                {
                    for (lane, i) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                        if is_reg(insn, i) {
                            out.push(SweepAxis::field(
                                format!("{}.h{lane}", SOURCE_NAMES[i]),
                                i,
                                16 * lane,
                                16,
                                s,
                            ));
                        }
                    }
                }
                Opcode::Dp4a | Opcode::Dp2a => {
                    let (sa, sb) = (f.ty(0).is_signed(), f.ty(1).is_signed());
                    let four = opcode == Opcode::Dp4a;
                    let (aw, an) = if four { (8, "a.b0") } else { (16, "a.h0") };
                    out.push(SweepAxis::field(an, 0, 0, aw, sa));
                    out.push(SweepAxis::field("b.b0", 1, 0, 8, sb));
                    out.push(SweepAxis::field("c", 2, 0, 32, sa || sb));
                }
                _ => {
                    // Operands that are positions, lengths or shift amounts, as the row says.
                    let role = |i: usize| opcode.source(i).map_or(Role::Value, |o| o.role);
                    let n = ty.bits();
                    for i in 0..w.sources {
                        if !is_reg(insn, i) {
                            continue;
                        }
                        if role(i).is_amount() {
                            out.push(amount(
                                format!("{} (position or length)", name(i)),
                                i,
                                0,
                                32,
                                n,
                            ));
                        } else if role(i) == Role::Offset {
                            let label = format!("{} (offset)", name(i));
                            out.push(SweepAxis::field(label, i, 0, 32, true).with_range(
                                (-40i64) as u64,
                                1,
                                81,
                            ));
                        } else if matches!(opcode, Opcode::Mul24 | Opcode::Mad24) && i < 2 {
                            out.push(SweepAxis::field(
                                format!("{} (low 24 bits)", name(i)),
                                i,
                                0,
                                24,
                                s,
                            ));
                        } else {
                            let signed = insn.signed(i + 1);
                            out.push(SweepAxis::field(name(i), i, 0, w.src[i].max(1), signed));
                        }
                    }
                }
            }
        }
        // A program instruction's axes are `program_axes`'s; no row of OPCODES has these
        // families.
        Family::Logic | Family::Move | Family::Convert | Family::Compare | Family::Carry => {}
    }
    out
}

/// [`suggest_axes`] of a program instruction, from its row.
fn program_axes(op: OpInsn) -> Vec<SweepAxis> {
    let insn = op.insn;
    let row = op.op.row();
    // The amount and selector axes come first: they are what these instructions are about.
    let (mut out, mut rest): (Vec<SweepAxis>, Vec<SweepAxis>) = (Vec::new(), Vec::new());
    for (k, name, bits) in insn.register_sources() {
        let signed = op.src_signed(k);
        // The carry flag, read after the written sources, has no position of its own.
        let role = row.operands.srcs.get(k).map_or(Role::Value, |o| o.role);
        if role == Role::Shift {
            out.push(amount(
                format!("{name} (shift amount)"),
                k,
                0,
                32,
                op.ty().bits(),
            ));
        } else if role == Role::Selector {
            if op.form.prmt.is_some() {
                out.push(SweepAxis::field(
                    format!("{name} & 3 (mode index)"),
                    k,
                    0,
                    2,
                    false,
                ));
            } else {
                for nib in 0..4 {
                    out.push(SweepAxis::field(
                        format!("{name} nibble {nib} (selector of d.b{nib})"),
                        k,
                        4 * nib,
                        4,
                        false,
                    ));
                }
            }
        } else if bits == 1 {
            rest.push(SweepAxis::field(
                format!("{name} (predicate)"),
                k,
                0,
                1,
                false,
            ));
        } else {
            rest.push(SweepAxis::field(name.clone(), k, 0, bits, signed));
            if bits > 8 {
                rest.push(SweepAxis::field(
                    format!("{name} bits 7..0"),
                    k,
                    0,
                    8,
                    false,
                ));
            }
        }
    }
    out.append(&mut rest);
    out
}

/// Two axes to start a heat map with: the first two distinct fields [`suggest_axes`] offers,
/// or, for a single source, its low byte against its top byte.
pub fn default_axes(insn: &Instruction) -> (SweepAxis, SweepAxis) {
    let all = suggest_axes(insn);
    let mut it = all.iter();
    if let Some(x) = it.next() {
        let distinct = |y: &&SweepAxis| {
            y.operand != x.operand || y.lo >= x.lo + x.width || x.lo >= y.lo + y.width
        };
        if let Some(y) = it.find(distinct) {
            return (x.clone(), y.clone());
        }
    }
    // One source (or none): its low byte against its top byte.
    let k = all.first().map_or(0, |a| a.operand);
    let bits = insn.widths().src[k.min(3)].clamp(16, 64);
    let name = insn.src_name(k);
    (
        SweepAxis::field(format!("{name} bits 7..0"), k, 0, 8, false),
        SweepAxis::field(
            format!("{name} bits {}..{}", bits - 1, bits - 8),
            k,
            bits - 8,
            8,
            insn.src_signed(k),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insn::check;
    use crate::parse;

    #[test]
    fn axis_values_cover_the_field() {
        let x = SweepAxis::field("a.b1", 0, 8, 8, false);
        assert_eq!(x.len(), 256);
        assert_eq!(x.raw(255), 255);
        let mut i = Inputs::new(0x1234_5678, 0, 0, 0);
        x.apply(&mut i, 0xab);
        assert_eq!(i.a, 0x1234_ab78);
        // Signed: from the most negative value up.
        let s = SweepAxis::field("a.h0", 0, 0, 16, true);
        assert_eq!(s.len(), 256);
        assert_eq!(s.value(0), -32768);
        assert_eq!(s.value(255), 32767 - 255);
        let w = SweepAxis::field("a", 0, 0, 64, false);
        assert_eq!(w.raw(255), 255 << 56);
    }

    #[test]
    fn cells_match_single_evaluations() {
        let insn = check("vsub.s32.s32.s32.sat d.b1, a.b0, b.b2, c;").unwrap();
        let base = Inputs::new(0, 0, 0x1234_5678, 0);
        let (x, y) = default_axes(&insn);
        assert_eq!((x.label.as_str(), y.label.as_str()), ("a.b0", "b.b2"));
        let s = sweep(&insn, &base, &x, &y);
        assert_eq!(s.d.len(), 65536);
        for (col, row) in [(0, 0), (1, 0x27), (0x80, 0x7f), (0x7f, 0x80), (255, 255)] {
            let i = case_at(&base, &x, &y, col, row);
            assert_eq!(s.d_at(col, row), Some(insn.value(&i)));
        }
        // 1 - 39 = -38: the hardware saturates a negative lane value to 0x7f; the text to 0xda.
        // The axes are signed: they start at -128.
        let (col, row) = (x.step_of(1).unwrap(), y.step_of(0x27).unwrap());
        assert_eq!((col, row), (0x81, 0xa7));
        assert!(s.has(col, row, Flag::ClampedHigh));
        assert!(s.has(col, row, Flag::HardwareDiffersFromText));
        // 3 - 1 = 2: nothing notable.
        assert_eq!(s.flags_at(0x83, 0x81), Some(0));
        assert!(s.count(Flag::HardwareDiffersFromText) > 0);
        assert!(s.d_at(256, 0).is_none());
    }

    #[test]
    fn simd_lanes_and_masks() {
        let insn = check("vadd4.u32.u32.u32 d.b20, a.b7351, b, c;").unwrap();
        let axes = suggest_axes(&insn);
        // Lane 0 of the first operand is pool entry 1 (a.b1); of the second, entry 4 (b.b0).
        assert_eq!(axes[0].label, "lane 0 of the first operand (a.b1)");
        assert_eq!((axes[0].operand, axes[0].lo), (0, 8));
        assert_eq!(axes[1].label, "lane 0 of the second operand (b.b0)");
        let (x, y) = default_axes(&insn);
        let s = sweep(&insn, &Inputs::default(), &x, &y);
        // Lanes 1 and 3 are not in the mask: every cell has a masked-off lane.
        assert_eq!(s.count(Flag::MaskedOff), 65536);
        // 0xff + 0x01 wraps in lane 0.
        assert!(s.has(0xff, 0x01, Flag::Wrapped));
        assert!(!s.has(0x01, 0x01, Flag::Wrapped));
    }

    #[test]
    fn division_by_zero_and_single_sources() {
        let insn = check("div.u16 d, a, b;").unwrap();
        let (x, y) = default_axes(&insn);
        assert_eq!((x.operand, y.operand), (0, 1));
        let s = sweep(&insn, &Inputs::default(), &x, &y);
        // Row 0 is b = 0.
        assert!((0..s.width).all(|c| s.has(c, 0, Flag::DivideByZero)));
        assert_eq!(s.count(Flag::DivideByZero), s.width as usize);
        let popc = check("popc.b32 d, a;").unwrap();
        let (x, y) = default_axes(&popc);
        assert_eq!((x.lo, y.lo), (0, 24));
        let s = sweep(&popc, &Inputs::default(), &x, &y);
        assert_eq!(s.d_at(0xff, 0xff), Some(16));
        let bfe = check("bfe.u32 d, a, b, c;").unwrap();
        let axes = suggest_axes(&bfe);
        assert_eq!(axes[1].len(), 41);
    }

    #[test]
    fn ranges_are_bounded_and_odd_axes_do_not_panic() {
        let insn = parse("vadd.u32.u32.u32 d, a, b;").unwrap();
        let x = SweepAxis::field("a", 0, 0, 32, false).with_range(0, 1, u32::MAX);
        let y = SweepAxis::field("z", 9, 200, 0, true).with_range(u64::MAX, u64::MAX, 0);
        let s = sweep(&insn, &Inputs::default(), &x, &y);
        assert_eq!((s.width, s.height), (MAX_STEPS, 1));
        let empty = parse("vadd d;").unwrap();
        let (x, y) = default_axes(&empty);
        let _ = sweep(&empty, &Inputs::default(), &x, &y);
    }

    #[test]
    fn program_instructions_sweep_from_their_rows() {
        // prmt: one axis per selector nibble, and the grid agrees with one-by-one evaluation.
        let prmt = check("prmt.b32 d, a, b, c;").unwrap();
        let axes = suggest_axes(&prmt);
        let labels: Vec<&str> = axes.iter().map(|a| a.label.as_str()).collect();
        assert!(
            labels.contains(&"c nibble 1 (selector of d.b1)"),
            "{labels:?}"
        );
        let (x, y) = default_axes(&prmt);
        assert_eq!(
            (x.label.as_str(), y.label.as_str()),
            (
                "c nibble 0 (selector of d.b0)",
                "c nibble 1 (selector of d.b1)"
            )
        );
        let nib = |k: usize| {
            axes.iter()
                .find(|a| a.label.starts_with(&format!("c nibble {k}")))
                .unwrap()
                .clone()
        };
        let base = Inputs::new(0x1122_3344, 0x8899_aabb, 0, 0);
        let s = sweep(&prmt, &base, &nib(0), &nib(1));
        assert_eq!((s.width, s.height), (16, 16));
        // nibble 0 = 0xc (byte 4's sign: 0xbb is negative), nibble 1 = 7 (byte 7 = 0x88)
        assert_eq!(
            s.d_at(0xc, 7),
            Some(0x4444_88ff),
            "nibbles 2 and 3 are 0: byte 0"
        );
        assert!(s.has(0xc, 7, Flag::SignExtended));
        assert!(!s.has(4, 7, Flag::SignExtended));
        for (col, row) in [(0, 0), (3, 9), (15, 15)] {
            let i = case_at(&base, &nib(0), &nib(1), col, row);
            assert_eq!(s.d_at(col, row), Some(prmt.value(&i)));
        }
        // Shifts: the amount runs a little past the width, clamped beyond it.
        let shl = check("shl.b32 d, a, b;").unwrap();
        let amt = suggest_axes(&shl)
            .into_iter()
            .find(|a| a.operand == 1)
            .unwrap();
        assert_eq!((amt.label.as_str(), amt.len()), ("b (shift amount)", 41));
        let s = sweep(
            &shl,
            &Inputs::new(1, 0, 0, 0),
            &amt,
            &SweepAxis::field("a", 0, 0, 1, false),
        );
        assert_eq!(s.d_at(31, 0), Some(0));
        assert_eq!(s.d_at(31, 1), Some(0x8000_0000));
        assert!(s.has(40, 1, Flag::AmountClamped));
        // setp: p over a signed grid of a and b.
        let setp = check("setp.lt.s32 p|q, a, b;").unwrap();
        let (x, y) = default_axes(&setp);
        assert!(x.signed && y.signed);
        let s = sweep(&setp, &Inputs::default(), &x, &y);
        assert_eq!(s.dst_bits, 1);
        assert_eq!(s.d_at(0, 255), Some(1), "the most negative a is below b");
        assert_eq!(s.d_at(255, 0), Some(0));
    }
}
