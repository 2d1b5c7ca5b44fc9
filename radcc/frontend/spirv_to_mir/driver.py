"""The entry point: `spirv_to_mir` translates one entry point of a checked SPIR-V
module (workgroup size, derivative groups, globals, the entry function inlined, constants
and flag initialisations first in the entry block).
"""

from __future__ import annotations

from ..mir import (
    Block,
    DerivativeGroup,
    FloatControls,
    Instr,
    MirShader,
    Value,
)
from ..mir_builder import MirBuilder
from ..spirv import grammar, read_spirv
from ..spirv.module import SpirvModule
from .cfg import inline_call, unwrap_trivial_loops
from .context import SpecValue, TranslationContext, err, fold_value
from .dispatch import translate
from .fragment_io import FRAGMENT_FS, emit_outputs
from .stage_io import VERTEX_NGG, declare_stage_vars, translate_vertex
from .types_consts import const_tv, host_int
from .variables import declare_globals


def spirv_to_mir(
    module: SpirvModule | bytes,
    entry: str | None = None,
    spec: dict[int, SpecValue] | None = None,
    wave_size: int | None = None,
    instance_inputs: frozenset[int] = frozenset(),
) -> MirShader:
    """Translate entry point ``entry`` (or the only one) with spec constant overrides;
    `wave_size`, the target's subgroup size, is needed by cooperative matrices (their
    per-invocation part depends on it) and refused by them when None;
    `instance_inputs`: the vertex input locations fetched per instance (the pipeline's
    input rates, RADV's pipeline key; the others per vertex)."""
    if not isinstance(module, SpirvModule):
        module = read_spirv(module)
    return translate_module(TranslationContext(module, entry, spec or {}, translate,
                                               wave_size, instance_inputs))


def translate_module(ctx: TranslationContext) -> MirShader:
    vertex = ctx.ep.execution_model == "Vertex"
    fragment = ctx.ep.execution_model == "Fragment"
    if vertex:  # runs on the NGG stage (stage_io.py)
        ctx.shader.stage = VERTEX_NGG
    elif fragment:  # inputs, outputs, discards, derivatives: fragment_io.py
        ctx.shader.stage = FRAGMENT_FS
    else:
        ctx.shader.workgroup_size = workgroup_size(ctx)
        ctx.shader.derivative_group = derivative_group(ctx)
    ctx.shader.float_preserve = frozenset(
        m.args[0] for m in ctx.ep.execution_modes
        if m.name == "SignedZeroInfNanPreserve" and m.args)
    ctx.shader.float_controls = float_controls(ctx)
    declare_globals(ctx)
    if vertex:
        declare_stage_vars(ctx)
    fn = ctx.m.function(ctx.ep.function)
    if vertex:
        translate_vertex(ctx, lambda: inline_call(ctx, fn, [], None))
    else:
        inline_call(ctx, fn, [], None)
    if fragment:
        emit_outputs(ctx)
    drop_lone_stores(ctx)
    # constants and flag initialisations first
    first = ctx.shader.function.body[0]
    assert isinstance(first, Block)
    init = MirBuilder(ctx.shader, [ctx.const_block])
    for var in ctx.flag_vars:
        d = init.intr("deref_var", [], 32, 1, var=var, type=var.type)
        init.intrinsic("store_deref", [d, init.false()])
    for ins in ctx.const_block.instrs:
        ins.block = first
    first.instrs[:0] = ctx.const_block.instrs
    ctx.shader.function.body = unwrap_trivial_loops(ctx.shader.function.body)
    return ctx.shader


def float_controls(ctx: TranslationContext) -> FloatControls:
    """The entry point's denormal and rounding execution modes (SPV_KHR_float_controls)."""
    def sizes(name: str) -> frozenset[int]:
        return frozenset(m.args[0] for m in ctx.ep.execution_modes if m.name == name and m.args)
    return FloatControls(sizes("DenormPreserve"), sizes("DenormFlushToZero"),
                         sizes("RoundingModeRTE"), sizes("RoundingModeRTZ"))


