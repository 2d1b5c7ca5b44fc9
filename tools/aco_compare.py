"""radcc against the real ACO on the GLSL suite: where is radcc's code worse?

    python tools/aco_compare.py                    # both wave sizes, table to stdout
    python tools/aco_compare.py --wave 32 --only sg_ --dump /tmp/cmp
    python tools/aco_compare.py --markdown docs/aco-comparison.md
    python tools/aco_compare.py --mcpu gfx1030    # GFX10.3: RADV_FORCE_FAMILY=navi21
    python tools/aco_compare.py --mcpu gfx1033    # the Steam Deck: vangogh
    python tools/aco_compare.py --draw            # the VS+FS pairs of tests/e2e/draw

For each case of tests/e2e/glsl/cases.py (its shader compiled by glslangValidator
-V with the case's target env, its specialization constants applied) it compiles
the SPIR-V with ACO on RADV's null device (Mesa 22.3, `radcc.oracle.radv`; wave32
through RADV_PERFTEST=cswave32) and with radcc (`radcc.driver.compile.compile_spirv`)
for the same chip (`--mcpu`, default gfx1100; RADV's family is derived from it,
`radv_family`: the Target's Mesa family name, navi21 for gfx1030, vangogh for gfx1033,
or the chip name for GFX11, which Mesa 22.3 names gfx1100 ...), and prints per
shader: instructions, code bytes,
VGPRs and SGPRs of both, with radcc/ACO ratios; then totals and geometric means
over the shaders both compile, and the shaders radcc (or ACO) fails on, with the
reason. `--dump DIR` writes both disassemblies per shader (NAME.wW.aco.s,
NAME.wW.radcc.s) for reading side by side.

With `--draw` the shaders are the VS+FS pairs of tests/e2e/draw (one per distinct
pipeline: shaders, colour format, depth): ACO compiles each pair as one RADV graphics
pipeline (`radv.compile_graphics_many`), radcc each stage on its own (with the case's
colour format once `compile_spirv` takes colour formats), one row per stage
(NAME.vert, NAME.frag); a stage radcc does not compile yet is a failure with its reason.
ACO's stages are linked (RADV removes vertex outputs the fragment shader does not read,
and the ABIs are RADV's: descriptor sets, the attribute ring), radcc's are compiled
alone: a vertex shader whose outputs the pair does not use costs radcc more.

What is counted, so that the two are comparable:
- instructions: lines of the disassembly (ACO's "Instructions" statistic counts
  the same), without radcc's s_delay_alu: ACO 22.3 predates s_delay_alu (and
  VOPD), so those are left out of radcc's instruction count and code size;
- code bytes: ACO's "Code size" statistic, radcc's CodeSize minus 4 per s_delay_alu;
- VGPRs/SGPRs: 1 + the highest register the code names (the driver's SGPRs/VGPRs
  statistics are allocation granules: 128 SGPRs, VGPRs in blocks of 8/16/24).
  VCC, exec, m0 and null are not counted.
- latency / inv.thr: the Latency and Inverse Throughput statistics, which radcc
  defines as ACO does (radcc/passes/statistics.py); radcc's s_delay_alu take
  an issue cycle each there.

The ABIs differ: RADV loads buffer descriptors from descriptor sets (s_load_b128,
buffer_load) where radcc's AMDHSA kernels load addresses from the kernarg
segment (global_load); a few instructions' difference per buffer is ABI, not
code quality. This is a guide for engineers, never a test expectation.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from radcc.driver.compare import Metrics, aco_metrics, radcc_metrics, radv_family  # noqa: E402
from radcc.oracle import radv  # noqa: E402


@dataclass
class Side(Metrics):
    """One compiler's result for one shader and wave size: its figures (`Metrics`, as
    `radcc compare` counts them) and assembly, or why it failed."""

    asm: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    error: str = ""


@dataclass
class Row:
    name: str
    category: str
    wave: int
    aco: Side
    radcc: Side

    @property
    def both(self) -> bool:
        return not self.aco.error and not self.radcc.error


def aco_side(r: radv.AcoResult | radv.RadvError) -> Side:
    if isinstance(r, radv.RadvError):
        return Side(error=str(r))
    m = aco_metrics(r.asm, r.stats)
    return Side(**vars(m), asm=r.asm, extra={"stats": r.stats, "device": r.device_name})


def _color_kwargs(color: str | None) -> dict[str, Any]:
    """compile_spirv's colour formats of a fragment shader's attachments, once radcc has
    them (radcc.abi.graphics.ColorFormat); nothing otherwise."""
    if color is None:
        return {}
    try:
        from radcc.abi.graphics import ColorFormat  # type: ignore[attr-defined]
    except ImportError:
        return {}
    return {"color_formats": (ColorFormat.parse(color),)}


def radcc_side(spirv: bytes, spec: dict[int, Any], wave: int, mcpu: str = "gfx1100",
               color: str | None = None) -> Side:
    from radcc.driver.compile import compile_spirv

    try:
        res = compile_spirv(spirv, mcpu=mcpu, wave_size=wave, spec=spec or None,
                            **_color_kwargs(color))
    except Exception as e:  # noqa: BLE001 - any failure is reported with its reason
        tb = traceback.extract_tb(e.__traceback__)
        where = f" ({Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
        msg = str(e).splitlines()[0] if str(e) else ""
        return Side(error=f"{type(e).__name__}: {msg[:160]}{where}")
    m = radcc_metrics(res.asm, res.stats)
    return Side(**vars(m), asm=res.asm,
                extra={"stats": res.stats, "s_delay_alu": m.s_delay_alu,
                       "vopd": res.stats.get("VOPD", 0)})


def load_cases(only: list[str]) -> list[Any]:
    from tests.e2e.glsl.cases import CASES

    seen: set[Any] = set()
    out = []
    for c in CASES:
        key = (c.path, c.target_env, tuple(sorted(c.spec.items())))
        if key in seen:
            continue
        seen.add(key)
        if only and not any(o in c.name for o in only):
            continue
        out.append(c)
    return out


def run(cases: list[Any], waves: list[int], family: str, dump: Path | None,
        progress: bool, mcpu: str = "gfx1100") -> tuple[list[Row], list[tuple[str, str]]]:
    from tests.e2e.glsl_harness import compile_case

    spirvs: dict[str, bytes] = {}
    glsl_errors: list[tuple[str, str]] = []
    for c in cases:
        try:
            spirvs[c.name] = compile_case(c)
        except (AssertionError, OSError) as e:
            glsl_errors.append((c.name, str(e).splitlines()[0]))
    cases = [c for c in cases if c.name in spirvs]
    rows: list[Row] = []
    for wave in waves:
        t0 = time.perf_counter()
        aco = radv.compile_many([(spirvs[c.name], c.spec) for c in cases], wave_size=wave,
                                family=family)
        if progress:
            print(f"ACO wave{wave}: {len(cases)} shaders in {time.perf_counter() - t0:.1f} s",
                  file=sys.stderr)
        t0 = time.perf_counter()
        for c, a in zip(cases, aco, strict=True):
            row = Row(c.name, c.category, wave, aco_side(a),
                      radcc_side(spirvs[c.name], c.spec, wave, mcpu))
            rows.append(row)
            if dump:
                dump.mkdir(parents=True, exist_ok=True)
                for who, side in (("aco", row.aco), ("radcc", row.radcc)):
                    (dump / f"{c.name}.w{wave}.{who}.s").write_text(side.asm or side.error)
        if progress:
            print(f"radcc wave{wave}: {len(cases)} shaders in {time.perf_counter() - t0:.1f} s",
                  file=sys.stderr)
    return rows, glsl_errors


def load_draw_cases(only: list[str]) -> list[Any]:
    from tests.e2e.draw.cases import CASES

    seen: set[tuple[str, str, str, bool]] = set()
    out = []
    for c in CASES:  # one per distinct pipeline (shaders, colour format, depth)
        key = (c.vert, c.frag, c.color, c.depth)
        if key in seen or (only and not any(o in c.name for o in only)):
            continue
        seen.add(key)
        out.append(c)
    return out


def run_draw_cases(cases: list[Any], waves: list[int], family: str, dump: Path | None,
                   progress: bool, mcpu: str = "gfx1100") -> list[Row]:
    """Two rows per VS+FS pair (NAME.vert, NAME.frag): ACO compiles the pair as one RADV
    pipeline with the case's colour format and depth; radcc compiles each stage."""
    from tests.e2e.draw.harness import spirv

    mods = {c.name: spirv(c) for c in cases}
    rows: list[Row] = []
    for wave in waves:
        t0 = time.perf_counter()
        jobs = [radv.GraphicsJob(*mods[c.name], color=c.color, depth=c.depth) for c in cases]
        aco = radv.compile_graphics_many(jobs, wave_size=wave, family=family)
        if progress:
            print(f"ACO wave{wave}: {len(cases)} pipelines in {time.perf_counter() - t0:.1f} s",
                  file=sys.stderr)
        for c, g in zip(cases, aco, strict=True):
            for stage, ext, spv, color in (("vertex", "vert", mods[c.name][0], None),
                                           ("fragment", "frag", mods[c.name][1], c.color)):
                if isinstance(g, radv.RadvError):
                    a_side = Side(error=str(g))
                elif stage not in g.stages:
                    a_side = Side(error=f"RADV made no {stage} executable")
                else:
                    a_side = aco_side(g.stages[stage])
                row = Row(f"{c.name}.{ext}", stage, wave, a_side,
                          radcc_side(spv, {}, wave, mcpu, color))
                rows.append(row)
                if dump:
                    dump.mkdir(parents=True, exist_ok=True)
                    for who, side in (("aco", row.aco), ("radcc", row.radcc)):
                        (dump / f"{row.name}.w{wave}.{who}.s").write_text(
                            side.asm or side.error)
    return rows


