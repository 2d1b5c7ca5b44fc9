"""Generate radcc/frontend/spirv/grammar_data.py from the Khronos SPIR-V grammars.

Usage: python tools/gen_spirv_grammar.py [--include-dir /usr/include/spirv] [-o OUT]

Reads the machine-readable grammars shipped by Debian's ``spirv-headers``
(``unified1/spirv.core.grammar.json``, ``unified1/extinst.*.grammar.json`` and
``spir-v.xml`` for the generator registry) and writes a compact Python table, so
radcc needs no SPIR-V package at run time. The reader and the disassembler use
only this table: no opcode or enumerant is typed by hand.

Table layout (all tuples, first spelling of an opcode/value wins, as spirv-dis prints):

- ``INSTRUCTIONS``: opcode -> (opname, class, operands, capabilities, version, extensions)
  with operands a tuple of (kind, quantifier) and quantifier one of "", "?", "*".
- ``OPNAMES``: every spelling (aliases too) -> opcode.
- ``OPERAND_KINDS``: kind -> (category, bases) (bases for the Pair* composites).
- ``ENUMS``: kind -> {value: (name, parameter kinds, capabilities)}.
- ``ENUM_NAMES``: kind -> {every spelling: value}.
- ``ENUM_REQUIREMENTS``: operand kind -> {value: (version, extensions)} for the
  enumerants (capabilities included) that are not in SPIR-V 1.0 or that an extension
  provides: the first core version over all spellings ("None": only through an
  extension) and the extensions any spelling names (a module that uses the enumerant
  needs that version or one of those extensions).
- ``LAST_VERSIONS``: "Opcode" or an operand kind -> {value: the last SPIR-V version
  that has it} for the opcodes and enumerants a later version removed (BufferBlock:
  1.3).
- ``EXT_INST_SETS``: set name -> {number: (name, operands)}.
- ``GENERATORS``: vendor id -> (vendor, tool).

Extensions newer than the installed grammar (Debian 12's is SPIR-V 1.6 revision 1) are
added from their Khronos SPIRV-Registry entries (`SUPPLEMENTS`, entered by hand from the
extension specification; an installed grammar that has them wins): today
SPV_KHR_cooperative_matrix (opcodes 4456-4460, the CooperativeMatrixKHR capability 6022,
the CooperativeMatrixUse/Layout and CooperativeMatrixOperands enumerants) and
SPV_VALVE_mixed_float_dot_product (OpFDot2MixAcc32VALVE/OpFDot2MixAcc16VALVE 6916/6917,
capabilities 6912/6913); SPV_KHR_bfloat16's capabilities (5116-5118) and OpTypeFloat's
optional FPEncoding operand (BFloat16KHR 0). `ALIASES` adds the KHR spellings of promoted
NV enumerants the installed grammar knows by their NV names only (a spelling the grammar
has wins; the NV name stays the first one): SPV_KHR_compute_shader_derivatives'
capabilities ComputeDerivativeGroupQuadsKHR 5288 / ComputeDerivativeGroupLinearKHR 5350 and
execution modes DerivativeGroupQuadsKHR 5289 / DerivativeGroupLinearKHR 5290.
"""

from __future__ import annotations

import argparse
import json
import pprint
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "radcc" / "frontend" / "spirv" / "grammar_data.py"

# extinst grammar file stem -> the name an OpExtInstImport uses
EXT_SETS = {
    "glsl.std.450": "GLSL.std.450",
    "opencl.std.100": "OpenCL.std",
    "nonsemantic.debugprintf": "NonSemantic.DebugPrintf",
    "nonsemantic.shader.debuginfo.100": "NonSemantic.Shader.DebugInfo.100",
    "nonsemantic.clspvreflection": "NonSemantic.ClspvReflection.5",
    "spv-amd-gcn-shader": "SPV_AMD_gcn_shader",
    "spv-amd-shader-ballot": "SPV_AMD_shader_ballot",
    "spv-amd-shader-trinary-minmax": "SPV_AMD_shader_trinary_minmax",
    "spv-amd-shader-explicit-vertex-parameter": "SPV_AMD_shader_explicit_vertex_parameter",
    "debuginfo": "DebugInfo",
    "opencl.debuginfo.100": "OpenCL.DebugInfo.100",
}


