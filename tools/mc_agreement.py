#!/usr/bin/env python3
"""Measure radcc's agreement with llvm-mc-19 on LLVM's own GFX11 (or GFX10) MC tests.

  python tools/mc_agreement.py DIR [--json out.json] [--top N] [--files GLOB]
                               [--mcpu gfx1100|gfx1010|gfx1030]

DIR holds copies of llvm-project's ``llvm/test/MC/AMDGPU/gfx11_asm_*.s`` and
``llvm/test/MC/Disassembler/AMDGPU/gfx11_dasm_*.txt`` (see
tools/fetch_llvm_mc_tests.md for how to get them; they are not committed).

Assembly files: every instruction line (comments, RUN lines, labels and
directives dropped) is assembled by llvm-mc-19 (`radcc.oracle.llvm_mc.encode`,
one process per file and configuration) and by radcc (`assemble`, one line at
a time). A line agrees when both reject it, or both accept it with the same
bytes and the same canonical text. Disassembly files: every hex line is
decoded by llvm-mc (`llvm_mc.decode`) and by radcc's disassembler; it agrees
when both give the same single instruction text, or neither gives one.

The expectations are llvm-mc's live output, never the CHECK comments; the
CHECK encodings (when the copy keeps them) are only compared with llvm-mc to
report how often llvm-mc-19 itself differs from the test file's version.

`--mcpu` picks the generation measured (default gfx1100; gfx101x = GFX10.1,
gfx103x = GFX10.3, e.g. on ``gfx10_asm_*.s``, ``gfx1030_*.s`` and the
disassembler's ``gfx10_*.txt``): each RUN line's own -mcpu is given to
llvm-mc and radcc when it belongs to that generation, other RUN lines are
skipped. Without RUN lines, --mcpu itself is used.

Configurations come from the RUN lines: only plain ones of the generation
are measured (e.g. an -mcpu of gfx11xx, attributes limited to wavefrontsize32/64 and
-real-true16); RUN lines of other targets or feature sets (e.g.
+real-true16) are skipped, and so are instruction lines whose CHECK
comments name only prefixes of skipped configurations.
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import json
import re
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from radcc.oracle import llvm_mc  # noqa: E402

# file-name stem (after gfx11_asm_ / gfx11_dasm_) -> family owning it
_FAMILY_RULES = [
    (r"^(sop1|sop2|sopk|sopc|sopp|smem)", "scalar"),
    (r"^(vop3p|vopd|wmma|vinterp|ldsdir|vdsdir|lds)", "vop3p"),
    (r"^vop3", "vop3"),
    (r"^(vop1|vop2|vopc|vopcx|dpp)", "vop"),
    (r"^(ds|flat|mubuf|mtbuf|mimg|exp|global|scratch|buf)", "memory"),
]

_PLAIN_ATTRS = {"+wavefrontsize32", "-wavefrontsize32", "+wavefrontsize64", "-wavefrontsize64",
                "-real-true16"}


def family_of(path: Path) -> str:
    stem = re.sub(r"^gfx\d+_((asm|dasm)_)?", "", path.stem)
    for rx, fam in _FAMILY_RULES:
        if re.match(rx, stem):
            return fam
    return "other"


@dataclass
class RunConfig:
    wave64: bool
    prefixes: list[str]
    plain: bool
    expect_error: bool  # a `not llvm-mc` run (error-checking prefixes)
    raw: str
    true16: bool = False  # gfx11 with +real-true16 (and otherwise plain attributes)
    mcpu: str = ""  # the RUN line's -mcpu (empty: the --mcpu default)


# -mcpu values of the generation being measured (set by main from --mcpu)
_GEN_CPU = re.compile(r"gfx11\d\d")
_GEN_TRIPLE = re.compile(r"amdgpu11\.?\d\d")
_DEFAULT_MCPU = "gfx1100"
_DEFAULT_PREFIX = "GFX11"


def set_generation(mcpu: str) -> None:
    """Measure the generation of `mcpu` (gfx11xx, gfx101x or gfx103x)."""
    global _GEN_CPU, _GEN_TRIPLE, _DEFAULT_MCPU, _DEFAULT_PREFIX
    _DEFAULT_MCPU = mcpu
    if mcpu.startswith("gfx11"):
        _GEN_CPU, _GEN_TRIPLE, _DEFAULT_PREFIX = (re.compile(r"gfx11\d\d"),
                                                  re.compile(r"amdgpu11\.?\d\d"), "GFX11")
    elif mcpu.startswith("gfx103"):
        _GEN_CPU, _GEN_TRIPLE, _DEFAULT_PREFIX = (re.compile(r"gfx103\d"),
                                                  re.compile(r"amdgpu10\.?3\d"), "GFX10")
    elif mcpu.startswith("gfx10"):
        _GEN_CPU, _GEN_TRIPLE, _DEFAULT_PREFIX = (re.compile(r"gfx101\d"),
                                                  re.compile(r"amdgpu10\.?1\d"), "GFX10")
    else:
        raise SystemExit(f"mc_agreement: no generation for -mcpu={mcpu}")


def _default_cfg() -> RunConfig:
    return RunConfig(False, [_DEFAULT_PREFIX], True, False, "(default)", mcpu=_DEFAULT_MCPU)


def parse_run_lines(text: str) -> list[RunConfig]:
    """The llvm-mc configurations of a test file's RUN lines (continuations joined)."""
    runs: list[str] = []
    cont = False
    for line in text.splitlines():
        m = re.match(r"^\s*(//|#|;)\s*RUN:\s?(.*)$", line)
        if not m:
            cont = False
            continue
        body = m.group(2).rstrip()
        if cont and runs:
            runs[-1] += " " + body.rstrip("\\")
        else:
            runs.append(body.rstrip("\\"))
        cont = body.endswith("\\")
    cfgs = []
    for r in runs:
        if "llvm-mc" not in r:
            continue
        mc_part = r.split("|")[0]
        mcpu = re.search(r"-mcpu=(\S+)", mc_part)
        attrs: list[str] = []
        for a in re.findall(r"-mattr=(\S+)", mc_part):
            attrs.extend(x.lower() for x in a.split(",") if x)  # -WavefrontSize32 too
        triple = re.search(r"-triple[= ](\S+)", mc_part)
        if mcpu is not None:
            cpu_ok = _GEN_CPU.fullmatch(mcpu.group(1)) is not None
        else:  # e.g. -triple=amdgpu11.00 names the processor itself
            cpu_ok = triple is not None and _GEN_TRIPLE.fullmatch(triple.group(1)) is not None
        plain = cpu_ok and all(a in _PLAIN_ATTRS for a in attrs)
        true16 = cpu_ok and "+real-true16" in attrs and all(
            a in _PLAIN_ATTRS or a == "+real-true16" for a in attrs)
        wave64 = "+wavefrontsize64" in attrs
        prefixes: list[str] = []
        for m in re.finditer(r"--?check-prefix(?:es)?[= ](\S+)", r):
            prefixes.extend(p for p in m.group(1).split(",") if p)
        if not prefixes and "FileCheck" in r:
            prefixes = ["CHECK"]
        expect_error = bool(re.match(r"^\s*not\s", r))
        cpu = mcpu.group(1) if mcpu is not None else _DEFAULT_MCPU
        cfgs.append(RunConfig(wave64, prefixes, plain, expect_error, r, true16, cpu))
    return cfgs


