//! The instruction set as data: one row per opcode ([`OPCODES`], written in [`rows`]) with its
//! family, syntax, types, modifiers, an accepted example, the link to NVIDIA's documentation
//! and one [`OperandSpec`] per operand position. The parser, validator, evaluators, sweep,
//! generator, CLI and front end read these rows; nothing else lists opcodes one by one.
//!
//! This is the lowest layer of the crate: it uses nothing from the rest of it.
//!
//! ```
//! use ptxlab_core::isa::{Family, Mod, Opcode, OPCODES};
//!
//! let vadd4 = Opcode::from_name("vadd4").unwrap();
//! assert_eq!(vadd4.family(), Family::Simd4);
//! assert!(vadd4.syntax().takes(Mod::Sat));
//! assert!(vadd4.doc_url().starts_with("https://docs.nvidia.com/"));
//! assert!(OPCODES.iter().all(|row| row.instr.row().name == row.name));
//! ```

use serde::{Deserialize, Serialize};

pub mod instr;
pub mod lanes;
pub mod op_rows;
pub mod operand;
pub mod operation;
pub mod rows;
pub mod vocab;

pub use instr::Instr;
pub use op_rows::POp;
pub use operand::{
    is_dotted_special, CarryUse, FloatRule, ImmRule, LastSource, OperandSpec, Operands,
    PositionKind, Role, SelRule, SignRule, WidthRule, SPECIAL,
};
pub use operation::{IntOp, Operation, ScalarOp, SimdOp};
pub use rows::Opcode;

/// Every instruction's row, in one table: the 47 video and integer arithmetic opcodes in the
/// order the ISA lists them ([`OPCODES`]), then the program instructions ([`OP_ROWS`]).
/// [`Instr::row`] indexes it; each half is written by its own macro, which also makes its
/// index enum ([`Opcode`], [`POp`]).
pub static ROWS: [Row; ROW_COUNT] = joined();
/// The rows of the video and integer arithmetic opcodes: the first part of [`ROWS`].
pub const OPCODES: &[Row] = ROWS.split_at(rows::TABLE.len()).0;
/// The rows of the program instructions (logic, move, compare, convert, carry chain): the
/// rest of [`ROWS`].
pub const OP_ROWS: &[Row] = ROWS.split_at(rows::TABLE.len()).1;

const ROW_COUNT: usize = rows::TABLE.len() + op_rows::PROGRAM.len();

/// The two halves of [`ROWS`] as one array, at compile time.
const fn joined() -> [Row; ROW_COUNT] {
    let mut out = [rows::TABLE[0]; ROW_COUNT];
    let mut i = 0;
    while i < rows::TABLE.len() {
        out[i] = rows::TABLE[i];
        i += 1;
    }
    let mut j = 0;
    while j < op_rows::PROGRAM.len() {
        out[i + j] = op_rows::PROGRAM[j];
        j += 1;
    }
    out
}
pub use vocab::{
    BoolOp, ClampMode, Cmp, Form, HalfMode, Mod, ModGroup, PrmtMode, Scale, SecOp, SelKind,
    Selector, ShiftDir, Type, TypeSlot,
};

/// Base address of NVIDIA's PTX ISA documentation.
pub const PTX_DOC_BASE: &str = "https://docs.nvidia.com/cuda/parallel-thread-execution/index.html";

/// Instruction family, one vocabulary for every instruction: the video and integer arithmetic
/// opcodes of [`OPCODES`] (which evaluator runs, how the UI lays out the stages) and the program
/// instructions of [`OP_ROWS`] (logic, move, convert, compare, carry chain), as NVIDIA's
/// documentation groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// `vadd vsub vabsdiff vmin vmax vshl vshr vset`: one 32-bit lane, optional secondary op or merge.
    ScalarVideo,
    /// `vmad`: multiply-add with negation, plus-one and scaling.
    Vmad,
    /// Two half-word lanes (`vadd2` ...).
    Simd2,
    /// Four byte lanes (`vadd4` ...).
    Simd4,
    /// Integer arithmetic of section 9.7.1.
    Integer,
    /// `and or xor not cnot lop3 shf shl shr`.
    Logic,
    /// `mov prmt`.
    Move,
    /// `cvt cvt.pack`.
    Convert,
    /// `setp set selp slct`.
    Compare,
    /// The carry chain: `add.cc addc sub.cc subc mad.cc madc`.
    Carry,
}

