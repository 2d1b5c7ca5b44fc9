"""Register allocation compile time vs program size (ACO's README.md: "The RA does
SSA-reconstruction on the fly, which makes its runtime linear").

    python bench/bench_ra.py [sizes...]

Generates random structured programs (tests/passes/ra_gen.py) of about N
instructions and times live_var_analysis + register_allocation +
ssa_elimination; prints microseconds per instruction, which should stay
roughly flat as N grows.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "passes"))

from ra_gen import generate  # noqa: E402

from radcc.passes.register_allocation import register_allocation  # noqa: E402
from radcc.passes.ssa_elimination import ssa_elimination  # noqa: E402


def bench(n: int, seed: int = 1) -> tuple[int, float]:
    p, _ = generate(seed, size=n, depth=3, pressure=8, fixed=True, max_live=40)
    count = sum(len(b.instructions) for b in p.blocks)
    t0 = time.perf_counter()
    register_allocation(p)
    ssa_elimination(p)
    return count, time.perf_counter() - t0


def main() -> None:
    sizes = [int(x) for x in sys.argv[1:]] or [1000, 3000, 10000]
    print(f"{'instrs':>8} {'seconds':>9} {'us/instr':>9}")
    for n in sizes:
        count, dt = bench(n)
        print(f"{count:>8} {dt:>9.3f} {dt / count * 1e6:>9.1f}")


if __name__ == "__main__":
    main()
