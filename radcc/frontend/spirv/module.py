"""SpirvModule: a checked SPIR-V module, typed and indexed for the mid-level IR.

Build one with ``read_spirv(data)`` (``reader.py``); every id it holds is
defined, every type and constant is modelled by a record of ``types.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .binary import Header, Instruction
from .types import (
    Constant,
    ConstValue,
    Decoration,
    EntryPoint,
    Function,
    SpecConstant,
    Type,
    TypeArray,
    TypeBool,
    TypeFloat,
    TypeInt,
    TypeMatrix,
    TypeStruct,
    TypeVector,
    Variable,
)


@dataclass
class SpirvModule:
    header: Header
    capabilities: list[str] = field(default_factory=list)
    extensions: list[str] = field(default_factory=list)
    ext_imports: dict[int, str] = field(default_factory=dict)  # id -> set name
    addressing_model: str = ""
    memory_model: str = ""
    entry_points: list[EntryPoint] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    member_names: dict[tuple[int, int], str] = field(default_factory=dict)
    id_decorations: dict[int, list[Decoration]] = field(default_factory=dict)
    member_decorations: dict[tuple[int, int], list[Decoration]] = field(default_factory=dict)
    types: dict[int, Type] = field(default_factory=dict)
    constants: dict[int, Constant] = field(default_factory=dict)
    spec_constants: dict[int, SpecConstant] = field(default_factory=dict)
    global_variables: dict[int, Variable] = field(default_factory=dict)
    undefs: dict[int, int] = field(default_factory=dict)  # id -> type id
    functions: list[Function] = field(default_factory=list)
    instructions: list[Instruction] = field(default_factory=list)  # whole module, in order
    defs: dict[int, Instruction] = field(default_factory=dict)  # result id -> definition

    @property
    def version(self) -> tuple[int, int]:
        return self.header.version

    # ----- types -----
    def type(self, type_id: int) -> Type:
        """The type declared by ``type_id``."""
        return self.types[type_id]

    def type_of(self, value_id: int) -> Type:
        """The type of a value (constant, variable, instruction result, parameter)."""
        ins = self.defs[value_id]
        if ins.result_type is None:
            raise KeyError(f"%{value_id} ({ins.opname}) has no type")
        return self.types[ins.result_type]

    def type_id_of(self, value_id: int) -> int:
        t = self.defs[value_id].result_type
        if t is None:
            raise KeyError(f"%{value_id} has no type")
        return t

    def is_type(self, id_: int) -> bool:
        return id_ in self.types

    # ----- debug names and decorations -----
    def name(self, id_: int) -> str | None:
        return self.names.get(id_)

    def decorations(self, id_: int, member: int | None = None) -> list[Decoration]:
        """Decorations of an id, or of member ``member`` of a struct type."""
        if member is None:
            return self.id_decorations.get(id_, [])
        return self.member_decorations.get((id_, member), [])

    def decoration(
        self, id_: int, name: str, member: int | None = None
    ) -> tuple[int | float | str, ...] | None:
        """Arguments of decoration ``name`` (``()`` when it has none), None if absent."""
        for d in self.decorations(id_, member):
            if d.name == name:
                return d.args
        return None

    def has_decoration(self, id_: int, name: str, member: int | None = None) -> bool:
        return self.decoration(id_, name, member) is not None

    def builtin(self, id_: int, member: int | None = None) -> str | None:
        args = self.decoration(id_, "BuiltIn", member)
        return str(args[0]) if args else None

    def binding(self, var_id: int) -> tuple[int, int] | None:
        """(DescriptorSet, Binding) of a resource variable; set defaults to 0."""
        b = self.decoration(var_id, "Binding")
        if b is None:
            return None
        s = self.decoration(var_id, "DescriptorSet")
        return (int(s[0]) if s else 0, int(b[0]))

    def spec_id(self, id_: int) -> int | None:
        a = self.decoration(id_, "SpecId")
        return int(a[0]) if a else None

    # ----- constants -----
    def is_constant(self, id_: int) -> bool:
        return id_ in self.constants or id_ in self.spec_constants

    def constant_value(self, id_: int, spec: dict[int, ScalarLike] | None = None) -> ConstValue:
        """The value of a constant: Python int/float/bool, tuples for composites.

        Spec constants give their default, or ``spec[SpecId]`` when given.
        OpSpecConstantOp is not evaluated here (the mid-level IR folds it): KeyError.
        """
        c = self.constants.get(id_)
        if c is not None:
            if c.null:
                return self.null_value(c.type)
            if c.constituents:
                return tuple(self.constant_value(x, spec) for x in c.constituents)
            assert c.value is not None
            return c.value
        s = self.spec_constants.get(id_)
        if s is None:
            raise KeyError(f"%{id_} is not a constant")
        if s.opname == "OpSpecConstantOp":
            raise KeyError(f"%{id_} is an OpSpecConstantOp ({s.op}): fold it in the mid-level IR")
        if s.constituents:
            return tuple(self.constant_value(x, spec) for x in s.constituents)
        if spec and s.spec_id is not None and s.spec_id in spec:
            return _convert(spec[s.spec_id], self.types[s.type])
        assert s.value is not None
        return s.value

    def null_value(self, type_id: int) -> ConstValue:
        t = self.types[type_id]
        if isinstance(t, TypeBool):
            return False
        if isinstance(t, TypeInt):
            return 0
        if isinstance(t, TypeFloat):
            return 0.0
        if isinstance(t, TypeVector):
            return (self.null_value(t.component),) * t.count
        if isinstance(t, TypeMatrix):
            return (self.null_value(t.column),) * t.columns
        if isinstance(t, TypeArray):
            n = self.constant_value(t.length)
            assert isinstance(n, int)
            return (self.null_value(t.element),) * n
        if isinstance(t, TypeStruct):
            return tuple(self.null_value(m) for m in t.members)
        raise KeyError(f"no null value for type %{type_id}")

    # ----- entry points and functions -----
    def entry_point(self, name: str | None = None) -> EntryPoint:
        """The entry point called ``name``, or the only one."""
        for ep in self.entry_points:
            if name is None or ep.name == name:
                return ep
        raise KeyError(f"no entry point {name!r}")

    def function(self, func_id: int) -> Function:
        return next(f for f in self.functions if f.id == func_id)

    def workgroup_size(
        self, entry: EntryPoint | None = None, spec: dict[int, ScalarLike] | None = None
    ) -> tuple[int, int, int] | None:
        """LocalSize / LocalSizeId of ``entry``, overridden by a WorkgroupSize builtin constant."""
        ep = entry or self.entry_point()
        for cid in list(self.constants) + list(self.spec_constants):
            if self.builtin(cid) == "WorkgroupSize":
                v = self.constant_value(cid, spec)
                assert isinstance(v, tuple)
                return (int(v[0]), int(v[1]), int(v[2]))  # type: ignore[arg-type]
        m = ep.mode("LocalSize")
        if m:
            return (m.args[0], m.args[1], m.args[2])
        m = ep.mode("LocalSizeId")
        if m:
            vals = [self.constant_value(a, spec) for a in m.args]
            return (int(vals[0]), int(vals[1]), int(vals[2]))  # type: ignore[arg-type]
        return None


ScalarLike = int | float | bool


def _convert(v: ScalarLike, t: Type) -> ScalarLike:
    if isinstance(t, TypeBool):
        return bool(v)
    if isinstance(t, TypeFloat):
        return float(v)
    return int(v)