@dataclass
class Item:
    """One input line and the CHECK prefixes/encodings that follow it."""

    lineno: int
    text: str  # the statement, comment stripped
    checks: dict[str, str] = field(default_factory=dict)  # prefix -> check text


_CHECK_RE = re.compile(r"^\s*(?://|#|;)\s*([A-Za-z0-9_-]+):\s?(.*)$")


def read_items(text: str, asm: bool) -> list[Item]:
    from radcc.isa.lexer import strip_comment

    items: list[Item] = []
    for n, raw in enumerate(text.splitlines(), 1):
        m = _CHECK_RE.match(raw)
        if m:
            if m.group(1) != "RUN" and items:
                pfx = m.group(1)
                for suffix in ("-NEXT", "-SAME", "-EMPTY", "-NOT", "-DAG", "-LABEL"):
                    if pfx.endswith(suffix):
                        pfx = pfx[: -len(suffix)]
                items[-1].checks.setdefault(pfx, m.group(2))
            continue
        if asm:
            body = strip_comment(raw).strip()
            if not body or body.startswith("#"):
                continue
            first = body.split()[0]
            if first.startswith(".") or first.endswith(":"):
                continue  # directives and labels are not single instructions
        else:
            body = raw
            for c in ("#", "//", ";"):
                k = body.find(c)
                if k >= 0:
                    body = body[:k]
            body = body.strip()
            if not body:
                continue
        items.append(Item(n, body))
    return items


_T16_RE = re.compile(r"\bv(\d+|\[\d+(:\d+)?\])\.[lh]\b")


