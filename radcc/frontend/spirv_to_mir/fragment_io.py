"""Fragment shader inputs and outputs (Mesa's nir_lower_io_to_temporaries, then
nir_lower_io, as RADV runs them on a fragment shader).

- A user-defined ``Input`` variable (``Location``, optional ``Component``, the
  interpolation decorations ``Flat``/``NoPerspective`` and ``Centroid``/``Sample``) becomes
  a local variable initialised at the start of the shader, one ``@load_interpolated_input`` per
  component (attrs ``location``, ``component``, ``interp``: ``smooth``/``linear``/``flat``,
  ``at``: ``center``/``centroid``/``sample``, ``base``: the component type). Reading inputs
  at the start keeps every interpolation in uniform control flow (isel selects
  ``lds_param_load`` + ``v_interp_*``, see `radcc.isel.fragment`).
- An ``Output`` variable (``Location`` < 8, or the ``FragDepth`` built-in) becomes a local
  variable; at the end of the shader each output the shader stores to is read back and
  handed to ``@store_fragment_output`` once per component (attrs ``location``, or ``location`` -1
  for the depth; ``component``; ``base``). Isel exports them (``exp mrtN`` / ``exp mrtz``).
- ``OpKill``/``OpTerminateInvocation`` emit ``@terminate``, ``OpDemoteToHelperInvocation``
  ``@demote``, ``OpIsHelperInvocationEXT`` ``@load_helper_invocation``; the derivative
  opcodes emit ``@ddx``/``@ddy`` (``_fine``/``_coarse``) per component (``OpFwidth*``:
  ``|ddx| + |ddy|``).

Inputs are 32- and 16-bit scalars and vectors (a 16-bit component takes a 32-bit
component of its location, as RADV lays out unpacked 16-bit varyings: the vertex shader
stores it zero-extended, isel interpolates the low half with the f16 forms), flat 64-bit
ones (their dwords, four per location, read flat as 32-bit components and paired),
arrays, matrices and blocks of them (one location per element, column or member);
outputs are 32-bit scalars and vectors (others are refused with the variable named). ``mediump`` (RelaxedPrecision) 32-bit inputs stay 32-bit, as in RADV, which does
not lower them to 16 bits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from radcc.abi.stage import FRAGMENT_FS

from ..mir import DerivativeGroup, LocalVar, Value
from ..spirv.binary import Instruction
from ..spirv.types import TypeArray, TypeMatrix, TypePointer, TypeStruct
from .context import LocalPtr, TranslationContext, err
from .types_consts import array_length, get_value, mtype

# fragment built-in inputs -> (intrinsic, bit size, components)
FRAGMENT_BUILTINS: dict[str, tuple[str, int, int]] = {
    "FragCoord": ("load_frag_coord", 32, 4),
    "FrontFacing": ("load_front_face", 1, 1),
    "HelperInvocation": ("load_helper_invocation", 1, 1),
    "PointCoord": ("load_point_coord", 32, 2),
    "SampleId": ("load_sample_id", 32, 1),
}

MAX_COLOR_OUTPUTS = 8
# variables.store_local: a value stored through a local pointer
StoreLocal = Callable[[TranslationContext, LocalPtr, Any], None]


@dataclass
class StageOutput:
    var: LocalVar
    tid: int  # the pointee type
    location: int  # -1: FragDepth
    component: int
    written: bool


def _pointer_roots(ctx: TranslationContext) -> dict[int, int]:
    """Each access chain's root variable."""
    roots: dict[int, int] = {}
    for ins in ctx.m.instructions:
        if ins.opname in ("OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain",
                          "OpCopyObject") and ins.result_id is not None:
            base = ins.id(0)
            roots[ins.result_id] = roots.get(base, base)
    return roots


def stored_roots(ctx: TranslationContext) -> set[int]:
    """The variables some instruction may write through (stores, copies, calls passing
    the pointer)."""
    roots = _pointer_roots(ctx)
    out: set[int] = set()
    for ins in ctx.m.instructions:
        if ins.opname in ("OpStore", "OpCopyMemory"):
            p = ins.id(0)
            out.add(roots.get(p, p))
        elif ins.opname == "OpFunctionCall":
            for p in ins.ids()[1:]:
                out.add(roots.get(p, p))
    return out


def _scalar_or_vector(ctx: TranslationContext, vid: int, tid: int, what: str,
                      sizes: tuple[int, ...]) -> None:
    if not ctx.is_leaf(tid):
        raise err(f"{what} %{vid} ({ctx.m.name(vid) or 'unnamed'}): only scalar and vector "
                  "inputs and outputs are supported (no arrays, matrices or blocks)", ctx.ins)
    base, bits = ctx.scalar(tid)
    if bits not in sizes or base == "bool":
        allowed = " and ".join(f"{n}-bit" for n in sizes)
        raise err(f"{what} %{vid} ({ctx.m.name(vid) or 'unnamed'}): only {allowed} "
                  f"{'inputs' if 'Input' in what else 'outputs'} are supported", ctx.ins)


