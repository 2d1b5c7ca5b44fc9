"""radcc's code beside the real ACO's: what `radcc compare` and tools/aco_compare.py share.

ACO's side comes from RADV's null device (``python -m radcc.oracle.radv``, which the
command line runs as a child process: the runtime does not import the oracles); this
module only reads disassemblies and statistics:

- `asm_instructions`: the instruction lines of a disassembly (either compiler's);
- `used_registers`: 1 + the highest VGPR/SGPR the instructions name (RADV's
  ``SGPRs``/``VGPRs`` statistics are allocation granules, radcc's the next free
  register: this count is the one both can be compared by);
- `Metrics` (`radcc_metrics`, `aco_metrics`): instructions and code bytes without
  radcc's ``s_delay_alu`` (ACO of Mesa 22.3 predates it and VOPD), registers as
  `used_registers`, the Latency and Inverse Throughput statistics (radcc defines them
  as ACO does, radcc/passes/statistics.py);
- `stat_rows`: every statistic both report, by ACO's name (`ACO_NAMES`), with the
  difference; `side_by_side`: the two listings in columns, aligned on their
  mnemonics (difflib), for reading.

The ABIs differ (RADV: descriptor sets, ``s_load_b128`` + ``buffer_*``; radcc:
AMDHSA kernarg addresses, ``global_*``): a few instructions per buffer are ABI, not
code quality.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

__all__ = ["ACO_NAMES", "Metrics", "aco_metrics", "asm_instructions", "radcc_metrics",
           "radv_family", "side_by_side", "stat_rows", "used_registers"]

# radcc's statistic -> the name RADV reports ACO's under (VK_KHR_pipeline_executable_
# properties; radcc/passes/statistics.py gives the definitions)
ACO_NAMES: dict[str, str] = {
    "Hash": "Hash", "Instructions": "Instructions", "Copies": "Copies",
    "Branches": "Branches", "Latency": "Latency", "InvThroughput": "Inverse Throughput",
    "VClause": "VMEM Clause", "SClause": "SMEM Clause", "PreSGPRs": "Pre-Sched SGPRs",
    "PreVGPRs": "Pre-Sched VGPRs", "CodeSize": "Code size", "LDS": "LDS size",
    "Scratch": "Scratch size", "WavesPerSIMD": "Subgroups per SIMD",
    "SGPRs": "SGPRs", "VGPRs": "VGPRs", "VALU": "VALU", "SALU": "SALU", "VMEM": "VMEM",
    "SMEM": "SMEM", "VOPD": "VOPD",
}
# statistics whose values are not comparable as numbers (shown, not differenced)
_NO_DIFF = frozenset({"Hash"})
# RADV's SGPRs/VGPRs are allocation granules, radcc's the next free register
_NOTES = {"SGPRs": "RADV: allocated (granules); radcc: next free register",
          "VGPRs": "RADV: allocated (granules); radcc: next free register",
          "Instructions": "radcc counts s_delay_alu (ACO 22.3 has none)",
          "CodeSize": "radcc's includes s_delay_alu"}

_MNEMONIC = re.compile(r"^\s*([sv]_[a-z0-9_]+|(?:global|buffer|flat|scratch|ds|image|tbuffer)"
                       r"_[a-z0-9_]+|exp|lds_[a-z0-9_]+)\b")
_REG = re.compile(r"\b([sv])(?:(\d+)|\[(\d+):(\d+)\])")


def asm_instructions(asm: str) -> list[str]:
    """The instruction lines of a disassembly (labels, directives, comments dropped),
    without the trailing ``s_code_end`` padding."""
    out = []
    for line in asm.splitlines():
        body = line.split(";", 1)[0].split("//", 1)[0]
        if _MNEMONIC.match(body):
            out.append(body.strip())
    while out and out[-1].startswith("s_code_end"):
        out.pop()
    return out


def used_registers(lines: list[str]) -> tuple[int, int]:
    """(VGPRs, SGPRs): 1 + the highest v/s register the instructions name (VCC, exec,
    m0 and null are not counted)."""
    hi = {"v": -1, "s": -1}
    for line in lines:
        parts = line.split(None, 1)
        if len(parts) < 2:
            continue
        for m in _REG.finditer(parts[1]):
            kind = m.group(1)
            top = int(m.group(2) if m.group(2) is not None else m.group(4))
            hi[kind] = max(hi[kind], top)
    return hi["v"] + 1, hi["s"] + 1


@dataclass
class Metrics:
    """One compiler's figures for one shader, comparable with the other's."""

    instructions: int = 0
    code_size: int = 0
    vgprs: int = 0
    sgprs: int = 0
    latency: int = 0
    inv_throughput: int = 0
    s_delay_alu: int = 0


def radcc_metrics(asm: str, stats: dict[str, int]) -> Metrics:
    """radcc's `Metrics` from its assembly and statistics."""
    lines = asm_instructions(asm)
    delay = sum(1 for x in lines if x.startswith("s_delay_alu"))
    code = [x for x in lines if not x.startswith("s_delay_alu")]
    v, s = used_registers(code)
    return Metrics(len(code), stats.get("CodeSize", 0) - 4 * delay, v, s,
                   stats.get("Latency", 0), stats.get("InvThroughput", 0), delay)


