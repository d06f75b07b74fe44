#!/usr/bin/env python3
"""Run every CUDA intrinsic of crates/ptxlab-core/src/intrinsics.txt on an NVIDIA GPU, over the
inputs scripts/intrinsics_check.py builds, and write the digests of what the hardware computed:
the ground truth for the meanings in the core (tests/intrinsics_ptx.rs compares them).

On the GPU machine (nvcc and CuPy there, no network needed), from the repository root:

    python3 scripts/gpu_intrinsics.py --out DIR

It generates one .cu file (DIR/gpu_intrinsics.cu) with one `extern "C" __global__` kernel per
intrinsic: every argument is read from its own device array (one input per thread, grid-stride),
the real intrinsic is called (`__vibmax_s16x2(a[i], b[i], &q[0], &q[1])` ...), the result and any
bools it writes are stored. It compiles the file once with `nvcc -arch=sm_XX -O3 -cubin` (XX: the
GPU's compute capability unless --arch says; a file that does not compile is split in halves
until the failing kernels are alone, which go to DIR/failures.txt), runs every kernel and writes

  * DIR/intrinsics-gpu.txt: a first comment line (GPU, driver, nvcc, date), then per intrinsic
    `NAME COUNT DIGEST` exactly as crates/ptxlab-core/tests/data/intrinsics-ptx.txt: the number of
    inputs and the FNV-1a digest of the results (d, then any bools, 8 little-endian bytes each);
  * DIR/failures.txt: the intrinsics that did not compile, load or run, with the error;
  * DIR/differences.txt: where a digest differs from intrinsics-ptx.txt, the first inputs on
    which the GPU and the PTX interpreter of intrinsics_check.py part.

Without a GPU:

    python3 scripts/gpu_intrinsics.py --compile-only --out DIR [--nvcc PATH] [--arch 90]
        generate the .cu and compile it (cubin, and PTX for reading), check every kernel is in
        the cubin and calls no function (cuobjdump, where it is next to nvcc).
    python3 scripts/gpu_intrinsics.py --check-digests DIR/intrinsics-gpu.txt
        compare a written file with intrinsics-ptx.txt (--against FILE for another one).
    python3 scripts/gpu_intrinsics.py --self-test [--only REGEX]
        run the whole path after the GPU (input arrays, result arrays of the C types, digests)
        with the PTX interpreter standing in for the device, and compare with intrinsics-ptx.txt.

The inputs, the digest and the reading of intrinsics.txt are intrinsics_check.py's own
functions (`read_data`, `inputs`, `fnv`); the C function of each intrinsic (`__dp4a_u` is the
unsigned overload of `__dp4a`) and the bools it writes come from intrinsics.py's table.
"""
import argparse
import datetime
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import intrinsics_check as ic  # noqa: E402  (inputs, digest, data reading)
import intrinsics as spec  # noqa: E402  (C function names, bools written)

CTYPE = {"u32": "unsigned int", "s32": "int", "u64": "unsigned long long", "s64": "long long"}
BLOCK = 256
MAX_GRID = 4096

# --------------------------------------------------------------------------------------------
# What to run


def plan(only=None):
    """The intrinsics to run, in the order of intrinsics.txt: dicts with name, k (the position in
    the file: the seed of its random inputs), res, args, outs (bools written), fn (C function)
    and kernel (its kernel's name)."""
    table = {name: (fn, res, args) for name, fn, res, args in spec.INTRINSICS}
    out = []
    for k, intr in enumerate(ic.read_data()):
        name = intr["name"]
        if only and not re.fullmatch(only, name):
            continue
        fn, res, args = table.get(name, (None, None, None))
        if fn is None:
            # Not in intrinsics.py's table: the CUDA name itself (`_u` marks the unsigned
            # overload of the dot products).
            fn = re.sub(r"_u$", "", name) if name.startswith("__dp") else name
        elif (res, list(args)) != (intr["res"], intr["args"]):
            print(f"warning: {name}: intrinsics.py says {res} ({','.join(args)}), intrinsics.txt "
                  f"{intr['res']} ({','.join(intr['args'])}); using intrinsics.txt",
                  file=sys.stderr)
        outs = list(intr["outs"])
        if outs != spec.OUTS.get(name, outs):
            print(f"warning: {name}: bools {spec.OUTS[name]} in intrinsics.py, {outs} in "
                  "intrinsics.txt; using intrinsics.txt", file=sys.stderr)
        out.append(dict(intr, k=k, fn=fn, kernel="k_" + name.lstrip("_")))
    return out


