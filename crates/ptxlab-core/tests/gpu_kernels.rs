//! The kernels of `tests/data/kernels/` (CUDA source, the PTX nvcc wrote for sm_90, and what an
//! H200 wrote to memory running it; made by `scripts/gpu_kernels.py`) against an independent
//! model of each, written here in plain Rust. This checks the data that a one-thread run of the
//! PTX (issue: real PTX, whole kernels) will be compared with, and says what each kernel means.

use std::collections::BTreeMap;

struct Param {
    before: Vec<u8>,
    after: Vec<u8>,
    value: Option<i64>,
}

fn kernels() -> BTreeMap<String, (u32, Vec<Param>)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/kernels/kernels.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let hex = |s: &serde_json::Value| -> Vec<u8> {
        let s = s.as_str().unwrap_or("");
        (0..s.len() / 2)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex byte"))
            .collect()
    };
    let mut out = BTreeMap::new();
    for k in v["kernels"].as_array().expect("kernels") {
        let name = k["name"].as_str().expect("name").to_string();
        assert!(
            k.get("error").is_none(),
            "{name} failed on the GPU: {}",
            k["error"]
        );
        let threads =
            (k["grid"][0].as_u64().expect("grid") * k["block"][0].as_u64().expect("block")) as u32;
        let params = k["params"]
            .as_array()
            .expect("params")
            .iter()
            .map(|p| Param {
                before: hex(&p["before"]),
                after: hex(&p["after"]),
                value: p["value"].as_i64(),
            })
            .collect();
        // The PTX nvcc wrote is kept beside it.
        let ptx = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/kernels/");
        let ptx = std::fs::read_to_string(format!("{ptx}{}", k["ptx"].as_str().expect("ptx")))
            .expect("the kernel's PTX");
        assert!(ptx.contains(&format!(".entry {name}(")), "{name}");
        out.insert(name, (threads, params));
    }
    out
}

