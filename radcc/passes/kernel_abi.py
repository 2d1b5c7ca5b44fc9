"""The compute-kernel ABI radcc programs use, and the AMDHSA code object.

The ABI is documented in docs/abi.md. ``p_startpgm`` defines the registers
the hardware initialises; they must be among:

- ``s[0-1]`` (s2): the kernarg segment pointer (user SGPRs; always set up);
- ``s[2]``, ``s[3]``, ``s[4]`` (s1 each): workgroup id x, y, z (system
  SGPRs; x is always enabled, y when s[3] or s[4] is defined, z when s[4]
  is defined);
- ``v[0]`` (v1): the work-item ids packed as x | y << 10 | z << 20; which of
  them the hardware fills is ``fields['workitem_id']`` of ``p_startpgm``
  (0: x, 1: x and y, 2: x, y and z; default 0). GFX10/10.3 do not pack them
  (`packed_workitem_ids`): ``v[0]`` is x, ``v[1]`` y and ``v[2]`` z (each
  allowed only when ``workitem_id`` enables it).

`startpgm_abi(program, instr)` checks a ``p_startpgm`` and returns the
`.amdhsa_*` fields it implies; `lower_to_hw` stores them in
``program.entry_abi`` when it replaces the
instruction by `startpgm_prologue` (empty except on GFX10 with scratch).

Scratch on GFX10/10.3 (no architected flat scratch): as clang-19 compiles a
kernel with LLVM's ``enable-flat-scratch`` feature (``scratch_*`` instructions,
not clang's default MUBUF ``buffer_*`` through a private segment buffer), the
hardware is asked for the flat scratch init user SGPRs (``s[2:3]`` after the
kernarg pointer; ``user_sgpr_count`` 4) and the private segment wave byte offset
(the system SGPR after the workgroup ids), and the prologue is LLVM's::

    s_add_u32 s2, s2, s<wave offset>
    s_addc_u32 s3, s3, 0
    s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s2
    s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s3

followed by ``s_mov_b32`` of each workgroup id the program reads from where the
hardware put it (``s4``..) to where radcc's ABI has it (``s2``..), so the IR's
registers at entry do not depend on the target (docs/abi.md). ``scratch_*``
then addresses the private segment as on GFX11 (vaddr and/or saddr plus a
12-bit signed offset; both ``off`` only on GFX10.3, LLVM's flat-scratch ST mode,
`scratch_st_mode`).

CU mode (docs/abi.md): on a target with LdsMisalignedBug (GFX10.1), a program
with a multi-dword FLAT load/store runs in CU mode
(``workgroup_processor_mode`` 0), LLVM's mitigation (its ``cumode`` feature
turns the bug off); the LDS limit per workgroup is the same 64 KiB in both
modes (clang-19 -mcpu=gfx1010 +/-cumode accepts 65536 bytes and refuses 65540),
so `kernel_fields` checks ``lds_size`` against `Target.lds_size` either way. `kernel_fields(program, result)` adds register counts, wave
size, LDS (``config.lds_size``), scratch (``config.scratch_bytes_per_lane``) and
kernarg size (``config.kernarg_size``), and `code_object(program,
result, args)` writes the ELF with `radcc.codeobj.elf.write_code_object`.
"""

from __future__ import annotations

from typing import Any

from radcc.codeobj.amdhsa import decode_kernel_descriptor, fields_for, kernel_descriptor
from radcc.codeobj.elf import KernelSymbol, write_code_object
from radcc.codeobj.metadata import default_kernel_metadata, default_metadata
from radcc.ir.printer import instruction_text
from radcc.ir.program import Definition, Instruction, Operand, Program
from radcc.ir.regclass import SCC, VGPR_BASE, PhysReg, s1
from radcc.passes.hazards_gfx10 import needs_cu_mode
from radcc.target import GfxLevel, Target

__all__ = ["KERNARG_PTR", "WORKGROUP_ID_SGPRS", "code_object", "kernel_fields",
           "packed_workitem_ids", "startpgm_abi", "startpgm_prologue", "abi_config",
           "flat_scratch_init", "scratch_st_mode", "needs_cu_mode", "scratch_offset_range"]

KERNARG_PTR = 0  # s[0:1]
WORKGROUP_ID_SGPRS = (2, 3, 4)
FLAT_SCRATCH_INIT = 2  # s[2:3] on GFX10 with scratch (user SGPRs after the kernarg pointer)
HW_REG_FLAT_SCR_LO = 20  # hwreg ids (LLVM's HW_REG_FLAT_SCR_LO/HI, GFX10)
HW_REG_FLAT_SCR_HI = 21


class ABIError(Exception):
    pass


