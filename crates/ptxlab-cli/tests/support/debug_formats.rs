// The scan for text built from `Debug` output, shared by the CLI's test (tests/plain_text.rs)
// and the playground's (src/ui/stages.rs), each of which `include!`s this file.

/// `file:line: text` for every format argument written with `:?` outside tests and comments,
/// in the `.rs` files below `dir`.
fn debug_formats(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(debug_formats(&p));
            continue;
        }
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            let l = line.trim_start();
            if !l.starts_with("//") && (l.contains(":?}") || l.contains(":#?}")) {
                out.push(format!("{}:{}: {}", p.display(), i + 1, l));
            }
        }
    }
    out
}
