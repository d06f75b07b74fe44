//! Decides whether ptxas (sm_90) accepts an instruction, with a specific message when not.
//!
//! The rules themselves are data in [`crate::isa`] ([`Syntax`], [`SelRule`], operand widths
//! and immediate ranges); this module walks an instruction through them in the order a reader
//! would fix things: modifiers, types and what the modifiers need (the checkers of both
//! tables, `check_mods`, `check_types` and `check_needs`, which the program rows' validator
//! calls too), then the operand count and each operand.
//!
//! ```
//! use ptxlab_core::{parse, validate};
//!
//! // A byte selector past b3 has the right shape, so it parses; the validator refuses it.
//! let insn = parse("vadd.u32.u32.u32 d, a.b7, b;").unwrap();
//! let err = validate(&insn).unwrap_err();
//! assert!(err.allowed.contains(&".b3".to_string()));
//! assert!(validate(&parse("vadd.u32.u32.u32 d, a.b3, b;").unwrap()).is_ok());
//! ```

pub mod program;
mod shape;
pub(crate) use shape::{no_selector, FloatLits, Slot};

use crate::ast::{Instruction, Mod, Operand, OperandKind, Span, Type, SOURCE_NAMES};
use crate::error::Diagnostic;
use crate::isa::{
    immediate_rule, selector_rules, source_counts, Cmp, Family, Instr, ModGroup, NeedOf, Opcode,
    SelRule, Syntax,
};

/// Check a parsed instruction the way ptxas does for sm_90.
pub fn validate(insn: &Instruction) -> Result<(), Diagnostic> {
    let opcode = match insn.instr {
        Instr::Table(o) => o,
        // A program row is checked as it is read: a record built or changed by hand is
        // checked by reading its text again.
        Instr::Program(_) => return program::check_record(insn),
    };
    let syn = opcode.syntax();
    let instr = insn.instr;
    let head = head_span(insn);
    let words: Vec<(&str, &Span)> = insn.mods.iter().map(|(m, s)| (m.name(), s)).collect();
    let mods = check_mods(instr, words, &head)?;
    let types: Vec<(Type, Span)> = insn
        .mods
        .iter()
        .filter_map(|(m, s)| match m {
            Mod::Type(t) => Some((*t, s.clone())),
            _ => None,
        })
        .collect();
    check_types(instr, &types, &head)?;
    check_needs(instr, &mods, &types)?;
    check_merge(opcode, insn)?;
    check_operand_count(opcode, insn)?;
    check_operands(opcode, insn, syn)
}

fn dotted(m: Mod) -> String {
    format!(".{}", m.name())
}

