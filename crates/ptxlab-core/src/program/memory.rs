//! What a kernel's thread reads and writes besides registers: a sparse byte memory per state
//! space, the instructions that move bytes (`ld`, `st`, `cvta`), and their addresses.
//!
//! Memory is little-endian bytes, as on the GPU; a byte never written reads as 0. The shared,
//! local, const and param spaces are each their own bytes. A kernel's parameters live in the
//! param space, one after another at their natural alignment, named by the `.param`
//! declarations.
//!
//! A generic address (an `ld`/`st` that names no space) is a global one, except in the window
//! of each other space ([`Space::window`]: 4 GiB from ptxlab's own base addresses, not the
//! GPU's), where it names that space's byte at the offset into the window. `cvta.shared` adds
//! the window's base to a shared address and `cvta.to.shared` takes it away; `cvta.global` and
//! `cvta.to.global` leave an address as it is. So `ld [%rd1]` and `ld.global [%rd1]` read the
//! same byte, and so do `ld.shared [%r1]` and `ld [%rd2]` after `cvta.shared.u64 %rd2, %rd1`.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::isa::Type;

/// A state space that `ld` and `st` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    /// Global memory; also the generic space (no space named).
    Global,
    /// Shared memory of the block.
    Shared,
    /// The thread's local memory.
    Local,
    /// Constant memory (read only).
    Const,
    /// Kernel parameters (and a function's parameters).
    Param,
}

impl Space {
    /// Every space, in the order memory is listed.
    pub const ALL: [Space; 5] = [
        Space::Global,
        Space::Shared,
        Space::Local,
        Space::Const,
        Space::Param,
    ];
    /// The PTX name, without the dot.
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Param => "param",
        }
    }
    /// The space a PTX name stands for.
    pub fn from_name(s: &str) -> Option<Space> {
        Space::ALL.into_iter().find(|x| x.name() == s)
    }
    /// Where the space's window of generic addresses starts (0 for global, whose addresses are
    /// the generic ones). The bases are ptxlab's own: a program that prints a generic address
    /// of shared memory sees a different number on a GPU.
    pub fn window(self) -> u64 {
        match self {
            Space::Global => 0,
            Space::Shared => 0x7000_0000_0000,
            Space::Local => 0x7100_0000_0000,
            Space::Const => 0x7200_0000_0000,
            Space::Param => 0x7300_0000_0000,
        }
    }
    /// The space and address a generic address names: the space whose 4 GiB window holds it,
    /// else global.
    pub fn of_generic(address: u64) -> (Space, u64) {
        for s in [Space::Shared, Space::Local, Space::Const, Space::Param] {
            let off = address.wrapping_sub(s.window());
            if off < 1 << 32 {
                return (s, off);
            }
        }
        (Space::Global, address)
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A run of bytes at an address of a space, in address order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bytes {
    /// The space.
    pub space: Space,
    /// The first byte's address.
    pub address: u64,
    /// The bytes, lowest address first.
    pub bytes: Vec<u8>,
}

impl Bytes {
    /// The bytes as a hex string, two digits a byte, lowest address first.
    pub fn hex(&self) -> String {
        self.bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Read `ADDR=HEXBYTES` or `SPACE:ADDR=HEXBYTES` (global when no space is named): the bytes
/// lowest address first, two hex digits each (`--mem 0x2000=04030201` puts 0x04 at 0x2000).
pub fn parse_fill(text: &str) -> Result<Bytes, String> {
    let (place, hex) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not ADDR=HEXBYTES (e.g. 0x2000=04030201)"))?;
    let (space, addr) = match place.split_once(':') {
        Some((s, a)) => (
            Space::from_name(s.trim_start_matches('.')).ok_or_else(|| {
                format!("'{s}' is not a state space: global, shared, local, const or param")
            })?,
            a,
        ),
        None => (Space::Global, place),
    };
    let address =
        crate::value::parse_value(addr, 64, None).map_err(|e| format!("address '{addr}': {e}"))?;
    let hex: String = hex
        .trim_start_matches("0x")
        .chars()
        .filter(|c| *c != '_' && *c != ' ')
        .collect();
    if hex.is_empty() || !hex.len().is_multiple_of(2) {
        return Err(format!(
            "'{hex}': write the bytes as pairs of hex digits, lowest address first (04030201)"
        ));
    }
    if hex.len() > 2 << 20 {
        return Err("at most 1 MiB of bytes at once".into());
    }
    let bytes = (0..hex.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&hex[k..k + 2], 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| format!("'{hex}' has a character that is not a hex digit"))?;
    if address.checked_add(bytes.len() as u64 - 1).is_none() {
        return Err(format!(
            "{} bytes at 0x{address:x} run past the last address",
            bytes.len()
        ));
    }
    Ok(Bytes {
        space,
        address,
        bytes,
    })
}

/// Read several `[SPACE:]ADDR=HEXBYTES` items separated by spaces, commas, semicolons or line
/// breaks (the Program view's *Memory* field, the JS module's `memory`): every item, or the
/// first item that does not read with its problem.
pub fn parse_fills(text: &str) -> Result<Vec<Bytes>, (&str, String)> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|t| !t.is_empty())
        .map(|t| parse_fill(t).map_err(|e| (t, e)))
        .collect()
}

/// Bytes as two hex digits each, separated by spaces, lowest address first (`04 03 02 01`).
pub fn spaced_hex(bytes: &[u8]) -> String {
    let v: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    v.join(" ")
}

/// One byte of memory and what happened to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Cell {
    value: u8,
    written: bool,
    read: bool,
}