def kernel_source(it):
    """One kernel: `out[i] = FN(a[i], b[i], ..., &q[0], ...)` for every i < n, grid-stride."""
    argn = "abc"
    params = [f"{CTYPE[it['res']]} *__restrict__ out"]
    if it["outs"]:
        params.append("unsigned char *__restrict__ p")
    params += [f"const {CTYPE[t]} *__restrict__ {argn[j]}" for j, t in enumerate(it["args"])]
    params.append("int n")
    nq = len(it["outs"])
    call = ", ".join([f"{argn[j]}[i]" for j in range(len(it["args"]))] +
                     [f"&q[{j}]" for j in range(nq)])
    body = []
    if nq:
        body.append(f"bool q[{nq}];")
    body.append(f"out[i] = {it['fn']}({call});")
    body += [f"p[{nq} * i + {j}] = q[{j}] ? 1 : 0;" for j in range(nq)]
    return (f"// {it['name']}: {it['res']} {it['fn']}({', '.join(it['args'] + ['bool*'] * nq)})\n"
            f'extern "C" __global__ void {it["kernel"]}({", ".join(params)})\n'
            "{\n"
            "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
            "         i += blockDim.x * gridDim.x) {\n"
            + "".join(f"        {s}\n" for s in body) +
            "    }\n"
            "}\n")


def file_source(items):
    return ("// Generated by scripts/gpu_intrinsics.py: one kernel per CUDA intrinsic of\n"
            "// crates/ptxlab-core/src/intrinsics.txt, every argument from its own array.\n\n"
            + "\n".join(kernel_source(it) for it in items))


# --------------------------------------------------------------------------------------------
# Compiling


def find_nvcc(given=None):
    """--nvcc, $NVCC, nvcc on PATH, /usr/local/cuda/bin/nvcc, the newest /usr/local/cuda-*, the
    PyPI wheel scripts/ptxas_wheel.py knows; None where there is none."""
    cands = [given, os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"]
    cands += sorted(glob.glob("/usr/local/cuda-*/bin/nvcc"), reverse=True)
    try:
        from ptxas_wheel import cuda_root
        r = cuda_root()
        if r:
            cands.append(os.path.join(r, "bin", "nvcc"))
    except Exception:
        pass
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    if given:
        sys.exit(f"error: --nvcc {given}: not an executable file")
    return None


def nvcc_env(nvcc):
    """nvcc's own folder first on PATH (it finds cicc, ptxas, fatbinary there or by its
    profile)."""
    return dict(os.environ, PATH=os.path.dirname(nvcc) + os.pathsep + os.environ.get("PATH", ""))


def nvcc_version(nvcc):
    try:
        v = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60,
                           env=nvcc_env(nvcc)).stdout
    except Exception as e:
        return f"unknown ({e})"
    m = re.search(r"release ([\d.]+), V([\d.]+)", v)
    return m.group(2) if m else (v.strip().splitlines() or ["unknown"])[-1]


class NvccCompiler:
    def __init__(self, nvcc, arch, workdir, extra=()):
        self.nvcc, self.arch, self.workdir, self.extra = nvcc, arch, workdir, list(extra)
        self.env = nvcc_env(nvcc)
        self.count = 0
        self.describe = f"nvcc {nvcc_version(nvcc)} ({nvcc}) -arch=sm_{arch} -O3 -cubin"

    def run(self, items, kind="cubin"):
        """Compile the kernels of `items` into one file: (path, None) or (None, error text)."""
        self.count += 1
        base = os.path.join(self.workdir, f"part{self.count:03d}")
        cu = base + ".cu"
        with open(cu, "w") as f:
            f.write(file_source(items))
        out = f"{base}.{kind}"
        cmd = [self.nvcc, f"-arch=sm_{self.arch}", "-O3", f"-{kind}", cu, "-o", out] + self.extra
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=600)
        except Exception as e:
            return None, f"{' '.join(cmd)}: {e}"
        if p.returncode != 0 or not os.path.exists(out):
            return None, (f"{' '.join(cmd)} exited with {p.returncode}\n"
                          + (p.stdout + p.stderr).strip())
        return out, None


