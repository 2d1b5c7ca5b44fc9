"""Growth of compile time with shader size, per phase, on generated GLSL compute shaders.

    python bench/bench_growth.py [--quick] [--sizes 4000,16000,64000] [--kinds K,...]
                                 [--wave 32|64] [--clock cpu|wall] [--timeout 600]
                                 [--repeat N] [--profile KIND:SIZE] [--top 30]

Six kinds of shader (issue 14's list), each generated at about `--sizes` machine
instructions (`--quick`: 1000,4000,16000):

- ``straight``: straight-line float arithmetic on a handful of variables;
- ``ifs``: sequential divergent if/else on loaded values;
- ``loops``: sequences of nested loops (trip counts from a buffer, not unrolled);
- ``pressure``: segments of 320 loaded values live at once (beyond the register file:
  spilling), then combined;
- ``switch``: one switch of many cases (distinct bodies) inside a loop;
- ``shared``: shared-memory stores and loads separated by barriers.

Each shader is compiled to SPIR-V by glslangValidator (not timed) and then compiled by
radcc's stages, each timed: ``parse`` (read_spirv, validate_module, spirv_to_mir), every
mid-level pass of `radcc.frontend.opt` (summed over its runs, ``mir:NAME``),
``divergence``, ``isel``, every back-end pass of `radcc.passes.manager` (``be:NAME``) and
the emission (``emit_program``, ``statistics``, ``kernel_asm``, ``code_object``). Each
compile runs in a child process of its own (so the peak RSS printed is that compile's,
and `--timeout` can stop it). A shader's size is calibrated from two small probes and
then from each measured size (`repeat_count`: a power law through the last two
points); the instruction count printed is the emitted one.

For each kind the table gives each phase's time at each size and its growth exponent:
the slope of a least-squares fit of log(time) against log(instructions) (1.0 linear,
2.0 quadratic). Phases under 20 ms at the largest size are folded into ``(small)``.
Clock: CPU time (``process_time``) by default, far less inflated than wall time on a
shared machine; ``--repeat N`` compiles each size N times (a child each) and keeps each
phase's least time, the total being the sum of those. `--profile KIND:SIZE` runs cProfile over one compile and prints the top
entries instead. This is a benchmark that prints, not a test.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KINDS = ("straight", "ifs", "loops", "pressure", "switch", "shared")
HEAD = "#version 450\nlayout(local_size_x = 64) in;\n" \
       "layout(std430, binding = 0) buffer B { float d[]; };\n" \
       "layout(std430, binding = 1) buffer U { uint u[]; };\n"


def _c(rng: random.Random) -> str:
    return f"{rng.uniform(0.5, 2.0):.4f}"


def gen_straight(n: int, rng: random.Random) -> str:
    vs = [f"x{k}" for k in range(6)]
    body = [f"  float {v} = d[i + {k}u];" for k, v in enumerate(vs)]
    ops = ("{a} = {a} * {b} + {c};", "{a} = {a} - {b} * {c};", "{a} = max({a}, {b}) * {c};",
           "{a} = {a} * {c} + {b};")
    for _ in range(n):
        a, b = rng.sample(vs, 2)
        body.append("  " + rng.choice(ops).format(a=a, b=b, c=_c(rng)))
    body.append(f"  d[i] = {' + '.join(vs)};")
    return _main(body)


def gen_ifs(n: int, rng: random.Random) -> str:
    body = ["  float a = d[i], b = d[i + 1u];"]
    for k in range(n):
        body.append(f"  if (d[i + {k % 64 + 2}u] > {_c(rng)}) {{ a = a * {_c(rng)} + b; }} "
                    f"else {{ b = b * {_c(rng)} - a; }}")
    body.append("  d[i] = a + b;")
    return _main(body)


def gen_loops(n: int, rng: random.Random) -> str:
    body = ["  float a = d[i], b = d[i + 1u];"]
    for k in range(n):
        body.append(f"  for (uint j = 0u; j < u[{k % 16}]; j++) {{")
        body.append(f"    a = a * {_c(rng)} + b;")
        body.append(f"    for (uint l = 0u; l < u[{k % 16 + 16}] + j; l++) {{")
        body.append(f"      b = b * {_c(rng)} + d[i + l];")
        body.append(f"      if (b > {_c(rng)}) break;")
        body.append("    }")
        body.append("  }")
    body.append("  d[i] = a + b;")
    return _main(body)


PRESSURE_LIVE = 320


def gen_pressure(n: int, rng: random.Random) -> str:
    body = ["  float acc = 0.0;"]
    for s in range(n):
        vals = [f"p{s}_{k}" for k in range(PRESSURE_LIVE)]
        body += [f"  float {v} = d[i * 7u + {s * PRESSURE_LIVE + k}u];"
                 for k, v in enumerate(vals)]
        body.append("  acc = acc * " + _c(rng) + " + d[i + 1u];")
        for k in reversed(range(PRESSURE_LIVE)):
            body.append(f"  acc = acc * {vals[k]} + {_c(rng)};")
    body.append("  d[i] = acc;")
    return _main(body)


def gen_switch(n: int, rng: random.Random) -> str:
    body = ["  float a = d[i], b = d[i + 1u];",
            "  for (uint j = 0u; j < u[0]; j++) {",
            f"    switch (u[i + j] % {n}u) {{"]
    for k in range(n):
        body.append(f"      case {k}u: a = a * {_c(rng)} + b; b = b - {_c(rng)}; break;")
    body += ["      default: a = a + 1.0; break;", "    }", "  }", "  d[i] = a + b;"]
    return _main(body)


def gen_shared(n: int, rng: random.Random) -> str:
    head = "shared float s[256];\n"
    body = ["  uint l = gl_LocalInvocationID.x;", "  float a = d[i];"]
    for k in range(n):
        body.append(f"  s[(l + {k % 7}u) & 255u] = a;")
        body.append("  barrier();")
        body.append(f"  a = a * {_c(rng)} + s[(l + {k % 13 + 1}u) & 255u];")
        body.append("  barrier();")
    body.append("  d[i] = a;")
    return _main(body, head)


def _main(body: list[str], head: str = "") -> str:
    return (HEAD + head + "void main() {\n  uint i = gl_GlobalInvocationID.x;\n"
            + "\n".join(body) + "\n}\n")


GENERATORS: dict[str, Callable[[int, random.Random], str]] = {
    "straight": gen_straight, "ifs": gen_ifs, "loops": gen_loops, "pressure": gen_pressure,
    "switch": gen_switch, "shared": gen_shared,
}
PROBE = {"straight": 400, "ifs": 100, "loops": 30, "pressure": 2, "switch": 100,
         "shared": 100}


def glsl_to_spirv(src: str) -> bytes:
    with tempfile.TemporaryDirectory() as td:
        p = Path(td) / "s.comp"
        out = Path(td) / "s.spv"
        p.write_text(src)
        r = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2", str(p),
                            "-o", str(out)], capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"glslangValidator failed:\n{r.stdout}{r.stderr}")
        return out.read_bytes()


def shader(kind: str, n: int) -> bytes:
    return glsl_to_spirv(GENERATORS[kind](n, random.Random(1)))


# ---------------------------------------------------------------- one compile (child)

def compile_timed(spirv: bytes, wave: int, clock: Callable[[], float],
                  only: tuple[str, Any] | None = None) -> dict[str, Any]:
    """Compile `spirv` as radcc.driver.compile does, timing every phase; `only`
    (a phase's name as the table spells it, ``mir:NAME`` or ``be:NAME``, and a
    profiler) enables the profiler around that phase's runs alone."""
    import dataclasses

    import radcc.frontend.opt as mopt
    import radcc.passes.manager as pm
    from radcc.driver.llc import kernel_asm
    from radcc.frontend.divergence import divergence_analysis
    from radcc.frontend.opt import lower_for_isel
    from radcc.frontend.spirv import read_spirv
    from radcc.frontend.spirv.validate import validate_module
    from radcc.frontend.spirv_to_mir import spirv_to_mir
    from radcc.isel import select_program
    from radcc.passes.emit_program import emit_code_object, emit_program
    from radcc.passes.statistics import collect_statistics
    from radcc.target import get_target

    t: dict[str, float] = {}

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any, **k: Any) -> Any:
            t0 = clock()
            try:
                return fn(*a, **k)
            finally:
                t[name] = t.get(name, 0.0) + clock() - t0
        return run

    def profiled(fn: Callable[..., Any]) -> Callable[..., Any]:
        assert only is not None
        prof = only[1]

        def run(*a: Any, **k: Any) -> Any:
            prof.enable()
            try:
                return fn(*a, **k)
            finally:
                prof.disable()
        return run

    saved = dict(mopt.PASSES)
    for name, fn in saved.items():
        mopt.PASSES[name] = timed("mir:" + name, fn if only is None or only[0] != "mir:" + name
                                  else profiled(fn))
    passes = tuple(s if only is None or only[0] != "be:" + s.name
                   else dataclasses.replace(s, run=profiled(s.run)) for s in pm.PIPELINE)
    pm.time = type("C", (), {"perf_counter": staticmethod(clock)})  # type: ignore[attr-defined]
    target = get_target("gfx1100")
    try:
        with pm.gc_paused():
            t0 = clock()
            module = read_spirv(spirv)
            validate_module(module, None)
            sh = spirv_to_mir(module)
            t["parse"] = clock() - t0
            t0 = clock()
            lower_for_isel(sh, target.mir_options, wave)
            mid = clock() - t0
            t["mir:(other)"] = mid - sum(v for k, v in t.items() if k.startswith("mir:"))
            t0 = clock()
            divergence_analysis(sh)
            t["divergence"] = clock() - t0
            t0 = clock()
            prog = select_program(sh, target, wave, "main").program
            t["isel"] = clock() - t0
            res = pm.run_pipeline(prog, passes=passes)
            for name, secs in res.timings.items():
                t["be:" + name] = secs
            t0 = clock()
            emitted = emit_program(prog)
            t["emit_program"] = clock() - t0
            t0 = clock()
            stats = collect_statistics(prog, emitted, workgroup_size=64)
            t["statistics"] = clock() - t0
            t0 = clock()
            kernel_asm(prog, emitted, stats)
            t["kernel_asm"] = clock() - t0
            t0 = clock()
            emit_code_object(prog, emitted)
            t["code_object"] = clock() - t0
    finally:
        mopt.PASSES.update(saved)
    n = sum(1 for b in prog.blocks for _ in b.instructions)
    return {"instructions": n, "times": t}


