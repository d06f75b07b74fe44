//! The program rows' readers of the one instruction record: an [`Instruction`] whose row is a
//! program row (`mov`, logic, `lop3`, `shf`, `prmt`, `setp`, `cvt`, the carry chain ...) seen
//! through [`OpInsn`], which reads the row's operand rules (widths, signs, names, the carry
//! flag) for this form. Parsing is `validate::program`'s, evaluation `ops`'s.

use super::{Instruction, Operand, OperandKind};
use crate::isa::Widths;
use crate::isa::{
    ClampMode, FloatRule, HalfMode, LastSource, Mod, ModGroup, POp, ShiftDir, SignRule, Type,
    WidthRule,
};

use crate::value::mask as mask64;

/// A program instruction seen through its row: an [`Instruction`] whose row is `op`. The
/// record is the one of both tables; this view gives it the program rows' readers (widths,
/// names, signs of each position) and their evaluation. It reads every field of the record
/// through `Deref`. Made by [`Instruction::as_op`] only, so its row is always the record's.
#[derive(Clone, Copy, Debug)]
pub struct OpInsn<'a> {
    /// The program row ([`Instruction::instr`] says the same).
    pub(crate) op: POp,
    /// The instruction.
    pub(crate) insn: &'a Instruction,
}

impl<'a> OpInsn<'a> {
    /// The program row.
    pub fn op(&self) -> POp {
        self.op
    }
    /// The instruction it views.
    pub fn insn(&self) -> &'a Instruction {
        self.insn
    }
}

impl std::ops::Deref for OpInsn<'_> {
    type Target = Instruction;
    fn deref(&self) -> &Instruction {
        self.insn
    }
}

impl Instruction {
    /// The program rows' view of it, where it is one of them.
    pub fn as_op(&self) -> Option<OpInsn<'_>> {
        self.program_op().map(|op| OpInsn { op, insn: self })
    }
    /// Written `-a, -b`: the two negations, which cancel (ptxas drops them: the machine code is
    /// that without them), so only the text shows them (each source keeps its `-`).
    pub fn negated(&self) -> bool {
        self.srcs.iter().take(2).any(|o| o.neg)
    }
    /// The instruction type (for `cvt`, the destination type): the form's first.
    pub fn ty(&self) -> Type {
        self.form.ty(0)
    }
    /// The second type, where the row has one (`cvt`'s source type, `set`'s compared type,
    /// `slct`'s selector type, `cvt.pack`'s `a` and `b` type).
    pub fn src_ty(&self) -> Option<Type> {
        self.form.types[1]
    }
    /// `shf.l` (true) or `shf.r`.
    pub fn left(&self) -> bool {
        self.form.dir == Some(ShiftDir::L)
    }
    /// `mad.cc`, `madc`: `.hi` (true) or `.lo`, the half of the product added.
    pub fn hi(&self) -> bool {
        self.form.half == Some(HalfMode::Hi)
    }
}

/// `insn` reading a third source `c` (a register named `c`, kept if one is written) or none.
pub(crate) fn third_source(insn: &mut Instruction, reads: bool) {
    if !reads {
        insn.srcs.truncate(2);
    } else if insn.srcs.len() == 2 {
        insn.srcs.push(Operand::reg("c"));
    }
}

/// The carry flag's name as a register: the carry chain reads and writes it like one.
pub const CARRY_FLAG: &str = "CC.CF";

/// Whether a register `reg` bits wide serves an operand `bits` wide: the same width, or where
/// the row reads wider registers (`loose`: `cvt`, `Operands::wider`) any wider data
/// register, as ptxas decides.
pub fn width_fits(reg: u32, bits: u32, loose: bool) -> bool {
    if (reg == 1) != (bits == 1) {
        return false;
    }
    if loose {
        reg >= bits
    } else {
        reg == bits
    }
}

/// A register width in words: "a predicate", "32 bits wide".
pub fn width_name(bits: u32) -> String {
    if bits == 1 {
        "a predicate".to_string()
    } else {
        format!("{bits} bits wide")
    }
}

