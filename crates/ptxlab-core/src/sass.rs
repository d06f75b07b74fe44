//! What sm_90 runs: the machine instructions ptxas emits for an instruction.
//!
//! `shared/conformance/sass-sm90.json` holds `cuobjdump -sass` of a small kernel around one
//! representative form of each instruction: load the sources, run the instruction, store `d`.
//! [`extract`] keeps the instructions that do the work and drops that scaffolding; the result
//! for every measured form is committed as `sass-sm90.txt` beside this file (a test derives it
//! again from the JSON file and compares). [`lookup`] finds an instruction's form, or the
//! measured form of the same opcode closest to it.
//!
//! ```
//! use ptxlab_core::{check, sass};
//!
//! let insn = check("vabsdiff4.u32.u32.u32 d, a, b, c;").unwrap();
//! let found = sass::lookup(&insn).unwrap();
//! assert!(found.exact);
//! assert_eq!(found.form.kind, sass::SassKind::Native);
//! assert_eq!(found.form.instructions, ["VABSDIFF4.U8 R6, R6, R9, R0"]);
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Serialize;

use crate::ast::Instruction;

/// The committed listings, as [`render`] writes them.
pub const DATA: &str = include_str!("sass-sm90.txt");

/// How sm_90 carries out an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SassKind {
    /// One machine instruction does all the work.
    Native,
    /// One dedicated machine instruction (`FLO`, `SGXT`, `VABSDIFF` ...) does the work; a few
    /// ordinary ones prepare its operands or adjust its result.
    NativeWithGlue,
    /// A sequence of ordinary integer instructions (`PRMT`, `IADD3`, `SEL`, `LOP3` ...).
    Emulated,
}

impl SassKind {
    /// The name used in JSON and the CLI: `native`, `native-with-glue`, `emulated`.
    pub fn name(self) -> &'static str {
        match self {
            SassKind::Native => "native",
            SassKind::NativeWithGlue => "native-with-glue",
            SassKind::Emulated => "emulated",
        }
    }
}

/// Machine instructions that do a whole operation of their own (as opposed to the ordinary
/// moves, adds, shifts, selects and logic that emulation is built from).
const DEDICATED: &[&str] = &[
    "VABSDIFF4",
    "VABSDIFF",
    "IDP",
    "BMSK",
    "POPC",
    "FLO",
    "BREV",
    "SGXT",
    "VIMNMX",
    "IABS",
];

/// The machine code of one measured form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SassForm {
    /// The measured instruction, in canonical form.
    pub ptx: String,
    /// The machine instructions that implement it, in program order.
    pub instructions: Vec<String>,
    /// Whether sm_90 has a dedicated instruction for it, or emulates it.
    pub kind: SassKind,
    /// The dedicated instruction doing the work, for [`SassKind::Native`] and
    /// [`SassKind::NativeWithGlue`].
    pub core: Option<String>,
}

