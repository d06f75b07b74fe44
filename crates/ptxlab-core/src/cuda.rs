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

use crate::ast::{Instruction, OperandKind, SOURCE_NAMES};
use crate::eval::widths;

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

/// The `asm(...)` statement for an instruction, using C variables named `d`, `a`, `b`, `c`, `e`.
pub fn asm_statement(insn: &Instruction) -> String {
    let w = widths(insn);
    let mut text = String::from(insn.opcode.name());
    for m in insn.canonical_mods() {
        text.push('.');
        text.push_str(m.name());
    }
    text.push_str(" %0");
    if let Some(s) = &insn.dst.sel {
        text.push_str(&s.to_string());
    }
    let mut inputs = Vec::new();
    for (i, o) in insn.srcs.iter().enumerate() {
        text.push_str(", ");
        if o.neg {
            text.push('-');
        }
        match &o.kind {
            OperandKind::Reg(_) => {
                let name = SOURCE_NAMES.get(i).copied().unwrap_or("x");
                let bits = w.src.get(i).copied().unwrap_or(32);
                text.push_str(&format!("%{}", inputs.len() + 1));
                inputs.push(format!("\"{}\"({name})", constraint(bits)));
            }
            OperandKind::Imm(v) => text.push_str(&v.to_string()),
        }
        if let Some(s) = &o.sel {
            text.push_str(&s.to_string());
        }
    }
    text.push(';');
    format!(
        "asm(\"{text}\" : \"={}\"(d) : {});",
        constraint(w.dst),
        inputs.join(", ")
    )
}

/// Declarations of the C variables the statement uses, with types as wide as the operands.
pub fn declarations(insn: &Instruction) -> String {
    let w = widths(insn);
    let mut s = format!("{} d;", c_type(w.dst));
    for (i, o) in insn.srcs.iter().enumerate() {
        if matches!(o.kind, OperandKind::Reg(_)) {
            let name = SOURCE_NAMES.get(i).copied().unwrap_or("x");
            s.push_str(&format!(
                " {} {name};",
                c_type(w.src.get(i).copied().unwrap_or(32))
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

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
}