fn names(mods: impl IntoIterator<Item = Mod>) -> Vec<String> {
    mods.into_iter().map(dotted).collect()
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

/// Words as a reader lists them: ".u8", ".u8 or .s8", ".u8, .s8 or .u4".
pub(crate) fn listed(words: impl IntoIterator<Item = String>) -> String {
    let w: Vec<String> = words.into_iter().collect();
    match w.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Whether an instruction's text may carry the word `s` as a modifier, for both tables: a
/// type, a modifier of either table ([`Mod::ALL`]), or a word some program row refuses with a
/// reason of its own (its `beyond`: a rounding mode on `cvt`) or has in its name after the
/// first (`add.cc`'s `.cc`, `cvt.pack`'s `.pack`). Which of them an instruction takes is its
/// row's ([`check_mods`]); any other word is unknown.
pub(crate) fn known_word(s: &str) -> bool {
    Type::from_name(s).is_some()
        || Mod::from_name(s).is_some()
        || crate::isa::OP_ROWS.iter().any(|r| {
            r.syntax.beyond.is_some_and(|b| b.words.contains(&s))
                || r.name.split('.').skip(1).any(|w| w == s)
        })
}

/// The dotted words after the opcode, past the first `skip` (a word of the row's own name:
/// `cvt.pack`'s `.pack`), each one that some instruction takes ([`known_word`]): the one
/// refusal of a word no row knows, for both tables' readers.
pub(crate) fn known_words<'h, 'a>(
    head: &'h crate::scan::Head<'a>,
    skip: usize,
) -> Result<&'h [crate::scan::Word<'a>], Diagnostic> {
    let words = head.words.get(skip..).unwrap_or(&[]);
    match words.iter().find(|w| !known_word(w.text)) {
        Some(w) => Err(Diagnostic::new(
            w.span.clone(),
            format!("unknown modifier '.{}' on '{}'", w.text, head.name),
        )),
        None => Ok(words),
    }
}

/// A modifier group as the messages name it on `instr`, with the words its row takes:
/// "result part (.hi, .lo or .wide)", "comparison" where the row takes more than four.
fn group_phrase(instr: Instr, g: ModGroup) -> String {
    let words: Vec<Mod> = instr.syntax().mods.of_group(g).collect();
    if words.len() > 4 {
        g.describe_for(instr).to_string()
    } else {
        format!("{} ({})", g.describe_for(instr), listed(names(words)))
    }
}

/// The message for a modifier word that `instr` does not take, for both tables: the reason
/// the row gives for it (its `beyond`), else what the row takes of the word's group, else why
/// the word is not read at all.
pub(crate) fn not_taken(instr: Instr, word: &str, span: Span) -> Diagnostic {
    let syn = instr.syntax();
    let name = instr.name();
    let group = Mod::from_name(word).map(ModGroup::of);
    let why = if let Some(b) = syn.beyond.filter(|b| b.words.contains(&word)) {
        b.why.to_string()
    } else if let Some(g) = group.filter(|g| syn.mods.of_group(*g).next().is_some()) {
        format!(
            "'{name}' takes {} as its {}",
            listed(names(syn.mods.of_group(g))),
            g.describe_for(instr)
        )
    } else if word == "wide" {
        "only mul and mad write a product twice the type's width (mul.wide, mad.wide)".to_string()
    } else if group == Some(ModGroup::Half) {
        format!("ptxas would read it as an unsigned comparison, which '{name}' has none of")
    } else {
        String::new()
    };
    let why = if why.is_empty() {
        why
    } else {
        format!(": {why}")
    };
    let allowed = if syn.mods.all.is_empty() {
        vec!["no modifier besides the type".to_string()]
    } else {
        names(syn.mods.all.iter().copied())
    };
    Diagnostic::new(span, format!("'.{word}' does not apply to '{name}'{why}")).allowed(allowed)
}

/// The first modifier word written on `instr`, refused where it is written apart from the
/// opcode (`mul .lo`, `shf .l`) and is of the group that comes first: ptxas reads that word
/// as part of the opcode. Any other word may be written apart (`and .b32`).
pub(crate) fn check_apart(
    instr: Instr,
    word: &str,
    span: &Span,
    spaced: bool,
) -> Result<(), Diagnostic> {
    let mods = &instr.syntax().mods;
    let first = mods.named(word).map(ModGroup::of);
    if spaced && first.is_some() && first == mods.first {
        let opcode = instr.name().split('.').next().unwrap_or(instr.name());
        return Err(crate::scan::written_apart(word, span.clone(), opcode));
    }
    Ok(())
}

/// The modifier words written on an instruction of either table, in text order with their
/// spans, checked against its row: each word taken, the group that comes first written first,
/// one word of a group (but of the repeatable ones), and every required group written. Types
/// are skipped (their slots are checked apart), and so is a word of the row's own name written
/// again (`add.cc.cc`: ptxas reads it as once). Returns the row's modifier for each other
/// word, with its span; `head` is where a missing group is reported.
pub(crate) fn check_mods<'a>(
    instr: Instr,
    words: impl IntoIterator<Item = (&'a str, &'a Span)>,
    head: &Span,
) -> Result<Vec<(Mod, Span)>, Diagnostic> {
    let syn = instr.syntax();
    let name = instr.name();
    // The opcode as written first: `mad` of `mad.cc`.
    let word = name.split('.').next().unwrap_or(name);
    let example = instr.example().split_whitespace().next().unwrap_or(name);
    let mut taken: Vec<(Mod, Span)> = Vec::new();
    for (i, (w, span)) in words.into_iter().enumerate() {
        if Type::from_name(w).is_some() {
            continue;
        }
        let Some(m) = syn.mods.named(w) else {
            // A repeatable modifier of the row's own name written again (`add.cc.cc`).
            let again = Mod::from_name(w).is_some_and(|m| ModGroup::of(m).repeatable());
            if again && name.split('.').skip(1).any(|x| x == w) {
                continue;
            }
            return Err(not_taken(instr, w, span.clone()));
        };
        let group = ModGroup::of(m);
        let choices = || names(syn.mods.of_group(group));
        if !group.repeatable() {
            if let Some((first, _)) = taken.iter().find(|(p, _)| ModGroup::of(*p) == group) {
                let msg = if choices().len() == 1 {
                    format!("'.{w}' is written twice: '{name}' takes it once")
                } else if *first == m {
                    format!(
                        "'.{w}' is written twice: '{name}' takes one {}",
                        group_phrase(instr, group)
                    )
                } else {
                    format!(
                        "'.{w}' conflicts with '{}' written before it: '{name}' takes one {}",
                        dotted(*first),
                        group_phrase(instr, group)
                    )
                };
                return Err(Diagnostic::new(span.clone(), msg).allowed(choices()));
            }
        }
        if syn.mods.first == Some(group) && i != 0 {
            return Err(Diagnostic::new(
                span.clone(),
                format!(
                    "'.{w}' must come right after '{word}': {}, then the rest, e.g. {example}",
                    listed(choices().iter().map(|c| format!("{word}{c}")))
                ),
            )
            .allowed(choices()));
        }
        taken.push((m, span.clone()));
    }
    for &group in syn.mods.required {
        if taken.iter().any(|(m, _)| ModGroup::of(*m) == group) {
            continue;
        }
        let choices = names(syn.mods.of_group(group));
        let msg = if let [only] = &choices[..] {
            format!(
                "'{name}' is always written with '{only}' ({}), e.g. {example}",
                group.describe_for(instr)
            )
        } else if syn.mods.first == Some(group) {
            format!(
                "'{name}' needs its {} right after the opcode: {}, e.g. {example}",
                group.describe_for(instr),
                listed(choices.iter().map(|c| format!("{word}{c}")))
            )
        } else {
            let phrase = group_phrase(instr, group);
            let a = if phrase.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("'{name}' needs {a} {phrase}, e.g. {example}")
        };
        return Err(Diagnostic::new(head.clone(), msg).allowed(choices));
    }
    Ok(taken)
}

