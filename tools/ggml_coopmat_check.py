"""Run llama.cpp's cooperative-matrix matmul modules (ggml-vulkan's ``matmul_*_cm1``,
built with the specialization constants ggml-vulkan.cpp sets for RDNA3: TM = TN = TK = 16,
its s/m/l warptiles) in radcc's strict emulator on small matrices against NumPy.

    python tools/ggml_coopmat_check.py DIR [--wave 32,64] [--only SUBSTRING] [--sizes MxNxK,...]

DIR holds the modules (``matmul_f16_cm1_s.spv`` ...; radcc does not ship them: build
them from ggml's sources as issue 9 describes). Each module runs as ggml dispatches
mul_mm.comp: push constants M, N, K, stride_a = stride_b = K, stride_d = M, the batch
strides, base_work_group_z 0, num_batches 1, k_split K, ne02 = ne12 = broadcast2 =
broadcast3 = 1; workgroups (ceil(M / BM), ceil(N / BN), 1) with BM, BN the module's
specialization constants 1 and 2. ``D[n][m] = sum_k A[m][k] B[n][k]`` (D column-major,
stride M). A and B are drawn uniformly from [-1, 1] and rounded to the module's types
(from the name: ``matmul_f32_f16`` A float32, B float16, ``matmul_f16`` both float16,
``matmul_f16_f32``, ``matmul_f32_f32``; ``matmul_bf16`` both bfloat16 bits); the
reference is float64 of the rounded inputs. Tolerance (`TOL`), max |error| relative to
max |D|: 1e-3 with float32 accumulators (the shader rounds float32 inputs to float16 in
shared memory: its FLOAT_TYPE is float16), 1e-2 with float16 accumulators (``_f16acc``).

Wave64 runs the modules as built (WARP 64). Wave32 overrides WARP (id 10) to 32 and
halves WN (id 5) so the workgroup's warps still tile BM x BN, as ggml-vulkan.cpp picks
warptiles for a subgroup size of 32. Exit status 1 when a module fails or exceeds its
tolerance.
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from radcc.driver.run import run_compute  # noqa: E402
from radcc.frontend.spirv import read_spirv  # noqa: E402
from radcc.passes.options import DebugOptions  # noqa: E402

TOL = {"f32": 1e-3, "f16": 1e-2}  # max |error| / max |D| per accumulator type


def _bf16(x: np.ndarray) -> np.ndarray:
    """bfloat16 bits of float32 values (round to nearest even)."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return (((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF).astype(np.uint16)


def _types(name: str) -> tuple[str, str]:
    """A's and B's element types from a ggml matmul module's name."""
    rest = name.removeprefix("matmul_").split("_cm1")[0].replace("_f16acc", "")
    parts = rest.split("_")
    a = parts[0]
    b = parts[1] if len(parts) > 1 else ("bf16" if a == "bf16" else "f16")
    return a, b


def _operand(r: np.random.Generator, t: str, shape: tuple[int, int]) -> tuple[bytes, np.ndarray]:
    x = r.uniform(-1, 1, shape).astype(np.float32)
    if t == "bf16":
        bits = _bf16(x)
        return bits.tobytes(), (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    v = x.astype(np.float16 if t == "f16" else np.float32)
    return v.tobytes(), v.astype(np.float64)


def check(path: Path, wave: int, m: int, n: int, k: int) -> tuple[bool, str]:
    spv = path.read_bytes()
    specs = {s.spec_id: s.value for s in read_spirv(spv).spec_constants.values()
             if s.spec_id is not None}
    bm, bn = int(specs[1]), int(specs[2])
    spec: dict[int, int] = {}
    if wave == 32 and int(specs[10]) == 64:
        spec = {10: 32, 5: int(specs[5]) // 2}
    ta, tb = _types(path.stem)
    r = np.random.default_rng(m * 10007 + n * 101 + k)
    abytes, a = _operand(r, ta, (m, k))
    bbytes, b = _operand(r, tb, (n, k))
    pc = struct.pack("<16I", m, n, k, k, k, m, m * k, n * k, m * n, 0, 1, k, 1, 1, 1, 1)
    t0 = time.perf_counter()
    out = run_compute(spv, groups=(-(-m // bm), -(-n // bn), 1),
                      buffers={(0, 0): abytes, (0, 1): bbytes,
                               (0, 2): np.zeros(m * n, np.float32).tobytes()},
                      push_constants=pc, spec_constants=spec, wave_size=wave,
                      debug_options=DebugOptions.parse("validateir,validatera"))
    secs = time.perf_counter() - t0
    got = np.frombuffer(out[(0, 2)], np.float32).reshape(n, m)
    want = b @ a.T
    rel = float(np.abs(got - want).max() / np.abs(want).max())
    tol = TOL["f16" if "_f16acc" in path.stem else "f32"]
    return rel <= tol, f"{rel:.2e} (tolerance {tol:.0e}), {secs:.0f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=Path)
    ap.add_argument("--wave", default="64,32")
    ap.add_argument("--only", default="", help="run the modules whose name contains this")
    ap.add_argument("--sizes", default="64x32x64,40x24x48", help="MxNxK,...")
    a = ap.parse_args()
    files = sorted(p for p in a.dir.glob("matmul_*_cm1_[sml].spv")
                   if "_id" not in p.name and a.only in p.name
                   and _types(p.stem)[0] in ("f32", "f16", "bf16"))
    sizes = [tuple(int(x) for x in s.split("x")) for s in a.sizes.split(",")]
    bad = 0
    for f in files:
        for w in (int(x) for x in a.wave.split(",")):
            for m, n, k in sizes:
                try:
                    ok, msg = check(f, w, m, n, k)
                except Exception as e:  # a refusal or an emulator error is this run's result
                    ok, msg = False, f"{type(e).__name__}: {str(e)[:200]}"
                bad += not ok
                print(f"{f.name:32} wave{w} {m}x{n}x{k}: {'ok  ' if ok else 'FAIL'} {msg}",
                      flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
