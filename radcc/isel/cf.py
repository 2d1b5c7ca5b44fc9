"""Structured control flow: MIR If/Loop/break/continue into the logical and linear
CFGs of the machine IR, exactly in the shapes docs/ir.md ("Control flow as isel
produces it") fixes for lower_phis and insert_exec_mask (ACO's
begin_divergent_if_then ... end_loop, emit_loop_break/continue,
begin/end_empty_exec_skip; the same construction as tests/passes/cf_gen.py).

Phis: a MIR phi's operand for a predecessor is resolved when isel leaves that
predecessor (`_snapshot`), so a continue construct can be selected once per
path that reaches it (it is inlined at each ``continue`` and at the end of the
body: ``Loop.cont`` needs no lowering pass). Divergent phis are ``p_phi``
(``boolean`` for lane masks), uniform ones ``p_linear_phi`` over the linear
predecessors (undef where only a linear edge arrives). A divergent boolean
defined inside a construct and used after it leaves through a boolean phi at
the construct's exit (docs/ir.md: lane masks are SGPRs, the repair_ssa case
and loop-closed SSA).
"""

from __future__ import annotations

from radcc.frontend.mir import Block as MBlock
from radcc.frontend.mir import CFNode, If, Instr, Loop, Value, iter_blocks
from radcc.frontend.opt.vectorize_alu16 import packed_vector
from radcc.ir.program import Block, BlockKind, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, PhysReg, Temp, s1, v1

from .context import Comp, Const, IselContext, IselError, LoopInfo, Snap
from .dispatch import select_instr
from .pack16 import dword_of_pair, pack_halves

K = BlockKind


# -- structure ---------------------------------------------------------------
def analyze_structure(ctx: IselContext, body: list[CFNode]) -> None:
    _walk_structure(ctx, body)


def _walk_structure(ctx: IselContext, cf: list[CFNode]) -> None:
    # (a module-level function: a recursive closure is a reference cycle that would
    # keep the context, and the program, alive until the cyclic collector runs)
    for i, n in enumerate(cf):
        if isinstance(n, MBlock):
            continue
        nxt, prv = cf[i + 1], cf[i - 1]
        assert isinstance(nxt, MBlock) and isinstance(prv, MBlock)
        ctx.cf.next_of[id(n)] = nxt
        ctx.cf.prev_of[id(n)] = prv
        if isinstance(n, If):
            _walk_structure(ctx, n.then_list)
            _walk_structure(ctx, n.else_list)
        else:
            _walk_structure(ctx, n.body)
            _walk_structure(ctx, n.cont)


def escaping_bools(ctx: IselContext, inside: set[MBlock]) -> list[Value]:
    """Divergent booleans defined in `inside` and used outside it."""
    uses = ctx.value_uses()
    out = []
    for b in inside:
        for ins in b.instrs:
            v = ins.dest
            if v is None or v.bit_size != 1 or not v.divergent:
                continue
            if any(u not in inside for u in uses.get(v, ())):
                out.append(v)
    out.sort(key=lambda v: v.index)
    return out


def escaping_from_cont(ctx: IselContext, inside: set[MBlock], cont: list[CFNode]) -> list[Value]:
    """Values of any type defined in a continue construct and used after the loop.
    The construct is inlined at each ``continue`` and at the end of the body, so
    such a value has one definition per copy: the exit needs a phi of them (the
    MIR has none: there the construct's breaks all follow its one definition)."""
    blocks = set(iter_blocks(cont))
    uses = ctx.value_uses()
    out = []
    for b in blocks:
        for ins in b.instrs:
            v = ins.dest
            if v is None or (v.bit_size == 1 and v.divergent):
                continue  # divergent booleans: escaping_bools
            if any(u not in inside for u in uses.get(v, ())):
                out.append(v)
    out.sort(key=lambda v: v.index)
    return out


# -- blocks -------------------------------------------------------------------
def new(ctx: IselContext, kind: BlockKind = K.NONE) -> Block:
    return Block(-1, kind=kind)


def insert(ctx: IselContext, b: Block) -> Block:
    b.index = len(ctx.p.blocks)
    b.loop_nest_depth = ctx.cf.depth
    b.uniform_if_depth = ctx.cf.uniform_if_depth
    b.divergent_if_logical_depth = ctx.cf.divergent_if_depth
    ctx.p.blocks.append(b)
    return b


