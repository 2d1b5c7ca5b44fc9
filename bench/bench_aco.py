"""radcc's code against the real ACO's on a corpus of SPIR-V: per-project geomean ratios.

    python bench/bench_aco.py CORPUS [--wave 32 --wave 64] [--every K] [--jobs N]
                              [--timeout S] [--json OUT.json] [--worst N] [--time]
                              [--repeat N] [--compiled] [--debug validateir,validatera]

CORPUS is a directory of SPIR-V modules (``.spv``, searched recursively); each of its
subdirectories holding modules is a *project* (``/work/rw``: ``ggml``, ``ncnn``), or
CORPUS itself is one when its modules sit at the top. Every module's compute entry
points are compiled for gfx1100 (``--mcpu``) in each wave size by

- ACO: Mesa's RADV on its null device (`radcc.oracle.radv.compile_many`, one child
  process per project and wave size; a driver crash fails only its shader), with the
  modules' default specialization constants;
- radcc: `radcc.driver.compile.compile_spirv` in forked workers
  (`radcc.driver.corpus.run_jobs`: ``--jobs`` at once, a shader killed with its worker
  after ``--timeout``).

``--time`` also compares compile CPU time, measured the same way on both sides: each
compiler warm in one process, the shaders compiled one after another (the issue's
measure: radcc's warm in-process `compile_spirv` against ACO's pipeline creation in a warm
process). ACO's pipelines are created once more without capture flags in RADV's child
process; radcc compiles every shader it compiled in its worker once more in this process,
in order, after a warm-up compile (``--repeat N``: each side creates or compiles each
shader N times and keeps the least CPU time). The workers' own CPU times are printed too (and kept
in the JSON rows as ``worker_cpu_s``): a forked worker pays for copy-on-write page faults
on the parent's heap that a warm process does not (a fork per shader, as `run_jobs` did
before session 20: ~25-45 ms per small shader under Firecracker, ~40% of its compile),
a cost ACO's side does not have.

Per project and wave size it prints, over the shaders both compile, the geometric mean
of the radcc/ACO ratios (`radcc.driver.compare.Metrics`, counted the same way for
both): instructions from the disassembly without radcc's ``s_delay_alu`` (ACO of Mesa
22.3 emits none), code bytes likewise, VGPRs and SGPRs as 1 + the highest one the code
names; then the shaders that spill (radcc's ``spilled_sgprs``/``spilled_vgprs`` beside
RADV's "Spilled SGPRs"/"Spilled VGPRs"), those that spill where ACO does not, and the
compile failures of each compiler. ``--every K`` takes every K-th module of each
project (a quicker sample); ``--worst N`` lists the N largest instruction ratios.
radcc runs from this checkout, compiled modules included when built here
(`tools/build_compiled.py`; the first line says how many load compiled); ``--compiled``
refuses to run unless all of `radcc.compiled.MODULES` do. ``--debug`` gives radcc the
pass manager's debug options (``RADCC_DEBUG``'s syntax, `radcc.passes.options`):
``validateir,validatera`` makes the same run the corpus's coverage check with validation
(a validation failure is that shader's radcc failure, its message in the JSON rows).

The ABIs differ (RADV: descriptor sets and ``buffer_*``; radcc: AMDHSA kernarg
addresses and ``global_*``): a few instructions and SGPRs per buffer are ABI, not code
quality. A measurement for engineers, never a test expectation.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from radcc.driver.compare import aco_metrics, radcc_metrics, radv_family  # noqa: E402
from radcc.driver.corpus import CorpusOptions, Job, find_jobs, run_jobs  # noqa: E402
from radcc.driver.report import StatsRow  # noqa: E402
from radcc.passes.options import DebugOptions  # noqa: E402

# the figures compared, as (label, key of a side's figures)
METRICS = (("instr", "instructions"), ("bytes", "code_size"), ("VGPRs", "vgprs"),
           ("SGPRs", "sgprs"))


@dataclass
class Figures:
    """One compiler's comparable figures for one shader (or its error)."""

    instructions: int = 0
    code_size: int = 0
    vgprs: int = 0
    sgprs: int = 0
    spilled_sgprs: int = 0
    spilled_vgprs: int = 0
    error: str = ""
    cpu_s: float | None = None  # compile CPU seconds, warm in-process (--time)
    worker_cpu_s: float | None = None  # radcc: CPU seconds in its forked worker (--time)


