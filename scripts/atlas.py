#!/usr/bin/env python3
"""The lowering atlas: what ptxas 13.5 -O3 emits for every form on sm_75 ... sm_120.

Writes crates/ptxlab-cli/src/atlas.txt (read by ptxlab_core::atlas::Atlas::parse; fetched by the page, embedded
in the CLI). Needs the ptxas and cuobjdump of the PyPI wheels (see scripts/ptxas_wheel.py), no
GPU (cuobjdump calls nvdisasm, from the nvidia-cuda-nvdisasm wheel, unpacked beside it), and a
built CLI:

    cargo build --release -p ptxlab-cli
    python3 scripts/atlas.py [--ptxlab target/release/ptxlab] [--jobs 2] [--check]

The forms: `ptxlab sass --forms` lists every table form the core accepts (default selectors
plus a few selector variants per video opcode) and the register forms of the program
instructions in tests/data/gpu-forms.jsonl and tests/data/ptxas-programs.jsonl. Each form goes
alone in a kernel (one .entry per form, many per .ptx file) that loads each source from global
memory at its own width (a predicate: a byte, compared with 0), runs the form, and stores each
destination at its width (a predicate: selp to a byte). A link of the carry chain reads or writes
the carry flag, which is no register of PTX: an `add.cc` of a loaded word sets it before the form,
an `addc` stores it after, and their machine instructions are part of the listing. `ptxas -O3 -arch=sm_XX`, then
`cuobjdump -sass`; the listing kept is the kernel's, without addresses, encodings, `.reuse`
and the trailing branch-to-self and NOP padding. A form ptxas refuses for an architecture gets
ptxas's message instead (found by assembling the refused batch's forms one by one).

File format (the order is deterministic: forms as `--forms` lists them, lines and listings
numbered in order of first use):
    archs sm_75 ...           the architectures, in the order of each F line's entries
    L TEXT                    a machine instruction (numbered from 0)
    S N N N ...               a listing: its L numbers (numbered from 0)
    M TEXT                    a ptxas message (numbered from 0)
    F FORM<TAB>E E ...        a form and, per architecture, a listing number or !message

--check re-derives the core of every form from a fresh ptxas run for one architecture
(sm_90 by default, --check-arch) and compares it, as a multiset, with `ptxlab sass FORM --arch A
--json`.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptxas_wheel import tool  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ARCHS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"]
OUT = os.path.join(ROOT, "crates", "ptxlab-cli", "src", "atlas.txt")
BATCH = 150


def reg_type(bits):
    return ".pred" if bits == 1 else f".b{max(bits, 16)}"


def kernel(k, form):
    """One .entry for a form: parameters o (the destinations' buffer) and one per source."""
    srcs, dsts = form["srcs"], form["dsts"]
    n_params = len(srcs) + (1 if form.get("carry_in") else 0)
    params = ", ".join([".param .u64 po"] + [f".param .u64 p{i}" for i in range(n_params)])
    out = [f".visible .entry k{k}({params})", "{", ".reg .b64 %ad;", ".reg .b16 %t;",
           ".reg .pred %pt;"]
    names = collections.OrderedDict()
    for n, b in dsts + srcs:
        names.setdefault(n, b)
    for n, b in names.items():
        out.append(f".reg {reg_type(b)} {n};")
    carry_in, carry_out = form.get("carry_in", False), form.get("carry_out", False)
    if carry_in or carry_out:
        out.append(".reg .b32 %cf;")
    for i, (n, b) in enumerate(srcs):
        out.append(f"ld.param.u64 %ad, [p{i}];")
        if b == 1:
            out.append("ld.global.u8 %t, [%ad];")
            out.append(f"setp.ne.b16 {n}, %t, 0;")
        else:
            out.append(f"ld.global.u{b} {n}, [%ad];")
    if carry_in:
        # The carry flag is no register of PTX: an add.cc sets it from a loaded word (the
        # carry of cf + 0xffffffff is cf != 0); its instructions count in the listing.
        out.append(f"ld.param.u64 %ad, [p{len(srcs)}];")
        out.append("ld.global.u32 %cf, [%ad];")
        out.append("add.cc.u32 %cf, %cf, 0xffffffff;")
    out.append(form["ptx"])
    out.append("ld.param.u64 %ad, [po];")
    off = 0
    if carry_out:
        # ... and an addc stores the carry out as a word.
        out.append("addc.u32 %cf, 0, 0;")
        out.append(f"st.global.u32 [%ad+{8 * len(dsts)}], %cf;")
    for n, b in dsts:
        if b == 1:
            out.append(f"selp.b16 %t, 1, 0, {n};")
            out.append(f"st.global.u8 [%ad+{off}], %t;")
            off += 8
        else:
            out.append(f"st.global.u{b} [%ad+{off}], {n};")
            off += 8
    out.append("ret;")
    out.append("}")
    return "\n".join(out)


def header(arch):
    return f".version 9.0\n.target {arch}\n.address_size 64\n"


LINE_RE = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s*(.*?)\s*;")
FUNC_RE = re.compile(r"Function : (\S+)")


def clean(text):
    return " ".join(text.replace(".reuse", "").split())


def listings(sass_text):
    """{kernel name: [instruction]} from cuobjdump -sass, padding dropped."""
    out, cur = {}, None
    for line in sass_text.splitlines():
        m = FUNC_RE.search(line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = LINE_RE.match(line)
        if m and cur is not None:
            cur.append(clean(m.group(1)))
    for name, ins in out.items():
        while ins and (ins[-1] == "NOP" or re.match(r"^BRA (0x[0-9a-f]+)$", ins[-1])):
            ins.pop()
    return out


def assemble(arch, forms, ptxas, cuobjdump):
    """Assemble the forms for arch: ({index: listing}, {index: message})."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "a.ptx")
        cubin = os.path.join(d, "a.cubin")
        with open(src, "w") as f:
            f.write(header(arch))
            for k, form in forms:
                f.write(kernel(k, form) + "\n")
        p = subprocess.run([ptxas, "-O3", f"-arch={arch}", "-o", cubin, src],
                           capture_output=True, text=True)
        if p.returncode != 0:
            if len(forms) == 1:
                msgs = []
                for line in (p.stdout + p.stderr).splitlines():
                    m = re.match(r"^ptxas \S+, line \d+; (?:error|fatal)\s*: (.*)$", line)
                    if m:
                        msgs.append(m.group(1).strip())
                msg = " | ".join(dict.fromkeys(msgs)) or (p.stderr.strip().splitlines() or
                                                          ["ptxas failed"])[-1]
                return {}, {forms[0][0]: msg}
            half = len(forms) // 2
            a1, m1 = assemble(arch, forms[:half], ptxas, cuobjdump)
            a2, m2 = assemble(arch, forms[half:], ptxas, cuobjdump)
            a1.update(a2)
            m1.update(m2)
            return a1, m1
        env = dict(os.environ, PATH=os.path.dirname(cuobjdump) + os.pathsep +
                   os.environ.get("PATH", ""))
        s = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True,
                           check=True, env=env).stdout
    got = listings(s)
    return {k: got[f"k{k}"] for k, _ in forms}, {}


def run_all(forms, archs, jobs, ptxas, cuobjdump):
    """{(form index, arch): listing or ('!', message)}."""
    tasks = []
    indexed = list(enumerate(forms))
    for arch in archs:
        for b in range(0, len(indexed), BATCH):
            tasks.append((arch, indexed[b:b + BATCH]))
    result = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(assemble, arch, batch, ptxas, cuobjdump): arch for arch, batch in tasks}
        done = 0
        for fut in concurrent.futures.as_completed(futs):
            arch = futs[fut]
            ok, refused = fut.result()
            for k, ins in ok.items():
                result[(k, arch)] = ins
            for k, msg in refused.items():
                result[(k, arch)] = ("!", msg)
            done += 1
            print(f"atlas.py: {done}/{len(tasks)} batches", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return result


SCAFFOLD = {"LDG", "LD", "STG", "ST", "MOV", "MOV32I", "UMOV", "LDC", "LDCU", "ULDC", "S2R",
            "S2UR", "CS2R", "EXIT", "BRA", "NOP", "RET", "CALL", "BSSY", "BSYNC", "WARPSYNC",
            "BAR"}


def core_of(listing):
    """The script's own reading of the core (the same rule as ptxlab_core::atlas::core_of)."""
    out = []
    for line in listing:
        t = line.split(None, 1)[1] if line.startswith("@") else line
        parts = t.split(None, 1)
        op, rest = parts[0], (parts[1] if len(parts) > 1 else "")
        base = op.split(".")[0]
        if op.startswith("IMAD.MOV") or base in SCAFFOLD:
            continue
        if base == "HFMA2" and "-RZ, RZ," in rest:
            continue
        out.append(op)
    return out


def write(forms, archs, result, path):
    lines, line_no, seqs, seq_no, msgs, msg_no, rows = [], {}, [], {}, [], {}, []
    for k, form in enumerate(forms):
        entries = []
        for arch in archs:
            r = result[(k, arch)]
            if isinstance(r, tuple):
                if r[1] not in msg_no:
                    msg_no[r[1]] = len(msgs)
                    msgs.append(r[1])
                entries.append(f"!{msg_no[r[1]]}")
                continue
            ids = []
            for ins in r:
                if ins not in line_no:
                    line_no[ins] = len(lines)
                    lines.append(ins)
                ids.append(line_no[ins])
            key = tuple(ids)
            if key not in seq_no:
                seq_no[key] = len(seqs)
                seqs.append(key)
            entries.append(str(seq_no[key]))
        rows.append(f"F {form['ptx']}\t{' '.join(entries)}")
    with open(path, "w") as f:
        f.write("# The lowering atlas: ptxas 13.5 -O3 machine code of each form, per architecture.\n")
        f.write("# Written by scripts/atlas.py (format in its docstring); do not edit.\n")
        f.write("archs " + " ".join(archs) + "\n")
        for t in lines:
            f.write(f"L {t}\n")
        for s in seqs:
            f.write("S " + " ".join(map(str, s)) + "\n")
        for m in msgs:
            f.write(f"M {m}\n")
        for r in rows:
            f.write(r + "\n")
    print(f"atlas.py: {len(forms)} forms, {len(lines)} lines, {len(seqs)} listings, "
          f"{len(msgs)} messages, {os.path.getsize(path)} bytes -> {path}", file=sys.stderr)


def list_forms(ptxlab):
    files = [os.path.join(ROOT, "tests", "data", f)
             for f in ("gpu-forms.jsonl", "ptxas-programs.jsonl")]
    p = subprocess.run([ptxlab, "sass", "--forms"] + files, capture_output=True, text=True,
                       check=True)
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def check(forms, arch, result, ptxlab):
    """Compare the CLI's core with the core of a fresh run; return the number of mismatches."""
    bad = 0
    for k, form in enumerate(forms):
        p = subprocess.run([ptxlab, "sass", form["ptx"], "--arch", arch, "--json"],
                           capture_output=True, text=True)
        got = json.loads(p.stdout)
        r = result[(k, arch)]
        if isinstance(r, tuple):
            ok = not got["available"] and got.get("message") == r[1]
        else:
            ok = got["available"] and got["exact"] and \
                collections.Counter(got["core"]) == collections.Counter(core_of(r))
        if not ok:
            bad += 1
            if bad <= 10:
                print(f"mismatch: {form['ptx']} on {arch}", file=sys.stderr)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxlab", default=os.path.join(ROOT, "target", "release", "ptxlab"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--limit", type=int, default=0, help="only the first N forms (a trial)")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--check-arch", default="sm_90")
    a = ap.parse_args()
    ptxas, cuobjdump = tool("ptxas"), tool("cuobjdump")
    forms = list_forms(a.ptxlab)
    if a.limit:
        forms = forms[:a.limit]
    if a.check:
        result = run_all(forms, [a.check_arch], a.jobs, ptxas, cuobjdump)
        bad = check(forms, a.check_arch, result, a.ptxlab)
        print(f"atlas.py: {len(forms) - bad}/{len(forms)} forms agree on {a.check_arch}",
              file=sys.stderr)
        sys.exit(1 if bad else 0)
    result = run_all(forms, ARCHS, a.jobs, ptxas, cuobjdump)
    write(forms, ARCHS, result, a.out)


if __name__ == "__main__":
    main()