impl Family {
    /// Every family, in the order the pickers list them.
    pub const ALL: [Family; 10] = [
        Family::ScalarVideo,
        Family::Vmad,
        Family::Simd2,
        Family::Simd4,
        Family::Integer,
        Family::Logic,
        Family::Move,
        Family::Convert,
        Family::Compare,
        Family::Carry,
    ];
    /// The family's name in words.
    pub fn describe(self) -> &'static str {
        match self {
            Family::ScalarVideo => "scalar video",
            Family::Vmad => "video multiply-add",
            Family::Simd2 => "SIMD, 2 half-word lanes",
            Family::Simd4 => "SIMD, 4 byte lanes",
            Family::Integer => "integer arithmetic",
            Family::Logic => "logic and shift",
            Family::Move => "data movement",
            Family::Convert => "conversion",
            Family::Compare => "comparison and selection",
            Family::Carry => "extended precision (the carry chain)",
        }
    }
    /// Whether the family works on SIMD lanes (`vadd2`, `vadd4`, ...).
    pub fn is_simd(self) -> bool {
        matches!(self, Family::Simd2 | Family::Simd4)
    }
    /// The example text of its first instruction, from whichever table holds the family (the
    /// text the pickers switch to).
    pub fn example(self) -> &'static str {
        Instr::all()
            .find(|i| i.family() == self)
            .map_or("", Instr::example)
    }
    /// Whether its instructions are rows of [`OP_ROWS`] (the program instructions), not of
    /// [`OPCODES`].
    pub fn is_program(self) -> bool {
        matches!(
            self,
            Family::Logic | Family::Move | Family::Convert | Family::Compare | Family::Carry
        )
    }
}

/// The GPU an instruction's values were measured on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gpu {
    /// An NVIDIA H100 (sm_90): every row, the ones of [`OPCODES`] in
    /// `shared/conformance/h100-cases.jsonl.gz`, the ones of [`OP_ROWS`] in
    /// `tests/data/gpu-programs-h100.jsonl.gz`.
    H100,
    /// An NVIDIA H200 (sm_90, the H100's architecture). No row names it now: the rows of
    /// [`OP_ROWS`] said it until their H100 measurements came (the H200's are kept in
    /// `tests/data/gpu-programs.jsonl.gz`, and agree); a trace saved then reads back.
    H200,
}

impl Gpu {
    /// Its name in words: "an NVIDIA H100 (sm_90)".
    pub fn describe(self) -> &'static str {
        match self {
            Gpu::H100 => "an NVIDIA H100 (sm_90)",
            Gpu::H200 => "an NVIDIA H200 (sm_90, the H100's architecture)",
        }
    }
}

/// The sentence Learn and `ptxlab explain` give on whether an instruction was measured.
pub fn measured_sentence(measured: Option<Gpu>) -> String {
    match measured {
        Some(g) => format!(
            "Measured on {}: ptxlab's values equal the GPU's on every measured case of this \
             instruction.",
            g.describe()
        ),
        None => "This instruction follows the ISA text; it is not yet measured on a GPU.".into(),
    }
}

/// One row of either table ([`OPCODES`], [`OP_ROWS`]): everything about one instruction, in
/// one struct for all of them. [`Instr::row`] finds any instruction's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The instruction this row describes (serialised as its name).
    pub instr: Instr,
    /// Its name as written: `vadd`, `mad`, `add.cc`.
    pub name: &'static str,
    /// Its family.
    pub family: Family,
    /// Anchor of its section in NVIDIA's PTX documentation.
    pub doc_anchor: &'static str,
    /// What it computes, in a sentence of our own.
    pub summary: &'static str,
    /// A text ptxas accepts, the starting point when the pickers switch to it.
    pub example: &'static str,
    /// The GPU its values were measured on (every row: an H100; `tests/checklist.rs` finds
    /// H100 cases of each table row, `tests/gpu_programs.rs` of each program row).
    pub measured: Option<Gpu>,
    /// The types and modifiers ptxas accepts, and what a modifier needs.
    pub syntax: Syntax,
    /// Its operand positions: the destinations, then every source it can have (the video
    /// instructions' `c` optional), each with its kind, role, width, sign and float rules.
    pub operands: Operands,
}

