//! CUDA's SIMD and integer intrinsics: what each computes, lane by lane, and what nvcc makes of it.
//!
//! Two things live here. The data (`DATA` with the `embed` feature, or the text given to
//! [`install`]) is measured: for every intrinsic, the PTX that `nvcc -arch=sm_90 -ptx` emits
//! between the loads of the arguments and the store of the result (arguments in `%a %b %c`, result
//! in `%d`), and the machine instructions that sm_75, sm_80, sm_90, sm_100 and sm_120 run for it
//! (`scripts/intrinsics.py` writes it). The meaning of each intrinsic is written below in our own
//! words, per lane; [`evaluate`] computes it and gives the lanes for a picture. [`machine`] runs
//! the recorded PTX as a program with the core's runner ([`crate::program`]); the test
//! `intrinsics_program` compares what it leaves in `%d` (and the bools) with [`evaluate`] over edge
//! values, random inputs and every pair of byte values, and `scripts/intrinsics_check.py` does the
//! same with an interpreter of its own. `docs/intrinsics.md` lists what they found.
//!
//! ```
//! use ptxlab_core::intrinsics;
//!
//! let gt = intrinsics::find("__vcmpgtu4").unwrap();
//! let r = intrinsics::evaluate(gt, &[0x0180_ff00, 0x0280_0000]).unwrap();
//! assert_eq!(r.result, 0x0000_ff00);
//! assert_eq!(r.lanes.len(), 4);
//! assert!(intrinsics::search("unsigned byte compare").iter().any(|i| i.name == "__vcmpgtu4"));
//! ```

use std::sync::OnceLock;

use serde::Serialize;

use crate::program::{parse_program, Machine, Program, ProgramError};
use crate::sass::{classify, SassKind};
use crate::value::{as_signed, mask};

/// The measured data, as `scripts/intrinsics.py` writes it (with the `embed` feature; without
/// it, [`install`] the same text before asking for an intrinsic).
#[cfg(feature = "embed")]
pub const DATA: &str = include_str!("intrinsics.txt");

/// NVIDIA's reference pages for these intrinsics.
pub const SIMD_DOCS: &str =
    "https://docs.nvidia.com/cuda/cuda-math-api/cuda_math_api/group__CUDA__MATH__INTRINSIC__SIMD.html";
/// NVIDIA's reference page for the integer intrinsics.
pub const INT_DOCS: &str =
    "https://docs.nvidia.com/cuda/cuda-math-api/cuda_math_api/group__CUDA__MATH__INTRINSIC__INT.html";

/// The C type of an argument or result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CType {
    /// `unsigned int`.
    U32,
    /// `int`.
    S32,
    /// `unsigned long long`.
    U64,
    /// `long long`.
    S64,
}

impl CType {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            CType::U32 | CType::S32 => 32,
            CType::U64 | CType::S64 => 64,
        }
    }
    /// Whether the type is signed.
    pub fn signed(self) -> bool {
        matches!(self, CType::S32 | CType::S64)
    }
    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            CType::U32 => "unsigned int",
            CType::S32 => "int",
            CType::U64 => "unsigned long long",
            CType::S64 => "long long",
        }
    }
    fn parse(s: &str) -> Option<CType> {
        Some(match s {
            "u32" => CType::U32,
            "s32" => CType::S32,
            "u64" => CType::U64,
            "s64" => CType::S64,
            _ => return None,
        })
    }
}

/// What one architecture runs for an intrinsic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArchCost {
    /// `75` for sm_75 and so on.
    pub arch: u32,
    /// Machine instructions between the argument loads and the result store.
    pub opcodes: Vec<&'static str>,
    /// One of them works on byte or halfword lanes or is a video / DPX one (`VABSDIFF4`,
    /// `VIADD.16x2`, `IDP.4A`, `VIMNMX3` ...); plain `VIADD` / `VIMNMX.S32` do not count.
    pub video: bool,
    /// Native, native with glue, or emulated (see [`crate::sass::classify`]).
    pub kind: SassKind,
}

impl ArchCost {
    /// Number of machine instructions.
    pub fn count(&self) -> usize {
        self.opcodes.len()
    }
}

/// How the picture splits the operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Four byte lanes; each result byte from the same bytes of the arguments.
    Bytes,
    /// Two 16-bit lanes.
    Halves,
    /// Four byte lanes whose values are summed (sum of absolute differences, dot product).
    SumBytes,
    /// Two 16-bit lanes whose values are summed.
    SumHalves,
    /// Whole words.
    Word,
}

/// One intrinsic: its meaning and what nvcc made of it.
#[derive(Clone, Debug, Serialize)]
pub struct Intrinsic {
    /// The intrinsic's name: `__vcmpgtu4`.
    pub name: &'static str,
    /// The C function called (overloads of `__dp4a`... share it).
    pub function: &'static str,
    /// The C type of the result.
    pub result: CType,
    /// The C types of the arguments.
    pub args: Vec<CType>,
    /// Bools it also writes through pointers (`pred`, or `pred_hi` and `pred_lo`), named as
    /// the PTX names their registers (`%pred` ...).
    pub outputs: Vec<&'static str>,
    /// One sentence, our words.
    pub meaning: &'static str,
    /// Words to search by what it does.
    pub keywords: &'static str,
    /// How the picture splits the operands into lanes.
    pub shape: Shape,
    /// PTX from `nvcc -arch=sm_90 -ptx`, one statement a line (`{` `}` scope inline assembly).
    pub ptx: Vec<&'static str>,
    /// Cost on sm_75, sm_80, sm_90, sm_100, sm_120.
    pub cost: Vec<ArchCost>,
    /// The sm_90 machine code with operands.
    pub sass_sm90: Vec<&'static str>,
    /// NVIDIA's documentation page.
    pub doc_url: &'static str,
    /// Where the one-line CUDA description misleads (see docs/intrinsics.md), if anywhere.
    pub note: Option<&'static str>,
}

impl Intrinsic {
    /// The PTX opcodes (with types) of the sequence, in order, without duplicates.
    pub fn ptx_opcodes(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for op in self.ptx.iter().filter_map(|s| statement_opcode(s)) {
            if !out.contains(&op) {
                out.push(op);
            }
        }
        out
    }
    /// The cost on one architecture.
    pub fn cost_on(&self, arch: u32) -> Option<&ArchCost> {
        self.cost.iter().find(|c| c.arch == arch)
    }
}

