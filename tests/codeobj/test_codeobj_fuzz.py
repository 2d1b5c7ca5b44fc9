"""read_code_object on hostile input raises CodeObjectError and nothing else.

Seeds: a clang-19 object, an llvm-mc-19 ET_REL object and one of radcc's own;
mutations: truncation, bit flips, random header fields, random bytes.
Inputs a fuzzer once found are kept in REGRESSIONS.
"""

from __future__ import annotations

import functools
import struct

import pytest
from codeobj_tools import assemble, clang_compile, kernel_source
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from radcc.codeobj import elfdefs as E
from radcc.codeobj.elf import KernelSymbol, read_code_object, write_code_object
from radcc.codeobj.elfread import _Reader
from radcc.codeobj.errors import CodeObjectError
from radcc.target import get_target

CL = "__kernel void k(__global int *p, int v) { p[__builtin_amdgcn_workitem_id_x()] = v; }"


@functools.cache
def _seeds() -> tuple[bytes, ...]:
    clang = clang_compile(CL)
    rel, err = assemble(kernel_source({"k": {"next_free_vgpr": 3, "next_free_sgpr": 3}}))
    assert rel, err
    mine = write_code_object(b"\0" * 260, get_target("gfx1100"),
                             [KernelSymbol("k", 0, 4, {"next_free_vgpr": 1,
                                                       "next_free_sgpr": 1})],
                             functions={"f": (256, 4)}, rodata=b"xyz")
    return clang, rel, mine


def _read(data: bytes) -> None:
    """The public reader may only raise CodeObjectError; the inner reader (no safety net)
    must raise it by its own checks too."""
    for reader in (read_code_object, lambda d: _Reader(d).read()):
        try:
            reader(data)
        except CodeObjectError as e:
            assert str(e)


def test_seeds_read():
    for s in _seeds():
        assert read_code_object(s).kernels


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=512))
def test_random_bytes(data):
    _read(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_behind_an_elf_header(tail):
    hdr = E.EHDR.pack(b"\x7fELF\x02\x01\x01\x40\x03" + b"\0" * 7, 3, E.EM_AMDGPU, 1, 0, 64,
                      64, 0x41, 64, 56, 2, 64, 3, 1)
    _read(hdr + tail)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2), st.data())
def test_truncations(seed, data):
    s = _seeds()[seed]
    n = data.draw(st.integers(0, len(s)))
    _read(s[:n])


def test_every_truncation_of_the_llvm_mc_object():
    s = _seeds()[1]
    for n in range(len(s)):
        _read(s[:n])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2), st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 7)),
                                   min_size=1, max_size=8))
def test_bit_flips(seed, flips):
    s = bytearray(_seeds()[seed])
    for pos, bit in flips:
        s[pos % len(s)] ^= 1 << bit
    _read(bytes(s))


_HEADER_FIELDS = [(0x20, "<Q"), (0x28, "<Q"), (0x30, "<I"), (0x36, "<H"), (0x38, "<H"),
                  (0x3A, "<H"), (0x3C, "<H"), (0x3E, "<H")]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2), st.data())
def test_corrupt_header_and_section_fields(seed, data):
    s = bytearray(_seeds()[seed])
    off, fmt = data.draw(st.sampled_from(_HEADER_FIELDS))
    size = struct.calcsize(fmt)
    val = data.draw(st.integers(0, (1 << (8 * size)) - 1))
    struct.pack_into(fmt, s, off, val)
    # and one field in some section header
    shoff, shnum = struct.unpack_from("<Q", s, 0x28)[0], struct.unpack_from("<H", s, 0x3C)[0]
    if shnum and shoff + shnum * 64 <= len(s):
        i = data.draw(st.integers(0, shnum - 1))
        field = data.draw(st.sampled_from([4, 8, 16, 24, 32, 40, 44, 56]))
        width = 4 if field in (4, 40, 44) else 8
        struct.pack_into("<I" if width == 4 else "<Q", s, shoff + i * 64 + field,
                         data.draw(st.integers(0, (1 << (8 * width)) - 1)))
    _read(bytes(s))


# Inputs found by the fuzzers above (kept as regression tests).
REGRESSIONS: list[bytes] = [
    b"\x7fELF",
    b"\x7fELF\x02\x01\x01" + b"\0" * 57,
]


@pytest.mark.parametrize("data", REGRESSIONS)
def test_regressions(data):
    with pytest.raises(CodeObjectError):
        read_code_object(data)
