"""combine_barriers: adjacent ``@barrier`` intrinsics of one block become one.

As NIR's ``nir_opt_combine_barriers``: two barriers with nothing between them but
instructions that touch no memory and do not communicate between invocations
(ALU ops, constants, undefs — ``mir_ops.ALU_OPS``) are one barrier whose
execution and memory scopes are the wider of the two and whose memory semantics
are the union (storage-class bits OR-ed; two different orderings become
AcquireRelease, SPIR-V's 0x8; SequentiallyConsistent 0x10 is kept).

Why it is sound: every invocation reaching the first barrier goes on to the
second with no observable action in between, so waiting for the workgroup
twice in a row is waiting once; the memory orderings of both are kept by the
union. Typical source: ``loop_unroll`` of a loop whose iterations were
emptied by ``range_fold``/``dead_branch`` except for their ``barrier()``.
"""

from __future__ import annotations

from ..mir import Instr, MirShader
from ..mir_ops import ALU_OPS

# execution/memory scopes, narrowest first ("None": a memory-only barrier)
_SCOPE_ORDER = ("None", "Invocation", "Subgroup", "Workgroup", "QueueFamily", "Device",
                "CrossDevice")
_ORDERING = 0x2 | 0x4 | 0x8  # Acquire, Release, AcquireRelease
_SEQ_CST = 0x10


def _wider(a: object, b: object) -> object:
    def rank(s: object) -> int:
        return _SCOPE_ORDER.index(s) if s in _SCOPE_ORDER else (-1 if s is None else
                                                                len(_SCOPE_ORDER))
    return a if rank(a) >= rank(b) else b


def _union_semantics(a: int, b: int) -> int:
    order_a, order_b = a & _ORDERING, b & _ORDERING
    rest = (a | b) & ~_ORDERING
    if order_a == order_b or not order_b:
        order = order_a
    elif not order_a:
        order = order_b
    else:
        order = 0x8
    if rest & _SEQ_CST:
        order = 0
    return rest | order


def _merge(first: Instr, second: Instr) -> None:
    at, bt = first.attrs, second.attrs
    first.attrs = {
        **at,
        "execution_scope": _wider(at.get("execution_scope"), bt.get("execution_scope")),
        "memory_scope": _wider(at.get("memory_scope"), bt.get("memory_scope")),
        "semantics": _union_semantics(int(at.get("semantics") or 0),
                                      int(bt.get("semantics") or 0)),
    }


def combine_barriers(shader: MirShader) -> bool:
    changed = False
    for block in shader.blocks():
        last: Instr | None = None
        keep: list[Instr] = []
        for ins in block.instrs:
            if ins.op == "barrier":
                if last is not None:
                    _merge(last, ins)
                    changed = True
                    continue
                last = ins
            elif not (ins.op in ALU_OPS or ins.op in ("load_const", "undef")):
                last = None
            keep.append(ins)
        if len(keep) != len(block.instrs):
            block.instrs = keep
    return changed