# -- reporting ---------------------------------------------------------------------------

METRICS = (("instr", "instructions"), ("bytes", "code_size"), ("VGPRs", "vgprs"),
           ("SGPRs", "sgprs"), ("latency", "latency"), ("inv.thr", "inv_throughput"))


def _ratio(r: int, a: int) -> float:
    return max(r, 1) / max(a, 1)


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def table(rows: list[Row], wave: int, md: bool) -> list[str]:
    rs = [r for r in rows if r.wave == wave]
    head = ["shader"]
    for label, _ in METRICS:
        head += [f"{label} ACO", "radcc", "×"]
    body: list[list[str]] = []
    for r in rs:
        cells = [r.name]
        for _, attr in METRICS:
            a = getattr(r.aco, attr)
            c = getattr(r.radcc, attr)
            cells += [str(a) if not r.aco.error else "-", str(c) if not r.radcc.error else "-",
                      f"{_ratio(c, a):.2f}" if r.both else ""]
        if r.radcc.error or r.aco.error:
            cells[0] += (" (both fail)" if r.radcc.error and r.aco.error
                         else " (radcc fails)" if r.radcc.error else " (ACO fails)")
        body.append(cells)
    both = [r for r in rs if r.both]
    tot = ["**total**" if md else "TOTAL"]
    gm = ["**geomean ×**" if md else "GEOMEAN"]
    for _, attr in METRICS:
        a = sum(getattr(r.aco, attr) for r in both)
        c = sum(getattr(r.radcc, attr) for r in both)
        tot += [str(a), str(c), f"{_ratio(c, a):.2f}" if both else ""]
        g = geomean([_ratio(getattr(r.radcc, attr), getattr(r.aco, attr)) for r in both])
        gm += ["", "", f"{g:.2f}"]
    body += [tot, gm]
    if md:
        out = ["| " + " | ".join(head) + " |",
               "|" + "|".join(["---"] + ["--:"] * (len(head) - 1)) + "|"]
        out += ["| " + " | ".join(row) + " |" for row in body]
        return out
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    fmt = [row[0].ljust(widths[0]) + "  " + " ".join(
        x.rjust(w) + ("  " if i % 3 == 0 else "") for i, (x, w) in
        enumerate(zip(row[1:], widths[1:], strict=True), 1)) for row in [head, *body]]
    return [fmt[0], "-" * len(fmt[0]), *fmt[1:-2], "-" * len(fmt[0]), *fmt[-2:]]