def edge(ctx: IselContext, a: Block, b: Block, logical: bool = True, linear: bool = True) -> None:
    ctx.cf.edges.append((a, b, logical, linear))


def goto(ctx: IselContext, b: Block) -> None:
    ctx.cur = b
    ctx.b.at_end(b)


def logical_start(ctx: IselContext, b: Block) -> None:
    goto(ctx, b)
    ctx.b.logical_start()


def logical_end(ctx: IselContext, b: Block) -> None:
    ctx.b.at_end(b)
    ctx.b.logical_end()


def close_dead(ctx: IselContext) -> None:
    """Where every path has branched away (``has_branch``), the current block is
    either the one that branched (closed already) or the logically unreachable
    endif of a uniform if whose sides both jumped (`if_uni`): nothing follows in
    it, so it gets its ``p_logical_end`` here (docs/ir.md: every
    ``p_logical_start`` has one)."""
    b = ctx.cur
    if not any(i.opcode == "p_logical_end" for i in b.instructions):
        logical_end(ctx, b)


def branch(ctx: IselContext, b: Block) -> None:
    ctx.b.at_end(b)
    ctx.b.branch(-1)


# -- phi operands ---------------------------------------------------------------
def _snapshot(ctx: IselContext, target: MBlock | None, extra: list[Value]) -> Snap:
    """The operands the phis of `target` (and the escaping values `extra`) take
    on the edge from the current MIR block; converted to the phi's class here,
    in the predecessor's logical part."""
    snap: Snap = {}
    if target is not None:
        for phi in target.phis:
            for p, s in zip(phi.preds, phi.srcs, strict=True):
                if p is ctx.cf.mblock:
                    snap[phi.dest] = _phi_operand(ctx, phi.dest, s)  # type: ignore
                    break
    for v in extra:
        if v in ctx.vmap:
            snap[v] = _phi_operand(ctx, v, v)
    return snap


def packed_phi(v: Value) -> bool:
    """A 16x2 phi (``vectorize_alu16.pair_loop_phis``): a packed vector, one dword."""
    return v.bit_size == 16 and v.num_components == 2 and v.parent is not None and \
        v.parent.op == "phi"


def _phi_operand(ctx: IselContext, dest: Value, src: Value) -> list[Comp]:
    if packed_phi(dest):
        # the dword holding both halves (free when the pair already is one), and the
        # high half as a scalar for the per-component phi of a non-loop merge
        p = src.parent
        if p is not None and p.op == "vec2":
            dword = dword_of_pair(ctx, p.srcs[0], p.srcs[1])
        elif packed_vector(src):
            dword = ctx.comp(src, 0)
        else:
            dword = pack_halves(ctx, ctx.comp(src, 0), ctx.comp(src, 1))
        return [_phi_comp(ctx, dest, dword), _phi_comp(ctx, dest, ctx.comp(src, 1))]
    return [_phi_comp(ctx, dest, c) for c in ctx.get(src)]


def _phi_comp(ctx: IselContext, dest: Value, c: Comp) -> Comp:
    if dest.bit_size == 1:
        if dest.divergent:
            return ctx.lanemask(c)
        return ctx.ubool(c) if not isinstance(c, Const) else ctx.sgpr(Const(32, c.value))
    return ctx.to_class(c, ctx.rc(dest))


def make_phis(ctx: IselContext, block: Block, values: list[Value], preds: list[tuple[Block, Snap]],
              linear_single: bool = False) -> None:
    """Phis at `block` for `values` (each snapshot is one logical predecessor)."""
    preds = sorted(preds, key=lambda x: x[0].index)
    for v in values:
        got: list[list[Comp]] = []
        for _, s in preds:
            g = s.get(v)
            if g is None:
                raise IselError(f"instruction selection: no value for %{v.index} on an edge")
            got.append(g)
        comps: list[Comp] = []
        for k in range(v.num_components):
            ops = [g[k] if len(g) > 1 else g[0] for g in got]
            comps.append(_make_phi(ctx, block, v, ops, preds))
        ctx.vmap[v] = comps


