#!/usr/bin/env python3
"""Run the PTX that nvcc emits for each CUDA intrinsic (crates/ptxlab-core/src/intrinsics.txt)
as a program, with a small interpreter of its own for the PTX subset in that file, and compare
with the meanings written in the core (`ptxlab intrinsic --batch`).

Inputs per intrinsic (the same list tests/intrinsics_ptx.rs builds in Rust):
  * every combination of edge values (all pairs for two arguments, a smaller set for three);
  * random values (splitmix64, seeded with the intrinsic's position in the file);
  * for the four-lane ones, every pair of byte values with each byte replicated in every lane
    (2^16 cases); for the two-lane ones, 2^16 pairs of 256 chosen halfwords, replicated.
It prints the disagreements, checks the readings in NAIVE (the literal reading of CUDA's one-line
descriptions) against the PTX to show each finding, and with --write-digests writes
crates/ptxlab-core/tests/data/intrinsics-ptx.txt: per intrinsic, the number of inputs and an
FNV-1a digest of the PTX results, which the Rust test compares with the core's meanings.

    python3 scripts/intrinsics_check.py [--quick] [--only REGEX] [--write-digests]
"""
import argparse, os, re, subprocess, sys

from ptxas_wheel import split_operands

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
DATA = os.path.join(root, "crates", "ptxlab-core", "src", "intrinsics.txt")
DIGESTS = os.path.join(root, "crates", "ptxlab-core", "tests", "data", "intrinsics-ptx.txt")
M64 = (1 << 64) - 1

# --------------------------------------------------------------------------------------------
# Data


def read_data(path=DATA):
    out = []
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("= "):
            f = line.split()
            out.append({"name": f[1], "res": f[2], "args": f[3].split(","), "ptx": [],
                        "outs": f[4].split(",") if len(f) > 4 else []})
        elif line.startswith("p "):
            out[-1]["ptx"].append(line[2:])
    return out


def bits_of(t):
    return 64 if t.endswith("64") else 32


# --------------------------------------------------------------------------------------------
# Interpreter: each PTX statement becomes a line of Python; the program becomes a function.

def mask(n):
    return (1 << n) - 1


def sx(v, n):
    v &= mask(n)
    return v - (1 << n) if v >> (n - 1) & 1 else v


def prmt(a, b, c):
    pool = (b & 0xffffffff) << 32 | (a & 0xffffffff)
    r = 0
    for n in range(4):
        s = (c >> (4 * n)) & 0xf
        byte = (pool >> (8 * (s & 7))) & 0xff
        if s & 8:
            byte = 0xff if byte & 0x80 else 0
        r |= byte << (8 * n)
    return r


def lop3(a, b, c, imm):
    r = 0
    for i in range(8):
        if imm >> i & 1:
            r |= (a if i & 4 else ~a) & (b if i & 2 else ~b) & (c if i & 1 else ~c)
    return r & 0xffffffff


def shr(v, s, n, signed):
    s = min(s & 0xffffffff, n)
    if signed:
        return (sx(v, n) >> s) & mask(n)
    return (v & mask(n)) >> s if s < n else 0


def shl(v, s, n):
    s = s & 0xffffffff
    return (v << s) & mask(n) if s < n else 0


def lanes2(f, a, b, signed):
    r = 0
    for i in range(2):
        x, y = (a >> 16 * i) & 0xffff, (b >> 16 * i) & 0xffff
        if signed:
            x, y = sx(x, 16), sx(y, 16)
        r |= (f(x, y) & 0xffff) << 16 * i
    return r


def vabsdiff(a, b, c, n, add):
    w = 32 // n
    lanes = [abs(((a >> w * i) & mask(w)) - ((b >> w * i) & mask(w))) & mask(w) for i in range(n)]
    if add:
        return (sum(lanes) + c) & 0xffffffff
    return sum(v << w * i for i, v in enumerate(lanes))


