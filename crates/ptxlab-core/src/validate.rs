//! Decides whether ptxas (sm_90) accepts an instruction, with a specific message when not.
//!
//! The rules themselves are data in [`crate::table`] ([`Syntax`], [`SelRule`], operand widths
//! and immediate ranges); this module walks an instruction through them in the order a reader
//! would fix things: modifiers, types, combinations, operand count, then each operand.

use crate::ast::{Instruction, Mod, Operand, OperandKind, Span, Type, SOURCE_NAMES};
use crate::error::Diagnostic;
use crate::table::{
    immediate_rule, operand_bits, selector_rules, source_counts, Family, ModGroup, SelRule, Syntax,
};

/// Check a parsed instruction the way ptxas does for sm_90.
pub fn validate(insn: &Instruction) -> Result<(), Diagnostic> {
    let syn = insn.opcode.syntax();
    check_modifiers(insn, syn)?;
    check_types(insn, syn)?;
    check_combinations(insn, syn)?;
    check_required(insn, syn)?;
    check_operand_count(insn)?;
    check_operands(insn, syn)
}

fn dotted(m: Mod) -> String {
    format!(".{}", m.name())
}

fn names<'a>(mods: impl IntoIterator<Item = &'a Mod>) -> Vec<String> {
    mods.into_iter().map(|m| dotted(*m)).collect()
}

fn type_names(ts: &[Type]) -> Vec<String> {
    ts.iter().map(|t| format!(".{}", t.name())).collect()
}

/// The span from the opcode to the end of the last modifier.
fn head_span(insn: &Instruction) -> Span {
    let end = insn
        .mods
        .last()
        .map_or(insn.opcode_span.end, |(_, s)| s.end);
    insn.opcode_span.start..end
}

fn non_type_mods(syn: &Syntax) -> Vec<String> {
    names(syn.mods)
}

/// Modifiers the opcode does not take, the `.hi/.lo/.wide` position, and repeats.
fn check_modifiers(insn: &Instruction, syn: &Syntax) -> Result<(), Diagnostic> {
    let op = insn.opcode.name();
    for (i, (m, span)) in insn.mods.iter().enumerate() {
        let group = ModGroup::of(*m);
        if group == ModGroup::Type {
            continue;
        }
        if !syn.mods.contains(m) {
            let msg = match group {
                ModGroup::Half if syn.mode_first => format!(
                    "'{}' is not a result part of '{op}'",
                    dotted(*m)
                ),
                ModGroup::Half if *m == Mod::Half(crate::ast::HalfMode::Wide) => format!(
                    "'.wide' belongs to mul and mad only; '{op}' does not take it"
                ),
                ModGroup::Half => format!(
                    "'{}' is not accepted by '{op}' (ptxas would read it as an unsigned comparison, which '{op}' has none of)",
                    dotted(*m)
                ),
                ModGroup::SecOp if insn.opcode.family() == Family::Simd2
                    || insn.opcode.family() == Family::Simd4 =>
                {
                    format!(
                        "'{}' is not a secondary operation of '{op}': SIMD video instructions only accumulate with '.add'",
                        dotted(*m)
                    )
                }
                _ => format!("'{}' does not apply to '{op}'", dotted(*m)),
            };
            let allowed = if syn.mods.is_empty() {
                vec!["no modifier besides the type".to_string()]
            } else {
                non_type_mods(syn)
            };
            return Err(Diagnostic::new(span.clone(), msg).allowed(allowed));
        }
        if group == ModGroup::Half && syn.mode_first && i != 0 {
            return Err(Diagnostic::new(
                span.clone(),
                format!(
                    "'{}' must come right after '{op}' (write {op}{}...)",
                    dotted(*m),
                    dotted(*m)
                ),
            )
            .allowed(names(syn.mods.iter().filter(|x| ModGroup::of(**x) == ModGroup::Half))));
        }
        if group.repeatable() {
            continue;
        }
        if let Some((first, _)) = insn.mods[..i]
            .iter()
            .find(|(p, _)| ModGroup::of(*p) == group)
        {
            let msg = if first == m {
                format!(
                    "'{}' is written twice; '{op}' takes one {}",
                    dotted(*m),
                    group.describe()
                )
            } else {
                format!(
                    "'{}' conflicts with '{}' written before it: '{op}' takes one {}",
                    dotted(*m),
                    dotted(*first),
                    group.describe()
                )
            };
            return Err(Diagnostic::new(span.clone(), msg).allowed(names(
                syn.mods.iter().filter(|x| ModGroup::of(**x) == group),
            )));
        }
    }
    Ok(())
}

