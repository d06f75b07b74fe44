//! The words shown beside the values: what each modifier and each kind of selector does, as
//! data. A [`Note`] is a sentence in our own words and, where it claims something about values,
//! an [`Example`]: an instruction and its sources, whose `d` is computed by the core every time
//! it is shown ([`Example::worked`]), never typed. An example marked `measured` is a case of
//! `shared/conformance/h100-cases.jsonl.gz`; a test (`tests/notes.rs`) evaluates every example
//! of every note and checks that each measured one is in the data with the same `d`.
//!
//! Notes are chosen by the instruction's form, not by its family alone: `vmad` has no `d`
//! selector, and a SIMD instruction with `.add` uses its `d` mask to choose the lanes that are
//! summed, not to merge.
//!
//! ```
//! use ptxlab_core::{check, ast::Mod, notes};
//!
//! let insn = check("mul24.hi.u32 d, a, b;").unwrap();
//! let note = notes::modifier(insn.opcode().unwrap(), Mod::from_name("hi").unwrap());
//! assert!(note.text.contains("bits 16-47"));
//! let worked = note.example.unwrap().worked().unwrap();
//! assert_eq!(worked.d, 0x0020_0000);
//! assert!(note_sentence_ok(&worked.sentence));
//! # fn note_sentence_ok(s: &str) -> bool { s.contains("gives d=0x00200000") }
//! ```

use crate::ast::{ClampMode, HalfMode, Instruction, Mod, Scale, SecOp};
use crate::eval::Inputs;
use crate::isa::{Family, Opcode, POp};
use crate::ops::OpInsn;

/// An instruction and its sources that illustrate a note; `d` is computed when asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The instruction, as ptxlab accepts it.
    pub ptx: String,
    /// Source `a`.
    pub a: u64,
    /// Source `b`.
    pub b: u64,
    /// Source `c`.
    pub c: u64,
    /// Source `e` (`bfi`'s fifth operand).
    pub e: u64,
    /// Whether this exact case (instruction and sources) is one of the H100 measurements.
    pub measured: bool,
}

/// An example evaluated by the core: the sentence shown, and the value in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worked {
    /// `d` as the core computes it (the hardware reading).
    pub d: u64,
    /// "For example, `…` with a=…, b=… gives d=… (…)."
    pub sentence: String,
}

impl Example {
    /// A case measured on the H100 (the test finds it in the data).
    pub fn measured(ptx: &str, a: u64, b: u64, c: u64) -> Example {
        Example {
            ptx: ptx.to_string(),
            a,
            b,
            c,
            e: 0,
            measured: true,
        }
    }
    /// A case computed by the core only (the core reproduces every measured case, but this one
    /// is not among them).
    pub fn computed(ptx: &str, a: u64, b: u64, c: u64) -> Example {
        Example {
            measured: false,
            ..Example::measured(ptx, a, b, c)
        }
    }
    /// The sources as the evaluators take them.
    pub fn inputs(&self) -> Inputs {
        Inputs::new(self.a, self.b, self.c, self.e)
    }
    /// Check and evaluate the example (the hardware reading): its first destination and the
    /// sentence that shows it; the checker's message when the text is not accepted.
    pub fn worked(&self) -> Result<Worked, String> {
        let insn = crate::insn::check(&self.ptx).map_err(|d| d.to_string())?;
        let inputs = self.inputs();
        let d = insn.value(&inputs);
        let bits = insn.widths().dst;
        let srcs = [self.a, self.b, self.c, self.e];
        let shown: Vec<String> = insn
            .register_sources()
            .into_iter()
            .map(|(k, name, w)| format!("{name}={}", hex(srcs[k], w)))
            .collect();
        let origin = if self.measured {
            "an H100 measurement"
        } else {
            "computed by ptxlab"
        };
        let with = if shown.is_empty() {
            String::new()
        } else {
            format!(" with {}", shown.join(", "))
        };
        Ok(Worked {
            d,
            sentence: format!(
                "For example, {}{with} gives d={} ({origin}).",
                self.ptx,
                hex(d, bits)
            ),
        })
    }
}

