//! Batches: many operand sets for one instruction, pasted as text, evaluated into a table and
//! exported as CSV.
//!
//! Accepted text, one operand set per line (blank lines and `#` or `//` comments skipped):
//!
//! - CSV (commas, semicolons or tabs) or space-separated values, in the order of the
//!   instruction's register sources: `0x12, 0x34, -5`;
//! - the same with a header line naming the columns (`a,b,c`; a `d` column is ignored, so
//!   measured cases can be pasted as they are); sources without a column are 0;
//! - `name=value` pairs: `a=0x12 b=0x34` (sources not named are 0).
//!
//! Values are hex (`0x..`), binary (`0b..`), decimal or negative decimal/hex (two's complement
//! in the operand's width); `_` may separate digits. A value that does not fit its operand is
//! an error, reported with its line number.
//!
//! Every instruction reads its batch the same way, by its register sources' roles (`a`, `b`,
//! `c`, `e`; `a0`, `a1` for the parts a `mov` packs); a program instruction's further
//! destinations (`setp`'s `q`, the carry flag) get columns of their own.
//!
//! ```
//! use ptxlab_core::batch;
//! use ptxlab_core::insn::check;
//!
//! let insn = check("add.u16 d, a, b;").unwrap();
//! let lines = batch::parse_batch("a,b\n0xffff,1\n5,-1\n", &insn);
//! let rows = batch::evaluate_batch(&insn, &lines);
//! assert_eq!(rows[0].d, Some(0));
//! assert_eq!(rows[1].d, Some(4));
//! let csv = batch::batch_csv(&insn, &rows);
//! assert!(csv.starts_with("line,a,b,d,d_unsigned,d_signed,flags,text_d,error\n"));
//! ```

use serde::Serialize;

use crate::ast::Instruction;
use crate::eval::Inputs;
use crate::readings::Reading;
use crate::trace::{Flag, Views};

/// At most this many operand sets are read; further lines are reported once.
pub const MAX_ROWS: usize = 100_000;

/// One operand set as read, with its line number (from 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchLine {
    /// The line number, from 1.
    pub line: usize,
    /// The sources, or what is wrong with the line (the message starts with `line N:`).
    pub inputs: Result<Inputs, String>,
}

/// One row of the result table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchRow {
    /// The line number, from 1.
    pub line: usize,
    /// The sources, when the line was read.
    pub inputs: Option<Inputs>,
    /// The value written to `d` (the hardware's).
    pub d: Option<u64>,
    /// `d` as hex, unsigned, signed and binary.
    pub views: Option<Views>,
    /// The notable events of the evaluation: clamps, wraps, masked-off lanes, division by
    /// zero...; [`Flag::HardwareDiffersFromText`] when the literal text gives another value.
    pub flags: Vec<Flag>,
    /// The ISA text's literal reading, when it differs from `d`.
    pub text_d: Option<u64>,
    /// What is wrong with the line, when it was not read.
    pub error: Option<String>,
    /// The further destinations of a program instruction (`setp`'s `q`, the other parts of
    /// an unpacking `mov`), in order; `None` for a `_` sink.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<Option<u64>>,
}

impl BatchRow {
    /// The row of a line that could not be read: its number and what is wrong.
    fn unread(line: usize, error: &str) -> BatchRow {
        BatchRow {
            line,
            inputs: None,
            d: None,
            views: None,
            flags: Vec::new(),
            text_d: None,
            error: Some(error.to_string()),
            more: Vec::new(),
        }
    }
}

/// A register source: (operand index, name, width in bits).
type Reg = (usize, String, u32);

/// A value as written, checked against a `bits`-bit operand ([`crate::value::parse_value`] in
/// any notation).
pub fn parse_operand_value(s: &str, bits: u32) -> Result<u64, String> {
    crate::value::parse_value(s, bits, None)
}

