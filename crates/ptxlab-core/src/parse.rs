//! Reads one PTX instruction as people write it.
//!
//! The parser only checks the shape of the text (guard, opcode, known modifiers, operands,
//! selectors, immediates); whether the combination is legal is [`crate::validate()`]'s job.
//!
//! ```
//! use ptxlab_core::parse;
//!
//! let insn = parse("  vmin4.s32.u32.u32.add %r1, %r2.b0000, %r3, %r1 ;").unwrap();
//! assert_eq!(insn.srcs.len(), 3);
//! // Only the shape is checked here: an unknown opcode is refused, with its span.
//! let err = parse("vfoo.u32 d, a;").unwrap_err();
//! assert_eq!(err.span, 0..4);
//! ```

use crate::ast::{Form, Instruction, Mod, Operand, OperandKind, SelKind, Selector, Span};
use crate::error::Diagnostic;
use crate::isa::{Instr, Opcode, OperandSpec, SignRule, WidthRule};
use crate::scan::{Arg, Atom, Head};

/// Suffixes that look like selectors but are words of their own to ptxas: its parser stops at
/// them (`.b1024` is a data type name; every other `.b` with four digits 0-7 reads as a selector).
pub const RESERVED_WORDS: &[&str] = &["b1024"];

pub use crate::scan::MAX_LEN;

/// Parse one instruction of either table. Accepts an optional guard (`@p`, `@!p`), an
/// optional trailing `;` and a trailing `//` comment. A program row (`mov`, `prmt`, `setp`,
/// the carry chain ...) is checked as it is read, but for a register named for two widths; a
/// table row's combination, and that, are [`crate::validate()`]'s to judge.
pub fn parse(text: &str) -> Result<Instruction, Diagnostic> {
    from_head(&Head::read(text)?)
}

/// An instruction from the head the one reader read ([`Head::read`]): the row its words name,
/// then that row's reading of its modifiers and operands.
pub(crate) fn from_head(head: &Head) -> Result<Instruction, Diagnostic> {
    match head.instr() {
        // No row of either table: suggest from every instruction's name.
        None => Err(unknown_opcode(head, crate::isa::instr::suggest(head.name))),
        Some(Instr::Program(_)) => crate::validate::program::from_head(head),
        Some(Instr::Table(opcode)) => table_from_head(head, opcode),
    }
}

/// A row of the video and integer arithmetic table: its modifiers, and its operands given
/// their meaning.
fn table_from_head(head: &Head, opcode: Opcode) -> Result<Instruction, Diagnostic> {
    let name = head.name;
    let op_span = head.name_span.clone();
    let mut mods = Vec::new();
    for (k, w) in crate::validate::known_words(head, 0)?.iter().enumerate() {
        let m = w.text;
        let span = w.span.clone();
        // A word the table's rows do not take (`Mod::TABLE` lists those): a type (`.s8`,
        // `.b128`), refused as the type checker refuses it where it stands, and a word of the
        // program rows (`.ltu`, `.rn`, `.l`), refused as one the row does not take. So
        // `Instruction::mods` holds only words of the table.
        let instr = crate::isa::Instr::Table(opcode);
        let Some(md) = Mod::table_word(m) else {
            let Some(t) = crate::isa::Type::from_name(m) else {
                return Err(crate::validate::not_taken(instr, m, span));
            };
            let mut types: Vec<(crate::isa::Type, Span)> = mods
                .iter()
                .filter_map(|(m, s): &(Mod, Span)| match m {
                    Mod::Type(t) => Some((*t, s.clone())),
                    _ => None,
                })
                .collect();
            let k = types.len();
            types.push((t, span.clone()));
            let head = op_span.start..span.end;
            crate::validate::check_types(instr, &types, &head)?;
            return Err(crate::validate::type_refused(instr, k, t, span));
        };
        if k == 0 {
            crate::validate::check_apart(instr, m, &span, w.spaced)?;
        }
        mods.push((md, span));
    }
    let args = head.operands()?;
    if args.is_empty() {
        let at = head.operands_at;
        return Err(Diagnostic::new(
            at..at,
            format!("'{name}' needs operands: a destination and its sources"),
        ));
    }
    let mut operands = Vec::with_capacity(args.len());
    for (k, a) in args.into_iter().enumerate() {
        operands.push(operand(head.text, opcode, k, a)?);
    }
    let form = gather_form(&mods);
    let srcs = operands.split_off(1);
    let mut insn = Instruction {
        guard: head.guard.clone(),
        instr: Instr::Table(opcode),
        opcode_span: op_span,
        mods,
        form,
        dsts: operands,
        srcs,
        unpack: false,
        pack: false,
    };
    drop_ignored_suffixes(&mut insn);
    Ok(insn)
}

