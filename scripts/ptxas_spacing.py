#!/usr/bin/env python3
"""Ask ptxas (sm_90, PTX ISA 8.0) how it reads an instruction's words written apart, and `_`.

ptxas reads the dotted words after an opcode with or without white space before each dot
(`and .b32 d, a, b;`, `vadd.u32 .u32.u32 d, a, b;`), except the words it takes as part of the
opcode itself, which must follow it directly: `mul.lo`, `mad.wide`, `mul24.hi`, `dp2a.hi`,
`shf.l`, `madc.hi`, `cvt.pack`. And no video or integer arithmetic instruction takes `_` as
its destination ("result discard mode is not allowed") or as a source (a syntax error).

From every text ptxas accepted in tests/data/ptxas-programs.jsonl and
../shared/conformance/ptxas-acceptance.jsonl, one variant each, in turn: every word written
apart, only the first word apart, `_` as the destination, `_` as the first source. A variant is
kept only where its original, declared the same way, assembles in the same run (so a refusal is
the variant's, not the declarations'). Writes one JSON line per variant, in the format of
ptxas-acceptance.jsonl:

    {"ptx": "...", "accepted": bool, "ptxas": "messages | joined"}

Usage:
    scripts/ptxas_spacing.py [--ptxas /path/to/ptxas] [--out tests/data/ptxas-spacing.jsonl]
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxas_programs as programs  # noqa: E402
from ptxas_wheel import decide_all, decision_line, split_operands, tool  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = [
    os.path.join(ROOT, "tests", "data", "ptxas-programs.jsonl"),
    os.path.join(ROOT, "..", "shared", "conformance", "ptxas-acceptance.jsonl"),
]


def accepted_texts():
    out = []
    for path in SOURCES:
        with open(path) as f:
            for line in f:
                if line.strip():
                    v = json.loads(line)
                    if v["accepted"]:
                        out.append(v["ptx"])
    return out


def variant(text, k):
    """Variant `k % 4` of an accepted text, or None where it has no such variant."""
    body = text.strip().rstrip(";")
    head, _, rest = body.partition(" ")
    words = head.split(".")
    ops = split_operands(rest)
    kind = k % 4
    if kind == 0 and len(words) > 1:
        return " .".join(words) + " " + rest + ";"
    if kind == 1 and len(words) > 1:
        return words[0] + " ." + ".".join(words[1:]) + " " + rest + ";"
    if kind == 2 and ops and not ops[0].strip().startswith("{") and "|" not in ops[0]:
        return head + " " + ", ".join(["_"] + ops[1:]) + ";"
    if kind == 3 and len(ops) > 1 and not ops[1].strip().startswith("{"):
        return head + " " + ", ".join([ops[0], "_"] + ops[2:]) + ";"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas", default=None)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    ptxas = tool("ptxas", args.ptxas)
    originals = accepted_texts()
    pairs = []
    for k, t in enumerate(originals):
        v = variant(t, k)
        if v is not None and v != t:
            pairs.append((t, v))

    def scope(text):
        # Declared from the original's words: `decls` reads the joined head.
        original = re.sub(r"\s+\.", ".", text.strip())
        original = re.sub(r"(^|, )_(?=,|;)", lambda m: m.group(1) + "zz", original)
        return programs.scope(original).replace(original.rstrip(";").strip() + ";", text, 1)

    controls = decide_all([p[0] for p in pairs], programs.scope, ptxas)
    kept = [p for p in pairs if controls[p[0]][0]]
    out = decide_all([p[1] for p in kept], scope, ptxas)
    sink = open(args.out, "w") if args.out else sys.stdout
    for _, v in kept:
        sink.write(decision_line(v, *out[v]) + "\n")
    if args.out:
        sink.close()
        n = sum(1 for _, v in kept if out[v][0])
        print(f"{len(kept)} texts, {n} accepted, {len(kept) - n} rejected", file=sys.stderr)


if __name__ == "__main__":
    main()