/// One lane of a picture: the lane values of the arguments and of the result (or, for the
/// summing shapes, of the term this lane adds).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lane {
    /// Lane number, least significant first.
    pub index: usize,
    /// Width of the lane in bits.
    pub bits: u32,
    /// The arguments' values in this lane.
    pub inputs: Vec<u64>,
    /// The result's value in this lane (or the term it adds).
    pub output: u64,
}

/// The result of an intrinsic with its lanes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// The intrinsic's name.
    pub name: &'static str,
    /// The arguments, masked to their widths.
    pub args: Vec<u64>,
    /// The result's bits (32 or 64 of them).
    pub result: u64,
    /// The lanes, least significant first.
    pub lanes: Vec<Lane>,
    /// Added to the lanes' sum (the `c` of `__dp4a`), for the summing shapes.
    pub addend: Option<u64>,
    /// The bools written through pointers, as 0 or 1, in the order of [`Intrinsic::outputs`].
    pub outputs: Vec<(&'static str, u64)>,
}

// ---------------------------------------------------------------------------------------------
// Lane arithmetic

fn lane(x: u64, i: usize, bits: u32) -> u64 {
    (x >> (i as u32 * bits)) & mask(bits)
}
/// The lane as a signed number.
fn sx(x: u64, bits: u32) -> i128 {
    as_signed(x, bits) as i128
}
fn ux(x: u64, bits: u32) -> i128 {
    (x & mask(bits)) as i128
}
fn wrap(v: i128, bits: u32) -> u64 {
    (v as u64) & mask(bits)
}
fn sat_s(v: i128, bits: u32) -> u64 {
    let lo = -(1i128 << (bits - 1));
    let hi = (1i128 << (bits - 1)) - 1;
    wrap(v.clamp(lo, hi), bits)
}
fn sat_u(v: i128, bits: u32) -> u64 {
    wrap(v.clamp(0, (1i128 << bits) - 1), bits)
}
fn all_ones_if(c: bool, bits: u32) -> u64 {
    if c {
        mask(bits)
    } else {
        0
    }
}

/// What a lane (or the whole word) computes from its inputs, given its width.
type LaneFn = fn(&[u64], u32) -> u64;

/// How an intrinsic is computed.
#[derive(Clone, Copy)]
enum Rule {
    /// Each lane of the result from the same lane of each argument.
    Lanewise(LaneFn),
    /// Sum of a term per lane of `a` and `b` (width 32 bits, wrapping), plus `c` if `addend`.
    /// The term function gets `[a lane, b lane]` and the lane width; `signed` picks how the
    /// terms are added (they are i128 values cast through `u64`).
    Sum {
        term: fn(i128, i128) -> i128,
        signed: bool,
        addend: bool,
        /// For dot products over halves: which byte of `b` pairs with half i (0 or 2 + i).
        b_bytes_from: Option<usize>,
        /// Lane width of `a` (and of `b` unless `b_bytes_from`): 8 or 16.
        bits: u32,
    },
    /// The whole word.
    Word(fn(&[u64]) -> u64),
    /// Per lane (of the shape's width) the larger (`max`) or smaller of a and b, and a bool per
    /// lane saying whether a was picked (a >= b for max, a <= b for min; ties pick a).
    Picked { max: bool, signed: bool },
}

struct Def {
    name: &'static str,
    shape: Shape,
    rule: Rule,
    meaning: &'static str,
    keywords: &'static str,
    note: Option<&'static str>,
}

const B: Shape = Shape::Bytes;
const H: Shape = Shape::Halves;
const W: Shape = Shape::Word;
use Rule::Word as Wd;

fn s(x: &[u64], i: usize, bits: u32) -> i128 {
    sx(x[i], bits)
}
fn u(x: &[u64], i: usize, bits: u32) -> i128 {
    ux(x[i], bits)
}

/// Signed average rounded half away from zero, as nvcc's code for `__vavgs2/4` computes it.
fn avg_s_away(a: i128, b: i128) -> i128 {
    let s = a + b;
    if s >= 0 {
        (s + 1) >> 1
    } else {
        s >> 1
    }
}

macro_rules! lanes {
    ($e:expr) => {
        Rule::Lanewise($e)
    };
}

