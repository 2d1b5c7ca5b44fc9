"""Rasterisation: which pixels each primitive covers, grouped in 2x2 quads as the pixel
shader's waves receive them, with the values the hardware computes per lane
(barycentrics, depth, facing).

Triangles follow the interface's rules (lvp_draw, "The exact Vulkan state"): one sample
at the pixel centre, vertices snapped to 1/256 pixel (`radcc.emu.draw.clip`), coverage by
exact integer edge functions, and a centre exactly on an edge covered only when the edge
is a left edge (inward normal with positive x) or a top edge (horizontal, triangle below
it, y down): the top-left rule, so triangles sharing an edge cover each centre on it
once. Degenerate (zero-area after snapping) triangles cover nothing. Facing from the
signed area ``a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i)``: with ``ccw`` front-facing when
``a > 0``. Points are squares of side ``gl_PointSize`` (1 without one) centred on the
vertex, a centre on the left or top side inside, on the right or bottom side outside.
A point's lanes carry ``(1 - s - t, s, t)`` as barycentrics, (s, t) being gl_PointCoord
(the centre's position in the square, upper-left origin). Lines are rectangles one
pixel wide around the segment (Vulkan's strict lines, lavapipe's
``strictLines``), covered by the same rule.

A quad is the 2x2 pixels ``(2qx .. 2qx+1, 2qy .. 2qy+1)``; its lanes are in the order
top-left, top-right, bottom-left, bottom-right (the order the quad DPP controls of
derivatives assume). Every quad with at least one covered pixel is emitted, per
primitive in row-major order, primitives in draw order; the uncovered lanes are helper
lanes. Per lane the linear barycentrics ``(l0, l1, l2)`` (l0 the provoking vertex's
weight) are those of the lane's pixel centre in the unsnapped triangle (float64).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from radcc.emu.draw.clip import ONE, Primitives
from radcc.emu.draw.state import CullMode, FrontFace

__all__ = ["Fragments", "rasterize"]

# lane -> pixel offset inside the quad
LANE_DX = np.array([0, 1, 0, 1], np.int64)
LANE_DY = np.array([0, 0, 1, 1], np.int64)


@dataclass
class Fragments:
    """Quads of the whole draw, in primitive order."""

    prim: np.ndarray  # (Q,) int64: index into the `Primitives` rasterised
    qx: np.ndarray  # (Q,) int64
    qy: np.ndarray  # (Q,) int64
    covered: np.ndarray  # (Q, 4) bool
    bary: np.ndarray  # (Q, 4, 3) float64: linear barycentrics at the lanes' centres
    front: np.ndarray  # (Q,) bool

    @property
    def count(self) -> int:
        return len(self.prim)

    def pixels(self) -> tuple[np.ndarray, np.ndarray]:
        """(x, y) of every lane, (Q, 4) each."""
        return (2 * self.qx[:, None] + LANE_DX[None, :],
                2 * self.qy[:, None] + LANE_DY[None, :])


def _empty() -> Fragments:
    z = np.zeros(0, np.int64)
    return Fragments(z, z, z, np.zeros((0, 4), bool), np.zeros((0, 4, 3)), np.zeros(0, bool))


def _concat(parts: list[Fragments]) -> Fragments:
    if not parts:
        return _empty()
    return Fragments(*(np.concatenate([getattr(p, f) for p in parts])
                       for f in ("prim", "qx", "qy", "covered", "bary", "front")))


def _quad_grid(x0: int, x1: int, y0: int, y1: int) -> tuple[np.ndarray, np.ndarray]:
    """The quads covering pixels x0..x1, y0..y1 (inclusive), row-major."""
    qy, qx = np.mgrid[y0 // 2:y1 // 2 + 1, x0 // 2:x1 // 2 + 1]
    return qx.ravel().astype(np.int64), qy.ravel().astype(np.int64)


def _triangles(prims: Primitives, width: int, height: int, cull: CullMode,
               front_face: FrontFace) -> Fragments:
    parts: list[Fragments] = []
    for t in range(prims.count):
        v = prims.xy[t]  # (3, 2) int64
        x, y = [int(c) for c in v[:, 0]], [int(c) for c in v[:, 1]]
        area2 = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0])
        if area2 == 0:
            continue
        front = (area2 < 0) == (front_face is FrontFace.CCW)
        if (cull is CullMode.BACK and not front) or (cull is CullMode.FRONT and front):
            continue
        # pixels whose centre may be inside: centre = 256 p + 128
        px0 = max(0, -((128 - min(x)) // ONE))
        px1 = min(width - 1, (max(x) - 128) // ONE)
        py0 = max(0, -((128 - min(y)) // ONE))
        py1 = min(height - 1, (max(y) - 128) // ONE)
        if px0 > px1 or py0 > py1:
            continue
        qx, qy = _quad_grid(px0, px1, py0, py1)
        X = (2 * qx[:, None] + LANE_DX) * ONE + ONE // 2  # (Q, 4) centres, fixed point
        Y = (2 * qy[:, None] + LANE_DY) * ONE + ONE // 2
        s = 1 if area2 > 0 else -1
        inside = (X >= 0) & (X < width * ONE) & (Y >= 0) & (Y < height * ONE)
        E = np.empty((3,) + X.shape, np.int64)
        for i in range(3):
            a, b = (i + 1) % 3, (i + 2) % 3
            dx, dy = x[b] - x[a], y[b] - y[a]
            E[i] = dx * (Y - y[a]) - dy * (X - x[a])
            top_left = (s * dy < 0) or (dy == 0 and s * dx > 0)
            e = s * E[i]
            inside &= (e > 0) | ((e == 0) if top_left else False)
        live = inside.any(axis=1)
        if not live.any():
            continue
        bary = _bary(prims.xyf[t], X[live], Y[live])
        if bary is None:
            bary = np.moveaxis(E[:, live].astype(np.float64) / area2, 0, -1)
        n = int(live.sum())
        parts.append(Fragments(np.full(n, t, np.int64), qx[live], qy[live], inside[live],
                               bary, np.full(n, front)))
    return _concat(parts)


def _bary(v: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray | None:
    """Linear barycentrics (Q, 4, 3) at fixed-point centres (X, Y) of the unsnapped
    triangle `v` (3, 2) (None if it is degenerate)."""
    x, y = v[:, 0], v[:, 1]
    px, py = X / ONE, Y / ONE
    area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0])
    if area == 0 or not np.isfinite(area):
        return None
    out = np.empty(X.shape + (3,))
    for i in range(3):
        a, b = (i + 1) % 3, (i + 2) % 3
        out[..., i] = ((x[b] - x[a]) * (py - y[a]) - (y[b] - y[a]) * (px - x[a])) / area
    return out


def _cover(vx: list[int], vy: list[int], X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Centres (X, Y) (fixed point) inside triangle (vx, vy) by the top-left rule."""
    area2 = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vy[1] - vy[0]) * (vx[2] - vx[0])
    if area2 == 0:
        return np.zeros(X.shape, bool)
    s = 1 if area2 > 0 else -1
    inside = np.ones(X.shape, bool)
    for i in range(3):
        a, b = (i + 1) % 3, (i + 2) % 3
        dx, dy = vx[b] - vx[a], vy[b] - vy[a]
        e = s * (dx * (Y - vy[a]) - dy * (X - vx[a]))
        top_left = (s * dy < 0) or (dy == 0 and s * dx > 0)
        inside &= (e > 0) | ((e == 0) if top_left else False)
    return inside


