//! The reader of a program row's statement (`mov`, logic, `lop3`, `shf`, `prmt`, `setp`,
//! `cvt`, the carry chain ...): its modifiers and operands read and checked by the row's rules,
//! exactly as ptxas 13.5 does for sm_90 (PTX ISA 8.0; `tests/data/ptxas-programs.jsonl` holds
//! its decisions), into the one [`Instruction`] record. The validator names no opcode: the
//! row's type slots, modifier groups, operand positions and needs say what is accepted, and
//! `mov`'s braced parts (the kind of its operands) have rules of their own.

use crate::ast::program::{OpInsn, CARRY_FLAG};
use crate::ast::{Instruction, Operand, OperandKind, Span};
use crate::error::Diagnostic;
use crate::isa::{CarryUse, Form, LastSource, Mod, POp, PositionKind, Type, WidthRule};
use crate::scan::{Arg, Atom};
use crate::validate::{FloatLits, Slot};

fn err(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(span, msg)
}

/// The program instruction a statement (without its guard) is, if it is one of this module:
/// found from its opcode word, or with its modifiers (`add.cc`, `cvt.pack`; see
/// [`POp::of_statement`]).
pub fn statement_op(text: &str) -> Option<POp> {
    match crate::scan::Head::read(text).ok()?.instr()? {
        crate::isa::Instr::Program(p) => Some(p),
        crate::isa::Instr::Table(_) => None,
    }
}

/// Parse and validate one statement (an optional guard is not part of it; see
/// [`crate::program`]). Errors point into `text`.
pub fn parse_op(text: &str) -> Result<Instruction, Diagnostic> {
    let head = crate::scan::Head::read(text)?;
    if let Some(sp) = &head.guard_span {
        return Err(err(
            sp.clone(),
            "a guard (@p) is read with the statement by insn::check, not here",
        ));
    }
    from_head(&head)
}

/// A program instruction that names one register twice where one register cannot serve both
/// uses (`selp.b32 r, r, r, r;`: `r` as a predicate and as 32 bits), refused from its opcode to
/// its last operand. A program checks its registers across statements instead.
pub fn register_conflict(insn: &Instruction) -> Result<(), Diagnostic> {
    let Some(op) = insn.as_op() else {
        return Ok(());
    };
    match op.register_conflict() {
        None => Ok(()),
        Some(m) => {
            let end = insn
                .dsts
                .iter()
                .chain(&insn.srcs)
                .map(|o| o.span.end)
                .fold(insn.opcode_span.end, usize::max);
            Err(err(insn.opcode_span.start..end, m))
        }
    }
}

/// Check a program instruction, read from text or built or changed by hand: its canonical
/// text, read again, must give the same instruction, and one register must serve all the
/// uses it is named for ([`register_conflict`]).
pub(crate) fn check_record(insn: &Instruction) -> Result<(), Diagnostic> {
    register_conflict(insn)?;
    let mut plain = insn.clone();
    plain.guard = None;
    let text = plain.canonical();
    // The reader's message points into the text made here, so the refusal points at the
    // record's opcode and quotes the text.
    let again = parse_op(&text).map_err(|e| {
        err(
            insn.opcode_span.clone(),
            format!(
                "{} (at '{}' of its text '{text}')",
                e.message,
                text.get(e.span.clone()).unwrap_or("")
            ),
        )
    })?;
    let same = |x: &[Operand], y: &[Operand]| {
        x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|(a, b)| (&a.kind, a.neg, a.not, a.sel) == (&b.kind, b.neg, b.not, b.sel))
    };
    let (a, b) = (&again, insn);
    if a.instr == b.instr
        && a.form == b.form
        && (a.unpack, a.pack) == (b.unpack, b.pack)
        && same(&a.dsts, &b.dsts)
        && same(&a.srcs, &b.srcs)
    {
        return Ok(());
    }
    Err(err(
        b.opcode_span.clone(),
        format!("this instruction's parts do not make one ptxas reads: its text reads as '{text}'"),
    ))
}

