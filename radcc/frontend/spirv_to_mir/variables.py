"""Variables and memory (Mesa's src/compiler/spirv/vtn_variables.c): interface and
module-scope variables (built-ins, buffers, push constants, shared memory,
Private variables), Function variables and their deref chains, access chains as
byte-offset arithmetic, loads and stores (aggregates split into leaves; row-major
matrices by rows; booleans in memory are 32-bit), ``OpArrayLength``; barriers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..mir import (
    Binding,
    Instr,
    LocalVar,
    ValType,
    Value,
)
from ..spirv.binary import Instruction
from ..spirv.types import (
    TypeArray,
    TypeMatrix,
    TypePointer,
    TypeRuntimeArray,
    TypeStruct,
    TypeVector,
)
from . import fragment_io
from .context import (
    SCOPES,
    TV,
    BuiltinPtr,
    KnownValue,
    LocalPtr,
    MemPtr,
    TranslationContext,
    err,
    fold_value,
)
from .images import (
    DescriptorArray,
    ImageVar,
    SampledImage,
    SamplerVar,
    claim_binding,
    declare_image,
    descriptor_element,
)
from .layout import (
    array_stride,
    explicit_size,
    has_explicit_layout,
    member_offset,
    natural_layout,
)
from .types_consts import (
    agg_len,
    array_length,
    const_tv,
    elem_tid,
    get_tv,
    get_value,
    host_int,
    mtype,
)

BUILTINS: dict[str, tuple[str, int, int]] = {
    "GlobalInvocationId": ("load_global_invocation_id", 32, 3),
    "LocalInvocationId": ("load_local_invocation_id", 32, 3),
    "LocalInvocationIndex": ("load_local_invocation_index", 32, 1),
    "WorkgroupId": ("load_workgroup_id", 32, 3),
    "NumWorkgroups": ("load_num_workgroups", 32, 3),
    "WorkgroupSize": ("load_workgroup_size", 32, 3),
    "SubgroupSize": ("load_subgroup_size", 32, 1),
    "SubgroupLocalInvocationId": ("load_subgroup_invocation", 32, 1),
    "SubgroupId": ("load_subgroup_id", 32, 1),
    "NumSubgroups": ("load_num_subgroups", 32, 1),
    "SubgroupEqMask": ("load_subgroup_eq_mask", 32, 4),
    "SubgroupGeMask": ("load_subgroup_ge_mask", 32, 4),
    "SubgroupGtMask": ("load_subgroup_gt_mask", 32, 4),
    "SubgroupLeMask": ("load_subgroup_le_mask", 32, 4),
    "SubgroupLtMask": ("load_subgroup_lt_mask", 32, 4),
    # vertex shaders (stage_io.py)
    "VertexIndex": ("load_vertex_index", 32, 1),
    "InstanceIndex": ("load_instance_index", 32, 1),
    "BaseVertex": ("load_base_vertex", 32, 1),
    "BaseInstance": ("load_base_instance", 32, 1),
}


@dataclasses.dataclass(frozen=True)
class BufferArray:
    """An array of `count` storage or uniform buffer descriptors at one binding
    (``buffer B { ... } b[4]``; `count` 0: runtime-sized, ``b[]``), each element a block
    of type `tid`. An element is
    addressed through its descriptor (docs/abi.md "Arrays of descriptors"): the V#'s base
    address, as a buffer device address is (space ``global``)."""

    binding: tuple[int, int]
    count: int
    tid: int
    readonly: bool

    def at(self, ctx: TranslationContext, idx: Value | int) -> MemPtr:
        """The element at `idx` (a constant in range, or any value: the accesses take
        per-invocation addresses, so a non-uniform index needs no loop)."""
        if isinstance(idx, int):
            if idx < 0 or self.count and idx >= self.count:
                raise err(f"descriptor index {idx} outside the array of {self.count}", ctx.ins)
            idx = ctx.b.imm(idx, 32)
        vsharp = ctx.b.intr("load_buffer_descriptor", [idx], 32, 4, binding=self.binding)
        hi = ctx.b.alu("iand", 32, 1, ctx.b.channel(vsharp, 1), ctx.b.imm(0xFFFF))
        addr = ctx.b.alu("pack_64_2x32_split", 64, 1, ctx.b.channel(vsharp, 0), hi)
        return MemPtr("global", None, None, 0, self.tid, True, readonly=self.readonly,
                      base=addr, desc=(self.binding, idx))


def declare_globals(ctx: TranslationContext) -> None:
    m = ctx.m
    fragment = ctx.ep.execution_model == "Fragment"
    written = fragment_io.stored_roots(ctx) if fragment else set()
    for vid, var in m.global_variables.items():
        ctx.ins = m.defs[vid]
        ptr = ctx.ty(var.type)
        assert isinstance(ptr, TypePointer)
        sc = var.storage_class
        bi = m.builtin(vid)
        if sc in ("Input", "Output") and vid not in ctx.ep.interface:
            continue  # another entry point's
        if fragment and bi in fragment_io.FRAGMENT_BUILTINS:
            ctx.globals[vid] = BuiltinPtr(bi)
            continue
        if fragment and (sc == "Output" or sc == "Input" and bi is None):
            fragment_io.declare_stage_io(ctx, vid, sc, bi, written, store_local)
            continue
        if sc == "Output" or (sc == "Input" and bi is None):
            if ctx.ep.execution_model != "Vertex":
                raise err(f"{sc} variable %{vid} in a {ctx.ep.execution_model} shader is not "
                          "supported", ctx.ins)
            ctx.stage_vars.append((vid, sc, ptr.pointee))  # stage_io.declare_stage_vars
            continue
        if bi is not None:
            if bi not in BUILTINS:
                raise err(f"unsupported built-in {bi}", ctx.ins)
            ctx.globals[vid] = BuiltinPtr(bi)
            continue
        pointee = ptr.pointee
        if sc in ("StorageBuffer", "Uniform", "PushConstant"):
            t = ctx.ty(pointee)
            # an array of buffer descriptors: its element count (0: runtime-sized)
            array = isinstance(t, TypeArray | TypeRuntimeArray) and sc != "PushConstant"
            count = 0
            if array:
                count = array_length(ctx, t) if isinstance(t, TypeArray) else 0
                pointee = t.element
                t = ctx.ty(pointee)
            if not isinstance(t, TypeStruct):
                raise err(f"{sc} variable %{vid} is not a block", ctx.ins)
            if sc == "PushConstant":
                ctx.globals[vid] = MemPtr("push", None, None, 0, pointee, True,
                                          readonly=True)
                ctx.shader.push_constant_size = max(ctx.shader.push_constant_size,
                                                    explicit_size(ctx, pointee))
                continue
            bind = m.binding(vid)
            if bind is None:
                raise err(f"buffer variable %{vid} has no Binding", ctx.ins)
            storage = sc == "StorageBuffer" or m.has_decoration(pointee, "BufferBlock")
            readonly = m.has_decoration(vid, "NonWritable") or all(
                m.has_decoration(pointee, "NonWritable", i) for i in range(len(t.members))
            ) or not storage
            kind = "storage" if storage else "uniform"
            claim_binding(ctx, bind, kind, count if array else None)
            ctx.shader.bindings[bind] = Binding(bind[0], bind[1], kind, readonly,
                                                explicit_size(ctx, pointee))
            if array:
                ctx.shader.descriptor_counts[bind] = count
                ctx.globals[vid] = BufferArray(bind, count, pointee, readonly)
                continue
            ctx.globals[vid] = MemPtr("ssbo" if storage else "ubo", bind, None, 0, pointee,
                                      True, readonly=readonly)
        elif sc == "Workgroup":
            explicit = has_explicit_layout(ctx, pointee)
            size, align = (explicit_size(ctx, pointee), 16) if explicit else \
                natural_layout(ctx, pointee)
            off = (ctx.shared_offset + align - 1) // align * align
            ctx.shared_offset = off + size
            ctx.shader.shared_size = ctx.shared_offset
            ctx.globals[vid] = MemPtr("shared", None, None, off, pointee, explicit)
            if var.initializer is not None:
                raise err("initialised Workgroup variables are not supported", ctx.ins)
        elif sc == "Private":
            # a module-scope variable: one LocalVar (initialised at the start)
            lv = ctx.shader.new_local(m.name(vid) or f"g{vid}", mtype(ctx, pointee))
            d = ctx.cb.intr("deref_var", [], 32, 1, var=lv, type=lv.type)
            ctx.globals[vid] = LocalPtr(d, pointee)
            if var.initializer is not None:
                saved, ctx.b = ctx.b, ctx.cb
                store_local(ctx, LocalPtr(d, pointee), const_tv(ctx, var.initializer))
                ctx.b = saved
        elif sc == "UniformConstant":
            declare_image(ctx, vid, pointee)
        elif sc == "Input":
            raise err(f"Input variable %{vid} is not a supported built-in", ctx.ins)
        else:
            raise err(f"unsupported storage class {sc} of %{vid}", ctx.ins)
    ctx.ins = None


def var_ptr(ctx: TranslationContext, var: LocalVar, tid: int) -> LocalPtr:
    d = ctx.b.intr("deref_var", [], 32, 1, var=var, type=var.type)
    return LocalPtr(d, tid)


def store_var(ctx: TranslationContext, var: LocalVar, v: Value) -> None:
    _store_deref(ctx, ctx.b.intr("deref_var", [], 32, 1, var=var, type=var.type), v)


def load_var(ctx: TranslationContext, var: LocalVar) -> Value:
    v = known_value(ctx, var)
    if v is not None:
        return v
    return _load_deref(ctx, ctx.b.intr("deref_var", [], 32, 1, var=var, type=var.type))


def load(ctx: TranslationContext, ptr: TV, tid: int) -> TV:
    if isinstance(ptr, LocalPtr):
        return load_local(ctx, ptr)
    if isinstance(ptr, MemPtr):
        return load_mem(ctx, ptr)
    if isinstance(ptr, ImageVar | SamplerVar | SampledImage):
        return ptr  # an image's or sampler's value is its handle
    if isinstance(ptr, DescriptorArray | BufferArray):
        raise err("a load of a whole array of descriptors is not supported", ctx.ins)
    if isinstance(ptr, BuiltinPtr):
        intr, bits, comps = BUILTINS.get(ptr.name) or fragment_io.FRAGMENT_BUILTINS[ptr.name]
        if ptr.name == "WorkgroupSize":
            wg = ctx.shader.workgroup_size
            v = ctx.b.const(32, list(wg))
        else:
            v = ctx.b.intr(intr, [], bits, comps)
        if ptr.comp is None:
            return v
        return dyn_extract(ctx, v, ptr.comp)
    raise err("load through something that is not a pointer", ctx.ins)


def store(ctx: TranslationContext, ptr: TV, value: TV) -> None:
    if isinstance(ptr, LocalPtr):
        store_local(ctx, ptr, value)
    elif isinstance(ptr, MemPtr):
        if ptr.space in ("ubo", "push") or ptr.desc is not None and ptr.readonly:
            raise err("store to read-only memory", ctx.ins)
        store_mem(ctx, ptr, value)
    else:
        raise err("store to a built-in input", ctx.ins)


def dyn_extract(ctx: TranslationContext, v: Value, comp: Value | int) -> Value:
    if isinstance(comp, int):
        return ctx.b.channel(v, comp)
    k = fold_value(comp)
    if k is not None:
        return ctx.b.channel(v, k[0] % v.num_components)
    out = ctx.b.channel(v, 0)
    for i in range(1, v.num_components):
        c = ctx.b.alu("ieq", 1, 1, comp, ctx.b.imm(i, comp.bit_size))
        out = ctx.b.alu("bcsel", v.bit_size, 1, c, ctx.b.channel(v, i), out)
    return out


def dyn_insert(ctx: TranslationContext, v: Value, comp: Value | int, x: Value) -> Value:
    if not isinstance(comp, int):
        k = fold_value(comp)
        if k is not None:
            comp = k[0]
    parts = ctx.b.channels(v)
    if isinstance(comp, int):
        parts[comp] = x
    else:
        for i in range(len(parts)):
            c = ctx.b.alu("ieq", 1, 1, comp, ctx.b.imm(i, comp.bit_size))
            parts[i] = ctx.b.alu("bcsel", v.bit_size, 1, c, x, parts[i])
    return ctx.b.vec(parts)


def load_local(ctx: TranslationContext, ptr: LocalPtr) -> TV:
    tid = ptr.tid
    if ptr.comp is not None:
        whole = _load_deref(ctx, ptr.deref)
        return dyn_extract(ctx, whole, ptr.comp)
    if ctx.is_leaf(tid):
        return _load_deref(ctx, ptr.deref)
    t = ctx.ty(tid)
    if isinstance(t, TypePointer) and t.storage_class == "PhysicalStorageBuffer":
        return _global_ptr(ctx, _load_deref(ctx, ptr.deref), t.pointee)
    out = []
    t = ctx.ty(tid)
    for i in range(agg_len(ctx, tid)):
        out.append(load_local(ctx, _sub_local(ctx, ptr, i, t)))
    return out


def known_value(ctx: TranslationContext, var: LocalVar) -> Value | None:
    """`var`'s whole value if translation knows it at the cursor (`KnownValue`)."""
    k = ctx.known.get(var)
    if k is None:
        return None
    lists = ctx.b.lists
    if k.depth < len(lists) and lists[k.depth] is k.cf and \
            (k.loop_depth < 0 or k.loop_depth == ctx.loop_depth):
        return k.value
    return None


