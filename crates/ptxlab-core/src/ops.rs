//! The instructions programs use around the video and integer arithmetic ones: `mov` (with
//! vector packing), `and or xor not cnot`, `lop3`, `shf`, `shl shr`, `prmt`, `setp`, `set`, `selp`,
//! `slct`, integer `cvt`, `cvt.pack` and the carry chain (`add.cc`, `addc` ...).
//!
//! Their rows are [`crate::isa::OP_ROWS`] (name, family, types, modifiers, example, summary).
//! A statement of one is read into the one [`Instruction`] record by [`parse_op`] (the reader
//! is `validate::program`'s), its readers are [`OpInsn`]'s (`ast::program`), and this module
//! evaluates it: [`OpInsn::eval`] computes every destination and a stage [`Trace`]. The values
//! equal an H100's on every measured case (`tests/gpu_programs.rs`).

use serde::{Deserialize, Serialize};

pub use crate::ast::program::{width_fits, width_name, OpInsn, CARRY_FLAG};
pub use crate::ast::{Instruction, Operand, OperandKind};
use crate::bits::sext;
use crate::differences::Reading;
pub use crate::isa::Row;
use crate::isa::{ClampMode, Cmp, PrmtMode, Type};
pub use crate::isa::{POp, OP_ROWS};
use crate::trace::{
    Detail, Flag, FlagSet, Flow, Recorder, Saturation, Stage, StageKind, Trace, Tracer, Val, Views,
};
pub use crate::validate::program::{parse_op, program_names, statement_op};
use crate::value::mask as mask64;

pub use crate::value::FloatLit;

// ------------------------------------------------------------------------------------------
// Evaluation

/// The operation of a carry-chain instruction: `add.cc`/`addc`, `sub.cc`/`subc` or
/// `mad.cc`/`madc` (the carry in is the row's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chain {
    Add,
    Sub,
    Mad,
}

/// What one evaluation wrote: a value per destination (None for `_`), and the trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The value of each destination in order (None for `_`).
    pub values: Vec<Option<u64>>,
    /// The stages of the evaluation.
    pub trace: Trace,
}

