"""End-to-end IR programs: tests/e2e/programs/*.ir through `radcc llc`, run in radcc.emu.

Each program is hand-written machine IR as instruction selection would give
it (before insert_exec_mask: logical/linear CFG, ``p_logical_start/end``,
divergent branches on lane masks) with a header of ``//`` comment lines:

    // <what it covers>
    // args: out:buffer:u32[256] a:buffer:f32[256] k:u32   (kernarg order, docs/abi.md)
    // dispatch: groups=4 block=64
    // waves: 32 64                 (wave sizes it runs with; 64 uses --wave64)
    // input: a = rng.uniform(-4, 4, 256)     (optional, one per input; default random)
    // let: t = a * 2               (optional NumPy helper values, in order)
    // expect: out = t + k          (NumPy; one line per checked output buffer)
    // rtol: 1e-6                   (optional, for float outputs)

Inputs are drawn from a seeded generator; the expectation is evaluated with
NumPy (names: the arguments, ``np``, ``tid`` (global work-item id), ``lid``,
``wg``, ``block``, ``groups``, ``threads``, ``wave``, ``lane`` = lid % wave,
``u32``/``i32``/``f32``/``u64``/``i64``/``f64`` casts). The program is
compiled by the whole pipeline with RADCC_DEBUG validateir,validatera (in
process through radcc.driver.llc, or as a ``radcc llc`` subprocess for a few), run
in strict mode, and must report no violation.
"""

from __future__ import annotations

import functools
import io
import itertools
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from radcc.driver.llc import check_demand, kernel_args
from radcc.emu.api import load
from radcc.ir.parser import parse_program
from radcc.passes.emit_program import emit_code_object, emit_program
from radcc.passes.manager import run_pipeline
from radcc.passes.options import DebugOptions

PROGRAMS = Path(__file__).parent / "programs"
ROOT = Path(__file__).resolve().parents[2]

# compiled by a `radcc llc` subprocess (the rest in process)
SUBPROCESS = {"valu_int32", "if_else", "loop_divergent_break_w64"}

# programs that fail because of a pass bug not fixed here: name -> reason
XFAIL: dict[str, str] = {}

_DTYPES = {"u32": np.uint32, "i32": np.int32, "f32": np.float32, "u64": np.uint64,
           "i64": np.int64, "f64": np.float64, "u16": np.uint16, "f16": np.float16}
_ARG_RE = re.compile(r"(\w+):buffer:(\w+)\[(\d+)\]|(\w+):(\w+)")


@dataclass
class Arg:
    name: str
    kind: str  # 'buffer' or a scalar kind (u32 i32 f32 u64 i64 f64)
    dtype: type
    count: int = 0


@dataclass
class Spec:
    name: str
    text: str
    args: list[Arg]
    groups: int
    block: int
    waves: list[int]
    inputs: dict[str, str] = field(default_factory=dict)
    lets: list[tuple[str, str]] = field(default_factory=list)
    expect: dict[str, str] = field(default_factory=dict)
    rtol: float = 0.0


def parse_header(path: Path) -> Spec:
    text = path.read_text()
    head = [ln[2:].strip() for ln in text.splitlines() if ln.startswith("//")]
    kv: dict[str, list[str]] = {}
    for ln in head:
        key, sep, val = ln.partition(":")
        if sep and key in ("args", "dispatch", "waves", "input", "let", "expect", "rtol"):
            kv.setdefault(key, []).append(val.strip())
    args = []
    for tok in kv["args"][0].split():
        m = _ARG_RE.fullmatch(tok)
        assert m, f"{path.name}: bad arg '{tok}'"
        if m.group(1):
            args.append(Arg(m.group(1), "buffer", _DTYPES[m.group(2)], int(m.group(3))))
        else:
            args.append(Arg(m.group(4), m.group(5), _DTYPES[m.group(5)]))
    disp = dict(x.split("=") for x in kv["dispatch"][0].split())
    spec = Spec(path.stem, text, args, int(disp["groups"]), int(disp["block"]),
                [int(w) for w in kv["waves"][0].split()])
    for ln in kv.get("input", []):
        name, _, expr = ln.partition("=")
        spec.inputs[name.strip()] = expr.strip()
    for ln in kv.get("let", []):
        name, _, expr = ln.partition("=")
        spec.lets.append((name.strip(), expr.strip()))
    for ln in kv.get("expect", []):
        name, _, expr = ln.partition("=")
        spec.expect[name.strip()] = expr.strip()
    if "rtol" in kv:
        spec.rtol = float(kv["rtol"][0])
    assert spec.expect, f"{path.name}: no expect line"
    return spec


def _namespace(spec: Spec, wave: int) -> dict[str, object]:
    threads = spec.groups * spec.block
    tid = np.arange(threads, dtype=np.uint32)
    return {"np": np, "itertools": itertools, "functools": functools, "tid": tid, "lid": tid % spec.block, "wg": tid // spec.block,
            "block": spec.block, "groups": spec.groups, "threads": threads, "wave": wave,
            "lane": (tid % spec.block) % wave, "u32": np.uint32, "i32": np.int32,
            "f32": np.float32, "u64": np.uint64, "i64": np.int64, "f64": np.float64}


