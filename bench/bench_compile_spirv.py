"""Compile time per shader of the GLSL suite, per stage, beside `spirv-opt -O`.

    python bench/bench_compile_spirv.py [--wave 32|64] [--clock wall|cpu] [--repeat 3]
                                        [--opt-runs 10] [--only NAME,...] [--passes]
                                        [--no-spirv-opt]
    python bench/bench_compile_spirv.py --profile NAME|all [--stage STAGE] [--top 25]
                                        [--sort tottime|cumulative]

Every case of tests/e2e/glsl/cases.py is compiled to SPIR-V by glslangValidator
(-V, the case's target environment; not timed), then by
`radcc.driver.compile.compile_spirv` with the case's specialization constants. The
stage times are the driver's own `CompileResult.timings`: parse (SPIR-V to MIR),
mid-level (MIR optimisations, lowering, divergence analysis), isel, back end
(the pipeline passes) and emit (assembler, statistics, code object). A warm-up
compile runs first (imports, opcode tables); each shader is then compiled
`--repeat` times in this process and the repeat with the smallest total is
reported, so the assembler's statement memo is warm, as in a long-running
compiler. Shaders radcc cannot compile yet are listed with the reason and
excluded from the totals and medians.

Yardstick: `spirv-opt -O` (SPIRV-Tools) on the same module, one process per
module and run (`--opt-runs`, default 10), input and output in files on a
temporary directory. Its time is the best wall time of those runs minus the
start-up of the process: the best of 2 x `--opt-runs` runs of
`spirv-opt --version`, timed the same way. What remains is
reading, validating (spirv-opt validates its input first), optimising and
writing the module. Specialization constants are left at their defaults there.
The table shows wall time by default. On a machine shared with other jobs
wall time is inflated by waiting for a CPU (best-of-N does not remove that
when every run is preempted), so `--clock cpu` measures CPU time instead:
radcc's stage timers (`time.perf_counter` in radcc.driver.compile and radcc.passes.manager)
read `time.process_time` for the run, and spirv-opt's time is the child's user
+ sys time from `getrusage(RUSAGE_CHILDREN)`, its `--version` CPU time
subtracted. Either way a line below the table gives the totals on the other
clock.

`--passes` adds the back end's time per pipeline pass, summed over the suite
(from `PipelineResult.timings`). `--profile NAME` runs cProfile over one
warm compile of case NAME (`all`: one compile of every shader) and prints the
top entries; `--stage` limits the profile to one stage's functions.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from radcc.driver.compile import compile_spirv  # noqa: E402
from tests.e2e.glsl.cases import CASES  # noqa: E402
from tests.e2e.glsl_harness import Case, compile_case  # noqa: E402

STAGES = ("parse", "mid-level", "isel", "back end", "emit")
SPIRV_OPT = os.environ.get("RADCC_SPIRV_OPT", "spirv-opt")

# The functions compile_spirv calls for each stage (module, attribute), wrapped
# by `--profile --stage` so that the profiler runs only inside them.
STAGE_FUNCS: dict[str, tuple[tuple[str, str], ...]] = {
    "parse": (("radcc.driver.compile", "spirv_to_mir"),),
    "mid-level": (("radcc.driver.compile", "optimize"),
                  ("radcc.driver.compile", "lower_for_isel"),
                  ("radcc.driver.compile", "divergence_analysis")),
    "isel": (("radcc.driver.compile", "select_program"),),
    "back end": (("radcc.driver.compile", "run_pipeline"),),
    "emit": (("radcc.passes.emit_program", "emit_program"),
             ("radcc.passes.emit_program", "emit_code_object"),
             ("radcc.passes.statistics", "collect_statistics"),
             ("radcc.driver.llc", "kernel_asm")),
}


@dataclass
class Row:
    case: Case
    words: int  # SPIR-V words
    timings: dict[str, float] = field(default_factory=dict)
    instructions: int = 0  # machine instructions emitted
    error: str = ""
    cpu: float = 0.0  # radcc's CPU time (best repeat)
    wall: float = 0.0  # radcc's wall time (best repeat)
    opt: float | None = None  # spirv-opt -O wall seconds, start-up subtracted
    opt_cpu: float | None = None  # its CPU time (user + sys), start-up subtracted
    opt_error: str = ""

    @property
    def total(self) -> float:
        return sum(self.timings.get(s, 0.0) for s in STAGES)


def select_cases(only: str | None) -> list[Case]:
    if not only:
        return list(CASES)
    names = [n.strip() for n in only.split(",") if n.strip()]
    by_name = {c.name: c for c in CASES}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise SystemExit(f"unknown case(s): {', '.join(missing)} "
                         f"(known: {', '.join(sorted(by_name))})")
    return [by_name[n] for n in names]


def compile_once(case: Case, spirv: bytes, wave: int) -> Any:
    return compile_spirv(spirv, wave_size=wave, spec=dict(case.spec))


def reason(e: BaseException) -> str:
    msg = " ".join(str(e).split())
    return f"{type(e).__name__}: {msg[:140]}{'...' if len(msg) > 140 else ''}"


# -- spirv-opt ---------------------------------------------------------------------


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(cmd: list[str]) -> tuple[float, float, subprocess.CompletedProcess[bytes]]:
    """Wall time, the child's CPU time (user + sys) and the process."""
    c0 = _child_cpu()
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True)
    return time.perf_counter() - t0, _child_cpu() - c0, p


