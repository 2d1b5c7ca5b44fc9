"""Instruction-level SALU semantics from the ISA pseudocode (16.1-16.3) and the
seeds' errata (s_bfe_* write SCC); expected values worked out by hand."""

from __future__ import annotations

import pytest

from radcc.emu.salu import SOP1, SOP2, SOPC

M = 0xFFFFFFFF


@pytest.mark.parametrize(("name", "a", "b", "c", "want"), [
    ("s_add_u32", M, 1, 0, (0, 1)),
    ("s_add_i32", 0x7FFFFFFF, 1, 0, (0x80000000, 1)),
    ("s_sub_i32", 0x80000000, 1, 0, (0x7FFFFFFF, 1)),
    ("s_sub_u32", 1, 2, 0, (M, 1)),
    ("s_addc_u32", M, 0, 1, (0, 1)),
    ("s_subb_u32", 5, 5, 1, (M, 1)),
    ("s_bfe_u32", 0xF0F0, 4 | 8 << 16, 0, (0x0F, 1)),   # errata: writes SCC
    ("s_bfe_u32", 0xF0F0, 0 | 4 << 16, 0, (0, 0)),
    ("s_bfe_i32", 0x80, 4 | 4 << 16, 0, (0xFFFFFFF8, 1)),  # 0b1000 sign-extends to -8
    ("s_bfe_i64", 0xF << 60, 60 | 4 << 16, 0, ((1 << 64) - 1, 1)),
    ("s_lshl2_add_u32", 0x40000000, 1, 0, (1, 1)),
    ("s_ashr_i32", 0x80000000, 31, 0, (M, 1)),
    ("s_lshr_b64", 1 << 63, 63, 0, (1, 1)),
    ("s_absdiff_i32", 3, M, 0, (4, 1)),                  # |3 - (-1)|
    ("s_min_i32", M, 0, 0, (M, 1)),
    ("s_max_u32", M, 0, 0, (M, 1)),
    ("s_mul_hi_i32", M, M, 0, (0, None)),
    ("s_bfm_b32", 4, 8, 0, (0xF00, None)),
    ("s_pack_hl_b32_b16", 0x12345678, 0x9ABCDEF0, 0, (0xDEF01234, None)),
    ("s_and_not1_b32", 0xFF, 0x0F, 0, (0xF0, 1)),
    ("s_xnor_b64", 0, 0, 0, ((1 << 64) - 1, 1)),
])
def test_sop2(name: str, a: int, b: int, c: int, want: tuple[int, int | None]) -> None:
    assert SOP2[name](a, b, c) == want


@pytest.mark.parametrize(("name", "a", "want"), [
    ("s_brev_b32", 1, (0x80000000, None)),
    ("s_bcnt1_i32_b64", (1 << 64) - 1, (64, 1)),
    ("s_bcnt0_i32_b32", M, (0, 0)),
    ("s_ctz_i32_b32", 0, (M, None)),              # no bit set: -1
    ("s_clz_i32_u32", 1, (31, None)),
    ("s_cls_i32", 0xFFFF0000, (16, None)),
    ("s_cls_i32", 0, (M, None)),
    ("s_sext_i32_i8", 0x80, (0xFFFFFF80, None)),
    ("s_quadmask_b32", 0x000F0010, (0b10010, 1)),
    ("s_wqm_b32", 0x00000120, (0x00000FF0, 1)),
    ("s_abs_i32", 0x80000000, (0x80000000, 1)),
    ("s_bitreplicate_b64_b32", 0b101, (0b110011, None)),
])
def test_sop1(name: str, a: int, want: tuple[int, int | None]) -> None:
    assert SOP1[name](a, 0) == want


@pytest.mark.parametrize(("name", "a", "b", "want"), [
    ("s_cmp_lt_i32", M, 0, True), ("s_cmp_lt_u32", M, 0, False),
    ("s_bitcmp1_b32", 0x10, 36, True), ("s_bitcmp0_b64", 1 << 40, 40, False),
    ("s_cmp_lg_u64", 1 << 40, 0, True),
])
def test_sopc(name: str, a: int, b: int, want: bool) -> None:
    assert SOPC[name](a, b) == want
