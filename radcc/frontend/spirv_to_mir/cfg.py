"""Control flow and functions (Mesa's src/compiler/spirv/vtn_cfg.c): structured
SPIR-V control flow to MIR If/Loop nodes (switches as one-iteration loops with a
fall-through flag, jumps that leave more than the innermost MIR loop through
flags re-issued after it), ``OpPhi`` through local variables, calls inlined
(recursion is an error), trivial one-iteration loops dissolved at the end.
"""

from __future__ import annotations

from collections.abc import Container

from ..mir import (
    Block,
    CFNode,
    If,
    LocalVar,
    Loop,
    ValType,
    mask,
)
from ..spirv.binary import Instruction
from ..spirv.types import (
    Block as SBlock,
)
from ..spirv.types import (
    Function,
    TypeVoid,
)
from .context import TV, Construct, FuncCtx, TranslationContext, err
from .types_consts import get_tv, get_value, mtype
from .variables import load_local, load_var, store_local, store_var, var_ptr


def _jumps_to(cf: list[CFNode]) -> int:
    """Jumps in ``cf`` that target the loop owning it (not those of inner loops)."""
    n = 0
    for node in cf:
        if isinstance(node, Block):
            if node.jump is not None:  # (a jump ends its block: `MirBuilder.emit`)
                n += 1
        elif isinstance(node, If):
            n += _jumps_to(node.then_list) + _jumps_to(node.else_list)
    return n


def _append(out: list[CFNode], node: CFNode) -> None:
    if isinstance(node, Block) and out and isinstance(out[-1], Block):
        prev = out[-1]
        for i in node.instrs:
            i.block = prev
        prev.instrs.extend(node.instrs)
        return
    out.append(node)


def unwrap_trivial_loops(cf: list[CFNode]) -> list[CFNode]:
    """Dissolve one-iteration loops (function bodies, switches) that no jump leaves early."""
    out: list[CFNode] = []
    for n in cf:
        if isinstance(n, If):
            n.then_list = unwrap_trivial_loops(n.then_list)
            n.else_list = unwrap_trivial_loops(n.else_list)
        elif isinstance(n, Loop):
            n.body = unwrap_trivial_loops(n.body)
            n.cont = unwrap_trivial_loops(n.cont)
            last = n.body[-1]
            if (not n.cont and isinstance(last, Block) and last.jump is not None
                and last.jump.op == "break" and _jumps_to(n.body) == 1):
                last.instrs.pop()
                for x in n.body:
                    _append(out, x)
                continue
        _append(out, n)
    return out


def inline_call(ctx: TranslationContext, fn: Function, args: list[TV], ret_tid: int | None) -> TV:
    if ctx.call_depth > 64:
        raise err("recursive function calls are not supported", ctx.ins)
    ctx.call_depth += 1
    fc = FuncCtx(fn, {}, [Construct("func")])
    for p, a in zip(fn.params, args, strict=True):
        fc.vals[p.id] = a
    fc.block_index = {blk.label: k for k, blk in enumerate(fn.blocks)}
    fc.single_store = single_store_vars(fn)
    fc.phi_blocks = frozenset(blk.label for blk in fn.blocks if blk.phis)
    if ret_tid is not None:
        fc.ret_tid = ret_tid
        fc.ret_var = ctx.shader.new_local(f"ret{fn.id}", mtype(ctx, ret_tid))
    saved = ctx.fctx
    ctx.fctx = fc
    # Function variables first (in the entry block)
    loop = ctx.b.push_loop()
    with ctx.b.into(loop.body):
        r = region(ctx, fn.blocks[0].label, frozenset())
        assert r is None
        ctx.b.jump("break")
    finish_loop(ctx, fc.constructs[0])
    ctx.fctx = saved
    ctx.call_depth -= 1
    if fc.ret_var is not None:
        return load_local(ctx, var_ptr(ctx, fc.ret_var, fc.ret_tid))
    return None


def single_store_vars(fn: Function) -> frozenset[int]:
    """The Function variables of `fn` stored exactly once (an initializer counts) that
    no instruction uses but that store and whole loads (`OpLoad` of the variable):
    nothing else can write them, so their one store's value is what every load it
    dominates reads (`context.KnownValue`)."""
    stores: dict[int, int] = {}
    for ins in fn.blocks[0].instructions if fn.blocks else ():
        if ins.opname == "OpVariable":
            assert ins.result_id is not None
            stores[ins.result_id] = 1 if len(ins.operands) > 1 else 0
    if not stores:
        return frozenset()
    used: set[int] = set()  # used some other way
    for blk in fn.blocks:
        for ins in blk.instructions:
            op = ins.opname
            if op == "OpLoad" or op == "OpVariable":
                continue
            ids = ins.id_tuple()
            if stores.keys().isdisjoint(ids):
                continue
            if op == "OpStore" and ids[0] in stores:
                stores[ids[0]] += 1
                ids = ids[1:]
            used.update(i for i in ids if i in stores)
    return frozenset(v for v, n in stores.items() if n == 1 and v not in used)


