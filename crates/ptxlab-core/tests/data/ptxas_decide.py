#!/usr/bin/env python3
"""Ask ptxas (sm_90, PTX ISA 8.0) whether it accepts instruction texts.

Reads one instruction per line on stdin (or JSON lines with a "ptx" field) and writes one JSON
line per instruction: {"ptx": ..., "accepted": bool, "ptxas": "messages | joined"}, the format of
ptxas-acceptance.jsonl. Many instructions go into one kernel, each in its own scope block with
registers d, a, b, c, e as wide as its type asks; lines ptxas flags are rejected, the rest are
assembled again until a run is clean. Errors ptxas raises while expanding its built-in helpers
carry no line of ours, so such a batch is split in halves until the culprit stands alone.

Usage: PTXAS=/path/to/ptxas ptxas_decide.py < texts > decisions.jsonl
"""
import json
import os
import re
import subprocess
import sys
import tempfile

PTXAS = os.environ.get("PTXAS", "ptxas")
HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
FIRST_LINE = HEADER.count("\n") + 1


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


LINE_RE = re.compile(r"^ptxas (\S+), line (\d+); (error|fatal)\s*: (.*)$")


def run(texts):
    """One ptxas run: ({index: [messages]}, fatal_index or None, foreign_error)."""
    src = HEADER + "".join(scope(t) + "\n" for t in texts) + "ret;\n}\n"
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(src)
        path = f.name
    try:
        p = subprocess.run([PTXAS, "-arch=sm_90", "-o", "/dev/null", path],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    flagged, fatal, foreign = {}, None, False
    for line in (p.stdout + p.stderr).splitlines():
        m = LINE_RE.match(line)
        if not m:
            continue
        fname, ln, kind, msg = m.group(1), int(m.group(2)), m.group(3), m.group(4).strip()
        if fname != path:
            foreign = msg
            continue
        i = ln - FIRST_LINE
        if 0 <= i < len(texts):
            flagged.setdefault(i, []).append(msg)
            if kind == "fatal":
                fatal = i
    if p.returncode != 0 and not flagged and not foreign:
        foreign = (p.stdout + p.stderr).strip().splitlines()[-1:] or ["ptxas failed"]
        foreign = foreign[0]
    return flagged, fatal, foreign


def decide(texts, out):
    """Fill out[text] = (accepted, message) for every text."""
    pending = list(texts)
    while pending:
        flagged, fatal, foreign = run(pending)
        if flagged:
            for i, msgs in flagged.items():
                out[pending[i]] = (False, " | ".join(msgs))
            pending = [t for i, t in enumerate(pending) if i not in flagged]
            continue
        if not foreign:
            for t in pending:
                out[t] = (True, "")
            return
        if len(pending) == 1:
            out[pending[0]] = (False, foreign)
            return
        half = len(pending) // 2
        decide(pending[:half], out)
        decide(pending[half:], out)
        return


def main():
    texts = []
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if line.startswith("{"):
            line = json.loads(line)["ptx"]
        if line not in texts:
            texts.append(line)
    out = {}
    for k in range(0, len(texts), 400):
        decide(texts[k:k + 400], out)
    for t in texts:
        acc, msg = out[t]
        print(json.dumps({"ptx": t, "accepted": acc, "ptxas": msg}))


if __name__ == "__main__":
    main()
