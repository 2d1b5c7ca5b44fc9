"""Memory-format assembly syntax vs llvm-mc-19: aliases, symbolic swizzles,
formats, out-of-range offsets, wrong register sizes, glc/return rules, exp.
Every line must be accepted/rejected exactly as llvm-mc does, with the same
bytes and canonical text when accepted.
"""

from __future__ import annotations

import pytest

from radcc.isa.assembler import assemble
from radcc.oracle import llvm_mc
from radcc.target import get_target

TARGET = get_target("gfx1100")

LINES = """
ds_write_b32 v1, v2 offset:4
ds_read2_b32 v[1:2], v3 offset0:1 offset1:2
ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)
ds_swizzle_b32 v1, v2 offset:swizzle(REVERSE,8)
ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,4,3)
ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,"pi01p")
ds_swizzle_b32 v1, v2 offset:swizzle(QUAD_PERM,4,1,2,3)
ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,3,1)
ds_add_u32 v1, v2 offset:65536
ds_write2_b32 v1, v2, v3 offset0:256
ds_add_u32 v1, v[2:3]
ds_add_u32 v1, s2
ds_add_u32 v256, v2
ds_load_b64 v[1:2], v3 offset:8 gds
ds_bvh_stack_rtn_b32 v1, v2, v3, v[4:7] gds
buffer_load_dword v1, off, s[4:7], s1 offset:4095
buffer_load_b32 v1, off, s[4:7], s1 offset:4096
buffer_load_b32 v1, v2, s[4:7], s1
buffer_load_b32 v1, off, s[4:7], 0x1234
buffer_load_b32 v1, off, s[4:7], v1
buffer_load_b64 v[1:3], off, s[4:7], s1
buffer_load_b32 v1, off, s[4:7], s1 tfe
buffer_load_b32 v[1:2], off, s[4:7], s1 tfe
buffer_load_b32 v1, off, s[4:7], s1 addr64
buffer_atomic_add v1, off, s[4:7], s1 tfe
tbuffer_load_format_x v1, off, s[4:7], s1 format:128
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_FMT_FOO]
global_load_dword v1, v[2:3], off offset:-4097
global_load_b32 v1, v[2:3], s[2:3]
global_load_b32 v1, v2, s[3:4]
global_load_b32 v1, v2, off
scratch_load_b32 v1, v[2:3], off
scratch_store_b32 off, v1, s1 offset:4095
flat_load_b32 v1, v[2:3], off
flat_atomic_add v1, v[2:3], v4
flat_atomic_add v1, v[2:3], v4 glc slc
global_atomic_cmpswap_x2 v[1:2], v[3:4], v[5:8], off glc
exp mrt0 v1, v2, v3 done
exp foo v1, v2, v3, v4
exp mrt0 v1, v2, v3, s4
exp mrt0 v1, v2, v3, v4 done row_en
buffer_load_b32 v1, v2, s[4:7], s1 offen offset:4097 glc
tbuffer_load_format_x v1, off, s[4:7], s1 offset:4097
buffer_load_b32 v1, v2, s[4:7], s1 offen offset:8192 glc
tbuffer_load_format_x v1, off, s[4:7], s1 offset:8192
ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,32,31)
ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,1)
ds_swizzle_b32 v1, v2 offset:0x8055
ds_swizzle_b32 v1, v2 offset:0x7fff
ds_gws_init v1 gds
ds_gws_barrier v1 offset:4 gds
ds_append v1 offset:8
ds_nop
ds_load_b96 v[1:3], v4 offset:12
ds_store_b128 v1, v[2:5] gds
buffer_gl0_inv
buffer_gl1_inv
buffer_load_lds_b32 off, s[4:7], s0 offset:4
buffer_store_b128 v[1:4], v[5:6], s[8:11], m0 idxen offen offset:12 glc slc dlc
buffer_atomic_cmpswap_b64 v[2:5], v6, s[8:11], -1 idxen glc
tbuffer_store_format_xyzw v[1:4], v5, ttmp[4:7], null format:[BUF_FMT_32_32_32_32_FLOAT] offen
tbuffer_load_format_xy v[1:3], off, s[4:7], 0.5 format:77 tfe
tbuffer_load_d16_format_x v4, off, s[12:15], s101, format:[BUF_FMT_8_SNORM] offset:4095
tbuffer_load_d16_format_x v255, off, s[8:11], s3, format:1 offset:4095
tbuffer_load_format_x v4, off, s[12:15], s3, format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_SINT]
tbuffer_load_format_x v4, off, s[8:11], s3, format:[BUF_NUM_FORMAT_UNORM, BUF_DATA_FORMAT_16]
tbuffer_load_format_x v4, off, s[8:11], s3, format:[BUF_DATA_FORMAT_16]
tbuffer_load_format_x v4, off, s[8:11], s3, format:[BUF_NUM_FORMAT_SINT]
tbuffer_load_format_x v4, off, s[8:11], s3, format:[BUF_DATA_FORMAT_INVALID]
tbuffer_load_format_x v4, off, s[8:11], s3, format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_SNORM]
tbuffer_load_format_x v4, off, s[8:11], s3, format:[BUF_DATA_FORMAT_8, BUF_DATA_FORMAT_16]
tbuffer_load_format_x v4, off, s[8:11], s3, format:[BUF_FMT_8_UNORM, BUF_NUM_FORMAT_SINT]
tbuffer_load_format_x v4, off, s[8:11], format:22, s3 offset:4095
tbuffer_load_format_x v4, off, s[8:11], format:3 s3 glc
tbuffer_load_format_x v4, off, s[8:11], format:[BUF_FMT_32_FLOAT], s3 offset:4095
tbuffer_load_format_x v4, off, format:3, s[8:11], s3
tbuffer_load_format_x v4, off, s[8:11], format:3, s3, format:3
tbuffer_load_format_x v4, off, s[8:11], s3, offset:4095 format:3
tbuffer_load_format_x v4, off, s[8:11], s3, format:3, offset:4095, glc
tbuffer_load_format_x v4, off, s[8:11], s3 format:3,
buffer_load_b32 v5, off, s[8:11], s3, offset:4095
buffer_load_b32 v5, v1, s[8:11], s3, offen, offset:4095, glc
buffer_load_b32 v5, off, s[8:11], format:3, s3, offset:4095
ds_add_u32 v1, v2, offset:4
global_load_b32 v1, v[2:3], off, offset:4
image_bvh_intersect_ray v[4:7], v[9:19], s[4:7] noa16
image_bvh_intersect_ray v[39:42], [v50, v46, v[20:22], v[40:42], v[47:49]], s[12:15] noa16
image_bvh_intersect_ray v[4:7], v[9:19], s[4:7] noglc
image_bvh_intersect_ray v[4:7], v[9:16], s[4:7] a16 noa16
image_load v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D nounorm
image_load v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D nor128 noa16 notfe nolwe nod16
image_load v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D noa16 nor128
image_load v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D noglc nounorm
buffer_load_b32 v5, off, s[8:11], s3 noglc noslc nodlc
buffer_load_b32 v5, off, s[8:11], s3 noglc noglc
buffer_load_b32 v5, off, s[8:11], s3 glc noglc
buffer_load_b32 v5, off, s[8:11], s3 notfe
buffer_load_b32 v5, v0, s[8:11], s3 nooffen
global_load_b32 v1, v[2:3], off noglc
s_load_b32 s0, s[2:3], 0x0 noslc
ds_add_u32 v1, v2 nogds
ds_add_u32 v1, v2 gds nogds
exp mrt0 v0, v0, v0, v0 nodone
scratch_load_b128 v[1:4], v5, s2 offset:-16 glc
scratch_store_b8 v1, v2, off offset:-4096
global_load_addtid_b32 v1, s[2:3] offset:16
global_store_addtid_b32 v1, off
global_atomic_add_f32 v1, v[2:3], v4, off glc
global_atomic_add_f32 v[2:3], v4, off
global_load_b32 v1, v2, exec offset:-1
flat_atomic_cmpswap_b64 v[1:2], v[3:4], v[5:8] glc
flat_store_b96 v[1:2], v[3:5] offset:64 dlc
exp pos4 v1, off, off, v2 done
exp dual_src_blend1 v1, v2, v3, v4
exp mrtz off, off, off, off
exp prim v1, off, off, off row_en
"""

