//! The intrinsics data reads whole, and the meanings give the values worked out by hand.

use ptxlab_core::intrinsics::{self, evaluate, find, search, Shape};
use ptxlab_core::sass::SassKind;

fn d(name: &str, args: &[u64]) -> u64 {
    let i = find(name).unwrap_or_else(|| panic!("{name} missing"));
    evaluate(i, args).unwrap().result
}

#[test]
fn data_covers_every_intrinsic_with_ptx_and_five_architectures() {
    let all: Vec<_> = intrinsics::all().collect();
    assert!(all.len() >= 95, "only {} intrinsics", all.len());
    assert_eq!(all.iter().filter(|i| !i.outputs.is_empty()).count(), 8);
    let simd = all.iter().filter(|i| i.name.starts_with("__v")).count();
    assert!(simd >= 82, "only {simd} SIMD intrinsics");
    for i in &all {
        assert!(!i.ptx.is_empty(), "{}: no PTX", i.name);
        assert!(
            i.ptx.iter().any(|p| p.contains("%d")),
            "{}: PTX never writes %d",
            i.name
        );
        for (k, a) in i.args.iter().enumerate() {
            let reg = ["%a", "%b", "%c"][k];
            assert!(
                i.ptx.iter().any(|p| p.contains(reg)),
                "{}: PTX never reads {reg} ({a:?})",
                i.name
            );
        }
        for o in &i.outputs {
            let reg = format!("%{o}");
            assert!(
                i.ptx.iter().any(|p| p.contains(&reg)),
                "{}: PTX never writes {reg}",
                i.name
            );
        }
        let archs: Vec<u32> = i.cost.iter().map(|c| c.arch).collect();
        assert_eq!(archs, [75, 80, 90, 100, 120], "{}", i.name);
        assert!(!i.sass_sm90.is_empty(), "{}: no sm_90 machine code", i.name);
        assert_eq!(
            i.cost_on(90).unwrap().count(),
            i.sass_sm90.len(),
            "{}",
            i.name
        );
        assert!(!i.meaning.is_empty() && i.doc_url.starts_with("https://docs.nvidia.com/"));
    }
    for name in [
        "__dp4a",
        "__dp2a_lo",
        "__dp2a_hi",
        "__sad",
        "__usad",
        "__byte_perm",
        "__funnelshift_l",
        "__funnelshift_lc",
        "__funnelshift_r",
        "__funnelshift_rc",
        "__brev",
        "__brevll",
        "__clz",
        "__clzll",
        "__popc",
        "__popcll",
        "__ffs",
        "__ffsll",
        "__mulhi",
        "__umulhi",
        "__mul64hi",
        "__umul64hi",
        "__mul24",
        "__umul24",
        "__hadd",
        "__rhadd",
        "__uhadd",
        "__urhadd",
    ] {
        assert!(find(name).is_some(), "{name} missing");
    }
}

#[test]
fn shared_machine_code_lists_resolve_to_their_recorded_counts() {
    let mut name = "";
    let mut checked = 0;
    for line in intrinsics::DATA.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.first() {
            Some(&"=") => name = f[1],
            Some(&"s") => {
                let arch: u32 = f[1].parse().unwrap();
                let count: usize = f[2].parse().unwrap();
                let cost = find(name).unwrap().cost_on(arch).unwrap();
                assert_eq!(cost.count(), count, "{name} sm_{arch}");
                assert!(
                    cost.opcodes
                        .iter()
                        .all(|o| o.chars().next().is_some_and(|c| c.is_ascii_uppercase())),
                    "{name} sm_{arch}: {:?}",
                    cost.opcodes
                );
                checked += 1;
            }
            _ => {}
        }
    }
    assert_eq!(checked, 5 * intrinsics::all().count());
}