/// The refusal of type `t` written `k`-th on `instr` (`.b16` as `vset`'s first type, the
/// type of a), with the row's reason where it gives one, and the types that slot takes.
pub(crate) fn type_refused(instr: Instr, k: usize, t: Type, span: Span) -> Diagnostic {
    let syn = instr.syntax();
    let mut why = match syn.slots.get(k) {
        Some(s) if syn.slots.len() > 1 => format!(" as the type of {}", s.of),
        _ => String::new(),
    };
    if let Some(b) = syn.beyond.filter(|b| b.words.contains(&t.name())) {
        why = format!("{why}: {}", b.why);
    }
    let takes = syn
        .slots
        .get(k)
        .or(syn.slots.first())
        .map_or(&[][..], |s| s.types);
    Diagnostic::new(
        span,
        format!("'{}' does not take .{}{why}", instr.name(), t.name()),
    )
    .allowed(type_names(takes))
}

/// The types written on an instruction of either table, in text order with their spans,
/// checked against its row's slots: each in its slot's types (a row's beyond reason given
/// where it has one), then one for every slot, the last only with the first types it comes
/// with (`cvt.pack`'s `c` type). `head` is where a missing type is reported.
pub(crate) fn check_types(
    instr: Instr,
    types: &[(Type, Span)],
    head: &Span,
) -> Result<(), Diagnostic> {
    let syn = instr.syntax();
    let name = instr.name();
    let example = instr.example().split_whitespace().next().unwrap_or(name);
    let slots = syn.slots;
    // The slot that comes with some first types only.
    let third = slots.last().filter(|s| !s.with.is_empty());
    let reads_third = types
        .first()
        .is_some_and(|t| third.is_some_and(|s| s.written_with(t.0)));
    let want = slots.len() - usize::from(third.is_some() && !reads_third);
    let of = |k: usize| slots[k].of;
    // Each type written in its slot's types first (the first decides whether there is a
    // third), then their number.
    for (k, (t, sp)) in types.iter().enumerate().take(want) {
        if !slots[k].types.contains(t) {
            return Err(type_refused(instr, k, *t, sp.clone()));
        }
    }
    if types.len() == want {
        return Ok(());
    }
    let sp = types.get(want).map_or(head.clone(), |t| t.1.clone());
    // The row's example, with the first type written in place of its own, and the example's
    // later types (or each slot's first type) up to the number wanted.
    let kept: Vec<&str> = example
        .split('.')
        .filter(|w| Type::from_name(w).is_none())
        .collect();
    let own: Vec<&str> = example
        .split('.')
        .filter(|w| Type::from_name(w).is_some())
        .collect();
    let example = match types.first() {
        Some(t) => {
            let mut words = kept;
            words.push(t.0.name());
            words.extend((1..want).map(|k| {
                own.get(k)
                    .copied()
                    .unwrap_or_else(|| slots[k].types[0].name())
            }));
            words.join(".")
        }
        None => example.to_string(),
    };
    let what = if slots.len() == 1 {
        format!("one type, e.g. {example}")
    } else {
        // Without a type written, a row with a third type takes two or three.
        let (count, listed_slots) = match types.first() {
            None if third.is_some() => ("two or three", slots.len()),
            _ => (["", "one", "two", "three"][want], want),
        };
        let list: Vec<String> = (0..listed_slots)
            .map(|k| format!("that of {}", of(k)))
            .collect();
        let first = match types.first() {
            Some(t) if third.is_some() => format!(" for .{}", t.0.name()),
            _ => String::new(),
        };
        let with = listed(type_names(third.map_or(&[], |s| s.with)));
        let note = match (types.first(), third) {
            (Some(_), Some(_)) if !reads_third => format!(
                " (the third, that of {}, comes with {with} only)",
                of(slots.len() - 1)
            ),
            (None, Some(_)) => format!(" (the third with {with} only)"),
            _ => String::new(),
        };
        format!(
            "{count} types{first}: {}{note}, e.g. {example}",
            list.join(", then ")
        )
    };
    // The types the next slot takes, where one is missing.
    let next = slots.get(types.len()).filter(|_| types.len() < want);
    Err(Diagnostic::new(sp, format!("'{name}' takes {what}"))
        .allowed(next.map_or(Vec::new(), |s| type_names(s.types))))
}

/// What the modifiers written (`mods`, as [`check_mods`] returned them) need, for a row of
/// either table ([`crate::isa::Need`]): first those that exclude another, then those that
/// need another, then those that need a type, each with the row's reason. `types` are the
/// types written, valid for the row's slots ([`check_types`]).
pub(crate) fn check_needs(
    instr: Instr,
    mods: &[(Mod, Span)],
    types: &[(Type, Span)],
) -> Result<(), Diagnostic> {
    let syn = instr.syntax();
    let name = instr.name();
    let find = |m: Mod| mods.iter().find(|(x, _)| *x == m).map(|(_, s)| s);
    check_compared(instr, mods, types)?;
    for need in syn.needs {
        let NeedOf::Without(b) = need.of else {
            continue;
        };
        if let (Some(sa), Some(sb)) = (find(need.modifier), find(b)) {
            let later = if sa.start > sb.start { sa } else { sb };
            return Err(Diagnostic::new(
                later.clone(),
                format!(
                    "'{}' and '{}' cannot be combined on '{name}' ({})",
                    dotted(need.modifier),
                    dotted(b),
                    need.why
                ),
            ));
        }
    }
    for need in syn.needs {
        let NeedOf::Mod(b) = need.of else {
            continue;
        };
        if let (Some(sa), None) = (find(need.modifier), find(b)) {
            return Err(Diagnostic::new(
                sa.clone(),
                format!(
                    "'{}' on '{name}' needs '{}': {} ({name}{}{})",
                    dotted(need.modifier),
                    dotted(b),
                    need.why,
                    dotted(b),
                    dotted(need.modifier)
                ),
            ));
        }
    }
    let Some((first, _)) = types.first() else {
        return Ok(());
    };
    for need in syn.needs {
        let Some(sp) = find(need.modifier) else {
            continue;
        };
        match need.of {
            NeedOf::Type(k, set) => {
                let (t, at) = types.get(k).unwrap_or(&types[0]);
                if !set.contains(t) {
                    let what = match syn.slots.get(k).map_or("", |s| s.of) {
                        "" => "the type".to_string(),
                        of => format!("the type of {of}"),
                    };
                    return Err(Diagnostic::new(
                        at.clone(),
                        format!(
                            "'{}' on '{name}' needs {what} to be {} (not .{}): {}",
                            dotted(need.modifier),
                            listed(type_names(set)),
                            t.name(),
                            need.why
                        ),
                    )
                    .allowed(type_names(set)));
                }
            }
            NeedOf::Narrower => {
                let s = types.get(1).map_or(*first, |t| t.0);
                let (from, to) = (s.range(), first.range());
                if from.0 >= to.0 && from.1 <= to.1 {
                    return Err(Diagnostic::new(
                        sp.clone(),
                        format!(
                            "{name}{}.{}.{}: every .{} value fits in .{}, so {}",
                            dotted(need.modifier),
                            first.name(),
                            s.name(),
                            s.name(),
                            first.name(),
                            need.why
                        ),
                    ));
                }
            }
            NeedOf::Mod(_) | NeedOf::Without(_) => {}
        }
    }
    Ok(())
}

