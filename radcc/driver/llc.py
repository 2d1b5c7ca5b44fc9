"""The driver behind `radcc llc` (`radcc.cli.llc`): machine IR text in, GFX10/GFX11
assembly or a code object out (`compile_file`).

Reads the textual machine IR (`radcc.ir.parser`), runs the phases through the pass
manager (`radcc.passes.manager.run_pipeline`, with the `DebugOptions` the caller
passes; a program whose temps all have registers already starts after register
allocation), then `emit_program`. Assembly is an LLVM-style file with the ``.amdhsa_kernel``
block (`kernel_asm`), which ``llvm-mc``/``radcc mc --filetype=obj`` assemble; a
code object's metadata describes the kernel's arguments (``NAME:KIND``,
`kernel_args`), laid out as docs/abi.md says. A target given besides the IR header's
must name the IR's opcodes (opcodes are named as the target's generation names them:
another generation than the header's is refused if the IR uses an opcode that
generation lacks). Targets: GFX11 (gfx11xx), GFX10.1 (gfx1010-1013) and GFX10.3
(gfx1030-1036); on GFX10 the passes ask the target (no s_delay_alu; GFX10 s_waitcnt
layout, hazards, ABI).

Errors: `radcc.ir.parser.IRParseError` (``file:line:col: error: message``) for IR
syntax; `LlcError` and the passes' errors for a register demand beyond the target's
register file and any pass's refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

from radcc.abi.kernarg import KernargLayout
from radcc.ir.program import Program
from radcc.ir.regclass import VGPR_BASE
from radcc.ir.validate import validate_ir
from radcc.isa.table import get_table
from radcc.passes import manager
from radcc.passes.emit_program import (
    EmitResult,
    cache_line_log2,
    emit_code_object,
    emit_program,
    kernel_descriptor_fields,
)
from radcc.passes.manager import PipelineResult, run_pipeline
from radcc.passes.options import DebugOptions
from radcc.passes.statistics import collect_statistics
from radcc.target import Target, get_target


class LlcError(Exception):
    pass


_ARG_KINDS = {"i32": (4, "int"), "u32": (4, "uint"), "f32": (4, "float"),
              "i64": (8, "long"), "u64": (8, "ulong"), "f64": (8, "double")}


def kernel_args(specs: list[str]) -> KernargLayout:
    """The kernarg layout of ``--arg NAME:KIND`` (docs/abi.md: each argument at the
    next offset aligned to its size)."""
    lay = KernargLayout()
    for spec in specs:
        name, _, kind = spec.partition(":")
        if not name or not kind:
            raise LlcError(f"--arg '{spec}': expected NAME:KIND")
        if kind == "buffer":
            lay.add_buffer(name)
        elif kind in _ARG_KINDS:
            size, tname = _ARG_KINDS[kind]
            lay.add_value(name, size, tname)
        else:
            raise LlcError(f"--arg '{spec}': unknown kind '{kind}' (buffer, "
                           f"{', '.join(_ARG_KINDS)})")
    return lay


def is_allocated(program: Program) -> bool:
    """Does every temp operand and definition already have a register?"""
    for _b, ins in program.instructions():
        for x in (*ins.operands, *ins.definitions):
            if x.temp is not None and x.phys is None:
                return False
    return True


def check_opcodes(program: Program, target: Target) -> None:
    """Refuse IR whose hardware opcodes `target`'s generation does not have (the IR
    names instructions canonically, `radcc.isa.table`; an instruction of another
    generation, e.g. GFX11's ``v_permlane64_b32`` for gfx1030, is refused by name)."""
    table = get_table(target.gfx_level)
    for b in program.blocks:
        for k, ins in enumerate(b.instructions):
            if ins.is_pseudo or ins.opcode in table.by_canon:
                continue
            raise LlcError(f"BB{b.index} instruction {k}: opcode '{ins.opcode}' does not exist "
                           f"on {target.name} ({target.gfx_level.name})")


