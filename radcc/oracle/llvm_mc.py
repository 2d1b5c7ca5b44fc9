"""llvm-mc-19 as an oracle: batch encode lines and decode byte strings.

One process per batch (thousands of lines) keeps oracle sweeps fast. Results
map back to inputs by line number (errors) and marker instructions (decode).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

LLVM_MC = os.environ.get("RADCC_LLVM_MC", "llvm-mc-19")

_ENC_RE = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")
_DIAG_RE = re.compile(r"^[^:\n]*:(\d+):(\d+): (error|warning): (.*)$")
# A marker between decode candidates: an instruction no probe produces.
MARKER_BYTES = bytes.fromhex("2143bbbf")  # s_ttracedata_imm 0x4321 (GFX11; see _markers)
MARKER_TEXT = "s_ttracedata_imm 0x4321"


def available() -> bool:
    return shutil.which(LLVM_MC) is not None


def require() -> None:
    """Fail (not skip) when the oracle is missing: CI must install it."""
    if not available():
        raise RuntimeError(f"{LLVM_MC} not found: install Debian's llvm-19 (see .ci/run)")


@dataclass
class McEncoding:
    line: str  # the input line
    text: str | None  # canonical text llvm-mc printed (None on error)
    data: bytes | None  # encoding (None on error or when it has fixups)
    error: str | None = None


def _run(args: list[str], stdin: str) -> tuple[str, str]:
    p = subprocess.run([LLVM_MC, *args], input=stdin, capture_output=True, text=True)
    return p.stdout, p.stderr


def encode(lines: list[str], mcpu: str = "gfx1100", wave64: bool = False) -> list[McEncoding]:
    """Assemble each line separately (in one llvm-mc run) for the chip `mcpu`."""
    attrs = ["-mattr=+wavefrontsize64"] if wave64 else []
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    try:
        out, err = _run(["-triple=amdgcn", f"-mcpu={mcpu}", "-show-encoding", *attrs, path], "")
    finally:
        os.unlink(path)
    errors: dict[int, str] = {}
    for ln in err.splitlines():
        m = _DIAG_RE.match(ln)
        if m and m.group(3) == "error":
            errors.setdefault(int(m.group(1)), m.group(4))
    encs = []
    for ln in out.splitlines():
        m = _ENC_RE.match(ln)
        if m:
            data = m.group(2)
            b = None if "A" in data or "B" in data else bytes(int(x, 16) for x in data.split(",") if x)
            encs.append((m.group(1), b))
    res = []
    k = 0
    for i, line in enumerate(lines, 1):
        if i in errors or not line.strip():
            res.append(McEncoding(line, None, None, errors.get(i, "empty")))
            continue
        if k < len(encs):
            res.append(McEncoding(line, encs[k][0], encs[k][1]))
            k += 1
        else:
            res.append(McEncoding(line, None, None, "no output"))
    return res


def decode(blobs: list[bytes], mcpu: str = "gfx1100", wave64: bool = False,
           keep_invalid: bool = False) -> list[str | None]:
    """Disassemble each byte string for the chip `mcpu`; None unless it decodes to
    exactly one instruction using all of its bytes (and, unless `keep_invalid`,
    carries no ``/*Invalid register ...*/`` annotation).

    Each blob is followed by five distinct marker words: a blob whose
    instruction needs more bytes than given swallows some of them (as a
    literal or further dwords), which shows as missing leading markers, so
    later blobs never get shifted results. Five, because an invalid first
    dword is skipped and the next one may start an instruction of up to
    four more dwords (VOP3 + literal, GFX10 NSA MIMG).
    """
    attrs = ["-mattr=+wavefrontsize64"] if wave64 else []
    markers = _markers(mcpu)
    lines = []
    for b in blobs:
        lines.append(",".join(f"0x{x:02x}" for x in b))
        lines.extend(",".join(f"0x{x:02x}" for x in mb) for mb in markers)
    out, err = _run(["-triple=amdgcn", f"-mcpu={mcpu}", "-disassemble", *attrs], "\n".join(lines) + "\n")
    bad_lines = set()
    for ln in err.splitlines():
        m = _DIAG_RE.match(ln)
        if m:
            bad_lines.add(int(m.group(1)))
    texts = [ln.strip() for ln in out.splitlines() if ln.strip() and ln.strip() != ".text"]
    res: list[str | None] = []
    j = 0
    n = len(_MARKERS_TEXT)
    for i in range(len(blobs)):
        g: list[str] = []
        while j < len(texts) and texts[j] not in _MARKERS_TEXT:
            g.append(texts[j])
            j += 1
        seen: list[int] = []
        while j < len(texts) and texts[j] in _MARKERS_TEXT:
            k = _MARKERS_TEXT.index(texts[j])
            if seen and k <= seen[-1]:
                break  # the next blob's markers (that blob printed nothing)
            seen.append(k)
            j += 1
        ok = seen == list(range(n)) and len(g) == 1 and (keep_invalid or "Invalid" not in g[0])
        if (n + 1) * i + 1 in bad_lines or not ok:
            res.append(None)
        else:
            res.append(g[0])
    return res


# s_ttracedata_imm 0x4321 ... 0x4325: the decode markers. The SOPP opcode of
# s_ttracedata_imm differs between generations (GFX10: 40, GFX11: 59), so the marker words
# are asked of llvm-mc once per mcpu.
_MARKERS_TEXT = [f"s_ttracedata_imm 0x{0x4321 + k:x}" for k in range(5)]
_MARKERS_BY_MCPU: dict[str, list[bytes]] = {}


def _markers(mcpu: str) -> list[bytes]:
    m = _MARKERS_BY_MCPU.get(mcpu)
    if m is None:
        res = encode(_MARKERS_TEXT, mcpu)
        if any(r.data is None for r in res):
            raise RuntimeError(f"{LLVM_MC} -mcpu={mcpu} cannot encode the decode markers")
        m = _MARKERS_BY_MCPU[mcpu] = [r.data for r in res if r.data is not None]
    return m