fn defs() -> Vec<Def> {
    let mut v: Vec<Def> = Vec::new();
    for (shape, n) in [(B, "4"), (H, "2")] {
        let unit = if n == "4" { "byte" } else { "halfword" };
        let lane_bits = if n == "4" { 8 } else { 16 };
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        let name = |base: &str| leak(format!("__{base}{n}"));
        let mean = |t: &str| leak(t.replace("LANE", unit));
        let mut push = |base: &str, rule: Rule, meaning: &str, keywords: &str| {
            v.push(Def {
                name: name(base),
                shape,
                rule,
                meaning: mean(meaning),
                keywords: leak(keywords.replace("LANE", unit)),
                note: None,
            });
        };
        push(
            "vabs",
            lanes!(|x, b| wrap(s(x, 0, b).abs(), b)),
            "per signed LANE: |a|, wrapping (the most negative value stays as it is)",
            "absolute value signed LANE",
        );
        push(
            "vabsss",
            lanes!(|x, b| sat_s(s(x, 0, b).abs(), b)),
            "per signed LANE: |a|, saturated (the most negative value gives the largest)",
            "absolute value saturated signed LANE",
        );
        push(
            "vneg",
            lanes!(|x, b| wrap(-s(x, 0, b), b)),
            "per LANE: -a, wrapping",
            "negate negation LANE",
        );
        push(
            "vnegss",
            lanes!(|x, b| sat_s(-s(x, 0, b), b)),
            "per signed LANE: -a, saturated",
            "negate negation saturated signed LANE",
        );
        push(
            "vabsdiffs",
            lanes!(|x, b| wrap((s(x, 0, b) - s(x, 1, b)).abs(), b)),
            "per signed LANE: |a - b| (as an unsigned LANE)",
            "absolute difference signed LANE",
        );
        push(
            "vabsdiffu",
            lanes!(|x, b| wrap((u(x, 0, b) - u(x, 1, b)).abs(), b)),
            "per unsigned LANE: |a - b|",
            "absolute difference unsigned LANE",
        );
        push(
            "vadd",
            lanes!(|x, b| wrap(u(x, 0, b) + u(x, 1, b), b)),
            "per LANE: a + b, wrapping",
            "add addition sum LANE",
        );
        push(
            "vaddss",
            lanes!(|x, b| sat_s(s(x, 0, b) + s(x, 1, b), b)),
            "per signed LANE: a + b, saturated",
            "add addition saturated signed LANE",
        );
        push(
            "vaddus",
            lanes!(|x, b| sat_u(u(x, 0, b) + u(x, 1, b), b)),
            "per unsigned LANE: a + b, saturated at the largest",
            "add addition saturated unsigned LANE",
        );
        push(
            "vavgu",
            lanes!(|x, b| wrap((u(x, 0, b) + u(x, 1, b) + 1) >> 1, b)),
            "per unsigned LANE: (a + b + 1) / 2, rounded down, without overflow",
            "average rounded unsigned LANE",
        );
        push(
            "vhaddu",
            lanes!(|x, b| wrap((u(x, 0, b) + u(x, 1, b)) >> 1, b)),
            "per unsigned LANE: (a + b) / 2, rounded down, without overflow",
            "halving add average truncated unsigned LANE",
        );
        push(
            "vmaxs",
            lanes!(|x, b| wrap(s(x, 0, b).max(s(x, 1, b)), b)),
            "per signed LANE: the larger of a and b",
            "maximum max signed LANE",
        );
        push(
            "vmaxu",
            lanes!(|x, b| wrap(u(x, 0, b).max(u(x, 1, b)), b)),
            "per unsigned LANE: the larger of a and b",
            "maximum max unsigned LANE",
        );
        push(
            "vmins",
            lanes!(|x, b| wrap(s(x, 0, b).min(s(x, 1, b)), b)),
            "per signed LANE: the smaller of a and b",
            "minimum min signed LANE",
        );
        push(
            "vminu",
            lanes!(|x, b| wrap(u(x, 0, b).min(u(x, 1, b)), b)),
            "per unsigned LANE: the smaller of a and b",
            "minimum min unsigned LANE",
        );
        push(
            "vsub",
            lanes!(|x, b| wrap(u(x, 0, b) - u(x, 1, b), b)),
            "per LANE: a - b, wrapping",
            "subtract subtraction difference LANE",
        );
        push(
            "vsubss",
            lanes!(|x, b| sat_s(s(x, 0, b) - s(x, 1, b), b)),
            "per signed LANE: a - b, saturated",
            "subtract subtraction saturated signed LANE",
        );
        push(
            "vsubus",
            lanes!(|x, b| sat_u(u(x, 0, b) - u(x, 1, b), b)),
            "per unsigned LANE: a - b, saturated at 0",
            "subtract subtraction saturated unsigned LANE",
        );
        push(
            "vsads",
            Rule::Sum {
                term: |a, b| (a - b).abs(),
                signed: true,
                addend: false,
                b_bytes_from: None,
                bits: lane_bits,
            },
            "sum over signed LANEs of |a - b|",
            "sum of absolute differences sad signed LANE",
        );
        push(
            "vsadu",
            Rule::Sum {
                term: |a, b| (a - b).abs(),
                signed: false,
                addend: false,
                b_bytes_from: None,
                bits: lane_bits,
            },
            "sum over unsigned LANEs of |a - b|",
            "sum of absolute differences sad unsigned LANE",
        );
        // Averages: the signed one is rounded half away from zero (what nvcc's code does).
        v.push(Def {
            name: name("vavgs"),
            shape,
            rule: lanes!(|x, b| wrap(avg_s_away(s(x, 0, b), s(x, 1, b)), b)),
            meaning: mean("per signed LANE: (a + b) / 2 rounded half away from zero, without overflow"),
            keywords: leak("average rounded signed LANE".replace("LANE", unit)),
            note: Some("CUDA calls it a 'rounded average'; the code rounds halves away from zero (-0.5 gives -1), as PTX's signed vavrg does, unlike __rhadd, which rounds halves up (for __vavgu's unsigned lanes up and away from zero are the same)"),
        });
        type Cmp = fn(i128, i128) -> bool;
        let cmps: [(&str, bool, Cmp, &str); 10] = [
            ("eq", false, |a, b| a == b, "a == b"),
            ("ne", false, |a, b| a != b, "a != b"),
            ("ges", true, |a, b| a >= b, "a >= b signed"),
            ("geu", false, |a, b| a >= b, "a >= b unsigned"),
            ("gts", true, |a, b| a > b, "a > b signed"),
            ("gtu", false, |a, b| a > b, "a > b unsigned"),
            ("les", true, |a, b| a <= b, "a <= b signed"),
            ("leu", false, |a, b| a <= b, "a <= b unsigned"),
            ("lts", true, |a, b| a < b, "a < b signed"),
            ("ltu", false, |a, b| a < b, "a < b unsigned"),
        ];
        for (c, _signed, _f, text) in cmps {
            let kind = if text.ends_with("unsigned") {
                "unsigned"
            } else if text.ends_with("signed") {
                "signed"
            } else {
                ""
            };
            v.push(Def {
                name: leak(format!("__vcmp{c}{n}")),
                shape,
                rule: cmp_rule(c, true),
                meaning: leak(format!(
                    "per {unit}: all ones (0x{}) where {text}, else 0",
                    if n == "4" { "ff" } else { "ffff" }
                )),
                keywords: leak(format!(
                    "compare comparison mask {kind} {unit} {}",
                    cmp_words(c)
                )),
                note: None,
            });
            v.push(Def {
                name: leak(format!("__vset{c}{n}")),
                shape,
                rule: cmp_rule(c, false),
                meaning: leak(format!("per {unit}: 1 where {text}, else 0")),
                keywords: leak(format!(
                    "compare comparison set boolean {kind} {unit} {}",
                    cmp_words(c)
                )),
                note: None,
            });
        }
    }
    for d in v.iter_mut().filter(|d| d.name.starts_with("__vsad")) {
        d.shape = if d.shape == B {
            Shape::SumBytes
        } else {
            Shape::SumHalves
        };
    }
    // DPX: three-way and add-then-compare, 32-bit or per 16-bit half.
    for (t, shape, bits_signed) in [
        ("s32", W, Some(true)),
        ("u32", W, Some(false)),
        ("s16x2", H, Some(true)),
        ("u16x2", H, Some(false)),
    ] {
        let signed = bits_signed.unwrap_or(false);
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        let unit = if shape == H {
            "per 16-bit half"
        } else {
            "on 32 bits"
        };
        let sg = if signed { "signed" } else { "unsigned" };
        for relu in [false, true] {
            if relu && !signed {
                continue;
            }
            let r = if relu { "_relu" } else { "" };
            let rtext = if relu { ", then at least 0" } else { "" };
            let rk = if relu { " relu clamp zero" } else { "" };
            v.push(Def {
                name: leak(format!("__vimax3_{t}{r}")),
                shape,
                rule: dpx_rule(signed, true, false, relu),
                meaning: leak(format!("{unit}, {sg}: the largest of a, b and c{rtext}")),
                keywords: leak(format!("maximum max three dpx {sg}{rk}")),
                note: None,
            });
            v.push(Def {
                name: leak(format!("__vimin3_{t}{r}")),
                shape,
                rule: dpx_rule(signed, false, false, relu),
                meaning: leak(format!("{unit}, {sg}: the smallest of a, b and c{rtext}")),
                keywords: leak(format!("minimum min three dpx {sg}{rk}")),
                note: None,
            });
            v.push(Def {
                name: leak(format!("__viaddmax_{t}{r}")),
                shape,
                rule: dpx_rule(signed, true, true, relu),
                meaning: leak(format!(
                    "{unit}, {sg}: the larger of a + b (wrapping) and c{rtext}"
                )),
                keywords: leak(format!("add maximum max dpx {sg}{rk}")),
                note: None,
            });
            v.push(Def {
                name: leak(format!("__viaddmin_{t}{r}")),
                shape,
                rule: dpx_rule(signed, false, true, relu),
                meaning: leak(format!(
                    "{unit}, {sg}: the smaller of a + b (wrapping) and c{rtext}"
                )),
                keywords: leak(format!("add minimum min dpx {sg}{rk}")),
                note: None,
            });
            if relu {
                v.push(Def {
                    name: leak(format!("__vimax_{t}_relu")),
                    shape,
                    rule: lanes!(|x, b| wrap(s(x, 0, b).max(s(x, 1, b)).max(0), b)),
                    meaning: leak(format!(
                        "{unit}, signed: the larger of a and b, then at least 0"
                    )),
                    keywords: "maximum max dpx signed relu clamp zero",
                    note: None,
                });
                v.push(Def {
                    name: leak(format!("__vimin_{t}_relu")),
                    shape,
                    rule: lanes!(|x, b| wrap(s(x, 0, b).min(s(x, 1, b)).max(0), b)),
                    meaning: leak(format!(
                        "{unit}, signed: the smaller of a and b, then at least 0"
                    )),
                    keywords: "minimum min dpx signed relu clamp zero",
                    note: None,
                });
            }
        }
    }
    for (op, max) in [("max", true), ("min", false)] {
        for (t, shape, signed) in [
            ("s32", W, true),
            ("u32", W, false),
            ("s16x2", H, true),
            ("u16x2", H, false),
        ] {
            let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
            let unit = if shape == H {
                "per 16-bit half"
            } else {
                "on 32 bits"
            };
            let sg = if signed { "signed" } else { "unsigned" };
            let (word, cmp) = if max {
                ("larger", ">=")
            } else {
                ("smaller", "<=")
            };
            let preds = if shape == H {
                "pred_hi for the high half, pred_lo for the low one"
            } else {
                "pred"
            };
            v.push(Def {
                name: leak(format!("__vib{op}_{t}")),
                shape,
                rule: Rule::Picked { max, signed },
                meaning: leak(format!(
                    "{unit}, {sg}: the {word} of a and b, and a bool ({preds}) that is 1 where a {cmp} b (a was picked)"
                )),
                keywords: leak(format!("{op} {}imum predicate bool which picked dpx {sg}", &op[..2])),
                note: None,
            });
        }
    }
    let dot = |name, signed, from: Option<usize>, meaning, keywords| Def {
        name,
        shape: if from.is_some() {
            Shape::SumHalves
        } else {
            Shape::SumBytes
        },
        rule: Rule::Sum {
            term: |a, b| a * b,
            signed,
            addend: true,
            b_bytes_from: from,
            bits: if from.is_some() { 16 } else { 8 },
        },
        meaning,
        keywords,
        note: None,
    };
    v.push(dot(
        "__dp4a",
        true,
        None,
        "sum over the four signed bytes of a times the same bytes of b, plus c (32-bit, wrapping)",
        "dot product four bytes signed dp4a multiply accumulate",
    ));
    v.push(dot("__dp4a_u", false, None, "sum over the four unsigned bytes of a times the same bytes of b, plus c (32-bit, wrapping); the unsigned int overload of __dp4a", "dot product four bytes unsigned dp4a multiply accumulate"));
    v.push(dot("__dp2a_lo", true, Some(0), "signed halves of a times the low two signed bytes of b (half 0 with byte 0, half 1 with byte 1), summed, plus c", "dot product halves bytes low signed dp2a multiply accumulate"));
    v.push(dot("__dp2a_lo_u", false, Some(0), "unsigned halves of a times the low two unsigned bytes of b, summed, plus c; the unsigned int overload of __dp2a_lo", "dot product halves bytes low unsigned dp2a multiply accumulate"));
    v.push(dot("__dp2a_hi", true, Some(2), "signed halves of a times the high two signed bytes of b (half 0 with byte 2, half 1 with byte 3), summed, plus c", "dot product halves bytes high signed dp2a multiply accumulate"));
    v.push(dot("__dp2a_hi_u", false, Some(2), "unsigned halves of a times the high two unsigned bytes of b, summed, plus c; the unsigned int overload of __dp2a_hi", "dot product halves bytes high unsigned dp2a multiply accumulate"));
    let mut w = |name, rule, meaning, keywords, note| {
        v.push(Def {
            name,
            shape: W,
            rule,
            meaning,
            keywords,
            note,
        })
    };
    w(
        "__sad",
        Wd(|x| wrap((s(x, 0, 32) - s(x, 1, 32)).abs() + u(x, 2, 32), 32)),
        "|a - b| of signed a and b, plus unsigned c (32-bit, wrapping)",
        "sum of absolute difference sad signed accumulate",
        None,
    );
    w(
        "__usad",
        Wd(|x| wrap((u(x, 0, 32) - u(x, 1, 32)).abs() + u(x, 2, 32), 32)),
        "|a - b| of unsigned a and b, plus c (32-bit, wrapping)",
        "sum of absolute difference sad unsigned accumulate",
        None,
    );
    w("__byte_perm", Wd(byte_perm), "byte n of the result is byte (selector nibble n & 7) of the eight bytes b:a; only the low 3 bits of the four low nibbles of the selector count", "byte permute select shuffle swizzle prmt", Some("only bits 0-2 of each of the four low selector nibbles are used: nvcc masks the selector with 0x7777, so prmt's sign-replicate bit (3) never takes effect"));
    w(
        "__funnelshift_l",
        Wd(|x| funnel(x, true, false)),
        "the 64 bits hi:lo shifted left by (shift & 31); the high 32 bits",
        "funnel shift left rotate concatenate wrap",
        None,
    );
    w(
        "__funnelshift_lc",
        Wd(|x| funnel(x, true, true)),
        "the 64 bits hi:lo shifted left by min(shift, 32); the high 32 bits",
        "funnel shift left rotate concatenate clamp",
        None,
    );
    w(
        "__funnelshift_r",
        Wd(|x| funnel(x, false, false)),
        "the 64 bits hi:lo shifted right by (shift & 31); the low 32 bits",
        "funnel shift right rotate concatenate wrap",
        None,
    );
    w(
        "__funnelshift_rc",
        Wd(|x| funnel(x, false, true)),
        "the 64 bits hi:lo shifted right by min(shift, 32); the low 32 bits",
        "funnel shift right rotate concatenate clamp",
        None,
    );
    w(
        "__brev",
        Wd(|x| (x[0] as u32).reverse_bits() as u64),
        "the 32 bits of a in reverse order",
        "bit reverse reversal",
        None,
    );
    w(
        "__brevll",
        Wd(|x| x[0].reverse_bits()),
        "the 64 bits of a in reverse order",
        "bit reverse reversal 64-bit",
        None,
    );
    w(
        "__clz",
        Wd(|x| (x[0] as u32).leading_zeros() as u64),
        "the number of zero bits above the highest set bit of the 32 bits of a (32 for 0)",
        "count leading zeros",
        None,
    );
    w(
        "__clzll",
        Wd(|x| x[0].leading_zeros() as u64),
        "the number of zero bits above the highest set bit of the 64 bits of a (64 for 0)",
        "count leading zeros 64-bit",
        None,
    );
    w(
        "__popc",
        Wd(|x| (x[0] as u32).count_ones() as u64),
        "the number of set bits in the 32 bits of a",
        "population count set bits ones",
        None,
    );
    w(
        "__popcll",
        Wd(|x| x[0].count_ones() as u64),
        "the number of set bits in the 64 bits of a",
        "population count set bits ones 64-bit",
        None,
    );
    w(
        "__ffs",
        Wd(|x| ffs(x[0] & 0xffff_ffff)),
        "the position (1 to 32) of the lowest set bit of a, 0 when a is 0",
        "find first set bit lowest position",
        None,
    );
    w(
        "__ffsll",
        Wd(|x| ffs(x[0])),
        "the position (1 to 64) of the lowest set bit of a, 0 when a is 0",
        "find first set bit lowest position 64-bit",
        None,
    );
    w(
        "__mulhi",
        Wd(|x| wrap((s(x, 0, 32) * s(x, 1, 32)) >> 32, 32)),
        "the high 32 bits of the 64-bit product of signed a and b",
        "multiply high product signed",
        None,
    );
    w(
        "__umulhi",
        Wd(|x| wrap((u(x, 0, 32) * u(x, 1, 32)) >> 32, 32)),
        "the high 32 bits of the 64-bit product of unsigned a and b",
        "multiply high product unsigned",
        None,
    );
    w(
        "__mul64hi",
        Wd(|x| wrap((s(x, 0, 64) * s(x, 1, 64)) >> 64, 64)),
        "the high 64 bits of the 128-bit product of signed a and b",
        "multiply high product signed 64-bit",
        None,
    );
    w(
        "__umul64hi",
        Wd(|x| ((x[0] as u128 * x[1] as u128) >> 64) as u64),
        "the high 64 bits of the 128-bit product of unsigned a and b",
        "multiply high product unsigned 64-bit",
        None,
    );
    w("__mul24", Wd(|x| wrap(s(x, 0, 24) * s(x, 1, 24), 32)), "the low 32 bits of the product of the low 24 bits of a and b, each read as a signed 24-bit number", "multiply 24-bit product signed", Some("the low 24 bits are read as signed (bit 23 is the sign): __mul24(0x800000, 1) is 0xff800000, not 0x00800000"));
    w(
        "__umul24",
        Wd(|x| wrap(u(x, 0, 24) * u(x, 1, 24), 32)),
        "the low 32 bits of the product of the low 24 bits of a and b, unsigned",
        "multiply 24-bit product unsigned",
        None,
    );
    w(
        "__hadd",
        Wd(|x| wrap((s(x, 0, 32) + s(x, 1, 32)) >> 1, 32)),
        "(a + b) / 2 of signed a and b, rounded down, without overflow",
        "halving add average signed truncated",
        None,
    );
    w(
        "__rhadd",
        Wd(|x| wrap((s(x, 0, 32) + s(x, 1, 32) + 1) >> 1, 32)),
        "(a + b + 1) / 2 of signed a and b, rounded down, without overflow",
        "rounded halving add average signed",
        None,
    );
    w(
        "__uhadd",
        Wd(|x| wrap((u(x, 0, 32) + u(x, 1, 32)) >> 1, 32)),
        "(a + b) / 2 of unsigned a and b, rounded down, without overflow",
        "halving add average unsigned truncated",
        None,
    );
    w(
        "__urhadd",
        Wd(|x| wrap((u(x, 0, 32) + u(x, 1, 32) + 1) >> 1, 32)),
        "(a + b + 1) / 2 of unsigned a and b, rounded down, without overflow",
        "rounded halving add average unsigned",
        None,
    );
    v
}

