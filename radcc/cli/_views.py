"""The analysis-view options of `radcc compile` (`radcc.driver.views`):

- ``--livereg``: the assembly annotated with the live VGPRs/SGPRs of each instruction;
- ``--timeline``: the assembly annotated with the cycle model's issue cycles and stalls;
- ``--cfg FILE.dot``: the machine CFG in Graphviz (``-`` for standard output).

An annotated assembly view replaces the ``-S`` output (to ``-o`` or standard output);
without ``-S`` it goes to standard output and the code object is written as usual.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


class ViewError(Exception):
    """A view option's bad value (one line, without the ``radcc compile: error:``)."""


def add_view_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("analysis views")
    g.add_argument("--livereg", action="store_true",
                   help="annotate each assembly line with the VGPRs and SGPRs live during "
                        "it (the liveness behind PreVGPRs/PreSGPRs), the peak marked")
    g.add_argument("--timeline", action="store_true",
                   help="annotate each assembly line with its issue cycle, stalls and latency "
                        "from radcc's cycle model (blocks' cycles sum to the Latency statistic)")
    g.add_argument("--cfg", metavar="FILE.dot", default=None,
                   help="write the machine CFG as a Graphviz digraph (- for stdout; logical+"
                        "linear edges solid, linear-only dashed, logical-only dotted)")


def check_view_options(args: argparse.Namespace) -> None:
    """Refuse bad view option values before compiling."""
    if args.livereg and args.timeline:
        raise ViewError("--livereg and --timeline annotate the same lines: give one of them")
    cfg = args.cfg
    if cfg is not None and cfg != "-":
        if not cfg or cfg.endswith(os.sep) or os.path.isdir(cfg):
            raise ViewError(f"--cfg '{cfg}': expected a file name (FILE.dot)")
        parent = os.path.dirname(cfg) or "."
        if not os.path.isdir(parent):
            raise ViewError(f"--cfg '{cfg}': directory '{parent}' does not exist")


def wants_liveness(args: argparse.Namespace) -> bool:
    return bool(args.livereg)


def view_asm(args: argparse.Namespace, res: Any) -> str | None:
    """The annotated assembly the options ask for (None: none; radcc.driver.views is
    loaded only when one is asked for)."""
    if not (args.livereg or args.timeline):
        return None
    from radcc.driver import views

    return views.livereg_asm(res) if args.livereg else views.timeline_asm(res)


def write_cfg(args: argparse.Namespace, res: Any) -> None:
    if args.cfg is None:
        return
    from radcc.driver.views import cfg_dot

    text = cfg_dot(res)
    if args.cfg == "-":
        sys.stdout.write(text)
        return
    try:
        with open(args.cfg, "w") as f:
            f.write(text)
    except OSError as e:
        raise ViewError(f"--cfg: cannot write {args.cfg}: {e.strerror}") from None
