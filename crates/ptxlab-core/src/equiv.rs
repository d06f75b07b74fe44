//! Cheaper equivalents: forms of the lowering atlas that compute the same `d` on every input,
//! and which of them costs fewer instructions on an architecture.
//!
//! [`prove`] compares two forms on every input where their register sources total 16 bits or
//! fewer ([`Method::Exhaustive`]), and otherwise on every combination of edge values of the
//! sources and on 10⁶ random inputs from a fixed seed ([`Method::Sampled`]). Sources are bound
//! by position (the first reads `a`, the second `b`, ...); a source that only one form reads
//! must not change its `d`, and a source both read must have the same width in both.
//!
//! [`derive()`] groups the atlas's forms by their `d` on a few hundred inputs and proves each
//! group's members against its first form; it keeps the groups whose members cost differently
//! on some architecture. Proving them all takes about a minute, too long for the page, so
//! `cargo run --release -p ptxlab-core --example equivalents` writes them to
//! `crates/ptxlab-cli/src/equivalents.txt` (the format [`Equivalents::parse`] reads, with the
//! method of each group), and a test proves every pair of that file again.
//!
//! ```
//! use ptxlab_core::equiv::{prove, Method, Verdict};
//! use ptxlab_core::insn::check;
//!
//! let vadd = check("vadd.u32.u32.u32 d, a, b;").unwrap();
//! let add = check("add.u32 d, a, b;").unwrap();
//! assert!(matches!(prove(&vadd, &add), Verdict::Equal(Method::Sampled { .. })));
//! // A signed .sat clamps where add.s32 wraps.
//! let sat = check("vadd.s32.s32.s32.sat d, a, b;").unwrap();
//! let add = check("add.s32 d, a, b;").unwrap();
//! assert!(matches!(prove(&sat, &add), Verdict::Differ { .. }));
//! let abs = check("abs.s16 d, a;").unwrap();
//! let neg = check("neg.s16 d, a;").unwrap();
//! assert!(matches!(prove(&abs, &neg), Verdict::Differ { .. }));
//! ```

use std::collections::BTreeMap;

use serde::Serialize;

use crate::ast::Instruction;
use crate::atlas::Atlas;
use crate::eval::Inputs;
use crate::insn::check;
use crate::plan::Plan;

/// Random inputs a sampled proof tries, after the edge vectors.
pub const RANDOM: u64 = 1_000_000;
/// The seed of the random inputs (splitmix64).
pub const SEED: u64 = 0x5eed_a71a_5000_0025;
/// Inputs of at most this many bits in all are tried exhaustively.
pub const EXHAUSTIVE_BITS: u32 = 16;

/// How two forms were shown to give the same `d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum Method {
    /// On every input: `bits` bits of register sources in all.
    Exhaustive {
        /// The register sources' bits, in all.
        bits: u32,
    },
    /// On every combination of edge values (`edges` inputs) and on `random` random inputs
    /// drawn from `seed`.
    Sampled {
        /// How many edge vectors.
        edges: u64,
        /// How many random inputs.
        random: u64,
        /// The random inputs' seed (in JSON, hexadecimal text: it does not fit a double).
        #[serde(serialize_with = "hex")]
        seed: u64,
    },
}

fn hex<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{v:#x}"))
}

impl Method {
    /// In words, for the page and the CLI.
    pub fn describe(&self) -> String {
        match self {
            Method::Exhaustive { bits } => {
                format!("proven on all {} inputs of {bits} bits", group(1u64 << bits))
            }
            Method::Sampled {
                edges,
                random,
                seed,
            } => format!(
                "equal on {} edge vectors and {} random inputs from seed {seed:#x}, not exhaustively: the inputs total more than {EXHAUSTIVE_BITS} bits",
                group(*edges),
                group(*random)
            ),
        }
    }
}

