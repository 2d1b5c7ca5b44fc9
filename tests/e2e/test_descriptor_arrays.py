"""Arrays of descriptors (issue 11): storage images, texel buffers, sampled images with
separate samplers and combined image samplers declared as arrays, indexed by constants
and by dynamically uniform values (a push constant, a value loaded from a buffer), compiled
by radcc (each element's descriptor loaded from the array's address + index x RADV's
descriptor size, docs/abi.md "Arrays of descriptors") and run in the strict emulator,
wave32 and wave64, against NumPy (lavapipe 22.3 has no dynamic indexing of image arrays:
docs/oracle-lavapipe.md); non-uniform indices (``nonuniformEXT``: the waterfall loop of
`radcc.frontend.opt.lower_non_uniform`); the SMEM/MIMG encodings against llvm-mc-19;
`radcc run` with ``SET:BINDING:INDEX``; the code-object metadata; refusals with word
offsets.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from tests.support.tools import (
    assert_gfx1100_encodings_match_llvm_mc,
    assert_glsl_refused_by_name,
    emitted_lines,
    glsl_file_spirv,
    run_radcc,
)

HERE = Path(__file__).parent / "images"
DKey = tuple[int, ...]
SEL = np.array([1, 1, 0, 2], np.uint32)  # the shader's buffer-loaded indices


def _spirv() -> bytes:
    return glsl_file_spirv(HERE / "arr_descriptors.comp")


def _inputs() -> dict[DKey, tuple[np.ndarray, str | None]]:
    rng = np.random.default_rng(3)
    im: dict[DKey, tuple[np.ndarray, str | None]] = {}
    for i in range(3):
        im[(0, 0, i)] = (rng.random((8, 8, 4), dtype=np.float32), None)  # src[3]
        im[(0, 5, i)] = (rng.random((8, 8, 4), dtype=np.float32), None)  # cs[3]
    for i in range(2):
        im[(0, 1, i)] = (rng.integers(0, 1000, (8, 8), dtype=np.uint32), None)  # dst[2]
        im[(0, 2, i)] = (rng.random((80 + 8 * i, 4), dtype=np.float32), None)  # tb[2]
        im[(0, 3, i)] = (rng.random((8, 8, 4), dtype=np.float32), None)  # tex[2]
    return im


# every sampled coordinate is a texel centre: nearest and linear give the texel
SAMPLERS = {(0, 4, 0): "nearest,clamp", (0, 4, 1): "linear,repeat",
            (0, 5, 0): "linear,clamp", (0, 5, 2): "nearest"}


def _reference(im: dict[DKey, tuple[np.ndarray, str | None]], which: int, w2: int
               ) -> tuple[np.ndarray, dict[DKey, np.ndarray]]:
    """NumPy: the 64 x 4 vec4s of Out and the two r32ui images after the dispatch."""
    g = {k: a for k, (a, _) in im.items()}
    o = np.zeros((64, 4, 4), np.float32)
    o[:, 0] = (g[(0, 0, 1)] + 2 * g[(0, 0, which)]).reshape(64, 4)
    tb = g[(0, 2, int(SEL[0]))]
    o[:, 1] = tb[:64] + g[(0, 2, 0)][1:65]
    o[:, 2] = (g[(0, 3, int(SEL[1]))] + g[(0, 3, 0)] + g[(0, 5, int(SEL[3]))]
               + g[(0, 5, 2)]).reshape(64, 4)
    idx = np.arange(64, dtype=np.uint32).reshape(8, 8)
    old = g[(0, 1, 1 - w2)]
    o[:, 3, 0:2] = 16  # imageSize(src[which]) + textureSize(cs[sel[3]], 0): 8 + 8
    o[:, 3, 2] = old.reshape(64).astype(np.float32)
    o[:, 3, 3] = len(tb)
    imgs = {(0, 1, w2): idx * 3 + 1, (0, 1, 1 - w2): old + idx + 5}
    return o, imgs


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("which, w2", [(2, 0), (0, 1)])
def test_descriptor_arrays(wave: int, which: int, w2: int) -> None:
    from radcc.driver.run import run_compute

    im = _inputs()
    got = run_compute(_spirv(), groups=(1, 1, 1), images=im, samplers=SAMPLERS,
                      buffers={(0, 6): 64 * 64, (0, 7): SEL},
                      push_constants=struct.pack("<II", which, w2), wave_size=wave)
    want, imgs = _reference(im, which, w2)
    o = np.frombuffer(bytes(got[(0, 6)]), np.float32).reshape(64, 4, 4)
    np.testing.assert_allclose(o, want, rtol=1e-6, atol=1e-6)
    for key, arr in imgs.items():
        assert np.array_equal(got[key], arr), key
    for key, (arr, _) in im.items():  # read-only elements come back unchanged
        if key[1] != 1:
            assert np.array_equal(got[key], arr), key


@pytest.mark.parametrize("wave", [32, 64])
def test_descriptor_array_code_and_metadata(wave: int) -> None:
    """Constant indices are SMEM immediate offsets (index x stride), dynamic ones an
    ``s_mul_i32`` by the stride as the SGPR offset; the instructions encode as llvm-mc-19
    encodes them; the metadata's image/sampler arguments carry the count and RADV's
    stride (storage image 32, texel buffer 16, sampled image 64, sampler 16, combined
    image sampler 96 for both halves)."""
    from radcc.codeobj.elfread import read_code_object
    from radcc.driver.compile import compile_spirv

    res = compile_spirv(_spirv(), wave_size=wave)
    smem = emitted_lines(res.asm, "s_load_b")
    assert any(ln.startswith("s_load_b256") and ln.endswith(", 0x20") for ln in smem), smem
    # src[1] at 32, cs[2]'s T# at 2 x 96, smp[1] at 16
    assert any(ln.startswith("s_load_b256") and ln.endswith(", 0xc0") for ln in smem), smem
    assert any(ln.startswith("s_load_b128") and ln.endswith(", 0x10") for ln in smem), smem
    muls = emitted_lines(res.asm, "s_mul_i32")
    for stride in (32, 16, 64, 96):
        assert any(ln.endswith(f", {stride}") or ln.endswith(f", 0x{stride:x}")
                   for ln in muls), (stride, muls)
    lines = sorted(smem | muls | emitted_lines(res.asm, "image_"))
    assert_gfx1100_encodings_match_llvm_mc(lines, wave)
    meta = read_code_object(res.code_object).metadata
    assert meta is not None
    args = {a[".name"]: a for a in meta["amdhsa.kernels"][0][".args"]}
    want = {"set0_binding0": (3, 32), "set0_binding1": (2, 32), "set0_binding2": (2, 16),
            "set0_binding3": (2, 64), "set0_binding4_sampler": (2, 16),
            "set0_binding5": (3, 96), "set0_binding5_sampler": (3, 96)}
    for name, (n, stride) in want.items():
        a = args[name]
        assert (a[".radcc_descriptor_count"], a[".radcc_descriptor_stride"]) == (n, stride)
    assert ".radcc_descriptor_count" not in args["set0_binding6"]


def test_radcc_run_descriptor_array_files(tmp_path: Path) -> None:
    """`radcc run --image S:B:I=FILE.npy --sampler S:B:I=...`: every element written back
    as DIR/S_B_I.npy; an element index on a plain binding, a plain key on an array and an
    index past the array are errors naming the option."""
    im = _inputs()
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv())
    (tmp_path / "sel.bin").write_bytes(SEL.tobytes())
    (tmp_path / "pc.bin").write_bytes(struct.pack("<II", 2, 0))
    args = ["run", str(spv), "--groups", "1", "--quiet", "--out", str(tmp_path / "out"),
            "--buffer", "0:6=zeros:4096", "--buffer", f"0:7={tmp_path / 'sel.bin'}",
            "--push", str(tmp_path / "pc.bin")]
    for key, (arr, _) in im.items():
        name = "_".join(map(str, key))
        np.save(tmp_path / f"in{name}.npy", arr)
        args += ["--image", ":".join(map(str, key)) + f"={tmp_path / f'in{name}.npy'}"]
    for key, text in SAMPLERS.items():
        args += ["--sampler", ":".join(map(str, key)) + "=" + text]
    rc, _, err = run_radcc(*args)
    assert rc == 0, err
    want, imgs = _reference(im, 2, 0)
    o = np.frombuffer((tmp_path / "out" / "0_6.bin").read_bytes(), np.float32)
    np.testing.assert_allclose(o.reshape(64, 4, 4), want, rtol=1e-6, atol=1e-6)
    for key, arr in imgs.items():
        got = np.load(tmp_path / "out" / ("_".join(map(str, key)) + ".npy"))
        assert got.dtype == arr.dtype and np.array_equal(got, arr), key
    for old, new, message in [
            ("0:0:0=", "0:0=", "--image 0:0: binding 0:0 is an array of 3 descriptors: "
                               "give its elements as 0:0:INDEX"),
            ("0:0:0=", "0:0:3=", "--image 0:0:3: index 3 outside the array of 3"),
            ("0:4:1=", "0:4:2=", "--sampler 0:4:2: index 2 outside the array of 2")]:
        bad = [a.replace(old, new) if a.startswith(old) else a for a in args]
        rc, _, err = run_radcc(*bad)
        assert rc == 1 and message in err and "Traceback" not in err, err


@pytest.mark.parametrize("decl, use, message", [
    ("layout(r32f) uniform readonly image2D img[2][3];",
     "o[i] = imageLoad(img[pc.k][1], ivec2(0)).x;",
     "VUID-StandaloneSpirv-UniformConstant-04655"),  # arrays of arrays: spirv-val's
])
def test_descriptor_array_refusals(tmp_path: Path, decl: str, use: str, message: str
                                   ) -> None:
    assert_glsl_refused_by_name(
        tmp_path, "#version 450\n#extension GL_EXT_nonuniform_qualifier : require\n"
                  "layout(local_size_x = 8) in;\n"
                  f"layout(set = 0, binding = 0) {decl}\n"
                  "layout(set = 0, binding = 1) buffer Out { float o[]; };\n"
                  "layout(push_constant) uniform P { uint k; } pc;\n"
                  f"void main() {{ uint i = gl_LocalInvocationIndex; {use} }}\n", message)


def _nonuniform_inputs() -> dict[DKey, tuple[np.ndarray, str | None]]:
    rng = np.random.default_rng(10)
    im: dict[DKey, tuple[np.ndarray, str | None]] = {}
    for k in range(3):
        im[(0, 0, k)] = (rng.random((8, 8, 4), dtype=np.float32), None)  # src[3]
        im[(0, 2, k)] = (rng.random((8, 8, 4), dtype=np.float32), None)  # cs[3]
    for k in range(4):
        im[(0, 1, k)] = (rng.integers(0, 1 << 20, (8, 8), dtype=np.uint32), None)  # dst[4]
    for k in range(2):
        im[(0, 3, k)] = (rng.random((8, 8, 4), dtype=np.float32), None)  # tex[2]
        im[(0, 5, k)] = (rng.random((64, 4), dtype=np.float32), None)  # tb[2]
    return im


@pytest.mark.parametrize("wave", [32, 64])
def test_nonuniform_descriptor_indices(wave: int) -> None:
    """Every invocation picks its own element (nonuniformEXT) of arrays of storage images
    (loads, stores, an atomic, a size), combined image samplers, sampled images with
    separate samplers and texel buffers: each access runs in a waterfall loop (one
    iteration per distinct index in the wave, the index uniform there), against NumPy."""
    from radcc.driver.compile import compile_spirv
    from radcc.driver.run import run_compute

    spv = glsl_file_spirv(HERE / "arr_nonuniform.comp")
    im = _nonuniform_inputs()
    smp = {(0, 4, 0): "nearest", (0, 4, 1): "linear,repeat", (0, 2, 1): "linear"}
    got = run_compute(spv, groups=(1, 1, 1), images=im, samplers=smp,
                      buffers={(0, 6): 64 * 48}, wave_size=wave)
    o = np.frombuffer(bytes(got[(0, 6)]), np.float32).reshape(64, 3, 4)
    g = {k: a for k, (a, _) in im.items()}
    i = np.arange(64)
    x, y = i % 8, i // 8
    a, b, c = i % 3, (i // 3) & 3, (i >> 2) & 1
    want_xy = np.stack([g[(0, 0, a[j])][y[j], x[j]] + g[(0, 2, 2 - a[j])][y[j], x[j]]
                        for j in i])
    want_zt = np.stack([g[(0, 3, c[j])][y[j], x[j]] + g[(0, 5, c[j])][j] for j in i])
    np.testing.assert_allclose(o[:, 0], want_xy, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(o[:, 1], want_zt, rtol=1e-6, atol=1e-6)
    assert np.array_equal(o[:, 2, 0], (i + 1).astype(np.float32))  # the stored value
    assert np.all(o[:, 2, 1] == 8)
    for k in range(4):
        want = g[(0, 1, k)].copy()
        sel = b == k
        want[y[sel], x[sel]] = i[sel] + 1001
        assert np.array_equal(got[(0, 1, k)], want), k
    asm = compile_spirv(spv, wave_size=wave).asm
    assert "v_readfirstlane_b32" in asm and "v_cmpx_eq_u32" in asm  # the waterfall
