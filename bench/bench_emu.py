"""Emulator throughput: VALU lane-instructions per second on a compute-bound kernel
(256 workgroups of 256 work-items), beside a plain NumPy run of the same computation.

    python bench/bench_emu.py [--groups 256] [--no-strict]

Prints wall and process CPU time; on a loaded machine compare CPU time.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from radcc.emu.api import load

KERNEL = Path(__file__).resolve().parent.parent / "tests" / "emu" / "kernels" / "xorshift.cl"


def _numpy_xorshift(seed: np.ndarray) -> np.ndarray:
    x = (seed | 1).astype(np.uint32)
    for _ in range(16):
        x ^= x << np.uint32(13)
        x ^= x >> np.uint32(17)
        x ^= x << np.uint32(5)
    return x


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--groups", type=int, default=256)
    p.add_argument("--block", type=int, default=256)
    p.add_argument("--no-strict", action="store_true", help="run without strict mode")
    a = p.parse_args()
    n = a.groups * a.block
    with tempfile.TemporaryDirectory() as d:
        obj = Path(d) / "k.o"
        subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-cl-kernel-arg-info", "-target",
                        "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib", "-O3", str(KERNEL),
                        "-o", str(obj)], check=True)
        mod = load(obj.read_bytes())
    seed = np.random.default_rng(0).integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    t0, c0 = time.perf_counter(), time.process_time()
    res = mod.run("xorshift", a.groups, a.block,
                  {"out": np.zeros(n, np.uint32), "seed": seed, "n": n}, strict=not a.no_strict)
    t_emu, cpu = time.perf_counter() - t0, time.process_time() - c0
    t0 = time.perf_counter()
    ref = _numpy_xorshift(seed)
    t_np = time.perf_counter() - t0
    assert (res.buffers["out"] == ref).all() and not res.violations
    c = res.counters
    print(f"emulator: {c.instructions} instructions, {c.lane_instructions} VALU "
          f"lane-instructions in {t_emu:.2f} s = {c.lane_instructions / t_emu / 1e6:.2f} M "
          f"lane-instr/s ({c.instructions / t_emu / 1e3:.1f} k instr/s, "
          f"{t_emu / c.instructions * 1e6:.2f} us/instr), "
          f"strict mode {'off' if a.no_strict else 'on'}")
    print(f"          process CPU time {cpu:.2f} s = {cpu / c.instructions * 1e6:.2f} us/instr "
          "(the figure to compare on a shared machine)")
    print(f"numpy:    same computation in {t_np * 1e3:.2f} ms "
          f"({c.lane_instructions / t_np / 1e6:.0f} M equivalent lane-instr/s)")


if __name__ == "__main__":
    main()
