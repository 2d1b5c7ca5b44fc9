"""The emulator's fixed-function graphics pipeline (radcc.emu.draw) against NumPy and
exact-rational references of the interface's rules (lvp_draw's "exact Vulkan state"):
the top-left fill rule, shared edges, perspective-correct interpolation, clipping at the
near plane, facing and culling, depth, blending, format conversion, topologies."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from radcc.abi.graphics import ExportFormat
from radcc.emu.draw.assembly import assemble
from radcc.emu.draw.clip import clip_and_project
from radcc.emu.draw.output import Framebuffer, decode_export
from radcc.emu.draw.pipeline import Shaded, VertexOutputs, draw, interpolate
from radcc.emu.draw.raster import rasterize
from radcc.emu.draw.state import (
    COLOR_FORMATS,
    CullMode,
    DrawState,
    Kind,
    PolygonMode,
    Topology,
)


def _clip_from_fb(xy: np.ndarray, w: int, h: int, z: float = 0.5) -> np.ndarray:
    """Clip positions (w = 1) of framebuffer points (N, 2)."""
    out = np.zeros((len(xy), 4), np.float32)
    out[:, 0] = xy[:, 0] * 2.0 / w - 1.0
    out[:, 1] = xy[:, 1] * 2.0 / h - 1.0
    out[:, 2] = z
    out[:, 3] = 1.0
    return out


def _ref_cover(tri: list[tuple[Fraction, Fraction]], px: int, py: int) -> bool:
    """The interface's rule, stated independently: inside all edges, or on an edge whose
    inward normal points right (left edge) or which is horizontal with the triangle below
    it (top edge; y down)."""
    cx, cy = Fraction(2 * px + 1, 2), Fraction(2 * py + 1, 2)
    for i in range(3):
        (ax, ay), (bx, by), (ox, oy) = tri[i], tri[(i + 1) % 3], tri[(i + 2) % 3]
        nx, ny = -(by - ay), bx - ax
        if nx * (ox - ax) + ny * (oy - ay) < 0:
            nx, ny = -nx, -ny
        d = nx * (cx - ax) + ny * (cy - ay)
        if d < 0:
            return False
        if d == 0 and not (nx > 0 or (ay == by and ny > 0)):
            return False
    return True


def _covered(tris_fb: list[np.ndarray], w: int, h: int, **kw: object) -> np.ndarray:
    """Coverage count per pixel by the emulator's rasteriser."""
    pos = _clip_from_fb(np.concatenate(tris_fb), w, h)
    prim = np.arange(len(pos)).reshape(-1, 3)
    attrs = np.zeros((len(pos), 1, 4), np.uint32)
    prims = clip_and_project(prim, pos, attrs, np.ones(len(pos)), np.zeros(1, bool), w, h)
    fr = rasterize(prims, w, h, **kw)  # type: ignore[arg-type]
    x, y = fr.pixels()
    count = np.zeros((h, w), np.int64)
    np.add.at(count, (y[fr.covered], x[fr.covered]), 1)
    return count


@pytest.mark.parametrize("seed", range(6))
def test_top_left_rule_random_triangles(seed: int) -> None:
    rng = np.random.default_rng(seed)
    w = h = 16
    for _ in range(20):
        # vertices on pixel corners, centres and 1/256 steps: exact under snapping
        grid = rng.choice([1, 2, 256], p=[0.4, 0.3, 0.3])
        v = rng.integers(-2 * grid, (w + 2) * grid, size=(3, 2)) / grid
        tri = [(Fraction(a).limit_denominator(256), Fraction(b).limit_denominator(256))
               for a, b in v]
        area = ((tri[1][0] - tri[0][0]) * (tri[2][1] - tri[0][1])
                - (tri[1][1] - tri[0][1]) * (tri[2][0] - tri[0][0]))
        got = _covered([v], w, h)
        want = np.array([[0 if area == 0 else int(_ref_cover(tri, x, y)) for x in range(w)]
                         for y in range(h)])
        assert (got == want).all(), (v, np.argwhere(got != want))