/// A comparison needs a compared type that takes it ([`Cmp::for_type`], as ptxas decides):
/// the compared type is the last slot's (`setp`'s one, `set`'s second). The six words of the
/// `vset` rows hold on every type they take, so there it never refuses.
fn check_compared(
    instr: Instr,
    mods: &[(Mod, Span)],
    types: &[(Type, Span)],
) -> Result<(), Diagnostic> {
    let (Some((Mod::Cmp(c), sp)), Some((ty, _))) = (
        mods.iter().find(|(m, _)| matches!(m, Mod::Cmp(_))),
        types.last(),
    ) else {
        return Ok(());
    };
    let (c, ty) = (*c, *ty);
    if Cmp::for_type(ty).contains(&c) {
        return Ok(());
    }
    let kinds = if ty.is_bits() {
        "bit types compare only for equality"
    } else if ty.is_signed() {
        "signed types take eq ne lt le gt ge (lo ls hi hs are for unsigned types)"
    } else if ty.is_float() {
        "lo ls hi hs compare unsigned integers; floats take lt le gt ge and the unordered forms"
    } else {
        "integer types take no unordered or NaN comparisons"
    };
    Err(Diagnostic::new(
        sp.clone(),
        format!("{}.{}.{}: {kinds}", instr.name(), c.name(), ty.name()),
    )
    .allowed(Cmp::for_type(ty).iter().map(|c| format!(".{}", c.name()))))
}