/// Operand `k` of a table instruction, from what was written: its shape checked by the one
/// checker of both tables ([`crate::validate::Slot`]), its selector read.
fn operand(text: &str, opcode: Opcode, k: usize, a: Arg) -> Result<Operand, Diagnostic> {
    let refuse = |sp: &Span, msg: String| Err(Diagnostic::new(sp.clone(), msg));
    let ops = opcode.operands();
    // A position past the row's last: named as the table names sources, its count refused
    // by the validator.
    let extra;
    let spec = match ops.at(k) {
        Some(s) => s,
        None => {
            let name = crate::ast::SOURCE_NAMES
                .get(k - 1)
                .copied()
                .unwrap_or("an operand");
            extra = OperandSpec::value(name, WidthRule::Type, SignRule::Unsigned);
            &extra
        }
    };
    let instr = crate::isa::Instr::Table(opcode);
    // `-` is read here and checked by the validator (which sources, how wide); immediates too.
    let slot = crate::validate::Slot::new(instr, text, spec, k == 0, k == 0)
        .negatable(true)
        .immediates(true);
    let a = slot.shape(&a)?;
    let kind = match &a.atom {
        Atom::Reg(r) => OperandKind::Reg(r.clone()),
        Atom::Imm(v) => OperandKind::Imm(*v),
        // The shape checker lets only a register or a number through at a table position.
        _ => return Err(crate::validate::Slot::misplaced(a)),
    };
    let sel = match (&kind, &a.suffix) {
        (_, None) => None,
        // ptxas reads `5.b0` as a syntax error: selectors pick parts of registers only.
        (OperandKind::Reg(_), Some(sp)) => Some(selector(&text[sp.start + 1..sp.end], sp)?),
        (_, Some(sp)) => {
            return refuse(
                sp,
                format!(
                    "'{}' cannot follow the number '{}': selectors pick parts of registers, so put the value in a register or drop the selector",
                    &text[sp.clone()],
                    &text[a.span.start..sp.start]
                ),
            )
        }
    };
    Ok(Operand {
        kind,
        neg: a.neg,
        not: false,
        sel,
        span: a.span.clone(),
    })
}

/// The selector written `.w` at `span`.
fn selector(w: &str, span: &Span) -> Result<Selector, Diagnostic> {
    let bad = || {
        Diagnostic::new(
            span.clone(),
            format!(
                "unknown selector '.{w}': write .b followed by 1 to 4 byte digits (.b0, .b3210) or .h followed by 1 or 2 half-word digits (.h1, .h10)"
            ),
        )
    };
    if RESERVED_WORDS.contains(&w) {
        return Err(Diagnostic::new(
            span.clone(),
            format!(
                "'.{w}' is a reserved word of PTX (a type name), so ptxas cannot read it as a selector"
            ),
        ));
    }
    let (kind, digits) = match w.as_bytes().first() {
        Some(b'b') => (SelKind::B, &w[1..]),
        Some(b'h') => (SelKind::H, &w[1..]),
        _ => return Err(bad()),
    };
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let ds: Vec<u8> = digits.bytes().map(|c| c - b'0').collect();
    Ok(Selector::new(kind, &ds))
}