def _know(ctx: TranslationContext, var: LocalVar, v: Value, loop_depth: int) -> None:
    lists = ctx.b.lists
    ctx.known[var] = KnownValue(v, lists[-1], len(lists) - 1, loop_depth)


def _load_deref(ctx: TranslationContext, d: Value) -> Value:
    p = d.parent
    assert p is not None
    t = p.attrs["type"]
    assert isinstance(t, ValType), t
    if p.op != "deref_var":
        return ctx.b.intr("load_deref", [d], t.bit_size, t.num_components)
    var = p.attrs["var"]
    v = known_value(ctx, var)
    if v is None:
        v = ctx.b.intr("load_deref", [d], t.bit_size, t.num_components)
        _know(ctx, var, v, ctx.loop_depth)
        ctx.loaded.add(var)
        ctx.lone_stores.pop(var, None)
    return v


def _store_deref(ctx: TranslationContext, d: Value, v: Value) -> None:
    store = ctx.b.emit(Instr("store_deref", None, [d, v]))
    p = d.parent
    assert p is not None
    if p.op == "deref_var":
        var = p.attrs["var"]
        if var in ctx.single_store:
            _know(ctx, var, v, -1)
            if var not in ctx.loaded:
                ctx.lone_stores[var] = store
        else:
            _know(ctx, var, v, ctx.loop_depth)