def _make_phi(ctx: IselContext, block: Block, v: Value, ops: list[Comp],
              preds: list[tuple[Block, Snap]]) -> Temp:
    rc = ctx.rc(v)
    ctx.b.at_end(block)
    if v.divergent:
        fields = {"boolean": True} if v.bit_size == 1 else {}
        t = ctx.b.pseudo("p_phi", [rc], [ctx.operand(o) for o in ops], **fields).temp
        if v.bit_size == 1:
            ctx.new_lane_mask(t)
        return t
    res = ctx.b.pseudo("p_linear_phi", [rc], [])
    # operands follow the linear predecessors, filled in by `finish_cfg`
    ctx.cf.linear_phis.append((block, res.instr, {
        b.index: o for (b, _), o in zip(preds, ops, strict=True)}))
    return res.temp


# -- statements -------------------------------------------------------------------
def stmts(ctx: IselContext, lst: list[CFNode]) -> None:
    skip: tuple | None = None
    for i, n in enumerate(lst):
        if isinstance(n, MBlock) and n.jump is not None and skip is not None:
            # the jump itself stays outside the skipped region
            select_block(ctx, n, jump=False)
            end_skip(ctx, skip)
            skip = None
            select_jump(ctx, n)
            continue
        if isinstance(n, MBlock):
            select_block(ctx, n)
        elif isinstance(n, If):
            select_if(ctx, n)
            if ctx.cf.unreachable:
                # both sides jumped: nothing after the if runs (NIR would have
                # removed it); its values only reach phis of dead edges
                ctx.cf.unreachable = False
                break
        else:
            select_loop(ctx, n)
        rest = lst[i + 1:]
        if skip is None and exec_empty(ctx) and rest and not _trivial(rest):
            skip = begin_skip(ctx, rest)
    if skip is not None:
        end_skip(ctx, skip)


def _trivial(rest: list[CFNode]) -> bool:
    """Nothing but phis and jumps: no code to skip."""
    return all(isinstance(n, MBlock) and all(x.op in ("phi", "break", "continue")
                                             for x in n.instrs) for n in rest)


def select_block(ctx: IselContext, mb: MBlock, jump: bool = True) -> None:
    ctx.cf.mblock = mb
    for ins in mb.instrs:
        if ins.op == "phi":
            continue
        if ins.op in ("break", "continue"):
            if jump:
                select_jump(ctx, mb)
            continue
        ctx.b.line = ins.line
        select_instr(ctx, ins)


# -- empty-exec skip (ACO's begin/end_empty_exec_skip) -------------------------------
def exec_empty(ctx: IselContext) -> bool:
    return ctx.cf.pe_break or ctx.cf.pe_continue


def update_exec_info(ctx: IselContext) -> None:
    lp = ctx.cf.loops[-1] if ctx.cf.loops else None
    if not ctx.cf.divergent_if and not (lp is not None and lp.has_divergent_continue):
        ctx.cf.pe_break = False
    if not ctx.cf.divergent_if:
        ctx.cf.pe_continue = False


def begin_skip(ctx: IselContext, rest: list[CFNode]) -> tuple:
    bif = ctx.cur
    logical_end(ctx, bif)
    bif.kind |= K.UNIFORM
    ctx.b.cbranch_z(Operand.fixed(PhysReg.of(EXEC), ctx.lm), -1, -1)
    endif = new(ctx, bif.kind & K.TOP_LEVEL)
    then = insert(ctx, new(ctx))
    edge(ctx, bif, then)
    logical_start(ctx, then)
    ctx.cf.pe_break = ctx.cf.pe_continue = False
    inside = set(iter_blocks(rest))
    return bif, endif, escaping_bools(ctx, inside)


def end_skip(ctx: IselContext, skip: tuple) -> None:
    bif, endif, esc = skip
    then_end = ctx.cur
    snap = _snapshot(ctx, None, esc)
    logical_end(ctx, then_end)
    branch(ctx, then_end)
    edge(ctx, then_end, endif, logical=False)
    preds = []
    if not ctx.cf.has_divergent_branch:
        edge(ctx, then_end, endif, linear=False)
        preds.append((then_end, snap))
    then_end.kind |= K.UNIFORM
    # a region that ended in a jump on every path leaves the endif logically
    # unreachable: has_divergent_branch stays set for the enclosing construct
    els = insert(ctx, new(ctx, K.UNIFORM))
    edge(ctx, bif, els, logical=False)
    branch(ctx, els)
    edge(ctx, els, endif, logical=False)
    insert(ctx, endif)
    if preds:
        make_phis(ctx, endif, esc, preds)
    logical_start(ctx, endif)


