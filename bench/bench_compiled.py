"""The compiled build against the pure-Python reference, in one run (issue 14).

    python bench/bench_compiled.py [--every K] [--straight N] [--repeat R] [--wave 32|64]

Needs a compiled build in this checkout (`python tools/build_compiled.py`: the modules of
`radcc.compiled.MODULES` as C extensions beside their sources). The pure side is a copy
of this checkout's ``radcc/`` without the extensions, in a temporary directory, so both
sides run the same source. Each side is a child process that compiles every shader once
unmeasured (imports, tables, memos warm) and then `--repeat` times with
`compile_spirv`, keeping each shader's least CPU time (`process_time`); the children
run alternately. Shaders: every `--every`-th module of /work/rw/ncnn and /work/rw/ggml
(RADCC_RW overrides the corpus root) and bench_growth's straight-line shader of about
`--straight` machine instructions. Printed: per shader group the geomean of the
pure/compiled ratio (>1: the compiled build is faster) and the totals, and the compiled
modules the child loaded. The code objects of both sides are compared (they must be
equal). This is a benchmark that prints, not a test.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = r"""
import hashlib, json, sys, time
from pathlib import Path
from radcc.compiled import compiled_modules
from radcc.driver.compile import compile_spirv
paths, wave, repeat = json.loads(sys.argv[1])
out = {"compiled": compiled_modules(), "shaders": {}}
datas = [(p, Path(p).read_bytes()) for p in paths]
for p, d in datas:
    try:
        r = compile_spirv(d, wave_size=wave)
        out["shaders"][p] = {"hash": hashlib.sha256(r.code_object).hexdigest()[:16], "cpu": 1e9}
    except Exception as e:
        out["shaders"][p] = {"hash": "ERROR " + type(e).__name__, "cpu": None}
for _ in range(repeat):
    for p, d in datas:
        s = out["shaders"][p]
        if s["cpu"] is None:
            continue
        t0 = time.process_time()
        compile_spirv(d, wave_size=wave)
        s["cpu"] = min(s["cpu"], time.process_time() - t0)
print(json.dumps(out))
"""


def run_side(src_root: Path, paths: list[str], wave: int, repeat: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src_root))
    r = subprocess.run([sys.executable, "-c", CHILD, json.dumps([paths, wave, repeat])],
                       env=env, cwd=src_root, capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def pure_copy(dest: Path) -> Path:
    shutil.copytree(ROOT / "radcc", dest / "radcc",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    return dest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("--straight", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--wave", type=int, default=32, choices=(32, 64))
    args = ap.parse_args(argv)
    from radcc.compiled import compiled_modules
    if not compiled_modules():
        print("bench_compiled: no compiled build here (python tools/build_compiled.py)",
              file=sys.stderr)
        return 1
    rw = Path(os.environ.get("RADCC_RW", "/work/rw"))
    groups: dict[str, list[str]] = {}
    for proj in ("ncnn", "ggml"):
        groups[proj] = [str(p) for p in sorted((rw / proj).glob("*.spv"))[::args.every]]
    with tempfile.TemporaryDirectory() as tmp:
        if args.straight:
            from bench.bench_growth import shader
            sp = Path(tmp) / f"straight_{args.straight}.spv"
            sp.write_bytes(shader("straight", args.straight))
            groups["straight"] = [str(sp)]
        paths = [p for ps in groups.values() for p in ps]
        pure_root = pure_copy(Path(tmp) / "pure")
        comp = run_side(ROOT, paths, args.wave, args.repeat)
        pure = run_side(pure_root, paths, args.wave, args.repeat)
    if pure["compiled"]:
        print("bench_compiled: the pure side loaded compiled modules", file=sys.stderr)
        return 1
    print(f"compiled modules loaded: {len(comp['compiled'])}: {', '.join(comp['compiled'])}")
    print("| shaders | n | geomean pure/compiled | total pure | total compiled |")
    print("|---|--:|--:|--:|--:|")
    bad = 0
    for name, ps in groups.items():
        logs, tp, tc = [], 0.0, 0.0
        for p in ps:
            a, b = pure["shaders"][p], comp["shaders"][p]
            if a["hash"] != b["hash"]:
                print(f"DIFFERENT OUTPUT: {p}: pure {a['hash']} compiled {b['hash']}")
                bad += 1
            if a["cpu"] is None or b["cpu"] is None:
                continue
            logs.append(math.log(a["cpu"] / b["cpu"]))
            tp += a["cpu"]
            tc += b["cpu"]
        g = math.exp(sum(logs) / len(logs)) if logs else float("nan")
        print(f"| {name} | {len(logs)} | {g:.2f}x | {tp:.2f} s | {tc:.2f} s |")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
