//! Every lesson reads, and every case in it checks and evaluates with the core; where a lesson
//! states `d`, the core gives that value. So a lesson can never show a wrong value.

use ptxlab_core::lesson::{self, Block, Inline};

#[test]
fn every_lesson_reads_and_every_case_gives_its_stated_d() {
    assert!(lesson::SOURCES.len() >= 9);
    let all = lesson::all();
    assert_eq!(all.len(), lesson::SOURCES.len(), "a lesson does not read");
    let mut names = std::collections::BTreeSet::new();
    let mut stated = 0;
    for l in &all {
        assert!(names.insert(l.name), "{} twice", l.name);
        assert!(!l.title.is_empty());
        assert!(!l.summary().is_empty(), "{}: no paragraph", l.name);
        assert!(l.cases().count() >= 1, "{}: no live figure", l.name);
        for c in l.cases() {
            let d = c
                .d()
                .unwrap_or_else(|e| panic!("{}: {}: {e}", l.name, c.text));
            if let Some(s) = c.stated {
                assert_eq!(
                    d, s,
                    "{}: {} states d = {s:#x}, the core gives {d:#x}",
                    l.name, c.text
                );
                stated += 1;
            }
        }
        // Every lesson links to the PTX ISA (or NVIDIA's CUDA documentation).
        let links = l.blocks.iter().flat_map(|b| match b {
            Block::Para(p) => lesson::inline(p),
            Block::List(v) => v.iter().flat_map(|p| lesson::inline(p)).collect(),
            _ => Vec::new(),
        });
        let doc = links
            .filter(
                |i| matches!(i, Inline::Link(_, u) if u.starts_with("https://docs.nvidia.com/")),
            )
            .count();
        assert!(doc >= 1, "{}: no link to NVIDIA's documentation", l.name);
        assert_eq!(lesson::find(l.name).as_ref(), Some(l));
    }
    assert!(stated >= 18, "only {stated} stated values");
    assert_eq!(lesson::find("nope"), None);
}

/// The lesson on the carry chain shows the flag: its examples of `add.cc`, `addc` and `subc`
/// give the stated `d`, and the carry each one writes or reads is the one the text names.
#[test]
fn the_carry_lesson_shows_the_flag() {
    use ptxlab_core::insn::check;
    use ptxlab_core::Inputs;
    let l = lesson::find("wide").unwrap();
    let text: String = l
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Para(p) => Some(p.as_str()),
            _ => None,
        })
        .collect();
    assert!(!text.contains("does not model"), "{text}");
    assert!(text.contains("CC.CF is 1"), "{text}");
    // add.cc of 0xffffffff and 1: d wraps to 0 and the carry out is 1, as the text says.
    let out = check("add.cc.u32 d, a, b;")
        .unwrap()
        .evaluate(&Inputs::new(0xffff_ffff, 1, 0, 0));
    assert_eq!(out.values[1].name, "CC.CF");
    assert_eq!(
        (out.values[0].value, out.values[1].value),
        (Some(0), Some(1))
    );
    // subc of 5 and 2 after a borrow (CC.CF 0) gives 2, one less than 5 - 2.
    let out = check("subc.u32 d, a, b;")
        .unwrap()
        .evaluate(&Inputs::new(5, 2, 0, 0));
    assert_eq!(out.values[0].value, Some(2));
}

#[test]
fn lessons_fetched_from_elsewhere_are_checked_before_they_are_kept() {
    // The names the page fetches (lessons/NAME.md) are the embedded ones, in order.
    let names: Vec<&str> = lesson::SOURCES.iter().map(|x| x.0).collect();
    assert_eq!(names, lesson::NAMES);
    let good: Vec<(String, String)> = lesson::SOURCES
        .iter()
        .map(|(n, md)| (n.to_string(), md.to_string()))
        .collect();
    assert_eq!(lesson::install(&good), Ok(()));
    assert!(lesson::installed());
    let unknown = vec![("nope".to_string(), good[0].1.clone())];
    assert!(lesson::install(&unknown).unwrap_err().contains("nope"));
    let broken = vec![("simd".to_string(), "no title, no body".to_string())];
    assert!(lesson::install(&broken).is_err());
    assert_eq!(lesson::all().len(), lesson::NAMES.len());
}