# the derivative-group execution modes by value (their NV and KHR spellings alike)
_DERIVATIVE_MODES = {grammar.enum_value("ExecutionMode", "DerivativeGroupQuadsKHR"):
                     DerivativeGroup.QUADS,
                     grammar.enum_value("ExecutionMode", "DerivativeGroupLinearKHR"):
                     DerivativeGroup.LINEAR}


def derivative_group(ctx: TranslationContext) -> DerivativeGroup:
    """The compute entry point's DerivativeGroupQuadsKHR / DerivativeGroupLinearKHR mode
    and the workgroup size it needs (SPV_KHR_compute_shader_derivatives, Vulkan's
    "Compute Shader Derivatives": a quads group's width and height even, a linear group's
    invocation count a multiple of 4, so that every quad is whole)."""
    found = [_DERIVATIVE_MODES[grammar.enum_value("ExecutionMode", m.name)]
             for m in ctx.ep.execution_modes
             if grammar.enum_value("ExecutionMode", m.name) in _DERIVATIVE_MODES]
    if not found:
        return DerivativeGroup.NONE
    if len(found) > 1:
        raise err("both the DerivativeGroupQuadsKHR and DerivativeGroupLinearKHR execution "
                  "modes", None)
    x, y, z = ctx.shader.workgroup_size
    if found[0] is DerivativeGroup.QUADS and (x % 2 or y % 2):
        raise err(f"workgroup size {x}x{y}x{z}: the DerivativeGroupQuadsKHR execution mode "
                  "needs an even width and height", None)
    if found[0] is DerivativeGroup.LINEAR and (x * y * z) % 4:
        raise err(f"workgroup size {x}x{y}x{z}: the DerivativeGroupLinearKHR execution mode "
                  "needs a multiple of 4 invocations", None)
    return found[0]


MAX_WORKGROUP_INVOCATIONS = 1024  # RADV's maxComputeWorkGroupInvocations


def workgroup_size(ctx: TranslationContext) -> tuple[int, int, int]:
    """The entry point's workgroup size: at least 1 in each dimension (spirv-val: a
    LocalSizeId product of zero), at most `MAX_WORKGROUP_INVOCATIONS` invocations."""
    x, y, z = size = _declared_workgroup_size(ctx)
    if min(size) < 1 or x * y * z > MAX_WORKGROUP_INVOCATIONS:
        raise err(f"workgroup size {x}x{y}x{z}: each dimension at least 1, at most "
                  f"{MAX_WORKGROUP_INVOCATIONS} invocations", None)
    return size


def _declared_workgroup_size(ctx: TranslationContext) -> tuple[int, int, int]:
    m = ctx.m
    # (the decorated ids are fewer than the constants)
    sized = {i for i in m.id_decorations if m.builtin(i) == "WorkgroupSize"}
    for cid in [*m.constants, *m.spec_constants] if sized else []:
        if cid in sized:
            v = const_tv(ctx, cid)
            bits = fold_value(v) if isinstance(v, Value) else None
            if bits is None or len(bits) != 3:
                raise err("the WorkgroupSize constant does not fold", m.defs[cid])
            return (bits[0], bits[1], bits[2])
    mode = ctx.ep.mode("LocalSize")
    if mode:
        return (mode.args[0], mode.args[1], mode.args[2])
    mode = ctx.ep.mode("LocalSizeId")
    if mode:
        x = [host_int(ctx, a) for a in mode.args]
        return (x[0], x[1], x[2])
    raise err(f"entry point {ctx.ep.name!r} has no LocalSize", None)


def drop_lone_stores(ctx: TranslationContext) -> None:
    """Remove the variables stored once whose every load read the stored value
    (`context.KnownValue`): their store, the deref it stores through and the variable."""
    if not ctx.lone_stores:
        return
    drop: dict[Block, set[Instr]] = {}
    for store in ctx.lone_stores.values():
        d = store.srcs[0].parent
        assert d is not None and store.block is not None and d.block is not None
        drop.setdefault(store.block, set()).add(store)
        drop.setdefault(d.block, set()).add(d)
    for b, gone in drop.items():
        b.instrs = [i for i in b.instrs if i not in gone]
    fn = ctx.shader.function
    fn.locals = [v for v in fn.locals if v not in ctx.lone_stores]
