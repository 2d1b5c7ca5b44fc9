"""Lane-mask helpers shared by lower_phis and insert_exec_mask.

A lane mask is an SGPR value with one bit per lane of the wave: class s1 in
wave32, s2 in wave64 (`Program.lane_mask`). SALU instructions on lane masks
use the _b32 or _b64 opcode of the wave size (ACO's Builder::s_andn2 ...);
the names are canonical (``s_and_not1_b64``, spelt ``s_andn2_b64`` on GFX10 by
the opcode table, `radcc.isa.table`).
EXEC is read and written as a temp-less operand/definition fixed to the exec
register (``s1: exec`` / ``s2: exec``), never as a temp.
"""

from __future__ import annotations

from functools import cache

from radcc.ir.program import Definition, Operand, Program
from radcc.ir.regclass import EXEC, SCC, PhysReg, s1
from radcc.isa.table import get_table
from radcc.target import GfxLevel

# Generic names (ACO's Builder aliases) -> canonical opcodes.
_OPCODES: dict[str, str] = {
    "and": "s_and_{w}",
    "or": "s_or_{w}",
    "xor": "s_xor_{w}",
    "not": "s_not_{w}",
    "mov": "s_mov_{w}",
    "andn2": "s_and_not1_{w}",
    "orn2": "s_or_not1_{w}",
    "and_saveexec": "s_and_saveexec_{w}",
    "andn2_saveexec": "s_and_not1_saveexec_{w}",
    "wqm": "s_wqm_{w}",
}


@cache
def _lookup(gfx_level: GfxLevel, name: str, wave_size: int) -> str:
    op = _OPCODES[name].format(w="b32" if wave_size == 32 else "b64")
    if not get_table(gfx_level).has(op):
        raise KeyError(f"no lane-mask opcode '{name}' for {gfx_level.name} wave{wave_size}")
    return op


def lm_opcode(program: Program, name: str) -> str:
    """The SALU opcode of a generic lane-mask operation ('andn2', 'or' ...)."""
    return _lookup(program.gfx_level, name, program.wave_size)


def exec_op(program: Program) -> Operand:
    """A read of EXEC (temp-less, fixed)."""
    return Operand.fixed(PhysReg.of(EXEC), program.lane_mask)


def exec_def(program: Program) -> Definition:
    """A write of EXEC (temp-less, fixed)."""
    return Definition.fixed(PhysReg.of(EXEC), program.lane_mask)


def scc_def(program: Program) -> Definition:
    """A new s1 temp fixed to SCC (the SCC output of a SALU instruction)."""
    d = Definition(program.allocate_temp(s1))
    d.phys = PhysReg.of(SCC)
    return d


def lm_const(program: Program, value: int) -> Operand:
    """A lane-mask constant (64-bit in wave64, as 64-bit SALU operands need)."""
    return Operand.c64(value) if program.wave_size == 64 else Operand.c32(value)


def is_exec(o: Operand) -> bool:
    return o.temp is None and o.phys is not None and o.phys.reg == EXEC


def const_lanes(program: Program, o: Operand) -> int | None:
    """0 or -1 (all lanes) if `o` is such a constant, else None. A 32-bit -1
    counts as all lanes in wave64 too (inline constants sign-extend)."""
    if o.const is None:
        return None
    full = (1 << program.wave_size) - 1
    if o.const == 0:
        return 0
    if o.const == full or o.const == 0xFFFFFFFF and o.const_bytes == 4:
        return -1
    return None
