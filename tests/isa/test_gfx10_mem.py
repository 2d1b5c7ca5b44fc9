"""GFX10.1 (gfx1010) and GFX10.3 (gfx1030) memory encodings vs llvm-mc-19.

DS, MUBUF/MTBUF, FLAT/GLOBAL/SCRATCH, MIMG and EXP as llvm-mc-19
-mcpu=gfx1010 / gfx1030 assemble and print them. Expectations all come from
llvm-mc: per-opcode words (field positions from the RDNA1/RDNA2 microcode
formats, written out here), random words with each format's fixed bits,
assembly lines (accepted with the same bytes and text, or rejected), and
garbage that must decode to data without raising.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest

from radcc.isa.assembler import assemble
from radcc.isa.disassembler import decode_one, disassemble
from radcc.isa.formats.base import Context
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

CPUS = ("gfx1010", "gfx1030")
DATA = Path(__file__).resolve().parents[2] / "radcc/isa/data"
DIRS = {"gfx1010": "gfx10", "gfx1030": "gfx10_3"}
ENCS = {"DS": 0b110110, "MUBUF": 0b111000, "MTBUF": 0b111010, "FLAT": 0b110111,
        "MIMG": 0b111100, "EXP": 0b111110}


def _ctx(cpu: str) -> Context:
    t = get_target(cpu)
    return Context(t, get_table(t.gfx_level), 32)


def _b(*ws: int) -> bytes:
    return b"".join(w.to_bytes(4, "little") for w in ws)


@cache
def _table(cpu: str) -> list[dict]:
    d = DATA / DIRS[cpu]
    return (json.loads((d / "memory.json").read_text())["opcodes"]
            + json.loads((d / "mimg.json").read_text())["opcodes"])


def _words(e: dict) -> list[bytes]:
    """Words of one table entry with marker registers and each modifier bit
    (RDNA1/RDNA2 guide field positions)."""
    enc, op = e["enc"], e["opcode"]
    out: list[bytes] = []
    if enc == "DS":
        base = (ENCS["DS"] << 26) | (op << 18) | (int(e.get("gds_required", False)) << 17)
        hi = 0
        for o, v in zip(e["operands"], (7, 13, 19, 33), strict=False):
            hi |= v << {"addr": 0, "data0": 8, "data1": 16, "vdst": 24}[o["name"]]
        for lo in (0, 0x10, 0x0304, 0xFFFF, 0x8055, 1 << 17):
            out.append(_b(base | lo, hi))
    elif enc == "MUBUF":
        base = (ENCS[enc] << 26) | ((op & 0x7F) << 18) | ((op >> 7) << 25)
        for w0x, w1x in ((0, 0), (0x7FF | 1 << 12, 0), (1 << 13 | 1 << 14, 0),
                         (3 << 12 | 1 << 15, 1 << 22), (0, 1 << 23), (1 << 16, 0),
                         (1 << 16 | 1 << 12, 0), (0, 0x7C << 24), (0, 0x7D << 24)):
            out.append(_b(base | w0x, 5 | (9 << 8) | (3 << 16) | (4 << 24) | w1x))
    elif enc == "MTBUF":
        base = (ENCS[enc] << 26) | ((op & 7) << 16)
        hi = ((op >> 3) << 21) | 5 | (9 << 8) | (3 << 16) | (4 << 24)
        for w0x, w1x in ((1 << 19, 0), (22 << 19 | 1 << 12 | 0x10, 0),
                         (77 << 19 | 3 << 12 | 1 << 14 | 1 << 15, 1 << 22),
                         (0, 1 << 23), (127 << 19, 0)):
            out.append(_b(base | w0x, hi | w1x))
    elif enc in ("FLAT", "GLOBAL", "SCRATCH"):
        seg = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}[enc]
        base = (ENCS["FLAT"] << 26) | (op << 18) | (seg << 14)
        for saddr in (0x7D, 4, 0x7F, 0x7C):
            for w0x in (0, 0x7FF, 0xFFF | 1 << 16, 1 << 17 | 1 << 12 | 0x800):
                out.append(_b(base | w0x, 6 | (12 << 8) | (saddr << 16) | (20 << 24)))
    elif enc == "MIMG":
        ss = 4 if any(o["name"] == "ssamp" for o in e["operands"]) else 0
        for dim, dmask, nsa, f0, f1 in ((1, 1, 0, 0, 0), (2, 15, 0, 1 << 16, 0),
                                        (1, 3, 1, 1 << 13 | 1 << 25 | 1 << 7, 1 << 31),
                                        (0, 15, 0, 1 << 12 | 1 << 15, 1 << 30),
                                        (5, 2, 2, 1 << 17, 0), (2, 1, 3, 0, 0)):
            w0 = ((op >> 7) | nsa << 1 | dim << 3 | dmask << 8 | (op & 0x7F) << 18
                  | ENCS["MIMG"] << 26 | f0)
            w1 = 10 | 20 << 8 | 2 << 16 | ss << 21 | f1
            out.append(_b(w0, w1, *([0x3C32281E + 0x01010101 * i for i in range(nsa)])))
    elif enc == "EXP":
        for w0x in (0xF | 12 << 4 | 1 << 11, 0x5 | 1 << 10 | 1 << 12, 0x3 | 9 << 4,
                    0x8 | 40 << 4 | 1 << 10, 0x1 | 20 << 4 | 1 << 13, 0x2 | 10 << 4):
            out.append(_b(ENCS["EXP"] << 26 | w0x, 0x04030201))
    return out


def _decode_text(b: bytes, ctx: Context) -> str | None:
    d = decode_one(b, 0, ctx)
    if d.size != len(b) or d.text.startswith((".long", ".byte")):
        return None
    return d.text


@pytest.mark.parametrize("cpu", CPUS)
def test_tables_have_gfx10_names_and_classes(cpu: str) -> None:
    """Spot checks of the probed table (names and classes llvm-mc uses)."""
    t = get_table(get_target(cpu).gfx_level)
    for name, enc, cls in (("global_load_dword", "GLOBAL", "vmem"),
                           ("buffer_store_dwordx4", "MUBUF", "vmem"),
                           ("ds_write_b32", "DS", "ds"), ("ds_read_b64", "DS", "ds"),
                           ("ds_write2_b32", "DS", "ds"), ("flat_atomic_cmpswap", "FLAT", "flat"),
                           ("scratch_load_dword", "SCRATCH", "vmem"),
                           ("tbuffer_load_format_xyzw", "MTBUF", "vmem"),
                           ("image_sample", "MIMG", "vmem"), ("exp", "EXP", "exp")):
        assert t.lookup(name, enc).cls == cls
    assert ("buffer_atomic_csub" in t.by_name) == (cpu == "gfx1030")
    assert ("image_bvh_intersect_ray" in t.by_name) == (cpu == "gfx1030")


@pytest.mark.parametrize("cpu", CPUS)
def test_every_opcode_decodes_and_reassembles_like_llvm_mc(cpu: str) -> None:
    llvm_mc.require()
    ctx = _ctx(cpu)
    target = get_target(cpu)
    blobs = [w for e in _table(cpu) for w in _words(e)]
    ref = llvm_mc.decode(blobs, mcpu=cpu)
    assert sum(r is not None for r in ref) > len(blobs) // 2
    bad = [(b.hex(), _decode_text(b, ctx), r) for b, r in zip(blobs, ref, strict=True)
           if _decode_text(b, ctx) != r]
    assert not bad, f"{len(bad)} of {len(blobs)} differ, e.g. {bad[:3]}"
    lines = sorted({r for r in ref if r is not None})
    enc = llvm_mc.encode(lines, mcpu=cpu)
    wrong = []
    for line, r in zip(lines, enc, strict=True):
        if r.data is None:
            continue  # printed text llvm-mc does not take back (e.g. ignored fields)
        a = assemble(line, target)
        st = [s for s in a.statements if s.kind == "inst"] if a.ok else []
        if not st or (st[0].data, st[0].text) != (r.data, r.text):
            wrong.append((line, a.diagnostics[:1], r.text))
    assert not wrong, f"{len(wrong)} of {len(lines)} lines differ, e.g. {wrong[:3]}"


@pytest.mark.parametrize("cpu", CPUS)
def test_every_mimg_opcode_nsa_dword_count_like_llvm_mc(cpu: str) -> None:
    """Every MIMG opcode x 1-3 NSA dwords x dim x a16 (RDNA1/RDNA2 MIMG
    format: NSA [2:1], DIM [5:3], A16 [62]): llvm-mc's address lists (needed
    ones, the first 1 + 4 * count, the default variant's) or data; the lines
    llvm-mc takes back reassemble to its bytes and text."""
    llvm_mc.require()
    ctx = _ctx(cpu)
    rng = random.Random(31)
    blobs = []
    for e in _table(cpu):
        if e["enc"] != "MIMG":
            continue
        op = e["opcode"]
        ss = 4 if any(o["name"] == "ssamp" for o in e["operands"]) else 0
        for ndw in (1, 2, 3):
            for dim in range(8):
                for a16 in (0, 1):
                    w0 = ((op >> 7) | ndw << 1 | dim << 3 | rng.choice((1, 3, 7, 15)) << 8
                          | (op & 0x7F) << 18 | ENCS["MIMG"] << 26)
                    w1 = 10 | 20 << 8 | 2 << 16 | ss << 21 | a16 << 30
                    blobs.append(_b(w0, w1, *(0x04030201 + 0x04040404 * i for i in range(ndw))))
    ref = llvm_mc.decode(blobs, mcpu=cpu)
    assert sum(r is not None for r in ref) > len(blobs) // 4
    bad = [(b.hex(), _decode_text(b, ctx), r) for b, r in zip(blobs, ref, strict=True)
           if _decode_text(b, ctx) != r]
    assert not bad, f"{len(bad)} of {len(blobs)} differ, e.g. {bad[:3]}"
    lines = sorted({r for r in ref if r is not None and "get_resinfo" in r})
    lines += sorted({r for r in ref if r is not None})[::25]
    target = get_target(cpu)
    wrong = []
    for line, r in zip(lines, llvm_mc.encode(lines, mcpu=cpu), strict=True):
        a = assemble(line, target)
        st = [s for s in a.statements if s.kind == "inst"] if a.ok else []
        got = (st[0].data, st[0].text) if st else None
        if got != ((r.data, r.text) if r.data is not None else None):
            wrong.append((line, got or a.diagnostics[:1], r.text))
    assert not wrong, f"{len(wrong)} of {len(lines)} lines differ, e.g. {wrong[:3]}"


@pytest.mark.parametrize("cpu", (*CPUS, "gfx1100"))
def test_image_atomic_data_sizes_like_llvm_mc(cpu: str) -> None:
    """Image atomics: every VDATA size x dmask x tfe is accepted or rejected
    as llvm-mc does (its 3-VGPR dmask:0x3 tfe and 5-VGPR dmask:0xf tfe forms),
    with its text; GFX11 too."""
    llvm_mc.require()
    target = get_target(cpu)
    lines = []
    for op in ("image_atomic_add", "image_atomic_cmpswap", "image_atomic_umax"):
        for n in range(1, 7):
            v = "v4" if n == 1 else f"v[4:{3 + n}]"
            for dmask in range(16):
                for tfe in ("", " tfe"):
                    lines.append(f"{op} {v}, v[10:11], s[16:23] dmask:0x{dmask:x} "
                                 f"dim:SQ_RSRC_IMG_2D{tfe}")
    ref = llvm_mc.encode(lines, mcpu=cpu)
    assert sum(r.data is not None for r in ref) >= 15
    wrong = []
    for line, r in zip(lines, ref, strict=True):
        a = assemble(line, target)
        st = [s for s in a.statements if s.kind == "inst"] if a.ok else []
        got = (st[0].data, st[0].text) if st else None
        if got != ((r.data, r.text) if r.data is not None else None):
            wrong.append((line, got or a.diagnostics[:1], r.text))
    assert not wrong, f"{len(wrong)} of {len(lines)} differ, e.g. {wrong[:3]}"


def _random_blobs(seed: int, n: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for fam, e in ENCS.items():
        for _ in range(n):
            w0 = rng.getrandbits(26) | e << 26
            w1 = rng.getrandbits(32)
            if fam == "FLAT":
                saddr = rng.choice([0x7D, 0x7C, 0x7F, 4, 0x6A, rng.getrandbits(7)])
                w1 = (w1 & ~(0x7F << 16)) | saddr << 16
                if rng.random() < 0.8:
                    w1 &= ~(1 << 23)
                    w0 &= ~(1 << 13)
            if fam in ("MUBUF", "MTBUF") and rng.random() < 0.7:
                w1 = (w1 & ~(0xFF << 24)) | rng.choice([1, 0x7C, 0x7D, 0x80, 0xF0]) << 24
                w1 = (w1 & ~(0x1F << 16)) | rng.getrandbits(3) << 16
            if fam == "MIMG" and rng.random() < 0.7:
                w0 &= ~0x3000001
                w1 &= ~(0x3FF << 16)
                w1 = (w1 & ~0xFFFF) | rng.getrandbits(7) | rng.getrandbits(7) << 8
            if fam == "EXP" and rng.random() < 0.7:
                w0 &= ~0x3FFC000
            b = _b(w0, w1)
            if fam == "MIMG":
                b += bytes(rng.getrandbits(7) for _ in range(4 * ((w0 >> 1) & 3)))
            out.append(b)
    return out


@pytest.mark.parametrize("cpu", CPUS)
def test_global_scratch_lds_words_decode_like_llvm_mc(cpu: str) -> None:
    """GLOBAL/SCRATCH words with LDS [13] set (RDNA1/RDNA2 FLAT format): the
    load-to-LDS forms of the loads that have one, data for the rest."""
    llvm_mc.require()
    ctx = _ctx(cpu)
    rng = random.Random(23)
    blobs = []
    for seg in (1, 2):
        for op in range(8, 24):
            for saddr in (0x7D, 0x7F, 0x7C, 4, 5, 0x6A, 0x7E, 0x7B, 0x7A):
                w0 = (ENCS["FLAT"] << 26 | op << 18 | seg << 14 | 1 << 13
                      | rng.getrandbits(13) & 0x1FFF | rng.getrandbits(1) << 16
                      | rng.getrandbits(1) << 17)
                blobs.append(_b(w0, rng.getrandbits(8) | rng.getrandbits(8) << 8
                                | saddr << 16 | rng.getrandbits(8) << 24))
    ref = llvm_mc.decode(blobs, mcpu=cpu)
    assert sum(r is not None and r.endswith(" lds") for r in ref) >= 60
    bad = [(b.hex(), _decode_text(b, ctx), r) for b, r in zip(blobs, ref, strict=True)
           if _decode_text(b, ctx) != r]
    assert not bad, f"{len(bad)} of {len(blobs)} differ: {bad[:4]}"


@pytest.mark.parametrize("cpu", CPUS)
def test_random_words_decode_like_llvm_mc(cpu: str) -> None:
    llvm_mc.require()
    ctx = _ctx(cpu)
    blobs = _random_blobs(11 if cpu == "gfx1010" else 12, 300)
    ref = llvm_mc.decode(blobs, mcpu=cpu)
    assert sum(r is not None for r in ref) > len(blobs) // 3
    bad = [(b.hex(), _decode_text(b, ctx), r) for b, r in zip(blobs, ref, strict=True)
           if _decode_text(b, ctx) != r]
    assert not bad, f"{len(bad)} of {len(blobs)} differ: {bad[:4]}"


LINES = """
ds_write_b32 v1, v2 offset:4 gds
ds_read2_b32 v[4:5], v1 offset0:1 offset1:2
ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)
ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,"pi01p")
ds_add_u32 v1, v2 offset:65535
ds_add_u32 v1, v2 offset:65536
ds_write2_b32 v1, v2, v3 offset0:255 offset1:3
ds_gws_init v1 gds
ds_gws_init v1
ds_gws_barrier v1 offset:4 gds
ds_append v1 offset:8
ds_nop
ds_read_b96 v[1:3], v4 offset:12
ds_write_b128 v1, v[2:5] gds
ds_add_src2_u32 v1 offset:4
ds_read_u8_d16_hi v1, v2
ds_bpermute_b32 v1, v2, v3 offset:4
ds_wrxchg2st64_rtn_b64 v[1:4], v5, v[6:7], v[8:9] offset0:1 offset1:2
ds_store_b32 v1, v2
ds_read_b64 v[1:3], v2
buffer_load_dword v5, v1, s[8:11], s3 offen offset:4095 glc slc dlc
buffer_load_dword v5, v[1:2], s[8:11], s3 idxen offen tfe
buffer_atomic_add v5, v1, s[8:11], s3 offen glc
buffer_load_dword off, s[8:11], s3 lds
buffer_load_dword off, s[8:11], s3 offset:4 glc lds
buffer_load_dword v[1:2], s[8:11], s3 idxen offen offset:4 glc slc dlc lds
buffer_load_dword off, s[8:11], s3 lds tfe
buffer_load_dword off, s[8:11], s3 offset:4 lds glc
buffer_store_dword v1, off, s[8:11], s3 lds
buffer_load_dword v1, off, s[4:7], s1 offset:4096
buffer_load_dword v1, v2, s[4:7], s1 offen offset:8193 glc
buffer_load_dword v1, off, s[4:7], m0
buffer_load_dword v1, off, s[4:7], null
buffer_store_dwordx4 v[1:4], v[5:6], s[8:11], m0 idxen offen offset:12 glc slc dlc
buffer_atomic_cmpswap_x2 v[2:5], v6, s[8:11], -1 idxen glc
buffer_gl0_inv
buffer_gl1_inv
buffer_atomic_csub v5, off, s[8:11], s3 glc
buffer_load_b32 v1, off, s[4:7], s1
buffer_load_dword v1, off, s[4:7], v1
tbuffer_load_format_xyzw v[5:8], v1, s[8:11], s3 format:[BUF_FMT_32_FLOAT] offen offset:7 glc
tbuffer_store_format_d16_xyzw v[5:6], v1, s[8:11], s3 format:22 idxen
tbuffer_load_format_x v1, off, s[4:7], s1 format:77 tfe
tbuffer_store_format_xyzw v[1:4], v5, ttmp[4:7], null format:[BUF_FMT_32_32_32_32_FLOAT] offen
tbuffer_load_format_x v4, off, s[12:15], s3, format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_SINT]
tbuffer_load_format_x v4, off, s[8:11], format:22, s3 offset:4095
tbuffer_load_format_x v1, off, s[4:7], s1 format:128
global_load_dword v1, v[2:3], off offset:-8 glc slc dlc
global_load_dword v1, v2, s[4:5] offset:8
global_load_dword v1, v[2:3], off offset:-2049
global_load_dword v1, v[2:3], off offset:2047
global_load_dword v1, v2, m0
global_load_dword v1, v2, exec
global_atomic_cmpswap_x2 v[1:2], v[3:4], v[5:8], off glc
global_atomic_cmpswap_x2 v[3:4], v[5:8], off glc
global_store_dwordx3 v[2:3], v[4:6], off offset:16 slc
global_load_b32 v1, v[2:3], off
scratch_load_dword v1, off, s3 offset:8
scratch_load_dword v1, v2, off offset:-2048
scratch_load_dword v1, off, off
scratch_load_dword v1, off, m0
scratch_store_dword off, v1, s1 offset:2047
scratch_load_dword v1, v[2:3], off
global_load_dword v2, s[4:5] offset:1024 lds
global_load_dword v[2:3], off glc slc dlc lds
global_load_dword v2, null lds
global_load_dword v2, off lds
global_load_dword v[2:3], off lds glc
global_load_dwordx2 v[2:3], off lds
global_store_dword v[2:3], off lds
global_load_sshort v1, v[2:3], off lds
scratch_load_ubyte v2, off offset:-2048 lds
scratch_load_dword off, s4 lds
scratch_load_dword off, off lds
scratch_load_dword off, m0 lds
scratch_load_dword off, null lds
scratch_load_dword v2, s3 lds
flat_load_dword v[2:3] lds
global_load_dword v1, v2, null
global_load_dword v1, v[2:3], null
global_load_dword v1, v2, null offset:-8 glc slc dlc
global_atomic_add v0, v1, v2, null glc
global_store_dword v2, v1, null
global_store_dword v[2:3], v1, null
scratch_load_dword v1, off, null offset:4
scratch_load_dword v1, v2, null
scratch_store_dword off, v1, null
scratch_load_dword v1, v2, s3
flat_load_dword v1, v[2:3] offset:2047 glc
flat_load_dword v1, v[2:3] offset:2048
flat_atomic_cmpswap v1, v[2:3], v[4:5] glc
flat_atomic_add v[2:3], v4 glc
flat_store_dwordx4 v[1:2], v[3:6] offset:64 dlc
image_sample v[1:4], v[5:6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D glc slc dlc unorm r128
image_sample v[1:5], v[5:6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D tfe lwe
image_sample v[1:2], v5, s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D a16 d16
image_sample v[1:4], [v5, v7], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample v[1:4], [v5, v7, v9], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_CUBE
image_sample_c_d_cl v[1:4], [v1,v2,v3,v4,v5,v6,v7,v8,v9,v10,v11], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_3D
image_sample_c_d_cl v[1:4], [v1,v2,v3,v4,v5,v6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D
image_sample_c_d_cl v[1:4], [v1,v[2:3],v4,v5,v6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D
image_sample_c_d_cl v[1:4], v[1:8], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v1, v[5:7], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_3D unorm
image_store v[1:2], v[5:6], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D glc
image_atomic_cmpswap v[1:2], v[5:6], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D glc
image_gather4 v[1:4], v[5:6], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_msaa_load v[1:4], v[5:7], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
image_bvh_intersect_ray v[4:7], v[9:19], s[4:7]
image_bvh_intersect_ray v[4:7], [v1,v2,v3,v4,v5,v6,v7,v8,v9,v10,v11], s[4:7]
image_sample v[1:4], v[5:6], null, s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
exp mrt0 v1, v2, v3, v4 done compr vm
exp mrt0 off, v1, v3, off compr
exp null v1, v2, off, off
exp mrt0 v1, v2, v3, v4 row_en
exp pos4 v1, off, off, v2 done
exp param31 v1, off, off, off vm
exp dual_src_blend1 v1, v2, v3, v4
exp mrt7 v1, v2, v3, v4 vm done
exp mrt0 v1, v2, v3 done
exp mrt0 v0, v0, v0, v0 novm
exp mrt0 v0, v0, v0, v0 done compr novm
exp mrt0 v0, v0, v0, v0 novm done
exp mrt0 v0, v0, v0, v0 vm novm
exp mrt0 v0, v0, v0, v0 nodone
exp mrt0 v0, v0, v0, v0 vm vm
"""
_LINES = [ln for ln in LINES.split("\n") if ln.strip()]


@pytest.mark.parametrize("cpu", CPUS)
def test_lines_assemble_or_fail_like_llvm_mc(cpu: str) -> None:
    """Accepted with llvm-mc's bytes and text, or rejected with a located error."""
    llvm_mc.require()
    target = get_target(cpu)
    wrong = []
    for line, r in zip(_LINES, llvm_mc.encode(_LINES, mcpu=cpu), strict=True):
        a = assemble(line, target)
        if r.text is None:
            if a.ok or not all(d.col >= 1 for d in a.diagnostics):
                wrong.append((line, "accepted", r.error))
            continue
        st = [s for s in a.statements if s.kind == "inst"] if a.ok else []
        if not st or (st[0].text, st[0].data) != (r.text, r.data):
            wrong.append((line, st[0].text if st else a.diagnostics[:1], r.text))
    assert not wrong, wrong


_NULL_LINES = """
global_load_dword v1, v2, null
global_load_dword v1, v2, null offset:-8 glc slc dlc
global_atomic_add v0, v1, v2, null glc
global_store_dword v2, v1, null
global_load_dwordx2 v[1:2], v[2:3], null
scratch_load_dword v1, off, null offset:4
scratch_load_dword v1, v2, null
scratch_store_dword off, v1, null
""".strip().split("\n")


@pytest.mark.parametrize("cpu", (*CPUS, "gfx1100"))
def test_null_saddr_like_llvm_mc(cpu: str) -> None:
    """An explicit ``null`` SADDR: llvm-mc's bytes (those of ``off``) and its
    text (the operands as written), or its rejection; GFX11 too."""
    llvm_mc.require()
    target = get_target(cpu)
    ref = llvm_mc.encode(_NULL_LINES, mcpu=cpu)
    assert sum(r.data is not None for r in ref) >= 6
    wrong = []
    for line, r in zip(_NULL_LINES, ref, strict=True):
        a = assemble(line, target)
        st = [s for s in a.statements if s.kind == "inst"] if a.ok else []
        got = (st[0].text, st[0].data) if st else None
        if got != ((r.text, r.data) if r.data is not None else None):
            wrong.append((line, got or a.diagnostics[:1], r.text))
    assert not wrong, wrong


@pytest.mark.parametrize("cpu", CPUS)
def test_garbage_never_raises(cpu: str) -> None:
    """Random bytes with memory encoding bits decode to instructions or data."""
    rng = random.Random(5)
    target = get_target(cpu)
    data = b"".join(_b(rng.getrandbits(26) | rng.choice(list(ENCS.values())) << 26,
                       rng.getrandbits(32)) for _ in range(3000)) + b"\xf0\x01"
    n = 0
    for pos, d in disassemble(data, target):
        assert d.size > 0 and pos + d.size <= len(data)
        n += 1
    assert n >= 3000
