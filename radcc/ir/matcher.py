"""Pattern matching of IR text, for tests (after ACO's check_ir.py idea).

A pattern is IR text in which:

- ``%name`` matches any temp (``%12``) and binds it; the same name must
  match the same temp everywhere, and two names never bind the same temp;
- ``#name`` matches an integer token (``12``, ``0x1f``) and binds its value
  (e.g. ``v[#r]``, ``offset:#off``); same name, same value;
- ``$name`` matches any single token (``$_`` is a wildcard that never binds);
- everything else must match token for token; whitespace is ignored.

Pattern lines match output lines in order; output lines between them are
skipped (like FileCheck's CHECK), unless the pattern line starts with
``>>`` (the line must directly follow the previous match, CHECK-NEXT) or
``exact=True`` (every non-blank output line must be matched, in order).
The search backtracks, so an early ambiguous line cannot spoil a later one.

`match_ir(text, pattern) -> Match` never raises; `assert_ir_matches(
program_or_text, pattern)` raises AssertionError with a readable report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from radcc.ir.program import Program

_TOK_RE = re.compile(r"[%#$][A-Za-z_0-9]+|BB(?=[#\d])|0[xX][0-9a-fA-F]+(?:_b\d+)?|\d+(?:_b\d+)?|\w+|\S")
_INT_RE = re.compile(r"0[xX][0-9a-fA-F]+|\d+")
_MAX_STEPS = 200_000


def tokenize(line: str) -> list[str]:
    return _TOK_RE.findall(line)


@dataclass
class Match:
    ok: bool
    bindings: dict[str, object] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)  # output line index of each pattern line
    failed_pattern_line: int = -1  # deepest pattern line that could not be matched
    message: str = ""


def _match_line(pat: list[str], out: list[str], env: dict[str, object],
                temps: dict[int, str]) -> tuple[dict[str, object], dict[int, str]] | None:
    if len(pat) != len(out):
        return None
    env2: dict[str, object] | None = None
    temps2: dict[int, str] | None = None
    for p, o in zip(pat, out, strict=True):
        c = p[0]
        if c == "%" and len(p) > 1:
            if not (o.startswith("%") and o[1:].isdigit()):
                return None
            tid = int(o[1:])
            cur_env = env2 if env2 is not None else env
            cur_t = temps2 if temps2 is not None else temps
            if p in cur_env:
                if cur_env[p] != tid:
                    return None
            else:
                if tid in cur_t and cur_t[tid] != p:
                    return None
                if env2 is None:
                    env2, temps2 = dict(env), dict(temps)
                assert temps2 is not None
                env2[p] = tid
                temps2[tid] = p
        elif c == "#" and len(p) > 1:
            if not _INT_RE.fullmatch(o):
                return None
            v = int(o, 0)
            cur_env = env2 if env2 is not None else env
            if p in cur_env:
                if cur_env[p] != v:
                    return None
            else:
                if env2 is None:
                    env2, temps2 = dict(env), dict(temps)
                env2[p] = v
        elif c == "$" and len(p) > 1:
            if p == "$_":
                continue
            cur_env = env2 if env2 is not None else env
            if p in cur_env:
                if cur_env[p] != o:
                    return None
            else:
                if env2 is None:
                    env2, temps2 = dict(env), dict(temps)
                env2[p] = o
        elif p != o:
            return None
    return (env2 if env2 is not None else env, temps2 if temps2 is not None else temps)


def _prepare_pattern(pattern: str) -> list[tuple[bool, list[str], str]]:
    out = []
    for raw in pattern.splitlines():
        s = raw.strip()
        if not s:
            continue
        nxt = s.startswith(">>")
        if nxt:
            s = s[2:].strip()
        out.append((nxt, tokenize(s), s))
    return out


def match_ir(text: str, pattern: str, *, exact: bool = False,
             bindings: dict[str, object] | None = None) -> Match:
    """Match IR text against a pattern (see module docstring)."""
    pats = _prepare_pattern(pattern)
    outs = [(i, tokenize(line)) for i, line in enumerate(text.splitlines()) if line.strip()]
    env0 = dict(bindings or {})
    temps0 = {int(v): k for k, v in env0.items() if k.startswith("%") and isinstance(v, int)}
    best = [-1]
    steps = [0]
    chosen: list[int] = []

    def rec(pi: int, oi: int, env: dict[str, object], temps: dict[int, str]) -> dict | None:
        steps[0] += 1
        if steps[0] > _MAX_STEPS:
            return None
        if pi == len(pats):
            if exact and oi != len(outs):
                best[0] = max(best[0], pi)
                return None
            return env
        best[0] = max(best[0], pi)
        nxt, ptoks, _ = pats[pi]
        last = oi + 1 if (nxt and pi > 0) or exact else len(outs)
        for j in range(oi, min(last, len(outs))):
            r = _match_line(ptoks, outs[j][1], env, temps)
            if r is not None:
                chosen.append(outs[j][0])
                res = rec(pi + 1, j + 1, r[0], r[1])
                if res is not None:
                    return res
                chosen.pop()
        return None

    res = rec(0, 0, env0, temps0)
    if res is not None:
        return Match(True, res, list(chosen))
    fail = best[0]
    msg = (f"pattern line {fail + 1} not matched: {pats[fail][2]!r}" if 0 <= fail < len(pats)
           else "output has unmatched lines after the last pattern line")
    if steps[0] > _MAX_STEPS:
        msg += " (search limit reached)"
    return Match(False, {}, [], fail, msg)


def _report(text: str, pattern: str, m: Match) -> str:
    pats = _prepare_pattern(pattern)
    lines = ["IR does not match the pattern: " + m.message, "", "pattern:"]
    for i, (nxt, _, s) in enumerate(pats):
        mark = ">>" if i == m.failed_pattern_line else "  "
        lines.append(f"{mark} {i + 1:3}: {'>> ' if nxt else ''}{s}")
    lines += ["", "output:"]
    lines += [f"   {i + 1:3}: {line}" for i, line in enumerate(text.splitlines())]
    if 0 <= m.failed_pattern_line < len(pats):
        # the output line closest to the failing pattern line
        want = pats[m.failed_pattern_line][1]
        best, best_score = None, -1
        for line in text.splitlines():
            toks = tokenize(line)
            score = sum(1 for a, b in zip(want, toks, strict=False) if a == b) - abs(
                len(want) - len(toks))
            if score > best_score:
                best, best_score = line.strip(), score
        if best is not None:
            lines += ["", f"closest output line: {best}"]
    return "\n".join(lines)


def assert_ir_matches(program_or_text: Program | str, pattern: str, *, exact: bool = False,
                      bindings: dict[str, object] | None = None) -> dict[str, object]:
    """Assert that a program (printed) or IR text matches; returns the bindings."""
    if isinstance(program_or_text, Program):
        from radcc.ir.printer import print_program
        text = print_program(program_or_text)
    else:
        text = program_or_text
    m = match_ir(text, pattern, exact=exact, bindings=bindings)
    if not m.ok:
        raise AssertionError(_report(text, pattern, m))
    return m.bindings