def aco_metrics(asm: str, stats: dict[str, int | float]) -> Metrics:
    """ACO's `Metrics` from RADV's disassembly and statistics."""
    lines = asm_instructions(asm)
    v, s = used_registers(lines)
    return Metrics(len(lines), int(stats.get("Code size", 0)), v, s,
                   int(stats.get("Latency", 0)), int(stats.get("Inverse Throughput", 0)))


def stat_rows(radcc_stats: dict[str, int], aco_stats: dict[str, int | float]
              ) -> list[tuple[str, str, str, str, str]]:
    """(radcc name, radcc value, ACO value, radcc - ACO, note) for every statistic radcc
    reports (ACO's value ``-`` when RADV does not report it)."""
    out = []
    for name, value in radcc_stats.items():
        aco = aco_stats.get(ACO_NAMES.get(name, name))
        if isinstance(aco, float) and aco.is_integer():
            aco = int(aco)
        diff = ""
        if aco is not None and name not in _NO_DIFF:
            d = value - aco
            diff = f"{d:+g}" if isinstance(d, float) else f"{d:+d}"
        out.append((name, str(value), "-" if aco is None else str(aco), diff,
                    _NOTES.get(name, "")))
    return out


def radv_family(mcpu: str) -> str:
    """RADV_FORCE_FAMILY for a chip: Mesa's family name (`Target.family`, lower case) on
    GFX10/10.3; Mesa 22.3 calls the GFX11 chips by their gfx name."""
    from radcc.target import GfxLevel, get_target

    t = get_target(mcpu)
    return t.name if t.gfx_level >= GfxLevel.GFX11 else t.family.lower()


def _mnemonic(line: str) -> str:
    return line.split(None, 1)[0] if line.strip() else ""


def side_by_side(left: list[str], right: list[str], width: int) -> list[str]:
    """`left` and `right` in two columns of `width` characters, lines with the same
    mnemonics beside each other (difflib's matching blocks), the others against
    blank space."""
    def cell(s: str) -> str:
        return s if len(s) <= width else s[:width - 1] + "…"

    out = []
    sm = difflib.SequenceMatcher(a=[_mnemonic(x) for x in left],
                                 b=[_mnemonic(x) for x in right], autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        a, b = left[i1:i2], right[j1:j2]
        mark = " " if tag == "equal" else "|" if tag == "replace" else "<" if b == [] else ">"
        for k in range(max(len(a), len(b))):
            la = a[k] if k < len(a) else ""
            lb = b[k] if k < len(b) else ""
            m = mark if tag != "replace" else ("|" if la and lb else "<" if la else ">")
            out.append(f"{cell(la):<{width}} {m} {cell(lb)}".rstrip())
    return out
