"""One draw through the fixed-function pipeline: primitive assembly, clipping, the
viewport, rasterisation, pixel shading (a callback: the emulator's PS waves, or a NumPy
model in tests), the output merger.

`draw` takes what the vertex stage produced for every vertex of the draw (clip
position, attribute bits, point size) and returns the attachments. The per-lane values a
pixel shader needs (`LaneInputs`: perspective and linear barycentrics, fragment
position, depth, facing) are computed here, once, from the rasteriser's barycentrics:
perspective-correct weights ``l_i / w_i / sum(l_j / w_j)``; ``I``, ``J`` are the weights
of the primitive's second and third vertex (the provoking vertex is the first);
``gl_FragCoord`` is the pixel centre, ``zf`` interpolated linearly in screen space and
``1/w`` interpolated linearly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from radcc.emu.draw.assembly import assemble
from radcc.emu.draw.clip import Primitives, clip_and_project
from radcc.emu.draw.output import Framebuffer
from radcc.emu.draw.raster import Fragments, facing, rasterize
from radcc.emu.draw.state import CullMode, DrawState, PolygonMode

__all__ = ["DrawStats", "LaneInputs", "Shaded", "VertexOutputs", "draw", "lane_inputs",
           "interpolate"]


@dataclass
class VertexOutputs:
    """The vertex stage's results for the vertices of the draw."""

    pos: np.ndarray  # (V, 4) float32 clip-space position
    attrs: np.ndarray  # (V, A, 4) uint32 attribute (parameter) bits
    point_size: np.ndarray  # (V,) float32 (1.0 where the shader writes none)
    # (V, D) float32: gl_ClipDistance[0..clip-1] then gl_CullDistance (None: none)
    distances: np.ndarray | None = None
    clip: int = 0  # how many of `distances` are clip distances

    def cull_mask(self, prim_vertices: np.ndarray) -> np.ndarray:
        """(P,) bool: the primitives a cull distance removes (Vulkan: all of a
        primitive's vertices negative in the same cull distance)."""
        d = self.distances
        if d is None or d.shape[1] <= self.clip or not len(prim_vertices):
            return np.zeros(len(prim_vertices), bool)
        pv = prim_vertices if prim_vertices.ndim == 2 else prim_vertices[:, None]
        cull = d[:, self.clip:][pv]  # (P, n, cull)
        return (cull < 0).all(axis=1).any(axis=1)


@dataclass
class LaneInputs:
    """What the hardware computes for every lane of every quad (Q, 4)."""

    x: np.ndarray  # int64 pixel
    y: np.ndarray
    persp: np.ndarray  # (Q, 4, 3) float64 perspective-correct weights
    linear: np.ndarray  # (Q, 4, 3) float64
    z: np.ndarray  # float64 zf
    inv_w: np.ndarray  # float64 interpolated 1/w (gl_FragCoord.w)
    front: np.ndarray  # (Q,) bool


@dataclass
class Shaded:
    """The pixel shader's results per lane (Q, 4): which lanes export, their depth (None:
    the interpolated depth) and the colour channel values per location (None: no
    export; `radcc.emu.draw.output.decode_export`'s values)."""

    alive: np.ndarray  # (Q, 4) bool
    colors: list[np.ndarray | None]  # (Q, 4, 4) per location
    z: np.ndarray | None = None  # (Q, 4)


@dataclass
class DrawStats:
    primitives: int = 0  # primitives assembled
    clipped: int = 0  # primitives after clipping (fans counted per triangle)
    quads: int = 0
    fragments: int = 0  # covered lanes
    pixels: int = 0  # fragments written (passing the depth test)
    extra: dict[str, int] = field(default_factory=dict)


def lane_inputs(prims: Primitives, frags: Fragments) -> LaneInputs:
    x, y = frags.pixels()
    lin = frags.bary
    iw = prims.inv_w[frags.prim]  # (Q, n)
    zv = prims.z[frags.prim]
    n = iw.shape[1]
    if n == 1:  # points: the weights are gl_PointCoord's (raster), z and w constant
        return LaneInputs(x, y, lin, lin, np.repeat(zv, 4, axis=1),
                          np.repeat(iw, 4, axis=1), frags.front)
    lin = lin[..., :n]
    with np.errstate(invalid="ignore", divide="ignore"):
        pw = lin * iw[:, None, :]
        s = pw.sum(axis=-1, keepdims=True)
        persp = np.where(s != 0, pw / s, lin)
    z = (lin * zv[:, None, :]).sum(axis=-1)
    inv_w = (lin * iw[:, None, :]).sum(axis=-1)
    if n < 3:
        pad = np.zeros(lin.shape[:-1] + (3 - n,))
        lin, persp = np.concatenate([lin, pad], -1), np.concatenate([persp, pad], -1)
    return LaneInputs(x, y, persp, lin, z, inv_w, frags.front)


