"""Facts the typed module reports agree with spirv-dis's text of the same binary.

Expectations are parsed from ``spirv-dis --raw-id`` output (the oracle), never
from the reader's own disassembly.
"""

from __future__ import annotations

import math
import re
import shlex
import struct

import pytest

from radcc.frontend.spirv import SpirvModule, read_spirv
from radcc.frontend.spirv.types import (
    TypeArray,
    TypeBool,
    TypeFloat,
    TypeFunction,
    TypeInt,
    TypeMatrix,
    TypePointer,
    TypeRuntimeArray,
    TypeStruct,
    TypeVector,
    TypeVoid,
)
from radcc.oracle import spirv_tools

from .conftest import cases, compiled

_LINE = re.compile(r"^\s*(?:%(\d+) = )?(Op\w+)(.*)$")


def oracle_lines(data: bytes) -> list[tuple[int | None, str, list[str]]]:
    r = spirv_tools.disassemble(data, "--no-header")
    assert r.ok, r.text
    out = []
    for line in r.text.splitlines():
        m = _LINE.match(line)
        assert m, line
        out.append((int(m[1]) if m[1] else None, m[2], shlex.split(m[3], posix=True)))
    return out


def _num(text: str) -> int | float:
    if text.startswith(("0x", "-0x")) and "p" in text:
        return float.fromhex(text)
    try:
        return int(text)
    except ValueError:
        return float(text)


def _arg(text: str) -> int | float | str:
    return (
        int(text[1:]) if text.startswith("%") else _num(text) if text[0] in "-0123456789" else text
    )


def _same(a: object, b: object, width: int) -> bool:
    """Equal once the oracle's decimal text is rounded to the constant's width."""
    if isinstance(a, float) and isinstance(b, float):
        if width != 64 and not math.isinf(b):
            b = struct.unpack("<f", struct.pack("<f", b))[0]
        return (math.isnan(a) and math.isnan(b)) or a == b
    return a == b


def check_facts(m: SpirvModule, lines: list[tuple[int | None, str, list[str]]]) -> None:
    caps = [a[0] for _, op, a in lines if op == "OpCapability"]
    assert m.capabilities == caps
    assert m.extensions == [a[0] for _, op, a in lines if op == "OpExtension"]
    entries = [a for _, op, a in lines if op == "OpEntryPoint"]
    assert [(e.execution_model, e.function, e.name, e.interface) for e in m.entry_points] == [
        (a[0], int(a[1][1:]), a[2], tuple(int(x[1:]) for x in a[3:])) for a in entries
    ]
    for rid, op, a in lines:
        if op in ("OpExecutionMode", "OpExecutionModeId"):
            ep = next(e for e in m.entry_points if e.function == int(a[0][1:]))
            mode = ep.mode(a[1])
            assert mode is not None and mode.args == tuple(int(str(_arg(x))) for x in a[2:])
        elif op == "OpName":
            assert m.name(int(a[0][1:])) == a[1]
        elif op == "OpMemberName":
            assert m.member_names[(int(a[0][1:]), int(a[1]))] == a[2]
        elif op == "OpDecorate":
            args = m.decoration(int(a[0][1:]), a[1])
            assert args == tuple(_arg(x) for x in a[2:]), (a, args)
        elif op == "OpMemberDecorate":
            args = m.decoration(int(a[0][1:]), a[2], member=int(a[1]))
            assert args == tuple(_arg(x) for x in a[3:]), (a, args)
        elif op.startswith("OpType") and rid is not None:
            check_type(m, rid, op, a)
        elif op in ("OpConstant", "OpSpecConstant"):
            assert rid is not None
            t = m.type_of(rid)
            assert isinstance(t, TypeInt | TypeFloat)
            assert _same(m.constant_value(rid), _num(a[1]), t.width), (rid, a)
            assert m.type_id_of(rid) == int(a[0][1:])
            if op == "OpSpecConstant":
                assert m.spec_constants[rid].spec_id == m.spec_id(rid)
        elif op in (
            "OpConstantTrue",
            "OpSpecConstantTrue",
            "OpConstantFalse",
            "OpSpecConstantFalse",
        ):
            assert rid is not None and m.constant_value(rid) is op.endswith("True")
        elif op in ("OpConstantComposite", "OpSpecConstantComposite"):
            assert rid is not None
            c = m.constants.get(rid) or m.spec_constants[rid]
            assert c.constituents == tuple(int(x[1:]) for x in a[1:])
        elif op == "OpSpecConstantOp":
            assert rid is not None and m.spec_constants[rid].op == "Op" + a[1]
        elif op == "OpVariable" and rid is not None and a[1] != "Function":
            v = m.global_variables[rid]
            assert (v.type, v.storage_class) == (int(a[0][1:]), a[1])
        elif rid is not None and a and a[0].startswith("%") and op not in ("OpExtInstImport",):
            if op not in ("OpLabel", "OpString", "OpDecorationGroup") and not op.startswith(
                "OpType"
            ):
                assert m.type_id_of(rid) == int(a[0][1:]), (rid, op)
    check_functions(m, lines)


