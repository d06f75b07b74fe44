//! "Copy as CUDA": an inline-assembly statement that runs the instruction from CUDA C++.
//!
//! Registers become `%0`, `%1`, ... in the order they appear (the destination first), each with
//! the constraint for its width: `h` for 16 bits, `r` for 32, `l` for 64. Immediates stay in the
//! text. A guard predicate is left out, since it would need a predicate register of its own.
//!
//! ```
//! use ptxlab_core::{check, cuda};
//!
//! let insn = check("vadd4.u32.u32.u32.sat d, a, b, c;").unwrap();
//! assert_eq!(
//!     cuda::asm_statement(&insn),
//!     r#"asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));"#
//! );
//! assert_eq!(cuda::constraint(64), "l");
//! ```

use crate::ast::{Instruction, OperandKind};

/// The constraint letter for a register of `bits` bits.
pub fn constraint(bits: u32) -> &'static str {
    match bits {
        0..=16 => "h",
        17..=32 => "r",
        _ => "l",
    }
}

/// The C++ type that holds a register of `bits` bits.
pub fn c_type(bits: u32) -> &'static str {
    match bits {
        0..=16 => "unsigned short",
        17..=32 => "unsigned int",
        _ => "unsigned long long",
    }
}

/// Declarations of the C variables the statement of an instruction of either kind uses
/// ([`asm_statement`]), each as wide as its operand: the destinations it writes, then the
/// registers it reads. A predicate, and the carry flag (`cf`, `cf_out`), travels as an
/// `unsigned int` (0 or 1).
pub fn insn_declarations(insn: &Instruction) -> String {
    let ty = |bits: u32| if bits == 1 { c_type(32) } else { c_type(bits) };
    let mut parts = Vec::new();
    for k in (0..insn.dst_count()).filter(|&k| insn.dst_written(k)) {
        let name = c_var(insn.dst_name(k), insn.writes_carry(k), "cf_out");
        parts.push(format!("{} {name};", ty(insn.dst_bits(k))));
    }
    for (k, name, bits) in insn.register_sources() {
        let name = c_var(name, insn.reads_carry(k), "cf");
        parts.push(format!("{} {name};", ty(bits)));
    }
    parts.join(" ")
}

/// The C variable of an operand: its role, or `flag` where it is the carry flag.
fn c_var(role: String, carry: bool, flag: &str) -> String {
    if carry {
        flag.to_string()
    } else {
        role
    }
}

/// The C variable of destination `i`: its role, and `cf_out` for the carry flag written.
fn c_dst_name(insn: &Instruction, i: usize) -> String {
    c_var(insn.dst_name(i), insn.writes_carry(i), "cf_out")
}

/// The C variable of source `i`: its role, and `cf` for the carry flag read.
fn c_src_name(insn: &Instruction, i: usize) -> String {
    c_var(insn.src_name(i), insn.reads_carry(i), "cf")
}