/// `x` as zero-padded hex of a `bits`-wide operand.
fn hex(x: u64, bits: u32) -> String {
    let digits = (bits.max(4) as usize).div_ceil(4);
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    format!("0x{:0digits$x}", x & mask)
}

/// A sentence about one modifier or selector, with the example that shows it, if it makes a
/// claim about values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The claim, in our own words.
    pub text: String,
    /// An instruction that shows it; its `d` is computed when shown.
    pub example: Option<Example>,
}

impl Note {
    fn plain(text: impl Into<String>) -> Note {
        Note {
            text: text.into(),
            example: None,
        }
    }
    fn with(text: impl Into<String>, example: Example) -> Note {
        Note {
            text: text.into(),
            example: Some(example),
        }
    }
    /// The text followed by its worked example (or by the reason the example fails, which a
    /// test forbids).
    pub fn render(&self) -> String {
        match &self.example {
            None => self.text.clone(),
            Some(ex) => match ex.worked() {
                Ok(w) => format!("{} {}", self.text, w.sentence),
                Err(e) => format!("{} (example not accepted: {e})", self.text),
            },
        }
    }
}

const M: fn(&str, u64, u64, u64) -> Example = Example::measured;
const C: fn(&str, u64, u64, u64) -> Example = Example::computed;

/// What modifier `m` does on opcode `op`, in a sentence, with an example where it claims a
/// value.
pub fn modifier(op: Opcode, m: Mod) -> Note {
    let fam = op.family();
    let simd = matches!(fam, Family::Simd2 | Family::Simd4);
    match m {
        Mod::Type(t) => {
            let how = if t.is_signed() {
                "signed (two's complement)"
            } else if t.name().starts_with('b') {
                "raw bits"
            } else {
                "unsigned"
            };
            if t.name().ends_with("x2") {
                return Note::plain(format!(
                    ".{}: two 16-bit {} half-words in one 32-bit register, each computed on its \
                     own.",
                    t.name(),
                    how
                ));
            }
            Note::plain(format!(".{}: a {}-bit {} type.", t.name(), t.bits(), how))
        }
        Mod::Sat => sat(op),
        Mod::SecOp(s) => secop(op, s),
        Mod::Cmp(c) => {
            let rel = c.phrase();
            let (text, ex) = if simd {
                let lanes = if fam == Family::Simd2 {
                    "half-word"
                } else {
                    "byte"
                };
                (
                    format!(
                        ".{}: each {lanes} lane is 1 when a's lane is {rel} b's lane, else 0.",
                        m.name()
                    ),
                    C(
                        &format!("{}.u32.u32.{} d, a, b, c;", op.name(), m.name()),
                        0x0102_0304,
                        0x0103_0203,
                        0,
                    ),
                )
            } else {
                (
                    format!(
                        ".{}: the result is 1 when the part of a is {rel} the part of b, else 0.",
                        m.name()
                    ),
                    C(
                        &format!("vset.s32.s32.{} d, a, b;", m.name()),
                        0xffff_fffe,
                        3,
                        0,
                    ),
                )
            };
            Note::with(text, ex)
        }
        Mod::Mode(mode) => clamp_mode(op, mode),
        Mod::Scale(s) => {
            let k = if s == Scale::Shr7 { 7 } else { 15 };
            Note::with(
                format!(
                    ".{}: the 64-bit sum is shifted right by {k} bits before .sat and before \
                     the low 32 bits are kept: arithmetically when the result is signed (as \
                     for .sat: a signed source type or a negation), logically otherwise.",
                    m.name()
                ),
                C(
                    &format!("vmad.s32.s32.s32.{} d, a, b, c;", m.name()),
                    0xffff_ff00,
                    0x100,
                    0,
                ),
            )
        }
        Mod::Po => Note::with(
            ".po: 'plus one': the sum is a·b + c + 1 (before any scaling and .sat), the form used for \
             averages; no operand may be negated.",
            M(
                "vmad.u32.u32.u32.po d, a.b0, b.b2, c;",
                0x6729_4f3f,
                0x1b,
                0x10,
            ),
        ),
        Mod::Half(h) => half(op, h),
        Mod::Relu => Note::with(
            ".relu: a negative result (each half-word's, for .s16x2) becomes 0.",
            M("max.relu.s32 d, a, b;", 0x8000_0001, 0xa3f6_e9ec, 0),
        ),
        Mod::Shiftamt => Note::with(
            ".shiftamt: the distance of the found bit from bit 31 instead of its position \
             (0xffffffff still means none found).",
            M("bfind.shiftamt.u32 d, a;", 0x7fff_8001, 0, 0),
        ),
        Mod::Dir(_) | Mod::Prmt(_) | Mod::Bool(_) | Mod::Ftz | Mod::Cc => Note::plain(format!(
            ".{}: a modifier of the program instructions (shf, prmt, setp, set, slct, the carry \
             chain); {} takes none of them.",
            m.name(),
            op.name()
        )),
    }
}