/// A thread's memory: the bytes of every space, and which were read and written (one map, so
/// the wasm build carries one instance of it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    cells: BTreeMap<(Space, u64), Cell>,
}

impl Memory {
    /// Put bytes in place (before a run: not counted as written).
    pub fn fill(&mut self, b: &Bytes) {
        for (k, v) in b.bytes.iter().enumerate() {
            self.cells
                .entry((b.space, b.address.wrapping_add(k as u64)))
                .or_default()
                .value = *v;
        }
    }
    /// One byte (0 where nothing was put).
    pub fn byte(&self, space: Space, addr: u64) -> u8 {
        self.cells.get(&(space, addr)).map_or(0, |c| c.value)
    }
    /// `n` bytes (at most 8) at `addr` as a little-endian number, marked as read.
    pub fn load(&mut self, space: Space, addr: u64, n: u32) -> u64 {
        let mut v = 0u64;
        for k in (0..n as u64).rev() {
            let c = self.cells.entry((space, addr.wrapping_add(k))).or_default();
            c.read = true;
            v = (v << 8) | c.value as u64;
        }
        v
    }
    /// Write the low `n` bytes (at most 8) of `v` at `addr`; gives the bytes that were there.
    pub fn store(&mut self, space: Space, addr: u64, n: u32, v: u64) -> Vec<u8> {
        let mut old = Vec::with_capacity(n as usize);
        for k in 0..n as u64 {
            let c = self.cells.entry((space, addr.wrapping_add(k))).or_default();
            old.push(c.value);
            c.value = (v >> (8 * k)) as u8;
            c.written = true;
        }
        old
    }
    /// Put back bytes a store replaced (stepping back).
    pub(super) fn restore(&mut self, space: Space, addr: u64, old: &[u8]) {
        for (k, b) in old.iter().enumerate() {
            self.cells
                .entry((space, addr.wrapping_add(k as u64)))
                .or_default()
                .value = *b;
        }
    }
    /// Forget which bytes were read and written.
    pub(super) fn clear_marks(&mut self) {
        for c in self.cells.values_mut() {
            c.written = false;
            c.read = false;
        }
    }
    /// Mark `n` bytes at `addr` as written (`store`) or read.
    pub(super) fn mark(&mut self, space: Space, addr: u64, n: usize, store: bool) {
        for k in 0..n as u64 {
            let c = self.cells.entry((space, addr.wrapping_add(k))).or_default();
            if store {
                c.written = true;
            } else {
                c.read = true;
            }
        }
    }
    /// Every run of bytes written, in space and address order, with the values they hold now.
    pub fn written(&self) -> Vec<Bytes> {
        self.runs(true)
    }
    /// Every run of bytes read, with the values they hold now.
    pub fn read(&self) -> Vec<Bytes> {
        self.runs(false)
    }
    fn runs(&self, written: bool) -> Vec<Bytes> {
        let mut out: Vec<Bytes> = Vec::new();
        for (&(space, a), c) in &self.cells {
            if (written && !c.written) || (!written && !c.read) {
                continue;
            }
            match out.last_mut() {
                Some(r)
                    if r.space == space
                        && r.address.wrapping_add(r.bytes.len() as u64) == a
                        && a != 0 =>
                {
                    r.bytes.push(c.value)
                }
                _ => out.push(Bytes {
                    space,
                    address: a,
                    bytes: vec![c.value],
                }),
            }
        }
        out
    }
}

