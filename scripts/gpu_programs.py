#!/usr/bin/env python3
"""Measure instruction forms on an NVIDIA GPU: each form alone in a kernel, its sources loaded
from global memory (no constant folding), every destination stored back, one case per thread.

Two steps, so that the GPU machine only assembles and runs:

    # here (no GPU): the forms to measure, one JSON line each
    scripts/gpu_programs.py forms > forms.jsonl
    # on the GPU machine (ptxas on PATH, CuPy installed)
    scripts/gpu_programs.py run forms.jsonl --out DIR

`run` writes DIR/cases.jsonl.gz (one line per case, below) and DIR/refused.jsonl (the forms
ptxas refused, with its messages, in the format of ../shared/conformance/ptxas-acceptance.jsonl).

    {"ptx": "addc.cc.u32 d, a, b;", "in": {"a": "0x..", "b": "0x..", "CF": "0x1"},
     "prior": {"d": "0x.."}, "out": {"d": "0x..", "CF": "0x0"}}

- Registers are named by role and declared as ptxas_programs.decls says (the declarations of
  tests/data/ptxas-programs.jsonl); `in` holds every register the instruction reads, `out` every
  register it writes, `prior` what each destination held before (random).
- Values are zero-padded hex of the register's width (a predicate is 0x0 or 0x1).
- `CF` is the carry flag `CC.CF`. For a form that reads it (`addc`, `subc`, `madc`) it is set
  before the instruction by `add.cc.u32 t, CF, 0xffffffff` (carry out is 1 exactly when CF is 1);
  for a form that writes it (`.cc`) it is read after the instruction by `addc.u32 t, 0, 0`.
  Both are the raw flag bit, whatever the instruction's reading of it.
- Source values: edge values of the register's width (0, 1, the sign bit and its neighbours, all
  ones, 0x7f/0x80/0xff ...), small numbers 0..70 (shift amounts, bit positions), and uniform
  random words; seed fixed per form, so a rerun asks the same questions.
"""
import argparse
import concurrent.futures
import gzip
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptxas_programs import decls, names_in, width  # noqa: E402
from ptxas_wheel import split_operands  # noqa: E402

CASES = 48
CARRY_IN = ("addc", "subc", "madc")


def carry(ptx):
    """(reads CF, writes CF) of a form."""
    head = ptx.split()[0].split(".")
    return head[0] in CARRY_IN, "cc" in head[1:]


def reg_decls(ptx):
    """{name: declared type}; the instructions ptxas_programs does not know are declared here."""
    head, _, rest = ptx.strip().rstrip(";").partition(" ")
    parts = head.split(".")
    op, ops = parts[0], split_operands(rest)
    if op == "slct":
        # The types, wherever `.ftz` stands among them.
        dt, ct = [t for t in parts[1:] if t != "ftz"][:2]
        d = {}
        for i, o in enumerate(ops):
            for n in names_in(o):
                d.setdefault(n, ("b%d" % width(dt)) if i < 3 else ct)
        return d
    if op == "cvt" and "pack" in parts:
        return {n: "b32" for o in ops for n in names_in(o)}
    d = decls(ptx)
    return {n: ("b%d" % width(t) if t[0] in "us" else t) for n, t in d.items()}


def regs(operand):
    """Register names in one operand; unlike ptxas_programs.names_in, the letters inside a
    number (0xff, 0f3f800000) are not taken for a name."""
    return [n for n in re.findall(r"(?<![\w$.])[A-Za-z_%$][\w$]*", operand) if n != "_"]


def roles(ptx):
    """(destinations, sources): register names in the first operand, then in the others."""
    _, _, rest = ptx.strip().rstrip(";").partition(" ")
    ops = split_operands(rest)
    dst = regs(ops[0]) if ops else []
    src = []
    for o in ops[1:]:
        for n in regs(o):
            if n not in src and n not in dst:
                src.append(n)
    return dst, src


def bits_of(ty):
    return 1 if ty == "pred" else width(ty)


def values(rng, w, n):
    if w == 1:
        return [rng.randrange(2) for _ in range(n)]
    m = (1 << w) - 1
    edges = [0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF,
             (1 << (w - 1)) - 1, 1 << (w - 1), (1 << (w - 1)) + 1, m, m - 1, 0x7FFFFFFF, 0x80000000]
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(rng.choice(edges) & m)
        elif r < 0.55:
            out.append(rng.randrange(71) & m)
        elif r < 0.65:
            out.append((m - rng.randrange(40)) & m)
        else:
            out.append(rng.getrandbits(w))
    return out


def ld(ty, reg, addr):
    """Load register `reg` of declared type `ty` from the 8-byte slot at `addr`."""
    if ty == "pred":
        return "ld.global.u32 %%t32, [%s]; setp.ne.u32 %s, %%t32, 0;" % (addr, reg)
    return "ld.global.b%d %s, [%s];" % (width(ty), reg, addr)


def st(ty, reg, addr):
    if ty == "pred":
        return "selp.u32 %%t32, 1, 0, %s; st.global.u32 [%s], %%t32;" % (reg, addr)
    return "st.global.b%d [%s], %s;" % (width(ty), addr, reg)