/// Split a line into fields: by tabs, semicolons or commas when it has any, else by spaces.
fn fields(line: &str) -> Vec<&str> {
    let sep = ['\t', ';', ','].into_iter().find(|c| line.contains(*c));
    match sep {
        Some(c) => line.split(c).map(str::trim).collect(),
        None => line.split_whitespace().collect(),
    }
}

/// Without its comment (`#` or `//` to the end of the line), trimmed.
fn strip_comment(line: &str) -> &str {
    let end = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    line[..end].trim()
}

/// Where a column goes: a source (index into `register_sources`) or nowhere (`d`).
type Columns = Vec<Option<usize>>;

/// A header line: every field an operand name. `Ok(None)` when the line is not a header.
fn header(fs: &[&str], regs: &[Reg], dsts: &[String], n: usize) -> Option<Result<Columns, String>> {
    // Letters and '_' (d_unsigned), and '.' for the carry flag's column, CC.CF.
    let is_name = |f: &str| {
        !f.is_empty()
            && f.chars()
                .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '.')
    };
    if fs.is_empty() || !fs.iter().all(|f| is_name(f)) {
        return None;
    }
    let mut cols = Vec::new();
    for f in fs {
        let name = f.to_ascii_lowercase();
        if dsts.iter().any(|d| d.eq_ignore_ascii_case(&name)) {
            cols.push(None);
            continue;
        }
        match regs.iter().position(|r| r.1.eq_ignore_ascii_case(&name)) {
            Some(k) if cols.contains(&Some(k)) => {
                return Some(Err(format!("line {n}: column {name} is named twice")))
            }
            Some(k) => cols.push(Some(k)),
            None => {
                let list: Vec<&str> = regs.iter().map(|r| r.1.as_str()).collect();
                return Some(Err(format!(
                    "line {n}: unknown column '{f}': this instruction's register sources are {}",
                    list.join(", ")
                )));
            }
        }
    }
    Some(Ok(cols))
}

fn set(inputs: &mut Inputs, operand: usize, v: u64) {
    match operand {
        0 => inputs.a = v,
        1 => inputs.b = v,
        2 => inputs.c = v,
        _ => inputs.e = v,
    }
}

/// Read operand sets for `insn` from pasted text (see the module's description). Columns named
/// after its destinations (`d`; `p`, `q`; `CC.CF_out`) are ignored.
pub fn parse_batch(text: &str, insn: &Instruction) -> Vec<BatchLine> {
    let dsts: Vec<String> = (0..insn.dst_count()).map(|k| dst_column(insn, k)).collect();
    parse_for(text, &insn.register_sources(), &dsts)
}

fn parse_for(text: &str, regs: &[Reg], dsts: &[String]) -> Vec<BatchLine> {
    let names: Vec<&str> = regs.iter().map(|r| r.1.as_str()).collect();
    let mut columns: Option<Columns> = None;
    let mut seen_data = false;
    let mut out = Vec::new();
    for (idx, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let n = idx + 1;
        let line = strip_comment(raw);
        if line.is_empty() {
            continue;
        }
        if out.len() >= MAX_ROWS {
            out.push(BatchLine {
                line: n,
                inputs: Err(format!(
                    "line {n}: too many lines: at most {MAX_ROWS} operand sets are read"
                )),
            });
            break;
        }
        let fs = fields(line);
        if !seen_data && columns.is_none() && !line.contains('=') {
            if let Some(h) = header(&fs, regs, dsts, n) {
                match h {
                    Ok(c) => columns = Some(c),
                    Err(e) => out.push(BatchLine {
                        line: n,
                        inputs: Err(e),
                    }),
                }
                continue;
            }
        }
        seen_data = true;
        out.push(BatchLine {
            line: n,
            inputs: parse_line(n, &fs, line, regs, &names, dsts, columns.as_deref()),
        });
    }
    out
}