impl SassForm {
    fn new(ptx: String, instructions: Vec<String>) -> SassForm {
        let (kind, core) = classify(&instructions);
        SassForm {
            ptx,
            instructions,
            kind,
            core,
        }
    }
    /// A sentence on how the instruction is carried out.
    pub fn summary(&self) -> String {
        let n = self.instructions.len();
        match (self.kind, &self.core) {
            (SassKind::Native, Some(c)) => format!("one machine instruction: {c}"),
            (SassKind::NativeWithGlue, Some(c)) => format!(
                "{c} does the work, with {} more instruction{} around it",
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
            _ => {
                let mut names: Vec<&str> = Vec::new();
                for i in &self.instructions {
                    let b = mnemonic_base(i);
                    if !names.contains(&b) {
                        names.push(b);
                    }
                }
                format!(
                    "no instruction of its own: emulated by {n} ordinary instructions ({})",
                    names.join(", ")
                )
            }
        }
    }
}

fn mnemonic_base(ins: &str) -> &str {
    let s = strip_guard(ins);
    let op = s.split_whitespace().next().unwrap_or("");
    op.split('.').next().unwrap_or("")
}

fn strip_guard(ins: &str) -> &str {
    let t = ins.trim_start();
    if t.starts_with('@') {
        t.split_once(char::is_whitespace)
            .map_or("", |x| x.1)
            .trim_start()
    } else {
        t
    }
}

/// Native, native with glue or emulated, and the dedicated instruction if any.
pub fn classify(instructions: &[String]) -> (SassKind, Option<String>) {
    let dedicated: Vec<&String> = instructions
        .iter()
        .filter(|i| DEDICATED.contains(&mnemonic_base(i)))
        .collect();
    let core = || {
        dedicated.first().map(|i| {
            strip_guard(i)
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string()
        })
    };
    if instructions.len() == 1 {
        let op = strip_guard(&instructions[0])
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string();
        (SassKind::Native, Some(op))
    } else if dedicated.len() == 1 && instructions.len() <= 6 {
        (SassKind::NativeWithGlue, core())
    } else {
        (SassKind::Emulated, None)
    }
}

// ---------------------------------------------------------------------------------------------
// Extraction

/// One instruction of a listing.
#[derive(Clone, Debug)]
struct Line {
    addr: Option<u64>,
    /// Without the trailing `;`.
    text: String,
    op: String,
    operands: Vec<String>,
}

fn parse_listing(listing: &str) -> Vec<Line> {
    let mut out = Vec::new();
    for raw in listing.lines() {
        let t = raw.trim_start();
        let Some(rest) = t.strip_prefix("/*") else {
            continue;
        };
        let Some((addr, body)) = rest.split_once("*/") else {
            continue;
        };
        if addr.is_empty() || !addr.chars().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        let text = body.split(';').next().unwrap_or("").trim().to_string();
        if text.is_empty() {
            continue;
        }
        let inner = strip_guard(&text);
        let (op, args) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
        out.push(Line {
            addr: u64::from_str_radix(addr, 16).ok(),
            op: op.to_string(),
            operands: args
                .split(',')
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect(),
            text,
        });
    }
    out
}

/// Registers named in an operand (`R7`, `UR4`, `P0`, `B0`; a `.64` register counts as a pair).
/// The zero and true registers (`RZ`, `URZ`, `PT`, `UPT`) are left out.
fn registers(operand: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in operand.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_')) {
        let mut parts = word.split('.');
        let name = parts.next().unwrap_or("");
        let pair = word.split('.').any(|p| p == "64");
        let (prefix, num) = match name.find(|c: char| c.is_ascii_digit()) {
            Some(i) => name.split_at(i),
            None => continue,
        };
        if !matches!(prefix, "R" | "UR" | "P" | "UP" | "B")
            || !num.chars().all(|c| c.is_ascii_digit())
        {
            continue;
        }
        out.push(name.to_string());
        if pair {
            if let Ok(n) = num.parse::<u32>() {
                out.push(format!("{prefix}{}", n + 1));
            }
        }
    }
    out
}

fn is_pred(operand: &str) -> bool {
    let o = operand.trim_start_matches('!');
    o == "PT" || (o.starts_with('P') && o[1..].chars().all(|c| c.is_ascii_digit()) && o.len() > 1)
}

/// The registers an instruction writes and those it reads.
fn dests_and_sources(l: &Line) -> (Vec<String>, Vec<String>) {
    let base = l.op.split('.').next().unwrap_or("");
    let no_dest = matches!(
        base,
        "STG"
            | "ST"
            | "STS"
            | "BRA"
            | "EXIT"
            | "NOP"
            | "CALL"
            | "RET"
            | "BSYNC"
            | "BAR"
            | "WARPSYNC"
    );
    let mut ndest = if no_dest || l.operands.is_empty() {
        0
    } else {
        1
    };
    if ndest == 1
        && l.operands.len() > 3
        && is_pred(&l.operands[1])
        && !l.operands[1].starts_with('!')
    {
        ndest = 2;
    }
    let wide = l.op.contains(".64") || l.op.contains(".WIDE");
    let mut dests = Vec::new();
    for (i, o) in l.operands.iter().take(ndest).enumerate() {
        for r in registers(o) {
            if i == 0 && wide && r.starts_with('R') {
                let n: u32 = r[1..].parse().unwrap_or(0);
                dests.push(r);
                dests.push(format!("R{}", n + 1));
            } else {
                dests.push(r);
            }
        }
    }
    let mut sources: Vec<String> = l
        .operands
        .iter()
        .skip(ndest)
        .flat_map(|o| registers(o))
        .collect();
    // A 64-bit store writes a register pair named by its first register.
    if no_dest && l.op.contains(".64") {
        if let Some(r) = l.operands.last().map(|o| registers(o)) {
            if let [one] = r.as_slice() {
                if let Some(n) = one.strip_prefix('R').and_then(|n| n.parse::<u32>().ok()) {
                    sources.push(format!("R{}", n + 1));
                }
            }
        }
    }
    // A guard predicate is read too.
    if let Some(g) = l.text.trim_start().strip_prefix('@') {
        let g = g
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_start_matches('!');
        sources.extend(registers(g));
    }
    (dests, sources)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Thread and block indices, kernel parameters, addresses.
    Scaffold,
    /// Derived from the loaded sources.
    Data,
    /// Built from constants only.
    Const,
}

