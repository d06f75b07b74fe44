//! The crate's modules form layers without circles (see the crate documentation): a module uses
//! modules of lower layers, or of its own layer as long as no circle forms. This test reads the
//! `crate::` paths of every source file (outside its tests) and checks them against [`LAYERS`].
//!
//! A new module must be added to [`LAYERS`]; the test names any module it does not know.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The layers, lowest first. Each module named by its first path segment under `crate::`.
const LAYERS: &[&[&str]] = &[
    &["isa", "bits"],
    &["differences"],
    &["ast", "error", "value", "scan", "constexpr", "decimal"],
    &["parse", "validate"],
    &["trace"],
    &["eval", "ops"],
    &["readings", "plan", "insn"],
    &["sweep", "batch", "cuda", "sass", "atlas", "equiv", "gen"],
    &[
        "provenance",
        "intrinsics",
        "program",
        "notes",
        "predict",
        "lesson",
    ],
];

/// Items of the crate root that modules may name, with the module that defines them.
const ROOT_ITEMS: &[(&str, &str)] = &[("check", "validate")];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The code of `path` up to its first `#[cfg(test)]`, without comment lines (documentation
/// may link anywhere). A file named `tests.rs` is a module of tests (declared
/// `#[cfg(test)] mod tests;` beside the code it tests) and counts as no code at all.
fn non_test_source(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = fs::read_to_string(path).unwrap_or_default();
    let code = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => &text,
    };
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules a source text names through `crate::`: `crate::eval::x`, `crate::{a, b::c}`.
fn crate_uses(src: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in src.match_indices("crate::") {
        // Skip `$crate::` and words that merely end in "crate".
        let before = src[..i].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &src[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name = ident(part.trim());
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Every module of the crate (a file or directory under `src/`), with the `.rs` files in it.
fn modules(src: &Path) -> BTreeMap<String, Vec<std::path::PathBuf>> {
    let mut out: BTreeMap<String, Vec<std::path::PathBuf>> = BTreeMap::new();
    fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
        for e in fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, files);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    for e in fs::read_dir(src).expect("src/ is readable").flatten() {
        let p = e.path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if name == "lib" || name == "main" {
            continue;
        }
        let mut files = Vec::new();
        if p.is_dir() {
            walk(&p, &mut files);
        } else if p.extension().is_some_and(|x| x == "rs") {
            files.push(p);
        }
        // Directories of data (no Rust in them) are not modules.
        if !files.is_empty() {
            out.entry(name).or_default().extend(files);
        }
    }
    out
}

#[test]
fn modules_use_only_lower_layers_and_form_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    let mut problems = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, files) in &mods {
        let Some(own) = layer_of(name) else {
            problems.push(format!(
                "module `{name}` is in no layer: add it to LAYERS in tests/layers.rs \
                 (and to the list in src/lib.rs's documentation)"
            ));
            continue;
        };
        for f in files {
            if f.file_name().is_some_and(|n| n == "tests.rs") {
                // Skipped as tests only if it is compiled for tests only: declared in the
                // directory's mod.rs, or in the file of the same name beside the directory
                // (`simd/tests.rs` in `simd.rs`), under `#[cfg(test)]` or `#[cfg(all(test, …))]`.
                let dir = f.parent().expect("a file is in a directory");
                let parent = fs::read_to_string(dir.join("mod.rs"))
                    .or_else(|_| fs::read_to_string(dir.with_extension("rs")))
                    .unwrap_or_default();
                let lines: Vec<&str> = parent.lines().collect();
                let declared = lines.windows(2).any(|w| {
                    (w[0] == "#[cfg(test)]" || w[0].starts_with("#[cfg(all(test, "))
                        && w[1] == "mod tests;"
                });
                if !declared {
                    problems.push(format!(
                        "{} is not declared `#[cfg(test)] mod tests;` in its parent module",
                        f.display()
                    ));
                }
            }
            for used in crate_uses(&non_test_source(f)) {
                let target = ROOT_ITEMS
                    .iter()
                    .find(|(item, _)| *item == used)
                    .map_or(used.clone(), |(_, m)| m.to_string());
                if target == *name {
                    continue;
                }
                match layer_of(&target) {
                    None if mods.contains_key(&target) => problems.push(format!(
                        "{} uses `crate::{used}`, a module in no layer: add it to LAYERS",
                        f.display()
                    )),
                    None => problems.push(format!(
                        "{} uses `crate::{used}`, a root item this test does not know: name \
                         it by the module that defines it, or add it to ROOT_ITEMS",
                        f.display()
                    )),
                    Some(l) if l > own => problems.push(format!(
                        "{} (layer {own}, `{name}`) uses `crate::{used}` of the higher layer \
                         {l} (`{target}`)",
                        f.display()
                    )),
                    Some(_) => {
                        edges.entry(name.clone()).or_default().insert(target);
                    }
                }
            }
        }
    }
    // Within a layer, no circle: depth-first search for a back edge.
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        problems: &mut Vec<String>,
    ) {
        if done.contains(n) {
            return;
        }
        if let Some(i) = stack.iter().position(|s| s == n) {
            problems.push(format!("circle: {} -> {n}", stack[i..].join(" -> ")));
            return;
        }
        stack.push(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            visit(m, edges, stack, done, problems);
        }
        stack.pop();
        done.insert(n.to_string());
    }
    let mut done = BTreeSet::new();
    for n in edges.keys() {
        visit(n, &edges, &mut Vec::new(), &mut done, &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn paths_are_read_from_uses_and_groups() {
    let src = "use crate::eval::{self, Inputs};\nuse crate::{a, b::c};\nfoo($crate::x); \
               let y = crate::isa::widths(op);";
    let got: Vec<String> = crate_uses(src).into_iter().collect();
    assert_eq!(got, ["a", "b", "eval", "isa"]);
}
