//! The kernels of `tests/data/kernels/` run as nvcc wrote them, one thread at a time: the PTX of
//! each (nvcc 13.0, sm_90) is read whole by `parse_program` (`.entry`, `.param`, `ld.param`,
//! `cvta`, `ld`/`st.global`, `%tid.x`, labels and `bra`), every thread of the launch runs in turn
//! over one memory, and the memory at the end must equal, byte for byte, what an H200 wrote
//! running the same launch. (The kernels give each thread its own elements, so running the
//! threads one after another is the launch.)

use ptxlab_core::program::memory::{Bytes, Space};
use ptxlab_core::program::{parse_program, Machine};

fn hex(s: &serde_json::Value) -> Vec<u8> {
    let s = s.as_str().unwrap_or("");
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex byte"))
        .collect()
}

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/kernels");

/// Run one kernel of `kernels.json` thread by thread; the buffers after, and the H200's.
fn run(k: &serde_json::Value) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let name = k["name"].as_str().expect("name");
    let ptx_path = format!("{DIR}/{}", k["ptx"].as_str().expect("ptx"));
    let ptx = std::fs::read_to_string(&ptx_path).unwrap_or_else(|e| panic!("{ptx_path}: {e}"));
    let prog = parse_program(&ptx).unwrap_or_else(|e| panic!("{name}: {e}"));
    let kernel = prog.kernel.clone().expect("an .entry");
    assert_eq!(kernel.name, k["entry"].as_str().unwrap());
    // Each buffer at its own address, far apart.
    let mut buffers: Vec<(String, u64, Vec<u8>, Vec<u8>)> = Vec::new();
    let mut init: Vec<(String, u64)> = Vec::new();
    for (i, p) in k["params"].as_array().expect("params").iter().enumerate() {
        let pname = p["name"].as_str().unwrap().to_string();
        if p.get("buffer").is_some_and(|b| !b.is_null()) {
            let addr = 0x7f00_0000_0000u64 + ((i as u64) << 20);
            buffers.push((pname.clone(), addr, hex(&p["before"]), hex(&p["after"])));
            init.push((pname, addr));
        } else {
            let v = p["value"].as_i64().expect("a value");
            let bits = kernel.params.iter().find(|q| q.name == pname).unwrap().bits;
            let v = if bits < 64 {
                (v as u64) & ((1u64 << bits) - 1)
            } else {
                v as u64
            };
            init.push((pname, v));
        }
    }
    let dim = |key: &str, i: usize| k[key][i].as_u64().expect("dims");
    let mut m = Machine::new(prog, &init).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut mem: Vec<Bytes> = buffers
        .iter()
        .map(|(_, a, before, _)| Bytes {
            space: Space::Global,
            address: *a,
            bytes: before.clone(),
        })
        .collect();
    for cz in 0..dim("grid", 2) {
        for cy in 0..dim("grid", 1) {
            for cx in 0..dim("grid", 0) {
                for tz in 0..dim("block", 2) {
                    for ty in 0..dim("block", 1) {
                        for tx in 0..dim("block", 0) {
                            let mut regs = init.clone();
                            for (r, v) in [
                                ("%tid.x", tx),
                                ("%tid.y", ty),
                                ("%tid.z", tz),
                                ("%ctaid.x", cx),
                                ("%ctaid.y", cy),
                                ("%ctaid.z", cz),
                                ("%ntid.x", dim("block", 0)),
                                ("%ntid.y", dim("block", 1)),
                                ("%ntid.z", dim("block", 2)),
                                ("%nctaid.x", dim("grid", 0)),
                                ("%nctaid.y", dim("grid", 1)),
                                ("%nctaid.z", dim("grid", 2)),
                                ("%laneid", tx % 32),
                            ] {
                                regs.push((r.to_string(), v));
                            }
                            m.start_with(&regs).unwrap();
                            m.set_memory(mem.clone());
                            m.keep_traces = false;
                            m.run();
                            assert!(m.stopped().is_none(), "{name}: {:?}", m.stopped());
                            assert!(m.at_end());
                            for b in &mut mem {
                                for (j, x) in b.bytes.iter_mut().enumerate() {
                                    *x = m.memory().byte(Space::Global, b.address + j as u64);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    buffers
        .into_iter()
        .zip(mem)
        .map(|((n, _, _, after), got)| (n, got.bytes, after))
        .collect()
}

#[test]
fn every_kernel_writes_what_the_gpu_wrote() {
    let text = std::fs::read_to_string(format!("{DIR}/kernels.json")).expect("kernels.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let mut checked = 0;
    for k in v["kernels"].as_array().expect("kernels") {
        let name = k["name"].as_str().unwrap();
        let mut changed = 0;
        for (param, got, want) in run(k) {
            assert_eq!(got.len(), want.len());
            for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    g, w,
                    "{name}: {param} byte {j}: ptxlab {g:02x}, H200 {w:02x}"
                );
            }
            let before = k["params"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == param.as_str())
                .map(|p| hex(&p["before"]))
                .unwrap();
            changed += usize::from(before != want);
        }
        assert!(
            changed > 0,
            "{name}: the GPU wrote no buffer, so nothing is checked"
        );
        checked += 1;
    }
    assert_eq!(checked, 12, "every kernel of kernels.json");
}

#[test]
fn a_kernel_that_never_ends_stops_with_a_message() {
    let p = parse_program(".entry spin()\n{\nL: bra L;\n}").unwrap();
    let mut m = Machine::new(p, &[]).unwrap();
    m.max_steps = 50;
    assert_eq!(m.run(), 50);
    let why = m.stopped().expect("stopped");
    assert!(why.contains("50 steps") && why.contains("line 3"), "{why}");
    // Stepping back leaves the limit behind.
    assert!(m.step_back());
    assert!(m.stopped().is_none());
}

#[test]
fn what_is_not_modelled_is_named_with_its_line() {
    for (text, line, words) in [
        (".entry k()\n{\nbar.sync 0;\n}", 3, "barriers"),
        (
            ".entry k()\n{\n\nshfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;\n}",
            4,
            "warp-wide",
        ),
        ("atom.global.add.u32 %r1, [%rd1], 1;", 1, "atomics"),
        (
            "tex.2d.v4.s32.f32 {%r1,%r2,%r3,%r4}, [t, {%f1,%f2}];",
            1,
            "textures",
        ),
        ("call foo;", 1, "calls"),
        ("add.f32 %f1, %f2, %f3;", 1, "floating point"),
        ("fma.rn.f32 %f1, %f2, %f3, %f4;", 1, "floating point"),
        ("bra NOWHERE;", 1, "not defined"),
        (".shared .align 3 .b8 smem[64];", 1, "power of two"),
        (".const .b8 k[2] = {1, 2, 3};", 1, "more elements"),
        (
            ".entry a()\n{\nret;\n}\n.entry b()\n{\nret;\n}",
            5,
            "second",
        ),
        ("mov.u32 %tid.x, 1;", 1, "read only"),
        (
            ".entry k(.param .align 8 .b8 s[16])\n{\nret;\n}",
            1,
            "struct",
        ),
        (
            "setp.eq.u32 %p1, 1, 1;\nld.global.u32 %r1, [%p1];",
            2,
            "predicate",
        ),
        ("cvta.to.shared.u32 %r1, %r2;", 1, "64 bits"),
    ] {
        let e = parse_program(text).unwrap_err();
        assert_eq!(e.line, line, "{text}: {e}");
        assert!(e.message.contains(words), "{text}: {e}");
    }
}

#[test]
fn loads_extend_by_the_type_and_vectors_split_by_element() {
    let p = parse_program(
        ".reg .b32 %r<6>;\n.reg .b64 %rd1;\nld.global.s8 %r1, [%rd1];\nld.global.u8 %r2, [%rd1];\nld.global.v2.u16 {%r3, %r4}, [%rd1+2];\nst.global.v4.u8 [%rd1+8], {%r1, %r2, %r3, 0x55};\nst.local.u32 [16], %r4;",
    )
    .unwrap();
    let mut m = Machine::new(p, &[("%rd1".into(), 0x100)]).unwrap();
    m.set_memory(vec![ptxlab_core::program::memory::parse_fill(
        "0x100=f0e0d0c0b0a0",
    )
    .unwrap()]);
    m.run();
    assert_eq!(m.value("%r1"), Some(0xffff_fff0));
    assert_eq!(m.value("%r2"), Some(0xf0));
    assert_eq!(m.value("%r3"), Some(0xc0d0));
    assert_eq!(m.value("%r4"), Some(0xa0b0));
    let w = m.memory().written();
    assert_eq!(w.len(), 2);
    assert_eq!(
        (w[0].space, w[0].address, w[0].hex()),
        (Space::Global, 0x108, "f0f0d055".into())
    );
    assert_eq!(
        (w[1].space, w[1].address, w[1].hex()),
        (Space::Local, 16, "b0a00000".into())
    );
    let r = m.memory().read();
    let r: Vec<(u64, usize)> = r.iter().map(|b| (b.address, b.bytes.len())).collect();
    assert_eq!(r, [(0x100, 1), (0x102, 4)]);
    // Stepping back puts the old bytes back.
    while m.step_back() {}
    assert!(m.memory().written().is_empty());
    assert_eq!(m.memory().byte(Space::Global, 0x108), 0);
}

/// The example of `docs/hardware-vs-spec.md` ("The carry chain"): one carry bit for additions and
/// subtractions, and a subtraction's carry is "no borrow".
#[test]
fn the_carry_of_a_subtraction_is_no_borrow() {
    let code = doc_example("## The carry chain: one carry bit");
    let p = parse_program(&code).unwrap();
    let mut m = Machine::new(p, &[]).unwrap();
    m.run();
    assert_eq!(m.value("%r1"), Some(3));
    assert_eq!(m.value("%r3"), Some(1));
}

/// Variables: their names stand for their addresses, initialisers fill them, the rest is 0,
/// and each space has its own.
#[test]
fn variables_are_addresses_with_their_initial_bytes() {
    let p = parse_program(
        ".const .align 4 .b8 k[8] = {1, 2, 3};\n.global .u32 g[2] = {0x11223344};\n.entry e()\n{\n.local .align 8 .b8 depot[16];\n.reg .b32 %r<5>;\n.reg .b64 %rd<3>;\nld.const.u32 %r1, [k];\nmov.u64 %rd1, g;\nld.global.u32 %r2, [%rd1+4];\nld.global.u32 %r3, [g];\nmov.u64 %rd2, depot;\nst.local.u32 [%rd2+8], %r3;\nld.local.u32 %r4, [depot+8];\n}",
    )
    .unwrap();
    let names: Vec<(&str, Space, u64, u64)> = p
        .variables
        .iter()
        .map(|v| (v.name.as_str(), v.space, v.address, v.size))
        .collect();
    assert_eq!(
        names,
        [
            ("k", Space::Const, 0, 8),
            ("g", Space::Global, 0x6000_0000_0000, 8),
            ("depot", Space::Local, 0, 16)
        ]
    );
    assert_eq!(
        p.statements[1].text, "mov.u64 %rd1, g",
        "the text as written"
    );
    let mut m = Machine::new(p, &[]).unwrap();
    m.run();
    assert_eq!(m.value("%r1"), Some(0x0003_0201));
    assert_eq!(m.value("%r2"), Some(0), "past the initialiser: 0");
    assert_eq!(m.value("%r3"), Some(0x1122_3344));
    assert_eq!(m.value("%r4"), Some(0x1122_3344));
    assert_eq!(m.value("%rd1"), Some(0x6000_0000_0000));
    let w = m.memory().written();
    assert_eq!((w[0].space, w[0].address), (Space::Local, 8));
}

/// The example of `docs/hardware-vs-spec.md` ("16-bit `madc.hi`").
#[test]
fn sixteen_bit_madc_hi_keeps_the_high_word_of_a_32_bit_product() {
    let code = doc_example("## 16-bit `madc.hi` keeps bits 32..47");
    let mut m = Machine::new(parse_program(&code).unwrap(), &[]).unwrap();
    m.run();
    assert_eq!(m.value("%rs1"), Some(6));
    assert_eq!(m.value("%rs2"), Some(0));
}

/// The first code block of the section of `docs/hardware-vs-spec.md` whose heading starts with
/// `heading`.
fn doc_example(heading: &str) -> String {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/hardware-vs-spec.md"
    ))
    .unwrap();
    let sec = &doc[doc
        .find(heading)
        .unwrap_or_else(|| panic!("no section {heading}"))..];
    let code = &sec[sec.find("```\n").expect("a code block") + 4..];
    code[..code.find("```").expect("its end")].to_string()
}
