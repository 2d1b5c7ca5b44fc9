"""Vertex shading on NGG (GFX11 `vertex_ngg`): the draw's vertices and primitives in
NGG workgroups of one wave, each wave started with the registers docs/abi.md lists for
a vertex shader ("Vertex shaders on NGG"), and what the waves export and store read
back as the vertices' clip positions, point sizes and attributes.

Grouping (the primitive assembler's job on hardware): primitives in draw order, as many
per wave as fit with their distinct vertices (at most the wave size of each); a
vertex's lane is its first use in the wave. Lane k of the wave is vertex k (``vertex_id``
VGPR: the index buffer's value or the vertex's number, ``instance_id``: the instance)
and primitive k (``gs_vtx_offset0``: the lanes of its vertices in bits 0, 10, 20);
``merged_wave_info`` and ``gs_tg_info`` carry the counts. EXEC starts full.

Memory set up per draw (`VertexSetup`): the vertex-buffer V# table (V# L for location L:
base, stride ``4*C``, num_records N, the 32-bit channel format of the attribute's dtype
and C, identity dst_sel) at an address below 8 GiB (its upper half is
`radcc.abi.graphics.ADDRESS32_HI`); the ring descriptor table whose V# at
`ATTR_RING_DESC_OFFSET` describes the attribute ring linearly: stride ``16 *
param_exports`` bytes per vertex, 16 bytes per parameter, ``gs_attr_offset`` (512-byte
units) the wave's slice of it, so vertex k's parameter p is at
``ring + 512 * gs_attr_offset + k * stride + 16 * p``.

After a wave: ``exp prim`` gives each primitive's vertices (lanes; bit 31 a null
primitive, dropped), ``exp pos0`` each vertex's clip position, the misc vector ``pos1``
(x) its point size when the shader writes one. A wave without a position export with
DONE or without a primitive export is a strict-mode violation (the hardware waits for
them), and so is a store outstanding at the done position export when the shader has no
parameter exports (README-ISA's "RDNA early rasterization": with NO_PC_EXPORT the
hardware rasterizes from that export on; with parameters it waits for the wave's end).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from radcc.abi.args import ArgKind, RegFile
from radcc.abi.graphics import ADDRESS32_HI, ATTR_RING_DESC_OFFSET
from radcc.codeobj.graphics import GraphicsShader
from radcc.emu.draw.state import DrawError
from radcc.emu.draw.waves import GraphicsProgram, WaveRunner
from radcc.emu.graphics import TARGET_POS0, TARGET_PRIM
from radcc.emu.memory import Memory
from radcc.emu.state import Wave
from radcc.target import Target

__all__ = ["VertexData", "run_vertex_stage"]

_FORMATS = {("float32", 1): 22, ("float32", 2): 50, ("float32", 3): 60, ("float32", 4): 63,
            ("uint32", 1): 20, ("uint32", 2): 48, ("uint32", 3): 58, ("uint32", 4): 61,
            ("int32", 1): 21, ("int32", 2): 49, ("int32", 3): 59, ("int32", 4): 62}


def vsharp(base: int, stride: int, num: int, fmt: int = 0) -> bytes:
    """A 16-byte buffer V# (ISA guide, "Buffer Resource"): identity dst_sel."""
    d = (base | stride << 48 | num << 64 | sum(s << (96 + 3 * k) for k, s in
                                              enumerate((4, 5, 6, 7))) | fmt << 108)
    return d.to_bytes(16, "little")


@dataclass
class VertexData:
    """The vertex stage's results: per vertex (V,) in draw order of first use, and the
    primitives as rows of vertex numbers (P, n)."""

    pos: np.ndarray  # (V, 4) float32
    point_size: np.ndarray  # (V,) float32
    ring: np.ndarray  # (V, params, 4) uint32
    prims: np.ndarray  # (P, n) int64
    waves: int
    # (V, clip + cull distances) float32: the position exports after pos0 and the point
    # size, four per export, clip distances first (docs/abi.md "Vertex shaders on NGG")
    distances: np.ndarray | None = None