def child(kind: str, n: int, wave: int, clock_name: str) -> None:
    spirv = shader(kind, n)
    clock = time.process_time if clock_name == "cpu" else time.perf_counter
    out = compile_timed(spirv, wave, clock)
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def run_child(kind: str, n: int, wave: int, clock: str, timeout: float) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", f"{kind}:{n}", "--wave", str(wave),
           "--clock", clock]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s"}
    wall = time.perf_counter() - t0
    if r.returncode:
        return {"error": (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]}
    out: dict[str, Any] = json.loads(r.stdout.strip().splitlines()[-1])
    out["wall"] = wall
    return out


# ---------------------------------------------------------------- report

def exponent(xs: list[float], ys: list[float]) -> float | None:
    pts = [(math.log(x), math.log(y)) for x, y in zip(xs, ys, strict=True) if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    den = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / den if den else None


def report(kind: str, runs: list[dict[str, Any]], small: float) -> float | None:
    ok = [r for r in runs if "error" not in r]
    for r in runs:
        if "error" in r:
            print(f"  {kind} at {r['target']}: {r['error']}")
    if not ok:
        return None
    counts = [r["instructions"] for r in ok]
    names: list[str] = []
    for r in ok:
        names += [k for k in r["times"] if k not in names]
    rows: dict[str, list[float]] = {}
    folded = [0.0] * len(ok)
    for name in names:
        vals = [r["times"].get(name, 0.0) for r in ok]
        if vals[-1] < small:
            folded = [a + b for a, b in zip(folded, vals, strict=True)]
        else:
            rows[name] = vals
    rows["(small)"] = folded
    rows["total"] = [sum(r["times"].values()) for r in ok]
    head = f"{kind + ' (' + str(len(ok)) + ' sizes)':<34}" + "".join(
        f"{f'{c} ins':>12}" for c in counts) + f"{'exponent':>10}"
    print(head)
    print("-" * len(head))
    worst = None
    for name, vals in rows.items():
        e = exponent(counts, vals)
        if name not in ("(small)", "total") and e is not None:
            worst = e if worst is None else max(worst, e)
        flag = " *" if e is not None and e > 1.15 and name != "(small)" else ""
        print(f"{name:<34}" + "".join(f"{v * 1000:>9.0f} ms" for v in vals)
              + (f"{e:>10.2f}" if e is not None else f"{'-':>10}") + flag)
    print(f"{'peak RSS (MB)':<34}" + "".join(f"{r['maxrss_mb']:>12.0f}" for r in ok))
    print(f"{'wall incl. start-up (s)':<34}" + "".join(f"{r['wall']:>12.1f}" for r in ok))
    print()
    return worst


def profile(kind: str, n: int, wave: int, top: int, phase: str | None = None) -> None:
    import cProfile
    import pstats

    compile_timed(shader(kind, 2), wave, time.perf_counter)  # warm: imports, tables
    spirv = shader(kind, n)
    pr = cProfile.Profile()
    if phase is None:
        pr.enable()
        out = compile_timed(spirv, wave, time.perf_counter)
        pr.disable()
    else:
        out = compile_timed(spirv, wave, time.perf_counter, (phase, pr))
    st = pstats.Stats(pr)
    calls = sum(v[1] for v in st.stats.values())  # type: ignore[attr-defined]
    print(f"# {kind}:{n}: {out['instructions']} instructions; "
          f"{phase or 'the whole compile'}: {calls:,} function calls")
    st.sort_stats("tottime").print_stats(top)


def repeat_count(points: list[tuple[int, int]], size: int) -> int:
    """The generator's repeat count expected to give `size` instructions.

    A power law count = c * n**b through the two measured points (repeat count,
    instructions) of largest n: the instructions per repeat are not constant (the
    switch's fixed loop and default case weigh at small n; the pressure kind's spill
    code per segment grows with the segment count), so one probe scaled linearly
    missed the sizes by up to 25%; each measured size is a new point for the next.
    """
    (n0, c0), (n1, c1) = sorted(set(points))[-2:]
    b = math.log(c1 / c0) / math.log(n1 / n0) if c1 != c0 else 1.0
    b = min(max(b, 0.5), 2.0)
    return max(1, round(n1 * (size / c1) ** (1.0 / b)))


def least(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two compiles of one shader as one: each phase's least time, the larger peak RSS,
    the wall times summed."""
    times = {k: min(a["times"].get(k, v), v) for k, v in b["times"].items()}
    times.update({k: v for k, v in a["times"].items() if k not in times})
    return {"instructions": a["instructions"], "times": times,
            "maxrss_mb": max(a["maxrss_mb"], b["maxrss_mb"]), "wall": a["wall"] + b["wall"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="4000,16000,64000")
    ap.add_argument("--quick", action="store_true", help="sizes 1000,4000,16000")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--wave", type=int, default=32, choices=(32, 64))
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--timeout", type=float, default=600.0, help="per compile, seconds")
    ap.add_argument("--repeat", type=int, default=1,
                    help="compile each size this many times (each in a child of its own) "
                    "and keep each phase's least time: a shared machine's load moves a "
                    "phase's three-point exponent by up to ±0.1 between runs")
    ap.add_argument("--small", type=float, default=0.02,
                    help="fold phases under this many seconds at the largest size")
    ap.add_argument("--profile", metavar="KIND:N", help="cProfile one compile (N: repeat "
                    "count of the generator, not instructions)")
    ap.add_argument("--phase", help="with --profile: profile this phase's runs alone "
                    "(as the table names it: mir:NAME, be:NAME), e.g. be:jump_threading")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        kind, n = args.child.split(":")
        child(kind, int(n), args.wave, args.clock)
        return 0
    if args.profile:
        kind, n = args.profile.split(":")
        profile(kind, int(n), args.wave, args.top, args.phase)
        return 0
    sizes = [1000, 4000, 16000] if args.quick else [int(x) for x in args.sizes.split(",")]
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    for k in kinds:
        if k not in GENERATORS:
            raise SystemExit(f"unknown kind {k!r} (known: {', '.join(KINDS)})")
    print(f"# load average {os.getloadavg()[0]:.2f}, clock {args.clock}, wave{args.wave}")
    worst: dict[str, float | None] = {}
    for kind in kinds:
        points: list[tuple[int, int]] = []
        for n in (PROBE[kind], 2 * PROBE[kind]):
            probe = run_child(kind, n, args.wave, args.clock, args.timeout)
            if "error" in probe:
                break
            points.append((n, probe["instructions"]))
        if len(points) < 2:
            print(f"{kind}: probe failed: {probe['error']}")
            continue
        runs = []
        for size in sizes:
            n = repeat_count(points, size)
            r = run_child(kind, n, args.wave, args.clock, args.timeout)
            for _ in range(args.repeat - 1):
                if "error" in r:
                    break
                again = run_child(kind, n, args.wave, args.clock, args.timeout)
                if "error" in again:
                    r = again
                    break
                r = least(r, again)
            if "error" not in r:
                points.append((n, r["instructions"]))
            r["target"] = size
            runs.append(r)
            took = r.get("error") or f"{sum(r['times'].values()):.1f} s"
            print(f"# {kind} n={n}: {r.get('instructions', '-')} instructions, {took}",
                  file=sys.stderr, flush=True)
        worst[kind] = report(kind, runs, args.small)
    print("worst phase exponent per kind: " + ", ".join(
        f"{k} {'-' if v is None else f'{v:.2f}'}" for k, v in worst.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
