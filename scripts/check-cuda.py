#!/usr/bin/env python3
"""Compile the "Copy as CUDA" statement of every opcode and operand width with real nvcc, and
record the checked statements as a test fixture (crates/ptxlab-cli/tests/data/cuda-asm.jsonl).

Needs the CUDA compiler from PyPI (no GPU): pip download --no-deps nvidia-cuda-nvcc
nvidia-cuda-runtime nvidia-cuda-crt nvidia-nvvm, unzip them into one folder, and pass
--cuda-root FOLDER/nvidia/cu13. Forms come from the measured cases: every distinct form of each
integer instruction (so every type and width), and a spread of video forms (selectors, merges,
secondary operations, masks, negation)."""
import argparse, gzip, json, os, random, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)

ap = argparse.ArgumentParser()
ap.add_argument("--cuda-root", required=True)
ap.add_argument("--cases", default=os.path.join(root, "..", "shared", "conformance", "h100-cases.jsonl.gz"))
ap.add_argument("--out", default=os.path.join(root, "crates", "ptxlab-cli", "tests", "data", "cuda-asm.jsonl"))
args = ap.parse_args()

forms = {}
for line in gzip.open(args.cases, "rt"):
    p = json.loads(line)["ptx"]
    forms.setdefault(p.split()[0].split(".")[0], set()).add(p)
rng = random.Random(13)
chosen = []
for op in sorted(forms):
    fs = sorted(forms[op])
    chosen += fs if not op.startswith("v") else rng.sample(fs, min(12, len(fs)))
# Forms with immediates, negation and a guard, which the measured cases do not use.
chosen += ["@p vadd.u32.u32.u32 d, a.b1, 7, c;", "vmad.s32.s32.s32.sat d, -a.h0, b, -5;",
           "add.u64 d, a, 42;", "bfe.u32 d, a, 3, 9;"]

ptxlab = [os.path.join(root, "target", "release", "ptxlab")]
if not os.path.exists(ptxlab[0]):
    subprocess.run(["cargo", "build", "--release", "--bin", "ptxlab"], cwd=root, check=True)
stmts = subprocess.run(ptxlab + ["cuda"] + chosen, capture_output=True, text=True, check=True).stdout.splitlines()
assert len(stmts) == len(chosen)

def decl(stmt):
    # The constraint of each named variable gives the C type it needs.
    ty = {"h": "unsigned short", "r": "unsigned int", "l": "unsigned long long"}
    out = []
    import re
    for c, name in re.findall(r'"=?([hrl])"\((\w)\)', stmt):
        out.append(f"{ty[c]} {name}")
    return out

src = ["#include <cstdint>"]
for i, s in enumerate(stmts):
    vars_ = decl(s)
    params = ", ".join(f"{v}" for v in vars_ if not v.endswith(" d"))
    dty = [v for v in vars_ if v.endswith(" d")][0].rsplit(" ", 1)[0]
    src.append(f"__global__ void k{i}({dty} *out{', ' + params if params else ''}) {{ {dty} d; {s} *out = d; }}")
with tempfile.TemporaryDirectory() as td:
    cu = os.path.join(td, "all.cu")
    open(cu, "w").write("\n".join(src) + "\n")
    env = dict(os.environ, PATH=os.path.join(args.cuda_root, "bin") + os.pathsep + os.environ["PATH"])
    r = subprocess.run(["nvcc", "-arch=sm_90", "-c", cu, "-o", os.path.join(td, "all.o")], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        sys.exit("nvcc rejected some statements; fixture not written")
with open(args.out, "w") as f:
    for p, s in zip(chosen, stmts):
        f.write(json.dumps({"ptx": p, "asm": s}) + "\n")
print(f"{len(stmts)} statements compiled with nvcc for sm_90; wrote {args.out}")
