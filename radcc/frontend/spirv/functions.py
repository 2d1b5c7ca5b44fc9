"""Functions and blocks: build ``Function`` records and check block structure.

Checked: parameters match the function type; every block starts with OpLabel
and ends with exactly one terminator; OpPhi only at the start of a block;
Function-storage OpVariable only at the start of the entry block; a merge
instruction (OpSelectionMerge, OpLoopMerge) right before a terminator of the
right kind; branch, merge and continue targets are labels of the same function;
the entry block is no branch target; OpReturn/OpReturnValue match the return type.
"""

from __future__ import annotations

from .binary import Instruction
from .errors import SpirvError
from .layout import opcode_section
from .module import SpirvModule
from .types import (
    MERGES,
    TERMINATORS,
    Block,
    Function,
    Parameter,
    TypeFunction,
    TypePointer,
    TypeVoid,
)

_IN_FUNCTION_GLOBALS = frozenset(
    {"OpVariable", "OpUndef", "OpExtInst", "OpLine", "OpNoLine", "OpNop"}
)
# opcode -> whether an instruction of it is not allowed inside a function (a section of
# its own outside functions, not one of `_IN_FUNCTION_GLOBALS`), filled as met
_OUTSIDE_ONLY: dict[int, bool] = {}
_MERGE_TERMINATORS = {
    "OpSelectionMerge": ("OpBranchConditional", "OpSwitch"),
    "OpLoopMerge": ("OpBranch", "OpBranchConditional"),
}
_DEBUG_LINES = ("OpLine", "OpNoLine")
_PHI_PREFIX = ("OpPhi", *_DEBUG_LINES)  # what may precede an OpPhi in its block
_VARIABLE_PREFIX = ("OpVariable", *_DEBUG_LINES)  # ... an OpVariable in the first block


def _fail(msg: str, ins: Instruction) -> SpirvError:
    return SpirvError(msg, ins.offset, ins.opname)


