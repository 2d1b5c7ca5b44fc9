"""Instruction selection driver: a divergence-analysed MirShader -> machine IR Program.

ACO's three steps (ACO's README.md "Instruction Selection"): the divergence analysis
has run (``value.divergent``); register classes follow from it
(`IselContext.rc`); then each MIR instruction is selected in program order:
`cf.stmts` walks the structured control flow and hands every instruction to
`dispatch.select_instr`, which calls its family's module (`alu`, `alu16`,
`memory`, `mem16`, `subgroup`, `subgroup16`, `sysval`). Every module's functions
take the selection context (`context.IselContext`), as ACO's ``visit_*``
functions take ``isel_context``.

The entry block defines the registers of the shader arguments (`IselContext.args`, the
`radcc.abi.amdhsa` compute instance, docs/abi.md) with ``p_startpgm`` and loads every
binding's base address from the kernarg segment; the program keeps the arguments in
``Program.args``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from radcc.abi.args import ArgKind, RegFile, ShaderArgs
from radcc.abi.color import DEFAULT_COLOR_FORMAT, ColorFormat
from radcc.abi.kernarg import Role
from radcc.abi.stage import FRAGMENT_FS, VERTEX_NGG, HWStage
from radcc.frontend.mir import MirShader
from radcc.ir.builder import AbsentOpcodeError
from radcc.ir.program import BlockKind, Operand, Program
from radcc.ir.regclass import VGPR_BASE, PhysReg, RegClass, s2
from radcc.passes.dead_code import dead_code
from radcc.target import Target

from . import cf, image
from .context import FragmentState, IselContext, IselError, UnsupportedError
from .kernarg_loads import merge_kernarg_loads

if TYPE_CHECKING:  # the graphics stages' modules load only for a graphics shader
    from radcc.codeobj.graphics import PixelStage, VertexStage


@dataclass
class IselResult:
    program: Program
    args: ShaderArgs  # the registers at entry and the kernarg layout (docs/abi.md)
    vertex: VertexStage | None = None  # a vertex shader's code-object settings
    pixel: PixelStage | None = None  # a fragment shader's


def _select(ctx: IselContext) -> Program:
    p = ctx.p
    entry = cf.insert(ctx, cf.new(ctx, BlockKind.TOP_LEVEL))
    cf.goto(ctx, entry)
    # p_startpgm defines every register of the shader arguments, in their order
    args = ctx.args
    regs = [(RegClass.parse(f"{a.file.value}{a.size}"),
             PhysReg.of(a.reg + (VGPR_BASE if a.file is RegFile.VGPR else 0))) for a in args.args]
    start = ctx.b.startpgm(*regs)
    temps = {a.kind: t for a, t in zip(args.args, start.temps, strict=True) if a.index == 0}
    ctx.arg_temps = temps
    if ArgKind.KERNARG_SEGMENT_PTR in temps:  # a fragment shader without resources has none
        ctx.kernarg = temps[ArgKind.KERNARG_SEGMENT_PTR]
    fs = args.stage == FRAGMENT_FS
    if fs:
        from . import fragment

        ctx.fragment = FragmentState(temps, fragment.ps_inputs(ctx.shader), ctx.color_formats)
    if args.stage.is_compute:
        start.instr.fields["workitem_id"] = args.local_id_dims - 1
        ctx.wg_ids = [temps[k] for k in (ArgKind.WORKGROUP_ID_X, ArgKind.WORKGROUP_ID_Y,
                                         ArgKind.WORKGROUP_ID_Z)]
    else:
        ctx.wg_ids = []
    ctx.local_ids = [temps[k] for k in (ArgKind.LOCAL_INVOCATION_IDS, ArgKind.LOCAL_INVOCATION_ID_X,
                                        ArgKind.LOCAL_INVOCATION_ID_Y,
                                        ArgKind.LOCAL_INVOCATION_ID_Z) if k in temps]
    ctx.b.logical_start()
    if args.stage.hw is HWStage.NGG:  # ACO's NGG shaders start at the highest priority
        ctx.b.sopp("s_setprio", simm16=3)
    ctx.buffer_base, ctx.buffer_array = {}, {}
    for key in sorted(ctx.shader.bindings):
        ptr = ctx.b.inst("s_load_b64", [s2], [ctx.kernarg, Operand.c32(
            ctx.kernargs.offset(Role.BUFFER_ADDRESS, key))]).temp
        if key in ctx.shader.descriptor_counts:  # the address of its first V#
            ctx.buffer_array[key] = ptr
        else:
            ctx.buffer_base[key] = ptr
    image.load_descriptors(ctx)
    cf.analyze_structure(ctx, ctx.shader.function.body)
    cf.stmts(ctx, ctx.shader.function.body)
    if fs:
        from . import fragment

        fragment.export_outputs(ctx)
    cf.logical_end(ctx, ctx.cur)
    ctx.b.sopp("s_endpgm")
    cf.finish_cfg(ctx)
    p.config.lds_size = ctx.shader.shared_size
    p.args = ctx.args
    p.config.fp_contract = True  # NoContraction reaches the IR as is_precise
    p.config.scratch_bytes_per_lane = -(-ctx.shader.scratch_size // 4) * 4
    p.constant_data = ctx.shader.constant_data
    return p


def select_program(shader: MirShader, target: Target, wave_size: int = 32,
                   name: str = "main",
                   color_formats: tuple[ColorFormat, ...] = (DEFAULT_COLOR_FORMAT,)
                   ) -> IselResult:
    """Select machine IR for `shader` (divergence analysis must have run).
    `color_formats`: a fragment shader's colour attachment formats, by location (the
    last one repeats for higher locations)."""
    if wave_size not in (32, 64):
        raise IselError(f"wave size {wave_size} (32 or 64)")
    ctx = IselContext(shader, target, wave_size, name)
    ctx.color_formats = color_formats
    if shader.stage == FRAGMENT_FS:
        from . import fragment

        res = shader.bindings or shader.images or shader.samplers or shader.push_constant_size
        ctx.args = fragment.fragment_shader_args(shader, target,
                                                 ctx.kernargs if res else None)
    try:
        program = _select(ctx)
    except AbsentOpcodeError as e:  # a GFX11-only instruction asked of an older chip
        raise UnsupportedError(f"instruction selection: {e}") from None
    dead_code(program)  # values isel made that nothing reads (radcc.passes.dead_code)
    if ctx.args.stage.is_compute:  # the AMDHSA kernarg segment (docs/abi.md)
        merge_kernarg_loads(program, getattr(ctx, "kernarg", None), ctx.kernargs.size)
    vs: VertexStage | None = None
    ps: PixelStage | None = None
    if shader.stage is VERTEX_NGG:
        from . import vertex

        vs = vertex.vertex_stage(ctx)
    elif shader.stage == FRAGMENT_FS:
        from . import fragment

        ps = fragment.pixel_stage(shader, ctx.args, color_formats)
    return IselResult(program, ctx.args, vs, ps)
