"""Time-boxed local fuzz campaign over radcc's readers (not collected by pytest).

    python tests/fuzz/campaign.py READER[,READER...]|all --seconds 60 --seed 1 [--save]
                                  [--mode fork|subprocess|inprocess] [--diff]

Prints every input that breaks the contract of `cli_harness.problem` (exit
status 2+, traceback, hang, status 1 without a diagnostic in the reader's
format); ``--save`` writes each finding to ``corpus/<reader>/`` so that
`test_fuzz_corpus.py` keeps it as a regression test.

``--mode`` (`cli_harness.MODES`) says how each input runs: ``inprocess`` (the
default, the fastest: ~10 ms of CPU per SPIR-V mutant), ``fork`` (a child of a fork
server per input: isolated, hard time limit; ~25 ms) or ``subprocess`` (the
reference, ``python -m radcc`` per input: ~1 s). ``--crosscheck N`` also runs every
Nth input in subprocess mode and counts any difference in status or stderr as a
finding (the modes must judge alike: a state leak between in-process runs would
show). A progress line every ``--progress`` inputs gives the count, rate and
findings so far.

``--checkpoint FILE`` keeps a long campaign across stops: the counts, the findings'
keys and the CPU time so far are written to FILE (JSON) with each progress line and
at the end; started again with the same FILE (and the same readers, seed and options,
which it records and checks), the campaign skips the inputs it has already run (the
draws are derandomized, so the same inputs are drawn again and dropped) and goes on.
A campaign restarted this way runs the code as it is then (fixes landed meanwhile).
``--shard I/K`` runs every Kth draw from the Ith, so that K processes (each with its
own checkpoint) share one campaign of ``--count`` draws.
``--oracle-spirv-val PATH``: the spirv-val that ``--diff`` asks (default: the one on
``PATH``); a newer SPIRV-Tools than Debian 12's also judges the cooperative-matrix seeds'
mutants, which the old one cannot (`fuzzlib.oracle_status` then has no verdict).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import re
import resource
import signal
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[2]))

from cli_harness import MODES, Outcome  # noqa: E402
from fuzzlib import CORPUS, READERS, mutants  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("readers")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--trace", action="store_true", help="show each finding's traceback")
    ap.add_argument("--diff", action="store_true",
                    help="asm-*/dis-*/obj-*: also a finding when radcc and llvm-mc-19 disagree "
                         "on accepting the input (spirv: spirv-val rejects what radcc compiles)")
    ap.add_argument("--hide-spirv-val", action="store_true",
                    help="radcc runs as if spirv-tools were not installed (its own checks "
                         "only); --diff still asks spirv-val")
    ap.add_argument("--count", type=int, default=10**9, help="stop after this many inputs")
    ap.add_argument("--max-findings", type=int, default=20)
    ap.add_argument("--mode", choices=MODES, default="inprocess",
                    help="how each input runs (cli_harness.MODES; subprocess: the reference)")
    ap.add_argument("--crosscheck", type=int, default=0, metavar="N",
                    help="also run every Nth input in subprocess mode; a different status "
                         "or stderr is a finding")
    ap.add_argument("--progress", type=int, default=1000, help="a status line every N inputs")
    ap.add_argument("--scratch", default="/dev/shm" if Path("/dev/shm").is_dir() else None,
                    help="where the inputs are written (default: a tmpfs, /dev/shm: on a disk "
                         "file system each rewrite of the input may wait for a flush)")
    ap.add_argument("--checkpoint", type=Path, default=None,
                    help="resume from / save to this JSON state file (module docstring)")
    ap.add_argument("--oracle-spirv-val", default=None, metavar="PATH",
                    help="the spirv-val --diff asks (default: spirv-val on PATH)")
    ap.add_argument("--shard", type=_shard, default=(0, 1), metavar="I/K",
                    help="run only draws I, I+K, I+2K, ... of the campaign's --count draws "
                         "(K processes with I = 0..K-1 run one campaign between them)")
    a = ap.parse_args()
    if a.oracle_spirv_val:
        import fuzzlib

        fuzzlib.ORACLE_SPIRV_VAL[0] = a.oracle_spirv_val
    if a.hide_spirv_val:
        from fuzzlib import hide_spirv_val

        hide_spirv_val()
    names = list(READERS) if a.readers == "all" else a.readers.split(",")
    if names[0].startswith("argv-"):
        return argv_campaign([n[5:] for n in names], a)
    budget = a.seconds / len(names)
    total = 0
    signal.signal(signal.SIGTERM, _stop)
    ck = Checkpoint.load(a)
    for name in names:
        r = READERS[name]
        rng = random.Random(f"{a.seed}:{name}")
        end = time.monotonic() + budget
        st = ck.readers.setdefault(name, ReaderState())
        if st.done:
            print(f"[{name}] done in the checkpoint: {st.n} inputs, {st.found} findings")
            total += st.found
            continue
        resumed = st.n
        stopped = False
        seen: set[str] = set(st.seen)
        start = time.monotonic()
        st.cpu_mark = _cpu()
        if resumed:
            print(f"[{name}] resuming after {resumed} inputs ({st.found} findings)", flush=True)
        with tempfile.TemporaryDirectory(dir=a.scratch) as d:
            try:
                draws = itertools.islice(mutants(r, rng, a.count), a.shard[0], None,
                                         a.shard[1])
                for _ in range(resumed):  # the inputs the checkpoint has run (same draws)
                    next(draws, None)
                for label, data in draws:
                    if time.monotonic() > end or st.found >= a.max_findings:
                        break
                    if st.n > resumed and st.n % a.progress == 0:  # st.n inputs run so far
                        rate = (st.n - resumed) / (time.monotonic() - start)
                        ck.save(st, seen)
                        print(f"[{name}] {st.n} inputs ({st.accepted} accepted), {rate:.1f}/s, "
                              f"{st.found} findings, {st.cpu:.0f} s CPU", flush=True)
                    st.n += 1
                    o = r.run(data, Path(d), mode=a.mode)
                    if _stop_requested:
                        raise KeyboardInterrupt
                    st.accepted += o.status == 0
                    p = r.problem(o)
                    if p is None and a.crosscheck and st.n % a.crosscheck == 0:
                        st.checked += 1
                        p = modes_differ(o, r.run(data, Path(d), mode="subprocess"))
                    if p is None and a.diff:
                        p = oracle_disagrees(name, data, Path(d), o)
                    if p is None:
                        continue
                    key = re.sub(r"\d+|0x[0-9a-f]+|'[^']*'|%\w+", "#", p)[:120]
                    if key in seen:
                        continue
                    seen.add(key)
                    st.found += 1
                    h = hashlib.sha1(data).hexdigest()[:12]
                    print(f"[{name}] {label} {h}: {p}", flush=True)
                    st.findings.append(f"#{st.n} {label} {h}: {p}")
                    if a.trace:
                        o = r.run(data, Path(d), trace=True, mode=a.mode)
                        print("\n".join(o.stderr.splitlines()[-8:]))
                    if a.save:
                        dst = CORPUS / name
                        dst.mkdir(exist_ok=True)
                        (dst / f"{h}{r.suffix}").write_bytes(data)
                else:
                    st.done = True  # every draw run
            except KeyboardInterrupt:  # ^C or SIGTERM: the input under way is not counted
                st.n, stopped = max(st.n - 1, 0), True
        ck.save(st, seen)
        rate = (st.n - resumed) / max(time.monotonic() - start, 1e-9)
        print(f"[{name}] {st.n} inputs ({st.accepted} accepted, {st.checked} cross-checked), "
              f"{rate:.1f}/s, {st.found} distinct findings, {st.cpu:.0f} s CPU"
              f"{' (stopped)' if stopped else ''}", flush=True)
        total += st.found
        if stopped:
            break
    return 1 if total else 0


def _shard(text: str) -> tuple[int, int]:
    i, _, k = text.partition("/")
    if not (i.isdigit() and k.isdigit() and int(i) < int(k)):
        raise argparse.ArgumentTypeError(f"{text!r} is not I/K with 0 <= I < K")
    return int(i), int(k)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (spirv-val, subprocesses)."""
    t = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        u = resource.getrusage(who)
        t += u.ru_utime + u.ru_stime
    return t


