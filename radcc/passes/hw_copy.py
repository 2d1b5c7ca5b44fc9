"""Sequentialising parallel copies into hardware moves (part of `lower_to_hw`).

A parallel copy reads all its sources before writing any destination. The
hardware executes one move at a time, so the copies must be ordered so that
no source is overwritten before it is read, and cycles (``a <- b, b <- a``)
need swaps. This is the location-transfer-graph algorithm ACO uses (ACO's README.md
"Lower to HW instructions"); the code is radcc's own:

1. Every copy is split into dword units ``dst <- src`` (src: a register or a
   32-bit constant); identity units are dropped.
2. Repeatedly emit every unit whose destination no pending unit still reads
   (``uses[dst] == 0``), decrementing the use count of its source. Aligned
   SGPR pairs that are both ready become one ``s_mov_b64``.
3. What remains are disjoint cycles (each destination is written once and
   read exactly once). A cycle of n registers takes n-1 swaps: VGPRs with
   ``v_swap_b32`` (GFX10 and GFX11 have it), SGPRs through the parallel copy's scratch
   SGPR if it has one (``fields['scratch_sgpr']``, n+1 moves), else with three
   ``s_xor_b32`` (which clobber SCC; that is refused when SCC is live).

Constants are materialised as cheaply as the target allows: inline constants
and literals with ``s_mov_b32``/``v_mov_b32``, 16-bit signed values with
``s_movk_i32``, values whose bit reverse is inline with ``s_brev_b32``; a
64-bit constant into an aligned SGPR pair that is a 64-bit inline constant
uses ``s_mov_b64``. VGPR pairs are copied with two ``v_mov_b32`` (GFX10/11 have
no ``v_mov_b64``; two movs can later pair into VOPD), except, in wave64 (no VOPD),
two constant dwords of a VGPR pair whose 64-bit value is an inline integer (-16..64,
e.g. a zero vector): one ``v_lshrrev_b64 v[d:d+1], 0, k``, as ACO's copy_constant
writes a 64-bit VGPR constant after handle_operands joined the two dword copies
(aco_lower_to_hw_instr.cpp). SCC as a destination
is written with ``s_cmp_lg_u32 src, 0``; SCC as a source with
``s_cselect_b32 dst, 1, 0``. Sub-dword pieces are not supported yet.

Linear VGPRs (ACO's README.md "Register Allocation"; ACO copies them the same
way) hold a value in every lane, so a unit marked ``linear`` (its
destination is a linear VGPR) is copied in all lanes: the move (or swap) is
done under EXEC, then again under ``~EXEC`` (``s_not`` of exec before and
after the second one), which leaves EXEC as it was and clobbers SCC; a live
SCC is kept in the scratch SGPR around it (without one that is refused).
The other units stay under EXEC, so a value some inactive lane keeps in
their destination survives. In a swap cycle mixing both, the swaps that
complete a linear unit run in all lanes and the cycle is started so that its
last unit (which receives the first register's value through every swap)
is an ordinary one: a register whose inactive lanes a full swap changes
then always held a linear VGPR before the copy.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from radcc.ir.fields import make_fields
from radcc.ir.program import Definition, Instruction, Operand
from radcc.ir.regclass import EXEC, SCC, VGPR_BASE, PhysReg, s1, s2, v1, v2
from radcc.isa.operands import inline_float_code_for_bits, inline_int_code


class LoweringError(Exception):
    """An instruction `lower_to_hw` cannot lower (names the instruction)."""


@dataclass(slots=True)
class Unit:
    """One dword of a copy: register `dst` gets register `src` or `const`."""

    dst: int
    src: int | None = None
    const: int | None = None
    linear: bool = False  # the destination is a linear VGPR: copy every lane


def is_inline32(value: int) -> bool:
    v = value & 0xFFFFFFFF
    sv = v - (1 << 32) if v >> 31 else v
    return inline_int_code(sv) is not None or inline_float_code_for_bits(v, 32) is not None


def is_inline64(value: int) -> bool:
    v = value & 0xFFFFFFFFFFFFFFFF
    sv = v - (1 << 64) if v >> 63 else v
    return inline_int_code(sv) is not None or inline_float_code_for_bits(v, 64) is not None


def _hw(opcode: str, fmt: str, defs: list[Definition], ops: list[Operand],
        **fields: object) -> Instruction:
    return Instruction(opcode, fmt, ops, defs, make_fields(fmt, fields))


def _dreg(reg: int, rc=None) -> Definition:
    rc = rc or (v1 if reg >= VGPR_BASE else s1)
    return Definition.fixed(PhysReg.of(reg), rc)


def _oreg(reg: int, rc=None) -> Operand:
    rc = rc or (v1 if reg >= VGPR_BASE else s1)
    return Operand.fixed(PhysReg.of(reg), rc)


def _scc_def() -> Definition:
    return Definition.fixed(PhysReg.of(SCC), s1)


def move_const32(dst: int, value: int) -> Instruction:
    """Materialise a 32-bit constant in one register."""
    value &= 0xFFFFFFFF
    if dst >= VGPR_BASE:
        return _hw("v_mov_b32", "VOP1", [_dreg(dst)], [Operand.c32(value)])
    if dst == SCC:
        return _hw("s_cmp_lg_u32", "SOPC", [_scc_def()], [Operand.c32(value), Operand.c32(0)])
    if is_inline32(value):
        return _hw("s_mov_b32", "SOP1", [_dreg(dst)], [Operand.c32(value)])
    sv = value - (1 << 32) if value >> 31 else value
    if -0x8000 <= sv < 0x8000:
        return _hw("s_movk_i32", "SOPK", [_dreg(dst)], [], simm16=sv & 0xFFFF)
    rev = int(f"{value:032b}"[::-1], 2)
    if is_inline32(rev):
        return _hw("s_brev_b32", "SOP1", [_dreg(dst)], [Operand.c32(rev)])
    return _hw("s_mov_b32", "SOP1", [_dreg(dst)], [Operand.c32(value)])


def move_reg32(dst: int, src: int) -> Instruction:
    """Copy one dword register to another."""
    if dst >= VGPR_BASE:
        if src == SCC:
            raise LoweringError("copy from scc to a VGPR")
        return _hw("v_mov_b32", "VOP1", [_dreg(dst)], [_oreg(src)])
    if src >= VGPR_BASE:
        raise LoweringError(f"copy from a VGPR ({PhysReg.of(src)}) to an SGPR "
                            f"({PhysReg.of(dst)}) needs p_as_uniform")
    if dst == SCC:
        return _hw("s_cmp_lg_u32", "SOPC", [_scc_def()], [_oreg(src), Operand.c32(0)])
    if src == SCC:
        return _hw("s_cselect_b32", "SOP2", [_dreg(dst)], [Operand.c32(1), Operand.c32(0),
                                                           _oreg(SCC)])
    return _hw("s_mov_b32", "SOP1", [_dreg(dst)], [_oreg(src)])


def _is_plain_sgpr(reg: int) -> bool:
    return reg < VGPR_BASE and reg != SCC


def split_units(dst: PhysReg, src: Operand, nbytes: int, what: object) -> list[Unit]:
    """Dword units of one copy of `nbytes` bytes from `src` to `dst`; `str(what)`
    names the copy in an error (rendered only then)."""
    if src.is_undef:
        return []
    if dst.byte or nbytes % 4 or (src.phys is not None and src.phys.byte):
        raise LoweringError(f"sub-dword copies are not supported yet: {what}")
    n = nbytes // 4
    if src.const is not None:
        if src.const_bytes not in (4, 8) or (src.const_bytes == 8) != (n == 2) and n != 1:
            raise LoweringError(f"constant of {src.const_bytes} bytes copied to {nbytes} "
                                f"bytes: {what}")
        v = src.const
        return [Unit(dst.reg + i, const=(v >> (32 * i)) & 0xFFFFFFFF) for i in range(n)]
    if src.phys is None:
        raise LoweringError(f"copy source has no register (run register allocation): {what}")
    return [Unit(dst.reg + i, src=src.phys.reg + i) for i in range(n)]


def _scc_needed(after: list[Instruction]) -> bool:
    """Is SCC read by `after` (the rest of the block) before it is written?"""
    for ins in after:
        if any(o.phys is not None and o.phys.reg == SCC for o in ins.operands):
            return True
        if any(d.phys is not None and d.phys.reg == SCC for d in ins.definitions):
            return False
    return False


def sequentialize(units: list[Unit], *, scratch_sgpr: int | None = None,
                  scc_live: bool = False, what: object = "p_parallelcopy",
                  wave64: bool = False) -> list[Instruction]:
    """Hardware moves with the parallel semantics of `units` (see module doc)."""
    pending: dict[int, Unit] = {}
    for u in units:
        if u.src == u.dst:
            continue
        if u.dst in pending:
            raise LoweringError(f"register {PhysReg.of(u.dst)} written twice: {what}")
        pending[u.dst] = u
    uses: dict[int, int] = {}
    for u in pending.values():
        if u.src is not None:
            uses[u.src] = uses.get(u.src, 0) + 1
    out: list[Instruction] = []
    scc_kept = scc_live or SCC in pending  # an SCC written now must survive too

    def all_lanes(ins: Instruction) -> list[Instruction]:
        if scc_kept and scratch_sgpr is None:
            raise LoweringError(f"copying a linear VGPR in all lanes clobbers the live scc and "
                                f"no scratch SGPR is given: {what}")
        lm = s2 if wave64 else s1
        flip = _hw("s_not_b64" if wave64 else "s_not_b32", "SOP1",
                   [Definition.fixed(PhysReg.of(EXEC), lm), _scc_def()],
                   [Operand.fixed(PhysReg.of(EXEC), lm)])
        again = Instruction(ins.opcode, ins.format, [copy.copy(o) for o in ins.operands],
                            [copy.copy(d) for d in ins.definitions],
                            make_fields(ins.format, ins.fields))
        flip2 = Instruction(flip.opcode, flip.format, [Operand.fixed(PhysReg.of(EXEC), lm)],
                            [Definition.fixed(PhysReg.of(EXEC), lm), _scc_def()])
        seq = [ins, flip, again, flip2]
        if scc_kept:
            seq = [move_reg32(scratch_sgpr, SCC), *seq,  # type: ignore[arg-type]
                   move_reg32(SCC, scratch_sgpr)]  # type: ignore[arg-type]
        return seq

    def emit_ready() -> bool:
        progress = False
        for dst in sorted(pending):
            u = pending.get(dst)
            if u is None or uses.get(dst, 0):
                continue
            pair = _pair_with(u, pending, uses, wave64)
            if pair is not None:
                out.append(pair[0])
                done = [u, pair[1]]
            else:
                mv = (move_const32(dst, u.const) if u.const is not None
                      else move_reg32(dst, u.src))  # type: ignore[arg-type]
                out.extend(all_lanes(mv) if u.linear else [mv])
                done = [u]
            for d in done:
                del pending[d.dst]
                if d.src is not None:
                    uses[d.src] -= 1
            progress = True
        return progress

    scc_live = scc_kept
    while emit_ready():
        pass
    # the rest are disjoint cycles
    while pending:
        start = min(pending)
        cycle = [start]
        r = pending[start].src
        while r != start:
            assert r is not None and r in pending, "parallel copy graph is not a cycle"
            cycle.append(r)
            r = pending[r].src
        # cycle: start <- c1 <- c2 ... <- c(n-1) <- start
        linear = [pending[reg].linear for reg in cycle]
        if any(linear) and not all(linear):
            # start at the source of an ordinary unit: it becomes the last unit
            k = next(i for i in range(len(cycle)) if not linear[i - 1])
            cycle = cycle[k:] + cycle[:k]
            linear = linear[k:] + linear[:k]
        for reg in cycle:
            del pending[reg]
        seq = _break_cycle(cycle, scratch_sgpr, scc_live, what)
        if any(linear):  # VGPRs: seq[k] is the swap that completes unit cycle[k]
            for k, ins in enumerate(seq):
                out.extend(all_lanes(ins) if linear[k] else [ins])
        else:
            out.extend(seq)
    return out


def _pair_with(u: Unit, pending: dict[int, Unit], uses: dict[int, int],
               wave64: bool = False) -> tuple[Instruction, Unit] | None:
    """An s_mov_b64 doing `u` and the unit of the odd register above it; in wave64
    a ``v_lshrrev_b64 v[d:d+1], 0, k`` for two constant VGPR dwords forming a 64-bit
    inline integer (module docstring)."""
    d = u.dst
    if wave64 and d >= VGPR_BASE and u.const is not None and not u.linear:
        hi = pending.get(d + 1)
        if hi is None or hi.const is None or hi.linear or uses.get(d + 1, 0):
            return None
        v = u.const | hi.const << 32
        sv = v - (1 << 64) if v >> 63 else v
        if inline_int_code(sv) is None:
            return None
        return (_hw("v_lshrrev_b64", "VOP3", [_dreg(d, v2)],
                    [Operand.c32(0), Operand.c64(v)]), hi)
    if not _is_plain_sgpr(d) or d % 2 or not _is_plain_sgpr(d + 1):
        return None
    hi = pending.get(d + 1)
    if hi is None or uses.get(d + 1, 0):
        return None
    if u.src is not None and hi.src == u.src + 1 and u.src % 2 == 0 and _is_plain_sgpr(u.src) \
            and _is_plain_sgpr(u.src + 1):
        return (_hw("s_mov_b64", "SOP1", [_dreg(d, s2)], [_oreg(u.src, s2)]), hi)
    if u.const is not None and hi.const is not None:
        v = u.const | hi.const << 32
        if is_inline64(v):
            return (_hw("s_mov_b64", "SOP1", [_dreg(d, s2)], [Operand.c64(v)]), hi)
    return None


def _break_cycle(cycle: list[int], scratch: int | None, scc_live: bool,
                 what: object) -> list[Instruction]:
    """Moves for the cycle ``cycle[0] <- cycle[1] <- ... <- cycle[-1] <- cycle[0]``."""
    if cycle[0] >= VGPR_BASE:
        # swap(c0, c1) puts c1's value in c0 and c0's in c1; c1 then plays c0.
        return [_hw("v_swap_b32", "VOP1", [_dreg(a), _dreg(b)], [_oreg(a), _oreg(b)])
                for a, b in zip(cycle, cycle[1:], strict=False)]
    if SCC in cycle:
        raise LoweringError(f"cyclic copy through scc: {what}")
    if scratch is not None:
        seq = [move_reg32(scratch, cycle[0])]
        seq += [move_reg32(a, b) for a, b in zip(cycle, cycle[1:], strict=False)]
        seq.append(move_reg32(cycle[-1], scratch))
        return seq
    if scc_live:
        raise LoweringError(f"SGPR swap would clobber live scc and no scratch SGPR is given: "
                            f"{what}")
    seq = []
    for a, b in zip(cycle, cycle[1:], strict=False):
        seq += [_xor(a, a, b), _xor(b, a, b), _xor(a, a, b)]
    return seq


def _xor(d: int, a: int, b: int) -> Instruction:
    return _hw("s_xor_b32", "SOP2", [_dreg(d), _scc_def()], [_oreg(a), _oreg(b)])


def scc_live_after(rest: list[Instruction]) -> bool:
    return _scc_needed(rest)


def scc_live_flags(instrs: list[Instruction]) -> list[bool]:
    """``scc_live_after(instrs[k + 1:])`` for every k, in one backward walk
    (linear in the block instead of a scan per copy)."""
    out = [False] * len(instrs)
    live = False
    for k in range(len(instrs) - 1, -1, -1):
        out[k] = live
        ins = instrs[k]
        for o in ins.operands:
            p = o.phys
            if p is not None and p.reg == SCC:
                live = True
                break
        else:
            for d in ins.definitions:
                p = d.phys
                if p is not None and p.reg == SCC:
                    live = False
                    break
    return out
