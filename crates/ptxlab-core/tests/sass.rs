//! The committed machine-code data (`src/sass-sm90.txt`) is what `sass::extract` derives from
//! `shared/conformance/sass-sm90.json`. Set `PTXLAB_BLESS=1` to write it again.

mod shared;

use std::collections::BTreeMap;
use std::path::PathBuf;

use ptxlab_core::{check, sass};

fn derive() -> Option<String> {
    let json = shared::conformance_file("sass-sm90.json")?;
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the shared folder sits beside the repository)",
            json.display()
        )
    });
    let map: BTreeMap<String, String> =
        serde_json::from_str(&text).expect("a JSON object of strings");
    // Keep the file's order: BTreeMap sorts, so order by the opcode table, then by text.
    let mut forms: Vec<(String, Vec<String>)> = map
        .iter()
        .map(|(ptx, listing)| {
            let insn = check(ptx).unwrap_or_else(|e| panic!("{ptx}: {}", e.message));
            (insn.canonical(), sass::extract(listing))
        })
        .collect();
    forms.sort_by_key(|(p, _)| {
        let insn = check(p).unwrap();
        (insn.instr.index(), p.clone())
    });
    Some(sass::render(&forms))
}

#[test]
fn committed_data_matches_the_measurements() {
    let Some(derived) = derive() else { return };
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/sass-sm90.txt");
    if std::env::var_os("PTXLAB_BLESS").is_some() {
        std::fs::write(&path, &derived).expect("writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).expect("readable");
    assert!(
        committed == derived,
        "src/sass-sm90.txt differs from what sass::extract derives; run with PTXLAB_BLESS=1 to update"
    );
    assert_eq!(sass::DATA, committed, "rebuild: the embedded copy is stale");
}
