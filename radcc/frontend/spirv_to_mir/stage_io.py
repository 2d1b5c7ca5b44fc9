"""Vertex shaders: their interface variables and the NGG structure around the entry
function (what Mesa's nir_lower_io and ac_nir_lower_ngg's "nogs" lowering do for a
VS-only NGG pipeline, GFX11; docs/mir.md "Vertex shaders").

Guarantees of `translate_vertex`:

- every ``Input`` variable with a ``Location`` (a 32- or 16-bit scalar or vector: float,
  int or uint) becomes a local initialised by ``load_input`` of its location, fetched at
  the vertex index (``gl_VertexIndex``) or, when its location is one of the compile
  option's instance inputs (`TranslationContext.instance_inputs`: the pipeline's input
  rates, a compile-time fact as in RADV's pipeline key), at the instance index
  (``gl_InstanceIndex``); a 16-bit input is the 32-bit fetch converted
  (``f2f16``, ``u2u16``: the attribute's format converts to 32 bits first, as a 16-bit
  input of a 32-bit format reads in Vulkan); ``MirShader.inputs`` lists them;
- a 64-bit input (double, int64, uint64 scalars and vectors) is fetched as dwords, four
  per location from its location on (a dvec3/dvec4 takes two: the V# of each location
  gives its 32-bit channels), paired into 64-bit values;
- every ``Output`` variable (``Location`` varyings: 32-, 16- and 64-bit (their dwords,
  four per location) scalars and vectors, and
  matrices, arrays and blocks of them at consecutive locations; the ``Position``,
  ``PointSize``, ``ClipDistance`` and ``CullDistance`` built-ins, standalone or as
  members of the ``gl_PerVertex`` block) becomes a local; at the end of the entry
  function each is read and handed to ``store_output`` (attrs ``slot``: ``param``,
  ``position``, ``point_size``, ``clip_distance``, ``cull_distance``; ``location``),
  then ``export_vertex`` does the exports; ``MirShader.outputs`` lists the varyings;
- the NGG work around it: the first wave of the workgroup sends ``GS_ALLOC_REQ`` with
  the workgroup's vertex and primitive counts (``gs_tg_info``), the lanes with a
  primitive export it (``export_primitive`` of the packed vertex indices), and only the
  lanes with a vertex run the shader (``merged_wave_info``'s counts).
"""

from __future__ import annotations

from radcc.abi.stage import NAMED_STAGES

from ..mir import StageVar, Value
from ..spirv.types import TypeArray, TypeFloat, TypeInt, TypeMatrix, TypeStruct, TypeVector
from .context import LocalPtr, TranslationContext, err
from .types_consts import mtype
from .variables import load_local, store_local

VERTEX_NGG = NAMED_STAGES["vertex_ngg"]
_OUTPUT_BUILTINS = {"Position": "position", "PointSize": "point_size",
                    "ClipDistance": "clip_distance", "CullDistance": "cull_distance"}


def declare_stage_vars(ctx: TranslationContext) -> None:
    """The vertex shader's Input (not built-in) and Output variables `declare_globals`
    set aside: locals (module docstring)."""
    for vid, sc, pointee in ctx.stage_vars:
        ctx.ins = ctx.m.defs[vid]
        _declare(ctx, vid, sc, pointee)
    ctx.ins = None


def _declare(ctx: TranslationContext, vid: int, sc: str, pointee: int) -> None:
    m = ctx.m
    lv = ctx.shader.new_local(m.name(vid) or f"{sc.lower()}{vid}", mtype(ctx, pointee))
    d = ctx.cb.intr("deref_var", [], 32, 1, var=lv, type=lv.type)
    ptr = LocalPtr(d, pointee)
    ctx.globals[vid] = ptr
    if sc == "Input":
        loc = _location(ctx, vid)
        comps, typ, bits = _scalar_or_vector(ctx, pointee, f"vertex input at location {loc}")
        ctx.stage_inputs.append((StageVar(loc, comps, typ, bits,
                                          per_instance=loc in ctx.instance_inputs), ptr))
    else:
        ctx.stage_outputs.append((vid, ptr))


def _location(ctx: TranslationContext, vid: int) -> int:
    dec = ctx.m.decoration(vid, "Location")
    if dec is None:
        raise err(f"interface variable %{vid} has no Location", ctx.m.defs[vid])
    if ctx.m.has_decoration(vid, "Component"):
        raise err(f"interface variable %{vid}: the Component decoration is not supported",
                  ctx.m.defs[vid])
    return int(dec[0])


