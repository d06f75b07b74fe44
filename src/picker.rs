//! The pickers as data: for the current instruction, every control with the instruction text each
//! of its choices would produce, and whether `ptxlab_core::check` accepts that text (the message
//! when it does not). The UI only draws these; choosing one replaces the instruction text.

use ptxlab_core::ast::{
    ClampMode, Cmp, HalfMode, Instruction, Mod, Operand, OperandKind, Scale, SecOp, SelKind,
    Selector,
};
use ptxlab_core::table::ModGroup;
use ptxlab_core::{check, Family, Opcode, Type, OPCODES};

use crate::templates::template;

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

fn choice(label: impl Into<String>, insn: &Instruction, selected: bool) -> Choice {
    let text = insn.canonical();
    let error = if selected {
        None
    } else {
        check(&text).err().map(|d| d.to_string())
    };
    Choice {
        label: label.into(),
        text,
        selected,
        error,
    }
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

fn reg(name: &str) -> Operand {
    Operand {
        kind: OperandKind::Reg(name.to_string()),
        neg: false,
        sel: None,
        span: 0..0,
    }
}

/// Make sure the instruction has exactly `n` sources, adding plain registers named by role.
fn with_sources(insn: &mut Instruction, n: usize) {
    insn.srcs.truncate(n);
    while insn.srcs.len() < n {
        let name = ptxlab_core::ast::SOURCE_NAMES[insn.srcs.len().min(3)];
        insn.srcs.push(reg(name));
    }
}

pub fn family_name(f: Family) -> &'static str {
    match f {
        Family::ScalarVideo => "scalar video",
        Family::Vmad => "video multiply-add",
        Family::Simd2 => "SIMD, 2 half-word lanes",
        Family::Simd4 => "SIMD, 4 byte lanes",
        Family::Integer => "integer arithmetic",
    }
}

pub const FAMILIES: [Family; 5] = [
    Family::ScalarVideo,
    Family::Vmad,
    Family::Simd2,
    Family::Simd4,
    Family::Integer,
];

/// Whether a kept form has the same shape as the opcode's example: same number of types and
/// the same mandatory kinds of modifier. Guards against carrying modifiers to an opcode that
/// reads them differently.
fn same_shape(kept: &Instruction, op: Opcode) -> bool {
    let Ok(t) = ptxlab_core::parse(template(op)) else {
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
    if op == insn.opcode {
        return insn.canonical();
    }
    if op.family() == insn.opcode.family() {
        let mut c = insn.clone();
        c.opcode = op;
        let t = c.canonical();
        if same_shape(&c, op) && check(&t).is_ok() {
            return t;
        }
    }
    template(op).to_string()
}

fn type_labels(n: usize) -> &'static [&'static str] {
    match n {
        3 => &["d type", "a type", "b type"],
        2 => &["a type", "b type"],
        _ => &["type"],
    }
}

fn lanes(f: Family) -> usize {
    match f {
        Family::Simd2 => 2,
        Family::Simd4 => 4,
        _ => 1,
    }
}

/// The SIMD selector digits of source `src` (0 = a, 1 = b), least significant lane first.
fn simd_lanes(insn: &Instruction, src: usize) -> Vec<u8> {
    let n = lanes(insn.opcode.family());
    let base = if src == 0 { 0 } else { n as u8 };
    let sel = insn.srcs.get(src).and_then(|o| o.sel);
    (0..n)
        .map(|i| match sel {
            Some(s) if i < s.len as usize => s.lane(i),
            _ => base + i as u8,
        })
        .collect()
}

fn simd_selector(family: Family, src: usize, lanes_lsb_first: &[u8]) -> Option<Selector> {
    let n = lanes_lsb_first.len();
    let base = if src == 0 { 0 } else { n as u8 };
    if lanes_lsb_first
        .iter()
        .enumerate()
        .all(|(i, &d)| d == base + i as u8)
    {
        return None;
    }
    let kind = if family == Family::Simd2 {
        SelKind::H
    } else {
        SelKind::B
    };
    let digits: Vec<u8> = lanes_lsb_first.iter().rev().copied().collect();
    Some(Selector::new(kind, &digits))
}