/// A CUDA inline-assembly statement that runs an instruction of either table, with C
/// variables named as the roles (`d`, `a`, `b`, `c`, `e`, and `p`, `q` for setp's results;
/// `d0`, `d1`... and `a0`, `a1`... for the parts of a vector), each operand as written
/// (a selector, `vmad`'s `-`; the guard is left out). Predicates cannot be asm operands, so each
/// lives in a `.reg .pred` of its own scope, set from or read into an integer (0 or 1). The
/// carry flag is no operand either: the carry read comes from the integer `cf` through an
/// `add.cc` just before the instruction (the carry of `cf + 0xffffffff` is `cf != 0`), and the
/// carry written goes to `cf_out` through an `addc` just after it (inside one asm statement, so
/// the compiler puts nothing between them).
pub fn asm_statement(insn: &Instruction) -> String {
    let mut outs: Vec<String> = Vec::new();
    let mut ins: Vec<String> = Vec::new();
    let mut preds: Vec<String> = Vec::new();
    let mut temps: Vec<String> = Vec::new();
    let mut pre = String::new();
    let mut post = String::new();
    // Operand numbers: outputs first, then inputs; fixed after both lists are known.
    let dsts = &insn.dsts;
    let dst_names: Vec<String> = (0..dsts.len()).map(|i| insn.dst_name(i)).collect();
    let n_out = dsts.iter().filter(|d| !d.is_sink()).count();
    let mut dst_text = Vec::new();
    for (i, d) in dsts.iter().enumerate() {
        if d.is_sink() {
            dst_text.push("_".to_string());
            continue;
        }
        let k = outs.len();
        let bits = insn.dst_bits(i);
        if insn.writes_carry(i) {
            post.push_str(&format!(" addc.u32 %{k}, 0, 0;"));
            outs.push(format!("\"=r\"({})", c_dst_name(insn, i)));
        } else if bits == 1 {
            let p = format!("p{i}");
            preds.push(p.clone());
            post.push_str(&format!(" selp.u32 %{k}, 1, 0, {p};"));
            outs.push(format!("\"=r\"({})", dst_names[i]));
            dst_text.push(p);
        } else {
            outs.push(format!("\"={}\"({})", constraint(bits), dst_names[i]));
            dst_text.push(format!("%{k}{}", selector(d)));
        }
    }
    let mut src_text = Vec::new();
    for (i, s) in insn.srcs.iter().enumerate() {
        let name = insn.src_name(i);
        let neg = if s.neg { "-" } else { "" };
        match &s.kind {
            OperandKind::Reg(_) => {
                let k = n_out + ins.len();
                let bits = insn.src_bits(i);
                if insn.reads_carry(i) {
                    temps.push("t".into());
                    pre.push_str(&format!(" add.cc.u32 t, %{k}, 0xffffffff;"));
                    ins.push(format!("\"r\"({})", c_src_name(insn, i)));
                } else if bits == 1 {
                    let p = format!("c{i}");
                    preds.push(p.clone());
                    pre.push_str(&format!(" setp.ne.u32 {p}, %{k}, 0;"));
                    ins.push(format!("\"r\"({name})"));
                    src_text.push(format!("{}{p}", if s.not { "!" } else { "" }));
                } else {
                    ins.push(format!("\"{}\"({name})", constraint(bits)));
                    src_text.push(format!("{neg}%{k}{}", selector(s)));
                }
            }
            OperandKind::Imm(v) => src_text.push(v.to_string()),
            OperandKind::Float(f) => src_text.push(f.text()),
            OperandKind::Sink => src_text.push("_".to_string()),
        }
    }
    let text = insn.canonical();
    let head = text.split(' ').find(|w| !w.starts_with('@')).unwrap_or("");
    let (unpack, pack) = insn.braced();
    let d = if unpack {
        format!("{{{}}}", dst_text.join(", "))
    } else {
        dst_text.join("|")
    };
    let a = if pack {
        format!("{{{}}}", src_text.join(", "))
    } else {
        src_text.join(", ")
    };
    let body = format!("{head} {d}, {a};");
    let mut decls = String::new();
    if !preds.is_empty() {
        decls.push_str(&format!(" .reg .pred {};", preds.join(", ")));
    }
    if !temps.is_empty() {
        decls.push_str(&format!(" .reg .u32 {};", temps.join(", ")));
    }
    let text = if decls.is_empty() && pre.is_empty() && post.is_empty() {
        body
    } else {
        format!("{{{decls}{pre} {body}{post} }}")
    };
    format!(
        "asm(\"{text}\" : {} : {});",
        outs.join(", "),
        ins.join(", ")
    )
}