/// The machine instructions of a `cuobjdump -sass` listing that implement the instruction,
/// without the kernel's scaffolding: constant and parameter loads (`LDC`, `ULDC`), thread and
/// block indices (`S2R`, `S2UR`) and everything computed only from them (the thread index
/// `IMAD`, the address `IMAD.WIDE.U32`), the loads and the store (`LDG`, `STG`), the zeroing of
/// the stored 64-bit value's high word, a plain move into the stored register, `EXIT`, the
/// final branch to itself and the `NOP` padding.
pub fn extract(listing: &str) -> Vec<String> {
    let lines = parse_listing(listing);
    let mut class: HashMap<String, Class> = HashMap::new();
    let mut keep = vec![false; lines.len()];
    let mut io: Vec<(Vec<String>, Vec<String>)> = Vec::with_capacity(lines.len());
    let mut const_only = vec![false; lines.len()];
    for (k, l) in lines.iter().enumerate() {
        let (dests, sources) = dests_and_sources(l);
        let base = l.op.split('.').next().unwrap_or("");
        let dropped_op = match base {
            "NOP" | "EXIT" | "STG" => Some(None),
            "LDC" | "ULDC" | "S2R" | "S2UR" => Some(Some(Class::Scaffold)),
            "LDG" => Some(Some(Class::Data)),
            // The branch to itself that ends the program.
            "BRA" => {
                let target = l
                    .operands
                    .first()
                    .and_then(|t| u64::from_str_radix(t.trim_start_matches("0x"), 16).ok());
                (!l.text.starts_with('@') && target.is_some() && target == l.addr).then_some(None)
            }
            _ => None,
        };
        let cls = match dropped_op {
            Some(c) => c,
            None => {
                let classes: Vec<Class> = sources
                    .iter()
                    .map(|r| class.get(r).copied().unwrap_or(Class::Const))
                    .collect();
                if classes.contains(&Class::Data) {
                    keep[k] = true;
                    Some(Class::Data)
                } else if classes.contains(&Class::Scaffold) {
                    Some(Class::Scaffold)
                } else {
                    keep[k] = true;
                    const_only[k] = true;
                    Some(Class::Const)
                }
            }
        };
        if let Some(c) = cls {
            for d in &dests {
                class.insert(d.clone(), c);
            }
        }
        io.push((dests, sources));
    }
    // Values written only for the store: the high word's zero, a plain copy into the stored
    // register.
    for k in 0..lines.len() {
        if !keep[k] || io[k].0.len() != 1 {
            continue;
        }
        let x = &io[k].0[0];
        let mut readers = Vec::new();
        for (j, (dests, sources)) in io.iter().enumerate().skip(k + 1) {
            if sources.contains(x) {
                readers.push(j);
            }
            if dests.contains(x) {
                break;
            }
        }
        let only_store = !readers.is_empty()
            && readers
                .iter()
                .all(|&j| lines[j].op.starts_with("STG") || lines[j].op.starts_with("ST."));
        if !only_store {
            continue;
        }
        let plain_move = matches!(lines[k].op.as_str(), "MOV" | "IMAD.MOV.U32")
            && io[k].1.len() == 1
            && lines[k]
                .operands
                .iter()
                .skip(1)
                .all(|o| o == "RZ" || registers(o).len() == 1);
        if const_only[k] || plain_move {
            keep[k] = false;
        }
    }
    lines
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(l, _)| clean(&l.text))
        .collect()
}

