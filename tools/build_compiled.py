"""Build (or remove) the optional compiled modules in this checkout (issue 14).

    python tools/build_compiled.py [--clean] [--opt 0-3] [--jobs N]

Compiles the modules of `radcc.compiled.MODULES` with mypyc (``pip install mypy``; a C
compiler, no C++) through ``RADCC_MYPYC=1 setup.py build_ext --inplace``: each module's C
extension lands beside its source (Python imports the extension before the ``.py``) and
mypyc's shared runtime (``radcc__mypyc.*.so``) at the checkout's root; the C files (one per
module) are compiled `--jobs` at a time (default: every core). `--clean` removes
them again, so the pure-Python modules run. An extension is built from the source as it
was: after editing a compiled module, build again or clean (``radcc.compiled.stale``
lists the modules whose source is newer than their extension; tests/test_compiled.py
fails on them).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from radcc.compiled import MODULES, extension_files  # noqa: E402


def clean() -> None:
    # also the extensions of modules no longer listed (left behind, Python would still
    # import them, against a shared runtime that no longer holds them)
    leftover = [p for s in EXTENSION_SUFFIXES for p in (ROOT / "radcc").rglob(f"*{s}")]
    for path in sorted(set(extension_files(ROOT)) | set(leftover)):
        path.unlink()
        print(f"removed {path.relative_to(ROOT)}")
    shutil.rmtree(ROOT / "build", ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules")
    ap.add_argument("--opt", default="3", choices=("0", "1", "2", "3"),
                    help="the C compiler's optimisation level (default 3)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="C files compiled in parallel (default: every core)")
    args = ap.parse_args(argv)
    clean()
    if args.clean:
        return 0
    env = dict(os.environ, RADCC_MYPYC="1", RADCC_MYPYC_OPT=args.opt)
    r = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace",
                        f"--parallel={max(1, args.jobs)}"],
                       cwd=ROOT, env=env)
    if r.returncode:
        print("build_compiled: the build failed", file=sys.stderr)
        return r.returncode
    print(f"built {len(MODULES)} compiled modules")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
