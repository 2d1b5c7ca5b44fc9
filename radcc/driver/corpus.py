"""Compile a corpus of shaders, one JSON line per shader (``radcc corpus``).

    jobs = find_jobs(find_shaders(["shaders/"], (".spv", ".comp")), mcpu, None, stage_of)
    opts = CorpusOptions(mcpu, None, jobs=2, timeout=60.0, compile_one=compile_job,
                         user_errors=(UserError,), compiler="radcc")
    for row in run_jobs(jobs, opts):           # or run_jobs_ray(jobs, opts, address)
        out.write(json.dumps(row) + "\\n")

The caller (`radcc.cli.corpus`) gives the function that compiles one job in a worker
(`CorpusOptions.compile_one`: SPIR-V or GLSL to a `radcc.driver.report.StatsRow`).
Guarantees: every entry point of every SPIR-V module, and every GLSL file (entry
``main``), found under the inputs (directories recursively, by extension) is one job;
jobs run in forked worker processes (``jobs`` at once), each worker compiling jobs one
after another, so a crash, an exception, a memory blow-up or a hang (killed after the
timeout) becomes that shader's row with ``ok: false`` and a one-line ``error``, and the
other jobs go on: a worker that crashed, ran out of memory or was killed is replaced by
a fresh fork for the next job. Workers are kept rather than forked per job because a
fresh fork pays copy-on-write faults on the parent's heap for every page a compile
touches (about 2,600 pages, 25-45 ms, per small ncnn shader on a Firecracker VM: ~40%
of its compile; bench/README.md); a compile leaves no state that changes the next one's
output (`tests/test_corpus.py` compares a worker's rows with fresh processes'). A compiled shader's row is
`radcc.driver.report.row_dict` of `radcc.driver.report.stats_row` (the fields of
``radcc compile --stats-file``) plus ``compiler``, ``ok`` and ``error``.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# SPIR-V execution models -> the stage names of `radcc.cli._shader.STAGES`
_STAGE_OF_MODEL = {"GLCompute": "compute", "Kernel": "compute", "Vertex": "vertex",
                   "Fragment": "fragment", "Geometry": "geometry",
                   "TessellationControl": "tessellation control",
                   "TessellationEvaluation": "tessellation evaluation", "MeshEXT": "mesh",
                   "MeshNV": "mesh", "TaskEXT": "task", "TaskNV": "task"}
ROW_KEYS = ("file", "entry", "stage", "compiler", "mcpu", "wave_size", "ok", "error",
            "compile_ms", "stats")
MAX_ERROR = 400  # characters of an error row's message


class CorpusError(Exception):
    """A user error of the whole run (e.g. a corrupt OUT with --resume)."""


@dataclass(frozen=True)
class Job:
    file: str
    entry: str | None  # None: the module's entry points could not be listed
    stage: str
    mcpu: str
    wave_size: int | None  # None: the chip's default could not be known

    def key(self) -> tuple[str, str, str, int | None]:
        return (self.file, self.entry or "", self.mcpu, self.wave_size)


@dataclass(frozen=True)
class CorpusOptions:
    mcpu: str
    wave: int | None  # --wave32/--wave64 (None: the chip's default)
    jobs: int
    timeout: float  # seconds per shader
    compile_one: Callable[[Job, int | None], Any]  # -> StatsRow (run in the worker)
    user_errors: tuple[type[Exception], ...]  # what compile_one raises for a refused shader
    compiler: str  # the rows' ``compiler``: radcc or aco
    max_memory_mb: int | None = None  # each worker's address-space limit (RLIMIT_AS)


def one_line(msg: str) -> str:
    """The line of `msg` that says what went wrong (its first with ``error``, else its
    first), at most `MAX_ERROR` characters."""
    lines = [ln.strip() for ln in msg.splitlines() if ln.strip()] or ["(no message)"]
    line = next((ln for ln in lines if "error" in ln.lower()), lines[0])
    return line if len(line) <= MAX_ERROR else line[:MAX_ERROR - 3] + "..."


def find_shaders(inputs: Iterable[str], suffixes: tuple[str, ...]) -> list[str]:
    """The files of `inputs`: a file as given, a directory's files with one of
    `suffixes`, recursively, sorted. A missing input raises `CorpusError`."""
    out: list[str] = []
    for inp in inputs:
        p = Path(inp)
        if p.is_dir():
            out.extend(sorted(str(f) for f in p.rglob("*")
                              if f.is_file() and f.suffix in suffixes))
        elif p.exists():
            out.append(inp)
        else:
            raise CorpusError(f"{inp}: no such file or directory")
    return list(dict.fromkeys(out))


def default_wave(mcpu: str, wave: int | None) -> int | None:
    """The wave size radcc compiles `mcpu`'s compute shaders for (None: unknown chip)."""
    if wave is not None:
        return wave
    from radcc.target import get_target

    try:
        return get_target(mcpu).compute_wave_size
    except ValueError:
        return None


