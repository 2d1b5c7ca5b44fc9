"""Arrays of storage and uniform buffers (issue 11): ``buffer B { ... } b[3]`` and
``uniform U { ... } u[2]`` indexed by constants, dynamically uniform values (a push
constant, a value loaded from a uniform buffer) and non-uniform ones (``nonuniformEXT``),
with loads, stores, atomics and ``.length()`` of an element; compiled by radcc (each
element's 16-byte V# read from the array's address + index x 16, RADV's layout, and the
element addressed through the V#'s base address: docs/abi.md "Arrays of descriptors") and
run in the strict emulator, wave32 and wave64, against NumPy; `radcc run --buffer
SET:BINDING:INDEX`; the code-object metadata; the SMEM/global encodings against llvm-mc-19.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from tests.support.tools import (
    assert_gfx1100_encodings_match_llvm_mc,
    emitted_lines,
    glsl_file_spirv,
    run_radcc,
)

HERE = Path(__file__).parent / "images"
DKey = tuple[int, ...]
SCALE = np.float32(2.5)
DST_BYTES = (1056, 1072)  # dst[0], dst[1]: n, hits[4], 64 uvec4 w[] (+ one more in dst[1])


def _spirv() -> bytes:
    return glsl_file_spirv(HERE / "buf_arrays.comp")


def _inputs(sel: int) -> dict[DKey, np.ndarray | int]:
    rng = np.random.default_rng(5)
    bufs: dict[DKey, np.ndarray | int] = {
        (0, 0, i): rng.random(65 + 8 * i, dtype=np.float32) for i in range(3)}  # src[3]
    for i in range(2):  # dst[2]: random contents, overwritten where the shader writes
        bufs[(0, 1, i)] = rng.integers(0, 1 << 30, DST_BYTES[i] // 4, dtype=np.uint32)
    bufs[(0, 2, 0)] = np.array([SCALE, 0, 0, 0, 0, 0, 0, 0], np.float32)  # par[0]
    bufs[(0, 2, 1)] = np.array([0, 0, 0, 0, sel, 7, 7, 7], np.uint32)  # par[1].sel.x
    bufs[(0, 3)] = 64 * 16  # Out
    return bufs


def _reference(bufs: dict[DKey, np.ndarray | int], which: int, w2: int, sel: int
               ) -> tuple[np.ndarray, dict[DKey, np.ndarray]]:
    """NumPy: Out's 64 vec4s and dst[0], dst[1] after the dispatch."""
    src = [bufs[(0, 0, k)] for k in range(3)]
    assert all(isinstance(s, np.ndarray) for s in src)
    i = np.arange(64)
    k = i % 3
    o = np.zeros((64, 4), np.float32)
    o[:, 0] = src[1][:64] + SCALE + src[which][1:65]  # type: ignore[index]
    o[:, 1] = src[sel][:64]  # type: ignore[index]
    o[:, 2] = [src[kk][ii] for ii, kk in zip(i, k, strict=True)]  # type: ignore[index]
    o[:, 3] = len(src[which]) + len(src[sel])  # type: ignore[arg-type]
    dst = {j: np.array(bufs[(0, 1, j)], np.uint32) for j in range(2)}
    w = dst[w2][8:8 + 256].reshape(64, 4)
    w[:] = np.stack([i, 2 * i, 3 * i, k], axis=1)
    for ii in i:
        dst[ii & 1][1 + k[ii]] += 1
    dst[1 - w2][0] = (DST_BYTES[1 - w2] - 32) // 16
    return o, {(0, 1, j): d for j, d in dst.items()}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("which, w2, sel", [(2, 0, 2), (0, 1, 0)])
def test_buffer_arrays(wave: int, which: int, w2: int, sel: int) -> None:
    from radcc.driver.run import run_compute

    bufs = _inputs(sel)
    got = run_compute(_spirv(), groups=(1, 1, 1), buffers=bufs,
                      push_constants=struct.pack("<II", which, w2), wave_size=wave)
    want, dst = _reference(bufs, which, w2, sel)
    o = np.frombuffer(bytes(got[(0, 3)]), np.float32).reshape(64, 4)
    assert np.array_equal(o, want)
    for key, arr in dst.items():
        assert np.array_equal(np.frombuffer(bytes(got[key]), np.uint32), arr), key
    for key in [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 2, 0), (0, 2, 1)]:  # read only
        assert bytes(got[key]) == np.asarray(bufs[key]).tobytes(), key