def startpgm_abi(program: Program, instr: Instruction) -> dict[str, int]:
    """The `.amdhsa_*` fields implied by the registers `instr` defines."""
    sgprs: set[int] = set()
    vgprs: set[int] = set()  # GFX10: 1 (y in v1), 2 (z in v2)
    for d in instr.definitions:
        if d.phys is None or d.rc is None:
            raise ABIError(f"p_startpgm definition without a register: "
                           f"{instruction_text(program, instr)}")
        r, n = d.phys.reg, d.rc.size
        if r == KERNARG_PTR and n == 2 and d.rc.is_sgpr:
            continue
        if r in WORKGROUP_ID_SGPRS and n == 1:
            sgprs.add(r)
            continue
        if r == VGPR_BASE and n == 1:
            continue
        if not packed_workitem_ids(program.target) and r in (VGPR_BASE + 1, VGPR_BASE + 2) \
                and n == 1 and d.rc.is_vgpr:
            vgprs.add(r - VGPR_BASE)
            continue
        raise ABIError(f"p_startpgm defines {d.phys.text(d.rc)}, which the kernel ABI "
                       f"(docs/abi.md) does not set up: {instruction_text(program, instr)}")
    wid = instr.fields.get("workitem_id", 0)
    if wid not in (0, 1, 2):
        raise ABIError("p_startpgm workitem_id must be 0, 1 or 2")
    if vgprs and max(vgprs) > wid:  # type: ignore[operator]
        raise ABIError(f"p_startpgm defines v[{max(vgprs)}] but workitem_id:{wid} does not "
                       f"enable that id: {instruction_text(program, instr)}")
    out = {
        "user_sgpr_kernarg_segment_ptr": 1,
        "user_sgpr_count": 2,
        "system_sgpr_workgroup_id_x": 1,
        "system_sgpr_workgroup_id_y": int(bool(sgprs & {3, 4})),
        "system_sgpr_workgroup_id_z": int(4 in sgprs),
        "system_vgpr_workitem_id": int(wid),  # type: ignore[call-overload]
    }
    if flat_scratch_init(program):
        out.update(user_sgpr_flat_scratch_init=1, user_sgpr_count=4,
                   system_sgpr_private_segment_wavefront_offset=1)
    return out


def flat_scratch_init(program: Program) -> bool:
    """Does the kernel set up flat scratch itself (a target without architected flat
    scratch, GFX10/10.3, and ``config.scratch_bytes_per_lane`` > 0)?"""
    return (program.config.scratch_bytes_per_lane > 0
            and "enable_private_segment" not in fields_for(program.target))


def scratch_st_mode(target: Target) -> bool:
    """Can a ``scratch_*`` instruction have neither vaddr nor saddr (LLVM's
    FeatureFlatScratchSTMode: GFX10.3 and GFX11; llvm-mc-19 -mcpu=gfx1010 rejects
    ``scratch_store_dword off, v1, off``, gfx1030 encodes saddr 0x7f)?"""
    return target.gfx_level >= GfxLevel.GFX10_3


def scratch_offset_range(target: Target) -> tuple[int, int]:
    """The immediate offset of ``scratch_*`` (inclusive bounds): 12-bit signed on
    GFX10/10.3 ("expected a 12-bit signed offset" from llvm-mc-19), 13-bit on GFX11."""
    bits = 13 if target.gfx_level >= GfxLevel.GFX11 else 12
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _sreg(n: int) -> PhysReg:
    return PhysReg.of(n)


def startpgm_prologue(program: Program, instr: Instruction) -> list[Instruction]:
    """The instructions replacing ``p_startpgm`` (module docstring): nothing, except
    GFX10 flat scratch init and the workgroup-id moves when the kernel has scratch."""
    if not flat_scratch_init(program):
        return []
    abi = startpgm_abi(program, instr)
    ids = [k for k, f in enumerate(("x", "y", "z")) if abi[f"system_sgpr_workgroup_id_{f}"]]
    lo, hi = FLAT_SCRATCH_INIT, FLAT_SCRATCH_INIT + 1
    hw_base = abi["user_sgpr_count"]  # the hardware's first system SGPR
    wave_off = hw_base + len(ids)
    scc = Definition.fixed(_sreg(SCC), s1)
    out = [
        Instruction("s_add_u32", "SOP2",
                    [Operand.fixed(_sreg(lo), s1), Operand.fixed(_sreg(wave_off), s1)],
                    [Definition.fixed(_sreg(lo), s1), scc]),
        Instruction("s_addc_u32", "SOP2",
                    [Operand.fixed(_sreg(hi), s1), Operand.c32(0),
                     Operand.fixed(_sreg(SCC), s1)],
                    [Definition.fixed(_sreg(hi), s1), Definition.fixed(_sreg(SCC), s1)]),
        Instruction("s_setreg_b32", "SOPK", [Operand.fixed(_sreg(lo), s1)],
                    fields={"simm16": _hwreg32(HW_REG_FLAT_SCR_LO)}),
        Instruction("s_setreg_b32", "SOPK", [Operand.fixed(_sreg(hi), s1)],
                    fields={"simm16": _hwreg32(HW_REG_FLAT_SCR_HI)}),
    ]
    defined = {d.phys.reg for d in instr.definitions if d.phys is not None}
    for k in ids:  # destinations below sources: increasing order reads before writing
        if WORKGROUP_ID_SGPRS[k] in defined:
            out.append(Instruction("s_mov_b32", "SOP1",
                                   [Operand.fixed(_sreg(hw_base + k), s1)],
                                   [Definition.fixed(_sreg(WORKGROUP_ID_SGPRS[k]), s1)]))
    return out


