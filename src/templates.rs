//! Starting values: the text shown when the page opens. The notes on each modifier and
//! selector form, which the Learn panel shows, live in the core ([`ptxlab_core::notes`]) with
//! their worked examples; the example of each opcode (used when the pickers switch to an
//! opcode whose modifiers do not carry over) is part of its row in the core
//! ([`ptxlab_core::Opcode::example`]).

/// The instruction shown when the page opens.
pub const DEFAULT_TEXT: &str = "vadd.s32.u32.s32.sat d, a.b0, b.h0;";
/// Source values shown when the page opens.
pub const DEFAULT_VALUES: [u64; 4] = [0x2808_cf1b, 0x0000_0024, 0x0000_0000, 0x0000_0000];

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::ast::Mod;
    use ptxlab_core::{notes, Opcode};

    #[test]
    fn default_text_checks() {
        assert!(ptxlab_core::check(DEFAULT_TEXT).is_ok());
    }

    #[test]
    fn every_modifier_has_a_note() {
        for &opcode in Opcode::ALL {
            for m in Mod::ALL {
                assert!(!notes::modifier(opcode, m).text.is_empty());
            }
        }
    }
}