#[test]
fn measured_costs_show_native_and_emulated() {
    let abs = find("__vabsdiffu4").unwrap();
    assert_eq!(abs.cost_on(90).unwrap().opcodes, ["VABSDIFF4.U8"]);
    assert_eq!(abs.cost_on(90).unwrap().kind, SassKind::Native);
    let sm120 = abs.cost_on(120).unwrap();
    assert!(!sm120.opcodes.iter().any(|o| o.starts_with("VABSDIFF4")));
    assert!(abs
        .ptx
        .iter()
        .any(|p| p.starts_with("vabsdiff4.u32.u32.u32")));
    let dp = find("__dp4a").unwrap();
    assert!(dp.ptx.iter().any(|p| p.starts_with("dp4a.s32.s32")));
    let gt = find("__vcmpgtu4").unwrap();
    assert_eq!(gt.cost_on(90).unwrap().kind, SassKind::Emulated);
    assert!(gt.ptx_opcodes().contains(&"prmt.b32"));
}

#[test]
fn meanings_worked_by_hand() {
    assert_eq!(d("__vcmpgtu4", &[0x0180_ff00, 0x0280_0000]), 0x0000_ff00);
    assert_eq!(d("__vsetgtu4", &[0x0180_ff00, 0x0280_0000]), 0x0000_0100);
    assert_eq!(d("__vcmpgts4", &[0x0180_ff00, 0x0280_0000]), 0x0000_0000);
    assert_eq!(d("__vabsdiffu4", &[0x00ff_1020, 0xff00_2010]), 0xffff_1010);
    assert_eq!(d("__vabsdiffs4", &[0x7f00_0000, 0x8000_0000]), 0xff00_0000);
    assert_eq!(d("__vadd4", &[0xff01_0203, 0x0101_0101]), 0x0002_0304);
    assert_eq!(d("__vaddss4", &[0x7f80_0000, 0x01ff_0000]), 0x7f80_0000);
    assert_eq!(d("__vaddus2", &[0xffff_0001, 0x0001_0001]), 0xffff_0002);
    assert_eq!(d("__vsubus4", &[0x0010_0000, 0x0120_0000]), 0);
    assert_eq!(d("__vsub2", &[0x0000_0005, 0x0001_0007]), 0xffff_fffe);
    assert_eq!(d("__vabs4", &[0x80ff_0102]), 0x8001_0102);
    assert_eq!(d("__vabsss4", &[0x80ff_0102]), 0x7f01_0102);
    assert_eq!(d("__vneg2", &[0x8000_0001]), 0x8000_ffff);
    assert_eq!(d("__vnegss2", &[0x8000_0001]), 0x7fff_ffff);
    assert_eq!(d("__vavgu4", &[0x0001_ff00, 0x0002_ff01]), 0x0002_ff01);
    assert_eq!(d("__vhaddu4", &[0x0001_ff00, 0x0002_ff01]), 0x0001_ff00);
    assert_eq!(d("__vavgs2", &[0xffff_0001, 0x0000_0000]), 0xffff_0001);
    assert_eq!(d("__vmaxs2", &[0x8000_0001, 0x7fff_0002]), 0x7fff_0002);
    assert_eq!(d("__vminu2", &[0x8000_0001, 0x7fff_0002]), 0x7fff_0001);
    assert_eq!(
        d("__vsadu4", &[0x00ff_0000, 0xff00_0102]),
        0xff + 0xff + 1 + 2
    );
    assert_eq!(d("__vsads4", &[0x7f00_0000, 0x8000_0000]), 255);
    assert_eq!(d("__dp4a", &[0x0102_0304, 0xffff_ffff, 10]), 0);
    assert_eq!(d("__dp4a_u", &[0x0102_0304, 0x0101_0101, 10]), 20);
    assert_eq!(d("__dp2a_lo", &[0xffff_0002, 0x0000_0103, 0]), 5);
    assert_eq!(d("__dp2a_hi", &[0xffff_0002, 0x0103_0000, 0]), 5);
    assert_eq!(d("__sad", &[(-3i32) as u32 as u64, 4, 1]), 8);
    assert_eq!(d("__usad", &[0, 0xffff_ffff, 1]), 0);
    assert_eq!(
        d("__byte_perm", &[0x3322_1100, 0x7766_5544, 0x0123]),
        0x0011_2233
    );
    assert_eq!(
        d("__byte_perm", &[0x3322_1100, 0x7766_5544, 0xffff_89ab]),
        0x0011_2233
    );
    assert_eq!(d("__funnelshift_l", &[0x8000_0000, 0x1, 1]), 0x3);
    assert_eq!(d("__funnelshift_l", &[0x8000_0000, 0x1, 33]), 0x3);
    assert_eq!(d("__funnelshift_lc", &[0x8000_0000, 0x1, 33]), 0x8000_0000);
    assert_eq!(d("__funnelshift_r", &[0x2, 0x1, 1]), 0x8000_0001);
    assert_eq!(d("__funnelshift_rc", &[0x2, 0x1, 40]), 0x1);
    assert_eq!(d("__brev", &[1]), 0x8000_0000);
    assert_eq!(d("__brevll", &[1]), 1 << 63);
    assert_eq!(d("__clz", &[0]), 32);
    assert_eq!(d("__clzll", &[1]), 63);
    assert_eq!(d("__popcll", &[u64::MAX]), 64);
    assert_eq!(d("__ffs", &[0]), 0);
    assert_eq!(d("__ffs", &[0x8000_0000]), 32);
    assert_eq!(d("__ffsll", &[1 << 40]), 41);
    assert_eq!(d("__mulhi", &[0xffff_ffff, 2]), 0xffff_ffff);
    assert_eq!(d("__umulhi", &[0xffff_ffff, 2]), 1);
    assert_eq!(d("__mul64hi", &[u64::MAX, 2]), u64::MAX);
    assert_eq!(d("__umul64hi", &[u64::MAX, 2]), 1);
    assert_eq!(d("__mul24", &[0x0080_0000, 1]), 0xff80_0000);
    assert_eq!(d("__umul24", &[0xff80_0000, 2]), 0x0100_0000);
    assert_eq!(d("__hadd", &[0xffff_ffff, 0]), 0xffff_ffff);
    assert_eq!(d("__rhadd", &[0xffff_ffff, 0]), 0);
    assert_eq!(d("__uhadd", &[0xffff_ffff, 0xffff_ffff]), 0xffff_ffff);
    assert_eq!(d("__urhadd", &[0xffff_ffff, 0]), 0x8000_0000);
    assert_eq!(
        d("__vimax3_s16x2", &[0x8000_0001, 0x0001_0002, 0xffff_0003]),
        0x0001_0003
    );
    assert_eq!(d("__vimin_s32_relu", &[0xffff_fff0, 5]), 0);
    assert_eq!(
        d("__viaddmax_u16x2", &[0xffff_0001, 0x0001_0001, 0x0005_0001]),
        0x0005_0002
    );
    assert_eq!(d("__viaddmin_s32", &[0x7fff_ffff, 1, 0]), 0x8000_0000);
}

