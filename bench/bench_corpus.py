"""`radcc corpus` throughput: shaders per second with 1, 2 and all cores, and with a local
Ray, on one corpus.

    python bench/bench_corpus.py [--corpus tests/e2e/glsl] [--limit N] [--jobs 1,2,all]
                                 [--no-ray]

Runs ``radcc corpus CORPUS -o TMP.jsonl --jobs J`` (a child process each, so start-up is
included) for each J, then ``radcc corpus CORPUS --ray`` (a local Ray started by the run,
its start-up included) unless ``--no-ray``, and prints the wall time, shaders per second and the failed rows
(the same in every run: the corpus is the same). The default corpus is the project's
GLSL cases (tests/e2e/glsl); ``--limit`` takes its first N files.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(ROOT / "tests" / "e2e" / "glsl"))
    ap.add_argument("--limit", type=int, default=None, help="the first N shader files")
    ap.add_argument("--jobs", default="1,2,all", help="comma-separated job counts")
    ap.add_argument("--no-ray", action="store_true", help="skip the local Ray run")
    a = ap.parse_args()
    ncpu = len(os.sched_getaffinity(0))
    runs: list[tuple[str, list[str]]] = [
        (str(ncpu if j == "all" else int(j)), ["--jobs", str(ncpu if j == "all" else int(j))])
        for j in a.jobs.split(",")]
    if not a.no_ray:
        runs.append(("ray", ["--ray"]))
    with tempfile.TemporaryDirectory() as d:
        src = Path(a.corpus)
        files = sorted(f for f in src.rglob("*") if f.suffix in (".comp", ".spv"))
        if a.limit is not None:
            files = files[:a.limit]
        corpus = Path(d) / "corpus"
        corpus.mkdir()
        for f in files:
            shutil.copy(f, corpus / f.name)
        print(f"{len(files)} shader files from {src}, {ncpu} CPUs, "
              f"load {os.getloadavg()[0]:.1f}")
        print(f"{'jobs':>4} {'seconds':>8} {'shaders/s':>9} {'rows':>5} {'failed':>6}")
        for j, opts in runs:
            out = Path(d) / f"out{j}.jsonl"
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "radcc", "corpus", str(corpus), "-o",
                            str(out), *opts], cwd=ROOT, capture_output=True)
            secs = time.perf_counter() - t0
            rows = [json.loads(ln) for ln in out.read_text().splitlines()]
            failed = sum(1 for r in rows if not r["ok"])
            print(f"{j:>4} {secs:>8.1f} {len(rows) / secs:>9.2f} {len(rows):>5} {failed:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
