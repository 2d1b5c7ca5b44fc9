"""Strict-mode check of ``s_clause`` hard clauses (GFX11).

ISA guide 5.2 "Instruction Clauses" and 16 S_CLAUSE. Executing an ``s_clause``
is a no-op (a scheduling hint); in strict mode its clause is checked once, the
first time a wave executes it, against the instructions that follow it in
memory (a clause cannot contain a branch, so they are the ones executed).
A ``HardClause`` violation is reported when:

- the length field SIMM16[5:0] is 0 or 63 (clauses have 2..63 instructions);
- the first instruction after ``s_clause`` (and, with clause breaks
  SIMM16[11:8] = N, the first of every group of N) is not of a clause type;
- an instruction of the clause is neither of the first one's type nor a
  clause-internal instruction;
- with clause breaks, a group has fewer than two clause-type instructions;
- the clause runs past the decodable code.

Clause types (5.2): image load (no sampler), image store, image atomic, image
sample, BVH, buffer/global/scratch load, store, atomic, flat load, store,
atomic, LDS (loads, stores, atomics; not GDS), SMEM (not the cache
invalidations), VALU. Internal instructions (16): s_nop, s_sleep, s_waitcnt
and its SOPK variants when their SGPR is null. Illegal: everything else, in
particular s_clause itself, s_delay_alu ("must not appear inside a clause"),
s_waitcnt_depctr and s_wait_idle (5.2), SALU, branches, messages, exports,
LDS direct loads and VINTERP.

`install(program, inst)` is the dispatcher's hook: it wraps the handler of an
``s_clause`` instruction (and leaves every other one alone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from radcc.emu.decode import Inst
from radcc.emu.errors import EmuError
from radcc.emu.use import VALU_CLASSES
from radcc.isa.classes import VMEM_ENCODINGS
from radcc.isa.operands import NULL

__all__ = ["clause_type", "check_clause", "install"]

_SOPK_WAITS = frozenset({"s_waitcnt_vscnt", "s_waitcnt_vmcnt", "s_waitcnt_expcnt",
                         "s_waitcnt_lgkmcnt"})
INTERNAL = "internal"


def clause_type(i: Inst) -> str | None:
    """The clause type of an instruction, `INTERNAL`, or None (illegal in a clause)."""
    info = i.info
    name = info.name
    enc = info.enc
    if name in ("s_nop", "s_sleep", "s_waitcnt"):
        return INTERNAL
    if name in _SOPK_WAITS:
        return INTERNAL if i.f.get("sdst", NULL) == NULL else None
    if enc == "SMEM":
        return "smem" if info.srcs else None
    if enc == "MIMG":
        mimg = info.extra.get("mimg")
        mimg = mimg if isinstance(mimg, dict) else {}
        if mimg.get("bvh"):
            return "image bvh"
        if mimg.get("atomic"):
            return "image atomic"
        if info.operand("ssamp") is not None:
            return "image sample"
        return "image load" if any(o.is_def for o in info.operands) else "image store"
    if enc in VMEM_ENCODINGS:  # MIMG returned above
        fam = "flat" if enc == "FLAT" else "buffer/global/scratch"
        if "_atomic" in name:
            return fam + " atomic"
        if "_load" in name:
            return fam + " load"
        if "_store" in name:
            return fam + " store"
        return None  # cache invalidations
    if enc == "DS":
        if i.f.get("gds") or "gws" in name or "ordered_count" in name:
            return None
        return "lds"
    if info.cls in VALU_CLASSES and enc not in ("VINTERP",):
        return "valu"
    return None


def check_clause(at: Callable[[int], Inst], i: Inst) -> list[str]:
    """Problems of the clause an ``s_clause`` at `i` starts (see module doc);
    `at(pc)` decodes the instruction at a pc."""
    imm = i.f.get("simm16", i.words[0] & 0xFFFF)
    length = (imm & 0x3F) + 1
    span = imm >> 8 & 0xF
    out: list[str] = []
    if not 2 <= length <= 63:
        out.append(f"length field {imm & 0x3F} is outside 1..62 (2..63 instructions)")
        if length < 2:
            return out
    members: list[tuple[Inst, str | None]] = []
    pc = i.pc + i.size
    for _ in range(length):
        try:
            m = at(pc)
        except EmuError:
            out.append(f"the clause of {length} runs past the decodable code at pc {pc:#x}")
            break
        members.append((m, clause_type(m)))
        pc = m.pc + m.size
    if not members:
        return out
    first, ctype = members[0]
    if ctype is None or ctype == INTERNAL:
        out.append(f"its first instruction '{first.text}' at pc {first.pc:#x} is not of a "
                   "clause type")
        return out
    for m, t in members[1:]:
        if t != ctype and t != INTERNAL:
            what = "may not be in a clause" if t is None else f"is {t}, not {ctype}"
            out.append(f"'{m.text}' at pc {m.pc:#x} {what}")
    if span:
        for g in range(0, len(members), span):
            group = members[g:g + span]
            if group[0][1] == INTERNAL:
                out.append(f"clause group at pc {group[0][0].pc:#x} starts with an internal "
                           "instruction")
            if sum(1 for _, t in group if t == ctype) < 2:
                out.append(f"clause group at pc {group[0][0].pc:#x} has fewer than two "
                           f"{ctype} instructions")
    return out


def install(at: Callable[[int], Inst], i: Inst) -> None:
    """Wrap the handler of an ``s_clause`` so that strict waves check its clause."""
    if i.info.name != "s_clause" or i.handler is None:
        return
    inner: Callable[..., Any] = i.handler

    def handler(w: Any, inst: Inst) -> None:
        inner(w, inst)
        st = w.strict
        if st is None:
            return
        problems = inst.aux.get("clause_problems")
        if problems is None:
            problems = inst.aux["clause_problems"] = check_clause(at, inst)
        for p in problems:
            st._add("HardClause", (inst.pc, p),
                    f"'{inst.text}' at pc {inst.pc:#x}: {p}", inst.pc)

    i.handler = handler
