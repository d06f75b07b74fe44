#!/usr/bin/env python3
"""Run small integer kernels, as nvcc writes them, on an NVIDIA GPU and keep what they wrote: the
ground truth for running one thread of a kernel (`.entry` with `.param`, `ld`/`st`, branches,
special registers) without a GPU.

On the GPU machine (nvcc and CuPy there), from the repository root:

    scripts/gpu_kernels.py --out DIR

For every tests/data/kernels/NAME.cu it writes DIR/NAME.ptx (`nvcc -arch=sm_90 -O3 -ptx`), runs
that PTX on the GPU with the inputs below (fixed, so a rerun asks the same), and writes
DIR/kernels.json: for each kernel its entry, grid and block, and every parameter by its PTX
name: a buffer's contents before and after the run, as hex bytes in address order (an output
buffer starts as 0xee bytes, so bytes no thread wrote stay 0xee), or a scalar's value. A kernel
that fails is reported in DIR/kernels.json with its error and the others still run.
"""
import argparse
import json
import os
import random
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "tests", "data", "kernels")


def u32s(rng, n, edges=(0, 1, 0x7F, 0x80, 0xFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)):
    return [rng.choice(edges) if rng.random() < 0.3 else rng.getrandbits(32) for _ in range(n)]


def u64s(rng, n):
    e = (0, 1, 0xFFFFFFFFFFFFFFFF, 0x8000000000000000, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFF)
    return [rng.choice(e) if rng.random() < 0.4 else rng.getrandbits(64) for _ in range(n)]


def specs():
    """(name, grid, block, [(kind, value)]) where kind is 'u64[]', 'u32[]', 's16[]', 's32[]',
    'u8[]', 'out:T[N]' (an output buffer of N elements, filled with 0xee bytes first) or a
    scalar type ('s32')."""
    rng = random.Random(24)
    n = 8
    text = b"123456789 The quick brown fox jumps over"
    return [
        ("add128", 1, n, [("u64[]", u64s(rng, 2 * n)), ("u64[]", u64s(rng, 2 * n)),
                          ("out:u64", 2 * n)]),
        ("mul64x64", 1, n, [("u32[]", u32s(rng, 2 * n)), ("u32[]", u32s(rng, 2 * n)),
                            ("out:u32", 4 * n)]),
        ("vcmpgtu4", 1, 1, [("u32[]", u32s(rng, n)), ("u32[]", u32s(rng, n)), ("out:u32", n),
                            ("s32", n)]),
        ("popcount_loop", 1, 4, [("u32[]", u32s(rng, 12)), ("out:u32", 12), ("s32", 12)]),
        ("fnv1a", 1, 1, [("u8[]", list(text)), ("s32", len(text)), ("out:u32", 1)]),
        ("crc32", 1, 1, [("u8[]", list(text[:9])), ("s32", 9), ("out:u32", 1)]),
        ("saxpy_int", 1, 4, [("s32", -3), ("s16[]", [rng.randrange(-40000, 40000) & 0xFFFF
                                                       for _ in range(10)]),
                             ("s32[]", u32s(rng, 10)), ("s32", 10)]),
        ("bytes_prmt", 1, 8, [("u32[]", u32s(rng, 6)), ("out:u128", 6), ("s32", 6)]),
        # Added later: kept after the first eight so that their inputs do not change.
        ("local_hist", 1, 4, [("u8[]", [rng.getrandbits(8) for _ in range(4 * 20)]),
                              ("out:u32", 4 * 16), ("s32", 20)]),
        ("vec_narrow", 2, 4, [("u32[]", u32s(rng, 4 * 7)), ("out:u32", 8), ("s8", -5),
                              ("u16", 0xfff3), ("s32", 7)]),
        ("collatz", 1, 8, [("u32[]", [27, 1, 0, 97, 0xFFFFFFFF, 6171, 2, 871]),
                           ("out:u32", 8), ("s32", 8)]),
        ("const_mix", 2, 4, [("u32[]", u32s(rng, 8)), ("out:u32", 8), ("s32", 8)]),
    ]


def ptx_params(ptx, entry):
    """[(type, name)] of the entry's parameters, in order."""
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\((.*?)\)", ptx, re.S)
    out = []
    for decl in m.group(1).split(","):
        words = decl.split()
        if words:
            out.append((words[1].lstrip("."), words[-1]))
    return out


def main():
    import cupy as cp
    import numpy as np

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    dtypes = {"u64": np.uint64, "u32": np.uint32, "s32": np.uint32, "s16": np.uint16,
              "u8": np.uint8, "u128": np.uint32}
    widths = {"u64": 8, "u32": 4, "s32": 4, "s16": 2, "u8": 1, "u128": 16}
    result = []
    for name, grid, block, params in specs():
        try:
            result.append(run_one(name, grid, block, params, args.out, cp, np, dtypes, widths))
        except Exception as e:  # keep the others
            result.append({"name": name, "error": repr(e)})
            print(name, "failed:", repr(e))
    with open(os.path.join(args.out, "kernels.json"), "w") as f:
        json.dump({"kernels": result}, f, indent=1)
    print("%d kernels run" % sum("error" not in r for r in result))


def run_one(name, grid, block, params, outdir, cp, np, dtypes, widths):
    if True:
        src = os.path.join(KERNELS, name + ".cu")
        ptx_path = os.path.join(outdir, name + ".ptx")
        subprocess.run(["nvcc", "-arch=sm_90", "-O3", "-ptx", src, "-o", ptx_path], check=True)
        ptx = open(ptx_path).read()
        names = ptx_params(ptx, name)
        assert len(names) == len(params), (name, names)
        mod = cp.RawModule(path=ptx_path)
        fn = mod.get_function(name)
        launch, bufs = [], []
        for (pty, pname), (kind, value) in zip(names, params):
            if kind.endswith("[]") or kind.startswith("out:"):
                t = kind[4:] if kind.startswith("out:") else kind[:-2]
                if kind.startswith("out:"):
                    host = np.full(value * widths[t], 0xEE, dtype=np.uint8)
                else:
                    host = np.array(value, dtype=dtypes[t]).view(np.uint8)
                dev = cp.asarray(host)
                launch.append(dev)
                bufs.append((pname, t, host.copy(), dev))
            else:
                launch.append({"s8": np.int8, "u16": np.uint16}.get(kind, np.int32)(value))
        fn((grid,), (block,), tuple(launch))
        cp.cuda.runtime.deviceSynchronize()
        rec = {"name": name, "entry": name, "ptx": name + ".ptx", "grid": [grid, 1, 1],
               "block": [block, 1, 1], "params": []}
        it = iter(bufs)
        for (pty, pname), (kind, value) in zip(names, params):
            if kind.endswith("[]") or kind.startswith("out:"):
                _, t, before, dev = next(it)
                after = cp.asnumpy(dev)
                rec["params"].append({"name": pname, "type": pty, "buffer": t,
                                      "before": before.tobytes().hex(),
                                      "after": after.tobytes().hex()})
            else:
                rec["params"].append({"name": pname, "type": pty, "value": value})
        return rec


if __name__ == "__main__":
    main()
