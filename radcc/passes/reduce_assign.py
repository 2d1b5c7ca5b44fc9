"""Setup of reduction temporaries (ACO's README.md "Setup of reduction temporaries";
the idea of ACO's aco_reduce_assign.cpp, written anew).

Reductions, scans and the wave64 ``p_bpermute`` run part of their lowering
with every lane enabled (`radcc.passes.lower_reductions`), so their scratch
VGPRs must not hold a value of any lane: they are *linear* VGPRs, live along
the linear CFG. Instruction selection leaves those operands undef with a
linear class (``lv1``/``lv2``); `setup_reduce_temp(program)` guarantees that
afterwards each needed one reads a temp that

- is defined by ``p_start_linear_vgpr`` in the last top-level block at or
  before the instruction's block (before that block's branch, or right
  before the first such instruction when it is that block), and
- is ended by ``p_end_linear_vgpr`` at the start (after the phis) of the
  next top-level block (or right after the last such instruction in a
  top-level block),

so the linear temp is live in every block of the divergent region (both
sides of an if, the whole loop) and no VGPR of any lane shares its register.
Instructions of one region share their temps (they run one after another).
Undef linear operands the lowering does not need (``vtmp`` of small
clustered reductions: `lower_reductions.needs_vtmp`) stay undef.
"""

from __future__ import annotations

from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.regclass import RegClass, Temp
from radcc.passes.lower_reductions import needs_vtmp, reduce_op_info

_USERS = frozenset({"p_reduce", "p_inclusive_scan", "p_exclusive_scan", "p_bpermute"})


def _wanted(program: Program, instr: Instruction, k: int) -> bool:
    """Whether undef linear operand `k` of `instr` needs a register."""
    if instr.opcode == "p_bpermute" or k != 2:
        return True
    try:
        info = reduce_op_info(str(instr.fields.get("op", "")))
    except (KeyError, ValueError):
        return True
    cluster = int(instr.fields.get("cluster_size") or program.wave_size)  # type: ignore[call-overload]
    return needs_vtmp(instr.opcode, info, min(cluster, program.wave_size))


def _top_before(program: Program, index: int) -> Block:
    for b in reversed(program.blocks[:index + 1]):
        if BlockKind.TOP_LEVEL in b.kind:
            return b
    return program.blocks[0]


def _top_after(program: Program, index: int) -> Block | None:
    for b in program.blocks[index + 1:]:
        if BlockKind.TOP_LEVEL in b.kind:
            return b
    return None


class _Region:
    """The linear temps of the users between two top-level blocks."""

    def __init__(self, start: Block, end: Block | None, local: bool) -> None:
        self.start = start
        self.end = end
        self.local = local  # the users are in the top-level block `start` itself
        self.temps: dict[tuple[RegClass, int], Temp] = {}
        self.first: Instruction | None = None
        self.last: Instruction | None = None


def setup_reduce_temp(program: Program) -> None:
    """Give the linear scratch operands of reductions temps (module docstring)."""
    regions: dict[tuple[int, int], _Region] = {}
    order: list[_Region] = []
    for block in program.blocks:
        for instr in block.instructions:
            if instr.opcode not in _USERS:
                continue
            slots = [k for k, o in enumerate(instr.operands)
                     if o.is_undef and o.rc is not None and o.rc.linear and o.rc.is_vgpr
                     and _wanted(program, instr, k)]
            if not slots:
                continue
            local = BlockKind.TOP_LEVEL in block.kind
            start = block if local else _top_before(program, block.index)
            end = None if local else _top_after(program, block.index)
            key = (start.index, end.index if end is not None else -1)
            reg = regions.get(key)
            if reg is None:
                reg = regions[key] = _Region(start, end, local)
                order.append(reg)
            reg.first = reg.first or instr
            reg.last = instr
            used: dict[RegClass, int] = {}
            for k in slots:
                rc = instr.operands[k].rc
                assert rc is not None
                n = used.get(rc, 0)
                used[rc] = n + 1
                t = reg.temps.get((rc, n))
                if t is None:
                    t = reg.temps[(rc, n)] = program.allocate_temp(rc)
                instr.operands[k] = Operand(t)
    for reg in order:
        _place(program, reg)


def _place(program: Program, reg: _Region) -> None:
    starts = [Instruction("p_start_linear_vgpr", "PSEUDO", [], [Definition(t)])
              for t in reg.temps.values()]
    ends = [Instruction("p_end_linear_vgpr", "PSEUDO", [Operand(t)], [])
            for t in reg.temps.values()]
    if reg.local:
        ins = reg.start.instructions
        assert reg.first is not None and reg.last is not None
        at = _index(ins, reg.first)
        ins[at:at] = starts
        at = _index(ins, reg.last) + 1
        ins[at:at] = ends
        return
    ins = reg.start.instructions
    at = len(ins) - 1 if ins and _is_branch(ins[-1]) else len(ins)
    ins[at:at] = starts
    end_block = reg.end or program.blocks[-1]
    ins = end_block.instructions
    at = end_block.phi_end()
    if reg.end is None:  # no later top-level block: end before the final branch
        at = len(ins) - 1 if ins and _is_branch(ins[-1]) else len(ins)
    ins[at:at] = ends


def _is_branch(instr: Instruction) -> bool:
    return instr.opcode in ("p_branch", "p_cbranch_z", "p_cbranch_nz") or \
        instr.opcode.startswith("s_cbranch") or instr.opcode in ("s_branch", "s_endpgm")


def _index(ins: list[Instruction], instr: Instruction) -> int:
    for i, x in enumerate(ins):
        if x is instr:
            return i
    raise ValueError("instruction not in its block")