impl OpInsn<'_> {
    // The three readers below are the program rows' side of `Instruction::widths`, `signed`
    // and `signs`, kept out of line so that the table's side of each stays small enough to
    // be inlined into the evaluators.

    /// Whether the record has the shape its row's evaluation reads, as every record the reader
    /// gives has: its types among its row's slots, as many sources as the row's positions
    /// with the form's last source and the carry flag, one or two destinations (and the carry
    /// flag), and braces only on `mov`, with one to as many parts as its type has bits. A
    /// record built or changed by hand may not; the evaluation writes no value for one that
    /// does not ([`crate::validate()`] says what is wrong with it).
    pub fn runnable(&self) -> bool {
        let row = self.op.row();
        let pos = &row.operands;
        for (k, slot) in row.syntax.slots.iter().enumerate().take(2) {
            if !self.form.types[k].is_some_and(|t| slot.types.contains(&t)) {
                return false;
            }
        }
        let (nd, ns) = (self.dsts.len(), self.srcs.len());
        if pos.parts() {
            let parts = |n: usize| n >= 1 && n as u32 <= self.ty().bits();
            return match (self.unpack, self.pack) {
                (true, true) => false,
                (true, false) => parts(nd) && ns == 1,
                (false, true) => nd == 1 && parts(ns),
                (false, false) => nd == 1 && ns == 1,
            };
        }
        if self.unpack || self.pack {
            return false;
        }
        let has_last = match pos.last {
            LastSource::Always => true,
            LastSource::WithCombine => self.form.bool_op.is_some(),
            LastSource::WithThirdType => row.reads_third(self.ty()),
            LastSource::Optional => ns == pos.srcs.len(),
        };
        let carry_in = usize::from(self.op.carry_in());
        let carry_out = usize::from(self.form.cc);
        ns == pos.srcs.len() - usize::from(!has_last) + carry_in
            && (1 + carry_out..=2 + carry_out).contains(&nd)
    }
    /// The widths of the first destination and the first four sources.
    #[inline(never)]
    pub(crate) fn widths(&self) -> Widths {
        let mut src = [32; 4];
        for (k, s) in src.iter_mut().enumerate().take(self.srcs.len()) {
            *s = self.src_bits(k);
        }
        Widths {
            dst: self.dst_bits(0),
            src,
            sources: self.srcs.len().min(4),
        }
    }
    /// Whether operand position `p` (0 = the first destination, 1 = `a`, ...) is signed.
    #[inline(never)]
    pub(crate) fn signed(&self, p: usize) -> bool {
        match p {
            0 => self.dst_signed(0),
            _ => self.src_signed(p - 1),
        }
    }
    /// [`Self::signed`] of positions 0 to 4, as bits.
    #[inline(never)]
    pub(crate) fn signs(&self) -> u8 {
        (0..5).fold(0, |s, p| s | u8::from(self.signed(p)) << p)
    }
    /// Width in bits of destination `i` as the instruction writes it.
    pub fn dst_bits(&self, i: usize) -> u32 {
        if self.writes_carry(i) {
            return 1;
        }
        self.width_of(self.op.row().operands.dst(i).width, self.dsts.len())
    }
    /// Whether destination `i` is written as a signed value (extended by sign into a wider
    /// register).
    pub fn dst_signed(&self, i: usize) -> bool {
        !self.writes_carry(i) && self.sign_of(self.op.row().operands.dst(i).sign)
    }
    /// Whether destination `i` is the carry flag.
    pub fn writes_carry(&self, i: usize) -> bool {
        self.form.cc && i + 1 == self.dsts.len()
    }
    /// Whether source `i` is the carry flag.
    pub fn reads_carry(&self, i: usize) -> bool {
        self.op.carry_in() && i + 1 == self.srcs.len()
    }
    /// Width in bits of source `i` as the instruction reads it.
    pub fn src_bits(&self, i: usize) -> u32 {
        if self.reads_carry(i) {
            return 1;
        }
        self.width_of(self.op.row().operands.src(i).width, self.srcs.len())
    }
    /// The width an operand rule of the row gives in this form (`parts`: how many operands
    /// stand on that side, for the parts of a braced `mov`).
    pub(crate) fn width_of(&self, w: WidthRule, parts: usize) -> u32 {
        match w {
            // No program row takes `.wide`, so a wide rule is the type's width.
            WidthRule::Type | WidthRule::Wide => self.ty().bits(),
            WidthRule::Second => self.src_ty().unwrap_or(self.ty()).bits(),
            WidthRule::Bits(n) => u32::from(n),
            WidthRule::Part => self.ty().bits() / parts.max(1) as u32,
            WidthRule::Pred => 1,
        }
    }
    /// The type written in slot `i`: the instruction type (0), the second type (1).
    pub(crate) fn slot_type(&self, i: u8) -> Option<Type> {
        match i {
            0 => Some(self.ty()),
            1 => self.src_ty(),
            _ => None,
        }
    }
    /// Whether an operand rule of the row reads signed in this form.
    pub(crate) fn sign_of(&self, s: SignRule) -> bool {
        s.signed_with(|i| self.slot_type(i))
    }
    /// Name of destination `i`'s role: `d`; `p`, `q` for setp; `d0`, `d1`... for the parts of
    /// an unpacking `mov`.
    pub fn dst_name(&self, i: usize) -> String {
        let row = &self.op.row().operands;
        if self.writes_carry(i) {
            CARRY_FLAG.to_string()
        } else if self.unpack && self.dsts.len() > 1 {
            format!("{}{i}", row.dst(i).name)
        } else {
            row.dst(i).name.to_string()
        }
    }
    /// The name a reader knows destination `i` by: for the elements of an unpacking `mov`, the
    /// register written in the text (`mov.b32 {lo, hi}, a;` gives `lo` and `hi`; a sink `_`),
    /// otherwise its role ([`Self::dst_name`]).
    pub fn dst_label(&self, i: usize) -> String {
        match self.dsts.get(i) {
            Some(d) if self.unpack => d.to_string(),
            _ => self.dst_name(i),
        }
    }
    /// The registers it names in written order (destinations first), each with the width the
    /// instruction reads or writes.
    pub fn uses_written(&self) -> Vec<(String, u32)> {
        let mut out = Vec::new();
        for (i, d) in self.dsts.iter().enumerate() {
            if let Some(r) = d.reg_name() {
                out.push((r.to_string(), self.dst_bits(i)));
            }
        }
        for (i, x) in self.srcs.iter().enumerate() {
            if let Some(name) = x.reg_name() {
                out.push((name.to_string(), self.src_bits(i)));
            }
        }
        out
    }
    /// A register named twice must serve both uses, as one declaration would (ptxas's rule):
    /// the message when it cannot.
    pub fn register_conflict(&self) -> Option<String> {
        let mut seen: Vec<(String, u32)> = Vec::new();
        for (name, bits) in self.uses_written() {
            match seen.iter().find(|s| s.0 == name) {
                None => seen.push((name, bits)),
                Some(&(_, first)) => {
                    if !width_fits(first, bits, self.op.row().operands.wider) {
                        return Some(format!(
                            "{name} is used as {} and as {}: one register cannot be both",
                            width_name(first),
                            width_name(bits)
                        ));
                    }
                }
            }
        }
        None
    }
    /// Whether source `i` is read as a signed number (for display and sweeps): `cvt`'s source
    /// of a signed type; the compared, selected, moved or shifted value of a signed type.
    pub fn src_signed(&self, i: usize) -> bool {
        !self.reads_carry(i) && self.sign_of(self.op.row().operands.src(i).sign)
    }
    /// Names of the source roles, for traces.
    pub fn src_name(&self, i: usize) -> String {
        let row = &self.op.row().operands;
        if self.reads_carry(i) {
            CARRY_FLAG.into()
        } else if self.pack {
            format!("{}{i}", row.src(0).name)
        } else {
            row.src(i).name.to_string()
        }
    }

    /// The instruction with modifier group `g` set to `m` (`None`: none of the group), and
    /// the operands that come with it: a Boolean operation reads a predicate `c`, a carry out
    /// is one more destination. Not validated: the pickers ask [`crate::insn::check`] about its text.
    /// A modifier of another group than `g` changes nothing; one of `g` that the row does not
    /// take is set, and the checker refuses it.
    pub fn with_modifier(&self, g: ModGroup, m: Option<Mod>) -> Instruction {
        let mut c = self.insn.clone();
        match m {
            Some(m) if ModGroup::of(m) == g => {
                c.form.clear(g);
                c.form.set(m);
                c.mods.retain(|(x, _)| ModGroup::of(*x) != g);
                c.mods.push((m, 0..0));
            }
            Some(_) => {}
            None => {
                c.form.clear(g);
                c.mods.retain(|(x, _)| ModGroup::of(*x) != g);
            }
        }
        match g {
            // The Boolean operation reads a predicate c; without it there is none.
            ModGroup::Bool => {
                let reads = c.form.bool_op.is_some();
                third_source(&mut c, reads)
            }
            // The carry out is the last destination.
            ModGroup::Cc => {
                if self.form.cc {
                    c.dsts.pop();
                }
                if c.form.cc {
                    c.dsts.push(Operand::reg(CARRY_FLAG));
                }
            }
            _ => {}
        }
        c
    }

    /// The instruction with the type of slot `k` set to `t` (the instruction type, the
    /// second type), and the operands that come with it (`cvt.pack`'s types narrower than 16
    /// bits read a `c`, its 16-bit types none). Not validated, like [`Self::with_modifier`].
    pub fn with_type(&self, k: usize, t: Type) -> Instruction {
        let mut c = self.insn.clone();
        if k > 1 {
            return c;
        }
        c.form.types[k] = Some(t);
        let row = self.op.row();
        if k == 0 && row.operands.last == LastSource::WithThirdType {
            let third = row.third().filter(|s| s.written_with(t));
            third_source(&mut c, third.is_some());
            c.form.types[2] = third.map(|s| s.types[0]);
        }
        // The words: the types as the form now holds them, after the other modifiers.
        c.mods.retain(|(m, _)| !matches!(m, Mod::Type(_)));
        c.mods
            .extend(c.form.types.iter().flatten().map(|t| (Mod::Type(*t), 0..0)));
        c
    }

    /// Canonical text: modifiers in a fixed order, single spaces.
    pub fn canonical(&self) -> String {
        let mut s = self.op.word().to_string();
        if let Some(w) = self.op.name_word() {
            s.push('.');
            s.push_str(w);
        }
        if matches!(self.op, POp::MadCc | POp::Madc) {
            s.push_str(if self.hi() { ".hi" } else { ".lo" });
        }
        if self.form.cc {
            s.push_str(".cc");
        }
        if self.op == POp::Shf {
            s.push_str(if self.left() { ".l" } else { ".r" });
            if let Some(m) = self.form.mode {
                s.push_str(if m == ClampMode::Wrap {
                    ".wrap"
                } else {
                    ".clamp"
                });
            }
        }
        if let Some(c) = self.form.cmp {
            s.push('.');
            s.push_str(c.name());
        }
        if let Some(b) = self.form.bool_op {
            s.push('.');
            s.push_str(b.name());
        }
        if self.form.ftz {
            s.push_str(".ftz");
        }
        if self.form.sat {
            s.push_str(".sat");
        }
        s.push('.');
        s.push_str(self.ty().name());
        if let Some(t) = self.src_ty() {
            s.push('.');
            s.push_str(t.name());
        }
        // The third type, which the form does not record: there is one choice.
        let row = self.op.row();
        if let Some(t) = row
            .third()
            .and_then(|s| s.types.first())
            .filter(|_| row.reads_third(self.ty()))
        {
            s.push('.');
            s.push_str(t.name());
        }
        if let Some(m) = self.form.prmt {
            s.push('.');
            s.push_str(m.name());
        }
        // The carry flag is read and written without being named.
        let ds: Vec<String> = self
            .dsts
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.writes_carry(*i))
            .map(|(_, d)| d.to_string())
            .collect();
        let ss: Vec<String> = self
            .srcs
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.reads_carry(*i))
            .map(|(_, x)| x.to_string())
            .collect();
        let d = if self.unpack {
            format!("{{{}}}", ds.join(", "))
        } else {
            ds.join("|")
        };
        let a = if self.pack {
            format!("{{{}}}", ss.join(", "))
        } else {
            ss.join(", ")
        };
        format!("{s} {d}, {a};")
    }

    /// Whether source `i` is read as a floating-point value.
    pub fn src_is_float(&self, i: usize) -> bool {
        self.float_of(self.op.row().operands.src(i).float)
    }
    /// Whether an operand rule of the row reads a float in this form.
    pub(crate) fn float_of(&self, f: FloatRule) -> bool {
        f.float_with(|i| self.slot_type(i))
    }

    /// What source `k` reads when it is not a register, the same in every case: an
    /// immediate's or a float literal's value as read, 0 for `_`. `None` for a register (its
    /// value comes from the case) and past the last source.
    pub fn fixed_source(&self, k: usize) -> Option<u64> {
        Some(match &self.srcs.get(k)?.kind {
            OperandKind::Reg(_) => return None,
            OperandKind::Imm(v) => self.imm_value(k, *v),
            OperandKind::Float(f) => f.value(self.src_bits(k), self.src_is_float(k)),
            OperandKind::Sink => 0,
        })
    }

    /// The value immediate `v` has as source `i` reads it (non-zero is true for a predicate).
    pub fn imm_value(&self, i: usize, v: i64) -> u64 {
        let b = self.src_bits(i);
        if b == 1 {
            (v != 0) as u64
        } else {
            v as u64 & mask64(b)
        }
    }
}