def _sub_local(ctx: TranslationContext, ptr: LocalPtr, i: int, t: Any) -> LocalPtr:
    et = elem_tid(ctx, ptr.tid, i)
    var = ptr.deref.parent.attrs["var"] if ptr.deref.parent else None
    if isinstance(t, TypeStruct):
        d = ctx.b.intr("deref_struct", [ptr.deref], 32, 1, index=i, type=mtype(ctx, et),
                       var=var)
    else:
        d = ctx.b.intr("deref_array", [ptr.deref, ctx.b.imm(i)], 32, 1,
                       type=mtype(ctx, et), var=var)
    return LocalPtr(d, et)


def store_local(ctx: TranslationContext, ptr: LocalPtr, value: TV) -> None:
    tid = ptr.tid
    if ptr.comp is not None:
        whole = _load_deref(ctx, ptr.deref)
        _store_deref(ctx, ptr.deref, dyn_insert(ctx, whole, ptr.comp, value))
        return
    if ctx.is_leaf(tid):
        assert isinstance(value, Value), value
        _store_deref(ctx, ptr.deref, value)
        return
    t = ctx.ty(tid)
    if isinstance(t, TypePointer) and t.storage_class == "PhysicalStorageBuffer":
        if not isinstance(value, MemPtr) or value.space != "global":
            raise err("storing a pointer that is not a buffer device address", ctx.ins)
        _store_deref(ctx, ptr.deref, global_address(ctx, value))
        return
    assert isinstance(value, list), value
    for i in range(agg_len(ctx, tid)):
        store_local(ctx, _sub_local(ctx, ptr, i, t), value[i])