def _lines(prims: Primitives, width: int, height: int, front: np.ndarray | None) -> Fragments:
    """Lines of width 1 as rectangles (Vulkan's strict lines): the segment widened by
    half a pixel on each side, covered by the top-left rule as two triangles; a lane's
    weights are ``(1 - t, t, 0)`` with t its centre's projection on the segment."""
    parts: list[Fragments] = []
    for t in range(prims.count):
        (x0, y0), (x1, y1) = (prims.xy[t, k].astype(np.float64) for k in range(2))
        dx, dy = x1 - x0, y1 - y0
        length = float(np.hypot(dx, dy))
        if length == 0:
            continue
        nx, ny = -dy / length * ONE / 2, dx / length * ONE / 2
        corners = [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny),
                   (x0 - nx, y0 - ny)]
        cx = [int(np.floor(c[0] + 0.5)) for c in corners]
        cy = [int(np.floor(c[1] + 0.5)) for c in corners]
        px0 = max(0, -((128 - min(cx)) // ONE))
        px1 = min(width - 1, (max(cx) - 128) // ONE)
        py0 = max(0, -((128 - min(cy)) // ONE))
        py1 = min(height - 1, (max(cy) - 128) // ONE)
        if px0 > px1 or py0 > py1:
            continue
        qx, qy = _quad_grid(px0, px1, py0, py1)
        X = (2 * qx[:, None] + LANE_DX) * ONE + ONE // 2
        Y = (2 * qy[:, None] + LANE_DY) * ONE + ONE // 2
        inside = (_cover([cx[0], cx[1], cx[2]], [cy[0], cy[1], cy[2]], X, Y)
                  | _cover([cx[0], cx[2], cx[3]], [cy[0], cy[2], cy[3]], X, Y))
        inside &= (X < width * ONE) & (Y < height * ONE)
        live = inside.any(axis=1)
        if not live.any():
            continue
        tt = ((X[live] - x0) * dx + (Y[live] - y0) * dy) / (length * length)
        tt = np.clip(tt, 0.0, 1.0)
        bary = np.stack([1.0 - tt, tt, np.zeros_like(tt)], axis=-1)
        n = int(live.sum())
        f = True if front is None else bool(front[t])
        parts.append(Fragments(np.full(n, t, np.int64), qx[live], qy[live], inside[live],
                               bary, np.full(n, f)))
    return _concat(parts)


def _points(prims: Primitives, width: int, height: int) -> Fragments:
    parts: list[Fragments] = []
    for t in range(prims.count):
        cx, cy = (int(c) for c in prims.xy[t, 0])
        half = float(prims.point_size[t, 0]) * ONE / 2
        lo_x, hi_x, lo_y, hi_y = cx - half, cx + half, cy - half, cy + half
        px0 = max(0, int(np.ceil((lo_x - 128) / ONE)))
        px1 = min(width - 1, int(np.ceil((hi_x - 128) / ONE)) - 1)
        py0 = max(0, int(np.ceil((lo_y - 128) / ONE)))
        py1 = min(height - 1, int(np.ceil((hi_y - 128) / ONE)) - 1)
        if px0 > px1 or py0 > py1:
            continue
        qx, qy = _quad_grid(px0, px1, py0, py1)
        X = (2 * qx[:, None] + LANE_DX) * ONE + ONE // 2
        Y = (2 * qy[:, None] + LANE_DY) * ONE + ONE // 2
        inside = (X >= lo_x) & (X < hi_x) & (Y >= lo_y) & (Y < hi_y) & (X < width * ONE) \
            & (Y < height * ONE)
        live = inside.any(axis=1)
        n = int(live.sum())
        size = max(2 * half, 1e-30)
        ps = (X[live] - lo_x) / size  # gl_PointCoord (upper-left origin)
        pt = (Y[live] - lo_y) / size
        bary = np.stack([1.0 - ps - pt, ps, pt], axis=-1)
        parts.append(Fragments(np.full(n, t, np.int64), qx[live], qy[live], inside[live],
                               bary, np.ones(n, bool)))
    return _concat(parts)


def facing(prims: Primitives, front_face: FrontFace) -> np.ndarray:
    """(P,) bool: whether each triangle is front-facing (module docstring)."""
    x, y = prims.xy[..., 0], prims.xy[..., 1]
    area2 = (x[:, 1] - x[:, 0]) * (y[:, 2] - y[:, 0]) - (y[:, 1] - y[:, 0]) * (x[:, 2] - x[:, 0])
    return (area2 < 0) == (front_face is FrontFace.CCW)


def rasterize(prims: Primitives, width: int, height: int, cull: CullMode = CullMode.NONE,
              front_face: FrontFace = FrontFace.CCW,
              line_front: np.ndarray | None = None) -> Fragments:
    """The quads `prims` cover (triangles, lines or points); `line_front` the facing of
    lines drawn for polygon mode line (their triangle's)."""
    n = prims.xy.shape[1] if prims.xy.ndim == 3 else 3
    if prims.count == 0:
        return _empty()
    if n == 3:
        return _triangles(prims, width, height, cull, front_face)
    if n == 2:
        return _lines(prims, width, height, line_front)
    return _points(prims, width, height)