fn cmp_words(c: &str) -> &'static str {
    match c {
        "eq" => "equal",
        "ne" => "not equal",
        "ges" | "geu" => "greater or equal",
        "gts" | "gtu" => "greater than",
        "les" | "leu" => "less or equal",
        _ => "less than",
    }
}

fn cmp_rule(c: &str, ones: bool) -> Rule {
    macro_rules! r {
        ($get:ident, $op:tt) => {
            if ones {
                lanes!(|x, b| all_ones_if($get(x, 0, b) $op $get(x, 1, b), b))
            } else {
                lanes!(|x, b| ($get(x, 0, b) $op $get(x, 1, b)) as u64)
            }
        };
    }
    match c {
        "eq" => r!(u, ==),
        "ne" => r!(u, !=),
        "ges" => r!(s, >=),
        "geu" => r!(u, >=),
        "gts" => r!(s, >),
        "gtu" => r!(u, >),
        "les" => r!(s, <=),
        "leu" => r!(u, <=),
        "lts" => r!(s, <),
        _ => r!(u, <),
    }
}

fn dpx_rule(signed: bool, max: bool, add: bool, relu: bool) -> Rule {
    // Lanewise with a 16- or 32-bit lane (the shape gives the width).
    macro_rules! r {
        ($get:ident) => {
            match (max, add, relu) {
                (true, false, false) => {
                    lanes!(|x, b| wrap($get(x, 0, b).max($get(x, 1, b)).max($get(x, 2, b)), b))
                }
                (false, false, false) => {
                    lanes!(|x, b| wrap($get(x, 0, b).min($get(x, 1, b)).min($get(x, 2, b)), b))
                }
                (true, true, false) => lanes!(|x, b| wrap(
                    sx(wrap($get(x, 0, b) + $get(x, 1, b), b), b).max($get(x, 2, b)),
                    b
                )),
                (false, true, false) => lanes!(|x, b| wrap(
                    sx(wrap($get(x, 0, b) + $get(x, 1, b), b), b).min($get(x, 2, b)),
                    b
                )),
                (true, false, true) => lanes!(|x, b| wrap(
                    $get(x, 0, b).max($get(x, 1, b)).max($get(x, 2, b)).max(0),
                    b
                )),
                (false, false, true) => lanes!(|x, b| wrap(
                    $get(x, 0, b).min($get(x, 1, b)).min($get(x, 2, b)).max(0),
                    b
                )),
                (true, true, true) => lanes!(|x, b| wrap(
                    sx(wrap($get(x, 0, b) + $get(x, 1, b), b), b)
                        .max($get(x, 2, b))
                        .max(0),
                    b
                )),
                (false, true, true) => lanes!(|x, b| wrap(
                    sx(wrap($get(x, 0, b) + $get(x, 1, b), b), b)
                        .min($get(x, 2, b))
                        .max(0),
                    b
                )),
            }
        };
    }
    if signed {
        r!(s)
    } else {
        // Unsigned: the wrapped sum is compared as unsigned.
        match (max, add) {
            (true, false) => lanes!(|x, b| wrap(u(x, 0, b).max(u(x, 1, b)).max(u(x, 2, b)), b)),
            (false, false) => lanes!(|x, b| wrap(u(x, 0, b).min(u(x, 1, b)).min(u(x, 2, b)), b)),
            (true, true) => {
                lanes!(|x, b| wrap(ux(wrap(u(x, 0, b) + u(x, 1, b), b), b).max(u(x, 2, b)), b))
            }
            (false, true) => {
                lanes!(|x, b| wrap(ux(wrap(u(x, 0, b) + u(x, 1, b), b), b).min(u(x, 2, b)), b))
            }
        }
    }
}

