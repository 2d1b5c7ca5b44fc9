"""lower_atomics: buffer atomics the target has no instruction for become compare-and-swap
loops (LLVM's AtomicExpand: ``expandAtomicRMWToCmpXchg``; the target lists them in
``MirOptions.cas_atomics``, e.g. the float add GFX10/GFX10.3 lack).

Guarantee: no ``ssbo_atomic``/``global_atomic``/``shared_atomic`` whose (memory space,
``atomic_op``, bit size) is in the target's ``cas_atomics`` remains. Each one is replaced, in place in its control-flow
list, by::

    (the block up to the atomic)  init = load(address)
    loop {
        old = phi(init, res)
        new = op(old, data)
        res = *_atomic_swap(address, old, new)   (cmpxchg: the value memory held)
        if (res == old) break;                   (integer compare of the bits: NaN-safe)
    }
    out = phi(res)                               (the atomic's result)
    (the rest of the block)

so each invocation applies its operation exactly once, to the value memory held when its
swap succeeded: the atomic's result is that old value, as the instruction's would be. The
loop's exit is divergent (NIR's shape of a waterfall): isel's divergent-loop handling keeps
lanes that succeeded out of later iterations. Phis that named the split block as a
predecessor name its second half.
"""

from __future__ import annotations

from ..mir import Block, If, Instr, Loop, MirShader
from .lower_util import replace_by_loops

_ATOMICS = {"ssbo_atomic": ("ssbo", "load_ssbo", "ssbo_atomic_swap"),
            "global_atomic": ("global", "load_global", "global_atomic_swap"),
            "shared_atomic": ("shared", "load_shared", "shared_atomic_swap")}
_OPS = frozenset(_ATOMICS)  # (what `_wanted` may pick)
# the operation each lowered atomic applies (MIR ALU ops)
_ALU = {"fadd": "fadd"}


def _wanted(shader: MirShader, ins: Instr) -> bool:
    opts = shader.options
    if opts is None or ins.op not in _ATOMICS or ins.dest is None:
        return False
    space = _ATOMICS[ins.op][0]
    return (space, ins.attrs.get("atomic_op"), ins.dest.bit_size) in opts.cas_atomics


def _expand(shader: MirShader, pre: Block, ins: Instr, post: Block) -> Loop:
    """The compare-and-swap loop of ``ins`` (an atomic to lower) between ``pre`` and
    ``post``."""
    d = ins.dest
    assert d is not None
    space, load_op, swap_op = _ATOMICS[ins.op]
    addr, data = ins.srcs
    attrs = {key: v for key, v in ins.attrs.items() if key != "atomic_op"}
    bits = d.bit_size
    init = shader.new_value(bits)
    load_attrs = dict(attrs)
    if space != "global":
        load_attrs["align"] = bits // 8
    pre.append(Instr(load_op, init, [addr], load_attrs))
    header, then_b, else_b, latch = (shader.new_block() for _ in range(4))
    old, new, res, eq = (shader.new_value(bits), shader.new_value(bits),
                         shader.new_value(bits), shader.new_value(1))
    phi = header.append(Instr("phi", old, [init, res]))
    phi.preds = [pre, latch]
    header.append(Instr(_ALU[ins.attrs["atomic_op"]], new, [old, data]))
    header.append(Instr(swap_op, res, [addr, old, new], {**attrs, "atomic_op": "cmpxchg"}))
    header.append(Instr("ieq", eq, [res, old]))
    then_b.append(Instr("break", None))
    out = Instr("phi", d, [res])
    out.preds = [then_b]
    post.insert(0, out)
    return Loop([header, If(eq, [then_b], [else_b]), latch])


def lower_atomics(shader: MirShader) -> bool:
    return replace_by_loops(shader, lambda ins: _wanted(shader, ins),
                            lambda pre, ins, post: _expand(shader, pre, ins, post),
                            ops=_OPS)


__all__ = ["lower_atomics"]