fn parse_line(
    n: usize,
    fs: &[&str],
    line: &str,
    regs: &[Reg],
    names: &[&str],
    dsts: &[String],
    columns: Option<&[Option<usize>]>,
) -> Result<Inputs, String> {
    let mut inputs = Inputs::default();
    let value = |k: usize, s: &str| {
        let (_, name, bits) = (&regs[k].0, &regs[k].1, regs[k].2);
        parse_operand_value(s, bits).map_err(|e| format!("line {n}: {name}: {e}"))
    };
    if line.contains('=') {
        // name=value pairs, separated by spaces or the field separator.
        let pairs: Vec<&str> = fs
            .iter()
            .flat_map(|f| f.split_whitespace())
            .filter(|p| !p.is_empty())
            .collect();
        let mut given: Vec<usize> = Vec::new();
        for p in pairs {
            let Some((k, v)) = p.split_once('=') else {
                return Err(format!(
                    "line {n}: '{p}' is not name=value (write every source as a=..., or none)"
                ));
            };
            let key = k.trim().to_ascii_lowercase();
            if dsts.iter().any(|d| d.eq_ignore_ascii_case(&key)) {
                continue;
            }
            let Some(pos) = regs.iter().position(|r| r.1.eq_ignore_ascii_case(&key)) else {
                return Err(format!(
                    "line {n}: unknown operand '{}': this instruction's register sources are {}",
                    k.trim(),
                    names.join(", ")
                ));
            };
            if given.contains(&pos) {
                return Err(format!("line {n}: {key} is given twice"));
            }
            given.push(pos);
            set(&mut inputs, regs[pos].0, value(pos, v)?);
        }
        return Ok(inputs);
    }
    match columns {
        Some(cols) => {
            if fs.len() != cols.len() {
                return Err(format!(
                    "line {n}: {} values, but the header names {} columns",
                    fs.len(),
                    cols.len()
                ));
            }
            for (f, c) in fs.iter().zip(cols) {
                if let Some(k) = *c {
                    if f.is_empty() {
                        return Err(format!("line {n}: no value for {}", regs[k].1));
                    }
                    set(&mut inputs, regs[k].0, value(k, f)?);
                }
            }
        }
        None => {
            if fs.len() != regs.len() {
                return Err(format!(
                    "line {n}: {} value{}, but this instruction reads {} register source{} ({})",
                    fs.len(),
                    if fs.len() == 1 { "" } else { "s" },
                    regs.len(),
                    if regs.len() == 1 { "" } else { "s" },
                    names.join(", ")
                ));
            }
            for (k, f) in fs.iter().enumerate() {
                if f.is_empty() {
                    return Err(format!("line {n}: no value for {}", regs[k].1));
                }
                set(&mut inputs, regs[k].0, value(k, f)?);
            }
        }
    }
    Ok(inputs)
}

/// Evaluate every operand set: `d` (the first destination), its views, the notable events and
/// the text reading where it differs; a program instruction's further destinations go to
/// [`BatchRow::more`]. Each case is evaluated without stages, its flags those its stages would
/// carry. Lines that could not be read give a row with their error.
pub fn evaluate_batch(insn: &Instruction, lines: &[BatchLine]) -> Vec<BatchRow> {
    let bits = insn.dst_bits(0);
    let may_differ = insn.readings_may_differ();
    lines
        .iter()
        .map(|l| match &l.inputs {
            Err(e) => BatchRow::unread(l.line, e),
            Ok(i) => {
                let (values, mut fs) = insn.values_quiet(i);
                let d = values.first().copied().flatten();
                let text_d = d
                    .filter(|_| may_differ)
                    .map(|d| (d, insn.value_reading(i, Reading::Text)))
                    .and_then(|(d, t)| (t != d).then_some(t));
                if text_d.is_some() {
                    fs.bits |= Flag::HardwareDiffersFromText.bit();
                }
                BatchRow {
                    line: l.line,
                    inputs: Some(*i),
                    d,
                    views: d.map(|d| Views::of(d, bits)),
                    flags: fs.flags().collect(),
                    text_d,
                    error: None,
                    more: values.iter().skip(1).copied().collect(),
                }
            }
        })
        .collect()
}

