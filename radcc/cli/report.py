"""`radcc report`: compare two ``radcc corpus`` runs, as Mesa fossil-db's report.py.

    radcc report OLD.jsonl NEW.jsonl [--stat NAME ...] [--csv FILE] [--html FILE]

Per statistic, over the shaders both runs compiled (matched by file and entry): the
totals of OLD and NEW, the difference and its percentage, the shaders affected, helped
and hurt (lower is better, but for WavesPerSIMD), the geometric mean of the per-shader
ratios; then the shaders that compile in one run and fail in the other, and the most
changed shaders per statistic (`radcc.driver.corpus_report`). ``--csv`` writes the
per-shader differences; ``--html`` one self-contained page with the tables and, per
statistic, the distribution of the per-shader ratios and OLD against NEW per shader
(matplotlib, an optional dependency: ``pip install radcc[html]``). Exit status 0, or 1 on
bad input (a file that is no corpus output, no shader in common, an unknown statistic).
"""

from __future__ import annotations

import sys

from radcc.cli._help import HelpFormatter
from radcc.cli._shader import ShaderParser, UserError


def report_parser() -> ShaderParser:
    p = ShaderParser(prog="radcc report", description=__doc__, formatter_class=HelpFormatter)
    p.add_argument("old", metavar="OLD.jsonl", help="the earlier 'radcc corpus' output")
    p.add_argument("new", metavar="NEW.jsonl", help="the later 'radcc corpus' output")
    p.add_argument("--stat", action="append", default=None, metavar="NAME",
                   help="a statistic to compare (repeatable; default: all but Hash)")
    p.add_argument("--csv", metavar="FILE", default=None,
                   help="write the per-shader differences to FILE")
    p.add_argument("--html", metavar="FILE", default=None,
                   help="write one self-contained HTML page with the tables and plots "
                        "(needs matplotlib)")
    return p


def main(argv: list[str]) -> int:
    from radcc.driver.corpus import CorpusError, read_rows
    from radcc.driver.corpus_report import (
        MissingDependency,
        ReportError,
        compare_runs,
        format_report,
        html_report,
        write_diff_csv,
    )

    try:
        args = report_parser().parse_args(argv)
        runs = []
        for path in (args.old, args.new):
            try:
                runs.append(read_rows(path))
            except FileNotFoundError:
                raise UserError(f"cannot read {path}: no such file") from None
        cmp = compare_runs(runs[0], runs[1], args.stat)
        if args.csv is not None:
            try:
                with open(args.csv, "w", newline="") as f:
                    write_diff_csv(cmp, f)
            except OSError as e:
                raise UserError(f"cannot write {args.csv}: {e.strerror}") from None
        if args.html is not None:
            page = html_report(cmp, f"radcc report: {args.old} -> {args.new}")
            try:
                with open(args.html, "w") as f:
                    f.write(page)
            except OSError as e:
                raise UserError(f"cannot write {args.html}: {e.strerror}") from None
    except (UserError, CorpusError, ReportError, MissingDependency) as e:
        msg = str(e)
        print(msg if ": error" in msg else f"radcc report: error: {msg}", file=sys.stderr)
        return 1
    sys.stdout.write(format_report(cmp))
    return 0
