"""isel.lds.ds_plan: which DS instructions an LDS access of N dwords becomes.

Legality is checked by brute force from the ISA guide's rule (12.7: in the
DWORD alignment mode an address is rounded down to a multiple of the element
size, so every element must be aligned for every address the known alignment
allows); the choices are ACO's preference, derived by hand for each example.
The 2addr spellings are checked against llvm-mc-19 through the emitter.
"""

from __future__ import annotations

import pytest

from radcc.ir.parser import parse_program
from radcc.isa.table import get_table
from radcc.isel.lds import ds_plan
from radcc.oracle import llvm_mc
from radcc.passes.asm_text import instruction_asm

NEED = {"b128": 16, "b96": 16, "b64": 8, "b32": 4, "2addr_b64": 8, "2addr_b32": 4}


@pytest.mark.parametrize("dwords", range(1, 9))
@pytest.mark.parametrize("align", [4, 8, 16, 32])
def test_every_piece_is_aligned_and_the_pieces_tile_the_access(dwords: int, align: int) -> None:
    for offset in [*range(0, 64, 4), 1016, 1020, 2032, 2040, 2044, 65520]:
        plan = ds_plan(dwords, align, offset)
        assert [p[1] for p in plan] == [sum(p[2] for p in plan[:i]) for i in range(len(plan))]
        assert sum(p[2] for p in plan) == dwords
        for form, first, m, fields in plan:
            assert m == {"b128": 4, "b96": 3, "b64": 2, "b32": 1, "2addr_b64": 4,
                         "2addr_b32": 2}[form]
            k = offset + 4 * first
            if form.startswith("2addr"):
                size = NEED[form]
                assert fields["offset0"] * size == k and fields["offset1"] == fields["offset0"] + 1
                assert fields["offset1"] <= 255
                rel = [4 * first, 4 * first + size]
            else:
                assert fields == {"offset": k}
                rel = [4 * first]
            # `align` is known of the access's address A (base + offset): every
            # element address A + rel must be a multiple of its element size
            for a in range(0, 512, align):
                assert all((a + r) % NEED[form] == 0 for r in rel), (form, a, k)


@pytest.mark.parametrize(("dwords", "align", "offset", "want"), [
    (4, 16, 0, [("b128", 0, 4, {"offset": 0})]),
    (4, 8, 0, [("2addr_b64", 0, 4, {"offset0": 0, "offset1": 1})]),
    (4, 8, 2040, [("b64", 0, 2, {"offset": 2040}), ("b64", 2, 2, {"offset": 2048})]),
    (4, 4, 4, [("2addr_b32", 0, 2, {"offset0": 1, "offset1": 2}),
               ("2addr_b32", 2, 2, {"offset0": 3, "offset1": 4})]),
    (3, 16, 32, [("b96", 0, 3, {"offset": 32})]),
    (3, 8, 8, [("b64", 0, 2, {"offset": 8}), ("b32", 2, 1, {"offset": 16})]),
    (2, 4, 1020, [("b32", 0, 1, {"offset": 1020}), ("b32", 1, 1, {"offset": 1024})]),
    (8, 16, 0, [("b128", 0, 4, {"offset": 0}), ("b128", 4, 4, {"offset": 16})]),
    (1, 4, 12, [("b32", 0, 1, {"offset": 12})]),
])
def test_aco_preference(dwords: int, align: int, offset: int, want: list) -> None:
    assert ds_plan(dwords, align, offset) == want


def test_2addr_forms_print_what_llvm_mc_encodes() -> None:
    llvm_mc.require()
    body = ["   v1: %1:v[0], v2: %2:v[2-3], v2: %3:v[4-5] = p_startpgm",
            "   ds_store_2addr_b32 %1:v[0], v1: %4:v[6], v1: %5:v[7] offset0:3 offset1:4",
            "   ds_store_2addr_b64 %1:v[0], %2:v[2-3], %3:v[4-5] offset0:254 offset1:255",
            "   v2: %6:v[8-9] = ds_load_2addr_b32 %1:v[0] offset0:0 offset1:1",
            "   v4: %7:v[10-13] = ds_load_2addr_b64 %1:v[0] offset0:7 offset1:8"]
    p = parse_program("program gfx1100 wave32 compute\nBB0\n"
                      "/* logical preds: / linear preds: / kind: top-level, */\n"
                      + "\n".join(body) + "\n   s_endpgm\n")
    table = get_table(p.gfx_level)
    lines = [instruction_asm(i, table, str) for i in p.blocks[0].instructions[1:-1]]
    want = ["ds_store_2addr_b32 v0, v6, v7 offset0:3 offset1:4",
            "ds_store_2addr_b64 v0, v[2:3], v[4:5] offset0:254 offset1:255",
            "ds_load_2addr_b32 v[8:9], v0 offset1:1",
            "ds_load_2addr_b64 v[10:13], v0 offset0:7 offset1:8"]
    got = llvm_mc.encode(lines)
    ref = llvm_mc.encode(want)
    assert [g.data for g in got] == [r.data for r in ref] and None not in [g.data for g in got]
