#!/usr/bin/env python3
"""Measure what nvcc makes of each CUDA SIMD and integer intrinsic, and write the data file the
core embeds (crates/ptxlab-core/src/intrinsics.txt).

For every intrinsic it compiles one kernel `out[0] = NAME(a[0], b[0], c[0])` (one pointer per
argument, so the arguments arrive in registers from global loads):
  * with `nvcc -arch=sm_90 -ptx`, and keeps the PTX between the argument loads and the result
    store, with the argument registers renamed %a %b %c and the result register %d;
  * with `nvcc -arch=sm_XX -cubin` and `cuobjdump -sass` for sm_75, sm_80, sm_90, sm_100 and
    sm_120, and keeps the machine instructions between the loads and the store.

Needs the CUDA compiler from PyPI, no GPU:
    pip download --no-deps -d /work/cache/wheels nvidia-cuda-nvcc nvidia-cuda-crt \
        nvidia-nvvm nvidia-cuda-runtime nvidia-cuda-cuobjdump
    unzip each wheel into one folder (e.g. /work/cache/nvcc-13.5.37)
    python3 scripts/intrinsics.py --cuda-root /work/cache/nvcc-13.5.37/nvidia/cu13

Data file format (one record per intrinsic, lines start with a tag):
    = NAME RESULT_TYPE ARG_TYPE,ARG_TYPE,... [OUT,OUT]   types: u32 s32 u64 s64; OUT: a bool the
                                                  intrinsic also writes (%pred, %pred_hi ...)
    p PTX instruction (registers %a %b %c arguments, %d result; `{` `}` scope inline asm)
    s ARCH COUNT FLAG OPCODE OPCODE ...           machine instructions on sm_ARCH (or =ARCH: the
                                                  same as an earlier one; m: the opcodes of the
                                                  m lines); FLAG is V when
                                                  one of them works on byte or halfword lanes or
                                                  is a video/DPX one (see VIDEO), '-' otherwise
    m SASS instruction on sm_90 with its operands
"""
import argparse, os, re, subprocess, sys, tempfile

from ptxas_wheel import cuda_root, tool_env

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
ARCHS = [75, 80, 90, 100, 120]
CTYPE = {"u32": "unsigned int", "s32": "int", "u64": "unsigned long long", "s64": "long long"}

# (name in ptxlab, C function, result type, argument types)
INTRINSICS = []


# Intrinsics that also write bools through pointers: their names, in the order of the pointers.
OUTS = {}


def add(name, res, args, fn=None, outs=()):
    INTRINSICS.append((name, fn or name, res, args))
    if outs:
        OUTS[name] = list(outs)


U2 = ["u32", "u32"]
for n in ["2", "4"]:
    for base in ["vabs", "vabsss", "vneg", "vnegss"]:
        add(f"__{base}{n}", "u32", ["u32"])
    for base in ["vabsdiffs", "vabsdiffu", "vadd", "vaddss", "vaddus", "vavgs", "vavgu",
                 "vhaddu", "vmaxs", "vmaxu", "vmins", "vminu", "vsads", "vsadu", "vsub",
                 "vsubss", "vsubus"]:
        add(f"__{base}{n}", "u32", U2)
    for cmp in ["eq", "ges", "geu", "gts", "gtu", "les", "leu", "lts", "ltu", "ne"]:
        add(f"__vcmp{cmp}{n}", "u32", U2)
        add(f"__vset{cmp}{n}", "u32", U2)
# DPX intrinsics (sm_90 has them in hardware, others emulate).
for op in ["max", "min"]:
    for t, ty in [("s32", "s32"), ("u32", "u32"), ("s16x2", "u32"), ("u16x2", "u32")]:
        add(f"__vi{op}3_{t}", ty, [ty] * 3)
        add(f"__viadd{op}_{t}", ty, [ty] * 3)
    for t, ty in [("s32", "s32"), ("s16x2", "u32")]:
        add(f"__vi{op}3_{t}_relu", ty, [ty] * 3)
        add(f"__viadd{op}_{t}_relu", ty, [ty] * 3)
        add(f"__vi{op}_{t}_relu", ty, [ty] * 2)
# Dot products: the int overload under the CUDA name, the unsigned one with a _u suffix.
for dp in ["__dp4a", "__dp2a_lo", "__dp2a_hi"]:
    add(dp, "s32", ["s32"] * 3)
    add(dp + "_u", "u32", ["u32"] * 3, fn=dp)
add("__sad", "u32", ["s32", "s32", "u32"])
add("__usad", "u32", ["u32"] * 3)
add("__byte_perm", "u32", ["u32"] * 3)
for f in ["l", "lc", "r", "rc"]:
    add(f"__funnelshift_{f}", "u32", ["u32"] * 3)
