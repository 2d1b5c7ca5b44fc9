"""GFX10 SDWA in the emulator: VOP1/VOP2/VOPC instructions with the SDWA dword, assembled by
llvm-mc-19 for gfx1030 (wave32), against NumPy: source byte/word selects with zero or sign
extension, DST_SEL with UNUSED_PAD / UNUSED_SEXT / UNUSED_PRESERVE, VOPC to VCC.

Each kernel loads a[lane], b[lane] and the old out[lane] from the buffer p (a at 0, b at
128, out at 256 bytes), runs the instruction into v1 and stores v1 to out."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import numpy as np
import pytest

from radcc.emu.api import load
from tests.emu.test_gfx10_hazards import _KERNEL

_BODY = """
  v_lshlrev_b32 v20, 2, v0
  global_load_dword v2, v20, s[4:5]
  global_load_dword v3, v20, s[4:5] offset:128
  global_load_dword v1, v20, s[4:5] offset:256
  s_waitcnt vmcnt(0)
  {insn}
  global_store_dword v20, v1, s[4:5] offset:256"""

U = np.uint32


def _sx(x: np.ndarray, bits: int) -> np.ndarray:
    x = x.astype(np.int64) & ((1 << bits) - 1)
    return np.where(x >> (bits - 1), x - (1 << bits), x)


def _f16(x: np.ndarray) -> np.ndarray:
    return (x & 0xFFFF).astype(np.uint16).view(np.float16)


CASES: dict[str, tuple[str, Callable[..., np.ndarray]]] = {
    "add_word1_preserve": (
        "v_add_nc_u32_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
        "src0_sel:BYTE_1 src1_sel:WORD_0",
        lambda a, b, o: (((a >> 8 & 0xFF) + (b & 0xFFFF)) & 0xFFFF) << 16 | (o & 0xFFFF)),
    "mov_byte2_sext": (
        "v_mov_b32_sdwa v1, v2 dst_sel:BYTE_2 dst_unused:UNUSED_SEXT src0_sel:BYTE_3",
        lambda a, b, o: (_sx(a >> 24, 8) << 16) & 0xFFFFFFFF),
    "sub_sext_byte0": (
        "v_sub_nc_u32_sdwa v1, sext(v2), v3 dst_sel:DWORD dst_unused:UNUSED_PAD "
        "src0_sel:BYTE_0 src1_sel:BYTE_0",
        lambda a, b, o: (_sx(a, 8) - (b & 0xFF)) & 0xFFFFFFFF),
    "cmp_to_vcc": (
        "v_cmp_gt_i32_sdwa vcc_lo, sext(v2), v3 src0_sel:BYTE_0 src1_sel:WORD_1\n"
        "  v_cndmask_b32 v1, 0, 1, vcc_lo",
        lambda a, b, o: (_sx(a, 8) > (b >> 16 & 0xFFFF)).astype(np.int64)),
    "add_f16_hi_lo": (
        "v_add_f16_sdwa v1, v2, v3 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1 "
        "src1_sel:WORD_0",
        lambda a, b, o: (_f16(a >> 16) + _f16(b)).view(np.uint16).astype(np.int64)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_sdwa(case: str, tmp_path) -> None:
    insn, ref = CASES[case]
    src = tmp_path / "k.s"
    src.write_text(_KERNEL.format(chip="gfx1030", wgp=1, body=_BODY.format(insn=insn)))
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1030",
                    "--filetype=obj", str(src), "-o", str(tmp_path / "k.o")], check=True)
    subprocess.run(["ld.lld-19", "-shared", str(tmp_path / "k.o"), "-o", str(tmp_path / "k.so")],
                   check=True)
    rng = np.random.default_rng(3)
    p = rng.integers(0, 1 << 32, 96, dtype=np.uint64).astype(U)
    if case == "add_f16_hi_lo":  # small integers: the f16 sum is exact
        halves = rng.integers(-500, 500, (64, 2)).astype(np.float16).view(np.uint16)
        p[:64] = halves[:, 0].astype(U) | halves[:, 1].astype(U) << 16
    res = load((tmp_path / "k.so").read_bytes()).run("k", groups=1, block=32, args={"p": p})
    assert res.violations == []
    a, b, o = (p[k:k + 32].astype(np.int64) for k in (0, 32, 64))
    want = np.asarray(ref(a, b, o)).astype(np.int64) & 0xFFFFFFFF
    np.testing.assert_array_equal(res.buffers["p"][64:96].astype(np.int64), want)


def test_v_interp_decodes_and_is_refused_by_name(tmp_path) -> None:
    """GFX10's VINTRP encoding decodes (its text is llvm-mc-19's); running it is graphics
    work the emulator refuses with an error naming it."""
    from radcc.emu.errors import EmuError

    src = tmp_path / "k.s"
    src.write_text(_KERNEL.format(chip="gfx1030", wgp=1,
                                  body="  s_mov_b32 m0, 0\n  v_interp_p1_f32_e32 v1, v2, attr0.x"))
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1030",
                    "--filetype=obj", str(src), "-o", str(tmp_path / "k.o")], check=True)
    subprocess.run(["ld.lld-19", "-shared", str(tmp_path / "k.o"), "-o", str(tmp_path / "k.so")],
                   check=True)
    with pytest.raises(EmuError, match=r"'v_interp_p1_f32_e32 v1, v2, attr0.x' at pc .*: "
                       r"interpolation instructions \(VINTRP\) are not supported"):
        load((tmp_path / "k.so").read_bytes()).run("k", groups=1, block=32,
                                                   args={"p": np.zeros(96, U)})
