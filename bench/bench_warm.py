"""Warm in-process compile time of small real-like shaders, against another checkout.

    python bench/bench_warm.py [--against DIR] [--repeat 5] [--rounds 2] [--wave 32]
    python bench/bench_warm.py --profile [--sort tottime|cumulative] [--top 30]

The proxy set (issue 14's small shaders, where the fixed cost of a compile decides
the ratio to ACO): the SPIR-V seeds of the fuzz corpus (tests/fuzz/corpus/seeds/*.spv)
and the GLSL compute cases of tests/e2e/glsl/cases.py (glslangValidator, not timed)
whose compiled code has 20-300 instructions, every k-th of those chosen so that at
most `--count` (default 20) remain. The modules are written to a temporary
directory once; each checkout (this one, and `--against DIR`, e.g. a `git worktree`
of HEAD~1) is timed by a child process that imports radcc from that checkout,
compiles every shader once (warm-up: imports, tables, memos), then compiles each
`--repeat` times and keeps the smallest CPU time (`time.process_time` around
`compile_spirv`, the function `bench_aco.py --time` measures). The children run
`--rounds` times, alternating between the checkouts, and each shader's best time
over the rounds is printed, with the geometric mean of the ratios.

`--profile` runs cProfile over one warm compile of every proxy shader in this
process and prints the top entries (radcc from this checkout, or from PYTHONPATH when
set: `PYTHONPATH=DIR python bench/bench_warm.py --profile` profiles DIR's radcc).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _proxy_modules(out: Path, count: int, wave: int) -> list[str]:
    """Write the proxy set's modules to `out` (NAME.spv, spec constants beside
    as NAME.json); return the names."""
    if not os.environ.get("PYTHONPATH"):  # else radcc from there (`--profile` of another tree)
        sys.path.insert(0, str(ROOT))
    from radcc.driver.compile import compile_spirv
    from tests.e2e.glsl.cases import CASES
    from tests.e2e.glsl_harness import compile_case

    found: list[tuple[str, bytes, dict[int, object]]] = []
    for p in sorted((ROOT / "tests/fuzz/corpus/seeds").glob("*.spv")):
        found.append(("seed_" + p.stem, p.read_bytes(), {}))
    for case in CASES:
        try:
            found.append((case.name, compile_case(case), dict(case.spec)))
        except Exception:  # noqa: BLE001 - a case glslang refuses is no proxy
            continue
    sized: list[tuple[str, bytes, dict[int, object]]] = []
    for name, spv, spec in found:
        try:
            r = compile_spirv(spv, wave_size=wave, spec=spec)  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - one radcc refuses is no proxy
            continue
        n = r.stats["Instructions"]
        if 20 <= n <= 300:
            sized.append((name, spv, spec))
    step = max(1, math.ceil(len(sized) / count))
    chosen = sized[::step][:count]
    for name, spv, spec in chosen:
        (out / f"{name}.spv").write_bytes(spv)
        (out / f"{name}.json").write_text(json.dumps({str(k): v for k, v in spec.items()}))
    return [name for name, _, _ in chosen]


def _child(directory: Path, names: list[str], repeat: int, wave: int) -> None:
    from radcc.driver.compile import compile_spirv
    mods = []
    for name in names:
        spec = {int(k): v for k, v in json.loads((directory / f"{name}.json").read_text()).items()}
        mods.append((name, (directory / f"{name}.spv").read_bytes(), spec))
    for _, spv, spec in mods:
        compile_spirv(spv, wave_size=wave, spec=spec)
    best: dict[str, float] = {}
    for name, spv, spec in mods:
        times = []
        for _ in range(repeat):
            t0 = time.process_time()
            compile_spirv(spv, wave_size=wave, spec=spec)
            times.append(time.process_time() - t0)
        best[name] = min(times)
    print(json.dumps(best))


def _run_child(checkout: Path, directory: Path, names: list[str], repeat: int,
               wave: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(directory),
           "--repeat", str(repeat), "--wave", str(wave), "--names", ",".join(names)]
    r = subprocess.run(cmd, env=env, cwd=checkout, capture_output=True, text=True, check=True)
    return {k: float(v) for k, v in json.loads(r.stdout.strip().splitlines()[-1]).items()}


def _profile(directory: Path, names: list[str], wave: int, sort: str, top: int) -> None:
    from radcc.driver.compile import compile_spirv
    mods = []
    for name in names:
        spec = {int(k): v for k, v in json.loads((directory / f"{name}.json").read_text()).items()}
        mods.append(((directory / f"{name}.spv").read_bytes(), spec))
    for spv, spec in mods:
        compile_spirv(spv, wave_size=wave, spec=spec)
    prof = cProfile.Profile()
    t0 = time.process_time()
    prof.enable()
    for spv, spec in mods:
        compile_spirv(spv, wave_size=wave, spec=spec)
    prof.disable()
    print(f"{len(mods)} shaders, {time.process_time() - t0:.3f} s CPU under cProfile")
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats(sort).print_stats(top)
    print(s.getvalue())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another checkout to time beside this one")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--wave", type=int, default=32, choices=(32, 64))
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--sort", default="tottime")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--names", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        _child(args.child, args.names.split(","), args.repeat, args.wave)
        return
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        names = _proxy_modules(directory, args.count, args.wave)
        if args.profile:
            _profile(directory, names, args.wave, args.sort, args.top)
            return
        trees = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
        best: dict[str, dict[str, float]] = {label: {} for label, _ in trees}
        for _ in range(args.rounds):
            for label, tree in trees:
                for name, t in _run_child(tree, directory, names, args.repeat, args.wave).items():
                    best[label][name] = min(t, best[label].get(name, math.inf))
    head = f"{'shader':32} {'this ms':>9}"
    if args.against:
        head += f" {'against ms':>11} {'ratio':>7}"
    print(head)
    ratios = []
    for name in names:
        line = f"{name:32} {best['this'][name] * 1e3:9.2f}"
        if args.against:
            a = best["against"][name]
            ratios.append(best["this"][name] / a)
            line += f" {a * 1e3:11.2f} {ratios[-1]:7.3f}"
        print(line)
    total = sum(best["this"].values())
    tail = f"{len(names)} shaders; total this {total * 1e3:.1f} ms"
    if args.against:
        tail += (f", against {sum(best['against'].values()) * 1e3:.1f} ms; "
                 f"geomean this/against {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}")
    print(tail)


if __name__ == "__main__":
    main()