fn sat(op: Opcode) -> Note {
    match op.family() {
        Family::ScalarVideo if matches!(op, Opcode::Vshl | Opcode::Vshr) => Note::with(
            ".sat: the shifted value (vshl keeps its low 34 bits first) is clamped to the 32-bit \
             range of the destination type, s32 or u32; with a selector on d the chosen part of \
             d then receives its bits of that value (d.h1 its bits 16-31), not a value clamped \
             to the part's range.",
            M(
                "vshl.u32.u32.u32.sat.clamp d.h1, a.b1, b.h0, c;",
                0x0001_9760,
                0xe,
                0xff4d_ed04,
            ),
        ),
        Family::ScalarVideo => Note::with(
            ".sat, whole-word d: a signed destination is clamped to the s32 range; an unsigned \
             one only has negative values raised to 0 (2^32 or more keeps its low 32 bits). \
             With a byte or half-word selector on d, any value outside 0..2^32-1 (negative \
             ones too) counts as the largest, and the part receives the lane's maximum (0x7f, \
             0x7fff, 0xff or 0xffff by the destination's sign); d.h1 then always receives 0.",
            M(
                "vsub.s32.s32.s32.sat d.b1, a.b0, b.b2, c;",
                0x8001,
                0x8c27_aa83,
                4,
            ),
        ),
        Family::Vmad => Note::with(
            ".sat: the 64-bit result is clamped to the s32 range when it is signed (a signed \
             source type, a negated c, or a product with exactly one of a and b negated) and to the u32 \
             range otherwise; the destination \
             type does not decide it.",
            C("vmad.u32.u32.u32.sat d, a.b1, b.b2, -c;", 9, 0xc, 0x1d),
        ),
        Family::Simd2 => Note::with(
            ".sat: each half-word lane is clamped to the 16-bit range of the destination type's \
             sign (-32768..32767 or 0..65535) before it is placed.",
            C(
                "vadd2.s32.s32.s32.sat d, a, b, c;",
                0x7fff_8000,
                0x0001_ffff,
                0,
            ),
        ),
        Family::Simd4 => Note::with(
            ".sat: each byte lane is clamped to the 8-bit range of the destination type's sign \
             (-128..127 or 0..255) before it is placed.",
            C(
                "vadd4.u32.u32.u32.sat d, a, b, c;",
                0xff80_0102,
                0x0190_ff01,
                0,
            ),
        ),
        Family::Integer => match op {
            Opcode::Mad => Note::with(
                ".sat (with .hi and .s32): the sum of the high half of the product and c is \
                 clamped to the s32 range instead of wrapping.",
                C(
                    "mad.hi.sat.s32 d, a, b, c;",
                    0x7fff_ffff,
                    0x7fff_ffff,
                    0x7fff_ffff,
                ),
            ),
            Opcode::Mad24 => Note::with(
                ".sat (with .hi and .s32): the sum of bits 16-47 of the 48-bit product and c is \
                 clamped to the s32 range instead of wrapping.",
                C(
                    "mad24.hi.sat.s32 d, a, b, c;",
                    0x007f_ffff,
                    0x007f_ffff,
                    0x7fff_ffff,
                ),
            ),
            Opcode::Sub => Note::with(
                ".sat (.s32 only): the result is clamped to the s32 range instead of wrapping.",
                C("sub.sat.s32 d, a, b;", 0x8000_0000, 1, 0),
            ),
            _ => Note::with(
                ".sat (.s32 only): the result is clamped to the s32 range instead of wrapping.",
                C("add.sat.s32 d, a, b;", 0x7fff_ffff, 1, 0),
            ),
        },
        // The program instructions' notes are `OpInsn::notes`; no row of OPCODES has their
        // families (`isa::tests`).
        Family::Logic | Family::Move | Family::Convert | Family::Compare | Family::Carry => {
            unreachable!("{op:?} is a row of OPCODES, not a program instruction")
        }
    }
}

