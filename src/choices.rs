//! The pickers' choices as data: for the current instruction, every control with the instruction
//! text each of its choices would produce, and whether `ptxlab_core::check` accepts that text (the
//! message when it does not). Every control comes from the opcode's row in the core (its
//! modifier groups, type slots and operand selector rules); the UI only draws these, and
//! choosing one replaces the instruction text.

use ptxlab_core::ast::{Instruction, Mod, Operand, SecOp, SOURCE_NAMES};
use ptxlab_core::insn::check;
use ptxlab_core::isa::{lanes, selector_rules, source_counts, ModGroup, SelRule, Syntax};
use ptxlab_core::isa::{Instr, ROWS};
use ptxlab_core::{Family, Opcode, Type};

/// One choice of a control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    /// The whole instruction text this choice leads to.
    pub text: String,
    pub selected: bool,
    /// Why the assembler would refuse this choice, if it would.
    pub error: Option<String>,
}

/// How a control is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A drop-down list of the choices.
    Select,
    /// A check box: `choices[0]` is "off", `choices[1]` is "on".
    Toggle,
}

/// One control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Stable identifier, used for element ids and test selectors.
    pub key: String,
    pub label: String,
    pub control: Control,
    pub choices: Vec<Choice>,
    /// Which row of the picker panel it belongs to.
    pub row: Row,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Row {
    Opcode,
    Modifiers,
    Selectors,
}

impl Group {
    pub fn selected(&self) -> Option<&Choice> {
        self.choices.iter().find(|c| c.selected)
    }
}

/// The choice of `insn`'s text, with the checker's verdict unless it is the current one.
fn choice(label: impl Into<String>, insn: &Instruction, selected: bool) -> Choice {
    fixed_choice(label, &insn.canonical(), selected)
}

fn fixed_choice(label: impl Into<String>, text: &str, selected: bool) -> Choice {
    let error = if selected {
        None
    } else {
        check(text).err().map(|d| d.to_string())
    };
    Choice {
        label: label.into(),
        text: text.to_string(),
        selected,
        error,
    }
}

/// The instruction with every modifier matching `remove` taken out and `add` put in.
fn with_mod(insn: &Instruction, remove: impl Fn(&Mod) -> bool, add: Option<Mod>) -> Instruction {
    let mut c = insn.clone();
    c.mods.retain(|(m, _)| !remove(m));
    if let Some(m) = add {
        c.mods.push((m, 0..0));
    }
    c
}

/// Make sure the instruction has exactly `n` sources, adding plain registers named by role.
fn with_sources(insn: &mut Instruction, n: usize) {
    insn.srcs.truncate(n);
    while insn.srcs.len() < n {
        let name = ptxlab_core::ast::SOURCE_NAMES[insn.srcs.len().min(3)];
        insn.srcs.push(Operand::reg(name));
    }
}

/// A family's name in words (from the core).
pub fn family_name(f: Family) -> &'static str {
    f.describe()
}

/// Whether a kept form has the same shape as the opcode's example: same number of types and
/// the same mandatory kinds of modifier. Guards against carrying modifiers to an opcode that
/// reads them differently.
fn same_shape(kept: &Instruction, op: Opcode) -> bool {
    let Ok(t) = ptxlab_core::parse(op.example()) else {
        return false;
    };
    let (a, b) = (&kept.form, &t.form);
    a.type_count() == b.type_count()
        && a.cmp.is_some() == b.cmp.is_some()
        && a.half.is_some() == b.half.is_some()
        && a.mode.is_some() == b.mode.is_some()
        && (op.family() != Family::Integer || kept.srcs.len() == t.srcs.len())
}

/// The text that switching to `op` produces: the current form when it carries over, otherwise
/// the opcode's example.
pub fn switch_opcode(insn: &Instruction, op: Opcode) -> String {
    if insn.instr == Instr::Table(op) {
        return insn.canonical();
    }
    if op.family() == insn.instr.family() {
        let mut c = insn.clone();
        c.instr = Instr::Table(op);
        let t = c.canonical();
        if same_shape(&c, op) && check(&t).is_ok() {
            return t;
        }
    }
    op.example().to_string()
}

