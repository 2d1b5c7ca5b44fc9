"""Header, endianness, literal decoding and error rendering."""

from __future__ import annotations

import struct

import pytest

from radcc.frontend.spirv import SpirvError, disassemble, read_spirv
from radcc.frontend.spirv.binary import decode
from radcc.oracle import spirv_tools

from .conftest import SHADERS, compiled

MAGIC = 0x07230203


def _words(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def _bytes(words: list[int], fmt: str = "<") -> bytes:
    return struct.pack(f"{fmt}{len(words)}I", *words)


def _error(data: bytes | list[int]) -> SpirvError:
    with pytest.raises(SpirvError) as info:
        read_spirv(data)
    return info.value


def test_big_endian_module_reads_the_same() -> None:
    data = compiled("control_flow.comp", "vulkan1.3")
    big = _bytes(_words(data), ">")
    m = read_spirv(big)
    assert m.header.big_endian
    assert disassemble(m) == disassemble(read_spirv(data))
    # (spirv-dis 2023.1 reads big-endian strings byte-swapped, so it is no oracle here)


def test_word_list_input() -> None:
    data = compiled("builtins.comp", "vulkan1.1")
    assert disassemble(read_spirv(_words(data))) == disassemble(read_spirv(data))


@pytest.mark.parametrize(
    "env,version",
    [("vulkan1.0", (1, 0)), ("vulkan1.1", (1, 3)), ("vulkan1.2", (1, 5)), ("vulkan1.3", (1, 6))],
)
def test_versions(env: str, version: tuple[int, int]) -> None:
    m = read_spirv(compiled("shared_reduce.comp", env))
    assert m.version == version
    assert m.header.generator >> 16 == 8  # Khronos Glslang Reference Front End


@pytest.mark.parametrize(
    "patch,offset,message",
    [
        ((0, 0x07230204), 0, "bad magic"),
        ((1, 0x00010700), 1, "unsupported SPIR-V version"),
        ((1, 0x00020000), 1, "unsupported SPIR-V version"),
        ((1, 0x00010001), 1, "unsupported SPIR-V version"),
        ((3, 0), 3, "bound is 0"),
        ((4, 1), 4, "schema"),  # spirv-val 2023.1 accepts this; the spec reserves it as 0
    ],
)
def test_bad_header(patch: tuple[int, int], offset: int, message: str) -> None:
    w = _words(compiled("builtins.comp", "vulkan1.3"))
    w[patch[0]] = patch[1]
    e = _error(w)
    assert (e.word_offset, e.opname) == (offset, "")
    assert message in e.message
    assert e.render("m.spv").startswith(f"m.spv: word {offset}: error: ")
    assert patch[0] == 4 or not spirv_tools.validate(_bytes(w)).ok


@pytest.mark.parametrize(
    "data", [b"", b"\x03\x02\x23\x07", b"\x03\x02\x23\x07" * 4 + b"\x00", bytes(20)]
)
def test_short_or_odd_inputs(data: bytes) -> None:
    _error(data)


def test_bound_too_small() -> None:
    w = _words(compiled("builtins.comp", "vulkan1.3"))
    w[3] = 10
    e = _error(w)
    assert "out of range (bound 10)" in e.message


def test_instruction_runs_past_end() -> None:
    w = _words(compiled("builtins.comp", "vulkan1.3"))
    offsets = spirv_tools.instruction_offsets(_bytes(w))
    last = offsets[-1]
    w[last] = (w[last] & 0xFFFF) | (5 << 16)  # OpFunctionEnd claims 5 words
    e = _error(w)
    assert (e.word_offset, e.opname) == (last, "OpFunctionEnd")
    assert "runs past the end" in e.message


def test_unknown_opcode_and_zero_word_count() -> None:
    w = _words(compiled("builtins.comp", "vulkan1.3"))
    e = _error([*w[:5], (1 << 16) | 0xFFF0, *w[5:]])
    assert (e.word_offset, "unknown opcode 65520") == (5, e.message)
    e = _error([*w[:5], 0x00000011, *w[5:]])
    assert (e.word_offset, e.message) == (5, "word count is 0")


def test_strings_need_a_terminator() -> None:
    text = 'OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpSourceExtension "abcd"\n'
    w = _words(spirv_tools.assemble(text))
    assert w[-2:] == [int.from_bytes(b"abcd", "little"), 0]
    # Drop the terminating word and shrink the word count by one.
    w = w[:-1]
    w[-2] = ((w[-2] >> 16) - 1) << 16 | (w[-2] & 0xFFFF)
    e = _error(w)
    assert (e.opname, "missing operand: string") == ("OpSourceExtension", e.message)


def test_small_int_literals_must_be_sign_or_zero_extended() -> None:
    text = (
        "OpCapability Shader\nOpCapability Int16\nOpMemoryModel Logical GLSL450\n"
        "%s16 = OpTypeInt 16 1\n%u16 = OpTypeInt 16 0\n"
        "%a = OpConstant %s16 -2\n%b = OpConstant %u16 65534\n"
    )
    data = spirv_tools.assemble(text)
    _, ins = decode(data)
    assert [i.operands[0].value for i in ins[-2:]] == [-2, 65534]
    w = _words(data)
    assert w[-1] == 0xFFFE and w[-5] == 0xFFFFFFFE  # the oracle's encoding
    w[-1] = 0xFFFFFFFE  # unsigned 16-bit value with high bits set
    e = _error(w)
    assert e.opname == "OpConstant" and "high-order bits" in e.message


def test_glslang_debug_info_with_id_0_is_rejected_like_spirv_dis() -> None:
    """glslang 12 -gVS emits an OpExtInst operand %0 for buffer references: spirv-dis
    refuses the module too."""
    r = spirv_tools.compile_glsl(
        SHADERS / "buffer_reference.comp",
        "vulkan1.3",
        "-gVS",
    )
    assert r.ok
    assert not spirv_tools.disassemble(r.data).ok
    e = _error(r.data)
    assert e.opname == "OpExtInst" and "id 0 is out of range" in e.message


FLOAT_BITS = [
    (16, 0x3C00), (16, 0x0001), (16, 0x8000), (16, 0x7C00), (16, 0x7E00), (16, 0x2E66),
    (32, 0x7FC00000), (32, 0x00000001), (32, 0x80000000), (32, 0x3DCCCCCD), (32, 0xFF800000),
    (32, 0x007FFFFF), (32, 0x4B189680),
    (64, 0x0000000000000001), (64, 0x3FB999999999999A), (64, 0x7FF8000000000000),
    (64, 0xC3E0000000000000),
]  # fmt: skip


def test_float_literals_spelled_like_spirv_dis() -> None:
    """Every width's zero, normal, denormal, inf and NaN constants print as spirv-dis."""
    words = [MAGIC, 0x00010000, 0, 100, 0]

    def inst(op: int, *ops: int) -> list[int]:
        return [(len(ops) + 1) << 16 | op, *ops]

    words += inst(17, 1) + inst(17, 9) + inst(17, 10)  # OpCapability Shader, Float16, Float64
    words += inst(14, 0, 1)  # OpMemoryModel Logical GLSL450
    words += inst(22, 2, 16) + inst(22, 3, 32) + inst(22, 4, 64)  # OpTypeFloat
    for k, (width, bits) in enumerate(FLOAT_BITS):
        value = [bits] if width < 64 else [bits & 0xFFFFFFFF, bits >> 32]
        words += inst(43, {16: 2, 32: 3, 64: 4}[width], 10 + k, *value)  # OpConstant
    data = _bytes(words)
    oracle = spirv_tools.disassemble(data)
    assert oracle.ok, oracle.text
    assert disassemble(data).splitlines() == oracle.text.splitlines()
    m = read_spirv(data)
    assert m.constants[10 + 0].value == 1.0 and m.constants[10 + 6].bits == 0x7FC00000
