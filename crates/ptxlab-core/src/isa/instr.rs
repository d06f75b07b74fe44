//! One index of every instruction ptxlab reads: the 47 video and integer arithmetic opcodes of
//! [`OPCODES`] and the program instructions of [`OP_ROWS`](super::OP_ROWS), the two parts of
//! the one table [`ROWS`], whose row [`Instr::row`] finds. Whatever asks about an instruction by
//! name (the checker's dispatch, its suggestions for a misspelt name, the family list, Learn,
//! `ptxlab explain`) asks here, so both tables are one list to it.
//!
//! ```
//! use ptxlab_core::isa::{Family, Gpu, Instr};
//!
//! let setp = Instr::of_words("setp", &["lt", "s32"]).unwrap();
//! assert_eq!((setp.name(), setp.family()), ("setp", Family::Compare));
//! // A modifier can name a row of its own: add.cc is the carry chain's, not add's.
//! assert_eq!(Instr::of_words("add", &["cc", "u32"]).unwrap().name(), "add.cc");
//! assert_eq!(Instr::of_words("add", &["u32"]).unwrap().measured(), Some(Gpu::H100));
//! assert!(Instr::all().count() > 60);
//! ```

use super::{Family, Gpu, Opcode, POp, Row, Syntax, OPCODES, ROWS};

/// Any instruction: a row of either table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instr {
    /// A row of [`OPCODES`].
    Table(Opcode),
    /// A row of [`OP_ROWS`](super::OP_ROWS).
    Program(POp),
}

impl Instr {
    /// Every instruction: the table's rows in their order, then the program rows.
    pub fn all() -> impl Iterator<Item = Instr> + Clone {
        ROWS.iter().map(|r| r.instr)
    }
    /// The instruction named by an opcode word and the modifiers written after it: `add.cc`
    /// and `cvt.pack` are rows of their own ([`POp::of_statement`]); `None` for a word no row
    /// has. The checker reads a text's words with its one reader of text, which also knows
    /// which words must follow the opcode directly (`cvt.pack`), and asks here.
    pub fn of_words(word: &str, mods: &[&str]) -> Option<Instr> {
        POp::of_statement(word, mods)
            .map(Instr::Program)
            .or_else(|| Opcode::from_name(word).map(Instr::Table))
    }
    /// Its row, of whichever table holds it: everything below reads it.
    pub fn row(self) -> &'static Row {
        // Each half of the table is generated in declaration order, so the discriminants
        // index it (`isa::tests` checks that every row sits where its index says).
        &ROWS[self.index()]
    }
    /// Its place in [`ROWS`]: the table's opcodes first, then the program rows.
    pub fn index(self) -> usize {
        match self {
            Instr::Table(o) => o as usize,
            Instr::Program(p) => OPCODES.len() + p as usize,
        }
    }
    /// Its name as written: `vadd`, `add.cc`.
    pub fn name(self) -> &'static str {
        self.row().name
    }
    /// Its family.
    pub fn family(self) -> Family {
        self.row().family
    }
    /// The GPU its values were measured on.
    pub fn measured(self) -> Option<Gpu> {
        self.row().measured
    }
    /// What it computes, in a sentence of our own.
    pub fn summary(self) -> &'static str {
        self.row().summary
    }
    /// A text ptxas accepts: the starting point when the pickers switch to it.
    pub fn example(self) -> &'static str {
        self.row().example
    }
    /// What ptxas accepts of it: its type slots, its modifiers and what they need, one
    /// [`Syntax`] for a row of either table.
    pub fn syntax(self) -> &'static Syntax {
        &self.row().syntax
    }
    /// Link to its section of NVIDIA's PTX documentation.
    pub fn doc_url(self) -> String {
        self.row().doc_url()
    }
}

/// Written as its name (`"vadd"`, `"add.cc"`), as a row is shown.
impl serde::Serialize for Instr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Read from its name, as [`Instr`]'s `Serialize` writes it.
impl<'de> serde::Deserialize<'de> for Instr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Instr, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Instr::all()
            .find(|i| i.name() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("no instruction is named '{name}'")))
    }
}

/// The names to suggest for an unknown opcode word: every instruction whose name starts with
/// the word's first three letters, or every name when none does.
pub fn suggest(word: &str) -> Vec<&'static str> {
    suggest_among(word, Instr::all().map(Instr::name))
}

/// [`suggest`] among `names` (the table parser offers the table's names alone).
pub fn suggest_among(
    word: &str,
    names: impl Iterator<Item = &'static str> + Clone,
) -> Vec<&'static str> {
    let stem: String = word.to_ascii_lowercase().chars().take(3).collect();
    let near: Vec<&'static str> = names
        .clone()
        .filter(|n| !stem.is_empty() && n.starts_with(&stem))
        .collect();
    if near.is_empty() {
        names.collect()
    } else {
        near
    }
}