/// `1234567` as `1,234,567`.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (k, ch) in s.chars().enumerate() {
        if k > 0 && (s.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// What [`prove`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The same `d` on every input tried, which is every input for [`Method::Exhaustive`].
    Equal(Method),
    /// An input where the two differ, and each form's `d`.
    Differ {
        /// The input.
        inputs: Inputs,
        /// The first form's `d`.
        left: u64,
        /// The second form's `d`.
        right: u64,
    },
    /// The two cannot be compared: why.
    Incomparable(String),
}

/// One form, ready to be evaluated many times.
struct Runner {
    insn: Instruction,
    plan: Plan,
    /// The width of each source position it reads from the inputs (0: not read).
    reads: [u32; 4],
    dst: u32,
}

impl Runner {
    fn new(insn: &Instruction) -> Result<Runner, String> {
        let text = insn.canonical();
        if !named_by_position(&text) {
            return Err(format!(
                "{text} does not name its sources a, b, c, e in order (the machine code of a form that repeats a register is not that of the form the evaluator reads)"
            ));
        }
        let out = insn.evaluate(&Inputs::default());
        if out.values.len() != 1 || out.values[0].name != "d" {
            return Err(format!("{} does not write one d", insn.canonical()));
        }
        let mut reads = [0; 4];
        for (k, _, bits) in insn.register_sources() {
            reads[k] = bits;
        }
        Ok(Runner {
            plan: insn.plan(),
            insn: insn.clone(),
            reads,
            dst: out.values[0].bits,
        })
    }

    fn d(&self, inputs: &Inputs) -> u64 {
        let mut v = inputs.as_array();
        for (x, &w) in v.iter_mut().zip(&self.reads) {
            *x &= mask(w);
        }
        let i = Inputs::new(v[0], v[1], v[2], v[3]);
        self.plan.eval(&i) & mask(self.dst)
    }
}

