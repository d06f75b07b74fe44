#!/usr/bin/env python3
"""Ask ptxas (sm_90, PTX ISA 8.0) whether it accepts instruction texts.

Reads one instruction per line on stdin (or JSON lines with a "ptx" field) and writes one JSON
line per instruction: {"ptx": ..., "accepted": bool, "ptxas": "messages | joined"}, the format of
ptxas-acceptance.jsonl. Many instructions go into one kernel, each in its own scope block with
registers d, a, b, c, e as wide as its type asks; lines ptxas flags are rejected, the rest are
assembled again until a run is clean. Errors ptxas raises while expanding its built-in helpers
carry no line of ours, so such a batch is split in halves until the culprit stands alone.

Usage: [PTXAS=/path/to/ptxas] ptxas_decide.py < texts > decisions.jsonl

ptxas is found as scripts/ptxas_wheel.py says (PTXAS, else the unpacked PyPI wheel, else PATH).
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), *[".."] * 4, "scripts"))
from ptxas_wheel import decide_all, decision_line, read_texts, tool  # noqa: E402


def widths(ptx):
    """Register widths (d, a, b, c, e) the instruction's types ask for."""
    head = ptx.split()[0]
    parts = head.split(".")
    op = parts[0]
    mods = parts[1:]
    types = [m for m in mods if re.fullmatch(r"[usb](16|32|64)(x2)?", m)]
    w = 32
    if types:
        t = types[0]
        w = 32 if t.endswith("x2") else int(t[1:3])
    if op.startswith("v") or op in ("fns", "szext", "bmsk", "dp4a", "dp2a", "mul24", "mad24"):
        return (32, 32, 32, 32, 32)
    if op in ("popc", "clz", "bfind"):
        return (32, w, 32, 32, 32)
    if op == "bfe":
        return (w, w, 32, 32, 32)
    if op == "bfi":
        return (w, w, w, 32, 32)
    if op in ("mul", "mad") and "wide" in mods:
        return (2 * w, w, w, 2 * w, 32)
    return (w, w, w, w, 32)


def scope(ptx):
    ws = widths(ptx)
    decl = " ".join(f".reg .b{b} {n};" for n, b in zip("dabce", ws))
    return "{ " + decl + " " + ptx + " }"


def main():
    texts = read_texts(sys.stdin)
    out = decide_all(texts, scope, tool("ptxas"))
    for t in texts:
        print(decision_line(t, *out[t]))


if __name__ == "__main__":
    main()