class NvrtcCompiler:
    """CuPy's NVRTC, where no nvcc works: the module itself instead of a file."""

    def __init__(self, arch):
        import cupy as cp
        self.cp, self.arch = cp, arch
        try:
            v = ".".join(map(str, cp.cuda.nvrtc.getVersion()))
        except Exception:
            v = "?"
        self.describe = f"NVRTC {v} (CuPy, no working nvcc) --gpu-architecture=sm_{arch}"

    def run(self, items, kind="cubin"):
        try:
            mod = self.cp.RawModule(code=file_source(items),
                                    options=(f"--gpu-architecture=sm_{self.arch}",))
            mod.compile()
            return mod, None
        except Exception as e:
            return None, f"NVRTC: {e}"


def compile_all(compiler, items, log=print):
    """Compile every kernel, the whole file first; a file that fails is split in halves until
    each failing kernel is alone. ([(module, [items])], {name: error})."""
    modules, failures = [], {}

    def go(group):
        mod, err = compiler.run(group)
        if mod is not None:
            modules.append((mod, group))
            return
        if len(group) == 1:
            failures[group[0]["name"]] = "compile: " + err
            log(f"  {group[0]['name']}: does not compile")
            return
        mid = len(group) // 2
        go(group[:mid])
        go(group[mid:])

    mod, err = compiler.run(items)
    if mod is not None:
        return [(mod, items)], {}
    log("the whole file does not compile:\n" + indent(tail(err, 30)))
    # A toolchain that cannot compile even the first kernel alone: say so once rather than
    # once per kernel.
    mod1, err1 = compiler.run(items[:1])
    if mod1 is None:
        raise ToolchainBroken(err1)
    modules.append((mod1, items[:1]))
    log("compiling in parts to find the kernels that fail")
    if len(items) > 1:
        go(items[1:])
    return modules, failures


class ToolchainBroken(Exception):
    pass


def tail(text, n):
    lines = text.strip().splitlines()
    return "\n".join(lines[-n:] if len(lines) > n else lines)


def indent(text, pre="    "):
    return "\n".join(pre + s for s in text.splitlines())


def cubin_functions(cuobjdump, path):
    """{kernel name: [SASS opcodes]} of a cubin, by cuobjdump -sass."""
    p = subprocess.run([cuobjdump, "-sass", path], capture_output=True, text=True, check=True)
    return {k: [spec.opcode(i) for i in insns] for k, insns in spec.sass_by_kernel(p.stdout).items()}


# --------------------------------------------------------------------------------------------
# Inputs and results as arrays (shared by the GPU run and --self-test)


def arrays(np, it):
    """The inputs intrinsics_check.py builds for `it`, one array per argument in its C type."""
    ins = ic.inputs(it["k"], it)
    table = np.array(ins, dtype=np.uint64).reshape(len(ins), len(it["args"]))
    cols = []
    for j, t in enumerate(it["args"]):
        col = table[:, j]
        if ic.bits_of(t) == 32:
            col = col.astype(np.uint32)
        cols.append(np.ascontiguousarray(col).view(np_type(np, t)))
    return len(ins), cols


def np_type(np, t):
    return {"u32": np.uint32, "s32": np.int32, "u64": np.uint64, "s64": np.int64}[t]


