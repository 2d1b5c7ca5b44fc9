"""peephole_select: if-conversion of small side-effect-free ifs (NIR's
nir_opt_peephole_select, which ACO relies on for ``v_cndmask``/``s_cselect``).

An ``If`` whose then and else lists are each a single block is flattened when

- neither block ends in ``break``/``continue`` and neither holds a phi;
- every instruction may be executed speculatively: an ALU op, ``load_const``,
  ``undef``, or an intrinsic that is a pure function of its sources and the
  invocation (``reorderable`` in ``mir_ops.INTRINSICS``), except memory loads
  (``load_ubo``/``load_push_constant``: an out-of-range address may be guarded by
  the condition) and subgroup operations (their result depends on the active
  lanes). Stores, atomics, barriers, scratch and SSBO/shared loads never qualify;
- each block costs at most ``LIMIT`` (8, RADV's setting of NIR's pass): constants,
  undefs and component extractions are free, every other instruction costs what NIR
  counts for it: 1 per ALU instruction (RADV passes ``expensive_alu_ok``, so a
  transcendental that is one GFX11 instruction, ``v_sqrt``/``v_rcp``/``v_exp``/``v_sin``,
  is 1 too), except the ops NIR has lowered into several before its pass runs
  (``LOWERED_COST``: ``fdiv`` is ``frcp`` + ``fmul``, ``fpow`` ``exp2(b * log2 a)``;
  an integer division or remainder costs 4).

The flattened if's blocks are appended to the block before it (then first, then
else; they are independent), each phi of the block after it becomes
``bcsel(cond, then_value, else_value)`` with the phi's own value (an undef side
takes the other side's value, equal sides need no select), and the block after
it joins too. Nested ifs are converted innermost first, so an outer if whose
sides became single blocks is considered again. Loops are entered; the pass
never moves code across a loop boundary.
"""

from __future__ import annotations

from ..mir import Block, CFNode, If, Instr, Loop, MirShader, Value, rewrite_uses
from ..mir_ops import ALU_OPS, INTRINSICS, SUBGROUP_OPS

LIMIT = 8
# NIR's count of the instructions these become before its pass runs (module docstring);
# an integer division 4 (radcc's estimate: lower_idiv makes a multiply-high sequence of a
# division by a constant, a longer one of a division by a variable)
LOWERED_COST = {"fdiv": 2, "fpow": 3, **dict.fromkeys("idiv udiv irem umod imod".split(), 4)}
_FREE = frozenset({"load_const", "undef"})
_NO_SPECULATE = frozenset({"load_ubo", "load_push_constant"})


def _cost(ins: Instr) -> int | None:
    """The instruction's cost, None if it must not be executed speculatively."""
    op = ins.op
    if op in _FREE:
        return 0
    if op in ALU_OPS:
        if op == "mov" and ins.dest is not None and ins.dest.num_components == 1:
            return 0
        return LOWERED_COST.get(op, 1)
    info = INTRINSICS.get(op)
    if info is None or not info.reorderable or op in _NO_SPECULATE or op in SUBGROUP_OPS:
        return None
    if op.startswith("deref_"):
        return None
    return 1


def _single_block(cf: list[CFNode]) -> Block | None:
    if len(cf) != 1 or not isinstance(cf[0], Block):
        return None
    return cf[0]


def _convertible(n: If, limit: int) -> tuple[Block, Block] | None:
    t, e = _single_block(n.then_list), _single_block(n.else_list)
    if t is None or e is None:
        return None
    for b in (t, e):
        if b.jump is not None or b.phis:
            return None
        total = 0
        for ins in b.instrs:
            c = _cost(ins)
            if c is None:
                return None
            total += c
        if total > limit:
            return None
    return t, e


class _Pending:
    """What the flattenings done so far still owe the rest of the shader, applied once at
    the end (`finish`) instead of a scan of the whole shader per flattened if: phi
    results replaced by a value (`mapping`, followed transitively as `rewrite_uses`
    does) and merged blocks (`alias`: a block whose instructions joined another, as a
    phi's predecessor). Later flattenings read phis and conditions through them."""

    def __init__(self) -> None:
        self.mapping: dict[Value, Value] = {}
        self.alias: dict[Block, Block] = {}

    def value(self, v: Value) -> Value:
        seen = 0
        while v in self.mapping and seen < 1000:  # rewrite_uses' bound
            v = self.mapping[v]
            seen += 1
        return v

    def block(self, b: Block) -> Block:
        while b in self.alias:
            b = self.alias[b]
        return b

    def finish(self, shader: MirShader) -> None:
        if self.alias:
            for ins in shader.instrs():
                if ins.op == "phi" and any(p in self.alias for p in ins.preds):
                    ins.preds = [self.block(p) for p in ins.preds]
        rewrite_uses(shader, self.mapping)


def _flatten(shader: MirShader, cf: list[CFNode], i: int, n: If, t: Block, e: Block,
             pending: _Pending) -> None:
    prev, nxt = cf[i - 1], cf[i + 1]
    assert isinstance(prev, Block) and isinstance(nxt, Block)
    for blk in (t, e):
        for ins in blk.instrs:
            prev.append(ins)
        blk.instrs = []
    mapping = pending.mapping
    for phi in nxt.phis:
        assert phi.dest is not None and len(phi.srcs) == 2, phi
        by_pred = dict(zip([pending.block(p) for p in phi.preds],
                           [pending.value(v) for v in phi.srcs], strict=True))
        a, b = by_pred[t], by_pred[e]
        if b.parent is not None and b.parent.op == "undef":
            b = a
        elif a.parent is not None and a.parent.op == "undef":
            a = b
        if a is b:
            mapping[phi.dest] = a
            continue
        cond = pending.value(n.cond)
        k = phi.dest.num_components
        if k > 1:  # bcsel is per component: the condition splatted
            splat = shader.new_value(1, k)
            prev.append(Instr("mov", splat, [cond], {"comps": (0,) * k}))
            cond = splat
        prev.append(Instr("bcsel", phi.dest, [cond, a, b]))
    for ins in nxt.instrs[len(nxt.phis):]:
        prev.append(ins)
    nxt.instrs = []
    # nxt may be a predecessor elsewhere (a back edge, an enclosing if's merge, a break)
    pending.alias[nxt] = prev
    del cf[i:i + 2]


def _walk(shader: MirShader, cf: list[CFNode], limit: int, pending: _Pending) -> bool:
    changed = False
    i = 0
    while i < len(cf):
        n = cf[i]
        if isinstance(n, Loop):
            changed |= _walk(shader, n.body, limit, pending)
            changed |= _walk(shader, n.cont, limit, pending)
        elif isinstance(n, If):
            changed |= _walk(shader, n.then_list, limit, pending)
            changed |= _walk(shader, n.else_list, limit, pending)
            sides = _convertible(n, limit)
            if sides is not None:
                _flatten(shader, cf, i, n, *sides, pending)
                changed = True
                continue  # cf[i] is now the node after the merged block
        i += 1
    return changed


def peephole_select(shader: MirShader, limit: int = LIMIT) -> bool:
    """Flatten small side-effect-free ifs into ``bcsel``s (see the module docstring)."""
    pending = _Pending()
    changed = _walk(shader, shader.function.body, limit, pending)
    pending.finish(shader)
    return changed
