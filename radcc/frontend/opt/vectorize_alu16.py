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
instruction for them when the pair is free).

Loop-carried pairs (`pair_loop_phis`, as nir_opt_vectorize does on phis): two scalar
16-bit phis P1, P2 of a loop header whose every back-edge pair of values is the
results of two float operations of ``PACKED_FLOAT`` that would merge once P1 and P2
are one value (same operation and attributes, one block, A before B with no use of A's
result between them nor further apart than ``WINDOW``, P1 and P2 in the same source
slot, every other source pair free) become one 16x2 phi ``%p`` whose sources are
``vec2``s of the old pairs (appended to each predecessor before its jump), followed by
``P1 = mov %p.x`` and ``P2 = mov %p.y``; the blocks are then vectorized again, which
merges those operations (``sum += a * b`` in two halves of one dword: a packed
accumulator). A 16x2 phi is a packed vector (`packed_vector`): isel keeps it as one
dword, packing a pair that is not already one on its edge.
Runs last among the lowering passes (after ``vectorize_mem``, before ``dce``, which
removes the ``fneg``s only folded).
"""

from __future__ import annotations

from ..mir import Block, Instr, Loop, MirShader, Value, const_of, iter_blocks, iter_nodes

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
    component; before divergence analysis every value counts as divergent), or a
    16x2 phi (`pair_loop_phis`; isel makes it one dword)."""
    p = w.parent
    return w.bit_size == 16 and w.num_components > 1 and p is not None and (
        p.op in LOADS or p.op in PACKED_FLOAT or (p.op in PACKED_INT and w.divergent)
        or (p.op == "phi" and w.num_components == 2))


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


def _would_merge(a: Instr, b: Instr, p1: Value, p2: Value) -> bool:
    """Whether `a` and `b` (the back-edge values' definitions) would merge once the
    phis `p1`, `p2` were one packed value (module docstring)."""
    if not (a.op == b.op and a.op in PACKED_FLOAT and _candidate(a) and _candidate(b)
            and a.attrs == b.attrs and a.block is b.block and a.block is not None):
        return False
    instrs = a.block.instrs
    i, j = instrs.index(a), instrs.index(b)
    if not i < j <= i + WINDOW or any(a.dest in x.srcs for x in instrs[i + 1:j]):
        return False
    slots = [(x is p1 and y is p2) for x, y in zip(a.srcs, b.srcs, strict=True)]
    return any(slots) and all(ok or free_pair(x, y) for ok, x, y in
                              zip(slots, a.srcs, b.srcs, strict=True))


def _scalar16(phi: Instr) -> bool:
    d = phi.dest
    return d is not None and d.bit_size == 16 and d.num_components == 1


def _insert_before_jump(block: Block, ins: Instr) -> None:
    k = len(block.instrs)
    while k and block.instrs[k - 1].is_jump:
        k -= 1
    ins.block = block
    block.instrs.insert(k, ins)


def pair_loop_phis(shader: MirShader, loop: Loop) -> bool:
    """Pair the loop-carried 16-bit phis of `loop` (module docstring)."""
    header = loop.body[0]
    if not isinstance(header, Block):
        return False
    inside = set(iter_blocks(loop.body)) | set(iter_blocks(loop.cont))
    changed = False
    phis = [p for p in header.phis if _scalar16(p)]
    used: set[int] = set()
    for x, p1 in enumerate(phis):
        if id(p1) in used:
            continue
        for p2 in phis[x + 1:]:
            if id(p2) in used or p2.preds != p1.preds:
                continue
            back = [(s1, s2) for pr, s1, s2 in zip(p1.preds, p1.srcs, p2.srcs, strict=True)
                    if pr in inside]
            if not back or not all(
                    s1.parent is not None and s2.parent is not None and
                    _would_merge(s1.parent, s2.parent, p1.dest, p2.dest)  # type: ignore[arg-type]
                    for s1, s2 in back):
                continue
            used |= {id(p1), id(p2)}
            _replace_pair(shader, header, p1, p2)
            changed = True
            break
    return changed


def _replace_pair(shader: MirShader, header: Block, p1: Instr, p2: Instr) -> None:
    n = shader.new_value(16, 2)
    phi = Instr("phi", n)
    phi.line = p1.line
    for pr, s1, s2 in zip(p1.preds, p1.srcs, p2.srcs, strict=True):
        v = shader.new_value(16, 2)
        vec = Instr("vec2", v, [s1, s2])
        vec.line = p1.line
        _insert_before_jump(pr, vec)
        phi.preds.append(pr)
        phi.srcs.append(v)
    movs = []
    for c, old in enumerate((p1, p2)):
        m = Instr("mov", old.dest, [n], {"comps": (c,)})
        m.line = old.line
        m.block = header
        movs.append(m)
    header.instrs.remove(p1)
    header.instrs.remove(p2)
    phi.block = header
    k = len(header.phis)
    header.instrs[k:k] = [phi, *movs]


def vectorize_alu16(shader: MirShader) -> bool:
    changed = False
    for block in shader.blocks():
        changed |= _vectorize_block(shader, block)
    paired = False
    for node in list(iter_nodes(shader.function.body)):
        if isinstance(node, Loop):
            paired |= pair_loop_phis(shader, node)
    if paired:
        for block in shader.blocks():
            _vectorize_block(shader, block)
    return changed or paired