class Refused(Exception):
    """radcc refused the shader (a user-facing compile error)."""


# radcc's debug options (--debug), set in the parent before its workers fork
DEBUG = DebugOptions()


def _radcc_one(job: Job, wave: int | None) -> StatsRow:
    """Compile one job with radcc (in a corpus worker): its `Figures` as a StatsRow."""
    from radcc.driver.compile import compile_spirv

    spirv = Path(job.file).read_bytes()
    try:
        t0 = time.process_time()
        res = compile_spirv(spirv, mcpu=job.mcpu, wave_size=wave, entry=job.entry,
                            debug_options=DEBUG)
        cpu_s = time.process_time() - t0
    except Exception as e:
        if type(e).__name__ in ("CompileError", "SpirvError", "IselError", "SpillError",
                                "RegisterAllocationError", "LoweringError", "EmitError",
                                "ABIError", "ValidationError", "CodeObjectError"):
            raise Refused(f"{type(e).__name__}: {e}") from None
        raise
    m = radcc_metrics(res.asm, res.stats)
    cfg = res.program.config if res.program is not None else None
    fig = Figures(m.instructions, m.code_size, m.vgprs, m.sgprs,
                  cfg.spilled_sgprs if cfg else 0, cfg.spilled_vgprs if cfg else 0)
    stats = {k: v for k, v in asdict(fig).items() if isinstance(v, int)}
    return StatsRow(job.file, job.entry or "main", job.stage, job.mcpu, res.wave_size, stats,
                    cpu_s * 1000)


def radcc_side(jobs: list[Job], wave: int, n_jobs: int, timeout: float
               ) -> dict[str, Figures]:
    opts = CorpusOptions("gfx1100", wave, n_jobs, timeout, _radcc_one, (Refused,), "radcc",
                         4096)
    if jobs:  # the workers fork from a warm process (imports, opcode tables, memos)
        try:
            _radcc_one(jobs[0], wave)
        except Exception:  # its own worker reports it
            pass
    out: dict[str, Figures] = {}
    for row in run_jobs(jobs, opts):
        key = f"{row['file']}:{row['entry']}"
        out[key] = (Figures(**row["stats"], worker_cpu_s=row["compile_ms"] / 1000)
                    if row["ok"] else Figures(error=row["error"]))
    return out


def time_in_process(jobs: list[Job], wave: int, rc: dict[str, Figures], repeat: int = 1
                    ) -> None:
    """Set `Figures.cpu_s` of each job radcc compiled (in its worker): the least CPU time
    of `repeat` more compiles in this (warm) process, one after another in order, as
    ACO's side is timed."""
    from radcc.driver.compile import compile_spirv

    for job in jobs:
        fig = rc.get(f"{job.file}:{job.entry or 'main'}")
        if fig is None or fig.error:
            continue
        spirv = Path(job.file).read_bytes()
        for _ in range(max(1, repeat)):
            t0 = time.process_time()
            compile_spirv(spirv, mcpu=job.mcpu, wave_size=wave, entry=job.entry,
                          debug_options=DEBUG)
            cpu = time.process_time() - t0
            fig.cpu_s = cpu if fig.cpu_s is None else min(fig.cpu_s, cpu)


def aco_side(jobs: list[Job], wave: int, family: str, timed: bool = False, repeat: int = 1
             ) -> dict[str, Figures]:
    from radcc.oracle import radv

    res = radv.compile_many([(Path(j.file).read_bytes(), None) for j in jobs],
                            wave_size=wave, family=family, time_pipelines=timed,
                            time_repeat=repeat)
    out: dict[str, Figures] = {}
    for j, r in zip(jobs, res, strict=True):
        key = f"{j.file}:{j.entry or 'main'}"
        if isinstance(r, radv.RadvError):
            out[key] = Figures(error=str(r).splitlines()[0][:200] if str(r) else "RADV failed")
            continue
        m = aco_metrics(r.asm, r.stats)
        out[key] = Figures(m.instructions, m.code_size, m.vgprs, m.sgprs,
                           int(r.stats.get("Spilled SGPRs", 0)),
                           int(r.stats.get("Spilled VGPRs", 0)),
                           cpu_s=r.pipeline_cpu_s)
    return out