@dataclass
class ReaderState:
    """One reader's progress in a checkpointed campaign."""

    n: int = 0
    found: int = 0
    accepted: int = 0
    checked: int = 0
    cpu: float = 0.0
    done: bool = False
    seen: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    cpu_mark: float = 0.0  # _cpu() when `cpu` was last brought up to date (not saved)


@dataclass
class Checkpoint:
    """A campaign's state file (``--checkpoint``); without a path, nothing is written."""

    path: Path | None
    options: dict[str, object]
    readers: dict[str, ReaderState]

    @staticmethod
    def load(a: argparse.Namespace) -> Checkpoint:
        options = {"readers": a.readers, "seed": a.seed, "diff": a.diff,
                   "hide_spirv_val": a.hide_spirv_val, "count": a.count,
                   "crosscheck": a.crosscheck, "mode": a.mode, "shard": list(a.shard)}
        if a.checkpoint is None or not a.checkpoint.exists():
            return Checkpoint(a.checkpoint, options, {})
        raw = json.loads(a.checkpoint.read_text())
        if raw["options"] != options:
            sys.exit(f"{a.checkpoint}: a campaign with other options {raw['options']}")
        return Checkpoint(a.checkpoint, options,
                          {k: ReaderState(**v) for k, v in raw["readers"].items()})

    def save(self, st: ReaderState, seen: set[str]) -> None:
        """Bring `st`'s CPU time and findings' keys up to date and write the file."""
        now = _cpu()
        st.cpu += now - st.cpu_mark
        st.cpu_mark = now
        st.seen = sorted(seen)
        if self.path is None:
            return
        readers = {k: {f: v for f, v in asdict(st).items() if f != "cpu_mark"}
                   for k, st in self.readers.items()}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"options": self.options, "readers": readers}, indent=1))
        tmp.replace(self.path)


