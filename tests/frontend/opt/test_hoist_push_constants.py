"""hoist_push_constants on GLSL shaders: push-constant loads at constant offsets end at
the top of the entry block in offset order (none left in a branch or loop), a load at
a non-constant offset stays where it was, the MIR interpreter gives the same buffers
before and after; after the whole isel lowering the hoisted loads are merged into wide
loads (one SMEM load per run of dwords), and the compiled shader still matches NumPy in
the strict emulator."""

from __future__ import annotations

import numpy as np
import pytest

import radcc
from radcc.frontend.mir import Block, If, Loop, MirShader, iter_nodes
from radcc.frontend.mir_validate import validate
from radcc.frontend.opt import hoist_push_constants, lower_for_isel, optimize
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.target import get_target
from tests.support import mir_interp

from ..mir.conftest import glsl_to_spirv

GFX11 = get_target("gfx1100").mir_options

# ncnn's shape: every size read in the bounds test and again in the body and a loop
_SRC = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer B { float b[]; };
layout(push_constant) uniform P { int w; int h; int c; int cstep; float k; int idx[4]; } p;
void main() {
  int gx = int(gl_GlobalInvocationID.x);
  int gy = int(gl_GlobalInvocationID.y);
  if (gx >= p.w || gy >= p.h) return;
  float s = 0.0;
  for (int z = 0; z < p.c; z++) s += a[z * p.cstep + gx];
  if (s > 0.0) s = s * p.k + float(p.idx[gx & 3]);
  b[gx] = s;
}
"""


def _shader() -> MirShader:
    s = spirv_to_mir(glsl_to_spirv(_SRC))
    s.options = GFX11
    optimize(s)
    return s


def _loads(s: MirShader) -> list[tuple[Block, int, bool]]:
    """(block, offset, constant address) of each load_push_constant."""
    out = []
    for blk in s.blocks():
        for ins in blk.instrs:
            if ins.op == "load_push_constant":
                c = ins.srcs[0].parent
                const = c is not None and c.op == "load_const"
                out.append((blk, int(ins.attrs.get("offset", 0)), const))
    return out


def _run(s: MirShader) -> bytes:
    a = np.arange(256, dtype=np.float32) * 0.25 - 8.0
    push = np.array([40, 1, 3, 64], dtype=np.int32).tobytes() + \
        np.array([1.5], dtype=np.float32).tobytes() + np.array([7, -2, 5, 11], np.int32).tobytes()
    r = mir_interp.run(s, (1, 1, 1), {(0, 0): a, (0, 1): 64 * 4}, push_constants=push)
    return r[(0, 1)]


def test_constant_offsets_move_to_the_entry_block_in_order() -> None:
    s = _shader()
    before = _loads(s)
    assert any(not const for _, _, const in before)  # p.idx[gx & 3]
    entry = s.function.body[0]
    assert isinstance(entry, Block)
    assert any(blk is not entry and const for blk, _, const in before)
    want = _run(s)
    assert hoist_push_constants(s)
    validate(s)
    after = _loads(s)
    hoisted = [off for blk, off, const in after if const]
    assert all(blk is entry for blk, _, const in after if const)
    assert hoisted == sorted(hoisted) and set(hoisted) >= {0, 4, 8, 12, 16}
    heads = [i.op for i in entry.instrs[:len(hoisted) + 1]]
    assert heads == ["load_const"] + ["load_push_constant"] * len(hoisted)
    # the indexed load stays inside its if
    (blk, _, _), = [x for x in after if not x[2]]
    assert blk is not entry and any(isinstance(n, If) and blk in _blocks(n.then_list)
                                    for n in iter_nodes(s.function.body))
    assert _run(s) == want


def _blocks(cf: list) -> list[Block]:
    return [n for n in iter_nodes(cf) if isinstance(n, Block)]


def test_nothing_to_hoist_is_no_change() -> None:
    s = spirv_to_mir(glsl_to_spirv("""#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer B { float b[]; };
void main() { b[gl_GlobalInvocationID.x] *= 2.0; }
"""))
    optimize(s)
    assert not hoist_push_constants(s)


def test_after_lowering_the_sizes_are_one_wide_load_before_any_branch() -> None:
    s = _shader()
    lower_for_isel(s, GFX11, 64)
    entry = s.function.body[0]
    assert isinstance(entry, Block)
    wide = [i for i in entry.instrs if i.op == "load_push_constant"
            and i.dest is not None and i.dest.num_components == 4]
    assert wide and int(wide[0].attrs.get("offset", 0)) == 0
    inner = [i for n in iter_nodes(s.function.body) if isinstance(n, (If, Loop))
             for blk in _blocks(n.then_list if isinstance(n, If) else n.body)
             for i in blk.instrs if i.op == "load_push_constant"]
    assert len(inner) == 1 and inner[0].srcs[0].parent.op != "load_const"


@pytest.mark.parametrize("wave", [32, 64])
def test_compiled_shader_matches_numpy(wave: int) -> None:
    a = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    w, h, c, cstep, k, idx = 40, 1, 3, 64, 1.5, [7, -2, 5, 11]
    push = np.array([w, h, c, cstep], np.int32).tobytes() + np.float32(k).tobytes() + \
        np.array(idx, np.int32).tobytes()
    out = radcc.run(_SRC, stage="comp", wave_size=wave, groups=1,
                    buffers={0: a, 1: np.zeros(64, np.float32)}, push_constants=push)
    got = out[(0, 1)]
    want = np.zeros(64, np.float32)
    for gx in range(w):
        s = np.float32(0)
        for z in range(c):
            s = np.float32(s + a[z * cstep + gx])
        if s > 0:
            s = np.float32(np.float32(s * np.float32(k)) + np.float32(idx[gx & 3]))
        want[gx] = s
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
