"""Harness for fuzzing radcc's command line readers.

`run_radcc(argv, stdin=..., timeout=..., mode=...)` runs ``radcc ARGV`` and returns its
exit status, stdout and stderr, in one of three modes (`MODES`):

- ``subprocess``: the reference, ``python -m radcc ARGV`` as a user runs it (a fresh
  interpreter per input: ~0.5-1 s of start-up and imports each);
- ``fork``: a fork server. radcc is imported once in this process; each input runs in a
  child made by ``os.fork()`` whose fds 0/1/2 are temporary files and whose
  ``sys.std*`` are fresh text streams on them (the encoding and error handlers a new
  interpreter would pick), which calls `radcc.cli.main` as ``python -m radcc`` does
  (``raise SystemExit(main())``: an uncaught exception prints its traceback and exits
  1) and leaves with ``os._exit``. The parent kills it (SIGKILL) at the time limit, so
  a hang in C code or a runaway allocation ends too, and no state of one input (caches,
  recursion limits, monkeypatches) reaches the next: each child starts from the same
  parent state, as each subprocess starts from the same files;
- ``inprocess``: `radcc.cli.main` called in this process with the ``sys.std*`` streams
  swapped and a SIGALRM time limit; the fastest, used by the derandomized CI runs; an
  exception that escapes the CLI's net is reported as a traceback line.

`test_fuzz_harness.py` checks that the three modes give the same status and stderr.
spirv-val hidden in this process (`fuzzlib.hide_spirv_val`) is hidden in every mode
(the subprocess gets the same patch before `radcc.cli.main`). `problem(outcome, kind)`
states the contract the brief and docs/architecture.md ("Errors never traceback") give
every reader, whatever the mode:

- exit status 0 or 1 only (2 is radcc's "internal error", argparse's usage
  error, or anything else that escaped); `radcc run` may also exit 3 (strict-mode
  violations, listed on stdout) and 4 (the kernel faulted or hit the instruction
  limit, a ``radcc run: error:`` line);
- no traceback and no "internal error" on stderr;
- status 1 comes with at least one diagnostic line in the reader's format:
  ``file:line:col: error:`` for text (IR, assembly), ``word N`` for SPIR-V,
  a ``radcc CMD: error:``/``FILE: error:`` line for binaries and arguments.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

import radcc
from radcc import cli
from radcc.frontend.spirv import spirv_val

Mode = Literal["inprocess", "fork", "subprocess"]
MODES: tuple[Mode, ...] = ("inprocess", "fork", "subprocess")
HANG_STATUS = 124  # the status a run stopped at its time limit reports (as timeout(1))


class Hang(BaseException):  # noqa: N818 - BaseException so radcc's `except Exception` cannot eat it
    """The command ran past its time limit."""


@dataclass
class Outcome:
    argv: list[str]
    status: int
    stdout: bytes
    stderr: str
    hung: bool = False


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def fire(_sig: int, _frm: object) -> None:
        raise Hang()

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_radcc(argv: list[str], stdin: bytes = b"", timeout: float = 30.0,
              trace: bool = False, mode: Mode = "inprocess") -> Outcome:
    """Run ``radcc ARGV`` in `mode` (module docstring); never raises (except
    KeyboardInterrupt).

    `trace` lets an internal error escape the CLI's net (``RADCC_TRACEBACK=1``), its
    traceback in `stderr`."""
    if mode == "fork":
        return _run_forked(list(argv), stdin, timeout, trace)
    if mode == "subprocess":
        return _run_subprocess(list(argv), stdin, timeout, trace)
    return _run_inprocess(list(argv), stdin, timeout, trace)


def _run_inprocess(argv: list[str], stdin: bytes, timeout: float, trace: bool) -> Outcome:
    out_b, err_s = io.BytesIO(), io.StringIO()
    in_w = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
    out_w = io.TextIOWrapper(out_b, encoding="utf-8", errors="surrogateescape",
                             write_through=True)
    saved = sys.stdin, sys.stdout, sys.stderr
    env = os.environ.pop("RADCC_TRACEBACK", None)
    if trace:
        os.environ["RADCC_TRACEBACK"] = "1"
    hung = False
    sys.stdin, sys.stdout, sys.stderr = in_w, out_w, err_s
    try:
        with _alarm(timeout):
            try:
                status = cli.main(list(argv))
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Hang:
        status, hung = HANG_STATUS, True
    except Exception as e:  # escaped the CLI's own net: report like a traceback would
        status = 70  # not one of radcc's statuses
        err_s.write(f"Traceback (escaped cli.main): {type(e).__name__}: {e}\n")
        if trace:
            err_s.write(traceback.format_exc())
    finally:
        with contextlib.suppress(Exception):
            out_w.flush()
        sys.stdin, sys.stdout, sys.stderr = saved
        os.environ.pop("RADCC_TRACEBACK", None)
        if env is not None:
            os.environ["RADCC_TRACEBACK"] = env
    return Outcome(list(argv), int(status), out_b.getvalue(), err_s.getvalue(), hung)


def _child_env(trace: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("RADCC_TRACEBACK", None)
    if trace:
        env["RADCC_TRACEBACK"] = "1"
    return env


def _decode(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


# What `python -m radcc` runs, with spirv-val hidden first when it is hidden here.
_HIDDEN_MAIN = ("import sys\n"
                "from radcc.frontend.spirv import spirv_val\n"
                "spirv_val.find_spirv_val = lambda: None\n"
                "from radcc.cli import main\n"
                "raise SystemExit(main())\n")


def _run_subprocess(argv: list[str], stdin: bytes, timeout: float, trace: bool) -> Outcome:
    """``python -m radcc ARGV`` (the radcc this process imported: its root first on
    PYTHONPATH)."""
    env = _child_env(trace)
    root = str(Path(radcc.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    if spirv_val.find_spirv_val() is None:
        cmd = [sys.executable, "-c", _HIDDEN_MAIN, *argv]
    else:
        cmd = [sys.executable, "-m", "radcc", *argv]
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:  # run() has killed the child
        return Outcome(argv, HANG_STATUS, e.stdout or b"", _decode(e.stderr or b""), True)
    return Outcome(argv, p.returncode, p.stdout, _decode(p.stderr), False)


def _std_stream(fd: int, like: IO[str] | None, mode: str, default_errors: str) -> IO[str]:
    enc = getattr(like, "encoding", None) or "utf-8"
    errors = getattr(like, "errors", None) or default_errors
    return open(fd, mode, buffering=1 if fd == 2 else -1, encoding=enc,  # noqa: SIM115
                errors=errors, closefd=False)


def _child(argv: list[str], trace: bool) -> int:
    """The forked child's ``python -m radcc ARGV``: its exit status."""
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    os.environ.clear()
    os.environ.update(_child_env(trace))
    sys.stdin = _std_stream(0, sys.__stdin__, "r", "strict")
    sys.stdout = _std_stream(1, sys.__stdout__, "w", "strict")
    sys.stderr = _std_stream(2, sys.__stderr__, "w", "backslashreplace")
    sys.argv = ["radcc", *argv]
    try:
        try:
            raise SystemExit(cli.main(list(argv)))
        except SystemExit as e:  # the interpreter's own handling of SystemExit
            code = e.code
            if code is None:
                status = 0
            elif isinstance(code, int):
                status = code
            else:
                print(code, file=sys.stderr)
                status = 1
    except BaseException:  # an uncaught exception: traceback, status 1
        traceback.print_exc()
        status = 1
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except Exception:  # as the interpreter at exit (e.g. a closed pipe): status 120
            status = 120
    return status & 0xFF