/// A check box: `insn` is the current instruction, `off_insn` and `on_insn` it without and
/// with the option.
fn toggle(
    key: &str,
    label: &str,
    insn: &Instruction,
    on: bool,
    off_insn: &Instruction,
    on_insn: &Instruction,
    row: Row,
) -> Group {
    Group {
        key: key.into(),
        label: label.into(),
        control: Control::Toggle,
        choices: vec![
            choice("off", if on { off_insn } else { insn }, !on),
            choice("on", if on { insn } else { on_insn }, on),
        ],
        row,
    }
}

fn select(key: &str, label: &str, choices: Vec<Choice>, row: Row) -> Group {
    Group {
        key: key.into(),
        label: label.into(),
        control: Control::Select,
        choices,
        row,
    }
}

/// Scalar video: no second step, a secondary operation with `c`, or a merge into a part of `d`
/// (the parts `d`'s selector rule lists).
fn second_step(opcode: Opcode, insn: &Instruction, syntax: &Syntax) -> Group {
    let f = &insn.form;
    let is_sec = |m: &Mod| matches!(m, Mod::SecOp(_));
    let mut choices = Vec::new();
    let mut none = with_mod(insn, is_sec, None);
    none.dst_mut().sel = None;
    with_sources(&mut none, 2);
    choices.push(choice(
        "none",
        &none,
        f.secop.is_none() && insn.dst().sel.is_none(),
    ));
    for m in ModGroup::SecOp.members() {
        if !syntax.takes(m) && f.secop.map(Mod::SecOp) != Some(m) {
            continue;
        }
        let mut c = with_mod(insn, is_sec, Some(m));
        c.dst_mut().sel = None;
        with_sources(&mut c, 3);
        choices.push(choice(
            format!(".{} with c", m.name()),
            &c,
            f.secop.map(Mod::SecOp) == Some(m) && insn.dst().sel.is_none(),
        ));
    }
    let (_, most) = source_counts(opcode);
    for sel in selector_rules(opcode, true)[0].selectors() {
        let mut c = with_mod(insn, is_sec, None);
        c.dst_mut().sel = Some(sel);
        with_sources(&mut c, most);
        choices.push(choice(
            format!("merge into d{sel}"),
            &c,
            f.secop.is_none() && insn.dst().sel == Some(sel),
        ));
    }
    select("second", ModGroup::SecOp.label(), choices, Row::Modifiers)
}

/// SIMD: `.add` sums the lanes into `c`; one switch per lane of `d`'s mask.
fn accumulate_and_mask(insn: &Instruction, out: &mut Vec<Group>) {
    let is_sec = |m: &Mod| matches!(m, Mod::SecOp(_));
    let off = with_mod(insn, is_sec, None);
    let on = with_mod(insn, is_sec, Some(Mod::SecOp(SecOp::Add)));
    out.push(toggle(
        "accumulate",
        ".add (sum lanes into c)",
        insn,
        insn.form.secop.is_some(),
        &off,
        &on,
        Row::Modifiers,
    ));
    let n = lanes::lane_count(insn.instr.family());
    let written = lanes::mask_bits(insn.dst().sel.as_ref(), n);
    for i in 0..n {
        let flipped = written ^ (1 << i);
        let mut c = insn.clone();
        c.dst_mut().sel = lanes::mask_selector(flipped, n);
        let mut other = choice("", &c, false);
        if flipped == 0 {
            other.error = Some("at least one lane of d must be written".into());
        }
        let me = choice("", insn, true);
        let is_on = written >> i & 1 == 1;
        let (mut off, mut on) = if is_on { (other, me) } else { (me, other) };
        off.label = "off".into();
        on.label = "on".into();
        out.push(Group {
            key: format!("mask{i}"),
            label: format!("write lane {i}"),
            control: Control::Toggle,
            choices: vec![off, on],
            row: Row::Selectors,
        });
    }
}

