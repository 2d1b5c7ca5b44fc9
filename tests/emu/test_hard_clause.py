"""Strict mode's s_clause check (radcc.emu.hard_clause) on clang's code.

clang-19's code for the OpenCL kernels has LLVM's hard clauses: strict mode
must accept them. Then s_clause lines are edited and the verdict is the ISA
guide's (5.2 "Instruction Clauses", 16 S_CLAUSE): a clause of 2..63
instructions of one type (SMEM, buffer/global/scratch load, VALU, ...), with
s_nop/s_waitcnt as internal instructions, no SALU, no s_delay_alu, no internal
instruction first. s_clause is a hint: the results never change.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from radcc.emu.api import load
from tests.emu.cases import BY_NAME
from tests.emu.conftest import CLANG, KERNELS, clang_flags


def _asm(name: str) -> str:
    return subprocess.run([CLANG, *clang_flags("O3", 32), "-S", "-o", "-",
                           str(KERNELS / f"{name}.cl")], check=True, capture_output=True,
                          text=True).stdout


def _run(name: str, text: str, tmp: Path):
    src, obj = tmp / "m.s", tmp / "m.o"
    src.write_text(text)
    subprocess.run([sys.executable, "-m", "radcc", "mc", "--mcpu=gfx1100", "--filetype=obj",
                    "-o", str(obj), str(src)], check=True, capture_output=True)
    case = BY_NAME[name]
    args = case.make(np.random.default_rng(1))
    return load(obj.read_bytes()).run(name, case.groups, case.block, args, wave_size=32)


def _kinds(res) -> list[str]:
    return [v.kind for v in res.violations]


@pytest.fixture(scope="module")
def saxpy(tmp_path_factory: pytest.TempPathFactory):
    text = _asm("saxpy")
    res = _run("saxpy", text, tmp_path_factory.mktemp("base"))
    assert res.violations == []
    return text, res


@pytest.mark.parametrize("name", ["const_table", "matvec", "f64_arith", "lds_transpose",
                                  "i64_div"])
def test_llvm_clauses_are_accepted(name: str, tmp_path: Path) -> None:
    assert "s_clause" in _asm(name)
    obj = tmp_path / "k.o"
    subprocess.run([CLANG, *clang_flags("O3", 32), str(KERNELS / f"{name}.cl"), "-o", str(obj)],
                   check=True, capture_output=True)
    case = BY_NAME[name]
    res = load(obj.read_bytes()).run(name, case.groups, case.block,
                                     case.make(np.random.default_rng(1)), wave_size=32)
    assert res.violations == []


LOADS = "\tglobal_load_b32 v2, v[2:3], off\n\tglobal_load_b32 v3, v[0:1], off\n"
VALU2 = "\tv_add_co_u32 v0, vcc_lo, s4, v0\n"


@pytest.mark.parametrize(("edit", "legal"), [
    # the leading SMEM clause (2 loads) grown over the next s_waitcnt: internal
    (("\ts_clause 0x1\n", "\ts_clause 0x2\n"), True),
    # ... and over the s_and_b32 after it: SALU may not be in a clause
    (("\ts_clause 0x1\n", "\ts_clause 0x3\n"), False),
    # length field 0 (a clause has 2..63 instructions)
    (("\ts_clause 0x1\n", "\ts_clause 0x0\n"), False),
    # two global loads: one buffer/global/scratch load clause
    ((LOADS, "\ts_clause 0x1\n" + LOADS), True),
    # + the s_waitcnt vmcnt(0) after them (internal)
    ((LOADS, "\ts_clause 0x2\n" + LOADS), True),
    # + the v_fmac after that: a VALU in a load clause
    ((LOADS, "\ts_clause 0x3\n" + LOADS), False),
    # an s_delay_alu inside
    ((LOADS, "\ts_clause 0x2\n" + LOADS.replace("\n", "\n\ts_delay_alu instid0(VALU_DEP_1)\n",
                                                 1)), False),
    # an internal instruction first
    ((LOADS, "\ts_clause 0x2\n\ts_nop 0\n" + LOADS), False),
    # a VALU clause (v_add_co_u32, v_add_co_ci_u32)
    ((VALU2, "\ts_clause 0x1\n" + VALU2), True),
    # clause breaks every instruction: groups of one
    ((LOADS, "\ts_clause 0x101\n" + LOADS), False),
    # breaks every 2: one group of the two loads
    ((LOADS, "\ts_clause 0x201\n" + LOADS), True),
])
def test_edited_clauses(saxpy, edit: tuple[str, str], legal: bool, tmp_path: Path) -> None:
    text, base = saxpy
    old, new = edit
    assert text.count(old) == 1
    res = _run("saxpy", text.replace(old, new), tmp_path)
    kinds = _kinds(res)
    assert all(k == "HardClause" for k in kinds), res.violations
    assert (kinds == []) == legal, res.violations
    for name, buf in base.buffers.items():
        np.testing.assert_array_equal(res.buffers[name], buf)