_LINES = [ln for ln in LINES.split("\n") if ln.strip()]


@pytest.fixture(scope="module")
def ref() -> list[llvm_mc.McEncoding]:
    llvm_mc.require()
    return llvm_mc.encode(_LINES)


@pytest.mark.parametrize("i", range(len(_LINES)))
def test_line(i: int, ref: list[llvm_mc.McEncoding]) -> None:
    line, r = _LINES[i], ref[i]
    a = assemble(line, TARGET)
    if r.text is None:
        assert not a.ok, f"radcc accepts {line!r}; llvm-mc: {r.error}"
        assert all(d.col >= 1 for d in a.diagnostics)
        return
    assert a.ok, f"{line!r}: {a.diagnostics[0]}"
    st = [s for s in a.statements if s.kind == "inst"][0]
    assert (st.text, st.data) == (r.text, r.data)


_DFMTS = ["INVALID", "8", "16", "8_8", "32", "16_16", "10_11_11", "11_11_10", "10_10_10_2",
          "2_10_10_10", "8_8_8_8", "32_32", "16_16_16_16", "32_32_32", "32_32_32_32",
          "RESERVED_15"]
_NFMTS = ["UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "RESERVED_6", "FLOAT"]


def test_split_dfmt_nfmt_formats_like_llvm_mc() -> None:
    """format:[BUF_DATA_FORMAT_*, BUF_NUM_FORMAT_*] for every pair, both orders."""
    llvm_mc.require()
    lines = []
    for d in _DFMTS:
        for n in _NFMTS:
            lines.append(f"tbuffer_load_format_x v1, off, s[4:7], s1 "
                         f"format:[BUF_DATA_FORMAT_{d}, BUF_NUM_FORMAT_{n}]")
            lines.append(f"tbuffer_store_format_x v1, off, s[4:7], s1, "
                         f"format:[BUF_NUM_FORMAT_{n}, BUF_DATA_FORMAT_{d}]")
        lines.append(f"tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_{d}]")
    lines += [f"tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_NUM_FORMAT_{n}]"
              for n in _NFMTS]
    bad = []
    for line, r in zip(lines, llvm_mc.encode(lines), strict=True):
        a = assemble(line, TARGET)
        st = [s for s in a.statements if s.kind == "inst"]
        got = (st[0].text, st[0].data) if a.ok and st else None
        if got != ((r.text, r.data) if r.text is not None else None):
            bad.append((line, got, r.text))
    assert not bad, bad[:5]
