#!/usr/bin/env python3
"""Throughput of radcc's assembler/disassembler next to llvm-mc-19.

  python bench/bench_mc.py [--tests DIR] [-n 100000] [--repeat 1] [--keep FILE]
                           [--distinct | --distinct-n N]

Builds one .s file of N representative GFX11 instructions and feeds the
*same* file to both sides:

* assemble: ``llvm-mc-19 -show-encoding`` vs radcc in-process
  (`radcc.isa.assembler.assemble` + listing text) and ``radcc mc
  -show-encoding`` as a process;
* disassemble: the bytes llvm-mc produced, one instruction per hex line,
  through ``llvm-mc-19 -disassemble -show-encoding`` vs radcc in-process
  (`disassemble`) and ``radcc mc -disassemble -show-encoding``.

Instruction pool: the instruction lines of LLVM's gfx11 MC tests in DIR
(default /tmp/llvm-mc-tests, see tools/fetch_llvm_mc_tests.md) if present,
else lines generated from radcc's opcode table. Lines are kept only if
llvm-mc-19 accepts them and radcc produces the same bytes, so both sides do
the same (successful) work; the pool is then repeated to N lines.
``--distinct`` takes each pool line once; ``--distinct-n N`` takes N
distinct lines, the pool's plus variants with other registers and
constants (cold input: radcc's statement memo never hits, and llvm-mc's
start-up is a small part of its time).
Process timings include start-up (llvm-mc ~10 ms, python ~0.2 s).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from radcc.oracle import llvm_mc  # noqa: E402
from radcc.target import get_target  # noqa: E402

TARGET = get_target("gfx1100")


def pool_from_tests(d: Path) -> list[str]:
    from radcc.isa.lexer import strip_comment

    lines: list[str] = []
    for p in sorted(d.glob("gfx11_asm_*.s")):
        for raw in p.read_text(errors="replace").splitlines():
            s = strip_comment(raw).strip()
            if not s or s.startswith((".", "#")) or s.split()[0].endswith(":"):
                continue
            if re.search(r"\bv\d+\.[lh]\b", s):
                continue  # true16 syntax, not plain gfx11
            lines.append(s)
    return lines


def pool_from_table() -> list[str]:
    """One line per table entry with plain operands (filtered by the oracle later)."""
    from radcc.isa.table import get_table

    rng = random.Random(1)
    out = []
    for e in get_table(TARGET.gfx_level).entries:
        ops = []
        for o in e.operands:
            n = o.dwords
            if o.kind == "vgpr":
                b = rng.randrange(0, 200)
                ops.append(f"v{b}" if n == 1 else f"v[{b}:{b + n - 1}]")
            elif o.kind in ("sgpr", "ssrc"):
                b = 2 * rng.randrange(0, 40)
                ops.append(f"s{b}" if n == 1 else f"s[{b}:{b + n - 1}]")
            elif o.kind in ("vsrc", "vcsrc"):
                b = rng.randrange(0, 200)
                ops.append(f"v{b}" if n == 1 else f"v[{b}:{b + n - 1}]")
            elif o.kind == "special":
                ops.append(o.fixed or "vcc_lo")
            else:
                ops.append("0")
        name = e.mnemonics[0] if e.mnemonics else e.name
        out.append(f"{name} {', '.join(ops)}".strip())
    return out


_VREG_RE = re.compile(r"\b([vs])(?:(\d+)\b|\[(\d+):(\d+)\])")
_HEX_RE = re.compile(r"\b0x([0-9a-fA-F]+)\b")


def variants(line: str, k: int) -> str:
    """Variant k of a line: VGPRs shifted by 7k (mod 256), SGPR tuples by 4k
    (keeping their alignment, mod 104), hex constants + k; the oracle drops
    the variants that are not valid instructions."""

    def reg(m: re.Match[str]) -> str:
        f = m.group(1)
        lo = int(m.group(2) or m.group(3))
        hi = int(m.group(2) or m.group(4))
        if f == "v":
            nlo = (lo + 7 * k) % 256
        else:
            if lo > 103:
                return m.group(0)
            nlo = (lo + 4 * k) % 104
        nhi = nlo + hi - lo
        if m.group(2) is not None:
            return f"{f}{nlo}"
        return f"{f}[{nlo}:{nhi}]"

    def hexc(m: re.Match[str]) -> str:
        v = int(m.group(1), 16)
        return f"0x{(v + k) & ((1 << (4 * len(m.group(1)))) - 1):x}" if v > 64 else m.group(0)

    return _HEX_RE.sub(hexc, _VREG_RE.sub(reg, line))


def distinct_pool(pool: list[str], n: int) -> list[str]:
    """At least `n` distinct lines (before filtering): the pool plus variants."""
    base = list(dict.fromkeys(pool))
    out = dict.fromkeys(base)
    k = 1
    # ask for ~30% more than n: some variants are invalid or collide
    while len(out) < n * 1.3 and k < 64:
        for line in base:
            out.setdefault(variants(line, k))
        k += 1
    return list(out)


def select(pool: list[str]) -> list[tuple[str, bytes]]:
    """Lines llvm-mc accepts and radcc encodes identically, with their bytes."""
    from radcc.isa.assembler import assemble

    uniq = list(dict.fromkeys(pool))
    ref = llvm_mc.encode(uniq)
    keep = []
    for line, r in zip(uniq, ref, strict=True):
        if r.data is None:
            continue
        try:
            res = assemble(line + "\n", TARGET)
        except Exception:
            continue
        if res.ok and res.text == r.data:
            keep.append((line, r.data))
    return keep


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run(cmd: list[str], path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with open(os.devnull, "w") as null:
        subprocess.run(cmd + [str(path)], check=True, stdout=null, env=env)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tests", type=Path, default=Path("/tmp/llvm-mc-tests"))
    ap.add_argument("-n", type=int, default=100_000, help="instructions in the input")
    ap.add_argument("--repeat", type=int, default=1, help="take the best of this many runs")
    ap.add_argument("--keep", type=Path, default=None, help="also write the .s input here")
    ap.add_argument("--distinct", action="store_true",
                    help="each distinct instruction once (no repetition: radcc's memo never hits)")
    ap.add_argument("--distinct-n", type=int, default=0, metavar="N",
                    help="N distinct instructions: the pool's lines plus variants of them "
                         "(registers and constants changed), each once")
    args = ap.parse_args(argv)
    llvm_mc.require()

    pool = pool_from_tests(args.tests) if args.tests.is_dir() else []
    source = f"LLVM MC tests in {args.tests}"
    if not pool:
        pool, source = pool_from_table(), "radcc's opcode table"
    if args.distinct_n:
        pool = distinct_pool(pool, args.distinct_n)
        source += " and variants"
    sel = select(pool)
    if not sel:
        print("no instruction both llvm-mc and radcc accept; nothing to measure", file=sys.stderr)
        return 1
    if args.distinct_n:
        sel = sel[: args.distinct_n]  # the pool's order: the lines, then their variants
        args.n = len(sel)
    elif args.distinct:
        args.n = len(sel)
    reps = -(-args.n // len(sel))
    lines = [line for line, _ in sel] * reps
    blobs = [b for _, b in sel] * reps
    lines, blobs = lines[: args.n], blobs[: args.n]
    n = len(lines)
    src = "\n".join(lines) + "\n"
    hexsrc = "\n".join(",".join(f"0x{x:02x}" for x in b) for b in blobs) + "\n"
    data = b"".join(blobs)
    print(f"input: {n} instructions ({len(sel)} distinct, from {source}; "
          f"{len(pool)} candidates), {len(data)} bytes")

    from radcc.isa import assembler as _asm
    from radcc.isa import disassembler as _dis
    from radcc.isa.assembler import assemble, format_listing_line
    from radcc.isa.disassembler import disassemble

    def radcc_asm() -> None:
        _asm.clear_memo()  # cold: select() above assembled every line once
        res = assemble(src, TARGET)
        assert res.ok
        for st in res.statements:
            format_listing_line(st.text, st.data, st.fixups)

    def radcc_dis() -> None:
        _dis.clear_memo()
        for _off, d in disassemble(data, TARGET):
            assert not d.text.startswith(".long")

    mc = llvm_mc.LLVM_MC
    radcc = [sys.executable, "-m", "radcc", "mc", "-mcpu=gfx1100"]
    with tempfile.TemporaryDirectory(prefix="radcc-bench-") as tmp:
        s_path, h_path = Path(tmp) / "in.s", Path(tmp) / "in.txt"
        s_path.write_text(src)
        h_path.write_text(hexsrc)
        if args.keep:
            args.keep.write_text(src)
        rows = [
            ("assemble", "llvm-mc-19 -show-encoding",
             lambda: run([mc, "-triple=amdgcn", "-mcpu=gfx1100", "-show-encoding"], s_path)),
            ("assemble", "radcc in-process", radcc_asm),
            ("assemble", "radcc mc -show-encoding", lambda: run(radcc + ["-show-encoding"], s_path)),
            ("disassemble", "llvm-mc-19 -disassemble",
             lambda: run([mc, "-triple=amdgcn", "-mcpu=gfx1100", "-disassemble",
                          "-show-encoding"], h_path)),
            ("disassemble", "radcc in-process", radcc_dis),
            ("disassemble", "radcc mc -disassemble",
             lambda: run(radcc + ["-disassemble", "-show-encoding"], h_path)),
        ]
        times = []
        for task, name, fn in rows:
            best = min(timed(fn) for _ in range(max(1, args.repeat)))
            times.append((task, name, best))
    print(f"{'task':12s} {'tool':28s} {'seconds':>8s} {'inst/s':>12s} {'vs llvm-mc':>11s}")
    base: dict[str, float] = {}
    for task, name, t in times:
        base.setdefault(task, t)
        ratio = base[task] / t
        print(f"{task:12s} {name:28s} {t:8.2f} {n / t:12,.0f} {ratio:10.3f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