def test_shared_edges_cover_each_centre_once() -> None:
    """A grid of quads split on both diagonals, vertices on pixel centres and corners:
    every pixel inside is covered exactly once (the top-left rule on shared edges)."""
    w = h = 16
    tris = []
    pts = [0.0, 2.5, 4.0, 7.5, 8.0, 11.5, 16.0]
    for i in range(len(pts) - 1):
        for j in range(len(pts) - 1):
            x0, x1, y0, y1 = pts[i], pts[i + 1], pts[j], pts[j + 1]
            c = ((x0 + x1) / 2, (y0 + y1) / 2)
            corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            for k in range(4):
                a, b = corners[k], corners[(k + 1) % 4]
                tris.append(np.array([a, b, c] if (i + j + k) % 2 else [c, b, a]))
    assert (_covered(tris, w, h) == 1).all()


def test_facing_and_culling_as_the_interface_observed() -> None:
    """(1,1)->(7,1)->(7,7) is clockwise on the image: culled by --cull back, kept by
    --cull front (ccw front face)."""
    tri = [np.array([(1.0, 1.0), (7.0, 1.0), (7.0, 7.0)])]
    assert _covered(tri, 8, 8, cull=CullMode.BACK).sum() == 0
    front = _covered(tri, 8, 8, cull=CullMode.FRONT)
    assert front.sum() == _covered(tri, 8, 8).sum() > 0
    ccw = [tri[0][::-1].copy()]
    assert _covered(ccw, 8, 8, cull=CullMode.BACK).sum() == front.sum()
    assert _covered(ccw, 8, 8, cull=CullMode.FRONT).sum() == 0


def _attr_shade(fmt_kind: Kind, flat: np.ndarray, weights: str = "persp"):
    """A NumPy pixel shader: colour 0 = the interpolated attribute 0."""
    def shade(prims, frags, li):
        v = interpolate(prims, frags, getattr(li, weights), flat)[:, :, 0]  # (Q, 4, 4)
        vals = decode_export(ExportFormat.ABGR32, v.reshape(-1, 4), fmt_kind)
        return Shaded(np.ones(frags.covered.shape, bool), [vals.reshape(-1, 4, 4)])
    return shade


def test_perspective_correct_interpolation() -> None:
    """A full-screen quad with different w per vertex: attribute values at pixel centres
    equal the exact perspective-correct interpolation (the plane through the clip-space
    vertices, solved per pixel in float64)."""
    w, h = 24, 20
    fb_xy = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64)
    ws = np.array([1.0, 2.0, 4.0, 1.5])
    pos = _clip_from_fb(fb_xy, w, h, 0.25) * ws[:, None]
    attr = np.zeros((4, 1, 4), np.float32)
    attr[:, 0, 0] = [0.0, 1.0, 0.25, -2.0]
    attr[:, 0, 1] = [3.0, 1.0, 2.0, 0.5]
    attr[:, 0, 3] = 1.0
    state = DrawState(w, h, color=COLOR_FORMATS["rgba32f"])
    prim = np.array([[0, 1, 2], [0, 2, 3]])
    fb, stats = draw(state, VertexOutputs(pos, attr.view(np.uint32), np.ones(4)), prim,
                     np.zeros(1, bool), [(True,) * 4], _attr_shade(Kind.FLOAT, np.zeros(1, bool)))
    assert stats.pixels == w * h
    got = fb.targets[0].data
    for (a, b, c) in prim:
        P = pos[[a, b, c]].astype(np.float64)
        for y in range(h):
            for x in range(w):
                X, Y = (x + 0.5) * 2 / w - 1, (y + 0.5) * 2 / h - 1
                # clip-space weights b: sum b_i (x_i - X w_i) = 0, (y_i - Y w_i) = 0, sum 1
                M = np.array([P[:, 0] - X * P[:, 3], P[:, 1] - Y * P[:, 3], np.ones(3)])
                bw = np.linalg.solve(M, [0, 0, 1])
                if (bw < 1e-9).any():
                    continue
                want = bw @ attr[[a, b, c], 0].astype(np.float64)
                np.testing.assert_allclose(got[y, x], want, rtol=2e-6, atol=2e-6)


