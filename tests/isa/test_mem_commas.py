"""Commas and order among memory-instruction modifiers vs llvm-mc-19 (GFX11, GFX10.3,
GFX10.1).

llvm-mc takes a comma between any two operands (also before the first modifier
and after the last), but reads the cache-policy words glc/slc/dlc as one operand
(a comma inside the group is an error at the word after it) and matches the
optional operands in its asm-string order (offen/idxen, offset, cache policy,
other flags; MIMG: dmask dim unorm cpol r128 a16 tfe lwe d16). Every line's
outcome (bytes and text, or error message and column) must equal llvm-mc's.
"""

from __future__ import annotations

import itertools
import random

import pytest

from radcc.isa.assembler import assemble
from radcc.oracle import llvm_mc
from radcc.target import get_target

GFX11 = [
    ("global_load_b32 v1, v[2:3], off", ["offset:16", "glc", "slc", "dlc"]),
    ("buffer_load_b32 v1, v0, s[4:7], 0", ["offen", "offset:4", "glc", "slc"]),
    ("scratch_load_b32 v1, off, s2", ["offset:8", "glc", "slc"]),
    ("ds_load_b32 v1, v2", ["offset:4", "gds"]),
    ("tbuffer_load_format_x v1, off, s[4:7], 0", ["format:[BUF_FMT_32_FLOAT]", "offset:4", "glc",
                                                   "slc"]),
    ("image_load v[0:3], v[4:5], s[8:15]", ["dmask:0xf", "dim:SQ_RSRC_IMG_2D", "unorm", "glc",
                                             "slc"]),
    ("image_store v[0:3], v[4:5], s[8:15]", ["dmask:0xf", "dim:SQ_RSRC_IMG_2D", "glc", "dlc",
                                              "r128"]),
]
GFX10 = [
    ("global_load_dword v1, v[2:3], off", ["offset:16", "glc", "slc", "dlc"]),
    ("buffer_load_dword v1, v0, s[4:7], 0", ["offen", "offset:4", "glc", "slc", "dlc"]),
    ("buffer_load_dword v[1:2], off, s[4:7], 0", ["offset:4", "glc", "slc", "tfe"]),
    ("ds_read_b32 v1, v2", ["offset:4", "gds"]),
    ("tbuffer_load_format_x v1, off, s[4:7], 0", ["format:22", "offset:4", "glc", "slc"]),
    ("image_load v[0:3], v[4:5], s[8:15]", ["dmask:0xf", "dim:SQ_RSRC_IMG_2D", "unorm", "glc",
                                             "slc"]),
]


def _lines(bases: list[tuple[str, list[str]]], seed: int) -> list[str]:
    """Per base: its modifiers in order with every comma pattern (also one before
    the first and after the last), then random subsets/orders/comma patterns."""
    rng = random.Random(seed)
    out: list[str] = []
    for base, mods in bases:
        n = len(mods)
        for pattern in itertools.product((" ", ", "), repeat=n + 1):
            line = base + pattern[0].rstrip() + " " + "".join(
                m + (pattern[i + 1] if i + 1 < n else "") for i, m in enumerate(mods))
            out.append(line + ("," if pattern[n] == ", " else ""))
        for _ in range(150):
            k = rng.randint(1, n)
            sub = rng.sample(mods, k)
            seps = [rng.choice((" ", ", ")) for _ in range(k)]
            out.append(base + (", " if rng.random() < 0.3 else " ") + "".join(
                m + (seps[i] if i + 1 < k else "") for i, m in enumerate(sub)))
    return out


@pytest.mark.parametrize("mcpu,bases", [("gfx1100", GFX11), ("gfx1030", GFX10),
                                        ("gfx1010", GFX10)])
def test_modifier_commas_and_order_match_llvm(mcpu: str, bases) -> None:
    llvm_mc.require()
    target = get_target(mcpu)
    lines = _lines(bases, 5)
    ref = llvm_mc.encode(lines, mcpu=mcpu)
    bad = []
    ok = errs = 0
    for line, r in zip(lines, ref, strict=True):
        res = assemble(line + "\n", target)
        insts = [s for s in res.statements if s.kind == "inst"]
        if r.data is not None:
            ok += 1
            got = (insts[0].text, insts[0].data) if res.ok and insts else res.diagnostics[0]
            if got != (r.text, r.data):
                bad.append(f"{line}: llvm {r.text} radcc {got}")
            continue
        errs += 1
        if res.ok:
            bad.append(f"{line}: llvm error {r.error!r}, radcc accepts")
    assert not bad, f"{len(bad)} of {len(lines)} disagree\n" + "\n".join(bad[:30])
    assert ok > 100 and errs > 100


@pytest.mark.parametrize("line,col,msg", [
    ("global_load_b32 v1, v[2:3], off glc, slc", 38, "invalid operand for instruction"),
    ("buffer_load_b32 v1, off, s[4:7], 0 glc dlc, slc", 45, "invalid operand for instruction"),
    ("global_load_b32 v1, v[2:3], off glc, offset:16", 38, "not a valid operand."),
    ("buffer_load_b32 v1, off, s[4:7], 0 glc, offset:4", 41, "invalid operand for instruction"),
    ("buffer_load_b32 v1, v0, s[4:7], 0 glc offen", 35, "invalid operand for instruction"),
    ("ds_load_b32 v1, v2 gds, offset:4", 25, "not a valid operand."),
    ("image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D glc, slc", 70,
     "invalid operand for instruction"),
    ("image_load v[0:3], v[4:5], s[8:15], dmask:0xf, dim:SQ_RSRC_IMG_2D", 0, None),
    ("image_load v[0:3], v[4:5], s[8:15] dmask:0xf, dim:SQ_RSRC_IMG_2D, glc,", 0, None),
])
def test_error_positions_like_llvm(line: str, col: int, msg: str | None) -> None:
    llvm_mc.require()
    r = llvm_mc.encode([line])[0]
    res = assemble(line + "\n", get_target("gfx1100"), filename="m.s")
    if msg is None:
        assert r.data is not None and res.ok
        insts = [s for s in res.statements if s.kind == "inst"]
        assert (insts[0].text, insts[0].data) == (r.text, r.data)
        return
    assert r.error == msg
    d = res.diagnostics[0]
    assert (d.message, d.col) == (msg, col)
    assert str(d).startswith(f"m.s:1:{col}: error: {msg}")
