#!/usr/bin/env python3
"""Ask ptxas 13.5 (sm_90) which lines of kernel code it accepts: loads and stores in every
space, vectors, addresses, cvta, branches, ret/exit, variables, special registers and the
carry chain, each inside one whole kernel. The same kernel text is what `ptxlab run` reads, so
crates/ptxlab-core/tests/ptxas_kernels.rs can compare ptxlab's verdict with ptxas's one by one.

    scripts/ptxas_kernels.py [--ptxas PATH] [--out tests/data/ptxas-kernels.jsonl]

Each output line is {"ptx": LINE, "accepted": bool, "ptxas": "messages"}: LINE is put into
KERNEL below in place of `LINE`. Where ptxas crashes instead of deciding (it does, with signal
11, on `ld.v8.u16`), "accepted" is null and "ptxas" says so. The texts are generated in a fixed order, so a rerun
writes the same file.
"""
import argparse
import json
import os
import subprocess
import tempfile

from ptxas_wheel import tool

KERNEL = """.version 8.0
.target sm_90
.address_size 64
.const .align 4 .b8 ktab[16] = {1, 2, 3};
.global .align 4 .u32 gtab[4];
.visible .entry k(.param .u64 p, .param .u32 n, .param .u8 c)
{
.reg .b16 %rs<8>;
.reg .b32 %r<8>;
.reg .b64 %rd<8>;
.reg .pred %p<3>;
.local .align 8 .b8 depot[32];
.shared .align 4 .b8 smem[64];
LINE
L: ret;
}
"""


