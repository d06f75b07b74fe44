//! `ptxlab sass FORM --arch sm_XX [--json]`, `--all-archs`, and `--forms` (the forms the data
//! script assembles): the lowering atlas of `src/atlas.txt`, embedded here.

use std::sync::OnceLock;

use ptxlab_core::ast::OperandKind;
use ptxlab_core::atlas::{table_forms, Atlas, Cost, ARCHS};
use ptxlab_core::equiv::{Cheaper, Equivalents};
use ptxlab_core::insn::check;
use ptxlab_core::Instruction;
use serde::Serialize;

/// The atlas data, as `scripts/atlas.py` writes it.
pub const DATA: &str = include_str!("atlas.txt");

/// The parsed atlas (an empty one if the file cannot be read, which a test rules out).
pub fn atlas() -> &'static Atlas {
    static A: OnceLock<Atlas> = OnceLock::new();
    A.get_or_init(|| Atlas::parse(DATA).unwrap_or_default())
}

/// The groups of forms that give the same `d`, as the core's example `equivalents` writes them.
pub const EQUIVALENTS: &str = include_str!("equivalents.txt");

/// The parsed groups (none if the file cannot be read, which a test rules out).
pub fn equivalents() -> &'static Equivalents {
    static E: OnceLock<Equivalents> = OnceLock::new();
    E.get_or_init(|| Equivalents::parse(EQUIVALENTS).unwrap_or_default())
}

#[derive(Serialize)]
struct FormLine {
    ptx: String,
    /// Destinations: name and width in bits (1: a predicate).
    dsts: Vec<(String, u32)>,
    /// Register sources: name and width in bits.
    srcs: Vec<(String, u32)>,
    /// The carry chain: the form reads the carry flag (set before it from a loaded word).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    carry_in: bool,
    /// The carry chain: the form writes the carry flag (stored after it as a word).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    carry_out: bool,
}

/// The kernel description of one form, or `None` for one the atlas leaves out (immediates,
/// sinks, braces, guards).
fn describe(insn: &Instruction) -> Option<FormLine> {
    if insn.guard.is_some() || insn.pack || insn.unpack {
        return None;
    }
    let mut dsts = Vec::new();
    for (k, d) in insn.dsts.iter().enumerate() {
        match &d.kind {
            _ if insn.writes_carry(k) => {}
            OperandKind::Reg(n) => dsts.push((n.clone(), insn.dst_bits(k))),
            _ => return None,
        }
    }
    let mut srcs: Vec<(String, u32)> = Vec::new();
    for (k, s) in insn.srcs.iter().enumerate() {
        match &s.kind {
            _ if insn.reads_carry(k) => {}
            // A table source's `-` (vmad's) changes what it computes; a program row's `-a, -b`
            // cancel.
            OperandKind::Reg(name) if !s.neg || insn.opcode().is_none() => {
                if !srcs.iter().any(|x| &x.0 == name) {
                    srcs.push((name.clone(), insn.src_bits(k)));
                }
            }
            // An operand that only an immediate may be (lop3's lookup table) is part of the
            // form.
            OperandKind::Imm(_)
                if matches!(
                    insn.instr.row().operands.srcs.get(k).map(|o| o.kind),
                    Some(ptxlab_core::isa::PositionKind::Imm(_))
                ) => {}
            _ => return None,
        }
    }
    Some(FormLine {
        ptx: insn.canonical(),
        dsts,
        srcs,
        carry_in: (0..insn.srcs.len()).any(|k| insn.reads_carry(k)),
        carry_out: insn.form.cc,
    })
}

/// `--forms [FILE...]`: every table form, then each register-only form of the files (JSON
/// lines with a "ptx" field, or one instruction a line) that the validator accepts.
fn forms(files: &[&String]) -> Result<bool, String> {
    let mut seen = std::collections::HashSet::new();
    let mut texts: Vec<String> = table_forms();
    for f in files {
        let s = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for line in s.lines() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            let text = if t.starts_with('{') {
                let v: serde_json::Value =
                    serde_json::from_str(t).map_err(|e| format!("{f}: {e}"))?;
                if v.get("accepted") == Some(&serde_json::Value::Bool(false)) {
                    continue;
                }
                match v.get("ptx").and_then(|p| p.as_str()) {
                    Some(p) => p.to_string(),
                    None => continue,
                }
            } else {
                t.to_string()
            };
            texts.push(text);
        }
    }
    for t in texts {
        let Ok(insn) = check(&t) else { continue };
        let Some(line) = describe(&insn) else {
            continue;
        };
        if seen.insert(line.ptx.clone()) {
            outln!(
                "{}",
                serde_json::to_string(&line).map_err(|e| e.to_string())?
            );
        }
    }
    Ok(true)
}

fn arch_index(a: &Atlas, name: &str) -> Result<usize, String> {
    let want = if name.starts_with("sm_") {
        name.to_string()
    } else {
        format!("sm_{name}")
    };
    a.archs()
        .iter()
        .position(|x| *x == want)
        .ok_or_else(|| format!("--arch takes one of {}, not '{name}'", ARCHS.join(", ")))
}

#[derive(Serialize)]
struct JsonCost<'a> {
    form: &'a str,
    exact: bool,
    #[serde(flatten)]
    cost: &'a Cost,
    /// A form that gives the same `d` on every input and costs less here (only for a form of
    /// the atlas itself), or null.
    cheaper: Option<Cheaper>,
}