def _scalar_or_vector(ctx: TranslationContext, tid: int, what: str) -> tuple[int, str, int]:
    """(components, type, bits) of a 32-, 16- or 64-bit scalar or vector."""
    t = ctx.ty(tid)
    n = 1
    if isinstance(t, TypeVector):
        n = t.count
        t = ctx.ty(t.component)
    if isinstance(t, TypeFloat) and t.width in (32, 16, 64):
        return n, "float", t.width
    if isinstance(t, TypeInt) and t.width in (32, 16, 64):
        return n, "int" if t.signed else "uint", t.width
    raise err(f"{what}: only 32-, 16- and 64-bit scalars and vectors are supported", ctx.ins)


def _dword_chunks(n64: int) -> list[int]:
    """The dwords of `n64` 64-bit components per location: 4, then the rest (Vulkan:
    a dvec3/dvec4 takes two locations)."""
    d = 2 * n64
    return [min(4, d - k) for k in range(0, d, 4)]


def translate_vertex(ctx: TranslationContext, inline_entry: object) -> None:
    """The entry function `inline_entry` (a callable inlining it) inside the NGG
    structure (module docstring)."""
    b = ctx.b
    mwi = b.intr("load_merged_wave_info", [], 32, 1)
    tg = b.intr("load_gs_tg_info", [], 32, 1)

    def field(v: Value, off: int, bits: int) -> Value:
        return b.alu("ubitfield_extract", 32, 1, v, b.imm(off), b.imm(bits))

    # GS_ALLOC_REQ from the workgroup's first wave (ACO: before any export)
    first_wave = b.alu("ieq", 1, 1, field(mwi, 24, 4), b.imm(0))
    alloc = b.push_if(first_wave)
    with b.into(alloc.then_list):
        b.intrinsic("sendmsg_gs_alloc_req", [field(tg, 12, 9), field(tg, 22, 9)])
    # the primitive export of the lanes with a primitive (the hardware packed it)
    # (is_subgroup_invocation_lt reads the count's low 7 bits: merged_wave_info's
    # vertex count is bits 0-7, its primitive count bits 8-15, as ACO uses them)
    prim = b.push_if(b.intr("is_subgroup_invocation_lt",
                            [b.alu("ushr", 32, 1, mwi, b.imm(8))], 1, 1))
    with b.into(prim.then_list):
        b.intrinsic("export_primitive", [b.intr("load_packed_passthrough_primitive", [], 32, 1)])
    # the vertex shader, on the lanes with a vertex
    vert = b.push_if(b.intr("is_subgroup_invocation_lt", [mwi], 1, 1))
    with b.into(vert.then_list):
        _load_inputs(ctx)
        inline_entry()  # type: ignore[operator]
        _store_outputs(ctx)
        b.intrinsic("export_vertex", [])


def _load_inputs(ctx: TranslationContext) -> None:
    b = ctx.b
    if not ctx.stage_inputs:
        return
    rates = {var.location for var, _ptr in ctx.stage_inputs}
    vtx = b.intr("load_vertex_index", [], 32, 1) if rates - ctx.instance_inputs else None
    inst = b.intr("load_instance_index", [], 32, 1) if rates & ctx.instance_inputs else None
    seen: set[int] = set()
    for var, ptr in sorted(ctx.stage_inputs, key=lambda x: x[0].location):
        chunks = _dword_chunks(var.components) if var.bits == 64 else [var.components]
        for k in range(len(chunks)):
            if var.location + k in seen:
                raise err(f"two vertex inputs at location {var.location + k}", None)
            seen.add(var.location + k)
        index = inst if var.per_instance else vtx
        assert index is not None
        if var.bits == 64:  # dwords from the input's locations, paired (RADV: 32-bit fetches)
            dw: list[Value] = []
            for k, c in enumerate(chunks):
                dw += b.channels(b.intr("load_input", [index], 32, c,
                                        location=var.location + k))
            v = b.vec([b.alu("pack_64_2x32_split", 64, 1, dw[2 * i], dw[2 * i + 1])
                       for i in range(var.components)])
        else:
            v = b.intr("load_input", [index], 32, var.components, location=var.location)
        if var.bits == 16:
            v = b.alu("f2f16" if var.type == "float" else "u2u16", 16, var.components, v)
        store_local(ctx, ptr, v)
        ctx.shader.inputs.append(var)