def summary(rows: list[Row], waves: list[int]) -> list[str]:
    out = []
    for w in waves:
        rs = [r for r in rows if r.wave == w]
        both = [r for r in rs if r.both]
        gms = ", ".join(
            f"{label} {geomean([_ratio(getattr(r.radcc, a), getattr(r.aco, a)) for r in both]):.2f}"
            for label, a in METRICS)
        out.append(f"wave{w}: {len(both)}/{len(rs)} shaders compile with both; "
                   f"radcc/ACO geomean: {gms}")
    return out


def failures(rows: list[Row]) -> list[tuple[str, str, str]]:
    """(compiler: shader, waves, reason) for every failing compile."""
    by: dict[tuple[str, str, str], list[int]] = {}
    for r in rows:
        for who, side in (("radcc", r.radcc), ("ACO", r.aco)):
            if side.error:
                by.setdefault((who, r.name, side.error), []).append(r.wave)
    return [(f"{who}: {name}", "/".join(f"wave{w}" for w in ws), err)
            for (who, name, err), ws in sorted(by.items())]


def biggest_gaps(rows: list[Row], n: int) -> list[Row]:
    """The n shaders with the largest radcc-minus-ACO instruction excess (each at the
    wave size where it is largest)."""
    worst: dict[str, Row] = {}
    for r in rows:
        if r.both:
            ex = r.radcc.instructions - r.aco.instructions
            w = worst.get(r.name)
            if w is None or ex > w.radcc.instructions - w.aco.instructions:
                worst[r.name] = r
    return sorted(worst.values(), key=lambda r: r.aco.instructions - r.radcc.instructions)[:n]


