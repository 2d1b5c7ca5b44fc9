"""`radcc targets`: the chips radcc knows (`radcc.target.TARGETS`), their generation,
family, wave sizes and which of radcc's tools work for each (`radcc.target.SUPPORT`).
``--mcpu=help`` of the other subcommands prints the same table (`targets_table`)."""

from __future__ import annotations

import argparse
import sys

from radcc.cli._help import ArgError, ArgParser, HelpFormatter


def targets_table() -> str:
    """One line per chip: name, generation, family, wave sizes, and a column per tool."""
    from radcc.target import TARGETS, Tool

    head = ["chip", "generation", "family", "wave sizes", *(t.value for t in Tool)]
    rows = [head]
    for name, t in sorted(TARGETS.items(), key=lambda kv: (kv[1].gfx_level, kv[0])):
        waves = ", ".join(f"{w}{'*' if w == t.compute_wave_size else ''}" for w in t.wave_sizes)
        rows.append([name, t.gfx_level.name.replace("_", "."), t.family, waves,
                     *("yes" if t.supports(tool) else "-" for tool in Tool)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in rows]
    lines.append("(* the wave size radcc compile picks for a compute shader unless "
                 "--wave32/--wave64 say; compile: radcc compile and radcc run SHADER, run: "
                 "radcc run, llc: radcc llc, mc: radcc mc)")
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(prog="radcc targets", description=__doc__,
                                   formatter_class=HelpFormatter)


def main(argv: list[str]) -> int:
    p = build_parser()
    p.__class__ = ArgParser
    try:
        p.parse_args(argv)
    except ArgError as e:
        print(f"radcc targets: error: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(targets_table())
    return 0