impl Row {
    /// Link to its section of NVIDIA's PTX documentation.
    pub fn doc_url(&self) -> String {
        format!("{PTX_DOC_BASE}#{}", self.doc_anchor)
    }
    /// Whether a form whose first type is `ty` takes the third type (and the source it types:
    /// `cvt.pack.sat.u8.s32.b32` reads a `c`).
    pub fn reads_third(&self, ty: Type) -> bool {
        self.third().is_some_and(|s| s.written_with(ty))
    }
    /// The third type slot when it comes with some first types only (`cvt.pack`'s `c` type).
    pub fn third(&self) -> Option<&'static TypeSlot> {
        self.syntax.slots.get(2).filter(|s| !s.with.is_empty())
    }
    /// The types slot `k` takes (none past the last slot): for a program row 0 is the
    /// instruction type and 1 the second type; for a table row 0 is `d`'s (or the only) type.
    pub fn types(&self, k: usize) -> &'static [Type] {
        self.syntax.slots.get(k).map_or(&[], |s| s.types)
    }
    /// Its modifier groups in the row's order: (the group, whether one of it must be
    /// written, its modifiers).
    pub fn mod_groups(&self) -> impl Iterator<Item = (ModGroup, bool, Vec<Mod>)> + '_ {
        self.syntax.mods.groups().into_iter().map(|g| {
            (
                g,
                self.syntax.mods.required.contains(&g),
                self.syntax.mods.of_group(g).collect(),
            )
        })
    }
}

/// The syntax ptxas accepts for one opcode on sm_90.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Syntax {
    /// The type slots, in the order written (`dtype`, `atype`, `btype`, ...).
    pub slots: &'static [TypeSlot],
    /// Modifiers accepted besides the types, in any order but the group that comes `first`
    /// (the `.hi`/`.lo`/`.wide` part that belongs to the opcode name), with the group of
    /// which one must be written.
    pub mods: Mods,
    /// What a modifier needs of the types or the other modifiers written with it (`.sat` on
    /// `add`: `.s32`; on `mad`: `.hi`; on `vadd4`: no `.add`).
    pub needs: &'static [Need],
    /// A form refused with a reason of its own ([`Beyond`]; program rows only, so far).
    pub beyond: Option<Beyond>,
    /// Whether sources may be negated at all (`vmad` only, and even there with limits); a
    /// negation of both `a` and `b` cancels and is accepted on 32-bit registers everywhere.
    pub negation: bool,
}

/// The modifiers an instruction takes besides its types, for both tables ([`Syntax::mods`],
/// [`Row::syntax`]): at most one of each group is written (but the [`ModGroup::repeatable`]
/// ones, which may be written twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Mods {
    /// Every modifier it takes, group by group in the order the program rows' pickers show
    /// them (`shf`: direction, then mode; `setp`: comparison, Boolean operation, `.ftz`). No
    /// two have the same name (`setp`'s `.lo` is a comparison; `mul`'s, a half).
    pub all: &'static [Mod],
    /// The groups of which one must be written (`shf`'s direction and mode, `setp`'s and
    /// `vset`'s comparison, `mul`'s half).
    pub required: &'static [ModGroup],
    /// The group that comes first and once, right after the opcode (`mul.lo`, `shf.l`,
    /// `mad.lo.cc`), as ptxas reads it. Written apart from such an opcode (`mul .lo`), the
    /// first word is refused: by the table's parser whatever modifier it is, by the program
    /// rows' validator when it is of this group.
    pub first: Option<ModGroup>,
}

impl Mods {
    /// These modifiers, none required, none first.
    pub const fn new(all: &'static [Mod]) -> Mods {
        Mods {
            all,
            required: &[],
            first: None,
        }
    }
    /// The modifier named `word` (without the dot), if one of these is.
    pub fn named(&self, word: &str) -> Option<Mod> {
        self.all.iter().copied().find(|m| m.name() == word)
    }
    /// The groups of these modifiers, in the order their first modifier is listed.
    pub fn groups(&self) -> Vec<ModGroup> {
        let mut groups: Vec<ModGroup> = Vec::new();
        for &m in self.all {
            if !groups.contains(&ModGroup::of(m)) {
                groups.push(ModGroup::of(m));
            }
        }
        groups
    }
    /// The modifiers of group `g`, in the order listed.
    pub fn of_group(&self, g: ModGroup) -> impl Iterator<Item = Mod> + '_ {
        self.all
            .iter()
            .copied()
            .filter(move |m| ModGroup::of(*m) == g)
    }
}