/// Where an `ld` or `st` reads or writes: a register, a parameter's name or a number, plus
/// an offset in bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Base {
    /// `[%rd1]`: the address the register holds.
    Reg(String),
    /// `[name]`: the param-space address of a parameter.
    Param(String),
    /// `[0x1000]`: a number (ptxas takes one for `.local` only).
    Abs(u64),
    /// `[ktab]`: a variable's address.
    Var(String),
}

/// `[base+offset]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Address {
    /// What the address starts from.
    pub base: Base,
    /// Bytes added (may be negative).
    pub offset: i64,
}

/// A value an `st` stores, or a place an `ld` loads into.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    /// A register.
    Reg(String),
    /// A number written in the text (`st` only).
    Imm(u64),
    /// `_`: nothing (`ld` only).
    Sink,
}

/// An `ld` or `st`: `ld.global.v2.u32 {%r1, %r2}, [%rd1+8];`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    /// `st` (true) or `ld`.
    pub store: bool,
    /// The space named (global when none is).
    pub space: Space,
    /// Whether the text named no space (a generic address).
    pub generic: bool,
    /// Width of one element in bits (8, 16, 32 or 64).
    pub bits: u32,
    /// A signed type (`.s8`...): a load extends by sign into a wider register.
    pub signed: bool,
    /// The registers loaded or the values stored: one, or 2 or 4 for `.v2`/`.v4`.
    pub slots: Vec<Slot>,
    /// Where.
    pub address: Address,
}

/// A `cvta`: a generic address to a space's (`.to`) or back: the space's window base taken
/// away or added ([`Space::window`]; global addresses stay as they are).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cvta {
    /// The space converted to or from.
    #[serde(default = "global")]
    pub space: Space,
    /// `.to`: from a generic address to the space's.
    #[serde(default)]
    pub to: bool,
    /// The register written.
    pub dst: String,
    /// The address read: a register, or a number.
    pub src: Slot,
    /// `.u32` or `.u64`.
    pub bits: u32,
}

fn global() -> Space {
    Space::Global
}

/// Modifiers of `ld`/`st` that change nothing a single thread sees (ordering, scope, cache
/// hints and eviction priority), as ptxas takes them: `Some(kind)` for one the instruction
/// (`store` or not) takes, `kind` being "order", "scope" or "hint".
fn ignored_modifier(m: &str, store: bool) -> Option<&'static str> {
    match m {
        "weak" | "volatile" | "relaxed" | "mmio" => Some("order"),
        "acquire" if !store => Some("order"),
        "release" if store => Some("order"),
        "cta" | "cluster" | "gpu" | "sys" => Some("scope"),
        "cg" | "cs" => Some("hint"),
        "ca" | "lu" | "cv" | "nc" if !store => Some("hint"),
        "wb" | "wt" if store => Some("hint"),
        _ if m.starts_with("L1::") => Some("hint"),
        _ if m.starts_with("L2::") && !store => Some("hint"),
        _ => None,
    }
}

/// Split `ld.global.v2.u32` after the opcode into its modifiers, keeping `L2::64B` whole.
fn modifiers(word: &str) -> Vec<&str> {
    word.split('.').skip(1).collect()
}

/// The operands of an instruction, split at top-level commas (`{%r1, %r2}` stays one).
fn operands(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (k, c) in text.char_indices() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..k].trim());
                start = k + 1;
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    out
}

