"""Clipping, the perspective divide, the viewport transform and sub-pixel snapping.

Primitives are clipped in clip space against the depth planes ``0 <= z <= w`` (depth
clip on, depth clamp off: the interface's state), which also removes everything with
``w <= 0``, and against a guard band ``|x|, |y| <= G * w`` far outside the viewport
(`guard_band`): it changes no covered pixel and keeps every snapped coordinate small
enough for the rasteriser's exact int64 edge functions. A triangle crossing a plane
becomes a convex polygon, split into a fan of triangles whose first vertex is the
polygon's first; new vertices interpolate position and attributes linearly in clip space
(which is perspective-correct once divided), flat attributes keep the provoking vertex's
bits. The clip distances (``gl_ClipDistance``) are further half-spaces ``d_i >= 0``,
interpolated linearly along the edges with the position (Vulkan: a primitive is clipped
where a clip distance is negative; a point with one negative is dropped).

The viewport is ``(0, 0, W, H)``, depth ``0..1``: ``xf = (x/w + 1) W/2``,
``yf = (y/w + 1) H/2`` (row 0 at the top), ``zf = z/w``; ``xf, yf`` are snapped to
1/256 pixel (`SUBPIXEL_BITS`, lavapipe's subPixelPrecisionBits), rounding to nearest,
for coverage; interpolation (barycentrics, depth) uses the unsnapped positions, as
lavapipe does (its depth differs from a plane through snapped vertices by up to the
plane's slope times 1/512 pixel).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["SUBPIXEL_BITS", "Primitives", "clip_and_project", "guard_band"]

SUBPIXEL_BITS = 8
ONE = 1 << SUBPIXEL_BITS


@dataclass
class Primitives:
    """Clipped primitives in framebuffer space, `n` vertices each (3, 2 or 1)."""

    prim: np.ndarray  # (P,) int64: the draw's primitive each came from
    xy: np.ndarray  # (P, n, 2) int64: snapped framebuffer position, 1/256 pixel units
    z: np.ndarray  # (P, n) float64: zf
    inv_w: np.ndarray  # (P, n) float64: 1 / w_clip
    attrs: np.ndarray  # (P, n, A, 4) uint32: the vertices' attribute bits
    point_size: np.ndarray  # (P, n) float64 (1.0 where the shader writes none)
    xyf: np.ndarray  # (P, n, 2) float64: framebuffer position before snapping

    @property
    def count(self) -> int:
        return len(self.prim)


def guard_band(width: int, height: int) -> float:
    """G with ``|xf|, |yf| < 2**30`` snapped units inside it: 2 * G * max(W, H) * 128
    < 2**30, so the edge functions of `radcc.emu.draw.raster` stay below 2**62."""
    return float(max(2.0, (1 << 30) / (ONE * max(width, height)) - 1.0))


def _planes(g: float) -> np.ndarray:
    """Clip planes as coefficients on (x, y, z, w): inside where the dot product >= 0."""
    return np.array([[0, 0, 1, 0], [0, 0, -1, 1],
                     [-1, 0, 0, g], [1, 0, 0, g], [0, -1, 0, g], [0, 1, 0, g]], np.float64)


def _clip_polygon(pos: np.ndarray, att: np.ndarray, planes: np.ndarray, closed: bool
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Sutherland-Hodgman on one polygon (`closed`) or segment: vertices (k, 4) float64 and
    their attributes (k, A*4) float64."""
    for pl in planes:
        d = pos @ pl
        if (d >= 0).all():
            continue
        if (d < 0).all() or len(pos) == 0:
            return pos[:0], att[:0]
        out_p: list[np.ndarray] = []
        out_a: list[np.ndarray] = []
        k = len(pos)
        edges = range(k) if closed else range(k - 1)
        if not closed and d[0] >= 0:
            out_p.append(pos[0])
            out_a.append(att[0])
        for a in edges:
            b = (a + 1) % k
            if closed and d[a] >= 0:
                out_p.append(pos[a])
                out_a.append(att[a])
            if (d[a] >= 0) != (d[b] >= 0):
                t = d[a] / (d[a] - d[b])
                out_p.append(pos[a] + t * (pos[b] - pos[a]))
                out_a.append(att[a] + t * (att[b] - att[a]))
            if not closed and d[b] >= 0:
                out_p.append(pos[b])
                out_a.append(att[b])
        pos, att = np.array(out_p), np.array(out_a)
    return pos, att


