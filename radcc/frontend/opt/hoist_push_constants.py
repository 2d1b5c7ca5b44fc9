"""hoist_push_constants: push-constant loads at constant offsets move to the entry block.

RADV passes a compute shader's push constants in user SGPRs (inline push constants)
or loads them once through their pointer, so in ACO's code every push constant is a
register the program starts with; radcc reads them from the kernel arguments with
SMEM loads (docs/abi.md), and a load left where the source reads it costs its own
``s_load`` and ``s_waitcnt`` in each branch, loop or guard (ncnn's shaders read a size
in every bounds test: ``if (gx >= psc(w) || gy >= psc(h) ...) return;``), and keeps a
divergent branch over an SMEM load that lower_to_hw could otherwise drop.

Every ``load_push_constant`` whose address is a constant and whose bytes lie inside
the shader's push-constant block (``MirShader.push_constant_size``) moves to the top of
the entry block, in offset order, reading a constant address defined there. Why it is
sound: push constants are read-only for the whole dispatch and always readable, so the
load gives the same value anywhere and may execute where the source did not (no fault,
no side effect); a load in a loop is invariant. Loads at a non-constant address stay
(an index may be guarded by the branch around it). Afterwards ``vectorize_mem`` merges
the hoisted loads that follow one another into ``s_load_b64/b128``.

Guarantees: the shader's value flow is unchanged but for the loads' position; returns
whether a load moved.
"""

from __future__ import annotations

from ..mir import Block, Instr, MirShader
from .lower_util import const_int


def hoist_push_constants(shader: MirShader) -> bool:
    body = shader.function.body
    if not body or not isinstance(body[0], Block) or not shader.push_constant_size:
        return False
    entry = body[0]
    moved: list[tuple[int, Instr]] = []
    for block in shader.blocks():
        keep: list[Instr] = []
        for ins in block.instrs:
            if ins.op == "load_push_constant" and ins.dest is not None and ins.srcs:
                addr = const_int(ins.srcs[0])
                size = ins.dest.bit_size // 8 * ins.dest.num_components
                if addr is not None:
                    start = addr + int(ins.attrs.get("offset", 0))
                    if 0 <= start and start + size <= shader.push_constant_size:
                        moved.append((start, ins))
                        continue
            keep.append(ins)
        if len(keep) != len(block.instrs):
            block.instrs = keep
    if not moved:
        return False
    zero = Instr("load_const", shader.new_value(32), attrs={"value": (0,)})
    head: list[Instr] = [zero]
    for start, ins in sorted(moved, key=lambda m: m[0]):
        ins.srcs = [zero.dest]  # type: ignore[list-item]
        ins.attrs["offset"] = start
        ins.block = entry
        head.append(ins)
    zero.block = entry
    entry.instrs[len(entry.phis):len(entry.phis)] = head
    return True
