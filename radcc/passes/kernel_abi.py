"""The compute-kernel ABI radcc programs use, and the AMDHSA code object.

The ABI is documented in docs/abi.md; the registers are the `radcc.abi.amdhsa` instance
of the shader arguments (`radcc.abi.args.ShaderArgs`). ``p_startpgm`` defines the
registers the hardware initialises; they must be among `entry_args`:

- ``s[0-1]`` (s2): the kernarg segment pointer (user SGPRs; always set up);
- ``s[2]``, ``s[3]``, ``s[4]`` (s1 each): workgroup id x, y, z (system
  SGPRs; x is always enabled, y when s[3] or s[4] is defined, z when s[4]
  is defined);
- ``v[0]`` (v1): the work-item ids packed as x | y << 10 | z << 20; which of
  them the hardware fills is ``fields['workitem_id']`` of ``p_startpgm``
  (0: x, 1: x and y, 2: x, y and z; default 0). GFX10/10.3 do not pack them
  (`packed_workitem_ids`): ``v[0]`` is x, ``v[1]`` y and ``v[2]`` z (each
  allowed only when ``workitem_id`` enables it).

`startpgm_args(program, instr)` checks a ``p_startpgm`` and returns the shader
arguments it implies (`program_args` for a whole program); `lower_to_hw` stores them in
``program.args`` when it replaces the instruction by `startpgm_prologue` (empty except
on GFX10 with scratch). The kernel descriptor's enables are
`radcc.abi.amdhsa.descriptor_fields` of them.

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
so `kernel_fields` checks ``lds_size`` against `Target.lds_size` either way.
`kernel_fields(program, result)` adds register counts, wave size, LDS
(``config.lds_size``), scratch (``config.scratch_bytes_per_lane``) and kernarg size
(``program.args.kernargs.size``), and `code_object(program, result, kernargs)` writes the
ELF with `radcc.codeobj.elf.write_code_object`, the metadata ``.args`` from the kernarg
layout (`radcc.abi.kernarg.KernargLayout`).
"""

from __future__ import annotations

from radcc.abi import amdhsa
from radcc.abi.args import AbiError, ArgKind, RegFile, ShaderArgs
from radcc.abi.kernarg import KernargLayout
from radcc.abi.stage import COMPUTE_CS
from radcc.codeobj.amdhsa import decode_kernel_descriptor, fields_for, kernel_descriptor
from radcc.codeobj.elfwrite import KernelSymbol, write_code_object
from radcc.codeobj.metadata import default_kernel_metadata, default_metadata
from radcc.ir.fields import make_fields
from radcc.ir.printer import instruction_text
from radcc.ir.program import Definition, Instruction, Operand, Program
from radcc.ir.regclass import SCC, VGPR_BASE, PhysReg, s1
from radcc.ir.shader_config import FpMode
from radcc.passes.hazards_gfx10 import needs_cu_mode
from radcc.target import Feature, GfxLevel, Target

__all__ = ["ABIError", "code_object", "constant_data_symbol", "entry_args", "kernel_fields", "needs_cu_mode",
           "packed_workitem_ids", "program_args", "scratch_offset_range", "scratch_st_mode",
           "startpgm_args", "startpgm_prologue", "flat_scratch_init"]

HW_REG_FLAT_SCR_LO = 20  # hwreg ids (LLVM's HW_REG_FLAT_SCR_LO/HI, GFX10)
HW_REG_FLAT_SCR_HI = 21
_WORKGROUP_IDS = (ArgKind.WORKGROUP_ID_X, ArgKind.WORKGROUP_ID_Y, ArgKind.WORKGROUP_ID_Z)


class ABIError(AbiError):
    pass


def entry_args(target: Target) -> ShaderArgs:
    """The registers a radcc compute program may read at entry, all enabled: the kernarg
    segment pointer, workgroup ids x, y, z and the local ids of three dimensions (the IR's
    view: on GFX10 with scratch the hardware puts the workgroup ids elsewhere and
    `startpgm_prologue` moves them here)."""
    return amdhsa.kernel_args(target, workgroup_ids=(True, True, True), local_id_dims=3)