def kernel(k, ptx):
    """The PTX of kernel `k_<k>` around one form, and its layout (slot names in, out)."""
    ds = reg_decls(ptx)
    dst, src = roles(ptx)
    cin, cout = carry(ptx)
    ins = src + (["CF"] if cin else []) + ["prior:" + n for n in dst]
    outs = dst + (["CF"] if cout else [])
    by_type = {}
    for n, ty in ds.items():
        by_type.setdefault(ty, []).append(n)
    body = ["{"]
    body += [".reg .%s %s;" % (ty, ", ".join(ns)) for ty, ns in by_type.items()]
    for i, n in enumerate(ins):
        addr = "%%ia+%d" % (8 * i)
        if n == "CF":
            body.append("ld.global.u32 %%t32, [%s]; add.cc.u32 %%t32, %%t32, 0xffffffff;" % addr)
        else:
            name = n.split(":")[-1]
            body.append(ld(ds[name], name, addr))
    body.append(ptx)
    for i, n in enumerate(outs):
        addr = "%%oa+%d" % (8 * i)
        if n == "CF":
            body.append("addc.u32 %%t32, 0, 0; st.global.u32 [%s], %%t32;" % addr)
        else:
            body.append(st(ds[n], n, addr))
    body.append("}")
    src_text = "\n".join([
        ".visible .entry k_%d(.param .u64 pin, .param .u64 pout)" % k,
        "{",
        ".reg .b64 %ia, %oa, %off; .reg .b32 %tix, %t32;",
        "ld.param.u64 %ia, [pin]; ld.param.u64 %oa, [pout];",
        "cvta.to.global.u64 %ia, %ia; cvta.to.global.u64 %oa, %oa;",
        "mov.u32 %%tix, %%tid.x; mul.wide.u32 %%off, %%tix, %d; add.u64 %%ia, %%ia, %%off;" % (8 * max(1, len(ins))),
        "mul.wide.u32 %%off, %%tix, %d; add.u64 %%oa, %%oa, %%off;" % (8 * max(1, len(outs))),
    ] + body + ["ret;", "}"])
    return src_text, ins, outs, ds


HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n"


def assemble(ptxas, k, ptx, workdir):
    text, ins, outs, ds = kernel(k, ptx)
    path = os.path.join(workdir, "k%d.ptx" % k)
    with open(path, "w") as f:
        f.write(HEADER + text + "\n")
    cubin = path[:-4] + ".cubin"
    p = subprocess.run([ptxas, "-arch=sm_90", "-O3", "-o", cubin, path], capture_output=True, text=True)
    msgs = [ln.split(": ", 1)[-1].strip() for ln in (p.stdout + p.stderr).splitlines()
            if "error" in ln or "fatal" in ln]
    if p.returncode < 0:
        msgs.append("ptxas crashed (signal %d)" % -p.returncode)
    return (cubin if p.returncode == 0 else None), " | ".join(msgs), ins, outs, ds


def check(args):
    lines = [json.loads(l) for l in open(args.forms) if l.strip()]
    forms = [l["ptx"] for l in lines]
    work = tempfile.mkdtemp()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 4) as ex:
        built = list(ex.map(lambda kp: assemble(args.ptxas, kp[0], kp[1], work), enumerate(forms)))
    for ptx, b in zip(forms, built):
        if b[0] is None:
            print(json.dumps({"ptx": ptx, "accepted": False, "ptxas": b[1]}))
    print("%d of %d forms assemble" % (sum(b[0] is not None for b in built), len(forms)), file=sys.stderr)


