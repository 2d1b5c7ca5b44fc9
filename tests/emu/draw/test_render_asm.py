"""A whole draw in the emulator (radcc.emu.draw.render) with a vertex and a fragment
shader written in assembly (llvm-mc-19) to the documented ABIs (docs/abi.md "Vertex
shaders on NGG", docs/draw.md): vertex fetch through the V# table, GS_ALLOC_REQ,
``exp prim``/``exp pos0``, the attribute ring, ``lds_param_load`` and interpolation by
quad DPP, ``exp mrt0``; compared with the fixed function's NumPy model of the same draw
(perspective-correct colour), wave32 and wave64, strict mode."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from radcc.abi.args import ArgKind
from radcc.abi.graphics import ExportFormat, fragment_args, vertex_args
from radcc.abi.stage import NAMED_STAGES
from radcc.codeobj.graphics import (
    ComponentType,
    GraphicsShader,
    PixelInput,
    PixelOutput,
    PixelStage,
    VertexInput,
    VertexOutput,
    VertexStage,
)
from radcc.emu.draw.assembly import assemble
from radcc.emu.draw.output import decode_export
from radcc.emu.draw.pipeline import Shaded, VertexOutputs, draw, interpolate
from radcc.emu.draw.render import render
from radcc.emu.draw.state import COLOR_FORMATS, CullMode, DrawState, Kind, Topology
from radcc.emu.memory import Memory
from radcc.target import TARGETS

from .test_graphics_insts import _code

pytestmark = pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="needs llvm-mc-19")

T = TARGETS["gfx1100"]
F = ComponentType.FLOAT


def _vs_asm(wave: int) -> str:
    b = "b32" if wave == 32 else "b64"
    vcc = "vcc_lo" if wave == 32 else "vcc"
    sv = "s50" if wave == 32 else "s[50:51]"
    ex = "exec_lo" if wave == 32 else "exec"
    mbcnt = "v_mbcnt_lo_u32_b32 v10, -1, 0\n" + (
        "v_mbcnt_hi_u32_b32 v10, -1, v10\n" if wave == 64 else "")
    return f"""
    s_and_b32 s21, s3, 0xff
    s_bfe_u32 s20, s3, 0x80008
    s_lshl_b32 s22, s20, 12
    s_or_b32 m0, s22, s21
    s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)
    {mbcnt}
    v_cmp_gt_u32 {vcc}, s20, v10
    s_and_saveexec_{b} {sv}, {vcc}
    exp prim v0, off, off, off
    s_waitcnt expcnt(0)
    s_mov_{b} {ex}, {sv}
    v_cmp_gt_u32 {vcc}, s21, v10
    s_and_saveexec_{b} {sv}, {vcc}
    s_mov_b32 s30, s8
    s_mov_b32 s31, 1
    s_load_b256 s[24:31], s[30:31], 0x0
    s_load_b128 s[36:39], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    buffer_load_format_xyzw v[20:23], v5, s[24:27], 0 idxen
    buffer_load_format_xyzw v[24:27], v5, s[28:31], 0 idxen
    s_lshl_b32 s40, s5, 9
    s_waitcnt vmcnt(0)
    buffer_store_b128 v[24:27], v10, s[36:39], s40 idxen
    s_waitcnt_vscnt null, 0x0
    exp pos0 v20, v21, v22, v23 done
    s_endpgm
