//! What each table opcode computes, by family: the one map from [`Opcode`] to an operation.
//!
//! Every evaluator and plan reads its operation from here and matches on its family's own enum,
//! so no match on an operation ends in a catch-all: an opcode added to the table without an
//! operation does not build ([`Opcode::operation`] is exhaustive), and an operation added to a
//! family does not build until every evaluator and plan of that family handles it.

use super::{Family, Opcode};

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

impl Opcode {
    /// What this opcode computes. Exhaustive: a new opcode needs its line here.
    pub const fn operation(self) -> Operation {
        use Operation::{Int, Scalar, Simd2, Simd4};
        match self {
            Opcode::Vadd => Scalar(ScalarOp::Add),
            Opcode::Vsub => Scalar(ScalarOp::Sub),
            Opcode::Vabsdiff => Scalar(ScalarOp::Absdiff),
            Opcode::Vmin => Scalar(ScalarOp::Min),
            Opcode::Vmax => Scalar(ScalarOp::Max),
            Opcode::Vshl => Scalar(ScalarOp::Shl),
            Opcode::Vshr => Scalar(ScalarOp::Shr),
            Opcode::Vset => Scalar(ScalarOp::Set),
            Opcode::Vmad => Operation::Vmad,
            Opcode::Vadd2 => Simd2(SimdOp::Add),
            Opcode::Vsub2 => Simd2(SimdOp::Sub),
            Opcode::Vavrg2 => Simd2(SimdOp::Avrg),
            Opcode::Vabsdiff2 => Simd2(SimdOp::Absdiff),
            Opcode::Vmin2 => Simd2(SimdOp::Min),
            Opcode::Vmax2 => Simd2(SimdOp::Max),
            Opcode::Vset2 => Simd2(SimdOp::Set),
            Opcode::Vadd4 => Simd4(SimdOp::Add),
            Opcode::Vsub4 => Simd4(SimdOp::Sub),
            Opcode::Vavrg4 => Simd4(SimdOp::Avrg),
            Opcode::Vabsdiff4 => Simd4(SimdOp::Absdiff),
            Opcode::Vmin4 => Simd4(SimdOp::Min),
            Opcode::Vmax4 => Simd4(SimdOp::Max),
            Opcode::Vset4 => Simd4(SimdOp::Set),
            Opcode::Add => Int(IntOp::Add),
            Opcode::Sub => Int(IntOp::Sub),
            Opcode::Mul => Int(IntOp::Mul),
            Opcode::Mad => Int(IntOp::Mad),
            Opcode::Mul24 => Int(IntOp::Mul24),
            Opcode::Mad24 => Int(IntOp::Mad24),
            Opcode::Sad => Int(IntOp::Sad),
            Opcode::Div => Int(IntOp::Div),
            Opcode::Rem => Int(IntOp::Rem),
            Opcode::Abs => Int(IntOp::Abs),
            Opcode::Neg => Int(IntOp::Neg),
            Opcode::Min => Int(IntOp::Min),
            Opcode::Max => Int(IntOp::Max),
            Opcode::Popc => Int(IntOp::Popc),
            Opcode::Clz => Int(IntOp::Clz),
            Opcode::Bfind => Int(IntOp::Bfind),
            Opcode::Fns => Int(IntOp::Fns),
            Opcode::Brev => Int(IntOp::Brev),
            Opcode::Bfe => Int(IntOp::Bfe),
            Opcode::Bfi => Int(IntOp::Bfi),
            Opcode::Szext => Int(IntOp::Szext),
            Opcode::Bmsk => Int(IntOp::Bmsk),
            Opcode::Dp4a => Int(IntOp::Dp4a),
            Opcode::Dp2a => Int(IntOp::Dp2a),
        }
    }
}

impl Operation {
    /// The family an operation of this kind belongs to (the rows say the same, see the tests).
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
    fn every_row_has_an_operation_of_its_family_and_no_two_share_one() {
        let mut seen = HashSet::new();
        for row in OPCODES {
            let op = row.opcode.operation();
            assert_eq!(op.family(), row.family, "{}", row.name);
            assert!(seen.insert(op), "{} shares its operation {op:?}", row.name);
        }
        assert_eq!(seen.len(), OPCODES.len());
    }
}