def digest(np, it, n, out, p):
    """intrinsics_check.py's count and digest of the results: per input d (zero-extended from
    the result's width), then each bool. Also the flat list, for finding differences."""
    unsigned = {4: np.uint32, 8: np.uint64}[out.dtype.itemsize]
    cols = [out.view(unsigned).astype(np.uint64)]
    nq = len(it["outs"])
    if nq:
        q = p.reshape(n, nq).astype(np.uint64)
        cols += [q[:, j] for j in range(nq)]
    flat = np.stack(cols, axis=1).reshape(-1).tolist()
    return n, ic.fnv(flat), flat


def bad_bools(np, p):
    return int(np.count_nonzero(p > 1)) if p is not None else 0


# --------------------------------------------------------------------------------------------
# Digest files


def read_digests(path):
    out = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        out[f[0]] = (int(f[1]), f[2])
    return out


def compare(got_path, want_path, quiet=False):
    """Print where `got_path` differs from `want_path`; the list of differing names."""
    got, want = read_digests(got_path), read_digests(want_path)
    diff = []
    for name, (n, d) in got.items():
        if name not in want:
            print(f"{name}: not in {os.path.basename(want_path)}")
            diff.append(name)
        elif want[name][0] != n:
            print(f"{name}: {n} inputs, {want[name][0]} in {os.path.basename(want_path)} "
                  "(inputs built differently)")
            diff.append(name)
        elif want[name][1] != d:
            print(f"{name}: digest {d}, {want[name][1]} in {os.path.basename(want_path)}")
            diff.append(name)
    missing = [x for x in want if x not in got]
    if missing and not quiet:
        print(f"not in {os.path.basename(got_path)} ({len(missing)}): {' '.join(missing)}")
    print(f"{len(got)} intrinsics in {got_path}: {len(got) - len(diff)} agree with {want_path}, "
          f"{len(diff)} differ, {len(missing)} missing")
    return diff


def write_digests(path, header, lines):
    with open(path, "w") as f:
        f.write(header.rstrip("\n").replace("\n", " ") + "\n" + "".join(x + "\n" for x in lines))


def explain(np, it, n, cols, flat, limit=5):
    """The first inputs where the GPU's results and the PTX interpreter's part."""
    try:
        f = ic.build(it)
    except Exception as e:
        return [f"  (the PTX interpreter cannot run it: {e})"]
    width = 1 + len(it["outs"])
    rows = list(zip(*[c.view({4: np.uint32, 8: np.uint64}[c.dtype.itemsize]).tolist()
                      for c in cols]))
    out, bad = [], 0
    for i, args in enumerate(rows):
        want = f(*args)
        got = flat[width * i: width * (i + 1)]
        if want != got:
            bad += 1
            if len(out) < limit:
                out.append(f"  ({', '.join(hex(a) for a in args)}): GPU "
                           f"{', '.join(hex(g) for g in got)}; PTX {', '.join(hex(w) for w in want)}")
    return [f"  {bad} of {n} inputs differ"] + out


# --------------------------------------------------------------------------------------------
# Modes


def gpu_info(cp):
    dev = cp.cuda.Device(0)
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props["name"]
    name = name.decode() if isinstance(name, bytes) else str(name)
    cc = dev.compute_capability
    drv = None
    try:
        q = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader",
                            "-i", "0"], capture_output=True, text=True, timeout=30)
        drv = q.stdout.strip().splitlines()[0] if q.returncode == 0 and q.stdout.strip() else None
    except Exception:
        pass
    v = cp.cuda.runtime.driverGetVersion()
    cuda = f"CUDA {v // 1000}.{v % 1000 // 10}"
    driver = f"driver {drv} ({cuda})" if drv else f"driver for {cuda}"
    return name, cc, driver