fn secop(op: Opcode, s: SecOp) -> Note {
    match op.family() {
        Family::Simd2 | Family::Simd4 => Note::with(
            ".add: the exact result of every lane in d's mask (signed, and not cut to the lane \
             width) is added to c; d = c + the sum, modulo 2^32. The lanes are not merged.",
            M(
                "vadd2.u32.s32.s32.add d.h1, a.h13, b.h33, c;",
                0xffaa_8001,
                0x12,
                0x8000_0001,
            ),
        ),
        _ => match s {
            SecOp::Add => Note::with(
                ".add: the primary result (after .sat) is added to c, and the low 32 bits kept.",
                M(
                    "vadd.u32.u32.u32.add d, a.h0, b.b2, c;",
                    0x8189_3223,
                    0x12,
                    0x1000_1000,
                ),
            ),
            SecOp::Min | SecOp::Max => {
                let which = if s == SecOp::Min { "smaller" } else { "larger" };
                if op == Opcode::Vset {
                    Note::with(
                        format!(
                            ".{}: the 0 or 1 of the comparison is compared with c and the \
                             {which} kept; the comparison is signed when atype is .s32 (vset \
                             has no destination type).",
                            Mod::SecOp(s).name()
                        ),
                        M(
                            "vset.s32.u32.eq.min d, a.h1, b.h1, c;",
                            0x8000_0001,
                            0xfa4f_168d,
                            0xfffe_01ff,
                        ),
                    )
                } else {
                    Note::with(
                        format!(
                            ".{}: the primary result is compared with c and the {which} kept, \
                             as 64-bit numbers signed or unsigned by the destination type. vadd \
                             and vsub (and saturated shifts) compare only their low 32 bits, \
                             sign-extended, so with an unsigned destination a negative or \
                             wrapped result counts as larger than any c.",
                            Mod::SecOp(s).name()
                        ),
                        M(
                            "vadd.s32.u32.u32.min d, a, b.b0, c;",
                            0xffff_fffe,
                            0xffff_ffff,
                            0x0180_8000,
                        ),
                    )
                }
            }
        },
    }
}

