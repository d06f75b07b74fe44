pub mod isa_text;