def find_jobs(files: Iterable[str], mcpu: str, wave: int | None,
              stage_of: Callable[[str], str]) -> list[Job]:
    """A job per entry point of each ``.spv`` file (one job with entry None when the
    module cannot be read: its worker reports why), a job per other file (entry
    ``main``, stage `stage_of(file)`)."""
    from radcc.frontend.spirv import SpirvError
    from radcc.frontend.spirv.reader import read_spirv

    ws = default_wave(mcpu, wave)
    jobs: list[Job] = []
    for f in files:
        if Path(f).suffix != ".spv":
            jobs.append(Job(f, "main", stage_of(f), mcpu, ws))
            continue
        try:
            eps = read_spirv(Path(f).read_bytes()).entry_points
        except (OSError, SpirvError, ValueError):
            eps = []
        if not eps:
            jobs.append(Job(f, None, "compute", mcpu, ws))
        for ep in eps:
            jobs.append(Job(f, ep.name, _STAGE_OF_MODEL.get(ep.execution_model,
                                                            ep.execution_model), mcpu, ws))
    return jobs


def error_row(job: Job, error: str, compiler: str = "radcc") -> dict[str, Any]:
    return {"file": job.file, "entry": job.entry or "", "stage": job.stage,
            "compiler": compiler, "mcpu": job.mcpu, "wave_size": job.wave_size, "ok": False,
            "error": one_line(error), "compile_ms": None, "stats": {}}


def ok_row(row: Any, compiler: str = "radcc") -> dict[str, Any]:
    """A compiled shader's corpus row from its `radcc.driver.report.StatsRow`."""
    from radcc.driver.report import row_dict

    d = row_dict(row)
    return {k: ({"compiler": compiler, "ok": True, "error": None} | d)[k] for k in ROW_KEYS}


def read_rows(path: str) -> list[dict[str, Any]]:
    """The rows of a ``radcc corpus`` output; a line that is no corpus row raises
    `CorpusError` located at it (FileNotFoundError when there is no such file)."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as e:
        raise CorpusError(f"{path}: cannot read it: {e}") from None
    rows: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            raise CorpusError(f"{path}:{n}:{e.colno}: error: not JSON ({e.msg}); not a "
                              "'radcc corpus' output") from None
        if not isinstance(d, dict) or any(k not in d for k in ROW_KEYS) or \
                not isinstance(d["stats"], dict):
            raise CorpusError(f"{path}:{n}:1: error: not a 'radcc corpus' row (expected the "
                              f"fields {', '.join(ROW_KEYS)})")
        rows.append(d)
    return rows


def read_done(path: str, compiler: str = "radcc") -> set[tuple[str, str, str, int | None]]:
    """The (file, entry, mcpu, wave_size) of the rows OUT holds (--resume; a missing OUT
    holds nothing); rows of another compiler are refused."""
    try:
        rows = read_rows(path)
    except FileNotFoundError:
        return set()
    other = next((r["compiler"] for r in rows if r["compiler"] != compiler), None)
    if other is not None:
        raise CorpusError(f"{path}: holds rows of compiler '{other}', not '{compiler}': "
                          "write this run to another file")
    return {(d["file"], d["entry"], d["mcpu"], d["wave_size"]) for d in rows}


def _compile_row(job: Job, opts: CorpusOptions) -> tuple[dict[str, Any], bool]:
    """`job`'s row, and whether the worker may go on (not after running out of memory)."""
    c = opts.compiler
    try:
        return ok_row(opts.compile_one(job, opts.wave), c), True
    except opts.user_errors as e:
        return error_row(job, str(e), c), True
    except MemoryError:
        return error_row(job, "out of memory" if opts.max_memory_mb is None else
                         f"out of memory (--max-memory {opts.max_memory_mb} MB)", c), False
    except Exception as e:  # an internal error of radcc: this shader's row
        return error_row(job, f"internal error: {type(e).__name__}: {e}", c), True


def _serve(opts: CorpusOptions, conn: Any) -> None:
    """A worker: compile the jobs `conn` sends, one after another, sending each row back,
    until it sends None (or a compile ran out of memory). It leads its own process
    group, so that a timeout also ends the processes it started (ACO's)."""
    os.setpgid(0, 0)
    if opts.max_memory_mb is not None:  # a blow-up fails this shader, not the machine
        import resource

        limit = opts.max_memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while (job := conn.recv()) is not None:
        row, go_on = _compile_row(job, opts)
        conn.send((row, go_on))
        if not go_on:
            break
    conn.close()