_preloaded = False


def preload() -> None:
    """Import every radcc module here, once, so that forked children do not each import
    what the CLI imports on demand (about a second per input); imports only, no state a
    run would leave."""
    global _preloaded
    if _preloaded:
        return
    import importlib
    import pkgutil

    for m in pkgutil.walk_packages(radcc.__path__, "radcc."):
        if not m.name.endswith("__main__"):
            importlib.import_module(m.name)
    _preloaded = True


def _run_forked(argv: list[str], stdin: bytes, timeout: float, trace: bool) -> Outcome:
    preload()
    files = [tempfile.TemporaryFile() for _ in range(3)]  # noqa: SIM115
    try:
        files[0].write(stdin)
        files[0].flush()
        files[0].seek(0)
        for f in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            with contextlib.suppress(Exception):
                f.flush()  # type: ignore[union-attr]
        pid = os.fork()
        if pid == 0:  # the child: never returns
            status = 1
            try:
                for fd, f in enumerate(files):
                    os.dup2(f.fileno(), fd)
                status = _child(argv, trace)
            except BaseException:  # the harness failed: a traceback, so a finding
                os.write(2, f"Traceback (fork harness): {traceback.format_exc()}".encode())
            finally:
                os._exit(status)
        status, hung = _wait(pid, timeout)
        out, err = files[1], files[2]
        out.seek(0)
        err.seek(0)
        return Outcome(argv, status, out.read(), _decode(err.read()), hung)
    finally:
        for f in files:
            f.close()