/// Scalar video: a secondary operation and a destination part both use c.
fn check_merge(opcode: Opcode, insn: &Instruction) -> Result<(), Diagnostic> {
    if opcode.family() == Family::ScalarVideo {
        if let (Some(sel), Some(sec)) = (insn.dst().sel, insn.form.secop) {
            let span = sel_span(insn.dst());
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

fn check_operand_count(opcode: Opcode, insn: &Instruction) -> Result<(), Diagnostic> {
    // One destination, no braces: only a record built by hand can have other.
    if insn.dsts.len() != 1 || insn.unpack || insn.pack {
        return Err(Diagnostic::new(
            head_span(insn),
            format!(
                "'{}' writes one destination, d, not {} and no braces",
                opcode.name(),
                insn.dsts.len()
            ),
        ));
    }
    let op = opcode.name();
    let n = insn.srcs.len();
    let (lo, hi) = source_counts(opcode);
    let needs_c = opcode.family() == Family::ScalarVideo
        && (insn.form.secop.is_some() || insn.dst().sel.is_some());
    let lo = if needs_c { 3 } else { lo };
    let roles = |k: usize| -> String {
        std::iter::once("d")
            .chain(SOURCE_NAMES.iter().copied().take(k))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The operands as the row names them: `d, a, b[, c]` where c may be left out.
    let form = if lo == hi {
        roles(hi)
    } else {
        let optional = &SOURCE_NAMES[lo..hi];
        format!("{}[, {}]", roles(lo), optional.join(", "))
    };
    if n > hi {
        let span = insn.srcs[hi].span.clone();
        return Err(operand_count(op, (lo + 1, hi + 1), &form, n + 1, span));
    }
    if n < lo {
        let at = insn
            .srcs
            .last()
            .map_or(insn.dst().span.clone(), |o| o.span.clone());
        if !(needs_c && n == 2) {
            return Err(operand_count(
                op,
                (lo + 1, hi + 1),
                &form,
                n + 1,
                at.end..at.end,
            ));
        }
        let msg = if let Some(sec) = insn.form.secop {
            format!(
                "the secondary operation '.{}' needs a third source c",
                Mod::SecOp(sec).name()
            )
        } else {
            "a selector on d merges the result into c, so a third source c is needed; without c, d takes no selector".to_string()
        };
        let span = if insn.form.secop.is_none() {
            sel_span(insn.dst())
        } else {
            at.end..at.end
        };
        return Err(Diagnostic::new(span, msg));
    }
    Ok(())
}

/// The refusal of `got` operands, for either table, where `name` takes `lo` to `hi` (`d`
/// counted) written as `form` (`d, a, b[, c]`); `span` is the first operand too many, or the
/// place after the last where one is missing.
pub(crate) fn operand_count(
    name: &str,
    (lo, hi): (usize, usize),
    form: &str,
    got: usize,
    span: Span,
) -> Diagnostic {
    let want = if lo == hi {
        lo.to_string()
    } else {
        format!("{lo} or {hi}")
    };
    Diagnostic::new(
        span,
        format!("'{name}' takes {want} operands ({form}), not {got}"),
    )
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

fn check_operands(opcode: Opcode, insn: &Instruction, syn: &Syntax) -> Result<(), Diagnostic> {
    let op = opcode.name();
    let merge = insn.form.secop.is_none() && insn.srcs.len() == 3;
    let sels = selector_rules(opcode, merge);
    let w = insn.widths();
    let bits: [u32; 5] = std::array::from_fn(|p| w.at(p));

    // The destination: a register, not negated.
    let d = insn.dst();
    match d.kind {
        OperandKind::Reg(_) => {}
        OperandKind::Imm(_) => {
            return Err(Diagnostic::new(
                d.span.clone(),
                format!("d of '{op}' must be a register, not a number"),
            ))
        }
        OperandKind::Float(_) | OperandKind::Sink => {
            return Err(Diagnostic::new(
                d.span.clone(),
                format!("d of '{op}' must be a register, not '{d}'"),
            ))
        }
    }
    if d.neg {
        return Err(Diagnostic::new(
            neg_span(d),
            "a destination cannot be negated; drop the '-'",
        ));
    }
    check_selector(opcode, d, 0, sels[0])?;

    for (i, o) in insn.srcs.iter().enumerate() {
        let pos = i + 1;
        match o.kind {
            OperandKind::Imm(v) => match immediate_rule(opcode, &insn.form, i) {
                None => {
                    let why = if opcode.is_video() {
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
            OperandKind::Float(_) | OperandKind::Sink => {
                return Err(Diagnostic::new(
                    o.span.clone(),
                    format!(
                        "{} of '{op}' must be a register or an integer, not '{o}'",
                        role(pos)
                    ),
                ));
            }
            OperandKind::Reg(_) => {}
        }
        check_selector(
            opcode,
            o,
            pos,
            sels.get(pos).copied().unwrap_or(SelRule::None),
        )?;
    }
    check_negation(opcode, insn, syn, &bits)
}

fn check_selector(
    opcode: Opcode,
    o: &Operand,
    pos: usize,
    rule: SelRule,
) -> Result<(), Diagnostic> {
    let Some(sel) = o.sel else {
        return Ok(());
    };
    if rule.accepts(&sel) {
        return Ok(());
    }
    let op = opcode.name();
    let span = sel_span(o);
    let r = role(pos);
    let msg = match (opcode.family(), rule) {
        (Family::Integer, _) => return Err(no_selector(Instr::Table(opcode), &sel.to_string(), span)),
        (_, SelRule::None) if pos == 0 && opcode.family() == Family::Vmad => {
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

/// A source as the negation rule reads it: whether it is written `-x`, how wide its register
/// is, its name, and where the `-` is.
pub(crate) struct Negated<'a> {
    pub neg: bool,
    pub bits: u32,
    /// It is read as a float (ptxas refuses `-` on one).
    pub float: bool,
    pub name: &'a str,
    pub at: Span,
}

/// `-` on sources, for both tables: only on 32-bit integer registers, and on a row that does not
/// negate (every one but `vmad`) only `-a` and `-b` together, which cancel: ptxas takes them
/// on every instruction and its machine code is that without them (measured on an H100 for
/// the table; for the program rows, `tests/data/ptxas-negation.jsonl` compares the machine
/// code). What `vmad` negates its own rules check after.
pub(crate) fn check_negated(instr: Instr, srcs: &[Negated]) -> Result<(), Diagnostic> {
    let op = instr.name();
    if let Some(o) = srcs.iter().find(|o| o.neg && (o.bits != 32 || o.float)) {
        return Err(Diagnostic::new(
            o.at.clone(),
            format!(
                "'-' applies to 32-bit integer registers only; {} of '{op}' is {}",
                o.name,
                if o.float {
                    format!("a {}-bit float", o.bits)
                } else if o.bits == 1 {
                    "a predicate".to_string()
                } else {
                    format!("{} bits wide", o.bits)
                }
            ),
        ));
    }
    if instr.syntax().negation {
        return Ok(());
    }
    let neg = |i: usize| srcs.get(i).is_some_and(|o| o.neg);
    let refused = if neg(0) != neg(1) {
        Some(if neg(0) { 0 } else { 1 })
    } else {
        (2..srcs.len()).find(|&i| neg(i))
    };
    if let Some(i) = refused {
        return Err(Diagnostic::new(
            srcs[i].at.clone(),
            if srcs.len() < 2 {
                format!("'{op}' does not negate its source")
            } else {
                format!(
                    "'{op}' does not negate its sources (only -a and -b together, which cancel)"
                )
            },
        ));
    }
    Ok(())
}

/// Negation: the rule of both tables ([`check_negated`]), then `vmad`'s: it negates the
/// product or `c`, not both, and nothing at all with `.po`.
fn check_negation(
    opcode: Opcode,
    insn: &Instruction,
    syn: &Syntax,
    bits: &[u32; 5],
) -> Result<(), Diagnostic> {
    let srcs: Vec<Negated> = insn
        .srcs
        .iter()
        .enumerate()
        .map(|(i, o)| Negated {
            neg: o.neg,
            bits: bits.get(i + 1).copied().unwrap_or(32),
            float: false,
            name: role(i + 1),
            at: neg_span(o),
        })
        .collect();
    check_negated(Instr::Table(opcode), &srcs)?;
    if !syn.negation {
        return Ok(());
    }
    let neg = |i: usize| insn.srcs.get(i).is_some_and(|o| o.neg);
    let product = neg(0) != neg(1);
    let product_span = || {
        let i = if neg(0) { 0 } else { 1 };
        neg_span(&insn.srcs[i])
    };
    let other = (2..insn.srcs.len()).find(|&i| neg(i));
    if insn.form.po && (product || other.is_some()) {
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
    if product && other.is_some() {
        return Err(Diagnostic::new(
            neg_span(&insn.srcs[2]),
            "vmad negates either the product (-a or -b) or c, not both",
        )
        .allowed([
            "negate a or b (the product)",
            "negate c",
            "negate both a and b (they cancel)",
        ]));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::check;

    /// The text under the diagnostic's span.
    fn rejected_at(text: &str) -> String {
        let d = check(text).expect_err(text);
        text[d.span.clone()].to_string()
    }

    fn allowed(text: &str) -> Vec<String> {
        check(text).expect_err(text).allowed
    }

    /// The operand vocabulary is shared with the program rows, so a table instruction built
    /// by hand can hold a float literal or `_`: the validator names the position.
    #[test]
    fn a_float_or_sink_in_a_table_instruction_is_refused() {
        use crate::ast::{Operand, OperandKind};
        use crate::value::FloatLit;
        let mut i = crate::parse("add.u32 d, a, b;").unwrap();
        i.srcs[1] = Operand::new(OperandKind::Float(FloatLit::F32(0x3f80_0000)), 11..21);
        let e = super::validate(&i).unwrap_err();
        assert_eq!(
            e.message,
            "b of 'add' must be a register or an integer, not '0f3f800000'"
        );
        let mut i = crate::parse("add.u32 d, a, b;").unwrap();
        *i.dst_mut() = Operand::sink();
        let e = super::validate(&i).unwrap_err();
        assert_eq!(e.message, "d of 'add' must be a register, not '_'");
    }

    #[test]
    fn accepts_the_isa_examples_ptxas_takes() {
        for t in [
            "vadd.s32.u32.s32.sat d, a.b0, b.h0;",
            "vsub.s32.s32.u32.sat d, a.h1, b.h1;",
            "vabsdiff.s32.s32.s32.sat d.h0, a.b0, b.b2, c;",
            "vmin.s32.s32.s32.sat.add d, a, b, c;",
            "vshl.s32.u32.u32.clamp d, a, b;",
            "vshr.u32.u32.u32.wrap d, a, b.h1;",
            "vmad.s32.s32.u32.sat d, a, b, -c;",
            "vmad.u32.u32.u32.shr15 d, a.h0, b.h0, c;",
            "vset.s32.u32.lt d, a, b;",
            "vadd2.s32.s32.u32.sat d, a, b, c;",
            "vsub2.s32.s32.s32.sat d.h0, a.h10, b.h32, c;",
            "vmin2.s32.u32.u32.add d.h10, a.h00, b.h22, c;",
            "vset2.u32.u32.ne.add d, a, b, c;",
            "vsub4.s32.s32.s32.sat d.b0, a.b3210, b.b7654, c;",
            "vset4.u32.u32.ne.add d.b20, a.b7777, b.b0123, c;",
            "add.sat.s32 d, d, 1;",
            "add.u16x2 d, a, b;",
            "mul.wide.s16 d, a, b;",
            "mad.hi.sat.s32 d, a, b, c;",
            "min.s16x2.relu d, a, b;",
            "bfind.shiftamt.s64 d, a;",
            "fns.b32 d, 0xaaaaaaaa, 3, -1;",
            "szext.wrap.u32 d, 0xffffffff, 0;",
            "bmsk.wrap.b32 d, 1, 2;",
            "dp2a.hi.u32.s32 d, a, b, c;",
        ] {
            assert!(check(t).is_ok(), "{t}: {:?}", check(t).err());
        }
    }

    #[test]
    fn types_may_be_interleaved_and_repeatable_modifiers_repeated() {
        assert!(check("vmin4.s32.sat.s32.u32 d, a, b, c;").is_ok());
        assert!(check("vmad.shr7.u32.u32.po.sat.s32 d, a.h0, b.h1, c;").is_ok());
        assert!(check("vadd.s32.s32.s32.sat.sat d, a, b;").is_ok());
        assert!(check("min.relu.relu.s32 d, a, b;").is_ok());
        // Counting types: a fourth is one too many, and the span names it.
        assert_eq!(rejected_at("vsub4.u32.u32.s32.s64.add d, a, b, c;"), ".s64");
        assert_eq!(rejected_at("vadd.u16.u32.u32 d, a, b;"), ".u16");
        assert!(allowed("vadd.u16.u32.u32 d, a, b;").contains(&".s32".to_string()));
        // Too few: the head is pointed at, and the missing position is offered.
        assert_eq!(rejected_at("vadd.s32.s32 d, a, b;"), "vadd.s32.s32");
    }

    #[test]
    fn conflicting_and_repeated_modifiers() {
        assert_eq!(rejected_at("vsub.u32.u32.u32.min.max d, a, b, c;"), ".max");
        assert_eq!(rejected_at("vshr.s32.s32.u32.clamp.wrap d, a, b;"), ".wrap");
        assert_eq!(
            rejected_at("vmad.s32.s32.s32.shr7.shr15 d, a, b, c;"),
            ".shr15"
        );
        assert_eq!(rejected_at("vset4.u32.u32.ne.lt d, a, b, c;"), ".lt");
        assert_eq!(rejected_at("vmad.po.u32.u32.u32.po d, a, b, c;"), ".po");
        assert_eq!(rejected_at("vadd2.s32.s32.u32.sat.add d, a, b, c;"), ".add");
        assert_eq!(rejected_at("vadd2.s32.s32.u32.add.sat d, a, b, c;"), ".sat");
        // `.cc` makes a program instruction of its own (`add.cc`, a row of OP_ROWS), which
        // is read by its own row: `add.cc` takes no `.sat`.
        assert_eq!(rejected_at("add.cc.sat.s32 d, a, b;"), ".sat");
        assert_eq!(check("mad.hi.cc.u32 d, a, b, c;").unwrap().name(), "mad.cc");
        // Secondary operations: SIMD accumulates only; vmad has none.
        assert_eq!(rejected_at("vset2.u32.u32.ne.max d, a, b, c;"), ".max");
        assert_eq!(rejected_at("vmad.s32.s32.s32.add d, a, b, c;"), ".add");
        assert_eq!(rejected_at("vset.s32.s32.lt.sat d, a, b;"), ".sat");
    }

    #[test]
    fn required_modifiers() {
        let e = check("vshl.s32.u32.u32 d, a, b;").unwrap_err();
        assert_eq!(e.allowed, vec![".clamp", ".wrap"]);
        assert!(check("vset.s32.s32 d, a, b;").is_err());
        assert!(check("szext.s32 d, a, b;").is_err());
        assert!(check("dp2a.u32.u32 d, a, b, c;").is_err());
        // The result part of mul/mad is part of the opcode: it comes first.
        assert_eq!(rejected_at("mul.s32.lo d, a, b;"), ".lo");
        assert_eq!(rejected_at("mad.sat.hi.s32 d, a, b, c;"), ".hi");
        assert_eq!(rejected_at("mad.u32.wide d, a, b, c;"), ".wide");
        assert_eq!(rejected_at("mul24.wide.s32 d, a, b;"), ".wide");
        assert_eq!(rejected_at("dp2a.u32.u32.lo d, a, b, c;"), ".lo");
    }

    #[test]
    fn integer_type_sets_narrowed_by_modifiers() {
        for t in [
            "add.sat.u32 d, a, b;",
            "add.sat.s16x2 d, a, b;",
            "sub.u16x2 d, a, b;",
            "mul.wide.u64 d, a, b;",
            "mad.lo.sat.s32 d, a, b, c;",
            "mad.hi.sat.u32 d, a, b, c;",
            "mad24.lo.sat.s32 d, a, b, c;",
            "mad.wide.cc.u32 d, a, b, c;",
            "add.cc.u16 d, a, b;",
            "min.relu.u32 d, a, b;",
            "max.relu.u16x2 d, a, b;",
            "abs.u32 d, a;",
            "popc.u32 d, a;",
            "bfe.b32 d, a, b, c;",
            "bmsk.clamp.b64 d, a, b;",
            "dp4a.u32 d, a, b, c;",
        ] {
            assert!(check(t).is_err(), "{t} should be rejected");
        }
        assert_eq!(rejected_at("add.sat.s64 d, a, b;"), ".s64");
        assert_eq!(allowed("min.relu.s16 d, a, b;"), vec![".s32", ".s16x2"]);
        // Each says why, from the row's need: the same type as the program rows' needs.
        for (t, why) in [
            ("add.sat.u32 d, a, b;", "on .s32 only for sm_90"),
            ("mad.hi.sat.u32 d, a, b, c;", "signed 32-bit sum"),
            ("mad24.hi.sat.u32 d, a, b, c;", "signed 32-bit sum"),
            ("mul.wide.u64 d, a, b;", "16- and 32-bit types only"),
            ("min.relu.u32 d, a, b;", "two signed types"),
        ] {
            let e = check(t).expect_err(t);
            assert!(e.message.contains(why), "{t}: {e}");
        }
    }

    #[test]
    fn video_selectors_per_position() {
        // Scalar: one byte or half-word; d only when merging into c.
        assert_eq!(rejected_at("vadd.s32.s32.s32 d, a.b4, b;"), ".b4");
        assert_eq!(rejected_at("vadd.s32.s32.s32 d, a.h2, b;"), ".h2");
        assert_eq!(rejected_at("vadd.u32.u32.u32 d, a.b3210, b;"), ".b3210");
        assert_eq!(rejected_at("vadd.s32.s32.s32 d.h2, a, b, c;"), ".h2");
        assert_eq!(rejected_at("vadd.s32.s32.s32 d.b0, a, b;"), ".b0");
        assert_eq!(rejected_at("vadd.s32.s32.s32.add d.b0, a, b, c;"), ".b0");
        assert_eq!(
            rejected_at("vadd.u32.u32.u32.min d, a, b, c.b7654;"),
            ".b7654"
        );
        assert_eq!(rejected_at("vmad.s32.s32.s32 d.b0, a, b, c;"), ".b0");
        // SIMD two-way: .hxy on sources, a mask on d.
        assert_eq!(rejected_at("vadd2.u32.u32.u32 d, a.h0, b, c;"), ".h0");
        assert_eq!(rejected_at("vadd2.u32.u32.u32 d, a.h4, b, c;"), ".h4");
        assert_eq!(rejected_at("vadd2.u32.u32.u32 d.h01, a, b, c;"), ".h01");
        assert_eq!(
            allowed("vadd2.u32.u32.u32 d.h01, a, b, c;"),
            vec![".h0", ".h1", ".h10"]
        );
        // SIMD four-way: .bxyzw with digits 0-7; masks name bytes highest first.
        assert!(check("vadd4.u32.u32.u32 d.b31, a.b0016, b.b7654, c;").is_ok());
        assert_eq!(rejected_at("vadd4.u32.u32.u32 d, a.b8000, b, c;"), ".b8000");
        assert_eq!(rejected_at("vadd4.u32.u32.u32 d, a.b000, b, c;"), ".b000");
        assert_eq!(rejected_at("vadd4.u32.u32.u32 d.b13, a, b, c;"), ".b13");
        assert_eq!(rejected_at("vmin4.s32.u32.u32.add d.b00, a, b, c;"), ".b00");
        // Integer instructions take none.
        assert_eq!(rejected_at("add.u32 d, a.b0, b;"), ".b0");
    }

    #[test]
    fn ignored_byte_pair_suffixes() {
        // ptxas reads .b01/.b12/.b23 and ignores them on d and c of scalar video and on 32-bit
        // integer operands; on a and b of scalar video they are errors.
        assert!(check("vadd.u32.u32.u32 d.b12, a, b;").is_ok());
        assert!(check("vmad.u32.u32.u32 d, a, b, c.b23;").is_ok());
        assert!(check("add.u32 d, a.b01, b;").is_ok());
        assert!(check("vadd.s32.s32.s32 d, a.b01, b;").is_err());
        assert!(check("add.u64 d, a.b01, b;").is_err());
        assert!(check("bfe.u32 d, a.b12, b, c;").is_err());
        assert!(check("vadd4.u32.u32.u32 d.b01, a, b, c;").is_err());
    }

    #[test]
    fn operand_counts() {
        assert!(check("vadd.u32.u32.u32 d, a, b, c;").is_ok());
        assert!(check("vadd.s32.s32.s32.add d, a, b;").is_err());
        assert!(check("vadd2.u32.u32.u32 d, a, b;").is_err());
        assert_eq!(rejected_at("vset4.u32.u32.ge d.b3, a, b, c, e;"), "e");
        assert_eq!(rejected_at("mul.lo.s32 d, a, b, c;"), "c");
        assert!(check("add.u32 d, a;").is_err());
        assert!(check("bfi.b32 d, a, b, c, e;").is_ok());
    }

    #[test]
    fn immediates() {
        assert!(check("vadd.u32.u32.u32.add d, 1, 2, 3;").is_ok());
        assert!(check("vmad.u32.u32.u32 d, 5, -3, 7;").is_ok());
        assert_eq!(rejected_at("vadd2.u32.u32.u32 d, a, b, 0;"), "0");
        assert_eq!(rejected_at("vmax2.u32.u32.s32.sat d, a.h33, -3, c;"), "-3");
        assert_eq!(rejected_at("add.u16x2 d, a, 5;"), "5");
        assert_eq!(rejected_at("bfe.u32 d, a, 256, 3;"), "256");
        assert_eq!(rejected_at("bfi.b32 d, a, b, -1, 2;"), "-1");
        assert!(check("bfe.u64 d, a, 255, 0;").is_ok());
        assert!(check("add.u16 d, a, 65536;").is_ok());
        assert_eq!(rejected_at("add.u32 5, a, b;"), "5");
    }

    #[test]
    fn negation() {
        // vmad: the product (a xor b) or c, not both; nothing with .po.
        assert!(check("vmad.s32.s32.s32 d, -a, -b, -c;").is_ok());
        assert!(check("vmad.s32.s32.s32 d, -a, b, c;").is_ok());
        assert_eq!(rejected_at("vmad.u32.u32.u32 d, a.b0, -b.b1, -c;"), "-");
        let t = "vmad.u32.u32.u32 d, a.b0, -b.b1, -c;";
        assert_eq!(check(t).unwrap_err().span.start, t.find("-c").unwrap());
        let t = "vmad.u32.u32.u32.po d, -a, b, c;";
        assert_eq!(check(t).unwrap_err().span.start, t.find("-a").unwrap());
        assert!(check("vmad.u32.u32.u32.po d, -a, -b, c;").is_ok());
        // Elsewhere only -a and -b together (they cancel), and only on 32-bit registers.
        let t = "vadd.u32.u32.u32 d, -a, b;";
        assert_eq!(check(t).unwrap_err().span, 20..21);
        assert!(check("vadd.u32.u32.u32 d, -a, -b;").is_ok());
        assert!(check("add.u32 d, -a, -b;").is_ok());
        assert!(check("add.s64 d, -a, -b;").is_err());
        assert!(check("vadd.u32.u32.u32 -d, a, b;").is_err());
        assert!(check("abs.s32 d, -a;").is_err());
    }

    #[test]
    fn messages_name_the_token_and_say_what_fits() {
        let t = "vshl.s32.u32.s32.clamp d, a, b;";
        let e = check(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".s32");
        assert!(e.message.contains(".s32"), "{}", e.message);
        assert_eq!(e.allowed, vec![".u32"]);
        let t = "vsub.u32.po.u32.s32.sat.add d, a.b1, b.b3, c;";
        let e = check(t).unwrap_err();
        assert_eq!(&t[e.span.clone()], ".po");
        assert!(e.allowed.contains(&".add".to_string()));
    }
}