def mem_offset(ctx: TranslationContext, p: MemPtr) -> Value:
    if p.dyn is None:
        return ctx.b.imm(p.const)
    return ctx.b.iadd_imm(p.dyn, p.const)


def global_address(ctx: TranslationContext, p: MemPtr) -> Value:
    """The 64-bit address a ``global`` (buffer device address) pointer holds: its base
    plus its byte offset, zero-extended (access chains index with unsigned offsets)."""
    assert p.base is not None
    if p.dyn is None and p.const == 0:
        return p.base
    off = mem_offset(ctx, p)
    wide = ctx.b.alu("pack_64_2x32_split", 64, 1, off, ctx.b.imm(0))
    return ctx.b.alu("iadd", 64, 1, p.base, wide)


def _global_ptr(ctx: TranslationContext, addr: Value, tid: int) -> MemPtr:
    """A PhysicalStorageBuffer pointer at the 64-bit address `addr` to type `tid`."""
    return MemPtr("global", None, None, 0, tid, True, base=addr)


def _mem_intr(ctx: TranslationContext, p: MemPtr, store: bool) -> tuple[str, dict[str, Any]]:
    attrs: dict[str, Any] = {}
    if p.space == "global":
        return ("store_global" if store else "load_global"), attrs
    if p.binding is not None:
        attrs["binding"] = p.binding
    if p.space == "ssbo":
        if p.readonly:
            attrs["access"] = "readonly"
        return ("store_ssbo" if store else "load_ssbo"), attrs
    if p.space == "shared":
        return ("store_shared" if store else "load_shared"), attrs
    if p.space == "ubo":
        return "load_ubo", attrs
    return "load_push_constant", attrs


