"""The draw cases (tests/e2e/draw/) on lavapipe: every case renders something, and where
a NumPy model of the interface's rules applies (tests/support/draw_ref.py) lavapipe's
rendering is checked against it, so that the cases are what they claim to be before
radcc's renderings are compared with lavapipe's (harness.assert_same_draw)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.e2e.draw import harness
from tests.e2e.draw.cases import BY_NAME, CASES, DrawCase
from tests.support import draw_ref

PASS_THROUGH = ("basic.vert", "interp.vert")  # gl_Position = attribute 0


_refs: dict[str, object] = {}


def ref(name: str):  # noqa: ANN201 - a DrawResult
    if name not in _refs:
        _refs[name] = harness.reference(BY_NAME[name])
    return _refs[name]


def _triangles(case: DrawCase) -> list[np.ndarray]:
    """The clip positions of each triangle of a pass-through case, in Vulkan's order."""
    pos = case.attrs[0].astype(np.float64)
    idx = case.index if case.index is not None else np.arange(case.count)
    verts = pos[idx[:case.count]]
    return [verts[list(t)] for t in draw_ref.triangles(case.topology, case.count)]


def _model_coverage(case: DrawCase) -> np.ndarray | None:
    """The union of the triangles' coverage, for pass-through cases with nothing clipped,
    culled or killed (None otherwise)."""
    if case.vert not in PASS_THROUGH or case.cull != "none" or "discard" in case.frag \
            or "demote" in case.frag or case.blend or not case.coverage_from_color:
        return None
    cov = np.zeros(case.size[::-1], bool)
    for t in _triangles(case):
        if not ((t[:, 3] > 0) & (t[:, 2] >= 0) & (t[:, 2] <= t[:, 3])).all():
            return None
        fb = draw_ref.to_framebuffer(t, case.size)
        if fb[:, :2].min() < 0 or (fb[:, :2] > case.size).any():
            return None
        cov |= draw_ref.coverage(fb, case.size)
    return cov


@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_case_renders(name: str, lvp) -> None:
    case = BY_NAME[name]
    out = ref(name)
    assert out.colors, f"{name}: no colour attachment"
    cov = harness.covered(case, out.colors[0])
    assert cov.any() and not cov.all() or name == "fullscreen_vertex_index", \
        f"{name}: {int(cov.sum())} of {cov.size} pixels written"
    model = _model_coverage(case)
    if model is not None:
        bad = np.argwhere(model != cov)
        assert not len(bad), f"{name}: coverage differs from the model at {bad[:8].tolist()}"
    harness.assert_same_draw(case, out, out)  # the comparison accepts lavapipe itself


def test_smooth_and_interpolation_modes(lvp) -> None:
    case = BY_NAME["smooth_rgba8"]
    (t,) = _triangles(case)
    fb = draw_ref.to_framebuffer(t, case.size)
    lam, cov = draw_ref.barycentrics(fb, case.size), draw_ref.coverage(fb, case.size)
    want = draw_ref.unorm8(draw_ref.interpolate(case.attrs[1], lam, t[:, 3]))
    got = ref("smooth_rgba8").colors[0]
    assert np.abs(got[cov].astype(int) - want[cov]).max() <= 1

    case = BY_NAME["interp_modes"]
    out = ref("interp_modes")
    col = case.attrs[1].astype(np.float64)
    tris = _triangles(case)
    for k, t in enumerate(tris):
        fb = draw_ref.to_framebuffer(t, case.size)
        lam, cov = draw_ref.barycentrics(fb, case.size), draw_ref.coverage(fb, case.size)
        for later in tris[k + 1:]:  # without depth the last triangle drawn wins
            cov &= ~draw_ref.coverage(draw_ref.to_framebuffer(later, case.size), case.size)
        v = col[3 * k:3 * k + 3]
        np.testing.assert_allclose(out.colors[0][cov], draw_ref.interpolate(v, lam, t[:, 3])[cov],
                                   atol=2e-6)
        np.testing.assert_allclose(out.colors[1][cov], np.broadcast_to(
            v[0] * 2 + 3 * k, (int(cov.sum()), 4)), atol=1e-6)  # flat: the first vertex
        np.testing.assert_allclose(out.colors[2][cov][:, :2],
                                   draw_ref.interpolate(v[:, [1, 0]], lam)[cov], atol=2e-6)


def test_fragcoord_and_facing(lvp) -> None:
    case = BY_NAME["fragcoord"]
    (t,) = _triangles(case)
    fb = draw_ref.to_framebuffer(t, case.size)
    cov = draw_ref.coverage(fb, case.size)
    img = ref("fragcoord").colors[0]
    ys, xs = np.mgrid[0:case.size[1], 0:case.size[0]]
    np.testing.assert_array_equal(img[cov][:, 0], xs[cov] + 0.5)
    np.testing.assert_array_equal(img[cov][:, 1], ys[cov] + 0.5)
    z = draw_ref.interpolate(fb[:, 2:3], draw_ref.barycentrics(fb, case.size))[..., 0]
    np.testing.assert_allclose(img[cov][:, 2], z[cov], atol=1e-6)
    for name, keep in (("front_facing", (True, True)), ("cull_back_cw", (True, False)),
                       ("cull_front", (True, False))):
        case = BY_NAME[name]
        img = ref(name).colors[0]
        for t, kept in zip(_triangles(case), keep, strict=True):
            fb = draw_ref.to_framebuffer(t, case.size)
            cov = draw_ref.coverage(fb, case.size)
            front = draw_ref.signed_area(fb) > 0  # ccw on the image
            if name == "cull_back_cw":
                front = not front
            if not kept:
                assert not harness.covered(case, img)[cov].any(), name
                continue
            assert (img[cov][:, 0] == (255 if front else 0)).all(), name
            # the kept triangle is the clockwise one with front-face cw / cull back, and
            # the clockwise one (back-facing with ccw) with cull front
            assert front == (name != "cull_front") or name == "front_facing"