# -- if -------------------------------------------------------------------------------
def _dest(phi: Instr) -> Value:
    assert phi.dest is not None
    return phi.dest


def select_if(ctx: IselContext, n: If) -> None:
    merge = ctx.cf.next_of[id(n)]
    inside = set(iter_blocks(n.then_list)) | set(iter_blocks(n.else_list))
    esc = escaping_bools(ctx, inside)
    values = [_dest(p) for p in merge.phis] + esc
    if n.cond.divergent:
        if_div(ctx, n, merge, values, esc)
    else:
        if_uni(ctx, n, merge, values, esc)


def if_div(ctx: IselContext, n: If, merge: MBlock, values: list[Value], esc: list[Value]) -> None:
    cond = ctx.lanemask(ctx.comp(n.cond, 0))
    bif = ctx.cur
    logical_end(ctx, bif)
    bif.kind |= K.BRANCH
    ctx.b.cbranch_z(cond, -1, -1)
    invert = new(ctx, K.INVERT)
    endif = new(ctx, K.MERGE | (bif.kind & K.TOP_LEVEL))
    old_div = ctx.cf.divergent_if
    ctx.cf.divergent_if = True
    pe_before = (ctx.cf.pe_break, ctx.cf.pe_continue)
    ctx.cf.divergent_if_depth += 1
    then_l = insert(ctx, new(ctx))
    edge(ctx, bif, then_l)
    logical_start(ctx, then_l)
    stmts(ctx, n.then_list)
    then_end = ctx.cur
    preds: list[tuple[Block, Snap]] = []
    if not ctx.cf.has_divergent_branch:
        preds.append((then_end, _snapshot(ctx, merge, esc)))
    logical_end(ctx, then_end)
    branch(ctx, then_end)
    edge(ctx, then_end, invert, logical=False)
    if not ctx.cf.has_divergent_branch:
        edge(ctx, then_end, endif, linear=False)
    then_end.kind |= K.UNIFORM
    then_div = ctx.cf.has_divergent_branch
    ctx.cf.has_divergent_branch = False
    pe_then = (ctx.cf.pe_break, ctx.cf.pe_continue)
    ctx.cf.pe_break, ctx.cf.pe_continue = pe_before
    ctx.cf.divergent_if_depth -= 1
    then_lin = insert(ctx, new(ctx, K.UNIFORM))
    edge(ctx, bif, then_lin, logical=False)
    branch(ctx, then_lin)
    edge(ctx, then_lin, invert, logical=False)
    insert(ctx, invert)
    branch(ctx, invert)
    ctx.cf.divergent_if_depth += 1
    else_l = insert(ctx, new(ctx))
    edge(ctx, bif, else_l, linear=False)
    edge(ctx, invert, else_l, logical=False)
    logical_start(ctx, else_l)
    stmts(ctx, n.else_list)
    else_end = ctx.cur
    if not ctx.cf.has_divergent_branch:
        preds.append((else_end, _snapshot(ctx, merge, esc)))
    logical_end(ctx, else_end)
    branch(ctx, else_end)
    edge(ctx, else_end, endif, logical=False)
    if not ctx.cf.has_divergent_branch:
        edge(ctx, else_end, endif, linear=False)
    else_end.kind |= K.UNIFORM
    ctx.cf.has_divergent_branch = ctx.cf.has_divergent_branch and then_div
    ctx.cf.divergent_if_depth -= 1
    else_lin = insert(ctx, new(ctx, K.UNIFORM))
    edge(ctx, invert, else_lin, logical=False)
    branch(ctx, else_lin)
    edge(ctx, else_lin, endif, logical=False)
    ctx.cf.divergent_if = old_div
    ctx.cf.pe_break |= pe_then[0]
    ctx.cf.pe_continue |= pe_then[1]
    update_exec_info(ctx)
    insert(ctx, endif)
    if not preds:
        # both sides jump (break/continue/return): the endif has linear
        # predecessors only and what follows it is logically unreachable
        # (ACO's end_divergent_if with a divergent branch on both sides)
        logical_start(ctx, endif)
        for v in values:
            ctx.vmap[v] = [Const(1 if v.bit_size == 1 else v.bit_size, 0)]
        ctx.cf.unreachable = True
        return
    make_phis(ctx, endif, values, preds)
    logical_start(ctx, endif)