def block(ctx: TranslationContext, label: int) -> SBlock:
    fc = ctx.fctx
    assert fc is not None
    return fc.fn.blocks[fc.block_index[label]]


def jump_for(ctx: TranslationContext, label: int) -> tuple[str, Construct] | None:
    fc = ctx.fctx
    assert fc is not None
    for c in reversed(fc.constructs):
        if c.kind == "loop":
            if label == c.merge:
                return ("break", c)
            if label == c.cont and not c.in_cont:
                return ("continue", c)
        elif c.kind == "switch" and label == c.merge:
            return ("break", c)
    return None


def emit_jump(ctx: TranslationContext, req: tuple[str, Construct]) -> None:
    fc = ctx.fctx
    assert fc is not None
    inner = fc.constructs[-1]
    kind, target = req
    if target is inner:
        ctx.b.jump("continue" if kind == "continue" else "break")
        return
    key = (kind, id(target))
    flag = inner.flags.get(key)
    if flag is None:
        flag = ctx.shader.new_local(f"esc_{kind}", ValType("bool", 1))
        inner.flags[key] = flag
        inner.pending.append((flag, req))
        ctx.flag_vars.append(flag)
    store_var(ctx, flag, ctx.b.true())
    ctx.b.jump("break")


def finish_loop(ctx: TranslationContext, con: Construct) -> None:
    """After the MIR loop of ``con``: re-issue the jumps that escaped through it."""
    for flag, req in con.pending:
        c = load_var(ctx, flag)
        n = ctx.b.push_if(c)
        with ctx.b.into(n.then_list):
            store_var(ctx, flag, ctx.b.false())
            emit_jump(ctx, req)


# how deep structured constructs may nest: the translation recurses once per construct
# (region -> emit_block -> emit_terminator/emit_loop -> region), so a module nesting
# thousands deep gets a located error, not Python's RecursionError; glslang's output for
# real shaders nests a few dozen deep at most
MAX_CF_NESTING = 128


def region(ctx: TranslationContext, label: int, stop: Container[int]) -> int | None:
    """Emit blocks from ``label`` until a label in ``stop`` (returned) or a jump (None)."""
    if ctx.region_depth >= MAX_CF_NESTING:
        blk = block(ctx, label)
        raise err(f"control flow nested more than {MAX_CF_NESTING} constructs deep",
                  blk.merge or blk.terminator)
    ctx.region_depth += 1
    try:
        return _region(ctx, label, stop)
    finally:
        ctx.region_depth -= 1


def _region(ctx: TranslationContext, label: int, stop: Container[int]) -> int | None:
    cur: int | None = label
    while cur is not None:
        if cur in stop:
            return cur
        if ctx.b.ended:
            return None
        j = jump_for(ctx, cur)
        if j is not None:
            emit_jump(ctx, j)
            return None
        cur = emit_block(ctx, cur, stop)
    return None


def emit_block(ctx: TranslationContext, label: int, stop: Container[int]) -> int | None:
    blk = block(ctx, label)
    merge = blk.merge
    if merge is not None and merge.opname == "OpLoopMerge":
        return emit_loop(ctx, blk)
    emit_body(ctx, blk)
    return emit_terminator(ctx, blk, stop)


def emit_body(ctx: TranslationContext, blk: SBlock) -> None:
    fc = ctx.fctx
    assert fc is not None
    for phi in blk.phis:
        ctx.ins = phi
        var = _phi_var(ctx, phi)
        assert phi.result_id is not None and phi.result_type is not None
        fc.vals[phi.result_id] = load_local(ctx, var_ptr(ctx, var, phi.result_type))
    translate = ctx.translate
    for ins in blk.body:
        try:
            translate(ctx, ins)
        except (AssertionError, AttributeError, IndexError, KeyError, StopIteration,
                TypeError) as e:  # operands whose types this instruction cannot take
            raise err(f"invalid operand types ({type(e).__name__}: {e})", ins) from None
    # values of the successors' phis
    for s in blk.successors:
        if s not in fc.phi_blocks:
            continue
        for phi in block(ctx, s).phis:
            ids = phi.ids()
            for k in range(0, len(ids), 2):
                if ids[k + 1] == blk.label:
                    ctx.ins = phi
                    assert phi.result_type is not None
                    var = _phi_var(ctx, phi)
                    store_local(ctx, var_ptr(ctx, var, phi.result_type), get_tv(ctx, ids[k]))