def plain_configs(cfgs: list[RunConfig]) -> tuple[list[RunConfig], int, bool]:
    """(configurations to measure, RUN lines skipped, true16-fallback used).

    Newer copies of some files only have +real-true16 RUN lines; then their
    wave32/64 settings are measured in plain mode on the lines that do not
    use true16 register halves (v1.l, v1.h), which plain GFX11 rejects."""
    plain = [c for c in cfgs if c.plain]
    if plain:
        return plain, len(cfgs) - len(plain), False
    t16 = [c for c in cfgs if c.true16]
    return t16, len(cfgs) - len(t16), bool(t16)


def _applies(item: Item, cfg: RunConfig, all_cfgs: list[RunConfig]) -> bool:
    """Does this line belong to `cfg`? Lines without CHECKs belong to all."""
    if not item.checks:
        return True
    known = {p for c in all_cfgs for p in c.prefixes}
    mine = [p for p in item.checks if p in known]
    if not mine:
        return True
    return any(p in cfg.prefixes for p in mine)


@dataclass
class Failure:
    file: str
    lineno: int
    line: str
    wave64: bool
    kind: str  # radcc-error, radcc-accepts, bytes, text, crash
    llvm: str
    radcc: str


@dataclass
class FileResult:
    file: str
    family: str
    kind: str  # asm, dasm
    total: int = 0
    agree: int = 0
    llvm_errors: int = 0
    crashes: int = 0
    check_compared: int = 0
    check_mismatch: int = 0
    skipped_configs: int = 0
    t16_skipped: int = 0  # lines with true16 register halves (see plain_configs)
    failures: list[Failure] = field(default_factory=list)

    @property
    def pct(self) -> float:
        return 100.0 * self.agree / self.total if self.total else 100.0


def _radcc_assemble(line: str, target, wave: int) -> tuple[str | None, bytes | None, str]:
    """(text, bytes, error message) of one line; text None on error."""
    from radcc.isa.assembler import assemble

    res = assemble(line + "\n", target, "<line>", wave)
    errs = [d for d in res.diagnostics if d.severity == "error"]
    if errs:
        return None, None, errs[0].message
    insts = [s for s in res.statements if s.kind == "inst"]
    if len(insts) != 1:
        return None, None, f"{len(insts)} instructions"
    st = insts[0]
    data = None if st.fixups else bytes(st.data)
    return st.text.strip(), data, ""


def _check_bytes(check: str) -> bytes | None:
    m = re.search(r"encoding: \[([^\]]*)\]", check)
    if not m or "A" in m.group(1) or "B" in m.group(1):
        return None
    try:
        return bytes(int(x, 16) for x in m.group(1).split(",") if x.strip())
    except ValueError:
        return None


def _target(mcpu: str):
    from radcc.target import get_target

    return get_target(mcpu)


def measure_asm(path: Path) -> FileResult:
    text = path.read_text(errors="replace")
    res = FileResult(path.name, family_of(path), "asm")
    cfgs = parse_run_lines(text) or [_default_cfg()]
    items = read_items(text, asm=True)
    seen_wave: set[tuple[bool, str]] = set()
    use, res.skipped_configs, t16 = plain_configs(cfgs)
    for cfg in use:
        if (cfg.wave64, cfg.mcpu) in seen_wave:
            continue  # error-checking RUN lines repeat a configuration
        seen_wave.add((cfg.wave64, cfg.mcpu))
        target = _target(cfg.mcpu)
        mine = [it for it in items if _applies(it, cfg, cfgs)]
        if t16:
            res.t16_skipped += sum(1 for it in mine if _T16_RE.search(it.text))
            mine = [it for it in mine if not _T16_RE.search(it.text)]
        if not mine:
            continue
        oracle = llvm_mc.encode([it.text for it in mine], mcpu=cfg.mcpu, wave64=cfg.wave64)
        wave = 64 if cfg.wave64 else 32
        for it, o in zip(mine, oracle, strict=True):
            res.total += 1
            llvm_ok = o.text is not None
            if not llvm_ok:
                res.llvm_errors += 1
            for p in cfg.prefixes:
                cb = _check_bytes(it.checks.get(p, ""))
                if cb is not None:
                    res.check_compared += 1
                    if cb != o.data:
                        res.check_mismatch += 1
                    break
            try:
                rtext, rdata, rerr = _radcc_assemble(it.text, target, wave)
            except Exception as e:  # a crash is a bug to report, not a stop
                res.crashes += 1
                tb = traceback.format_exception_only(type(e), e)[-1].strip()
                res.failures.append(Failure(path.name, it.lineno, it.text, cfg.wave64, "crash",
                                            _show(o.text, o.data, o.error), tb))
                continue
            kind = ""
            if not llvm_ok and rtext is None:
                pass
            elif not llvm_ok:
                kind = "radcc-accepts"
            elif rtext is None:
                kind = "radcc-error"
            elif o.data is not None and rdata != o.data:
                kind = "bytes"
            elif rtext != (o.text or "").strip():
                kind = "text"
            if kind:
                res.failures.append(Failure(path.name, it.lineno, it.text, cfg.wave64, kind,
                                            _show(o.text, o.data, o.error),
                                            _show(rtext, rdata, rerr)))
            else:
                res.agree += 1
    return res