def test_flat_takes_the_provoking_vertex() -> None:
    w, h = 8, 8
    fb_xy = np.array([(0, 0), (8, 0), (8, 8), (0, 8)], np.float64)
    pos = _clip_from_fb(fb_xy, w, h)
    attr = np.arange(16, dtype=np.uint32).reshape(4, 1, 4) + 100
    state = DrawState(w, h, color=COLOR_FORMATS["rgba32ui"], topology=Topology.TRIANGLE_FAN)
    prim = assemble(Topology.TRIANGLE_FAN, 4)  # (1, 2, 0), (2, 3, 0)
    flat = np.ones(1, bool)
    fb, _ = draw(state, VertexOutputs(pos, attr, np.ones(4)), prim, flat, [(True,) * 4],
                 _attr_shade(Kind.UINT, flat))
    d = fb.targets[0].data
    assert (d[0, 7] == attr[1, 0]).all()  # first triangle (1, 2, 0): vertex 1
    assert (d[7, 0] == attr[2, 0]).all()  # second (2, 3, 0): vertex 2


def test_assembly_orders() -> None:
    assert assemble(Topology.TRIANGLE_STRIP, 5).tolist() == [[0, 1, 2], [1, 3, 2], [2, 3, 4]]
    assert assemble(Topology.TRIANGLE_FAN, 5).tolist() == [[1, 2, 0], [2, 3, 0], [3, 4, 0]]
    assert assemble(Topology.TRIANGLE_LIST, 7).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert assemble(Topology.LINE_STRIP, 3).tolist() == [[0, 1], [1, 2]]
    assert assemble(Topology.POINT_LIST, 2).tolist() == [[0], [1]]


def test_near_plane_clipping_coverage() -> None:
    """A triangle with one vertex behind the eye (w < 0): the covered pixels are those
    whose ray meets the triangle at 0 <= z <= w (solved per pixel in clip space), except
    within a pixel's 1/64 of the clipped edge."""
    w = h = 32
    pos = np.array([[-0.8, -0.8, 0.5, 1.0], [0.9, -0.5, 0.2, 1.0], [0.1, 0.9, -0.6, -0.4]],
                   np.float32)
    attrs = np.zeros((3, 1, 4), np.uint32)
    prims = clip_and_project(np.array([[0, 1, 2]]), pos, attrs, np.ones(3),
                             np.zeros(1, bool), w, h)
    fr = rasterize(prims, w, h)
    x, y = fr.pixels()
    got = np.zeros((h, w), bool)
    got[y[fr.covered], x[fr.covered]] = True
    P = pos.astype(np.float64)
    bad = 0
    for py in range(h):
        for px in range(w):
            X, Y = (px + 0.5) * 2 / w - 1, (py + 0.5) * 2 / h - 1
            M = np.array([P[:, 0] - X * P[:, 3], P[:, 1] - Y * P[:, 3], np.ones(3)])
            b = np.linalg.solve(M, [0, 0, 1])
            zc, wc = b @ P[:, 2], b @ P[:, 3]
            want = bool((b > 0).all() and zc > 0 and zc < wc)
            near = (abs(b) < 0.02).any() or abs(zc) < 0.02 * abs(wc) + 1e-9
            if got[py, px] != want and not near:
                bad += 1
    assert bad == 0
    assert got.sum() > 50


