"""NumPy models of the draw rules of the lavapipe runner's README (lvp_draw): the
viewport transform, coverage by the top-left rule at pixel centres with 8 sub-pixel
bits, perspective-correct / linear / flat interpolation, float -> unorm8 conversion,
alpha blending, and llvmpipe's 8-bit fixed-point bilinear filter. Independent of
radcc and of lavapipe: the references both renderers are checked against.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

SUB_PIXEL_BITS = 8


def to_framebuffer(clip: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(N, 4) clip-space positions -> (N, 3) framebuffer (xf, yf, zf): viewport (0, 0, W,
    H), depth 0..1."""
    w, h = size
    c = np.asarray(clip, np.float64)
    ndc = c[:, :3] / c[:, 3:4]
    return np.stack([(ndc[:, 0] + 1) * w / 2, (ndc[:, 1] + 1) * h / 2, ndc[:, 2]], axis=1)


def triangles(topology: str, n: int) -> list[tuple[int, int, int]]:
    """Vertex numbers of each triangle of a draw of n vertices, in Vulkan's order (the
    provoking vertex, the first, first)."""
    if topology == "triangle-list":
        return [(i, i + 1, i + 2) for i in range(0, n - 2, 3)]
    if topology == "triangle-strip":
        return [(i, i + 1, i + 2) if i % 2 == 0 else (i, i + 2, i + 1) for i in range(n - 2)]
    if topology == "triangle-fan":
        return [(i + 1, i + 2, 0) for i in range(n - 2)]
    raise ValueError(topology)


def _snap(p: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(p, np.float64) * (1 << SUB_PIXEL_BITS)).astype(np.int64)


def signed_area(fb: np.ndarray) -> float:
    """Vulkan's a = -1/2 sum(x_i y_{i+1} - x_{i+1} y_i) of a triangle in framebuffer
    coordinates (> 0: counter-clockwise on the image, front-facing with ccw)."""
    x, y = fb[:, 0], fb[:, 1]
    return float(-0.5 * sum(x[i] * y[(i + 1) % 3] - x[(i + 1) % 3] * y[i] for i in range(3)))


def coverage(fb: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(H, W) bool: the pixel centres one triangle (3 framebuffer points) covers, by the
    top-left rule on positions snapped to 1/256 pixel (exact integer edge functions)."""
    w, h = size
    v = _snap(fb[:, :2])
    a, b, c = v
    area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    if area == 0:
        return np.zeros((h, w), bool)
    if area < 0:
        b, c = c, b
    one = 1 << SUB_PIXEL_BITS
    ys, xs = np.mgrid[0:h, 0:w]
    px = xs.astype(np.int64) * one + one // 2
    py = ys.astype(np.int64) * one + one // 2
    inside = np.ones((h, w), bool)
    for p, q in ((a, b), (b, c), (c, a)):
        dx, dy = q[0] - p[0], q[1] - p[1]
        e = dx * (py - p[1]) - dy * (px - p[0])
        # inward normal (-dy, dx): left edge when -dy > 0, top edge when horizontal, dx > 0
        tie = dy < 0 or (dy == 0 and dx > 0)
        inside &= (e > 0) | ((e == 0) & tie)
    return inside


def barycentrics(fb: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(H, W, 3) screen-space barycentrics of each pixel centre (float64)."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w]
    px, py = xs + 0.5, ys + 0.5
    (x0, y0), (x1, y1), (x2, y2) = fb[:, 0:2]
    det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    l1 = ((px - x0) * (y2 - y0) - (x2 - x0) * (py - y0)) / det
    l2 = ((x1 - x0) * (py - y0) - (px - x0) * (y1 - y0)) / det
    return np.stack([1 - l1 - l2, l1, l2], axis=-1)


def interpolate(values: np.ndarray, lam: np.ndarray, w: Sequence[float] | None = None
                ) -> np.ndarray:
    """(3, C) vertex values at (H, W, 3) barycentrics: perspective-correct with the
    vertices' clip w, linear (noperspective) without."""
    lam = np.asarray(lam, np.float64)
    if w is not None:
        lam = lam / np.asarray(w, np.float64)
        lam = lam / lam.sum(axis=-1, keepdims=True)
    return lam @ np.asarray(values, np.float64)


def unorm8(x: np.ndarray) -> np.ndarray:
    """Vulkan's float -> UNORM8: round(clamp(x, 0, 1) * 255)."""
    return np.round(np.clip(np.asarray(x, np.float64), 0, 1) * 255).astype(np.uint8)


def blend_alpha(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """out = src * src.a + dst * (1 - src.a), every channel including alpha (floats)."""
    src = np.asarray(src, np.float64)
    a = src[..., 3:4]
    return src * a + np.asarray(dst, np.float64) * (1 - a)


def bilinear_unorm8(tex: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """llvmpipe's bilinear filter of an (H, W, C) uint8 texture, clamp to edge, in 8-bit
    fixed point: weights round(frac * 256), lerps a + (((b - a) * w + 128) >> 8)."""
    th, tw = tex.shape[:2]
    t = tex.astype(np.int64)
    x = np.asarray(u, np.float64) * tw - 0.5
    y = np.asarray(v, np.float64) * th - 0.5
    i, j = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    wx = np.round((x - i) * 256).astype(np.int64)[..., None]
    wy = np.round((y - j) * 256).astype(np.int64)[..., None]
    i0, i1 = np.clip(i, 0, tw - 1), np.clip(i + 1, 0, tw - 1)
    j0, j1 = np.clip(j, 0, th - 1), np.clip(j + 1, 0, th - 1)

    def lerp(a: np.ndarray, b: np.ndarray, wt: np.ndarray) -> np.ndarray:
        return a + (((b - a) * wt + 128) >> 8)

    top = lerp(t[j0, i0], t[j0, i1], wx)
    bottom = lerp(t[j1, i0], t[j1, i1], wx)
    return lerp(top, bottom, wy).astype(np.uint8)


def derivatives(f: np.ndarray) -> dict[str, np.ndarray]:
    """Screen-space derivatives of per-pixel values `f` (H, W[, C]) (even H and W) as 2x2
    quads compute them: `fine_x`/`fine_y` differ the pixel's own row/column of its quad,
    `coarse_x`/`coarse_y` the quad's top row / left column for all four pixels (AMD's
    coarse choice; Vulkan lets a coarse derivative be either)."""
    f = np.asarray(f, np.float64)
    h, w = f.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    x0, y0 = xs & ~1, ys & ~1
    return {
        "fine_x": f[ys, x0 + 1] - f[ys, x0],
        "fine_y": f[y0 + 1, xs] - f[y0, xs],
        "coarse_x": f[y0, x0 + 1] - f[y0, x0],
        "coarse_y": f[y0 + 1, x0] - f[y0, x0],
    }
