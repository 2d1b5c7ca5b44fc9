"""The reader's disassembly equals ``spirv-dis --raw-id`` on every shader of the suite.

Every operand of every instruction is decoded by grammar kind and printed back,
so this checks the decoding of ids, literals (multi-word, context-dependent,
strings), enumerants, masks with parameters and variadic operands.
"""

from __future__ import annotations

import pytest

from radcc.frontend.spirv import disassemble, read_spirv
from radcc.oracle import spirv_tools

from .conftest import cases, compiled


@pytest.mark.parametrize("name,env", cases())
def test_disassembly_matches_spirv_dis(name: str, env: str) -> None:
    data = compiled(name, env)
    oracle = spirv_tools.disassemble(data)
    assert oracle.ok, oracle.text
    assert disassemble(read_spirv(data)).splitlines() == oracle.text.splitlines()


@pytest.mark.parametrize("flag", ["-g", "-gVS"])
@pytest.mark.parametrize("name", ["control_flow.comp", "glsl_std450.comp", "spec_constants.comp"])
def test_debug_info_matches_spirv_dis(name: str, flag: str) -> None:
    """OpString/OpLine/OpSource text and NonSemantic.Shader.DebugInfo.100 ext-insts."""
    data = compiled(name, "vulkan1.3", flag)
    oracle = spirv_tools.disassemble(data)
    assert disassemble(read_spirv(data)).splitlines() == oracle.text.splitlines()


def test_decode_only_disassembly_of_raw_bytes() -> None:
    data = compiled("atomics.comp", "vulkan1.2")
    assert disassemble(data) == disassemble(read_spirv(data))