/// The column of destination `k`: its role (`d`, `q`, `d1`), and for the carry flag a link of
/// the carry chain writes, `CC.CF_out` (`CC.CF` is the column of the carry it reads).
fn dst_column(insn: &Instruction, k: usize) -> String {
    if insn.writes_carry(k) {
        format!("{}_out", insn.dst_name(k))
    } else {
        insn.dst_name(k)
    }
}

/// The table as CSV: `line`, each register source (hex), the first destination (hex, named by
/// its role: `d`, `p`, `d0`), its `_unsigned` and `_signed` views, a column for each further
/// destination (`q`, `d1`, `CC.CF_out`), `flags` (names separated by spaces), `text_d` (hex,
/// when the text reading differs), `error`.
pub fn batch_csv(insn: &Instruction, rows: &[BatchRow]) -> String {
    let regs = insn.register_sources();
    let bits = insn.dst_bits(0);
    let first = insn.dst_name(0);
    let mut head: Vec<String> = vec!["line".into()];
    head.extend(regs.iter().map(|r| r.1.clone()));
    head.extend([
        first.clone(),
        format!("{first}_unsigned"),
        format!("{first}_signed"),
    ]);
    head.extend((1..insn.dst_count()).map(|k| dst_column(insn, k)));
    head.extend(["flags".into(), "text_d".into(), "error".into()]);
    let mut s = head.join(",");
    s.push('\n');
    for row in rows {
        let mut f: Vec<String> = vec![row.line.to_string()];
        for (k, _, w) in &regs {
            f.push(
                row.inputs
                    .map(|i| hex(i.as_array()[*k], *w))
                    .unwrap_or_default(),
            );
        }
        match &row.views {
            // A predicate has no sign: both decimal views read 0 or 1.
            Some(v) if bits == 1 => {
                f.extend([v.hex.clone(), v.unsigned.clone(), v.unsigned.clone()])
            }
            Some(v) => f.extend([v.hex.clone(), v.unsigned.clone(), v.signed.clone()]),
            None => f.extend([String::new(), String::new(), String::new()]),
        }
        for k in 1..insn.dst_count() {
            let v = row.more.get(k - 1).copied().flatten();
            f.push(v.map(|v| hex(v, insn.dst_bits(k))).unwrap_or_default());
        }
        f.push(
            row.flags
                .iter()
                .map(|x| x.name())
                .collect::<Vec<_>>()
                .join(" "),
        );
        f.push(row.text_d.map(|t| hex(t, bits)).unwrap_or_default());
        f.push(row.error.clone().unwrap_or_default());
        let line: Vec<String> = f.iter().map(|x| csv_field(x)).collect();
        s.push_str(&line.join(","));
        s.push('\n');
    }
    s
}