/// A program instruction from the head the one reader read ([`crate::scan::Head::read`]):
/// its row, its modifiers and its operands, validated by the row's rules.
pub(crate) fn from_head(head: &crate::scan::Head) -> Result<Instruction, Diagnostic> {
    let text = head.text;
    let name = head.name;
    let op_span = head.name_span.clone();
    let op = match head.instr() {
        Some(crate::isa::Instr::Program(p)) => p,
        _ => {
            return Err(err(
                op_span,
                format!("'{name}' is not one of {}", program_names()),
            ))
        }
    };
    // A word of the row's name that belongs to the opcode: cvt.pack's `.pack`.
    let skip = usize::from(op.name_word().is_some());
    let mods: Vec<(Span, &str)> = crate::validate::known_words(head, skip)?
        .iter()
        .map(|w| (w.span.clone(), w.text))
        .collect();
    let name = op.name();
    let mut ops = head.operands()?;
    // `.b01`, `.b12`, `.b23` on a register: ptxas 13.5 reads the suffix and ignores it where
    // the register is 32 bits wide or a predicate, destination or source, except on `cvt`
    // (the machine code is the same as without it; `scripts/ptxas_suffixes.txt` lists the
    // forms measured, `tests/data/ptxas-programs.jsonl` the decisions). The table's loose
    // operands are the same rule. Taken off here ([`crate::isa::IGNORED_SUFFIXES`]), and the
    // width checked once the instruction is known.
    let mut loose: Vec<(bool, String, Span)> = Vec::new();
    for (k, a) in ops.iter_mut().enumerate() {
        let (Atom::Reg(name), Some(sp)) = (&a.atom, &a.suffix) else {
            continue;
        };
        let w = &text.as_bytes()[sp.start + 1..sp.end];
        let ignored = crate::isa::IGNORED_SUFFIXES
            .iter()
            .any(|[x, y]| w == [b'b', b'0' + x, b'0' + y]);
        if ignored {
            loose.push((k == 0, name.clone(), sp.clone()));
            a.suffix = None;
        }
    }
    let insn = Validator {
        text,
        op,
        name,
        guard: head.guard.clone(),
        op_span,
        mods,
        first_spaced: head.words.get(skip).is_some_and(|w| w.spaced),
        ops,
        end: text.find("//").unwrap_or(text.len()),
    }
    .run()?;
    let view = OpInsn { op, insn: &insn };
    for (dst, reg, sp) in loose {
        let fits = |bits: u32| !op.row().operands.wider && (bits == 32 || bits == 1);
        let ok = if dst {
            (0..insn.dsts.len())
                .any(|i| insn.dsts[i].reg_name() == Some(reg.as_str()) && fits(view.dst_bits(i)))
        } else {
            (0..insn.srcs.len()).any(|i| {
                insn.srcs[i].reg_name() == Some(reg.as_str())
                    && !view.reads_carry(i)
                    && fits(view.src_bits(i))
            })
        };
        if !ok {
            return Err(err(
                sp.clone(),
                format!(
                    "'{}' takes no selector on '{reg}': ptxas ignores '{}' only on a 32-bit or predicate register",
                    op.name(),
                    &text[sp]
                ),
            ));
        }
    }
    Ok(insn)
}

/// The program instructions' names in table order, as a reader's list: `mov, and, ... cvt.pack,
/// add.cc, addc, ...`.
pub fn program_names() -> String {
    POp::all().map(|o| o.name()).collect::<Vec<_>>().join(", ")
}

/// Where a float literal may stand at position `o` of `insn`: any where a float is read, and as
/// the bits of a bit-type operand of its width.
fn floats_at(insn: OpInsn, o: &crate::isa::OperandSpec) -> FloatLits {
    if insn.float_of(o.float) {
        return FloatLits::Float;
    }
    let t = match o.width {
        WidthRule::Type | WidthRule::Wide => insn.ty(),
        WidthRule::Second => insn.src_ty().unwrap_or(insn.ty()),
        WidthRule::Bits(_) | WidthRule::Part | WidthRule::Pred => return FloatLits::Bits(0),
    };
    FloatLits::Bits(if t.is_bits() { t.bits() } else { 0 })
}

struct Validator<'a> {
    /// The statement's text.
    text: &'a str,
    op: POp,
    name: &'a str,
    guard: Option<crate::ast::Guard>,
    op_span: Span,
    mods: Vec<(Span, &'a str)>,
    /// White space comes before the first modifier's dot (`shf .l`).
    first_spaced: bool,
    ops: Vec<Arg>,
    end: usize,
}

/// Types as a reader lists them: ".u8", ".u8 or .s8", ".u8, .s8 or .u4".
fn listed(types: &[Type]) -> String {
    crate::validate::listed(types.iter().map(|t| format!(".{}", t.name())))
}