def measure_dasm(path: Path) -> FileResult:
    from radcc.isa.disassembler import disassemble, is_invalid, parse_hex_bytes

    text = path.read_text(errors="replace")
    res = FileResult(path.name, family_of(path), "dasm")
    cfgs = parse_run_lines(text) or [_default_cfg()]
    items = read_items(text, asm=False)
    seen_wave: set[tuple[bool, str]] = set()
    use, res.skipped_configs, t16 = plain_configs(cfgs)
    for cfg in use:
        if (cfg.wave64, cfg.mcpu) in seen_wave:
            continue
        seen_wave.add((cfg.wave64, cfg.mcpu))
        target = _target(cfg.mcpu)
        mine = []
        for it in items:
            if not _applies(it, cfg, cfgs):
                continue
            data, errs = parse_hex_bytes(it.text)
            if errs or not data:
                continue
            mine.append((it, data))
        if not mine:
            continue
        oracle = llvm_mc.decode([d for _, d in mine], mcpu=cfg.mcpu, wave64=cfg.wave64)
        wave = 64 if cfg.wave64 else 32
        for (it, data), o in zip(mine, oracle, strict=True):
            res.total += 1
            if o is None:
                res.llvm_errors += 1
            try:
                ds = [d for _, d in disassemble(data, target, wave)]
            except Exception as e:
                res.crashes += 1
                tb = traceback.format_exception_only(type(e), e)[-1].strip()
                res.failures.append(Failure(path.name, it.lineno, it.text, cfg.wave64, "crash",
                                            str(o), tb))
                continue
            mine_text = ds[0].text.strip() if len(ds) == 1 and not is_invalid(ds[0]) else None
            if mine_text == (o.strip() if o else None):
                res.agree += 1
                continue
            if o is None:
                kind = "radcc-accepts"
            elif mine_text is None:
                kind = "radcc-error"
            else:
                kind = "text"
            res.failures.append(Failure(path.name, it.lineno, it.text, cfg.wave64, kind, str(o),
                                        " | ".join(d.text for d in ds)))
    return res


def _show(text: str | None, data: bytes | None, err: str | None) -> str:
    if text is None:
        return f"error: {err}"
    enc = "fixup" if data is None else ",".join(f"0x{b:02x}" for b in data)
    return f"{text}  [{enc}]"


_MOD_RE = re.compile(r"\b([a-z_][a-z0-9_]*):")
_WORD_MODS = {"clamp", "glc", "slc", "dlc", "gds", "tfe", "lds", "idxen", "offen", "addr64",
              "a16", "r128", "d16", "unorm", "lwe", "nv", "fi", "bound_ctrl", "row_mask",
              }


def constructs(line: str) -> list[str]:
    """Syntactic constructs a line uses (modifier names, literal, neg/abs...)."""
    out = set()
    parts = line.split(None, 1)
    rest = parts[1] if len(parts) > 1 else ""
    for m in _MOD_RE.finditer(rest):
        out.add(m.group(1) + ":")
    for w in re.findall(r"[a-z_0-9]+", rest):
        if w in _WORD_MODS:
            out.add(w)
    if re.search(r"\|[-vs]", rest):
        out.add("|abs|")
    if re.search(r"(^|[ ,])-[vs]\[?\d", rest) or "neg(" in rest:
        out.add("neg")
    if re.search(r"0x[0-9a-fA-F]{3,}", rest):
        out.add("literal")
    if re.search(r"\.[lh]\b", rest):
        out.add(".l/.h")
    if parts and parts[0].endswith(("_e64", "_e32", "_dpp", "_sdwa")):
        out.add("suffix" + parts[0][parts[0].rfind("_"):])
    return sorted(out) or ["(plain)"]


