"""In-process harness for fuzzing radcc's command line readers.

`run_radcc(argv, stdin=..., timeout=...)` calls `radcc.cli.main` exactly as the
``radcc`` command does (same dispatch, same internal-error safety net) with
stdin/stdout/stderr captured, `SystemExit` turned into its status and a wall
clock limit (SIGALRM) turned into a `Hang`. `check(outcome, kind)` states the
contract the brief and docs/architecture.md ("Errors never traceback") give
every reader:

- exit status 0 or 1 only (2 is radcc's "internal error", argparse's usage
  error, or anything else that escaped);
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
import signal
import sys
import traceback
from collections.abc import Iterator
from dataclasses import dataclass

from radcc import cli


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
              trace: bool = False) -> Outcome:
    """Run ``radcc ARGV`` in this process; never raises (except KeyboardInterrupt).

    `trace` lets an internal error escape the CLI's net, its traceback in `stderr`."""
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
        status, hung = 124, True
    except Exception as e:  # escaped the CLI's own net: report like a traceback would
        status = 3
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
    if o.status not in (0, 1):
        return f"exit status {o.status}: {o.stderr.strip()[-400:]}"
    if "Traceback" in o.stderr or "internal error" in o.stderr:
        return f"traceback/internal error: {o.stderr.strip()[-400:]}"
    if o.status == 1 and re.search(rb"strict mode: [1-9]\d* violation", o.stdout):
        return None  # `radcc run`: the kernel ran; its strict-mode reports are on stdout
    if o.status == 1:
        fmts = [FORMATS[kind]] + ([allow] if allow is not None else [])
        if not any(f.search(o.stderr) for f in fmts):
            return f"status 1 without a {kind} diagnostic: {o.stderr.strip()[-400:]!r}"
    elif must_fail:
        return "invalid input accepted (status 0)"
    return None