def git_commit() -> str:
    """HEAD's short hash, naming the files of radcc/ that differ from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                              check=True).stdout
    try:
        head = git("rev-parse", "--short", "HEAD").strip()
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", "radcc").splitlines()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    if dirty:
        head += " + uncommitted " + ", ".join(x[3:] for x in dirty)
    return head


def markdown(rows: list[Row], waves: list[int], family: str, device: str,
             glsl_errors: list[tuple[str, str]], gaps_text: str, commit: str,
             mcpu: str = "gfx1100", path: str = "docs/aco-comparison.md") -> str:
    chip = "" if mcpu == "gfx1100" else f" ({mcpu})"
    opt = "" if mcpu == "gfx1100" else f"--mcpu {mcpu} "
    lines = [
        f"# radcc against ACO on the GLSL suite{chip}",
        "",
        f"Snapshot of `python tools/aco_compare.py {opt}--markdown {path}` on "
        f"{datetime.date.today().isoformat()}, commit `{commit}` (radcc), ACO of "
        f"{device or 'RADV'} (Mesa 22.3 null device, `RADV_FORCE_FAMILY={family}`).",
        "",
        "A guide to where radcc's code is worse than ACO's, **not a test expectation**.",
        "How to read it (details in the tool's docstring):",
        "",
        "- instr: instructions in the disassembly; radcc's s_delay_alu are not counted "
        "(ACO 22.3 predates s_delay_alu and VOPD); bytes likewise;",
        "- VGPRs/SGPRs: 1 + the highest register the code names (the driver's statistics "
        "are allocation granules);",
        "- × is radcc/ACO; totals and geometric means are over the shaders both compile;",
        "- the ABIs differ: RADV loads buffer descriptors from descriptor sets "
        "(`s_load_b128` + `buffer_*`), radcc loads addresses from the kernarg segment "
        "(`global_*`); a few instructions and SGPRs per buffer are ABI, not code quality;",
        "- the shaders radcc cannot compile yet are listed with the reason (the compiler "
        "is being extended: expect this list to shrink);",
        "- the counts say nothing about correctness (tests/e2e checks that); one shader's "
        "ACO code: `python -m radcc.oracle.radv SHADER.spv --wave 32`, both compilers' "
        "code for the suite: `--dump DIR`.",
        "",
        "## Summary",
        "",
        *[f"- {x}" for x in summary(rows, waves)],
        "",
    ]
    if gaps_text:
        lines += ["## The five biggest gaps", "", gaps_text.strip(), ""]
    for w in waves:
        lines += [f"## wave{w}", "", *table(rows, w, md=True), ""]
    fails = failures(rows)
    if fails or glsl_errors:
        lines += ["## Failures", ""]
        lines += [f"- {who} ({ws}): `{err}`" for who, ws, err in fails]
        lines += [f"- glslangValidator: {n}: `{e}`" for n, e in glsl_errors]
        lines.append("")
    return "\n".join(lines)


GAPS_BEGIN = "<!-- gaps: kept by tools/aco_compare.py -->"
GAPS_END = "<!-- /gaps -->"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wave", type=int, choices=(32, 64), action="append",
                    help="wave size (default: both)")
    ap.add_argument("--mcpu", default="gfx1100",
                    help="the chip both compile for (default gfx1100; gfx1030, gfx1033 ...)")
    ap.add_argument("--family", default=None,
                    help="RADV_FORCE_FAMILY (default: the --mcpu chip's, e.g. navi21)")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTRING",
                    help="only cases whose name contains this (repeatable)")
    ap.add_argument("--dump", type=Path, help="write both disassemblies per shader here")
    ap.add_argument("--json", type=Path, help="write the rows as JSON here")
    ap.add_argument("--markdown", type=Path,
                    help="write a snapshot (the hand-written gap list between the "
                         f"{GAPS_BEGIN} markers of an existing file is kept)")
    ap.add_argument("--commit", help="the radcc version to name in the snapshot "
                    "(default: git HEAD, plus radcc/ files that differ from it)")
    ap.add_argument("--gaps", type=int, default=0, metavar="N",
                    help="also list the N largest instruction excesses")
    ap.add_argument("--draw", action="store_true",
                    help="the VS+FS pairs of tests/e2e/draw instead of the GLSL suite (one "
                         "row per stage, ACO compiling each pair as one RADV pipeline)")
    a = ap.parse_args(argv)
    waves = a.wave or [32, 64]
    try:
        family = a.family or radv_family(a.mcpu)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    try:
        if a.draw:
            rows = run_draw_cases(load_draw_cases(a.only), waves, family, a.dump,
                                  progress=True, mcpu=a.mcpu)
            glsl_errors = []
        else:
            rows, glsl_errors = run(load_cases(a.only), waves, family, a.dump, progress=True,
                                    mcpu=a.mcpu)
    except radv.RadvError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for w in waves:
        print(f"\n== wave{w} ({a.mcpu}, RADV {family}): ACO | radcc | radcc/ACO ==")
        print("\n".join(table(rows, w, md=False)))
    print()
    print("\n".join(summary(rows, waves)))
    fails = failures(rows)
    if fails or glsl_errors:
        print("\nFailures:")
        for who, ws, err in fails:
            print(f"  {who} ({ws}): {err}")
        for n, e in glsl_errors:
            print(f"  glslangValidator: {n}: {e}")
    if a.gaps:
        print("\nLargest instruction excess (radcc - ACO):")
        for r in biggest_gaps(rows, a.gaps):
            print(f"  {r.name} wave{r.wave}: {r.radcc.instructions} vs {r.aco.instructions} "
                  f"(+{r.radcc.instructions - r.aco.instructions})")
    if a.json:
        a.json.write_text(json.dumps([{
            "name": r.name, "category": r.category, "wave": r.wave,
            **{f"{who}_{k}": v for who, s in (("aco", r.aco), ("radcc", r.radcc))
               for k, v in (("instructions", s.instructions), ("code_size", s.code_size),
                            ("vgprs", s.vgprs), ("sgprs", s.sgprs), ("error", s.error))},
        } for r in rows], indent=1))
    if a.markdown:
        gaps = ""
        if a.markdown.exists():
            old = a.markdown.read_text()
            if GAPS_BEGIN in old and GAPS_END in old:
                gaps = old[old.index(GAPS_BEGIN):old.index(GAPS_END) + len(GAPS_END)]
        device = next((r.aco.extra.get("device", "") for r in rows if not r.aco.error), "")
        a.markdown.write_text(markdown(rows, waves, family, device, glsl_errors, gaps,
                                      a.commit or git_commit(), a.mcpu, str(a.markdown)))
        print(f"\nwrote {a.markdown}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
