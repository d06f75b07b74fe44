//! Test vectors for other implementations of one instruction form: `ptxlab vectors`.
//!
//! The vectors are operand sets with the value an H100 writes to `d` for each:
//!
//! - **edges** of every register source's width (0, 1, the signed extremes and their
//!   neighbours, all ones), two sources at a time;
//! - **fields**: each field a selector picks (`a.b2`, a SIMD lane, the low 24 bits of `mul24`)
//!   set to its own edges, with the other bits of the register holding a pattern, so that an
//!   implementation that reads the wrong byte gives another `d`; shift amounts, positions and
//!   lengths over their whole range;
//! - **saturation boundaries**: for each edge value of one field, the two neighbouring values of
//!   the other where saturation starts (or stops) clamping, found by bisection over the core's
//!   notes of clamping;
//! - **random** operand values (a fixed seed, so the same command gives the same vectors).
//!
//! JSON lines are in the format of the conformance files, so another implementation can write
//! its own `d` into them and `ptxlab check` reports every difference. CSV has a header of the
//! register sources and `d` (`ptxlab batch` reads it back); `c` is a C array of structs.

use std::collections::HashSet;
use std::fmt::Write as _;

use ptxlab_core::ast::{OperandKind, SOURCE_NAMES};
use ptxlab_core::sweep::{default_axes, suggest_axes, SweepAxis};
use ptxlab_core::trace::{Flag, FlagSet};
use ptxlab_core::{eval, widths, Inputs, Instruction};

/// One vector: the sources, the value written to `d`, and why it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vector {
    /// Source values (0 for sources the instruction does not read from a register).
    pub inputs: Inputs,
    /// What an H100 writes to `d`.
    pub d: u64,
    /// Which group it belongs to and what it exercises: `edges: a=max b=1`.
    pub why: String,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line, as the conformance files: `ptxlab check` reads it.
    Jsonl,
    /// A header of the register sources and `d`, then one row per vector.
    Csv,
    /// A C array of structs with a comment per vector.
    C,
}