/// A form that ptxlab refuses with a reason of its own (the program rows have some): one read
/// only by a later PTX ISA than ptxlab follows (8.0, sm_90: `lop3` with `.and`/`.or`), one of
/// a form of the instruction outside ptxlab's integer scope (a half-precision `set`), or one
/// ptxas refuses for a reason worth saying (a rounding modifier on an integer `cvt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Beyond {
    /// The modifier or type words that make the form (written without the dot).
    pub words: &'static [&'static str],
    /// The number of operands that makes it, if a count does.
    pub operands: Option<usize>,
    /// Why it is refused, in a sentence.
    pub why: &'static str,
}

/// What a modifier needs of the types or the other modifiers written with it, for both tables
/// ([`Syntax::needs`], for a row of either table); ptxas refuses the form without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Need {
    /// The modifier that needs it.
    pub modifier: Mod,
    /// What it needs.
    pub of: NeedOf,
    /// Why, in words: the second half of the message.
    pub why: &'static str,
}

/// What a modifier needs of the types or the other modifiers written with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum NeedOf {
    /// This modifier written too (`mad`'s `.sat` needs `.hi`).
    Mod(Mod),
    /// This modifier not written (the SIMD `.sat` and `.add`).
    Without(Mod),
    /// The type written in this slot (0: the first, 1: the second) to be one of these.
    Type(usize, &'static [Type]),
    /// The first type too narrow for some values of the second, so that a clamp can change
    /// one (`cvt.sat`; no row of [`OPCODES`] needs it).
    Narrower,
}

impl Syntax {
    /// Whether this modifier may be written (types aside).
    pub fn takes(&self, m: Mod) -> bool {
        self.mods.all.contains(&m)
    }
}

impl Opcode {
    /// This opcode's row of [`OPCODES`].
    pub fn info(self) -> &'static Row {
        Instr::Table(self).row()
    }
    /// The name as written: `vadd`, `mad`.
    pub fn name(self) -> &'static str {
        self.info().name
    }
    /// The family.
    pub fn family(self) -> Family {
        self.info().family
    }
    /// The opcode named `s` (without modifiers), if there is one.
    pub fn from_name(s: &str) -> Option<Opcode> {
        Opcode::ALL.iter().copied().find(|o| o.name() == s)
    }
    /// Link to this opcode's section of NVIDIA's documentation.
    pub fn doc_url(self) -> String {
        self.info().doc_url()
    }
    /// Whether it is a video instruction (ISA section 9.7.18) rather than integer arithmetic.
    pub fn is_video(self) -> bool {
        self.family() != Family::Integer
    }
    /// The syntax ptxas accepts for this opcode.
    pub fn syntax(self) -> &'static Syntax {
        &self.info().syntax
    }
    /// Operand positions: `d`, then the sources.
    pub fn operands(self) -> &'static Operands {
        &self.info().operands
    }
    /// Source position `i` (0 = `a`), if the opcode has one there.
    pub fn source(self, i: usize) -> Option<&'static OperandSpec> {
        self.info().operands.srcs.get(i)
    }
    /// An accepted example.
    pub fn example(self) -> &'static str {
        self.info().example
    }
}

/// Rank of a modifier in the order the ISA's syntax lists them (types keep their own relative
/// order when sorted stably by it).
pub fn mod_rank(opcode: Opcode, m: Mod) -> u8 {
    if opcode.is_video() {
        match m {
            Mod::Type(_) => 0,
            Mod::Po => 1,
            Mod::Sat => 2,
            Mod::Mode(_) => 3,
            Mod::Scale(_) => 4,
            Mod::Cmp(_) => 5,
            Mod::SecOp(_) => 6,
            _ => 7,
        }
    } else {
        match m {
            Mod::Half(_) => 0,
            Mod::Shiftamt => 1,
            Mod::Mode(_) => 2,
            Mod::Sat => 3,
            Mod::Relu => 4,
            Mod::Type(_) => 5,
            _ => 6,
        }
    }
}

/// Modifiers in the order the ISA's syntax lists them.
pub fn canonical_order(opcode: Opcode, mods: impl IntoIterator<Item = Mod>) -> Vec<Mod> {
    // Ties keep the order written (the position is part of the key).
    let mut v: Vec<(usize, Mod)> = mods.into_iter().enumerate().collect();
    v.sort_unstable_by_key(|&(i, m)| (mod_rank(opcode, m), i));
    v.into_iter().map(|(_, m)| m).collect()
}