def test_depth_less_and_blend() -> None:
    """Two overlapping triangles: with depth the nearer wins whatever the order; with
    --blend alpha on rgba8 the result is the float equation within 1."""
    w = h = 8
    quad = np.array([(0, 0), (8, 0), (8, 8), (0, 8)], np.float64)
    pos = np.concatenate([_clip_from_fb(quad, w, h, 0.7), _clip_from_fb(quad, w, h, 0.3)])
    col = np.array([[1, 0.5, 0, 0.25]] * 4 + [[0, 0, 1, 1]] * 4, np.float32)[:, None, :]
    prim = np.array([[4, 5, 6], [4, 6, 7], [0, 1, 2], [0, 2, 3]])  # near first, far second
    flat = np.zeros(1, bool)
    st = DrawState(w, h, color=COLOR_FORMATS["rgba32f"], depth=True)
    fb, stats = draw(st, VertexOutputs(pos, col.view(np.uint32), np.ones(8)), prim, flat,
                     [(True,) * 4], _attr_shade(Kind.FLOAT, flat))
    assert stats.pixels == w * h  # the far ones fail
    assert (fb.targets[0].data == [0, 0, 1, 1]).all()
    np.testing.assert_allclose(fb.depth, 0.3, rtol=1e-6)
    # blend: src (1, 0.5, 0, 0.25) over dst (0, 0, 1, 1) in rgba8 = (64, 32, 191, 207)
    st = DrawState(w, h, color=COLOR_FORMATS["rgba8"], blend=True)
    fb, _ = draw(st, VertexOutputs(pos, col.view(np.uint32), np.ones(8)), prim[[0, 1, 2, 3]],
                 flat, [(True,) * 4], _attr_shade(Kind.UNORM, flat))
    src, dst = np.array([1, 0.5, 0, 0.25]), np.array([0, 0, 1, 1])
    want = np.round(np.clip(src * 0.25 + dst * 0.75, 0, 1) * 255)
    assert (abs(fb.targets[0].data.astype(int) - want) <= 1).all()
    assert (abs(fb.targets[0].data[0, 0].astype(int) - [64, 32, 191, 207]) <= 1).all()


def test_formats_clear_and_write_mask() -> None:
    st = DrawState(2, 2, color=COLOR_FORMATS["rgba8"], clear=(0.5, 2.0, -1.0, 0.2))
    fb = Framebuffer(st, [(True, True, False, False), None])
    assert fb.targets[0].data[0, 0].tolist() == [128, 255, 0, 51]
    vals = decode_export(ExportFormat.ABGR32,
                         np.array([[0.3, 0.6, 0.9, 1.0]], np.float32).view(np.uint32),
                         Kind.UNORM)
    fb.merge(np.array([1]), np.array([0]), None, [vals, vals])
    # 0.3 * 255 is 76.5 in float32: to even, 76 (as lavapipe converts); B, A masked
    assert fb.targets[0].data[0, 1].tolist() == [76, 153, 0, 51]
    assert fb.targets[1].data[0, 1].tolist() == [128, 255, 0, 51]  # no output: clear
    # FP16 export to rgba16f is bit exact; 16-bit unorm/snorm decode
    h = np.array([1.5, -2.0, 65504.0, 0.1], np.float16).view(np.uint16).astype(np.uint32)
    d = np.array([[h[0] | h[1] << 16, h[2] | h[3] << 16, 0, 0]], np.uint32)
    got = decode_export(ExportFormat.FP16_ABGR, d, Kind.FLOAT).astype(np.float16)
    assert got.view(np.uint16).tolist() == [h.astype(np.uint16).tolist()]
    d = np.array([[65535 | 32768 << 16, 0x8000 | 0x7FFF << 16, 0, 0]], np.uint32)
    np.testing.assert_allclose(decode_export(ExportFormat.UNORM16_ABGR, d, Kind.FLOAT)[0],
                               [1.0, 32768 / 65535, 0x8000 / 65535, 32767 / 65535])
    np.testing.assert_allclose(decode_export(ExportFormat.SNORM16_ABGR, d, Kind.FLOAT)[0],
                               [-1 / 32767, -1.0, -1.0, 1.0])


def test_points() -> None:
    """A point exactly on a pixel corner lights pixel (0, 0) (the interface's smoke
    observation); gl_PointSize 3 at a pixel centre lights 3x3."""
    w = h = 8
    pos = _clip_from_fb(np.array([(1.0, 1.0), (4.5, 4.5)]), w, h)
    attrs = np.zeros((2, 1, 4), np.uint32)
    prims = clip_and_project(np.array([[0], [1]]), pos, attrs, np.array([1.0, 3.0]),
                             np.zeros(1, bool), w, h)
    fr = rasterize(prims, w, h)
    x, y = fr.pixels()
    lit = sorted(zip(y[fr.covered].tolist(), x[fr.covered].tolist(), strict=True))
    assert lit == [(0, 0)] + [(yy, xx) for yy in (3, 4, 5) for xx in (3, 4, 5)]