def dp(a, b, c, asgn, bsgn, half):
    if half is None:
        terms = [(sx if asgn else lambda v, n: v & mask(n))((a >> 8 * i) & 0xff, 8) *
                 (sx if bsgn else lambda v, n: v & mask(n))((b >> 8 * i) & 0xff, 8) for i in range(4)]
    else:
        terms = [(sx if asgn else lambda v, n: v & mask(n))((a >> 16 * i) & 0xffff, 16) *
                 (sx if bsgn else lambda v, n: v & mask(n))((b >> 8 * (half + i)) & 0xff, 8)
                 for i in range(2)]
    cc = sx(c, 32) if asgn or bsgn else c
    return (sum(terms) + cc) & 0xffffffff


def bfind_shiftamt(v):
    v &= 0xffffffff
    return 0xffffffff if v == 0 else 31 - (v.bit_length() - 1)


HELPERS = dict(sx=sx, prmt=prmt, lop3=lop3, shr=shr, shl=shl, lanes2=lanes2, vabsdiff=vabsdiff,
               dp=dp, bfind_shiftamt=bfind_shiftamt, mask=mask)


class Unsupported(Exception):
    pass


def compile_ptx(lines, outs=()):
    """The PTX as Python source of a function f(a, b, c) -> d, or (d, bool, ...) when the
    intrinsic also writes bools."""
    code = ["def f(a=0, b=0, c=0):", " R = {'%a': a, '%b': b, '%c': c}"]
    for stmt in lines:
        if stmt in ("{", "}") or stmt.startswith(".reg"):
            continue
        code.append(" " + translate(stmt))
    if outs:
        code.append(" return (R['%d'], " + ", ".join(f"R['%{o}'] & 1" for o in outs) + ")")
    else:
        code.append(" return R['%d']")
    return "\n".join(code)


def operand(tok, n):
    tok = tok.strip()
    if re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)", tok):
        return str(int(tok, 0) & mask(n))
    return f"(R[{tok!r}] & {mask(n)})"