# SPV_KHR_cooperative_matrix (SPIRV-Registry extensions/KHR/SPV_KHR_cooperative_matrix.asciidoc,
# "Tokens" and "Instructions"): opcodes, operands, enumerants
_COOPMAT_CAP = ["CooperativeMatrixKHR"]
_VALVE_DOT = ["SPV_VALVE_mixed_float_dot_product"]
# SPV_KHR_bfloat16 (extensions/KHR/SPV_KHR_bfloat16.asciidoc): its capabilities and the
# FPEncoding operand OpTypeFloat takes (read so that the type is refused by name)
_BF16 = ["SPV_KHR_bfloat16"]
SUPPLEMENTS: dict[str, Any] = {
    "instructions": [
        {"opname": "OpTypeCooperativeMatrixKHR", "class": "Type-Declaration", "opcode": 4456,
         "operands": [{"kind": "IdResult"}, {"kind": "IdRef"}, {"kind": "IdScope"},
                      {"kind": "IdRef"}, {"kind": "IdRef"}, {"kind": "IdRef"}],
         "capabilities": _COOPMAT_CAP},
        {"opname": "OpCooperativeMatrixLoadKHR", "class": "Memory", "opcode": 4457,
         "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}, {"kind": "IdRef"},
                      {"kind": "IdRef"}, {"kind": "IdRef", "quantifier": "?"},
                      {"kind": "MemoryAccess", "quantifier": "?"}],
         "capabilities": _COOPMAT_CAP},
        {"opname": "OpCooperativeMatrixStoreKHR", "class": "Memory", "opcode": 4458,
         "operands": [{"kind": "IdRef"}, {"kind": "IdRef"}, {"kind": "IdRef"},
                      {"kind": "IdRef", "quantifier": "?"},
                      {"kind": "MemoryAccess", "quantifier": "?"}],
         "capabilities": _COOPMAT_CAP},
        {"opname": "OpCooperativeMatrixMulAddKHR", "class": "Arithmetic", "opcode": 4459,
         "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}, {"kind": "IdRef"},
                      {"kind": "IdRef"}, {"kind": "IdRef"},
                      {"kind": "CooperativeMatrixOperands", "quantifier": "?"}],
         "capabilities": _COOPMAT_CAP},
        {"opname": "OpCooperativeMatrixLengthKHR", "class": "Miscellaneous", "opcode": 4460,
         "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}, {"kind": "IdRef"}],
         "capabilities": _COOPMAT_CAP},
        # SPV_VALVE_mixed_float_dot_product (SPIRV-Registry extensions/VALVE/
        # SPV_VALVE_mixed_float_dot_product.asciidoc; llama.cpp's _dot2 shaders)
        {"opname": "OpFDot2MixAcc32VALVE", "class": "Arithmetic", "opcode": 6916,
         "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}, {"kind": "IdRef"},
                      {"kind": "IdRef"}, {"kind": "IdRef"}],
         "capabilities": ["DotProductFloat16AccFloat32VALVE"], "version": "None",
         "extensions": _VALVE_DOT},
        {"opname": "OpFDot2MixAcc16VALVE", "class": "Arithmetic", "opcode": 6917,
         "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}, {"kind": "IdRef"},
                      {"kind": "IdRef"}, {"kind": "IdRef"}],
         "capabilities": ["DotProductFloat16AccFloat16VALVE"], "version": "None",
         "extensions": _VALVE_DOT},
    ],
    "capabilities": [{"enumerant": "CooperativeMatrixKHR", "value": 6022,
                      "version": "None", "extensions": ["SPV_KHR_cooperative_matrix"]},
                     {"enumerant": "DotProductFloat16AccFloat32VALVE", "value": 6912,
                      "version": "None", "extensions": _VALVE_DOT},
                     {"enumerant": "DotProductFloat16AccFloat16VALVE", "value": 6913,
                      "version": "None", "extensions": _VALVE_DOT},
                     {"enumerant": "BFloat16TypeKHR", "value": 5116,
                      "version": "None", "extensions": _BF16},
                     {"enumerant": "BFloat16DotProductKHR", "value": 5117,
                      "version": "None", "extensions": _BF16},
                     {"enumerant": "BFloat16CooperativeMatrixKHR", "value": 5118,
                      "version": "None", "extensions": _BF16}],
    "operand_kinds": [
        {"category": "ValueEnum", "kind": "FPEncoding", "enumerants": [
            {"enumerant": "BFloat16KHR", "value": 0, "capabilities": ["BFloat16TypeKHR"]}]},
        {"category": "BitEnum", "kind": "CooperativeMatrixOperands", "enumerants": [
            {"enumerant": "NoneKHR", "value": "0x0000"},
            {"enumerant": "MatrixASignedComponentsKHR", "value": "0x0001"},
            {"enumerant": "MatrixBSignedComponentsKHR", "value": "0x0002"},
            {"enumerant": "MatrixCSignedComponentsKHR", "value": "0x0004"},
            {"enumerant": "MatrixResultSignedComponentsKHR", "value": "0x0008"},
            {"enumerant": "SaturatingAccumulationKHR", "value": "0x0010"}]},
        {"category": "ValueEnum", "kind": "CooperativeMatrixLayout", "enumerants": [
            {"enumerant": "RowMajorKHR", "value": 0},
            {"enumerant": "ColumnMajorKHR", "value": 1}]},
        {"category": "ValueEnum", "kind": "CooperativeMatrixUse", "enumerants": [
            {"enumerant": "MatrixAKHR", "value": 0},
            {"enumerant": "MatrixBKHR", "value": 1},
            {"enumerant": "MatrixAccumulatorKHR", "value": 2}]},
    ],
}