def run_gpu(args, items):
    try:
        import numpy as np
        import cupy as cp
    except ImportError as e:
        sys.exit(f"error: the GPU run needs numpy and CuPy ({e})")
    t0 = time.time()
    try:
        name, cc, driver = gpu_info(cp)
    except Exception as e:
        sys.exit(f"error: no usable GPU through CuPy: {e}")
    arch = args.arch or cc
    print(f"GPU 0: {name}, compute capability {cc[:-1]}.{cc[-1]}, {driver}; compiling for "
          f"sm_{arch}")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "gpu_intrinsics.cu"), "w") as f:
        f.write(file_source(items))
    failures = {}
    work = tempfile.mkdtemp(prefix="gpu_intrinsics.")
    nvcc = find_nvcc(args.nvcc)
    modules = None
    compiler = None
    if nvcc:
        compiler = NvccCompiler(nvcc, arch, work, args.nvcc_flag)
        print(f"compiling {len(items)} kernels: {compiler.describe}")
        try:
            modules, failures = compile_all(compiler, items)
            modules = load_cubins(cp, compiler, modules, failures)
        except ToolchainBroken as e:
            print("error: nvcc cannot compile even one kernel:\n" + indent(tail(str(e), 30)))
            modules = None
    else:
        print("error: no nvcc (PATH, /usr/local/cuda/bin, --nvcc, $NVCC)")
    if modules is None or (not modules and failures):
        print("falling back to CuPy's NVRTC")
        compiler = NvrtcCompiler(arch)
        try:
            modules, failures = compile_all(compiler, items)
        except ToolchainBroken as e:
            print("error: NVRTC cannot compile either:\n" + indent(tail(str(e), 30)))
            modules, failures = [], {it["name"]: "compile: no working compiler" for it in items}
    print(f"  compiled in {time.time() - t0:.1f} s")

    funcs = {}
    for mod, group in modules:
        for it in group:
            try:
                funcs[it["name"]] = mod.get_function(it["kernel"])
            except Exception as e:
                failures[it["name"]] = f"load: {e}"

    # Launch every kernel on its inputs (one launch per intrinsic), synchronizing after each so
    # that an error names its kernel.
    t1 = time.time()
    pending = []
    for j, it in enumerate(items):
        if it["name"] not in funcs:
            continue
        try:
            n, cols = arrays(np, it)
            dev_in = [cp.asarray(c) for c in cols]
            out = cp.full(n, 0xEE, dtype=np_type(np, it["res"]))
            p = cp.full(n * len(it["outs"]), 0xEE, dtype=np.uint8) if it["outs"] else None
            grid = min((n + BLOCK - 1) // BLOCK, MAX_GRID)
            params = (out,) + ((p,) if p is not None else ()) + tuple(dev_in) + (np.int32(n),)
            funcs[it["name"]]((grid,), (BLOCK,), params)
            cp.cuda.runtime.deviceSynchronize()
            pending.append((it, n, cols, out, p))
        except Exception as e:
            failures[it["name"]] = f"run: {e}"
            print(f"  {it['name']}: failed to run: {e}")
        if (j + 1) % 25 == 0 or j + 1 == len(items):
            print(f"  ran {j + 1}/{len(items)} ({time.time() - t1:.1f} s)")

    # Digests.
    t2 = time.time()
    want = read_digests(args.against) if os.path.exists(args.against) else {}
    lines, diff_text, differ = [], [], []
    for it, n, cols, out, p in pending:
        try:
            out_h = cp.asnumpy(out)
            p_h = cp.asnumpy(p) if p is not None else None
        except Exception as e:
            failures[it["name"]] = f"read back: {e}"
            continue
        if bad_bools(np, p_h):
            failures[it["name"]] = f"run: {bad_bools(np, p_h)} bools neither 0 nor 1"
            continue
        count, d, flat = digest(np, it, n, out_h, p_h)
        lines.append(f"{it['name']} {count} {d:016x}")
        w = want.get(it["name"])
        if w and (w[0] != count or w[1] != f"{d:016x}"):
            differ.append(it["name"])
            diff_text.append(f"{it['name']}: digest {d:016x}, PTX {w[1]}")
            diff_text += explain(np, it, n, cols, flat)
    print(f"  digests in {time.time() - t2:.1f} s")

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    header = (f"# measured on {name} (compute capability {cc[:-1]}.{cc[-1]}, sm_{arch} code), "
              f"{driver}, {compiler.describe if compiler else 'no compiler'}, {date}: count and "
              "FNV-1a digest of the GPU results (d, then any bools) per intrinsic, written by "
              "scripts/gpu_intrinsics.py")
    gpu_path = os.path.join(args.out, "intrinsics-gpu.txt")
    write_digests(gpu_path, header, lines)
    write_failures(args.out, items, failures)
    with open(os.path.join(args.out, "differences.txt"), "w") as f:
        f.write(f"# where the GPU's results differ from {os.path.relpath(args.against, ROOT)}\n"
                + "".join(x + "\n" for x in diff_text))
    shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {gpu_path}, failures.txt, differences.txt in {args.out}")
    if want:
        print(f"against {os.path.relpath(args.against, ROOT)}: {len(lines) - len(differ)} agree, "
              f"{len(differ)} differ" + (f" ({' '.join(differ)})" if differ else ""))
    print(f"{len(lines)} intrinsics measured, {len(failures)} failed "
          f"({time.time() - t0:.1f} s)")
    return 0 if not failures else 1


def load_cubins(cp, compiler, modules, failures):
    """cubin paths -> CuPy modules. A cubin the driver refuses is compiled again as PTX for the
    driver to finish; if that fails too, its kernels count as failed."""
    out = []
    for path, group in modules:
        try:
            mod = cp.RawModule(path=path)
            mod.get_function(group[0]["kernel"])
            out.append((mod, group))
            continue
        except Exception as e:
            err = e
        print(f"  the driver does not load {os.path.basename(path)} ({err}); trying PTX")
        ptx, perr = compiler.run(group, kind="ptx")
        try:
            if ptx is None:
                raise RuntimeError(tail(perr, 5))
            mod = cp.RawModule(path=ptx)
            mod.get_function(group[0]["kernel"])
            out.append((mod, group))
        except Exception as e2:
            for it in group:
                failures[it["name"]] = f"load: cubin: {err}; PTX: {e2}"
    return out


def write_failures(outdir, items, failures):
    with open(os.path.join(outdir, "failures.txt"), "w") as f:
        f.write(f"# intrinsics that failed to compile, load or run: {len(failures)}\n")
        for it in items:
            if it["name"] in failures:
                f.write(f"{it['name']}: {failures[it['name']]}\n\n")


def run_compile_only(args, items):
    nvcc = find_nvcc(args.nvcc)
    if not nvcc:
        sys.exit("error: no nvcc (give --nvcc PATH; looked on PATH, in /usr/local/cuda/bin and "
                 "for the PyPI wheel under /work/cache)")
    arch = args.arch or "90"
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="gpu_intrinsics.")
    compiler = NvccCompiler(nvcc, arch, work, args.nvcc_flag)
    cu = os.path.join(args.out, "gpu_intrinsics.cu")
    with open(cu, "w") as f:
        f.write(file_source(items))
    print(f"wrote {cu}: {len(items)} kernels; compiling: {compiler.describe}")
    t0 = time.time()
    try:
        modules, failures = compile_all(compiler, items)
    except ToolchainBroken as e:
        sys.exit("error: nvcc cannot compile even one kernel:\n" + indent(tail(str(e), 30)))
    print(f"  compiled in {time.time() - t0:.1f} s: {len(modules)} cubin(s), "
          f"{len(failures)} kernels fail")
    for i, (path, group) in enumerate(modules):
        shutil.copy(path, os.path.join(args.out, f"gpu_intrinsics{'' if i == 0 else i}.cubin"))
    ptx, err = compiler.run(items, kind="ptx")
    if ptx:
        shutil.copy(ptx, os.path.join(args.out, "gpu_intrinsics.ptx"))
    # Every kernel in a cubin, loading its arguments and calling nothing (the intrinsic
    # inlined, not folded away).
    cuobjdump = os.path.join(os.path.dirname(nvcc), "cuobjdump")
    problems = 0
    if os.path.exists(cuobjdump):
        seen = {}
        for path, group in modules:
            seen.update(cubin_functions(cuobjdump, path))
        for it in items:
            if it["name"] in failures:
                continue
            ops = seen.get(it["kernel"])
            why = None
            if ops is None:
                why = "kernel not in the cubin"
            elif any(o in ("CALL", "CALL.REL", "CALL.ABS.NOINC") for o in ops):
                why = "calls a function"
            elif sum(o.startswith("LDG") for o in ops) < len(it["args"]):
                why = f"{sum(o.startswith('LDG') for o in ops)} global loads for " \
                      f"{len(it['args'])} arguments"
            elif sum(o.startswith("STG") for o in ops) < 1 + len(it["outs"]):
                why = "too few global stores"
            if why:
                problems += 1
                failures[it["name"]] = "check: " + why
                print(f"  {it['name']}: {why}")
        print(f"  cuobjdump: {len(items) - len(failures)} kernels load every argument and "
              "store every result")
    else:
        print(f"  (no {cuobjdump}: kernels not inspected)")
    write_failures(args.out, items, failures)
    shutil.rmtree(work, ignore_errors=True)
    print(f"{len(items) - len(failures)} intrinsics compiled, {len(failures)} failed "
          f"(details in {os.path.join(args.out, 'failures.txt')})")
    return 0 if not failures else 1


