"""VOPD dual-issue instructions against llvm-mc-19 (ISA guide 15.3.7, 16.11)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from radcc.isa.assembler import assemble
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc

sys.path.insert(0, str(Path(__file__).parent))
from vop3p_oracle import TARGET, agreement, check_lines  # noqa: E402

TABLE = get_table(TARGET.gfx_level)
X = sorted(TABLE.by_enc["VOPD"].values(), key=lambda e: e.opcode)
Y = sorted(TABLE.by_enc["VOPDY"].values(), key=lambda e: e.opcode)


def setup_module() -> None:
    llvm_mc.require()


def _half(e, dst: int, base: int, src0: str | None = None, k: str = "0x1234") -> str:
    ops = []
    for o in e.operands:
        if o.name == "vdst":
            ops.append(f"v{dst}")
        elif o.name == "src0":
            ops.append(src0 or f"v{base}")
        elif o.name == "vsrc1":
            ops.append(f"v{base + 5}")
        elif o.kind == "imm":
            ops.append(k)
    return f"{e.name} " + ", ".join(ops)


def test_table_matches_isa_guide() -> None:
    assert [e.opcode for e in X] == list(range(13))
    assert {e.opcode for e in Y} == set(range(13)) | {16, 17, 18}
    assert TABLE.decode("VOPDY", 18).name == "v_dual_and_b32"


def test_all_pairs() -> None:
    """Every X opcode with every Y opcode, with VGPRs, SGPRs and constants."""
    lines = []
    for i, x in enumerate(X):
        for j, y in enumerate(Y):
            lines.append(f"{_half(x, 10, 20)} :: {_half(y, 11, 33)}")
            s0 = ("s5", "1.0", "0x1234", "-3", "0.5", "vcc_lo", "0x3f800000")[(i + j) % 7]
            lines.append(f"{_half(x, 2 * i, 20 + j, s0)} :: {_half(y, 2 * j + 1, 33 + i, 'v2')}")
    assert check_lines(lines) == []


BAD = [
    "v_dual_mul_f32 v0, v1, v2 :: v_dual_mul_f32 v2, v3, v4",
    "v_dual_mul_f32 v0, v1, v2 :: v_dual_mul_f32 v1, v5, v4",
    "v_dual_add_f32 v0, v1, v2 :: v_dual_add_f32 v1, v3, v6",
    "v_dual_mul_f32 v0, 1.5, v2 :: v_dual_mul_f32 v1, 2.5, v4",
    "v_dual_add_nc_u32 v0, v1, v2 :: v_dual_mul_f32 v1, v3, v4",
    "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_cndmask_b32 v1, s2, v4",
    "v_dual_mul_f32 v0, s1, v2 :: v_dual_fmamk_f32 v1, s2, 0x1234, v4",
    "v_dual_fmamk_f32 v210, 27, 0xd2854021, v9 :: v_dual_fmac_f32 v169, v164, v172",
    "v_dual_fmac_f32 v169, v164, v172 :: v_dual_fmamk_f32 v210, 27, 0xd2854021, v9",
    "v_dual_mul_f32 v0, -v1, v2 :: v_dual_mul_f32 v1, v3, v4",
    "v_dual_mul_f32 v0, v1, s2 :: v_dual_mul_f32 v1, v3, v4",
    "v_dual_mul_f32 v0, v1, v2 clamp :: v_dual_mul_f32 v1, v3, v4",
    "v_dual_mov_b32 v0, src_vccz :: v_dual_mov_b32 v1, v2",
]


def test_bad_inputs_fail_like_llvm() -> None:
    res = llvm_mc.encode(BAD)
    for r in res:
        assert r.data is None, r.line
    assert check_lines(BAD) == []


def test_bad_input_columns() -> None:
    """Columns of llvm-mc's VOPD constraint diagnostics."""
    lines = BAD[:4] + BAD[7:9]
    want = {}
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run([llvm_mc.LLVM_MC, "-triple=amdgcn", "-mcpu=gfx1100", f.name],
                       capture_output=True, text=True)
    for ln in p.stderr.splitlines():
        parts = ln.split(":")
        if len(parts) > 3 and parts[3].strip() == "error":
            want.setdefault(int(parts[1]), int(parts[2]))
    got = {d.line: d.col for d in assemble("\n".join(lines), TARGET).diagnostics}
    assert got == want


def test_wave64_rejected() -> None:
    line = "v_dual_mul_f32 v0, v1, v2 :: v_dual_mul_f32 v1, v3, v4"
    assert llvm_mc.encode([line], wave64=True)[0].data is None
    assert not assemble(line, TARGET, wave_size=64).ok


@pytest.mark.parametrize("seed", [1, 2])
def test_random_words(seed: int) -> None:
    a = agreement("vopd", 2500, seed)
    assert a.decoded > 1000
    assert a.decode_rate >= 0.995, a.mismatches[:10]
    assert a.asm_rate >= 0.995, a.mismatches[:10]
