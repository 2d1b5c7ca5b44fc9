"""Runtime-sized arrays of descriptors (issue 11; SPV_EXT_descriptor_indexing's
RuntimeDescriptorArray: ``buffer B {...} b[]``, ``sampler2D tex[]``, ``uimage2D
dst[]``): the code-object metadata says ``.radcc_descriptor_count: 0`` (the count is the
dispatch's: the highest element index given + 1), compiled by radcc and run in the strict
emulator, wave32 and wave64, against NumPy and lavapipe (the same elements bound in a
binding of that descriptorCount: the buffer array's results); `radcc run` with SET:BINDING:INDEX on runtime arrays.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from tests.support.tools import glsl_file_spirv, run_radcc

HERE = Path(__file__).parent / "images"
K, N = 1, 3  # the push constants: an element index and the non-uniform modulus


def _spirv() -> bytes:
    return glsl_file_spirv(HERE / "arr_runtime.comp")


def _inputs() -> tuple[dict, dict]:
    rng = np.random.default_rng(21)
    bufs: dict = {(0, 0, i): rng.random(65 + 4 * i, dtype=np.float32) for i in range(3)}
    bufs[(0, 3)] = np.zeros(64 * 16, np.uint8)
    im: dict = {(0, 1, i): (rng.random((8, 8, 4), dtype=np.float32), None) for i in range(4)}
    im.update({(0, 2, i): (rng.integers(0, 1 << 20, (8, 8), dtype=np.uint32), None)
               for i in range(N)})
    return bufs, im


def _reference(bufs: dict, im: dict) -> tuple[np.ndarray, dict]:
    i = np.arange(64)
    j = i % N
    x, y = i % 8, i // 8
    o = np.zeros((64, 4), np.float32)
    o[:, 0] = bufs[(0, 0, K)][:64] + np.array([bufs[(0, 0, jj)][ii + 1]
                                               for ii, jj in zip(i, j, strict=True)])
    t = im[(0, 1, K)][0][y, x] + im[(0, 1, N)][0][y, x]  # texel centres: exact
    o[:, 1] = t[:, 0] + t[:, 1]
    o[:, 2] = len(bufs[(0, 0, K)])
    o[:, 3] = 8
    dst = {}
    for d in range(N):
        a = im[(0, 2, d)][0].copy()
        sel = j == d
        a[y[sel], x[sel]] = i[sel] + 7
        dst[(0, 2, d)] = a
    return o, dst


@pytest.mark.parametrize("wave", [32, 64])
def test_runtime_descriptor_arrays(wave: int) -> None:
    from radcc.driver.run import run_compute
    from radcc.oracle import lavapipe

    bufs, im = _inputs()
    push = struct.pack("<II", K, N)
    got = run_compute(_spirv(), groups=(1, 1, 1), buffers=bufs, images=im,
                      push_constants=push, wave_size=wave)
    # runtime arrays are outside this lavapipe's features (its results there undefined):
    # the oracle refuses the shader by the feature's name (docs/oracle-lavapipe.md)
    with pytest.raises(lavapipe.MissingFeatureError, match="binding 0:0 \\(storage array\\): "
                       "a runtime-sized array needs runtimeDescriptorArray"):
        lavapipe.run_compute(_spirv(), groups=(1, 1, 1), buffers=bufs, images=im,
                             push_constants=push)
    want, dst = _reference(bufs, im)
    o = np.frombuffer(bytes(got[(0, 3)]), np.float32).reshape(64, 4)
    np.testing.assert_allclose(o, want, rtol=1e-6)
    for key, arr in dst.items():
        assert np.array_equal(got[key], arr), key


def test_runtime_array_metadata_and_cli(tmp_path: Path) -> None:
    """The metadata's count 0 with RADV's stride; `radcc run` takes any index of a runtime
    array (the count: the highest given + 1, gaps null descriptors) and refuses a plain
    key and an array given no element, naming the option."""
    from radcc.codeobj.elfread import read_code_object
    from radcc.driver.compile import compile_spirv

    res = compile_spirv(_spirv(), wave_size=32)
    meta = read_code_object(res.code_object).metadata
    assert meta is not None
    args = {a[".name"]: a for a in meta["amdhsa.kernels"][0][".args"]}
    for name, stride in (("set0_binding0", 16), ("set0_binding1", 96),
                         ("set0_binding1_sampler", 96), ("set0_binding2", 32)):
        assert (args[name][".radcc_descriptor_count"],
                args[name][".radcc_descriptor_stride"]) == (0, stride), name
    bufs, im = _inputs()
    spv = tmp_path / "s.spv"
    spv.write_bytes(_spirv())
    cmd = ["run", str(spv), "--groups", "1", "--quiet", "--out", str(tmp_path / "out"),
           "--push-values", f"u32:{K},u32:{N}", "--buffer", "0:3=zeros:1024"]
    for key, val in bufs.items():
        if len(key) == 3:
            np.save(tmp_path / f"b{key[2]}.npy", val)
            cmd += ["--buffer", f"0:0:{key[2]}={tmp_path / f'b{key[2]}.npy'}"]
    for key, (arr, _) in im.items():
        name = "_".join(map(str, key))
        np.save(tmp_path / f"i{name}.npy", arr)
        cmd += ["--image", ":".join(map(str, key)) + f"={tmp_path / f'i{name}.npy'}"]
    rc, _, err = run_radcc(*cmd)
    assert rc == 0, err
    want, dst = _reference(bufs, im)
    o = np.frombuffer((tmp_path / "out" / "0_3.bin").read_bytes(), np.float32)
    np.testing.assert_allclose(o.reshape(64, 4), want, rtol=1e-6)
    for key, arr in dst.items():
        assert np.array_equal(np.load(tmp_path / "out" / ("_".join(map(str, key)) + ".npy")),
                              arr), key
    for old, new, message in [
            ("0:0:0=", "0:0=", "binding 0:0 is an array of runtime buffer descriptors: give "
                               "its elements as 0:0:INDEX"),
            ("0:1:0=", "0:1=", "binding 0:1 is an array of runtime descriptors")]:
        bad = [a.replace(old, new) if a.startswith(old) else a for a in cmd]
        rc, _, err = run_radcc(*bad)
        assert rc == 1 and message in err and "Traceback" not in err, err
    no_src = [a for j, a in enumerate(cmd) if not (
        a.startswith("0:0:") or a == "--buffer" and cmd[j + 1].startswith("0:0:"))]
    rc, _, err = run_radcc(*no_src)
    assert rc == 1 and "missing --buffer for 0:0:INDEX (an array of runtime)" in err, err
