//! Which reading an evaluation follows, chosen by a type: [`Hardware`] (what the H100
//! computes) or [`Text`] (the ISA text's pseudocode taken literally).
//!
//! The evaluators are generic over a [`Semantics`] and a [`crate::trace::Tracer`]. The
//! semantics decides the value at each step where the two readings differ (a compile-time
//! constant, so the hardware path carries no test for the other reading); the tracer only
//! observes. Each difference is written as a pair of pure step functions, one per reading,
//! and [`Semantics::pick`] chooses between them.
//!
//! ```
//! use ptxlab_core::eval::{Hardware, Semantics, Text};
//! use ptxlab_core::Reading;
//!
//! assert_eq!(Hardware::READING, Reading::Hardware);
//! assert!(Text::TEXT);
//! // Each reading picks its own step function; the other is never called.
//! assert_eq!(Hardware::pick(|| "hardware", || unreachable!()), "hardware");
//! ```

use crate::differences::Reading;

/// A reading of the instruction set, as a type.
pub trait Semantics {
    /// The reading this type stands for.
    const READING: Reading;
    /// Whether this is the text's literal reading.
    const TEXT: bool;
    /// The value of a step where the readings differ: `hardware` or `text`, each a pure
    /// function, only one of which runs.
    #[inline(always)]
    fn pick<R>(hardware: impl FnOnce() -> R, text: impl FnOnce() -> R) -> R {
        if Self::TEXT {
            text()
        } else {
            hardware()
        }
    }
}

/// What the H100 computes (the conformance data); the default everywhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hardware;

/// The ISA text's pseudocode followed literally.
#[derive(Clone, Copy, Debug, Default)]
pub struct Text;

impl Semantics for Hardware {
    const READING: Reading = Reading::Hardware;
    const TEXT: bool = false;
}

impl Semantics for Text {
    const READING: Reading = Reading::Text;
    const TEXT: bool = true;
}