def startpgm_args(program: Program, instr: Instruction) -> ShaderArgs:
    """The shader arguments implied by the registers `instr` (``p_startpgm``) defines."""
    full = entry_args(program.target)
    by_reg = {(a.file, a.reg, a.size): a.kind for a in full.args}
    kinds: set[ArgKind] = set()
    for d in instr.definitions:
        if d.phys is None or d.rc is None:
            raise ABIError(f"p_startpgm definition without a register: "
                           f"{instruction_text(program, instr)}")
        r, n = d.phys.reg, d.rc.size
        file = RegFile.VGPR if r >= VGPR_BASE else RegFile.SGPR
        kind = by_reg.get((file, r - VGPR_BASE if file is RegFile.VGPR else r, n))
        if kind in (ArgKind.KERNARG_SEGMENT_PTR, ArgKind.LOCAL_INVOCATION_ID_Y,
                    ArgKind.LOCAL_INVOCATION_ID_Z) and d.rc.is_sgpr == (file is RegFile.VGPR):
            kind = None  # as before: these need a register class of their file
        if kind is None:
            raise ABIError(f"p_startpgm defines {d.phys.text(d.rc)}, which the kernel ABI "
                           f"(docs/abi.md) does not set up: {instruction_text(program, instr)}")
        kinds.add(kind)
    wid = instr.fields.get("workitem_id", 0)
    if wid not in (0, 1, 2):
        raise ABIError("p_startpgm workitem_id must be 0, 1 or 2")
    assert isinstance(wid, int)
    for k, kind in ((2, ArgKind.LOCAL_INVOCATION_ID_Z), (1, ArgKind.LOCAL_INVOCATION_ID_Y)):
        if kind in kinds and wid < k:
            raise ABIError(f"p_startpgm defines v[{k}] but workitem_id:{wid} does not "
                           f"enable that id: {instruction_text(program, instr)}")
    z = ArgKind.WORKGROUP_ID_Z in kinds
    y = z or ArgKind.WORKGROUP_ID_Y in kinds
    scratch = flat_scratch_init(program)
    user = [ArgKind.KERNARG_SEGMENT_PTR] + ([ArgKind.FLAT_SCRATCH_INIT] if scratch else [])
    return amdhsa.kernel_args(program.target, user=user, workgroup_ids=(True, y, z),
                              wave_offset=scratch, local_id_dims=wid + 1)


def program_args(program: Program, startpgm: Instruction | None = None) -> ShaderArgs:
    """The program's shader arguments: those its ``p_startpgm`` (`startpgm`, else the one
    in the program) implies, with the kernarg layout of ``program.args``; without a
    ``p_startpgm``, ``program.args`` (`lower_to_hw` sets it), else those of an empty
    ``p_startpgm``. A graphics program's arguments are ``program.args`` (isel's
    `radcc.abi.graphics` instance): every register ``p_startpgm`` defines must be one of
    them (`ABIError` otherwise, and for a graphics program without them)."""
    if program.stage != COMPUTE_CS:
        return _graphics_args(program, startpgm)
    if startpgm is None:
        startpgm = _find_startpgm(program)
        if startpgm is None and program.args is not None:
            return program.args
    kernargs = program.args.kernargs if program.args is not None else None
    return startpgm_args(program, startpgm or Instruction("p_startpgm", "PSEUDO")) \
        .with_kernargs(kernargs)


def _find_startpgm(program: Program) -> Instruction | None:
    """The program's ``p_startpgm`` (None after lower_to_hw: every instruction looked at)."""
    for b in program.blocks:
        for i in b.instructions:
            if i.opcode == "p_startpgm":
                return i
    return None


def _graphics_args(program: Program, startpgm: Instruction | None) -> ShaderArgs:
    args = program.args
    if args is None or args.stage != program.stage:
        raise ABIError(f"a {program.stage.name} program without its shader arguments: "
                       "only compute programs are compiled from machine IR (docs/abi.md)")
    regs = {(a.reg + (VGPR_BASE if a.file is RegFile.VGPR else 0), a.size) for a in args.args}
    for d in startpgm.definitions if startpgm is not None else ():
        if d.phys is None or d.rc is None or (d.phys.reg, d.rc.size) not in regs:
            assert startpgm is not None  # (the loop runs over its definitions)
            raise ABIError(f"p_startpgm defines a register the {program.stage.name} ABI "
                           f"(docs/abi.md) does not set up: "
                           f"{instruction_text(program, startpgm)}")
    return args


def flat_scratch_init(program: Program) -> bool:
    """Does the kernel set up flat scratch itself (a target without architected flat
    scratch, GFX10/10.3, and ``config.scratch_bytes_per_lane`` > 0)?"""
    return (program.config.scratch_bytes_per_lane > 0
            and "enable_private_segment" not in fields_for(program.target))