def spirv_opt_startup(runs: int) -> tuple[float, float]:
    """Best wall and CPU time of `spirv-opt --version` (process start-up and exit)."""
    ts = [_run([SPIRV_OPT, "--version"])[:2] for _ in range(runs)]
    return min(t[0] for t in ts), min(t[1] for t in ts)


def spirv_opt_time(case: Case, spirv: bytes, runs: int, startup: tuple[float, float],
                   tmp: Path) -> tuple[float | None, float | None, str]:
    src, dst = tmp / f"{case.name}.spv", tmp / f"{case.name}.opt.spv"
    src.write_bytes(spirv)
    cmd = [SPIRV_OPT, "-O", f"--target-env={case.target_env}", *case.val_flags,
           str(src), "-o", str(dst)]
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        t, c, p = _run(cmd)
        if p.returncode != 0:
            msg = " ".join((p.stdout + p.stderr).decode(errors="replace").split())
            return None, None, msg[:140]
        wall.append(t)
        cpu.append(c)
    return max(min(wall) - startup[0], 0.0), max(min(cpu) - startup[1], 0.0), ""


# -- measurement -------------------------------------------------------------------


@contextmanager
def capture_pass_times(acc: dict[str, float] | None) -> Iterator[None]:
    """While active, add each run_pipeline's per-pass timings into `acc`."""
    if acc is None:
        yield
        return
    import radcc.driver.compile as pl  # the driver's reference to the pass manager's

    orig = pl.run_pipeline
    last: list[dict[str, float]] = []

    def wrapped(*a: Any, **k: Any) -> Any:
        res = orig(*a, **k)
        last.append(dict(res.timings))
        return res

    pl.run_pipeline = wrapped  # type: ignore[assignment]
    try:
        yield
    finally:
        pl.run_pipeline = orig  # type: ignore[assignment]
        if last:  # one compile: one pipeline run
            for name, secs in last[-1].items():
                acc[name] = acc.get(name, 0.0) + secs