@pytest.mark.parametrize("wave", [32, 64])
def test_buffer_array_code_and_metadata(wave: int) -> None:
    """A constant index is the SMEM immediate offset index x 16 of ``s_load_b128``, a
    dynamically uniform one an ``s_mul_i32`` by 16, a non-uniform one a per-invocation
    ``global_load_b128`` of the V#; the address is the V#'s bits 47:0 (``s_and_b32
    0xffff`` of dword 1); these encode as llvm-mc-19 encodes them. The metadata: an
    array's ``global_buffer`` argument carries ``.radcc_descriptor_count`` and stride 16,
    and has no ``_size`` argument."""
    from radcc.codeobj.elfread import read_code_object
    from radcc.driver.compile import compile_spirv

    res = compile_spirv(_spirv(), wave_size=wave)
    smem = emitted_lines(res.asm, "s_load_b128")
    assert any(ln.endswith(", 0x10") for ln in smem), smem  # src[1], par[1]
    assert any(ln.endswith(", 0x0") or ln.endswith(", 0") for ln in smem), smem  # par[0]
    muls = emitted_lines(res.asm, "s_mul_i32")
    assert any(ln.endswith(", 16") for ln in muls), muls
    vsharps = emitted_lines(res.asm, "global_load_b128")
    assert vsharps, res.asm
    ands = emitted_lines(res.asm, "s_and_b32") | emitted_lines(res.asm, "v_and_b32")
    assert any("0xffff" in ln for ln in ands), ands
    assert_gfx1100_encodings_match_llvm_mc(sorted(smem | muls | vsharps | ands), wave)
    meta = read_code_object(res.code_object).metadata
    assert meta is not None
    args = {a[".name"]: a for a in meta["amdhsa.kernels"][0][".args"]}
    for name, n in (("set0_binding0", 3), ("set0_binding1", 2), ("set0_binding2", 2)):
        a = args[name]
        assert a[".value_kind"] == "global_buffer"
        assert (a[".radcc_descriptor_count"], a[".radcc_descriptor_stride"]) == (n, 16)
        assert name + "_size" not in args
    assert ".radcc_descriptor_count" not in args["set0_binding3"]
    assert "set0_binding3_size" in args


def test_radcc_run_buffer_array_files(tmp_path: Path) -> None:
    """`radcc run --buffer S:B:I=FILE`: every element written back as DIR/S_B_I.bin (and
    .npy); a plain key on an array, an index on a plain binding, an index past the array
    and an array without elements are errors naming the option."""
    bufs = _inputs(2)
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv())
    args = ["run", str(spv), "--groups", "1", "--quiet", "--out", str(tmp_path / "out"),
            "--push-values", "u32:2,u32:0"]
    for key, val in bufs.items():
        name = "_".join(map(str, key))
        if isinstance(val, int):
            args += ["--buffer", ":".join(map(str, key)) + f"=zeros:{val}"]
            continue
        np.save(tmp_path / f"in{name}.npy", val)
        args += ["--buffer", ":".join(map(str, key)) + f"={tmp_path / f'in{name}.npy'}"]
    rc, _, err = run_radcc(*args)
    assert rc == 0, err
    want, dst = _reference(bufs, 2, 0, 2)
    o = np.frombuffer((tmp_path / "out" / "0_3.bin").read_bytes(), np.float32)
    assert np.array_equal(o.reshape(64, 4), want)
    for key, arr in dst.items():
        got = np.load(tmp_path / "out" / ("_".join(map(str, key)) + ".npy"))
        assert got.dtype == arr.dtype and np.array_equal(got, arr), key
    for old, new, message in [
            ("0:1:0=", "0:1=", "--buffer 0:1: binding 0:1 is an array of 2 buffer "
                               "descriptors: give its elements as 0:1:INDEX"),
            ("0:1:0=", "0:1:2=", "--buffer 0:1:2: index 2 outside the array of 2"),
            ("0:3=", "0:3:0=", "--buffer 0:3: binding 0:3 is not an array of descriptors"),
            ("0:2:", "0:9:", "--buffer for a binding the shader does not declare: 0:9")]:
        bad = [a.replace(old, new) if a.startswith(old) else a for a in args]
        rc, _, err = run_radcc(*bad)
        assert rc == 1 and message in err and "Traceback" not in err, err
    rc, _, err = run_radcc(*[a for j, a in enumerate(args) if not (
        a.startswith("0:0:") or a == "--buffer" and args[j + 1].startswith("0:0:"))])
    assert rc == 1 and "missing --buffer for 0:0:INDEX (an array of 3)" in err, err


