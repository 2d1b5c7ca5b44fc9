"""Dispatch overhead of the lavapipe oracle (radcc.oracle.lavapipe.run_compute).

    python3 bench/bench_lavapipe.py

Prints: first call in a fresh process (instance + device + pipeline), a repeated
dispatch of the same pipeline, a dispatch whose pipeline must be compiled anew
(a different specialization constant each time), and large-buffer transfers.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from radcc.oracle.lavapipe import device_info, run_compute

SRC = """
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const float K = 2.0;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer C { float c[]; };
void main() { uint i = gl_GlobalInvocationID.x; c[i] = a[i] * K; }
"""


def spirv(local_size: int = 64) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        src, spv = Path(d, "k.comp"), Path(d, "k.spv")
        src.write_text(SRC.replace("local_size_x = 64", f"local_size_x = {local_size}"))
        subprocess.run(["glslangValidator", "-V", str(src), "-o", str(spv)], check=True,
                       capture_output=True)
        return spv.read_bytes()


def timed(fn, n: int) -> tuple[float, float]:
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1e3, min(ts) * 1e3


def main() -> None:
    spv = spirv()
    path = Path(tempfile.mkdtemp()) / "k.spv"
    path.write_bytes(spv)
    cold = subprocess.run(
        [sys.executable, "-c",
         "import time, numpy as np; t=time.perf_counter();"
         "from radcc.oracle.lavapipe import run_compute;"
         f"run_compute(open({str(path)!r},'rb').read(), groups=(1,1,1),"
         "buffers={(0,0):np.ones(64,np.float32),(0,1):256});"
         "print((time.perf_counter()-t)*1e3)"],
        capture_output=True, text=True, check=True)
    info = device_info()
    print(f"{info.device_name}, {info.driver_info}, subgroup size {info.subgroup_size}")
    print(f"cold: import + instance/device + first dispatch: {float(cold.stdout):8.1f} ms")
    a = np.ones(64, np.float32)
    run_compute(spv, groups=(1, 1, 1), buffers={(0, 0): a, (0, 1): 256})
    med, best = timed(lambda: run_compute(spv, groups=(1, 1, 1),
                                          buffers={(0, 0): a, (0, 1): 256}), 50)
    print(f"warm, same pipeline (64 invocations): median {med:6.2f} ms, min {best:6.2f} ms")
    k = iter(range(3, 10_000))
    med, best = timed(lambda: run_compute(spv, groups=(1, 1, 1), buffers={(0, 0): a, (0, 1): 256},
                                          spec_constants={0: float(next(k))}), 20)
    print(f"warm, new pipeline each call:       median {med:6.2f} ms, min {best:6.2f} ms")
    spv4 = spirv(256)
    big = np.ones(4 << 20, np.float32)  # 16 MiB in, 16 MiB out
    med, best = timed(lambda: run_compute(spv4, groups=(big.size // 256, 1, 1),
                                          buffers={(0, 0): big, (0, 1): big.nbytes}), 3)
    print(f"16 MiB in + 16 MiB out, 4M invocations: median {med:6.1f} ms")


if __name__ == "__main__":
    main()
