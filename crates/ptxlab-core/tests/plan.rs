//! Plans give exactly what the evaluator gives: on every case the H100 ran, through both
//! `Plan::eval` and `Plan::eval_many`, and on random forms and values of every opcode, with the
//! same notable events as `eval::run` with a `FlagSet`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use ptxlab_core::gen::{self, Rng};
use ptxlab_core::trace::FlagSet;
use ptxlab_core::{check, eval, evaluate, parse, Inputs, Instruction, Plan, OPCODES};

/// The shared data folder: `$PTXLAB_SHARED`, or `shared/` beside the repository.
fn shared() -> PathBuf {
    let p = match std::env::var_os("PTXLAB_SHARED") {
        Some(s) => PathBuf::from(s),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let p = p.join("conformance");
    assert!(
        p.is_dir(),
        "conformance data not found at {} (set PTXLAB_SHARED to the shared folder)",
        p.display()
    );
    p
}

struct Case {
    ptx: String,
    inputs: Inputs,
    d: u64,
}

fn hex(v: &serde_json::Value, key: &str) -> u64 {
    v.get(key)
        .and_then(|x| x.as_str())
        .map(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex value"))
        .unwrap_or(0)
}

fn h100_cases() -> Vec<Case> {
    let f = std::fs::File::open(shared().join("h100-cases.jsonl.gz")).expect("readable");
    let r = BufReader::new(flate2::read::GzDecoder::new(f));
    r.lines()
        .map(|l| {
            let l = l.expect("line");
            let v: serde_json::Value = serde_json::from_str(&l).expect("json");
            Case {
                ptx: v["ptx"].as_str().expect("ptx").to_string(),
                inputs: Inputs::new(hex(&v, "a"), hex(&v, "b"), hex(&v, "c"), hex(&v, "e")),
                d: hex(&v, "d"),
            }
        })
        .collect()
}

fn flags_of(insn: &Instruction, i: &Inputs) -> (u64, u16) {
    let mut fs = FlagSet::default();
    let d = eval::run(insn, i, &mut fs);
    (d, fs.bits as u16)
}

/// Compare a plan with the evaluator over `cases`, one at a time and in a batch; return the
/// first disagreement.
fn compare(insn: &Instruction, plan: &Plan, cases: &[Inputs]) -> Result<(), String> {
    let mut many = vec![0u64; cases.len()];
    plan.eval_many(cases, &mut many);
    let mut many_f = vec![0u64; cases.len()];
    let mut flags = vec![0u16; cases.len()];
    plan.eval_many_flags(cases, &mut many_f, &mut flags);
    for (k, i) in cases.iter().enumerate() {
        let want = evaluate(insn, i);
        let (_, want_flags) = flags_of(insn, i);
        let one = plan.eval(i);
        let (one_f, one_flags) = plan.eval_flags(i);
        if [one, many[k], many_f[k], one_f] != [want; 4]
            || flags[k] != want_flags
            || one_flags != want_flags
        {
            return Err(format!(
                "{insn} {i:x?}: evaluate 0x{want:x} flags {want_flags:#x}; plan eval 0x{one:x}, \
                 eval_many 0x{:x}, eval_many_flags 0x{:x} flags {:#x}, eval_flags 0x{one_f:x} flags {one_flags:#x}",
                many[k], many_f[k], flags[k]
            ));
        }
    }
    Ok(())
}

#[test]
fn every_h100_case_through_eval_and_eval_many() {
    let cases = h100_cases();
    assert_eq!(cases.len(), 159_632, "the measured file changed size");
    // Group the cases by instruction text, so each plan is made once and run as a batch.
    let mut by_ptx: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
    for c in &cases {
        by_ptx.entry(c.ptx.as_str()).or_default().push(c);
    }
    let mut failures: Vec<String> = Vec::new();
    let mut passed = 0usize;
    let mut opcodes = BTreeSet::new();
    for (ptx, group) in &by_ptx {
        let insn = check(ptx).unwrap_or_else(|e| panic!("{ptx}: {}", e.message));
        let plan = Plan::new(&insn);
        assert!(plan.is_specialised(), "{ptx}: not specialised");
        opcodes.insert(insn.name());
        let inputs: Vec<Inputs> = group.iter().map(|c| c.inputs).collect();
        let mut many = vec![0u64; inputs.len()];
        plan.eval_many(&inputs, &mut many);
        let mut many_f = vec![0u64; inputs.len()];
        let mut flags = vec![0u16; inputs.len()];
        plan.eval_many_flags(&inputs, &mut many_f, &mut flags);
        for (k, c) in group.iter().enumerate() {
            let one = plan.eval(&c.inputs);
            let (_, want_flags) = flags_of(&insn, &c.inputs);
            if one == c.d && many[k] == c.d && many_f[k] == c.d && flags[k] == want_flags {
                passed += 1;
            } else if failures.len() < 10 {
                failures.push(format!(
                    "{ptx} {:x?}: H100 0x{:x}; eval 0x{one:x}, eval_many 0x{:x}, \
                     eval_many_flags 0x{:x} flags {:#x} (evaluator's {want_flags:#x})",
                    c.inputs, c.d, many[k], many_f[k], flags[k]
                ));
            } else {
                failures.push(String::new());
            }
        }
    }
    println!(
        "{passed} of {} H100 cases pass through plans ({} forms, {} opcodes)",
        cases.len(),
        by_ptx.len(),
        opcodes.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        opcodes.len(),
        OPCODES.len(),
        "an opcode has no measured case"
    );
}

fn random_inputs(r: &mut Rng, n: usize) -> Vec<Inputs> {
    (0..n)
        .map(|_| Inputs::new(r.value(), r.value(), r.value(), r.value()))
        .collect()
}

/// Random valid forms of every opcode (the shapes `gen::plausible` makes), random values, in
/// batches of one chunk and of several.
#[test]
fn plans_equal_the_evaluator_on_random_forms_of_every_opcode() {
    let mut r = Rng::new(0x9a11);
    let mut per_opcode: BTreeMap<&str, usize> = BTreeMap::new();
    let mut tried = 0;
    while tried < 40_000 {
        tried += 1;
        let text = gen::plausible(&mut r);
        let Ok(insn) = check(&text) else { continue };
        let plan = Plan::new(&insn);
        assert!(
            plan.is_specialised(),
            "{text}: a valid form is not specialised"
        );
        // Most batches fit one chunk of the batch loops (64 cases); every eighth runs over
        // several and ends in a part chunk.
        let len = if tried % 8 == 0 { 150 } else { 48 };
        let inputs = random_inputs(&mut r, len);
        if let Err(e) = compare(&insn, &plan, &inputs) {
            panic!("{e}");
        }
        *per_opcode.entry(insn.name()).or_default() += 1;
    }
    for info in OPCODES {
        let n = per_opcode.get(info.name).copied().unwrap_or(0);
        assert!(n >= 20, "only {n} random valid forms of {}", info.name);
    }
}

/// Any text that parses, valid or not (invalid ones run the evaluator), never disagrees and
/// never panics.
#[test]
fn plans_of_any_parsed_text_agree() {
    let mut r = Rng::new(0x51ab);
    let mut fallback = 0;
    for _ in 0..20_000 {
        let text = gen::instruction(&mut r);
        let Ok(insn) = parse(&text) else { continue };
        let plan = Plan::new(&insn);
        if !plan.is_specialised() {
            fallback += 1;
        }
        let inputs = random_inputs(&mut r, 8);
        if let Err(e) = compare(&insn, &plan, &inputs) {
            panic!("{e}");
        }
    }
    assert!(fallback > 0, "no invalid text reached the fallback");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Any seed's valid form, any operand values (uniform 64-bit, not only edges).
        #[test]
        fn plan_equals_evaluate(seed in any::<u64>(), vals in proptest::collection::vec(any::<[u64; 4]>(), 1..16)) {
            let mut r = super::Rng::new(seed);
            let text = gen::plausible(&mut r);
            if let Ok(insn) = check(&text) {
                let plan = Plan::new(&insn);
                let inputs: Vec<Inputs> = vals.iter().map(|v| Inputs::new(v[0], v[1], v[2], v[3])).collect();
                prop_assert_eq!(compare(&insn, &plan, &inputs), Ok(()));
            }
        }
    }
}

#[test]
fn batches_stop_at_the_shorter_slice() {
    let insn = check("vadd4.u32.u32.u32.sat d, a, b, c;").unwrap();
    let plan = Plan::new(&insn);
    let inputs = vec![Inputs::new(0xff01_8040, 0x0101_8080, 0, 0); 5];
    let mut out = vec![7u64; 3];
    plan.eval_many(&inputs, &mut out);
    assert_eq!(out, vec![0xff02_ffc0; 3]);
    let mut out = vec![7u64; 8];
    let mut flags = vec![0u16; 2];
    plan.eval_many_flags(&inputs, &mut out, &mut flags);
    assert_eq!(&out[..3], &[0xff02_ffc0, 0xff02_ffc0, 7]);
    assert!(flags.iter().all(|&f| f != 0), "the clamps are noted");
    assert_eq!(plan.dst_bits(), 32);
    assert_eq!(
        Plan::new(&check("mul.wide.u32 d, a, b;").unwrap()).dst_bits(),
        64
    );
}

/// Batches longer than the chunks immediates are put in place by, with immediates in each
/// source position of forms whose kernels read the registers as they are (SIMD video sources
/// are registers only).
#[test]
fn immediates_in_long_batches() {
    let mut r = Rng::new(0x1a3e);
    for text in [
        "vadd.s32.s32.s32.sat.add d, a, b, 0x7fffffff;",
        "vsub.u32.s32.u32.sat d, -7, b.h1, c;",
        "vmad.s32.s32.u32.sat.shr15 d, a.h1, b.b3, -5;",
        "dp4a.s32.u32 d, a, 0x01ff80ff, c;",
        "mad.hi.sat.s32 d, a, 0x7fffffff, c;",
        "add.u16 d, a, 0xfff0;",
    ] {
        let insn = check(text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
        let plan = Plan::new(&insn);
        assert!(plan.is_specialised(), "{text}");
        let inputs = random_inputs(&mut r, 333);
        if let Err(e) = compare(&insn, &plan, &inputs) {
            panic!("{e}");
        }
    }
}

/// Every form the specialised batch loops cover, across their switches: each SIMD operation
/// with every signedness of its operands, `.sat` or not, `.add` or not, the default selectors
/// or others, the whole mask or part of it; and the whole-word scalar forms (`vadd vsub vmin
/// vmax`, with `.sat` or not, no secondary operation, `.add` or `.min`). Batches run over
/// several chunks and end in a part chunk; register values carry bits above 32.
#[test]
fn plans_of_simd_and_whole_word_forms() {
    let mut r = Rng::new(0x5eed);
    let mut texts = Vec::new();
    let ty = |s: bool| if s { "s32" } else { "u32" };
    let signs = |n: usize| {
        (0..1usize << n).map(move |m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<_>>())
    };
    for (n, sels) in [(2, ["", ".h10", ".h32"]), (4, ["", ".b3210", ".b7654"])] {
        for op in ["vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"] {
            let set = op == "vset";
            for s in signs(if set { 2 } else { 3 }) {
                let types: Vec<&str> = s.iter().map(|&x| ty(x)).collect();
                let tail = if set { ".lt" } else { "" };
                // The assembler takes `.sat` or `.add`, not both.
                for (sat, add) in [("", ""), (".sat", ""), ("", ".add")] {
                    if set && !sat.is_empty() {
                        continue;
                    }
                    for (asel, bsel) in [("", ""), (sels[2], sels[1]), (sels[1], sels[1])] {
                        let mask = if n == 4 { ".b20" } else { ".h1" };
                        for dsel in ["", mask] {
                            texts.push(format!(
                                "{op}{n}.{}{tail}{sat}{add} d{dsel}, a{asel}, b{bsel}, c;",
                                types.join(".")
                            ));
                        }
                    }
                }
            }
        }
    }
    for op in ["vadd", "vsub", "vmin", "vmax"] {
        for s in signs(3) {
            let types: Vec<&str> = s.iter().map(|&x| ty(x)).collect();
            for sat in ["", ".sat"] {
                for sec in ["", ".add", ".min"] {
                    texts.push(format!("{op}.{}{sat}{sec} d, a, b, c;", types.join(".")));
                }
            }
        }
    }
    for text in &texts {
        let insn = check(text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
        let plan = Plan::new(&insn);
        assert!(plan.is_specialised(), "{text}");
        let mut inputs = random_inputs(&mut r, 150);
        for (k, i) in inputs.iter_mut().enumerate() {
            // Edge lanes in some cases, bits above the word in others.
            if k % 5 == 0 {
                i.a = [0x8080_8080, 0x7f7f_7f7f, 0xffff_ffff, 0x8000_7fff][k / 5 % 4];
            }
            if k % 7 == 0 {
                i.b |= 0xdead_beef_0000_0000;
            }
        }
        if let Err(e) = compare(&insn, &plan, &inputs) {
            panic!("{e}");
        }
    }
    // SIMD: 2 widths x (6 operations x 8 signednesses x 3 + vset x 4 x 2) x 3 selector pairs
    // x 2 masks; scalar: 4 x 8 x 2 x 3.
    assert_eq!(texts.len(), 1824 + 192, "forms tried");
}

/// Every `vmad` switch the plan's loops turn on: each signedness of `d`, `a` and `b`, whole
/// words, bytes and half-words (the forms whose product fits 16-bit numbers run without the
/// clamp), each negation and `.po`, each scale, `.sat` or not. Inputs are the edges of bytes,
/// half-words and words, in every combination for `a`, `b` and `c`, and bits above the word,
/// and a few more.
#[test]
fn plans_of_vmad_forms_on_edge_values() {
    const EDGES: [u64; 8] = [
        0,
        1,
        0x7f7f_7f7f,
        0x8080_8080,
        0x7fff_7fff,
        0x8000_8000,
        0xffff_ffff,
        0xdead_beef_8001_00ff,
    ];
    let mut inputs = Vec::new();
    for a in EDGES {
        for b in EDGES {
            for c in EDGES {
                inputs.push(Inputs::new(a, b, c, 0));
            }
        }
    }
    // Batches run four cases at a time in places: three more cases leave a remainder.
    inputs.extend([
        Inputs::new(0x8000_0000, 0x7fff_ffff, 0x8000_0000, 1),
        Inputs::new(0x0080_7fff, 0xff80_0080, 0xffff_fffe, 2),
        Inputs::new(0x1234_5678_9abc_def0, 0xfedc_ba98_7654_3210, 0x0f0f_0f0f, 3),
    ]);
    let ty = |s: bool| if s { "s32" } else { "u32" };
    let mut forms = 0;
    for s in 0..8 {
        let types = format!("{}.{}.{}", ty(s & 1 != 0), ty(s & 2 != 0), ty(s & 4 != 0));
        for (asel, bsel) in [
            ("", ""),
            (".h1", ".b3"),
            (".b0", ".b2"),
            (".h0", ".h1"),
            (".b1", ""),
        ] {
            for (po, na, nb, nc) in [
                ("", "", "", ""),
                (".po", "", "", ""),
                ("", "-", "", ""),
                ("", "", "-", ""),
                ("", "", "", "-"),
            ] {
                for scale in ["", ".shr7", ".shr15"] {
                    for sat in ["", ".sat"] {
                        let text = format!(
                            "vmad.{types}{po}{sat}{scale} d, {na}a{asel}, {nb}b{bsel}, {nc}c;"
                        );
                        let insn = check(&text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
                        let plan = Plan::new(&insn);
                        assert!(plan.is_specialised(), "{text}");
                        if let Err(e) = compare(&insn, &plan, &inputs) {
                            panic!("{e}");
                        }
                        forms += 1;
                    }
                }
            }
        }
    }
    assert_eq!(forms, 8 * 5 * 5 * 3 * 2, "forms tried");
}