# operand kind -> second spellings (SPIRV-Registry extensions/KHR/
# SPV_KHR_compute_shader_derivatives.asciidoc, "Tokens")
_KHR_DERIV = ["SPV_KHR_compute_shader_derivatives"]
ALIASES: dict[str, list[dict[str, Any]]] = {
    "Capability": [
        {"enumerant": "ComputeDerivativeGroupQuadsKHR", "value": 5288, "version": "None",
         "extensions": _KHR_DERIV},
        {"enumerant": "ComputeDerivativeGroupLinearKHR", "value": 5350, "version": "None",
         "extensions": _KHR_DERIV}],
    "ExecutionMode": [
        {"enumerant": "DerivativeGroupQuadsKHR", "value": 5289,
         "capabilities": ["ComputeDerivativeGroupQuadsKHR"], "version": "None",
         "extensions": _KHR_DERIV},
        {"enumerant": "DerivativeGroupLinearKHR", "value": 5290,
         "capabilities": ["ComputeDerivativeGroupLinearKHR"], "version": "None",
         "extensions": _KHR_DERIV}],
}


def _supplement(core: dict[str, Any]) -> None:
    """Add `SUPPLEMENTS` to a core grammar that lacks them (in place)."""
    have = {i["opcode"] for i in core["instructions"]}
    core["instructions"] += [i for i in SUPPLEMENTS["instructions"] if i["opcode"] not in have]
    kinds = {k["kind"]: k for k in core["operand_kinds"]}
    for k in SUPPLEMENTS["operand_kinds"]:
        if k["kind"] not in kinds:
            core["operand_kinds"].append(k)
    for ins in core["instructions"]:
        if ins["opname"] == "OpTypeFloat" and len(ins["operands"]) == 2:
            ins["operands"].append({"kind": "FPEncoding", "quantifier": "?"})
    cap = kinds["Capability"]["enumerants"]
    values = {_value(e["value"]) for e in cap}
    cap += [e for e in SUPPLEMENTS["capabilities"] if e["value"] not in values]
    for kind, extra in ALIASES.items():
        ens = kinds[kind]["enumerants"]
        names = {e["enumerant"] for e in ens}
        values = {_value(e["value"]) for e in ens}
        ens += [e for e in extra if e["enumerant"] not in names and e["value"] in values]


def _operands(ops: list[dict[str, Any]]) -> tuple[tuple[str, str], ...]:
    return tuple((o["kind"], o.get("quantifier", "")) for o in ops)


def _value(v: int | str) -> int:
    return int(v, 0) if isinstance(v, str) else v