/// Number of types and the set each position takes.
fn check_types(insn: &Instruction, syn: &Syntax) -> Result<(), Diagnostic> {
    let op = insn.opcode.name();
    let want = syn.types.len();
    let written: Vec<(Type, &Span)> = insn
        .mods
        .iter()
        .filter_map(|(m, s)| match m {
            Mod::Type(t) => Some((*t, s)),
            _ => None,
        })
        .collect();
    let pattern: String = syn.type_names.iter().map(|n| format!(".{n}")).collect();
    if written.len() > want {
        let (t, span) = written[want];
        return Err(Diagnostic::new(
            span.clone(),
            format!(
                "'{op}' takes {want} type{} ({pattern}); '.{}' is one too many",
                if want == 1 { "" } else { "s" },
                t.name()
            ),
        )
        .allowed(vec![format!("{op}{pattern} with {}", describe_sets(syn))]));
    }
    for (i, (t, span)) in written.iter().enumerate() {
        let set = syn.types[i];
        if !set.contains(t) {
            let what = syn.type_names.get(i).copied().unwrap_or("type");
            return Err(Diagnostic::new(
                (*span).clone(),
                format!("'.{}' is not a {what} of '{op}'", t.name()),
            )
            .allowed(type_names(set)));
        }
    }
    if written.len() < want {
        let missing = syn.type_names.get(written.len()).copied().unwrap_or("type");
        let msg = if written.is_empty() {
            format!("'{op}' needs {want} type{} ({pattern})", if want == 1 { "" } else { "s" })
        } else {
            format!(
                "'{op}' needs {want} types ({pattern}) but {} given: the {missing} is missing",
                written.len()
            )
        };
        return Err(Diagnostic::new(head_span(insn), msg).allowed(type_names(syn.types[written.len()])));
    }
    Ok(())
}

