//! Starting values and explanations: the text shown when the page opens, and the notes on each
//! modifier and selector form, which live in the core ([`ptxlab_core::notes`]) with their
//! worked examples. The example of each opcode (used when the pickers switch
//! to an opcode whose modifiers do not carry over) is part of its row in the core
//! ([`ptxlab_core::Opcode::example`]).

use ptxlab_core::ast::Mod;
use ptxlab_core::notes::{self, Note};
use ptxlab_core::{Instruction, Opcode};

/// The instruction shown when the page opens.
pub const DEFAULT_TEXT: &str = "vadd.s32.u32.s32.sat d, a.b0, b.h0;";
/// Source values shown when the page opens.
pub const DEFAULT_VALUES: [u64; 4] = [0x2808_cf1b, 0x0000_0024, 0x0000_0000, 0x0000_0000];

/// What a modifier does on this opcode, for the Learn panel: the core's note
/// ([`ptxlab_core::notes::modifier`]), whose example the core evaluates when it is shown.
pub fn explain_mod(op: Opcode, m: Mod) -> Note {
    notes::modifier(op, m)
}

/// The note on selectors for this instruction's form (SIMD `.add` and `vmad` have their own),
/// shown when the instruction has any; `None` for the integer instructions.
pub fn explain_selectors(insn: &Instruction) -> Option<Note> {
    notes::selectors(insn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::OPCODES;

    #[test]
    fn default_text_checks() {
        assert!(ptxlab_core::check(DEFAULT_TEXT).is_ok());
    }

    #[test]
    fn every_modifier_has_a_note() {
        for info in OPCODES {
            for m in Mod::ALL {
                assert!(!explain_mod(info.opcode, m).text.is_empty());
            }
        }
    }
}
