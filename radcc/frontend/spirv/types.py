"""SPIR-V types, constants, variables and declarations as typed records.

Ids are plain ``int``s; a record refers to other types by id, so the
``SpirvModule`` owns the graph and resolves ids (``module.type(id)``).
Enumerants (storage classes, execution models...) are their grammar spellings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .binary import Instruction, Operand


@dataclass(frozen=True)
class Type:
    id: int


@dataclass(frozen=True)
class TypeVoid(Type):
    pass


@dataclass(frozen=True)
class TypeBool(Type):
    pass


@dataclass(frozen=True)
class TypeInt(Type):
    width: int
    signed: bool


@dataclass(frozen=True)
class TypeFloat(Type):
    width: int
    bfloat16: bool = False  # OpTypeFloat 16 BFloat16KHR (SPV_KHR_bfloat16)


@dataclass(frozen=True)
class TypeVector(Type):
    component: int  # type id of the scalar
    count: int


@dataclass(frozen=True)
class TypeMatrix(Type):
    column: int  # type id of the column vector
    columns: int


@dataclass(frozen=True)
class TypeArray(Type):
    element: int
    length: int  # id of the (spec) constant giving the length


@dataclass(frozen=True)
class TypeRuntimeArray(Type):
    element: int


@dataclass(frozen=True)
class TypeStruct(Type):
    members: tuple[int, ...]


@dataclass(frozen=True)
class TypePointer(Type):
    storage_class: str
    pointee: int


@dataclass(frozen=True)
class TypeFunction(Type):
    return_type: int
    params: tuple[int, ...]


@dataclass(frozen=True)
class TypeCooperativeMatrix(Type):
    """OpTypeCooperativeMatrixKHR (SPV_KHR_cooperative_matrix): the ids of its scope,
    rows, columns and use, (spec) constants resolved by the translation."""

    component: int  # type id of the scalar
    scope: int
    rows: int
    columns: int
    use: int


@dataclass(frozen=True)
class TypeOther(Type):
    """A type the reader keeps but does not model (image, sampler, ...)."""

    opname: str
    operands: tuple[Operand, ...]


ScalarValue = int | float | bool
ConstValue = ScalarValue | tuple["ConstValue", ...]


@dataclass(frozen=True)
class Constant:
    """OpConstant/True/False (``value`` a Python scalar, ``bits`` the raw bits),
    OpConstantComposite (``constituents``), OpConstantNull (``null``)."""

    id: int
    type: int
    value: ScalarValue | None = None
    bits: int = 0
    constituents: tuple[int, ...] = ()
    null: bool = False
    opname: str = "OpConstant"


@dataclass(frozen=True)
class SpecConstant:
    """OpSpecConstant/True/False (scalar default in ``value``/``bits``),
    OpSpecConstantComposite (``constituents``) or OpSpecConstantOp (``op``,
    ``op_operands``). ``spec_id`` is the SpecId decoration, if any."""

    id: int
    type: int
    opname: str
    spec_id: int | None = None
    value: ScalarValue | None = None
    bits: int = 0
    constituents: tuple[int, ...] = ()
    op: str = ""  # OpSpecConstantOp's operation, e.g. "OpIAdd"
    op_operands: tuple[Operand, ...] = ()


@dataclass(frozen=True)
class Variable:
    id: int
    type: int  # the pointer type
    storage_class: str
    initializer: int | None = None


@dataclass(frozen=True)
class Decoration:
    name: str  # "Binding", "BuiltIn", ...
    args: tuple[int | float | str, ...] = ()  # enum args as their spellings


@dataclass(frozen=True)
class ExecutionMode:
    name: str  # "LocalSize", "LocalSizeId", ...
    args: tuple[int, ...]  # literals, or ids for OpExecutionModeId
    by_id: bool = False


@dataclass
class EntryPoint:
    execution_model: str
    function: int
    name: str
    interface: tuple[int, ...]
    execution_modes: list[ExecutionMode] = field(default_factory=list)

    def mode(self, name: str) -> ExecutionMode | None:
        return next((m for m in self.execution_modes if m.name == name), None)


TERMINATORS = frozenset(
    {
        "OpBranch",
        "OpBranchConditional",
        "OpSwitch",
        "OpReturn",
        "OpReturnValue",
        "OpKill",
        "OpUnreachable",
        "OpTerminateInvocation",
    }
)
MERGES = frozenset({"OpSelectionMerge", "OpLoopMerge"})


@dataclass
class Block:
    label: int
    instructions: list[Instruction] = field(default_factory=list)  # after OpLabel
    # `merge`, `successors`, `phis` and `body` computed once by `seal` (None: not sealed)
    sealed: _BlockFacts | None = field(default=None, repr=False, compare=False)

    def seal(self) -> None:
        """The block is complete (its terminator added; the instructions do not change
        after): its derived facts are computed once here, not on every look."""
        self.sealed = None
        phis, body = _phis_and_body(self.instructions)
        self.sealed = _BlockFacts(self.merge, self.successors, phis, body)

    @property
    def terminator(self) -> Instruction:
        return self.instructions[-1]

    @property
    def merge(self) -> Instruction | None:
        """OpSelectionMerge / OpLoopMerge of a header block."""
        if self.sealed is not None:
            return self.sealed.merge
        if len(self.instructions) >= 2 and self.instructions[-2].opname in MERGES:
            return self.instructions[-2]
        return None

    @property
    def phis(self) -> list[Instruction]:
        """The block's OpPhi instructions (sealed: one list, not to be changed)."""
        if self.sealed is not None:
            return self.sealed.phis
        return _phis_and_body(self.instructions)[0]

    @property
    def body(self) -> list[Instruction]:
        """Instructions between the phis and the merge/terminator (sealed: one list, not
        to be changed)."""
        if self.sealed is not None:
            return self.sealed.body
        return _phis_and_body(self.instructions)[1]

    @property
    def successors(self) -> tuple[int, ...]:
        """The labels its terminator branches to, in its operands' order (an OpSwitch's
        default first); sealed: one tuple, not a copy per look."""
        if self.sealed is not None:
            return self.sealed.successors
        t = self.terminator
        if t.opname == "OpBranch":
            return (t.id(0),)
        if t.opname == "OpBranchConditional":
            return (t.id(1), t.id(2))
        if t.opname == "OpSwitch":
            return (t.id(1),) + tuple([int(p.params[1].value) for p in t.operands[2:]])
        return ()