impl Validator<'_> {
    fn run(self) -> Result<Instruction, Diagnostic> {
        let op = self.op;
        let row = op.row();
        // The instruction as its words set it; its types are set once they are checked.
        let mut insn = Instruction {
            guard: self.guard.clone(),
            instr: crate::isa::Instr::Program(op),
            opcode_span: self.op_span.clone(),
            mods: Vec::new(),
            // A carry link without a carry in always writes the flag.
            form: Form {
                cc: op.is_carry() && !op.carry_in(),
                ..Form::default()
            },
            dsts: Vec::new(),
            srcs: Vec::new(),
            unpack: false,
            pack: false,
        };
        // The first word written apart from the opcode (`shf .l`).
        let instr = crate::isa::Instr::Program(op);
        if let Some((sp, w)) = self.mods.first() {
            crate::validate::check_apart(instr, w, sp, self.first_spaced)?;
        }
        // Modifiers and types: the one checker of both tables, then each modifier sets its
        // field of the form, as the table's do.
        let head = self.op_span.start..self.mods.last().map_or(self.op_span.end, |m| m.0.end);
        let words = self.mods.iter().map(|(sp, w)| (*w, sp));
        let mods = crate::validate::check_mods(instr, words, &head)?;
        for (m, _) in &mods {
            insn.form.set(*m);
        }
        let types: Vec<(Type, Span)> = self
            .mods
            .iter()
            .filter_map(|(sp, w)| Type::from_name(w).map(|t| (t, sp.clone())))
            .collect();
        crate::validate::check_types(instr, &types, &head)?;
        let ty = types[0].0;
        let src_ty = (row.syntax.slots.len() > 1).then(|| types[1].0);
        insn.form.types = [Some(ty), src_ty, types.get(2).map(|t| t.0)];
        crate::validate::check_needs(instr, &mods, &types)?;
        // Every word as written, types too, as the table's instructions keep them.
        insn.mods = mods;
        insn.mods
            .extend(types.iter().map(|(t, sp)| (Mod::Type(*t), sp.clone())));
        insn.mods.sort_by_key(|(_, sp)| sp.start);
        self.operands(&mut insn)?;
        Ok(insn)
    }

    fn count(&self, n: usize, form: &str) -> Result<(), Diagnostic> {
        if self.ops.len() == n {
            return Ok(());
        }
        let sp = if self.ops.len() > n {
            self.ops[n].span.clone()
        } else {
            self.end..self.end
        };
        Err(crate::validate::operand_count(
            self.name,
            (n, n),
            form,
            self.ops.len(),
            sp,
        ))
    }

    /// The program rows' view of the instruction being read.
    fn view<'b>(&self, insn: &'b Instruction) -> OpInsn<'b> {
        OpInsn { op: self.op, insn }
    }

    /// The one shape checker's slot for position `spec` (a destination or a source).
    fn slot(&self, spec: &crate::isa::OperandSpec, dst: bool) -> Slot<'_> {
        Slot::new(
            crate::isa::Instr::Program(self.op),
            self.text,
            spec,
            dst,
            dst,
        )
    }

    /// A selector written on `a`: the program rows take none (the ignored `.b01` ... are
    /// taken off before).
    fn no_selector(&self, a: &Arg) -> Result<(), Diagnostic> {
        match &a.suffix {
            Some(sp) => Err(crate::validate::no_selector(
                crate::isa::Instr::Program(self.op),
                &self.text[sp.clone()],
                sp.clone(),
            )),
            None => Ok(()),
        }
    }

    /// A destination: its shape checked by the one checker of both tables, then a register
    /// or `_`.
    fn dst(&self, a: &Arg, slot: Slot) -> Result<Operand, Diagnostic> {
        let a = slot.shape(a)?;
        self.no_selector(a)?;
        let kind = match &a.atom {
            Atom::Reg(r) => OperandKind::Reg(r.clone()),
            Atom::Sink => OperandKind::Sink,
            _ => return Err(Slot::misplaced(a)),
        };
        Ok(Operand::new(kind, a.span.clone()))
    }

    /// A source: its shape checked by the one checker of both tables, then a register, an
    /// immediate or a float literal.
    fn src(&self, a: &Arg, slot: Slot) -> Result<Operand, Diagnostic> {
        let a = slot.shape(a)?;
        self.no_selector(a)?;
        let kind = match &a.atom {
            Atom::Reg(r) => OperandKind::Reg(r.clone()),
            Atom::Imm(v) => OperandKind::Imm(*v),
            Atom::Float(f) => OperandKind::Float(*f),
            _ => return Err(Slot::misplaced(a)),
        };
        // `-` as written, as the table's operands keep it: the caller refuses it unless it
        // is `-a, -b` (`validate::check_negated`).
        Ok(Operand {
            neg: a.neg,
            not: a.not && matches!(kind, OperandKind::Reg(_)),
            ..Operand::new(kind, a.span.clone())
        })
    }

    /// The operands, read through the row's operand positions: how many are written (the
    /// last source may come only with a Boolean operation or a third type), what each may be
    /// (a register, `_`, `p|q`, an immediate, a float literal where a float is read) and the
    /// carry flag after them.
    fn operands(&self, insn: &mut Instruction) -> Result<(), Diagnostic> {
        let row = self.op.row();
        let pos = &row.operands;
        if pos.parts() {
            // mov's braced parts: their own rules (how many, of which width, `_` where).
            return self.mov(insn);
        }
        let ops = &self.ops;
        let (nd, mut ns) = (1, pos.srcs.len());
        let has_last = match pos.last {
            LastSource::Always => true,
            LastSource::WithCombine => insn.form.bool_op.is_some(),
            LastSource::WithThirdType => row.reads_third(insn.ty()),
            // When written (no program row has it; the video instructions' `c`).
            LastSource::Optional => ops.len() == nd + pos.srcs.len(),
        };
        if !has_last {
            ns -= 1;
        }
        let form = |with_last: bool| {
            let mut names = vec![match pos.dsts.first().map(|d| d.kind) {
                Some(PositionKind::PredPair) => "p[|q]".to_string(),
                _ => pos.dsts[0].name.to_string(),
            }];
            let n = pos.srcs.len() - usize::from(!with_last);
            names.extend(pos.srcs[..n].iter().map(|o| o.name.to_string()));
            names.join(", ")
        };
        if ops.len() == nd + ns + 1 && !has_last {
            let extra = &ops[nd + ns];
            let last = pos.srcs[ns].name;
            let msg = match pos.last {
                LastSource::WithCombine => format!(
                    "a fourth operand (predicate {last}) needs a Boolean operation: {}.CMP.and/.or/.xor",
                    self.name
                ),
                _ => {
                    let (with, third) = row.third().map_or((&[][..], &[][..]), |s| (s.with, s.types));
                    format!(
                        "'{}' takes {} operands ({}), not {}: {last} is read only with {}, which take a third type ({})",
                        self.name,
                        nd + ns,
                        form(false),
                        ops.len(),
                        listed(with),
                        listed(third),
                    )
                }
            };
            return Err(err(extra.span.clone(), msg));
        }
        if let Some(b) = row.syntax.beyond.filter(|b| b.operands == Some(ops.len())) {
            return Err(err(ops[ops.len() - 1].span.clone(), b.why));
        }
        self.count(nd + ns, &form(has_last))?;
        // The width a bit-type operand has: a float literal of that width stands there too.
        let d = pos.dsts[0];
        let slot = self
            .slot(&d, true)
            .pred(self.view(insn).width_of(d.width, 1) == 1);
        let first = slot.shape(&ops[0])?;
        match &first.atom {
            Atom::Pair(p, q) => {
                let pp = self.dst(p, slot.alone())?;
                let qq = self.dst(q, slot.alone())?;
                if pp.is_sink() && qq.is_sink() {
                    return Err(err(ops[0].span.clone(), "at most one of p|q may be '_'"));
                }
                insn.dsts.push(pp);
                insn.dsts.push(qq);
            }
            _ => insn.dsts.push(self.dst(first, slot)?),
        }
        // `-` on the sources: the rule of both tables (`-a` and `-b` together, which cancel).
        let mut negated = Vec::with_capacity(ops.len() - nd);
        for (a, o) in ops[nd..].iter().zip(pos.srcs) {
            let view = self.view(insn);
            let (bits, float) = (view.width_of(o.width, 1), view.float_of(o.float));
            let slot = self
                .slot(o, false)
                .pred(bits == 1)
                .floats(floats_at(view, o))
                .negatable(true);
            negated.push(crate::validate::Negated {
                neg: a.neg,
                bits,
                float,
                name: o.name,
                at: a.span.start..a.span.start + 1,
            });
            insn.srcs.push(self.src(a, slot)?);
        }
        crate::validate::check_negated(crate::isa::Instr::Program(self.op), &negated)?;
        // The carry flag: read after the sources, written after d.
        if pos.carry == CarryUse::Reads {
            insn.srcs.push(Operand::reg(CARRY_FLAG));
        }
        if insn.form.cc {
            insn.dsts.push(Operand::reg(CARRY_FLAG));
        }
        Ok(())
    }

    fn mov(&self, insn: &mut Instruction) -> Result<(), Diagnostic> {
        let ops = &self.ops;
        self.count(2, "d, a")?;
        let pos = &self.op.row().operands;
        let part = |dst| Slot::part(crate::isa::Instr::Program(self.op), self.text, dst);
        let ty = insn.ty();
        let bw = if ty.is_bits() { ty.bits() } else { 0 };
        let is_vec = |a: &Arg| matches!(a.atom, Atom::Vector(_));
        let (dv, sv) = (is_vec(&ops[0]), is_vec(&ops[1]));
        if dv && sv {
            return Err(err(
                ops[1].span.clone(),
                "mov packs a vector into a register or splits a register into a vector, not both",
            ));
        }
        if !dv && !sv {
            let floats = if ty.is_float() {
                FloatLits::Float
            } else {
                FloatLits::Bits(bw)
            };
            let (d, a) = (pos.dst(0), pos.src(0));
            let pred = ty == Type::Pred;
            insn.dsts
                .push(self.dst(&ops[0], self.slot(&d, true).pred(pred))?);
            let slot = self
                .slot(&a, false)
                .pred(pred)
                .floats(floats)
                .negatable(true);
            insn.srcs.push(self.src(&ops[1], slot)?);
            let negated = crate::validate::Negated {
                neg: ops[1].neg,
                bits: ty.bits(),
                float: ty.is_float(),
                name: a.name,
                at: ops[1].span.start..ops[1].span.start + 1,
            };
            crate::validate::check_negated(crate::isa::Instr::Program(self.op), &[negated])?;
            return Ok(());
        }
        let vec_arg = if dv { &ops[0] } else { &ops[1] };
        let Atom::Vector(elems) = &vec_arg.atom else {
            unreachable!("checked above")
        };
        if !ty.is_bits() {
            return Err(err(
                vec_arg.span.clone(),
                format!(
                    "packing and unpacking need a bit type: mov.b{} (not .{})",
                    ty.bits(),
                    ty.name()
                ),
            )
            .allowed([".b16", ".b32", ".b64"]));
        }
        let n = elems.len() as u32;
        if !matches!(n, 1 | 2 | 4) || ty.bits() / n < 8 {
            return Err(err(
                vec_arg.span.clone(),
                format!(
                    "mov.{} packs 1, 2{} elements of {} bits, not {n}",
                    ty.name(),
                    if ty.bits() >= 32 { " or 4" } else { "" },
                    if ty.bits() >= 32 {
                        format!("{}, {} or {}", ty.bits(), ty.bits() / 2, ty.bits() / 4)
                    } else {
                        format!("{} or {}", ty.bits(), ty.bits() / 2)
                    }
                ),
            ));
        }
        if elems.iter().all(|e| matches!(e.atom, Atom::Sink)) {
            return Err(err(
                vec_arg.span.clone(),
                "every element is '_': name at least one register",
            ));
        }
        if dv {
            insn.unpack = true;
            for e in elems {
                insn.dsts.push(self.dst(e, part(true))?);
            }
            let slot = self
                .slot(&pos.src(0), false)
                .floats(FloatLits::Bits(ty.bits()));
            insn.srcs.push(self.src(&ops[1], slot)?);
        } else {
            insn.pack = true;
            insn.dsts
                .push(self.dst(&ops[0], self.slot(&pos.dst(0), true))?);
            for e in elems {
                if matches!(e.atom, Atom::Sink) {
                    // ptxas 13.5 takes a sink inside a source vector for mov.b32 only.
                    if ty != Type::B32 {
                        return Err(err(e.span.clone(), "'_' (no value) cannot be a source"));
                    }
                    insn.srcs
                        .push(Operand::new(OperandKind::Sink, e.span.clone()));
                } else {
                    insn.srcs.push(self.src(e, part(false))?);
                }
            }
        }
        Ok(())
    }
}