def texts():
    out = []
    regs = {8: "%rs1", 16: "%rs1", 32: "%r1", 64: "%rd1"}
    for space in ["", ".global", ".shared", ".local", ".const", ".param"]:
        for ty in ["b8", "u8", "s8", "b16", "u16", "s16", "b32", "u32", "s32", "f32", "b64",
                   "u64", "s64", "f64"]:
            w = int(ty[1:])
            reg = regs[w]
            addr = {".param": "[p]", ".const": "[ktab]", ".shared": "[smem]",
                    ".local": "[depot]"}.get(space, "[%rd2]")
            out.append(f"ld{space}.{ty} {reg}, {addr};")
            out.append(f"st{space}.{ty} {addr}, {reg};")
        for vec in ["v2", "v4", "v8"]:
            n = int(vec[1:])
            for ty, reg in [("u32", "%r"), ("u64", "%rd"), ("u16", "%rs"), ("u8", "%rs")]:
                lst = "{" + ", ".join(f"{reg}{i % 4}" for i in range(n)) + "}"
                addr = "[%rd2]" if space in ("", ".global") else {
                    ".param": "[p]", ".const": "[ktab]", ".shared": "[smem]",
                    ".local": "[depot]"}[space]
                out.append(f"ld{space}.{vec}.{ty} {lst}, {addr};")
                out.append(f"st{space}.{vec}.{ty} {addr}, {lst};")
    # Wider and narrower registers than the type.
    for line in ["ld.global.u8 %r1, [%rd2];", "ld.global.s8 %rd1, [%rd2];",
                 "ld.global.u32 %rd1, [%rd2];", "ld.global.u32 %rs1, [%rd2];",
                 "ld.global.u64 %r1, [%rd2];", "st.global.u8 [%rd2], %r1;",
                 "st.global.u16 [%rd2], %rd1;", "st.global.u32 [%rd2], %rs1;",
                 "st.global.u32 [%rd2], 7;", "st.global.v2.u32 [%rd2], {%r1, 7};",
                 "ld.global.v2.u32 {%r1, _}, [%rd2];", "ld.global.u32 _, [%rd2];",
                 "ld.global.pred %p1, [%rd2];", "ld.global.b128 %rd1, [%rd2];",
                 "ld.global.u32 %p1, [%rd2];"]:
        out.append(line)
    # Addresses.
    for a in ["[%rd2+4]", "[%rd2+-4]", "[%rd2-4]", "[%rd2 + 4]", "[%r2]", "[%r2+4]",
              "[0x100]", "[256]", "[gtab]", "[gtab+4]", "[ktab+4]", "[p+4]", "[n]", "[%p1]",
              "[%rd2+0x10]", "[%rd2+%rd3]", "[nothing]", "[%rd2+1+1]", "[%rd2+(2*4)]", "[]",
              "[smem+4]", "[depot+8]"]:
        out.append(f"ld.global.u32 %r1, {a};")
    for line in ["ld.param.u32 %r1, [n];", "ld.param.u8 %rs1, [c];", "ld.param.s8 %rs1, [c];",
                 "ld.param.u64 %rd1, [n];", "st.param.u32 [n], %r1;",
                 "ld.const.u32 %r1, [ktab+12];", "st.const.u32 [ktab], %r1;"]:
        out.append(line)
    # Ordering, scope and cache modifiers.
    for m in [".weak", ".volatile", ".relaxed.gpu", ".acquire.gpu", ".relaxed.sys",
              ".acquire.cta", ".ca", ".cg", ".cs", ".lu", ".cv", ".nc", ".L1::evict_last",
              ".L2::64B", ".L1::no_allocate", ".relaxed", ".gpu", ".release.gpu"]:
        out.append(f"ld.global{m}.u32 %r1, [%rd2];")
        out.append(f"st.global{m}.u32 [%rd2], %r1;")
    out.append("ld.global.nc.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];")
    out.append("ldu.global.u32 %r1, [%rd2];")
    # cvta.
    for sp in ["global", "shared", "local", "const", "param"]:
        for to in ["", ".to"]:
            for sz, r in [("u64", "%rd"), ("u32", "%r")]:
                out.append(f"cvta{to}.{sp}.{sz} {r}1, {r}2;")
    out += ["cvta.to.global.u64 %rd1, gtab;", "cvta.global.u64 %rd1, gtab;", "cvta.u64 %rd1, %rd2;",
            "cvta.to.global.b64 %rd1, %rd2;"]
    # Variables as values.
    out += ["mov.u64 %rd1, gtab;", "mov.u64 %rd1, ktab;", "mov.u64 %rd1, smem;",
            "mov.u64 %rd1, depot;", "mov.u32 %r1, gtab;", "mov.u64 %rd1, gtab+4;",
            "add.u64 %rd1, gtab, 4;"]
    # Branches, ret, exit.
    out += ["bra L;", "bra.uni L;", "@%p1 bra L;", "@!%p1 bra.uni L;", "bra M;", "bra %rd1;",
            "ret;", "ret.uni;", "exit;", "@%p1 ret;", "@%p1 exit;", "bra;", "ret 1;",
            "bra L, L;"]
    # Special registers.
    for sreg in ["%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ctaid.x", "%nctaid.z", "%laneid",
                 "%warpid", "%nwarpid", "%smid", "%nsmid", "%lanemask_lt", "%clock",
                 "%dynamic_smem_size", "%total_smem_size", "%tid.w", "%tid"]:
        out.append(f"mov.u32 %r1, {sreg};")
    out += ["mov.u64 %rd1, %gridid;", "mov.u64 %rd1, %clock64;", "mov.u64 %rd1, %globaltimer;",
            "mov.u64 %rd1, %tid.x;", "mov.u16 %rs1, %tid.x;", "add.u32 %r1, %tid.x, 1;",
            "cvt.u64.u32 %rd1, %tid.x;", "mov.u32 %tid.x, %r1;", "mov.u32 %r1, %clock64;"]
    # The carry chain.
    for op in ["add.cc", "addc", "addc.cc", "sub.cc", "subc", "subc.cc"]:
        for ty in ["u32", "s32", "u64", "s64", "u16", "b32"]:
            r = "%rd" if ty.endswith("64") else ("%rs" if ty.endswith("16") else "%r")
            out.append(f"{op}.{ty} {r}1, {r}2, {r}3;")
    for op in ["mad.lo.cc", "mad.hi.cc", "madc.lo", "madc.hi", "madc.lo.cc", "madc.hi.cc",
               "mad.wide.cc", "madc.wide", "madc"]:
        for ty in ["u32", "s64", "u16"]:
            r = "%rd" if ty.endswith("64") else ("%rs" if ty.endswith("16") else "%r")
            out.append(f"{op}.{ty} {r}1, {r}2, {r}3, {r}4;")
    out += ["add.cc.sat.s32 %r1, %r2, %r3;", "addc.u32 %r1, %r2, 7;", "addc.u32 %r1, 0, 0;",
            "add.cc.u32 %r1, %r2;", "addc.cc.u32 %r1, %r2, %r3, %r4;"]
    # Address registers narrower than 64 bits, and variables' and parameters' addresses in
    # narrow registers: the spaces other than global take them.
    for space in ["", ".global", ".shared", ".local", ".const", ".param"]:
        for r in ["%r2", "%rs2", "%rd2"]:
            out.append(f"ld{space}.u32 %r1, [{r}];")
            out.append(f"ld{space}.u32 %r1, [{r}+4];")
        out.append(f"st{space}.u32 [%r2], %r1;")
    for v in ["gtab", "ktab", "smem", "depot", "p", "n"]:
        for m in ["mov.u32 %r1", "mov.b32 %r1", "mov.s32 %r1", "mov.u16 %rs1", "mov.u64 %rd1"]:
            out.append(f"{m}, {v};")
        out.append(f"mov.u32 %r1, {v}+4;")
    out += ["cvta.shared.u64 %rd1, smem;", "cvta.local.u64 %rd1, depot;",
            "cvta.const.u64 %rd1, ktab;", "cvta.param.u64 %rd1, p;"]
    return out


def decide(ptxas, line):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.ptx")
        with open(path, "w") as f:
            f.write(KERNEL.replace("LINE", line))
        r = subprocess.run([ptxas, "-arch=sm_90", path, "-o", os.path.join(d, "k.cubin")],
                           capture_output=True, text=True)
        if r.returncode < 0:
            return None, f"crashed (signal {-r.returncode})"
        msg = " | ".join(l.split("error   : ", 1)[-1] for l in r.stderr.splitlines()
                         if "error" in l)[:300]
        return r.returncode == 0, msg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "tests",
                                                   "data", "ptxas-kernels.jsonl"))
    args = ap.parse_args()
    ptxas = tool("ptxas", args.ptxas)
    seen = set()
    with open(args.out, "w") as f:
        for line in texts():
            if line in seen:
                continue
            seen.add(line)
            ok, msg = decide(ptxas, line)
            f.write(json.dumps({"ptx": line, "accepted": ok, "ptxas": msg}) + "\n")
    print(f"{len(seen)} lines decided -> {args.out}")


if __name__ == "__main__":
    main()