impl Format {
    /// The format named `s` (`jsonl`, `csv` or `c`).
    pub fn from_name(s: &str) -> Result<Format, String> {
        match s {
            "jsonl" | "json" => Ok(Format::Jsonl),
            "csv" => Ok(Format::Csv),
            "c" => Ok(Format::C),
            other => Err(format!("--format takes jsonl, csv or c, not '{other}'")),
        }
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Edges, fields and saturation boundaries.
    pub edges: bool,
    /// How many random vectors.
    pub random: usize,
    /// Seed of the random vectors.
    pub seed: u64,
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Edge values of a `bits`-bit field, each with a name: 0, 1, the largest signed value and the
/// one below it, the smallest signed value and the one above it, all ones and the one below it.
pub fn edge_values(bits: u32) -> Vec<(u64, &'static str)> {
    let bits = bits.clamp(1, 64);
    let m = mask(bits);
    let smin = 1u64 << (bits - 1);
    let smax = smin - 1;
    let mut out: Vec<(u64, &'static str)> = vec![
        (0, "0"),
        (1, "1"),
        (smax.wrapping_sub(1) & m, "smax-1"),
        (smax, "smax"),
        (smin, "smin"),
        (smin.wrapping_add(1) & m, "smin+1"),
        (m.wrapping_sub(1) & m, "max-1"),
        (m, "max"),
    ];
    let mut seen = HashSet::new();
    out.retain(|(v, _)| seen.insert(*v));
    out
}

/// A background for the bits around a field: alternating bytes, unlike any edge value.
const BACKGROUND: [u64; 4] = [
    0x5aa5_c33c_5aa5_c33c,
    0xa55a_3cc3_a55a_3cc3,
    0x3cc3_5aa5_3cc3_5aa5,
    0xc33c_a55a_c33c_a55a,
];

/// The register sources of `insn`: (operand index, width in bits).
fn registers(insn: &Instruction) -> Vec<(usize, u32)> {
    let w = widths(insn);
    (0..w.sources)
        .filter(|&i| matches!(insn.srcs[i].kind, OperandKind::Reg(_)))
        .map(|i| (i, w.src[i]))
        .collect()
}

fn set(inputs: &mut Inputs, operand: usize, v: u64) {
    match operand {
        0 => inputs.a = v,
        1 => inputs.b = v,
        2 => inputs.c = v,
        _ => inputs.e = v,
    }
}

fn get(inputs: &Inputs, operand: usize) -> u64 {
    inputs.as_array()[operand.min(3)]
}

/// Inputs with every register source at its background (truncated to its width).
fn background(insn: &Instruction) -> Inputs {
    let mut i = Inputs::default();
    for (op, bits) in registers(insn) {
        set(&mut i, op, BACKGROUND[op] & mask(bits));
    }
    i
}

/// `axis` set to `v` in `inputs`.
fn with_field(inputs: &Inputs, axis: &SweepAxis, v: u64) -> Inputs {
    let mut i = *inputs;
    let m = mask(axis.width) << axis.lo;
    let old = get(&i, axis.operand);
    set(&mut i, axis.operand, (old & !m) | ((v << axis.lo) & m));
    i
}

/// Whether an axis is a shift amount, position or length (a short range from 0), whose every
/// value is worth a vector.
fn is_amount(axis: &SweepAxis) -> bool {
    axis.start == 0 && axis.step == 1 && axis.width > 8 && axis.steps <= 128
}

/// The clamping notes of one evaluation: 0, clamped high or clamped low.
fn clamp_state(insn: &Instruction, inputs: &Inputs) -> u32 {
    let mut fs = FlagSet::default();
    eval::run(insn, inputs, &mut fs);
    fs.bits & (Flag::ClampedHigh.bit() | Flag::ClampedLow.bit())
}

/// The raw field value at position `t` of the field's numeric order (signed fields run from
/// the most negative value up).
fn ordered(axis: &SweepAxis, t: u64) -> u64 {
    if axis.signed {
        t.wrapping_add(1u64 << (axis.width.clamp(1, 64) - 1)) & mask(axis.width)
    } else {
        t & mask(axis.width)
    }
}

/// Pairs of neighbouring values of `axis` (in numeric order) where the clamping state changes,
/// the other bits from `base`.
fn clamp_boundaries(insn: &Instruction, base: &Inputs, axis: &SweepAxis) -> Vec<(u64, u64)> {
    let state = |t: u64| clamp_state(insn, &with_field(base, axis, ordered(axis, t)));
    let mut out = Vec::new();
    // Bisect every interval whose ends differ; depth is at most the field width per boundary.
    let mut todo = vec![(0u64, mask(axis.width))];
    while let Some((lo, hi)) = todo.pop() {
        if out.len() >= 8 || state(lo) == state(hi) {
            continue;
        }
        if hi - lo == 1 {
            out.push((ordered(axis, lo), ordered(axis, hi)));
            continue;
        }
        let mid = lo + (hi - lo) / 2;
        todo.push((mid, hi));
        todo.push((lo, mid));
    }
    out
}

/// A small deterministic generator (splitmix64) for the random vectors.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn hex(v: u64, bits: u32) -> String {
    let digits = bits.clamp(1, 64).div_ceil(4) as usize;
    format!("0x{:0digits$x}", v & mask(bits))
}

/// Test vectors for `insn` (a checked instruction): the groups that `opts` asks for, without
/// repeats, edges first.
pub fn vectors(insn: &Instruction, opts: &Options) -> Vec<Vector> {
    let regs = registers(insn);
    let mut out: Vec<Vector> = Vec::new();
    let mut seen: HashSet<[u64; 4]> = HashSet::new();
    let mut push = |inputs: Inputs, why: String| {
        let mut i = Inputs::default();
        for &(op, bits) in &regs {
            set(&mut i, op, get(&inputs, op) & mask(bits));
        }
        if seen.insert(i.as_array()) {
            out.push(Vector {
                inputs: i,
                d: eval::evaluate(insn, &i),
                why,
            });
        }
    };
    if opts.edges {
        // Whole-register edges: the first two sources against each other, the others alone.
        let zero = Inputs::default();
        match regs.as_slice() {
            [] => push(zero, "no register sources".into()),
            [(op, bits)] => {
                for (v, n) in edge_values(*bits) {
                    let mut i = zero;
                    set(&mut i, *op, v);
                    push(i, format!("edges: {}={n}", SOURCE_NAMES[*op]));
                }
            }
            [(o1, b1), (o2, b2), rest @ ..] => {
                for (v1, n1) in edge_values(*b1) {
                    for (v2, n2) in edge_values(*b2) {
                        let mut i = zero;
                        set(&mut i, *o1, v1);
                        set(&mut i, *o2, v2);
                        push(
                            i,
                            format!(
                                "edges: {}={n1} {}={n2}",
                                SOURCE_NAMES[*o1], SOURCE_NAMES[*o2]
                            ),
                        );
                    }
                }
                for &(op, bits) in rest {
                    for (v, n) in edge_values(bits) {
                        let mut i = zero;
                        set(&mut i, *o1, 1);
                        set(&mut i, *o2, 1);
                        set(&mut i, op, v);
                        push(i, format!("edges: {}={n}, the others 1", SOURCE_NAMES[op]));
                    }
                }
            }
        }
        // Fields that selectors pick, lanes, amounts: each over its edges (or whole range)
        // with a pattern around it.
        let base = background(insn);
        let axes = suggest_axes(insn);
        for axis in &axes {
            if is_amount(axis) {
                for step in 0..axis.len() {
                    let v = axis.raw(step);
                    for (other, n) in [(u64::MAX, "max"), (1, "1")] {
                        let mut i = base;
                        for &(op, _) in &regs {
                            if op != axis.operand {
                                set(&mut i, op, other);
                            }
                        }
                        push(
                            with_field(&i, axis, v),
                            format!("field {} = {v}, other sources {n}", axis.label),
                        );
                    }
                }
            } else {
                for (v, n) in edge_values(axis.width) {
                    push(
                        with_field(&base, axis, v),
                        format!(
                            "field {} = {n} ({}), pattern around it",
                            axis.label,
                            hex(v, axis.width)
                        ),
                    );
                }
            }
        }
        // Where clamping starts along one of the two main fields, the other at each edge
        // (first, so that these vectors keep their name when the edges below repeat one).
        let (x, y) = default_axes(insn);
        let same = |p: &SweepAxis, q: &SweepAxis| (p.operand, p.lo) == (q.operand, q.lo);
        let pairs = axes.iter().filter(|a| !is_amount(a)).flat_map(|along| {
            [&x, &y]
                .into_iter()
                .filter(move |fixed| !same(fixed, along) && !is_amount(fixed))
                .map(move |fixed| (fixed, along))
        });
        for (fixed, along) in pairs {
            for (v, n) in edge_values(fixed.width) {
                let b = with_field(&base, fixed, v);
                for (lo, hi) in clamp_boundaries(insn, &b, along) {
                    for side in [lo, hi] {
                        push(
                            with_field(&b, along, side),
                            format!(
                                "saturation boundary along {} ({} = {n}): {} | {}",
                                along.label,
                                fixed.label,
                                hex(lo, along.width),
                                hex(hi, along.width)
                            ),
                        );
                    }
                }
            }
        }
        // The two main fields against each other at their edges.
        if !is_amount(&x) && !is_amount(&y) {
            for (vx, nx) in edge_values(x.width) {
                for (vy, ny) in edge_values(y.width) {
                    push(
                        with_field(&with_field(&base, &x, vx), &y, vy),
                        format!("fields {} = {nx}, {} = {ny}", x.label, y.label),
                    );
                }
            }
        }
    }
    let mut rng = SplitMix(opts.seed);
    for k in 0..opts.random {
        let mut i = Inputs::default();
        for &(op, _) in &regs {
            set(&mut i, op, rng.next());
        }
        push(i, format!("random #{k} (seed {})", opts.seed));
    }
    out
}

/// The vectors as text in `format`.
pub fn render(insn: &Instruction, vs: &[Vector], format: Format) -> String {
    let regs = registers(insn);
    let dst = widths(insn).dst;
    let ptx = insn.canonical();
    let mut s = String::new();
    match format {
        Format::Jsonl => {
            for v in vs {
                let mut line = format!("{{\"ptx\":{}", json_string(&ptx));
                for &(op, bits) in &regs {
                    let _ = write!(
                        line,
                        ",\"{}\":\"{}\"",
                        SOURCE_NAMES[op],
                        hex(get(&v.inputs, op), bits)
                    );
                }
                let _ = writeln!(line, ",\"d\":\"{}\"}}", hex(v.d, dst));
                s.push_str(&line);
            }
        }
        Format::Csv => {
            let _ = writeln!(s, "# {ptx}: {} vectors from ptxlab vectors", vs.len());
            let mut head: Vec<&str> = regs.iter().map(|&(op, _)| SOURCE_NAMES[op]).collect();
            head.push("d");
            let _ = writeln!(s, "{}", head.join(","));
            for v in vs {
                let mut row: Vec<String> = regs
                    .iter()
                    .map(|&(op, bits)| hex(get(&v.inputs, op), bits))
                    .collect();
                row.push(hex(v.d, dst));
                let _ = writeln!(s, "{}", row.join(","));
            }
        }
        Format::C => {
            let ty = |bits: u32| if bits > 32 { "uint64_t" } else { "uint32_t" };
            let lit = |v: u64, bits: u32| {
                format!("{}{}", hex(v, bits), if bits > 32 { "ull" } else { "u" })
            };
            let _ = writeln!(s, "/* Test vectors for the PTX instruction");
            let _ = writeln!(s, " *     {}", ptx.replace("*/", "* /"));
            let _ = writeln!(
                s,
                " * written by `ptxlab vectors` (ptxlab-core {}): d is what an NVIDIA H100 writes.",
                ptxlab_core_version()
            );
            let _ = writeln!(s, " * {} vectors. */", vs.len());
            let _ = writeln!(s, "#include <stdint.h>\n");
            let _ = writeln!(s, "struct ptxlab_vector {{");
            for &(op, bits) in &regs {
                let _ = writeln!(s, "    {} {};", ty(bits), SOURCE_NAMES[op]);
            }
            let _ = writeln!(s, "    {} d;", ty(dst));
            let _ = writeln!(s, "}};\n");
            let _ = writeln!(s, "static const struct ptxlab_vector ptxlab_vectors[] = {{");
            for v in vs {
                let mut fields: Vec<String> = regs
                    .iter()
                    .map(|&(op, bits)| lit(get(&v.inputs, op), bits))
                    .collect();
                fields.push(lit(v.d, dst));
                let _ = writeln!(
                    s,
                    "    {{{}}}, /* {} */",
                    fields.join(", "),
                    v.why.replace("*/", "* /")
                );
            }
            let _ = writeln!(s, "}};\n");
            let _ = writeln!(
                s,
                "#define PTXLAB_VECTOR_COUNT (sizeof ptxlab_vectors / sizeof ptxlab_vectors[0])"
            );
        }
    }
    s
}

fn ptxlab_core_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// `s` as a JSON string.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}

/// `ptxlab vectors 'INSTRUCTION' [--count N] [--edges] [--seed S] [--format jsonl|csv|c]`:
/// the text to print, or a message for bad arguments.
pub fn command(args: &[String]) -> Result<String, String> {
    let mut text = None;
    let mut count = None;
    let mut edges_only = false;
    let mut seed = 1u64;
    let mut format = Format::Jsonl;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--edges" => edges_only = true,
            "--count" => {
                let n = it.next().ok_or("--count needs a number")?;
                count = Some(n.parse::<usize>().ok().filter(|&n| n <= 1_000_000).ok_or_else(
                    || format!("--count needs a number from 0 to 1000000, not '{n}'"),
                )?);
            }
            "--seed" => {
                let n = it.next().ok_or("--seed needs a number")?;
                seed = crate::parse_value(n).map_err(|e| format!("--seed: {e}"))?;
            }
            "--format" => {
                let f = it.next().ok_or("--format needs jsonl, csv or c")?;
                format = Format::from_name(f)?;
            }
            other if other.starts_with("--") => {
                return Err(format!(
                    "unknown option '{other}': vectors takes --count N, --edges, --seed S and --format jsonl|csv|c"
                ))
            }
            _ if text.is_none() => text = Some(a.clone()),
            _ => return Err(format!("unexpected argument '{a}': vectors takes one instruction")),
        }
    }
    let text = text.ok_or("vectors needs an instruction")?;
    let insn = ptxlab_core::check(&text).map_err(|d| d.render(&text))?;
    if insn.opcode().is_none() {
        // Its columns name the table's sources (a, b, c, e) and one d.
        return Err(format!(
            "'{}' is not one of the 47 video and integer arithmetic instructions that vectors are made for; for it, use ptxlab batch or ptxlab sweep",
            insn.name()
        ));
    }
    // The flags pick groups: --edges the edge, field and boundary vectors, --count N random
    // ones; with neither, both (64 random).
    let opts = match (edges_only, count) {
        (false, None) => Options {
            edges: true,
            random: 64,
            seed,
        },
        (edges, n) => Options {
            edges,
            random: n.unwrap_or(0),
            seed,
        },
    };
    Ok(render(&insn, &vectors(&insn, &opts), format))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::check;

    #[test]
    fn edge_values_of_a_byte_and_a_bit() {
        let v: Vec<u64> = edge_values(8).into_iter().map(|x| x.0).collect();
        assert_eq!(v, [0, 1, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff]);
        let one: Vec<u64> = edge_values(1).into_iter().map(|x| x.0).collect();
        assert_eq!(one, [0, 1]);
        assert_eq!(edge_values(64).last().unwrap().0, u64::MAX);
    }

    #[test]
    fn saturation_boundary_of_an_unsigned_byte_add() {
        // vadd into a byte with .sat clamps where a.b0 + b.b0 passes 0xff: every boundary
        // vector sits on one side of that line or the other, and both sides occur.
        let insn = check("vadd.u32.u32.u32.sat d.b0, a.b0, b.b0, c;").unwrap();
        let vs = vectors(
            &insn,
            &Options {
                edges: true,
                random: 0,
                seed: 1,
            },
        );
        let sums: Vec<u64> = vs
            .iter()
            .filter(|v| v.why.starts_with("saturation boundary"))
            .map(|v| (v.inputs.a & 0xff) + (v.inputs.b & 0xff))
            .collect();
        assert!(sums.len() >= 8, "{vs:#?}");
        assert!(sums.iter().all(|&s| s == 0xff || s == 0x100), "{sums:x?}");
        assert!(sums.contains(&0xff) && sums.contains(&0x100));
    }

    #[test]
    fn selected_byte_holds_the_edge_and_the_rest_a_pattern() {
        let insn = check("vadd.s32.s32.s32 d, a.b2, b.b0;").unwrap();
        let vs = vectors(
            &insn,
            &Options {
                edges: true,
                random: 0,
                seed: 1,
            },
        );
        let v = vs
            .iter()
            .find(|v| v.why.starts_with("field a.b2 = smin"))
            .expect("a vector for a.b2 at its smallest value");
        assert_eq!((v.inputs.a >> 16) & 0xff, 0x80);
        assert_eq!(
            v.inputs.a & 0xff00_ffff,
            BACKGROUND[0] as u32 as u64 & 0xff00_ffff
        );
    }

    #[test]
    fn immediates_are_not_varied_and_vectors_do_not_repeat() {
        let insn = check("add.u32 d, a, 5;").unwrap();
        let vs = vectors(
            &insn,
            &Options {
                edges: true,
                random: 16,
                seed: 3,
            },
        );
        assert!(vs.iter().all(|v| v.inputs.b == 0 && v.inputs.c == 0));
        let set: HashSet<u64> = vs.iter().map(|v| v.inputs.a).collect();
        assert_eq!(set.len(), vs.len());
        assert!(vs
            .iter()
            .all(|v| v.d == v.inputs.a.wrapping_add(5) & 0xffff_ffff));
    }

    #[test]
    fn formats() {
        let insn = check("min.s16 d, a, b;").unwrap();
        let vs = vectors(
            &insn,
            &Options {
                edges: false,
                random: 2,
                seed: 7,
            },
        );
        let j = render(&insn, &vs, Format::Jsonl);
        assert_eq!(j.lines().count(), 2);
        let first: serde_json::Value = serde_json::from_str(j.lines().next().unwrap()).unwrap();
        assert_eq!(first["ptx"], "min.s16 d, a, b;");
        assert_eq!(
            first["a"].as_str().unwrap().len(),
            6,
            "16 bits: 0x and 4 digits"
        );
        let c = render(&insn, &vs, Format::Csv);
        assert_eq!(c.lines().nth(1), Some("a,b,d"));
        let src = render(&insn, &vs, Format::C);
        assert!(src.contains("static const struct ptxlab_vector ptxlab_vectors[] = {"));
        assert!(src.contains("uint32_t a;"));
    }

    #[test]
    fn command_messages() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(
            command(&args(&["vadd.u32.u32.u32 d, a, b;", "--format", "xml"]))
                .unwrap_err()
                .contains("jsonl, csv or c")
        );
        assert!(command(&args(&["vadd.u32.u32 d, a, b;"])).is_err());
        assert!(command(&args(&["add.u32 d, a, b;", "--count", "x"]))
            .unwrap_err()
            .contains("--count"));
        let n = |v: &[&str]| command(&args(v)).unwrap().lines().count();
        let edges = n(&["add.u32 d, a, b;", "--edges"]);
        assert!(edges >= 64, "at least 8 edges of a by 8 of b: {edges}");
        assert_eq!(
            n(&["add.u32 d, a, b;", "--edges", "--count", "3"]),
            edges + 3
        );
        assert_eq!(n(&["add.u32 d, a, b;", "--count", "5"]), 5);
        assert_eq!(n(&["add.u32 d, a, b;"]), edges + 64);
    }
}
