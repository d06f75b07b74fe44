//! The lowering atlas: what ptxas 13.5 (`-O3`) emits for each form on seven GPU architectures,
//! from Turing (sm_75) to Blackwell (sm_120).
//!
//! `scripts/atlas.py` assembles every form [`table_forms`] lists (plus the program
//! instructions' register forms) alone in a kernel that loads each source from global memory at
//! its own width and stores `d` at its width, for every architecture of [`ARCHS`], and writes
//! `crates/ptxlab-cli/src/atlas.txt` (copied to the site as `atlas.txt`) in the format [`Atlas::parse`] reads. The file is not compiled into the
//! wasm: the page fetches it when a view needs it, the CLI embeds it.
//!
//! The *core* of a listing ([`core_of`]) is what computes: the listing without loads, stores,
//! moves (`MOV`, `UMOV`, `IMAD.MOV…`, a constant `HFMA2`/`HFMA2.MMA` into a register), constant loads
//! (`LDC`, `LDCU`, `ULDC`), `S2R`/`CS2R` and control.
//!
//! ```
//! use ptxlab_core::atlas::{self, Atlas};
//!
//! let text = "archs sm_90 sm_120\n\
//!             L LDG.E R0, desc[UR4][R2.64]\n\
//!             L VABSDIFF4.U8.ACC R5, R0, R0, RZ\n\
//!             L STG.E desc[UR4][R4.64], R5\n\
//!             S 0 1 2\n\
//!             M not on this GPU\n\
//!             F vabsdiff4.u32.u32.u32.add d, a, b, c;\t0 !0\n";
//! let a = Atlas::parse(text).unwrap();
//! let f = a.form("vabsdiff4.u32.u32.u32.add d, a, b, c;").unwrap();
//! let c = a.cost(f, 0);
//! assert_eq!(c.core, ["VABSDIFF4.U8.ACC"]);
//! assert!(c.native);
//! assert!(!a.cost(f, 1).available);
//! assert_eq!(atlas::core_of(&["IMAD.MOV.U32 R1, RZ, RZ, R0".into()]).len(), 0);
//! ```

use serde::Serialize;

use crate::ast::Instruction;
use crate::insn::check;
use crate::isa::{self, ModGroup, Opcode};

/// The architectures of the atlas, oldest first.
pub const ARCHS: [&str; 7] = [
    "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120",
];

/// Whether a machine instruction (its mnemonic with modifiers, e.g. `IMAD.MOV.U32`, and its
/// operands) is scaffolding rather than computation.
fn is_scaffold(op: &str, operands: &str) -> bool {
    let base = op.split('.').next().unwrap_or("");
    if op.starts_with("IMAD.MOV") {
        return true;
    }
    if base == "HFMA2" && operands.contains("-RZ, RZ,") {
        return true;
    }
    matches!(
        base,
        "LDG"
            | "LD"
            | "STG"
            | "ST"
            | "MOV"
            | "MOV32I"
            | "UMOV"
            | "LDC"
            | "LDCU"
            | "ULDC"
            | "S2R"
            | "S2UR"
            | "CS2R"
            | "EXIT"
            | "BRA"
            | "NOP"
            | "RET"
            | "CALL"
            | "BSSY"
            | "BSYNC"
            | "WARPSYNC"
            | "BAR"
    )
}

/// The mnemonic (with modifiers) of a listing line, without a guard predicate.
pub fn mnemonic(line: &str) -> &str {
    let t = line.trim_start();
    let t = if t.starts_with('@') {
        t.split_once(char::is_whitespace).map_or("", |x| x.1)
    } else {
        t
    };
    t.split_whitespace().next().unwrap_or("")
}