#[test]
fn lanes_build_the_result() {
    let i = find("__vmaxu4").unwrap();
    assert_eq!(i.shape, Shape::Bytes);
    let e = evaluate(i, &[0x1122_3344, 0x4433_2211]).unwrap();
    assert_eq!(e.lanes.len(), 4);
    let joined = e
        .lanes
        .iter()
        .fold(0, |acc, l| acc | l.output << (8 * l.index));
    assert_eq!(joined, e.result);
    assert_eq!(e.lanes[0].inputs, [0x44, 0x11]);
    let dp = evaluate(find("__dp4a").unwrap(), &[0x0102_0304, 0x0101_0101, 7]).unwrap();
    assert_eq!(dp.addend, Some(7));
    assert_eq!(
        dp.lanes.iter().map(|l| l.output).sum::<u64>() + 7,
        dp.result
    );
}

#[test]
fn wrong_calls_are_refused_with_a_reason() {
    let i = find("__vadd4").unwrap();
    let e = evaluate(i, &[1]).unwrap_err();
    assert!(e.0.contains("takes 2 arguments"), "{e}");
    assert!(find("__nope").is_none());
    assert!(find("vadd4").is_some());
}

#[test]
fn search_by_name_and_by_what_it_does() {
    let names = |q: &str| search(q).iter().map(|i| i.name).collect::<Vec<_>>();
    assert_eq!(names("__vcmpgtu4")[0], "__vcmpgtu4");
    assert!(names("unsigned byte compare").contains(&"__vcmpgtu4"));
    assert!(!names("unsigned byte compare").contains(&"__vcmpgts4"));
    let sad = names("sum of absolute differences");
    for n in ["__vsadu4", "__vsads2", "__sad", "__usad"] {
        assert!(sad.contains(&n), "{n} not in {sad:?}");
    }
    assert!(names("dot product").contains(&"__dp4a"));
    assert!(names("no such thing at all").is_empty());
    let emit = intrinsics::emitting("vabsdiff4");
    assert!(emit.iter().any(|i| i.name == "__vabsdiffu4"));
    assert!(emit.iter().any(|i| i.name == "__vsads4"));
    assert!(intrinsics::emitting("dp4a")
        .iter()
        .any(|i| i.name == "__dp4a"));
}

