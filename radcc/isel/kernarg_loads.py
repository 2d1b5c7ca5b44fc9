"""Kernel-argument loads of the entry block merged into fewer, wider SMEM loads.

radcc's compute ABI (docs/abi.md) reads buffer addresses, buffer sizes and push
constants from the kernarg segment with ``s_load``s at constant offsets, where RADV's
ABI has the descriptor pointers and inline push constants in user SGPRs; isel loads
each binding's address at the top of the entry block and `hoist_push_constants` moves
the constant-offset push-constant reads there, but `vectorize_mem` only joins accesses
that follow one another, so a shader reading a buffer address at 0x0 and a push
constant at 0xc pays two loads and an ``s_clause``. The segment is read-only for the
dispatch and readable in full, so the bytes between two arguments may be loaded with
them, as LLVM's AMDGPU back end loads several kernel arguments with one
``s_load_b128``, and as newer NIR's load/store vectorizer joins push-constant loads
across a hole.

`merge_kernarg_loads(program, kernarg, segment_size)` guarantees: in the entry block,
the ``s_load_b32/b64/b128/b256`` whose address is the kernarg pointer `kernarg` plus a
constant (no other fields) and whose byte ranges are disjoint are grouped in offset
order, a load joining only at its natural register alignment from the group's start
(a b64 at 8 bytes, a b128/b256 at 16: ``ra_support.stride``, else its piece of the
split is copied to an aligned register); a group whose span, rounded up to 8, 16 or 32 bytes, stays inside the segment
(`segment_size` bytes) and holds two or more loads becomes one ``s_load_b64/b128/b256``
at the group's lowest offset, placed where the group's first load was, and a
``p_split_vector`` right after it defines every old result (the gaps get temps nobody
reads). Each old result keeps its temp and value; nothing else moves. Returns the
number of loads removed.
"""

from __future__ import annotations

from radcc.ir.program import Definition, Instruction, Operand, Program
from radcc.ir.regclass import RegClass, RegType, Temp

_SMEM_BYTES = {"s_load_b32": 4, "s_load_b64": 8, "s_load_b128": 16, "s_load_b256": 32}
_BY_BYTES = {8: "s_load_b64", 16: "s_load_b128", 32: "s_load_b256"}
MAX_BYTES = 32  # at most s_load_b256: the gaps cost SGPRs


def _sgprs(nbytes: int) -> RegClass:
    return RegClass(RegType.SGPR, nbytes)


def _member(ins: Instruction, kernarg: Temp) -> tuple[int, int] | None:
    """(offset, bytes) of a constant-offset kernarg load, else None."""
    size = _SMEM_BYTES.get(ins.opcode)
    if size is None or len(ins.operands) != 2 or len(ins.definitions) != 1:
        return None
    base, off = ins.operands
    if base.temp is None or base.temp.id != kernarg.id or off.const is None:
        return None
    if any(v for v in ins.fields.values()) or ins.definitions[0].temp is None:
        return None
    if off.const % 4:
        return None
    return off.const, size


def _size_for(span: int) -> int | None:
    for n in sorted(_BY_BYTES):
        if span <= n:
            return n
    return None


def merge_kernarg_loads(program: Program, kernarg: Temp | None, segment_size: int) -> int:
    if kernarg is None or not program.blocks:
        return 0
    entry = program.blocks[0]
    loads = []
    for pos, ins in enumerate(entry.instructions):
        m = _member(ins, kernarg)
        if m is not None:
            loads.append((m[0], m[1], pos, ins))
    loads.sort(key=lambda x: (x[0], x[2]))
    groups: list[list[tuple[int, int, int, Instruction]]] = []
    for ld in loads:
        g = groups[-1] if groups else None
        if g is not None:
            start = g[0][0]
            end = max(x[0] + x[1] for x in g)
            size = _size_for(ld[0] + ld[1] - start)
            if ld[0] >= end and size is not None and start + size <= segment_size \
                    and (ld[0] - start) % min(ld[1], 16) == 0:
                g.append(ld)
                continue
        groups.append([ld])
    removed = 0
    replace: dict[int, list[Instruction]] = {}
    drop: set[int] = set()
    for g in groups:
        if len(g) < 2:
            continue
        start = g[0][0]
        size = _size_for(g[-1][0] + g[-1][1] - start)
        assert size is not None
        wide = program.allocate_temp(_sgprs(size))
        load = Instruction(_BY_BYTES[size], "SMEM", [Operand(kernarg), Operand.c32(start)],
                           [Definition(wide)])
        defs: list[Definition] = []
        at = start
        for off, nbytes, _pos, ins in g:
            if off > at:
                defs.append(Definition(program.allocate_temp(_sgprs(off - at))))
            defs.append(ins.definitions[0])
            at = off + nbytes
        if at < start + size:
            defs.append(Definition(program.allocate_temp(_sgprs(start + size - at))))
        split = Instruction("p_split_vector", "PSEUDO", [Operand(wide)], defs)
        # the merged load keeps the earliest source line of the loads it replaces
        lines = [x[3].line for x in g if x[3].line]
        load.line = split.line = min(lines) if lines else 0
        first = min(x[2] for x in g)
        replace[first] = [load, split]
        drop.update(x[2] for x in g)
        removed += len(g) - 1
    if not removed:
        return 0
    out: list[Instruction] = []
    for pos, ins in enumerate(entry.instructions):
        if pos in replace:
            out.extend(replace[pos])
        elif pos not in drop:
            out.append(ins)
    entry.instructions = out
    return removed
