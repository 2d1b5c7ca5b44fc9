"""lower_non_uniform: image intrinsics on an element of an array of descriptors whose
index is ``NonUniform`` (GLSL's ``nonuniformEXT``; ``attrs["nonuniform"]``) run in a
waterfall loop, Mesa's ``nir_lower_non_uniform_access`` (which RADV runs before ACO):
each iteration takes the index of the first active invocation, the invocations whose
index equals it do the access with that (uniform) index and leave the loop.

Guarantee: no image intrinsic with ``attrs["nonuniform"]`` remains. Each one is replaced,
in place in its control-flow list, by::

    (the block up to the access)
    loop {
        f_k = read_first_invocation(index_k)       (each descriptor index: image, sampler)
        eq = ieq(index_0, f_0) [& ieq(index_1, f_1)]
        if (eq) { r = access(..., f_0[, f_1]); break; }
    }
    out = phi(r)                                   (the access's result, if it has one)
    (the rest of the block)

so every invocation does its access exactly once, with a descriptor index that is
uniform in the iteration that does it (isel loads that element's descriptor into SGPRs).
The loop's exit is divergent (the invocations leave it one index at a time). Phis that
named the split block as a predecessor name its second half.
"""

from __future__ import annotations

from ..mir import Block, If, Instr, Loop, MirShader
from ..mir_ops import INTRINSICS
from .lower_util import replace_by_loops


def _wanted(ins: Instr) -> bool:
    return bool(ins.attrs.get("nonuniform")) and ins.op.startswith("image_")


_OPS = frozenset(op for op in INTRINSICS if op.startswith("image_"))  # (what `_wanted` picks)


def _expand(shader: MirShader, pre: Block, ins: Instr, post: Block) -> Loop:
    """The waterfall loop of ``ins`` (a non-uniform access) between ``pre`` and ``post``."""
    kinds = tuple(ins.attrs.get("desc_index", ()))  # type: ignore[arg-type]
    n = len(kinds)
    header, then_b, else_b, latch = (shader.new_block() for _ in range(4))
    idx = ins.srcs[len(ins.srcs) - n:]
    firsts = []
    eq = None
    for v in idx:
        f = shader.new_value(v.bit_size)
        header.append(Instr("read_first_invocation", f, [v]))
        firsts.append(f)
        e = shader.new_value(1)
        header.append(Instr("ieq", e, [v, f]))
        if eq is not None:
            both = shader.new_value(1)
            header.append(Instr("iand", both, [eq, e]))
            e = both
        eq = e
    assert eq is not None
    attrs = {key: val for key, val in ins.attrs.items() if key != "nonuniform"}
    d = ins.dest
    r = shader.new_value(d.bit_size, d.num_components) if d is not None else None
    then_b.append(Instr(ins.op, r, [*ins.srcs[:len(ins.srcs) - n], *firsts], attrs))
    then_b.append(Instr("break", None))
    if d is not None:
        assert r is not None
        out = Instr("phi", d, [r])
        out.preds = [then_b]
        post.insert(0, out)
    return Loop([header, If(eq, [then_b], [else_b]), latch])


def lower_non_uniform(shader: MirShader) -> bool:
    return replace_by_loops(shader, _wanted,
                            lambda pre, ins, post: _expand(shader, pre, ins, post), ops=_OPS)


__all__ = ["lower_non_uniform"]
