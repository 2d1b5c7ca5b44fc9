"""Lowering of ``p_spill``/``p_reload`` to hardware instructions (called by
lower_to_hw; the forms `radcc.passes.spill` creates; ACO lowers SGPR spills the
same way in aco_spill.cpp / aco_lower_to_hw_instr.cpp).

After register allocation every operand has its register:

- SGPR value (n dwords), slot = first lane, op2 = the linear VGPR:
  ``p_spill %s, lane, %lv`` -> ``v_writelane_b32 lv, s+k, lane+k`` per dword;
  ``%s = p_reload lane, %lv`` -> ``v_readlane_b32 s+k, lv, lane+k``. Lane select
  is an inline constant (lanes < 64); both ignore EXEC (ISA "VOP3 lane access"),
  so the value is kept whatever lanes are active.
- VGPR value (n dwords), slot = byte offset in the private segment:
  ``p_spill %v, off`` -> ``scratch_store_b32/b64/b96/b128 off, v, off offset:off``
  (vaddr and saddr ``off``: GFX11 architected flat scratch gives each lane its
  own swizzled address, docs/abi.md; GFX10.3: ``scratch_store_dword*`` after the
  flat scratch init prologue, `scratch_opcode`); ``p_reload`` -> ``scratch_load_b*``.
  With an SGPR base (``p_spill %v, 0, %b`` / ``p_reload 0, %b``: a slot beyond the
  immediate offset's reach, or any slot on GFX10.1, which has no flat scratch ST mode;
  `radcc.passes.spill_ssa`) the base is saddr: ``scratch_store_b32 off, v, s offset:0``. Only
  the active lanes store/load, which is what the logical CFG needs (every lane
  that reloads stored on its own path; `radcc.passes.spill`). insert_waitcnt
  waits for the loads (vmcnt) as for any VMEM load.
"""

from __future__ import annotations

from radcc.ir.printer import instruction_text
from radcc.ir.program import Definition, Instruction, Operand, Program
from radcc.ir.regclass import PhysReg, RegClass, s1, v1
from radcc.passes.hw_copy import LoweringError

_VEC = {1: "b32", 2: "b64", 3: "b96", 4: "b128"}


def _reg(rc: RegClass, phys: PhysReg | None, what: str) -> PhysReg:
    if phys is None:
        raise LoweringError(f"lower_to_hw: {what} has no register (run register allocation)")
    return phys


def _check_scratch(program: Program, instr: Instruction, offset: int, rc: RegClass) -> None:
    size = program.config.scratch_bytes_per_lane
    if offset < 0 or offset + 4 * rc.size > size:
        raise LoweringError(f"lower_to_hw: spilling to scratch offset {offset} ({rc.size} "
                            f"dwords) outside the private segment (config.scratch_bytes_per_lane = "
                            f"{size}): {instruction_text(program, instr)}")


def lower_spill(program: Program, instr: Instruction) -> list[Instruction]:
    """The hardware instructions of one ``p_spill``/``p_reload`` (module docstring)."""
    if instr.opcode == "p_spill":
        val, slot = instr.operands[0], instr.operands[1]
        assert val.rc is not None and slot.const is not None
        reg = _reg(val.rc, val.phys, "the spilled value")
        if val.rc.is_sgpr:
            lv = instr.operands[2]
            lvr = _reg(lv1_rc(lv), lv.phys, "the linear VGPR of an SGPR spill")
            out = []
            for k in range(val.rc.size):
                out.append(Instruction(
                    "v_writelane_b32", "VOP3",
                    [Operand(rc=s1, phys=reg.advance(4 * k)), Operand.c32(slot.const + k),
                     Operand(rc=v1, phys=lvr)],
                    [Definition(rc=v1, phys=lvr)]))
            return out
        base = _sgpr_base(instr, 2)
        if base is None:
            _check_scratch(program, instr, slot.const, val.rc)
        return _scratch(program, val.rc, reg, slot.const, base, store=True)
    slot = instr.operands[0]
    d = instr.definitions[0]
    assert d.rc is not None and slot.const is not None
    reg = _reg(d.rc, d.phys, "the reloaded value")
    if d.rc.is_sgpr:
        lv = instr.operands[1]
        lvr = _reg(lv1_rc(lv), lv.phys, "the linear VGPR of an SGPR reload")
        return [Instruction("v_readlane_b32", "VOP3",
                            [Operand(rc=v1, phys=lvr), Operand.c32(slot.const + k)],
                            [Definition(rc=s1, phys=reg.advance(4 * k))])
                for k in range(d.rc.size)]
    base = _sgpr_base(instr, 1)
    if base is None:
        _check_scratch(program, instr, slot.const, d.rc)
    return _scratch(program, d.rc, reg, slot.const, base, store=False)


def _sgpr_base(instr: Instruction, at: int) -> PhysReg | None:
    """The register of a VGPR spill's SGPR base (operand `at`, spill_ssa's far offsets),
    or None when the slot is the immediate offset alone."""
    if len(instr.operands) <= at:
        return None
    o = instr.operands[at]
    assert o.rc is not None and o.rc.is_sgpr
    return _reg(o.rc, o.phys, "the SGPR base of a VGPR spill")


def lv1_rc(o: Operand) -> RegClass:
    assert o.rc is not None
    return o.rc


def scratch_opcode(program: Program, kind: str, dwords: int) -> str:
    """``scratch_{kind}_b32``..``_b128`` (canonical names) of `dwords` dwords."""
    return f"scratch_{kind}_{_VEC[dwords]}"


def _scratch(program: Program, rc: RegClass, reg: PhysReg, offset: int,
             base: PhysReg | None, store: bool) -> list[Instruction]:
    out = []
    done = 0
    n = rc.size
    while done < n:
        m = min(4, n - done)
        vrc = RegClass(v1.type, 4 * m)
        r = reg.advance(4 * done)
        off = Operand(rc=v1, undef=True)
        saddr = Operand(rc=s1, undef=True) if base is None else Operand(rc=s1, phys=base)
        if store:
            out.append(Instruction(scratch_opcode(program, "store", m), "SCRATCH",
                                   [off, Operand(rc=vrc, phys=r), saddr], [],
                                   {"offset": offset + 4 * done}))
        else:
            out.append(Instruction(scratch_opcode(program, "load", m), "SCRATCH", [off, saddr],
                                   [Definition(rc=vrc, phys=r)], {"offset": offset + 4 * done}))
        done += m
    return out