def translate(stmt):
    m = re.fullmatch(r"(\S+)\s+(.*);", stmt)
    if not m:
        raise Unsupported(stmt)
    op, rest = m.group(1), m.group(2)
    ops = split_operands(rest)
    parts = op.split(".")
    base, ty = parts[0], parts[-1]
    n = {"b16": 16, "s16": 16, "u16": 16, "b32": 32, "s32": 32, "u32": 32, "b64": 64, "s64": 64,
         "u64": 64, "s16x2": 32, "u16x2": 32}.get(ty, 32)
    d = ops[0]
    src = [operand(o, n) for o in ops[1:]] if not any("{" in o for o in ops) else None
    set_ = lambda e, w=n: f"R[{d!r}] = ({e}) & {mask(w)}"

    if base == "mov" and ops[0].startswith("{"):
        lo, hi = [x.strip() for x in ops[0].strip("{}").split(",")]
        s = operand(ops[1], 32)
        return f"R[{lo!r}] = {s} & 0xffff; R[{hi!r}] = ({s} >> 16) & 0xffff"
    if base == "mov" and ops[1].startswith("{"):
        lo, hi = [operand(x, 16) for x in ops[1].strip("{}").split(",")]
        return set_(f"{lo} | ({hi} << 16)", 32)
    if base == "mov":
        return set_(src[0])
    if base in ("and", "or", "xor"):
        sym = {"and": "&", "or": "|", "xor": "^"}[base]
        return set_(f"{src[0]} {sym} {src[1]}")
    if base == "not":
        return set_(f"~{src[0]}")
    if base == "neg":
        return set_(f"-{src[0]}")
    if op in ("add.s16x2", "add.u16x2"):
        return set_(f"lanes2(lambda x, y: x + y, {src[0]}, {src[1]}, False)")
    if base in ("add", "sub") and len(parts) == 2:
        return set_(f"{src[0]} {'+' if base == 'add' else '-'} {src[1]}")
    if base == "shr":
        return set_(f"shr({src[0]}, {src[1]}, {n}, {ty.startswith('s')})")
    if base == "shl":
        return set_(f"shl({src[0]}, {src[1]}, {n})")
    if op == "prmt.b32":
        return set_(f"prmt({src[0]}, {src[1]}, {src[2]})")
    if op == "lop3.b32":
        return set_(f"lop3({src[0]}, {src[1]}, {src[2]}, {int(ops[4], 0)})")
    if base in ("min", "max"):
        relu = "relu" in parts
        signed = parts[1].startswith("s")
        pick = "min" if base == "min" else "max"
        inner = f"{pick}(x, y)" + (" if True else 0" if False else "")
        fn = f"lambda x, y: max({inner}, 0)" if relu else f"lambda x, y: {inner}"
        if parts[1].endswith("x2"):
            return set_(f"lanes2({fn}, {src[0]}, {src[1]}, {signed})")
        conv = (lambda s: f"sx({s}, {n})") if signed else (lambda s: s)
        return set_(f"({fn})({conv(src[0])}, {conv(src[1])})")
    if base == "mul" and parts[1] == "lo":
        return set_(f"{src[0]} * {src[1]}")
    if base == "mul" and parts[1] == "hi":
        if ty.startswith("s"):
            return set_(f"(sx({src[0]}, {n}) * sx({src[1]}, {n})) >> {n}")
        return set_(f"({src[0]} * {src[1]}) >> {n}")
    if op == "cvt.u64.u32":
        return set_(f"{operand(ops[1], 32)}", 64)
    if base == "clz":
        return set_(f"{n} - {src[0]}.bit_length()", 32)
    if base == "popc":
        return set_(f"bin({src[0]}).count('1')", 32)
    if base == "brev":
        return set_(f"int(format({src[0]}, '0{n}b')[::-1], 2)")
    if base == "shf":
        left, clamp = parts[1] == "l", parts[2] == "clamp"
        sh = f"min({src[2]}, 32)" if clamp else f"({src[2]} & 31)"
        pair = f"(({src[1]} << 32) | {src[0]})"
        return set_(f"(({pair} << {sh}) >> 32)" if left else f"({pair} >> {sh})", 32)
    if base == "sad":
        if ty.startswith("s"):
            return set_(f"abs(sx({src[0]}, 32) - sx({src[1]}, 32)) + {src[2]}")
        return set_(f"abs({src[0]} - {src[1]}) + {src[2]}")
    if base in ("vabsdiff4", "vabsdiff2") and parts[1:4] == ["u32", "u32", "u32"]:
        lanes = 4 if base == "vabsdiff4" else 2
        return set_(f"vabsdiff({src[0]}, {src[1]}, {src[2]}, {lanes}, {'add' in parts})")
    if base == "dp4a":
        return set_(f"dp({src[0]}, {src[1]}, {src[2]}, {parts[1][0] == 's'}, {parts[2][0] == 's'}, None)")
    if base == "dp2a":
        half = 0 if parts[1] == "lo" else 2
        return set_(f"dp({src[0]}, {src[1]}, {src[2]}, {parts[2][0] == 's'}, {parts[3][0] == 's'}, {half})")
    if base == "setp":
        cmp = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}[parts[1]]
        conv = (lambda x: f"sx({x}, {n})") if ty.startswith("s") else (lambda x: x)
        return f"R[{d!r}] = int({conv(src[0])} {cmp} {conv(src[1])})"
    if base == "selp":
        return set_(f"{src[0]} if R[{ops[3]!r}] else {src[1]}")
    if op == "bfind.shiftamt.u32":
        return set_(f"bfind_shiftamt({src[0]})")
    raise Unsupported(stmt)