def mem_at(ctx: TranslationContext, p: MemPtr, tid: int, off: int, mstride: int | None = None,
           row_major: bool | None = None, comp_stride: int | None = None) -> MemPtr:
    """p moved by off bytes to a tid; comp_stride kept only when given (or tid is p's)."""
    if comp_stride is None:
        comp_stride = p.comp_stride if tid == p.tid else 0
    return MemPtr(p.space, p.binding, p.dyn, p.const + off, tid, p.explicit,
                  p.matrix_stride if mstride is None else mstride,
                  p.row_major if row_major is None else row_major, p.readonly, comp_stride,
                  p.base, p.desc)


def member_at(ctx: TranslationContext, p: MemPtr, t: TypeStruct, index: int) -> MemPtr:
    """p (to struct `t`) moved to member `index`, with the member's matrix layout (its
    MatrixStride and RowMajor decorations), its member decorations read in one pass."""
    ms: int | None = None
    rm = False
    for d in ctx.m.decorations(p.tid, index):
        if d.name == "MatrixStride" and ms is None:
            ms = int(d.args[0])
        elif d.name == "RowMajor":
            rm = True
    return mem_at(ctx, p, t.members[index], member_offset(ctx, p.tid, index, p.explicit),
                  ms, rm)


def _col_stride(ctx: TranslationContext, p: MemPtr, t: TypeMatrix) -> int:
    if p.explicit:
        if not p.matrix_stride:
            raise err("matrix without MatrixStride", ctx.ins)
        return p.matrix_stride
    return natural_layout(ctx, p.tid)[0] // t.columns