def measure(case: Case, spirv: bytes, wave: int, repeat: int,
            passes: dict[str, float] | None) -> Row:
    row = Row(case, len(spirv) // 4)
    best: Any = None
    runs: list[dict[str, float]] = []
    cpus: list[float] = []
    walls: list[float] = []
    for _ in range(repeat):
        gc.collect()
        pass_times: dict[str, float] = {}
        try:
            with capture_pass_times(pass_times if passes is not None else None):
                c0, w0 = time.process_time(), time.perf_counter()
                res = compile_once(case, spirv, wave)
                cpus.append(time.process_time() - c0)
                walls.append(time.perf_counter() - w0)
        except Exception as e:  # noqa: BLE001 - reported as "not compiled"
            row.error = reason(e)
            return row
        total = sum(res.timings.get(s, 0.0) for s in STAGES)
        if best is None or total < sum(best.timings.get(s, 0.0) for s in STAGES):
            best = res
            runs = [pass_times]
    row.timings = dict(best.timings)
    row.cpu = min(cpus)
    row.wall = min(walls)
    row.instructions = int(best.stats.get("Instructions", 0))
    if passes is not None and runs:
        for name, secs in runs[0].items():
            passes[name] = passes.get(name, 0.0) + secs
    return row


@contextmanager
def stage_clock(clock: str) -> Iterator[None]:
    """With clock "cpu", radcc's stage and pass timers read process_time."""
    if clock != "cpu":
        yield
        return
    import radcc.driver.compile as rc
    import radcc.passes.manager as pl

    shim = types.SimpleNamespace(perf_counter=time.process_time)
    saved = [(m, m.time) for m in (rc, pl)]
    for m, _ in saved:
        m.time = shim  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for m, t in saved:
            m.time = t  # type: ignore[attr-defined]


def warm_up(cases: list[Case], spirvs: dict[str, bytes], wave: int) -> None:
    """Compile shaders until one succeeds (imports, opcode tables, caches)."""
    for c in cases:
        try:
            compile_once(c, spirvs[c.name], wave)
            return
        except Exception:  # noqa: BLE001, S112 - the measurement reports it
            continue


def glsl_to_spirv(cases: list[Case]) -> tuple[dict[str, bytes], dict[str, str]]:
    spirvs: dict[str, bytes] = {}
    errors: dict[str, str] = {}
    for c in cases:
        try:
            spirvs[c.name] = compile_case(c)
        except AssertionError as e:
            errors[c.name] = "glslangValidator: " + " ".join(str(e).split())[:120]
    return spirvs, errors


# -- output ------------------------------------------------------------------------


def ms(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x * 1e3:.1f}"


def print_table(rows: list[Row], wave: int, clock: str, startup: tuple[float, float] | None,
                repeat: int, opt_runs: int, out: Callable[[str], None] = print) -> None:
    ok = [r for r in rows if not r.error]
    bad = [r for r in rows if r.error]
    cpu = clock == "cpu"

    def opt_of(r: Row) -> float | None:
        return r.opt_cpu if cpu else r.opt

    cols = [*STAGES, "radcc", "spirv-opt", "ratio"]
    head = f"{'shader':<24}{'words':>7}{'insts':>7}" + "".join(f"{c:>11}" for c in cols)
    out(f"radcc compile time per shader, wave{wave}, {clock} time in ms (best of {repeat}); "
        f"ratio = radcc / spirv-opt -O")
    out(head)
    out("-" * len(head))

    def line(name: str, words: str, insts: str, vals: list[float | None],
             opt: float | None) -> str:
        tot = vals[-1]
        ratio = f"{tot / opt:.1f}" if tot is not None and opt else "-"
        return (f"{name:<24}{words:>7}{insts:>7}" + "".join(f"{ms(v):>11}" for v in vals)
                + f"{ms(opt):>11}{ratio:>11}")

    for r in ok:
        vals: list[float | None] = [r.timings.get(s, 0.0) for s in STAGES] + [r.total]
        out(line(r.case.name, str(r.words), str(r.instructions), vals, opt_of(r)))
    out("-" * len(head))
    if ok:
        totals: list[float | None] = [sum(r.timings.get(s, 0.0) for r in ok)
                                      for s in STAGES] + [sum(r.total for r in ok)]
        with_opt = [r for r in ok if opt_of(r) is not None]
        opts = [opt_of(r) or 0.0 for r in with_opt]
        out(line(f"total ({len(ok)})", str(sum(r.words for r in ok)),
                 str(sum(r.instructions for r in ok)), totals,
                 sum(opts) if with_opt and len(with_opt) == len(ok) else None))
        med: list[float | None] = [statistics.median(r.timings.get(s, 0.0) for r in ok)
                                   for s in STAGES] + [statistics.median(r.total for r in ok)]
        out(line("median", str(int(statistics.median(r.words for r in ok))),
                 str(int(statistics.median(r.instructions for r in ok))), med,
                 statistics.median(opts) if opts else None))
        grand = totals[-1] or 1.0
        share = "".join(f"{f'{(t or 0.0) / grand:.0%}':>11}" for t in totals[:-1])
        out(f"{'share of total':<38}{share}")
        ratios = [r.total / o for r, o in zip(with_opt, opts, strict=True) if o]
        if ratios:
            out(f"radcc / spirv-opt per shader: median {statistics.median(ratios):.1f}x, "
                f"range {min(ratios):.1f}x-{max(ratios):.1f}x")
        other = [r for r in with_opt if (r.opt if cpu else r.opt_cpu) is not None]
        if other:
            rt = sum(r.wall if cpu else r.cpu for r in other)
            ot = sum((r.opt if cpu else r.opt_cpu) or 0.0 for r in other)
            out(f"{'wall' if cpu else 'CPU'} time instead, same {len(other)} shaders: radcc "
                f"{rt * 1e3:.0f} ms, spirv-opt {ot * 1e3:.0f} ms ({rt / (ot or 1):.1f}x)")
        if len(with_opt) != len(ok):
            out(f"(spirv-opt total omitted: it failed on {len(ok) - len(with_opt)} "
                f"of these modules)")
    if startup is not None:
        out(f"spirv-opt: time minus start-up (best `spirv-opt --version`: "
            f"{startup[0] * 1e3:.1f} ms wall, {startup[1] * 1e3:.1f} ms CPU); "
            f"best of {opt_runs} runs per module")
    out(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for r in rows:
        if r.opt_error:
            out(f"spirv-opt failed on {r.case.name}: {r.opt_error}")
    out("")
    out(f"not compiled by radcc: {len(bad)} of {len(rows)} shaders (excluded above)")
    for r in bad:
        out(f"  {r.case.name:<24}{r.error}")


def print_passes(passes: dict[str, float], out: Callable[[str], None] = print) -> None:
    total = sum(passes.values()) or 1.0
    out("")
    out("back end per pass, summed over the compiled shaders (one run each)")
    for name, secs in sorted(passes.items(), key=lambda kv: -kv[1]):
        out(f"  {name:<24}{secs * 1e3:>10.1f} ms {secs / total:>6.1%}")
    out(f"  {'total':<24}{total * 1e3:>10.1f} ms")


# -- profile -----------------------------------------------------------------------


@contextmanager
def stage_profiler(prof: cProfile.Profile, stage: str | None) -> Iterator[list[int]]:
    """Profile everything (stage None) or only inside the stage's functions."""
    calls = [0]
    depth = [0]
    if stage is None:
        prof.enable()
        try:
            yield calls
        finally:
            prof.disable()
            calls[0] = 1
        return
    import importlib

    patched: list[tuple[Any, str, Any]] = []
    for mod_name, attr in STAGE_FUNCS[stage]:
        mod = importlib.import_module(mod_name)
        orig = getattr(mod, attr, None)
        if orig is None:
            continue

        def wrapped(*a: Any, __orig: Any = orig, **k: Any) -> Any:
            calls[0] += 1
            depth[0] += 1
            if depth[0] == 1:
                prof.enable()
            try:
                return __orig(*a, **k)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    prof.disable()

        patched.append((mod, attr, orig))
        setattr(mod, attr, wrapped)
    try:
        yield calls
    finally:
        for mod, attr, orig in patched:
            setattr(mod, attr, orig)


def profile(cases: list[Case], spirvs: dict[str, bytes], wave: int, repeat: int,
            stage: str | None, top: int, sort: str) -> int:
    compiled: list[Case] = []
    for c in cases:  # warm-up (and skip what does not compile)
        try:
            compile_once(c, spirvs[c.name], wave)
            compiled.append(c)
        except Exception as e:  # noqa: BLE001
            print(f"# {c.name}: not compiled: {reason(e)}", file=sys.stderr)
    if not compiled:
        print("nothing to profile", file=sys.stderr)
        return 1
    prof = cProfile.Profile()
    stage_sum = dict.fromkeys(STAGES, 0.0)
    with stage_profiler(prof, stage) as calls:
        for _ in range(repeat):
            for c in compiled:
                res = compile_once(c, spirvs[c.name], wave)
                for s in STAGES:
                    stage_sum[s] += res.timings.get(s, 0.0)
    if calls[0] == 0:
        print(f"warning: none of {STAGE_FUNCS[stage or '']} was called: "
              "has radcc/driver/compile.py changed?", file=sys.stderr)
    what = compiled[0].name if len(compiled) == 1 else f"{len(compiled)} shaders"
    total = sum(stage_sum.values())
    print(f"profile of {what}, wave{wave}, {repeat} compile(s) each"
          f"{'' if stage is None else f', stage {stage!r} only'}")
    note = "" if stage is None else f", {stage} with cProfile's overhead"
    print(f"stage timings (ms{note}): " + ", ".join(
        f"{s} {stage_sum[s] * 1e3:.1f} ({stage_sum[s] / (total or 1):.0%})" for s in STAGES))
    buf = io.StringIO()
    st = pstats.Stats(prof, stream=buf)
    st.strip_dirs().sort_stats(sort).print_stats(top)
    text = buf.getvalue()
    # Shares of the profiled time (self time for tottime, inclusive for cumulative).
    prof_total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
    print(text.rstrip())
    print(f"\nprofiled time {prof_total:.3f} s (under cProfile; shares of it by self time):")
    items = sorted(st.stats.items(), key=lambda kv: -kv[1][2])  # type: ignore[attr-defined]
    for (fname, lineno, func), v in items[:min(top, 15)]:
        print(f"  {v[2] / (prof_total or 1):>6.1%}  {func}  ({fname}:{lineno})")
    return 0


# -- main --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wave", type=int, default=32, choices=(32, 64))
    ap.add_argument("--wave64", action="store_const", const=64, dest="wave",
                    help="same as --wave 64")
    ap.add_argument("--clock", default="wall", choices=("wall", "cpu"),
                    help="stage and spirv-opt times: wall (default) or CPU time")
    ap.add_argument("--repeat", type=int, default=3, help="compiles per shader; the best is "
                    "reported (default 3)")
    ap.add_argument("--opt-runs", type=int, default=10, help="spirv-opt runs per module; the "
                    "best is reported (default 10)")
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--passes", action="store_true", help="back-end time per pipeline pass")
    ap.add_argument("--no-spirv-opt", action="store_true", help="skip the spirv-opt yardstick")
    ap.add_argument("--profile", metavar="NAME", help="cProfile one case ('all': the suite)")
    ap.add_argument("--stage", choices=STAGES, help="with --profile: only this stage")
    ap.add_argument("--top", type=int, default=25, help="with --profile: entries shown")
    ap.add_argument("--sort", default="tottime", choices=("tottime", "cumulative", "ncalls"),
                    help="with --profile: pstats sort key (default tottime)")
    args = ap.parse_args(argv)
    if args.repeat < 1 or args.opt_runs < 1:
        ap.error("--repeat and --opt-runs must be at least 1")

    if args.profile:
        cases = select_cases(None if args.profile == "all" else args.profile)
        spirvs, gerr = glsl_to_spirv(cases)
        for name, msg in gerr.items():
            print(f"# {name}: {msg}", file=sys.stderr)
        return profile([c for c in cases if c.name in spirvs], spirvs, args.wave,
                       1 if args.profile == "all" else args.repeat, args.stage, args.top,
                       args.sort)

    cases = select_cases(args.only)
    spirvs, gerr = glsl_to_spirv(cases)
    warm_up([c for c in cases if c.name in spirvs], spirvs, args.wave)
    passes: dict[str, float] | None = {} if args.passes else None
    rows: list[Row] = []
    for c in cases:
        if c.name in gerr:
            rows.append(Row(c, 0, error=gerr[c.name]))
            continue
        with stage_clock(args.clock):
            rows.append(measure(c, spirvs[c.name], args.wave, args.repeat, passes))
        r = rows[-1]
        print(f"# {c.name}: {'not compiled' if r.error else f'{r.total * 1e3:.1f} ms'}",
              file=sys.stderr)

    startup: tuple[float, float] | None = None
    if not args.no_spirv_opt:
        if shutil.which(SPIRV_OPT) is None:
            print(f"{SPIRV_OPT} not found (Debian package spirv-tools): no yardstick",
                  file=sys.stderr)
        else:
            startup = spirv_opt_startup(2 * args.opt_runs)
            with tempfile.TemporaryDirectory() as d:
                for r in rows:
                    if r.case.name in spirvs:
                        r.opt, r.opt_cpu, r.opt_error = spirv_opt_time(r.case, spirvs[r.case.name],
                                                            args.opt_runs, startup, Path(d))
    print_table(rows, args.wave, args.clock, startup, args.repeat, args.opt_runs)
    if passes is not None:
        print_passes(passes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
