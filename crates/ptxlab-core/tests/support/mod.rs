pub mod intrinsic_inputs;
pub mod isa_text;