/// The selector controls of source `k`: one list of parts for a scalar selector, one list per
/// lane for a SIMD lane selector, as the position's rule says.
fn selector_groups(insn: &Instruction, k: usize, rule: SelRule, out: &mut Vec<Group>) {
    let Some(o) = insn.srcs.get(k) else { return };
    let name = SOURCE_NAMES[k];
    match rule {
        SelRule::Scalar => {
            let choices = std::iter::once(None)
                .chain(rule.selectors().into_iter().map(Some))
                .map(|s| {
                    let mut c = insn.clone();
                    c.srcs[k].sel = s;
                    let label = match s {
                        None => "whole word".to_string(),
                        Some(s) => format!("{name}{s}"),
                    };
                    choice(label, &c, o.sel == s)
                })
                .collect();
            out.push(select(
                &format!("sel{k}"),
                &format!("{name} part"),
                choices,
                Row::Selectors,
            ));
        }
        SelRule::Lanes2 | SelRule::Lanes4 => {
            let n = lanes::lane_count(insn.instr.family());
            let cur: Vec<u8> = (0..n)
                .map(|i| lanes::pool_pick(o.sel.as_ref(), k, i, n) as u8)
                .collect();
            for lane in (0..n).rev() {
                let choices = (0..2 * n)
                    .map(|d| {
                        let mut l = cur.clone();
                        l[lane] = d as u8;
                        let mut c = insn.clone();
                        c.srcs[k].sel = lanes::lanes_selector(k, &l);
                        choice(lanes::pool_entry_name(d, n), &c, cur[lane] as usize == d)
                    })
                    .collect();
                out.push(select(
                    &format!("sel{k}lane{lane}"),
                    &format!("{name} lane {lane} takes"),
                    choices,
                    Row::Selectors,
                ));
            }
        }
        _ => {}
    }
}

/// Every control for the given (valid) instruction of either table, read from its row
/// ([`ptxlab_core::isa::ROWS`]): family, opcode, a list per type slot, the row's modifier
/// groups in the row's order, and, where the row has them, the video instructions' second
/// step, lane mask, negations and selectors. Whether a given combination is accepted is left
/// to the checker.
pub fn groups(insn: &Instruction) -> Vec<Group> {
    let instr = insn.instr;
    let row = instr.row();
    let text = insn.canonical();
    let mut out = vec![families(row.family, &text)];
    let ops = ROWS
        .iter()
        .filter(|r| r.family == row.family)
        .map(|r| {
            let here = r.instr == instr;
            let to = if here {
                text.clone()
            } else {
                switch_to(insn, r.instr)
            };
            fixed_choice(r.name, &to, here)
        })
        .collect();
    out.push(select("opcode", "Opcode", ops, Row::Opcode));
    type_groups(insn, &mut out);
    let table = insn.opcode();
    for (g, required, mods) in row.mod_groups() {
        match (g, table) {
            (ModGroup::SecOp, Some(opcode)) if row.family == Family::ScalarVideo => {
                out.push(second_step(opcode, insn, &row.syntax))
            }
            (ModGroup::SecOp, Some(_)) => accumulate_and_mask(insn, &mut out),
            _ if mods.len() == 1 => {
                let on = insn.modifier(g).is_some();
                let off = insn.with_modifier(g, None);
                let with = insn.with_modifier(g, Some(mods[0]));
                let label = g.label_for(instr);
                out.push(toggle(
                    g.key(),
                    label,
                    insn,
                    on,
                    &off,
                    &with,
                    Row::Modifiers,
                ));
            }
            _ => {
                let current = insn.modifier(g);
                let mut choices = Vec::new();
                if !required || current.is_none() {
                    let none = insn.with_modifier(g, None);
                    choices.push(choice("none", &none, current.is_none()));
                }
                for m in mods {
                    let c = insn.with_modifier(g, Some(m));
                    let label = format!(".{}", m.name());
                    choices.push(choice(label, &c, current == Some(m)));
                }
                out.push(select(g.key(), g.label_for(instr), choices, Row::Modifiers));
            }
        }
        // Negations sit with vmad's modifiers, after .po.
        if let (ModGroup::Po, Some(_)) = (g, table) {
            if row.syntax.negation {
                negations(insn, &mut out);
            }
        }
    }
    // Selectors, as each source position's rule says.
    if let Some(opcode) = table {
        for k in 0..2 {
            if let Some(spec) = opcode.source(k) {
                selector_groups(insn, k, spec.sel, &mut out);
            }
        }
    }
    out
}

