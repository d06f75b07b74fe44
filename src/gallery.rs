//! The gallery of real programs in the Program view: kernels as nvcc 13.0 wrote them for sm_90
//! (`tests/data/kernels/`), each run as one thread with parameters and memory from the launch an
//! H200 ran. Each is a permalink; the test below runs every one and compares the bytes it
//! writes with what the GPU wrote.
//!
//! The PTX is not compiled into the wasm: index.html copies each file to `kernels/NAME.ptx`
//! beside the page, and the gallery fetches them when it is first shown ([`crate::fetched`]),
//! then [`install`]s them here.

use std::cell::OnceCell;

use crate::program_model::Prog;

/// One program of the gallery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// The kernel's name in `tests/data/kernels/kernels.json`.
    pub name: &'static str,
    pub title: &'static str,
    /// What it shows, in a sentence.
    pub about: &'static str,
    /// Its parameters, as the Program view's `regs`.
    pub regs: &'static str,
    /// Its memory's starting bytes, as the Program view's `mem`.
    pub mem: &'static str,
}

impl Example {
    /// Its PTX as nvcc wrote it: where the site serves it, relative to the page.
    pub fn file(&self) -> String {
        format!("kernels/{}.ptx", self.name)
    }

    /// The address that opens it, with its PTX `ptx`, in the Program view.
    pub fn query(&self, ptx: &str) -> String {
        Prog::with_memory(ptx, self.regs, self.mem, 0).share_query()
    }
}

thread_local! {
    /// The PTX of every program, in the order of [`GALLERY`], once fetched.
    static PTX: OnceCell<Vec<String>> = const { OnceCell::new() };
}

/// Keep the fetched PTX of every program, in the order of [`GALLERY`].
pub fn install(ptx: Vec<String>) -> Result<(), String> {
    if ptx.len() != GALLERY.len() {
        return Err(format!(
            "{} programs for a gallery of {}",
            ptx.len(),
            GALLERY.len()
        ));
    }
    PTX.with(|c| {
        let _ = c.set(ptx);
    });
    Ok(())
}

/// Whether the PTX is there.
pub fn installed() -> bool {
    PTX.with(|c| c.get().is_some())
}

/// Every program with the address that opens it, once the PTX is there.
pub fn links() -> Option<Vec<(&'static Example, String)>> {
    PTX.with(|c| {
        c.get().map(|v| {
            GALLERY
                .iter()
                .zip(v)
                .map(|(e, p)| (e, e.query(p)))
                .collect()
        })
    })
}