class FunctionBuilder:
    def __init__(self, m: SpirvModule, ins: Instruction) -> None:
        self.m, self.start = m, ins
        assert ins.result_id is not None and ins.result_type is not None
        ft = m.types.get(ins.id(1))
        if not isinstance(ft, TypeFunction):
            raise _fail(f"%{ins.id(1)} is not an OpTypeFunction", ins)
        if ft.return_type != ins.result_type:
            raise _fail(f"result type %{ins.result_type} differs from the function type's", ins)
        ctl = ins.operands[0].value
        assert isinstance(ctl, int)
        self.ftype = ft
        self.fn = Function(ins.result_id, ins.result_type, ctl, ins.id(1))
        self.block: Block | None = None
        # how many leading instructions of `block` are known to be variables or debug
        # lines (`_local_variable` looks at the rest only: one look per instruction), and
        # phis or debug lines (the OpPhi check likewise: linear in a block of many phis)
        self._var_prefix = 0
        self._phi_prefix = 0

    def add(self, ins: Instruction) -> None:
        op = ins.opname
        if op == "OpFunctionParameter":
            self._param(ins)
            return
        if op == "OpLabel":
            if self.block is not None:
                raise _fail(f"block %{self.block.label} is not ended by a terminator", ins)
            if not self.fn.blocks:
                self._check_param_count(ins)
            assert ins.result_id is not None
            self.block = Block(ins.result_id)
            self._var_prefix = self._phi_prefix = 0
            return
        if op == "OpFunction":
            raise _fail(f"function %{self.fn.id} is not ended by OpFunctionEnd", ins)
        outside = _OUTSIDE_ONLY.get(ins.opcode)
        if outside is None:
            outside = _OUTSIDE_ONLY[ins.opcode] = \
                opcode_section(ins.opcode) is not None and op not in _IN_FUNCTION_GLOBALS
        if outside:
            raise _fail("not allowed inside a function", ins)
        b = self.block
        if b is None:
            where = "after a terminator" if self.fn.blocks else "before the first OpLabel"
            raise _fail(f"instruction outside a block ({where})", ins)
        if b.instructions and b.instructions[-1].opname in MERGES and op not in TERMINATORS:
            raise _fail(f"{b.instructions[-1].opname} must immediately precede the terminator", ins)
        if op == "OpPhi":
            if any(i.opname not in _PHI_PREFIX for i in b.instructions[self._phi_prefix:]):
                raise _fail("OpPhi must be at the start of its block", ins)
            self._phi_prefix = len(b.instructions)
        if op == "OpVariable":
            self._local_variable(ins, b)
        b.instructions.append(ins)
        if op in TERMINATORS:
            b.seal()
            self.fn.blocks.append(b)
            self.block = None

    def _param(self, ins: Instruction) -> None:
        if self.fn.blocks or self.block is not None:
            raise _fail("OpFunctionParameter after the first block", ins)
        k = len(self.fn.params)
        if k >= len(self.ftype.params):
            raise _fail(f"more parameters than the function type's {len(self.ftype.params)}", ins)
        assert ins.result_id is not None and ins.result_type is not None
        if ins.result_type != self.ftype.params[k]:
            raise _fail(
                f"parameter {k} type %{ins.result_type} differs from the function type's", ins
            )
        self.fn.params.append(Parameter(ins.result_id, ins.result_type))

    def _check_param_count(self, ins: Instruction) -> None:
        if len(self.fn.params) != len(self.ftype.params):
            raise _fail(
                f"function %{self.fn.id} has {len(self.fn.params)} parameters, "
                f"its type {len(self.ftype.params)}",
                ins,
            )

    def _local_variable(self, ins: Instruction, b: Block) -> None:
        if ins.operands[0].name != "Function":
            raise _fail("variables inside a function must use storage class Function", ins)
        ptr = self.m.types.get(ins.result_type or 0)
        if not isinstance(ptr, TypePointer) or ptr.storage_class != "Function":
            raise _fail(f"type %{ins.result_type} is not a Function pointer", ins)
        if self.fn.blocks or any(
            i.opname not in _VARIABLE_PREFIX
            for i in b.instructions[self._var_prefix:]
        ):
            raise _fail("Function variables must be at the start of the first block", ins)
        self._var_prefix = len(b.instructions)

    def finish(self, end: Instruction) -> Function:
        if self.block is not None:
            raise _fail(f"block %{self.block.label} is not ended by a terminator", end)
        if not self.fn.blocks:
            self._check_param_count(end)
        self._check_cfg()
        return self.fn

    def _check_cfg(self) -> None:
        labels = {b.label for b in self.fn.blocks}
        entry = self.fn.blocks[0].label if self.fn.blocks else None
        void = isinstance(self.m.types[self.fn.result_type], TypeVoid)
        for b in self.fn.blocks:
            t = b.terminator
            targets = list(b.successors)
            merge = b.merge
            if merge is not None:
                allowed = _MERGE_TERMINATORS[merge.opname]
                if t.opname not in allowed:
                    raise _fail(f"{merge.opname} must be followed by {' or '.join(allowed)}", t)
                targets += merge.ids()[: 2 if merge.opname == "OpLoopMerge" else 1]
            for x in targets:
                if x not in labels:
                    raise _fail(f"branch target %{x} is not a block of this function", t)
                if x == entry:
                    raise _fail(f"the entry block %{x} cannot be a branch target", t)
            if t.opname == "OpReturn" and not void:
                raise _fail("OpReturn in a function that returns a value", t)
            if t.opname == "OpReturnValue" and void:
                raise _fail("OpReturnValue in a void function", t)
            for phi in b.phis:
                parents = phi.ids()[1::2]
                for p in parents:
                    if p not in labels:
                        raise _fail(f"OpPhi parent %{p} is not a block of this function", phi)
