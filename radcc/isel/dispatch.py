"""Selection of one MIR instruction: `SELECT` maps every MIR op isel handles to
the function of its family module that selects it (ACO's ``visit_instr`` switch
over ``visit_alu_instr``, ``visit_intrinsic``, ...); `select_instr` looks it up.

Families: constants and undefs (here), ALU (`alu16.select_alu`, which hands
32/64-bit operations to `alu.select_alu`), subgroup intrinsics
(`subgroup16.select_subgroup` -> `subgroup.select_subgroup`), system values
(`sysval`), loads, stores and atomics (`mem16` -> `memory`), buffer sizes and
barriers (`memory`), a vertex shader's fetch, outputs and NGG exports (`vertex`), fragment shader
inputs, outputs, discards and derivatives (`fragment`). Control flow is not an instruction: `cf.stmts` walks the
MIR's structure and calls `select_instr` for each instruction of a block.

The vertex, fragment and WMMA families' modules are imported when they first select
an instruction (`_later`, `_fragment_op`), so a compute compile loads neither them nor
the graphics ABI and code object they use (start-up, issue 14; `tests/test_api.py`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from radcc.frontend.mir import Instr
from radcc.frontend.mir_ops import ALU_OPS, SYSTEM_VALUES, VERTEX_SYSTEM_VALUES

from . import (
    alu16,
    global_mem,
    image,
    mem16,
    memory,
    subgroup16,
    sysval,
)
from .context import SMALL, Const, IselContext, unsupported
from .subgroup import SUBGROUP_INTRINSICS

Select = Callable[[IselContext, Instr], None]


def select_load_const(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    bits = d.bit_size
    if bits not in (1, 8, 16, 32, 64):
        raise unsupported(ins, f"{bits}-bit constants are not selected yet")
    m = (1 << bits) - 1 if bits in SMALL else -1
    ctx.set(d, [Const(bits, int(x) & m) for x in ins.attrs["value"]])


def select_undef(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    if d.bit_size not in (1, 8, 16, 32, 64):
        raise unsupported(ins)
    ctx.set(d, [Const(d.bit_size, 0)] * d.num_components)


def select_alu(ctx: IselContext, ins: Instr) -> None:
    if not ins.attrs.get("exact"):
        alu16.select_alu(ctx, ins)
        return
    # SPIR-V NoContraction: the machine definitions are precise (no fma fusion). ALU
    # selection stays in the builder's block, inserting at its insertion point, which
    # advances past what it inserts: the selected instructions are the slice between the
    # point before and the point after (not a set of the block's instructions built per
    # instruction, which was quadratic in the block's length)
    b = ctx.b
    blk, index = b.block, b.index
    assert blk is not None
    start = len(blk.instructions) if index is None else index
    alu16.select_alu(ctx, ins)
    assert b.block is blk and (b.index is None) == (index is None)
    end = len(blk.instructions) if b.index is None else b.index
    for x in blk.instructions[start:end]:
        for dd in x.definitions:
            dd.is_precise = True


def _later(module: str, name: str) -> Select:
    """`name` of the family module `module`, imported when it first selects something:
    the graphics stages' and WMMA's modules (and the graphics ABI they read) are not
    loaded by a compute compile that does not use them (issue 14, start-up)."""
    def select(ctx: IselContext, ins: Instr) -> None:
        fn: Select = getattr(importlib.import_module(f"{__package__}.{module}"), name)
        fn(ctx, ins)
    return select


def _table() -> dict[str, Select]:
    """MIR op -> selection function; where op sets overlap the first family listed wins."""
    families: list[tuple[frozenset[str] | set[str], Select]] = [
        ({"load_const"}, select_load_const),
        ({"undef"}, select_undef),
        (frozenset(ALU_OPS), select_alu),
        (SUBGROUP_INTRINSICS, subgroup16.select_subgroup),
        (frozenset(SYSTEM_VALUES.split()), sysval.select_system_value),
        ({"load_ssbo", "load_ubo", "load_push_constant", "load_shared", "load_scratch",
          "load_constant"},
         mem16.select_load),
        ({"store_ssbo", "store_shared", "store_scratch"}, mem16.select_store),
        ({"ssbo_atomic", "ssbo_atomic_swap", "shared_atomic", "shared_atomic_swap"},
         mem16.select_atomic),
        ({"load_global"}, global_mem.select_load_global),
        ({"store_global"}, global_mem.select_store_global),
        ({"global_atomic", "global_atomic_swap"}, global_mem.select_global_atomic),
        ({"get_ssbo_size"}, memory.select_ssbo_size),
        ({"load_buffer_descriptor"}, memory.select_buffer_descriptor),
        ({"barrier"}, memory.select_barrier),
        ({"image_load", "image_load_lod"}, image.select_image_load),
        ({"image_size", "image_levels"}, image.select_image_query),
        ({"image_samples"}, image.select_image_samples),
        ({"image_sample"}, image.select_image_sample),
        ({"image_store"}, image.select_image_store),
        ({"image_atomic", "image_atomic_swap"}, image.select_image_atomic),
        (frozenset(VERTEX_SYSTEM_VALUES.split()), _later("vertex", "select_vertex_system_value")),
        ({"load_input"}, _later("vertex", "select_load_input")),
        ({"is_subgroup_invocation_lt"}, _later("vertex", "select_invocation_lt")),
        ({"store_output"}, _later("vertex", "select_store_output")),
        ({"sendmsg_gs_alloc_req"}, _later("vertex", "select_gs_alloc_req")),
        ({"export_primitive"}, _later("vertex", "select_export_primitive")),
        ({"export_vertex"}, _later("vertex", "select_export_vertex")),
        ({"cmat_muladd_amd"}, _later("wmma", "select_cmat_muladd")),
    ]
    table: dict[str, Select] = {}
    for ops, fn in families:
        for op in sorted(ops):
            table.setdefault(op, fn)
    return table


SELECT: dict[str, Select] = _table()


def select_instr(ctx: IselContext, ins: Instr) -> None:
    fn = SELECT.get(ins.op)
    if fn is None:
        fn = _fragment_op(ins)
    fn(ctx, ins)


def _fragment_op(ins: Instr) -> Select:
    """The last family, a fragment shader's inputs, outputs, discards and derivatives
    (`fragment.FRAGMENT_OPS`): its module is imported, and its ops entered in `SELECT`,
    when an op no other family selects is met (a compute compile never loads it)."""
    from . import fragment

    for op in sorted(fragment.FRAGMENT_OPS):
        SELECT.setdefault(op, fragment.select_fragment)
    fn = SELECT.get(ins.op)
    if fn is None:
        raise unsupported(ins)
    return fn
