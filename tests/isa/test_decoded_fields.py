"""`Decoded.fields` of the scalar and memory decoders (docs/machine-layer.md,
"Structured decoding"), for the emulator.

Each line is assembled by llvm-mc-19 (the oracle gives the bytes), decoded
by radcc, and the structured fields are compared with values written by hand
from the line's own operands and the ISA guide (chapter 15 field layouts,
chapter 16 opcode numbers). Source codes: 0-105 SGPR, 106 vcc_lo, 108-123
ttmp, 124 null, 125 m0, 126 exec_lo, 128 = 0, 129-192 = 1..64, 193-208 =
-1..-16, 240-247 = +-0.5 +-1.0 +-2.0 +-4.0, 253 scc, 255 literal.

The key set must be exactly the format's convention (plus `literal` when a
literal dword follows, plus `branch_offset` for branches).
"""

from __future__ import annotations

from functools import cache

import pytest

from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

T = get_target("gfx1100")
CTX = Context(T, get_table(T.gfx_level), 32)

KEYS = {
    "SOP2": {"op", "sdst", "ssrc0", "ssrc1"},
    "SOP1": {"op", "sdst", "ssrc0"},
    "SOPK": {"op", "sdst", "simm16"},
    "SOPC": {"op", "ssrc0", "ssrc1"},
    "SOPP": {"op", "simm16"},
    "SMEM": {"op", "sdata", "sbase", "offset", "soffset", "glc", "dlc"},
    "DS": {"op", "vdst", "addr", "data0", "data1", "offset0", "offset1", "gds"},
    "MUBUF": {"op", "vdata", "vaddr", "srsrc", "soffset", "offset", "offen", "idxen",
              "glc", "slc", "dlc", "tfe"},
    "MTBUF": {"op", "vdata", "vaddr", "srsrc", "soffset", "offset", "offen", "idxen",
              "glc", "slc", "dlc", "tfe", "format"},
    "FLAT": {"op", "vdst", "addr", "data", "saddr", "offset", "seg", "glc", "slc", "dlc", "sve"},
    "EXP": {"target", "en", "done", "row", "vsrc0", "vsrc1", "vsrc2", "vsrc3"},
}
for _seg in ("GLOBAL", "SCRATCH"):
    KEYS[_seg] = KEYS["FLAT"]

