"""validate_ir on GFX11 FLAT/GLOBAL atomics: returning form (vdst, glc) and
non-returning form (no vdst, no glc).

The oracle is llvm-mc-19: each IR instruction has an assembly twin with the
same register shapes; the validator must accept the IR exactly when llvm-mc
assembles the twin ("instruction must use glc" / "must not use glc" /
"invalid operand" otherwise).
"""

from __future__ import annotations

import pytest

from radcc.ir.parser import parse_program
from radcc.ir.validate import ValidationError, validate_ir, validate_ra
from radcc.oracle import llvm_mc

HEAD = "program gfx1100 wave32 compute\n"
TOP = "BB0\n/* logical preds: / linear preds: / kind: top-level, */\n"

# (IR definition prefix or '', vdata class, glc, asm twin)
CASES = [
    ("v1: %9 = ", "v1", True, "global_atomic_add_u32 v0, v[4:5], v6, off glc"),
    ("", "v1", False, "global_atomic_add_u32 v[4:5], v6, off"),
    ("v1: %9 = ", "v1", False, "global_atomic_add_u32 v0, v[4:5], v6, off"),
    ("", "v1", True, "global_atomic_add_u32 v[4:5], v6, off glc"),
    ("v2: %9 = ", "v1", True, "global_atomic_add_u32 v[0:1], v[4:5], v6, off glc"),
    ("v2: %9 = ", "v2", True, "global_atomic_add_u64 v[0:1], v[4:5], v[6:7], off glc"),
    ("v1: %9 = ", "v2", True, "global_atomic_add_u64 v0, v[4:5], v[6:7], off glc"),
    ("v1: %9 = ", "v2", True, "global_atomic_cmpswap_b32 v0, v[4:5], v[6:7], off glc"),
    ("v2: %9 = ", "v2", True, "global_atomic_cmpswap_b32 v[0:1], v[4:5], v[6:7], off glc"),
    ("v2: %9 = ", "v4", True,
     "global_atomic_cmpswap_b64 v[0:1], v[4:5], v[6:9], off glc"),
    ("v1: %9 = ", "v1", True, "global_atomic_add_f32 v0, v[4:5], v6, off glc"),
    ("v1: %9 = ", "v1", True, "flat_atomic_swap_b32 v0, v[4:5], v6 glc"),
    ("", "v1", False, "flat_atomic_swap_b32 v[4:5], v6"),
]


def _ir(defn: str, vdata: str, glc: bool, asm: str) -> str:
    op = asm.split()[0]
    return (HEAD + TOP + "   s2: %1:s[0-1], v2: %2:v[0-1] = p_startpgm\n   p_logical_start\n"
            f"   {vdata}: %3 = p_unit_test\n"
            f"   {defn}{op} %2, %3 offset:0{' glc' if glc else ''}\n"
            "   p_logical_end\n   s_endpgm\n")


def _accepts(text: str) -> bool:
    try:
        validate_ir(parse_program(text), "test")
    except ValidationError:
        return False
    return True


@pytest.fixture(scope="module")
def mc_verdicts() -> dict[str, bool]:
    llvm_mc.require()
    res = llvm_mc.encode([c[3] for c in CASES])
    return {c[3]: r.error is None for c, r in zip(CASES, res, strict=True)}


@pytest.mark.parametrize("case", CASES, ids=[c[3] for c in CASES])
def test_validator_agrees_with_llvm_mc(case: tuple[str, str, bool, str],
                                       mc_verdicts: dict[str, bool]) -> None:
    assert _accepts(_ir(*case)) == mc_verdicts[case[3]]


def test_both_verdicts_occur(mc_verdicts: dict[str, bool]) -> None:
    assert set(mc_verdicts.values()) == {True, False}


def test_validate_ra_accepts_an_allocated_returning_atomic() -> None:
    text = (HEAD + TOP + "   s2: %1:s[0-1], v2: %2:v[0-1], v1: %3:v[2] = p_startpgm\n"
            "   p_logical_start\n"
            "   v1: %9:v[3] = global_atomic_add_u32 %2:v[0-1], %3:v[2] offset:0 glc\n"
            "   global_store_b32 %2:v[0-1], %9:v[3] offset:0\n"
            "   p_logical_end\n   s_endpgm\n")
    p = parse_program(text)
    validate_ir(p, "test")
    validate_ra(p, "test")