fn describe_sets(syn: &Syntax) -> String {
    syn.type_names
        .iter()
        .zip(syn.types)
        .map(|(n, set)| format!("{n} in {{{}}}", type_names(set).join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

fn find_mod(insn: &Instruction, m: Mod) -> Option<&Span> {
    insn.mods.iter().find(|(x, _)| *x == m).map(|(_, s)| s)
}

fn first_type_span(insn: &Instruction) -> Span {
    insn.mods
        .iter()
        .find(|(m, _)| matches!(m, Mod::Type(_)))
        .map_or(head_span(insn), |(_, s)| s.clone())
}

/// Modifiers that exclude each other, need each other, or narrow the types.
fn check_combinations(insn: &Instruction, syn: &Syntax) -> Result<(), Diagnostic> {
    let op = insn.opcode.name();
    for (a, b) in syn.excludes {
        if let (Some(sa), Some(sb)) = (find_mod(insn, *a), find_mod(insn, *b)) {
            let later = if sa.start > sb.start { sa } else { sb };
            let why = if insn.opcode.is_video() {
                " (saturation applies to the lanes, which .add sums into c)"
            } else {
                ""
            };
            return Err(Diagnostic::new(
                later.clone(),
                format!(
                    "'{}' and '{}' cannot be combined on '{op}'{why}",
                    dotted(*a),
                    dotted(*b)
                ),
            ));
        }
    }
    for (a, b) in syn.requires {
        if let Some(sa) = find_mod(insn, *a) {
            if find_mod(insn, *b).is_none() {
                return Err(Diagnostic::new(
                    sa.clone(),
                    format!(
                        "'{}' on '{op}' needs '{}' (it applies only to {op}{}{})",
                        dotted(*a),
                        dotted(*b),
                        dotted(*b),
                        dotted(*a)
                    ),
                ));
            }
        }
    }
    let ty = insn.form.types[0];
    for (m, set) in syn.narrow {
        if let (Some(sm), Some(t)) = (find_mod(insn, *m), ty) {
            if !set.contains(&t) {
                let _ = sm;
                return Err(Diagnostic::new(
                    first_type_span(insn),
                    format!(
                        "'{}' on '{op}' does not work with '.{}'",
                        dotted(*m),
                        t.name()
                    ),
                )
                .allowed(type_names(set)));
            }
        }
    }
    // Scalar video: a secondary operation and a destination part both use c.
    if insn.opcode.family() == Family::ScalarVideo {
        if let (Some(sel), Some(sec)) = (insn.dst.sel, insn.form.secop) {
            let span = sel_span(&insn.dst);
            return Err(Diagnostic::new(
                span,
                format!(
                    "'{sel}' on d writes a part of d merged with c, which cannot go together with the secondary operation '.{}'",
                    Mod::SecOp(sec).name()
                ),
            )
            .allowed(["drop the selector on d", "drop the secondary operation"]));
        }
    }
    Ok(())
}

fn check_required(insn: &Instruction, syn: &Syntax) -> Result<(), Diagnostic> {
    let Some(group) = syn.required else {
        return Ok(());
    };
    if insn.mods.iter().any(|(m, _)| ModGroup::of(*m) == group) {
        return Ok(());
    }
    let op = insn.opcode.name();
    let choices = names(syn.mods.iter().filter(|m| ModGroup::of(**m) == group));
    let msg = if syn.mode_first {
        format!(
            "'{op}' needs its result part right after the opcode ({})",
            choices
                .iter()
                .map(|c| format!("{op}{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        format!("'{op}' needs a {}", group.describe())
    };
    Err(Diagnostic::new(head_span(insn), msg).allowed(choices))
}

fn check_operand_count(insn: &Instruction) -> Result<(), Diagnostic> {
    let op = insn.opcode.name();
    let n = insn.srcs.len();
    let (lo, hi) = source_counts(insn.opcode);
    let needs_c = insn.opcode.family() == Family::ScalarVideo
        && (insn.form.secop.is_some() || insn.dst.sel.is_some());
    let lo = if needs_c { 3 } else { lo };
    let roles = |k: usize| -> String {
        std::iter::once("d")
            .chain(SOURCE_NAMES.iter().copied().take(k))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if n > hi {
        return Err(Diagnostic::new(
            insn.srcs[hi].span.clone(),
            format!(
                "'{op}' takes {} operands ({}); this one is extra",
                hi + 1,
                roles(hi)
            ),
        ));
    }
    if n < lo {
        let at = insn.srcs.last().map_or(insn.dst.span.clone(), |o| o.span.clone());
        let msg = if needs_c && n == 2 {
            if let Some(sec) = insn.form.secop {
                format!(
                    "the secondary operation '.{}' needs a third source c",
                    Mod::SecOp(sec).name()
                )
            } else {
                "a selector on d merges the result into c, so a third source c is needed; without c, d takes no selector".to_string()
            }
        } else {
            format!(
                "'{op}' needs {} operands ({}), {} given",
                lo + 1,
                roles(lo),
                n + 1
            )
        };
        let span = if needs_c && n == 2 && insn.form.secop.is_none() {
            sel_span(&insn.dst)
        } else {
            at.end..at.end
        };
        return Err(Diagnostic::new(span, msg));
    }
    Ok(())
}

/// The span of an operand's selector (the whole operand when it has none).
fn sel_span(o: &Operand) -> Span {
    match o.sel {
        Some(s) => {
            let len = 2 + s.len as usize;
            o.span.end.saturating_sub(len).max(o.span.start)..o.span.end
        }
        None => o.span.clone(),
    }
}

fn neg_span(o: &Operand) -> Span {
    o.span.start..o.span.start + 1
}

fn role(i: usize) -> &'static str {
    if i == 0 {
        "d"
    } else {
        SOURCE_NAMES.get(i - 1).copied().unwrap_or("operand")
    }
}

fn check_operands(insn: &Instruction, syn: &Syntax) -> Result<(), Diagnostic> {
    let op = insn.opcode.name();
    let merge = insn.form.secop.is_none() && insn.srcs.len() == 3;
    let sels = selector_rules(insn.opcode, merge);
    let bits = operand_bits(insn);

    // The destination: a register, not negated.
    let d = &insn.dst;
    if let OperandKind::Imm(_) = d.kind {
        return Err(Diagnostic::new(
            d.span.clone(),
            format!("the destination of '{op}' must be a register, not a number"),
        ));
    }
    if d.neg {
        return Err(Diagnostic::new(
            neg_span(d),
            "the destination cannot be negated; drop the '-'",
        ));
    }
    check_selector(insn, d, 0, sels[0])?;

    for (i, o) in insn.srcs.iter().enumerate() {
        let pos = i + 1;
        match o.kind {
            OperandKind::Imm(v) => match immediate_rule(insn, i) {
                None => {
                    let why = if insn.opcode.is_video() {
                        "SIMD video sources must be registers (their lanes are picked by selectors)"
                    } else {
                        "packed .u16x2/.s16x2 operands must be registers"
                    };
                    return Err(Diagnostic::new(
                        o.span.clone(),
                        format!("{} of '{op}' cannot be a number: {why}", role(pos)),
                    ));
                }
                Some(Some((lo, hi))) if v < lo || v > hi => {
                    return Err(Diagnostic::new(
                        o.span.clone(),
                        format!(
                            "{} of '{op}' is a bit position or length: an immediate there must be in {lo}..{hi}, not {v}",
                            role(pos)
                        ),
                    )
                    .allowed([format!("{lo}..{hi}"), "a register".to_string()]));
                }
                _ => {}
            },
            OperandKind::Reg(_) => {}
        }
        check_selector(insn, o, pos, sels.get(pos).copied().unwrap_or(SelRule::None))?;
    }
    check_negation(insn, syn, &bits)
}

fn check_selector(insn: &Instruction, o: &Operand, pos: usize, rule: SelRule) -> Result<(), Diagnostic> {
    let Some(sel) = o.sel else {
        return Ok(());
    };
    if rule.accepts(&sel) {
        return Ok(());
    }
    let op = insn.opcode.name();
    let span = sel_span(o);
    let r = role(pos);
    let msg = match (insn.opcode.family(), rule) {
        (Family::Integer, _) => {
            format!("'{sel}': selectors belong to video instructions; '{op}' takes none")
        }
        (_, SelRule::None) if pos == 0 && insn.opcode.family() == Family::Vmad => {
            format!("'{sel}': vmad always writes all of d; d takes no selector")
        }
        (_, SelRule::None) if pos == 0 => format!(
            "'{sel}' on d needs a third source c to merge into (and no secondary operation)"
        ),
        (_, SelRule::None) => format!("'{sel}': {r} of '{op}' takes no selector"),
        (_, SelRule::Scalar) => format!(
            "'{sel}' is not a selector of {r} for '{op}': it picks one byte (.b0-.b3) or half-word (.h0, .h1)"
        ),
        (_, SelRule::Lanes2) => format!(
            "'{sel}' is not a lane selector of {r} for '{op}': write .h and two half-word numbers 0-3 (0, 1 from a; 2, 3 from b)"
        ),
        (_, SelRule::Lanes4) => format!(
            "'{sel}' is not a lane selector of {r} for '{op}': write .b and four byte numbers 0-7 (0-3 from a; 4-7 from b)"
        ),
        (_, SelRule::Mask2) => format!(
            "'{sel}' is not a mask of d for '{op}': name the half-words written, highest first"
        ),
        (_, SelRule::Mask4) => format!(
            "'{sel}' is not a mask of d for '{op}': name the bytes written (0-3), each once, highest first"
        ),
    };
    let allowed = if rule == SelRule::None {
        Vec::new()
    } else {
        rule.choices()
    };
    Err(Diagnostic::new(span, msg).allowed(allowed))
}

/// Negation: `-a` and `-b` together cancel and are accepted (on 32-bit registers) by every
/// instruction; otherwise only `vmad` negates, and then the product or `c`, not both, and
/// nothing at all with `.po`.
fn check_negation(insn: &Instruction, syn: &Syntax, bits: &[u32; 5]) -> Result<(), Diagnostic> {
    let op = insn.opcode.name();
    for (i, o) in insn.srcs.iter().enumerate() {
        if o.neg && bits.get(i + 1).copied().unwrap_or(32) != 32 {
            return Err(Diagnostic::new(
                neg_span(o),
                format!(
                    "'-' applies to 32-bit registers only; {} of '{op}' is {} bits wide",
                    role(i + 1),
                    bits.get(i + 1).copied().unwrap_or(32)
                ),
            ));
        }
    }
    let neg = |i: usize| insn.srcs.get(i).is_some_and(|o| o.neg);
    let product = neg(0) != neg(1);
    let product_span = || {
        let i = if neg(0) { 0 } else { 1 };
        neg_span(&insn.srcs[i])
    };
    let other = (2..insn.srcs.len()).find(|&i| neg(i));
    if !syn.negation {
        if product || other.is_some() {
            let span = if product {
                product_span()
            } else {
                neg_span(&insn.srcs[other.unwrap_or(2)])
            };
            return Err(Diagnostic::new(
                span,
                format!(
                    "'{op}' does not negate its sources (only -a and -b together, which cancel)"
                ),
            ));
        }
        return Ok(());
    }
    if insn.form.po {
        if product || other.is_some() {
            let span = if product {
                product_span()
            } else {
                neg_span(&insn.srcs[2])
            };
            return Err(Diagnostic::new(
                span,
                "'.po' adds one instead of negating: with .po no source may be negated",
            ));
        }
    }
    if product && other.is_some() {
        return Err(Diagnostic::new(
            neg_span(&insn.srcs[2]),
            "vmad negates either the product (-a or -b) or c, not both",
        )
        .allowed(["-a", "-b", "-c", "-a, -b (cancel)"]));
    }
    Ok(())
}
