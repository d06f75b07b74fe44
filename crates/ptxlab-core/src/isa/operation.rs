//! What each table opcode computes, by family: the vocabulary of operations. Each row of
//! [`super::OPCODES`] names its operation ([`Opcode::operation`], generated from the rows), and
//! its family is that operation's ([`Operation::family`]).
//!
//! Every evaluator and plan reads its operation from the row and matches on its family's own
//! enum, so no match on an operation ends in a catch-all: an opcode added to the table without
//! an operation does not build, and an operation added to a family does not build until every
//! evaluator and plan of that family handles it.

use super::Family;
#[cfg(doc)]
use super::Opcode;

/// The operation of a table opcode, within its family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// A scalar video instruction (`vadd` ... `vset`).
    Scalar(ScalarOp),
    /// `vmad`.
    Vmad,
    /// A SIMD video instruction on two half-word lanes (`vadd2` ...).
    Simd2(SimdOp),
    /// A SIMD video instruction on four byte lanes (`vadd4` ...).
    Simd4(SimdOp),
    /// An integer arithmetic instruction.
    Int(IntOp),
}

/// The primary operation of a scalar video instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarOp {
    /// `vadd`
    Add,
    /// `vsub`
    Sub,
    /// `vabsdiff`
    Absdiff,
    /// `vmin`
    Min,
    /// `vmax`
    Max,
    /// `vshl`
    Shl,
    /// `vshr`
    Shr,
    /// `vset`: the comparison is the form's `.cmp`.
    Set,
}

/// The lane operation of a SIMD video instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SimdOp {
    /// `vadd2` / `vadd4`
    Add,
    /// `vsub2` / `vsub4`
    Sub,
    /// `vavrg2` / `vavrg4`
    Avrg,
    /// `vabsdiff2` / `vabsdiff4`
    Absdiff,
    /// `vmin2` / `vmin4`
    Min,
    /// `vmax2` / `vmax4`
    Max,
    /// `vset2`/`vset4`: the comparison is the form's `.cmp`.
    Set,
}

/// An integer arithmetic instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntOp {
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `mul`
    Mul,
    /// `mad`
    Mad,
    /// `mul24`
    Mul24,
    /// `mad24`
    Mad24,
    /// `sad`
    Sad,
    /// `div`
    Div,
    /// `rem`
    Rem,
    /// `abs`
    Abs,
    /// `neg`
    Neg,
    /// `min`
    Min,
    /// `max`
    Max,
    /// `popc`
    Popc,
    /// `clz`
    Clz,
    /// `bfind`
    Bfind,
    /// `fns`
    Fns,
    /// `brev`
    Brev,
    /// `bfe`
    Bfe,
    /// `bfi`
    Bfi,
    /// `szext`
    Szext,
    /// `bmsk`
    Bmsk,
    /// `dp4a`
    Dp4a,
    /// `dp2a`
    Dp2a,
}

impl IntOp {
    /// Every integer operation, each at the index of its number (`op as usize`).
    pub const ALL: [IntOp; 24] = [
        IntOp::Add,
        IntOp::Sub,
        IntOp::Mul,
        IntOp::Mad,
        IntOp::Mul24,
        IntOp::Mad24,
        IntOp::Sad,
        IntOp::Div,
        IntOp::Rem,
        IntOp::Abs,
        IntOp::Neg,
        IntOp::Min,
        IntOp::Max,
        IntOp::Popc,
        IntOp::Clz,
        IntOp::Bfind,
        IntOp::Fns,
        IntOp::Brev,
        IntOp::Bfe,
        IntOp::Bfi,
        IntOp::Szext,
        IntOp::Bmsk,
        IntOp::Dp4a,
        IntOp::Dp2a,
    ];
}

impl Operation {
    /// The family an operation of this kind belongs to, and so the family of the rows that
    /// name it.
    pub const fn family(self) -> Family {
        match self {
            Operation::Scalar(_) => Family::ScalarVideo,
            Operation::Vmad => Family::Vmad,
            Operation::Simd2(_) => Family::Simd2,
            Operation::Simd4(_) => Family::Simd4,
            Operation::Int(_) => Family::Integer,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::isa::OPCODES;
    use std::collections::HashSet;

    #[test]
    fn no_two_rows_share_an_operation() {
        let mut seen = HashSet::new();
        for (&opcode, row) in crate::isa::Opcode::ALL.iter().zip(OPCODES) {
            let op = opcode.operation();
            assert!(seen.insert(op), "{} shares its operation {op:?}", row.name);
        }
        assert_eq!(seen.len(), OPCODES.len());
    }
}