fn number(s: &str) -> Option<u64> {
    crate::constexpr::eval(s).ok().map(|v| v as u64)
}

/// The names an address may start from besides registers: the kernel's parameters and the
/// variables declared so far, each with its space.
#[derive(Clone, Copy, Debug, Default)]
pub struct Names<'a> {
    /// The parameters' names.
    pub params: &'a [&'a str],
    /// The variables' names and spaces.
    pub vars: &'a [(&'a str, Space)],
}

/// Read `[base]`, `[base+8]`, `[base+-8]` or `[0x1000]` (a `-` after the base is refused, as
/// ptxas does: write `+-8`).
fn address(text: &str, names: Names) -> Result<Address, String> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| format!("'{text}' is not an address: write [%rd1], [%rd1+8] or [name]"))?
        .trim();
    if inner.is_empty() {
        return Err("the address [] is empty".into());
    }
    // The base ends at the first + or - after its first character.
    let cut = inner
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '+' || c == '-')
        .map(|(k, _)| k);
    let (base, off) = match cut {
        Some(k) => (inner[..k].trim(), inner[k..].trim()),
        None => (inner, ""),
    };
    let offset = if off.is_empty() {
        0
    } else {
        let Some(o) = off.strip_prefix('+').map(str::trim) else {
            return Err(format!(
                "'{text}': an offset follows a +, a negative one as +-8 ([%rd1+-8])"
            ));
        };
        crate::constexpr::eval(o).map_err(|_| {
            format!("'{off}' in '{text}' is not an offset: write a number, e.g. [%rd1+8]")
        })?
    };
    let base = if let Some(v) = number(base) {
        Base::Abs(v)
    } else if names.params.contains(&base) {
        Base::Param(base.to_string())
    } else if names.vars.iter().any(|(n, _)| *n == base) {
        Base::Var(base.to_string())
    } else if super::is_reg_name(base) {
        Base::Reg(base.to_string())
    } else {
        return Err(format!(
            "'{base}' in '{text}' is not a register, a parameter or a number"
        ));
    };
    Ok(Address { base, offset })
}

fn slot(s: &str, store: bool) -> Result<Slot, String> {
    if s == "_" && !store {
        return Ok(Slot::Sink);
    }
    if store {
        if let Some(v) = number(s) {
            return Ok(Slot::Imm(v));
        }
    }
    if super::is_reg_name(s) {
        Ok(Slot::Reg(s.to_string()))
    } else {
        Err(format!(
            "'{s}' is not a register{}",
            if store { " or a number" } else { " or _" }
        ))
    }
}

