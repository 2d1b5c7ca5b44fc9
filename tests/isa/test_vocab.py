"""The instruction vocabulary (radcc/isa/data/vocab.json, `OpInfo.canon`) against llvm-mc-19.

Every renamed instruction: llvm-mc-19 assembles a line spelt with the old (GFX10/GFX10.3)
name and the same line spelt with the canonical (GFX11) name to the same GFX11 bytes;
the canonical name, spelt by the old generation's table (what emission prints), assembles
for the old chip with llvm-mc to the bytes radcc's assembler gives. The tables agree with
the data (availability, one spelling per canonical name).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from radcc.ir.opinfo import resolve_mnemonic
from radcc.isa.assembler import assemble
from radcc.isa.table import VOCAB_FILE, get_table
from radcc.oracle import llvm_mc
from radcc.target import GfxLevel, get_target

ROOT = Path(__file__).resolve().parents[2]
OLD = [("gfx1010", "gfx10", GfxLevel.GFX10), ("gfx1030", "gfx10_3", GfxLevel.GFX10_3)]


@cache
def _probe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vocab_probe", ROOT / "tools/isa_probe/vocab.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["vocab_probe"] = mod
    spec.loader.exec_module(mod)
    return mod


def _vocab() -> dict:
    return json.loads(VOCAB_FILE.read_text())


def _respell(line: str, new: str) -> str:
    name = line.split(None, 1)[0]
    return re.sub(rf"^{re.escape(name)}", new, line)


@pytest.mark.parametrize("mcpu,d,gfx", OLD)
def test_renames_are_the_same_instruction_for_llvm_mc(mcpu: str, d: str, gfx: GfxLevel):
    llvm_mc.require()
    renames = _vocab()[d]["llvm_mc"]
    assert len(renames) > 250
    lines = _probe().sample_lines(get_table(gfx), mcpu)
    old_lines = [lines[o] for o in renames]
    canon_lines = [_respell(lines[o], c) for o, c in renames.items()]
    a = llvm_mc.encode(old_lines, "gfx1100")
    b = llvm_mc.encode(canon_lines, "gfx1100")
    for x, y in zip(a, b, strict=True):
        assert x.data is not None and x.data == y.data, (x, y)


@pytest.mark.parametrize("mcpu,d,gfx", OLD)
def test_canonical_names_spelt_for_the_generation_assemble(mcpu: str, d: str, gfx: GfxLevel):
    """The GFX11 sample line of each canonical name the old generation has, spelt by the
    old table, is accepted by llvm-mc for the old chip with radcc's assembler's bytes."""
    llvm_mc.require()
    t11, t = get_table(GfxLevel.GFX11), get_table(gfx)
    lines11 = _probe().sample_lines(t11, "gfx1100")
    renamed = set(_vocab()[d]["llvm_mc"].values())
    # the renamed ones, and every 10th of the rest (a sample of the shared names)
    names = [n for i, n in enumerate(sorted(lines11))
             if t.has(n) and (n in renamed or i % 10 == 0)]
    assert len(names) > 300
    respelt = [_respell(lines11[n], t.spelling(n)) for n in names]
    want = llvm_mc.encode(respelt, mcpu)
    target = get_target(mcpu)
    checked = 0
    for n, line, r in zip(names, respelt, want, strict=True):
        if r.data is None:
            # GFX11 operand syntax GFX10 lacks (e.g. a 64-bit v_cmpx sdst): nothing to compare
            continue
        res = assemble(line, target)
        got = [s.data for s in res.statements if s.kind == "inst"]
        assert res.ok and got == [r.data], (n, line, res.diagnostics)
        checked += 1
    assert checked > 250


def test_availability():
    t10, t103, t11 = (get_table(g) for g in (GfxLevel.GFX10, GfxLevel.GFX10_3, GfxLevel.GFX11))
    for name in ("v_permlane64_b32", "s_delay_alu", "v_dual_add_f32", "v_dot4_i32_iu8"):
        assert t11.has(name) and not t10.has(name), name
    # v_cvt_pk_norm_i16_f32 exists on both (GFX10: v_cvt_pknorm_i16_f32)
    for name, old in (("s_load_b32", "s_load_dword"), ("s_and_not1_b32", "s_andn2_b32"),
                      ("ds_load_u16", "ds_read_u16"), ("global_store_b16", "global_store_short"),
                      ("v_cvt_pk_norm_i16_f32", "v_cvt_pknorm_i16_f32")):
        assert t11.spelling(name) == name and t103.spelling(name) == old
        assert t10.spelling(name) == old
    assert t10.has("s_store_dword") and not t103.has("s_store_dword")
    assert not t11.has("v_mac_f32") and t10.has("v_mac_f32")
    # the same LLVM spelling naming another instruction: GFX10's VINTRP v_interp_p2_f32
    assert t10.spelling("v_interp_p2_f32_vintrp") == "v_interp_p2_f32"
    assert {e.enc for e in t11.by_canon["v_interp_p2_f32"]} == {"VINTERP"}


@pytest.mark.parametrize("gfx", [GfxLevel.GFX10, GfxLevel.GFX10_3, GfxLevel.GFX11])
def test_one_spelling_per_canonical_name(gfx: GfxLevel):
    t = get_table(gfx)
    for canon, es in t.by_canon.items():
        assert len({e.name for e in es}) == 1, canon
        # a canonical name is never another instruction's spelling of this generation
        other = t.by_name.get(canon)
        assert other is None or other[0].canon == canon, canon


def test_ir_names_are_canonical_either_spelling_parses():
    t = get_table(GfxLevel.GFX10_3)
    assert resolve_mnemonic(t, "s_load_dword") == ("s_load_b32", "SMEM")
    assert resolve_mnemonic(t, "s_load_b32") == ("s_load_b32", "SMEM")
    assert resolve_mnemonic(t, "v_cvt_pkrtz_f16_f32_e64")[0] == "v_cvt_pk_rtz_f16_f32"
    assert resolve_mnemonic(t, "ds_write_b32@DS") == ("ds_store_b32", "DS")
    with pytest.raises(KeyError):
        resolve_mnemonic(t, "v_permlane64_b32")