/// Every program of the gallery. Buffers are at 0x1000 for the first parameter, 0x2000 for the
/// second, and so on.
pub const GALLERY: &[Example] = &[
    Example {
        name: "add128",
        title: "A 128-bit add with the carry chain",
        about: "add.cc.u64 then addc.u64 carry the low words' carry into the high words (thread 0 of 8).",
        regs: "add128_param_0=0x1000,add128_param_1=0x2000,add128_param_2=0x3000",
        mem: "0x1000=9b1dfdd6d9fc30950100000000000000 0x2000=ffffffff000000000000000000000000",
    },
    Example {
        name: "mul64x64",
        title: "A 64×64→128-bit product",
        about: "mul.lo, mul.hi, then mad.lo.cc, madc.hi and addc add the four partial products (thread 0 of 8).",
        regs: "mul64x64_param_0=0x1000,mul64x64_param_1=0x2000,mul64x64_param_2=0x3000",
        mem: "0x1000=beb610a680000000 0x2000=4fcfb2d99c508638",
    },
    Example {
        name: "vcmpgtu4",
        title: "A byte-wise compare, as nvcc writes __vcmpgtu4",
        about: "The SWAR sequence nvcc emits for __vcmpgtu4, in a loop over 8 words.",
        regs: "vcmpgtu4_param_0=0x1000,vcmpgtu4_param_1=0x2000,vcmpgtu4_param_2=0x3000,vcmpgtu4_param_3=8",
        mem: "0x1000=8000000025c5908771bddb96ffffffff00000000010000000000000058ee5fb3 0x2000=1a81e72e29eb33cbec662bdd7f000000fdf4d4c3ffffffff66e25d4effffffff",
    },
    Example {
        name: "popcount_loop",
        title: "A popcount loop over an array",
        about: "A grid-stride loop: with one thread (%ntid.x = 1) it counts the bits of all 12 words.",
        regs: "popcount_loop_param_0=0x1000,popcount_loop_param_1=0x2000,popcount_loop_param_2=12",
        mem: "0x1000=23fde260e97c60fd48a23bbdc6425c577f000000ffffffff592c3a48297874d97f000000ff000000bf9d04a3362626f2",
    },
    Example {
        name: "fnv1a",
        title: "FNV-1a, a hash over 40 bytes",
        about: "One thread walks the buffer byte by byte: xor, then multiply by the FNV prime.",
        regs: "fnv1a_param_0=0x1000,fnv1a_param_1=40,fnv1a_param_2=0x3000",
        mem: "0x1000=3132333435363738392054686520717569636b2062726f776e20666f78206a756d7073206f766572",
    },
    Example {
        name: "saxpy_int",
        title: "y = a·x + y over an array in global memory",
        about: "16-bit loads, 32-bit multiply-add, 32-bit stores, in a grid-stride loop over 10 elements.",
        regs: "saxpy_int_param_0=-3,saxpy_int_param_1=0x2000,saxpy_int_param_2=0x3000,saxpy_int_param_3=10",
        mem: "0x2000=52dd3aee1850e883eec354d189246c8435570590 0x3000=337f7cc2ece547df00000000043b352b443a9fbb0fd33903ff000000ad47319f901c013db8659143",
    },
    Example {
        name: "local_hist",
        title: "A histogram in local memory",
        about: "The array is indexed by data, so nvcc keeps it in a .local depot: st.local.v4 clears it, ld.local and st.local count 20 bytes (thread 0 of 4).",
        regs: "local_hist_param_0=0x1000,local_hist_param_1=0x2000,local_hist_param_2=20",
        mem: "0x1000=cbd1eef3c882645513155b71d7ec735bf5727890",
    },
    Example {
        name: "const_mix",
        title: "Tables in constant and global memory",
        about: "A .const and a .global table with initialisers, read through their names with ld.const and ld.global (thread 0 of 8).",
        regs: "const_mix_param_0=0x1000,const_mix_param_1=0x2000,const_mix_param_2=8",
        mem: "0x1000=691a1131",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program_model::Action;

    /// The PTX the site serves as `ex.file()`, from the repository.
    fn ptx(ex: &Example) -> String {
        let path = format!(
            "{}/tests/data/kernels/{}.ptx",
            env!("CARGO_MANIFEST_DIR"),
            ex.name
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn the_page_serves_every_program_where_the_gallery_fetches_it() {
        let index = include_str!("../index.html");
        for ex in GALLERY {
            let copy = format!(
                r#"<link data-trunk rel="copy-file" href="tests/data/{}" data-target-path="kernels" />"#,
                ex.file()
            );
            assert!(index.contains(&copy), "index.html lacks {copy}");
        }
    }

    #[test]
    fn install_wants_every_program() {
        assert!(install(vec![String::new()]).is_err());
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len() / 2)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn every_program_writes_what_the_gpu_wrote() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/kernels/kernels.json"
        ))
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let kernels = v["kernels"].as_array().unwrap();
        install(GALLERY.iter().map(ptx).collect()).unwrap();
        let links = links().unwrap();
        assert_eq!(links.len(), GALLERY.len());
        for (ex, q) in links {
            let k = kernels.iter().find(|k| k["name"] == ex.name).unwrap();
            assert!(
                q.len() < crate::query::MAX_QUERY,
                "{}: {}",
                ex.name,
                q.len()
            );
            let p = Prog::from_query(&q);
            assert!(p.notes.is_empty(), "{}: {:?}", ex.name, p.notes);
            assert_eq!(p.mem_error, None, "{}", ex.name);
            let end = p.apply(Action::ToEnd);
            assert!(end.run.is_ok(), "{}: {:?}", ex.name, end.run.as_ref().err());
            assert!(end.at_end() && end.stopped().is_none(), "{}", ex.name);
            let written = end.memory().written;
            assert!(!written.is_empty(), "{}: wrote nothing", ex.name);
            // The buffers the GPU wrote are global; a local array is the thread's own.
            let global: Vec<_> = written
                .into_iter()
                .filter(|w| w.space == "global")
                .collect();
            assert!(!global.is_empty(), "{}: wrote no buffer", ex.name);
            for w in global {
                let addr = u64::from_str_radix(w.address.trim_start_matches("0x"), 16).unwrap();
                let param = (addr / 0x1000 - 1) as usize;
                let after = hex(k["params"][param]["after"].as_str().unwrap());
                let off = (addr % 0x1000) as usize;
                for (j, b) in w.bytes.iter().enumerate() {
                    assert_eq!(
                        *b,
                        format!("{:02x}", after[off + j]),
                        "{}: byte {} of parameter {param}",
                        ex.name,
                        off + j
                    );
                }
            }
        }
        assert!(GALLERY.len() >= 5);
    }
}
