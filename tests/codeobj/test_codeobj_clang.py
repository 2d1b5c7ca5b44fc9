"""radcc's reader on clang-19-compiled OpenCL kernels (ET_DYN, code object v5).

Oracles: llvm-readelf-19 (symbols, notes YAML), llvm-objdump-19 (.rodata
bytes, descriptor directives). Checked at -O0/-O3, wave32/wave64.
"""

from __future__ import annotations

import functools
import re

import pytest
from codeobj_tools import (
    OBJDUMP,
    clang_compile,
    need,
    objdump_kd_directives,
    readelf_yaml,
    run,
    symbols,
    write_temp,
)

from radcc.codeobj import elfdefs
from radcc.codeobj.elf import read_code_object
from radcc.codeobj.metadata import pack_note, parse_yaml, to_yaml
from radcc.target import get_target

SRC = r"""
static inline size_t gid(void) {
  __constant unsigned short *ia = (__constant unsigned short *)__builtin_amdgcn_implicitarg_ptr();
  return __builtin_amdgcn_workgroup_id_x() * ia[6] + __builtin_amdgcn_workitem_id_x();
}
__attribute__((noinline)) float twice(float x) { return x + x; }

__kernel void add(__global float *out, __global const float *a, float b, int n) {
  int i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;
  if (i < n) out[i] = a[i] + b;
}
__kernel void scale(__global int *p, __local int *tmp, uint k) {
  __local int buf[64];
  int i = __builtin_amdgcn_workitem_id_x();
  buf[i] = p[i] * k;
  tmp[i] = buf[63 - i];
  p[i] = tmp[i];
}
__constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__kernel void __attribute__((reqd_work_group_size(128, 1, 1)))
lookup(__global float *restrict out, __global const int *restrict idx) {
  size_t i = gid();
  out[i] = twice(table[idx[i] & 3]);
}
"""

ARGS = {"add": ["out", "a", "b", "n"], "scale": ["p", "tmp", "k"], "lookup": ["out", "idx"]}
CONFIGS = [("-O0", False), ("-O0", True), ("-O3", False), ("-O3", True)]


@functools.cache
def _compiled(opt: str, wave64: bool) -> bytes:
    return clang_compile(SRC, opt=opt, wave64=wave64)


def _rodata_bytes(path) -> dict[int, int]:
    need(OBJDUMP)
    out = run([OBJDUMP, "-s", "-j", ".rodata", str(path)]).stdout
    mem: dict[int, int] = {}
    for line in out.splitlines():
        m = re.match(r"^ ([0-9a-f]+) ((?:[0-9a-f]{2,8} ?)+)", line)
        if m:
            addr = int(m.group(1), 16)
            data = bytes.fromhex(m.group(2).replace(" ", ""))
            for i, b in enumerate(data):
                mem[addr + i] = b
    return mem


@pytest.fixture(params=CONFIGS, ids=[f"{o}-w{64 if w else 32}" for o, w in CONFIGS])
def compiled(request):
    opt, wave64 = request.param
    data = _compiled(opt, wave64)
    return data, write_temp(data), wave64


def test_kernels_and_symbols(compiled):
    data, path, _ = compiled
    co = read_code_object(data)
    assert co.e_type == elfdefs.ET_DYN and co.target_name == "gfx1100"
    assert co.os_abi == 64 and co.abi_version == 3
    assert set(co.kernels) == set(ARGS)
    dyn = symbols(path, dyn=True)
    for name, k in co.kernels.items():
        assert dyn[name][0] == k.entry_address
        assert dyn[name + ".kd"][0] == k.kd_address
        assert co.symbols[name].type == elfdefs.STT_FUNC
        assert k.entry_section == ".text"


def test_metadata_matches_readelf(compiled):
    data, path, wave64 = compiled
    co = read_code_object(data)
    text = readelf_yaml(path)
    assert co.metadata == parse_yaml(text)
    assert to_yaml(co.metadata) == text  # LLVM's YAML printer, byte for byte
    note = co.sections[".note"].data
    desc_size = int.from_bytes(note[4:8], "little")
    assert pack_note(co.metadata) == note[20:20 + desc_size]  # LLVM's msgpack bytes
    for name, k in co.kernels.items():
        assert k.metadata is not None
        assert [a.get(".name") for a in k.metadata[".args"] if ".name" in a] == ARGS[name]
        assert k.metadata[".wavefront_size"] == (64 if wave64 else 32)
        assert k.metadata[".group_segment_fixed_size"] == k.descriptor["group_segment_fixed_size"]
        assert (k.metadata[".private_segment_fixed_size"]
                == k.descriptor["private_segment_fixed_size"])
        assert k.metadata[".kernarg_segment_size"] == k.descriptor["kernarg_size"]
    scale = co.kernels["scale"].metadata
    assert scale[".args"][1][".value_kind"] == "dynamic_shared_pointer"
    assert co.kernels["lookup"].metadata[".reqd_workgroup_size"] == [128, 1, 1]


def test_descriptors_match_objdump(compiled):
    data, path, wave64 = compiled
    co = read_code_object(data)
    mem = _rodata_bytes(path)
    dumped = objdump_kd_directives(path)
    target = get_target("gfx1100")
    for name, k in co.kernels.items():
        assert bytes(mem[k.kd_address + i] for i in range(64)) == k.descriptor_bytes
        if name not in dumped:
            # clang -O0 sets GRANULATED_WAVEFRONT_SGPR_COUNT, which llvm-objdump-19
            # refuses to decode on GFX10+ ("reserved bits ... set")
            assert k.descriptor["granulated_wavefront_sgpr_count"] != 0
            continue
        for directive, value in dumped[name].items():
            key = directive.removeprefix("raw:")
            if key in ("reserve_vcc", "reserve_xnack_mask"):
                continue
            assert k.descriptor[key] == value, (name, directive)
        assert k.descriptor["wavefront_size32"] == (0 if wave64 else 1)
        granule = target.regfile(64 if wave64 else 32).vgpr_encoding_granule
        assert k.descriptor["next_free_vgpr"] >= k.metadata[".vgpr_count"]
        assert k.descriptor["next_free_vgpr"] - k.metadata[".vgpr_count"] < granule or (
            k.metadata[".vgpr_count"] == 0)
    assert co.kernels["scale"].descriptor["group_segment_fixed_size"] == 256


def test_segments_cover_code(compiled):
    data, _, _ = compiled
    co = read_code_object(data)
    for k in co.kernels.values():
        seg = [s for s in co.segments if s.vaddr <= k.entry_address < s.vaddr + s.memsz]
        assert len(seg) == 1 and seg[0].flags & elfdefs.PF_X
        assert seg[0].data[k.entry_address - seg[0].vaddr:][:4] != b""