/// ptxas accepts `.b01`, `.b12`, `.b23` on some operands and then ignores them (the machine code
/// is the same as without); drop them there so that the instruction means what ptxas runs.
fn drop_ignored_suffixes(insn: &mut Instruction) {
    let Some(opcode) = insn.opcode() else {
        return;
    };
    let keep = |insn: &Instruction, pos: usize, o: &Operand| {
        o.sel
            .filter(|s| !crate::isa::suffix_ignored(opcode, &insn.form, pos, s))
    };
    let d = keep(insn, 0, insn.dst());
    let srcs: Vec<Option<Selector>> = insn
        .srcs
        .iter()
        .enumerate()
        .map(|(i, o)| keep(insn, i + 1, o))
        .collect();
    insn.dst_mut().sel = d;
    for (o, s) in insn.srcs.iter_mut().zip(srcs) {
        o.sel = s;
    }
}

/// Gather modifiers by kind; the first of each kind wins (the validator reports repeats).
pub(crate) fn gather_form(mods: &[(Mod, Span)]) -> Form {
    Form::of(mods.iter().map(|(m, _)| *m))
}

/// The refusal of an opcode word that no row has, suggesting `names`.
fn unknown_opcode(head: &Head, names: Vec<&'static str>) -> Diagnostic {
    Diagnostic::new(
        head.name_span.clone(),
        format!("unknown opcode '{}'", head.name),
    )
    .allowed(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Type;

    #[test]
    fn parses_scalar_video() {
        let i = parse("vadd.s32.u32.s32.sat d, a.b0, b.h0;").unwrap();
        assert_eq!(i.instr, Instr::Table(Opcode::Vadd));
        assert_eq!(
            i.form.types,
            [Some(Type::S32), Some(Type::U32), Some(Type::S32)]
        );
        assert!(i.form.sat);
        assert_eq!(i.srcs.len(), 2);
        assert_eq!(i.srcs[0].sel, Some(Selector::new(SelKind::B, &[0])));
        assert_eq!(i.canonical(), "vadd.s32.u32.s32.sat d, a.b0, b.h0;");
    }

    #[test]
    fn parses_guard_registers_and_immediates() {
        let i = parse("@!p vmin4.s32.u32.u32.add %r1.b0, %r2.b0000, -0x10, 7").unwrap();
        assert!(i.guard.as_ref().unwrap().negated);
        assert_eq!(i.srcs[1].kind, OperandKind::Imm(-16));
        assert_eq!(i.srcs[2].kind, OperandKind::Imm(7));
        assert_eq!(i.dst().sel.unwrap().digits(), &[0]);
    }

    #[test]
    fn negated_register() {
        let i = parse("vmad.s32.s32.u32.sat r0, r1, r2, -r3;").unwrap();
        assert!(i.srcs[2].neg);
    }

    #[test]
    fn canonical_reorders_modifiers() {
        let i = parse("vmax.sat.s32.s32.s32 d.h0, a.h0, b.b1, c").unwrap();
        assert_eq!(i.canonical(), "vmax.s32.s32.s32.sat d.h0, a.h0, b.b1, c;");
    }

    #[test]
    fn errors_point_at_token() {
        let t = "vaddd.u32.u32.u32 d, a, b;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], "vaddd");
        assert!(e.allowed.contains(&"vadd".to_string()));
        let t = "vadd.u32.foo.u32 d, a, b;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".foo");
        let t = "vadd4.u32.u32.u32 d, a.b00000, b, c;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".b00000");
        let t = "vadd.u32.u32.u32 d, a,, b;";
        assert!(parse(t).is_err());
        assert!(parse("").is_err());
        assert!(parse("vadd.u32.u32.u32").is_err());
        assert!(parse("vadd.u32.u32.u32 d, a, b; junk").is_err());
        let t = "vadd4.u32.u32.u32 d, a.b1024, b, c;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".b1024");
        let t = "vadd.u32.u32.u32 d, 5.b0, b;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".b0");
        let t = "vmad.u32.u32.u32 d, a, -3.h1, c;";
        let e = parse(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".h1");
    }

    /// One reader for both kinds of instruction, as ptxas reads them (the decisions are in
    /// `tests/data/ptxas-spacing.jsonl`).
    #[test]
    fn words_apart_words_of_the_opcode_and_sinks() {
        let at = |t: &str, e: Diagnostic| t[e.span].to_string();
        // Words written apart, for both kinds.
        assert!(crate::check("vadd.u32 .u32 .u32 d, a, b;").is_ok());
        let and = crate::insn::check("and .b32 d, a, b;").unwrap();
        assert_eq!(and.canonical(), "and.b32 d, a, b;");
        let cc = crate::insn::check("add .u32 .cc d, a, b;").unwrap();
        assert_eq!(cc.name(), "add.cc");
        // A word that belongs to the opcode must follow it directly.
        for (t, word) in [
            ("mad .lo.u32 d, a, b, c;", ".lo"),
            ("mul .wide.u16 d, a, b;", ".wide"),
            ("dp2a .hi.u32.u32 d, a, b, c;", ".hi"),
        ] {
            let e = parse(t).unwrap_err();
            assert!(
                e.message.contains("belongs to the opcode"),
                "{t}: {}",
                e.message
            );
            assert_eq!(at(t, e), word);
        }
        let t = "shf .l.wrap.b32 d, a, b, c;";
        let e = crate::insn::check(t).unwrap_err();
        assert!(e.message.contains("(shf.l)"), "{}", e.message);
        assert_eq!(at(t, e), ".l");
        let t = "cvt .pack.sat.u8.s32.b32 d, a, b, c;";
        let e = crate::insn::check(t).unwrap_err();
        assert_eq!(at(t, e), ".pack");
        // `_` is no register of a table instruction; after `|` it drops a second result.
        for t in ["add.u32 _, a, b;", "vadd.u32.u32.u32 d, _, b;"] {
            let e = parse(t).unwrap_err();
            assert_eq!(at(t, e), "_");
        }
        assert!(crate::check("add.u32 d|_, a, b;").is_ok());
        // Literals a table instruction does not take say what they are.
        let e = parse("add.u32 d, a, 1.5;").unwrap_err();
        assert!(e.message.contains("floating-point"), "{}", e.message);
        let e = parse("add.u32 d, !a, b;").unwrap_err();
        assert!(e.message.contains("negates a predicate"), "{}", e.message);
        // Only `_` itself drops the second result.
        for t in ["add.u32 d|-_, a, b;", "add.u32 d|_.b0, a, b;"] {
            assert!(parse(t).is_err(), "{t}");
        }
        // A half-word modifier on an opcode without one is the validator's to refuse.
        let e = crate::check("add .lo.u32 d, a, b;").unwrap_err();
        assert!(
            !e.message.contains("belongs to the opcode"),
            "{}",
            e.message
        );
        // A comment ends the text, after a number too, for both kinds; a guard may have spaces.
        assert!(crate::check("add.u32 d, a, 1 // one").is_ok());
        assert!(crate::insn::check("shl.b32 d, a, 3 // x").is_ok());
        assert!(crate::insn::check("@! p and.b32 d, a, b;").is_ok());
        assert_eq!(
            parse("@ p add.u32 d, a, b;").unwrap().guard.unwrap().pred,
            "p"
        );
        // Spaces other than ASCII ones inside an expression do not break a character apart.
        for t in ["add.u32 d, a, (\u{a0}1);", "add.u32 d, a, 1\u{3000}+ 2;"] {
            let _ = crate::insn::check(t);
        }
    }
}