/// The text that switching to `to` produces: a table instruction's form carried over to
/// another of its family ([`switch_opcode`]), otherwise `to`'s example.
fn switch_to(insn: &Instruction, to: Instr) -> String {
    match (insn.instr, to) {
        (Instr::Table(_), Instr::Table(op)) => switch_opcode(insn, op),
        _ => to.example().to_string(),
    }
}

/// The family list, one entry per family of [`Family::ALL`] (both tables): the current
/// family's entry keeps the current text, the others switch to their first instruction's
/// example.
fn families(current: Family, text: &str) -> Group {
    let fams = Family::ALL
        .into_iter()
        .map(|g| {
            if g == current {
                fixed_choice(family_name(g), text, true)
            } else {
                fixed_choice(family_name(g), g.example(), false)
            }
        })
        .collect();
    select("family", "Family", fams, Row::Opcode)
}

/// One list per type slot written, offering the types the row lists for it (one, for a slot
/// that takes one: `vshl`'s `b`, `cvt.pack`'s `c`).
fn type_groups(insn: &Instruction, out: &mut Vec<Group>) {
    let slots = insn.instr.row().syntax.slots;
    for (k, current) in insn.types().into_iter().enumerate() {
        let slot = slots.get(k);
        let offered: &[Type] = slot.map_or(&Type::TABLE, |s| s.types);
        let choices = offered
            .iter()
            .map(|&t| {
                choice(
                    format!(".{}", t.name()),
                    &insn.with_type(k, t),
                    t == current,
                )
            })
            .collect();
        out.push(select(
            &format!("type{k}"),
            &slot.map_or("Type".into(), |s| s.label()),
            choices,
            Row::Modifiers,
        ));
    }
}