add("__brev", "u32", ["u32"])
add("__brevll", "u64", ["u64"])
add("__clz", "s32", ["s32"])
add("__clzll", "s32", ["s64"])
add("__popc", "s32", ["u32"])
add("__popcll", "s32", ["u64"])
add("__ffs", "s32", ["s32"])
add("__ffsll", "s32", ["s64"])
add("__mulhi", "s32", ["s32", "s32"])
add("__umulhi", "u32", ["u32", "u32"])
add("__mul64hi", "s64", ["s64", "s64"])
add("__umul64hi", "u64", ["u64", "u64"])
add("__mul24", "s32", ["s32", "s32"])
add("__umul24", "u32", ["u32", "u32"])
add("__hadd", "s32", ["s32", "s32"])
add("__rhadd", "s32", ["s32", "s32"])
add("__uhadd", "u32", ["u32", "u32"])
add("__urhadd", "u32", ["u32", "u32"])
# Max/min that also say, per lane, whether a was picked (a bool per lane through a pointer).
for op in ["max", "min"]:
    for t, ty in [("s32", "s32"), ("u32", "u32")]:
        add(f"__vib{op}_{t}", ty, [ty] * 2, outs=["pred"])
    for t in ["s16x2", "u16x2"]:
        add(f"__vib{op}_{t}", "u32", ["u32"] * 2, outs=["pred_hi", "pred_lo"])

ARGN = "abc"


def kernel_name(i):
    return f"k{i:03d}"


def source():
    out = []
    for i, (name, fn, res, args) in enumerate(INTRINSICS):
        outs = OUTS.get(name, [])
        ps = ", bool *p" if outs else ""
        ps += "".join(f", const {CTYPE[t]} *{ARGN[j]}" for j, t in enumerate(args))
        call = ", ".join([f"{ARGN[j]}[0]" for j in range(len(args))] +
                         [f"p + {k}" for k in range(len(outs))])
        out.append(f'extern "C" __global__ void {kernel_name(i)}({CTYPE[res]} *out{ps}) '
                   f"{{ out[0] = {fn}({call}); }}")
    return "\n".join(out) + "\n"


def split_entries(ptx):
    """Map kernel name -> list of body lines."""
    entries = {}
    for m in re.finditer(r"\.entry (\w+)\((.*?)\n\)\n\{\n(.*?)\n\}\n", ptx, re.S):
        entries[m.group(1)] = m.group(3).split("\n")
    return entries


def extract_ptx(name, nargs, lines, outs=()):
    param = {}   # %rd register -> parameter index
    argreg, resreg, outreg = {}, None, {}
    body = []
    depth = 0
    for raw in lines:
        line = raw.split("//")[0].strip()
        if not line:
            continue
        # A brace alone at the start or end of a line scopes inline assembly; braces after an
        # opcode group a vector operand ({lo, hi}).
        stmts = []
        while line.startswith("{"):
            stmts.append("{")
            line = line[1:].strip()
        tail = []
        while line.endswith("}") and (line == "}" or line[:-1].rstrip().endswith(";")):
            tail.append("}")
            line = line[:-1].strip()
        stmts += [s for s in line.split(";") if s.strip()] + tail
        for stmt in stmts:
            stmt = " ".join(stmt.split())
            if stmt == "{":
                depth += 1
                body.append("{")
                continue
            if stmt == "}":
                depth -= 1
                body.append("}")
                continue
            if depth == 0 and stmt.startswith(".reg"):
                continue
            m = re.match(r"ld\.param\.u64 (%rd\d+), \[\w+_param_(\d+)\]", stmt)
            if m:
                param[m.group(1)] = int(m.group(2))
                continue
            m = re.match(r"cvta\.to\.global\.u64 (%rd\d+), (%rd\d+)", stmt)
            if m and m.group(2) in param:
                param[m.group(1)] = param[m.group(2)]
                continue
            m = re.match(r"ld\.global\.\w+ (%\w+), \[(%rd\d+)\]", stmt)
            if m and m.group(2) in param:
                argreg[m.group(1)] = ARGN[param[m.group(2)] - 1 - (1 if outs else 0)]
                continue
            m = re.match(r"st\.global\.u8 \[(%rd\d+)(?:\+(\d+))?\], (%\w+)", stmt)
            if m and outs and param.get(m.group(1)) == 1:
                outreg[m.group(3)] = "%" + outs[int(m.group(2) or 0)]
                continue
            m = re.match(r"st\.global\.\w+ \[(%rd\d+)\], (%\w+)", stmt)
            if m and param.get(m.group(1)) == 0:
                resreg = m.group(2)
                continue
            if stmt == "ret":
                continue
            body.append(stmt + ";" if not stmt.endswith(";") else stmt)
    if resreg is None or len(argreg) != nargs or len(outreg) != len(outs):
        sys.exit(f"{name}: could not find the argument loads / result store in its PTX")
    rename = {r: "%" + a for r, a in argreg.items()}
    rename.update(outreg)
    if resreg in rename:
        # The result is an argument unchanged: copy it so %d is written.
        body.append(f"mov.b32 %d, {rename[resreg]};")
    else:
        rename[resreg] = "%d"
    pat = re.compile(r"%[A-Za-z_$][\w$]*")
    return [pat.sub(lambda m: rename.get(m.group(0), m.group(0)), s) for s in body]