/// Read an `ld`/`ldu` or `st` (the text without its guard and `;`), with the rules ptxas 13.5
/// applies for sm_90 (`tests/data/ptxas-kernels.jsonl`): vectors of 2, 4 or 8 elements of at
/// most 128 bits in all, ordering and scope together, the cache hints of each, the address's
/// space the instruction's, a number as an address only for `.local`, no `st` to a kernel's
/// parameters.
pub fn parse_access(text: &str, names: Names) -> Result<Access, String> {
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let store = word.starts_with("st");
    let mut space = None;
    let mut vec = 1usize;
    let mut ty = None;
    let (mut order, mut scope) = (None, None);
    for m in modifiers(word) {
        if let Some(s) = Space::from_name(m) {
            if space.replace(s).is_some() {
                return Err(format!("'{word}' names two state spaces"));
            }
        } else if let Some(n) = m.strip_prefix('v').and_then(|n| n.parse::<usize>().ok()) {
            if !matches!(n, 2 | 4 | 8) {
                return Err(format!(".v{n}: vectors are .v2, .v4 or .v8"));
            }
            vec = n;
        } else if let Some(t) = Type::from_name(m) {
            if matches!(t, Type::Pred | Type::U16x2 | Type::S16x2) {
                return Err(format!(
                    ".{m}: {} moves integer and bit types (.b8 .u16 .s32 .b64 ...)",
                    &word[..2]
                ));
            }
            if t == Type::B128 {
                return Err(".b128 is not modelled: use .v2.b64".into());
            }
            if ty.replace(t).is_some() {
                return Err(format!("'{word}' names two types"));
            }
        } else if let Some(kind) = ignored_modifier(m, store) {
            match kind {
                "order" if m != "weak" && m != "volatile" && m != "mmio" => order = Some(m),
                "scope" => scope = Some(m),
                _ => {}
            }
        } else {
            return Err(format!(
                "'.{m}' is not a modifier of {}: spaces .global .shared .local .const .param, .v2 .v4 .v8, a type, ordering with a scope (.relaxed.gpu, .{}.gpu), .volatile, and cache hints ({})",
                &word[..word.find('.').unwrap_or(word.len())],
                if store { "release" } else { "acquire" },
                if store { ".wb .cg .cs .wt" } else { ".ca .cg .cs .lu .cv .nc" }
            ));
        }
    }
    match (order, scope) {
        (Some(o), None) => {
            return Err(format!(
                ".{o} needs a scope: .{o}.gpu (or .cta .cluster .sys)"
            ))
        }
        (None, Some(sc)) => {
            return Err(format!(
                ".{sc} needs an ordering: .relaxed.{sc} or .{}.{sc}",
                if store { "release" } else { "acquire" }
            ))
        }
        _ => {}
    }
    let ty = ty.ok_or_else(|| format!("'{word}' names no type: e.g. {word}.u32"))?;
    if vec as u32 * ty.bits() > 128 {
        return Err(format!(
            ".v{vec}.{}: at most 128 bits move at once on sm_90",
            ty.name()
        ));
    }
    if space == Some(Space::Const) && store {
        return Err("st.const: constant memory is read only".into());
    }
    let ops = operands(rest);
    if ops.len() != 2 {
        return Err(format!(
            "{} takes two operands: {}",
            if store { "st" } else { "ld" },
            if store {
                "[address], value"
            } else {
                "destination, [address]"
            }
        ));
    }
    let (place, val) = if store {
        (ops[0], ops[1])
    } else {
        (ops[1], ops[0])
    };
    let address = address(place, names)?;
    let space_named = space.unwrap_or(Space::Global);
    match &address.base {
        Base::Abs(_) if space != Some(Space::Local) => {
            return Err(format!(
                "'{place}': a number as an address is taken for .local only; load from a register or a variable"
            ))
        }
        Base::Param(p) if space != Some(Space::Param) => {
            return Err(format!("'{p}' is a parameter: read it with ld.param"))
        }
        Base::Param(p) if store => {
            return Err(format!(
                "st.param: {p} is an input parameter of the kernel, which cannot be written"
            ))
        }
        Base::Var(v) => {
            let vs = names
                .vars
                .iter()
                .find(|(n, _)| n == v)
                .map_or(Space::Global, |x| x.1);
            if vs != space_named {
                return Err(format!(
                    "'{v}' is a .{vs} variable: read it with {}.{vs}",
                    if store { "st" } else { "ld" }
                ));
            }
        }
        _ => {}
    }
    let slots: Vec<Slot> = if vec > 1 {
        let inner = val
            .strip_prefix('{')
            .and_then(|v| v.strip_suffix('}'))
            .ok_or_else(|| format!(".v{vec} takes a vector of {vec} registers: {{%r1, %r2...}}"))?;
        let parts = operands(inner);
        if parts.len() != vec {
            return Err(format!(
                ".v{vec} takes {vec} registers, not {}",
                parts.len()
            ));
        }
        parts
            .into_iter()
            .map(|p| slot(p, store))
            .collect::<Result<_, _>>()?
    } else {
        let one = slot(val, store)?;
        if one == Slot::Sink {
            return Err("ld needs a destination: _ stands only for an element of a vector".into());
        }
        vec![one]
    };
    let bits = ty.bits();
    Ok(Access {
        store,
        generic: space.is_none(),
        space: space.unwrap_or(Space::Global),
        bits,
        signed: ty.is_signed(),
        slots,
        address,
    })
}

