"""What the scripts that ask NVIDIA's tools share: finding the tools of the PyPI CUDA wheels,
asking ptxas (sm_90, PTX ISA 8.0) whether it accepts instruction texts, and splitting PTX
operands.

The tools come from PyPI wheels (no GPU needed; ptxas alone needs only nvidia-cuda-nvcc):

    pip download --no-deps -d /work/cache/wheels nvidia-cuda-nvcc nvidia-cuda-crt \
        nvidia-nvvm nvidia-cuda-runtime nvidia-cuda-cuobjdump
    unzip each wheel into one folder, e.g. /work/cache/nvcc-13.5.37

which gives FOLDER/nvidia/cu13/bin/{nvcc,ptxas,cuobjdump}. `cuda_root` and `tool` find them:
a path given on the command line first, then the environment (CUDA_ROOT; PTXAS for ptxas), then
the newest unpacked wheel under /work/cache, then PATH.

Used by scripts/ptxas_programs.py, scripts/intrinsics.py, scripts/intrinsics_check.py and
crates/ptxlab-core/tests/data/ptxas_decide.py.
"""
import glob
import json
import os
import re
import subprocess
import tempfile

# Where the wheels are unpacked by the steps above.
WHEEL_GLOB = "/work/cache/nvcc-*/nvidia/cu*"


def cuda_root(given=None):
    """The folder holding bin/nvcc and bin/ptxas: `given`, $CUDA_ROOT, or the newest unpacked
    wheel; None where there is none."""
    if given:
        return given
    if os.environ.get("CUDA_ROOT"):
        return os.environ["CUDA_ROOT"]
    found = sorted(glob.glob(WHEEL_GLOB))
    return found[-1] if found else None


def tool(name, given=None):
    """The path of a CUDA tool (`ptxas`, `nvcc` ...): `given`, $NAME (PTXAS ...), the unpacked
    wheel's bin/NAME, or NAME itself (found on PATH)."""
    if given:
        return given
    if os.environ.get(name.upper()):
        return os.environ[name.upper()]
    root = cuda_root()
    if root and os.path.exists(os.path.join(root, "bin", name)):
        return os.path.join(root, "bin", name)
    return name


def tool_env(root):
    """The environment with ROOT/bin first on PATH, for running nvcc and cuobjdump."""
    return dict(os.environ, PATH=os.path.join(root, "bin") + os.pathsep + os.environ["PATH"])


# ------------------------------------------------------------------------------------ PTX text


def split_operands(s):
    """Split at top-level commas; braces group."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


# ------------------------------------------------------------------- asking ptxas about texts

HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
FIRST_LINE = HEADER.count("\n") + 1
LINE_RE = re.compile(r"^ptxas (\S+), line (\d+); (error|fatal)\s*: (.*)$")


def run(texts, scope, ptxas):
    """One ptxas run over one kernel with each text in its own scope block (`scope(text)` gives
    the block, on one line): ({index: [messages]}, the index of a fatal error or None, an error
    on no line of ours or False)."""
    src = HEADER + "".join(scope(t) + "\n" for t in texts) + "ret;\n}\n"
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(src)
        path = f.name
    try:
        p = subprocess.run([ptxas, "-arch=sm_90", "-o", "/dev/null", path],
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
        tail = (p.stdout + p.stderr).strip().splitlines()[-1:] or ["ptxas failed"]
        foreign = tail[0]
    return flagged, fatal, foreign


def decide(texts, out, scope, ptxas):
    """Fill out[text] = (accepted, message) for every text: lines ptxas flags are rejected and
    the rest assembled again until a run is clean. Errors ptxas raises while expanding its
    built-in helpers carry no line of ours, so such a batch is split in halves until the culprit
    stands alone."""
    pending = list(texts)
    while pending:
        flagged, _, foreign = run(pending, scope, ptxas)
        # After one "Constant overflow" of a float literal, ptxas 13.5 flags every later float
        # literal of the file with it too (`mov.f32 d, 1e400;` then `mov.f32 d, 1.0;`: both),
        # so only the first such flag of a run is believed; the later ones are asked again.
        overflows = sorted(i for i, m in flagged.items() if m == ["Constant overflow"])
        for i in overflows[1:]:
            del flagged[i]
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
        decide(pending[:half], out, scope, ptxas)
        decide(pending[half:], out, scope, ptxas)
        return


def decide_all(texts, scope, ptxas, batch=400):
    """{text: (accepted, message)} for every text, asked `batch` at a time."""
    out = {}
    for k in range(0, len(texts), batch):
        decide(texts[k:k + batch], out, scope, ptxas)
    return out


def read_texts(lines):
    """Instruction texts, one a line or JSON lines with a "ptx" field; blank lines and repeats
    dropped, the order kept."""
    texts, seen = [], set()
    for line in lines:
        line = line.strip()
        if line.startswith("{"):
            line = json.loads(line)["ptx"]
        if line and line not in seen:
            seen.add(line)
            texts.append(line)
    return texts


def decision_line(text, accepted, message):
    """One line of the decisions format (ptxas-acceptance.jsonl), without its line break."""
    return json.dumps({"ptx": text, "accepted": accepted, "ptxas": message})