fn clamp_mode(op: Opcode, mode: ClampMode) -> Note {
    let clamp = mode == ClampMode::Clamp;
    match op {
        Opcode::Szext => Note::with(
            if clamp {
                ".clamp: a bit count b above 32 counts as 32."
            } else {
                ".wrap: only the low 5 bits of the bit count b are used (modulo 32)."
            },
            if clamp {
                M("szext.clamp.u32 d, a, b;", 0xe94e_0bab, 0x5a27_4091, 0)
            } else {
                M("szext.wrap.s32 d, a, b;", 0xfe7f_7f01, 0x1fdb_3351, 0)
            },
        ),
        Opcode::Bmsk => Note::with(
            if clamp {
                ".clamp: a start position a or a width b above 32 counts as 32."
            } else {
                ".wrap: only the low 5 bits of the start position a and of the width b are used."
            },
            if clamp {
                M("bmsk.clamp.b32 d, a, b;", 0xb4b8_4226, 0xea38_9837, 0)
            } else {
                M("bmsk.wrap.b32 d, a, b;", 0x8000_8041, 0x89b4_2ca2, 0)
            },
        ),
        _ => Note::with(
            if clamp {
                ".clamp: a shift amount above 32 counts as 32."
            } else {
                ".wrap: only the low 5 bits of the shift amount are used (modulo 32)."
            },
            if clamp {
                C(
                    &format!("{}.u32.u32.u32.clamp d, a, b;", op.name()),
                    0x8000_0001,
                    33,
                    0,
                )
            } else if op == Opcode::Vshr {
                C("vshr.u32.u32.u32.wrap d, a, b;", 0x8000_0001, 33, 0)
            } else {
                M(
                    "vshl.u32.u32.u32.wrap d, a, b.b1;",
                    0x1548_fffe,
                    0x2800_8800,
                    0,
                )
            },
        ),
    }
}

fn half(op: Opcode, h: HalfMode) -> Note {
    match (op, h) {
        (_, HalfMode::Wide) => Note::with(
            ".wide: the whole product, in a destination twice as wide as the sources.",
            M("mul.wide.u32 d, a, b;", 0x0000_000a, 0xfefe_0101, 0),
        ),
        (Opcode::Mul24 | Opcode::Mad24, HalfMode::Hi) => Note::with(
            ".hi: bits 16-47 of the 48-bit product of the low 24 bits of a and b (read signed for \
             .s32), not its upper \
             half.",
            M("mul24.hi.u32 d, a, b;", 0x2400_4040, 0xff7f_8081, 0),
        ),
        (Opcode::Mul24 | Opcode::Mad24, HalfMode::Lo) => Note::with(
            ".lo: bits 0-31 of the 48-bit product of the low 24 bits of a and b (read signed for .s32).",
            M("mul24.lo.u32 d, a, b;", 0xffff_ffe8, 0x0401_0001, 0),
        ),
        (Opcode::Dp2a, HalfMode::Hi) => Note::with(
            ".hi: the two half-words of a are multiplied by bytes 2 and 3 of b (there is no \
             product half to choose).",
            M(
                "dp2a.hi.u32.u32 d, a, b, c;",
                0xd800_0020,
                0xa584_1fe2,
                0xffff_fffa,
            ),
        ),
        (Opcode::Dp2a, HalfMode::Lo) => Note::with(
            ".lo: the two half-words of a are multiplied by bytes 0 and 1 of b (there is no \
             product half to choose).",
            M(
                "dp2a.lo.u32.u32 d, a, b, c;",
                0x0000_0010,
                0x0080_0024,
                0x5f76_38b8,
            ),
        ),
        (Opcode::Mad, HalfMode::Hi) => Note::with(
            ".hi: the upper half of the double-width product, plus c.",
            M(
                "mad.hi.u32 d, a, b, c;",
                0x7f8b_7f7f,
                0x8461_d7bd,
                0xffff_fffa,
            ),
        ),
        (Opcode::Mad, HalfMode::Lo) => Note::with(
            ".lo: the lower half of the double-width product, plus c.",
            M(
                "mad.lo.u32 d, a, b, c;",
                0x0307_9d1f,
                0x8000_0001,
                0xffff_ffe6,
            ),
        ),
        (_, HalfMode::Hi) => Note::with(
            ".hi: the upper half of the double-width product.",
            M("mul.hi.u32 d, a, b;", 0x8180_0000, 0x2001_1003, 0),
        ),
        (_, HalfMode::Lo) => Note::with(
            ".lo: the lower half of the double-width product.",
            M("mul.lo.u32 d, a, b;", 0x8101_8077, 0x17, 0),
        ),
    }
}

