//! Throws random instruction texts and values at the parser, validator and evaluator for a
//! given time and reports how many inputs were tried: `cargo run --release --example soak -- 600`.

use std::panic;
use std::time::{Duration, Instant};

use ptxlab_core::gen::{instruction, Rng};
use ptxlab_core::{evaluate, evaluate_traced, parse, validate, Inputs};

fn main() {
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let seed: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut r = Rng::new(seed);
    let end = Instant::now() + Duration::from_secs(secs);
    let (mut tried, mut parsed, mut valid) = (0u64, 0u64, 0u64);
    while Instant::now() < end {
        for _ in 0..1000 {
            let text = instruction(&mut r);
            let inputs = Inputs::new(r.value(), r.value(), r.value(), r.value());
            let t2 = text.clone();
            let res = panic::catch_unwind(move || {
                let mut p = false;
                let mut v = false;
                if let Ok(insn) = parse(&t2) {
                    p = true;
                    v = validate(&insn).is_ok();
                    let d = evaluate(&insn, &inputs);
                    let t = evaluate_traced(&insn, &inputs);
                    assert_eq!(t.result.raw() as u64, d);
                }
                (p, v)
            });
            tried += 1;
            match res {
                Ok((p, v)) => {
                    parsed += p as u64;
                    valid += v as u64;
                }
                Err(_) => {
                    eprintln!("PANIC on {text:?} with {inputs:?}");
                    std::process::exit(1);
                }
            }
        }
    }
    println!("{tried} inputs tried in {secs} s: {parsed} parsed, {valid} valid, no panic");
}