def _phi_var(ctx: TranslationContext, phi: Instruction) -> LocalVar:
    fc = ctx.fctx
    assert fc is not None and phi.result_id is not None and phi.result_type is not None
    var = fc.phi_vars.get(phi.result_id)
    if var is None:
        var = ctx.shader.new_local(f"phi{phi.result_id}", mtype(ctx, phi.result_type))
        fc.phi_vars[phi.result_id] = var
    return var


def emit_loop(ctx: TranslationContext, blk: SBlock) -> int | None:
    fc = ctx.fctx
    assert fc is not None and blk.merge is not None
    merge_label, cont_label = blk.merge.ids()[:2]
    con = Construct("loop", merge_label, cont_label)
    fc.constructs.append(con)
    loop = ctx.b.push_loop()
    ctx.loop_depth += 1  # (`context.KnownValue`)
    with ctx.b.into(loop.body):
        emit_body(ctx, blk)
        nxt = emit_terminator(ctx, blk, frozenset())
        if nxt is not None:
            region(ctx, nxt, frozenset())
    if cont_label != blk.label:
        con.in_cont = True
        with ctx.b.into(loop.cont):
            region(ctx, cont_label, frozenset({blk.label}))
    ctx.loop_depth -= 1
    fc.constructs.pop()
    finish_loop(ctx, con)
    return merge_label


def _kind(ctx: TranslationContext, label: int, stop: Container[int]) -> str:
    if label in stop:
        return "stop"
    if jump_for(ctx, label) is not None:
        return "jump"
    return "normal"


def emit_terminator(ctx: TranslationContext, blk: SBlock, stop: Container[int]) -> int | None:
    t = blk.terminator
    ctx.ins = t
    op = t.opname
    merge = blk.merge
    if op == "OpBranch":
        return t.id(0)
    if op in ("OpReturn", "OpReturnValue"):
        fc = ctx.fctx
        assert fc is not None
        if op == "OpReturnValue":
            assert fc.ret_var is not None
            store_local(ctx, var_ptr(ctx, fc.ret_var, fc.ret_tid), get_tv(ctx, t.id(0)))
        emit_jump(ctx, ("return", fc.constructs[0]))
        return None
    if op in ("OpUnreachable", "OpKill", "OpTerminateInvocation"):
        if op != "OpUnreachable":
            if ctx.ep.execution_model != "Fragment":
                raise err("not allowed outside a fragment shader", t)
            ctx.b.intrinsic("terminate", [])
        return None
    if op == "OpSwitch":
        if merge is None or merge.opname != "OpSelectionMerge":
            raise err("OpSwitch without OpSelectionMerge is not structured", t)
        return emit_switch(ctx, blk, merge.id(0))
    if op != "OpBranchConditional":
        raise err("unsupported terminator", t)
    cond = get_value(ctx, t.id(0))
    if cond.bit_size != 1 or cond.num_components != 1:
        raise err(f"condition %{t.id(0)} is not a boolean scalar", t)
    tl, fl = t.id(1), t.id(2)
    if merge is not None and merge.opname == "OpSelectionMerge":
        m = merge.id(0)
        n = ctx.b.push_if(cond)
        with ctx.b.into(n.then_list):
            region(ctx, tl, frozenset({m}))
        with ctx.b.into(n.else_list):
            region(ctx, fl, frozenset({m}))
        return m
    kt, kf = _kind(ctx, tl, stop), _kind(ctx, fl, stop)
    if tl == fl:
        return tl
    if kt == "normal" and kf == "normal":
        raise err("conditional branch without a merge to two ordinary blocks "
                  "(unstructured control flow)", t)
    n = ctx.b.push_if(cond)
    for side, lab, kind in ((n.then_list, tl, kt), (n.else_list, fl, kf)):
        if kind == "jump":
            with ctx.b.into(side):
                j = jump_for(ctx, lab)
                assert j is not None
                emit_jump(ctx, j)
    if "normal" in (kt, kf):
        normal = tl if kt == "normal" else fl
        other = kf if kt == "normal" else kt
        if other == "stop":
            with ctx.b.into(n.then_list if kt == "normal" else n.else_list):
                r = region(ctx, normal, stop)
                return r if r is not None else (fl if kt == "normal" else tl)
        return normal
    if kt == "stop":
        return tl
    if kf == "stop":
        return fl
    return None


