#!/usr/bin/env python3
"""Ask ptxas (sm_90, PTX ISA 8.0) which texts of the program instructions it accepts.

The instructions are those that straight-line programs around the video and integer arithmetic
instructions use: mov (with vector packing and unpacking), and/or/xor/not/cnot, lop3, shf,
shl/shr, prmt, setp, selp and integer cvt. The script builds the forms itself (every type and
modifier, plus mutations that ptxas should refuse: wrong types, wrong operand counts, immediates
where a register belongs, modifiers that do not belong) and writes one JSON line per text in the
format of ../shared/conformance/ptxas-acceptance.jsonl:

    {"ptx": "...", "accepted": bool, "ptxas": "messages | joined"}

Registers are named by role and declared as wide as the instruction asks for that role:
d (destination), a b c (sources), p q (predicates; in setp and selp `c` is a predicate too),
and inside braces the elements of a packed vector (lo hi, or x y z w). Each text sits in its own
`{ }` scope of one kernel; lines ptxas flags are rejected and the rest are assembled again until
a run is clean.

Usage:
    scripts/ptxas_programs.py --ptxas /path/to/ptxas [--out tests/data/ptxas-programs.jsonl]
    scripts/ptxas_programs.py --ptxas ... --stdin < texts   # decide texts given one per line

ptxas comes from the PyPI wheel nvidia-cuda-nvcc (pip download --no-deps nvidia-cuda-nvcc,
unzip, nvidia/cu13/bin/ptxas); it needs no GPU. Without --ptxas it is found as
scripts/ptxas_wheel.py says ($PTXAS, the unpacked wheel under /work/cache, PATH).
"""
import argparse
import random
import re
import sys

from ptxas_wheel import decide_all, decision_line, read_texts, split_operands, tool

INT = ["u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64"]
BITS = ["b8", "b16", "b32", "b64"]
FLOAT = ["f16", "f32", "f64"]
ALL_TYPES = BITS + INT + ["pred"] + FLOAT + ["u16x2", "s16x2", "b128"]
CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]


def width(t):
    if t == "pred":
        return 1
    m = re.fullmatch(r"[usbf](\d+)(x2)?", t)
    if not m:
        return 32
    return int(m.group(1)) * (2 if m.group(2) else 1)


def reg_type(t):
    """The declaration type of a register holding a value of instruction type `t`."""
    if t == "pred":
        return "pred"
    if t in ("u16x2", "s16x2"):
        return "b32"
    if t.startswith("f") and t in FLOAT:
        return t if t != "f16" else "b16"
    w = width(t)
    if w not in (8, 16, 32, 64, 128):
        return "b32"
    return "b%d" % w


def names_in(op):
    """Register names in one operand (braces, `|` pairs, `!`/`-` prefixes)."""
    return [n for n in re.findall(r"[A-Za-z_%$][\w$]*", op) if n != "_"]