# (line, encoding, canonical name, expected fields); unlisted flag fields are 0
CASES: list[tuple[str, str, str, dict[str, int]]] = [
    # --- SOP2: op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0] ---
    ("s_add_u32 s5, s1, s2", "SOP2", "s_add_u32", dict(op=0, sdst=5, ssrc0=1, ssrc1=2)),
    ("s_and_b64 s[4:5], vcc, exec", "SOP2", "s_and_b64",
     dict(op=23, sdst=4, ssrc0=106, ssrc1=126)),
    ("s_mul_i32 s0, s1, 0x12345", "SOP2", "s_mul_i32",
     dict(op=44, sdst=0, ssrc0=1, ssrc1=255, literal=0x12345)),
    ("s_lshl_b32 s3, -1, 4", "SOP2", "s_lshl_b32", dict(op=8, sdst=3, ssrc0=193, ssrc1=132)),
    ("s_add_i32 null, m0, 1.0", "SOP2", "s_add_i32", dict(op=2, sdst=124, ssrc0=125, ssrc1=242)),
    ("s_cselect_b32 ttmp2, -16, 64", "SOP2", "s_cselect_b32",
     dict(op=48, sdst=110, ssrc0=208, ssrc1=192)),
    # --- SOP1: sdst[22:16] op[15:8] ssrc0[7:0] ---
    ("s_mov_b32 s7, 0xdeadbeef", "SOP1", "s_mov_b32",
     dict(op=0, sdst=7, ssrc0=255, literal=0xDEADBEEF)),
    ("s_mov_b64 s[2:3], exec", "SOP1", "s_mov_b64", dict(op=1, sdst=2, ssrc0=126)),
    ("s_not_b32 ttmp3, s9", "SOP1", "s_not_b32", dict(op=30, sdst=111, ssrc0=9)),
    ("s_brev_b32 exec_lo, scc", "SOP1", "s_brev_b32", dict(op=4, sdst=126, ssrc0=253)),
    ("s_mov_b32 m0, -4.0", "SOP1", "s_mov_b32", dict(op=0, sdst=125, ssrc0=247)),
    # --- SOPC: op[22:16] ssrc1[15:8] ssrc0[7:0] ---
    ("s_cmp_eq_u32 s1, 64", "SOPC", "s_cmp_eq_u32", dict(op=6, ssrc0=1, ssrc1=192)),
    ("s_cmp_lt_i32 s2, 0x1000", "SOPC", "s_cmp_lt_i32",
     dict(op=4, ssrc0=2, ssrc1=255, literal=0x1000)),
    ("s_bitcmp1_b64 s[10:11], s3", "SOPC", "s_bitcmp1_b64", dict(op=15, ssrc0=10, ssrc1=3)),
    ("s_cmp_lg_u64 vcc, 0", "SOPC", "s_cmp_lg_u64", dict(op=17, ssrc0=106, ssrc1=128)),
    # --- SOPK: op[27:23] sdst[22:16] simm16[15:0] ---
    ("s_movk_i32 s4, 0x8000", "SOPK", "s_movk_i32", dict(op=0, sdst=4, simm16=-32768)),
    ("s_movk_i32 s4, -2", "SOPK", "s_movk_i32", dict(op=0, sdst=4, simm16=-2)),
    ("s_addk_i32 s1, 0x7fff", "SOPK", "s_addk_i32", dict(op=15, sdst=1, simm16=32767)),
    ("s_mulk_i32 s2, 0xffff", "SOPK", "s_mulk_i32", dict(op=16, sdst=2, simm16=-1)),
    ("s_cmpk_gt_u32 s6, 0xfffe", "SOPK", "s_cmpk_gt_u32", dict(op=11, sdst=6, simm16=0xFFFE)),
    ("s_cmpk_lt_i32 s6, 0xfffe", "SOPK", "s_cmpk_lt_i32", dict(op=7, sdst=6, simm16=-2)),
    # hwreg: id[5:0] offset[10:6] size-1[15:11]
    ("s_getreg_b32 s3, hwreg(1, 4, 8)", "SOPK", "s_getreg_b32",
     dict(op=17, sdst=3, simm16=1 | 4 << 6 | 7 << 11)),
    ("s_setreg_b32 hwreg(2, 31, 1), s9", "SOPK", "s_setreg_b32",
     dict(op=18, sdst=9, simm16=2 | 31 << 6)),
    ("s_setreg_imm32_b32 hwreg(1), 0xaa", "SOPK", "s_setreg_imm32_b32",
     dict(op=19, sdst=0, simm16=1 | 31 << 11, literal=0xAA)),
    ("s_waitcnt_vmcnt null, 0xfffe", "SOPK", "s_waitcnt_vmcnt",
     dict(op=25, sdst=124, simm16=0xFFFE)),
    ("s_waitcnt_vscnt null, 0x3f", "SOPK", "s_waitcnt_vscnt", dict(op=24, sdst=124, simm16=63)),
    ("s_call_b64 s[30:31], -4", "SOPK", "s_call_b64",
     dict(op=20, sdst=30, simm16=-4, branch_offset=-4)),
    # --- SOPP: op[22:16] simm16[15:0] (raw) ---
    ("s_branch -3", "SOPP", "s_branch", dict(op=32, simm16=0xFFFD, branch_offset=-3)),
    ("s_cbranch_scc1 17", "SOPP", "s_cbranch_scc1", dict(op=34, simm16=17, branch_offset=17)),
    ("s_cbranch_execz 0x8000", "SOPP", "s_cbranch_execz",
     dict(op=37, simm16=0x8000, branch_offset=-32768)),
    # s_waitcnt: expcnt[2:0] lgkmcnt[9:4] vmcnt[15:10]; unnamed counters stay at max
    ("s_waitcnt vmcnt(2) lgkmcnt(0)", "SOPP", "s_waitcnt", dict(op=9, simm16=7 | 2 << 10)),
    ("s_nop 5", "SOPP", "s_nop", dict(op=0, simm16=5)),
    ("s_endpgm", "SOPP", "s_endpgm", dict(op=48, simm16=0)),
    ("s_barrier", "SOPP", "s_barrier", dict(op=61, simm16=0)),
    ("s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", "SOPP", "s_sendmsg", dict(op=54, simm16=3)),
    # s_delay_alu: instid0[3:0] instskip[6:4] instid1[10:7]; VALU_DEP_1=1 NEXT=1 SALU_CYCLE_1=9
    ("s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)", "SOPP",
     "s_delay_alu", dict(op=7, simm16=1 | 1 << 4 | 9 << 7)),
    ("s_setprio 3", "SOPP", "s_setprio", dict(op=53, simm16=3)),
    # --- SMEM: sbase[5:0]*2 sdata[12:6] dlc glc op[25:18]; offset[52:32] soffset[63:57] ---
    ("s_load_b32 s5, s[2:3], 0x10", "SMEM", "s_load_b32",
     dict(op=0, sdata=5, sbase=2, offset=16, soffset=124)),
    ("s_load_b128 s[8:11], s[4:5], -0x8", "SMEM", "s_load_b128",
     dict(op=2, sdata=8, sbase=4, offset=-8, soffset=124)),
    ("s_load_b64 s[0:1], s[6:7], s9 offset:0x20 glc", "SMEM", "s_load_b64",
     dict(op=1, sdata=0, sbase=6, offset=32, soffset=9, glc=1)),
    ("s_buffer_load_b32 s1, s[8:11], m0 dlc", "SMEM", "s_buffer_load_b32",
     dict(op=8, sdata=1, sbase=8, offset=0, soffset=125, dlc=1)),
    ("s_load_b32 s5, s[2:3], 0xfffff", "SMEM", "s_load_b32",
     dict(op=0, sdata=5, sbase=2, offset=0xFFFFF, soffset=124)),
    ("s_load_b32 s5, s[2:3], -0x100000", "SMEM", "s_load_b32",
     dict(op=0, sdata=5, sbase=2, offset=-0x100000, soffset=124)),
    ("s_load_b512 s[16:31], ttmp[2:3], s7 offset:-0x4 glc dlc", "SMEM", "s_load_b512",
     dict(op=4, sdata=16, sbase=110, offset=-4, soffset=7, glc=1, dlc=1)),
    ("s_dcache_inv", "SMEM", "s_dcache_inv", dict(op=33, sdata=0, sbase=0, offset=0, soffset=124)),
    ("s_gl1_inv", "SMEM", "s_gl1_inv", dict(op=32, sdata=0, sbase=0, offset=0, soffset=124)),
    # --- DS: offset0[7:0] offset1[15:8] gds[17] op[25:18]; addr data0 data1 vdst ---
    ("ds_store_b32 v1, v2 offset:16", "DS", "ds_store_b32",
     dict(op=13, addr=1, data0=2, offset0=16, offset=16)),
    ("ds_load_b32 v5, v3 offset:0x1234", "DS", "ds_load_b32",
     dict(op=54, vdst=5, addr=3, offset0=0x34, offset1=0x12, offset=0x1234)),
    ("ds_store_2addr_b32 v1, v2, v3 offset0:4 offset1:8", "DS", "ds_store_2addr_b32",
     dict(op=14, addr=1, data0=2, data1=3, offset0=4, offset1=8)),
    ("ds_load_2addr_b64 v[4:7], v9 offset0:1 offset1:255", "DS", "ds_load_2addr_b64",
     dict(op=119, vdst=4, addr=9, offset0=1, offset1=255)),
    ("ds_add_rtn_u32 v8, v1, v2 gds", "DS", "ds_add_rtn_u32",
     dict(op=32, vdst=8, addr=1, data0=2, gds=1, offset=0)),
    ("ds_cmpstore_b32 v1, v2, v3 offset:65535", "DS", "ds_cmpstore_b32",
     dict(op=16, addr=1, data0=2, data1=3, offset0=255, offset1=255, offset=65535)),
    # swizzle: and_mask[4:0] or_mask[9:5] xor_mask[14:10]; SWAP,16 = and 0x1f, xor 16
    ("ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)", "DS", "ds_swizzle_b32",
     dict(op=53, vdst=1, addr=2, offset0=0x1F, offset1=0x40, offset=0x1F | 16 << 10)),
    # --- MUBUF: offset[11:0] slc[12] dlc[13] glc[14] op[25:18];
    #     vaddr vdata srsrc[52:48]*4 tfe[53] offen[54] idxen[55] soffset[63:56] ---
    ("buffer_load_b32 v5, v1, s[8:11], s3 offen offset:4095 glc", "MUBUF", "buffer_load_b32",
     dict(op=20, vdata=5, vaddr=1, srsrc=8, soffset=3, offset=4095, offen=1, glc=1)),
    ("buffer_store_b64 v[2:3], v[4:5], s[12:15], 0 idxen offen slc dlc", "MUBUF",
     "buffer_store_b64",
     dict(op=27, vdata=2, vaddr=4, srsrc=12, soffset=128, idxen=1, offen=1, slc=1, dlc=1)),
    ("buffer_load_b32 v[1:2], off, s[4:7], m0 tfe", "MUBUF", "buffer_load_b32",
     dict(op=20, vdata=1, vaddr=0, srsrc=4, soffset=125, tfe=1)),
    ("buffer_atomic_add_u32 v1, v2, s[16:19], s5 idxen offset:8 glc", "MUBUF",
     "buffer_atomic_add_u32",
     dict(op=53, vdata=1, vaddr=2, srsrc=16, soffset=5, idxen=1, offset=8, glc=1)),
    ("buffer_load_b32 v0, off, ttmp[4:7], null", "MUBUF", "buffer_load_b32",
     dict(op=20, vdata=0, srsrc=112, soffset=124)),
    # --- MTBUF: op[18:15] format[25:19]; no format: llvm-mc's default 1 ---
    ("tbuffer_load_format_x v1, v2, s[4:7], s1 format:77 offen offset:12", "MTBUF",
     "tbuffer_load_format_x",
     dict(op=0, vdata=1, vaddr=2, srsrc=4, soffset=1, format=77, offen=1, offset=12)),
    ("tbuffer_store_format_xy v[6:7], off, s[8:11], -1 glc slc", "MTBUF",
     "tbuffer_store_format_xy",
     dict(op=5, vdata=6, srsrc=8, soffset=193, format=1, glc=1, slc=1)),
    # --- FLAT/GLOBAL/SCRATCH: offset[12:0] dlc[13] glc[14] slc[15] seg[17:16] op[24:18];
    #     addr data saddr[54:48] sve[55] vdst ---
    ("flat_load_b32 v1, v[2:3] offset:4095 glc", "FLAT", "flat_load_b32",
     dict(op=20, vdst=1, addr=2, saddr=124, offset=4095, seg=0, glc=1)),
    ("flat_store_b64 v[4:5], v[6:7] slc", "FLAT", "flat_store_b64",
     dict(op=27, addr=4, data=6, saddr=124, seg=0, slc=1)),
    ("flat_atomic_cmpswap_b32 v0, v[2:3], v[4:5] glc", "FLAT", "flat_atomic_cmpswap_b32",
     dict(op=52, vdst=0, addr=2, data=4, saddr=124, seg=0, glc=1)),
    ("global_load_b32 v5, v[2:3], off offset:-16", "GLOBAL", "global_load_b32",
     dict(op=20, vdst=5, addr=2, saddr=124, offset=-16, seg=2)),
    ("global_store_b32 v1, v2, s[4:5] offset:4095 dlc", "GLOBAL", "global_store_b32",
     dict(op=26, addr=1, data=2, saddr=4, offset=4095, seg=2, dlc=1)),
    ("global_load_b64 v[6:7], v0, s[10:11] offset:-4096", "GLOBAL", "global_load_b64",
     dict(op=21, vdst=6, addr=0, saddr=10, offset=-4096, seg=2)),
    ("global_atomic_add_u32 v3, v1, v2, s[2:3] glc", "GLOBAL", "global_atomic_add_u32",
     dict(op=53, vdst=3, addr=1, data=2, saddr=2, seg=2, glc=1)),
    ("scratch_load_b32 v1, v2, off offset:-1", "SCRATCH", "scratch_load_b32",
     dict(op=20, vdst=1, addr=2, saddr=124, offset=-1, seg=1, sve=1)),
    ("scratch_store_b32 off, v3, s5 offset:16", "SCRATCH", "scratch_store_b32",
     dict(op=26, data=3, saddr=5, offset=16, seg=1)),
    ("scratch_load_b128 v[0:3], off, s0 slc", "SCRATCH", "scratch_load_b128",
     dict(op=23, vdst=0, saddr=0, seg=1, slc=1)),
    # --- EXP: en[3:0] target[9:4] done[11] row[13]; vsrc0-3 ---
    ("exp mrt0 v0, v1, off, v3 done", "EXP", "exp",
     dict(target=0, en=0b1011, done=1, vsrc0=0, vsrc1=1, vsrc3=3)),
    ("exp pos0 v4, v5, v6, v7", "EXP", "exp",
     dict(target=12, en=0b1111, vsrc0=4, vsrc1=5, vsrc2=6, vsrc3=7)),
    ("exp mrtz off, off, v2, off row_en", "EXP", "exp", dict(target=8, en=0b0100, vsrc2=2, row=1)),
    ("exp prim v2, off, off, off done", "EXP", "exp", dict(target=20, en=1, vsrc0=2, done=1)),
]