fn byte_perm(x: &[u64]) -> u64 {
    let pool = (x[1] & 0xffff_ffff) << 32 | (x[0] & 0xffff_ffff);
    (0..4).fold(0, |acc, n| {
        let sel = (x[2] >> (4 * n)) & 7;
        acc | ((pool >> (8 * sel)) & 0xff) << (8 * n)
    })
}

fn funnel(x: &[u64], left: bool, clamp: bool) -> u64 {
    let pair = (x[1] & 0xffff_ffff) << 32 | (x[0] & 0xffff_ffff);
    let sh = if clamp {
        (x[2] & 0xffff_ffff).min(32)
    } else {
        x[2] & 31
    };
    if left {
        ((pair << sh) >> 32) & 0xffff_ffff
    } else {
        (pair >> sh) & 0xffff_ffff
    }
}

fn ffs(x: u64) -> u64 {
    if x == 0 {
        0
    } else {
        x.trailing_zeros() as u64 + 1
    }
}

// ---------------------------------------------------------------------------------------------
// Data

struct Entry {
    intrinsic: Intrinsic,
    rule: Rule,
}

static ALL: OnceLock<Vec<Entry>> = OnceLock::new();

fn entries() -> &'static [Entry] {
    #[cfg(feature = "embed")]
    if ALL.get().is_none() {
        // The embedded data reads (a test makes sure of it).
        let _ = install(DATA);
    }
    ALL.get().map_or(&[], |v| v.as_slice())
}