def check_workitem_ids(program: Program, target: Target) -> None:
    """Refuse a y/z work-item id read when `target` lays the ids out differently from
    the IR's target (packed in v0 on GFX11, v0/v1/v2 on GFX10: docs/abi.md)."""
    from radcc.passes.kernel_abi import packed_workitem_ids

    if packed_workitem_ids(target) == packed_workitem_ids(program.target):
        return
    for _b, ins in program.instructions():
        if ins.opcode == "p_startpgm" and ins.fields.get("workitem_id", 0):
            raise LlcError(f"p_startpgm workitem_id:{ins.fields['workitem_id']}: the IR is "
                           f"written for {program.target.name}, whose work-item ids are laid "
                           f"out differently from {target.name}'s (docs/abi.md)")


def check_demand(program: Program) -> None:
    """Refuse allocated programs using more registers than the target has; an
    unallocated program needing more is spilled (`radcc.passes.spill`, which
    raises `SpillError` when it cannot make it fit)."""
    from radcc.passes.emit_program import register_usage

    t = program.target
    max_v = t.regfile(program.wave_size).addressable_vgprs
    max_s = t.addressable_sgprs
    if not is_allocated(program):
        # fixed registers of an unallocated program must exist on the target
        for b in program.blocks:
            for k, ins in enumerate(b.instructions):
                for x in (*ins.operands, *ins.definitions):
                    if x.phys is None or x.rc is None or not x.phys.is_vgpr:
                        continue
                    end = x.phys.reg - VGPR_BASE + x.rc.size
                    if end > max_v:
                        raise LlcError(f"BB{b.index} instruction {k} ({ins.opcode}): "
                                       f"v[{x.phys.reg - VGPR_BASE}] is beyond {t.name}'s "
                                       f"{max_v} VGPRs")
        return
    sg, vg, _ = register_usage(program)
    if vg > max_v:
        raise LlcError(f"the program uses {vg} VGPRs but {t.name} has {max_v}")
    if sg > max_s:
        raise LlcError(f"the program uses {sg} SGPRs but {t.name} has {max_s}")


def run_passes(program: Program, options: DebugOptions) -> PipelineResult:
    """The phases on `program` (an allocated program: those after register allocation)."""
    start = "register_allocation" if is_allocated(program) else None
    return run_pipeline(program, options, start_after=start)


def kernel_asm(program: Program, res: EmitResult, stats: dict[str, int] | None,
               args: KernargLayout | None = None) -> str:
    """An LLVM-style assembly file of the kernel: ``radcc mc --filetype=obj`` (and
    llvm-mc + ld.lld) of it gives the code object `emit_code_object(program, res, args)`
    gives (the same code, kernel descriptor and ``.amdgpu_metadata``)."""
    from radcc.codeobj.metadata import to_yaml
    from radcc.passes.kernel_abi import kernel_metadata

    name = program.name
    fields, meta = kernel_metadata(program, kernel_descriptor_fields(program, res), args)
    out = [] if program.wave_size == 32 else [
        "; wave64 code: assemble with radcc mc --wave64 (llvm-mc -mattr=+wavefrontsize64)"]
    out += [f'\t.amdgcn_target "{program.target.target_id}"',
           "\t.amdhsa_code_object_version 5", "\t.text", f"\t.globl\t{name}",
           "\t.p2align\t8", f"\t.type\t{name},@function", f"{name}:"]
    out += [ln for ln in res.asm.rstrip("\n").split("\n")]
    out += [".Lfunc_end0:", f"\t.size\t{name}, .Lfunc_end0-{name}"]
    if stats is not None:
        out += [f"\t; {k}: {v}" for k, v in stats.items()]
    line = cache_line_log2(program.target)  # s_code_end padding, as emit_program's
    out += [f"\t.p2alignl {line}, 3214868480", f"\t.fill {3 * (1 << line) // 4}, 4, 3214868480"]
    out += constant_data_asm(program)
    out += ["\t.rodata", "\t.p2align\t6", f"\t.amdhsa_kernel {name}"]
    out += [f"\t\t.amdhsa_{k} {v}" for k, v in fields.items()]
    out += ["\t.end_amdhsa_kernel", "\t.text", "\t.amdgpu_metadata"]
    out += to_yaml(meta).rstrip("\n").split("\n")
    out += ["\t.end_amdgpu_metadata", ""]
    return "\n".join(out)