def summarize(results: list[FileResult], top: int, out=sys.stdout) -> dict:
    def line(name: str, t: int, a: int, extra: str = "") -> None:
        pct = 100.0 * a / t if t else 100.0
        print(f"  {name:44s} {a:6d}/{t:<6d} {pct:7.2f}%{extra}", file=out)

    print("per file:", file=out)
    for r in results:
        extra = f"  (llvm rejects {r.llvm_errors}"
        if r.crashes:
            extra += f", CRASHES {r.crashes}"
        if r.skipped_configs:
            extra += f", {r.skipped_configs} non-plain RUN skipped"
        if r.t16_skipped:
            extra += f", {r.t16_skipped} true16 lines skipped"
        extra += ")"
        line(r.file, r.total, r.agree, extra)
    fam: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for r in results:
        fam[f"{r.family} ({r.kind})"][0] += r.total
        fam[f"{r.family} ({r.kind})"][1] += r.agree
    print("per family:", file=out)
    for k in sorted(fam):
        line(k, fam[k][0], fam[k][1])
    tot = sum(r.total for r in results)
    agr = sum(r.agree for r in results)
    print("total:", file=out)
    for kind in ("asm", "dasm"):
        t = sum(r.total for r in results if r.kind == kind)
        a = sum(r.agree for r in results if r.kind == kind)
        line(kind, t, a)
    line("all", tot, agr)
    fails = [f for r in results for f in r.failures]
    by_kind = collections.Counter(f.kind for f in fails)
    by_mn = collections.Counter(f.line.split()[0] if f.line.split() else "" for f in fails
                                if "asm" in f.file)
    by_con = collections.Counter(c for f in fails if "asm" in f.file for c in constructs(f.line))
    print("failures by kind: " + ", ".join(f"{k} {n}" for k, n in by_kind.most_common()), file=out)
    print("top failing mnemonics (asm): " +
          ", ".join(f"{k} {n}" for k, n in by_mn.most_common(top)), file=out)
    print("top failing constructs (asm): " +
          ", ".join(f"{k} {n}" for k, n in by_con.most_common(top)), file=out)
    ck = sum(r.check_compared for r in results)
    if ck:
        cm = sum(r.check_mismatch for r in results)
        print(f"llvm-mc-19 vs the files' CHECK encodings: {cm}/{ck} differ", file=out)
    return {
        "total": tot, "agree": agr, "pct": 100.0 * agr / tot if tot else 100.0,
        "families": {k: {"total": v[0], "agree": v[1]} for k, v in fam.items()},
        "failures_by_kind": dict(by_kind),
        "top_mnemonics": by_mn.most_common(top),
        "top_constructs": by_con.most_common(top),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--json", type=Path, default=None, help="write results (and failures) here")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--files", default=None,
                    help="glob of file names to measure (default gfx11_* or gfx10*)")
    ap.add_argument("--show", type=int, default=0, help="print this many failures per file")
    ap.add_argument("--mcpu", default="gfx1100")
    args = ap.parse_args(argv)
    llvm_mc.require()
    from radcc.target import get_target

    try:  # the families register on import; a broken family module stops the run
        import radcc.isa.assembler  # noqa: F401
        import radcc.isa.disassembler  # noqa: F401
    except Exception as e:
        print(f"mc_agreement: cannot import radcc's machine layer: {type(e).__name__}: {e}",
              file=sys.stderr)
        return 1

    get_target(args.mcpu)  # an unknown chip stops here
    set_generation(args.mcpu)
    if args.files is None:
        args.files = "gfx11_*" if args.mcpu.startswith("gfx11") else "gfx10*"
    paths = sorted(p for p in args.dir.rglob("*") if p.is_file()
                   and fnmatch.fnmatch(p.name, args.files) and p.suffix in (".s", ".txt"))
    if not paths:
        print(f"no test files matching {args.files} in {args.dir}", file=sys.stderr)
        return 1
    t0 = time.time()
    results = []
    for p in paths:
        r = measure_dasm(p) if p.suffix == ".txt" else measure_asm(p)
        results.append(r)
        for f in r.failures[: args.show]:
            print(f"  {f.file}:{f.lineno} [{f.kind}{' w64' if f.wave64 else ''}] {f.line}\n"
                  f"      llvm-mc: {f.llvm}\n      radcc:   {f.radcc}")
    summary = summarize(results, args.top)
    print(f"({len(paths)} files, {time.time() - t0:.1f} s)")
    if args.json:
        blob = {"summary": summary,
                "files": [{k: v for k, v in asdict(r).items() if k != "failures"} | {"pct": r.pct}
                          for r in results],
                "failures": [asdict(f) for r in results for f in r.failures]}
        args.json.write_text(json.dumps(blob, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
