"""radcc.emu.use: the registers strict mode sees an instruction read and write,
from the disassembler's structured fields (docs/machine-layer.md)."""

from __future__ import annotations

import pytest

from radcc.emu.decode import Inst
from radcc.emu.use import compute_use
from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.target import GfxLevel, get_target

EXEC64 = [126, 127]


def use_of(text: str, wave: int = 64):  # type: ignore[no-untyped-def]
    target = get_target("gfx1100")
    r = assemble(text + "\n", target)
    assert r.ok, r.diagnostics
    d = decode_one(r.text, 0, Context(target, get_table(GfxLevel.GFX11), wave))
    assert d.info is not None and d.fields
    return compute_use(Inst(0, d.size, d.text, d.info, dict(d.fields), ()), wave)


@pytest.mark.parametrize("text,sreads,vreads,vwrites", [
    # LDSDIR: vdst is VGPR n (not SGPR n); reads M0 and EXEC, the attribute is no register
    ("lds_direct_load v5 wait_vdst:2", [125, *EXEC64], [], [5]),
    ("lds_param_load v6, attr0.x wait_vdst:1", [125, *EXEC64], [], [6]),
    # FLAT family: the decoder's addr/data fields
    ("global_load_b32 v1, v[2:3], off", EXEC64, [2, 3], [1]),
    ("global_store_b32 v4, v7, s[4:5]", [4, 5, *EXEC64], [4, 7], []),
    ("flat_store_b32 v[2:3], v9", EXEC64, [2, 3, 9], []),
    ("global_atomic_add_u32 v8, v[2:3], v9, off glc", EXEC64, [2, 3, 9], [8]),
    ("scratch_load_b32 v1, off, s2", [2, *EXEC64], [], [1]),
    # MUBUF keeps vaddr/vdata, DS addr/data0
    ("buffer_load_b32 v1, v2, s[4:7], 0 offen", [4, 5, 6, 7, *EXEC64], [2], [1]),
    ("ds_store_b32 v1, v2", EXEC64, [1, 2], []),
])
def test_register_use(text, sreads, vreads, vwrites):
    u = use_of(text)
    assert sorted(u.sreads) == sorted(sreads)
    assert not u.swrites
    assert sorted(u.vreads) == vreads
    assert sorted(u.vwrites) == vwrites
