"""The committed grammar table: generated from the Khronos JSON, complete for the decoder."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from radcc.frontend.spirv import grammar, grammar_data

ROOT = Path(__file__).resolve().parents[3]
HEADERS = Path("/usr/include/spirv")
HANDLED_LITERALS = {
    "LiteralInteger",
    "LiteralString",
    "LiteralContextDependentNumber",
    "LiteralExtInstInteger",
    "LiteralSpecConstantOpInteger",
}


def test_every_operand_kind_is_decodable() -> None:
    kinds = {k for row in grammar_data.INSTRUCTIONS.values() for k, _ in row[2]}
    kinds |= {p for table in grammar_data.ENUMS.values() for row in table.values() for p in row[1]}
    kinds |= {
        k for s in grammar_data.EXT_INST_SETS.values() for row in s.values() for k, _ in row[1]
    }
    for kind in kinds:
        cat = grammar.category(kind)
        assert cat in ("Id", "Literal", "ValueEnum", "BitEnum", "Composite"), kind
        if cat == "Literal":
            assert kind in HANDLED_LITERALS, kind


@pytest.mark.skipif(not HEADERS.exists(), reason="spirv-headers not installed")
def test_committed_table_is_what_the_generator_makes() -> None:
    spec = importlib.util.spec_from_file_location("gen", ROOT / "tools" / "gen_spirv_grammar.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = gen.render(gen.build(HEADERS))
    assert text == (ROOT / "radcc" / "frontend" / "spirv" / "grammar_data.py").read_text()


@pytest.mark.skipif(not HEADERS.exists(), reason="spirv-headers not installed")
def test_table_agrees_with_the_json() -> None:
    core = json.loads((HEADERS / "unified1" / "spirv.core.grammar.json").read_text())
    for ins in core["instructions"]:
        assert grammar.opcode(ins["opname"]) == ins["opcode"]
    glsl = json.loads((HEADERS / "unified1" / "extinst.glsl.std.450.grammar.json").read_text())
    for ins in glsl["instructions"]:
        row = grammar.ext_instruction("GLSL.std.450", ins["opcode"])
        assert row is not None and row[0] == ins["opname"]
        assert len(row[1]) == len(ins.get("operands", []))


@pytest.mark.skipif(not HEADERS.exists(), reason="spirv-headers not installed")
def test_enum_aliases_are_the_json_spellings_of_a_value() -> None:
    """Every spelling the Khronos JSON gives a value (entries sharing it, their
    ``aliases``) is among `enum_aliases` of it (the committed table may be newer)."""
    core = json.loads((HEADERS / "unified1" / "spirv.core.grammar.json").read_text())
    checked = 0
    for kind in core["operand_kinds"]:
        if kind["category"] != "ValueEnum":
            continue
        spellings: dict[int, set[str]] = {}
        for e in kind["enumerants"]:
            value = e["value"] if isinstance(e["value"], int) else int(e["value"], 0)
            spellings.setdefault(value, set()).update([e["enumerant"], *e.get("aliases", ())])
        for value, names in spellings.items():
            assert names <= set(grammar.enum_aliases(kind["kind"], value)), (kind["kind"], value)
            checked += 1
    assert checked > 500
    assert grammar.enum_aliases("Capability", 5379) == ["DemoteToHelperInvocation",
                                                       "DemoteToHelperInvocationEXT"]
    assert grammar.enum_aliases("Capability", 0xFFFF_FFF0) == []