def hx(v, w):
    return "0x%0*x" % (max(1, (w + 3) // 4), v)


def run(args):
    import cupy as cp
    import numpy as np

    lines = [json.loads(l) for l in open(args.forms) if l.strip()]
    forms = [l["ptx"] for l in lines]
    work = tempfile.mkdtemp()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 4) as ex:
        built = list(ex.map(lambda kp: assemble(args.ptxas, kp[0], kp[1], work), enumerate(forms)))
    os.makedirs(args.out, exist_ok=True)
    refused = open(os.path.join(args.out, "refused.jsonl"), "w")
    cases = gzip.open(os.path.join(args.out, "cases.jsonl.gz"), "wt", compresslevel=9)
    n_ok = n_cases = 0
    for k, (ptx, (cubin, msg, ins, outs, ds)) in enumerate(zip(forms, built)):
        if cubin is None:
            refused.write(json.dumps({"ptx": ptx, "accepted": False, "ptxas": msg}) + "\n")
            continue
        seed = int(hashlib.sha256(ptx.encode()).hexdigest()[:12], 16)
        rng = random.Random(seed)
        prior_rng = random.Random(seed + 1 + args.prior_seed)
        cols = {}
        for n in ins:
            name = n.split(":")[-1]
            w = 1 if n == "CF" else bits_of(ds[name])
            cols[n] = values(rng, w, CASES) if not n.startswith("prior:") else [prior_rng.getrandbits(w) for _ in range(CASES)]
            # A form may fix a source's values ("values": {"c": ["0x80000001", ...]}), repeated
            # to CASES; the other sources are drawn as if it did not.
            fixed = lines[k].get("values", {}).get(n)
            if fixed:
                cols[n] = [(int(v, 16) & ((1 << w) - 1)) for v in (fixed * CASES)[:CASES]]
        host_in = np.zeros((CASES, max(1, len(ins))), dtype=np.uint64)
        for i, n in enumerate(ins):
            host_in[:, i] = np.array(cols[n], dtype=np.uint64)
        dev_in = cp.asarray(host_in)
        dev_out = cp.zeros((CASES, max(1, len(outs))), dtype=cp.uint64)
        mod = cp.RawModule(path=cubin)
        fn = mod.get_function("k_%d" % k)
        fn((1,), (CASES,), (dev_in, dev_out))
        out = cp.asnumpy(dev_out)
        n_ok += 1
        for t in range(CASES):
            rec = {"ptx": ptx, "in": {}, "prior": {}, "out": {}}
            for i, n in enumerate(ins):
                name = n.split(":")[-1]
                w = 1 if n == "CF" else bits_of(ds[name])
                (rec["prior"] if n.startswith("prior:") else rec["in"])[name] = hx(int(host_in[t, i]), w)
            for i, n in enumerate(outs):
                w = 1 if n == "CF" else bits_of(ds[n])
                rec["out"][n] = hx(int(out[t, i]) & ((1 << w) - 1), w)
            cases.write(json.dumps(rec, separators=(",", ":")) + "\n")
            n_cases += 1
    cases.close()
    refused.close()
    print("%d forms measured, %d cases, %d refused" % (n_ok, n_cases, len(forms) - n_ok))


# ------------------------------------------------------------------------- the forms asked


def new_forms():
    """Forms of instructions beyond tests/data/ptxas-programs.jsonl: the carry chain, slct,
    cvt.pack, constant expressions and the syntax questions of real PTX."""
    f = []
    for t in ("u32", "s32", "u64", "s64"):
        f += ["add.cc.%s d, a, b;" % t, "addc.%s d, a, b;" % t, "addc.cc.%s d, a, b;" % t,
              "sub.cc.%s d, a, b;" % t, "subc.%s d, a, b;" % t, "subc.cc.%s d, a, b;" % t]
        for hl in ("lo", "hi"):
            f += ["mad.%s.cc.%s d, a, b, c;" % (hl, t), "madc.%s.%s d, a, b, c;" % (hl, t),
                  "madc.%s.cc.%s d, a, b, c;" % (hl, t)]
    for dt in ("b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"):
        f.append("slct.%s.s32 d, a, b, c;" % dt)
        f.append("slct.%s.f32 d, a, b, c;" % dt)
        f.append("slct.ftz.%s.f32 d, a, b, c;" % dt)
    for ct in ("u16", "s16", "u8", "s8", "u4", "s4", "u2", "s2"):
        f.append("cvt.pack.sat.%s.s32.b32 d, a, b, c;" % ct)
        f.append("cvt.pack.sat.%s.s32 d, a, b;" % ct)
    for e in ("123 + 123 * 7", "(3 + 7) * 10 / 5", "~7", "!1", "3 == 1", "1 ? 3 : 2", "99 % 10",
              "8 ^ 8", "3 & 1", "99%10", "-1 >> 1", "1 << 40", "-7 / 2", "-7 % 3", "0x7fffffffffffffff + 1",
              "2 < 3 && 4 > 5 || 1", "(-1) >> 60", "0xffffffffffffffff >> 60", "5 - 10"):
        f.append("mov.u32 d, %s;" % e)
        f.append("mov.b64 d, %s;" % e)
    f += ["mov.b64 d, 0x10000000000000000;", "mov.b64 d, 0x1ffffffffffffffff;",
          "mov.b32 d, 0x100000001;", "mov.u16 d, 0x12345;",
          "shl.b32 d|_, a, b;", "mov.b32 d|_, a;", "add.u32 d|_, a, b;"]
    return f


def forms(args):
    here = os.path.dirname(os.path.abspath(__file__))
    seen = set()
    decided = os.path.join(here, "..", "tests", "data", "ptxas-programs.jsonl")
    out = []
    for line in open(decided):
        v = json.loads(line)
        if v["accepted"] and v["ptx"] not in seen:
            seen.add(v["ptx"])
            out.append(v["ptx"])
    for p in new_forms():
        if p not in seen:
            seen.add(p)
            out.append(p)
    for p in out:
        print(json.dumps({"ptx": p}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("forms")
    c = sub.add_parser("check", help="assemble every form without running it (no GPU needed)")
    c.add_argument("forms")
    c.add_argument("--ptxas", default="ptxas")
    r = sub.add_parser("run")
    r.add_argument("forms")
    r.add_argument("--out", required=True)
    r.add_argument("--ptxas", default="ptxas")
    r.add_argument("--prior-seed", type=int, default=0,
                   help="another seed gives the destinations other prior values, the sources the same")
    a = ap.parse_args()
    {"forms": forms, "run": run, "check": check}[a.cmd](a)


if __name__ == "__main__":
    main()