def decls(ptx):
    """Register declarations {name: type} the text needs, by role."""
    body = ptx.strip().rstrip(";")
    head, _, rest = body.partition(" ")
    parts = head.split(".")
    op, mods = parts[0], parts[1:]
    types = [m for m in mods if m in ALL_TYPES]
    t = types[-1] if types else "b32"
    ops = split_operands(rest)
    d = {}

    def put(operand, ty):
        for n in names_in(operand):
            d.setdefault(n, reg_type(ty))

    def vec(operand, ty):
        inner = operand.strip()
        if inner.startswith("{") and inner.endswith("}"):
            elems = [e.strip() for e in inner[1:-1].split(",")]
            w = max(8, width(ty) // max(1, len(elems)))
            for e in elems:
                put(e, "b%d" % w)
            return True
        return False

    if op in ("setp",):
        for i, o in enumerate(ops):
            put(o, "pred" if i == 0 or i >= 3 else t)
    elif op == "selp":
        for i, o in enumerate(ops):
            put(o, "pred" if i == 3 else t)
    elif op == "lop3":
        for i, o in enumerate(ops):
            if i == 0 and "|" in o:
                dd, pp = o.split("|", 1)
                put(dd, "b32")
                put(pp, "pred")
            else:
                put(o, "pred" if i == 5 else "b32")
    elif op in ("shl", "shr"):
        for i, o in enumerate(ops):
            put(o, "u32" if i == 2 else t)
    elif op == "set":
        # set.CMP[.BOOL][.ftz].dtype.stype d, a, b[, c]: d of the first type, a and b of the
        # second, c a predicate.
        dt = types[0] if types else "u32"
        st = types[1] if len(types) > 1 else dt
        for i, o in enumerate(ops):
            put(o, dt if i == 0 else "pred" if i == 3 else st)
    elif op == "slct":
        ct = types[-1] if len(types) > 1 else "s32"
        for i, o in enumerate(ops):
            put(o, types[0] if types and i < 3 else ct)
    elif op == "cvt" and "pack" in mods:
        for i, o in enumerate(ops):
            put(o, "s32" if i in (1, 2) else "b32")
    elif op == "cvt":
        dt = types[0] if types else "u32"
        at = types[1] if len(types) > 1 else dt
        for i, o in enumerate(ops):
            put(o, dt if i == 0 else at)
    elif op == "mov":
        for o in ops:
            if not vec(o, t):
                put(o, t)
    else:  # and or xor not cnot shf prmt
        for o in ops:
            put(o, t)
    return d


def scope(ptx):
    by_type = {}
    for n, ty in decls(ptx).items():
        by_type.setdefault(ty, []).append(n)
    decl = " ".join(".reg .%s %s;" % (ty, ", ".join(ns)) for ty, ns in by_type.items())
    return "{ " + decl + " " + ptx + " }"


# ---------------------------------------------------------------- the forms asked about


def forms():
    f = []
    add = f.append
    some_types = ALL_TYPES
    # and or xor: every type; immediates; operand counts; stray modifiers; negations.
    for op in ("and", "or", "xor"):
        for t in some_types:
            add(f"{op}.{t} d, a, b;")
        for t in ("b16", "b32", "b64", "pred"):
            add(f"{op}.{t} d, a, 1;")
            add(f"{op}.{t} d, 1, b;")
            add(f"{op}.{t} d, a;")
            add(f"{op}.{t} d, a, b, c;")
            add(f"{op}.{t} 1, a, b;")
            add(f"{op}.{t}.{t} d, a, b;")
            add(f"{op}.sat.{t} d, a, b;")
            add(f"{op}.cc.{t} d, a, b;")
            add(f"{op}.{t} d, -a, b;")
            add(f"{op}.{t} d, !a, b;")
            add(f"{op}.{t} d, a.b0, b;")
        add(f"{op} d, a, b;")
        add(f"{op}.b32 d, a, 0xffffffff;")
        add(f"{op}.b16 d, a, 0xffff;")
        add(f"{op}.b64 d, a, 0xffffffffffffffff;")
        add(f"{op}.b32 d, a, -1;")
        add(f"{op}.b32.b64 d, a, b;")
    for op in ("not", "cnot"):
        for t in some_types:
            add(f"{op}.{t} d, a;")
        for t in ("b16", "b32", "b64", "pred"):
            add(f"{op}.{t} d, 5;")
            add(f"{op}.{t} d, a, b;")
            add(f"{op}.{t} d;")
            add(f"{op}.{t} 1, a;")
            add(f"{op}.{t} d, -a;")
            add(f"{op}.{t} d, !a;")
            add(f"{op}.sat.{t} d, a;")
        add(f"{op} d, a;")
    # lop3
    for lut in ("0", "0x80", "0xfe", "0x40", "0x1a", "0xff", "255", "0x96", "0xE8", "0xb2",
                "0xca", "256", "0x100", "-1", "0x1ff", "1000"):
        add(f"lop3.b32 d, a, b, c, {lut};")
    for t in some_types:
        add(f"lop3.{t} d, a, b, c, 0x80;")
    add("lop3.b32 d, a, b, c, e;")
    add("lop3.b32 d, a, b, c;")
    add("lop3.b32 d, a, b, c, 0x80, 0x80;")
    add("lop3.b32 d, 1, b, c, 0x80;")
    add("lop3.b32 d, a, 2, c, 0x80;")
    add("lop3.b32 d, a, b, 3, 0x80;")
    add("lop3.b32 d, a, b, c, 0x80, q;")
    add("lop3.or.b32 d|p, a, b, c, 0x3f, q;")
    add("lop3.and.b32 _|p, a, b, c, 0x3f, q;")
    add("lop3.xor.b32 d|p, a, b, c, 0x3f, q;")
    add("lop3 d, a, b, c, 0x80;")
    add("lop3.sat.b32 d, a, b, c, 0x80;")
    add("lop3.b32 d, -a, b, c, 0x80;")
    # shf
    for dr in ("l", "r", ""):
        for mode in ("wrap", "clamp", ""):
            for t in ("b32", "u32", "s32", "b64", "b16", "u64", "pred"):
                mods = ".".join(x for x in (dr, mode, t) if x)
                add(f"shf.{mods} d, a, b, c;")
    for dr in ("l", "r"):
        for mode in ("wrap", "clamp"):
            add(f"shf.{dr}.{mode}.b32 d, a, b, 8;")
            add(f"shf.{dr}.{mode}.b32 d, 1, b, c;")
            add(f"shf.{dr}.{mode}.b32 d, a, 2, c;")
            add(f"shf.{dr}.{mode}.b32 d, a, b;")
            add(f"shf.{dr}.{mode}.b32 d, a, b, c, c;")
            add(f"shf.{mode}.{dr}.b32 d, a, b, c;")
            add(f"shf.{dr}.{mode}.b32.b32 d, a, b, c;")
            add(f"shf.{dr}.{mode}.b32 d, a, b, 40;")
    add("shf.l.r.wrap.b32 d, a, b, c;")
    add("shf.l.wrap.clamp.b32 d, a, b, c;")
    add("shf.l.wrap.sat.b32 d, a, b, c;")
    # shl shr
    for op in ("shl", "shr"):
        for t in some_types:
            add(f"{op}.{t} d, a, b;")
        for t in ("b16", "b32", "b64", "u32", "s32", "s64"):
            add(f"{op}.{t} d, a, 3;")
            add(f"{op}.{t} d, a, 100;")
            add(f"{op}.{t} d, 5, b;")
            add(f"{op}.{t} d, a;")
            add(f"{op}.{t} d, a, b, c;")
            add(f"{op}.wrap.{t} d, a, b;")
            add(f"{op}.clamp.{t} d, a, b;")
            add(f"{op}.sat.{t} d, a, b;")
        add(f"{op} d, a, b;")
        add(f"{op}.b32 d, a, -1;")
    # prmt
    for mode in ("", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", "sat", "wrap", "f4e.b4e"):
        for t in ("b32", "u32", "s32", "b16", "b64"):
            mods = ".".join(x for x in (t, mode) if x)
            add(f"prmt.{mods} d, a, b, c;")
        mods = ".".join(x for x in ("b32", mode) if x)
        add(f"prmt.{mods} d, a, b, 0x3210;")
    for mode in ("f4e", "rc8"):
        add(f"prmt.{mode}.b32 d, a, b, c;")
    add("prmt.b32 d, a, b, 0x7654;")
    add("prmt.b32 d, a, b, 0xba98;")
    add("prmt.b32 d, a, b, 0x12345;")
    add("prmt.b32 d, a, b;")
    add("prmt.b32 d, a, b, c, c;")
    add("prmt.b32 d, 1, b, c;")
    add("prmt.b32 d, a, 1, c;")
    add("prmt d, a, b, c;")
    # setp: every comparison, type and Boolean operation; destination shapes.
    for cmp in CMPS + ["foo"]:
        for t in ("b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32",
                  "f64", "u8", "s8", "b8", "pred"):
            add(f"setp.{cmp}.{t} p, a, b;")
            for bop in ("and", "or", "xor"):
                add(f"setp.{cmp}.{bop}.{t} p|q, a, b, c;")
    for t in ("u32", "s32", "b32", "s64", "u16", "f32"):
        add(f"setp.lt.{t} p|q, a, b;" if t != "b32" else f"setp.eq.{t} p|q, a, b;")
        add(f"setp.ne.{t} _|q, a, b;")
        add(f"setp.ne.{t} p|_, a, b;")
        add(f"setp.ne.{t} _|_, a, b;")
        add(f"setp.ne.and.{t} p, a, b, !c;")
        add(f"setp.ne.and.{t} p|q, a, b, !c;")
        add(f"setp.ne.or.{t} p, a, b, 1;")
        add(f"setp.ne.or.{t} p, a, b;")
        add(f"setp.ne.{t} p, a, b, c;")
        add(f"setp.ne.{t} p, a, 5;")
        add(f"setp.ne.{t} p, 5, b;")
        add(f"setp.ne.{t} p, 5, 6;")
        add(f"setp.ne.{t} p, a;")
        add(f"setp.ne.{t} p, a, b, c, c;")
        add(f"setp.ne.ftz.{t} p, a, b;")
        add(f"setp.ne.and.ftz.{t} p, a, b, c;")
        add(f"setp.ne.sat.{t} p, a, b;")
        add(f"setp.ne.{t}.{t} p, a, b;")
        add(f"setp.{t}.ne p, a, b;")
        add(f"setp.ne.and.or.{t} p, a, b, c;")
        add(f"setp.eq.lt.{t} p, a, b;")
        add(f"setp.ne.{t} p, -a, b;")
        add(f"setp.ne.{t} p, !a, b;")
    add("setp.ne p, a, b;")
    add("setp.u32 p, a, b;")
    add("setp.eq.u32 1, a, b;")
    # selp
    for t in some_types:
        add(f"selp.{t} d, a, b, c;")
    for t in ("b16", "b32", "b64", "u32", "s64", "f32"):
        add(f"selp.{t} d, 1, b, c;")
        add(f"selp.{t} d, a, 2, c;")
        add(f"selp.{t} d, 1, 2, c;")
        add(f"selp.{t} d, a, b, 1;")
        add(f"selp.{t} d, a, b, !c;")
        add(f"selp.{t} d, a, b;")
        add(f"selp.{t} d, a, b, c, c;")
        add(f"selp.{t} 1, a, b, c;")
        add(f"selp.sat.{t} d, a, b, c;")
        add(f"selp.{t}.{t} d, a, b, c;")
        add(f"selp.{t} d, -a, b, c;")
    add("selp d, a, b, c;")
    # cvt: integer types both ways, with and without .sat, with stray rounding and ftz.
    ctypes = INT + ["b16", "b32", "b64", "b8", "pred", "u16x2"]
    for dt in ctypes:
        for at in ctypes:
            add(f"cvt.{dt}.{at} d, a;")
            if dt in INT and at in INT + ["b16", "b32"]:
                add(f"cvt.sat.{dt}.{at} d, a;")
    for dt, at in (("u32", "s32"), ("s8", "s32"), ("u16", "u64"), ("s32", "u32"), ("u64", "s8"),
                   ("u32", "u16")):
        for rnd in ("rni", "rzi", "rmi", "rpi", "rn", "rz"):
            add(f"cvt.{rnd}.{dt}.{at} d, a;")
        add(f"cvt.ftz.{dt}.{at} d, a;")
        add(f"cvt.sat.ftz.{dt}.{at} d, a;")
        add(f"cvt.{dt}.{at}.sat d, a;")
        add(f"cvt.sat.sat.{dt}.{at} d, a;")
        add(f"cvt.{dt}.{at} d, 5;")
        add(f"cvt.{dt}.{at} d, -5;")
        add(f"cvt.{dt}.{at} d;")
        add(f"cvt.{dt}.{at} d, a, b;")
        add(f"cvt.{dt}.{at} 1, a;")
        add(f"cvt.{dt}.{at} d, -a;")
        add(f"cvt.relu.{dt}.{at} d, a;")
        add(f"cvt.{dt} d, a;")
    add("cvt d, a;")
    # mov: every type; immediates; packing and unpacking vectors.
    for t in some_types:
        add(f"mov.{t} d, a;")
        add(f"mov.{t} d, {{lo, hi}};")
        add(f"mov.{t} {{lo, hi}}, a;")
        add(f"mov.{t} d, {{x, y, z, w}};")
        add(f"mov.{t} {{x, y, z, w}}, a;")
    for t in ("b16", "b32", "b64", "u32", "s16", "pred"):
        add(f"mov.{t} d, 7;")
        add(f"mov.{t} d, -7;")
        add(f"mov.{t} 7, a;")
        add(f"mov.{t} d;")
        add(f"mov.{t} d, a, b;")
        add(f"mov.{t} d, -a;")
        add(f"mov.{t} d, !a;")
        add(f"mov.sat.{t} d, a;")
        add(f"mov.{t}.{t} d, a;")
        add(f"mov.{t} d, a.b0;")
    for t in ("b32", "b64"):
        add(f"mov.{t} d, {{lo, 5}};")
        add(f"mov.{t} d, {{lo, hi, x}};")
        add(f"mov.{t} {{lo, hi}}, {{x, y}};")
        add(f"mov.{t} d, {{lo}};")
        add(f"mov.{t} {{lo, _}}, a;")
        add(f"mov.{t} {{_, hi}}, a;")
        add(f"mov.{t} d, {{_, hi}};")
    add("mov.b32 d, 0xffffffff;")
    add("mov.b16 d, 0xffff;")
    add("mov.b16 d, 0x1ffff;")
    add("mov.b64 d, 0xffffffffffffffff;")
    add("mov.pred d, 1;")
    add("mov.pred d, 0;")
    add("mov.pred d, 2;")
    add("mov d, a;")
    # Edge cases: sinks in vectors, immediates in vectors, out-of-range immediates.
    add("mov.b32 d, {lo, _};")
    add("mov.b32 d, {_, _};")
    add("mov.b64 d, {_, hi};")
    add("mov.b64 d, {lo, _};")
    add("mov.b64 d, {x, _, z, w};")
    add("mov.b32 d, {x, _, z, w};")
    add("mov.b16 d, {_, hi};")
    add("mov.b32 {_, _}, a;")
    add("mov.b64 {x, _, z, _}, a;")
    add("mov.b32 d, {5, 6};")
    add("mov.b64 d, {x, y, 1, w};")
    add("mov.b32 {lo, hi}, 5;")
    add("mov.b16 {lo, hi}, a;")
    add("mov.b32 d, {-lo, hi};")
    add("mov.b32 d, {lo, hi}, a;")
    add("mov.b64 d, {lo};")
    add("mov.b32 {lo}, a;")
    add("mov.b64 {lo}, a;")
    add("mov.b32 d, _;")
    add("mov.b32 _, a;")
    add("and.b32 _, a, b;")
    add("setp.eq.u32 _, a, b;")
    add("selp.b32 d, a, b, _;")
    add("mov.b32 d, {lo,hi};")
    add("mov.b32 d,{ lo , hi };")
    add("mov.b32 d, 0x100000000;")
    add("and.b16 d, a, 0x10000;")
    add("and.b32 d, a, 0x100000000;")
    add("shl.b32 d, a, 0x100000000;")
    add("prmt.b32 d, a, b, 0x100000000;")
    add("lop3.b32 d, a, b, c, 0x100000000;")
    add("setp.eq.u16 p, a, 0x10000;")
    add("cvt.u16.u32 d, 0x100000000;")
    add("selp.b16 d, 0x10000, b, c;")
    add("mov.pred d, 0x100000000;")
    add("and.pred d, a, 2;")
    add("not.pred d, 2;")
    add("and.pred d, a, -1;")
    # slct: every d type with an s32 or f32 selector; .ftz; immediates; stray modifiers.
    slct_types = ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64"]
    for t in slct_types + ["u8", "s8", "b8", "pred", "f16"]:
        for ct in ("s32", "f32"):
            add(f"slct.{t}.{ct} d, a, b, c;")
        add(f"slct.ftz.{t}.f32 d, a, b, c;")
    for ct in ("u32", "b32", "s16", "s64", "f64", "u16", "f16"):
        add(f"slct.b32.{ct} d, a, b, c;")
    for ct in ("s32", "f32"):
        add(f"slct.b32.{ct} d, 1, b, c;")
        add(f"slct.b32.{ct} d, a, 2, c;")
        add(f"slct.b32.{ct} d, a, b, -3;")
        add(f"slct.b32.{ct} d, a, b, 0f3f800000;")
        add(f"slct.b32.{ct} d, a, b, 0fbf800000;")
        add(f"slct.b32.{ct} d, a, b;")
        add(f"slct.b32.{ct} d, a, b, c, c;")
        add(f"slct.b32.{ct} d, a, b, !c;")
        add(f"slct.b32.{ct} d, a, b, -c;")
        add(f"slct.b32.{ct} d, a.b0, b, c;")
        add(f"slct.b32.{ct} _, a, b, c;")
        add(f"slct.sat.b32.{ct} d, a, b, c;")
        add(f"slct.b32.{ct}.ftz d, a, b, c;")
        add(f"slct.ftz.ftz.b32.{ct} d, a, b, c;")
    add("slct.ftz.s32.s32 d, a, b, c;")
    add("slct.f32.f32 d, 0f3f800000, b, c;")
    add("slct.f64.s32 d, 0d3ff0000000000000, b, c;")
    add("slct.b32 d, a, b, c;")
    add("slct d, a, b, c;")
    add("slct.b16.s32 d, 0x10000, b, c;")
    # set: every d type and compared type under eq and lt, every comparison for four compared
    # types, the Boolean forms, .ftz, immediates and what is refused. (A half-precision d or
    # compared type, which ptxas takes, belongs to the half-precision set and is not asked.)
    set_types = ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64"]
    for dt in ("u32", "s32", "f32", "b32", "u16", "u64", "s64", "f64", "pred"):
        for st in set_types + ["u8", "s8", "b8", "pred"]:
            add(f"set.eq.{dt}.{st} d, a, b;")
            add(f"set.lt.{dt}.{st} d, a, b;")
    for st in ("s32", "u32", "f32", "b32", "u64", "f64"):
        for c in CMPS:
            add(f"set.{c}.u32.{st} d, a, b;")
    for dt in ("u32", "s32", "f32"):
        for bo in ("and", "or", "xor"):
            add(f"set.lt.{bo}.{dt}.s32 d, a, b, c;")
            add(f"set.lt.{bo}.{dt}.s32 d, a, b, !c;")
            add(f"set.ne.{bo}.{dt}.f32 d, a, b, c;")
            add(f"set.{bo}.lt.{dt}.s32 d, a, b, c;")
            add(f"set.lt.{bo}.{dt}.s32 d, a, b;")
            add(f"set.lt.{bo}.{dt}.s32 d, a, b, 1;")
            add(f"set.lt.{bo}.ftz.{dt}.f32 d, a, b, c;")
        for st in ("f32", "f64", "s32", "b32"):
            add(f"set.lt.ftz.{dt}.{st} d, a, b;")
            add(f"set.eq.ftz.{dt}.{st} d, a, b;")
        add(f"set.lt.{dt}.s32 d, a, b, c;")
        add(f"set.lt.ftz.ftz.{dt}.f32 d, a, b;")
        add(f"set.lt.lt.{dt}.s32 d, a, b;")
        add(f"set.lt.and.or.{dt}.s32 d, a, b, c;")
        add(f"set.{dt}.s32 d, a, b;")
        add(f"set.lt.{dt} d, a, b;")
        add(f"set.lt.{dt}.s32.s32 d, a, b;")
        add(f"set.lt.{dt}.s32.ftz d, a, b;")
        add(f"set.lt.sat.{dt}.s32 d, a, b;")
        add(f"set.lt.{dt}.s32 d, 1, b;")
        add(f"set.lt.{dt}.s32 d, a, -2;")
        add(f"set.lt.{dt}.s64 d, 0x7fffffffffffffff, b;")
        add(f"set.lt.{dt}.f32 d, 0f3f800000, b;")
        add(f"set.lt.{dt}.f32 d, 1, b;")
        add(f"set.lt.{dt}.f64 d, a, 0d3ff0000000000000;")
        add(f"set.lt.{dt}.f64 d, a, 0f3f800000;")
        add(f"set.eq.{dt}.b32 d, a, 0f3f800000;")
        add(f"set.lt.{dt}.s32 d, -a, b;")
        add(f"set.lt.{dt}.s32 d, !a, b;")
        add(f"set.lt.{dt}.s32 _, a, b;")
        add(f"set.lt.{dt}.s32 d|_, a, b;")
        add(f"set.lt.{dt}.s32 d|p, a, b;")
        add(f"set.lt.{dt}.s32 d, a.b0, b;")
        add(f"set.lt.{dt}.s32 d, a, b.h1;")
        add(f"set.lt.{dt}.s32 d, a;")
        add(f"set.lt.{dt}.s32 d, a, b, c, c;")
        add(f"set.lt.{dt}.s32 d, {{a, b}}, b;")
    add("set.lt.u32.s16 d, a, 0x10000;")
    add("set.lt.u32.u16 d, a, 65535;")
    add("set d, a, b;")
    # A float literal of the other width: 0f where an .f64 is read, 0d where an .f32 is.
    for lit64, lit32 in (("0f3f800000", "0d3ff8000000000001"),):
        add(f"setp.lt.f64 p, a, {lit64};")
        add(f"selp.f64 d, {lit64}, b, c;")
        add(f"mov.f64 d, {lit64};")
        add(f"slct.f64.s32 d, {lit64}, b, c;")
        add(f"setp.lt.f32 p, a, {lit32};")
        add(f"selp.f32 d, {lit32}, b, c;")
        add(f"mov.f32 d, {lit32};")
        add(f"slct.f32.s32 d, {lit32}, b, c;")
        add(f"set.lt.u32.f32 d, a, {lit32};")
    # .ftz reads subnormal f32 values only: setp and set refuse it on .f64.
    add("setp.lt.ftz.f64 p, a, b;")
    add("setp.lt.and.ftz.f64 p, a, b, c;")
    # cvt.pack: the 16-bit pair and the narrow forms that keep c's bits; what they refuse.
    for ct in ("u16", "s16"):
        add(f"cvt.pack.sat.{ct}.s32 d, a, b;")
        add(f"cvt.pack.{ct}.s32 d, a, b;")
        add(f"cvt.pack.sat.{ct}.s32.b32 d, a, b, c;")
        add(f"cvt.pack.sat.{ct}.u32 d, a, b;")
        add(f"cvt.pack.sat.{ct}.s32 d, 5, b;")
        add(f"cvt.pack.sat.{ct}.s32 d, a, -7;")
        add(f"cvt.pack.sat.{ct}.s32 d, a;")
    for ct in ("u8", "s8", "u4", "s4", "u2", "s2"):
        add(f"cvt.pack.sat.{ct}.s32.b32 d, a, b, c;")
        add(f"cvt.pack.{ct}.s32.b32 d, a, b, c;")
        add(f"cvt.pack.sat.{ct}.s32 d, a, b;")
        add(f"cvt.pack.sat.{ct}.s32.u32 d, a, b, c;")
        add(f"cvt.pack.sat.{ct}.s32.b16 d, a, b, c;")
        add(f"cvt.pack.sat.{ct}.u32.b32 d, a, b, c;")
        add(f"cvt.pack.sat.{ct}.s32.b32 d, a, b, 0x1234;")
        add(f"cvt.pack.sat.{ct}.s32.b32 d, 300, b, c;")
        add(f"cvt.pack.sat.{ct}.s32.b32 d, a, b, c, c;")
        add(f"cvt.pack.sat.{ct}.s32.b32 d, -a, b, c;")
        add(f"cvt.pack.sat.rn.{ct}.s32.b32 d, a, b, c;")
    add("cvt.pack.sat.u8.s32.b32 _, a, b, c;")
    add("cvt.pack.sat.s32.s32 d, a, b;")
    add("cvt.pack.sat.u32.s32.b32 d, a, b, c;")
    add("cvt.pack.sat.b8.s32.b32 d, a, b, c;")
    add("cvt.sat.pack.u8.s32.b32 d, a, b, c;")
    add("cvt.pack.sat.pack.u8.s32.b32 d, a, b, c;")
    # The carry chain: every type of each link, what the .cc and c forms refuse.
    for t in ("u16", "s16", "u32", "s32", "u64", "s64", "b32", "u8"):
        for op in ("add", "sub"):
            add(f"{op}.cc.{t} d, a, b;")
            add(f"{op}c.{t} d, a, b;")
            add(f"{op}c.cc.{t} d, a, b;")
        for h in ("lo", "hi"):
            add(f"mad.{h}.cc.{t} d, a, b, c;")
            add(f"madc.{h}.{t} d, a, b, c;")
            add(f"madc.{h}.cc.{t} d, a, b, c;")
    for t in ("u32", "s64"):
        add(f"add.cc.{t} d, a, 5;")
        add(f"addc.cc.{t} d, 5, b;")
        add(f"sub.cc.{t} d, a, -1;")
        add(f"subc.{t} d, a, 0x80;")
        add(f"mad.lo.cc.{t} d, a, 3, c;")
        add(f"madc.hi.{t} d, a, b, 7;")
        add(f"add.cc.sat.{t} d, a, b;")
        add(f"addc.sat.{t} d, a, b;")
        add(f"sub.cc.{t} d, a;")
        add(f"addc.{t} d, a, b, c;")
        add(f"madc.{t} d, a, b, c;")
        add(f"mad.cc.{t} d, a, b, c;")
        add(f"mad.wide.cc.{t} d, a, b, c;")
        add(f"madc.lo.{t} d, a, b;")
        add(f"add.cc.{t} _, a, b;")
        add(f"addc.cc.{t} d, -a, b;")
        add(f"addc.cc.{t} d, a.b0, b;")
        add(f"add.cc.cc.{t} d, a, b;")
        add(f"addc.{t}.cc d, a, b;")
        add(f"mad.cc.lo.{t} d, a, b, c;")
    add("addc.cc d, a, b;")
    add("subc d, a, b;")
    # A second word of each modifier group: ptxas reads .sat and .cc written twice as once and
    # refuses a second word of any other group.
    for t in ["setp.lt.ftz.ftz.f32 p, a, b;", "setp.eq.ftz.ftz.f32 p|q, a, b;",
              "setp.lt.lt.s32 p, a, b;", "setp.lt.gt.s32 p, a, b;",
              "setp.lt.and.and.s32 p, a, b, c;", "setp.lt.and.or.s32 p|q, a, b, c;",
              "set.lt.and.or.u32.s32 d, a, b, c;", "set.lt.lt.u32.s32 d, a, b;",
              "prmt.b32.f4e.f4e d, a, b, c;", "prmt.b32.f4e.b4e d, a, b, c;",
              "shf.l.l.wrap.b32 d, a, b, c;", "shf.l.r.wrap.b32 d, a, b, c;",
              "shf.l.wrap.wrap.b32 d, a, b, c;", "shf.l.wrap.clamp.b32 d, a, b, c;",
              "mad.lo.lo.cc.u32 d, a, b, c;", "madc.hi.lo.u32 d, a, b, c;",
              "madc.hi.cc.cc.u32 d, a, b, c;", "mad.lo.cc.cc.u32 d, a, b, c;",
              "addc.cc.cc.u32 d, a, b;", "subc.cc.cc.u32 d, a, b;", "sub.cc.cc.u32 d, a, b;",
              "cvt.pack.sat.sat.u16.s32 d, a, b;", "cvt.pack.sat.sat.u8.s32.b32 d, a, b, c;",
              "slct.ftz.ftz.s32.f32 d, a, b, c;"]:
        add(t)
    # .b01/.b12/.b23 on a source register: ptxas reads and ignores them where the register is
    # 32 bits wide (the table's loose operands), and refuses them on other widths.
    for t in [l.strip() for l in open(__file__.replace("ptxas_programs.py", "ptxas_suffixes.txt"))]:
        if t and not t.startswith("#"):
            add(t)
    # A float literal of each width in each source position of 32-bit forms: ptxas takes 0f..
    # where a .b32 value is read and refuses it where a shift amount is (shl, shr, shf's c).
    for t in ["and.b32 d, a, b;", "lop3.b32 d, a, b, c, 0xb2;", "shf.l.wrap.b32 d, a, b, c;",
              "shf.r.clamp.b32 d, a, b, c;", "shl.b32 d, a, b;", "shr.b32 d, a, b;",
              "shr.s32 d, a, b;", "prmt.b32 d, a, b, c;", "prmt.b32.f4e d, a, b, c;",
              "selp.b32 d, a, b, c;", "slct.b32.s32 d, a, b, c;", "mov.b32 d, a;",
              "add.cc.u32 d, a, b;"]:
        head, rest = t.split(" ", 1)
        ops = rest.rstrip(";").split(", ")
        for i in range(1, len(ops)):
            for lit in ("0f3f800000", "0d3ff0000000000000"):
                o = list(ops)
                o[i] = lit
                add(f"{head} {', '.join(o)};")
    # Decimal float literals: an exponent with a sign and no fraction (1e-5, 1E+5), and past
    # what a double holds, above (a constant overflow to ptxas: 1e400, 1.8e308) and below (1e-400,
    # and 1e-320, which only a subnormal double holds); the smallest normal double is taken.
    for lit in ("1e-5", "1E+5", "-1e-5", "1e5", "1.5e-3", "1e-45", "1e38", "1e39", "1e400",
                "-1e400", "1.8e308", "1.7e308", "1e-400", "1e-320", "2.2250738585072014e-308",
                "2.2e-308", "0e-400", "0.0", "0e5"):
        add(f"mov.f32 d, {lit};")
        add(f"mov.f64 d, {lit};")
    for t in ("setp.lt.f32 p, a, 1e-5;", "setp.lt.f32 p, a, 1e400;", "selp.f32 d, 1E+5, b, p;",
              "mov.b32 d, 1e-5;"):
        add(t)
    seen, out = set(), []
    for t in f:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out



# ------------------------------------------------------------- random mutations of valid forms

CMP_INT = CMPS[:10]
TY = ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "pred", "u8", "s8", "b8",
      "f32", "f64"]


def base(rng):
    op=rng.choice(["mov","and","or","xor","not","cnot","lop3","shf","shl","shr","prmt","setp","selp","cvt"])
    v=lambda: rng.choice(["a","b","c","7","0x80","-1","0xff00ff00"])
    if op in("and","or","xor"): t=rng.choice(["b16","b32","b64","pred"]); return f"{op}.{t} d, {v()}, {v()};"
    if op in("not","cnot"): t=rng.choice(["b16","b32","b64"]); return f"{op}.{t} d, {v()};"
    if op=="lop3": return f"lop3.b32 d, {v()}, {v()}, {v()}, {rng.randrange(0,256):#x};"
    if op=="shf": return f"shf.{rng.choice('lr')}.{rng.choice(['wrap','clamp'])}.b32 d, {v()}, {v()}, {v()};"
    if op=="shl": return f"shl.{rng.choice(['b16','b32','b64'])} d, {v()}, {v()};"
    if op=="shr": return f"shr.{rng.choice(['b16','b32','b64','u16','u32','u64','s16','s32','s64'])} d, {v()}, {v()};"
    if op=="prmt": 
        m=rng.choice(["","f4e","b4e","rc8","ecl","ecr","rc16"]); return f"prmt.b32{'.'+m if m else ''} d, {v()}, {v()}, {v()};"
    if op=="setp":
        t=rng.choice(["b16","b32","b64","u16","u32","u64","s16","s32","s64"]); c=rng.choice(CMP_INT); b=rng.choice(["","and","or","xor"])
        dst=rng.choice(["p","p|q","_|q","p|_"])
        return f"setp.{c}{'.'+b if b else ''}.{t} {dst}, {v()}, {v()}{', '+rng.choice(['c','!c','1']) if b else ''};"
    if op=="selp": t=rng.choice(["b16","b32","b64","u16","u32","u64","s16","s32","s64"]); return f"selp.{t} d, {v()}, {v()}, {rng.choice(['c','!c','0'])};"
    if op=="cvt": 
        s=rng.choice(["",".sat"]); return f"cvt{s}.{rng.choice(INT)}.{rng.choice(INT)} d, {v()};"
    if op=="mov":
        k=rng.random()
        if k<0.3: t=rng.choice(["b16","b32","b64","u32","s64","pred"]); return f"mov.{t} d, {v()};"
        t=rng.choice(["b16","b32","b64"]); n=rng.choice([2,4,1]); names=["lo","hi"] if n==2 else (["x","y","z","w"] if n==4 else ["lo"])
        if k<0.65: return f"mov.{t} d, {{{', '.join(names)}}};"
        return f"mov.{t} {{{', '.join(names)}}}, a;"
def mutate(rng, s):
    head,rest=s.split(" ",1); parts=head.split(".")
    k=rng.randrange(6)
    if k==0 and len(parts)>1: parts[rng.randrange(1,len(parts))]=rng.choice(TY)
    elif k==1: parts.insert(rng.randrange(1,len(parts)+1), rng.choice(["sat","ftz","cc","wrap","clamp","f4e","and","eq","lo","rn","relu","l"]))
    elif k==2 and len(parts)>2: del parts[rng.randrange(1,len(parts))]
    elif k==3:
        ops=rest.rstrip(";").split(", ")
        i=rng.randrange(len(ops)); ops[i]=rng.choice(["a","5","_","!a","-b","{lo, hi}","a.b0","p|q","0f3f800000"]); rest=", ".join(ops)+";"
    elif k==4:
        ops=rest.rstrip(";").split(", ")
        if rng.random()<0.5 and len(ops)>1: ops.pop()
        else: ops.append(rng.choice(["c","1"]))
        rest=", ".join(ops)+";"
    return ".".join(parts)+" "+rest


def mutations(n, seed):
    """`n` texts: valid forms with random operands, 60% of them with one random change."""
    rng = random.Random(seed)
    out = set()
    while len(out) < n:
        b = base(rng)
        out.add(b if rng.random() < 0.4 else mutate(rng, b))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas", default=None,
                    help="the ptxas to ask (default: $PTXAS, the unpacked PyPI wheel, PATH)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--stdin", action="store_true", help="decide texts read from standard input")
    ap.add_argument("--mutations", type=int, default=3000, help="random mutations of valid forms")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    if args.stdin:
        texts = read_texts(sys.stdin)
    else:
        texts = forms()
        have = set(texts)
        texts += [t for t in mutations(args.mutations, args.seed) if t not in have]
    out = decide_all(texts, scope, tool("ptxas", args.ptxas))
    sink = open(args.out, "w") if args.out else sys.stdout
    for t in texts:
        sink.write(decision_line(t, *out[t]) + "\n")
    if args.out:
        sink.close()
        n = sum(1 for t in texts if out[t][0])
        print(f"{len(texts)} texts, {n} accepted, {len(texts) - n} rejected", file=sys.stderr)


if __name__ == "__main__":
    main()