/// The selector written after an operand, if any (`.b0`, `.h10`).
fn selector(o: &crate::ast::Operand) -> String {
    o.sel.map_or(String::new(), |s| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    /// One builder for both tables: `-a, -b` (which cancel) are written as they were, on a
    /// program row as on the table.
    #[test]
    fn cancelling_negations_are_written_on_both_tables() {
        for (text, body) in [
            ("and.b32 d, -a, -b;", "and.b32 %0, -%1, -%2;"),
            ("add.u32 d, -a, -b;", "add.u32 %0, -%1, -%2;"),
        ] {
            let s = asm_statement(&crate::insn::check(text).unwrap());
            assert!(s.contains(body), "{text}: {s}");
        }
    }

    #[test]
    fn simd_statement() {
        let i = parse("vadd4.u32.u32.u32.sat d, a, b, c;").unwrap();
        assert_eq!(
            asm_statement(&i),
            r#"asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));"#
        );
    }

    #[test]
    fn selectors_negation_and_immediates_stay() {
        let i = parse("@p vmad.s32.s32.u32 %r1, -%r2.h1, 7, %r3;").unwrap();
        assert_eq!(
            asm_statement(&i),
            r#"asm("vmad.s32.s32.u32 %0, -%1.h1, 7, %2;" : "=r"(d) : "r"(a), "r"(c));"#
        );
    }

    #[test]
    fn asm_statements() {
        let s = |t: &str| asm_statement(&crate::ops::parse_op(t).unwrap());
        assert_eq!(
            s("lop3.b32 d, a, b, c, 0xca;"),
            r#"asm("lop3.b32 %0, %1, %2, %3, 202;" : "=r"(d) : "r"(a), "r"(b), "r"(c));"#
        );
        assert_eq!(
            s("mov.b32 {lo, hi}, a;"),
            r#"asm("mov.b32 {%0, %1}, %2;" : "=h"(d0), "=h"(d1) : "r"(a));"#
        );
        assert_eq!(
            s("setp.lt.and.s32 p|q, a, b, !c;"),
            r#"asm("{ .reg .pred p0, p1, c2; setp.ne.u32 c2, %4, 0; setp.lt.and.s32 p0|p1, %2, %3, !c2; selp.u32 %0, 1, 0, p0; selp.u32 %1, 1, 0, p1; }" : "=r"(p), "=r"(q) : "r"(a), "r"(b), "r"(c));"#
        );
        let decl = |t: &str| insn_declarations(&crate::insn::check(t).unwrap());
        // A table instruction: d, then each register source as wide as it is read.
        assert_eq!(
            decl("vadd4.u32.u32.u32 d, a, b, c;"),
            "unsigned int d; unsigned int a; unsigned int b; unsigned int c;"
        );
        assert_eq!(
            decl("mul.wide.u16 d, a, b;"),
            "unsigned int d; unsigned short a; unsigned short b;"
        );
        assert_eq!(
            decl("add.u64 d, a, 5;"),
            "unsigned long long d; unsigned long long a;"
        );
        assert_eq!(
            decl("setp.lt.and.s32 p|_, a, b, !c;"),
            "unsigned int p; unsigned int a; unsigned int b; unsigned int c;"
        );
        assert_eq!(
            decl("mov.b32 {lo, hi}, a;"),
            "unsigned short d0; unsigned short d1; unsigned int a;"
        );
        // The carry flag: set from cf before, stored to cf_out after, in one statement.
        assert_eq!(
            s("addc.cc.u32 d, a, b;"),
            r#"asm("{ .reg .u32 t; add.cc.u32 t, %4, 0xffffffff; addc.cc.u32 %0, %2, %3; addc.u32 %1, 0, 0; }" : "=r"(d), "=r"(cf_out) : "r"(a), "r"(b), "r"(cf));"#
        );
        assert_eq!(
            decl("madc.hi.u64 d, a, b, c;"),
            "unsigned long long d; unsigned long long a; unsigned long long b; unsigned long long c; unsigned int cf;"
        );
        assert_eq!(
            s("sub.cc.u32 d, a, b;"),
            r#"asm("{ sub.cc.u32 %0, %2, %3; addc.u32 %1, 0, 0; }" : "=r"(d), "=r"(cf_out) : "r"(a), "r"(b));"#
        );
        assert_eq!(
            s("selp.b64 d, a, 5, c;"),
            r#"asm("{ .reg .pred c2; setp.ne.u32 c2, %2, 0; selp.b64 %0, %1, 5, c2; }" : "=l"(d) : "l"(a), "r"(c));"#
        );
    }
}