/// Bit widths of an instruction's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Widths {
    /// Width of `d` in bits.
    pub dst: u32,
    /// Width of each source in operand order; only the first `sources` entries are meaningful.
    pub src: [u32; 4],
    /// Number of sources the form has (up to 4).
    pub sources: usize,
}

impl Widths {
    /// Width of operand position `p` (0 = `d`, 1 = `a`, ...).
    pub fn at(&self, p: usize) -> u32 {
        match p {
            0 => self.dst,
            p => self.src.get(p - 1).copied().unwrap_or(32),
        }
    }
}

/// Per-opcode constant tables derived from the rows once, at compile time, so that the
/// evaluator's questions (operand widths, signs) are answered by indexing, not by walking a
/// row's operands. The rows stay the only source: these are computed from [`OPCODES`].
mod derived {
    use super::{SignRule, WidthRule, OPCODES};

    /// Number of opcodes (rows).
    pub(super) const N: usize = OPCODES.len();

    /// Width rule of each operand position `[d, a, b, c, e]` as an index into
    /// `[32, type width, wide width]`; positions the row lacks read 32 bits.
    pub(super) const WIDTH: [[u8; 5]; N] = {
        let mut out = [[0u8; 5]; N];
        let mut r = 0;
        while r < N {
            let ops = &OPCODES[r].operands;
            let mut p = 0;
            while p < ops.len() && p < 5 {
                let Some(o) = ops.at(p) else { break };
                out[r][p] = match o.width {
                    WidthRule::Bits(32) => 0,
                    WidthRule::Type => 1,
                    WidthRule::Wide => 2,
                    // Rules of the program rows' operands, which no row of the table has (a
                    // compile-time error if one does: the evaluator's masks are these three).
                    WidthRule::Bits(_) | WidthRule::Second | WidthRule::Part | WidthRule::Pred => {
                        panic!("a row of OPCODES has an operand of a width rule the table's evaluator does not read")
                    }
                };
                p += 1;
            }
            r += 1;
        }
        out
    };

    /// Whether every operand position of the opcode is 32 bits wide, whatever its types.
    pub(super) const WORDS: [bool; N] = {
        let mut out = [false; N];
        let mut r = 0;
        while r < N {
            let w = WIDTH[r];
            out[r] = w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0;
            r += 1;
        }
        out
    };

    /// Sign rule of each operand position `[d, a, b, c, e]` as a bit set: bit 3 always
    /// signed, bits 0..3 signed when the type written in that slot is; positions the row lacks
    /// are unsigned.
    pub(super) const SIGN: [[u8; 5]; N] = {
        let mut out = [[0u8; 5]; N];
        let mut r = 0;
        while r < N {
            let ops = &OPCODES[r].operands;
            let mut p = 0;
            while p < ops.len() && p < 5 {
                let Some(o) = ops.at(p) else { break };
                out[r][p] = match o.sign {
                    SignRule::Unsigned => 0,
                    SignRule::Signed => 1 << 3,
                    SignRule::Slot(i) => 1 << i,
                    SignRule::Either(i, j) => (1 << i) | (1 << j),
                    // A program row's rule (slct's c), which no row of the table has (a
                    // compile-time error if one does).
                    SignRule::SlotIs(..) => {
                        panic!("a row of OPCODES has an operand of a sign rule the table's evaluator does not read")
                    }
                };
                p += 1;
            }
            r += 1;
        }
        out
    };

    /// The signed positions of each opcode (bit `p` for position `p`) for each set of signed
    /// type slots (the index, as [`super::signed_slots`] gives it): one lookup per evaluation.
    pub(super) const SIGNS: [[u8; 16]; N] = {
        let mut out = [[0u8; 16]; N];
        let mut r = 0;
        while r < N {
            let mut slots = 0;
            while slots < 16 {
                let mut bits = 0u8;
                let mut p = 0;
                while p < 5 {
                    if SIGN[r][p] & slots as u8 != 0 {
                        bits |= 1 << p;
                    }
                    p += 1;
                }
                out[r][slots] = bits;
                slots += 1;
            }
            r += 1;
        }
        out
    };
}