def _random(arg: Arg, rng: np.random.Generator, n: int | None) -> object:
    shape = n if n is not None else ()
    dt = np.dtype(arg.dtype)
    if dt.kind == "f":
        v = rng.uniform(-8.0, 8.0, shape).astype(dt)
    else:
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    return v if n is not None else dt.type(v)


def make_inputs(spec: Spec, wave: int, seed: int) -> dict[str, object]:
    rng = np.random.default_rng(seed)
    ns = _namespace(spec, wave) | {"rng": rng}
    vals: dict[str, object] = {}
    for a in spec.args:
        if a.name in spec.inputs:
            v = eval(spec.inputs[a.name], ns)  # noqa: S307 (test data of our own files)
            v = np.asarray(v).astype(a.dtype) if a.kind == "buffer" else np.dtype(a.dtype).type(v)
        elif a.kind == "buffer" and a.name in spec.expect:
            v = np.zeros(a.count, a.dtype)
        else:
            v = _random(a, rng, a.count if a.kind == "buffer" else None)
        if a.kind == "buffer":
            assert np.shape(v) == (a.count,), f"{a.name}: shape {np.shape(v)}"
        vals[a.name] = v
        ns[a.name] = v
    return vals


def _llc_args(spec: Spec) -> list[str]:
    return [f"{a.name}:{a.kind}" for a in spec.args]


def compile_in_process(spec: Spec, wave: int) -> bytes:
    p = parse_program(spec.text, spec.name + ".ir")
    p.wave_size = wave
    check_demand(p)
    run_pipeline(p, DebugOptions.parse("validateir,validatera"), stream=io.StringIO())
    return emit_code_object(p, emit_program(p), kernel_args(_llc_args(spec)))


def compile_subprocess(spec: Spec, wave: int, tmp: Path) -> bytes:
    out = tmp / f"{spec.name}.o"
    cmd = [sys.executable, "-m", "radcc", "llc", str(PROGRAMS / f"{spec.name}.ir"),
           "-o", str(out)] + [f"--arg={a}" for a in _llc_args(spec)]
    if wave == 64:
        cmd.append("--wave64")
    env = {"RADCC_DEBUG": "validateir,validatera", "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(ROOT)}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert r.returncode == 0, r.stderr
    return out.read_bytes()


def check_outputs(spec: Spec, wave: int, inputs: dict[str, object],
                  got: dict[str, np.ndarray]) -> None:
    ns = _namespace(spec, wave) | {k: (v.copy() if isinstance(v, np.ndarray) else v)
                                   for k, v in inputs.items()}
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for name, expr in spec.lets:
            ns[name] = eval(expr, ns)  # noqa: S307
        for name, expr in spec.expect.items():
            arg = next(a for a in spec.args if a.name == name)
            want = np.broadcast_to(np.asarray(eval(expr, ns)), (arg.count,))  # noqa: S307
            res = got[name]
            if np.dtype(arg.dtype).kind == "f" and spec.rtol:
                np.testing.assert_allclose(res, want.astype(arg.dtype), rtol=spec.rtol,
                                           atol=spec.rtol, err_msg=f"{spec.name}: {name}")
            else:
                want = want.astype(arg.dtype)
                bad = np.flatnonzero(res != want)
                assert bad.size == 0, (
                    f"{spec.name} wave{wave}: {name}: {bad.size} of {res.size} differ, first at "
                    f"{bad[:4].tolist()}: got {res[bad[:4]].tolist()}, "
                    f"want {want[bad[:4]].tolist()}")


def run_program(spec: Spec, wave: int, obj: bytes, seed: int = 1) -> None:
    inputs = make_inputs(spec, wave, seed)
    args = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()}
    res = load(obj).run(spec.name, groups=spec.groups, block=spec.block, args=args,
                        wave_size=wave, strict=True)
    assert not res.violations, [str(v) for v in res.violations]
    check_outputs(spec, wave, inputs, res.buffers)


SPECS = [parse_header(p) for p in sorted(PROGRAMS.glob("*.ir"))]
PARAMS = [pytest.param(s, w, id=f"{s.name}-wave{w}",
                       marks=[pytest.mark.xfail(strict=True, reason=XFAIL[s.name])]
                       if s.name in XFAIL else [])
          for s in SPECS for w in s.waves]


def test_enough_programs():
    assert len(SPECS) >= 30
    assert {32, 64} <= {w for s in SPECS for w in s.waves}


@pytest.mark.parametrize(("spec", "wave"), PARAMS)
def test_ir_program(spec: Spec, wave: int, tmp_path: Path) -> None:
    if spec.name in SUBPROCESS:
        obj = compile_subprocess(spec, wave, tmp_path)
    else:
        obj = compile_in_process(spec, wave)
    run_program(spec, wave, obj)


def test_header_comments_are_ignored_by_the_parser():
    p = parse_program("// a comment\nprogram gfx1100 wave32 compute\n   // indented\nBB0\n"
                      "/* logical preds: / linear preds: / kind: top-level, */\n   s_endpgm\n")
    assert len(p.blocks) == 1