def _lit(prim: np.ndarray, pos: np.ndarray, w: int, h: int, **kw: object) -> set:
    st = DrawState(w, h, color=COLOR_FORMATS["r32f"], **kw)  # type: ignore[arg-type]
    seen: list = []

    def shade(prims, frags, li):
        x, y = frags.pixels()
        seen.extend(zip(y[frags.covered].tolist(), x[frags.covered].tolist(), strict=True))
        return Shaded(frags.covered.copy(), [np.ones(frags.covered.shape + (4,))])
    draw(st, VertexOutputs(pos, np.zeros((len(pos), 1, 4), np.uint32), np.ones(len(pos))),
         prim, np.zeros(1, bool), [(True,)], shade)
    return set(seen)


def test_lines_as_the_interface_observed() -> None:
    """A horizontal line along y = 1.0 from x = 1 to 7 lights row 0, x = 1..6; a
    vertical one at x = 3.5 from y = 0.5 to 4.5 lights column 3, rows 0..3 (centres on
    the rectangle's ends: the top end inside, the bottom end outside)."""
    w = h = 8
    pos = _clip_from_fb(np.array([(1.0, 1.0), (7.0, 1.0), (3.5, 0.5), (3.5, 4.5)]), w, h)
    assert _lit(np.array([[0, 1]]), pos, w, h) == {(0, x) for x in range(1, 7)}
    assert _lit(np.array([[2, 3]]), pos, w, h) == {(y, 3) for y in range(0, 4)}


def test_polygon_line_draws_the_edges_and_culls() -> None:
    w = h = 16
    tri = np.array([(2.5, 2.5), (13.5, 2.5), (2.5, 13.5)])  # counter-clockwise? a > 0
    pos = _clip_from_fb(tri, w, h)
    prim = np.array([[0, 1, 2]])
    fill = _lit(prim, pos, w, h)
    line = _lit(prim, pos, w, h, polygon=PolygonMode.LINE)
    assert line and len(line) < len(fill)
    assert {(2, x) for x in range(3, 13)} <= line  # the top edge's row
    assert (8, 4) not in line and (8, 4) in fill  # the interior is not drawn
    front = _covered([tri], w, h, cull=CullMode.FRONT).sum() == 0
    culled = CullMode.FRONT if front else CullMode.BACK
    assert _lit(prim, pos, w, h, polygon=PolygonMode.LINE, cull=culled) == set()


def test_point_coord_lanes() -> None:
    """A point of size 3 centred at (4.5, 4.5): each covered lane's I and J are
    gl_PointCoord, ((x + 0.5) - 3) / 3 and ((y + 0.5) - 3) / 3 (upper-left origin)."""
    from radcc.emu.draw.pipeline import lane_inputs

    w = h = 8
    pos = _clip_from_fb(np.array([(4.5, 4.5)]), w, h)
    prims = clip_and_project(np.array([[0]]), pos, np.zeros((1, 1, 4), np.uint32),
                             np.array([3.0]), np.zeros(1, bool), w, h)
    fr = rasterize(prims, w, h)
    li = lane_inputs(prims, fr)
    x, y = fr.pixels()
    c = fr.covered
    np.testing.assert_allclose(li.persp[..., 1][c], (x[c] + 0.5 - 3) / 3)
    np.testing.assert_allclose(li.persp[..., 2][c], (y[c] + 0.5 - 3) / 3)
    np.testing.assert_allclose(li.linear[c], li.persp[c])


def test_clipping_without_attributes() -> None:
    """A fragment shader without inputs (no attributes) and a clipped triangle."""
    pos = np.array([[-0.8, -0.8, 0.5, 1.0], [0.9, -0.5, 0.2, 1.0], [0.1, 0.9, -0.6, -0.4]],
                   np.float32)
    prims = clip_and_project(np.array([[0, 1, 2]]), pos, np.zeros((3, 0, 4), np.uint32),
                             np.ones(3), np.zeros(0, bool), 16, 16)
    assert prims.count >= 1 and prims.attrs.shape[1:] == (3, 0, 4)
