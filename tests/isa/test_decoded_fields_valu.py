"""`Decoded.fields` of VOP3, VOP3SD, VOP3P (incl. DPP16/DPP8), VOPD, VINTERP
and LDSDIR (docs/machine-layer.md, "Structured decoding").

The bytes come from llvm-mc-19; the expected fields are derived by hand from
the assembly line and the field layouts of the ISA guide (section 15): 9-bit
source codes (SGPR n = n, vcc_lo = 106, inline 0.5 = 240, 1.0 = 242,
literal = 255, VGPR n = 256 + n), modifier bit i = source i, etc.
"""

from __future__ import annotations

import pytest

from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

TARGET = get_target("gfx1100")


def v(n: int) -> int:
    """Source code of VGPR n."""
    return 256 + n


def _dpp8(sel: list[int]) -> int:
    """The 24-bit DPP8 selector field: LANE_SELi at bits [3i+2:3i] (15.3.9)."""
    return sum(s << (3 * i) for i, s in enumerate(sel))


def _dpp16(ctrl: int, row_mask: int = 0xF, bank_mask: int = 0xF, bound_ctrl: int = 0,
           fi: int = 0) -> dict[str, int]:
    """DPP16 keys; llvm-mc puts VOP3/VOP3P source modifiers in the VOP3 fields,
    so the DPP word's SRC*_NEG/ABS bits are zero here."""
    return {"dpp_ctrl": ctrl, "row_mask": row_mask, "bank_mask": bank_mask,
            "bound_ctrl": bound_ctrl, "fi": fi, "src0_neg": 0, "src0_abs": 0,
            "src1_neg": 0, "src1_abs": 0}


def _vop3(op: int, vdst: int, s0: int, s1: int = 0, s2: int = 0, *, abs_: int = 0,
          neg: int = 0, opsel: int = 0, clamp: int = 0, omod: int = 0,
          **extra: int) -> dict[str, int]:
    return {"op": op, "vdst": vdst, "src0": s0, "src1": s1, "src2": s2, "abs": abs_,
            "neg": neg, "opsel": opsel, "clamp": clamp, "omod": omod, **extra}


def _vop3sd(op: int, vdst: int, sdst: int, s0: int, s1: int, s2: int = 0, *, neg: int = 0,
            clamp: int = 0, omod: int = 0, **extra: int) -> dict[str, int]:
    return {"op": op, "vdst": vdst, "sdst": sdst, "src0": s0, "src1": s1, "src2": s2,
            "neg": neg, "clamp": clamp, "omod": omod, **extra}


def _vop3p(op: int, vdst: int, s0: int, s1: int, s2: int = 0, *, neg: int = 0,
           neg_hi: int = 0, opsel: int = 0, opsel_hi: int = 0b111, clamp: int = 0,
           **extra: int) -> dict[str, int]:
    return {"op": op, "vdst": vdst, "src0": s0, "src1": s1, "src2": s2, "neg": neg,
            "neg_hi": neg_hi, "opsel": opsel, "opsel_hi": opsel_hi, "clamp": clamp, **extra}


