"""8/16-bit loads and stores (docs/isel.md "8/16-bit values").

A sub-dword component is one access: ``global_load_u8/i8/u16/i16`` (the value
zero- or sign-extended into a full VGPR, so a loaded value's high bits happen
to be clean; nothing relies on it), ``ds_load_u8/u16``, ``scratch_load_u8/u16``;
stores ``global_store_b8/b16``, ``ds_store_b8/b16``, ``scratch_store_b8/b16``
write the low bits of a VGPR. SMEM has no sub-dword loads: a uniform 8/16-bit
push constant at a constant offset is the ``s_load_b32`` of its dword shifted down
(``s_lshr_b32``; the push-constant block is padded to whole dwords); any other
uniform 8/16-bit load from a buffer or the push constants is a VMEM load (its
address is in SGPRs, the saddr form with a constant/uniform VGPR offset), read back
with ``p_as_uniform`` (a buffer's size need not be a multiple of 4). A vector of n 8/16-bit components is n accesses,
except a dword-aligned global load of 32..128 bits (``lower_vectors.sub_dword_vector_load``):
one dword load, the components shifted out of its dwords; and a dword-aligned SSBO
store of 16-bit components, 32..128 bits (``lower_vectors.sub_dword_vector_store``):
the components packed two per dword (``pack16.dword_of_pair``: a dword that
already holds both halves, e.g. a packed operation's result, is stored as it is), one
dword store.

8/16-bit atomics do not exist on GFX11 and are reported unsupported.
"""

from __future__ import annotations

from radcc.frontend.mir import Instr, Value
from radcc.ir.program import Operand
from radcc.ir.regclass import Temp, s1, v1

from . import memory
from .context import Comp, Const, IselContext, unsupported
from .memory import binding_base, global_offsets, load_base, no_saddr, offset_parts
from .pack16 import dword_of_pair, pack_halves