def scratch_st_mode(target: Target) -> bool:
    """Can a ``scratch_*`` instruction have neither vaddr nor saddr
    (`Feature.FlatScratchSTMode`, LLVM's GCNSubtarget::hasFlatScratchSTMode: GFX10.3 and
    GFX11; llvm-mc-19 -mcpu=gfx1010 rejects ``scratch_store_dword off, v1, off``, gfx1030
    encodes saddr 0x7f)?"""
    return target.has(Feature.FlatScratchSTMode)


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
    hw = startpgm_args(program, instr)
    ir = entry_args(program.target)
    lo = hw.reg(ArgKind.FLAT_SCRATCH_INIT)
    hi = lo + 1
    wave_off = hw.reg(ArgKind.PRIVATE_SEGMENT_WAVE_OFFSET)
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
                    fields=make_fields("SOPK", {"simm16": _hwreg32(HW_REG_FLAT_SCR_LO)})),
        Instruction("s_setreg_b32", "SOPK", [Operand.fixed(_sreg(hi), s1)],
                    fields=make_fields("SOPK", {"simm16": _hwreg32(HW_REG_FLAT_SCR_HI)})),
    ]
    defined = {d.phys.reg for d in instr.definitions if d.phys is not None}
    for kind in _WORKGROUP_IDS:  # destinations below sources: increasing order reads first
        a = hw.get(kind)
        if a is not None and ir.reg(kind) in defined:
            out.append(Instruction("s_mov_b32", "SOP1", [Operand.fixed(_sreg(a.reg), s1)],
                                   [Definition.fixed(_sreg(ir.reg(kind)), s1)]))
    return out


def _hwreg32(reg_id: int) -> int:
    """SIMM16 of hwreg(id, 0, 32): id | offset << 6 | (size - 1) << 11."""
    return reg_id | (31 << 11)


def packed_workitem_ids(target: Target) -> bool:
    """Does the hardware pack the work-item ids into v0 (`radcc.abi.amdhsa.packed_local_ids`)?"""
    return amdhsa.packed_local_ids(target)


def kernel_fields(program: Program, sgprs: int, vgprs: int, uses_vcc: bool) -> dict[str, int]:
    """All `.amdhsa_*` directive values of the program's kernel descriptor."""
    args = program_args(program)
    f = amdhsa.descriptor_fields(args)
    n_sys = args.num_sgprs
    f["next_free_sgpr"] = max(sgprs, n_sys)
    f["next_free_vgpr"] = max(vgprs, 1)
    f["reserve_vcc"] = int(uses_vcc)
    f["wavefront_size32"] = int(program.wave_size == 32)
    mode = program.config.fp_mode
    if mode != FpMode():  # else the fields' defaults, which are ACO's (FpMode)
        f["float_round_mode_32"] = mode.round32
        f["float_round_mode_16_64"] = mode.round16_64
        f["float_denorm_mode_32"] = mode.denorm32
        f["float_denorm_mode_16_64"] = mode.denorm16_64
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
    f["kernarg_size"] = args.kernargs.size if args.kernargs is not None else 0
    return f


def kernel_metadata(program: Program, fields: dict[str, int],
                    kernargs: KernargLayout | None = None
                    ) -> tuple[dict[str, int], dict[str, object]]:
    """The `.amdhsa_*` fields and the code object v5 metadata map of the program's kernel.

    The metadata's ``.args`` is `kernargs` (default: the program's, `program_args`);
    the kernarg size grows to cover it. `code_object` writes them into the ELF and
    `radcc.driver.llc.kernel_asm` prints them (``.amdhsa_kernel``, ``.amdgpu_metadata``),
    so that assembling the printed file gives the same code object.
    """
    fields = dict(fields)
    if kernargs is None:
        kernargs = program_args(program).kernargs
    if kernargs is not None:
        fields["kernarg_size"] = max(fields.get("kernarg_size", 0), kernargs.size)
    kd = kernel_descriptor(fields, program.target, 0)
    decoded = decode_kernel_descriptor(kd, program.target)
    decoded.update(next_free_vgpr=fields["next_free_vgpr"],
                   next_free_sgpr=fields["next_free_sgpr"], reserve_vcc=fields["reserve_vcc"])
    kmeta = default_kernel_metadata(program.name, decoded)
    kmeta[".args"] = kernargs.metadata() if kernargs is not None else []
    return fields, default_metadata(program.target.target_id, [kmeta])


def code_object(program: Program, code: bytes, code_size: int, fields: dict[str, int],
                kernargs: KernargLayout | None = None) -> bytes:
    """An AMDHSA code object v5 holding the program as kernel `program.name`, its
    descriptor and metadata from `kernel_metadata`; the constant data at the end of
    `code` (emit_program) is the local object `constant_data_symbol(program)`."""
    fields, meta = kernel_metadata(program, fields, kernargs)
    sym = KernelSymbol(program.name, 0, code_size, fields)
    n = len(program.constant_data)
    objects = {constant_data_symbol(program): (len(code) - n, n)} if n else {}
    return write_code_object(code, program.target, [sym], metadata=meta, objects=objects)


def constant_data_symbol(program: Program) -> str:
    """The symbol of the program's constant data in .text (an ELF OBJECT: listed as
    bytes by llvm-objdump -d)."""
    return f"{program.name}.const"