# (assembly, wave size, encoding of Decoded.info, expected fields)
CASES: list[tuple[str, int, str, dict[str, int]]] = [
    # --- VOP3 (15.3.4): V_FMA_F32 = 531, VOP2 e64 = 256 + op, VOPC e64 = op
    ("v_fma_f32 v1, -v2, |s3|, 0.5 clamp", 32, "VOP3",
     _vop3(531, 1, v(2), 3, 240, neg=0b001, abs_=0b010, clamp=1)),
    ("v_add_f32_e64 v5, v1, 1.0 mul:2", 32, "VOP3",
     _vop3(256 + 3, 5, v(1), 242, omod=1)),
    ("v_fma_f32 v1, v2, 0x12345678, v3 div:2", 32, "VOP3",
     _vop3(531, 1, v(2), 255, v(3), omod=3, literal=0x12345678)),
    ("v_fma_f16 v1, v2, v3, v4 op_sel:[1,0,1,1]", 32, "VOP3",
     _vop3(584, 1, v(2), v(3), v(4), opsel=0b1101)),
    ("v_cmp_lt_f32_e64 s4, -v1, v2", 32, "VOP3",  # SDST in the VDST field
     _vop3(17, 4, v(1), v(2), neg=0b001)),
    ("v_cmp_lt_f32_e64 s[4:5], v1, |v2|", 64, "VOP3",
     _vop3(17, 4, v(1), v(2), abs_=0b010)),
    ("v_readlane_b32 s5, v1, s2", 32, "VOP3", _vop3(864, 5, v(1), 2)),
    ("v_fma_f32_e64_dpp v1, -v2, |v3|, v4 row_shl:1 row_mask:0xa bank_mask:0x5"
     " bound_ctrl:1 fi:1", 32, "VOP3",
     _vop3(531, 1, v(2), v(3), v(4), neg=0b001, abs_=0b010,
           **_dpp16(0x101, 0xA, 0x5, bound_ctrl=1, fi=1))),  # row_shl:1 = 0x101
    ("v_add_f32_e64_dpp v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0] fi:1", 32, "VOP3",
     _vop3(256 + 3, 1, v(2), v(3), dpp8=_dpp8([7, 6, 5, 4, 3, 2, 1, 0]), fi=1)),
    ("v_mul_f32_e64_dpp v7, v8, -v9 dpp8:[0,0,0,0,1,1,1,1]", 32, "VOP3",
     _vop3(256 + 8, 7, v(8), v(9), neg=0b010, dpp8=_dpp8([0, 0, 0, 0, 1, 1, 1, 1]), fi=0)),
    # --- VOP3SD (15.3.5): V_ADD_CO_U32 = 768, V_DIV_SCALE_F32 = 764,
    # V_MAD_U64_U32 = 766, V_ADD_CO_CI_U32 e64 = 256 + 32
    ("v_add_co_u32 v1, s5, v2, v3", 32, "VOP3SD", _vop3sd(768, 1, 5, v(2), v(3))),
    ("v_add_co_u32 v1, s[6:7], v2, v3 clamp", 64, "VOP3SD",
     _vop3sd(768, 1, 6, v(2), v(3), clamp=1)),
    ("v_div_scale_f32 v1, vcc_lo, -v2, v3, 1.0", 32, "VOP3SD",
     _vop3sd(764, 1, 106, v(2), v(3), 242, neg=0b001)),
    ("v_mad_u64_u32 v[2:3], s6, v4, s10, v[8:9]", 32, "VOP3SD",
     _vop3sd(766, 2, 6, v(4), 10, v(8))),
    ("v_add_co_ci_u32_e64 v1, s3, v2, 0x1234, s4", 32, "VOP3SD",
     _vop3sd(288, 1, 3, v(2), 255, 4, literal=0x1234)),
    ("v_add_co_ci_u32_e64_dpp v1, s3, v2, v3, s4 quad_perm:[1,0,3,2] row_mask:0xf"
     " bank_mask:0xf", 32, "VOP3SD",
     _vop3sd(288, 1, 3, v(2), v(3), 4, **_dpp16(1 | 0 << 2 | 3 << 4 | 2 << 6))),
    # --- VOP3P (15.3.6): V_PK_FMA_F16 = 14, V_PK_ADD_F16 = 15,
    # V_DOT2_F32_F16 = 19, V_FMA_MIX_F32 = 32
    ("v_pk_fma_f16 v1, v2, v3, v4 op_sel:[1,0,1] op_sel_hi:[0,1,1] neg_lo:[1,0,0]"
     " neg_hi:[0,0,1] clamp", 32, "VOP3P",
     _vop3p(14, 1, v(2), v(3), v(4), opsel=0b101, opsel_hi=0b110, neg=0b001,
            neg_hi=0b100, clamp=1)),
    # two sources: default op_sel_hi [1,1]; llvm-mc also sets the unused src2 bit
    ("v_pk_add_f16 v1, v2, s3", 32, "VOP3P", _vop3p(15, 1, v(2), 3, opsel_hi=0b111)),
    ("v_pk_add_f16 v1, v2, s3 op_sel_hi:[0,1]", 32, "VOP3P",
     _vop3p(15, 1, v(2), 3, opsel_hi=0b110)),
    # mix: -x is NEG, |x| is NEG_HI; op_sel_hi defaults to zeros
    ("v_fma_mix_f32 v1, -v2, |v3|, v4 op_sel:[0,0,1] op_sel_hi:[1,1,0]", 32, "VOP3P",
     _vop3p(32, 1, v(2), v(3), v(4), neg=0b001, neg_hi=0b010, opsel=0b100,
            opsel_hi=0b011)),
    ("v_dot2_f32_f16 v1, v2, v3, 0x40490fdb", 32, "VOP3P",
     _vop3p(19, 1, v(2), v(3), 255, literal=0x40490FDB)),
    ("v_dot2_f32_f16_e64_dpp v0, v1, v2, v3 neg_lo:[1,1,0] row_mirror row_mask:0x3"
     " bank_mask:0xc", 32, "VOP3P",
     _vop3p(19, 0, v(1), v(2), v(3), neg=0b011, **_dpp16(0x140, 0x3, 0xC))),
    ("v_fma_mix_f32_e64_dpp v0, -v1, v2, |v3| op_sel_hi:[1,0,0] dpp8:[1,2,3,4,5,6,7,0]",
     32, "VOP3P",
     _vop3p(32, 0, v(1), v(2), v(3), neg=0b001, neg_hi=0b100, opsel_hi=0b001,
            dpp8=_dpp8([1, 2, 3, 4, 5, 6, 7, 0]), fi=0)),
    ("v_fma_mix_f32_e64_dpp v0, v1, v2, v3 dpp8:[7,7,7,7,7,7,7,7] fi:1", 32, "VOP3P",
     _vop3p(32, 0, v(1), v(2), v(3), opsel_hi=0, dpp8=_dpp8([7] * 8), fi=1)),
    # --- VOPD (15.3.7): X MUL_F32 = 3, ADD_F32 = 4, FMAAK_F32 = 1;
    # Y ADD_F32 = 4, MOV_B32 = 8, CNDMASK_B32 = 9; vdsty LSB = !vdstx[0]
    ("v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, s4, v5", 32, "VOPD",
     {"opx": 3, "opy": 4, "vdstx": 0, "vdsty": 3, "src0x": v(1), "vsrc1x": 2,
      "src0y": 4, "vsrc1y": 5}),
    ("v_dual_fmaak_f32 v6, v1, v2, 0x41200000 :: v_dual_mov_b32 v7, v4", 32, "VOPD",
     {"opx": 1, "opy": 8, "vdstx": 6, "vdsty": 7, "src0x": v(1), "vsrc1x": 2,
      "src0y": v(4), "vsrc1y": 0, "literal": 0x41200000}),
    ("v_dual_add_f32 v5, v1, v2 :: v_dual_cndmask_b32 v8, v3, v7", 32, "VOPD",
     {"opx": 4, "opy": 9, "vdstx": 5, "vdsty": 8, "src0x": v(1), "vsrc1x": 2,
      "src0y": v(3), "vsrc1y": 7}),
    ("v_dual_mov_b32 v255, 0x3e800000 :: v_dual_mov_b32 v254, 1.0", 32, "VOPD",
     {"opx": 8, "opy": 8, "vdstx": 255, "vdsty": 254, "src0x": 255, "vsrc1x": 0,
      "src0y": 242, "vsrc1y": 0, "literal": 0x3E800000}),
    # --- VINTERP (15.4.1): V_INTERP_P2_F32 = 1, V_INTERP_P10_F16_F32 = 2
    ("v_interp_p10_f16_f32 v1, v2, -v3, v4 op_sel:[1,0,1,1] wait_exp:7", 32, "VINTERP",
     {"op": 2, "vdst": 1, "src0": v(2), "src1": v(3), "src2": v(4), "neg": 0b010,
      "opsel": 0b1101, "clamp": 0, "wait_exp": 7}),
    ("v_interp_p2_f32 v5, -v2, v3, -v4 clamp wait_exp:2", 32, "VINTERP",
     {"op": 1, "vdst": 5, "src0": v(2), "src1": v(3), "src2": v(4), "neg": 0b101,
      "opsel": 0, "clamp": 1, "wait_exp": 2}),
    # --- LDSDIR (15.5.1): attr .y = 1, .w = 3. `op` is the raw OP [21:20]
    # field. NB the guide's table says 0 = LDS_DIRECT_LOAD, 1 = LDS_PARAM_LOAD,
    # but llvm-mc (LDSDIRInstructions.td: DSDIR_Real_gfx11<0x0> is
    # LDS_PARAM_LOAD, <0x1> LDS_DIRECT_LOAD) encodes param = 0, direct = 1
    ("lds_param_load v1, attr2.y wait_vdst:3", 32, "LDSDIR",
     {"op": 0, "vdst": 1, "attr": 2, "attr_chan": 1, "wait_vdst": 3}),
    ("lds_param_load v200, attr32.w wait_vdst:0", 32, "LDSDIR",
     {"op": 0, "vdst": 200, "attr": 32, "attr_chan": 3, "wait_vdst": 0}),
    ("lds_direct_load v7 wait_vdst:15", 32, "LDSDIR",
     {"op": 1, "vdst": 7, "wait_vdst": 15}),
]


