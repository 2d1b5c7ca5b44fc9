"""Buffer device address: ``load_global``, ``store_global``, ``global_atomic`` and
``global_atomic_swap`` (docs/mir.md "Memory") at a 64-bit address, as ACO selects
``nir_intrinsic_load_global``/``store_global``/``global_atomic*`` on GFX11.

- An address in SGPRs (uniform) is the ``saddr`` of the GLOBAL instruction with a zero
  VGPR offset; a uniform base plus a zero-extended 32-bit offset (what an access chain
  on a buffer device address gives, `spirv_to_mir.variables.global_address`) is the
  ``saddr`` with the offset as the 32-bit VGPR offset; any other address is a 64-bit
  VGPR ``vaddr`` with ``saddr`` ``off``.
- One component per access: ``global_load_b32/b64``, ``global_load_u8/u16`` (the
  sub-dword value zero-extended into its VGPR), ``global_store_b8/b16/b32/b64``.
- Atomics ``global_atomic_*`` with ``glc`` (they return the old value), the same
  operations as on storage buffers (`radcc.isel.memory`).
"""

from __future__ import annotations

from radcc.frontend.mir import Instr
from radcc.ir.program import Operand
from radcc.ir.regclass import Temp, s1, s2, v1, v2

from .context import Const, IselContext, unsupported
from .memory import atomic_opcode, no_saddr


def _address(ctx: IselContext, ins: Instr, k: int) -> tuple[Temp, Operand | Temp]:
    """(vaddr, saddr) for the 64-bit address ``ins.srcs[k]``."""
    addr = ins.srcs[k]
    p = addr.parent
    if p is not None and p.op == "iadd":
        for i in (0, 1):
            base, wide = p.srcs[i], p.srcs[1 - i]
            w = wide.parent
            if not base.divergent and w is not None and w.op == "pack_64_2x32_split" \
                    and ctx.comp(w.srcs[1], 0) == Const(32, 0):
                b = ctx.comp(base, 0)
                if not isinstance(b, Const):
                    # a uniform base plus a zero-extended 32-bit offset: the saddr form
                    return ctx.vgpr(ctx.comp(w.srcs[0], 0)), ctx.sgpr(b, 64)
    a = ctx.comp(addr, 0)
    if isinstance(a, Const):
        return ctx.vgpr(Const(64, a.value), 64), no_saddr()
    if a.rc.is_vgpr:
        return a, no_saddr()
    saddr = a if a.rc == s2 else ctx.b.copy(s2, a).temp
    return ctx.vgpr(Const(32, 0)), saddr


def select_load_global(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    if d.num_components != 1 or d.bit_size not in (8, 16, 32, 64):
        raise unsupported(ins, f"a {d.num_components}x{d.bit_size}-bit global load")
    vaddr, saddr = _address(ctx, ins, 0)
    bits = d.bit_size
    opc = {8: "global_load_u8", 16: "global_load_u16", 32: "global_load_b32",
           64: "global_load_b64"}[bits]
    t = ctx.b.inst(opc, [v2 if bits == 64 else v1], [vaddr, saddr], offset=0).temp
    if not d.divergent:
        t = ctx.b.pseudo("p_as_uniform", [s2 if bits == 64 else s1], [t]).temp
    ctx.set(d, [t])


def select_store_global(ctx: IselContext, ins: Instr) -> None:
    val = ins.srcs[0]
    if val.num_components != 1 or val.bit_size not in (8, 16, 32, 64):
        raise unsupported(ins, f"a {val.num_components}x{val.bit_size}-bit global store")
    bits = val.bit_size
    x = ctx.comp(val, 0)
    if isinstance(x, Const) and bits < 32:
        x = Const(32, x.value & ((1 << bits) - 1))
    data = ctx.vgpr(x, 64 if bits == 64 else 32)
    vaddr, saddr = _address(ctx, ins, 1)
    ctx.b.inst(f"global_store_b{bits}", [], [vaddr, data, saddr], offset=0)


def select_global_atomic(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    bits = d.bit_size
    if bits not in (32, 64):
        raise unsupported(ins, f"{bits}-bit atomics")
    opc, data = atomic_opcode(ctx, ins, bits)
    vaddr, saddr = _address(ctx, ins, 0)
    t = ctx.b.inst(opc, [v2 if bits == 64 else v1], [vaddr, data, saddr], offset=0,
                   glc=True).temp
    ctx.set(d, [ctx.uniform_result(t, not d.divergent)])