/// The core of a listing: the mnemonics (with modifiers) of the instructions that compute, in
/// program order.
pub fn core_of(sass: &[String]) -> Vec<String> {
    sass.iter()
        .filter_map(|l| {
            let op = mnemonic(l);
            let rest = l.split_once(op).map_or("", |x| x.1);
            (!op.is_empty() && !is_scaffold(op, rest)).then(|| op.to_string())
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The forms

fn mod_text(m: isa::vocab::Mod) -> String {
    format!(".{}", m.name())
}

/// Every form of the 47 table opcodes the validator accepts, with default selectors (none, or
/// `d.b0`/`d.h0` where a merge form needs one), plus a few selector variants of each video
/// opcode: canonical texts, in row order and then sorted, each once.
pub fn table_forms() -> Vec<String> {
    let mut out = Vec::new();
    for &opcode in Opcode::ALL {
        let row = opcode.info();
        let syn = &row.syntax;
        // Every choice of types.
        let mut typings: Vec<Vec<&str>> = vec![Vec::new()];
        for slot in syn.slots {
            typings = typings
                .into_iter()
                .flat_map(|t| {
                    slot.types.iter().map(move |ty| {
                        let mut u = t.clone();
                        u.push(ty.name());
                        u
                    })
                })
                .collect();
        }
        // Every choice of at most one modifier per group.
        let groups: Vec<Vec<isa::vocab::Mod>> = syn
            .mods
            .groups()
            .into_iter()
            .map(|g| syn.mods.of_group(g).collect())
            .collect();
        let mut mod_sets: Vec<Vec<isa::vocab::Mod>> = vec![Vec::new()];
        for members in &groups {
            mod_sets = mod_sets
                .into_iter()
                .flat_map(|s| {
                    let mut v = vec![s.clone()];
                    for &m in members {
                        let mut t = s.clone();
                        t.push(m);
                        v.push(t);
                    }
                    v
                })
                .collect();
        }
        let (lo, hi) = isa::source_counts(opcode);
        let mut mine: Vec<String> = Vec::new();
        let mut first_plain: Option<(String, usize)> = None;
        for types in &typings {
            for mods in &mod_sets {
                let mut head = row.name.to_string();
                let (first, rest): (Vec<_>, Vec<_>) = mods
                    .iter()
                    .partition(|m| syn.mods.first == Some(ModGroup::of(**m)));
                for m in first {
                    head.push_str(&mod_text(m));
                }
                for t in types {
                    head.push('.');
                    head.push_str(t);
                }
                for m in rest {
                    head.push_str(&mod_text(m));
                }
                for n in lo..=hi.max(lo) {
                    let srcs = crate::ast::SOURCE_NAMES[..n.min(4)].join(", ");
                    for d in ["d", "d.b0", "d.h0"] {
                        let text = format!("{head} {d}, {srcs};");
                        if let Some(i) = check(&text).ok().filter(|i| i.opcode().is_some()) {
                            let c = i.canonical();
                            if first_plain.is_none() && d == "d" {
                                first_plain = Some((head.clone(), n));
                            }
                            if !mine.contains(&c) {
                                mine.push(c);
                            }
                            break;
                        }
                    }
                }
            }
        }
        // A few selector variants of the first plain form of each video opcode.
        if opcode.is_video() {
            if let Some((head, n)) = first_plain {
                let pairs: &[(&str, &str)] = &[
                    ("b3", "b3"),
                    ("b1", "b3"),
                    ("h1", "h0"),
                    ("b2", "h1"),
                    ("h10", "h32"),
                    ("h01", "h11"),
                    ("b0123", "b7654"),
                    ("b3210", "b1111"),
                    ("b2301", "b4567"),
                ];
                let rest = crate::ast::SOURCE_NAMES[2..n.min(4)]
                    .iter()
                    .map(|s| format!(", {s}"))
                    .collect::<String>();
                let mut added = 0;
                for (sa, sb) in pairs {
                    let text = format!("{head} d, a.{sa}, b.{sb}{rest};");
                    if let Some(i) = check(&text).ok().filter(|i| i.opcode().is_some()) {
                        let c = i.canonical();
                        if !mine.contains(&c) {
                            mine.push(c);
                            added += 1;
                        }
                    }
                    if added == 4 {
                        break;
                    }
                }
            }
        }
        mine.sort();
        out.extend(mine);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The data

/// What one architecture does with one form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// The architecture: `sm_90`.
    pub arch: &'static str,
    /// Whether ptxas assembles the form for it.
    pub available: bool,
    /// The kernel's machine code (loads, the instruction's code, the store), one line each.
    pub sass: Vec<String>,
    /// The instructions that compute: mnemonics with modifiers, in program order.
    pub core: Vec<String>,
    /// One instruction computes the result.
    pub native: bool,
    /// ptxas's message where it refuses the form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One architecture's entry of a form: a listing, or a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    Listing(usize),
    Refused(usize),
}

/// The parsed atlas.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Atlas {
    archs: Vec<&'static str>,
    lines: Vec<String>,
    seqs: Vec<Vec<usize>>,
    messages: Vec<String>,
    forms: Vec<(String, Vec<Entry>)>,
}

/// A form's place in the atlas, found by [`Atlas::find`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// The index of the form shown ([`Atlas::cost`] takes it).
    #[serde(skip)]
    pub index: usize,
    /// The form shown, in canonical text.
    pub form: String,
    /// Whether it is the form asked for.
    pub exact: bool,
}

impl Atlas {
    /// Read the data file. Errors name the line.
    pub fn parse(text: &str) -> Result<Atlas, String> {
        let mut a = Atlas::default();
        for (n, line) in text.lines().enumerate() {
            let bad = |what: &str| format!("atlas line {}: {what}", n + 1);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
            match tag {
                "archs" => {
                    for w in rest.split_whitespace() {
                        let arch = ARCHS
                            .iter()
                            .find(|x| **x == w)
                            .ok_or_else(|| bad("unknown architecture"))?;
                        a.archs.push(arch);
                    }
                }
                "L" => a.lines.push(rest.to_string()),
                "M" => a.messages.push(rest.to_string()),
                "S" => {
                    let mut seq = Vec::new();
                    for w in rest.split_whitespace() {
                        let k: usize = w.parse().map_err(|_| bad("not a line number"))?;
                        if k >= a.lines.len() {
                            return Err(bad("line number out of range"));
                        }
                        seq.push(k);
                    }
                    a.seqs.push(seq);
                }
                "F" => {
                    let (form, entries) = rest.split_once('\t').ok_or_else(|| bad("no tab"))?;
                    let mut es = Vec::new();
                    for w in entries.split_whitespace() {
                        let e = match w.strip_prefix('!') {
                            Some(m) => {
                                let k: usize = m.parse().map_err(|_| bad("bad message"))?;
                                if k >= a.messages.len() {
                                    return Err(bad("message out of range"));
                                }
                                Entry::Refused(k)
                            }
                            None => {
                                let k: usize = w.parse().map_err(|_| bad("bad listing"))?;
                                if k >= a.seqs.len() {
                                    return Err(bad("listing out of range"));
                                }
                                Entry::Listing(k)
                            }
                        };
                        es.push(e);
                    }
                    if es.len() != a.archs.len() {
                        return Err(bad("one entry per architecture expected"));
                    }
                    a.forms.push((form.to_string(), es));
                }
                _ => return Err(bad("unknown tag")),
            }
        }
        Ok(a)
    }

    /// The architectures, oldest first.
    pub fn archs(&self) -> &[&'static str] {
        &self.archs
    }

    /// Every form, in the file's order.
    pub fn forms(&self) -> impl Iterator<Item = &str> {
        self.forms.iter().map(|f| f.0.as_str())
    }

    /// The index of a form given in canonical text.
    pub fn form(&self, canonical: &str) -> Option<usize> {
        self.forms.iter().position(|f| f.0 == canonical)
    }

    /// The architecture's cost of form `index` (an index of [`Atlas::form`] or
    /// [`Atlas::find`]); an index out of range gives an unavailable entry without a message.
    pub fn cost(&self, index: usize, arch: usize) -> Cost {
        let name = self.archs.get(arch).copied().unwrap_or("?");
        let entry = self.forms.get(index).and_then(|f| f.1.get(arch)).copied();
        match entry {
            Some(Entry::Listing(s)) => {
                let sass: Vec<String> = self.seqs[s]
                    .iter()
                    .map(|&k| self.lines[k].clone())
                    .collect();
                let core = core_of(&sass);
                Cost {
                    arch: name,
                    available: true,
                    native: core.len() == 1,
                    sass,
                    core,
                    message: None,
                }
            }
            Some(Entry::Refused(m)) => Cost {
                arch: name,
                available: false,
                sass: Vec::new(),
                core: Vec::new(),
                native: false,
                message: Some(self.messages[m].clone()),
            },
            None => Cost {
                arch: name,
                available: false,
                sass: Vec::new(),
                core: Vec::new(),
                native: false,
                message: None,
            },
        }
    }

    /// Every architecture's cost of form `index`.
    pub fn costs(&self, index: usize) -> Vec<Cost> {
        (0..self.archs.len()).map(|a| self.cost(index, a)).collect()
    }

    /// The form of an instruction in the atlas, or the measured form of the same opcode most
    /// like it (its registers renamed as in the data: `d, a, b, c`); `None` when the atlas has no
    /// form of the opcode.
    pub fn find(&self, insn: &Instruction) -> Option<Found> {
        let text = insn.canonical();
        if let Some(k) = self.form(&text) {
            return Some(Found {
                index: k,
                form: text,
                exact: true,
            });
        }
        let mine = words(&text);
        let name = insn.name();
        let (k, best) = self
            .forms
            .iter()
            .enumerate()
            .filter(|(_, f)| words(&f.0).first() == Some(&name))
            .max_by_key(|(k, f)| {
                let w = words(&f.0);
                let common = w.iter().filter(|x| mine.contains(x)).count();
                let extra = w.len().saturating_sub(common);
                // Common words, fewer extra ones, then the earlier form.
                (common, usize::MAX - extra, usize::MAX - k)
            })?;
        Some(Found {
            index: k,
            form: best.0.clone(),
            exact: best.0 == text,
        })
    }

    /// The cheapest and the dearest available architectures of form `index` by core count
    /// (indices into [`Atlas::archs`]); both empty when the counts are all the same.
    pub fn extremes(&self, index: usize) -> (Vec<usize>, Vec<usize>) {
        let counts: Vec<Option<usize>> = self
            .costs(index)
            .iter()
            .map(|c| c.available.then_some(c.core.len()))
            .collect();
        extremes(&counts)
    }
}

/// The places of the fewest and of the most computing instructions among `counts` (`None`:
/// not available there); both empty when every count is the same. The atlas's rows and the
/// intrinsic view's read it.
pub fn extremes(counts: &[Option<usize>]) -> (Vec<usize>, Vec<usize>) {
    let counts: Vec<(usize, usize)> = counts
        .iter()
        .enumerate()
        .filter_map(|(k, c)| c.map(|c| (k, c)))
        .collect();
    let (Some(min), Some(max)) = (
        counts.iter().map(|x| x.1).min(),
        counts.iter().map(|x| x.1).max(),
    ) else {
        return (Vec::new(), Vec::new());
    };
    if min == max {
        return (Vec::new(), Vec::new());
    }
    let pick = |v: usize| counts.iter().filter(|x| x.1 == v).map(|x| x.0).collect();
    (pick(min), pick(max))
}

/// Words of a canonical instruction, for likeness.
fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| c == '.' || c == ',' || c == ';' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaffolding_is_left_out_of_the_core() {
        let sass: Vec<String> = [
            "LDC R1, c[0x0][0x37c]",
            "LDG.E R0, desc[UR4][R2.64]",
            "IMAD.MOV.U32 R5, RZ, RZ, R0",
            "HFMA2.MMA R7, -RZ, RZ, 0, 0",
            "@P0 IADD3 R5, R0, 0x1, RZ",
            "PRMT R0, R0, 0x7773, RZ",
            "STG.E desc[UR4][R4.64], R5",
            "EXIT",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(core_of(&sass), ["IADD3", "PRMT"]);
    }

    #[test]
    fn the_forms_are_accepted_and_cover_every_opcode() {
        let forms = table_forms();
        for row in crate::isa::OPCODES {
            assert!(
                forms.iter().any(|f| f.split('.').next() == Some(row.name)),
                "{}",
                row.name
            );
        }
        for f in &forms {
            assert_eq!(check(f).map(|i| i.canonical()).as_deref(), Ok(f.as_str()));
        }
        let mut sorted = forms.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), forms.len());
        assert!(forms.contains(&"vabsdiff4.u32.u32.u32.add d, a, b, c;".to_string()));
        assert!(forms
            .iter()
            .any(|f| f.starts_with("vadd.") && f.contains("a.b1")));
    }

    #[test]
    fn bad_data_is_an_error_not_a_panic() {
        for bad in [
            "archs sm_91",
            "S 3",
            "archs sm_90\nF x\t0",
            "archs sm_90\nM m\nF x\t!1",
            "archs sm_90\nF x\t0 1",
            "Q",
        ] {
            assert!(Atlas::parse(bad).is_err(), "{bad}");
        }
    }
}