@pytest.fixture(scope="module")
def encoded() -> dict[tuple[str, int], llvm_mc.McEncoding]:
    llvm_mc.require()
    out = {}
    for wave in (32, 64):
        lines = [c[0] for c in CASES if c[1] == wave]
        for r in llvm_mc.encode(lines, wave64=wave == 64):
            out[(r.line, wave)] = r
    return out


@pytest.mark.parametrize(("line", "wave", "enc", "want"), CASES, ids=[c[0] for c in CASES])
def test_fields(encoded, line: str, wave: int, enc: str, want: dict[str, int]) -> None:
    r = encoded[(line, wave)]
    assert r.data is not None, r.error
    ctx = Context(TARGET, get_table(TARGET.gfx_level), wave)
    d = decode_one(r.data, 0, ctx)
    assert d.size == len(r.data)
    assert d.text == r.text
    assert d.info is not None and d.info.enc == enc
    assert d.fields == want


def test_fields_not_shared_between_decodes() -> None:
    """Each decode returns its own dict (the emulator may cache Decoded)."""
    ctx = Context(TARGET, get_table(TARGET.gfx_level), 32)
    data = bytes.fromhex("018213d60207c023")  # v_fma_f32 v1, -v2, |s3|, 0.5 clamp
    a = decode_one(data, 0, ctx)
    b = decode_one(data, 0, ctx)
    assert a.fields == b.fields and a.fields is not b.fields