#[test]
fn the_text_scan_names_what_emitting_finds() {
    // The playground's instruction view lists the intrinsics from the data's text alone.
    let text = include_str!("../src/intrinsics.txt");
    let mut wants: Vec<String> = vec!["".into(), "nosuchop".into(), "mov.b32.x".into()];
    for i in intrinsics::all() {
        for op in i.ptx_opcodes() {
            wants.push(op.to_string());
            wants.push(op.split('.').next().unwrap().to_string());
        }
    }
    wants.sort();
    wants.dedup();
    let mut nonempty = 0;
    for want in &wants {
        let full: Vec<&str> = intrinsics::emitting(want).iter().map(|i| i.name).collect();
        assert_eq!(intrinsics::emitting_in(text, want), full, "{want}");
        nonempty += usize::from(!full.is_empty());
    }
    assert!(
        nonempty > 40,
        "{nonempty} opcodes found in some intrinsic's PTX"
    );
    assert!(
        intrinsics::emitting_in("= __x u32 u32\np }\np vadd4.u32 d, a;\nbroken\n", "vadd4")
            == ["__x"]
    );
}

#[test]
fn any_arguments_give_a_result_or_a_reason_never_a_panic() {
    // A small xorshift so the test needs no extra crate.
    let mut s: u64 = 0x1234_5678_9abc_def1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for i in intrinsics::all() {
        for n in 0..5 {
            let args: Vec<u64> = (0..n).map(|_| next()).collect();
            match evaluate(i, &args) {
                Ok(e) => {
                    assert_eq!(n, i.args.len());
                    let rbits = i.result.bits();
                    assert!(rbits == 64 || e.result >> rbits == 0, "{}", i.name);
                }
                Err(e) => {
                    assert_ne!(n, i.args.len());
                    assert!(e.0.contains(i.name), "{e}");
                }
            }
        }
        // Extreme values in every position.
        for v in [0, u64::MAX, 1 << 63, 0xffff_ffff, 0x8000_0000] {
            let args = vec![v; i.args.len()];
            evaluate(i, &args).unwrap();
        }
    }
}

#[test]
fn data_fetched_from_elsewhere_is_checked_and_bad_data_is_an_error() {
    // The text the page fetches is the embedded one: it reads.
    assert_eq!(intrinsics::install(intrinsics::DATA), Ok(()));
    assert!(intrinsics::installed());
    for bad in [
        "",
        "= __nope u32 u32,u32\n",
        "= __vadd4 q32 u32,u32\n",
        "p add.u32 %d, %a, %b;\n",
        "= __vadd4 u32 u32,u32\ns sm_90 1\n",
    ] {
        assert!(intrinsics::install(bad).is_err(), "{bad:?}");
    }
    assert!(intrinsics::find("__vadd4").is_some());
}