/// `ptxlab sass FORM --arch A [--json]`, `ptxlab sass FORM --all-archs [--json]`, `ptxlab sass
/// --forms [FILE...]`. Returns `None` when the arguments are for the sm_90 listing command.
pub fn command(args: &[String]) -> Option<Result<bool, String>> {
    let has = |f: &str| {
        args.iter()
            .any(|a| a == f || a.starts_with(&format!("{f}=")))
    };
    if has("--forms") {
        let files: Vec<&String> = args.iter().filter(|a| *a != "--forms").collect();
        return Some(forms(&files));
    }
    if !(has("--arch") || has("--all-archs")) {
        return None;
    }
    Some(lookup(args))
}

fn lookup(args: &[String]) -> Result<bool, String> {
    let mut text = None;
    let mut arch = None;
    let mut all = false;
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--all-archs" => all = true,
            "--arch" => arch = Some(it.next().ok_or("--arch needs an architecture")?.clone()),
            s if s.starts_with("--arch=") => arch = Some(s["--arch=".len()..].to_string()),
            s if s.starts_with("--") => return Err(format!("sass: unknown option '{s}'")),
            s => {
                if text.replace(s.to_string()).is_some() {
                    return Err("sass takes one instruction".into());
                }
            }
        }
    }
    let text = text.ok_or("sass needs an instruction")?;
    let insn = check(&text).map_err(|d| d.render(&text))?;
    let a = atlas();
    let Some(found) = a.find(&insn) else {
        return Err(format!(
            "the atlas holds no form of {} (it has {} forms)",
            insn.name(),
            a.forms().count()
        ));
    };
    let archs: Vec<usize> = match (&arch, all) {
        (Some(name), false) => vec![arch_index(a, name)?],
        (None, true) => (0..a.archs().len()).collect(),
        _ => return Err("sass takes either --arch A or --all-archs".into()),
    };
    let costs: Vec<Cost> = archs.iter().map(|&k| a.cost(found.index, k)).collect();
    let cheaper: Vec<Option<Cheaper>> = archs
        .iter()
        .map(|&k| {
            found
                .exact
                .then(|| equivalents().cheaper(a, &found.form, k))
                .flatten()
        })
        .collect();
    if json {
        let items: Vec<JsonCost> = costs
            .iter()
            .zip(&cheaper)
            .map(|(c, ch)| JsonCost {
                form: &found.form,
                exact: found.exact,
                cost: c,
                cheaper: ch.clone(),
            })
            .collect();
        let s = if arch.is_some() {
            serde_json::to_string_pretty(&items[0])
        } else {
            serde_json::to_string_pretty(&items)
        };
        outln!("{}", s.map_err(|e| e.to_string())?);
        return Ok(true);
    }
    if !found.exact {
        outln!(
            "not in the atlas; the nearest measured form is shown: {}",
            found.form
        );
    } else {
        outln!("{}", found.form);
    }
    if let [c] = costs.as_slice() {
        if !c.available {
            outln!(
                "{}: ptxas refuses it: {}",
                c.arch,
                c.message.as_deref().unwrap_or("")
            );
            return Ok(true);
        }
        outln!(
            "{}: {} computing instruction{} ({})",
            c.arch,
            c.core.len(),
            if c.core.len() == 1 { "" } else { "s" },
            if c.native { "native" } else { "emulated" }
        );
        for l in &c.sass {
            outln!("    {l}");
        }
        if let Some(ch) = &cheaper[0] {
            outln!("{}", hint_line(c.arch, ch));
        }
        return Ok(true);
    }
    let (cheap, dear) = a.extremes(found.index);
    outln!("{:<7} {:>5}  {:<9} core", "arch", "count", "kind");
    for (k, c) in archs.iter().zip(&costs) {
        let mark = if cheap.contains(k) {
            "  (cheapest)"
        } else if dear.contains(k) {
            "  (dearest)"
        } else {
            ""
        };
        if c.available {
            out!(
                "{:<7} {:>5}  {:<9} {}{mark}\n",
                c.arch,
                c.core.len(),
                if c.native { "native" } else { "emulated" },
                c.core.join(" ")
            );
        } else {
            out!(
                "{:<7} {:>5}  {:<9} {}\n",
                c.arch,
                "-",
                "refused",
                c.message.as_deref().unwrap_or("")
            );
        }
    }
    // One line per cheaper form and saving, naming its architectures.
    let mut lines: Vec<(String, &Cheaper)> = Vec::new();
    for (c, ch) in costs.iter().zip(&cheaper) {
        let Some(ch) = ch else { continue };
        match lines
            .iter_mut()
            .find(|(_, x)| (&x.form, x.count, x.instead_of) == (&ch.form, ch.count, ch.instead_of))
        {
            Some((archs, _)) => {
                archs.push_str(", ");
                archs.push_str(c.arch);
            }
            None => lines.push((c.arch.to_string(), ch)),
        }
    }
    for (archs, ch) in lines {
        outln!("{}", hint_line(&archs, ch));
    }
    Ok(true)
}

/// One line naming a cheaper form that gives the same `d`.
fn hint_line(arch: &str, ch: &Cheaper) -> String {
    format!(
        "cheaper on {arch}: {} gives the same d on every input ({}) in {} computing instruction{} instead of {}",
        ch.form,
        ch.proof,
        ch.count,
        if ch.count == 1 { "" } else { "s" },
        ch.instead_of
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_data_parses() {
        let a = Atlas::parse(DATA).unwrap();
        assert_eq!(a.archs(), ARCHS);
        assert!(!Equivalents::parse(EQUIVALENTS)
            .unwrap()
            .classes()
            .is_empty());
    }
}