/// Bit `i` set when type slot `i` of `form` is a signed type, and bit 3 always (for the rows'
/// `Signed` rule).
#[inline(always)]
fn signed_slots(form: &Form) -> u8 {
    let s = |i: usize| u8::from(Type::slot_signed(form.types[i])) << i;
    s(0) | s(1) | s(2) | 1 << 3
}

/// Operand widths for an opcode written with `form` and `sources` sources, from the rows'
/// width rules: the only place widths are decided.
#[inline]
pub fn widths(opcode: Opcode, form: &Form, sources: usize) -> Widths {
    let sources = sources.min(4);
    let n = form.types[0].map_or(32, Type::bits);
    let wide = if form.half == Some(vocab::HalfMode::Wide) {
        (2 * n).min(64)
    } else {
        n
    };
    let choice = [32, n, wide];
    let rule = &derived::WIDTH[opcode as usize];
    let at = |p: usize| choice[usize::from(rule[p])];
    Widths {
        dst: at(0),
        src: [at(1), at(2), at(3), at(4)],
        sources,
    }
}

/// Whether every operand of `opcode` is 32 bits wide in every form (all its width rules are
/// [`WidthRule::Bits`]`(32)`): then [`widths`] is the same for every form, and the evaluator's masks
/// are constants.
#[inline]
pub fn word_operands(opcode: Opcode) -> bool {
    derived::WORDS[opcode as usize]
}

/// Whether operand position `p` (0 = `d`, 1 = `a`, ...) is read as signed.
#[inline]
pub fn operand_signed(opcode: Opcode, form: &Form, p: usize) -> bool {
    p < 5 && operand_signs(opcode, form) >> p & 1 == 1
}

/// Whether each operand position is read as signed, as bits (bit 0 = `d`, bit 1 = `a`, ...):
/// one lookup for all positions.
#[inline]
pub fn operand_signs(opcode: Opcode, form: &Form) -> u8 {
    derived::SIGNS[opcode as usize][usize::from(signed_slots(form) & 15)]
}

/// Suffixes ptxas reads on a register and then ignores: `.b01`, `.b12`, `.b23` (digits as
/// written). The machine code is the same as without them.
pub const IGNORED_SUFFIXES: [[u8; 2]; 3] = [[0, 1], [1, 2], [2, 3]];

/// Whether ptxas accepts and ignores the suffix `sel` on operand `position` (0 = `d`, 1 = `a`,
/// ...): where the row marks the position `loose` and the operand is 32 bits wide. Elsewhere
/// it is an error like any other wrong selector.
pub fn suffix_ignored(opcode: Opcode, form: &Form, position: usize, sel: &Selector) -> bool {
    if sel.kind != SelKind::B || !IGNORED_SUFFIXES.iter().any(|s| s == sel.digits()) {
        return false;
    }
    opcode
        .operands()
        .at(position)
        .is_some_and(|o| o.loose && o.width.bits(form) == 32)
}

/// Which selector each operand position takes: `[d, a, b, c, e]`. `merge` says whether a
/// scalar video instruction writes a part of `d` (three sources, no secondary operation); only
/// then does its `d` take the selector its row names.
pub fn selector_rules(opcode: Opcode, merge: bool) -> [SelRule; 5] {
    let mut out = [SelRule::None; 5];
    for (p, o) in opcode.operands().iter().enumerate().take(5) {
        out[p] = o.sel;
    }
    if opcode.family() == Family::ScalarVideo && !merge {
        out[0] = SelRule::None;
    }
    out
}

/// Whether an immediate may stand in source position `i` (0 = `a`), and the range its value
/// must lie in when limited. Packed `.u16x2`/`.s16x2` forms take no immediate anywhere.
pub fn immediate_rule(opcode: Opcode, form: &Form, i: usize) -> Option<Option<(i64, i64)>> {
    if matches!(form.types[0], Some(Type::U16x2 | Type::S16x2)) {
        return None;
    }
    opcode.source(i).map_or(Some(None), |o| o.imm.as_option())
}

/// Number of sources accepted: scalar video takes 2 or 3 (3 with a secondary operation or a
/// destination part), the others a fixed count.
pub fn source_counts(opcode: Opcode) -> (usize, usize) {
    let ops = opcode.operands();
    (ops.required_sources(), ops.srcs.len())
}

#[cfg(test)]
mod tests;