def constant_data_asm(program: Program) -> list[str]:
    """The program's constant data after the padding, where emit_program puts it and its
    p_constaddr literals point, as the object `kernel_abi.constant_data_symbol`."""
    from radcc.passes.kernel_abi import constant_data_symbol

    data = program.constant_data
    if not data:
        return []
    sym = constant_data_symbol(program)
    out = [f"\t.type\t{sym},@object", f"{sym}:"]
    whole = len(data) // 4 * 4
    for i in range(0, whole, 32):
        words = [int.from_bytes(data[j:j + 4], "little") for j in range(i, min(i + 32, whole), 4)]
        out.append("\t.long " + ", ".join(f"0x{w:08x}" for w in words))
    if whole < len(data):
        out.append("\t.byte " + ", ".join(f"0x{b:02x}" for b in data[whole:]))
    return out + [f"\t.size\t{sym}, {len(data)}"]


def check_pass_names(names: Sequence[str], option: str) -> None:
    """Refuse a ``--print-after/--print-before`` name that is no back-end phase or ``all``."""
    try:
        manager.check_pass_names(names, option)
    except manager.UnknownPassError as e:
        raise LlcError(str(e)) from None


def compile_file(path: str, text: str, *, mcpu: str | None = None, wave64: bool = False,
                 asm: bool = False, stats: bool = False, args: Sequence[str] = (),
                 print_after: Sequence[str] = (), print_before: Sequence[str] = (),
                 debug_options: DebugOptions | None = None) -> tuple[bytes | str, dict]:
    """Compile the IR `text` (read from `path`, for messages): assembly when `asm` (with
    the statistics as comments when `stats`), else a code object whose metadata lists
    the kernel arguments `args` (``NAME:KIND``, `kernel_args`); and the statistics.
    `mcpu`/`wave64` override the IR header; `print_after`/`print_before` name back-end
    phases (or ``all``) to print the IR around, on stderr, besides those of
    `debug_options` (the pass manager's; none when None)."""
    check_pass_names(print_after, "--print-after")
    check_pass_names(print_before, "--print-before")
    options = debug_options or DebugOptions()
    check_pass_names(options.print_after, "RADCC_DEBUG print-after")
    check_pass_names(options.print_before, "RADCC_DEBUG print-before")
    options = options.with_prints(set(print_after), set(print_before))
    from radcc.ir.parser import parse_program  # (radcc compile shares this module's printers)

    program = parse_program(text, path, complete=True)
    if mcpu:
        try:
            target = get_target(mcpu)
        except ValueError as e:
            raise LlcError(str(e)) from None
        if target.gfx_level != program.gfx_level:
            check_opcodes(program, target)
            check_workitem_ids(program, target)
        program.target = target
    if wave64:
        program.wave_size = 64
    # SSA IR that parses but breaks an invariant is refused here, naming block and
    # instruction, rather than failing inside some pass (allocated IR may read
    # registers no instruction defines, so it is not SSA-checked)
    if not is_allocated(program):
        validate_ir(program, "input IR")
    kernel_args(list(args))  # reject bad --arg before compiling
    check_demand(program)
    run_passes(program, options)
    res = emit_program(program)
    statistics = collect_statistics(program, res)
    if asm:
        return (kernel_asm(program, res, statistics if stats else None, kernel_args(list(args))),
                statistics)
    return emit_code_object(program, res, kernel_args(list(args))), statistics