/// `vmad`: a switch per negatable source.
fn negations(insn: &Instruction, out: &mut Vec<Group>) {
    for (k, name) in SOURCE_NAMES.iter().enumerate().take(3) {
        if let Some(o) = insn.srcs.get(k) {
            let mut flipped = insn.clone();
            flipped.srcs[k].neg = !o.neg;
            let (off, on) = if o.neg {
                (&flipped, insn)
            } else {
                (insn, &flipped)
            };
            out.push(toggle(
                &format!("neg{k}"),
                &format!("negate {name}"),
                insn,
                o.neg,
                off,
                on,
                Row::Modifiers,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::parse;

    fn find<'a>(g: &'a [Group], key: &str) -> &'a Group {
        g.iter()
            .find(|x| x.key == key)
            .unwrap_or_else(|| panic!("no group {key}"))
    }

    #[test]
    fn scalar_groups_round_trip() {
        let insn = parse("vadd.s32.u32.s32.sat d, a.b0, b.h0;").unwrap();
        let g = groups(&insn);
        assert_eq!(find(&g, "opcode").selected().unwrap().label, "vadd");
        assert_eq!(find(&g, "type1").selected().unwrap().label, ".u32");
        assert!(find(&g, "sat").choices[1].selected);
        let off = &find(&g, "sat").choices[0].text;
        assert_eq!(off, "vadd.s32.u32.s32 d, a.b0, b.h0;");
        let second = find(&g, "second");
        let add = second
            .choices
            .iter()
            .find(|c| c.label == ".add with c")
            .unwrap();
        assert_eq!(add.text, "vadd.s32.u32.s32.sat.add d, a.b0, b.h0, c;");
        let merge = second
            .choices
            .iter()
            .find(|c| c.label == "merge into d.h1")
            .unwrap();
        assert_eq!(merge.text, "vadd.s32.u32.s32.sat d.h1, a.b0, b.h0, c;");
        let sel = find(&g, "sel1");
        assert_eq!(sel.selected().unwrap().label, "b.h0");
        // Every choice text parses (the program instructions' families by their own parser).
        for grp in &g {
            for c in &grp.choices {
                assert!(check(&c.text).is_ok(), "{}", c.text);
            }
        }
        let fams: Vec<&str> = find(&g, "family")
            .choices
            .iter()
            .map(|c| c.label.as_str())
            .collect();
        assert!(fams.contains(&"logic and shift"), "{fams:?}");
    }

    /// One builder for every row of both tables: the opcode list is the row's family, one
    /// list per type written with the slot's label, and a control per modifier group of the
    /// row, in the row's order.
    #[test]
    fn one_builder_reads_every_row() {
        for instr in Instr::all() {
            let insn = check(instr.example()).unwrap();
            let g = groups(&insn);
            let row = instr.row();
            let ops = find(&g, "opcode");
            let family: Vec<&str> = ROWS
                .iter()
                .filter(|r| r.family == row.family)
                .map(|r| r.name)
                .collect();
            let listed: Vec<&str> = ops.choices.iter().map(|c| c.label.as_str()).collect();
            assert_eq!(listed, family);
            assert_eq!(ops.selected().unwrap().label, row.name);
            for (k, t) in insn.types().into_iter().enumerate() {
                let list = find(&g, &format!("type{k}"));
                assert_eq!(list.selected().unwrap().label, format!(".{}", t.name()));
                assert_eq!(list.label, row.syntax.slots[k].label(), "{}", row.name);
            }
            let keys: Vec<&str> = g.iter().map(|x| x.key.as_str()).collect();
            let mut at = 0;
            for (grp, _, _) in row.mod_groups() {
                let key = match grp {
                    ModGroup::SecOp if row.family == Family::ScalarVideo => "second",
                    ModGroup::SecOp => "accumulate",
                    _ => grp.key(),
                };
                let i = keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                    panic!("{}: no control {key}", row.name);
                });
                assert!(i > at, "{}: {key} out of the row's order", row.name);
                at = i;
            }
        }
        // Both tables' labels come from the slots.
        let set = groups(&check("set.lt.u32.s32 d, a, b;").unwrap());
        assert_eq!(find(&set, "type1").label, "Type of a and b");
        let pack = groups(&check("cvt.pack.sat.u8.s32.b32 d, a, b, c;").unwrap());
        assert_eq!(find(&pack, "type2").label, "Type of c");
        let vadd = groups(&check("vadd.u32.u32.u32 d, a, b;").unwrap());
        assert_eq!(find(&vadd, "type0").label, "Type of d");
    }

    #[test]
    fn program_instruction_groups() {
        let op = check("setp.lt.s32 p|q, a, b;").unwrap();
        let g = groups(&op);
        assert_eq!(
            find(&g, "family").selected().unwrap().label,
            "comparison and selection"
        );
        let ops: Vec<&str> = find(&g, "opcode")
            .choices
            .iter()
            .map(|c| c.label.as_str())
            .collect();
        assert_eq!(ops, ["setp", "set", "selp", "slct"]);
        let cmp = find(&g, "cmp");
        assert_eq!(cmp.selected().unwrap().label, ".lt");
        // Unsigned comparisons are offered but refused for a signed type, with the reason.
        let lo = cmp.choices.iter().find(|c| c.label == ".lo").unwrap();
        assert!(
            lo.error.as_deref().unwrap().contains("signed types take"),
            "{:?}",
            lo.error
        );
        let and = find(&g, "bool")
            .choices
            .iter()
            .find(|c| c.label == ".and")
            .unwrap();
        assert_eq!(and.text, "setp.lt.and.s32 p|q, a, b, c;");
        assert!(and.error.is_none());
        let op = check("prmt.b32 d, a, b, c;").unwrap();
        let g = groups(&op);
        let modes: Vec<&str> = find(&g, "prmt")
            .choices
            .iter()
            .map(|c| c.label.as_str())
            .collect();
        assert_eq!(
            modes,
            ["none", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"]
        );
        let op = check("cvt.sat.s8.s32 d, a;").unwrap();
        let g = groups(&op);
        assert_eq!(find(&g, "type1").selected().unwrap().label, ".s32");
        assert_eq!(find(&g, "sat").choices[0].text, "cvt.s8.s32 d, a;");
        let op = check("shf.r.clamp.b32 d, a, b, c;").unwrap();
        let g = groups(&op);
        assert_eq!(find(&g, "dir").choices.len(), 2, "a direction is required");
        assert_eq!(find(&g, "mode").selected().unwrap().label, ".clamp");
        // One group, one key and label for both kinds; `shf`'s mode says what it does.
        assert_eq!(find(&g, "mode").label, "Shift amount");
        let vshl = check("vshl.u32.u32.u32.clamp d, a, b;").unwrap();
        assert_eq!(find(&groups(&vshl), "mode").label, "Mode");
        let op = check("cvt.sat.s8.s32 d, a;").unwrap();
        let add = check("add.sat.s32 d, a, b;").unwrap();
        assert_eq!(find(&groups(&op), "sat").label, ".sat");
        assert_eq!(find(&groups(&add), "sat").label, ".sat");
    }

    #[test]
    fn carry_chain_groups() {
        let op = check("madc.hi.cc.u32 d, a, b, c;").unwrap();
        let g = groups(&op);
        let ops: Vec<&str> = find(&g, "opcode")
            .choices
            .iter()
            .map(|c| c.label.as_str())
            .collect();
        assert_eq!(ops, ["add.cc", "addc", "sub.cc", "subc", "mad.cc", "madc"]);
        let half = find(&g, "half");
        assert_eq!(half.label, "Half of the product");
        assert_eq!(half.selected().unwrap().label, ".hi");
        let lo = half.choices.iter().find(|c| c.label == ".lo").unwrap();
        assert_eq!(lo.text, "madc.lo.cc.u32 d, a, b, c;");
        // The carry out switch drops CC.CF from the destinations, and the text says so.
        let cc = find(&g, "cc");
        let off = cc.choices.iter().find(|c| c.label == "off").unwrap();
        assert_eq!(off.text, "madc.hi.u32 d, a, b, c;");
        assert!(off.error.is_none(), "{:?}", off.error);
        // A 16-bit type is offered, and refused with .cc, with the reason.
        let t16 = find(&g, "type0")
            .choices
            .iter()
            .find(|c| c.label == ".u16")
            .unwrap();
        assert!(
            t16.error.as_deref().unwrap().contains(".cc"),
            "{:?}",
            t16.error
        );
        // cvt.pack: the narrow types read c, the 16-bit ones do not.
        let op = check("cvt.pack.sat.u8.s32.b32 d, a, b, c;").unwrap();
        let g = groups(&op);
        let u16 = find(&g, "type0")
            .choices
            .iter()
            .find(|c| c.label == ".u16")
            .unwrap();
        assert_eq!(u16.text, "cvt.pack.sat.u16.s32 d, a, b;");
        assert!(u16.error.is_none(), "{:?}", u16.error);
    }

    #[test]
    fn simd_selectors_and_mask() {
        let insn = parse("vmin4.s32.u32.u32.add d.b0, a.b0000, b.b2222, c;").unwrap();
        let g = groups(&insn);
        assert!(find(&g, "accumulate").choices[1].selected);
        assert!(find(&g, "mask0").choices[1].selected);
        assert!(find(&g, "mask1").choices[0].selected);
        let m1 = &find(&g, "mask1").choices[1].text;
        assert_eq!(m1, "vmin4.s32.u32.u32.add d.b10, a.b0000, b.b2222, c;");
        let m0 = &find(&g, "mask0").choices[0];
        assert!(m0.error.is_some());
        let l3 = find(&g, "sel1lane3");
        assert_eq!(l3.selected().unwrap().label, "2: a.b2");
        let pick = l3
            .choices
            .iter()
            .find(|c| c.label.starts_with("7:"))
            .unwrap();
        assert_eq!(
            pick.text,
            "vmin4.s32.u32.u32.add d.b0, a.b0000, b.b7222, c;"
        );
    }

    #[test]
    fn opcode_switch_keeps_or_uses_example() {
        let insn = parse("vadd.s32.u32.s32.sat d, a.b0, b.h0;").unwrap();
        assert_eq!(
            switch_opcode(&insn, Opcode::Vsub),
            "vsub.s32.u32.s32.sat d, a.b0, b.h0;"
        );
        assert_eq!(switch_opcode(&insn, Opcode::Vset), Opcode::Vset.example());
        assert_eq!(switch_opcode(&insn, Opcode::Add), Opcode::Add.example());
    }

    #[test]
    fn every_template_gives_groups() {
        for info in ptxlab_core::OPCODES {
            let insn = parse(info.example).unwrap();
            let g = groups(&insn);
            assert!(g.len() >= 2);
            for grp in &g {
                assert!(
                    grp.choices.iter().filter(|c| c.selected).count() <= 1,
                    "{}",
                    grp.key
                );
            }
        }
    }
}