/// Which selector note an instruction's form takes: chosen by its row and its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelectorNote {
    /// `vadd ... vset`: part selectors on a and b, a merging part selector on d.
    Scalar,
    /// `vmad`: part selectors on a and b only.
    Vmad,
    /// Two half-word lanes without `.add`: pool picks and a merging mask.
    Simd2Merge,
    /// Two half-word lanes with `.add`: pool picks and a mask of summed lanes.
    Simd2Add,
    /// Four byte lanes without `.add`.
    Simd4Merge,
    /// Four byte lanes with `.add`.
    Simd4Add,
}

impl SelectorNote {
    /// Every kind, for the tests.
    pub const ALL: [SelectorNote; 6] = [
        SelectorNote::Scalar,
        SelectorNote::Vmad,
        SelectorNote::Simd2Merge,
        SelectorNote::Simd2Add,
        SelectorNote::Simd4Merge,
        SelectorNote::Simd4Add,
    ];

    /// The kind for this instruction's form; `None` for the integer instructions.
    pub fn of(insn: &Instruction) -> Option<SelectorNote> {
        let add = insn.form.secop == Some(SecOp::Add);
        Some(match insn.instr.family() {
            Family::ScalarVideo => SelectorNote::Scalar,
            Family::Vmad => SelectorNote::Vmad,
            Family::Simd2 if add => SelectorNote::Simd2Add,
            Family::Simd2 => SelectorNote::Simd2Merge,
            Family::Simd4 if add => SelectorNote::Simd4Add,
            Family::Simd4 => SelectorNote::Simd4Merge,
            Family::Integer
            | Family::Logic
            | Family::Move
            | Family::Convert
            | Family::Compare
            | Family::Carry => return None,
        })
    }

    /// The note.
    pub fn note(self) -> Note {
        const PART: &str = "A selector .b0-.b3 or .h0-.h1 on a or b reads one byte or half-word \
                            of the register and extends it (with sign copies for a signed type, \
                            with zeros otherwise).";
        const POOL2: &str = "Selectors such as .h10 on a or b pick, for each half-word lane, one \
                             of the four half-words of the pool b:a (0-1 from a, 2-3 from b).";
        const POOL4: &str = "Selectors such as .b3210 on a or b pick, for each byte lane, one of \
                             the eight bytes of the pool b:a (0-3 from a, 4-7 from b).";
        const MERGE: &str = "A selector on d is a mask: each listed lane receives the low bits \
                             of its own result (or its clamped value with .sat) at its own \
                             position; the other lanes are c's.";
        const SUM: &str = "With .add the selector on d does not merge: it lists the lanes whose \
                           exact results are added to c, and d is that sum (every lane when \
                           there is no selector).";
        match self {
            SelectorNote::Scalar => Note::with(
                format!(
                    "{PART} A selector on d merges into c: d.b0-.b3 and d.h0 receive the low 8 \
                     or 16 bits of the result, while d.h1 receives bits 16-31 of the result in \
                     place (not its low half moved up); the rest of d is c's. (ptxas also \
                     accepts d.b01, d.b12 and d.b23 and ignores them: d is then the whole \
                     result.)"
                ),
                M(
                    "vset.u32.u32.eq d.h1, a.b3, b.b1, c;",
                    3,
                    0x9030_0020,
                    0xfffe_fffe,
                ),
            ),
            SelectorNote::Vmad => Note::with(
                format!(
                    "{PART} vmad has no selector on d: the whole 32-bit result is written \
                     (ptxas accepts d.b01, d.b12 and d.b23 and ignores them)."
                ),
                M(
                    "vmad.u32.u32.u32 d, a.h1, b.b3, c;",
                    0x7747_dd75,
                    0xffff_ffe4,
                    0x0108_0030,
                ),
            ),
            SelectorNote::Simd2Merge => Note::with(
                format!("{POOL2} {MERGE}"),
                M(
                    "vadd2.u32.u32.u32 d.h0, a.h20, b.h31, c;",
                    0xffff_ffea,
                    0x0001_05ac,
                    0xfffe_0001,
                ),
            ),
            SelectorNote::Simd4Merge => Note::with(
                format!("{POOL4} {MERGE}"),
                M(
                    "vadd4.u32.u32.u32 d.b0, a, b.b0056, c;",
                    0xb3cd_9dfd,
                    0x8181_81ff,
                    0x8000_8080,
                ),
            ),
            SelectorNote::Simd2Add => Note::with(
                format!("{POOL2} {SUM}"),
                M(
                    "vadd2.s32.s32.s32.add d.h0, a.h30, b.h20, c;",
                    0xc82a_07ea,
                    0x010b_b9ea,
                    0x8000_0000,
                ),
            ),
            SelectorNote::Simd4Add => Note::with(
                format!("{POOL4} {SUM}"),
                M(
                    "vadd4.u32.u32.u32.add d.b0, a.b2413, b.b0317, c;",
                    0x0000_0011,
                    0xcaa8_aa8b,
                    0x2370_7c8f,
                ),
            ),
        }
    }
}