/// Read the measured data (the text of `intrinsics.txt`); from then on [`all`], [`find`] and
/// the rest answer from it. The first text that reads stays: a later call only checks its text.
/// An error names the line; nothing is kept then.
pub fn install(text: &str) -> Result<(), String> {
    let text: &'static str = Box::leak(text.to_string().into_boxed_str());
    let entries = read_entries(text)?;
    let _ = ALL.set(entries);
    Ok(())
}

/// Whether the data is there ([`install`]ed, or embedded).
pub fn installed() -> bool {
    !entries().is_empty()
}

fn read_entries(text: &'static str) -> Result<Vec<Entry>, String> {
    {
        let defs = defs();
        let mut out: Vec<Entry> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let bad = |what: &str| format!("intrinsics data line {}: {what}", n + 1);
            let (tag, rest) = line.split_at(line.len().min(2));
            match tag.trim() {
                "=" => {
                    let mut f = rest.split_whitespace();
                    let name = f.next().ok_or_else(|| bad("no name"))?;
                    let result = CType::parse(f.next().unwrap_or(""))
                        .ok_or_else(|| bad("no result type"))?;
                    let args = f
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .map(|t| CType::parse(t).ok_or_else(|| bad("not an argument type")))
                        .collect::<Result<Vec<_>, _>>()?;
                    let outputs: Vec<&'static str> =
                        f.next().map(|o| o.split(',').collect()).unwrap_or_default();
                    let def = defs
                        .iter()
                        .find(|d| d.name == name)
                        .ok_or_else(|| bad(&format!("no meaning written for {name}")))?;
                    let function = name
                        .strip_suffix("_u")
                        .filter(|f| f.starts_with("__dp"))
                        .unwrap_or(name);
                    let doc_url = if name.starts_with("__v") {
                        SIMD_DOCS
                    } else {
                        INT_DOCS
                    };
                    out.push(Entry {
                        intrinsic: Intrinsic {
                            name,
                            function,
                            result,
                            args,
                            outputs,
                            meaning: def.meaning,
                            keywords: def.keywords,
                            shape: def.shape,
                            ptx: Vec::new(),
                            cost: Vec::new(),
                            sass_sm90: Vec::new(),
                            doc_url,
                            note: def.note,
                        },
                        rule: def.rule,
                    });
                }
                "p" | "s" | "m" => {
                    let e = &mut out
                        .last_mut()
                        .ok_or_else(|| bad("a record before its header"))?
                        .intrinsic;
                    match tag.trim() {
                        "p" => e.ptx.push(rest),
                        "m" => e.sass_sm90.push(rest),
                        _ => {
                            let mut f = rest.split_whitespace();
                            let arch = f
                                .next()
                                .and_then(|a| a.parse().ok())
                                .ok_or_else(|| bad("not an architecture"))?;
                            let _count = f.next();
                            let video = f.next() == Some("V");
                            // `=ARCH` and `m` are resolved once the record is whole.
                            let opcodes: Vec<&'static str> = f.collect();
                            e.cost.push(ArchCost {
                                arch,
                                opcodes,
                                video,
                                kind: SassKind::Emulated,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        for e in &mut out {
            resolve_costs(&mut e.intrinsic);
        }
        if out.is_empty() {
            return Err("intrinsics data: no intrinsic".into());
        }
        Ok(out)
    }
}

/// Fill in `=ARCH` (the list of an earlier architecture) and `m` (the opcodes of the sm_90 machine
/// code), and classify each list.
fn resolve_costs(i: &mut Intrinsic) {
    for k in 0..i.cost.len() {
        let spec = i.cost[k].opcodes.clone();
        if let [one] = spec.as_slice() {
            if let Some(arch) = one.strip_prefix('=').and_then(|a| a.parse::<u32>().ok()) {
                if let Some(src) = i.cost[..k].iter().find(|c| c.arch == arch) {
                    i.cost[k].opcodes = src.opcodes.clone();
                }
            } else if *one == "m" {
                i.cost[k].opcodes = i
                    .sass_sm90
                    .iter()
                    .filter_map(|l| {
                        let l = if l.starts_with('@') {
                            l.split_once(' ').map_or("", |(_, r)| r)
                        } else {
                            l
                        };
                        l.split_whitespace().next()
                    })
                    .collect();
            }
        }
        let owned: Vec<String> = i.cost[k].opcodes.iter().map(|s| s.to_string()).collect();
        i.cost[k].kind = classify(&owned).0;
    }
}

/// Every intrinsic, in the order of the data file.
pub fn all() -> impl Iterator<Item = &'static Intrinsic> {
    entries().iter().map(|e| &e.intrinsic)
}

/// The intrinsic of this name (with or without the leading `__`).
pub fn find(name: &str) -> Option<&'static Intrinsic> {
    let name = name.trim();
    let bare = name.trim_start_matches('_');
    all().find(|i| i.name == name || i.name.trim_start_matches('_') == bare)
}

/// Intrinsics whose name contains the text, or whose meaning and keywords contain every word of
/// it; best matches first (exact name, name contains, then by words).
pub fn search(text: &str) -> Vec<&'static Intrinsic> {
    let q = text.trim().to_ascii_lowercase();
    if q.is_empty() {
        return all().collect();
    }
    let bare = q.trim_start_matches('_');
    let words: Vec<&str> = q.split_whitespace().collect();
    let mut scored: Vec<(u32, usize, &'static Intrinsic)> = Vec::new();
    for (n, i) in all().enumerate() {
        let name = i.name.trim_start_matches('_');
        let hay = format!("{} {} {}", i.name, i.meaning, i.keywords).to_ascii_lowercase();
        let score = if name == bare {
            0
        } else if name.starts_with(bare) {
            1
        } else if name.contains(bare) {
            2
        } else if words.iter().all(|w| hay.contains(w) || stem_hit(&hay, w)) {
            3
        } else {
            continue;
        };
        scored.push((score, n, i));
    }
    // Names are unique, so no two keys are equal.
    scored.sort_unstable_by_key(|&(s, n, _)| (s, n));
    scored.into_iter().map(|(_, _, i)| i).collect()
}

/// "bytes" finds "byte", "differences" finds "difference".
fn stem_hit(hay: &str, w: &str) -> bool {
    let stem = w.trim_end_matches('s');
    stem.len() >= 3 && hay.contains(stem)
}

/// The opcode of one line of an intrinsic's PTX; none for braces and declarations.
fn statement_opcode(s: &str) -> Option<&str> {
    if s.starts_with('{') || s.starts_with('}') || s.starts_with('.') {
        return None;
    }
    s.split_whitespace().next()
}

/// Whether the PTX opcode `op` is `want`: the text before the first `.`, or the whole typed
/// opcode when `want` has one (`vabsdiff4` or `vabsdiff4.u32.u32.u32`).
fn opcode_is(op: &str, want: &str) -> bool {
    op == want || (!want.contains('.') && op.split('.').next() == Some(want))
}

/// The intrinsics whose PTX uses this opcode (matched on the text before the first `.`, or the
/// whole typed opcode when it has one: `vabsdiff4` or `vabsdiff4.u32.u32.u32`).
pub fn emitting(opcode: &str) -> Vec<&'static Intrinsic> {
    let want = opcode.trim();
    all()
        .filter(|i| i.ptx_opcodes().iter().any(|op| opcode_is(op, want)))
        .collect()
}

/// The names of the intrinsics whose PTX uses this opcode, read from the intrinsic data's text
/// without [`install`]ing it (so without the meanings' code): the same list as [`emitting`]
/// names, in the same order. Lines that do not read are passed over.
pub fn emitting_in<'t>(text: &'t str, opcode: &str) -> Vec<&'t str> {
    let want = opcode.trim();
    let mut out = Vec::new();
    let mut current: Option<(&'t str, bool)> = None;
    for line in text.lines() {
        let (tag, rest) = line.split_at(line.len().min(2));
        match tag.trim() {
            "=" => {
                if let Some((name, true)) = current {
                    out.push(name);
                }
                current = rest.split_whitespace().next().map(|n| (n, false));
            }
            "p" => {
                if let Some((_, hit)) = current.as_mut() {
                    *hit |= statement_opcode(rest).is_some_and(|op| opcode_is(op, want));
                }
            }
            _ => {}
        }
    }
    if let Some((name, true)) = current {
        out.push(name);
    }
    out
}

/// A wrong call: unknown name, or the wrong number of arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError(pub String);

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Evaluate by the meaning; arguments are raw bits (masked to each argument's width).
pub fn evaluate(i: &Intrinsic, args: &[u64]) -> Result<Evaluation, CallError> {
    if args.len() != i.args.len() {
        return Err(CallError(format!(
            "{} takes {} argument{} ({}), not {}",
            i.name,
            i.args.len(),
            if i.args.len() == 1 { "" } else { "s" },
            i.args
                .iter()
                .map(|t| t.c_name())
                .collect::<Vec<_>>()
                .join(", "),
            args.len()
        )));
    }
    let rule = entries()
        .iter()
        .find(|e| e.intrinsic.name == i.name)
        .map(|e| e.rule)
        .ok_or_else(|| CallError(format!("unknown intrinsic {}", i.name)))?;
    let args: Vec<u64> = args
        .iter()
        .zip(&i.args)
        .map(|(v, t)| v & mask(t.bits()))
        .collect();
    let rbits = i.result.bits();
    let mut outputs: Vec<(&'static str, u64)> = Vec::new();
    let (result, lanes, addend) = match rule {
        Rule::Lanewise(f) => {
            let (n, bits) = match i.shape {
                Shape::Bytes => (4, 8),
                Shape::Halves => (2, 16),
                _ => (1, rbits.max(i.args[0].bits())),
            };
            let mut result = 0;
            let mut lanes = Vec::new();
            for k in 0..n {
                let inputs: Vec<u64> = args.iter().map(|&a| lane(a, k, bits)).collect();
                let out = f(&inputs, bits) & mask(bits);
                result |= out << (k as u32 * bits);
                lanes.push(Lane {
                    index: k,
                    bits,
                    inputs,
                    output: out,
                });
            }
            (result & mask(rbits), lanes, None)
        }
        Rule::Sum {
            term,
            signed,
            addend,
            b_bytes_from,
            bits: abits,
        } => {
            let n = (32 / abits) as usize;
            let bbits = if b_bytes_from.is_some() { 8 } else { abits };
            let mut total: i128 = 0;
            let mut lanes = Vec::new();
            for k in 0..n {
                let bk = b_bytes_from.map_or(k, |f| f + k);
                let (la, lb) = (lane(args[0], k, abits), lane(args[1], bk, bbits));
                let (va, vb) = if signed {
                    (sx(la, abits), sx(lb, bbits))
                } else {
                    (ux(la, abits), ux(lb, bbits))
                };
                let t = term(va, vb);
                total += t;
                lanes.push(Lane {
                    index: k,
                    bits: abits,
                    inputs: vec![la, lb],
                    output: wrap(t, 32),
                });
            }
            let add = if addend { Some(args[2]) } else { None };
            if let Some(c) = add {
                total += if signed { sx(c, 32) } else { ux(c, 32) };
            }
            (wrap(total, 32), lanes, add)
        }
        Rule::Picked { max, signed } => {
            let (n, bits) = if i.shape == Shape::Halves {
                (2, 16)
            } else {
                (1, 32)
            };
            let mut result = 0;
            let mut lanes = Vec::new();
            let mut picked = Vec::new();
            for k in 0..n {
                let (la, lb) = (lane(args[0], k, bits), lane(args[1], k, bits));
                let (va, vb) = if signed {
                    (sx(la, bits), sx(lb, bits))
                } else {
                    (ux(la, bits), ux(lb, bits))
                };
                let a_wins = if max { va >= vb } else { va <= vb };
                let out = if a_wins { la } else { lb };
                result |= out << (k as u32 * bits);
                picked.push(a_wins as u64);
                lanes.push(Lane {
                    index: k,
                    bits,
                    inputs: vec![la, lb],
                    output: out,
                });
            }
            // pred_hi is the high lane: the outputs run from the highest lane down.
            for (name, p) in i.outputs.iter().zip(picked.iter().rev()) {
                outputs.push((*name, *p));
            }
            (result, lanes, None)
        }
        Rule::Word(f) => {
            let out = f(&args) & mask(rbits);
            let bits = rbits.max(
                args.iter()
                    .zip(&i.args)
                    .map(|(_, t)| t.bits())
                    .max()
                    .unwrap_or(32),
            );
            (
                out,
                vec![Lane {
                    index: 0,
                    bits,
                    inputs: args.clone(),
                    output: out,
                }],
                None,
            )
        }
    };
    Ok(Evaluation {
        name: i.name,
        args,
        result,
        lanes,
        addend,
        outputs,
    })
}

// ---------------------------------------------------------------------------------------------
// The recorded PTX as a program

/// The argument registers of the recorded PTX, in order.
pub const ARG_REGISTERS: [&str; 3] = ["%a", "%b", "%c"];
/// The result register of the recorded PTX.
pub const RESULT_REGISTER: &str = "%d";

/// The recorded PTX as a [`Program`], one statement a line (line `n` is `ptx[n - 1]`).
pub fn program(i: &Intrinsic) -> Result<Program, ProgramError> {
    parse_program(&i.ptx.join("\n"))
}

/// The starting registers of a call: each argument, masked to its C type, in `%a %b %c`, for
/// the ones the program uses.
pub fn starting_registers(i: &Intrinsic, p: &Program, args: &[u64]) -> Vec<(String, u64)> {
    ARG_REGISTERS
        .iter()
        .zip(args.iter().zip(&i.args))
        .filter(|(r, _)| p.registers.iter().any(|x| x.name == **r))
        .map(|(r, (v, t))| (r.to_string(), v & mask(t.bits())))
        .collect()
}

/// The recorded PTX ready to run on a call's arguments (see [`Machine`]).
///
/// ```
/// use ptxlab_core::intrinsics;
///
/// let gt = intrinsics::find("__vcmpgtu4").unwrap();
/// let mut m = intrinsics::machine(gt, &[0x0180_ff00, 0x0280_0000]).unwrap();
/// m.run();
/// let (d, _) = intrinsics::program_outcome(gt, &m);
/// assert_eq!(d, Some(0x0000_ff00));
/// ```
pub fn machine(i: &Intrinsic, args: &[u64]) -> Result<Machine, CallError> {
    if args.len() != i.args.len() {
        return Err(CallError(format!(
            "{} takes {} argument{}, not {}",
            i.name,
            i.args.len(),
            if i.args.len() == 1 { "" } else { "s" },
            args.len()
        )));
    }
    let p = program(i).map_err(|e| CallError(format!("{}: its PTX: {e}", i.name)))?;
    let init = starting_registers(i, &p, args);
    Machine::new(p, &init).map_err(|e| CallError(format!("{}: its PTX: {e}", i.name)))
}

/// What the program left where [`evaluate`] puts its answers: `%d` (cut to the result's
/// width) and each bool of [`Intrinsic::outputs`] (`%pred` ...); None for a register the
/// program does not have.
pub fn program_outcome(
    i: &Intrinsic,
    m: &Machine,
) -> (Option<u64>, Vec<(&'static str, Option<u64>)>) {
    let d = m.value(RESULT_REGISTER).map(|v| v & mask(i.result.bits()));
    let outs = i
        .outputs
        .iter()
        .map(|&n| (n, m.value(&format!("%{}", n.trim_start_matches('%')))))
        .collect();
    (d, outs)
}