def _wait(pid: int, timeout: float) -> tuple[int, bool]:
    """The child's exit status (-N: killed by signal N, as subprocess reports it), or
    (HANG_STATUS, True) after killing it at the time limit."""
    if hasattr(os, "pidfd_open"):  # Linux 5.3+: wait on the process's fd
        fd = os.pidfd_open(pid)
        try:
            done = bool(select.select([fd], [], [], timeout)[0])
        finally:
            os.close(fd)
    else:  # elsewhere: poll
        end = time.monotonic() + timeout
        while not (done := _exited(pid)) and time.monotonic() < end:
            time.sleep(0.002)
    if not done:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    _, st = os.waitpid(pid, 0)
    return (os.waitstatus_to_exitcode(st), False) if done else (HANG_STATUS, True)


def _exited(pid: int) -> bool:
    """Has the child exited (without reaping it)?"""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


# Diagnostic formats, per reader kind.
TEXT_DIAG = re.compile(r"^\S.*?:\d+:\d+: error: \S", re.M)
SPIRV_DIAG = re.compile(r"word \d+: (error: )?\S", re.M)
# (glslangValidator's own "ERROR: " lines are passed through by `radcc compile`: documented)
PLAIN_DIAG = re.compile(r"^(radcc \w+: error: |\S.*?: error: |\S.*?:\d+:\d+: error: |ERROR: )\S",
                        re.M)

FORMATS = {"text": TEXT_DIAG, "spirv": SPIRV_DIAG, "plain": PLAIN_DIAG}


def problem(o: Outcome, kind: str = "plain", *, allow: re.Pattern[str] | None = None,
            must_fail: bool = False) -> str | None:
    """What is wrong with `o` (None if it keeps the contract).

    `kind` picks the diagnostic format a status-1 run must print (`FORMATS`);
    `allow` is an alternative format accepted too (e.g. a plain argument error
    in a text reader's run); `must_fail` says the input is known to be invalid.
    """
    if o.hung:
        return "hang (time limit)"
    run = bool(o.argv) and o.argv[0] == "run"
    if o.status not in ((0, 1, 3, 4) if run else (0, 1)):
        return f"exit status {o.status}: {o.stderr.strip()[-400:]}"
    if "Traceback" in o.stderr or "internal error" in o.stderr:
        return f"traceback/internal error: {o.stderr.strip()[-400:]}"
    if o.status == 3:
        if re.search(rb"strict mode: [1-9]\d* violation", o.stdout):
            return None  # `radcc run`: the kernel ran; its strict-mode reports are on stdout
        return f"status 3 without strict-mode violations: {o.stdout[-400:]!r}"
    if o.status == 4:
        if o.stderr.startswith("radcc run: error: "):
            return None  # the kernel faulted or hit the instruction limit
        return f"status 4 without a radcc run error: {o.stderr.strip()[-400:]!r}"
    if o.status == 1:
        fmts = [FORMATS[kind]] + ([allow] if allow is not None else [])
        if not any(f.search(o.stderr) for f in fmts):
            return f"status 1 without a {kind} diagnostic: {o.stderr.strip()[-400:]!r}"
    elif must_fail:
        return "invalid input accepted (status 0)"
    return None