def interpolate(prims: Primitives, frags: Fragments, weights: np.ndarray,
                flat: np.ndarray) -> np.ndarray:
    """Attribute values per lane (Q, 4, A, 4) as float32 bits (uint32): the vertices'
    attributes weighted by `weights` (Q, 4, 3), flat ones the provoking vertex's bits
    (the reference the LDS parameters and v_interp are checked against)."""
    a = prims.attrs[frags.prim]  # (Q, n, A, 4)
    n = a.shape[1]
    f = a.view(np.float32).astype(np.float64)
    v = np.einsum("qln,qnac->qlac", weights[..., :n], f).astype(np.float32).view(np.uint32)
    fl = np.asarray(flat, bool)
    v[:, :, fl] = a[:, None, 0][:, :, fl]
    return v


def draw(state: DrawState, verts: VertexOutputs, prim_vertices: np.ndarray,
         flat: np.ndarray, masks: list[tuple[bool, ...] | None],
         shade: Callable[[Primitives, Fragments, LaneInputs], Shaded]
         ) -> tuple[Framebuffer, DrawStats]:
    """Run the fixed function over primitives `prim_vertices` (P, n) (rows of vertex
    numbers into `verts`, the provoking vertex first; `radcc.emu.draw.assembly`), `flat`
    (A,) the attributes the pixel shader reads flat, `masks` the colour outputs' write
    masks per location; `shade` runs the pixel shader over all quads."""
    stats = DrawStats(primitives=len(prim_vertices))
    keep = ~verts.cull_mask(prim_vertices)
    clip = None if verts.distances is None else verts.distances[:, :verts.clip]
    prims = clip_and_project(prim_vertices[keep], verts.pos, verts.attrs, verts.point_size,
                             flat, state.width, state.height, clip,
                             np.flatnonzero(keep))
    line_front = None
    if state.polygon is PolygonMode.LINE and prims.xy.shape[1] == 3:
        prims, line_front = _edges(prims, state, flat)
    stats.clipped = prims.count
    frags = rasterize(prims, state.width, state.height, state.cull, state.front_face,
                      line_front)
    fb = Framebuffer(state, masks)
    stats.quads = frags.count
    stats.fragments = int(frags.covered.sum())
    if frags.count == 0:
        return fb, stats
    li = lane_inputs(prims, frags)
    res = shade(prims, frags, li)
    alive = res.alive & frags.covered
    sel = alive.ravel()
    z = (res.z if res.z is not None else li.z).reshape(-1)[sel]
    colors = [None if c is None else c.reshape(-1, 4)[sel] for c in res.colors]
    stats.pixels = fb.merge(li.x.reshape(-1)[sel], li.y.reshape(-1)[sel], z, colors)
    return fb, stats


def _edges(tris: Primitives, state: DrawState, flat: np.ndarray
           ) -> tuple[Primitives, np.ndarray]:
    """Polygon mode line: the edges of the (clipped, projected) triangles that survive
    culling, as lines with their triangle's facing; flat attributes keep the triangle's
    provoking vertex."""
    front = facing(tris, state.front_face)
    keep = np.ones(tris.count, bool)
    if state.cull is CullMode.BACK:
        keep = front
    elif state.cull is CullMode.FRONT:
        keep = ~front
    idx = np.flatnonzero(keep)
    order = np.array([[0, 1], [1, 2], [2, 0]])
    sel = (idx[:, None, None], order[None])

    def e(a: np.ndarray) -> np.ndarray:
        return a[sel].reshape((-1, 2) + a.shape[2:])
    attrs = e(tris.attrs)
    fl = np.asarray(flat, bool)
    attrs[:, :, fl] = np.repeat(tris.attrs[idx, 0][:, None, fl], 3, axis=0)
    return (Primitives(np.repeat(tris.prim[idx], 3), e(tris.xy), e(tris.z), e(tris.inv_w),
                       attrs, e(tris.point_size), e(tris.xyf)), np.repeat(front[idx], 3))


def primitives_of(state: DrawState, count: int) -> np.ndarray:
    """The draw's primitives as positions in its vertex sequence (`assemble`)."""
    return assemble(state.topology, count)

