"""lower_to_cssa's guarantee on generated programs: after it, the values of each phi
congruence class (a phi's definition and its temp operands, joined across phis) do
not interfere pair by pair (the pass's own interference test), although its
dominance-forest merge (`_Forest`) tests each value only against its nearest
dominating member and the members it becomes the nearest dominator of. The
program's output being unchanged by the forest is tools/check_backend_output's."""

from __future__ import annotations

import io
import random

import pytest

from radcc.ir.program import Program
from radcc.passes.live_var_analysis import live_var_analysis
from radcc.passes.lower_to_cssa import _Ctx
from radcc.passes.manager import run_pipeline
from radcc.passes.options import DebugOptions
from radcc.target import get_target
from tests.support.randprog import GenConfig, generate, lower


def _classes(p: Program) -> list[list]:
    parent: dict[int, int] = {}
    temp = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for b in p.blocks:
        for i in b.instructions:
            if not i.is_phi or i.definitions[0].temp is None:
                continue
            d = i.definitions[0].temp
            temp[d.id] = d
            for o in i.operands:
                if o.temp is not None:
                    temp[o.temp.id] = o.temp
                    parent[find(o.temp.id)] = find(d.id)
    out: dict[int, list] = {}
    for t in temp:
        out.setdefault(find(t), []).append(temp[t])
    return list(out.values())


def _program(seed: int, size: int, wave: int) -> Program:
    rng = random.Random(seed)
    cfg = GenConfig(max_stmts=max(10, size // 5), max_depth=3, lanes=wave)
    p = lower(generate(rng.randint, cfg), get_target("gfx1100"), wave)
    run_pipeline(p, DebugOptions.parse(""), stop_after="lower_to_cssa", stream=io.StringIO())
    return p


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("wave", [32, 64])
def test_classes_are_interference_free(seed: int, wave: int):
    p = _program(seed * 7 + 1, 600, wave)
    live_var_analysis(p)
    ctx = _Ctx(p)
    phis = sum(1 for b in p.blocks for i in b.instructions if i.is_phi)
    classes = _classes(p)
    assert phis and classes
    for members in classes:
        for k, a in enumerate(members):
            for b in members[k + 1:]:
                assert not ctx.interfere(a, b), (a, b)
