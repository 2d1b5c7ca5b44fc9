"""VS + FS draws covering issue 12's features, each with its inputs and state as the
draw interface's options (`DrawCase.kwargs()` = the keyword arguments of
`radcc.oracle.lavapipe_draw.run_draw`, which `radcc draw`'s library function mirrors).

Every case's reference is lavapipe's rendering of it, made by the oracle when a test runs
(tests/e2e/draw/harness.py), never stored. Geometry keeps pixel centres off triangle
edges where the rule is not the point, and avoids points and lines on pixel boundaries
(the interface's warning); the clear colours are values the shaders never write, so that
coverage is "differs from the clear colour".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SHADERS = Path(__file__).resolve().parent / "shaders"


@dataclass
class DrawCase:
    name: str
    vert: str  # file in shaders/
    frag: str
    size: tuple[int, int]
    count: int
    instances: int = 1
    attrs: dict[int, np.ndarray] = field(default_factory=dict)
    inst_attrs: dict[int, np.ndarray] = field(default_factory=dict)
    index: np.ndarray | None = None
    topology: str = "triangle-list"
    color: str = "rgba8"
    clear: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4)
    depth: bool = False
    blend: str | None = None
    cull: str = "none"
    front_face: str = "ccw"
    buffers: dict[tuple[int, int], Any] = field(default_factory=dict)
    images: dict[tuple[int, int], tuple[np.ndarray, str | None]] = field(default_factory=dict)
    samplers: dict[tuple[int, int], str] = field(default_factory=dict)
    push: bytes = b""
    # comparison: absolute tolerance of float attachments (rgba8: 1 unit; integers exact)
    atol: float = 2e-5
    rtol: float = 1e-5
    # colour attachment 0's coverage is "differs from the clear colour" (False where the
    # shader may write the clear colour, or blending keeps it)
    coverage_from_color: bool = True
    features: tuple[str, ...] = ()
    # the (vert, frag) lavapipe renders instead, when it cannot compile the case's own
    # (its LLVM 15 aborts on 16-bit varyings): 32-bit twins computing the same values
    reference_shaders: tuple[str, str] | None = None

    def kwargs(self) -> dict[str, Any]:
        """The draw's keyword arguments (run_draw's, after the two SPIR-V modules)."""
        return dict(size=self.size, count=self.count, instances=self.instances,
                    attrs=self.attrs, inst_attrs=self.inst_attrs, index=self.index,
                    topology=self.topology, buffers=self.buffers, images=self.images,
                    samplers=self.samplers, push_constants=self.push, color=self.color,
                    clear=self.clear, depth=self.depth, blend=self.blend, cull=self.cull,
                    front_face=self.front_face)


def clip(fb_xy: Any, size: tuple[int, int], z: Any = 0.5, w: Any = 1.0) -> np.ndarray:
    """(N, 4) float32 clip positions whose framebuffer xy are `fb_xy`, depth z, clip w."""
    fb = np.asarray(fb_xy, np.float64)
    n = len(fb)
    ww = np.broadcast_to(np.asarray(w, np.float64), (n,))
    zz = np.broadcast_to(np.asarray(z, np.float64), (n,))
    x = (fb[:, 0] * 2 / size[0] - 1) * ww
    y = (fb[:, 1] * 2 / size[1] - 1) * ww
    return np.stack([x, y, zz * ww, ww], axis=1).astype(np.float32)


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(sum(map(ord, name)))


def _colors(name: str, n: int, lo: float = 0.05, hi: float = 0.85) -> np.ndarray:
    return _rng(name).uniform(lo, hi, (n, 4)).astype(np.float32)


def _random_triangles(name: str, size: tuple[int, int], n: int) -> np.ndarray:
    """n triangles with vertices on the 1/256 grid, anywhere in (and a little beyond) the
    framebuffer."""
    r = _rng(name)
    fb = r.integers(-256 * 2, 256 * (max(size) + 2), (3 * n, 2)) / 256.0
    return clip(fb, size, z=r.uniform(0.1, 0.9, 3 * n), w=r.uniform(0.5, 2.0, 3 * n))


S = (32, 24)
TRI = np.array([[2.3, 1.7], [29.6, 4.2], [7.4, 22.9]])
QUAD = np.array([[3.2, 2.6], [28.7, 2.6], [28.7, 21.4], [3.2, 21.4]])
W3 = np.array([1.0, 2.5, 0.6])


def _cases() -> list[DrawCase]:
    cases: list[DrawCase] = []
    add = cases.append

    add(DrawCase("smooth_rgba8", "basic.vert", "color.frag", S, 3,
                 attrs={0: clip(TRI, S, w=W3), 1: _colors("smooth", 3)},
                 features=("smooth interpolation", "perspective", "rgba8")))
    add(DrawCase("interp_modes", "interp.vert", "interp.frag", S, 6,
                 attrs={0: np.concatenate([clip(TRI, S, w=W3),
                                           clip(QUAD[[0, 2, 3]], S, w=[0.7, 1.3, 2.0])]),
                        1: _colors("interp", 6)},
                 color="rgba32f", clear=(-1, -1, -1, -1),
                 features=("smooth", "flat", "noperspective", "provoking vertex", "MRT")))
    # 16-bit varyings (f16 smooth/flat/noperspective, int16/uint16 flat) beside a 32-bit
    # one; lavapipe renders 32-bit twins holding the same f16 values: the interpolated
    # f16 values differ by f16 rounding of P10/P20 (the hardware's FP16 parameters)
    add(DrawCase("interp_16bit", "interp16.vert", "interp16.frag", S, 6,
                 attrs={0: np.concatenate([clip(TRI, S, w=W3),
                                           clip(QUAD[[0, 2, 3]], S, w=[0.7, 1.3, 2.0])]),
                        1: _colors("interp16", 6)},
                 color="rgba32f", clear=(-1, -1, -1, -1), atol=2e-3, rtol=1e-3,
                 reference_shaders=("interp16_ref.vert", "interp16_ref.frag"),
                 features=("16-bit varyings", "f16 interpolation", "flat int16")))
    # gl_ClipDistance clips (lines x = -0.3 and y = 0.6 in NDC cross the triangles),
    # gl_CullDistance removes the triangles whose three colours have red < 0.6 (one of the list, one of the strip);
    # centroid interpolation and gl_SampleID (0) in the fragment shader
    fb = _rng("clipdist").uniform(-2, 34, (18, 2)) * [1, 0.75]
    for topo in ("triangle-list", "triangle-strip"):
        add(DrawCase(f"clip_cull_distances_{topo.split('-')[1]}", "clipdist.vert",
                     "centroid_sample.frag", S, 18,
                     attrs={0: clip(fb, S, w=_rng("cdw").uniform(0.6, 1.8, 18)),
                            1: _rng("cdc").uniform(0.0, 1.0, (18, 4)).astype(np.float32)},
                     topology=topo, color="rgba32f", clear=(-1, -1, -1, -1),
                     features=("clip distances", "cull distances", "centroid",
                               "gl_SampleID")))
    # 64-bit flat varyings (dvec3 over two locations, double): their dwords in the ring,
    # paired again in the fragment shader
    add(DrawCase("flat_64bit", "flat64.vert", "flat64.frag", S, 6,
                 attrs={0: np.concatenate([clip(TRI, S, w=W3),
                                           clip(QUAD[[0, 2, 3]], S, w=[0.7, 1.3, 2.0])]),
                        1: _colors("flat64", 6)},
                 color="rgba32f", clear=(-1, -1, -1, -1), features=("64-bit varyings",)))
    add(DrawCase("fragcoord", "basic.vert", "fragcoord.frag", S, 3,
                 attrs={0: clip(TRI, S, z=[0.2, 0.5, 0.9], w=W3), 1: _colors("fc", 3)},
                 color="rgba32f", clear=(-1, -1, -1, -1), features=("gl_FragCoord",)))
    # one clockwise and one counter-clockwise triangle (on the image)
    facing_pos = np.concatenate([clip([[1.5, 1.5], [14.5, 1.5], [1.5, 20.5]], S),
                                 clip([[17.5, 1.5], [17.5, 20.5], [30.5, 20.5]], S)])
    add(DrawCase("front_facing", "basic.vert", "facing.frag", S, 6,
                 attrs={0: facing_pos, 1: _colors("facing", 6)},
                 features=("gl_FrontFacing",)))
    add(DrawCase("cull_back_cw", "basic.vert", "facing.frag", S, 6,
                 attrs={0: facing_pos, 1: _colors("facing", 6)}, cull="back",
                 front_face="cw", features=("culling", "front face cw")))
    add(DrawCase("cull_front", "basic.vert", "facing.frag", S, 6,
                 attrs={0: facing_pos, 1: _colors("facing", 6)}, cull="front",
                 features=("culling",)))
    add(DrawCase("discard_depth", "basic.vert", "discard.frag", S, 6,
                 attrs={0: np.concatenate([clip(TRI, S, z=0.3), clip(QUAD[[0, 1, 2]], S,
                                                                     z=0.6)]),
                        1: _colors("discard", 6, 0.0, 1.0)},
                 depth=True, features=("discard", "depth")))
    add(DrawCase("demote_derivatives", "basic.vert", "demote.frag", S, 3,
                 attrs={0: clip(TRI, S, w=W3), 1: _colors("demote", 3)},
                 color="rgba32f", clear=(-9, -9, -9, -9), atol=1e-4, rtol=1e-4,
                 features=("demote", "helper lanes", "derivatives")))
    add(DrawCase("derivatives", "basic.vert", "deriv.frag", S, 6,
                 attrs={0: np.concatenate([clip(TRI, S, w=W3), clip(QUAD[[0, 2, 3]], S)]),
                        1: _colors("deriv", 6)},
                 color="rgba32f", clear=(-9, -9, -9, -9), atol=1e-4, rtol=1e-4,
                 features=("dFdx/dFdy", "fwidth", "coarse", "fine", "WQM")))
    tex8 = _rng("tex8").integers(0, 256, (16, 16, 4)).astype(np.uint8)
    uv = _colors("texuv", 4, 0.0, 1.0)
    uv[:, :2] = [[-0.2, -0.1], [1.3, -0.1], [1.3, 1.2], [-0.2, 1.2]]
    uv[:, 3] = 1.0
    quad_idx = np.array([0, 1, 2, 2, 3, 0], np.uint16)
    add(DrawCase("texture_linear_rgba8", "basic.vert", "tex.frag", S, 6,
                 attrs={0: clip(QUAD, S, w=[1.0, 1.5, 2.0, 0.8]), 1: uv}, index=quad_idx,
                 images={(0, 0): (tex8, None)}, samplers={(0, 0): "linear,repeat"},
                 coverage_from_color=False,
                 features=("texture", "implicit LOD", "linear filter", "indexed")))
    texf = _rng("texf").uniform(-2, 2, (8, 8, 4)).astype(np.float32)
    add(DrawCase("texture_nearest_rgba32f", "basic.vert", "tex.frag", S, 6,
                 attrs={0: clip(QUAD, S), 1: uv}, index=quad_idx.astype(np.uint32),
                 images={(0, 0): (texf, None)}, samplers={(0, 0): "nearest,clamp"},
                 color="rgba32f", clear=(-9, -9, -9, -9), coverage_from_color=False,
                 features=("texture", "nearest", "rgba32f texture", "uint32 index")))
    for fmt in ("rgba8", "rgba16f", "rgba32f", "r32f"):
        add(DrawCase(f"mrt_float_{fmt}", "basic.vert", "mrt_float.frag", S, 6,
                     attrs={0: np.concatenate([clip(TRI, S, w=W3), clip(QUAD[[0, 2, 3]], S)]),
                            1: _colors("mrt", 6)},
                     color=fmt, clear=(0.1, 0.2, 0.3, 0.4) if fmt == "rgba8" else (-1,) * 4,
                     atol=2e-3 if fmt == "rgba16f" else 2e-5,
                     rtol=2e-3 if fmt == "rgba16f" else 1e-5,
                     features=("MRT", fmt, "write masks")))
    for fmt in ("rgba32ui", "r32ui"):
        add(DrawCase(f"mrt_uint_{fmt}", "basic.vert", "mrt_uint.frag", S, 3,
                     attrs={0: clip(TRI, S), 1: _colors("mrtu", 3)}, color=fmt,
                     clear=(7, 7, 7, 7), features=("MRT", fmt, "integer export")))
    add(DrawCase("mrt_int_rgba32i", "basic.vert", "mrt_int.frag", S, 3,
                 attrs={0: clip(TRI, S), 1: _colors("mrti", 3)}, color="rgba32i",
                 clear=(-7777, 7, 7, 7), features=("MRT", "rgba32i", "integer export")))
    # three overlapping triangles at different depths, drawn back to front and front to back
    tris = np.concatenate([clip(TRI, S, z=[0.5, 0.2, 0.8]),
                           clip(QUAD[[0, 1, 3]], S, z=[0.6, 0.3, 0.4]),
                           clip(QUAD[[1, 2, 3]], S, z=[0.1, 0.9, 0.5])])
    add(DrawCase("depth_less", "basic.vert", "color.frag", S, 9,
                 attrs={0: tris, 1: _colors("depth", 9)}, depth=True, features=("depth",)))
    add(DrawCase("frag_depth", "basic.vert", "fragdepth.frag", S, 9,
                 attrs={0: tris, 1: _colors("fdepth", 9)}, depth=True,
                 features=("gl_FragDepth", "exp mrtz", "depth")))
    blend_col = _colors("blend", 9, 0.1, 0.9)
    for fmt in ("rgba8", "rgba16f", "rgba32f"):
        add(DrawCase(f"blend_alpha_{fmt}", "basic.vert", "color.frag", S, 9,
                     attrs={0: tris, 1: blend_col}, blend="alpha", color=fmt,
                     clear=(0.0, 0.25, 1.0, 1.0), coverage_from_color=False,
                     atol=2e-3 if fmt == "rgba16f" else 2e-5,
                     rtol=2e-3 if fmt == "rgba16f" else 1e-5,
                     features=("blending", fmt)))
    # indexed + instanced: a square (4 vertices, 6 indices) drawn 5 times
    sq = np.array([[-0.6, -0.6], [0.6, -0.6], [0.6, 0.6], [-0.6, 0.6]], np.float32)
    offsets = np.array([[-0.55, -0.45], [0.3, -0.4], [-0.3, 0.35], [0.5, 0.5], [0.05, 0.02]],
                       np.float32)
    tints = _colors("tints", 5, 0.2, 0.9)
    add(DrawCase("indexed_instanced_ids", "instanced.vert", "ids.frag", S, 6, instances=5,
                 attrs={0: sq}, inst_attrs={1: offsets, 2: tints}, index=quad_idx,
                 color="rgba32ui", clear=(99, 99, 99, 99),
                 features=("indexed uint16", "instanced", "gl_VertexIndex",
                           "gl_InstanceIndex", "flat uint")))
    add(DrawCase("instanced_strip_uint32", "instanced.vert", "instanced_color.frag", S, 4,
                 instances=3, attrs={0: sq[[0, 1, 3, 2]]},
                 inst_attrs={1: offsets[:3], 2: tints[:3]},
                 index=np.array([0, 1, 2, 3], np.uint32), topology="triangle-strip",
                 features=("triangle strip", "indexed uint32", "instanced")))
    fan = np.array([[16.3, 12.2], [2.2, 3.1], [16.1, 0.7], [30.4, 2.6], [31.1, 20.2],
                    [15.7, 23.6], [1.4, 19.3]])
    add(DrawCase("triangle_fan", "interp.vert", "interp.frag", S, 7,
                 attrs={0: clip(fan, S, w=np.linspace(0.6, 1.8, 7)), 1: _colors("fan", 7)},
                 topology="triangle-fan", color="rgba32f", clear=(-1, -1, -1, -1),
                 features=("triangle fan", "provoking vertex")))
    strip = np.array([[1.2, 2.3], [2.6, 21.7], [9.3, 1.4], [12.2, 22.6], [20.6, 1.9],
                      [22.4, 21.2], [30.8, 3.3]])
    add(DrawCase("triangle_strip", "interp.vert", "interp.frag", S, 7,
                 attrs={0: clip(strip, S), 1: _colors("strip", 7)},
                 topology="triangle-strip", color="rgba32f", clear=(-1, -1, -1, -1),
                 features=("triangle strip", "provoking vertex")))
    m = np.array([[0.9, 0.1, 0, 0], [-0.2, 1.1, 0, 0], [0, 0, 0.5, 0], [0.05, -0.1, 0.5, 1]],
                 np.float32)  # column-major: columns are rows of this array
    ubo = np.concatenate([m.reshape(-1), [0.3, -0.2, 0.1, 0.0]]).astype(np.float32)
    push = np.array([0.2, 0.5, 0.7, 1.0, 0.9], np.float32).tobytes()
    pos3 = np.array([[-0.9, -0.8, 0.1], [0.8, -0.9, 0.5], [-0.7, 0.9, 0.9],
                     [0.9, 0.2, 0.2], [0.1, 0.95, 0.4], [0.95, 0.9, 0.7]], np.float32)
    add(DrawCase("ubo_push_vs", "transform.vert", "color.frag", S, 6, attrs={0: pos3},
                 buffers={(0, 0): ubo}, push=push,
                 features=("uniform buffer in VS", "push constants", "vec3 attribute")))
    add(DrawCase("fullscreen_vertex_index", "fullscreen.vert", "uv_pattern.frag", S, 3,
                 features=("no vertex inputs", "gl_VertexIndex", "guard band")))
    # clipping: a vertex behind the near plane and one with w < 0
    add(DrawCase("clip_near_w", "basic.vert", "color.frag", S, 6,
                 attrs={0: np.array([[-0.9, -0.9, 0.5, 1.0], [0.9, -0.8, -0.6, 1.0],
                                     [-0.5, 0.9, 0.5, 1.0], [0.2, -0.5, 0.3, 1.0],
                                     [0.9, 0.9, 0.2, -0.5], [-0.9, 0.5, 0.4, 1.0]],
                                    np.float32), 1: _colors("clip", 6)},
                 depth=True, features=("clipping z < 0", "clipping w < 0")))
    add(DrawCase("ssbo_atomics_fs", "basic.vert", "ssbo_count.frag", S, 6,
                 attrs={0: np.concatenate([clip(TRI, S), clip(QUAD[[1, 2, 3]], S)]),
                        1: _colors("ssbo", 6, 0.0, 0.99)},
                 buffers={(0, 1): np.zeros(17, np.uint32)},
                 features=("storage buffer in FS", "atomics", "exact mode")))
    n = 120  # 360 vertices: several vertex waves of either size, many pixel waves
    add(DrawCase("many_triangles", "basic.vert", "color.frag", (48, 40), 3 * n,
                 attrs={0: _random_triangles("many", (48, 40), n),
                        1: _colors("many", 3 * n)}, depth=True,
                 features=("many waves", "depth", "perspective")))
    return cases


CASES: list[DrawCase] = _cases()
BY_NAME: dict[str, DrawCase] = {c.name: c for c in CASES}
