"""Typed access to the generated SPIR-V grammar table (``grammar_data.py``).

Everything the reader knows about opcodes, operand kinds and enumerants comes
from here; regenerate the table with ``tools/gen_spirv_grammar.py``.
"""

from __future__ import annotations

import marshal
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

_TABLES = ("GRAMMAR_VERSION", "MAGIC", "INSTRUCTIONS", "OPNAMES", "OPERAND_KINDS", "ENUMS",
           "ENUM_NAMES", "ENUM_REQUIREMENTS", "LAST_VERSIONS", "EXT_INST_SETS",
           "GENERATORS")
_CACHE_VERSION = 4


def _load_tables() -> Any:
    """The tables of ``grammar_data.py``. Compiling that 300 KB module costs more than a
    second when Python writes no bytecode (``PYTHONDONTWRITEBYTECODE``) and about 30 ms
    from bytecode; its tables are therefore also kept as a marshal file in
    ``__pycache__`` (keyed by the module's size and mtime and the Python version, as
    `radcc.isa.table` keeps the opcode tables), which loads in a few milliseconds. A
    missing or stale cache is rebuilt; where it cannot be written the module is
    imported every time."""
    src = Path(__file__).with_name("grammar_data.py")
    cache_path = src.parent / "__pycache__" / f"grammar_data.{sys.implementation.cache_tag}.marshal"
    try:
        st = src.stat()
        key = (_CACHE_VERSION, st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    if key is not None:
        try:
            k, values = marshal.loads(cache_path.read_bytes())
            if k == key:
                return SimpleNamespace(**dict(zip(_TABLES, values, strict=True)))
        except (OSError, ValueError, EOFError, TypeError):
            pass
    from . import grammar_data

    values = tuple(getattr(grammar_data, n) for n in _TABLES)
    if key is not None:
        try:
            cache_path.parent.mkdir(exist_ok=True)
            tmp = cache_path.with_name(f"{cache_path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(marshal.dumps((key, values)))
            os.replace(tmp, cache_path)
        except (OSError, ValueError):
            pass  # read-only install: import the module every time
    return grammar_data


_g = _load_tables()

MAGIC: int = _g.MAGIC
GRAMMAR_VERSION: tuple[int, int, int] = _g.GRAMMAR_VERSION


@dataclass(frozen=True)
class OperandSpec:
    kind: str
    quantifier: str  # "", "?" (optional) or "*" (any number)


@dataclass(frozen=True)
class InstructionInfo:
    opcode: int
    opname: str
    klass: str
    operands: tuple[OperandSpec, ...]
    capabilities: tuple[str, ...]
    version: tuple[int, int] | None  # first core version; None: only via an extension
    extensions: tuple[str, ...]

    @property
    def has_result_type(self) -> bool:
        return bool(self.operands) and self.operands[0].kind == "IdResultType"

    @property
    def has_result(self) -> bool:
        return any(o.kind == "IdResult" for o in self.operands[:2])


@dataclass(frozen=True)
class Enumerant:
    kind: str
    value: int
    name: str
    parameters: tuple[str, ...]  # operand kinds that follow the enumerant
    capabilities: tuple[str, ...]


def _version(text: str) -> tuple[int, int] | None:
    if not text:
        return (1, 0)
    if text == "None":
        return None
    major, minor = text.split(".")
    return (int(major), int(minor))


# Instructions the 1.6r1 grammar lists as core 1.6 without the extension that also
# provides them in earlier versions (the SPIR-V registry's SPV_KHR_integer_dot_product:
# "These instructions are core in SPIR-V 1.6"; spirv-val accepts them in a 1.5 module
# that declares the extension, as llama.cpp's int8 shaders are built).
_ALSO_FROM_EXTENSION = {
    name: "SPV_KHR_integer_dot_product" for name in (
        "OpSDot", "OpUDot", "OpSUDot", "OpSDotAccSat", "OpUDotAccSat", "OpSUDotAccSat")
}


@cache
def instruction(opcode: int) -> InstructionInfo | None:
    row = _g.INSTRUCTIONS.get(opcode)
    if row is None:
        return None
    opname, klass, operands, caps, version, exts = row
    if opname in _ALSO_FROM_EXTENSION and not exts:
        exts = (_ALSO_FROM_EXTENSION[opname],)
    return InstructionInfo(
        opcode,
        opname,
        klass,
        tuple(OperandSpec(k, q) for k, q in operands),
        caps,
        _version(version),
        exts,
    )


def opcode(opname: str) -> int:
    """The opcode of an instruction name (aliases accepted); KeyError if unknown."""
    return int(_g.OPNAMES[opname])


def opname(opcode_: int) -> str:
    info = instruction(opcode_)
    return info.opname if info else f"Op<{opcode_}>"


# operand kind -> its category (`category`; the mapping itself for hot loops)
CATEGORIES: dict[str, str] = {k: str(v[0]) for k, v in _g.OPERAND_KINDS.items()}
# the operand kinds of category Id (IdRef, IdResultType, IdScope ...)
ID_KINDS: frozenset[str] = frozenset(k for k, c in CATEGORIES.items() if c == "Id")


def category(kind: str) -> str:
    """Operand kind category: Id, Literal, ValueEnum, BitEnum or Composite."""
    return CATEGORIES[kind]


def bases(kind: str) -> tuple[str, ...]:
    return tuple(_g.OPERAND_KINDS[kind][1])


@cache
def enumerant(kind: str, value: int) -> Enumerant | None:
    row = _g.ENUMS.get(kind, {}).get(value)
    if row is None:
        return None
    name, params, caps = row
    return Enumerant(kind, value, name, params, caps)


def requirement(kind: str, value: int) -> tuple[tuple[int, int] | None, tuple[str, ...]]:
    """What using enumerant `value` of operand kind `kind` (declaring it, for a
    capability) needs: the first SPIR-V version that has it (None: no core version) and
    the extensions that provide it otherwise."""
    version, extensions = _g.ENUM_REQUIREMENTS.get(kind, {}).get(value, ("1.0", ()))
    return _version(version), extensions


def capability_requirement(value: int) -> tuple[tuple[int, int] | None, tuple[str, ...]]:
    """`requirement` of a capability."""
    return requirement("Capability", value)


def last_versions() -> dict[str, dict[int, str]]:
    """"Opcode" or an operand kind -> {value: the last SPIR-V version that has it}, for
    what a later version removed."""
    return _g.LAST_VERSIONS  # type: ignore[no-any-return]


def last_version(kind: str, value: int) -> tuple[int, int] | None:
    """The last SPIR-V version with opcode (kind "Opcode") or enumerant `value`; None
    when no version removed it."""
    v = _g.LAST_VERSIONS.get(kind, {}).get(value)
    return None if v is None else _version(v)


def earliest_removal() -> tuple[int, int] | None:
    """The earliest of the `last_version`s (None: nothing was removed): a module of this
    SPIR-V version or an older one uses nothing a later version removed."""
    ends = [e for d in _g.LAST_VERSIONS.values() for v in d.values()
            if (e := _version(v)) is not None]
    return min(ends) if ends else None


def enum_value(kind: str, name: str) -> int:
    """The value of an enumerant spelling (aliases accepted); KeyError if unknown."""
    return int(_g.ENUM_NAMES[kind][name])


def enum_aliases(kind: str, value: int) -> list[str]:
    """Every spelling of an enumerant value (its name and aliases)."""
    return list(_spellings(kind).get(value, ()))


@cache
def _spellings(kind: str) -> dict[int, tuple[str, ...]]:
    """`enum_aliases` of every value of `kind` (the table's spellings in its order), built
    once per kind rather than scanning the kind's names per call (the reader asks for a
    module's capabilities: 239 names)."""
    out: dict[int, list[str]] = {}
    for n, v in _g.ENUM_NAMES[kind].items():
        out.setdefault(int(v), []).append(n)
    return {v: tuple(ns) for v, ns in out.items()}


def enum_name(kind: str, value: int) -> str:
    e = enumerant(kind, value)
    return e.name if e else str(value)


def enumerants(kind: str) -> list[Enumerant]:
    out = []
    for v in _g.ENUMS.get(kind, {}):
        e = enumerant(kind, v)
        assert e is not None
        out.append(e)
    return out


@cache
def ext_instruction(set_name: str, number: int) -> tuple[str, tuple[OperandSpec, ...]] | None:
    """Name and operands of instruction ``number`` of an extended instruction set (made
    once per instruction: the validator and the translation ask per OpExtInst)."""
    row = _g.EXT_INST_SETS.get(set_name, {}).get(number)
    if row is None:
        return None
    return row[0], tuple(OperandSpec(k, q) for k, q in row[1])


def known_ext_set(set_name: str) -> bool:
    return set_name in _g.EXT_INST_SETS


def generator(word: int) -> str:
    """How spirv-dis names a generator word: ``Vendor Tool; version``."""
    vendor, version = word >> 16, word & 0xFFFF
    row = _g.GENERATORS.get(vendor)
    if row is None:
        return f"Unknown({vendor}); {version}"
    name = f"{row[0]} {row[1]}" if row[1] else row[0]
    return f"{name}; {version}"