def _store_outputs(ctx: TranslationContext) -> None:
    m = ctx.m
    b = ctx.b
    outs: list[StageVar] = []
    for vid, ptr in ctx.stage_outputs:
        ctx.ins = m.defs[vid]
        pointee = ptr.tid
        t = ctx.ty(pointee)
        bi = m.builtin(vid)
        if bi is not None:
            _builtin_output(ctx, bi, load_local(ctx, ptr), pointee)
        elif isinstance(t, TypeStruct) and m.builtin(pointee, 0) is not None:
            vals = load_local(ctx, ptr)
            assert isinstance(vals, list)
            for i, mt in enumerate(t.members):
                mb = m.builtin(pointee, i)
                if mb is None:
                    raise err(f"member {i} of output block %{vid} is not a built-in", ctx.ins)
                _builtin_output(ctx, mb, vals[i], mt)
        else:
            leaves: list[tuple[int, Value, int, str, int]] = []
            block_locs = isinstance(t, TypeStruct) and m.decoration(vid, "Location") is None \
                and all(m.decoration(pointee, "Location", i) is not None
                        for i in range(len(t.members)))
            start = 0 if block_locs else _location(ctx, vid)  # else: each member's own
            _flatten(ctx, pointee, load_local(ctx, ptr), start, leaves)
            for loc, v, comps, typ, bits in leaves:
                if any(o.location == loc for o in outs):
                    raise err(f"two vertex outputs at location {loc}", ctx.ins)
                b.intrinsic("store_output", [v], slot="param", location=loc)
                outs.append(StageVar(loc, comps, typ, bits))
    ctx.ins = None
    ctx.shader.outputs = sorted(outs, key=lambda o: o.location)


def _flatten(ctx: TranslationContext, tid: int, value: object, loc: int,
             out: list[tuple[int, Value, int, str, int]]) -> int:
    """The leaves of an output of type `tid` at Location `loc` (SPIR-V's location
    assignment: a matrix's columns, an array's elements and a block's members take
    consecutive locations, a member's own Location restarting the count): appended to
    `out` as (location, value, components, type, bits); returns the next free location."""
    t = ctx.ty(tid)
    if isinstance(t, TypeStruct):
        assert isinstance(value, list)
        for i, (mt, mv) in enumerate(zip(t.members, value, strict=True)):
            own = ctx.m.decoration(tid, "Location", i)
            loc = _flatten(ctx, mt, mv, int(own[0]) if own is not None else loc, out)
        return loc
    if isinstance(t, TypeArray | TypeMatrix):
        assert isinstance(value, list)
        el = t.element if isinstance(t, TypeArray) else t.column
        for x in value:
            loc = _flatten(ctx, el, x, loc, out)
        return loc
    comps, typ, bits = _scalar_or_vector(ctx, tid, f"vertex output at location {loc}")
    assert isinstance(value, Value)
    if bits == 64:  # the dwords, four per location (a dvec3/dvec4 takes two)
        b = ctx.b
        dw: list[Value] = []
        for c in b.channels(value):
            dw += [b.alu("unpack_64_2x32_split_x", 32, 1, c),
                   b.alu("unpack_64_2x32_split_y", 32, 1, c)]
        k = 0
        for size in _dword_chunks(comps):
            out.append((loc, b.vec(dw[k:k + size]), size // 2, typ, 64))
            k += size
            loc += 1
        return loc
    out.append((loc, value, comps, typ, bits))
    return loc + 1


def _builtin_output(ctx: TranslationContext, name: str, value: object, tid: int) -> None:
    b = ctx.b
    slot = _OUTPUT_BUILTINS.get(name)
    if slot is None:
        raise err(f"unsupported output built-in {name}", ctx.ins)
    if slot in ("clip_distance", "cull_distance"):
        t = ctx.ty(tid)
        assert isinstance(t, TypeArray)
        assert isinstance(value, list)
        if len(value) > 8:
            raise err(f"{name} with {len(value)} elements (at most 8)", ctx.ins)
        for i, x in enumerate(value):
            b.intrinsic("store_output", [x], slot=slot, location=i)
        return
    assert isinstance(value, Value)
    b.intrinsic("store_output", [value], slot=slot, location=0)


__all__ = ["VERTEX_NGG", "declare_stage_vars", "translate_vertex"]