/// Whether the form's text writes `d` and names its sources `a`, `b`, `c`, `e` in that order
/// (selectors and a `!` aside). The evaluator binds sources by position, but ptxas sees the
/// registers as written: `and.pred d, a, a;` costs what `a` costs, not what `and` does, so a
/// form that repeats or reorders registers has no place in a comparison of costs.
fn named_by_position(text: &str) -> bool {
    let Some((_, ops)) = text.trim_end_matches(';').split_once(char::is_whitespace) else {
        return false;
    };
    let names: Vec<&str> = ops
        .split(',')
        .map(|o| {
            let o = o.trim().trim_start_matches(['!', '-']);
            o.split('.').next().unwrap_or("")
        })
        .collect();
    names.first() == Some(&"d")
        && names.len() <= 5
        && names[1..]
            .iter()
            .zip(crate::ast::SOURCE_NAMES)
            .all(|(n, want)| *n == want)
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// splitmix64: the random inputs, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The edge values of a source of `bits` bits: zero, one, two, all ones, the signed extremes,
/// and the patterns that sit at the edge of each byte and half-word lane.
fn edge_values(bits: u32) -> Vec<u64> {
    let m = mask(bits);
    let top = if bits == 0 { 0 } else { 1u64 << (bits - 1) };
    let mut v = vec![
        0,
        1,
        2,
        m,
        m - 1,
        top,
        top - 1,
        0x8080_8080_8080_8080,
        0x7f7f_7f7f_7f7f_7f7f,
        0x0101_0101_0101_0101,
        0xff00_ff00_ff00_ff00,
        0x00ff_00ff_00ff_00ff,
        0x8000_8000_8000_8000,
        0x7fff_7fff_7fff_7fff,
        0xffff_0000_ffff_0000,
        0x0000_ffff_0000_ffff,
        0x1f,
        0x20,
        0x21,
    ];
    for x in v.iter_mut() {
        *x &= m;
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Which positions the forms read, at which width; an error where two read one at different
/// widths or where the destinations differ in width.
fn positions(rs: &[&Runner]) -> Result<[u32; 4], String> {
    let mut w = [0; 4];
    let Some(first) = rs.first() else {
        return Ok(w);
    };
    for r in rs {
        if r.dst != first.dst {
            return Err(format!("d is {} bits against {}", first.dst, r.dst));
        }
        for ((x, &y), name) in w.iter_mut().zip(&r.reads).zip(crate::ast::SOURCE_NAMES) {
            *x = match (*x, y) {
                (0, b) => b,
                (a, 0) => a,
                (a, b) if a == b => a,
                (a, b) => return Err(format!("source {name} is {a} bits against {b}")),
            };
        }
    }
    Ok(w)
}

/// Every combination of the edge values of the positions read.
fn edge_inputs(w: &[u32; 4]) -> Vec<Inputs> {
    let mut all = vec![[0u64; 4]];
    for (k, &bits) in w.iter().enumerate() {
        if bits == 0 {
            continue;
        }
        let vals = edge_values(bits);
        all = all
            .into_iter()
            .flat_map(|v| {
                vals.iter().map(move |&x| {
                    let mut u = v;
                    u[k] = x;
                    u
                })
            })
            .collect();
    }
    all.into_iter()
        .map(|v| Inputs::new(v[0], v[1], v[2], v[3]))
        .collect()
}

/// The first of the forms that gives another `d` than the first form does on `inputs`.
fn compare(rs: &[&Runner], inputs: &Inputs) -> Option<(usize, Verdict)> {
    let left = rs[0].d(inputs);
    rs.iter().enumerate().skip(1).find_map(|(k, r)| {
        let right = r.d(inputs);
        (right != left).then_some((
            k,
            Verdict::Differ {
                inputs: *inputs,
                left,
                right,
            },
        ))
    })
}

/// Every form against the first, on the inputs of the positions any of them reads: the method,
/// or the index of a form that differs and where.
fn prove_runners(rs: &[&Runner]) -> Result<Method, (usize, Verdict)> {
    let w = positions(rs).map_err(|e| (0, Verdict::Incomparable(e)))?;
    if rs.len() < 2 {
        return Err((0, Verdict::Incomparable("one form alone".into())));
    }
    let bits: u32 = w.iter().sum();
    if bits <= EXHAUSTIVE_BITS {
        for n in 0..(1u64 << bits) {
            let mut v = [0u64; 4];
            let mut shift = 0;
            for k in 0..4 {
                v[k] = (n >> shift) & mask(w[k]);
                shift += w[k];
            }
            if let Some(d) = compare(rs, &Inputs::new(v[0], v[1], v[2], v[3])) {
                return Err(d);
            }
        }
        return Ok(Method::Exhaustive { bits });
    }
    let edges = edge_inputs(&w);
    for i in &edges {
        if let Some(d) = compare(rs, i) {
            return Err(d);
        }
    }
    let mut rng = Rng(SEED);
    for _ in 0..RANDOM {
        let mut v = [0u64; 4];
        for k in 0..4 {
            v[k] = rng.next() & mask(w[k]);
        }
        if let Some(d) = compare(rs, &Inputs::new(v[0], v[1], v[2], v[3])) {
            return Err(d);
        }
    }
    Ok(Method::Sampled {
        edges: edges.len() as u64,
        random: RANDOM,
        seed: SEED,
    })
}

/// Whether two forms give the same `d` on every input, and how that was shown.
pub fn prove(x: &Instruction, y: &Instruction) -> Verdict {
    prove_all(&[x.clone(), y.clone()])
}

/// Whether every form gives the same `d` as the first on every input (the inputs of every
/// source any of them reads), and how that was shown; for a form that differs, the input and
/// the two values.
pub fn prove_all(forms: &[Instruction]) -> Verdict {
    let rs: Result<Vec<Runner>, String> = forms.iter().map(Runner::new).collect();
    match rs {
        Ok(rs) => match prove_runners(&rs.iter().collect::<Vec<_>>()) {
            Ok(m) => Verdict::Equal(m),
            Err((_, v)) => v,
        },
        Err(e) => Verdict::Incomparable(e),
    }
}

// ---------------------------------------------------------------------------------------------
// The groups

/// Forms that give the same `d` on every input: each was proven against the first by `method`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Class {
    /// How each form was proven against the first.
    pub method: Method,
    /// The forms, canonical text, the first one first.
    pub forms: Vec<String>,
}

/// The groups of equal forms, read from `equivalents.txt`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Equivalents {
    classes: Vec<Class>,
}

/// A form that gives the same `d` as the one asked about and costs less on an architecture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cheaper {
    /// The cheaper form, canonical text.
    pub form: String,
    /// Its count of instructions that compute on the architecture.
    pub count: usize,
    /// The count of the form asked about.
    pub instead_of: usize,
    /// How the two were shown equal.
    #[serde(flatten)]
    pub method: Method,
    /// [`Method::describe`].
    pub proof: String,
}

