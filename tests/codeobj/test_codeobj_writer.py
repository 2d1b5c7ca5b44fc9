"""`write_code_object`: LLVM's tools read radcc's ET_DYN code objects cleanly.

Oracles: llvm-readelf-19 (headers, symbols, notes YAML, no warnings),
llvm-objdump-19 (disassembles the code bytes llvm-mc-19 produced; reads the
descriptors back as `.amdhsa_*` directives).
"""

from __future__ import annotations

import re

import pytest
from codeobj_tools import (
    OBJDUMP,
    encode,
    need,
    objdump_kd_directives,
    readelf,
    readelf_yaml,
    run,
    symbols,
    write_temp,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from radcc.codeobj.amdhsa import AMDHSA_FIELDS, kernel_descriptor
from radcc.codeobj.elf import KernelSymbol, layout_code_object, read_code_object, write_code_object
from radcc.codeobj.errors import CodeObjectError
from radcc.codeobj.metadata import parse_yaml
from radcc.target import get_target

T = get_target("gfx1100")

K1 = ["v_add_f32_e32 v1, v2, v3", "s_mov_b32 s0, 0x1234", "global_load_b32 v0, v[2:3], off",
      "s_waitcnt vmcnt(0)", "s_endpgm"]
K2 = ["v_mov_b32_e32 v0, 1.0", "s_load_b64 s[0:1], s[4:5], 0x10", "s_endpgm"]
F = ["s_setpc_b64 s[30:31]"]


def _program():
    c1, c2, f = encode(K1), encode(K2), encode(F)
    text = bytearray(c1)
    text += b"\0" * (256 - len(text))
    f_off = len(text)
    text += f
    text += b"\0" * (512 - len(text))
    text += c2
    kernels = [
        KernelSymbol("first", 0, len(c1), {"next_free_vgpr": 4, "next_free_sgpr": 8,
                                           "kernarg_size": 16,
                                           "user_sgpr_kernarg_segment_ptr": 1}),
        KernelSymbol("second", 512, len(c2), {"next_free_vgpr": 1, "next_free_sgpr": 6,
                                              "wavefront_size32": 0,
                                              "group_segment_fixed_size": 1024}),
    ]
    return bytes(text), kernels, {"helper": (f_off, len(f))}


def _instructions(objdump_out: str) -> list[str]:
    out = []
    for line in objdump_out.splitlines():
        m = re.match(r"^\t(\S.*?)\s+// [0-9A-F]+:", line)
        if m:
            out.append(re.sub(r"\s+", " ", m.group(1)))
    return out


def test_readelf_reads_it_cleanly():
    text, kernels, funcs = _program()
    path = write_temp(write_code_object(text, T, kernels, functions=funcs, rodata=b"tbl\0"))
    p = readelf(path, "--notes", "-S", "-s", "-l", "--dyn-syms", "-h", "-d")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "Flags:                             0x41, gfx1100" in p.stdout
    assert "OS/ABI:                            AMDGPU - HSA" in p.stdout
    assert "ABI Version:                       3" in p.stdout
    assert "DYN (Shared object file)" in p.stdout
    dyn = symbols(path, dyn=True)
    static = symbols(path)
    co = read_code_object(path.read_bytes())
    for k in kernels:
        assert dyn[k.name][2:4] == ("FUNC", "GLOBAL") and dyn[k.name + ".kd"][2:4] == (
            "OBJECT", "GLOBAL")
        assert dyn[k.name][0] == co.kernels[k.name].entry_address
        assert dyn[k.name + ".kd"][0] == co.kernels[k.name].kd_address
        assert dyn[k.name + ".kd"][1] == 64 and dyn[k.name][1] == k.code_size
        assert co.kernels[k.name].kd_address % 64 == 0
        assert co.kernels[k.name].entry_address % 256 == 0
        assert static[k.name] == dyn[k.name]
    assert static["helper"][2:4] == ("FUNC", "LOCAL")
    meta = parse_yaml(readelf_yaml(path))
    assert meta == co.metadata
    assert [k[".name"] for k in meta["amdhsa.kernels"]] == ["first", "second"]
    assert meta["amdhsa.version"] == [1, 2]
    assert meta["amdhsa.target"] == "amdgcn-amd-amdhsa--gfx1100"
    k2 = meta["amdhsa.kernels"][1]
    assert k2[".wavefront_size"] == 64 and k2[".group_segment_fixed_size"] == 1024
    assert k2[".symbol"] == "second.kd"


def test_objdump_disassembles_the_code():
    need(OBJDUMP)
    text, kernels, funcs = _program()
    path = write_temp(write_code_object(text, T, kernels, functions=funcs))
    p = run([OBJDUMP, "-d", "--mcpu=gfx1100", str(path)])
    assert p.stderr == ""
    body = p.stdout
    first = body[body.index("<first>:"):body.index("<helper>:")]
    helper = body[body.index("<helper>:"):body.index("<second>:")]
    second = body[body.index("<second>:"):]
    assert _instructions(first)[:len(K1)] == K1
    assert _instructions(helper)[:1] == F
    assert _instructions(second)[:len(K2)] == K2


def test_objdump_reads_the_descriptors():
    text, kernels, funcs = _program()
    path = write_temp(write_code_object(text, T, kernels, functions=funcs))
    dumped = objdump_kd_directives(path)
    for k in kernels:
        for name, value in k.fields.items():
            if name == "next_free_vgpr":
                g = 8 if k.fields.get("wavefront_size32", 1) else 4
                value = max(1, (value + g - 1) // g) * g
            if name == "next_free_sgpr":
                continue  # no SGPR count in GFX10+ descriptors
            assert dumped[k.name][name] == value, (k.name, name)


def test_layout_and_round_trip():
    text, kernels, funcs = _program()
    data = write_code_object(text, T, kernels, functions=funcs, rodata=b"abc")
    lay = layout_code_object(len(text), T, kernels, functions=funcs, rodata=3)
    co = read_code_object(data)
    assert co.e_type == 3 and co.target_name == "gfx1100"
    assert co.sections[".text"].addr == lay.text_addr
    assert co.sections[".text"].data == text
    assert co.sections[".text"].addr % 256 == 0
    ro = co.sections[".rodata"]
    assert ro.data[lay.user_rodata_addr - ro.addr:][:3] == b"abc"
    for k in kernels:
        info = co.kernels[k.name]
        assert info.kd_address == lay.kd_addrs[k.name]
        assert info.entry_address == lay.text_addr + k.code_offset
        assert info.descriptor_bytes == kernel_descriptor(
            k.fields, T, info.entry_address - info.kd_address)
        assert info.metadata is not None and info.metadata[".name"] == k.name
        for name, value in k.fields.items():
            if name not in ("next_free_vgpr", "next_free_sgpr"):
                assert info.descriptor[name] == value
    loads = [s for s in co.segments]
    assert [s.flags for s in loads] == [4, 5, 6]
    assert loads[1].vaddr == lay.text_addr
    for s in loads:
        assert s.vaddr % 0x1000 == co.sections[".text"].offset % 0x1000 or s is not loads[1]


def test_custom_metadata_is_kept():
    text, kernels, _ = _program()
    meta = {"amdhsa.version": [1, 2], "amdhsa.target": "amdgcn-amd-amdhsa--gfx1100",
            "amdhsa.kernels": [{".name": "first", ".symbol": "first.kd",
                                ".kernarg_segment_size": 16, ".group_segment_fixed_size": 0,
                                ".private_segment_fixed_size": 0, ".kernarg_segment_align": 8,
                                ".wavefront_size": 32, ".sgpr_count": 10, ".vgpr_count": 4,
                                ".max_flat_workgroup_size": 64, ".language": "OpenCL C",
                                ".args": [{".offset": 0, ".size": 8,
                                           ".value_kind": "global_buffer",
                                           ".address_space": "global", ".name": "n"}]}]}
    data = write_code_object(text, T, kernels, metadata=meta)
    path = write_temp(data)
    assert parse_yaml(readelf_yaml(path)) == meta
    assert read_code_object(data).kernels["first"].metadata[".args"][0][".name"] == "n"


@pytest.mark.parametrize("kernels,functions,message", [
    ([KernelSymbol("k", 4, 4, {"next_free_vgpr": 1, "next_free_sgpr": 1})], {},
     "not 256-byte aligned"),
    ([KernelSymbol("k", 0, 400, {"next_free_vgpr": 1, "next_free_sgpr": 1})], {},
     "outside .text"),
    ([KernelSymbol("k", 0, 4, {"next_free_vgpr": 1, "next_free_sgpr": 1})], {"k": (0, 4)},
     "duplicate symbol"),
    ([KernelSymbol("k", 0, 4, {"next_free_vgpr": 1})], {}, "next_free_sgpr directive"),
    ([KernelSymbol("k", 0, 4, {"next_free_vgpr": 1, "next_free_sgpr": 1, "bad": 1})], {},
     "unknown .amdhsa_kernel directive"),
])
def test_writer_errors(kernels, functions, message):
    with pytest.raises(CodeObjectError, match=re.escape(message)):
        write_code_object(b"\0" * 256, T, kernels, functions=functions)


_NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,20}", fullmatch=True)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_NAME, min_size=1, max_size=5, unique=True),
       st.lists(st.integers(1, 40), min_size=5, max_size=5),
       st.binary(max_size=300), st.sampled_from([0, 1]))