def declare_input(ctx: TranslationContext, vid: int, pointee: int, store: StoreLocal) -> None:
    """A user-defined fragment input: a local initialised from `@load_interpolated_input`s
    (a scalar or vector at its Location; an array or matrix: one location per element or
    column; a block: its members at their Locations, else following each other)."""
    m = ctx.m
    loc = m.decoration(vid, "Location")
    t = ctx.ty(pointee)
    if loc is None and not isinstance(t, TypeStruct):
        raise err(f"Input variable %{vid} has no Location", ctx.ins)
    comp = m.decoration(vid, "Component")
    first = int(comp[0]) if comp else 0
    saved, ctx.b = ctx.b, ctx.cb
    try:
        value, _end = _input_value(ctx, vid, pointee, int(loc[0]) if loc else 0, first,
                                   _interp_of(ctx, vid, None))
        lv = ctx.shader.new_local(m.name(vid) or f"in{vid}", mtype(ctx, pointee))
        d = ctx.b.intr("deref_var", [], 32, 1, var=lv, type=lv.type)
        store(ctx, LocalPtr(d, pointee), value)
    finally:
        ctx.b = saved
    ctx.globals[vid] = LocalPtr(d, pointee)


def _interp_of(ctx: TranslationContext, vid: int, member: int | None,
               outer: tuple[str, str] | None = None) -> tuple[str, str]:
    """(interp, at) from a variable's (or block member's) decorations, else `outer`'s."""
    m = ctx.m
    interp, at = outer or ("smooth", "center")
    if m.has_decoration(vid, "Flat", member):
        interp = "flat"
    elif m.has_decoration(vid, "NoPerspective", member):
        interp = "linear"
    if m.has_decoration(vid, "Sample", member):
        at = "sample"
    elif m.has_decoration(vid, "Centroid", member):
        at = "centroid"
    return interp, at


def _input_value(ctx: TranslationContext, vid: int, tid: int, loc: int, first: int,
                 mode: tuple[str, str]) -> tuple[Any, int]:
    """The value of an input of type `tid` at location `loc` (component `first`) and the
    next free location."""
    t = ctx.ty(tid)
    b = ctx.b
    if isinstance(t, TypeArray | TypeMatrix):
        n = array_length(ctx, t) if isinstance(t, TypeArray) else t.columns
        el = t.element if isinstance(t, TypeArray) else t.column
        out = []
        for _ in range(n):
            v, loc = _input_value(ctx, vid, el, loc, first, mode)
            out.append(v)
        return out, loc
    if isinstance(t, TypeStruct):
        out = []
        for k, mt in enumerate(t.members):
            ml = ctx.m.decoration(tid, "Location", k)
            mc = ctx.m.decoration(tid, "Component", k)
            v, end = _input_value(ctx, tid, mt, int(ml[0]) if ml else loc,
                                  int(mc[0]) if mc else 0, _interp_of(ctx, tid, k, mode))
            out.append(v)
            loc = end
        return out, loc
    _scalar_or_vector(ctx, vid, tid, "Input variable", (32, 16, 64))
    base, bits = ctx.scalar(tid)
    n = ctx.comps(tid)
    if bits == 64:
        return _input_value64(ctx, vid, loc, first, n, mode[0]), loc + (first + 2 * n + 3) // 4
    if first + n > 4:
        raise err(f"Input variable %{vid}: components {first}..{first + n - 1} of location "
                  f"{loc} (at most 4)", ctx.ins)
    interp, at = mode
    if interp != "flat" and base != "float":
        raise err(f"integer Input variable %{vid} must be Flat", ctx.ins)
    comps = [b.intr("load_interpolated_input", [], bits, 1, location=loc,
                    component=first + i, interp=interp, at=at, base=base) for i in range(n)]
    return b.vec(comps), loc + 1


def _input_value64(ctx: TranslationContext, vid: int, loc: int, first: int, n: int,
                   interp: str) -> Any:
    """A flat 64-bit input: its dwords from component `first` (in 32-bit units) of
    location `loc` on, four per location (ACO's visit_load_fs_input: two 32-bit flat
    loads per component), paired."""
    if interp != "flat":
        raise err(f"64-bit Input variable %{vid} must be Flat", ctx.ins)
    b = ctx.b
    dw = [b.intr("load_interpolated_input", [], 32, 1, location=loc + d // 4,
                 component=d % 4, interp="flat", at="center", base="uint")
          for d in range(first, first + 2 * n)]
    return b.vec([b.alu("pack_64_2x32_split", 64, 1, dw[2 * i], dw[2 * i + 1])
                  for i in range(n)])


