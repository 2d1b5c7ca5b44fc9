"""radcc.passes.access's name sets are taken from GFX11's table alone (canonical names
are GFX11's): every generation's table must give the same sets."""

from __future__ import annotations

import pytest

from radcc.isa.table import get_table
from radcc.passes.access import _names_of_class, _names_with_enc, is_nop, is_vopc_op
from radcc.target import GfxLevel


@pytest.mark.parametrize("gfx", [GfxLevel.GFX10, GfxLevel.GFX10_3, GfxLevel.GFX11])
def test_name_sets_agree_across_generations(gfx: GfxLevel) -> None:
    entries = get_table(gfx).entries
    assert {e.canon for e in entries if e.enc == "VOPC"} == _names_with_enc("VOPC")
    assert {e.canon for e in entries if e.cls == "nop"} == _names_of_class("nop")


def test_vop3_forms_of_nop_and_compares() -> None:
    t = get_table(GfxLevel.GFX11)
    v_nop = [e for e in t.entries if e.name == "v_nop"]
    assert {e.enc for e in v_nop} >= {"VOP1", "VOP3"} and all(is_nop(e) for e in v_nop)
    cmp = [e for e in t.entries if e.name == "v_cmp_eq_f32"]
    assert {e.enc for e in cmp} >= {"VOPC", "VOP3"} and all(is_vopc_op(e) for e in cmp)
    assert not any(is_vopc_op(e) or is_nop(e) for e in t.entries if e.name == "v_add_f32")