fn words32(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

fn words64(b: &[u8]) -> Vec<u64> {
    b.chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

#[test]
fn every_kernel_wrote_what_its_model_computes() {
    let k = kernels();
    assert_eq!(k.len(), 12);

    let (n, p) = &k["add128"];
    let (a, b, out) = (
        words64(&p[0].before),
        words64(&p[1].before),
        words64(&p[2].after),
    );
    for i in 0..*n as usize {
        let x = u128::from(a[2 * i]) | u128::from(a[2 * i + 1]) << 64;
        let y = u128::from(b[2 * i]) | u128::from(b[2 * i + 1]) << 64;
        let s = x.wrapping_add(y);
        assert_eq!(
            (out[2 * i], out[2 * i + 1]),
            (s as u64, (s >> 64) as u64),
            "add128 {i}"
        );
    }

    let (n, p) = &k["mul64x64"];
    let (a, b, out) = (
        words32(&p[0].before),
        words32(&p[1].before),
        words32(&p[2].after),
    );
    for i in 0..*n as usize {
        let x = u64::from(a[2 * i]) | u64::from(a[2 * i + 1]) << 32;
        let y = u64::from(b[2 * i]) | u64::from(b[2 * i + 1]) << 32;
        let m = u128::from(x) * u128::from(y);
        let want: Vec<u32> = (0..4).map(|w| (m >> (32 * w)) as u32).collect();
        assert_eq!(&out[4 * i..4 * i + 4], &want[..], "mul64x64 {i}");
    }

    let (_, p) = &k["vcmpgtu4"];
    let (a, b, out) = (
        words32(&p[0].before),
        words32(&p[1].before),
        words32(&p[2].after),
    );
    assert_eq!(p[3].value, Some(a.len() as i64));
    for i in 0..a.len() {
        let want = (0..4).fold(0u32, |d, j| {
            let (x, y) = ((a[i] >> (8 * j)) & 0xff, (b[i] >> (8 * j)) & 0xff);
            d | if x > y { 0xff << (8 * j) } else { 0 }
        });
        assert_eq!(out[i], want, "vcmpgtu4 {i}");
    }

    let (_, p) = &k["popcount_loop"];
    let (input, out) = (words32(&p[0].before), words32(&p[1].after));
    let want: Vec<u32> = input.iter().map(|x| x.count_ones()).collect();
    assert_eq!(out, want, "popcount_loop");

    let (_, p) = &k["fnv1a"];
    let fnv = p[0].before.iter().fold(2_166_136_261u32, |h, &c| {
        (h ^ u32::from(c)).wrapping_mul(16_777_619)
    });
    assert_eq!(words32(&p[2].after), [fnv], "fnv1a");

    let (_, p) = &k["crc32"];
    let crc = !p[0].before.iter().fold(!0u32, |c, &byte| {
        (0..8).fold(c ^ u32::from(byte), |c, _| {
            (c >> 1) ^ (0xedb8_8320 & (c & 1).wrapping_neg())
        })
    });
    assert_eq!(words32(&p[2].after), [crc], "crc32");
    assert_eq!(crc, 0xcbf4_3926, "the CRC-32 check value of \"123456789\"");

    let (_, p) = &k["saxpy_int"];
    let a = p[0].value.expect("a") as i32;
    let x: Vec<i16> = p[1]
        .before
        .chunks(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    let (y0, y1) = (words32(&p[2].before), words32(&p[2].after));
    for i in 0..x.len() {
        let want = a.wrapping_mul(i32::from(x[i])).wrapping_add(y0[i] as i32);
        assert_eq!(y1[i] as i32, want, "saxpy_int {i}");
    }

    let (_, p) = &k["bytes_prmt"];
    let (input, out) = (words32(&p[0].before), words32(&p[1].after));
    for (t, &x) in input.iter().enumerate() {
        let want = [
            x.swap_bytes(),
            (x >> 4) & 0xfff,
            x.leading_zeros(),
            (x ^ (x >> 1)).count_ones(),
        ];
        assert_eq!(&out[4 * t..4 * t + 4], &want, "bytes_prmt {t}");
    }

    let (n, p) = &k["local_hist"];
    let (bytes, out) = (&p[0].before, words32(&p[1].after));
    let per = p[2].value.expect("n") as usize;
    for t in 0..*n as usize {
        let mut h = [0u32; 16];
        for &b in &bytes[t * per..(t + 1) * per] {
            h[(b & 15) as usize] += 1;
        }
        assert_eq!(&out[16 * t..16 * t + 16], &h, "local_hist {t}");
    }

    let (n, p) = &k["vec_narrow"];
    let v = words32(&p[0].before);
    let out = words32(&p[1].after);
    let (sc, u, len) = (
        p[2].value.expect("s") as i8 as i32,
        p[3].value.expect("u") as u16 as i32,
        p[4].value.expect("n") as usize,
    );
    for i in 0..*n as usize {
        let want = if i < len {
            let (x, y, z, w) = (
                v[4 * i] as i32,
                v[4 * i + 1] as i32,
                v[4 * i + 2] as i32,
                v[4 * i + 3] as i32,
            );
            ((x.wrapping_mul(sc).wrapping_add(y)) ^ z.wrapping_sub(w)).wrapping_add(u) as u32
        } else {
            0xeeee_eeee // this thread returned early: the byte pattern the buffer started with
        };
        assert_eq!(out[i], want, "vec_narrow {i}");
    }

    let (_, p) = &k["collatz"];
    let (input, out) = (words32(&p[0].before), words32(&p[1].after));
    for (i, &x0) in input.iter().enumerate() {
        let (mut x, mut steps) = (x0, 0u32);
        while x > 1 && steps < 300 {
            x = if x & 1 == 1 {
                x.wrapping_mul(3).wrapping_add(1)
            } else {
                x >> 1
            };
            steps += 1;
        }
        assert_eq!(out[i], steps, "collatz {i}");
    }
    assert_eq!(out[0], 111, "27 takes 111 steps to reach 1");

    let (_, p) = &k["const_mix"];
    let (input, out) = (words32(&p[0].before), words32(&p[1].after));
    let ktab = [0x9e37_79b9u32, 0x7f4a_7c15, 0x85eb_ca6b, 0xc2b2_ae35];
    let gtab = [3u32, 5, 7, 11];
    for (i, &x0) in input.iter().enumerate() {
        let mut x = x0 ^ (x0 >> 16);
        x = x.wrapping_mul(ktab[i & 3]);
        x = x.wrapping_add(gtab[((x >> 30) & 3) as usize]);
        assert_eq!(out[i], x ^ (x >> 13), "const_mix {i}");
    }
}
