"""fold_offsets: constant address terms become a memory access's immediate offset.

A memory intrinsic addresses ``address + attrs["offset"]`` bytes. When the
address is ``iadd(x, C)``, ``(x + C) << s``, ``(x + C) * K`` (distributed, as NIR's
algebraic rules do before ACO folds offsets; nested) or a constant, the constant
part moves into the offset attribute, as long as the total stays within the space's range in
the shader's isel options (`radcc.target.MirOptions.offset_range`: the non-negative part
every candidate instruction's immediate field accepts on the target's generation).
An offset already outside its range (a split vector access near the limit) is
moved back into the address. The ``iadd`` left without users is removed by DCE.
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value
from .isel_form import MEMORY, options_of
from .lower_util import Emit, const_int, rewrite_instrs, signed


def address_index(op: str) -> int:
    return 1 if op.startswith("store_") else 0


def _split(v: Value, e: Emit, depth: int = 0) -> tuple[Value | None, int]:
    """(variable part or None, constant part) of an address, distributing the
    constant through ``iadd``, ``ishl`` and ``imul`` by constants (exact modulo
    2^32; new instructions go to ``e``)."""
    bits = v.bit_size
    c = const_int(v)
    if c is not None:
        return None, signed(c, bits)
    p = v.parent
    if p is None or depth > 8 or bits != 32:
        return v, 0
    if p.op == "iadd":
        ra, ca = _split(p.srcs[0], e, depth + 1)
        rb, cb = _split(p.srcs[1], e, depth + 1)
        if ca == 0 and cb == 0:
            return v, 0
        if ra is None or rb is None:
            return (ra if rb is None else rb), ca + cb
        return e.alu("iadd", 32, ra, rb), ca + cb
    k = const_int(p.srcs[1]) if p.op in ("ishl", "imul") and len(p.srcs) == 2 else None
    if k is not None:
        ra, ca = _split(p.srcs[0], e, depth + 1)
        if ca == 0:
            return v, 0
        if p.op == "ishl":
            k &= 31
            c2 = signed(ca << k, 32)
        else:
            c2 = signed(ca * k, 32)
        if ra is None:
            return None, c2
        return e.alu(p.op, 32, ra, p.srcs[1]), c2
    return v, 0


def _rule(ins: Instr, e: Emit, ranges: dict[str, tuple[int, int]]) -> Value | list[Value] | None:
    space = MEMORY.get(ins.op)
    if space is None:
        return None
    lo, hi = ranges[space]
    k = address_index(ins.op)
    addr = ins.srcs[k]
    off = int(ins.attrs.get("offset", 0))
    rest, c = _split(addr, e)
    new_addr, new_off = addr, off
    if lo <= off + c <= hi and c != 0:
        new_addr = rest if rest is not None else e.const(addr.bit_size, 0)
        new_off = off + c
    elif not lo <= off <= hi:
        e.out.clear()
        new_addr = e.alu("iadd", addr.bit_size, addr, e.const(addr.bit_size, off))
        new_off = 0
    if new_addr is addr and new_off == off:
        e.out.clear()
        return None
    srcs = list(ins.srcs)
    srcs[k] = new_addr
    attrs = dict(ins.attrs)
    attrs["offset"] = new_off
    d = ins.dest
    r = e.instr(ins.op, d.bit_size if d else None, d.num_components if d else 1, srcs, **attrs)
    return r if r is not None else []


_MEMORY_OPS = frozenset(MEMORY)  # the opcodes `_rule` may replace


def fold_offsets(shader: MirShader) -> bool:
    ranges = options_of(shader).offset_range
    return rewrite_instrs(shader, lambda ins, e: _rule(ins, e, ranges), ops=_MEMORY_OPS)
