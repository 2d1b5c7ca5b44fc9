"""The lavapipe draw oracle against NumPy models of the runner's rules (tests/support/
draw_ref.py): interpolation, the top-left rule, indexed/instanced draws, strips and fans,
depth, blending, flat integer outputs, write masks, culling, texturing, and every input
check with its message."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from radcc.oracle.lavapipe_draw import DrawInputError, run_draw
from tests.support import draw_ref

# a vertex shader passing a position (xy, z, w through the attribute) and a colour
VS_POS_COLOR = """
#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() { gl_Position = pos; vcol = col; }
"""
FS_COLOR = """
#version 450
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = vcol; }
"""
FS_NOPERSP = """
#version 450
layout(location = 0) noperspective in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = vcol; }
"""
# one fragment per pixel counted with an atomic (coverage, including helper-free counts)
FS_COUNT = """
#version 450
layout(set = 0, binding = 0) buffer Counts { uint n[]; };
layout(push_constant) uniform P { uint width; };
layout(location = 0) in vec4 vcol;
void main() {
    atomicAdd(n[uint(gl_FragCoord.y) * width + uint(gl_FragCoord.x)], 1u);
}
"""


def vs(glsl, src: str = VS_POS_COLOR) -> bytes:
    return glsl(src, "vulkan1.3", "vert")


def fs(glsl, src: str = FS_COLOR) -> bytes:
    return glsl(src, "vulkan1.3", "frag")


def clip_of(fb_xy: np.ndarray, size: tuple[int, int], z: float = 0.5,
            w: np.ndarray | float = 1.0) -> np.ndarray:
    """Clip positions whose framebuffer xy are `fb_xy` (N, 2), depth z, clip w."""
    fb = np.asarray(fb_xy, np.float64)
    ww = np.broadcast_to(np.asarray(w, np.float64), (len(fb),))
    x = (fb[:, 0] * 2 / size[0] - 1) * ww
    y = (fb[:, 1] * 2 / size[1] - 1) * ww
    return np.stack([x, y, np.full(len(fb), z) * ww, ww], axis=1).astype(np.float32)


def counts_of(out, size: tuple[int, int]) -> np.ndarray:
    return np.frombuffer(out.buffers[(0, 0)], np.uint32).reshape(size[1], size[0])


def test_gradient_is_the_plane_equation(glsl, lvp):
    size = (16, 12)
    fb = np.array([[0, 0], [16, 0], [0, 12]], np.float64)
    col = np.array([[1, 0, 0, 0.25], [0, 1, 0, 0.5], [0, 0, 1, 1]], np.float32)
    out = run_draw(vs(glsl), fs(glsl), size=size, count=3,
                   attrs={0: clip_of(fb, size), 1: col}, color="rgba32f", clear=(9, 9, 9, 9))
    img = out.colors[0]
    assert img.shape == (12, 16, 4) and img.dtype == np.float32
    cov = draw_ref.coverage(to_fb(clip_of(fb, size), size), size)
    ref = draw_ref.interpolate(col, draw_ref.barycentrics(fb, size))
    np.testing.assert_allclose(img[cov], ref[cov], atol=2e-7)
    assert (img[~cov] == 9).all()


def to_fb(clip: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return draw_ref.to_framebuffer(clip, size)


def test_perspective_correct_and_noperspective(glsl, lvp):
    size = (16, 16)
    fb = np.array([[1, 1], [15, 2], [3, 15]], np.float64)
    w = np.array([1.0, 3.0, 0.5])
    clip = clip_of(fb, size, w=w)
    col = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0.5]], np.float32)
    lam = draw_ref.barycentrics(to_fb(clip, size), size)
    cov = draw_ref.coverage(to_fb(clip, size), size)
    smooth = run_draw(vs(glsl), fs(glsl), size=size, count=3, attrs={0: clip, 1: col},
                      color="rgba32f").colors[0]
    np.testing.assert_allclose(smooth[cov], draw_ref.interpolate(col, lam, w)[cov], atol=2e-6)
    linear = run_draw(vs(glsl), fs(glsl, FS_NOPERSP), size=size, count=3,
                      attrs={0: clip, 1: col}, color="rgba32f").colors[0]
    np.testing.assert_allclose(linear[cov], draw_ref.interpolate(col, lam)[cov], atol=2e-6)
    assert np.abs(smooth[cov] - linear[cov]).max() > 0.05  # the two really differ


def test_top_left_rule_fragment_counts(glsl, lvp):
    """Random triangles on the 1/256 grid and a fan of triangles sharing edges through
    pixel centres: each fragment counted where the top-left rule covers it, once."""
    size = (24, 20)
    rng = np.random.default_rng(7)
    tris = [rng.integers(0, 24 * 4, (3, 2)) / 4.0 for _ in range(6)]  # quarter pixels
    tris.append(np.array([[2.5, 2.5], [20.5, 2.5], [2.5, 17.5]]))  # edges on centres
    tris.append(np.array([[20.5, 2.5], [20.5, 17.5], [2.5, 17.5]]))
    for fb in tris:
        clip = clip_of(fb, size)
        out = run_draw(vs(glsl), fs(glsl, FS_COUNT), size=size, count=3,
                       attrs={0: clip, 1: np.zeros((3, 4), np.float32)},
                       buffers={(0, 0): 4 * size[0] * size[1]},
                       push_constants=np.uint32(size[0]).tobytes())
        assert out.colors == []
        ref = draw_ref.coverage(to_fb(clip, size), size)
        np.testing.assert_array_equal(counts_of(out, size), ref.astype(np.uint32))
    # the two triangles sharing the diagonal through centres cover the square exactly once
    quad = np.concatenate([clip_of(tris[-2], size), clip_of(tris[-1], size)])
    out = run_draw(vs(glsl), fs(glsl, FS_COUNT), size=size, count=6,
                   attrs={0: quad, 1: np.zeros((6, 4), np.float32)},
                   buffers={(0, 0): 4 * size[0] * size[1]},
                   push_constants=np.uint32(size[0]).tobytes())
    c = counts_of(out, size)
    assert c.max() == 1 and c[3:17, 3:20].all() and c.sum() == 15 * 18


VS_INSTANCED = """
#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 offset;   // per instance
layout(location = 2) in uint tag;      // per instance
layout(location = 0) flat out uvec4 v;
void main() {
    gl_Position = vec4(pos + offset, 0.0, 1.0);
    v = uvec4(tag, gl_VertexIndex, gl_InstanceIndex, 7u);
}
"""
FS_FLAT_UINT = """
#version 450
layout(location = 0) flat in uvec4 v;
layout(location = 0) out uvec4 o;
void main() { o = v; }
"""


def test_indexed_instanced_flat_uint(glsl, lvp):
    size = (16, 16)
    # a 4x4-pixel square from 4 vertices and 6 indices; three instances side by side
    pos = np.array([[-1, -1], [-0.5, -1], [-0.5, -0.5], [-1, -0.5], [5, 5]], np.float32)
    index = np.array([0, 1, 2, 2, 3, 0], np.uint16)
    offs = np.array([[0, 0], [0.75, 0], [0.25, 1.0]], np.float32)
    tags = np.array([10, 20, 30], np.uint32)
    out = run_draw(vs(glsl, VS_INSTANCED), fs(glsl, FS_FLAT_UINT), size=size, count=6,
                   instances=3, attrs={0: pos}, inst_attrs={1: offs, 2: tags},
                   index=index, color="rgba32ui", clear=(1, 2, 3, 4))
    img = out.colors[0]
    assert img.dtype == np.uint32
    ref = np.broadcast_to(np.array([1, 2, 3, 4], np.uint32), img.shape).copy()
    for inst, off in enumerate(offs):
        for tri in (index[:3], index[3:]):
            clip = np.concatenate([pos[tri] + off, np.tile([[0, 1]], (3, 1))], axis=1)
            cov = draw_ref.coverage(to_fb(clip, size), size)
            ref[cov] = (tags[inst], tri[0], inst, 7)  # flat: the provoking (first) vertex
    assert (ref[..., 0] == 30).sum() == 16
    np.testing.assert_array_equal(img, ref)


def test_strip_and_fan_provoking_vertex(glsl, lvp):
    size = (8, 8)
    for topology in ("triangle-strip", "triangle-fan"):
        fb = (np.array([[0, 0], [8, 0], [0, 8], [8, 8]], np.float64) if topology ==
              "triangle-strip" else np.array([[4, 4], [0, 0], [8, 0], [8, 8], [0, 8]],
                                             np.float64))
        n = len(fb)
        pos = clip_of(fb, size)[:, :2].copy()
        out = run_draw(vs(glsl, VS_INSTANCED), fs(glsl, FS_FLAT_UINT), size=size, count=n,
                       attrs={0: pos}, inst_attrs={1: np.zeros((1, 2), np.float32),
                                                   2: np.array([5], np.uint32)},
                       topology=topology, color="rgba32ui", clear=(99, 99, 99, 99))
        img = out.colors[0]
        ref = np.full((8, 8), 99, np.uint32)
        for t in draw_ref.triangles(topology, n):
            cov = draw_ref.coverage(fb[list(t)], size)
            assert not (cov & (ref != 99)).any()
            ref[cov] = t[0]
        np.testing.assert_array_equal(img[..., 1], ref, err_msg=topology)


VS_Z = """
#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() { gl_Position = pos; vcol = col; }
"""


def test_depth_test_and_values(glsl, lvp):
    size = (16, 16)
    a = clip_of(np.array([[0, 0], [16, 0], [0, 16]]), size, z=0.25)
    a[1, 2] = 0.75  # z = 0.25 + x / 32 across the first triangle
    b = clip_of(np.array([[0, 0], [16, 0], [0, 16]]), size, z=0.5)  # drawn second
    pos = np.concatenate([a, b])
    col = np.repeat(np.array([[1, 0, 0, 1], [0, 1, 0, 1]], np.float32), 3, axis=0)
    out = run_draw(vs(glsl, VS_Z), fs(glsl), size=size, count=6, attrs={0: pos, 1: col},
                   depth=True, clear=(0, 0, 1, 1))
    depth = out.depth
    assert depth is not None and depth.shape == (16, 16) and depth.dtype == np.float32
    fa, fb_ = to_fb(a, size), to_fb(b, size)
    za = draw_ref.interpolate(fa[:, 2:3], draw_ref.barycentrics(fa, size))[..., 0]
    zb = draw_ref.interpolate(fb_[:, 2:3], draw_ref.barycentrics(fb_, size))[..., 0]
    ca, cb = draw_ref.coverage(fa, size), draw_ref.coverage(fb_, size)
    ref = np.ones((16, 16))
    ref[ca] = za[ca]
    win_b = cb & (zb < ref)
    ref[win_b] = zb[win_b]
    np.testing.assert_allclose(depth, ref, atol=1e-6)
    colour = np.where(win_b[..., None], [0, 255, 0, 255],
                      np.where(ca[..., None], [255, 0, 0, 255], [0, 0, 255, 255]))
    np.testing.assert_array_equal(out.colors[0], colour)
    assert win_b.any() and (ca & cb & ~win_b).any()  # both orders of the test happen


def test_alpha_blend_rgba8(glsl, lvp):
    size = (4, 4)
    fb = np.array([[0, 0], [8, 0], [0, 8]], np.float64)
    col = np.tile(np.array([[1, 0.5, 0, 0.25]], np.float32), (3, 1))
    out = run_draw(vs(glsl), fs(glsl), size=size, count=3, attrs={0: clip_of(fb, size),
                   1: col}, blend="alpha", clear=(0, 0, 1, 1))
    assert tuple(out.colors[0][0, 0]) == (64, 32, 191, 207)  # the README's example
    ref = draw_ref.unorm8(draw_ref.blend_alpha(col[0], [0, 0, 1, 1]))
    assert np.abs(out.colors[0].astype(int) - ref).max() <= 1


def test_write_mask_and_unwritten_attachments(glsl, lvp):
    fsrc = """
    #version 450
    layout(location = 0) in vec4 vcol;
    layout(location = 0) out vec2 o0;
    layout(location = 2) out vec4 o2;
    void main() { o0 = vcol.xy; o2 = vcol; }
    """
    size = (4, 4)
    fb = np.array([[0, 0], [8, 0], [0, 8]], np.float64)
    col = np.tile(np.array([[0.5, 0.25, 0.125, 1]], np.float32), (3, 1))
    out = run_draw(vs(glsl), fs(glsl, fsrc), size=size, count=3,
                   attrs={0: clip_of(fb, size), 1: col}, color="rgba32f", clear=(7, 7, 7, 7))
    assert len(out.colors) == 3
    np.testing.assert_array_equal(out.colors[0][0, 0], [0.5, 0.25, 7, 7])
    assert (out.colors[1] == 7).all()  # no output at location 1: the clear colour
    np.testing.assert_array_equal(out.colors[2][0, 0], col[0])


def test_cull_and_front_face(glsl, lvp):
    size = (8, 8)
    cw = clip_of(np.array([[1, 1], [7, 1], [7, 7]]), size)  # clockwise on the image
    assert draw_ref.signed_area(to_fb(cw, size)) < 0
    col = np.ones((3, 4), np.float32)

    def lit(**kw) -> int:
        out = run_draw(vs(glsl), fs(glsl), size=size, count=3, attrs={0: cw, 1: col}, **kw)
        return int((out.colors[0][..., 0] > 0).sum())

    n = int(draw_ref.coverage(to_fb(cw, size), size).sum())
    assert n > 0
    assert lit(cull="back") == 0 and lit(cull="front") == n
    assert lit(cull="back", front_face="cw") == n and lit() == n


FS_TEX = """
#version 450
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = texture(tex, vcol.xy); }
"""


def test_texturing_nearest_and_linear(glsl, lvp):
    size = (16, 16)
    rng = np.random.default_rng(3)
    tex = rng.integers(0, 256, (4, 4, 4)).astype(np.uint8)
    fb = np.array([[0, 0], [32, 0], [0, 32]], np.float64)
    uv = np.array([[0, 0, 0, 0], [2, 0, 0, 0], [0, 2, 0, 0]], np.float32)  # u = x / 16
    args = dict(size=size, count=3, attrs={0: clip_of(fb, size), 1: uv},
                images={(0, 1): (tex, None)})
    near = run_draw(vs(glsl), fs(glsl, FS_TEX), samplers={(0, 1): "nearest"}, **args)
    ys, xs = np.mgrid[0:16, 0:16]
    np.testing.assert_array_equal(near.colors[0], tex[ys // 4, xs // 4])
    lin = run_draw(vs(glsl), fs(glsl, FS_TEX), samplers={(0, 1): "linear"}, **args)
    ref = draw_ref.bilinear_unorm8(tex, (xs + 0.5) / 16, (ys + 0.5) / 16)
    np.testing.assert_array_equal(lin.colors[0], ref)  # llvmpipe's 8-bit model, exactly
    np.testing.assert_array_equal(lin.images[(0, 1)], tex)


def test_output_files(glsl, lvp, tmp_path):
    size = (4, 4)
    fb = np.array([[0, 0], [8, 0], [0, 8]], np.float64)
    out = run_draw(vs(glsl), fs(glsl, FS_COUNT), size=size, count=3,
                   attrs={0: clip_of(fb, size), 1: np.zeros((3, 4), np.float32)},
                   buffers={(0, 0): 64}, push_constants=np.uint32(4).tobytes(), depth=True)
    names = sorted(p.name for p in out.write(tmp_path))
    assert names == ["0_0.bin", "depth.npy"]
    assert (np.load(tmp_path / "depth.npy") == 0.5).all()


# -- bad input ---------------------------------------------------------------------------

TRI = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1]], np.float32)


@pytest.mark.parametrize(("vsrc", "fsrc", "kw", "message"), [
    (VS_POS_COLOR, FS_COLOR, {"attrs": {0: TRI}},
     "the vertex shader reads location 1 (vec4); give it with --attr 1=FILE.npy"),
    (VS_POS_COLOR, FS_COLOR, {"attrs": {0: TRI, 1: TRI.astype(np.int32)}},
     "--attr 1: dtype int32 does not match the vertex shader's vec4 (want float32)"),
    (VS_POS_COLOR, FS_COLOR, {"attrs": {0: TRI[:2], 1: TRI}},
     "--attr 0: 2 elements for a draw of 3 vertices"),
    (VS_POS_COLOR, FS_COLOR, {"attrs": {0: TRI, 1: TRI}, "index": np.array([0, 1, 3], np.uint32)},
     "--attr 0: 3 elements; the index buffer reads vertex 3"),
    (VS_POS_COLOR, FS_COLOR, {"attrs": {0: TRI, 1: TRI}, "color": "rgba32ui"},
     "the fragment shader writes a vec4 to location 0; --color rgba32ui does not take it"),
    (VS_POS_COLOR, FS_COLOR, {"attrs": {0: TRI, 1: TRI}, "blend": "alpha", "color": "r32ui"},
     "--blend alpha needs a float or unorm --color, not r32ui"),
    (VS_POS_COLOR, """#version 450
     layout(location = 0) in vec4 a; layout(location = 3) in vec2 b;
     layout(location = 0) out vec4 o; void main() { o = a + b.x; }""",
     {"attrs": {0: TRI, 1: TRI}},
     "stage mismatch: the fragment shader reads location 3 (vec2), which the vertex shader "
     "does not write"),
    (VS_POS_COLOR, """#version 450
     layout(location = 0) flat in ivec4 a; layout(location = 0) out vec4 o;
     void main() { o = vec4(a); }""", {"attrs": {0: TRI, 1: TRI}},
     "stage mismatch: the fragment shader reads location 0 as ivec4; the vertex shader "
     "writes vec4"),
    (VS_POS_COLOR, """#version 450
     layout(location = 0) in vec4 a; layout(location = 0) out vec4 o[2];
     void main() { o[0] = a; o[1] = a; }""", {"attrs": {0: TRI, 1: TRI}},
     "outputs must be 32-bit scalars or vectors"),
    (VS_POS_COLOR, FS_COLOR, {"attrs": {0: TRI, 1: TRI}, "size": (0, 4)},
     "--size 0,4: width and height must be in 1..16384"),
    (VS_POS_COLOR, FS_COLOR, {"attrs": {0: TRI, 1: TRI}, "samples": 4},
     "--samples 4: only 1 is supported"),
])
def test_bad_input(glsl, lvp, vsrc, fsrc, kw, message):
    kw = {"size": (4, 4), "count": 3, **kw}
    with pytest.raises(DrawInputError) as e:
        run_draw(vs(glsl, vsrc), fs(glsl, fsrc), **kw)
    assert message in str(e.value)


def test_integer_input_must_be_flat(glsl, lvp):
    vsrc = """#version 450
    layout(location = 0) in vec4 p; layout(location = 0) out int k;
    void main() { gl_Position = p; k = 1; }"""
    spv = vs(glsl, vsrc)
    fsrc = """#version 450
    layout(location = 0) flat in int k; layout(location = 0) out vec4 o;
    void main() { o = vec4(k); }"""
    # glslang refuses a non-flat integer input: make it centroid in the SPIR-V instead;
    # spirv-val refuses it (VUID-StandaloneSpirv-Flat-04744) before the oracle's own check
    words = np.frombuffer(fs(glsl, fsrc), np.uint32).copy()
    flat = np.nonzero((words[:-2] == (3 << 16 | 71)) & (words[2:] == 14))[0]
    assert len(flat) == 1
    words[flat[0] + 2] = 16  # Centroid
    with pytest.raises(DrawInputError, match="Flat"):
        run_draw(spv, words.tobytes(), size=(4, 4), count=3, attrs={0: TRI})


def test_entry_points_by_stage(glsl, lvp):
    f = fs(glsl)
    with pytest.raises(DrawInputError, match=r"no vertex entry point \(the module has: "
                                             r"main \(fragment\)\)"):
        run_draw(f, f, size=(4, 4), count=3)


def test_unused_attribute_is_a_warning(glsl, lvp):
    out = run_draw(vs(glsl), fs(glsl), size=(4, 4), count=3,
                   attrs={0: TRI, 1: TRI, 5: TRI})
    assert out.warnings == ["--attr 5: the vertex shader does not read location 5; ignored"]


def test_cli_exit_statuses(glsl, lvp, tmp_path):
    (tmp_path / "v.spv").write_bytes(vs(glsl))
    (tmp_path / "f.spv").write_bytes(fs(glsl))
    np.save(tmp_path / "p.npy", TRI)
    np.save(tmp_path / "c.npy", np.ones((3, 4), np.float32))
    base = [sys.executable, "-m", "radcc.oracle.lavapipe_draw", "--vert",
            str(tmp_path / "v.spv"), "--frag", str(tmp_path / "f.spv"), "--size", "4,4",
            "--draw", "3", "--out", str(tmp_path / "out"), "--attr", f"0={tmp_path}/p.npy"]
    p = subprocess.run(base, capture_output=True, text=True)
    assert p.returncode == 1 and "give it with --attr 1=FILE.npy" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
    p = subprocess.run([*base, "--attr", f"1={tmp_path}/c.npy", "--clear", "0,0,0,1"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    img = np.load(tmp_path / "out" / "color0.npy")
    assert img.shape == (4, 4, 4) and img.dtype == np.uint8
    assert tuple(img[0, 0]) == (255, 255, 255, 255) and tuple(img[3, 3]) == (0, 0, 0, 255)


def test_points_lines_and_polygon_line_smoke(glsl, lvp):
    """Not covered by the runner's self-test either (the interface: smoke-tested only, away
    from pixel boundaries): a point lights its pixel, a line the pixels it crosses, a
    polygon in line mode its outline only."""
    size = (16, 16)
    col = np.ones((4, 4), np.float32)
    pts = clip_of(np.array([[2.5, 3.5], [10.5, 12.5], [7.5, 7.5], [14.5, 0.5]]), size)
    out = run_draw(vs(glsl), fs(glsl), size=size, count=4, attrs={0: pts, 1: col},
                   topology="point-list").colors[0][..., 0]
    assert sorted(map(tuple, np.argwhere(out > 0).tolist())) == [(0, 14), (3, 2), (7, 7),
                                                                 (12, 10)]
    line = clip_of(np.array([[1.3, 5.5], [13.7, 5.5]]), size)
    out = run_draw(vs(glsl), fs(glsl), size=size, count=2, attrs={0: line, 1: col[:2]},
                   topology="line-list").colors[0][..., 0]
    lit = np.argwhere(out > 0)
    assert set(lit[:, 0].tolist()) == {5} and 12 <= len(lit) <= 13
    tri = clip_of(np.array([[1.3, 1.2], [14.6, 1.7], [2.2, 14.4]]), size)
    filled = run_draw(vs(glsl), fs(glsl), size=size, count=3, attrs={0: tri, 1: col[:3]})
    outline = run_draw(vs(glsl), fs(glsl), size=size, count=3, attrs={0: tri, 1: col[:3]},
                       polygon="line")
    f, o = filled.colors[0][..., 0] > 0, outline.colors[0][..., 0] > 0
    assert o.sum() < f.sum() and not o[5:8, 4:7].any() and f[5:8, 4:7].all()


def test_empty_draws_return_the_clear_values(glsl, lvp):
    for count, instances in ((0, 1), (3, 0)):
        out = run_draw(vs(glsl), fs(glsl), size=(4, 2), count=count, instances=instances,
                       attrs={0: TRI, 1: TRI}, clear=(0.2, 0.4, 0.6, 0.8), depth=True)
        assert (out.colors[0] == [51, 102, 153, 204]).all()  # round(x * 255)
        assert (out.depth == 1.0).all()
