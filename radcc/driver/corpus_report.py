"""Compare two ``radcc corpus`` runs, as Mesa fossil-db's ``report.py`` does.

    cmp = compare_runs(old_rows, new_rows, stats=None)
    print(format_report(cmp))
    write_diff_csv(cmp, stream)

Shaders are matched by (file, entry). For each statistic, over the shaders that compiled
in both runs: the totals of OLD and NEW, their difference and its percentage, the shaders
affected (value changed), helped (better: lower, or higher for `HIGHER_IS_BETTER`) and
hurt, and the geometric mean of the per-shader ratios NEW/OLD (over the shaders where
both values are positive; 1.0 when there is none). Shaders that compiled in one run and
failed in the other are listed, and the most changed shaders per statistic. ``Hash`` is
an identity, not a measure: it is left out unless asked for.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any

HIGHER_IS_BETTER = frozenset({"WavesPerSIMD"})
NOT_MEASURES = frozenset({"Hash"})
TOP = 5  # most changed shaders shown per statistic

Key = tuple[str, str]  # (file, entry)


class ReportError(Exception):
    """The runs cannot be compared (no shader in common, an unknown statistic)."""


@dataclass(frozen=True)
class StatSummary:
    name: str
    old_total: int
    new_total: int
    affected: int
    helped: int
    hurt: int
    geomean: float

    @property
    def diff(self) -> int:
        return self.new_total - self.old_total

    @property
    def percent(self) -> float:
        """The difference as a percentage of OLD (0.0 when both are 0, inf when OLD is)."""
        if self.old_total == 0:
            return 0.0 if self.diff == 0 else math.inf
        return 100.0 * self.diff / self.old_total


@dataclass(frozen=True)
class ShaderDiff:
    key: Key
    stat: str
    old: int
    new: int

    @property
    def diff(self) -> int:
        return self.new - self.old

    @property
    def percent(self) -> float:
        if self.old == 0:
            return 0.0 if self.diff == 0 else math.inf
        return 100.0 * self.diff / self.old


@dataclass
class Comparison:
    old_count: int
    new_count: int
    common: list[Key]  # compiled in both, sorted
    stats: list[StatSummary]
    diffs: list[ShaderDiff]  # every (common shader, statistic), in `common` order
    fixed: list[Key] = field(default_factory=list)  # failed in OLD, compiled in NEW
    broken: list[tuple[Key, str]] = field(default_factory=list)  # (key, NEW's error)


def _index(rows: Iterable[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    return {(r["file"], r["entry"]): r for r in rows}  # a later row replaces an earlier


def compare_runs(old_rows: list[dict[str, Any]], new_rows: list[dict[str, Any]],
                 stats: list[str] | None = None) -> Comparison:
    """The comparison of two runs' rows (`radcc.driver.corpus.read_rows`); `stats`: the
    statistics to compare (default: every one of the common shaders but ``Hash``)."""
    old, new = _index(old_rows), _index(new_rows)
    both = sorted(old.keys() & new.keys())
    if not both:
        raise ReportError("the two runs have no shader in common (shaders are matched by "
                          "file and entry)")
    common = [k for k in both if old[k]["ok"] and new[k]["ok"]]
    fixed = [k for k in both if not old[k]["ok"] and new[k]["ok"]]
    broken = [(k, str(new[k]["error"])) for k in both if old[k]["ok"] and not new[k]["ok"]]
    known: dict[str, None] = {}
    for k in common:
        known.update(dict.fromkeys(n for n in old[k]["stats"] if n in new[k]["stats"]))
    if stats is None:
        names = [n for n in known if n not in NOT_MEASURES]
    else:
        unknown = [n for n in stats if n not in known]
        if unknown and common:
            raise ReportError(f"no statistic {', '.join(unknown)} in both runs (known: "
                              f"{', '.join(known)})")
        names = list(dict.fromkeys(stats))
    diffs = [ShaderDiff(k, n, int(old[k]["stats"][n]), int(new[k]["stats"][n]))
             for k in common for n in names
             if n in old[k]["stats"] and n in new[k]["stats"]]
    summaries = [_summary(n, [d for d in diffs if d.stat == n]) for n in names]
    return Comparison(len(old), len(new), common, summaries, diffs, fixed, broken)


def _summary(name: str, ds: list[ShaderDiff]) -> StatSummary:
    higher = name in HIGHER_IS_BETTER
    helped = sum(1 for d in ds if (d.diff > 0 if higher else d.diff < 0))
    hurt = sum(1 for d in ds if (d.diff < 0 if higher else d.diff > 0))
    logs = [math.log(d.new / d.old) for d in ds if d.old > 0 and d.new > 0]
    geo = math.exp(sum(logs) / len(logs)) if logs else 1.0
    return StatSummary(name, sum(d.old for d in ds), sum(d.new for d in ds),
                       sum(1 for d in ds if d.diff), helped, hurt, geo)


def _pct(p: float) -> str:
    return "inf" if math.isinf(p) else f"{p:+.2f}%"


def _shader(k: Key) -> str:
    return f"{k[0]}:{k[1]}"


def format_report(c: Comparison, top: int = TOP) -> str:
    """The text report: the totals table, the shaders fixed and broken, the most changed
    shaders per statistic."""
    out = [f"OLD: {c.old_count} shaders, NEW: {c.new_count}; compiled in both: "
           f"{len(c.common)}", ""]
    w = max([len("statistic"), *(len(s.name) for s in c.stats)])
    out.append(f"{'statistic':<{w}} {'OLD':>12} {'NEW':>12} {'diff':>10} {'%':>9} "
               f"{'affected':>8} {'helped':>6} {'hurt':>6} {'geomean':>8}")
    for s in c.stats:
        out.append(f"{s.name:<{w}} {s.old_total:>12} {s.new_total:>12} {s.diff:>+10} "
                   f"{_pct(s.percent):>9} {s.affected:>8} {s.helped:>6} {s.hurt:>6} "
                   f"{s.geomean:>8.4f}")
    out.append("")
    out.append(f"Failed in OLD, compiled in NEW: {len(c.fixed)}")
    out.extend(f"  {_shader(k)}" for k in c.fixed)
    out.append(f"Compiled in OLD, failed in NEW: {len(c.broken)}")
    out.extend(f"  {_shader(k)}: {e}" for k, e in c.broken)
    for s in c.stats:
        changed = [d for d in c.diffs if d.stat == s.name and d.diff]
        if not changed:
            continue
        changed.sort(key=lambda d: (-abs(d.percent), -abs(d.diff), d.key))
        out.append("")
        out.append(f"Most changed in {s.name}:")
        out.extend(f"  {d.old:>8} -> {d.new:<8} {_pct(d.percent):>9}  {_shader(d.key)}"
                   for d in changed[:top])
    return "\n".join(out) + "\n"


def write_diff_csv(c: Comparison, out: IO[str]) -> None:
    """The per-shader differences: file, entry, statistic, old, new, diff, percent (empty
    when OLD is 0 and NEW is not), one line per shader and statistic compared."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["file", "entry", "statistic", "old", "new", "diff", "percent"])
    for d in c.diffs:
        p = d.percent
        w.writerow([d.key[0], d.key[1], d.stat, d.old, d.new, d.diff,
                    "" if math.isinf(p) else f"{p:.4f}"])