def clip_and_project(prim: np.ndarray, pos: np.ndarray, attrs: np.ndarray,
                     point_size: np.ndarray, flat: np.ndarray, width: int, height: int,
                     clip_distances: np.ndarray | None = None,
                     numbers: np.ndarray | None = None) -> Primitives:
    """Clip the primitives `prim` (P, n) (vertex numbers into `pos` (V, 4) float32 clip
    positions, `attrs` (V, A, 4) uint32 attribute bits, `point_size` (V,),
    `clip_distances` (V, C) float32 or None), `flat` (A,) the attributes interpolated
    flat; divide, map to the viewport, snap. `numbers` (P,): the draw's primitive number
    of each row (default: the row)."""
    n = prim.shape[1] if prim.ndim == 2 else 1
    A = attrs.shape[1]
    g = guard_band(width, height)
    planes = _planes(g)
    pos = np.asarray(pos, np.float64)
    if clip_distances is not None and clip_distances.shape[1]:
        # the distances as extra coordinates, each a half-space on its own column
        C = clip_distances.shape[1]
        pos = np.concatenate([pos, np.asarray(clip_distances, np.float64)], axis=1)
        planes = np.block([[planes, np.zeros((len(planes), C))],
                           [np.zeros((C, 4)), np.eye(C)]])
    P = pos[prim]  # (P, n, 4 + C)
    d = P @ planes.T  # (P, n, planes)
    inside = (d >= 0).all(axis=(1, 2))
    culled = (d < 0).all(axis=1).any(axis=1)
    number = np.arange(len(P)) if numbers is None else np.asarray(numbers, np.int64)
    keep_prim = [number[inside]]
    keep_pos = [P[inside]]
    keep_att = [attrs[prim[inside]]]
    keep_ps = [np.asarray(point_size, np.float64)[prim[inside]]]
    todo = np.flatnonzero(~inside & ~culled)
    if n == 1:
        todo = todo[:0]  # a point is kept or dropped whole (by its position)
    fl = np.repeat(np.asarray(flat, bool), 4)
    ex_prim: list[int] = []
    ex_pos: list[np.ndarray] = []
    ex_att: list[np.ndarray] = []
    ex_ps: list[np.ndarray] = []
    for p in todo:
        vs = prim[p]
        a_bits = attrs[vs].reshape(n, A * 4)
        a_f = a_bits.view(np.float32).astype(np.float64)
        ps = np.asarray(point_size, np.float64)[vs]
        cp, ca = _clip_polygon(P[p], np.concatenate([a_f, ps[:, None]], axis=1), planes,
                               closed=n == 3)
        if len(cp) < n:
            continue
        bits = ca[:, :-1].astype(np.float32).view(np.uint32)
        bits[:, fl] = a_bits[0, fl]  # flat: the provoking vertex's bits
        # original vertices keep their exact bits
        for k in range(len(cp)):
            for j in range(n):
                if np.array_equal(cp[k], P[p][j]):
                    bits[k] = a_bits[j]
        tris = [(0, k, k + 1) for k in range(1, len(cp) - 1)] if n == 3 else [(0, 1)]
        for t in tris:
            ex_prim.append(int(number[p]))
            ex_pos.append(cp[list(t)])
            ex_att.append(bits[list(t)].reshape(n, A, 4))
            ex_ps.append(ca[list(t), -1])
    if ex_prim:
        keep_prim.append(np.array(ex_prim, np.int64))
        keep_pos.append(np.array(ex_pos))
        keep_att.append(np.array(ex_att, np.uint32))
        keep_ps.append(np.array(ex_ps))
    order_prim = np.concatenate(keep_prim)
    order = np.argsort(order_prim, kind="stable")  # primitive order (clipped ones inline)
    total = len(order_prim)
    cpos = np.concatenate(keep_pos).reshape(total, n, P.shape[2])[order][..., :4]
    catt = np.concatenate(keep_att).reshape(total, n, A, 4)[order]
    cps = np.concatenate(keep_ps).reshape(total, n)[order]
    w = cpos[..., 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        inv_w = 1.0 / w
        xf = (cpos[..., 0] * inv_w + 1.0) * (width / 2.0)
        yf = (cpos[..., 1] * inv_w + 1.0) * (height / 2.0)
        zf = cpos[..., 2] * inv_w
    xy = np.stack([np.floor(xf * ONE + 0.5), np.floor(yf * ONE + 0.5)], axis=-1)
    xy = np.nan_to_num(xy, nan=0.0, posinf=0.0, neginf=0.0).astype(np.int64)
    return Primitives(order_prim[order], xy, zf, inv_w, catt, cps, np.stack([xf, yf], -1))