impl Equivalents {
    /// Read the data file (lines `E METHOD<TAB>form<TAB>form...`, where METHOD is
    /// `exhaustive BITS` or `sampled EDGES RANDOM SEED`). Errors name the line.
    pub fn parse(text: &str) -> Result<Equivalents, String> {
        let mut classes = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let bad = |what: &str| format!("equivalents line {}: {what}", n + 1);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let rest = line.strip_prefix("E ").ok_or_else(|| bad("unknown tag"))?;
            let mut fields = rest.split('\t');
            let head: Vec<&str> = fields.next().unwrap_or("").split(' ').collect();
            let num = |s: &str| -> Result<u64, String> {
                match s.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => s.parse(),
                }
                .map_err(|_| bad("not a number"))
            };
            let method = match head.as_slice() {
                ["exhaustive", b] => {
                    let bits = num(b)?;
                    if bits > u64::from(EXHAUSTIVE_BITS) {
                        return Err(bad("too many bits for an exhaustive proof"));
                    }
                    Method::Exhaustive { bits: bits as u32 }
                }
                ["sampled", e, r, s] => Method::Sampled {
                    edges: num(e)?,
                    random: num(r)?,
                    seed: num(s)?,
                },
                _ => return Err(bad("unknown method")),
            };
            let forms: Vec<String> = fields.map(String::from).collect();
            if forms.len() < 2 {
                return Err(bad("a group needs two forms"));
            }
            classes.push(Class { method, forms });
        }
        Ok(Equivalents { classes })
    }

    /// The data file's text ([`Equivalents::parse`] reads it back).
    pub fn to_text(&self) -> String {
        let mut s = String::from(
            "# Forms of the lowering atlas that give the same d on every input, each proven against\n\
             # the first of its line by ptxlab-core (crate::equiv). Made by\n\
             # `cargo run --release -p ptxlab-core --example equivalents`; do not edit by hand.\n",
        );
        for c in &self.classes {
            let head = match c.method {
                Method::Exhaustive { bits } => format!("exhaustive {bits}"),
                Method::Sampled {
                    edges,
                    random,
                    seed,
                } => format!("sampled {edges} {random} {seed:#x}"),
            };
            s.push_str(&format!("E {head}\t{}\n", c.forms.join("\t")));
        }
        s
    }

    /// The groups.
    pub fn classes(&self) -> &[Class] {
        &self.classes
    }

    /// The cheapest form on architecture `arch` (an index of [`Atlas::archs`]) that gives the
    /// same `d` as `form` (canonical text) and costs fewer instructions there; `None` when
    /// there is none, or when `form` is not available there.
    pub fn cheaper(&self, atlas: &Atlas, form: &str, arch: usize) -> Option<Cheaper> {
        let class = self
            .classes
            .iter()
            .find(|c| c.forms.iter().any(|f| f == form))?;
        let mine = atlas.cost(atlas.form(form)?, arch);
        if !mine.available {
            return None;
        }
        class
            .forms
            .iter()
            .filter(|f| *f != form)
            .filter_map(|f| {
                let c = atlas.cost(atlas.form(f)?, arch);
                (c.available && c.core.len() < mine.core.len()).then_some((c.core.len(), f))
            })
            .min_by_key(|x| x.0)
            .map(|(count, f)| Cheaper {
                form: f.clone(),
                count,
                instead_of: mine.core.len(),
                method: class.method,
                proof: class.method.describe(),
            })
    }
}