/// The selector note for this instruction's form, if it has selectors at all.
pub fn selectors(insn: &Instruction) -> Option<Note> {
    SelectorNote::of(insn).map(SelectorNote::note)
}

/// Every note for one instruction, in the order the Learn panel shows them: its
/// [`modifier_notes`], then its [`selector_note`] when it has one.
pub fn for_insn(insn: &Instruction) -> Vec<Note> {
    let mut out = modifier_notes(insn);
    out.extend(selector_note(insn));
    out.extend(negation_note(insn));
    out
}

/// The note on `-a, -b` written on an instruction that does not negate (every one but
/// `vmad`): the two cancel. None otherwise.
pub fn negation_note(insn: &Instruction) -> Option<Note> {
    let s = &insn.srcs;
    let both = !insn.instr.syntax().negation && s.len() >= 2 && s[0].neg && s[1].neg;
    both.then(|| {
        Note::plain(
            "-a and -b cancel: ptxas takes the two negations together and computes what it computes without them, so a and b are read as they are.",
        )
    })
}

/// The notes on what an instruction's types and modifiers do: a table instruction's modifiers
/// in canonical order (a type's note names its slot when the form has two or three types), a
/// program instruction's notes.
pub fn modifier_notes(insn: &Instruction) -> Vec<Note> {
    let opcode = match insn.instr {
        crate::isa::Instr::Table(o) => o,
        crate::isa::Instr::Program(op) => return program(OpInsn { op, insn }),
    };
    let roles: &[&str] = match insn.form.type_count() {
        3 => &["d", "a", "b"],
        2 => &["a", "b"],
        _ => &[],
    };
    let mut k = 0;
    insn.canonical_mods()
        .into_iter()
        .map(|m| {
            let mut n = modifier(opcode, m);
            if matches!(m, Mod::Type(_)) {
                if let Some(r) = roles.get(k) {
                    n.text = format!("{r} {}", n.text);
                }
                k += 1;
            }
            n
        })
        .collect()
}

/// The note on the selectors an instruction writes (`a.b0`, `.h10`), if it writes any; no
/// program instruction takes a selector.
pub fn selector_note(i: &Instruction) -> Option<Note> {
    let has_sel = i.dst().sel.is_some() || i.srcs.iter().any(|o| o.sel.is_some());
    if has_sel {
        selectors(i)
    } else {
        None
    }
}

/// Program instruction forms whose notes [`every_note`] walks: one per sentence that carries an
/// example.
const PROGRAM_FORMS: &[&str] = &[
    "prmt.b32 d, a, b, c;",
    "prmt.b32.f4e d, a, b, c;",
    "prmt.b32.b4e d, a, b, c;",
    "prmt.b32.rc8 d, a, b, c;",
    "prmt.b32.ecl d, a, b, c;",
    "prmt.b32.ecr d, a, b, c;",
    "prmt.b32.rc16 d, a, b, c;",
    "shf.l.clamp.b32 d, a, b, c;",
    "shf.r.wrap.b32 d, a, b, c;",
    "shl.b16 d, a, b;",
    "shr.s32 d, a, b;",
    "lop3.b32 d, a, b, c, 0x96;",
    "cvt.sat.s8.s32 d, a;",
    "setp.lt.s32 p|q, a, b;",
    "mov.b32 d, {a, b};",
];

