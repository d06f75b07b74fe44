//! Every intrinsic's recorded PTX, run as a program by the core's runner, computes its documented
//! meaning.
//!
//! For each intrinsic of [`intrinsics::all`], the PTX that nvcc emitted is parsed by
//! [`parse_program`] and run by [`Machine`] with the arguments in `%a %b %c`, over the inputs of
//! `tests/support/intrinsic_inputs.rs`: every combination of edge values, random values, and for
//! the lane-wise ones every pair of lane values (2^16 byte pairs, each byte replicated in every
//! lane, for the four-lane ones; 2^16 pairs of 256 chosen halfwords for the two-lane ones). `%d`
//! and every bool the intrinsic writes (`%pred`, `%pred_hi`, `%pred_lo`) must equal
//! [`evaluate`]'s result. `scripts/intrinsics_check.py` does the same with an interpreter of its
//! own; this test needs neither Python nor the recorded digests.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ptxlab_core::intrinsics::{self, evaluate, Intrinsic};
use ptxlab_core::program::{Machine, Memo};
use support::intrinsic_inputs::{halfwords, lane_pairs, lanes, word_inputs, Lanes};

/// Halfwords of [`halfwords`] kept for the two-lane pairs: every fourth, and each one next to a
/// boundary (0, 0x100, 0x8000, 0x10000) that every fourth would miss.
fn halfword_sample() -> Vec<bool> {
    let edges = [
        0, 1, 2, 0x1f, 0xff, 0x100, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff,
    ];
    halfwords()
        .iter()
        .enumerate()
        .map(|(k, h)| k % 4 == 0 || edges.contains(h))
        .collect()
}

/// The inputs the program runs on: the edge and random values, and the lane pairs (all of them
/// for four lanes, the sampled halfwords for two).
fn program_inputs(k: usize, i: &Intrinsic, sample: &[bool]) -> Vec<Vec<u64>> {
    let mut out = word_inputs(k, i);
    let two = lanes(i) == Lanes::Two;
    out.extend(
        lane_pairs(i)
            .into_iter()
            .filter(|p| !two || (sample[p.a] && (i.args.len() == 1 || sample[p.b])))
            .map(|p| p.args),
    );
    out
}

/// A running copy of the intrinsic's PTX.
fn machine(i: &Intrinsic) -> Machine {
    let prog = intrinsics::program(i)
        .unwrap_or_else(|e| panic!("{}: the recorded PTX does not parse: {e}", i.name));
    Machine::new(prog, &[]).unwrap_or_else(|e| panic!("{}: cannot start: {e}", i.name))
}

/// Where the program and the meaning part on one input, in words; None where they agree. With
/// `traced` the program runs step by step with its stages as the views and the command line
/// run it, and must end with the values of the quiet run.
fn compare(
    i: &Intrinsic,
    m: &mut Machine,
    memo: &mut Memo,
    args: &[u64],
    traced: bool,
) -> Option<String> {
    let init = intrinsics::starting_registers(i, &m.program, args);
    m.start_with(&init)
        .unwrap_or_else(|e| panic!("{}: cannot start the program: {e}", i.name));
    let end = m.run_quiet(memo);
    if traced {
        m.run();
        let stepped: Vec<u64> = m.registers().iter().map(|r| r.value).collect();
        assert_eq!(
            stepped, end,
            "{}{args:x?}: the quiet and the traced run part",
            i.name
        );
    }
    let at = |name: &str| m.register_index(name).map(|k| end[k]);
    let want = evaluate(i, args).expect("arity");
    let rmask = if i.result.bits() == 64 {
        u64::MAX
    } else {
        0xffff_ffff
    };
    let mut got = vec![("d", at("%d").map(|v| v & rmask))];
    got.extend(i.outputs.iter().map(|&n| (n, at(&format!("%{n}")))));
    let mut expect = vec![("d", Some(want.result))];
    expect.extend(want.outputs.iter().map(|&(n, v)| (n, Some(v))));
    (got != expect).then(|| {
        let args: Vec<String> = args.iter().map(|a| format!("0x{a:x}")).collect();
        let show = |v: &[(&str, Option<u64>)]| -> String {
            v.iter()
                .map(|(r, x)| match x {
                    Some(x) => format!("%{r} = 0x{x:x}"),
                    None => format!("%{r} missing"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "{}({}): the PTX gives {}, the meaning {}",
            i.name,
            args.join(", "),
            show(&got),
            show(&expect)
        )
    })
}

/// How many inputs of each intrinsic also run step by step with their stages.
const TRACED: usize = 200;

/// Per intrinsic: how many inputs ran, and the first few disagreements.
struct Tally {
    name: &'static str,
    inputs: usize,
    parted: usize,
    examples: Vec<String>,
}

fn check(k: usize, i: &Intrinsic, sample: &[bool]) -> Tally {
    let mut m = machine(i);
    let mut memo = Memo::default();
    let mut t = Tally {
        name: i.name,
        inputs: 0,
        parted: 0,
        examples: Vec::new(),
    };
    for (n, a) in program_inputs(k, i, sample).iter().enumerate() {
        t.inputs += 1;
        // The first inputs (edge values) also step by step, with every stage.
        if let Some(d) = compare(i, &mut m, &mut memo, a, n < TRACED) {
            t.parted += 1;
            if t.examples.len() < 3 {
                t.examples.push(d);
            }
        }
    }
    t
}

#[test]
fn every_intrinsic_ptx_computes_its_meaning() {
    let all: Vec<&Intrinsic> = intrinsics::all().collect();
    assert_eq!(all.len(), 149);
    let sample = halfword_sample();
    // The longest first, so the threads finish together.
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(lanes(all[k]) != Lanes::None));
    let next = AtomicUsize::new(0);
    let tallies = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(&k) = order.get(n) else { break };
                let t = check(k, all[k], &sample);
                tallies.lock().unwrap().push(t);
            });
        }
    });
    let tallies = tallies.into_inner().unwrap();
    assert_eq!(tallies.len(), all.len());
    let total: usize = tallies.iter().map(|t| t.inputs).sum();
    let parted: Vec<&Tally> = tallies.iter().filter(|t| t.parted > 0).collect();
    assert!(
        parted.is_empty(),
        "{} intrinsics whose PTX and meaning part:\n{}",
        parted.len(),
        parted
            .iter()
            .map(|t| format!(
                "{} on {} of {} inputs, first:\n  {}",
                t.name,
                t.parted,
                t.inputs,
                t.examples.join("\n  ")
            ))
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("{total} inputs");
}