/// The groups of the atlas's forms that give the same `d` on every input and cost differently
/// on some architecture, each form proven against its group's first. Slow (a minute in a
/// release build): the example `equivalents` runs it to write the data file.
pub fn derive(atlas: &Atlas) -> Equivalents {
    let runners: Vec<Runner> = atlas
        .forms()
        .filter_map(|f| check(f).ok())
        .filter_map(|i| Runner::new(&i).ok())
        .collect();
    // A fingerprint: d on the edge values and a few hundred random inputs of full width (each
    // form keeps the bits it reads).
    let mut rng = Rng(SEED ^ 1);
    let mut probes: Vec<Inputs> = edge_inputs(&[32, 32, 0, 0])
        .into_iter()
        .step_by(7)
        .collect();
    for _ in 0..256 {
        probes.push(Inputs::new(rng.next(), rng.next(), rng.next(), rng.next()));
    }
    let mut groups: BTreeMap<(u32, Vec<u64>), Vec<usize>> = BTreeMap::new();
    for (k, r) in runners.iter().enumerate() {
        let print: Vec<u64> = probes.iter().map(|i| r.d(i)).collect();
        groups.entry((r.dst, print)).or_default().push(k);
    }
    let counts = |r: &Runner| -> Vec<Option<usize>> {
        let f = atlas.form(&r.insn.canonical());
        (0..atlas.archs().len())
            .map(|a| {
                let c = atlas.cost(f.unwrap_or(usize::MAX), a);
                c.available.then_some(c.core.len())
            })
            .collect()
    };
    let mut classes = Vec::new();
    for (_, mut members) in groups {
        while members.len() > 1 {
            let first = members.remove(0);
            let mut mine = vec![first];
            members.retain(|&m| {
                let equal = prove_runners(&[&runners[first], &runners[m]]).is_ok();
                if equal {
                    mine.push(m);
                }
                !equal
            });
            if mine.len() < 2 {
                continue;
            }
            let costs: Vec<Vec<Option<usize>>> =
                mine.iter().map(|&m| counts(&runners[m])).collect();
            if costs.iter().all(|c| *c == costs[0]) {
                continue;
            }
            // The group's method: every member against the first on the inputs of all.
            let rs: Vec<&Runner> = mine.iter().map(|&m| &runners[m]).collect();
            let Ok(method) = prove_runners(&rs) else {
                continue;
            };
            classes.push(Class {
                method,
                forms: mine.iter().map(|&m| runners[m].insn.canonical()).collect(),
            });
        }
    }
    Equivalents { classes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_must_be_named_by_position() {
        assert!(named_by_position("vadd.u32.u32.u32 d, a.b1, b.b3;"));
        assert!(named_by_position("selp.b16 d, a, b, !c;"));
        assert!(named_by_position("bfi.b32 d, a, b, c, e;"));
        assert!(!named_by_position("and.pred d, a, a;"));
        assert!(!named_by_position("cvt.u8.s8 d, b;"));
        assert!(!named_by_position("setp.lt.s32 p, a, b;"));
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(group(1_000_000), "1,000,000");
        assert_eq!(group(65536), "65,536");
        assert_eq!(group(361), "361");
    }

    #[test]
    fn edge_values_stay_in_width() {
        for bits in [8, 16, 32, 64] {
            assert!(edge_values(bits).iter().all(|&v| v & !mask(bits) == 0));
        }
        assert!(edge_values(16).contains(&0x8000));
        assert!(edge_values(16).contains(&0x7fff));
    }

    #[test]
    fn bad_data_is_an_error_not_a_panic() {
        for bad in [
            "Q x",
            "E exhaustive 40\ta\tb",
            "E sampled 1 2\ta\tb",
            "E exhaustive x\ta\tb",
            "E exhaustive 8\ta",
            "E nothing\ta\tb",
        ] {
            assert!(Equivalents::parse(bad).is_err(), "{bad}");
        }
        let ok = "E sampled 361 1000000 0x5eed\ta\tb\n";
        assert_eq!(
            Equivalents::parse(ok).unwrap().to_text().lines().last(),
            ok.lines().next()
        );
    }
}