def check_type(m: SpirvModule, rid: int, op: str, a: list[str]) -> None:
    t = m.type(rid)
    ids = [int(x[1:]) for x in a if x.startswith("%")]
    expect = {
        "OpTypeVoid": lambda: TypeVoid(rid),
        "OpTypeBool": lambda: TypeBool(rid),
        "OpTypeInt": lambda: TypeInt(rid, int(a[0]), a[1] == "1"),
        "OpTypeFloat": lambda: TypeFloat(rid, int(a[0])),
        "OpTypeVector": lambda: TypeVector(rid, ids[0], int(a[1])),
        "OpTypeMatrix": lambda: TypeMatrix(rid, ids[0], int(a[1])),
        "OpTypeArray": lambda: TypeArray(rid, ids[0], ids[1]),
        "OpTypeRuntimeArray": lambda: TypeRuntimeArray(rid, ids[0]),
        "OpTypeStruct": lambda: TypeStruct(rid, tuple(ids)),
        "OpTypePointer": lambda: TypePointer(rid, a[0], ids[0]),
        "OpTypeFunction": lambda: TypeFunction(rid, ids[0], tuple(ids[1:])),
    }.get(op)
    if expect is not None:
        assert t == expect(), (rid, op, a)


def check_functions(m: SpirvModule, lines: list[tuple[int | None, str, list[str]]]) -> None:
    """Functions, parameters, blocks and each block's terminator (the op before the next
    OpLabel/OpFunctionEnd) as the oracle's text shows them."""
    funcs: list[tuple[int, list[int], list[tuple[int, str]]]] = []
    prev = ""
    for rid, op, _ in lines:
        if (
            op in ("OpLabel", "OpFunctionEnd")
            and funcs
            and funcs[-1][2]
            and prev != "OpFunctionParameter"
        ):
            label, term = funcs[-1][2][-1]
            if not term:
                funcs[-1][2][-1] = (label, prev)
        if op == "OpFunction":
            assert rid is not None
            funcs.append((rid, [], []))
        elif op == "OpFunctionParameter":
            assert rid is not None
            funcs[-1][1].append(rid)
        elif op == "OpLabel":
            assert rid is not None
            funcs[-1][2].append((rid, ""))
        prev = op
    got = [
        (f.id, [p.id for p in f.params], [(b.label, b.terminator.opname) for b in f.blocks])
        for f in m.functions
    ]
    assert got == funcs


@pytest.mark.parametrize("name,env", cases())
def test_module_facts_match_spirv_dis(name: str, env: str) -> None:
    data = compiled(name, env)
    check_facts(read_spirv(data), oracle_lines(data))


# ----- facts from the GLSL sources -----