/// A CSV field, quoted when it needs to be.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn hex(v: u64, bits: u32) -> String {
    let digits = bits.clamp(1, 64).div_ceil(4) as usize;
    format!("0x{v:0digits$x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insn::check;
    use crate::parse;

    fn ok(lines: &[BatchLine]) -> Vec<Inputs> {
        lines
            .iter()
            .map(|l| l.inputs.clone().unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    #[test]
    fn bare_values_in_operand_order() {
        let insn = check("vadd.u32.u32.u32.sat d, a, b, c;").unwrap();
        let text = "0x10 0x20 0x30\n\n# a comment\n1,2,3 // trailing comment\n-1;0b101;1_000\n";
        let got = ok(&parse_batch(text, &insn));
        assert_eq!(
            got,
            [
                Inputs::new(0x10, 0x20, 0x30, 0),
                Inputs::new(1, 2, 3, 0),
                Inputs::new(0xffff_ffff, 5, 1000, 0)
            ]
        );
        let lines = parse_batch(text, &insn);
        assert_eq!(lines.iter().map(|l| l.line).collect::<Vec<_>>(), [1, 4, 5]);
    }

    #[test]
    fn header_and_name_value_pairs() {
        let insn = check("bfi.b32 d, a, b, c, e;").unwrap();
        // Columns in any order; d ignored; e present.
        let got = ok(&parse_batch("e,a,d\n8,0xff,0x1234\n", &insn));
        assert_eq!(got, [Inputs::new(0xff, 0, 0, 8)]);
        let got = ok(&parse_batch("a=1 c=4\nb=0X2, e=3\n", &insn));
        assert_eq!(got, [Inputs::new(1, 0, 4, 0), Inputs::new(0, 2, 0, 3)]);
        // Measured cases pasted as they are: ptx-less columns.
        let insn = check("add.s16 d, a, b;").unwrap();
        let got = ok(&parse_batch("a\tb\td\n0x7fff\t0x0001\t0x8000\n", &insn));
        assert_eq!(got, [Inputs::new(0x7fff, 1, 0, 0)]);
    }

    #[test]
    fn widths_and_negative_values() {
        let insn = check("add.s16 d, a, b;").unwrap();
        let got = ok(&parse_batch("-1 -32768\n0xffff 32767\n", &insn));
        assert_eq!(
            got,
            [
                Inputs::new(0xffff, 0x8000, 0, 0),
                Inputs::new(0xffff, 0x7fff, 0, 0)
            ]
        );
        let bad = parse_batch("0x10000 1\n-32769 0\n", &insn);
        assert_eq!(
            bad[0].inputs,
            Err("line 1: a: '0x10000' does not fit in 16 bits".to_string())
        );
        assert!(bad[1]
            .inputs
            .as_ref()
            .unwrap_err()
            .contains("below the smallest 16-bit"));
        // 64-bit operands take the whole range.
        let wide = check("add.u64 d, a, b;").unwrap();
        let got = ok(&parse_batch("0xffffffffffffffff -1\n", &wide));
        assert_eq!(got, [Inputs::new(u64::MAX, u64::MAX, 0, 0)]);
    }

    #[test]
    fn clear_messages_for_bad_lines() {
        let insn = check("vadd.u32.u32.u32 d, a, b;").unwrap();
        let msg = |t: &str| parse_batch(t, &insn)[0].inputs.clone().unwrap_err();
        assert_eq!(
            msg("1 2 3"),
            "line 1: 3 values, but this instruction reads 2 register sources (a, b)"
        );
        assert!(msg("1 zz").starts_with("line 1: b: 'zz' is not a number"));
        assert!(msg("a=1 q=2").contains("unknown operand 'q'"));
        assert!(msg("a=1 a=2").contains("a is given twice"));
        assert!(msg("a=1 2").contains("'2' is not name=value"));
        assert!(msg("1,").contains("no value for b"));
        assert!(msg("a,x").contains("unknown column 'x'"));
        let lines = parse_batch("a,b\n1\n", &insn);
        assert!(lines[0]
            .inputs
            .as_ref()
            .unwrap_err()
            .contains("1 values, but the header names 2 columns"));
        // Immediates are not register sources.
        let imm = check("add.u32 d, a, 5;").unwrap();
        assert_eq!(ok(&parse_batch("7\n", &imm)), [Inputs::new(7, 0, 0, 0)]);
        assert!(parse_batch("b=1\n", &imm)[0].inputs.is_err());
    }

    #[test]
    fn rows_flags_and_csv() {
        let insn = check("vsub.s32.s32.s32.sat d.b1, a.b0, b.b2, c;").unwrap();
        let lines = parse_batch("a,b,c\n0x8001,0x8c27aa83,4\n3,0x10000,0\nx,1,2\n", &insn);
        let rows = evaluate_batch(&insn, &lines);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].d, Some(0x7f04));
        assert!(rows[0].flags.contains(&Flag::ClampedHigh));
        assert!(rows[0].flags.contains(&Flag::HardwareDiffersFromText));
        assert_eq!(rows[0].text_d, Some(0xda04));
        assert_eq!(rows[1].d, Some(insn.value(&Inputs::new(3, 0x10000, 0, 0))));
        assert!(rows[1].flags.is_empty());
        assert!(rows[2].error.is_some());
        let csv = batch_csv(&insn, &rows);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "line,a,b,c,d,d_unsigned,d_signed,flags,text_d,error"
        );
        assert_eq!(
            lines[1],
            "2,0x00008001,0x8c27aa83,0x00000004,0x00007f04,32516,32516,clamped-high hardware-differs-from-text,0x0000da04,"
        );
        assert!(lines[3].starts_with("4,,,,,,,,,\"line 4: a: 'x' is not a number"));
    }

    #[test]
    fn odd_input_does_not_panic() {
        for text in [
            "",
            "\n\n",
            "=",
            "a=",
            "==,,",
            "0x",
            "-",
            "a,a",
            "d",
            "\u{feff}1 2",
            "1 2\r\n3 4\r\n",
        ] {
            for ptx in [
                "vadd.u32.u32.u32 d, a, b;",
                "bfi.b64 d, a, b, c, e;",
                "vadd d;",
            ] {
                let insn = parse(ptx).unwrap();
                let lines = parse_batch(text, &insn);
                let rows = evaluate_batch(&insn, &lines);
                let _ = batch_csv(&insn, &rows);
            }
        }
        let many = "1 2\n".repeat(MAX_ROWS + 5);
        let insn = check("vadd.u32.u32.u32 d, a, b;").unwrap();
        let lines = parse_batch(&many, &insn);
        assert_eq!(lines.len(), MAX_ROWS + 1);
        assert!(lines.last().unwrap().inputs.is_err());
    }

    #[test]
    fn program_instructions_by_role() {
        let insn = check("setp.lt.s32 p|q, a, b;").unwrap();
        let mut lines = parse_batch("a,b,p\n-1,1,1\n", &insn);
        lines.extend(parse_batch("5 3\na=1 q=0 b=1\nc=1\n", &insn));
        let rows = evaluate_batch(&insn, &lines);
        assert_eq!(rows[0].d, Some(1));
        assert_eq!(rows[0].more, [Some(0)]);
        assert_eq!((rows[1].d, rows[1].more[0]), (Some(0), Some(1)));
        assert_eq!(rows[2].d, Some(0));
        assert!(rows[3]
            .error
            .as_deref()
            .unwrap()
            .contains("unknown operand 'c'"));
        let csv = batch_csv(&insn, &rows);
        let mut l = csv.lines();
        assert_eq!(
            l.next(),
            Some("line,a,b,p,p_unsigned,p_signed,q,flags,text_d,error")
        );
        assert_eq!(l.next(), Some("2,0xffffffff,0x00000001,0x1,1,1,0x0,,,"));
        // An immediate is not a column; flags come from the trace.
        let insn = check("cvt.sat.u8.s32 d, a;").unwrap();
        let rows = evaluate_batch(&insn, &parse_batch("-5\n300\n7\n", &insn));
        let d: Vec<Option<u64>> = rows.iter().map(|r| r.d).collect();
        assert_eq!(d, [Some(0), Some(255), Some(7)]);
        assert_eq!(rows[0].flags, [Flag::ClampedLow]);
        let insn = check("prmt.b32 d, a, b, 0x7c40;").unwrap();
        let csv = batch_csv(
            &insn,
            &evaluate_batch(&insn, &parse_batch("0x11223344 0x8899aabb", &insn)),
        );
        assert!(csv.starts_with("line,a,b,d,"), "{csv}");
        assert!(csv.contains(",0x88ffbb44,"), "{csv}");
    }
}
