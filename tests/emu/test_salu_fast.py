"""The SALU handlers with operands resolved at bind time (`radcc.emu.salu._fast_scalar`:
SGPRs read straight from the wave's list, constants and literals bound once) against the
op tables applied to `sread` values and written by `swrite`, the general path, on random
waves: the destination (both halves of a 64-bit one, NULL dropped), SCC and every other
SGPR must agree. Sources the fast form cannot read (SCC; VCCZ, EXECZ before GFX11) keep the general
handler."""

from __future__ import annotations

import pytest

from radcc.emu.regs import sread, swrite
from radcc.emu.salu import SOP1, SOP2, SOPC, _bind_sop1, _bind_sop2, _bind_sopc
from radcc.emu.state import Wave
from tests.emu.test_valu_fast_path import inst, wave_state

SOP2_CASES = [
    "s_add_u32 s7, s3, s4", "s_addc_u32 s7, s3, 0x12345678", "s_sub_i32 s7, -5, s4",
    "s_lshl_b32 s7, s3, 31", "s_and_b64 s[6:7], s[2:3], exec", "s_or_b64 s[6:7], -1, s[8:9]",
    "s_lshl_b64 s[6:7], s[2:3], s4", "s_cselect_b32 s7, s3, 0.5", "s_mul_i32 s7, s3, s3",
    "s_and_b32 null, s3, s4", "s_xor_b64 vcc, exec, s[2:3]", "s_and_b32 exec_lo, s3, vcc_lo",
    "s_lshr_b32 s7, m0, 3", "s_add_u32 s7, src_scc, s3", "s_bfe_u64 s[6:7], s[2:3], 0x80004",
    "s_cselect_b64 s[6:7], 0, s[2:3]", "s_max_i32 s7, null, s3",
]
SOP1_CASES = [
    "s_mov_b32 s7, s3", "s_mov_b64 s[6:7], 0x12345678", "s_not_b32 s7, -1",
    "s_brev_b32 s7, s3", "s_mov_b64 s[6:7], exec", "s_bcnt1_i32_b64 s7, s[2:3]",
    "s_mov_b32 s7, src_scc", "s_not_b64 s[6:7], null", "s_mov_b32 m0, s3",
]
SOPC_CASES = [
    "s_cmp_eq_u32 s3, s4", "s_cmp_lg_u64 s[2:3], 0", "s_cmp_lt_i32 s3, -7",
    "s_bitcmp1_b32 s3, 0x1f", "s_cmp_gt_u32 src_scc, s4", "s_cmp_eq_u64 s[2:3], exec",
]


def _general(w: Wave, text: str, wave: int) -> None:
    """The instruction by the op tables on `sread` values, written by `swrite`."""
    i = inst(text, wave)
    lit = i.f.get("literal")

    def src(name: str) -> int:
        spec = i.info.operand(name)
        assert spec is not None
        return sread(w, i.f[name], spec.bits, spec.type, lit)

    if i.enc == "SOPC":
        w.scc = int(SOPC[i.name](src("ssrc0"), src("ssrc1")))
        return
    if i.enc == "SOP2":
        r, scc = SOP2[i.name](src("ssrc0"), src("ssrc1"), w.scc)
    else:
        r, scc = SOP1[i.name](src("ssrc0"), w.scc)
    swrite(w, i.f["sdst"], r, i.info.defs[0].bits)
    if scc is not None:
        w.scc = scc


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("text", SOP2_CASES + SOP1_CASES + SOPC_CASES)
def test_fast_equals_general(text: str, wave: int) -> None:
    i = inst(text, wave)
    bind = {"SOP2": _bind_sop2, "SOP1": _bind_sop1, "SOPC": _bind_sopc}[i.enc]
    for seed in range(4):
        wf, wg = wave_state(wave, seed), wave_state(wave, seed)
        for w in (wf, wg):
            w.scc = seed & 1
            w.s[125] = 0x1234  # m0
        if seed == 3:  # a zero EXEC and VCC
            for w in (wf, wg):
                w.exec = 0
                w.s[106] = w.s[107] = 0
        bind(i)(wf, i)
        _general(wg, text, wave)
        assert wf.s == wg.s, (text, seed)
        assert wf.scc == wg.scc, (text, seed)


def test_fast_form_taken() -> None:
    """Plain SGPR/constant forms take the fast handler (compiled code), SCC-reading
    sources do not (so the comparison above exercises both)."""
    fast = {t: _bind_sop2(inst(t, 32)).__code__.co_filename == "<radcc.emu fast SALU>"
            for t in SOP2_CASES}
    assert fast["s_add_u32 s7, s3, s4"] and fast["s_and_b64 s[6:7], s[2:3], exec"]
    assert not fast["s_add_u32 s7, src_scc, s3"]
    i = inst("s_mov_b32 s7, s3", 32)
    assert _bind_sop1(i).__code__.co_filename == "<radcc.emu fast SALU>"
    i = inst("s_cmp_gt_u32 src_scc, s4", 32)
    assert _bind_sopc(i).__code__.co_filename != "<radcc.emu fast SALU>"
