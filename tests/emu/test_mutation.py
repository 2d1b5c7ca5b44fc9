"""Mutation tests: remove an s_waitcnt or a hazard mitigation from LLVM's output,
assemble it with radcc's assembler, and strict mode must report it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from radcc.emu.api import load
from tests.emu.cases import BY_NAME
from tests.emu.conftest import CLANG, KERNELS, clang_flags


def _asm(name: str, opt: str, wave: int) -> list[str]:
    out = subprocess.run([CLANG, *clang_flags(opt, wave), "-S", "-o", "-",
                          str(KERNELS / f"{name}.cl")], check=True, capture_output=True,
                         text=True).stdout
    return out.splitlines(keepends=True)


def _assemble(lines: list[str], tmp: Path, wave: int) -> bytes:
    src, obj = tmp / "m.s", tmp / "m.o"
    src.write_text("".join(lines))
    cmd = [sys.executable, "-m", "radcc", "mc", "--mcpu=gfx1100", "--filetype=obj", "-o",
           str(obj), str(src)]
    if wave == 64:
        cmd.insert(5, "--mattr=+wavefrontsize64")
    subprocess.run(cmd, check=True, capture_output=True)
    return obj.read_bytes()


def _run(name: str, data: bytes, wave: int):
    case = BY_NAME[name]
    args = case.make(np.random.default_rng(1))
    return load(data).run(name, case.groups, case.block, args, wave_size=wave)


@pytest.mark.parametrize(("name", "opt", "wave"), [
    ("saxpy", "O3", 32), ("lds_reduce", "O3", 32), ("vadd_i32", "O3", 64), ("prefix_sum", "O3", 64),
    ("atomic_cas", "O3", 32), ("f64_arith", "O3", 32)])
def test_deleting_each_waitcnt_is_reported(name: str, opt: str, wave: int,
                                           tmp_path: Path) -> None:
    lines = _asm(name, opt, wave)
    base = _run(name, _assemble(lines, tmp_path, wave), wave)
    assert base.violations == []
    idx = [k for k, ln in enumerate(lines) if ln.strip().startswith("s_waitcnt ")
           and "lgkmcnt" in ln or ln.strip().startswith("s_waitcnt vmcnt")]
    assert idx
    for k in idx:
        res = _run(name, _assemble(lines[:k] + lines[k + 1:], tmp_path, wave), wave)
        kinds = {v.kind for v in res.violations}
        if res.counters.instructions == base.counters.instructions:
            continue  # the deleted wait was on a path this input does not execute
        assert "waitcnt" in kinds, f"deleting line {k + 1} ({lines[k].strip()}) not reported"


def test_deleting_trans_hazard_mitigation_is_reported(tmp_path: Path) -> None:
    lines = _asm("divmod_u32", "O3", 32)
    idx = [k for k, ln in enumerate(lines) if "s_waitcnt_depctr 0xfff" in ln
           and "0xfffe" not in ln]
    assert idx
    k = idx[0]
    res = _run("divmod_u32", _assemble(lines[:k] + lines[k + 1:], tmp_path, 32), 32)
    assert "VALUTransUseHazard" in {v.kind for v in res.violations}