_stop_requested: list[bool] = []  # SIGTERM seen (radcc's CLI turns KeyboardInterrupt into 130)


def _stop(_sig: int, _frame: object) -> None:
    _stop_requested.append(True)
    raise KeyboardInterrupt


def modes_differ(o: Outcome, ref: Outcome) -> str | None:
    """Why `o` and the subprocess run `ref` of the same input differ (None: they agree)."""
    if (o.status, o.stderr, o.hung) == (ref.status, ref.stderr, ref.hung):
        return None
    return (f"modes differ: status {o.status} vs subprocess {ref.status}: "
            f"{o.stderr.strip()[-200:]!r} vs {ref.stderr.strip()[-200:]!r}")


def oracle_disagrees(name: str, data: bytes, d: Path, o: Outcome) -> str | None:
    """Does the independent tool accept what radcc rejects (`o`: radcc's outcome), or
    reject what it accepts? For SPIR-V only the second counts (a silent acceptance;
    radcc refuses valid modules that use what it does not support, by name), keyed by
    spirv-val's message; a module invalid only for rules radcc warns about (`fuzzlib.RELAXED`)
    is accepted with a warning naming each, and counts only without that warning
    (`fuzzlib.silent_acceptance`)."""
    from fuzzlib import oracle_status, silent_acceptance

    if name == "spirv":
        return silent_acceptance(data, d, o.stderr) if o.status == 0 else None
    theirs = oracle_status(name, data, d)
    if theirs is None or o.status == theirs:
        return None
    return f"radcc status {o.status}, oracle status {theirs}"


def argv_campaign(cmds: list[str], a: argparse.Namespace) -> int:
    """Random command lines (argvfuzz.random_argv), ``--count`` of them per command at most
    (the draws are derandomized: a seed and a count name a run); findings are printed as argv."""
    from argvfuzz import random_argv
    from cli_harness import problem, run_radcc

    found = 0
    for cmd in cmds:
        rng = random.Random(f"{a.seed}:argv:{cmd}")
        end = time.monotonic() + a.seconds / len(cmds)
        n = 0
        seen: set[str] = set()
        while time.monotonic() < end and n < a.count:  # --count: command lines per command
            with tempfile.TemporaryDirectory(dir=a.scratch) as d:
                argv = random_argv(cmd, rng, Path(d))
                n += 1
                p = problem(run_radcc(argv, timeout=60, mode=a.mode))
                if p is None:
                    continue
                key = re.sub(r"\d+|'[^']*'|/tmp/\S*", "#", p)[:90]
                if key in seen:
                    continue
                seen.add(key)
                found += 1
                print(f"[argv-{cmd}] {argv}: {p}")
                if a.trace:
                    o = run_radcc(argv, trace=True, mode=a.mode)
                    print("\n".join(o.stderr.splitlines()[-8:]))
        print(f"[argv-{cmd}] {n} command lines", flush=True)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