def _phis_and_body(instructions: list[Instruction]
                   ) -> tuple[list[Instruction], list[Instruction]]:
    """A block's `phis` (its OpPhis) and `body` (the instructions between the phis and
    the merge/terminator), in one walk."""
    phis: list[Instruction] = []
    body: list[Instruction] = []
    for i in instructions[:-1]:
        if i.opname == "OpPhi":
            phis.append(i)
        elif i.opname not in MERGES:
            body.append(i)
    if instructions and instructions[-1].opname == "OpPhi":  # (no terminator yet)
        phis.append(instructions[-1])
    return phis, body


class _BlockFacts:
    """`Block.seal`'s record."""

    __slots__ = ("merge", "successors", "phis", "body")

    def __init__(self, merge: Instruction | None, successors: tuple[int, ...],
                 phis: list[Instruction], body: list[Instruction]) -> None:
        self.merge, self.successors, self.phis, self.body = merge, successors, phis, body


@dataclass
class Parameter:
    id: int
    type: int


@dataclass
class Function:
    id: int
    result_type: int
    control: int  # FunctionControl mask
    type: int  # the OpTypeFunction id
    params: list[Parameter] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    @property
    def is_declaration(self) -> bool:
        return not self.blocks

    def block(self, label: int) -> Block:
        return next(b for b in self.blocks if b.label == label)