@pytest.mark.parametrize("wave", [32, 64])
def test_buffer_arrays_vs_lavapipe(wave: int) -> None:
    """buf_arrays.comp indexes its storage buffer arrays by non-uniform indices, which
    this lavapipe does not offer (shaderStorageBufferArrayNonUniformIndexing): the oracle
    refuses it by the feature's name instead of returning undefined results; radcc's
    strict emulator equals NumPy's reference."""
    from radcc.driver.run import run_compute
    from radcc.oracle import lavapipe

    bufs = _inputs(2)
    push = struct.pack("<II", 2, 1)
    with pytest.raises(lavapipe.MissingFeatureError,
                       match=r"binding 0:0 \(storage array\): a non-uniform array index needs "
                             "shaderStorageBufferArrayNonUniformIndexing"):
        lavapipe.run_compute(_spirv(), groups=(1, 1, 1), push_constants=push, buffers={
            k: np.zeros(v, np.uint8) if isinstance(v, int) else v for k, v in bufs.items()})
    got = run_compute(_spirv(), groups=(1, 1, 1), buffers=bufs, push_constants=push,
                      wave_size=wave)
    want, dst = _reference(bufs, 2, 1, 2)
    assert np.array_equal(np.frombuffer(bytes(got[(0, 3)]), np.float32).reshape(64, 4), want)
    for key, arr in dst.items():
        assert np.array_equal(np.frombuffer(bytes(got[key]), np.uint32), arr), key


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("k", [0, 2])
def test_storage_image_array_vs_lavapipe(wave: int, k: int) -> None:
    """An array of storage images, a constant and a push-constant index: lavapipe lacks
    shaderStorageImageArrayDynamicIndexing, so the oracle refuses the shader by that name;
    radcc's strict emulator equals NumPy's reference."""
    from radcc.driver.run import run_compute
    from radcc.oracle import lavapipe

    spv = glsl_file_spirv(HERE / "arr_storage_lvp.comp")
    rng = np.random.default_rng(k)
    im = {(0, 0, j): (rng.random((1, 4), dtype=np.float32), None) for j in range(3)}
    push = struct.pack("<I", k)
    with pytest.raises(lavapipe.MissingFeatureError,
                       match="a dynamic array index needs shaderStorageImageArrayDynamic"):
        lavapipe.run_compute(spv, groups=(1, 1, 1), images=im, push_constants=push,
                             buffers={(0, 1): np.zeros(16, np.uint8)})
    got = run_compute(spv, groups=(1, 1, 1), images=im, push_constants=push,
                      buffers={(0, 1): 16}, wave_size=wave)
    want = im[(0, 0, k)][0][0] + im[(0, 0, 1)][0][0] * np.float32(100)
    # x + y * 100: radcc contracts it to an fma (SPIR-V allows it)
    np.testing.assert_allclose(np.frombuffer(bytes(got[(0, 1)]), np.float32), want,
                               rtol=1e-6)


@pytest.mark.parametrize("wave", [32, 64])
def test_sampled_arrays_constant_indices_vs_lavapipe(wave: int) -> None:
    """Arrays of texel buffers, combined image samplers, sampled images and samplers read
    at constant indices (0 and 1) on lavapipe and in radcc's strict emulator, both equal
    to NumPy (texel centres, nearest: exact). Dynamic and non-uniform indices into image
    and texel buffer arrays are outside the features this lavapipe offers, which the
    test pins: the docs note's reason those tests compare with NumPy only."""
    from radcc.driver.run import run_compute
    from radcc.oracle import lavapipe

    feats = lavapipe.device_info().features
    for name in ("shaderSampledImageArrayDynamicIndexing",
                 "shaderStorageImageArrayDynamicIndexing",
                 "shaderUniformTexelBufferArrayDynamicIndexing", "runtimeDescriptorArray",
                 "shaderSampledImageArrayNonUniformIndexing"):
        assert not feats.get(name), f"lavapipe now has {name}: update docs/oracle-lavapipe.md"
    spv = glsl_file_spirv(HERE / "arr_const_lvp.comp")
    rng = np.random.default_rng(11)
    im: dict[DKey, tuple[np.ndarray, str | None]] = {
        (0, 0, j): (rng.random((16, 4), dtype=np.float32), None) for j in range(2)}
    im.update({(0, b, j): (rng.random((4, 4, 4), dtype=np.float32), None)
               for b in (1, 2) for j in range(2)})
    smp = {(0, 1, 0): "nearest", (0, 1, 1): "nearest", (0, 3, 0): "nearest",
           (0, 3, 1): "nearest,clamp"}
    bufs = {(0, 4): np.zeros(64 * 16, np.uint8)}
    lvp = lavapipe.run_compute(spv, groups=(1, 1, 1), images=im, samplers=smp, buffers=bufs)
    got = run_compute(spv, groups=(1, 1, 1), images=im, samplers=smp, buffers=bufs,
                      wave_size=wave)
    i = np.arange(16)
    x, y = i % 4, i // 4
    want = np.zeros((16, 4, 4), np.float32)
    want[:, 0] = im[(0, 0, 0)][0][i] + np.float32(2) * im[(0, 0, 1)][0][15 - i]
    want[:, 1] = im[(0, 1, 0)][0][y, x] + np.float32(4) * im[(0, 1, 1)][0][y, x]
    want[:, 2] = im[(0, 2, 0)][0][y, x]
    want[:, 3] = im[(0, 2, 1)][0][x, y]
    lo = np.frombuffer(bytes(lvp[(0, 4)]), np.float32).reshape(16, 4, 4)
    go = np.frombuffer(bytes(got[(0, 4)]), np.float32).reshape(16, 4, 4)
    np.testing.assert_allclose(lo, want, rtol=1e-6)
    np.testing.assert_allclose(go, lo, rtol=1e-6)  # (a * 2 + b: radcc may contract to fma)