def run_self_test(args, items):
    """The path after the device, with the PTX interpreter as the device: it reads the argument
    arrays and writes result arrays of the kernel's C types."""
    import numpy as np
    want = read_digests(args.against)
    bad, t0 = [], time.time()
    for it in items:
        n, cols = arrays(np, it)
        f = ic.build(it)
        rows = zip(*[c.view({4: np.uint32, 8: np.uint64}[c.dtype.itemsize]).tolist()
                     for c in cols])
        res = [f(*r) for r in rows]
        width = ic.bits_of(it["res"])
        out = np.array([r[0] for r in res], dtype=np.uint32 if width == 32 else np.uint64)
        out = out.view(np_type(np, it["res"]))
        p = (np.array([r[1:] for r in res], dtype=np.uint8).reshape(-1) if it["outs"] else None)
        count, d, _ = digest(np, it, n, out, p)
        ok = want.get(it["name"]) == (count, f"{d:016x}")
        if not ok:
            bad.append(it["name"])
        print(f"{it['name']:<22} {count:>6} {d:016x} {'agrees' if ok else 'DIFFERS'}")
    print(f"self-test: {len(items) - len(bad)} of {len(items)} digests agree with "
          f"{args.against} ({time.time() - t0:.1f} s)")
    return 0 if not bad else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="folder for intrinsics-gpu.txt, failures.txt ...")
    ap.add_argument("--compile-only", action="store_true",
                    help="no GPU: generate the .cu and compile it (cubin and PTX) into --out")
    ap.add_argument("--check-digests", metavar="FILE",
                    help="compare FILE (an intrinsics-gpu.txt) with --against and stop")
    ap.add_argument("--self-test", action="store_true",
                    help="no GPU: the PTX interpreter as the device, digests against --against")
    ap.add_argument("--against", default=ic.DIGESTS,
                    help="the digests to compare with (default: tests/data/intrinsics-ptx.txt)")
    ap.add_argument("--only", metavar="REGEX", help="only the intrinsics whose name matches")
    ap.add_argument("--nvcc", help="the nvcc to use (default: PATH, then /usr/local/cuda/bin)")
    ap.add_argument("--arch", help="compile for sm_ARCH (default: the GPU's; 90 with "
                                   "--compile-only)")
    ap.add_argument("--nvcc-flag", action="append", default=[],
                    help="one more nvcc argument (repeatable), e.g. --nvcc-flag=-ccbin=g++-12")
    args = ap.parse_args()
    if args.arch:
        args.arch = args.arch.removeprefix("sm_")
    if args.check_digests:
        sys.exit(1 if compare(args.check_digests, args.against) else 0)
    items = plan(args.only)
    if not items:
        sys.exit(f"error: no intrinsic matches {args.only!r}")
    if args.self_test:
        sys.exit(run_self_test(args, items))
    if not args.out:
        ap.error("--out DIR is needed")
    if args.compile_only:
        sys.exit(run_compile_only(args, items))
    sys.exit(run_gpu(args, items))


if __name__ == "__main__":
    main()