OVERHEAD = re.compile(r"^(EXIT|BRA|NOP|LDG|STG|LDC|ULDC|LD|ST|RET)\b")


def sass_by_kernel(text):
    """Map kernel name -> every instruction of `cuobjdump -sass` text, spaces normalised."""
    out = {}
    cur = None
    for line in text.split("\n"):
        m = re.search(r"Function : (\w+)", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4}\*/\s+(.*?)\s*;", line)
        if m and cur is not None:
            cur.append(" ".join(m.group(1).split()))
    return out


def extract_sass(text):
    """Map kernel name -> list of compute instructions (loads, stores, constants-bank moves of
    pointers, exit and padding dropped)."""
    out = {}
    for name, insns in sass_by_kernel(text).items():
        kept = out[name] = []
        for insn in insns:
            op = re.sub(r"^@!?U?P\w+ ", "", insn)
            # Kernel parameters are the pointers only: whatever reads the constant bank sets
            # up addresses, not the intrinsic's work.
            if OVERHEAD.match(op) or "c[0x0][" in op:
                continue
            kept.append(insn)
    return out


# Instructions of the video / SIMD / DPX kind: byte and halfword lanes (.U8x4, .16x2 ...),
# absolute differences, dot products, three-way and add-then-compare min/max, .RELU clamps.
# Plain VIADD and VIMNMX.S32 are sm_90's names for ordinary 32-bit add and min/max.
VIDEO = re.compile(r"^(VABSDIFF|IDP|VIMNMX3|VIADDMNMX)|x[24]\b|\.RELU\b")


def opcode(insn):
    return re.sub(r"^@!?U?P\w+ ", "", insn).split()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda-root", default=None,
                    help="the wheels' nvidia/cu13 folder (default: $CUDA_ROOT, else the newest "
                         "unpacked under /work/cache)")
    ap.add_argument("--out", default=os.path.join(root, "crates", "ptxlab-core", "src", "intrinsics.txt"))
    args = ap.parse_args()
    root_dir = cuda_root(args.cuda_root)
    if not root_dir:
        sys.exit("no CUDA tools: unpack the wheels as the docstring says and give --cuda-root")
    env = tool_env(root_dir)
    ver = subprocess.run(["nvcc", "--version"], capture_output=True, text=True, env=env, check=True).stdout
    version = re.search(r"V(\d+\.\d+\.\d+)", ver).group(1)
    with tempfile.TemporaryDirectory() as td:
        cu = os.path.join(td, "intr.cu")
        open(cu, "w").write(source())
        subprocess.run(["nvcc", "-arch=sm_90", "-ptx", cu, "-o", os.path.join(td, "intr.ptx")],
                       env=env, check=True)
        ptx = split_entries(open(os.path.join(td, "intr.ptx")).read())
        sass = {}
        for arch in ARCHS:
            cubin = os.path.join(td, f"sm{arch}.cubin")
            subprocess.run(["nvcc", f"-arch=sm_{arch}", "-cubin", cu, "-o", cubin], env=env, check=True)
            txt = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True,
                                 env=env, check=True).stdout
            sass[arch] = extract_sass(txt)
    lines = [f"# CUDA intrinsics measured with nvcc {version} (PyPI nvidia-cuda-nvcc), "
             f"by scripts/intrinsics.py; format in that script"]
    for i, (name, fn, res, argt) in enumerate(INTRINSICS):
        k = kernel_name(i)
        outs = OUTS.get(name, [])
        lines.append(f"= {name} {res} {','.join(argt)} {','.join(outs)}".rstrip())
        lines += ["p " + s for s in extract_ptx(name, len(argt), ptx[k], outs)]
        seen = {}
        for arch in ARCHS:
            ops = [opcode(s) for s in sass[arch][k]]
            video = any(VIDEO.search(o) for o in ops)
            # The same list as an earlier architecture: "=ARCH"; sm_90's own list: "m" (the
            # opcodes of the m lines).
            same = [a for a, o in seen.items() if o == ops]
            text = f"={same[0]}" if same else ("m" if arch == 90 else " ".join(ops))
            seen[arch] = ops
            lines.append(f"s {arch} {len(ops)} {'V' if video else '-'} {text}".rstrip())
        lines += ["m " + s for s in sass[90][k]]
    open(args.out, "w").write("\n".join(lines) + "\n")
    print(f"{len(INTRINSICS)} intrinsics, nvcc {version}; wrote {args.out} "
          f"({os.path.getsize(args.out)} bytes)")


if __name__ == "__main__":
    main()