def select_load(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    if d.bit_size not in (8, 16):
        memory.select_load(ctx, ins)
        return
    bits = d.bit_size
    nb = bits // 8
    if d.num_components > 1:  # a dword-aligned global vector load (lower_vectors)
        _select_dword_load(ctx, ins, d)
        return
    off, k0 = _address(ins)
    if ins.op == "load_push_constant" and not d.divergent and not off.divergent:
        dyn, k = offset_parts(ctx, off, k0)
        if dyn is None:
            ctx.set(d, [_push_smem(ctx, k + c * nb) for c in range(d.num_components)])
            return
    out: list[Comp] = []
    for c in range(d.num_components):
        k = k0 + c * nb
        if ins.op == "load_shared":
            addr, imm = _sub_ds_addr(ctx, off, k)
            t = ctx.b.inst(f"ds_load_u{bits}", [v1], [addr], offset=imm).temp
        elif ins.op == "load_scratch":
            voff, imm = _sub_voffset(ctx, off, k)
            t = ctx.b.inst(f"scratch_load_u{bits}", [v1], [voff, no_saddr()],
                           offset=imm).temp
        elif ins.op in ("load_ssbo", "load_ubo", "load_push_constant", "load_constant"):
            push = ins.op == "load_push_constant"
            base = ctx.kernarg if push else load_base(ctx, ins)
            voff, imm = _sub_voffset(ctx, off, k)
            if push:
                imm += ctx.push_offset()
            if imm not in global_offsets(ctx):
                voff = ctx.valu("v_add_nc_u32", v1, Const(32, imm), voff)
                imm = 0
            t = ctx.b.inst(f"global_load_u{bits}", [v1], [voff, base], offset=imm).temp
        else:
            raise unsupported(ins)
        out.append(t if d.divergent else
                   ctx.b.pseudo("p_as_uniform", [s1], [t]).temp)
    ctx.set(d, out)


def _select_dword_load(ctx: IselContext, ins: Instr, d: Value) -> None:
    """A vector of 8/16-bit components in whole dwords (``lower_vectors``'s
    ``sub_dword_vector_load``: global memory, dword-aligned, 32..128 bits) is the 32-bit
    vector load of its dwords; component k is its dword shifted down by its byte
    position (the bits above its size are undefined, docs/isel.md)."""
    nb = d.bit_size // 8
    words = Value(-1, 32, d.num_components * nb // 4)
    words.divergent = d.divergent
    memory.select_load(ctx, Instr(ins.op, words, list(ins.srcs), dict(ins.attrs)))
    got = ctx.get(words)
    out: list[Comp] = []
    for c in range(d.num_components):
        w = got[c * nb // 4] if len(got) > 1 else got[0]
        sh = 8 * (c * nb % 4)
        if not sh:
            out.append(w)
        elif d.divergent:
            out.append(ctx.valu("v_lshrrev_b32", v1, Const(32, sh), w))
        else:
            out.append(ctx.salu("s_lshr_b32", s1, w, Const(32, sh)))
    ctx.set(d, out)


def _push_smem(ctx: IselContext, k: int) -> Temp:
    """A uniform 8/16-bit push constant at constant byte offset `k` of the block: the
    dword holding it (``s_load_b32``; the block is padded to whole dwords, so the read
    stays inside the kernarg segment) shifted down by its byte position (the bits
    above its size are undefined, docs/isel.md)."""
    kk = k + ctx.push_offset()
    t = ctx.b.inst("s_load_b32", [s1], [ctx.kernarg, Operand.c32(kk & ~3)]).temp
    if kk & 3:
        t = ctx.salu("s_lshr_b32", s1, t, Const(32, 8 * (kk & 3)))
    return t


def select_store(ctx: IselContext, ins: Instr) -> None:
    val = ins.srcs[0]
    if val.bit_size not in (8, 16):
        memory.select_store(ctx, ins)
        return
    bits = val.bit_size
    if val.num_components > 1:  # a dword-aligned SSBO store of 16-bit components
        _select_dword_store(ctx, ins, val)
        return
    nb = bits // 8
    off, k0 = _address(ins)
    for c in range(val.num_components):
        data = ctx.vgpr(_store_comp(ctx.comp(val, c), bits))
        k = k0 + c * nb
        if ins.op == "store_shared":
            addr, imm = _sub_ds_addr(ctx, off, k)
            ctx.b.inst(f"ds_store_b{bits}", [], [addr, data], offset=imm)
        elif ins.op == "store_scratch":
            voff, imm = _sub_voffset(ctx, off, k)
            ctx.b.inst(f"scratch_store_b{bits}", [], [voff, data, no_saddr()],
                       offset=imm)
        elif ins.op == "store_ssbo":
            voff, imm = _sub_voffset(ctx, off, k)
            ctx.b.inst(f"global_store_b{bits}", [], [voff, data, binding_base(ctx, ins)],
                       offset=imm)
        else:
            raise unsupported(ins)


def _select_dword_store(ctx: IselContext, ins: Instr, val: Value) -> None:
    """A vector of 16-bit components stored as whole dwords (``lower_vectors``'s
    ``sub_dword_vector_store``): the components packed two per dword, then the 32-bit
    vector store of the dwords."""
    n = val.num_components // 2
    words = Value(-1, 32, n)
    words.divergent = val.divergent
    p = val.parent
    if p is not None and p.op.startswith("vec"):
        dwords = [dword_of_pair(ctx, p.srcs[2 * k], p.srcs[2 * k + 1]) for k in range(n)]
    else:
        dwords = [pack_halves(ctx, ctx.comp(val, 2 * k), ctx.comp(val, 2 * k + 1))
                  for k in range(n)]
    ctx.set(words, dwords)
    memory.select_store(ctx, Instr(ins.op, None, [words, *ins.srcs[1:]], dict(ins.attrs)))


def _sub_voffset(ctx: IselContext, off: Value, extra: int) -> tuple[Temp, int]:
    """A VGPR byte offset and an immediate in the FLAT range for `off` + `extra`."""
    dyn, k = offset_parts(ctx, off)
    k += extra
    if dyn is None:
        return ctx.vgpr(Const(32, k)), 0
    if k not in global_offsets(ctx):
        return ctx.valu("v_add_nc_u32", v1, dyn, Const(32, k), commutative=True), 0
    return ctx.vgpr(dyn), k


def _sub_ds_addr(ctx: IselContext, off: Value, extra: int) -> tuple[Temp, int]:
    """A VGPR LDS address and a 16-bit offset for `off` + `extra`."""
    dyn, k = offset_parts(ctx, off)
    k += extra
    if dyn is None:
        return ctx.vgpr(Const(32, k)), 0
    if not 0 <= k < 65536:
        return ctx.valu("v_add_nc_u32", v1, dyn, Const(32, k), commutative=True), 0
    return ctx.vgpr(dyn), k


def _store_comp(x: Comp, bits: int) -> Comp:
    return Const(32, x.value & ((1 << bits) - 1)) if isinstance(x, Const) else x


def select_atomic(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    if d is not None and d.bit_size in (8, 16):
        raise unsupported(ins, f"{d.bit_size}-bit atomics (GFX11 has none; not lowered "
                               "to 32-bit compare-and-swap loops yet)")
    memory.select_atomic(ctx, ins)


def _address(ins: Instr) -> tuple[Value, int]:
    """(the address source, the constant ``attrs["offset"]``) of a memory intrinsic."""
    k = 1 if ins.op.startswith("store_") else 0
    return ins.srcs[k], int(ins.attrs.get("offset", 0))