def test_spec_constants_from_source() -> None:
    m = read_spirv(compiled("spec_constants.comp", "vulkan1.2"))
    by_name = {m.name(i): i for i in m.spec_constants if m.name(i)}
    assert m.constant_value(by_name["ITER"]) == -7
    assert m.spec_id(by_name["ITER"]) == 2
    assert m.constant_value(by_name["MASK"]) == 0xFF
    assert m.constant_value(by_name["SCALE"]) == 0.25
    assert m.constant_value(by_name["ENABLE"]) is False
    assert m.constant_value(by_name["DSCALE"]) == 2.5
    assert m.constant_value(by_name["ITER"], spec={2: 9}) == 9
    assert m.spec_constants[by_name["TWICE"]].op == "OpIMul"
    with pytest.raises(KeyError):
        m.constant_value(by_name["TWICE"])
    assert m.workgroup_size() == (1, 1, 1)
    assert m.workgroup_size(spec={0: 64, 1: 2}) == (64, 2, 1)


def test_buffers_from_source() -> None:
    m = read_spirv(compiled("buffers_std430.comp", "vulkan1.0"))
    assert m.version == (1, 0)
    bindings = {m.name(v): m.binding(v) for v in m.global_variables if m.binding(v)}
    assert bindings == {"src": (0, 0), "dst": (0, 1), "counters": (1, 3), "vol": (2, 0)}
    src = next(v for v in m.global_variables if m.name(v) == "src")
    ptr = m.type_of(src)
    assert isinstance(ptr, TypePointer) and ptr.storage_class == "Uniform"  # SPIR-V 1.0
    block = m.type(ptr.pointee)
    assert isinstance(block, TypeStruct)
    assert m.has_decoration(block.id, "BufferBlock")
    assert m.decoration(block.id, "NonWritable", member=1) == ()
    assert m.decoration(block.id, "Offset", member=1) == (16,)
    particles = m.type(block.members[1])
    assert isinstance(particles, TypeRuntimeArray)
    assert m.decoration(particles.id, "ArrayStride") == (48,)
    assert m.workgroup_size() == (32, 2, 1)
    m13 = read_spirv(compiled("buffers_std430.comp", "vulkan1.3"))
    src = next(v for v in m13.global_variables if m13.name(v) == "src")
    assert m13.global_variables[src].storage_class == "StorageBuffer"


def test_builtins_from_source() -> None:
    m = read_spirv(compiled("builtins.comp", "vulkan1.1"))
    names = {m.builtin(v) for v in m.global_variables} - {None}
    assert names == {
        "GlobalInvocationId",
        "LocalInvocationId",
        "WorkgroupId",
        "NumWorkgroups",
        "LocalInvocationIndex",
    }
    assert m.workgroup_size() == (8, 4, 2)
    ep = m.entry_point("main")
    assert ep.execution_model == "GLCompute" and m.function(ep.function).blocks


def test_local_arrays_constants_from_source() -> None:
    m = read_spirv(compiled("local_arrays.comp", "vulkan1.3"))
    tables = [
        m.constant_value(c)
        for c in m.constants
        if isinstance(m.type_of(c), TypeArray) and len(m.constants[c].constituents) == 8
    ]
    assert (0.0, 1.0, -1.0, 0.5, 2.0, -0.25, 1e10, pytest.approx(-1e-10)) in tables
    structs = [m.constant_value(c) for c in m.constants if isinstance(m.type_of(c), TypeStruct)]
    assert (1.0, (2, -3), (4.0, 5.0)) in structs


def test_control_flow_structure() -> None:
    m = read_spirv(compiled("control_flow.comp", "vulkan1.3"))
    assert len(m.functions) == 4
    merges = [b.merge.opname for f in m.functions for b in f.blocks if b.merge]
    assert "OpLoopMerge" in merges and "OpSelectionMerge" in merges
    switches = [
        b.terminator for f in m.functions for b in f.blocks if b.terminator.opname == "OpSwitch"
    ]
    assert len(switches) == 1
    cases_ = [p.params[0].value for p in switches[0].operands[2:]]
    assert sorted(cases_) == [-1, 0, 1, 2]  # signed case literals
    for f in m.functions:
        for b in f.blocks:
            for s in b.successors:
                f.block(s)