def ratio(r: int, a: int) -> float:
    """radcc/ACO, each at least 1 (a lone s_endpgm against none stays finite)."""
    return max(r, 1) / max(a, 1)


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def time_summary(aco: dict[str, Figures], rc: dict[str, Figures], both: list[str]
                 ) -> dict[str, float] | None:
    """Compile CPU time radcc/ACO over `both` (when timed): per-shader geomean, median,
    geomeans by ACO's instruction count (< 100, 100-999, >= 1000), totals; and the
    geomean and total of radcc's forked workers' times (``worker_*``)."""
    timed = [k for k in both if rc[k].cpu_s and aco[k].cpu_s]
    if not timed:
        return None
    rs = {k: (rc[k].cpu_s or 0.0) / max(aco[k].cpu_s or 0.0, 1e-6) for k in timed}
    srt = sorted(rs.values())
    out = {"shaders": float(len(timed)), "geomean": geomean(list(rs.values())),
           "median": srt[len(srt) // 2],
           "radcc_total_s": sum(rc[k].cpu_s or 0.0 for k in timed),
           "aco_total_s": sum(aco[k].cpu_s or 0.0 for k in timed),
           "worker_geomean": geomean([(rc[k].worker_cpu_s or 0.0) / max(aco[k].cpu_s or 0.0,
                                                                        1e-6) for k in timed]),
           "worker_total_s": sum(rc[k].worker_cpu_s or 0.0 for k in timed)}
    for label, lo, hi in (("small", 0, 100), ("medium", 100, 1000), ("large", 1000, 1 << 30)):
        xs = [rs[k] for k in timed if lo <= aco[k].instructions < hi]
        out[f"geomean_{label}"] = geomean(xs)
        out[f"n_{label}"] = float(len(xs))
    return out


def projects(corpus: Path, every: int) -> dict[str, list[str]]:
    """project name -> its modules (every `every`-th, sorted)."""
    subs = sorted(d for d in corpus.iterdir() if d.is_dir() and any(d.rglob("*.spv")))
    groups = {d.name: sorted(str(f) for f in d.rglob("*.spv")) for d in subs}
    top = sorted(str(f) for f in corpus.glob("*.spv"))
    if top or not groups:
        groups[corpus.name] = top
    return {k: v[::every] for k, v in groups.items() if v}


def summarise(name: str, wave: int, aco: dict[str, Figures], rc: dict[str, Figures]
              ) -> dict[str, Any]:
    both = [k for k in aco if not aco[k].error and k in rc and not rc[k].error]
    gm = {label: geomean([ratio(getattr(rc[k], attr), getattr(aco[k], attr)) for k in both])
          for label, attr in METRICS}
    spills_r = [k for k in both if rc[k].spilled_sgprs or rc[k].spilled_vgprs]
    spills_a = [k for k in both if aco[k].spilled_sgprs or aco[k].spilled_vgprs]
    return {"project": name, "wave": wave, "shaders": len(aco), "both": len(both),
            "geomean": gm, "radcc_spills": len(spills_r), "aco_spills": len(spills_a),
            "spills_where_aco_none": sorted(set(spills_r) - set(spills_a)),
            "time": time_summary(aco, rc, both),
            "radcc_fails": sorted(k for k in rc if rc[k].error),
            "aco_fails": sorted(k for k in aco if aco[k].error),
            "rows": {k: {"aco": asdict(aco[k]), "radcc": asdict(rc[k])} for k in aco if k in rc}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--wave", type=int, choices=(32, 64), action="append",
                    help="wave size (default: both)")
    ap.add_argument("--mcpu", default="gfx1100")
    ap.add_argument("--every", type=int, default=1, metavar="K",
                    help="every K-th module of each project")
    ap.add_argument("--jobs", type=int, default=2, help="radcc workers at once")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per radcc compile")
    ap.add_argument("--json", type=Path, help="write the summaries and rows here")
    ap.add_argument("--time", action="store_true",
                    help="also compare compile CPU time, each compiler warm in one process "
                         "(radcc's compile_spirv once more in this process; ACO's pipeline "
                         "created once more without capture flags)")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="with --time: each compiler compiles each shader N times (in "
                         "turn, as the rest) and the least CPU time counts: this machine's "
                         "run-to-run spread is +-20%%")
    ap.add_argument("--worst", type=int, default=0, metavar="N",
                    help="list the N largest instruction ratios per project and wave")
    ap.add_argument("--compiled", action="store_true",
                    help="run radcc's compiled build (tools/build_compiled.py in this "
                         "checkout): refused unless every module of radcc.compiled.MODULES "
                         "loads compiled")
    ap.add_argument("--debug", metavar="FLAGS", default="",
                    help="radcc's debug options, as RADCC_DEBUG (validateir,validatera: "
                         "validate every shader's IR and register assignment)")
    a = ap.parse_args(argv)
    global DEBUG
    DEBUG = DebugOptions.parse(a.debug)
    if DEBUG.unknown:
        print(f"error: --debug: unknown option(s) {', '.join(DEBUG.unknown)}", file=sys.stderr)
        return 1
    if not a.corpus.is_dir():
        print(f"error: {a.corpus}: not a directory", file=sys.stderr)
        return 1
    from radcc.compiled import MODULES, compiled_modules
    n_compiled = len(compiled_modules())
    if a.compiled and n_compiled != len(MODULES):
        print(f"error: --compiled: {n_compiled} of {len(MODULES)} modules load compiled here "
              f"(python tools/build_compiled.py)", file=sys.stderr)
        return 1
    print(f"radcc from {ROOT}: {n_compiled} of {len(MODULES)} modules compiled", flush=True)
    waves = a.wave or [32, 64]
    family = radv_family(a.mcpu)
    summaries = []
    for name, files in projects(a.corpus, max(1, a.every)).items():
        for wave in waves:
            jobs = [j for j in find_jobs(files, a.mcpu, wave, lambda f: "compute")
                    if j.stage == "compute" and j.entry is not None]
            t0 = time.perf_counter()
            aco = aco_side(jobs, wave, family, a.time, a.repeat)
            t1 = time.perf_counter()
            rc = radcc_side(jobs, wave, a.jobs, a.timeout)
            if a.time:
                time_in_process(jobs, wave, rc, a.repeat)
            t2 = time.perf_counter()
            s = summarise(name, wave, aco, rc)
            summaries.append(s)
            g = s["geomean"]
            print(f"{name} wave{wave}: {s['both']}/{s['shaders']} compile with both "
                  f"(ACO {t1 - t0:.0f} s, radcc {t2 - t1:.0f} s); radcc/ACO geomean: "
                  + ", ".join(f"{label} {g[label]:.2f}" for label, _ in METRICS)
                  + f"; spilling: radcc {s['radcc_spills']}, ACO {s['aco_spills']}"
                  + f" ({len(s['spills_where_aco_none'])} where ACO does not)"
                  + f"; failures: radcc {len(s['radcc_fails'])}, ACO {len(s['aco_fails'])}",
                  flush=True)
            t = s["time"]
            if t:
                print(f"    compile CPU time radcc/ACO over {t['shaders']:.0f} shaders: "
                      f"geomean {t['geomean']:.1f}x, median {t['median']:.1f}x; by ACO's "
                      f"size: <100 instr {t['geomean_small']:.1f}x ({t['n_small']:.0f}), "
                      f"100-999 {t['geomean_medium']:.1f}x ({t['n_medium']:.0f}), >=1000 "
                      f"{t['geomean_large']:.1f}x ({t['n_large']:.0f}); totals "
                      f"{t['radcc_total_s']:.1f} s vs {t['aco_total_s']:.2f} s; in forked "
                      f"workers: geomean {t['worker_geomean']:.1f}x, total "
                      f"{t['worker_total_s']:.1f} s", flush=True)
            if a.worst:
                rows = s["rows"]
                ok = [k for k, r in rows.items() if not r["aco"]["error"]
                      and not r["radcc"]["error"]]
                ok.sort(key=lambda k: -ratio(rows[k]["radcc"]["instructions"],
                                             rows[k]["aco"]["instructions"]))
                for k in ok[:a.worst]:
                    r = rows[k]
                    print(f"    {Path(k.split(':')[0]).name}: instr {r['radcc']['instructions']}"
                          f" vs {r['aco']['instructions']}, VGPRs {r['radcc']['vgprs']} vs "
                          f"{r['aco']['vgprs']}")
    if a.json:
        a.json.write_text(json.dumps(summaries, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