class MissingDependency(Exception):
    """An optional library a feature needs is not installed (the message says how)."""


def _figure_png(fig: Any) -> str:
    import base64
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def html_report(c: Comparison, title: str = "radcc report") -> str:
    """One self-contained HTML page: the totals table, the fixed/broken shaders, the most
    changed shaders, and per statistic two plots drawn with matplotlib and embedded as PNG
    data: the distribution of the per-shader ratios NEW/OLD and OLD against NEW per
    shader. `MissingDependency` when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingDependency("--html needs matplotlib: pip install radcc[html] "
                                "(or pip install matplotlib)") from None
    from html import escape

    parts = [f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{escape(title)}"
             "</title><style>table{border-collapse:collapse}td,th{border:1px solid #999;"
             "padding:2px 6px;text-align:right}td.l,th.l{text-align:left}</style></head><body>",
             f"<h1>{escape(title)}</h1>",
             f"<p>OLD: {c.old_count} shaders, NEW: {c.new_count}; compiled in both: "
             f"{len(c.common)}</p>",
             "<h2>Totals</h2><table><tr><th class='l'>statistic</th><th>OLD</th><th>NEW</th>"
             "<th>diff</th><th>%</th><th>affected</th><th>helped</th><th>hurt</th>"
             "<th>geomean</th></tr>"]
    for s in c.stats:
        parts.append(f"<tr><td class='l'>{escape(s.name)}</td><td>{s.old_total}</td>"
                     f"<td>{s.new_total}</td><td>{s.diff:+}</td><td>{_pct(s.percent)}</td>"
                     f"<td>{s.affected}</td><td>{s.helped}</td><td>{s.hurt}</td>"
                     f"<td>{s.geomean:.4f}</td></tr>")
    parts.append("</table>")
    parts.append(f"<h2>Failed in OLD, compiled in NEW ({len(c.fixed)})</h2><ul>")
    parts.extend(f"<li>{escape(_shader(k))}</li>" for k in c.fixed)
    parts.append(f"</ul><h2>Compiled in OLD, failed in NEW ({len(c.broken)})</h2><ul>")
    parts.extend(f"<li>{escape(_shader(k))}: {escape(e)}</li>" for k, e in c.broken)
    parts.append("</ul>")
    for s in c.stats:
        ds = [d for d in c.diffs if d.stat == s.name]
        parts.append(f"<h2>{escape(s.name)}</h2>")
        changed = sorted((d for d in ds if d.diff),
                         key=lambda d: (-abs(d.percent), -abs(d.diff), d.key))[:TOP]
        if changed:
            parts.append("<table><tr><th>OLD</th><th>NEW</th><th>%</th>"
                         "<th class='l'>shader</th></tr>")
            parts.extend(f"<tr><td>{d.old}</td><td>{d.new}</td><td>{_pct(d.percent)}</td>"
                         f"<td class='l'>{escape(_shader(d.key))}</td></tr>" for d in changed)
            parts.append("</table>")
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
        ratios = [d.new / d.old for d in ds if d.old > 0]
        ax1.hist(ratios or [1.0], bins=30)
        ax1.set_xlabel(f"{s.name}: NEW / OLD per shader")
        ax1.set_ylabel("shaders")
        ax2.scatter([d.old for d in ds], [d.new for d in ds], s=8)
        top = max([1, *(d.old for d in ds), *(d.new for d in ds)])
        ax2.plot([0, top], [0, top], color="gray", linewidth=0.8)
        ax2.set_xlabel(f"{s.name} OLD")
        ax2.set_ylabel(f"{s.name} NEW")
        parts.append(f"<img alt='{escape(s.name)} plots' "
                     f"src='data:image/png;base64,{_figure_png(fig)}'>")
        plt.close(fig)
    parts.append("</body></html>\n")
    return "\n".join(parts)