"""


def _fs_asm() -> str:
    # I, J in v0, v1; prim mask in s0; P0/P10/P20 in lanes 0/1/2 of each quad
    lines = ["s_mov_b32 m0, s0"]
    for c, ch in enumerate("xyzw"):
        lines.append(f"lds_param_load v{2 + c}, attr0.{ch}")
    lines.append("s_waitcnt expcnt(0)")
    for c in range(4):
        p = 2 + c
        lines += [f"v_mov_b32_dpp v10, v{p} quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf fi:1",
                  f"v_mov_b32_dpp v11, v{p} quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf fi:1",
                  f"v_mov_b32_dpp v12, v{p} quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf fi:1",
                  "v_fma_f32 v10, v0, v11, v10",
                  f"v_fma_f32 v{20 + c}, v1, v12, v10"]
    lines += ["exp mrt0 v20, v21, v22, v23 done", "s_endpgm"]
    return "\n".join(lines) + "\n"


def _shaders(wave: int) -> tuple[GraphicsShader, GraphicsShader]:
    vs = GraphicsShader(NAMED_STAGES["vertex_ngg"], "gfx1100", wave, _code(_vs_asm(wave), wave),
                        vertex_args(T), vertex=VertexStage(
                            inputs=(VertexInput(0, 4, F), VertexInput(1, 4, F)),
                            outputs=(VertexOutput(0, 4, F, 0),)))
    fs = GraphicsShader(NAMED_STAGES["fragment_fs"], "gfx1100", wave, _code(_fs_asm(), wave),
                        fragment_args(T, [ArgKind.PERSP_CENTER], descriptor_sets=0),
                        pixel=PixelStage(inputs=(PixelInput(0, 4, F, 0),),
                                         outputs=(PixelOutput(0, 4, F),),
                                         col_format=ExportFormat.ABGR32.value))
    return vs, fs


def _scene(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    pos = np.zeros((n, 4), np.float32)
    w = rng.uniform(0.5, 3.0, n)
    pos[:, 0] = rng.uniform(-1.2, 1.2, n) * w
    pos[:, 1] = rng.uniform(-1.2, 1.2, n) * w
    pos[:, 2] = rng.uniform(0.0, 1.0, n) * w
    pos[:, 3] = w
    col = rng.uniform(0, 1, (n, 4)).astype(np.float32)
    return pos, col


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("topology", [Topology.TRIANGLE_LIST, Topology.TRIANGLE_STRIP])
def test_render_matches_the_numpy_model(wave: int, topology: Topology) -> None:
    rng = np.random.default_rng(wave)
    n = 12
    pos, col = _scene(rng, n)
    state = DrawState(24, 20, topology=topology, color=COLOR_FORMATS["rgba32f"],
                      depth=True, cull=CullMode.NONE)
    vs, fs = _shaders(wave)
    res = render(vs, fs, state, T, Memory(), count=n, instances=1, attrs={0: pos, 1: col},
                 inst_attrs={}, index=None)
    assert not res.violations, res.violations
    assert res.stats.pixels > 50

    flat = np.zeros(1, bool)

    def shade(prims, frags, li):
        v = interpolate(prims, frags, li.persp, flat)[:, :, 0]
        vals = decode_export(ExportFormat.ABGR32, v.reshape(-1, 4), Kind.FLOAT)
        return Shaded(np.ones(frags.covered.shape, bool), [vals.reshape(-1, 4, 4)])
    fb, stats = draw(state, VertexOutputs(pos, col.view(np.uint32)[:, None, :], np.ones(n)),
                     assemble(topology, n), flat, [(True,) * 4], shade)
    assert stats.pixels == res.stats.pixels
    np.testing.assert_array_equal(res.framebuffer.depth, fb.depth)
    np.testing.assert_allclose(res.framebuffer.targets[0].data, fb.targets[0].data,
                               rtol=1e-5, atol=1e-5)
    assert res.vertex_waves >= 1 and res.pixel_waves >= 1


def test_missing_exports_are_violations() -> None:
    """A pixel shader without a done export (MUST_EXPORT) and a vertex shader without a
    primitive export are strict-mode violations, not a wrong picture."""
    from dataclasses import replace

    vs, fs = _shaders(32)
    bad_fs = replace(fs, code=_code("s_endpgm\n", 32))
    pos, col = _scene(np.random.default_rng(1), 3)
    state = DrawState(8, 8, color=COLOR_FORMATS["rgba32f"])
    res = render(vs, bad_fs, state, T, Memory(), count=3, instances=1,
                 attrs={0: pos, 1: col}, inst_attrs={}, index=None)
    assert any("MUST_EXPORT" in v.message for v in res.violations)
    asm = _vs_asm(32).replace("exp prim v0, off, off, off\n", "")
    bad_vs = replace(vs, code=_code(asm, 32))
    res = render(bad_vs, fs, state, T, Memory(), count=3, instances=1,
                 attrs={0: pos, 1: col}, inst_attrs={}, index=None)
    assert any("primitive export" in v.message for v in res.violations)
    assert res.stats.fragments == 0


@pytest.mark.parametrize("params", [0, 1])
def test_early_rasterization_without_parameters(params: int) -> None:
    """README-ISA's "RDNA early rasterization": a store outstanding at the done position
    export is a violation when the shader has no parameter exports (NO_PC_EXPORT), not
    when it has some (the hardware then waits for the wave to end)."""
    from dataclasses import replace

    from radcc.emu.draw.ngg import run_vertex_stage

    vs, _fs = _shaders(32)
    asm = _vs_asm(32).replace("    s_waitcnt_vscnt null, 0x0\n", "")
    outs = vs.vertex.outputs if params else ()
    bad = replace(vs, code=_code(asm, 32), vertex=replace(vs.vertex, outputs=outs))
    pos, col = _scene(np.random.default_rng(2), 3)
    _data, runner = run_vertex_stage(bad, T, Memory(), np.array([[0, 1, 2]]),
                                     np.arange(3, dtype=np.uint32), np.zeros(3, np.uint32),
                                     {0: pos, 1: col}, set(), 0)
    early = [v for v in runner.violations if "early rasterization" in v.message]
    assert bool(early) == (params == 0), runner.violations