/// An instruction as shown: `.reuse` hints dropped, spaces tidied.
fn clean(text: &str) -> String {
    text.replace(".reuse", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------------------------
// The committed data

/// The data file's text for these forms: a `>` line with the canonical instruction, then its
/// machine instructions one per line.
pub fn render(forms: &[(String, Vec<String>)]) -> String {
    let mut s = String::from(
        "# Machine code ptxas emits for sm_90, one measured form per block: derived from\n\
         # shared/conformance/sass-sm90.json by ptxlab_core::sass::extract (the kernel's loads,\n\
         # store, indices and addresses left out). Regenerate: PTXLAB_BLESS=1 cargo test -p\n\
         # ptxlab-core --test sass\n",
    );
    for (ptx, ins) in forms {
        s.push_str("> ");
        s.push_str(ptx);
        s.push('\n');
        for i in ins {
            s.push_str(i);
            s.push('\n');
        }
    }
    s
}

/// Parse text in the format [`render`] writes.
pub fn parse_data(text: &str) -> Vec<SassForm> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(p) = line.strip_prefix("> ") {
            out.push((p.trim().to_string(), Vec::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push(line.trim().to_string());
        }
    }
    out.into_iter().map(|(p, i)| SassForm::new(p, i)).collect()
}

/// Every measured form, from the committed data.
pub fn forms() -> &'static [SassForm] {
    static FORMS: OnceLock<Vec<SassForm>> = OnceLock::new();
    FORMS.get_or_init(|| parse_data(DATA))
}

/// The machine code found for an instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SassLookup {
    /// Whether `form` is the instruction itself (same canonical text, registers named by role
    /// as in the measurements: `d, a, b, c`).
    pub exact: bool,
    /// The measured form that was found.
    pub form: &'static SassForm,
    /// What was found, in a sentence.
    pub note: String,
}