/// Read a `cvta` (the text without guard and `;`).
pub fn parse_cvta(text: &str) -> Result<Cvta, String> {
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let ms = modifiers(word);
    let mut bits = None;
    let mut space = None;
    for m in &ms {
        match *m {
            "to" => {}
            "u32" => {
                return Err(
                    "cvta.u32: addresses are 64 bits here (.address_size 64): use .u64".into(),
                )
            }
            "u64" => bits = Some(64),
            s => match Space::from_name(s) {
                Some(sp) => space = Some(sp),
                None => return Err(format!("'.{s}' is not a modifier of cvta")),
            },
        }
    }
    let Some(space) = space else {
        return Err("cvta names a space: cvta.to.global.u64 d, a".into());
    };
    let bits = bits.ok_or("cvta names a size: .u32 or .u64")?;
    let ops = operands(rest);
    if ops.len() != 2 {
        return Err("cvta takes two operands: d, a".into());
    }
    if !super::is_reg_name(ops[0]) {
        return Err(format!("'{}' is not a register", ops[0]));
    }
    if ms.contains(&"to") && !super::is_reg_name(ops[1]) {
        return Err(format!(
            "cvta.to reads a register, not '{}': write cvta.{}.u64 for a variable",
            ops[1],
            space.name()
        ));
    }
    Ok(Cvta {
        space,
        to: ms.contains(&"to"),
        dst: ops[0].to_string(),
        src: slot(ops[1], true)?,
        bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_and_stores_read_like_nvcc_writes_them() {
        let a = parse_access("ld.global.nc.v2.u32 {%r1, _}, [%rd4+-8]", Names::default()).unwrap();
        assert!(!a.store && a.space == Space::Global && a.bits == 32);
        assert_eq!(a.slots, [Slot::Reg("%r1".into()), Slot::Sink]);
        assert_eq!(a.address.offset, -8);
        let a = parse_access(
            "ld.param.u64 %rd3, [k_param_0+8]",
            Names {
                params: &["k_param_0"],
                vars: &[],
            },
        )
        .unwrap();
        assert_eq!(a.address.base, Base::Param("k_param_0".into()));
        assert_eq!(a.address.offset, 8);
        let a = parse_access("st.local.u8 [0x100], 7", Names::default()).unwrap();
        assert!(a.store && !a.generic && a.slots == [Slot::Imm(7)]);
        assert_eq!(a.address.base, Base::Abs(0x100));
        for (bad, words) in [
            ("ld.global.u32 %r1", "two operands"),
            ("ld.global.q.u32 %r1, [%rd1]", "'.q'"),
            ("st.const.u32 [%rd1], %r1", "read only"),
            ("ld.global.v4.u32 {%r1, %r2}, [%rd1]", "takes 4"),
            ("ld.global %r1, [%rd1]", "no type"),
            ("ld.global.u32 %r1, [1x]", "not a register"),
        ] {
            let e = parse_access(bad, Names::default()).unwrap_err();
            assert!(e.contains(words), "{bad}: {e}");
        }
    }

    #[test]
    fn memory_is_little_endian_and_lists_what_was_written() {
        let mut m = Memory::default();
        m.fill(&parse_fill("0x2000=04030201").unwrap());
        assert_eq!(m.load(Space::Global, 0x2000, 4), 0x0102_0304);
        assert_eq!(
            m.load(Space::Shared, 0x2000, 4),
            0,
            "each space has its own bytes"
        );
        m.store(Space::Global, 0x10, 2, 0xbeef);
        m.store(Space::Global, 0x12, 1, 0x01);
        let w = m.written();
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].address, w[0].hex()), (0x10, "efbe01".to_string()));
        assert!(parse_fill("0x10=123").is_err());
        assert!(parse_fill("nowhere:0x10=12")
            .unwrap_err()
            .contains("state space"));
        assert_eq!(parse_fill("shared:16=ff").unwrap().space, Space::Shared);
        let all = parse_fills("0x10=0102, shared:4=ff\n").unwrap();
        assert_eq!((all.len(), all[1].space), (2, Space::Shared));
        assert_eq!(parse_fills("0x10=01 0x20=0g").unwrap_err().0, "0x20=0g");
        assert_eq!(spaced_hex(&all[0].bytes), "01 02");
    }
}
