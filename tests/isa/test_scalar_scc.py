"""SCC effects and read-modify-write destinations of the SALU table vs the ISA guide.

The scalar table (tools/isa_probe/scalar.py) cannot learn SCC side effects
from llvm-mc's decoder; its rule is checked here against the RDNA3 ISA
guide's per-instruction pseudocode (chapter 16): an instruction writes SCC
exactly when its pseudocode assigns ``SCC = ...``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from radcc.isa.table import get_table
from radcc.target import GfxLevel

GUIDE = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "rdna3-isa.reflowed.txt"


def _salu() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    t = get_table(GfxLevel.GFX11)
    return {e.name: (e.implicit_reads, e.implicit_writes) for e in t.entries
            if e.enc in ("SOP1", "SOP2", "SOPC", "SOPK")}


def test_sopk_scc_writers():
    t = get_table(GfxLevel.GFX11)
    writers = {e.name for e in t.entries if e.enc == "SOPK" and "scc" in e.implicit_writes}
    assert "s_addk_i32" in writers  # SCC = signed overflow
    assert {n for n in writers if not n.startswith("s_cmpk_")} == {"s_addk_i32"}
    assert "scc" not in t.by_name["s_mulk_i32"][0].implicit_writes
    assert "scc" in t.by_name["s_cmovk_i32"][0].implicit_reads


def test_read_modify_write_destinations_are_tagged():
    t = get_table(GfxLevel.GFX11)
    tied = {e.name for e in t.entries if e.extra.get("tied_def") == "sdst"}
    assert tied == {"s_addk_i32", "s_mulk_i32", "s_cmovk_i32", "s_cmov_b32", "s_cmov_b64"}


@pytest.mark.skipif(not GUIDE.is_file(), reason="shared/seeds is not beside the checkout")
def test_scc_writes_follow_the_guide_pseudocode():
    text = GUIDE.read_text()
    sec = text[text.index("16.1. SOP2 Instructions"):text.index("16.5. SOPP Instructions")]
    parts = re.split(r"\n(S_[A-Z0-9_]+) (\d+)\n", sec)
    desc = {parts[i].lower(): parts[i + 2] for i in range(1, len(parts), 3)}
    checked = 0
    bad = []
    for name, (_reads, writes) in _salu().items():
        if name not in desc:
            continue
        checked += 1
        if ("scc" in writes) != ("SCC = " in desc[name]):
            bad.append(name)
    assert checked > 150
    assert not bad, f"SCC writes disagree with the ISA guide: {bad}"
