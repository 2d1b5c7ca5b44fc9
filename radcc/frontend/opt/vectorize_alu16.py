"""vectorize_alu16: pairs of scalar 16-bit ALU operations become one two-component
operation, which isel selects as one packed VOP3P instruction (``v_pk_add_f16``,
``v_pk_add_u16`` ...)
on the two halves of a dword (the idea of NIR's nir_opt_vectorize with RADV's
16-bit filter, which ACO relies on for packed math).

Within one block, two scalar 16-bit instructions A (earlier) and B with the same
operation of ``PACKED_OPS`` and equal attributes are merged when every source pair
``(A.src[k], B.src[k])`` is *free to pack*: the packed instruction reads both halves
from one 32-bit operand (`free_pair`):

- the same value in both (a splat: one register, both halves read its low half);
- two constants (an inline constant or a literal when equal, else one packed dword);
- the two 16-bit halves of one dword of a *packed vector* (`packed_vector`: a 16-bit
  vector load, which isel keeps as its dwords, or an earlier merged result), possibly
  negated (``fneg``, the instruction's NEG_LO/NEG_HI; float operations only).

The merged instruction ``%n = op vec2(A.src[0], B.src[0]), ...`` (16x2) sits at B's
position, followed by ``A.dest = mov %n.x`` and ``B.dest = mov %n.y``; A is merged
only with a B before any use of A's result, so every use still follows its
definition. Merged results feed later merges (``fmul`` pairs into ``fadd`` pairs).
The ``vec2`` sources are only isel's view of which halves to read (isel emits no
instruction for them when the pair is free). Runs last among the lowering passes
(after ``vectorize_mem``, before ``dce``, which removes the ``fneg``s only folded).
"""

from __future__ import annotations

from ..mir import Block, Instr, MirShader, Value, const_of

# 16-bit operations with a packed form (isel/alu16.py's PACKED_VOP3P maps them to v_pk_*):
# float ones, whose sources may be negated (NEG_LO/NEG_HI), and integer ones
PACKED_FLOAT = frozenset({"fadd", "fsub", "fmul", "ffma", "fmin", "fmax"})
PACKED_INT = frozenset({"iadd", "isub", "imul", "imin", "imax", "umin", "umax"})
PACKED_OPS = PACKED_FLOAT | PACKED_INT
LOADS = frozenset({"load_ssbo", "load_ubo", "load_push_constant", "load_shared",
                   "load_scratch", "load_constant"})
WINDOW = 32  # how far after A a partner B is looked for


def packed_vector(w: Value) -> bool:
    """Whether isel holds the 16-bit vector `w` as whole dwords: component 2k's
    register is dword k itself (its high half component 2k+1): a 16-bit vector load
    (``mem16``'s dword loads), a merged float operation's result, or a divergent merged
    integer operation's (isel keeps a uniform one on the SALU, a register per
    component; before divergence analysis every value counts as divergent)."""
    p = w.parent
    return w.bit_size == 16 and w.num_components > 1 and p is not None and (
        p.op in LOADS or p.op in PACKED_FLOAT or (p.op in PACKED_INT and w.divergent))


def half_source(v: Value, negate: bool = True) -> tuple[Value, int, bool]:
    """What a 16-bit scalar `v` reads: (base value, component, negated). Looks
    through ``fneg`` (when `negate`: a float operation's source) and through a ``mov``
    extracting a component of a packed vector; else `v` itself, component 0."""
    neg = False
    while negate and v.parent is not None and v.parent.op == "fneg" and v.bit_size == 16:
        neg = not neg
        v = v.parent.srcs[0]
    p = v.parent
    if p is not None and p.op == "mov" and packed_vector(p.srcs[0]):
        comps = p.attrs.get("comps", (0,))
        return p.srcs[0], int(comps[0]), neg
    return v, 0, neg


def free_pair(a: Value, b: Value, negate: bool = True) -> bool:
    """Whether one packed operand reads `a` in its low and `b` in its high half
    (`negate`: through ``fneg``, for a float operation)."""
    if a is b:
        return True
    ba, ca, _ = half_source(a, negate)
    bb, cb, _ = half_source(b, negate)
    if const_of(ba) is not None and const_of(bb) is not None:
        return True
    if ba is not bb:
        return False
    return ca == cb if ba.num_components == 1 else ca // 2 == cb // 2


def _candidate(ins: Instr) -> bool:
    d = ins.dest
    return ins.op in PACKED_OPS and d is not None and d.bit_size == 16 and \
        d.num_components == 1 and all(s.bit_size == 16 and s.num_components == 1
                                      for s in ins.srcs)


def _vectorize_block(shader: MirShader, block: Block) -> bool:
    changed = False
    i = 0
    while i < len(block.instrs):
        a = block.instrs[i]
        if not _candidate(a):
            i += 1
            continue
        assert a.dest is not None
        partner = -1
        for j in range(i + 1, min(len(block.instrs), i + 1 + WINDOW)):
            b = block.instrs[j]
            if a.dest in b.srcs:
                break  # A's result is used here: A cannot move past it
            if b.op == a.op and _candidate(b) and b.attrs == a.attrs and all(
                    free_pair(x, y, a.op in PACKED_FLOAT)
                    for x, y in zip(a.srcs, b.srcs, strict=True)):
                partner = j
                break
        if partner < 0:
            i += 1
            continue
        b = block.instrs[partner]
        assert b.dest is not None
        new: list[Instr] = []
        srcs: list[Value] = []
        for x, y in zip(a.srcs, b.srcs, strict=True):
            v = shader.new_value(16, 2)
            new.append(Instr("vec2", v, [x, y]))
            srcs.append(v)
        n = shader.new_value(16, 2)
        new.append(Instr(a.op, n, srcs, dict(a.attrs)))
        for c, old in enumerate((a, b)):
            m = Instr("mov", old.dest, [n], {"comps": (c,)})
            m.line = old.line
            new.append(m)
        for ins in new:
            ins.line = ins.line or b.line
            ins.block = block
        block.instrs[partner:partner + 1] = new
        del block.instrs[i]
        changed = True
        # stay at i: the instruction now there has not been looked at
    return changed


def vectorize_alu16(shader: MirShader) -> bool:
    changed = False
    for block in shader.blocks():
        changed |= _vectorize_block(shader, block)
    return changed