def _merge_requirement(have: tuple[str, tuple[str, ...]] | None, version: str,
                       extensions: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """One capability value's requirement over its spellings: the lowest core version
    ("None" is none) and every extension named."""
    if have is None:
        return version, extensions
    versions = [x for x in (have[0], version) if x != "None"]
    low = min(versions, key=lambda x: tuple(int(n) for n in x.split("."))) if versions \
        else "None"
    return low, have[1] + tuple(x for x in extensions if x not in have[1])


def build(include: Path) -> dict[str, Any]:
    core = json.loads((include / "unified1" / "spirv.core.grammar.json").read_text())
    _supplement(core)
    instructions: dict[int, tuple[Any, ...]] = {}
    opnames: dict[str, int] = {}
    last: dict[str, dict[int, str]] = {}
    for ins in core["instructions"]:
        op = ins["opcode"]
        opnames[ins["opname"]] = op
        if "lastVersion" in ins:
            last.setdefault("Opcode", {})[op] = ins["lastVersion"]
        if op in instructions:
            continue
        instructions[op] = (
            ins["opname"],
            ins.get("class", ""),
            _operands(ins.get("operands", [])),
            tuple(ins.get("capabilities", ())),
            ins.get("version", ""),
            tuple(ins.get("extensions", ())),
        )
    kinds: dict[str, tuple[str, tuple[str, ...]]] = {}
    enums: dict[str, dict[int, tuple[Any, ...]]] = {}
    enum_names: dict[str, dict[str, int]] = {}
    requirements: dict[str, dict[int, tuple[str, tuple[str, ...]]]] = {}
    for k in core["operand_kinds"]:
        kinds[k["kind"]] = (k["category"], tuple(k.get("bases", ())))
        if "enumerants" not in k:
            continue
        table: dict[int, tuple[Any, ...]] = {}
        names: dict[str, int] = {}
        for e in k["enumerants"]:
            v = _value(e["value"])
            names[e["enumerant"]] = v
            if "lastVersion" in e:
                last.setdefault(k["kind"], {})[v] = e["lastVersion"]
            if v not in table:
                params = tuple(p["kind"] for p in e.get("parameters", ()))
                table[v] = (e["enumerant"], params, tuple(e.get("capabilities", ())))
            if e.get("version") or e.get("extensions"):
                req = requirements.setdefault(k["kind"], {})
                req[v] = _merge_requirement(req.get(v), e.get("version") or "1.0",
                                            tuple(e.get("extensions", ())))
        enums[k["kind"]] = dict(sorted(table.items()))
        enum_names[k["kind"]] = names
    ext_sets: dict[str, dict[int, tuple[Any, ...]]] = {}
    for stem, set_name in EXT_SETS.items():
        path = include / "unified1" / f"extinst.{stem}.grammar.json"
        if not path.exists():
            continue
        g = json.loads(path.read_text())
        used = {o["kind"] for i in g["instructions"] for o in i.get("operands", [])}
        if not used <= kinds.keys():  # sets with kinds of their own are read as IdRef*
            continue
        ext_sets[set_name] = {
            i["opcode"]: (i["opname"], _operands(i.get("operands", []))) for i in g["instructions"]
        }
    generators: dict[int, tuple[str, str]] = {}
    xml = include / "spir-v.xml"
    if xml.exists():
        for node in ET.parse(xml).getroot().iter("id"):
            if "vendor" in node.attrib:
                generators[int(node.attrib["value"])] = (
                    node.attrib["vendor"],
                    node.attrib.get("tool", ""),
                )
    return {
        "GRAMMAR_VERSION": (core["major_version"], core["minor_version"], core["revision"]),
        "MAGIC": _value(core["magic_number"]),
        "INSTRUCTIONS": dict(sorted(instructions.items())),
        "OPNAMES": opnames,
        "OPERAND_KINDS": kinds,
        "ENUMS": enums,
        "ENUM_NAMES": enum_names,
        "ENUM_REQUIREMENTS": {k: dict(sorted(v.items())) for k, v in sorted(requirements.items())
                              if any(r != ("1.0", ()) for r in v.values())},
        "LAST_VERSIONS": {k: dict(sorted(v.items())) for k, v in sorted(last.items())},
        "EXT_INST_SETS": ext_sets,
        "GENERATORS": dict(sorted(generators.items())),
    }


def render(tables: dict[str, Any]) -> str:
    out = [
        '"""SPIR-V grammar tables. GENERATED by tools/gen_spirv_grammar.py: do not edit."""',
        "",
        "# ruff: noqa",
        "# fmt: off",
        "from typing import Any",
        "",
    ]
    for name, value in tables.items():
        out.append(f"{name}: Any = {pprint.pformat(value, width=100, sort_dicts=False)}")
        out.append("")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--include-dir", type=Path, default=Path("/usr/include/spirv"))
    ap.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    args.output.write_text(render(build(args.include_dir)))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