def _group(prims: np.ndarray, wave: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Primitives (P, n) of vertex keys in waves: [(keys of the wave's vertices, the
    primitives as lanes)]."""
    out = []
    i = 0
    P = len(prims)
    while i < P:
        lanes: dict[int, int] = {}
        rows: list[list[int]] = []
        while i < P and len(rows) < wave:
            new = [v for v in dict.fromkeys(int(x) for x in prims[i]) if v not in lanes]
            if len(lanes) + len(new) > wave:
                break
            for v in new:
                lanes[v] = len(lanes)
            rows.append([lanes[int(x)] for x in prims[i]])
            i += 1
        out.append((np.array(list(lanes), np.int64), np.array(rows, np.int64)))
    return out


def run_vertex_stage(vs: GraphicsShader, target: Target, memory: Memory,
                     prims: np.ndarray, vertex_id: np.ndarray, instance: np.ndarray,
                     attrs: dict[int, np.ndarray], per_instance: set[int],
                     resource_table: int, *, strict: bool = True,
                     max_instructions: int = 50_000_000) -> tuple[VertexData, WaveRunner]:
    """Run the vertex shader over primitives `prims` (P, n) of keys into `vertex_id`
    (the VERTEX_ID value per key) and `instance` (its instance); `attrs[L]` the
    attribute array of location L ((N,) or (N, C), float32/int32/uint32),
    `per_instance` the locations fetched per instance; `resource_table` the address of
    the resource table (0: none)."""
    vst = vs.vertex
    assert vst is not None
    ws = vs.wave_size
    # vertex buffers
    table = bytearray(16 * (max(attrs, default=-1) + 1))
    for inp in vst.inputs:  # the input rates are compiled in (VertexInput.per_instance)
        if inp.location in attrs and (inp.location in per_instance) != inp.per_instance:
            rate = "per instance" if inp.per_instance else "per vertex"
            raise DrawError(f"the vertex shader was compiled to fetch location "
                            f"{inp.location} {rate}; the draw gives it "
                            f"{'per instance' if inp.location in per_instance else 'per vertex'}")
    for loc, arr in attrs.items():
        a = np.ascontiguousarray(arr)
        c = 1 if a.ndim == 1 else a.shape[1]
        reg = memory.map(f"vertex attribute {loc}", a.tobytes(), size=max(a.nbytes, 4))
        table[16 * loc:16 * loc + 16] = vsharp(reg.base, 4 * c, a.shape[0],
                                               _FORMATS[a.dtype.name, c])
    tbl = memory.map("vertex buffer table", bytes(table) or bytes(16))
    if tbl.base >> 32 != ADDRESS32_HI:
        raise DrawError("the vertex buffer table does not fit below 8 GiB")
    params = vst.param_exports
    stride = 16 * max(params, 1)
    groups = _group(prims, ws)
    slice_units = (ws * stride + 511) // 512
    ring = memory.map("attribute ring", bytes(len(groups) * slice_units * 512 or 16))
    rdesc = bytearray(ATTR_RING_DESC_OFFSET + 16)
    rdesc[ATTR_RING_DESC_OFFSET:] = vsharp(ring.base, stride, ws, 0)
    rings = memory.map("ring descriptors", bytes(rdesc))
    runner = WaveRunner(GraphicsProgram("vertex shader", vs.code, ws,
                                        scratch_bytes=vs.scratch_bytes_per_lane),
                        target, memory, strict=strict, max_instructions=max_instructions)
    n = prims.shape[1]
    pos_l: list[np.ndarray] = []
    ps_l: list[np.ndarray] = []
    dist_l: list[np.ndarray] = []
    ndist = vst.clip_distances + vst.cull_distances
    first_dist = TARGET_POS0 + 1 + int(vst.writes_point_size)
    ring_l: list[np.ndarray] = []
    prim_l: list[np.ndarray] = []
    first = 0
    for g, (keys, rows) in enumerate(groups):
        nv, npr = len(keys), len(rows)
        sgpr = {ArgKind.RING_OFFSETS: rings.base, ArgKind.GS_TG_INFO: nv << 12 | npr << 22,
                ArgKind.MERGED_WAVE_INFO: nv | npr << 8, ArgKind.GS_ATTR_OFFSET: g * slice_units,
                ArgKind.VERTEX_BUFFERS: tbl.base & 0xFFFFFFFF,
ArgKind.KERNARG_SEGMENT_PTR: resource_table}
        packed = np.zeros(ws, np.uint32)
        for k in range(n):
            packed[:npr] |= (rows[:, k].astype(np.uint32) << (10 * k))
        vid = np.zeros(ws, np.uint32)
        vid[:nv] = vertex_id[keys]
        iid = np.zeros(ws, np.uint32)
        iid[:nv] = instance[keys]
        vgpr = {ArgKind.GS_VTX_OFFSET0: packed, ArgKind.VERTEX_ID: vid,
                ArgKind.INSTANCE_ID: iid}

        def setup(w: Wave, sgpr: dict = sgpr, vgpr: dict = vgpr) -> None:
            for a in vs.args.of_file(RegFile.SGPR):
                val = sgpr.get(a.kind, 0)
                for k in range(a.size):
                    w.s[a.reg + k] = val >> (32 * k) & 0xFFFFFFFF
            for a in vs.args.of_file(RegFile.VGPR):
                if a.kind in vgpr:
                    w.v[a.reg] = vgpr[a.kind]
        w = runner.run(setup)
        pos = np.zeros((nv, 4), np.float32)
        psz = np.ones(nv, np.float32)
        dist = np.zeros((nv, 4 * ((ndist + 3) // 4)), np.float32)
        got_prim = None
        seen_pos = False
        for e in w.exports:
            if e.target == TARGET_PRIM:
                got_prim = e
            elif e.target == TARGET_POS0:
                seen_pos = True
                pos = e.data[:, :nv].T.copy().view(np.float32)
            elif e.target == TARGET_POS0 + 1 and vst.writes_point_size:
                psz = e.data[0, :nv].copy().view(np.float32)
            elif first_dist <= e.target < first_dist + dist.shape[1] // 4:
                k = 4 * (e.target - first_dist)
                dist[:, k:k + 4] = e.data[:, :nv].T.copy().view(np.float32)
        for e in w.exports:
            if e.store_pending is not None and params == 0:
                op = e.store_pending
                runner.report(w, "waitcnt", f"the position export with done is reached while "
                              f"'{op.text}' at pc {op.pc:#x} is outstanding, and the shader "
                              "has no parameter exports (NO_PC_EXPORT): rasterization and "
                              "pixel waves may start before the store completes (README-ISA, "
                              "'RDNA early rasterization'; s_waitcnt_vscnt null, 0 first)")
        if not seen_pos or not any(e.done and TARGET_POS0 <= e.target < TARGET_POS0 + 5
                                   for e in w.exports):
            runner.report(w, "export", "the NGG wave ended without a position export with "
                          "done")
        if got_prim is None:
            runner.report(w, "export", "the NGG wave ended without a primitive export")
            pd = np.full(npr, 1 << 31, np.uint32)
            plive = np.zeros(npr, bool)
        else:
            pd = got_prim.data[0, :npr]
            plive = got_prim.lanes[:npr]
        live = plive & (pd >> 31 == 0)
        lanes = np.stack([(pd >> (10 * k)) & 0x1FF for k in range(n)], axis=1).astype(np.int64)
        if (lanes[live] >= nv).any():
            raise DrawError(f"vertex shader wave {g}: a primitive export names a lane without "
                            "a vertex")
        base = ring.base + g * slice_units * 512
        raw = np.frombuffer(memory.read(base, nv * stride), np.uint32).reshape(nv, -1, 4)
        pos_l.append(pos)
        ps_l.append(psz)
        dist_l.append(dist[:, :ndist])
        ring_l.append(raw[:, :params].copy())
        prim_l.append(lanes[live] + first)
        first += nv
    data = VertexData(np.concatenate(pos_l) if pos_l else np.zeros((0, 4), np.float32),
                      np.concatenate(ps_l) if ps_l else np.zeros(0, np.float32),
                      np.concatenate(ring_l) if ring_l else np.zeros((0, params, 4), np.uint32),
                      np.concatenate(prim_l) if prim_l else np.zeros((0, n), np.int64),
                      len(groups),
                      np.concatenate(dist_l) if dist_l else np.zeros((0, ndist), np.float32))
    return data, runner