def build(intr):
    """A function of the arguments giving the list of results: d, then any bools."""
    env = dict(HELPERS)
    exec(compile_ptx(intr["ptx"], intr["outs"]), env)
    f = env["f"]
    rmask = mask(bits_of(intr["res"]))
    if intr["outs"]:
        return lambda *args: (lambda r: [r[0] & rmask] + list(r[1:]))(f(*args))
    return lambda *args: [f(*args) & rmask]


# --------------------------------------------------------------------------------------------
# Inputs (Rust: crates/ptxlab-core/tests/intrinsics_ptx.rs builds the same list)

EDGE32 = [0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffff,
          0x800000, 0xffffff, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
          0x01010101, 0x7f7f7f7f, 0x80808080, 0xfefefefe, 0x7fff7fff, 0x80008000, 0xff00ff00,
          31, 32, 33, 0x12345678, 0x89abcdef]
EDGE64 = EDGE32 + [0xffffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff, 1 << 32,
                   0x100000000ffffffff & M64, 0xfffffffe00000000, 0x0123456789abcdef]
SMALL32 = [0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
           32, 0x01020304, 0xfefdfcfb]


def splitmix(seed):
    s = seed & M64
    while True:
        s = (s + 0x9E3779B97F4A7C15) & M64
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


def halfwords():
    hs = list(range(0, 32)) + list(range(0x7fe0, 0x8020)) + list(range(0xffe0, 0x10000)) + \
        list(range(0xf0, 0x110))
    g = splitmix(0x5eed)
    while len(hs) < 256:
        hs.append(next(g) & 0xffff)
    return hs


def inputs(k, intr, quick=False):
    args = intr["args"]
    n = len(args)
    name = intr["name"]
    edges = [EDGE64 if bits_of(t) == 64 else EDGE32 for t in args]
    out = []
    if n == 1:
        out += [(x,) for x in edges[0]]
    elif n == 2:
        out += [(x, y) for x in edges[0] for y in edges[1]]
    else:
        out += [(x, y, z) for x in SMALL32 for y in SMALL32 for z in SMALL32]
    g = splitmix(k + 1)
    for _ in range(200 if quick else 2000):
        out.append(tuple(next(g) & mask(bits_of(t)) for t in args))
    four = re.fullmatch(r"__v\w+4", name) or name.startswith("__dp4a")
    two = re.fullmatch(r"__v\w+2", name) or "16x2" in name or name.startswith("__dp2a")
    if four or two:
        if four:
            vals = [x * 0x01010101 for x in range(256)]
        else:
            vals = [h * 0x10001 for h in halfwords()]
        step = 7 if quick else 1
        if n == 1:
            out += [(x,) for x in vals]
        else:
            for i in range(0, 256, step):
                for j in range(256):
                    t = (vals[i], vals[j])
                    if n == 3:
                        t += ((i << 8 | j) * 0x00010001 if four else vals[(i + j) & 255],)
                    out.append(t)
    return out


def fnv(results):
    h = 0xcbf29ce484222325
    for r in results:
        for i in range(8):
            h ^= (r >> (8 * i)) & 0xff
            h = (h * 0x100000001b3) & M64
    return h


# --------------------------------------------------------------------------------------------
# The literal readings of the one-line CUDA descriptions, where nvcc's code computes something
# else (docs/intrinsics.md, "Findings").