def if_uni(ctx: IselContext, n: If, merge: MBlock, values: list[Value], esc: list[Value]) -> None:
    bif = ctx.cur
    scc = ctx.to_scc(ctx.comp(n.cond, 0))
    logical_end(ctx, bif)
    bif.kind |= K.UNIFORM
    ctx.b.pseudo("p_cbranch_z", (), [ctx.scc_op(scc)], targets=[-1, -1])
    endif = new(ctx, bif.kind & K.TOP_LEVEL)
    preds: list[tuple[Block, Snap]] = []
    results = []
    pe_before = (ctx.cf.pe_break, ctx.cf.pe_continue)
    pe_after = pe_before
    ctx.cf.uniform_if_depth += 1
    for side in (n.then_list, n.else_list):
        ctx.cf.pe_break, ctx.cf.pe_continue = pe_before
        blk = insert(ctx, new(ctx))
        edge(ctx, bif, blk)
        logical_start(ctx, blk)
        ctx.cf.has_branch = False
        ctx.cf.has_divergent_branch = False
        stmts(ctx, side)
        end = ctx.cur
        if ctx.cf.has_branch:
            close_dead(ctx)
        else:
            if not ctx.cf.has_divergent_branch:
                preds.append((end, _snapshot(ctx, merge, esc)))
            logical_end(ctx, end)
            branch(ctx, end)
            edge(ctx, end, endif, logical=False)
            if not ctx.cf.has_divergent_branch:
                edge(ctx, end, endif, linear=False)
            end.kind |= K.UNIFORM
        results.append((ctx.cf.has_branch, ctx.cf.has_divergent_branch))
        pe_after = (pe_after[0] or ctx.cf.pe_break, pe_after[1] or ctx.cf.pe_continue)
    ctx.cf.pe_break, ctx.cf.pe_continue = pe_after
    ctx.cf.uniform_if_depth -= 1
    ctx.cf.has_branch = results[0][0] and results[1][0]
    ctx.cf.has_divergent_branch = results[0][1] and results[1][1]
    if ctx.cf.has_branch or not preds:
        # both sides left the loop: what follows is unreachable, but the
        # CFG stays well formed with an endif reached from nowhere logical
        insert(ctx, endif)
        logical_start(ctx, endif)
        make_phis(ctx, endif, [], [])
        for v in values:
            ctx.vmap[v] = [Const(1 if v.bit_size == 1 else v.bit_size, 0)]
        ctx.cf.unreachable = True
        return
    insert(ctx, endif)
    make_phis(ctx, endif, values, preds)
    logical_start(ctx, endif)