def _load_raw(ctx: TranslationContext, p: MemPtr, off: int, bits: int, n: int) -> Value:
    """n contiguous components of `bits` at p's address + off."""
    name, attrs = _mem_intr(ctx, p, False)
    q = mem_at(ctx, p, p.tid, off)
    if p.space == "global":  # one access per component (docs/mir.md "Memory")
        step = bits // 8
        parts = [ctx.b.intr(name, [global_address(ctx, mem_at(ctx, q, q.tid, i * step))],
                            bits, 1, align=step) for i in range(n)]
        return parts[0] if n == 1 else ctx.b.vec(parts)
    return ctx.b.intr(name, [mem_offset(ctx, q)], bits, n, align=bits // 8, **attrs)


def _store_raw(ctx: TranslationContext, p: MemPtr, off: int, value: Value) -> None:
    name, attrs = _mem_intr(ctx, p, True)
    attrs.pop("access", None)
    q = mem_at(ctx, p, p.tid, off)
    if p.space == "global":
        step = value.bit_size // 8
        for i, x in enumerate(ctx.b.channels(value)):
            ctx.b.intrinsic(name, [x, global_address(ctx, mem_at(ctx, q, q.tid, i * step))],
                            align=step)
        return
    ctx.b.intrinsic(name, [value, mem_offset(ctx, q)], align=value.bit_size // 8, **attrs)


def _row_stride(ctx: TranslationContext, p: MemPtr) -> int:
    """The distance between the rows of the row-major matrix p points at."""
    if not p.matrix_stride:
        raise err("row-major matrix without MatrixStride", ctx.ins)
    return p.matrix_stride


def load_mem(ctx: TranslationContext, p: MemPtr) -> TV:
    tid = p.tid
    t = ctx.ty(tid)
    if isinstance(t, TypePointer) and t.storage_class == "PhysicalStorageBuffer":
        return _global_ptr(ctx, _load_raw(ctx, p, 0, 64, 1), t.pointee)
    if ctx.is_leaf(tid):
        base, bits = ctx.scalar(tid)
        n = ctx.comps(tid)
        mb = 32 if base == "bool" else bits
        if p.comp_stride and n > 1:  # a column of a row-major matrix: strided components
            v = ctx.b.vec([_load_raw(ctx, p, i * p.comp_stride, mb, 1) for i in range(n)])
        else:
            v = _load_raw(ctx, p, 0, mb, n)
        if base == "bool":
            v = ctx.b.alu("ine", 1, n, v, ctx.b.const(32, [0] * n))
        return v
    if isinstance(t, TypeMatrix):
        if p.row_major:  # load the rows (contiguous), then transpose into columns
            rs, bits = _row_stride(ctx, p), ctx.bits(t.column)
            rows = [_load_raw(ctx, p, r * rs, bits, t.columns)
                    for r in range(ctx.comps(t.column))]
            return [ctx.b.vec([ctx.b.channel(row, c) for row in rows])
                    for c in range(t.columns)]
        cs = _col_stride(ctx, p, t)
        return [load_mem(ctx, mem_at(ctx, p, t.column, i * cs)) for i in range(t.columns)]
    if isinstance(t, TypeArray):
        s = array_stride(ctx, tid, p.explicit)
        return [load_mem(ctx, mem_at(ctx, p, t.element, i * s))
                for i in range(array_length(ctx, t))]
    if isinstance(t, TypeStruct):
        return [load_mem(ctx, member_at(ctx, p, t, i)) for i in range(len(t.members))]
    raise err(f"cannot load type %{tid} from memory", ctx.ins)


def store_mem(ctx: TranslationContext, p: MemPtr, value: TV) -> None:
    tid = p.tid
    t = ctx.ty(tid)
    if isinstance(t, TypePointer) and t.storage_class == "PhysicalStorageBuffer":
        if not isinstance(value, MemPtr) or value.space != "global":
            raise err("storing a pointer that is not a buffer device address", ctx.ins)
        _store_raw(ctx, p, 0, global_address(ctx, value))
        return
    if ctx.is_leaf(tid):
        base, bits = ctx.scalar(tid)
        assert isinstance(value, Value)
        if base == "bool":
            value = ctx.b.alu("b2i32", 32, value.num_components, value)
        if p.comp_stride and value.num_components > 1:
            for i, x in enumerate(ctx.b.channels(value)):
                _store_raw(ctx, p, i * p.comp_stride, x)
        else:
            _store_raw(ctx, p, 0, value)
        return
    assert isinstance(value, list)
    if isinstance(t, TypeMatrix):
        if p.row_major:  # transpose the columns into rows, store each row contiguously
            rs = _row_stride(ctx, p)
            for r in range(ctx.comps(t.column)):
                row = ctx.b.vec([ctx.b.channel(col, r) for col in value])
                _store_raw(ctx, p, r * rs, row)
            return
        cs = _col_stride(ctx, p, t)
        for i in range(t.columns):
            store_mem(ctx, mem_at(ctx, p, t.column, i * cs), value[i])
    elif isinstance(t, TypeArray):
        s = array_stride(ctx, tid, p.explicit)
        for i in range(array_length(ctx, t)):
            store_mem(ctx, mem_at(ctx, p, t.element, i * s), value[i])
    elif isinstance(t, TypeStruct):
        for i in range(len(t.members)):
            store_mem(ctx, member_at(ctx, p, t, i), value[i])
    else:
        raise err(f"cannot store type %{tid} to memory", ctx.ins)


def _index32(ctx: TranslationContext, vid: int) -> Value | int:
    v = get_value(ctx, vid)
    k = fold_value(v)
    if k is not None:
        raw = k[0]
        if v.bit_size < 64 and ctx.scalar(ctx.m.type_id_of(vid))[0] == "int" and \
                raw >> (v.bit_size - 1):
            raw -= 1 << v.bit_size
        return raw
    if v.bit_size != 32:
        signed = ctx.scalar(ctx.m.type_id_of(vid))[0] == "int"
        v = ctx.b.alu(("i2i32" if signed else "u2u32"), 32, 1, v)
    return v


def _check_index(ctx: TranslationContext, p: TV, idx: Any) -> None:
    """Refuse a constant index outside the vector/struct it selects from (undefined
    behaviour in SPIR-V; spirv-val rejects the struct case) and a struct index that is
    not a constant."""
    if isinstance(p, BuiltinPtr):
        n, what = (BUILTINS.get(p.name) or fragment_io.FRAGMENT_BUILTINS[p.name])[2], "component"
    elif isinstance(p, LocalPtr | MemPtr):
        t = ctx.ty(p.tid)
        if isinstance(t, TypeStruct):
            if not isinstance(idx, int):
                raise err("a struct index must be a constant", ctx.ins)
            n, what = len(t.members), "member"
        elif isinstance(t, TypeVector):
            n, what = t.count, "component"
        else:
            return
    else:
        return
    if isinstance(idx, int) and not 0 <= idx < n:
        raise err(f"constant index {idx} is out of range ({n} {what}s)", ctx.ins)


def access_chain(ctx: TranslationContext, base: TV, idx_ids: Sequence[int]) -> TV:
    p = base
    for vid in idx_ids:
        idx = _index32(ctx, vid)
        if isinstance(p, DescriptorArray):
            assert ctx.ins is not None
            p = descriptor_element(ctx, ctx.ins, p, idx, vid)
            continue
        if isinstance(p, BufferArray):
            p = p.at(ctx, idx)
            continue
        _check_index(ctx, p, idx)
        if isinstance(p, BuiltinPtr):
            p = BuiltinPtr(p.name, idx)
        elif isinstance(p, LocalPtr):
            t = ctx.ty(p.tid)
            et = elem_tid(ctx, p.tid, idx if isinstance(idx, int) else 0)
            var = p.deref.parent.attrs["var"] if p.deref.parent else None
            if isinstance(t, TypeVector):
                p = LocalPtr(p.deref, et, idx)
            elif isinstance(t, TypeStruct):
                assert isinstance(idx, int)
                d = ctx.b.intr("deref_struct", [p.deref], 32, 1, index=idx,
                               type=mtype(ctx, et), var=var)
                p = LocalPtr(d, et)
            else:
                iv = ctx.b.imm(idx) if isinstance(idx, int) else idx
                d = ctx.b.intr("deref_array", [p.deref, iv], 32, 1, type=mtype(ctx, et),
                               var=var)
                p = LocalPtr(d, et)
        elif isinstance(p, MemPtr):
            t = ctx.ty(p.tid)
            if isinstance(t, TypeStruct):
                assert isinstance(idx, int)
                p = member_at(ctx, p, t, idx)
                continue
            cstride = 0  # component stride of the element (a row-major column)
            if isinstance(t, TypeArray | TypeRuntimeArray):
                stride, et = array_stride(ctx, p.tid, p.explicit), t.element
            elif isinstance(t, TypeMatrix):
                et = t.column
                if p.row_major:  # column c starts c components in; its rows are strided
                    stride = explicit_size(ctx, ctx.ty(et).component)
                    cstride = _row_stride(ctx, p)
                else:
                    stride = _col_stride(ctx, p, t)
            elif isinstance(t, TypeVector):
                stride = p.comp_stride or explicit_size(ctx, t.component)
                et = t.component
            else:
                raise err(f"cannot index type %{p.tid}", ctx.ins)
            if isinstance(idx, int):
                p = mem_at(ctx, p, et, idx * stride, comp_stride=cstride)
            else:
                scaled = ctx.b.imul_imm(idx, stride)
                dyn = scaled if p.dyn is None else ctx.b.alu("iadd", 32, 1, p.dyn, scaled)
                p = MemPtr(p.space, p.binding, dyn, p.const, et, p.explicit,
                           p.matrix_stride, p.row_major, p.readonly, cstride, p.base, p.desc)
        else:
            raise err("access chain on something that is not a pointer", ctx.ins)
    return p


def op_variable(ctx: TranslationContext, ins: Instruction) -> None:
    assert ins.result_type is not None
    ptr = ctx.ty(ins.result_type)
    assert isinstance(ptr, TypePointer)
    if ptr.storage_class != "Function":
        raise err("only Function variables inside functions", ins)
    name = ctx.m.name(ins.result_id or 0) or f"v{ins.result_id}"
    var = ctx.shader.new_local(name, mtype(ctx, ptr.pointee))
    assert ctx.fctx is not None
    if ins.result_id in ctx.fctx.single_store:
        ctx.single_store.add(var)
    p = var_ptr(ctx, var, ptr.pointee)
    if len(ins.operands) > 1:
        store_local(ctx, p, get_tv(ctx, ins.id(1)))
    ctx.set(ins, p)


def op_load(ctx: TranslationContext, ins: Instruction) -> None:
    assert ins.result_type is not None
    ctx.set(ins, load(ctx, get_tv(ctx, ins.id(0)), ins.result_type))


def op_store(ctx: TranslationContext, ins: Instruction) -> None:
    store(ctx, get_tv(ctx, ins.id(0)), get_tv(ctx, ins.id(1)))


def op_copy_memory(ctx: TranslationContext, ins: Instruction) -> None:
    src = get_tv(ctx, ins.id(1))
    tid = src.tid if isinstance(src, LocalPtr | MemPtr) else 0
    store(ctx, get_tv(ctx, ins.id(0)), load(ctx, src, tid))


def op_access_chain(ctx: TranslationContext, ins: Instruction) -> None:
    ids = ins.id_tuple()  # (the base and the indexes: every operand is an id)
    ctx.set(ins, access_chain(ctx, get_tv(ctx, ids[0]), ids[1:]))


def op_ptr_access_chain(ctx: TranslationContext, ins: Instruction) -> None:
    """OpPtrAccessChain / OpInBoundsPtrAccessChain (buffer device addresses, variable
    pointers into storage buffers and shared memory): the base pointer moved by Element
    (a signed integer) times the ArrayStride of the base's pointer type (its pointee's
    size without one), then an access chain of the remaining indexes."""
    ids = [int(o.value) for o in ins.operands]
    p = get_tv(ctx, ids[0])
    if not isinstance(p, MemPtr):
        raise err(f"{ins.opname} on a pointer that is not to buffer or workgroup memory",
                  ins)
    d = ctx.m.decoration(ctx.m.type_id_of(ids[0]), "ArrayStride")
    stride = int(d[0]) if d else explicit_size(ctx, p.tid) if p.explicit else \
        natural_layout(ctx, p.tid)[0]
    if p.space == "global":  # 64-bit address arithmetic: Element may be negative
        e = get_value(ctx, ids[1])
        if e.bit_size != 64:
            e = ctx.b.alu("i2i64", 64, 1, e)
        off = ctx.b.imul_imm(e, stride)
        p = dataclasses.replace(p, dyn=None, const=0,
                                base=ctx.b.alu("iadd", 64, 1, global_address(ctx, p), off))
    else:
        idx = _index32(ctx, ids[1])
        if isinstance(idx, int):
            p = dataclasses.replace(p, const=p.const + idx * stride)
        else:
            scaled = ctx.b.imul_imm(idx, stride)
            p = dataclasses.replace(p, dyn=scaled if p.dyn is None else
                                    ctx.b.alu("iadd", 32, 1, p.dyn, scaled))
    ctx.set(ins, access_chain(ctx, p, ids[2:]))


def op_convert_u_to_ptr(ctx: TranslationContext, ins: Instruction) -> None:
    """OpConvertUToPtr (and OpBitcast of a 64-bit integer or a uvec2) to a
    PhysicalStorageBuffer pointer: a ``global`` pointer at that address."""
    assert ins.result_type is not None
    t = ctx.ty(ins.result_type)
    if not isinstance(t, TypePointer) or t.storage_class != "PhysicalStorageBuffer":
        raise err("only PhysicalStorageBuffer pointers come from integers", ins)
    v = get_value(ctx, ins.id(0))
    if v.num_components == 2 and v.bit_size == 32:
        v = ctx.b.alu("pack_64_2x32_split", 64, 1, ctx.b.channel(v, 0), ctx.b.channel(v, 1))
    elif v.bit_size < 64:
        v = ctx.b.alu("pack_64_2x32_split", 64, 1, ctx.b.alu("u2u32", 32, 1, v)
                      if v.bit_size != 32 else v, ctx.b.imm(0))
    ctx.set(ins, _global_ptr(ctx, v, t.pointee))


def op_convert_ptr_to_u(ctx: TranslationContext, ins: Instruction) -> None:
    """OpConvertPtrToU (and OpBitcast of a pointer): the address as an integer."""
    assert ins.result_type is not None
    p = get_tv(ctx, ins.id(0))
    if not isinstance(p, MemPtr) or p.space != "global":
        raise err("only buffer device addresses convert to integers", ins)
    a = global_address(ctx, p)
    bits, n = ctx.bits(ins.result_type), ctx.comps(ins.result_type)
    if n == 2:
        a = ctx.b.vec([ctx.b.alu("unpack_64_2x32_split_x", 32, 1, a),
                       ctx.b.alu("unpack_64_2x32_split_y", 32, 1, a)])
    elif bits != 64:
        a = ctx.b.alu(f"u2u{bits}", bits, 1, a)
    ctx.set(ins, a)


def op_array_length(ctx: TranslationContext, ins: Instruction) -> None:
    p = get_tv(ctx, ins.id(0))
    member = int(ins.literal(1))
    if not isinstance(p, MemPtr) or p.space != "ssbo" and p.desc is None:
        raise err("OpArrayLength of something that is not a storage buffer", ins)
    off = p.const + member_offset(ctx, p.tid, member, True)
    arr = ctx.ty(p.tid).members[member]
    stride = array_stride(ctx, arr, True)
    if p.desc is not None:  # an element of an array of descriptors: its V#'s size
        vsharp = ctx.b.intr("load_buffer_descriptor", [p.desc[1]], 32, 4, binding=p.desc[0])
        size = ctx.b.channel(vsharp, 2)
    else:
        size = ctx.b.intr("get_ssbo_size", [], 32, 1, binding=p.binding)
    rem = ctx.b.alu("isub", 32, 1, size, ctx.b.imm(off))
    ctx.set(ins, ctx.b.alu("udiv", 32, 1, rem, ctx.b.imm(stride)))


def op_control_barrier(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.b.intrinsic("barrier", [], execution_scope=SCOPES.get(host_int(ctx, ins.id(0))),
                    memory_scope=SCOPES.get(host_int(ctx, ins.id(1))),
                    semantics=host_int(ctx, ins.id(2)))


def op_memory_barrier(ctx: TranslationContext, ins: Instruction) -> None:
    ctx.b.intrinsic("barrier", [], execution_scope="None",
                    memory_scope=SCOPES.get(host_int(ctx, ins.id(0))),
                    semantics=host_int(ctx, ins.id(1)))
