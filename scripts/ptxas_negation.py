#!/usr/bin/env python3
"""Ask ptxas (sm_90, PTX ISA 8.0) which program instructions take `-a, -b`, and check that where
it takes them its machine code is that without them.

For every form of tests/data/ptxas-programs.jsonl that ptxas accepts with registers `a` and `b`
as its first two sources, the form with `-a, -b` is asked. Each one accepted is then assembled
(-O3) in a kernel that loads every register it names from memory and stores every register
after it, once as written and once without the two `-`, and the two cubins must be equal byte
for byte; the script stops if one is not. A sanity check first: `add` and `sub` give different
cubins in that kernel. One decision per line goes to standard output in the format of
../shared/conformance/ptxas-acceptance.jsonl:

    {"ptx": "and.b32 d, -a, -b;", "accepted": true, "ptxas": ""}

Usage:
    scripts/ptxas_negation.py > tests/data/ptxas-negation.jsonl

ptxas is found as scripts/ptxas_wheel.py says ($PTXAS, the unpacked wheel under /work/cache,
PATH).
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from ptxas_programs import decls, scope
from ptxas_wheel import decide_all, decision_line, split_operands, tool

HERE = os.path.dirname(os.path.abspath(__file__))
# How a register of each declared type is loaded and stored (predicates go through a word).
LD = {"b8": "u8", "b16": "u16", "b32": "u32", "b64": "u64", "f32": "f32", "f64": "f64"}


def negated_forms():
    """{form with `-a, -b`: the accepted form it comes from}."""
    out = {}
    with open(os.path.join(HERE, "..", "tests", "data", "ptxas-programs.jsonl")) as f:
        for line in f:
            j = json.loads(line)
            if not j["accepted"]:
                continue
            head, _, rest = j["ptx"].rstrip(";").partition(" ")
            ops = split_operands(rest)
            if len(ops) < 3 or ops[1] != "a" or ops[2] != "b":
                continue
            ops[1], ops[2] = "-a", "-b"
            out.setdefault(f"{head} {', '.join(ops)};", j["ptx"])
    return out


def kernel(ptx, ptxas):
    """The digest of the cubin of a kernel that loads every register `ptx` names, runs it and
    stores every register."""
    regs = list(decls(ptx).items())
    lines = [".version 8.0", ".target sm_90", ".address_size 64",
             ".visible .entry k(.param .u64 kparam)", "{",
             ".reg .b64 %q; .reg .b32 %t;", "ld.param.u64 %q, [kparam];"]
    lines += [f".reg .{ty} {n};" for n, ty in regs]
    for k, (n, ty) in enumerate(regs):
        if ty == "pred":
            lines += [f"ld.global.u32 %t, [%q+{8 * k}];", f"setp.ne.u32 {n}, %t, 0;"]
        else:
            lines.append(f"ld.global.{LD.get(ty, ty)} {n}, [%q+{8 * k}];")
    lines.append(ptx)
    for k, (n, ty) in enumerate(regs):
        if ty == "pred":
            lines += [f"selp.u32 %t, 1, 0, {n};", f"st.global.u32 [%q+{8 * k + 512}], %t;"]
        else:
            lines.append(f"st.global.{LD.get(ty, ty)} [%q+{8 * k + 512}], {n};")
    lines += ["ret;", "}"]
    with tempfile.TemporaryDirectory() as d:
        with open(f"{d}/k.ptx", "w") as f:
            f.write("\n".join(lines) + "\n")
        p = subprocess.run([ptxas, "-arch=sm_90", "-O3", "-o", f"{d}/k.cubin", f"{d}/k.ptx"],
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"ptxas failed on {ptx}: {p.stderr.strip()[:300]}")
        with open(f"{d}/k.cubin", "rb") as f:
            return hashlib.md5(f.read()).hexdigest()


def main():
    ptxas = tool("ptxas")
    if kernel("add.u32 d, a, b;", ptxas) == kernel("sub.u32 d, a, b;", ptxas):
        sys.exit("the kernel does not show a change of the operation")
    forms = negated_forms()
    decided = decide_all(list(forms), scope, ptxas)
    for n, t in forms.items():
        accepted, msg = decided[n]
        if accepted and kernel(n, ptxas) != kernel(t, ptxas):
            sys.exit(f"{n}: ptxas takes it, but its machine code differs from that of {t}")
        print(decision_line(n, accepted, msg))


if __name__ == "__main__":
    main()