@dataclass
class _Worker:
    """A worker process of `run_jobs`, its end of the pipe, and the job it is compiling
    (None when idle) with that job's deadline."""

    proc: Any
    conn: Any
    job: Job | None = None
    deadline: float = 0.0


def run_jobs(jobs: list[Job], opts: CorpusOptions) -> Iterator[dict[str, Any]]:
    """The rows of `jobs`, as they finish, compiled by at most `opts.jobs` forked workers
    (each job killed, with its worker, after `opts.timeout` seconds)."""
    ctx = multiprocessing.get_context("fork")
    import radcc.driver.compile  # noqa: F401  (loaded once, before the forks)

    pending = list(reversed(jobs))
    idle: list[_Worker] = []
    busy: dict[Any, _Worker] = {}  # conn -> its worker, compiling a job
    try:
        while pending or busy:
            while pending and len(busy) < max(1, opts.jobs):
                if idle:
                    w = idle.pop()
                else:
                    conn, theirs = ctx.Pipe()
                    proc = ctx.Process(target=_serve, args=(opts, theirs), daemon=True)
                    proc.start()
                    theirs.close()
                    w = _Worker(proc, conn)
                job = pending.pop()
                try:
                    w.conn.send(job)
                except (BrokenPipeError, OSError):  # it died while idle: a fresh one
                    _kill(w.proc)
                    pending.append(job)
                    continue
                w.job, w.deadline = job, time.monotonic() + opts.timeout
                busy[w.conn] = w
            wait = max(0.0, min(w.deadline for w in busy.values()) - time.monotonic())
            for conn in multiprocessing.connection.wait(list(busy), timeout=wait):
                w = busy.pop(conn)  # type: ignore[call-overload]
                assert w.job is not None
                try:
                    row, go_on = conn.recv()
                except (EOFError, OSError):
                    w.proc.join()
                    row, go_on = error_row(w.job, "the worker crashed (exit status "
                                           f"{w.proc.exitcode})", opts.compiler), False
                if go_on:
                    w.job = None
                    idle.append(w)
                else:  # it has ended (crashed, or stopped after a MemoryError)
                    w.proc.join()
                    conn.close()
                yield row
            now = time.monotonic()
            for conn, w in list(busy.items()):
                if now >= w.deadline:
                    assert w.job is not None
                    _kill(w.proc)
                    conn.close()
                    del busy[conn]
                    yield error_row(w.job, f"timed out after {opts.timeout:g} s",
                                    opts.compiler)
    finally:
        for w in idle:
            try:
                w.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
            w.conn.close()
        for w in idle:
            w.proc.join(timeout=5)
            if w.proc.is_alive():
                _kill(w.proc)
        for w in busy.values():
            _kill(w.proc)
            w.conn.close()


def _kill(proc: Any) -> None:
    """End a worker and its process group (the group is its own once it has started)."""
    try:
        if os.getpgid(proc.pid) == proc.pid:
            os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.kill()
    proc.join()


def cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


def _run_batch(jobs: list[Job], opts: CorpusOptions) -> list[dict[str, Any]]:
    """A Ray task's work: `jobs` one after the other in a forked worker as `run_jobs`
    runs them (the same rows, the same confinement)."""
    from dataclasses import replace

    return list(run_jobs(jobs, replace(opts, jobs=1)))


def run_jobs_ray(jobs: list[Job], opts: CorpusOptions,
                 address: str | None) -> Iterator[dict[str, Any]]:
    """The rows of `jobs` as Ray tasks on the cluster at `address` (None: a local Ray),
    in batches (about four per CPU of the cluster) so that task overhead stays small.
    radcc must be importable on the cluster's nodes. `CorpusError` when Ray is missing
    or cannot start."""
    try:
        import ray
    except ImportError:
        raise CorpusError("--ray needs Ray: pip install radcc[ray] (or pip install ray)") \
            from None
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, opts.jobs), include_dashboard=False,
                     log_to_driver=False)
    except Exception as e:
        raise CorpusError(f"--ray: cannot start or reach Ray: {one_line(str(e))}") from None
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, -(-len(jobs) // (4 * cpus)))
        batches = [jobs[i:i + size] for i in range(0, len(jobs), size)]
        task = ray.remote(num_cpus=1)(_run_batch)
        refs = {task.remote(b, opts): b for b in batches}
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1)
            batch = refs.pop(ready[0])
            try:
                rows = ray.get(ready[0])
            except Exception as e:  # the batch's Ray worker died: each shader says so
                msg = f"the Ray task failed: {type(e).__name__}"
                rows = [error_row(j, msg, opts.compiler) for j in batch]
            yield from rows
    finally:
        ray.shutdown()
