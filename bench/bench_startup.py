"""Start-up of a one-shader `radcc compile` in a fresh process (issue 14), against the
interpreter's floor and a C++ tool's start-up, measured in the same run.

    python bench/bench_startup.py [--runs N] [--shader FILE.spv] [--base DIR]
                                  [--no-bytecode-cache]

Each round runs, one after another (never in parallel), `python -c pass`, `llvm-mc-19
--version` and `python -m radcc compile SHADER -o TMP.o` with and without
`--no-validate` (so with and without the `spirv-val` child), each a fresh process, and
keeps its wall time and its CPU time (user + system of the child and its children, from
`os.wait4`); `--base DIR` adds the same compiles from another checkout (e.g. a `git
archive` of the commit before a change) in the same rounds, alternated, so a before/after
comparison sees the same machine load. Printed: per command the median and minimum wall
and CPU over `--runs` rounds, radcc's median over the interpreter's floor, and the load
average (`os.getloadavg`) before and after. The shader defaults to
`tests/fuzz/corpus/seeds/add.spv` (a compute shader that folds nothing, so NumPy is not
loaded).

Python's bytecode caches (`__pycache__`, and `radcc.driver.dataclass_code`'s cache of
the `dataclasses` methods) are written by one unmeasured run of each checkout first,
with `PYTHONDONTWRITEBYTECODE` removed from the environment; `--no-bytecode-cache`
measures the other case (the variable set and `PYTHONPYCACHEPREFIX` an empty directory:
every module compiled from source in every run, nothing written; the `dataclasses`
cache is still read where an earlier run wrote it). The code objects of all compiles are compared (they must be
equal). This is a benchmark that prints, not a test: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SHADER = ROOT / "tests" / "fuzz" / "corpus" / "seeds" / "add.spv"


def run_once(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the process and its waited-for children)
    of one run of ``cmd``; a failure stops the benchmark."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit status {proc.returncode}\n{err}")
    return wall, ru.ru_utime + ru.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    ap.add_argument("--shader", type=Path, default=DEFAULT_SHADER)
    ap.add_argument("--base", type=Path, help="another checkout's root, measured alongside")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="run with PYTHONDONTWRITEBYTECODE=1 (no caches written)")
    args = ap.parse_args(argv)

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    trees = {"radcc": ROOT}
    if args.base is not None:
        trees["base"] = args.base.resolve()
    tmp = Path(tempfile.mkdtemp(prefix="radcc-startup-"))
    shader = str(args.shader.resolve())
    cmds: dict[str, tuple[list[str], dict[str, str], Path]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], env, tmp),
    }
    mc = shutil.which("llvm-mc-19")
    if mc:
        cmds["llvm-mc-19 --version"] = ([mc, "--version"], env, tmp)
    outs: list[Path] = []
    for name, root in trees.items():
        tenv = dict(env, PYTHONPATH=str(root))
        for validate in (False, True):
            out = tmp / f"{name}-{int(validate)}.o"
            outs.append(out)
            cmd = [sys.executable, "-m", "radcc", "compile", shader, "-o", str(out)]
            if not validate:
                cmd.append("--no-validate")
            label = f"{name} compile{'' if validate else ' --no-validate'}"
            if args.no_bytecode_cache:  # no .pyc read (an empty prefix) nor written
                tenv = dict(tenv, PYTHONDONTWRITEBYTECODE="1",
                            PYTHONPYCACHEPREFIX=str(tmp / "empty-pycache"))
            else:
                run_once(cmd, tenv, root)  # writes the bytecode caches, unmeasured
            cmds[label] = (cmd, tenv, root)

    load0 = os.getloadavg()
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
    for _ in range(args.runs):
        for label, (cmd, cenv, cwd) in cmds.items():
            times[label].append(run_once(cmd, cenv, cwd))
    load1 = os.getloadavg()

    blobs = {o.read_bytes() for o in outs}
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"shader {args.shader}, {args.runs} rounds, bytecode caches "
          f"{'off' if args.no_bytecode_cache else 'on'}; load average "
          f"{load0[0]:.2f} before, {load1[0]:.2f} after")
    floor = statistics.median(w for w, _ in times["python -c pass"])
    floor_cpu = statistics.median(c for _, c in times["python -c pass"])
    print(f"{'command':<34} {'wall med':>9} {'wall min':>9} {'cpu med':>8} {'cpu min':>8}"
          f" {'wall-floor':>10} {'cpu-floor':>9}")
    for label, ts in times.items():
        walls = [w for w, _ in ts]
        cpus = [c for _, c in ts]
        wm, cm = statistics.median(walls), statistics.median(cpus)
        print(f"{label:<34} {wm:9.3f} {min(walls):9.3f} {cm:8.3f} {min(cpus):8.3f}"
              f" {wm - floor:10.3f} {cm - floor_cpu:9.3f}")
    print("code objects equal" if len(blobs) == 1 else
          f"code objects DIFFER ({len(blobs)} distinct)")
    return 0 if len(blobs) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