_ZERO_DEFAULT = {"glc", "slc", "dlc", "tfe", "offen", "idxen", "gds", "sve", "done", "row",
                 "vdst", "addr", "data", "data0", "data1", "vdata", "vaddr", "offset0",
                 "offset1", "offset", "en", "vsrc0", "vsrc1", "vsrc2", "vsrc3"}


@cache
def _oracle() -> dict[str, bytes | None]:
    llvm_mc.require()
    return {e.line: e.data for e in llvm_mc.encode([c[0] for c in CASES])}


@pytest.mark.parametrize("line,enc,name,want", CASES, ids=[c[0] for c in CASES])
def test_fields(line: str, enc: str, name: str, want: dict[str, int]) -> None:
    data = _oracle()[line]
    assert data is not None, f"llvm-mc rejected {line!r}"
    d = decode_one(data, 0, CTX)
    assert d.size == len(data), (line, d.text)
    assert d.info is not None and d.info.name == name and d.info.enc == enc, (line, d.info)
    keys = set(KEYS[enc])
    if "literal" in want:
        keys.add("literal")
    if "branch_offset" in want:
        keys.add("branch_offset")
    if enc == "DS" and "offset" in want:
        keys.add("offset")
    assert set(d.fields) == keys, (line, sorted(d.fields))
    expect = {k: 0 for k in keys & _ZERO_DEFAULT}
    expect.update(want)
    got = {k: d.fields[k] for k in expect}
    assert got == expect, line


def test_fields_are_ints() -> None:
    for line, *_ in CASES:
        data = _oracle()[line]
        assert data is not None
        d = decode_one(data, 0, CTX)
        assert all(type(v) is int for v in d.fields.values()), line