def test_random_objects_read_cleanly(names, sizes, rodata, wave32):
    kernels, text = [], bytearray()
    code = encode(["s_endpgm"])
    for name, size in zip(names, sizes, strict=False):
        text += b"\0" * (-len(text) % 256)
        kernels.append(KernelSymbol(name, len(text), 4 * size,
                                    {"next_free_vgpr": size, "next_free_sgpr": size,
                                     "wavefront_size32": wave32}))
        text += code * size
    path = write_temp(write_code_object(bytes(text), T, kernels, rodata=rodata))
    p = readelf(path, "--notes", "-S", "-s", "-l", "--dyn-syms")
    assert p.returncode == 0 and p.stderr == ""
    dyn = symbols(path, dyn=True)
    assert set(dyn) == {n for k in kernels for n in (k.name, k.name + ".kd")}
    meta = parse_yaml(readelf_yaml(path))
    assert [k[".name"] for k in meta["amdhsa.kernels"]] == names
    assert all(set(k) >= {".name", ".symbol", ".kernarg_segment_size", ".sgpr_count",
                          ".vgpr_count", ".wavefront_size", ".max_flat_workgroup_size",
                          ".args"} for k in meta["amdhsa.kernels"])
    assert set(AMDHSA_FIELDS) >= set(kernels[0].fields)
