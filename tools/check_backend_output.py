"""Hash the code radcc emits, to check that a compile-time change keeps the output.

    python tools/check_backend_output.py [--out FILE] [--compare FILE] [--no-glsl]
                                         [--no-ir] [--no-rand] [--rand-seeds N] [-v]

Compiles, in one process:

- every case of tests/e2e/glsl/cases.py (glslangValidator, then
  `radcc.driver.compile.compile_spirv` with the case's specialization constants) in
  wave32 and wave64;
- every tests/e2e/programs/*.ir through `radcc.driver.llc.compile_file` (``-S``)
  in wave32 and wave64 (a program a pass refuses in one wave size is recorded
  by its error);
- generated `tests.support.randprog` programs of a few hundred to a few thousand
  instructions (bench_compile's generator) through `run_pipeline` +
  `emit_program`, wave32 and wave64.

Each compile gives one line ``name  sha256[:16]`` of the assembly text (GLSL
cases: and of the code object's bytes; ``ERROR <type>`` for a failed compile),
printed or written to `--out`, plus a combined hash of all lines. `--compare FILE` compares with an earlier output
and lists the entries that differ (exit status 1 when any does).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import random
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RAND_SIZES = (300, 1000, 3000)
RAND_SEEDS = (1, 2, 3)


def _h(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:16]


def _err(e: BaseException) -> str:
    return f"ERROR {type(e).__name__}"


def glsl_entries() -> Iterator[tuple[str, str]]:
    from radcc.driver.compile import compile_spirv
    from tests.e2e.glsl.cases import CASES
    from tests.e2e.glsl_harness import compile_case

    for case in CASES:
        try:
            spirv = compile_case(case)
        except Exception as e:  # noqa: BLE001 - the front tool, not radcc
            yield f"glsl/{case.name}", f"NO-SPIRV {type(e).__name__}"
            continue
        for wave in (32, 64):
            name = f"glsl/{case.name}/w{wave}"
            try:
                res = compile_spirv(spirv, wave_size=wave, spec=dict(case.spec))
            except Exception as e:  # noqa: BLE001 - recorded
                yield name, _err(e)
                continue
            yield name, _h(res.asm) + "/" + _h(res.code_object)


def ir_entries() -> Iterator[tuple[str, str]]:
    from radcc.driver.llc import compile_file

    for path in sorted((ROOT / "tests/e2e/programs").glob("*.ir")):
        text = path.read_text()
        for wave in (32, 64):
            name = f"ir/{path.stem}/w{wave}"
            try:
                out, _ = compile_file(str(path), text, asm=True, wave64=wave == 64)
            except Exception as e:  # noqa: BLE001 - recorded
                yield name, _err(e)
                continue
            yield name, _h(out)


def rand_entries(seeds: tuple[int, ...] = RAND_SEEDS) -> Iterator[tuple[str, str]]:
    from radcc.ir.printer import print_program
    from radcc.passes.emit_program import emit_program
    from radcc.passes.manager import run_pipeline
    from radcc.passes.options import DebugOptions
    from radcc.target import get_target
    from tests.support.randprog import GenConfig, generate, lower

    target = get_target("gfx1100")
    for wave in (32, 64):
        for size in RAND_SIZES:
            for seed in seeds:
                name = f"rand/{size}/{seed}/w{wave}"
                rng = random.Random(seed * 1000 + size)
                cfg = GenConfig(max_stmts=max(10, size // 5), max_depth=3, lanes=wave)
                try:
                    p = lower(generate(rng.randint, cfg), target, wave)
                    run_pipeline(p, DebugOptions.parse(""), stream=io.StringIO())
                    res = emit_program(p)
                except Exception as e:  # noqa: BLE001 - recorded
                    yield name, _err(e)
                    continue
                yield name, _h(res.asm + "\n" + print_program(p))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the lines to this file")
    ap.add_argument("--compare", help="compare with an earlier --out file")
    ap.add_argument("--no-glsl", action="store_true")
    ap.add_argument("--no-ir", action="store_true")
    ap.add_argument("--no-rand", action="store_true")
    ap.add_argument("--rand-seeds", type=int, default=len(RAND_SEEDS),
                    help="generated programs per size and wave (default 3)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each line")
    args = ap.parse_args(argv)
    lines: list[str] = []
    seeds = tuple(range(1, args.rand_seeds + 1))
    sources = [(args.no_ir, ir_entries), (args.no_rand, lambda: rand_entries(seeds)),
               (args.no_glsl, glsl_entries)]
    for skip, gen in sources:
        if skip:
            continue
        for name, digest in gen():
            line = f"{name}  {digest}"
            lines.append(line)
            if args.verbose:
                print(line, flush=True)
    total = _h("\n".join(lines))
    errors = sum("ERROR" in ln for ln in lines)
    print(f"{len(lines)} compiles, {errors} errors, combined {total}")
    if args.out:
        Path(args.out).write_text("\n".join(lines) + f"\ncombined {total}\n")
    if args.compare:
        old = {}
        for ln in Path(args.compare).read_text().splitlines():
            k, _, v = ln.partition("  ")
            if v:
                old[k] = v
        new = dict(ln.split("  ", 1) for ln in lines)
        diff = sorted(k for k in new if old.get(k) != new[k])  # only what ran
        for k in diff:
            print(f"differs: {k}: {old.get(k)} -> {new.get(k)}")
        print(f"{len(diff)} of {len(new)} differ from {args.compare}")
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