def _avg_half_up(a, b, w):
    return sum(((((sx(a >> w * i, w) + sx(b >> w * i, w) + 1) >> 1) & mask(w)) << w * i)
               for i in range(32 // w))


NAIVE = {
    "__vavgs2": ("(a + b + 1) >> 1 per signed halfword", lambda a, b: _avg_half_up(a, b, 16)),
    "__vavgs4": ("(a + b + 1) >> 1 per signed byte", lambda a, b: _avg_half_up(a, b, 8)),
    "__byte_perm": ("PTX prmt with the selector as given (bit 3 of a nibble replicates the sign)",
                    lambda a, b, c: prmt(a, b, c & 0xffff)),
    "__mul24": ("low 24 bits of a and b read as unsigned",
                lambda a, b: ((a & 0xffffff) * (b & 0xffffff)) & 0xffffffff),
}


def parse_batch_line(line):
    """`0x... pred_hi=1 pred_lo=0` -> [d, 1, 0]; an error line -> None."""
    f = line.split()
    if not f or not f[0].startswith("0x"):
        return None
    return [int(f[0], 16)] + [int(x.split("=")[1]) for x in f[1:]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer random and lane-pair inputs")
    ap.add_argument("--only", help="one intrinsic")
    ap.add_argument("--write-digests", action="store_true")
    ap.add_argument("--ptxlab", default=os.path.join(root, "target", "release", "ptxlab"))
    args = ap.parse_args()
    if not os.path.exists(args.ptxlab):
        subprocess.run(["cargo", "build", "--release", "--bin", "ptxlab"], cwd=root, check=True)
    data = read_data()
    total = bad_total = 0
    digests = []
    disagreeing = []
    for k, intr in enumerate(data):
        if args.only and not re.fullmatch(args.only, intr["name"]):
            continue
        try:
            f = build(intr)
        except Unsupported as e:
            print(f"{intr['name']}: PTX statement not interpreted: {e}")
            disagreeing.append(intr["name"])
            continue
        ins = inputs(k, intr, args.quick)
        got = [f(*t) for t in ins]
        text = "".join(intr["name"] + " " + " ".join(hex(v) for v in t) + "\n" for t in ins)
        r = subprocess.run([args.ptxlab, "intrinsic", "--batch"], input=text, capture_output=True,
                           text=True)
        want = [parse_batch_line(x) for x in r.stdout.split("\n")[:-1]]
        bad = [(t, g, w) for t, g, w in zip(ins, got, want) if g != w]
        if len(want) != len(ins):
            bad.append(("count", len(ins), len(want)))
        total += len(ins)
        bad_total += len(bad)
        status = "agree" if not bad else f"DISAGREE on {len(bad)}"
        line = f"{intr['name']:<22} {len(ins):>6} inputs  {status}"
        if intr["name"] in NAIVE:
            what, g = NAIVE[intr["name"]]
            ex = [(t, v[0]) for t, v in zip(ins, got) if g(*t) != v[0]]
            line += f"; literal reading ({what}) differs on {len(ex)}"
            if ex:
                t, v = ex[0]
                line += f", e.g. ({', '.join(hex(x) for x in t)}): PTX {v:#x}, literal {g(*t):#x}"
        print(line)
        for t, g, w in bad[:3]:
            print(f"    ({', '.join(hex(x) for x in t) if isinstance(t, tuple) else t}): "
                  f"PTX {g if isinstance(g, int) else g}, meaning {w}")
        if bad:
            disagreeing.append(intr["name"])
        digests.append(f"{intr['name']} {len(ins)} {fnv([x for r in got for x in r]):016x}")
    print(f"{total} inputs over {len(digests)} intrinsics; {bad_total} disagreements"
          + (f" ({', '.join(disagreeing)})" if disagreeing else ""))
    if args.write_digests and not args.quick:
        # With --only, replace or add those lines and keep the others.
        keep = {}
        if args.only and os.path.exists(DIGESTS):
            for line in open(DIGESTS):
                if not line.startswith("#") and line.strip():
                    keep[line.split()[0]] = line.strip()
        for line in digests:
            keep[line.split()[0]] = line
        order = [i["name"] for i in data if i["name"] in keep]
        os.makedirs(os.path.dirname(DIGESTS), exist_ok=True)
        with open(DIGESTS, "w") as fh:
            fh.write("# count and FNV-1a digest of the PTX results (d, then any bools) per "
                     "intrinsic, written by scripts/intrinsics_check.py\n"
                     + "\n".join(keep[n] for n in order) + "\n")
        print(f"wrote {DIGESTS}")
    sys.exit(1 if bad_total else 0)


if __name__ == "__main__":
    main()
