"""Statistics reports: one row per compiled shader, as JSON Lines or CSV.

    row = stats_row(file, res, mcpu=..., stage="compute", compile_ms=...)
    jsonl_line(row)            # {"file": ..., "entry": ..., "stats": {...}, ...}
    write_csv(rows, stream)    # a header, then a row per shader, statistics flattened

A row holds `file`, `entry` (the kernel's entry point), `stage`, `mcpu`, `wave_size`,
`stats` (every statistic by its ACO name, `radcc.passes.statistics`, the values
``radcc compile --stats`` prints) and `compile_ms` (radcc's own compile of the SPIR-V,
without glslangValidator). ``radcc compile --stats-file`` writes them; a corpus runner
builds the same rows here.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO

from radcc.driver.compile import CompileResult

FIELDS = ("file", "entry", "stage", "mcpu", "wave_size")  # before the statistics
REPORT_SUFFIXES = (".json", ".jsonl", ".csv")


@dataclass(frozen=True)
class StatsRow:
    file: str
    entry: str
    stage: str
    mcpu: str
    wave_size: int
    stats: dict[str, int]
    compile_ms: float


def stats_row(file: str, res: CompileResult, *, mcpu: str, stage: str = "compute",
              compile_ms: float | None = None) -> StatsRow:
    """The report row of one compiled shader (`compile_ms` default: the sum of the
    driver's stage timings)."""
    ms = sum(res.timings.values()) * 1000 if compile_ms is None else compile_ms
    return StatsRow(file, res.kernel_name, stage, mcpu, res.wave_size, dict(res.stats),
                    round(ms, 3))


def row_dict(row: StatsRow) -> dict[str, object]:
    return {"file": row.file, "entry": row.entry, "stage": row.stage, "mcpu": row.mcpu,
            "wave_size": row.wave_size, "stats": dict(row.stats),
            "compile_ms": row.compile_ms}


def jsonl_line(row: StatsRow) -> str:
    """One JSON Lines record (ends with a newline)."""
    return json.dumps(row_dict(row)) + "\n"


def csv_columns(rows: Iterable[StatsRow]) -> list[str]:
    """The CSV header: `FIELDS`, every statistic name (first-seen order), compile_ms."""
    names: dict[str, None] = {}
    for r in rows:
        names.update(dict.fromkeys(r.stats))
    return [*FIELDS, *names, "compile_ms"]


def write_csv(rows: list[StatsRow], out: IO[str]) -> None:
    """A header and a row per shader (a statistic a shader lacks: empty)."""
    cols = csv_columns(rows)
    w = csv.writer(out, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        d = {**{k: v for k, v in row_dict(r).items() if k != "stats"}, **r.stats}
        w.writerow(["" if d.get(c) is None else d[c] for c in cols])


def write_report(rows: list[StatsRow], out: IO[str], fmt: str) -> None:
    """`rows` as ``jsonl`` or ``csv`` (`fmt`)."""
    if fmt == "csv":
        write_csv(rows, out)
    else:
        out.writelines(jsonl_line(r) for r in rows)


def report_format(path: str) -> str:
    """``jsonl`` for a .json/.jsonl file name, ``csv`` for .csv (ValueError otherwise)."""
    low = path.lower()
    if low.endswith(".csv"):
        return "csv"
    if low.endswith((".json", ".jsonl")):
        return "jsonl"
    raise ValueError(f"expected a file name ending in {', '.join(REPORT_SUFFIXES)}")
