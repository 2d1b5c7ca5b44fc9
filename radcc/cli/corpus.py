"""`radcc corpus`: compile every shader of a corpus, one JSON line per shader.

    radcc corpus INPUT... -o OUT.jsonl [--jobs N] [--ray [ADDRESS]] [--compiler radcc|aco]
                 [--mcpu X] [--wave32|--wave64] [--timeout S] [--resume] [--shard K/N]

INPUTs are files and directories (searched recursively for ``.spv`` and the GLSL
extensions); every entry point of every SPIR-V module is compiled. Each row holds
``file``, ``entry``, ``stage``, ``compiler`` (``radcc``), ``mcpu``, ``wave_size``,
``ok``, ``error`` (one line, or null), ``compile_ms`` and ``stats`` (the fields of
``radcc compile --stats-file``, `radcc.driver.report`). ``--compiler aco`` gives the same
rows from Mesa's ACO through RADV's null device (``radcc compare``'s oracle), its
statistics under radcc's names, for ``radcc report`` between the two compilers. Shaders
compile in forked worker processes (`radcc.driver.corpus`): a crash, a hang
(``--timeout``) or an error is that shader's ``ok: false`` row, a fresh worker takes
over, and the run goes on. ``--ray [ADDRESS]`` runs the same work
as Ray tasks (batches of jobs, each batch in a forked worker of its own) on the
cluster at ADDRESS or on a local Ray (``pip install radcc[ray]``; radcc must be
installed on every node). ``--resume`` keeps OUT and compiles only
the shaders it does not hold; ``--shard K/N`` takes every N-th shader file from the K-th
(of the sorted list), so that a large corpus runs as N resumable pieces. A progress bar is shown on a terminal when ``tqdm`` is
installed (``pip install radcc[progress]``). Exit status: 0 when every shader compiled,
1 when one failed or on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from radcc.cli._shader import (
    SHADER_SUFFIXES,
    STAGES,
    ShaderParser,
    UserError,
    print_targets_if_asked,
    stage_of,
)
from radcc.target import DEFAULT_MCPU

CORPUS_SUFFIXES = tuple(s for s in SHADER_SUFFIXES if s != ".hlsl")


def corpus_parser() -> argparse.ArgumentParser:
    p = ShaderParser(prog="radcc corpus", description=__doc__,
                     usage="radcc corpus INPUT... -o OUT.jsonl [options]")
    p.add_argument("inputs", metavar="INPUT", nargs="+",
                   help="shader files and directories (recursively: "
                        f"{' '.join(CORPUS_SUFFIXES)})")
    p.add_argument("-o", dest="output", required=True, metavar="OUT.jsonl",
                   help="the JSON Lines file to write (with --resume: to append to)")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="processes compiling at once (default: the CPUs available)")
    p.add_argument("--mcpu", default=DEFAULT_MCPU,
                   help="the target GPU ('--mcpu=help' or 'radcc targets' lists them)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--wave32", action="store_true", help="compile for wave32")
    g.add_argument("--wave64", action="store_true", help="compile for wave64")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run as Ray tasks on the cluster at ADDRESS (ray.init(address=...)), "
                        "or on a local Ray without one (pip install radcc[ray])")
    p.add_argument("--compiler", choices=("radcc", "aco"), default="radcc",
                   help="radcc, or Mesa's ACO through RADV's null device (the RADV oracle, "
                        "RADV_FORCE_FAMILY from --mcpu), its statistics under radcc's names")
    p.add_argument("--timeout", type=float, default=120.0, metavar="S",
                   help="seconds a shader may take before its worker is killed")
    p.add_argument("--max-memory", type=_megabytes, default=4096, metavar="MB",
                   help="address space a worker may use (RLIMIT_AS) before its shader fails "
                        "with 'out of memory'")
    p.add_argument("--resume", action="store_true",
                   help="keep OUT's rows and compile only the shaders it does not hold")
    p.add_argument("--shard", type=_shard, default=None, metavar="K/N",
                   help="only shard K of N (0 <= K < N): the shader files at positions K, "
                        "K + N, K + 2N ... of the sorted list")
    return p


def _shard(text: str) -> tuple[int, int]:
    k, sep, n = text.partition("/")
    try:
        kk, nn = int(k), int(n)
    except ValueError:
        kk, nn = -1, 0
    if not sep or not 0 <= kk < nn:
        raise argparse.ArgumentTypeError(f"'{text}' is not a shard K/N with 0 <= K < N")
    return kk, nn


def _megabytes(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 64:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size in megabytes (64 or more)")
    return v


def compile_job(job: Any, wave: int | None) -> Any:
    """Compile one corpus job as `radcc compile` does: its `radcc.driver.report` row
    (`UserError` when the shader is refused). Runs in a worker process."""
    from radcc.cli import _shader
    from radcc.driver.report import stats_row

    spirv = _shader.read_shader(job.file, [], entry=job.entry)
    args = argparse.Namespace(shader=job.file, mcpu=job.mcpu, wave32=wave == 32,
                              wave64=wave == 64, entry=job.entry, spec=[], no_validate=False)
    t0 = time.perf_counter()
    res = _shader.compile_shader(args, spirv)
    ms = (time.perf_counter() - t0) * 1000
    return stats_row(job.file, res, mcpu=job.mcpu, stage=job.stage, compile_ms=ms)


def compile_job_aco(job: Any, wave: int | None) -> Any:
    """Compile one corpus job with ACO (RADV's null device, as `radcc compare`): a
    `radcc.driver.report.StatsRow` of ACO's statistics under radcc's names
    (`radcc.driver.compare.ACO_NAMES`). Runs in a worker process."""
    from radcc.cli import _shader
    from radcc.cli.compare import aco_compile
    from radcc.driver.compare import ACO_NAMES
    from radcc.driver.report import StatsRow

    spirv = _shader.read_shader(job.file, [], entry=job.entry)
    ws = wave if wave is not None else job.wave_size
    if ws is None:
        raise UserError(f"unknown GPU '{job.mcpu}'")
    try:
        from radcc.driver.compare import radv_family

        radv_family(job.mcpu)
    except ValueError as e:
        raise UserError(str(e)) from None
    t0 = time.perf_counter()
    aco = aco_compile(spirv, job.mcpu, ws, job.entry, [])
    ms = (time.perf_counter() - t0) * 1000
    by_aco = {a: r for r, a in ACO_NAMES.items()}
    stats = {by_aco[k]: int(v) for k, v in aco["stats"].items()
             if k in by_aco and isinstance(v, (int, float))}
    return StatsRow(job.file, job.entry or "main", job.stage, job.mcpu,
                    int(aco.get("wave_size", ws)), stats, round(ms, 3))


def _progress(total: int) -> Any:
    """A tqdm bar on a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="shader", file=sys.stderr)


