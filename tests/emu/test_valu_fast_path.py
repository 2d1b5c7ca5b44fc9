"""The VALU fast path (common 32-bit integer ops as one NumPy call when EXEC is all
ones) against the VALU semantics library on random registers, every source kind."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.emu.decode import Inst
from radcc.emu.state import EXEC_LO, Wave, Workgroup
from radcc.emu.valu import ValuMods, execute_valu
from radcc.emu.vop import _fast_handler, bind_valu
from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.target import GfxLevel, get_target

OPS = ["v_xor_b32", "v_or_b32", "v_and_b32", "v_add_nc_u32", "v_sub_nc_u32",
       "v_subrev_nc_u32", "v_lshlrev_b32", "v_lshrrev_b32"]
SRC0 = ["v3", "s5", "-7", "63", "0x12345678", "1.0", "vcc_lo"]


def inst(text: str, wave: int) -> Inst:
    target = get_target("gfx1100")
    r = assemble(text + "\n", target)
    assert r.ok, r.diagnostics
    d = decode_one(r.text, 0, Context(target, get_table(GfxLevel.GFX11), wave))
    assert d.info is not None and d.fields
    return Inst(0, d.size, d.text, d.info, dict(d.fields), ())


def wave_state(wave: int, seed: int) -> Wave:
    rng = np.random.default_rng(seed)
    w = Wave(wave, Workgroup((0, 0, 0), 0, 1), 0, 0)
    w.v[:] = rng.integers(0, 2**32, w.v.shape, dtype=np.uint64).astype(np.uint32)
    w.v[4, :8] = [0, 1, 31, 32, 33, 63, 0xFFFFFFFF, 0x80000000]  # shift amounts
    for k in range(106):
        w.s[k] = int(rng.integers(0, 2**32))
    w.s[106] = 0xDEADBEEF
    w.exec = (1 << wave) - 1
    return w


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("src0", SRC0)
@pytest.mark.parametrize("enc", ["e32", "e64"])
def test_fast_path_matches_the_library(op, src0, wave, enc):
    if enc == "e32":
        text = f"{op}_e32 v7, {src0}, v4"
    else:
        text = f"{op}_e64 v7, v4, {src0}"
    i = inst(text, wave)
    assert _fast_handler(i, op) is not None, text
    w_fast, w_lib = wave_state(wave, 1), wave_state(wave, 1)
    bind_valu(i)(w_fast, i)
    # the library on the same sources, all lanes
    h = bind_valu(i)
    w_lib.s[EXEC_LO] ^= 1  # one lane off: the general path ...
    h(w_lib, i)
    lane0_kept = w_lib.v[7, 0] == wave_state(wave, 1).v[7, 0]
    assert lane0_kept
    w_lib.s[EXEC_LO] ^= 1
    np.testing.assert_array_equal(w_fast.v[7, 1:], w_lib.v[7, 1:])  # ... agrees elsewhere


def test_fast_path_equals_execute_valu_directly():
    i = inst("v_lshlrev_b32_e32 v7, v4, v5", 32)
    w = wave_state(32, 2)
    a, b = w.v[4].astype(np.uint64), w.v[5].astype(np.uint64)
    with np.errstate(all="ignore"):
        want = execute_valu("v_lshlrev_b32", [a, b], ValuMods(), wave=32,
                            exec_mask=np.ones(32, bool)).d
    bind_valu(i)(w, i)
    np.testing.assert_array_equal(w.v[7], (want & 0xFFFFFFFF).astype(np.uint32))


@pytest.mark.parametrize("text", [
    "v_add_nc_u32_e64 v7, v4, v5 clamp",  # a modifier: the general path
    "v_xor_b32_dpp v7, v4, v5 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    "v_cndmask_b32_e32 v7, v4, v5, vcc_lo",  # not in the fast set
])
def test_no_fast_path(text):
    i = inst(text, 32)
    assert _fast_handler(i, i.info.name) is None