/// The notes of a program instruction (`prmt`, `shf`, `shl`, ...): [`OpInsn::notes`]' sentences,
/// in order, each that claims a value with an example of the same form, computed by the core.
pub fn program(op: OpInsn) -> Vec<Note> {
    op.notes()
        .into_iter()
        .map(|mut text| {
            let example = program_example(op, &text);
            if !text.ends_with('.') {
                text.push('.');
            }
            Note { text, example }
        })
        .collect()
}

/// The example for one sentence of [`OpInsn::notes`], found by what the sentence is about.
fn program_example(op: OpInsn, text: &str) -> Option<Example> {
    let mode_note = |name: &str| text.starts_with(&format!(".{name}:"));
    Some(match op.op {
        POp::Prmt => match op.form.prmt {
            Some(m) if mode_note(m.name()) => C(
                &format!("prmt.b32.{} d, a, b, c;", m.name()),
                0x4433_2211,
                0x8877_6655,
                1,
            ),
            None if text.starts_with("Each of c's") => {
                C("prmt.b32 d, a, b, c;", 0x4433_2211, 0x8877_6655, 0xf740)
            }
            _ => return None,
        },
        POp::Shf if text.starts_with(".l:") || text.starts_with(".r:") => C(
            &format!(
                "shf.{}.wrap.b32 d, a, b, c;",
                if op.left() { "l" } else { "r" }
            ),
            0x89ab_cdef,
            0x0123_4567,
            8,
        ),
        POp::Shf if mode_note("clamp") || mode_note("wrap") => C(
            &format!(
                "shf.{}.{}.b32 d, a, b, c;",
                if op.left() { "l" } else { "r" },
                if mode_note("clamp") { "clamp" } else { "wrap" }
            ),
            0x89ab_cdef,
            0x0123_4567,
            40,
        ),
        POp::Shl | POp::Shr if text.contains("the amount b") => C(
            &format!("{}.{} d, a, b;", op.op.name(), op.ty().name()),
            0x1234,
            0x0001_0001,
            0,
        ),
        POp::Lop3 if text.starts_with("immLut") => C(
            "lop3.b32 d, a, b, c, 0xc0;",
            0xff00_ff00,
            0xf0f0_f0f0,
            0x1234_5678,
        ),
        POp::Cvt if mode_note("sat") => C(
            &format!("cvt.sat.{}.s32 d, a;", op.ty().name()),
            0xffff_1234,
            0,
            0,
        ),
        _ => return None,
    })
}

/// Every note that [`modifier`] and [`SelectorNote`] give for a modifier an opcode takes, each
/// with where it comes from (`"vadd .sat"`, `"selectors Scalar"`): what the tests walk.
pub fn every_note() -> Vec<(String, Note)> {
    let mut out = Vec::new();
    for &opcode in crate::isa::Opcode::ALL {
        let info = opcode.info();
        let takes = |m: Mod| match m {
            Mod::Type(t) => info.syntax.slots.iter().any(|s| s.types.contains(&t)),
            _ => info.syntax.takes(m),
        };
        for m in Mod::ALL.into_iter().filter(|&m| takes(m)) {
            out.push((format!("{} .{}", info.name, m.name()), modifier(opcode, m)));
        }
    }
    for k in SelectorNote::ALL {
        out.push((format!("selectors of form {}", k as u8), k.note()));
    }
    for text in PROGRAM_FORMS {
        if let Some(op) = crate::insn::check(text)
            .ok()
            .as_ref()
            .and_then(|i| i.as_op())
        {
            for n in program(op) {
                out.push((text.to_string(), n));
            }
        }
    }
    for text in ["add.u32 d, -a, -b;", "and.b32 d, -a, -b;"] {
        if let Some(n) = crate::insn::check(text)
            .ok()
            .and_then(|i| negation_note(&i))
        {
            out.push((text.to_string(), n));
        }
    }
    out
}
