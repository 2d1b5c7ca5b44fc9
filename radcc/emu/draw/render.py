"""A whole draw in the emulator: the vertex shader's NGG waves (`ngg`), the fixed
function (`pipeline`), the fragment shader's pixel waves (`ps`), on one `Memory` whose
resource tables the caller built (`radcc.emu.api.build_kernarg`).

Vertices: without an index buffer instance i's vertex s is key ``i * count + s``
(``vertex_id`` s); with one, key ``i * (max + 1) + index[s]`` (``vertex_id``
index[s]), so a vertex the index buffer names twice is shaded once per instance, as a
vertex cache would. Primitives: `radcc.emu.draw.assembly` per instance, instances in
order. Linking: the pixel shader's input attribute a reads the vertex shader's output of
the same location (its attribute ring parameter); the write mask of colour location L
is the components of the pixel shader's output L.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from radcc.codeobj.graphics import GraphicsShader
from radcc.emu.draw.assembly import assemble
from radcc.emu.draw.ngg import run_vertex_stage
from radcc.emu.draw.output import Framebuffer
from radcc.emu.draw.pipeline import DrawStats, VertexOutputs, draw
from radcc.emu.draw.ps import PixelStageRunner
from radcc.emu.draw.state import DrawError, DrawState
from radcc.emu.memory import Memory
from radcc.emu.strict import Violation
from radcc.target import Target

__all__ = ["RenderResult", "render"]


@dataclass
class RenderResult:
    framebuffer: Framebuffer
    stats: DrawStats
    violations: list[Violation]
    vertex_waves: int = 0
    pixel_waves: int = 0
    instructions: int = 0
    extra: dict[str, int] = field(default_factory=dict)


def render(vs: GraphicsShader, fs: GraphicsShader, state: DrawState, target: Target,
           memory: Memory, *, count: int, instances: int, attrs: dict[int, np.ndarray],
           inst_attrs: dict[int, np.ndarray], index: np.ndarray | None,
           vs_table: int = 0, fs_table: int = 0, strict: bool = True,
           max_instructions: int = 50_000_000) -> RenderResult:
    """Run one draw (module docstring); `vs_table`/`fs_table` the stages' resource table
    addresses. The inputs are checked by the caller (`radcc.driver.draw`)."""
    vst, pst = vs.vertex, fs.pixel
    if vst is None or pst is None:
        raise DrawError("render needs a vertex shader and a fragment shader code object")
    positions = assemble(state.topology, count)
    if index is not None:
        ids = np.asarray(index[:count], np.int64)
        span = int(ids.max()) + 1 if len(ids) else 1
    else:
        ids = np.arange(count, dtype=np.int64)
        span = count
    keys = [i * span + ids[positions] for i in range(instances)]
    prims = np.concatenate(keys) if keys else np.zeros((0, positions.shape[1]), np.int64)
    vertex_id = np.tile(np.arange(span, dtype=np.uint32), instances) if index is not None \
        else np.tile(np.arange(count, dtype=np.uint32), instances)
    instance = np.repeat(np.arange(instances, dtype=np.uint32), span)
    all_attrs = {**attrs, **inst_attrs}
    fb = Framebuffer(state, _masks(fs))
    res = RenderResult(fb, DrawStats(), [])
    if len(prims) == 0:
        return res
    vd, vrun = run_vertex_stage(vs, target, memory, prims, vertex_id, instance, all_attrs,
                                set(inst_attrs), vs_table, strict=strict,
                                max_instructions=max_instructions)
    param = {o.location: o.param for o in vst.outputs}
    ins = sorted(pst.inputs, key=lambda i: i.attr)
    A = len(ins)
    fs_attrs = np.zeros((len(vd.pos), A, 4), np.uint32)
    for a, inp in enumerate(ins):
        if inp.location in param:
            fs_attrs[:, a] = vd.ring[:, param[inp.location]]
        elif inp.location >= 0:
            raise DrawError(f"stage mismatch: the fragment shader reads location "
                            f"{inp.location}, which the vertex shader does not write")
    flat = np.array([i.flat for i in ins], bool)
    kind = state.color.kind
    ps = PixelStageRunner(fs, target, memory, kind, fs_table, strict=strict,
                          max_instructions=max_instructions)
    fb, stats = draw(state, VertexOutputs(vd.pos, fs_attrs, vd.point_size, vd.distances,
                                             vst.clip_distances), vd.prims, flat,
                     _masks(fs), ps)
    res.framebuffer, res.stats = fb, stats
    res.violations = vrun.violations + ps.runner.violations
    res.vertex_waves = vrun.waves
    res.pixel_waves = ps.runner.waves
    res.instructions = vrun.counters().instructions + ps.runner.counters().instructions
    return res


def _masks(fs: GraphicsShader) -> list[tuple[bool, ...] | None]:
    pst = fs.pixel
    assert pst is not None
    outs = {o.location: o.components for o in pst.outputs}
    return [tuple(c < outs[loc] for c in range(4)) if loc in outs else None
            for loc in range(max(outs, default=-1) + 1)]