def emit_switch(ctx: TranslationContext, blk: SBlock, merge_label: int) -> int | None:
    fc = ctx.fctx
    assert fc is not None
    t = blk.terminator
    sel = get_value(ctx, t.id(0))
    default = t.id(1)
    cases: list[tuple[int, int]] = []
    for p in t.operands[2:]:
        lit, lab = p.params[0], p.params[1]
        cases.append((int(lit.bits) & mask(sel.bit_size), int(lab.value)))
    con = Construct("switch", merge_label)
    fc.constructs.append(con)
    loop = ctx.b.push_loop()
    with ctx.b.into(loop.body):
        fall = ctx.shader.new_local("fallthrough", ValType("bool", 1))
        store_var(ctx, fall, ctx.b.false())
        targets = _case_order(ctx, {lab for _, lab in cases} | {default} - {merge_label},
                                   merge_label)
        fell = False  # an earlier case may have set `fall`
        target_set = frozenset(targets)
        lits_of: dict[int, list[int]] = {}  # each target's literals, in the cases' order
        for case_lit, case_lab in cases:
            lits_of.setdefault(case_lab, []).append(case_lit)
        for tgt in targets:
            ctx.ins = t
            conds = [ctx.b.alu("ieq", 1, 1, sel, ctx.b.imm(lit, sel.bit_size))
                     for lit in lits_of.get(tgt, ())]
            if tgt == default:
                others = [ctx.b.alu("ine", 1, 1, sel, ctx.b.imm(lit, sel.bit_size))
                          for lit, lab in cases if lab != default]
                c = ctx.b.true()
                for o in others:
                    c = ctx.b.alu("iand", 1, 1, c, o)
                conds.append(c)
            c = load_var(ctx, fall)
            for x in conds:
                c = ctx.b.alu("ior", 1, 1, c, x)
            n = ctx.b.push_if(c)
            with ctx.b.into(n.then_list):
                # a case that ends at the merge block leaves its if (no break): the case
                # conditions exclude each other, so the later ifs are skipped, and the
                # values the cases define merge at each if instead of all living on to
                # the loop exit (the exit phis of as many breaks as cases)
                r = region(ctx, tgt, _CaseStops(target_set, tgt, merge_label))
                if r == merge_label:
                    if fell:
                        store_var(ctx, fall, ctx.b.false())
                elif r is not None:
                    store_var(ctx, fall, ctx.b.true())
                    fell = True
        ctx.b.jump("break")
    fc.constructs.pop()
    finish_loop(ctx, con)
    return merge_label


def _case_order(ctx: TranslationContext, targets: set[int], merge_label: int) -> list[int]:
    """Case targets in block order, moved so that a case precedes the one it falls into."""
    fc = ctx.fctx
    assert fc is not None
    order = sorted(targets, key=lambda x: fc.block_index[x])
    falls: dict[int, int] = {}
    for t in order:
        seen = {t}
        work = [t]
        while work:
            lab = work.pop()
            for s in block(ctx, lab).successors:
                if s == merge_label or s in seen:
                    continue
                if s in targets:
                    falls[t] = s
                    continue
                seen.add(s)
                work.append(s)
    out: list[int] = []
    placed: set[int] = set()  # `out` as a set (a list scan per case was quadratic)
    fallen = set(falls.values())
    heads = [t for t in order if t not in fallen]
    for h in heads:
        x: int | None = h
        while x is not None and x not in placed:
            out.append(x)
            placed.add(x)
            x = falls.get(x)
    out += [t for t in order if t not in placed]
    return out


class _CaseStops:
    """Where a switch case's region stops: the merge label and the other case targets
    (``(targets - {case}) | {merge}`` without building that set per case: a switch of
    N cases built N sets of N labels)."""

    __slots__ = ("targets", "case", "merge")

    def __init__(self, targets: frozenset[int], case: int, merge: int) -> None:
        self.targets = targets
        self.case = case
        self.merge = merge

    def __contains__(self, label: object) -> bool:
        return label == self.merge or (label != self.case and label in self.targets)


def op_function_call(ctx: TranslationContext, ins: Instruction) -> None:
    fid = ins.id(0)
    fn = ctx.m.function(fid)
    args = [get_tv(ctx, x) for x in ins.ids()[1:]]
    void = isinstance(ctx.ty(fn.result_type), TypeVoid)
    r = inline_call(ctx, fn, args, None if void else fn.result_type)
    ctx.ins = ins
    if not void:
        ctx.set(ins, r)
