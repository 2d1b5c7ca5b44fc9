"""`radcc run --robust`: robust buffer access in the emulator, checked against lavapipe
with robustBufferAccess enabled (radcc.oracle.lavapipe.run_compute(robust=True)).

radcc addresses buffers by 64-bit pointers from the kernarg segment plus 32-bit
offsets; in robust mode the emulator maps each buffer with 16 GiB of unmapped space
around it (more than any 32-bit offset), so an out-of-bounds access never reaches
another buffer, and reads unmapped bytes as zero and drops stores to them.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest

from radcc import cli
from radcc.emu.memory import MemFault, Memory
from radcc.oracle import lavapipe, spirv_tools

SHADER = Path(__file__).parent / "robust" / "oob.comp"


@pytest.fixture(scope="module")
def spirv() -> bytes:
    spirv_tools.require()
    r = spirv_tools.compile_glsl(SHADER, "vulkan1.3")
    assert r.ok, r.text
    return r.data


def _radcc(tmp_path: Path, spirv: bytes, far: int, *flags: str) -> tuple[int, str, Path]:
    (tmp_path / "k.spv").write_bytes(spirv)
    np.save(tmp_path / "src.npy", np.arange(64, dtype=np.uint32) + 1)
    (tmp_path / "p.bin").write_bytes(np.uint32(far).tobytes())
    out = tmp_path / "out"
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = cli.main(["run", str(tmp_path / "k.spv"), "--groups", "2", "--buffer",
                           f"0:0={tmp_path / 'src.npy'}", "--buffer", "0:1=zeros:256", "--push",
                           str(tmp_path / "p.bin"), "--out", str(out), *flags])
    return status, err.getvalue(), out


@pytest.mark.parametrize("far", [0, 10, 1000, 1 << 20, 0x3FFFFFFF, 0x40000000, 0xFFFFFFFF])
def test_robust_matches_lavapipe(far: int, spirv: bytes, tmp_path: Path) -> None:
    lavapipe.require()
    src = np.arange(64, dtype=np.uint32) + 1
    ref = lavapipe.run_compute(spirv, groups=(2, 1, 1), buffers={(0, 0): src, (0, 1): 256},
                               push_constants=np.uint32(far).tobytes(), robust=True)
    status, err, out = _radcc(tmp_path, spirv, far, "--robust")
    assert status == 0, err
    assert (out / "0_0.bin").read_bytes() == ref[(0, 0)]
    got = np.frombuffer((out / "0_1.bin").read_bytes(), dtype=np.uint32)
    dst = np.frombuffer(ref[(0, 1)], dtype=np.uint32)
    # When the 32-bit byte offset (i + far) * 4 wraps back into dst, an invocation of the
    # second workgroup stores 0xdeadbeef to an element the first workgroup also stores:
    # the two workgroups race (lavapipe runs them on different threads), so those
    # elements may hold either store; every other element must match exactly.
    racy = np.zeros(64, dtype=bool)
    for i in range(64, 128):
        j = ((i + far) * 4 % (1 << 32)) // 4
        if j < 64:
            racy[j] = True
    assert (got[~racy] == dst[~racy]).all(), np.nonzero(got != dst)
    for j in np.nonzero(racy)[0]:
        k = ((int(j) + far) * 4 % (1 << 32)) // 4  # src[j + far] under robust access
        in_bounds = (int(j) + 1) + 1000 * (k + 1 if k < 64 else 0) + 7
        assert int(dst[j]) in (in_bounds, 0xDEADBEEF) and int(got[j]) in (in_bounds, 0xDEADBEEF), j
    if far in (10, 1000, 1 << 20):  # (larger ones wrap the 32-bit byte offset in bounds)
        assert not (dst == 0xDEADBEEF).any()  # the out-of-bounds stores were dropped


def test_without_robust_out_of_bounds_faults(spirv: bytes, tmp_path: Path) -> None:
    status, err, _ = _radcc(tmp_path, spirv, 1000)
    assert status == 4 and "unmapped address" in err and "radcc run: error:" in err, err


def test_memory_robust_bytes() -> None:
    """Byte granularity: an access straddling a buffer's end keeps its in-bounds bytes."""
    m = Memory(robust=True)
    r = m.map("buffer a", bytes(range(1, 9)), isolate=True)
    lanes = np.arange(2)
    got = m.gather(np.array([r.base + 6, r.end + 100], dtype=np.uint64), 4, lanes)
    assert got.tolist() == [[7, 8, 0, 0], [0, 0, 0, 0]]
    m.scatter(np.array([r.base + 6], dtype=np.uint64), np.array([[9, 9, 9, 9]], np.uint8), lanes)
    assert m.read(r.base, 8) == bytes([1, 2, 3, 4, 5, 6, 9, 9])
    assert m.read(r.end, 4) == bytes(4)
    strict = Memory()
    r2 = strict.map("buffer b", bytes(8))
    with pytest.raises(MemFault):
        strict.gather(np.array([r2.end], dtype=np.uint64), 4, lanes[:1])