/// The lanes of `d` that a SIMD mask writes (all when there is no mask).
fn mask_lanes(insn: &Instruction) -> Vec<bool> {
    let n = lanes(insn.opcode.family());
    match insn.dst.sel {
        None => vec![true; n],
        Some(s) => {
            let mut v = vec![false; n];
            for &d in s.digits() {
                if let Some(x) = v.get_mut(d as usize) {
                    *x = true;
                }
            }
            v
        }
    }
}

fn pool_entry_name(family: Family, i: u8) -> String {
    match family {
        Family::Simd2 => {
            let (r, k) = if i < 2 { ("a", i) } else { ("b", i - 2) };
            format!("{i}: {r}.h{k}")
        }
        _ => {
            let (r, k) = if i < 4 { ("a", i) } else { ("b", i - 4) };
            format!("{i}: {r}.b{k}")
        }
    }
}

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

/// Every control for the given (valid) instruction.
pub fn groups(insn: &Instruction) -> Vec<Group> {
    let op = insn.opcode;
    let fam = op.family();
    let f = &insn.form;
    // Which modifiers this opcode takes at all decides which controls appear; whether a given
    // combination is accepted is left to the checker.
    let syntax = op.syntax();
    let takes = |m: Mod| syntax.mods.contains(&m);
    let required = |g: ModGroup| syntax.required == Some(g);
    let mut out = Vec::new();

    // Family, then opcode.
    let fams = FAMILIES
        .iter()
        .map(|&g| {
            let selected = g == fam;
            if selected {
                fixed_choice(family_name(g), &insn.canonical(), true)
            } else {
                let first = OPCODES.iter().find(|o| o.family == g).map(|o| o.opcode);
                let text = first.map(template).unwrap_or_default();
                fixed_choice(family_name(g), text, false)
            }
        })
        .collect();
    out.push(select("family", "Family", fams, Row::Opcode));
    let ops = OPCODES
        .iter()
        .filter(|o| o.family == fam)
        .map(|o| fixed_choice(o.name, &switch_opcode(insn, o.opcode), o.opcode == op))
        .collect();
    out.push(select("opcode", "Opcode", ops, Row::Opcode));

    // Types.
    let type_slots: Vec<usize> = insn
        .mods
        .iter()
        .enumerate()
        .filter(|(_, (m, _))| matches!(m, Mod::Type(_)))
        .map(|(i, _)| i)
        .collect();
    let labels = type_labels(type_slots.len());
    for (k, &slot) in type_slots.iter().enumerate().take(3) {
        let current = match insn.mods[slot].0 {
            Mod::Type(t) => t,
            _ => continue,
        };
        let offered: &[Type] = syntax.types.get(k).copied().unwrap_or(&Type::ALL);

        let choices = offered
            .iter()
            .map(|&t| {
                let mut c = insn.clone();
                c.mods[slot].0 = Mod::Type(t);
                choice(format!(".{}", t.name()), &c, t == current)
            })
            .collect();
        let label = labels.get(k).copied().unwrap_or("type");
        out.push(select(&format!("type{k}"), label, choices, Row::Modifiers));
    }

    // Saturation.
    if takes(Mod::Sat) {
        let off = with_mod(insn, |m| *m == Mod::Sat, None);
        let on = with_mod(insn, |m| *m == Mod::Sat, Some(Mod::Sat));
        out.push(toggle(
            "sat",
            ".sat",
            insn,
            f.sat,
            &off,
            &on,
            Row::Modifiers,
        ));
    }

    // Scalar video: secondary operation or merge into a part of d.
    if fam == Family::ScalarVideo {
        let is_sec = |m: &Mod| matches!(m, Mod::SecOp(_));
        let mut choices = Vec::new();
        let mut none = with_mod(insn, is_sec, None);
        none.dst.sel = None;
        with_sources(&mut none, 2);
        choices.push(choice(
            "none",
            &none,
            f.secop.is_none() && insn.dst.sel.is_none(),
        ));
        for s in [SecOp::Add, SecOp::Min, SecOp::Max] {
            if !takes(Mod::SecOp(s)) && f.secop != Some(s) {
                continue;
            }
            let mut c = with_mod(insn, is_sec, Some(Mod::SecOp(s)));
            c.dst.sel = None;
            with_sources(&mut c, 3);
            let name = Mod::SecOp(s).name();
            choices.push(choice(
                format!(".{name} with c"),
                &c,
                f.secop == Some(s) && insn.dst.sel.is_none(),
            ));
        }
        let parts: [(SelKind, u8); 6] = [
            (SelKind::B, 0),
            (SelKind::B, 1),
            (SelKind::B, 2),
            (SelKind::B, 3),
            (SelKind::H, 0),
            (SelKind::H, 1),
        ];
        for (kind, d) in parts {
            let sel = Selector::new(kind, &[d]);
            let mut c = with_mod(insn, is_sec, None);
            c.dst.sel = Some(sel);
            with_sources(&mut c, 3);
            choices.push(choice(
                format!("merge into d{sel}"),
                &c,
                f.secop.is_none() && insn.dst.sel == Some(sel),
            ));
        }
        out.push(select("second", "Second step", choices, Row::Modifiers));
    }

    // SIMD: accumulate and mask.
    if matches!(fam, Family::Simd2 | Family::Simd4) {
        let is_sec = |m: &Mod| matches!(m, Mod::SecOp(_));
        let off = with_mod(insn, is_sec, None);
        let on = with_mod(insn, is_sec, Some(Mod::SecOp(SecOp::Add)));
        out.push(toggle(
            "accumulate",
            ".add (sum lanes into c)",
            insn,
            f.secop.is_some(),
            &off,
            &on,
            Row::Modifiers,
        ));
        let lanes_on = mask_lanes(insn);
        let kind = if fam == Family::Simd2 {
            SelKind::H
        } else {
            SelKind::B
        };
        for (i, &is_on) in lanes_on.iter().enumerate() {
            let mut flipped = lanes_on.clone();
            flipped[i] = !is_on;
            let digits: Vec<u8> = (0..flipped.len() as u8)
                .rev()
                .filter(|&l| flipped[l as usize])
                .collect();
            let mut c = insn.clone();
            c.dst.sel = if flipped.iter().all(|&x| x) {
                None
            } else {
                Some(Selector::new(kind, &digits))
            };
            let mut other = choice("", &c, false);
            if digits.is_empty() {
                other.error = Some("at least one lane of d must be written".into());
            }
            let me = choice("", insn, true);
            let (off, on) = if is_on { (other, me) } else { (me, other) };
            let mut off = off;
            let mut on = on;
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

    // Comparison.
    if takes(Mod::Cmp(Cmp::Eq)) {
        let cmps = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
        let choices = cmps
            .iter()
            .map(|&c| {
                let i = with_mod(insn, |m| matches!(m, Mod::Cmp(_)), Some(Mod::Cmp(c)));
                choice(format!(".{}", Mod::Cmp(c).name()), &i, f.cmp == Some(c))
            })
            .collect();
        out.push(select("cmp", "Comparison", choices, Row::Modifiers));
    }

    // Shift amount or position handling.
    if takes(Mod::Mode(ClampMode::Clamp)) || f.mode.is_some() {
        let is_mode = |m: &Mod| matches!(m, Mod::Mode(_));
        let mut choices = Vec::new();
        if !required(ModGroup::Mode) || f.mode.is_none() {
            choices.push(choice(
                "none",
                &with_mod(insn, is_mode, None),
                f.mode.is_none(),
            ));
        }
        for c in [ClampMode::Clamp, ClampMode::Wrap] {
            let i = with_mod(insn, is_mode, Some(Mod::Mode(c)));
            choices.push(choice(
                format!(".{}", Mod::Mode(c).name()),
                &i,
                f.mode == Some(c),
            ));
        }
        out.push(select("mode", "Mode", choices, Row::Modifiers));
    }

    // vmad: scale, plus one, negations.
    if takes(Mod::Scale(Scale::Shr7)) {
        let is_scale = |m: &Mod| matches!(m, Mod::Scale(_));
        let mut choices = vec![choice(
            "none",
            &with_mod(insn, is_scale, None),
            f.scale.is_none(),
        )];
        for s in [Scale::Shr7, Scale::Shr15] {
            let i = with_mod(insn, is_scale, Some(Mod::Scale(s)));
            choices.push(choice(
                format!(".{}", Mod::Scale(s).name()),
                &i,
                f.scale == Some(s),
            ));
        }
        out.push(select("scale", "Scale", choices, Row::Modifiers));
    }
    if takes(Mod::Po) {
        let off = with_mod(insn, |m| *m == Mod::Po, None);
        let on = with_mod(insn, |m| *m == Mod::Po, Some(Mod::Po));
        out.push(toggle(
            "po",
            ".po (plus one)",
            insn,
            f.po,
            &off,
            &on,
            Row::Modifiers,
        ));
    }
    if syntax.negation {
        for (k, name) in ["a", "b", "c"].iter().enumerate() {
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

    // .hi / .lo / .wide.
    let halves: Vec<HalfMode> = [HalfMode::Lo, HalfMode::Hi, HalfMode::Wide]
        .into_iter()
        .filter(|&h| takes(Mod::Half(h)) || f.half == Some(h))
        .collect();
    if !halves.is_empty() {
        let is_half = |m: &Mod| matches!(m, Mod::Half(_));
        let mut choices = Vec::new();
        if !required(ModGroup::Half) || f.half.is_none() {
            choices.push(choice(
                "none",
                &with_mod(insn, is_half, None),
                f.half.is_none(),
            ));
        }
        for h in halves {
            let i = with_mod(insn, is_half, Some(Mod::Half(h)));
            choices.push(choice(
                format!(".{}", Mod::Half(h).name()),
                &i,
                f.half == Some(h),
            ));
        }
        out.push(select("half", "Part kept", choices, Row::Modifiers));
    }
    if takes(Mod::Relu) {
        let off = with_mod(insn, |m| *m == Mod::Relu, None);
        let on = with_mod(insn, |m| *m == Mod::Relu, Some(Mod::Relu));
        out.push(toggle(
            "relu",
            ".relu",
            insn,
            f.relu,
            &off,
            &on,
            Row::Modifiers,
        ));
    }
    if takes(Mod::Cc) {
        let off = with_mod(insn, |m| *m == Mod::Cc, None);
        let on = with_mod(insn, |m| *m == Mod::Cc, Some(Mod::Cc));
        out.push(toggle(
            "cc",
            ".cc (carry out)",
            insn,
            f.cc,
            &off,
            &on,
            Row::Modifiers,
        ));
    }
    if takes(Mod::Shiftamt) {
        let off = with_mod(insn, |m| *m == Mod::Shiftamt, None);
        let on = with_mod(insn, |m| *m == Mod::Shiftamt, Some(Mod::Shiftamt));
        out.push(toggle(
            "shiftamt",
            ".shiftamt",
            insn,
            f.shiftamt,
            &off,
            &on,
            Row::Modifiers,
        ));
    }

    // Selectors.
    match fam {
        Family::ScalarVideo | Family::Vmad => {
            for (k, name) in ["a", "b"].iter().enumerate() {
                let Some(o) = insn.srcs.get(k) else { continue };
                let mut opts: Vec<Option<Selector>> = vec![None];
                for d in 0..4 {
                    opts.push(Some(Selector::new(SelKind::B, &[d])));
                }
                for d in 0..2 {
                    opts.push(Some(Selector::new(SelKind::H, &[d])));
                }
                let choices = opts
                    .into_iter()
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
        }
        Family::Simd2 | Family::Simd4 => {
            let n = lanes(fam);
            for (k, name) in ["a", "b"].iter().enumerate() {
                if insn.srcs.get(k).is_none() {
                    continue;
                }
                let cur = simd_lanes(insn, k);
                for lane in (0..n).rev() {
                    let choices = (0..(2 * n) as u8)
                        .map(|d| {
                            let mut l = cur.clone();
                            l[lane] = d;
                            let mut c = insn.clone();
                            c.srcs[k].sel = simd_selector(fam, k, &l);
                            choice(pool_entry_name(fam, d), &c, cur[lane] == d)
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
        }
        Family::Integer => {}
    }
    out
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
        // Every choice text parses.
        for grp in &g {
            for c in &grp.choices {
                assert!(parse(&c.text).is_ok(), "{}", c.text);
            }
        }
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
        assert_eq!(switch_opcode(&insn, Opcode::Vset), template(Opcode::Vset));
        assert_eq!(switch_opcode(&insn, Opcode::Add), template(Opcode::Add));
    }

    #[test]
    fn every_template_gives_groups() {
        for info in OPCODES {
            let insn = parse(template(info.opcode)).unwrap();
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