# -- loops -------------------------------------------------------------------------------
def select_loop(ctx: IselContext, n: Loop) -> None:
    header_mb = n.body[0]
    assert isinstance(header_mb, MBlock)
    exit_mb = ctx.cf.next_of[id(n)]
    inside = set(iter_blocks(n.body)) | set(iter_blocks(n.cont))
    esc = escaping_bools(ctx, inside) + escaping_from_cont(ctx, inside, n.cont)
    pre = ctx.cur
    pre_snap = _snapshot(ctx, header_mb, [])
    logical_end(ctx, pre)
    pre.kind |= K.LOOP_PREHEADER | K.UNIFORM
    branch(ctx, pre)
    exit_ = new(ctx, K.LOOP_EXIT | (pre.kind & K.TOP_LEVEL))
    ctx.cf.depth += 1
    header = insert(ctx, new(ctx, K.LOOP_HEADER))
    edge(ctx, pre, header)
    lp = LoopInfo(n, header, exit_, pre, header_mb, exit_mb, inside, escaping=esc)
    # header phis: operands appended once the back edges are known
    hphis: list[tuple[Value, int, Instruction]] = []
    ctx.b.at_end(header)
    for phi in header_mb.phis:
        v = phi.dest
        assert v is not None
        rc = ctx.rc(v)
        temps: list[Comp] = []
        # a packed phi is one dword phi; its high half is shifted down after the phis
        for k in range(1 if packed_phi(v) else v.num_components):
            if v.divergent:
                fields = {"boolean": True} if v.bit_size == 1 else {}
                res = ctx.b.pseudo("p_phi", [rc], [ctx.operand(_at(pre_snap[v], k))],
                                   **fields)
                if v.bit_size == 1:
                    ctx.new_lane_mask(res.temp)
            else:
                res = ctx.b.pseudo("p_linear_phi", [rc], [])
            hphis.append((v, k, res.instr))
            temps.append(res.temp)
        ctx.vmap[v] = temps
    logical_start(ctx, header)
    for phi in header_mb.phis:
        v = phi.dest
        if v is not None and packed_phi(v):
            t = ctx.vmap[v][0]
            ctx.vmap[v] = [t, ctx.valu("v_lshrrev_b32", v1, Const(32, 16), t) if v.divergent
                           else ctx.salu("s_lshr_b32", s1, t, Const(32, 16))]
    saved = (ctx.cf.divergent_if, ctx.cf.has_divergent_branch, ctx.cf.pe_break, ctx.cf.pe_continue)
    ctx.cf.divergent_if = False
    ctx.cf.has_divergent_branch = False
    ctx.cf.loops.append(lp)
    if not _breaks_out(n.body) and not _breaks_out(n.cont):
        _exit_guard(ctx, lp)
    stmts(ctx, n.body)
    if not ctx.cf.has_branch:
        last = n.body[-1]
        if isinstance(last, MBlock) and last.jump is None and \
                not ctx.cf.has_divergent_branch:
            run_cont(ctx, lp)
        latch(ctx, lp)
    else:
        close_dead(ctx)
    ctx.cf.has_branch = False
    ctx.cf.loops.pop()
    ctx.cf.divergent_if, ctx.cf.has_divergent_branch, ctx.cf.pe_break, ctx.cf.pe_continue = saved
    update_exec_info(ctx)
    ctx.cf.depth -= 1
    insert(ctx, exit_)
    back = sorted(lp.continues, key=lambda x: x[0].index)
    for v, k, hphi in hphis:
        if hphi.opcode == "p_phi":
            hphi.operands += [ctx.operand(_at(s[v], k)) for _, s in back]
        else:
            ctx.cf.linear_phis.append((header, hphi, {pre.index: _at(pre_snap[v], k), **{
                blk.index: _at(s[v], k) for blk, s in back}}))
    values = [_dest(p) for p in exit_mb.phis] + esc
    if lp.breaks:
        make_phis(ctx, exit_, values, lp.breaks)
    else:
        for v in values:
            ctx.vmap[v] = [Const(1 if v.bit_size == 1 else v.bit_size, 0)]
    logical_start(ctx, exit_)


def _breaks_out(cf: list[CFNode]) -> bool:
    """Whether a ``break`` of this loop (not of a loop nested in it) is in `cf`."""
    for n in cf:
        if isinstance(n, MBlock):
            if n.jump is not None and n.jump.op == "break":
                return True
        elif isinstance(n, If) and (_breaks_out(n.then_list) or _breaks_out(n.else_list)):
            return True
    return False


def _exit_guard(ctx: IselContext, lp: LoopInfo) -> None:
    """A loop without a ``break`` never ends (a trip count of 0 from specialization
    constants' defaults, ``for (;;)``), so its exit block would have no predecessor
    and whatever follows it (an enclosing loop's latch, a divergent if's invert
    block) would be live into a block nothing enters. The header gets an exit taken
    only when EXEC is empty, which never happens inside a loop (entered with live
    lanes, left only through breaks): ``p_cbranch_nz exec`` to the body, else a
    uniform break block. The code after the loop stays unreachable: its values are
    the constants `select_loop` gives them when no MIR break reaches the exit."""
    hdr = ctx.cur
    logical_end(ctx, hdr)
    hdr.kind |= K.UNIFORM
    ctx.b.cbranch_nz(Operand.fixed(PhysReg.of(EXEC), ctx.lm), -1, -1)
    brk = insert(ctx, new(ctx, K.BREAK | K.UNIFORM))
    edge(ctx, hdr, brk)
    logical_start(ctx, brk)
    logical_end(ctx, brk)
    branch(ctx, brk)
    edge(ctx, brk, lp.exit)
    body = insert(ctx, new(ctx))
    edge(ctx, hdr, body)
    logical_start(ctx, body)


def run_cont(ctx: IselContext, lp: LoopInfo) -> None:
    """Inline the loop's continue construct (from the current MIR block)."""
    cont = lp.mir.cont
    if not cont:
        return
    first = cont[0]
    assert isinstance(first, MBlock)
    for phi in first.phis:
        for p, s in zip(phi.preds, phi.srcs, strict=True):
            if p is ctx.cf.mblock:
                ctx.vmap[phi.dest] = list(ctx.get(s))  # type: ignore[index]
                break
    stmts(ctx, cont)