def test_discard_keeps_clear_and_depth(lvp) -> None:
    case = BY_NAME["discard_depth"]
    out = ref("discard_depth")
    ys, xs = np.mgrid[0:case.size[1], 0:case.size[0]]
    odd = ((xs ^ ys) & 1) == 1
    assert not harness.covered(case, out.colors[0])[odd].any()
    assert (out.depth[odd] == 1.0).all() and (out.depth[~odd] < 1.0).any()


def test_depth_is_the_nearest_triangle(lvp) -> None:
    case = BY_NAME["depth_less"]
    want = np.ones(case.size[::-1])
    for t in _triangles(case):
        fb = draw_ref.to_framebuffer(t, case.size)
        cov = draw_ref.coverage(fb, case.size)
        z = draw_ref.interpolate(fb[:, 2:3], draw_ref.barycentrics(fb, case.size))[..., 0]
        want[cov] = np.minimum(want[cov], z[cov])
    np.testing.assert_allclose(ref("depth_less").depth, want, atol=1e-6)


def test_fragment_atomics_count_the_fragments(lvp) -> None:
    case = BY_NAME["ssbo_atomics_fs"]
    out = ref("ssbo_atomics_fs")
    counts = np.frombuffer(out.buffers[(0, 1)], np.uint32)
    n = sum(int(draw_ref.coverage(draw_ref.to_framebuffer(t, case.size), case.size).sum())
            for t in _triangles(case))
    assert counts[0] == n and counts[1:].sum() == n


def test_flat_ids_of_indexed_instanced_draws(lvp) -> None:
    img = ref("indexed_instanced_ids").colors[0]
    seen = {tuple(p) for p in img[..., :2].reshape(-1, 2).tolist()} - {(99, 99)}
    # the provoking vertex of triangles (0,1,2) and (2,3,0) is vertex 0 or 2; instances 0-4
    assert seen == {(v, i) for v in (0, 2) for i in range(5)}


def test_derivatives_are_quad_differences(lvp) -> None:
    """deriv.frag's fine derivatives of f are 2x2-quad differences of f at the pixel
    centres, helper pixels outside the triangle included (the triangle's plane
    extrapolated), and its unqualified/coarse ones of the separable g those of g
    (tests/support/draw_ref.derivatives)."""
    case = BY_NAME["derivatives"]
    out = ref("derivatives")
    tris = _triangles(case)
    col = case.attrs[1].astype(np.float64)
    ys, xs = np.mgrid[0:case.size[1], 0:case.size[0]]
    px, py = xs + 0.5, ys + 0.5
    dg = draw_ref.derivatives(px * px * 0.03 + np.sqrt(py) * 0.7)
    for k, t in enumerate(tris):
        fb = draw_ref.to_framebuffer(t, case.size)
        own = draw_ref.coverage(fb, case.size)
        for later in tris[k + 1:]:
            own &= ~draw_ref.coverage(draw_ref.to_framebuffer(later, case.size), case.size)
        v = draw_ref.interpolate(col[3 * k:3 * k + 3], draw_ref.barycentrics(fb, case.size),
                                 t[:, 3])
        d = draw_ref.derivatives(v[..., 0] * v[..., 1] * 8.0 + px * py * 0.01)
        o0, o1 = out.colors[0][own], out.colors[1][own]
        tol = dict(atol=2e-5, rtol=1e-4)
        np.testing.assert_allclose(o0[:, 0], d["fine_x"][own], **tol)
        np.testing.assert_allclose(o0[:, 1], d["fine_y"][own], **tol)
        np.testing.assert_allclose(o0[:, 2], np.abs(o0[:, 0]) + np.abs(o0[:, 1]), **tol)
        assert np.abs(d["fine_x"] - d["coarse_x"])[own].max() > 1e-3  # fine matters here
        gx, gy = dg["fine_x"][own], dg["fine_y"][own]
        assert np.abs(gx - dg["coarse_x"][own]).max() < 1e-9  # separable: any choice agrees
        np.testing.assert_allclose(o1[:, 0], gx, **tol)
        np.testing.assert_allclose(o1[:, 1], gy, **tol)
        np.testing.assert_allclose(o1[:, 2], gx + np.abs(gx) + np.abs(gy), **tol)
        np.testing.assert_allclose(o1[:, 3], gy - np.abs(gx) - np.abs(gy), **tol)


def test_demoted_lanes_help_derivatives(lvp) -> None:
    case = BY_NAME["demote_derivatives"]
    out = ref("demote_derivatives").colors[0]
    (t,) = _triangles(case)
    fb = draw_ref.to_framebuffer(t, case.size)
    cov = draw_ref.coverage(fb, case.size)
    ys, xs = np.mgrid[0:case.size[1], 0:case.size[0]]
    demoted = (xs + ys) % 3 == 0
    assert not harness.covered(case, out)[demoted].any()
    v = draw_ref.interpolate(case.attrs[1], draw_ref.barycentrics(fb, case.size), t[:, 3])
    d = draw_ref.derivatives(v[..., 0] * v[..., 1] * 16.0)
    kept = cov & ~demoted
    np.testing.assert_allclose(out[kept][:, 0], d["fine_x"][kept], atol=2e-5, rtol=1e-4)
    np.testing.assert_allclose(out[kept][:, 1], d["fine_y"][kept], atol=2e-5, rtol=1e-4)