/// Words of a canonical instruction, for likeness.
fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| c == '.' || c == ',' || c == ';' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The measured machine code of `insn`'s form or, when that form was not measured, of the
/// measured form of the same opcode most like it; `None` when the opcode was not measured.
pub fn lookup(insn: &Instruction) -> Option<SassLookup> {
    let text = insn.canonical();
    let all = forms();
    if let Some(f) = all.iter().find(|f| f.ptx == text) {
        return Some(SassLookup {
            exact: true,
            form: f,
            note: format!("ptxas output for this form: {}", f.summary()),
        });
    }
    let mine = words(&text);
    let best = all
        .iter()
        .filter(|f| words(&f.ptx).first() == mine.first())
        .max_by_key(|f| {
            let w = words(&f.ptx);
            // Common words, then the shorter listing text as a tie-break (stable choice).
            (
                w.iter().filter(|x| mine.contains(x)).count(),
                usize::MAX - f.ptx.len(),
            )
        })?;
    Some(SassLookup {
        exact: false,
        form: best,
        note: format!(
            "this form was not measured; for the same opcode, `{}` was: {}",
            best.ptx,
            best.summary()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check;

    const LISTING: &str = "
        /*0000*/                   LDC R1, c[0x0][0x28] ;            /* 0x00000a00ff017b82 */
                                                                     /* 0x000fe20000000800 */
        /*0010*/                   S2R R7, SR_TID.X ;                /* 0x0000000000077919 */
        /*0020*/                   S2UR UR4, SR_CTAID.X ;            /* 0x00000000000479c3 */
        /*0030*/                   LDC R0, c[0x0][RZ] ;              /* 0x00000000ff007b82 */
        /*0040*/                   LDC.64 R2, c[0x0][0x210] ;        /* 0x00008400ff027b82 */
        /*0050*/                   LDC.64 R4, c[0x0][0x218] ;        /* 0x00008600ff047b82 */
        /*0060*/                   IMAD R7, R0, UR4, R7 ;            /* 0x0000000400077c24 */
        /*0070*/                   ULDC.64 UR4, c[0x0][0x208] ;      /* 0x0000820000047ab9 */
        /*0080*/                   IMAD.WIDE.U32 R2, R7, 0x28, R2 ;  /* 0x0000002807027825 */
        /*0090*/                   LDG.E R0, desc[UR4][R2.64] ;      /* 0x0000000402007981 */
        /*00a0*/                   LDG.E R6, desc[UR4][R2.64+0x8] ;  /* 0x0000080402067981 */
        /*00b0*/                   IMAD.WIDE.U32 R4, R7, 0x8, R4 ;   /* 0x0000000807047825 */
        /*00c0*/                   HFMA2.MMA R7, -RZ, RZ, 0, 0 ;     /* 0x00000000ff077435 */
        /*00d0*/                   PRMT R0, R0.reuse, 0x7773, RZ ;   /* 0x0000777300007816 */
        /*00e0*/                   PRMT R9, R6, 0x7773, RZ ;         /* 0x0000777306097816 */
        /*00f0*/                   IADD3 R6, R0, R9, RZ ;            /* 0x0000000900067210 */
        /*0100*/                   STG.E.64 desc[UR4][R4.64], R6 ;   /* 0x0000000604007986 */
        /*0110*/                   EXIT ;                            /* 0x000000000000794d */
        /*0120*/                   BRA 0x120;                        /* 0xfffffffc00fc7947 */
        /*0130*/                   NOP;                              /* 0x0000000000007918 */
";

    #[test]
    fn scaffolding_is_dropped() {
        assert_eq!(
            extract(LISTING),
            [
                "PRMT R0, R0, 0x7773, RZ",
                "PRMT R9, R6, 0x7773, RZ",
                "IADD3 R6, R0, R9, RZ"
            ]
        );
    }

    #[test]
    fn registers_and_pairs() {
        assert_eq!(registers("desc[UR4][R2.64+0x8]"), ["UR4", "R2", "R3"]);
        assert_eq!(registers("|R4|.reuse"), ["R4"]);
        assert_eq!(registers("!P0"), ["P0"]);
        assert!(registers("RZ").is_empty() && registers("PT").is_empty());
        assert!(registers("0x7773").is_empty() && registers("SR_TID.X").is_empty());
    }

    #[test]
    fn kinds() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(classify(&s(&["POPC R6, R2"])).0, SassKind::Native);
        let (k, core) = classify(&s(&["FLO.U32 R6, R2", "IADD3 R6, -R6, 0x1f, RZ"]));
        assert_eq!(
            (k, core.as_deref()),
            (SassKind::NativeWithGlue, Some("FLO.U32"))
        );
        assert_eq!(
            classify(&s(&["PRMT R0, R0, 0x7773, RZ", "IADD3 R6, R0, R9, RZ"])).0,
            SassKind::Emulated
        );
    }

    #[test]
    fn committed_forms_parse_and_look_up() {
        let all = forms();
        assert!(all.len() >= 50, "{} forms", all.len());
        for f in all {
            assert!(!f.instructions.is_empty(), "{}: no instructions", f.ptx);
            let insn = check(&f.ptx).unwrap_or_else(|e| panic!("{}: {}", f.ptx, e.message));
            assert_eq!(insn.canonical(), f.ptx, "stored form is canonical");
            let l = lookup(&insn).unwrap();
            assert!(l.exact);
            assert_eq!(l.form.ptx, f.ptx);
        }
        // Another form of a measured opcode: the closest measured one.
        let insn = check("vadd.s32.u32.s32.sat d, a.b3, b.b3;").unwrap();
        let l = lookup(&insn).unwrap();
        assert!(!l.exact);
        assert_eq!(l.form.ptx, "vadd.u32.u32.u32 d, a.b3, b.b3;");
        assert!(l.note.contains("not measured"));
        let brev = lookup(&check("brev.b32 d, a;").unwrap()).unwrap();
        assert_eq!(brev.form.kind, SassKind::Native);
        let vadd4 = lookup(&check("vadd4.u32.u32.u32 d, a, b, c;").unwrap()).unwrap();
        assert_eq!(vadd4.form.kind, SassKind::Emulated);
    }
}