def latch(ctx: IselContext, lp: LoopInfo) -> None:
    latch = ctx.cur
    if not ctx.cf.has_divergent_branch:
        snap = _snapshot(ctx, lp.header_mblock, [])
    logical_end(ctx, latch)
    latch.kind |= K.CONTINUE | K.UNIFORM
    if not ctx.cf.has_divergent_branch:
        edge(ctx, latch, lp.header)
        lp.continues.append((latch, snap))
    else:
        edge(ctx, latch, lp.header, logical=False)
    branch(ctx, latch)


def select_jump(ctx: IselContext, mb: MBlock) -> None:
    is_break = mb.instrs[-1].op == "break"
    lp = ctx.cf.loops[-1]
    if not is_break and lp.mir.cont and not _in_cont(lp, mb):
        # a continue runs the continue construct first
        ctx.cf.mblock = mb
        run_cont(ctx, lp)
        if ctx.cf.has_branch:
            return
        mb = ctx.cf.mblock  # type: ignore[assignment]
        is_break = False
    cur = ctx.cur
    if is_break:
        snap = _snapshot(ctx, lp.exit_mblock, lp.escaping)
    else:
        snap = _snapshot(ctx, lp.header_mblock, [])
    logical_end(ctx, cur)
    if is_break:
        edge(ctx, cur, lp.exit, linear=False)
        lp.breaks.append((cur, snap))
        cur.kind |= K.BREAK
        target = lp.exit
        uniform = not ctx.cf.divergent_if and not lp.has_divergent_continue
    else:
        edge(ctx, cur, lp.header, linear=False)
        lp.continues.append((cur, snap))
        cur.kind |= K.CONTINUE
        target = lp.header
        uniform = not ctx.cf.divergent_if
    if uniform:
        cur.kind |= K.UNIFORM
        ctx.cf.has_branch = True
        branch(ctx, cur)
        edge(ctx, cur, target, logical=False)
        return
    if not is_break:
        lp.has_divergent_continue = True
        ctx.cf.pe_continue = True
    else:
        lp.has_divergent_break = True
        ctx.cf.pe_break = True
    ctx.cf.has_divergent_branch = True
    branch(ctx, cur)
    helper = insert(ctx, new(ctx, K.UNIFORM))
    edge(ctx, cur, helper, logical=False)
    edge(ctx, helper, target, logical=False)
    branch(ctx, helper)
    cont = insert(ctx, new(ctx))
    edge(ctx, cur, cont, logical=False)
    logical_start(ctx, cont)


def _in_cont(lp: LoopInfo, mb: MBlock) -> bool:
    return any(b is mb for b in iter_blocks(lp.mir.cont))


# -- finishing ------------------------------------------------------------------------------
def finish_cfg(ctx: IselContext) -> None:
    p: Program = ctx.p
    for a, b, logical, linear in ctx.cf.edges:
        if logical and b.index not in a.logical_succs:
            a.logical_succs.append(b.index)
            b.logical_preds.append(a.index)
        if linear and b.index not in a.linear_succs:
            a.linear_succs.append(b.index)
            b.linear_preds.append(a.index)
    for b in p.blocks:
        for lst in (b.logical_preds, b.logical_succs, b.linear_preds, b.linear_succs):
            lst.sort()
        br = b.instructions[-1] if b.instructions else None
        if br is not None and br.opcode == "p_branch":
            br.fields["targets"] = [b.linear_succs[0]]
        elif br is not None and br.opcode in ("p_cbranch_z", "p_cbranch_nz"):
            br.fields["targets"] = [b.linear_succs[1], b.linear_succs[0]]
    for block, phi, ops in ctx.cf.linear_phis:
        rc = phi.definitions[0].rc  # type: ignore[attr-defined]
        new = []
        for q in block.linear_preds:
            o = ops.get(q)
            new.append(Operand(rc=rc, undef=True) if o is None else ctx.operand(o))
        phi.operands = new  # type: ignore[attr-defined]


def _at(comps: list[Comp], k: int) -> Comp:
    return comps[k] if len(comps) > 1 else comps[0]