def declare_output(ctx: TranslationContext, vid: int, pointee: int, builtin: str | None,
                   written: set[int]) -> None:
    """A fragment output: a local variable exported at the end (`emit_outputs`)."""
    m = ctx.m
    if builtin is not None:
        if builtin != "FragDepth":
            raise err(f"unsupported output built-in {builtin}", ctx.ins)
        loc, first = -1, 0
    else:
        lo = m.decoration(vid, "Location")
        if lo is None:
            raise err(f"Output variable %{vid} has no Location", ctx.ins)
        loc = int(lo[0])
        if loc >= MAX_COLOR_OUTPUTS:
            raise err(f"Output variable %{vid} at Location {loc} (colour outputs are at "
                      f"locations 0..{MAX_COLOR_OUTPUTS - 1})", ctx.ins)
        if m.has_decoration(vid, "Index") and int(m.decoration(vid, "Index")[0]):  # type: ignore[index]
            raise err(f"Output variable %{vid}: dual-source blending (Index 1) is not "
                      "supported", ctx.ins)
        comp = m.decoration(vid, "Component")
        first = int(comp[0]) if comp else 0
    _scalar_or_vector(ctx, vid, pointee, "Output variable", (32,))
    lv = ctx.shader.new_local(m.name(vid) or f"out{vid}", mtype(ctx, pointee))
    d = ctx.cb.intr("deref_var", [], 32, 1, var=lv, type=lv.type)
    ctx.globals[vid] = LocalPtr(d, pointee)
    ctx.fs_outputs.append(StageOutput(lv, pointee, loc, first, vid in written))


def declare_stage_io(ctx: TranslationContext, vid: int, storage_class: str,
                     builtin: str | None, written: set[int], store: StoreLocal) -> None:
    """Declare an Input/Output variable of a fragment shader's interface; `store` is
    `variables.store_local` (passed in: variables dispatches here)."""
    t = ctx.ty(ctx.m.global_variables[vid].type)
    assert isinstance(t, TypePointer)
    if storage_class == "Input":
        declare_input(ctx, vid, t.pointee, store)
    else:
        declare_output(ctx, vid, t.pointee, builtin, written)


def emit_outputs(ctx: TranslationContext) -> None:
    """At the end of the shader: `@store_fragment_output` per component of every written output."""
    b = ctx.b
    for o in ctx.fs_outputs:
        if not o.written:
            continue
        base, bits = ctx.scalar(o.tid)
        d = b.intr("deref_var", [], 32, 1, var=o.var, type=o.var.type)
        v = b.intr("load_deref", [d], bits, ctx.comps(o.tid))
        for i, c in enumerate(b.channels(v)):
            b.intrinsic("store_fragment_output", [c], location=o.location, component=o.component + i,
                        base=base)


# ------------------------------------------------------------------- instructions
def op_terminate(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.b.intrinsic("terminate", [])


def op_demote(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.b.intrinsic("demote", [])


def op_is_helper(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.set(ins, ctx.b.intr("load_helper_invocation", [], 1, 1))


_DERIVATIVES = {
    "OpDPdx": ("ddx",), "OpDPdy": ("ddy",), "OpFwidth": ("ddx", "ddy"),
    "OpDPdxFine": ("ddx_fine",), "OpDPdyFine": ("ddy_fine",),
    "OpFwidthFine": ("ddx_fine", "ddy_fine"),
    "OpDPdxCoarse": ("ddx_coarse",), "OpDPdyCoarse": ("ddy_coarse",),
    "OpFwidthCoarse": ("ddx_coarse", "ddy_coarse"),
}


def has_derivatives(ctx: TranslationContext) -> bool:
    """Derivatives and implicit LOD exist: a fragment shader, or a compute shader with
    derivative groups (`radcc.frontend.mir.DerivativeGroup`)."""
    return ctx.shader.stage == FRAGMENT_FS or \
        ctx.shader.derivative_group is not DerivativeGroup.NONE


NO_DERIVATIVES = ("outside a fragment shader or a compute shader with the "
                  "DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode")


def op_derivative(ctx: TranslationContext, ins: Instruction) -> None:
    if not has_derivatives(ctx):
        raise err(f"{ins.opname} {NO_DERIVATIVES}", ins)
    x = get_value(ctx, ins.id(0))
    if x.bit_size != 32:
        raise err(f"{ins.opname} of {x.bit_size}-bit values is not supported", ins)
    b = ctx.b
    out: list[Value] = []
    for c in b.channels(x):
        parts = [b.intr(op, [c], 32, 1) for op in _DERIVATIVES[ins.opname]]
        if len(parts) == 2:
            r = b.alu("fadd", 32, 1, b.alu("fabs", 32, 1, parts[0]),
                      b.alu("fabs", 32, 1, parts[1]))
        else:
            r = parts[0]
        out.append(r)
    ctx.set(ins, b.vec(out))


OPS = {op: op_derivative for op in _DERIVATIVES} | {
    "OpDemoteToHelperInvocation": op_demote,
    "OpIsHelperInvocationEXT": op_is_helper,
}