impl OpInsn<'_> {
    /// What its type and each modifier written do, in our own words (the Learn panel and
    /// `ptxlab`'s help read these).
    pub fn notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        let t = self.ty();
        let kind = |t: Type| {
            if t == Type::Pred {
                "predicates (true or false)".to_string()
            } else if t.is_signed() {
                format!("{}-bit signed integers", t.bits())
            } else if t.is_unsigned() {
                format!("{}-bit unsigned integers", t.bits())
            } else if t.is_float() {
                format!("{}-bit floating-point numbers", t.bits())
            } else {
                format!("{} bits, no sign", t.bits())
            }
        };
        if self.op == POp::CvtPack {
            let (lo, hi) = t.range();
            let n = t.bits();
            out.push(format!(
                ".{}: a and b (32-bit signed integers) are each clamped to {lo}..{hi} and kept as {n} bits: b in bits {}..0, a in bits {}..{}",
                t.name(),
                n - 1,
                2 * n - 1,
                n
            ));
            out.push(if n < 16 {
                format!(
                    ".b32: c fills the rest of d: bits 31..{} are c's low {} bits",
                    2 * n,
                    32 - 2 * n
                )
            } else {
                "the pair fills all 32 bits of d; there is no c".to_string()
            });
            out.push(".sat: required; values past the range become its minimum or maximum".into());
        } else if let (POp::Set, Some(st)) = (self.op, self.src_ty()) {
            out.push(match t {
                Type::F32 => ".f32: d is 1.0 (0x3f800000) when the answer is true and 0.0 when it is false".to_string(),
                Type::S32 => ".s32: d is -1 (all ones) when the answer is true and 0 when it is false".to_string(),
                _ => ".u32: d is 0xffffffff (all ones) when the answer is true and 0 when it is false".to_string(),
            });
            out.push(format!(".{}: a and b are {}", st.name(), kind(st)));
        } else if let (POp::Slct, Some(ct)) = (self.op, self.src_ty()) {
            out.push(format!(".{}: a, b and d are {}", t.name(), kind(t)));
            out.push(if ct == Type::F32 {
                ".f32: c is read as an f32: -0 counts as >= 0 and takes a; NaN is not >= 0 and takes b".to_string()
            } else {
                ".s32: c is read as a signed 32-bit integer: 0 and up take a, negative values take b".to_string()
            });
            if self.form.ftz {
                out.push(
                    ".ftz: a subnormal c is read as zero, as .ftz reads f32 operands, so it takes a whatever its sign (measured on an H100 and an H200: a negative subnormal c takes a with .ftz and b without)".into(),
                );
            }
        } else if self.op.is_carry() {
            let sign = if matches!(self.op, POp::MadCc | POp::Madc) {
                "the sum is exact, one bit wider, so the sign changes only the high half of the product"
            } else {
                "the sum is exact, one bit wider, so .u and .s give the same d and carry"
            };
            out.push(format!(
                ".{}: the operands are {}; {sign}",
                t.name(),
                kind(t)
            ));
            if matches!(self.op, POp::MadCc | POp::Madc) {
                out.push(if self.hi() {
                    if t.bits() == 16 {
                        ".hi (16 bits): the product of a and b widened to 32 bits, bits 32..47 of it, which are all 0 for .u16 and copies of the sign for .s16".to_string()
                    } else {
                        format!(".hi: the upper {} bits of the {}-bit product a * b are added", t.bits(), 2 * t.bits())
                    }
                } else {
                    format!(".lo: the lower {} bits of the product a * b are added", t.bits())
                });
            }
            if self.op.carry_in() {
                out.push(if matches!(self.op, POp::Subc) {
                    "subc reads the carry flag CC.CF as 'no borrow': d = a + ~b + CC.CF, so a - b when CC.CF is 1 and a - b - 1 when it is 0".into()
                } else {
                    "the carry flag CC.CF, written by an earlier .cc, is added as a third term".into()
                });
            }
            if self.form.cc {
                out.push(if matches!(self.op, POp::SubCc | POp::Subc) {
                    ".cc: bit n of a + ~b + carry in goes to CC.CF: 1 when nothing was borrowed"
                        .into()
                } else {
                    ".cc: the carry out of the top bit (bit n of the exact sum) goes to CC.CF"
                        .into()
                });
            }
        } else if let Some(src) = self.src_ty() {
            out.push(format!(
                ".{}.{}: a is read as {}, d is written as {}",
                t.name(),
                src.name(),
                kind(src),
                kind(t)
            ));
        } else {
            // Which operands the type describes: a shift amount is always a 32-bit unsigned
            // number, and a selection or combination predicate is a predicate.
            let which = match self.op {
                POp::Shl | POp::Shr => "a and d are {k}; the amount b is a 32-bit unsigned number",
                POp::Shf => "a, b and d are {k}; the amount c is a 32-bit unsigned number",
                POp::Selp => "a, b and d are {k}; c is a predicate",
                POp::Setp => "a and b are {k}",
                _ => "the operands are {k}",
            };
            out.push(format!(".{}: {}", t.name(), which.replace("{k}", &kind(t))));
        }
        if self.op == POp::Shf {
            out.push(if self.left() {
                ".l: b:a moves left by the amount; d is the upper 32 bits of the result".into()
            } else {
                ".r: b:a moves right by the amount; d is the lower 32 bits of the result".into()
            });
            out.push(match self.form.mode {
                Some(ClampMode::Clamp) => ".clamp: amounts above 32 count as 32".into(),
                _ => ".wrap: only the amount's low 5 bits count (modulo 32)".into(),
            });
        }
        if let Some(c) = self.form.cmp {
            let t = self.cmp_ty();
            let how = match c {
                _ if c.reads_unsigned() => "as unsigned, whatever the type".to_string(),
                _ if t.is_float() => format!(".{} values", t.name()),
                _ => format!("as .{} ({})", t.name(), kind(t)),
            };
            let who = if self.op == POp::Set {
                "the answer"
            } else {
                "p"
            };
            let sym = c.symbol();
            // What the word says, NaN included for floats (Cmp::holds and Cmp::on_nan).
            let what = match c {
                Cmp::Num => format!("{who} is true when neither a nor b is NaN"),
                Cmp::Nan => format!("{who} is true when a or b is NaN"),
                _ if c.on_nan() => {
                    format!("{who} is a {sym} b, or true when a or b is NaN (unordered)")
                }
                _ if t.is_float() => format!("{who} is a {sym} b, false when a or b is NaN"),
                _ => format!("{who} is a {sym} b"),
            };
            out.push(format!(".{}: {what}, read {how}", c.name()));
        }
        if let Some(b) = self.form.bool_op {
            out.push(if self.op == POp::Set {
                format!(".{0}: the answer is (the comparison) {0} c", b.name())
            } else {
                format!(
                    ".{0}: p is (the comparison) {0} c, q is (its negation) {0} c",
                    b.name()
                )
            });
        }
        if self.form.ftz && self.op.compares() {
            out.push(".ftz: a subnormal a or b is read as zero of its sign".into());
        }
        if self.form.sat && self.op == POp::Cvt {
            out.push(format!(
                ".sat: values outside .{}'s range become its minimum or maximum instead of losing their upper bits",
                t.name()
            ));
        }
        match (self.op, self.form.prmt) {
            (POp::Prmt, None) => out.push(
                "Each of c's four low nibbles fills one byte of d: its value 0-7 names a byte of b:a (a is bytes 0-3, b bytes 4-7); with 8 added, the byte's sign bit is copied over all 8 bits instead".into(),
            ),
            (POp::Prmt, Some(m)) => out.push(format!(
                ".{}: {}; only c & 3 counts",
                m.name(),
                match m {
                    PrmtMode::F4e => "four consecutive bytes of b:a from byte c & 3 upward",
                    PrmtMode::B4e => "four consecutive bytes of b:a from byte c & 3 downward, wrapping",
                    PrmtMode::Rc8 => "byte c & 3 of a, copied into all four bytes",
                    PrmtMode::Ecl => "byte i of d is byte max(i, c & 3) of a: the bytes from c & 3 up stay in place and byte c & 3 is repeated into the bytes below it (edge clamp left)",
                    PrmtMode::Ecr => "byte i of d is byte min(i, c & 3) of a: the bytes up to c & 3 stay in place and byte c & 3 is repeated into the bytes above it (edge clamp right)",
                    PrmtMode::Rc16 => "half-word c & 1 of a, copied into both halves",
                }
            )),
            _ => {}
        }
        if self.op == POp::Lop3 {
            out.push(
                "immLut is a truth table: bit a·4 + b·2 + c of it is d's bit for those input bits. a alone is 0xf0, b alone 0xcc, c alone 0xaa, so the table for any expression is the same expression of those three (a & b is 0xf0 & 0xcc = 0xc0)".into(),
            );
        }
        if self.pack {
            out.push(format!(
                "{{...}} on the right packs {} parts into d, the first in the lowest bits",
                self.srcs.len()
            ));
        }
        if self.unpack {
            out.push(format!(
                "{{...}} on the left splits a into {} parts, the first from the lowest bits",
                self.dsts.len()
            ));
        }
        out
    }
    /// The source values as the evaluation reads them into `v` (one place per source): each
    /// cut to [`OpInsn::src_bits`], a missing one 0.
    fn read_into(&self, src: &[u64], v: &mut [u64]) {
        for (i, x) in v.iter_mut().enumerate() {
            *x = src.get(i).copied().unwrap_or(0) & mask64(self.src_bits(i));
        }
    }

    /// Evaluate with the source values as read (each already cut to [`OpInsn::src_bits`];
    /// `!p` not yet applied): every destination's value and the stages.
    pub fn eval(&self, src: &[u64]) -> Outcome {
        // No stage of a program instruction marks a difference between readings.
        let mut rec = Recorder::new(false);
        let mut v = vec![0; self.srcs.len()];
        self.read_into(src, &mut v);
        let sources: Vec<Val> = v
            .iter()
            .enumerate()
            .map(|(i, &x)| Val::reg(self.src_name(i), self.src_bits(i), x))
            .collect();
        let mut st = Vec::new();
        for s in &sources {
            st.push(Stage::new(
                StageKind::Read,
                format!("{} as read", s.name),
                s.clone(),
            ));
        }
        let mut values = vec![None; self.dsts.len()];
        if self.runnable() {
            self.run(&mut v, &mut rec, &mut values);
        }
        st.append(&mut rec.stages);
        // The result stages and the trace's result (the first destination written).
        let mut result = None;
        for (i, (d, val)) in self.dsts.iter().zip(&values).enumerate() {
            let bits = self.dst_bits(i);
            let label = match d.reg_name() {
                Some(r) => format!("written to {r}"),
                None => "dropped (_)".to_string(),
            };
            let name = self.dst_name(i);
            let out = Val::reg(name, bits, val.unwrap_or(0));
            if result.is_none() && val.is_some() {
                result = Some(out.clone());
            }
            st.push(Stage::new(StageKind::Result, label, out));
        }
        let result = result.unwrap_or_else(|| Val::reg("d", self.dst_bits(0), 0));
        let views = Views::of(result.raw() as u64, result.bits);
        Outcome {
            values,
            trace: Trace {
                instruction: self.canonical(),
                opcode: self.op.name().to_string(),
                family: self.op.family(),
                sources,
                stages: st,
                result,
                views,
                doc_url: self.op.doc_url(),
                reading: crate::differences::Reading::Hardware,
                measured: self.op.row().measured,
            },
        }
    }

    /// [`OpInsn::eval`] without the stages, for many cases (a sweep, a batch): every
    /// destination's value and the notable events the stages would carry (a mask of
    /// [`Flag::bit`]). The same evaluation runs; it only builds no stage.
    pub fn eval_quiet(&self, src: &[u64]) -> (Vec<Option<u64>>, u16) {
        let mut values = vec![None; self.dsts.len()];
        let flags = self.eval_quiet_into(src, &mut values);
        (values, flags)
    }

    /// [`OpInsn::eval_quiet`] with the values written to `out` (place `i` for destination `i`;
    /// at least as many places as destinations), returning the notable events. No allocation
    /// for four sources or fewer, as every form the assembler accepts has.
    pub fn eval_quiet_into(&self, src: &[u64], out: &mut [Option<u64>]) -> u16 {
        let n = self.srcs.len();
        let mut small = [0u64; 4];
        let mut large = Vec::new();
        let v: &mut [u64] = if n <= small.len() {
            &mut small[..n]
        } else {
            large.resize(n, 0);
            &mut large
        };
        self.read_into(src, v);
        let mut q = FlagSet::default();
        if self.runnable() {
            self.run(v, &mut q, out);
        }
        q.bits as u16
    }

    /// The source values as the evaluation reads them: a register at position `k` reads
    /// `given[k]` (`a`, `b`, `c`, `e`; 0 past the fourth), an immediate or a float literal its
    /// own value, `_` 0.
    pub fn sources(&self, given: &[u64; 4]) -> Vec<u64> {
        let mut v = vec![0; self.srcs.len()];
        self.sources_with(|k, _| given.get(k).copied().unwrap_or(0), &mut v);
        v
    }

    /// The source values into `dst` (one place per source; extra places are left alone): a
    /// register at position `k` named `name` reads `reg(k, name)`, an immediate or a float
    /// literal its own value, `_` 0.
    pub fn sources_with(&self, reg: impl Fn(usize, &str) -> u64, dst: &mut [u64]) {
        for (k, (s, d)) in self.srcs.iter().zip(dst.iter_mut()).enumerate() {
            *d = match (&s.kind, self.fixed_source(k)) {
                (OperandKind::Reg(name), _) => reg(k, name),
                (_, v) => v.unwrap_or(0),
            };
        }
    }

    /// Every destination and the stages for the sources `given` by position
    /// ([`Self::sources`]), under one reading. A program row has one (the ISA text and the
    /// measured GPU agree), so the reading only marks the trace: the text's names no GPU.
    pub fn outcome(&self, given: &[u64; 4], reading: Reading) -> Outcome {
        let mut out = self.eval(&self.sources(given));
        out.trace.instruction = self.insn.canonical();
        out.trace.reading = reading;
        if reading == Reading::Text {
            out.trace.measured = None;
        }
        out
    }

    /// The first destination's value (a sink reads 0) for the sources `given` by position
    /// (`a`, `b`, `c`, `e`; an immediate its own value), with any tracer: what [`crate::eval::run`] gives
    /// for a program row. No allocation for four sources and eight destinations or fewer.
    pub fn first<T: Tracer>(&self, given: &[u64; 4], t: &mut T) -> u64 {
        let n = self.srcs.len();
        let mut small = [0u64; 4];
        let mut large = Vec::new();
        let v: &mut [u64] = if n <= small.len() {
            &mut small[..n]
        } else {
            large.resize(n, 0);
            &mut large
        };
        for (k, x) in v.iter_mut().enumerate() {
            let read = match self.fixed_source(k) {
                Some(fixed) => fixed,
                None => given.get(k).copied().unwrap_or(0),
            };
            *x = read & mask64(self.src_bits(k));
        }
        let mut few = [None; 8];
        let mut many = Vec::new();
        let out: &mut [Option<u64>] = if self.dsts.len() <= few.len() {
            &mut few[..self.dsts.len()]
        } else {
            many.resize(self.dsts.len(), None);
            &mut many
        };
        if self.runnable() {
            self.run(v, t, out);
        }
        out.first().copied().flatten().unwrap_or(0)
    }

    /// The evaluation proper, on the values as read: `!p` applied, the operation, a value per
    /// destination into `out` (None for `_`). Every stage goes to `st`. The record must be
    /// [`OpInsn::runnable`] (its callers check).
    pub(crate) fn run<S: Tracer>(&self, v: &mut [u64], st: &mut S, out: &mut [Option<u64>]) {
        // `!p` sources.
        for (i, s) in self.srcs.iter().enumerate() {
            if let (true, Some(name)) = (s.not, s.reg_name()) {
                let read = v[i];
                v[i] ^= 1;
                let negated = v[i];
                st.stage([(true, Flag::Negated)], || {
                    Stage::new(
                        StageKind::Adjust,
                        format!("!{name}: the predicate negated"),
                        Val::reg(format!("!{}", self.src_name(i)), 1, negated),
                    )
                    .flow(Flow::Bitwise)
                    .op(format!("!{}", self.src_name(i)))
                    .input(Val::reg(self.src_name(i), self.src_bits(i), read))
                });
            }
        }
        let w = self.ty().bits();
        let v = &*v;
        let one = match self.op {
            POp::And => self.bitwise("&", v[0] & v[1], v, st),
            POp::Or => self.bitwise("|", v[0] | v[1], v, st),
            POp::Xor => self.bitwise("^", v[0] ^ v[1], v, st),
            POp::Not => {
                let r = !v[0] & mask64(w);
                st.stage([], || {
                    Stage::new(
                        StageKind::Operate,
                        "every bit of a flipped",
                        Val::reg("d", w, r),
                    )
                    .flow(Flow::Bitwise)
                    .op("~a")
                    .input(Val::reg("a", w, v[0]))
                });
                r
            }
            POp::Cnot => {
                let r = (v[0] == 0) as u64;
                st.stage([], || {
                    Stage::new(
                        StageKind::Compare,
                        "1 when a is zero, else 0",
                        Val::reg("d", w, r),
                    )
                    .op("a == 0 ? 1 : 0")
                    .input(Val::reg("a", w, v[0]))
                });
                r
            }
            POp::Lop3 => self.lop3(v, st),
            POp::Shf => self.shf(v, st),
            POp::Shl | POp::Shr => self.shift(v, st),
            POp::Prmt => self.prmt_eval(v, st),
            POp::Setp => return self.setp(v, st, out),
            POp::Selp => {
                let r = if v[2] != 0 { v[0] } else { v[1] };
                st.stage([], || {
                    Stage::new(
                        StageKind::Operate,
                        format!(
                            "c is {}, so {} is taken",
                            v[2] != 0,
                            if v[2] != 0 { "a" } else { "b" }
                        ),
                        Val::reg("d", w, r),
                    )
                    .op("c ? a : b")
                    .inputs([
                        Val::reg("a", w, v[0]),
                        Val::reg("b", w, v[1]),
                        Val::reg("c", 1, v[2]),
                    ])
                });
                r
            }
            POp::Cvt => self.cvt(v, st),
            POp::Slct => self.slct(v, st),
            POp::Set => self.set(v, st),
            POp::CvtPack => self.cvt_pack(v, st),
            POp::AddCc | POp::Addc => return self.carry(Chain::Add, v, st, out),
            POp::SubCc | POp::Subc => return self.carry(Chain::Sub, v, st, out),
            POp::MadCc | POp::Madc => return self.carry(Chain::Mad, v, st, out),
            POp::Mov => return self.mov_eval(v, st, out),
        };
        if let Some(o) = out.first_mut() {
            *o = Some(one);
        }
    }

    /// `and`, `or`, `xor`: `r` is `a SYM b`, bit by bit.
    fn bitwise<S: Tracer>(&self, sym: &str, r: u64, v: &[u64], st: &mut S) -> u64 {
        let w = self.ty().bits();
        st.stage([], || {
            Stage::new(
                StageKind::Operate,
                format!("a {sym} b, bit by bit"),
                Val::reg("d", w, r),
            )
            .flow(Flow::Bitwise)
            .op(format!("a {sym} b"))
            .inputs([Val::reg("a", w, v[0]), Val::reg("b", w, v[1])])
        });
        r
    }

    fn lop3<S: Tracer>(&self, v: &[u64], st: &mut S) -> u64 {
        let lut = v[3] & 0xff;
        let (a, b, c) = (v[0] as u32, v[1] as u32, v[2] as u32);
        // The bits whose (a, b, c) is row r = a·4 + b·2 + c of the truth table.
        let on = |x: u32, bit: u32| if bit == 1 { x } else { !x };
        let row_bits = |r: u32| on(a, r >> 2 & 1) & on(b, r >> 1 & 1) & on(c, r & 1);
        // Each bit of d is immLut's bit for its row: the rows immLut sets, together.
        let d = (0..8u32)
            .filter(|&r| lut >> r & 1 == 1)
            .fold(0u32, |d, r| d | row_bits(r));
        // The truth-table row of bit i, for the figure.
        let row = |i: u32| (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
        // The truth table, one row per stage: the bits of d whose (a, b, c) is that row, and
        // the value immLut gives them.
        for r in 0..8u32 {
            st.stage([], || {
                let used = u64::from(row_bits(r));
                let (ra, rb, rc) = (r >> 2 & 1, r >> 1 & 1, r & 1);
                let lit = |bit: u32, name: &str| {
                    if bit == 1 {
                        name.to_string()
                    } else {
                        format!("~{name}")
                    }
                };
                Stage::new(
                    StageKind::Extract,
                    format!(
                        "row {r} (a={ra} b={rb} c={rc}) gives {}: the bits of d that take it",
                        (lut >> r) & 1
                    ),
                    Val::reg(format!("row{r}"), 32, used),
                )
                .flow(Flow::Bitwise)
                .op(format!(
                    "{} & {} & {}",
                    lit(ra, "a"),
                    lit(rb, "b"),
                    lit(rc, "c")
                ))
                .inputs([
                    Val::reg("a", 32, a as u64),
                    Val::reg("b", 32, b as u64),
                    Val::reg("c", 32, c as u64),
                ])
                .detail(Detail::Terms {
                    inverted: vec![ra == 0, rb == 0, rc == 0],
                })
            });
        }
        st.stage([], || {
            Stage::new(
                StageKind::Operate,
                format!(
                    "each bit of d is bit a·4 + b·2 + c of immLut 0x{lut:02x}: its row of the truth table"
                ),
                Val::reg("d", 32, d as u64),
            )
            .op("immLut >> (a·4 + b·2 + c) & 1, per bit")
            .inputs([
                Val::reg("a", 32, a as u64),
                Val::reg("b", 32, b as u64),
                Val::reg("c", 32, c as u64),
            ])
            // Bit i of d reads bit i of a, b and c, and the table's entry they pick.
            .flow(Flow::Bitwise)
            .also(["immLut"])
            .detail(Detail::Pool {
                lane_bits: 1,
                entries: (0..8).map(|r| (lut >> r) & 1).collect(),
                picks_a: (0..32).map(|i| row(i) as u8).collect(),
                picks_b: Vec::new(),
            })
        });
        d as u64
    }

    fn shf<S: Tracer>(&self, v: &[u64], st: &mut S) -> u64 {
        let (a, b, c) = (v[0], v[1], v[2] as u32);
        let clamp = self.form.mode == Some(ClampMode::Clamp);
        let n = if clamp { c.min(32) } else { c & 31 };
        let funnel = (b << 32) | a;
        st.stage([], || {
            Stage::new(
                StageKind::Pool,
                "the 64-bit funnel b:a (b in bits 63-32, a in bits 31-0)",
                Val::reg("b:a", 64, funnel),
            )
            .op("b << 32 | a")
            .inputs([Val::reg("a", 32, a), Val::reg("b", 32, b)])
            .flow(Flow::Concat)
        });
        st.stage(
            [
                (clamp && c > 32, Flag::AmountClamped),
                (!clamp && c > 31, Flag::AmountWrapped),
            ],
            || {
                Stage::new(
                    StageKind::Clamp,
                    if clamp {
                        format!("amount c = {c} limited to at most 32: {n}")
                    } else {
                        format!("amount c = {c} taken modulo 32: {n}")
                    },
                    Val::reg("n", 32, n as u64),
                )
                .flow(if clamp { Flow::All } else { Flow::Bitwise })
                .op(if clamp { "min(c, 32)" } else { "c & 31" })
                .input(Val::reg("c", 32, c as u64))
            },
        );
        // shf.l keeps bits 63-n .. 32-n of b:a, shf.r keeps bits n+31 .. n.
        let lo = if self.left() { 32 - n } else { n };
        let d = (funnel >> lo) & 0xffff_ffff;
        st.stage([], || {
            Stage::new(
                StageKind::Field,
                format!(
                    "{} by {n}: the 32 bits {}..{} of b:a",
                    if self.left() {
                        "shifted left"
                    } else {
                        "shifted right"
                    },
                    lo + 31,
                    lo
                ),
                Val::reg("d", 32, d),
            )
            .op(if self.left() {
                "(b:a << n) >> 32"
            } else {
                "(b:a >> n) & 0xffffffff"
            })
            .input(Val::reg("b:a", 64, funnel))
            .flow(Flow::field(lo, 32, false))
            .also(["n"])
            .detail(Detail::Field {
                source: funnel,
                source_bits: 64,
                lo,
                width: 32,
                signed: false,
                out_bits: 32,
            })
        });
        d
    }

    fn shift<S: Tracer>(&self, v: &[u64], st: &mut S) -> u64 {
        let w = self.ty().bits();
        let (a, b) = (v[0], v[1] as u32);
        let n = b.min(w);
        st.stage([(b > w, Flag::AmountClamped)], || {
            Stage::new(
                StageKind::Clamp,
                format!("amount b = {b} limited to the width {w}: {n}"),
                Val::reg("n", 32, n as u64),
            )
            .op(format!("min(b, {w})"))
            .input(Val::reg("b", 32, b as u64))
        });
        let signed = self.ty().is_signed();
        let d = if self.op == POp::Shl {
            if n >= w {
                0
            } else {
                (a << n) & mask64(w)
            }
        } else if signed {
            let s = sext(a, w);
            (s >> n.min(63)) as u64 & mask64(w)
        } else if n >= w {
            0
        } else {
            a >> n
        };
        st.stage(
            [(signed && self.op == POp::Shr, Flag::SignExtended)],
            || {
                let label = match (self.op, signed) {
                    (POp::Shl, _) => format!("a shifted left by {n}, zeros in"),
                    (_, true) => format!("a shifted right by {n}, copies of the sign bit in"),
                    _ => format!("a shifted right by {n}, zeros in"),
                };
                Stage::new(StageKind::Operate, label, Val::reg("d", w, d))
                    .flow(Flow::shifted(
                        if self.op == POp::Shl {
                            -(n as i32)
                        } else {
                            n as i32
                        },
                        signed,
                    ))
                    .also(["n"])
                    .op(if self.op == POp::Shl {
                        "a << n"
                    } else {
                        "a >> n"
                    })
                    .input(Val::new(
                        "a",
                        w,
                        signed,
                        if signed {
                            sext(a, w) as i128
                        } else {
                            a as i128
                        },
                    ))
            },
        );
        d
    }

    fn prmt_eval<S: Tracer>(&self, v: &[u64], st: &mut S) -> u64 {
        let (a, b, c) = (v[0] as u32, v[1] as u32, v[2] as u32);
        let pool64 = ((b as u64) << 32) | a as u64;
        let bytes: [u64; 8] = std::array::from_fn(|i| (pool64 >> (8 * i)) & 0xff);
        // For each byte of d: the pool byte, and whether its sign is replicated.
        let picks: [(u8, bool); 4] = match self.form.prmt {
            None => std::array::from_fn(|i| {
                let nib = (c >> (4 * i)) & 0xf;
                ((nib & 7) as u8, nib & 8 != 0)
            }),
            Some(m) => {
                let p = m.picks(c & 3);
                std::array::from_fn(|i| (p[i], false))
            }
        };
        st.stage([], || {
            Stage::new(
                StageKind::Pool,
                match self.form.prmt {
                    None => "the 8-byte pool b:a (bytes 0-3 from a, 4-7 from b); each nibble of c picks one".to_string(),
                    Some(m) => format!(
                        "the 8-byte pool b:a; mode .{} with c & 3 = {} picks the bytes",
                        m.name(),
                        c & 3
                    ),
                },
                Val::reg("b:a", 64, pool64),
            )
            .op("b << 32 | a")
            .inputs([Val::reg("a", 32, a as u64), Val::reg("b", 32, b as u64), Val::reg("c", 32, c as u64)])
            .flow(Flow::Concat)
            .detail(Detail::Pool {
                lane_bits: 8,
                entries: bytes.to_vec(),
                picks_a: picks.iter().map(|p| p.0).collect(),
                picks_b: Vec::new(),
            })
        });
        let mut d = 0u32;
        for (i, &(k, rep)) in picks.iter().enumerate() {
            let byte = bytes[k as usize] as u32;
            let out = if rep {
                if byte & 0x80 != 0 {
                    0xff
                } else {
                    0
                }
            } else {
                byte
            };
            d |= out << (8 * i);
            st.stage([(rep, Flag::SignExtended)], || {
                let label = match self.form.prmt {
                    None => format!(
                        "d.b{i}: selector nibble 0x{:x} = byte {k}{}",
                        (c >> (4 * i)) & 0xf,
                        if rep {
                            format!(", its sign bit ({}) replicated over 8 bits", byte >> 7)
                        } else {
                            " copied".to_string()
                        }
                    ),
                    Some(_) => format!("d.b{i}: byte {k} copied"),
                };
                Stage::new(
                    StageKind::Extract,
                    label,
                    Val::reg(format!("d.b{i}"), 8, out as u64),
                )
                .lane(i as u8)
                .op(if rep {
                    format!("b:a.b{k} & 0x80 ? 0xff : 0")
                } else {
                    format!("b:a.b{k}")
                })
                // The pool itself is the input, so that the figure draws the byte's wire
                // from it (the field says which bits).
                .input(Val::reg("b:a", 64, pool64))
                .also(["c"])
                .flow(Flow::field(
                    8 * k as u32 + if rep { 7 } else { 0 },
                    if rep { 1 } else { 8 },
                    rep,
                ))
                .detail(Detail::Field {
                    source: pool64,
                    source_bits: 64,
                    lo: 8 * k as u32 + if rep { 7 } else { 0 },
                    width: if rep { 1 } else { 8 },
                    signed: rep,
                    out_bits: 8,
                })
            });
        }
        d as u64
    }

    /// `a CMP b` as the comparison's type reads them: floats by value (with `.ftz`, an `.f32`
    /// subnormal as zero), where either is NaN by [`Cmp::on_nan`]; integers extended by
    /// their type's sign, except that `lo ls hi hs` read them as unsigned. What each word
    /// means is [`Cmp::holds`], which the video comparisons read too.
    fn compare(&self, a: u64, b: u64) -> bool {
        let t = self.cmp_ty();
        let c = self.form.cmp.unwrap_or(Cmp::Eq);
        if t.is_float() {
            let (x, y) = if t == Type::F32 {
                let f = |v: u64| {
                    let bits = v as u32;
                    let mut x = f32::from_bits(bits);
                    if self.form.ftz && x.is_subnormal() {
                        x = if bits >> 31 != 0 { -0.0 } else { 0.0 };
                    }
                    x as f64
                };
                (f(a), f(b))
            } else {
                (f64::from_bits(a), f64::from_bits(b))
            };
            return match x.partial_cmp(&y) {
                Some(o) => c.holds(o),
                None => c.on_nan(),
            };
        }
        let w = t.bits();
        let (sa, sb) = (sext(a, w), sext(b, w));
        let signed = t.is_signed() && !c.reads_unsigned();
        let (lt, gt) = if signed {
            (sa < sb, sa > sb)
        } else {
            (a < b, a > b)
        };
        c.holds_where(lt, gt)
    }

    fn slct<S: Tracer>(&self, v: &[u64], st: &mut S) -> u64 {
        let w = self.ty().bits();
        let c = v[2] as u32;
        let float = self.src_ty() == Some(Type::F32);
        // A float c: its sign decides, except that NaN is not >= 0, and -0 is; with .ftz a
        // subnormal counts as zero (of either sign), so it takes a.
        let subnormal = float && c & 0x7f80_0000 == 0 && c & 0x007f_ffff != 0;
        let nan = float && c & 0x7f80_0000 == 0x7f80_0000 && c & 0x007f_ffff != 0;
        let take_a = if float {
            !nan && (c >> 31 == 0 || c & 0x7fff_ffff == 0 || (self.form.ftz && subnormal))
        } else {
            c as i32 >= 0
        };
        let r = if take_a { v[0] } else { v[1] };
        st.stage([], || {
            let why = if !float {
                format!(
                    "c = {} is {}",
                    c as i32,
                    if take_a { ">= 0" } else { "< 0" }
                )
            } else if nan {
                "c is NaN, which is not >= 0".to_string()
            } else if self.form.ftz && subnormal {
                format!(
                    "c = {:e} is subnormal, read as 0 (.ftz), which is >= 0",
                    f32::from_bits(c)
                )
            } else {
                format!(
                    "c = {:?} is {}",
                    f32::from_bits(c),
                    if take_a { ">= 0" } else { "< 0" }
                )
            };
            Stage::new(
                StageKind::Compare,
                format!("{why}, so {} is taken", if take_a { "a" } else { "b" }),
                Val::reg("d", w, r),
            )
            .op("c >= 0 ? a : b")
            .inputs([
                Val::reg("a", w, v[0]),
                Val::reg("b", w, v[1]),
                Val::new(
                    "c",
                    32,
                    !float,
                    if float { c as i128 } else { c as i32 as i128 },
                ),
            ])
        });
        r
    }

    fn cvt_pack<S: Tracer>(&self, v: &[u64], st: &mut S) -> u64 {
        let t = self.ty();
        let n = t.bits();
        let (lo, hi) = t.range();
        let mut packed = 0u64;
        for (i, name) in [(0usize, "a"), (1, "b")] {
            let x = sext(v[i], 32) as i128;
            let y = x.clamp(lo, hi);
            st.stage(
                [(x > hi, Flag::ClampedHigh), (x < lo, Flag::ClampedLow)],
                || {
                    Stage::new(
                        StageKind::Clamp,
                        format!("{name} clamped to the range of .{}", t.name()),
                        Val::new(format!("{name}'"), n, t.is_signed(), y),
                    )
                    .saturate(Saturation::Range { lo, hi }, Val::new(name, 32, true, x))
                },
            );
            // b in the lowest n bits, a just above.
            let at = if i == 0 { n } else { 0 };
            packed |= (y as u64 & mask64(n)) << at;
        }
        st.stage([], || {
            Stage::new(
                StageKind::Merge,
                format!("a' in bits {}..{}, b' in bits {}..0", 2 * n - 1, n, n - 1),
                Val::reg("pair", 2 * n, packed),
            )
            .op(format!("a' << {n} | b'"))
            .inputs([
                Val::reg("b'", n, packed & mask64(n)),
                Val::reg("a'", n, (packed >> n) & mask64(n)),
            ])
            .flow(Flow::Concat)
        });
        if n >= 16 {
            return packed;
        }
        let d = (packed | v[2] << (2 * n)) & 0xffff_ffff;
        st.stage([], || {
            Stage::new(
                StageKind::Merge,
                format!("bits 31..{} from the low {} bits of c", 2 * n, 32 - 2 * n),
                Val::reg("d", 32, d),
            )
            .op(format!("c << {} | pair", 2 * n))
            .inputs([Val::reg("pair", 2 * n, packed), Val::reg("c", 32, v[2])])
            .flow(Flow::Concat)
        });
        d
    }

    /// A link of the carry chain. Measured on an H200 (`tests/data/gpu-programs.jsonl.gz`,
    /// with the raw carry bit set before and read after): with `n` the width,
    /// `sum = x + y + carry_in` exactly, `d = sum mod 2^n` and `carry_out = sum >> n`, where
    /// `x, y` are `a, b` (`add`), `a, ~b` (`sub`) or the product's half and `c` (`mad`), and
    /// the carry in is `CC.CF` (`addc`, `subc`, `madc`), else 0 (`add`, `mad`) or 1 (`sub`):
    /// the carry of `sub` is "no borrow", as on ARM; a signed type changes nothing but `.hi`'s
    /// product. 16-bit `madc.hi` keeps bits 32..47 of the product of the operands widened to
    /// 32 bits (see "16-bit `madc.hi`" in docs/hardware-vs-spec.md).
    fn carry<S: Tracer>(&self, chain: Chain, v: &[u64], st: &mut S, out: &mut [Option<u64>]) {
        let ty = self.ty();
        let n = ty.bits();
        let m = u128::from(mask64(n));
        let (a, b) = (v[0], v[1]);
        let c = if chain == Chain::Mad { v[2] } else { 0 };
        let sub = chain == Chain::Sub;
        let cf = if self.op.carry_in() {
            v[self.srcs.len() - 1] & 1
        } else {
            0
        };
        let cin = if self.op.carry_in() {
            u128::from(cf)
        } else {
            u128::from(sub)
        };
        // The formulas as fixed text, so that a run without stages formats nothing.
        let cf_in = self.op.carry_in();
        let (x, y, formula, names) = match chain {
            Chain::Add => (
                u128::from(a) & m,
                u128::from(b) & m,
                if cf_in { "a + b + CC.CF" } else { "a + b" },
                ["a", "b"],
            ),
            Chain::Sub => {
                let nb = !u128::from(b) & m;
                st.stage([], || {
                    Stage::new(
                        StageKind::Adjust,
                        "b complemented: a - b is a + ~b + 1",
                        Val::new("~b", n, false, nb as i128),
                    )
                    .flow(Flow::Bitwise)
                    .op("~b")
                    .input(Val::reg("b", n, b))
                });
                (
                    u128::from(a) & m,
                    nb,
                    if cf_in {
                        "a + ~b + CC.CF"
                    } else {
                        "a + ~b + 1"
                    },
                    ["a", "~b"],
                )
            }
            Chain::Mad => {
                let product: i128 = if ty.is_signed() {
                    sext(a, n) as i128 * sext(b, n) as i128
                } else {
                    // In u128: (2^64 - 1)^2 fits there, not in i128; only its bits matter.
                    ((u128::from(a) & m) * (u128::from(b) & m)) as i128
                };
                // 16-bit operands multiply as 32-bit words: .hi keeps bits 32..47.
                let shift = if n == 16 { 32 } else { n };
                let h = if self.hi() {
                    (product as u128) >> shift
                } else {
                    product as u128
                } & m;
                // The product as the stages show it (built only when they are kept).
                let product_val = || {
                    Val::new(
                        "a*b",
                        if n == 16 { 64 } else { 2 * n },
                        ty.is_signed(),
                        product,
                    )
                };
                st.stage([], || {
                    Stage::new(StageKind::Product, "the full product", product_val())
                        .flow(Flow::Carry)
                        .op("a * b")
                        .inputs([Val::reg("a", n, a), Val::reg("b", n, b)])
                });
                st.stage([], || {
                    Stage::new(
                        StageKind::Truncate,
                        match (self.hi(), n) {
                            (true, 16) => "bits 32..47: the high word of the product of the 32-bit widened operands",
                            (true, _) => "its high half",
                            _ => "its low half",
                        },
                        Val::new("h", n, false, h as i128),
                    )
                    .op(if self.hi() {
                        format!("(a * b) >> {shift}")
                    } else {
                        format!("(a * b) mod 2^{n}")
                    })
                    .input(product_val())
                    .flow(Flow::shifted(if self.hi() { shift as i32 } else { 0 }, false))
                });
                let formula = if cf_in { "h + c + CC.CF" } else { "h + c" };
                (h, u128::from(c) & m, formula, ["h", "c"])
            }
        };
        let sum = x + y + cin;
        let d = (sum & m) as u64;
        let carry = (sum >> n) as u64 & 1;
        let sum_val = Val::new("sum", n + 1, false, sum as i128);
        st.stage([], || {
            Stage::new(
                StageKind::Operate,
                "the exact sum, one bit wider",
                sum_val.clone(),
            )
            .op(formula)
            .inputs([
                Val::new(names[0], n, false, x as i128),
                Val::new(names[1], n, false, y as i128),
            ])
            .inputs(self.op.carry_in().then(|| Val::reg(CARRY_FLAG, 1, cf)))
            .flow(Flow::Carry)
        });
        st.stage([], || {
            Stage::new(
                StageKind::Truncate,
                format!("d: the low {n} bits of the sum"),
                Val::reg("d", n, d),
            )
            .op(format!("sum mod 2^{n}"))
            .input(sum_val.clone())
            .flow(Flow::extend(false))
        });
        if let Some(o) = out.first_mut() {
            *o = Some(d);
        }
        if self.form.cc {
            st.stage([], || {
                let borrow = if sub { " (1: nothing borrowed)" } else { "" };
                Stage::new(
                    StageKind::Truncate,
                    format!("carry out: bit {n} of the sum, written to {CARRY_FLAG}{borrow}"),
                    Val::reg(CARRY_FLAG, 1, carry),
                )
                .op(format!("sum >> {n}"))
                .input(sum_val.clone())
                .flow(Flow::shifted(n as i32, false))
            });
            if let Some(o) = out.get_mut(1) {
                *o = Some(carry);
            }
        }
    }

    /// The type a comparison (`setp`, `set`) reads `a` and `b` as: the second type where there
    /// is one (`set`'s), else the one (`setp`'s).
    fn cmp_ty(&self) -> Type {
        self.src_ty().unwrap_or(self.ty())
    }

    /// The comparison of `setp` and `set`, `a CMP b`, and its stage.
    fn compare_stage<S: Tracer>(&self, v: &[u64], st: &mut S) -> bool {
        let ty = self.cmp_ty();
        let w = ty.bits();
        let c = self.form.cmp.unwrap_or(Cmp::Eq);
        let t = self.compare(v[0], v[1]);
        st.stage([], || {
            let show = |n: &str, x: u64| {
                if ty.is_signed() {
                    Val::new(n, w, true, sext(x, w) as i128)
                } else {
                    Val::reg(n, w, x)
                }
            };
            // What the word tests, NaN included where it counts (Cmp::on_nan).
            let sym = c.symbol();
            let (label, op) = match c {
                Cmp::Num => (
                    "neither a nor b is NaN,".to_string(),
                    "!isnan(a) && !isnan(b)".to_string(),
                ),
                Cmp::Nan => (
                    "a or b is NaN,".to_string(),
                    "isnan(a) || isnan(b)".to_string(),
                ),
                _ if c.on_nan() => (
                    format!("a {sym} b, or a or b is NaN,"),
                    format!("a {sym} b || isnan(a) || isnan(b)"),
                ),
                _ => (format!("a {sym} b"), format!("a {sym} b")),
            };
            Stage::new(
                StageKind::Compare,
                format!("{label} read as .{}: {t}", ty.name()),
                Val::reg("t", 1, t as u64),
            )
            .op(op)
            .inputs([show("a", v[0]), show("b", v[1])])
        });
        t
    }

    /// `set`: the comparison (combined with `c` under `.and`/`.or`/`.xor`) written as a number
    /// of d's type: all ones for `.u32`/`.s32`, 1.0 for `.f32`, 0 when false.
    fn set<S: Tracer>(&self, v: &[u64], st: &mut S) -> u64 {
        let t = self.compare_stage(v, st);
        let r = match self.form.bool_op {
            None => t,
            Some(bo) => {
                let cc = v[2] != 0;
                let r = bo.apply(t, cc);
                st.stage([], || {
                    Stage::new(
                        StageKind::Secondary,
                        format!("t {} c: {r}", bo.name()),
                        Val::reg("r", 1, r as u64),
                    )
                    .op(format!("t {} c", bo.name()))
                    .inputs([Val::reg("t", 1, t as u64), Val::reg("c", 1, cc as u64)])
                });
                r
            }
        };
        // True as d's type: its bits, how the stage names them, and the formula's word.
        let (one, name, word) = match self.ty() {
            Type::F32 => (0x3f80_0000, "1.0 (0x3f800000)", "1.0"),
            Type::S32 => (0xffff_ffff, "-1 (all ones)", "~0"),
            _ => (0xffff_ffff, "0xffffffff (all ones)", "~0"),
        };
        let d = if r { one } else { 0 };
        st.stage([], || {
            let answer = if self.form.bool_op.is_some() {
                "r"
            } else {
                "t"
            };
            let out = if self.ty().is_signed() {
                Val::new("d", 32, true, -(r as i128))
            } else {
                Val::reg("d", 32, d)
            };
            Stage::new(
                StageKind::Operate,
                format!(
                    "{answer} as .{}: {}",
                    self.ty().name(),
                    if r { name } else { "0" }
                ),
                out,
            )
            .op(format!("{answer} ? {word} : 0"))
            .input(Val::reg(answer, 1, r as u64))
        });
        d
    }

    fn setp<S: Tracer>(&self, v: &[u64], st: &mut S, out: &mut [Option<u64>]) {
        let t = self.compare_stage(v, st);
        let (p, q) = match self.form.bool_op {
            None => (t, !t),
            Some(bo) => {
                let cc = v[2] != 0;
                let p = bo.apply(t, cc);
                let q = bo.apply(!t, cc);
                st.stage([], || {
                    Stage::new(
                        StageKind::Secondary,
                        format!("p = t {0} c, q = !t {0} c", bo.name()),
                        Val::reg("p", 1, p as u64),
                    )
                    .op(format!("t {} c", bo.name()))
                    .inputs([Val::reg("t", 1, t as u64), Val::reg("c", 1, cc as u64)])
                });
                (p, q)
            }
        };
        for (i, (d, o)) in self.dsts.iter().zip(out.iter_mut()).enumerate() {
            let val = if i == 0 { p } else { q } as u64;
            *o = if d.is_sink() { None } else { Some(val) };
        }
    }

    fn cvt<S: Tracer>(&self, v: &[u64], st: &mut S) -> u64 {
        let at = self.src_ty().unwrap_or(self.ty());
        let dt = self.ty();
        let x: i128 = if at.is_signed() {
            sext(v[0], at.bits()) as i128
        } else {
            (v[0] & mask64(at.bits())) as i128
        };
        st.stage([], || {
            Stage::new(
                StageKind::Extract,
                format!(
                    "a read as .{} ({} bits, {})",
                    at.name(),
                    at.bits(),
                    if at.is_signed() { "signed" } else { "unsigned" }
                ),
                Val::new("a", at.bits(), at.is_signed(), x),
            )
            .input(Val::reg("a", at.bits(), v[0]))
            .flow(Flow::extend(false))
        });
        let (lo, hi) = dt.range();
        if self.form.sat {
            let y = x.clamp(lo, hi);
            st.stage(
                [(x > hi, Flag::ClampedHigh), (x < lo, Flag::ClampedLow)],
                || {
                    Stage::new(
                        StageKind::Clamp,
                        format!("clamped to the range of .{}", dt.name()),
                        Val::new("d", dt.bits(), dt.is_signed(), y),
                    )
                    .saturate(
                        Saturation::Range { lo, hi },
                        Val::new("a", at.bits(), at.is_signed(), x),
                    )
                },
            );
            y as u64 & mask64(dt.bits())
        } else {
            let y = x as u64 & mask64(dt.bits());
            let kept = dt.bits() < at.bits();
            st.stage(
                [
                    (
                        kept && (y as i128) != x && (sext(y, dt.bits()) as i128) != x,
                        Flag::Wrapped,
                    ),
                    (!kept && at.is_signed(), Flag::SignExtended),
                    (!kept && !at.is_signed(), Flag::ZeroExtended),
                ],
                || {
                    Stage::new(
                        if kept {
                            StageKind::Truncate
                        } else {
                            StageKind::Operate
                        },
                        if kept {
                            format!("the low {} bits kept", dt.bits())
                        } else {
                            format!(
                                "{}-extended to {} bits",
                                if at.is_signed() { "sign" } else { "zero" },
                                dt.bits()
                            )
                        },
                        Val::new(
                            "d",
                            dt.bits(),
                            dt.is_signed(),
                            if dt.is_signed() {
                                sext(y, dt.bits()) as i128
                            } else {
                                y as i128
                            },
                        ),
                    )
                    .input(Val::new("a", at.bits(), at.is_signed(), x))
                    .flow(Flow::extend(at.is_signed()))
                },
            );
            y
        }
    }

    fn mov_eval<S: Tracer>(&self, v: &[u64], st: &mut S, out: &mut [Option<u64>]) {
        let w = self.ty().bits();
        if self.pack {
            let n = self.srcs.len() as u32;
            let ew = w / n;
            let mut d = 0u64;
            for (i, x) in v.iter().enumerate() {
                d |= (x & mask64(ew)) << (ew * i as u32);
            }
            st.stage([], || {
                Stage::new(
                    StageKind::Merge,
                    format!("{n} parts of {ew} bits packed, the first in the lowest bits"),
                    Val::reg("d", w, d),
                )
                .op(format!(
                    "{{{}}}",
                    (0..n)
                        .map(|i| format!("a{i}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .inputs(
                    v.iter()
                        .enumerate()
                        .map(|(i, &x)| Val::reg(format!("a{i}"), ew, x)),
                )
                .flow(Flow::Concat)
                .detail(Detail::Merge {
                    lane_bits: ew,
                    from_result: vec![true; n as usize],
                    other: String::new(),
                    moved: false,
                })
            });
            if let Some(o) = out.first_mut() {
                *o = Some(d);
            }
        } else if self.unpack {
            let n = self.dsts.len() as u32;
            let ew = w / n;
            for (i, (d, o)) in self.dsts.iter().zip(out.iter_mut()).enumerate() {
                let part = (v[0] >> (ew * i as u32)) & mask64(ew);
                st.stage([], || {
                    Stage::new(
                        StageKind::Extract,
                        format!("bits {}..{} of a", ew * (i as u32 + 1) - 1, ew * i as u32),
                        Val::reg(format!("d{i}"), ew, part),
                    )
                    .lane(i as u8)
                    .input(Val::reg("a", w, v[0]))
                    .flow(Flow::field(ew * i as u32, ew, false))
                    .detail(Detail::Field {
                        source: v[0],
                        source_bits: w,
                        lo: ew * i as u32,
                        width: ew,
                        signed: false,
                        out_bits: ew,
                    })
                });
                *o = if d.is_sink() { None } else { Some(part) };
            }
        } else {
            st.stage([], || {
                Stage::new(StageKind::Operate, "a copied", Val::reg("d", w, v[0]))
                    .op("a")
                    .input(Val::reg("a", w, v[0]))
                    .flow(Flow::extend(false))
            });
            if let Some(o) = out.first_mut() {
                *o = Some(v[0]);
            }
        }
    }
}