def _hwreg32(reg_id: int) -> int:
    """SIMM16 of hwreg(id, 0, 32): id | offset << 6 | (size - 1) << 11."""
    return reg_id | (31 << 11)


def packed_workitem_ids(target: Target) -> bool:
    """Does the hardware pack the work-item ids into v0 (GFX11; LLVM's packed-TID
    feature)? GFX10/10.3 put x, y and z in v0, v1 and v2 (clang-19 -mcpu=gfx1030
    reads workitem.id.y from v1, gfx1100 with ``v_bfe_u32 v0, v0, 10, 10``)."""
    return target.gfx_level >= GfxLevel.GFX11


def abi_config(program: Program) -> dict[str, int]:
    """The ABI fields recorded in ``program.entry_abi`` (or from its p_startpgm)."""
    if program.entry_abi:
        return program.entry_abi
    for _b, ins in program.instructions():
        if ins.opcode == "p_startpgm":
            return startpgm_abi(program, ins)
    return startpgm_abi(program, Instruction("p_startpgm", "PSEUDO"))


def kernel_fields(program: Program, sgprs: int, vgprs: int, uses_vcc: bool) -> dict[str, int]:
    """All `.amdhsa_*` directive values of the program's kernel descriptor."""
    f = dict(abi_config(program))
    n_sys = f["user_sgpr_count"] + f["system_sgpr_workgroup_id_x"] \
        + f["system_sgpr_workgroup_id_y"] + f["system_sgpr_workgroup_id_z"] \
        + f.get("system_sgpr_private_segment_wavefront_offset", 0)
    f["next_free_sgpr"] = max(sgprs, n_sys)
    f["next_free_vgpr"] = max(vgprs, 1)
    f["reserve_vcc"] = int(uses_vcc)
    f["wavefront_size32"] = int(program.wave_size == 32)
    t = program.target
    lds = program.config.lds_size
    if lds > t.lds_size:
        raise ABIError(f"the program needs {lds} bytes of LDS per workgroup; {t.name} has "
                       f"{t.lds_size}")
    f["group_segment_fixed_size"] = lds
    if needs_cu_mode(program):
        f["workgroup_processor_mode"] = 0
    scratch = program.config.scratch_bytes_per_lane
    f["private_segment_fixed_size"] = scratch
    if "enable_private_segment" in fields_for(t):
        f["enable_private_segment"] = int(scratch > 0)
    elif scratch > 0 and not f.get("user_sgpr_flat_scratch_init"):
        raise ABIError(f"scratch memory ({scratch} bytes per lane) on {t.name} needs the "
                       f"flat scratch prologue lower_to_hw writes in place of p_startpgm "
                       f"(docs/abi.md), but config.scratch_bytes_per_lane was 0 when p_startpgm "
                       f"was lowered")
    f["kernarg_size"] = program.config.kernarg_size
    return f


def code_object(program: Program, code: bytes, code_size: int, fields: dict[str, int],
                args: list[dict[str, Any]] | None = None) -> bytes:
    """An AMDHSA code object v5 holding the program as kernel `program.name`.

    `args` are metadata `.args` entries (``.name``, ``.offset``, ``.size``,
    ``.value_kind`` ...); the kernarg size grows to cover them.
    """
    fields = dict(fields)
    args = list(args or [])
    end = max((int(a.get(".offset", 0)) + int(a.get(".size", 0)) for a in args), default=0)
    fields["kernarg_size"] = max(fields.get("kernarg_size", 0), (end + 7) & ~7)
    kd = kernel_descriptor(fields, program.target, 0)
    decoded = decode_kernel_descriptor(kd, program.target)
    decoded.update(next_free_vgpr=fields["next_free_vgpr"],
                   next_free_sgpr=fields["next_free_sgpr"], reserve_vcc=fields["reserve_vcc"])
    kmeta = default_kernel_metadata(program.name, decoded)
    kmeta[".args"] = args
    meta = default_metadata(program.target.target_id, [kmeta])
    sym = KernelSymbol(program.name, 0, code_size, fields)
    return write_code_object(code, program.target, [sym], metadata=meta)