def main(argv: list[str]) -> int:
    from radcc.driver.corpus import (
        CorpusError,
        CorpusOptions,
        cpu_count,
        find_jobs,
        find_shaders,
        read_done,
        run_jobs,
        run_jobs_ray,
    )

    try:
        args = corpus_parser().parse_args(argv)
        if print_targets_if_asked(args.mcpu):
            return 0
        if args.jobs is not None and args.jobs < 1:
            raise UserError("--jobs must be at least 1")
        if args.timeout <= 0:
            raise UserError("--timeout must be positive")
        wave = 64 if args.wave64 else 32 if args.wave32 else None
        files = find_shaders(args.inputs, CORPUS_SUFFIXES)
        if args.shard is not None:
            files = files[args.shard[0]::args.shard[1]]
        jobs = find_jobs(files, args.mcpu, wave, lambda f: STAGES[stage_of(f, None)])
        if args.ray is not None:
            try:
                import ray  # noqa: F401
            except ImportError:
                raise UserError("--ray needs Ray: pip install radcc[ray] (or pip install "
                                "ray)") from None
        done = read_done(args.output, args.compiler) if args.resume else set()
        out = open(args.output, "a" if args.resume else "w")  # noqa: SIM115
    except (UserError, CorpusError) as e:
        msg = str(e)
        print(msg if ": error" in msg else f"radcc corpus: error: {msg}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"radcc corpus: error: cannot write {args.output}: {e.strerror}",
              file=sys.stderr)
        return 1
    todo = [j for j in jobs if j.key() not in done]
    aco = args.compiler == "aco"
    opts = CorpusOptions(args.mcpu, wave, args.jobs or cpu_count(), args.timeout,
                         compile_job_aco if aco else compile_job, (UserError,), args.compiler,
                         args.max_memory)
    bar = _progress(len(todo))
    failed = n = 0
    t0 = time.monotonic()
    with out:
        rows = run_jobs(todo, opts) if args.ray is None else \
            run_jobs_ray(todo, opts, args.ray or None)
        try:
            for row in rows:
                out.write(json.dumps(row) + "\n")
                out.flush()
                n += 1
                if not row["ok"]:
                    failed += 1
                    if bar is None:
                        print(f"{row['file']}:{row['entry']}: {row['error']}", file=sys.stderr)
                if bar is not None:
                    bar.set_postfix(failed=failed, refresh=False)
                    bar.update(1)
        except CorpusError as e:
            print(f"radcc corpus: error: {e}", file=sys.stderr)
            return 1
    if bar is not None:
        bar.close()
    secs = time.monotonic() - t0
    print(f"radcc corpus: {n} compiled ({failed} failed), {len(jobs) - len(todo)} kept from "
          f"{args.output}, {secs:.1f} s", file=sys.stderr)
    return 1 if failed or any_failed_kept(args.output, args.resume) else 0


def any_failed_kept(path: str, resume: bool) -> bool:
    """With --resume: does OUT hold a failed row (the exit status covers the whole OUT)?"""
    if not resume:
        return False
    with open(path) as f:
        return any(not json.loads(ln)["ok"] for ln in f if ln.strip())
