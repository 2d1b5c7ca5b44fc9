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

from dataclasses import dataclass, field

from radcc.frontend.mir import Block as MBlock
from radcc.frontend.mir import CFNode, If, Loop, Value, iter_blocks
from radcc.ir.program import Block, BlockKind, Operand, Program
from radcc.ir.regclass import EXEC, PhysReg, Temp

from .context import Comp, Const, IselBase, IselError

K = BlockKind
Snap = dict[Value, list[Comp]]


@dataclass
class _Loop:
    mir: Loop
    header: Block
    exit: Block
    preheader: Block
    header_mblock: MBlock
    exit_mblock: MBlock | None
    inside: set[MBlock]
    continues: list[tuple[Block, Snap]] = field(default_factory=list)
    breaks: list[tuple[Block, Snap]] = field(default_factory=list)
    has_divergent_continue: bool = False
    has_divergent_break: bool = False
    escaping: list[Value] = field(default_factory=list)  # phis at the exit besides the MIR's


class CfMixin(IselBase):
    """Control flow of the selection (see module docstring)."""

    edges: list[tuple[Block, Block, bool, bool]]

    def init_cf(self) -> None:
        self.edges = []
        self.depth = 0
        self.loops: list[_Loop] = []
        self.divergent_if = False
        self.has_branch = False
        self.has_divergent_branch = False
        self.pe_break = self.pe_continue = False
        # set by an if whose both sides jump: the rest of the statement list is dead
        self.unreachable = False
        self.mblock: MBlock | None = None
        self.next_of: dict[int, MBlock] = {}  # id(If/Loop) -> block after it
        self.prev_of: dict[int, MBlock] = {}
        self.uses: dict[Value, set[MBlock]] = {}
        self.linear_phis: list[tuple[Block, object, dict[int, Comp | None]]] = []

    # -- structure ---------------------------------------------------------------
    def analyze_structure(self, body: list[CFNode]) -> None:
        def walk(cf: list[CFNode]) -> None:
            for i, n in enumerate(cf):
                if isinstance(n, MBlock):
                    for ins in n.instrs:
                        if ins.op == "phi":
                            for p, s in zip(ins.preds, ins.srcs, strict=True):
                                self.uses.setdefault(s, set()).add(p)
                        else:
                            for s in ins.srcs:
                                self.uses.setdefault(s, set()).add(n)
                    continue
                nxt, prv = cf[i + 1], cf[i - 1]
                assert isinstance(nxt, MBlock) and isinstance(prv, MBlock)
                self.next_of[id(n)] = nxt
                self.prev_of[id(n)] = prv
                if isinstance(n, If):
                    self.uses.setdefault(n.cond, set()).add(prv)
                    walk(n.then_list)
                    walk(n.else_list)
                else:
                    walk(n.body)
                    walk(n.cont)
        walk(body)

    def escaping_bools(self, inside: set[MBlock]) -> list[Value]:
        """Divergent booleans defined in `inside` and used outside it."""
        out = []
        for b in inside:
            for ins in b.instrs:
                v = ins.dest
                if v is None or v.bit_size != 1 or not v.divergent:
                    continue
                if any(u not in inside for u in self.uses.get(v, ())):
                    out.append(v)
        out.sort(key=lambda v: v.index)
        return out

    def escaping_from_cont(self, inside: set[MBlock], cont: list[CFNode]) -> list[Value]:
        """Values of any type defined in a continue construct and used after the loop.
        The construct is inlined at each ``continue`` and at the end of the body, so
        such a value has one definition per copy: the exit needs a phi of them (the
        MIR has none: there the construct's breaks all follow its one definition)."""
        blocks = set(iter_blocks(cont))
        out = []
        for b in blocks:
            for ins in b.instrs:
                v = ins.dest
                if v is None or (v.bit_size == 1 and v.divergent):
                    continue  # divergent booleans: escaping_bools
                if any(u not in inside for u in self.uses.get(v, ())):
                    out.append(v)
        out.sort(key=lambda v: v.index)
        return out

    # -- blocks -------------------------------------------------------------------
    def new(self, kind: BlockKind = K.NONE) -> Block:
        return Block(-1, kind=kind)

    def insert(self, b: Block) -> Block:
        b.index = len(self.p.blocks)
        b.loop_nest_depth = self.depth
        self.p.blocks.append(b)
        return b

    def edge(self, a: Block, b: Block, logical: bool = True, linear: bool = True) -> None:
        self.edges.append((a, b, logical, linear))

    def goto(self, b: Block) -> None:
        self.cur = b
        self.b.at_end(b)

    def logical_start(self, b: Block) -> None:
        self.goto(b)
        self.b.logical_start()

    def logical_end(self, b: Block) -> None:
        self.b.at_end(b)
        self.b.logical_end()

    def branch(self, b: Block) -> None:
        self.b.at_end(b)
        self.b.branch(-1)

    # -- phi operands ---------------------------------------------------------------
    def _snapshot(self, target: MBlock | None, extra: list[Value]) -> Snap:
        """The operands the phis of `target` (and the escaping values `extra`) take
        on the edge from the current MIR block; converted to the phi's class here,
        in the predecessor's logical part."""
        snap: Snap = {}
        if target is not None:
            for phi in target.phis:
                for p, s in zip(phi.preds, phi.srcs, strict=True):
                    if p is self.mblock:
                        snap[phi.dest] = self._phi_operand(phi.dest, s)  # type: ignore
                        break
        for v in extra:
            if v in self.vmap:
                snap[v] = self._phi_operand(v, v)
        return snap

    def _phi_operand(self, dest: Value, src: Value) -> list[Comp]:
        return [self._phi_comp(dest, c) for c in self.get(src)]

    def _phi_comp(self, dest: Value, c: Comp) -> Comp:
        if dest.bit_size == 1:
            if dest.divergent:
                return self.lanemask(c)
            return self.ubool(c) if not isinstance(c, Const) else self.sgpr(Const(32, c.value))
        return self.to_class(c, self.rc(dest))

    def make_phis(self, block: Block, values: list[Value], preds: list[tuple[Block, Snap]],
                  linear_single: bool = False) -> None:
        """Phis at `block` for `values` (each snapshot is one logical predecessor)."""
        preds = sorted(preds, key=lambda x: x[0].index)
        for v in values:
            got = [s.get(v) for _, s in preds]
            if any(o is None for o in got):
                raise IselError(f"instruction selection: no value for %{v.index} on an edge")
            comps = []
            for k in range(v.num_components):
                ops = [g[k] if len(g) > 1 else g[0] for g in got]  # type: ignore[index]
                comps.append(self._make_phi(block, v, ops, preds))
            self.vmap[v] = comps

    def _make_phi(self, block: Block, v: Value, ops: list[Comp],
                  preds: list[tuple[Block, Snap]]) -> Temp:
        rc = self.rc(v)
        self.b.at_end(block)
        if v.divergent:
            fields = {"boolean": True} if v.bit_size == 1 else {}
            t = self.b.pseudo("p_phi", [rc], [self.operand(o) for o in ops], **fields).temp
            if v.bit_size == 1:
                self.new_lane_mask(t)
            return t
        res = self.b.pseudo("p_linear_phi", [rc], [])
        # operands follow the linear predecessors, filled in by `finish_cfg`
        self.linear_phis.append((block, res.instr, {
            b.index: o for (b, _), o in zip(preds, ops, strict=True)}))
        return res.temp

    # -- statements -------------------------------------------------------------------
    def stmts(self, lst: list[CFNode]) -> None:
        skip: tuple | None = None
        for i, n in enumerate(lst):
            is_jump_block = isinstance(n, MBlock) and n.jump is not None
            if is_jump_block and skip is not None:
                # the jump itself stays outside the skipped region
                self.select_block(n, jump=False)
                self.end_skip(skip)
                skip = None
                self.jump(n)
                continue
            if isinstance(n, MBlock):
                self.select_block(n)
            elif isinstance(n, If):
                self.select_if(n)
                if self.unreachable:
                    # both sides jumped: nothing after the if runs (NIR would have
                    # removed it); its values only reach phis of dead edges
                    self.unreachable = False
                    break
            else:
                self.select_loop(n)
            rest = lst[i + 1:]
            if skip is None and self.exec_empty() and rest and not self._trivial(rest):
                skip = self.begin_skip(rest)
        if skip is not None:
            self.end_skip(skip)

    @staticmethod
    def _trivial(rest: list[CFNode]) -> bool:
        """Nothing but phis and jumps: no code to skip."""
        return all(isinstance(n, MBlock) and all(x.op in ("phi", "break", "continue")
                                                 for x in n.instrs) for n in rest)

    def select_block(self, mb: MBlock, jump: bool = True) -> None:
        self.mblock = mb
        for ins in mb.instrs:
            if ins.op == "phi":
                continue
            if ins.op in ("break", "continue"):
                if jump:
                    self.jump(mb)
                continue
            self.select_instr(ins)

    def select_instr(self, ins: object) -> None:  # provided by the selector
        raise NotImplementedError

    # -- empty-exec skip (ACO's begin/end_empty_exec_skip) -------------------------------
    def exec_empty(self) -> bool:
        return self.pe_break or self.pe_continue

    def update_exec_info(self) -> None:
        lp = self.loops[-1] if self.loops else None
        if not self.divergent_if and not (lp is not None and lp.has_divergent_continue):
            self.pe_break = False
        if not self.divergent_if:
            self.pe_continue = False

    def begin_skip(self, rest: list[CFNode]) -> tuple:
        bif = self.cur
        self.logical_end(bif)
        bif.kind |= K.UNIFORM
        self.b.cbranch_z(Operand.fixed(PhysReg.of(EXEC), self.lm), -1, -1)
        endif = self.new(bif.kind & K.TOP_LEVEL)
        then = self.insert(self.new())
        self.edge(bif, then)
        self.logical_start(then)
        self.pe_break = self.pe_continue = False
        inside = set(iter_blocks(rest))
        return bif, endif, self.escaping_bools(inside)

    def end_skip(self, skip: tuple) -> None:
        bif, endif, esc = skip
        then_end = self.cur
        snap = self._snapshot(None, esc)
        self.logical_end(then_end)
        self.branch(then_end)
        self.edge(then_end, endif, logical=False)
        preds = []
        if not self.has_divergent_branch:
            self.edge(then_end, endif, linear=False)
            preds.append((then_end, snap))
        then_end.kind |= K.UNIFORM
        # a region that ended in a jump on every path leaves the endif logically
        # unreachable: has_divergent_branch stays set for the enclosing construct
        els = self.insert(self.new(K.UNIFORM))
        self.edge(bif, els, logical=False)
        self.branch(els)
        self.edge(els, endif, logical=False)
        self.insert(endif)
        if preds:
            self.make_phis(endif, esc, preds)
        self.logical_start(endif)

    # -- if -------------------------------------------------------------------------------
    def select_if(self, n: If) -> None:
        merge = self.next_of[id(n)]
        inside = set(iter_blocks(n.then_list)) | set(iter_blocks(n.else_list))
        esc = self.escaping_bools(inside)
        values = [p.dest for p in merge.phis] + esc  # type: ignore[misc]
        if n.cond.divergent:
            self.if_div(n, merge, values, esc)
        else:
            self.if_uni(n, merge, values, esc)

    def if_div(self, n: If, merge: MBlock, values: list[Value], esc: list[Value]) -> None:
        cond = self.lanemask(self.comp(n.cond, 0))
        bif = self.cur
        self.logical_end(bif)
        bif.kind |= K.BRANCH
        self.b.cbranch_z(cond, -1, -1)
        invert = self.new(K.INVERT)
        endif = self.new(K.MERGE | (bif.kind & K.TOP_LEVEL))
        old_div = self.divergent_if
        self.divergent_if = True
        pe_before = (self.pe_break, self.pe_continue)
        then_l = self.insert(self.new())
        self.edge(bif, then_l)
        self.logical_start(then_l)
        self.stmts(n.then_list)
        then_end = self.cur
        preds: list[tuple[Block, Snap]] = []
        if not self.has_divergent_branch:
            preds.append((then_end, self._snapshot(merge, esc)))
        self.logical_end(then_end)
        self.branch(then_end)
        self.edge(then_end, invert, logical=False)
        if not self.has_divergent_branch:
            self.edge(then_end, endif, linear=False)
        then_end.kind |= K.UNIFORM
        then_div = self.has_divergent_branch
        self.has_divergent_branch = False
        pe_then = (self.pe_break, self.pe_continue)
        self.pe_break, self.pe_continue = pe_before
        then_lin = self.insert(self.new(K.UNIFORM))
        self.edge(bif, then_lin, logical=False)
        self.branch(then_lin)
        self.edge(then_lin, invert, logical=False)
        self.insert(invert)
        self.branch(invert)
        else_l = self.insert(self.new())
        self.edge(bif, else_l, linear=False)
        self.edge(invert, else_l, logical=False)
        self.logical_start(else_l)
        self.stmts(n.else_list)
        else_end = self.cur
        if not self.has_divergent_branch:
            preds.append((else_end, self._snapshot(merge, esc)))
        self.logical_end(else_end)
        self.branch(else_end)
        self.edge(else_end, endif, logical=False)
        if not self.has_divergent_branch:
            self.edge(else_end, endif, linear=False)
        else_end.kind |= K.UNIFORM
        self.has_divergent_branch = self.has_divergent_branch and then_div
        else_lin = self.insert(self.new(K.UNIFORM))
        self.edge(invert, else_lin, logical=False)
        self.branch(else_lin)
        self.edge(else_lin, endif, logical=False)
        self.divergent_if = old_div
        self.pe_break |= pe_then[0]
        self.pe_continue |= pe_then[1]
        self.update_exec_info()
        self.insert(endif)
        if not preds:
            # both sides jump (break/continue/return): the endif has linear
            # predecessors only and what follows it is logically unreachable
            # (ACO's end_divergent_if with a divergent branch on both sides)
            self.logical_start(endif)
            for v in values:
                self.vmap[v] = [Const(1 if v.bit_size == 1 else v.bit_size, 0)]
            self.unreachable = True
            return
        self.make_phis(endif, values, preds)
        self.logical_start(endif)

    def if_uni(self, n: If, merge: MBlock, values: list[Value], esc: list[Value]) -> None:
        bif = self.cur
        scc = self.to_scc(self.comp(n.cond, 0))
        self.logical_end(bif)
        bif.kind |= K.UNIFORM
        self.b.pseudo("p_cbranch_z", (), [self.scc_op(scc)], targets=[-1, -1])
        endif = self.new(bif.kind & K.TOP_LEVEL)
        preds: list[tuple[Block, Snap]] = []
        results = []
        pe_before = (self.pe_break, self.pe_continue)
        pe_after = pe_before
        for side in (n.then_list, n.else_list):
            self.pe_break, self.pe_continue = pe_before
            blk = self.insert(self.new())
            self.edge(bif, blk)
            self.logical_start(blk)
            self.has_branch = False
            self.has_divergent_branch = False
            self.stmts(side)
            end = self.cur
            if not self.has_branch:
                if not self.has_divergent_branch:
                    preds.append((end, self._snapshot(merge, esc)))
                self.logical_end(end)
                self.branch(end)
                self.edge(end, endif, logical=False)
                if not self.has_divergent_branch:
                    self.edge(end, endif, linear=False)
                end.kind |= K.UNIFORM
            results.append((self.has_branch, self.has_divergent_branch))
            pe_after = (pe_after[0] or self.pe_break, pe_after[1] or self.pe_continue)
        self.pe_break, self.pe_continue = pe_after
        self.has_branch = results[0][0] and results[1][0]
        self.has_divergent_branch = results[0][1] and results[1][1]
        if self.has_branch or not preds:
            # both sides left the loop: what follows is unreachable, but the
            # CFG stays well formed with an endif reached from nowhere logical
            self.insert(endif)
            self.logical_start(endif)
            self.make_phis(endif, [], [])
            for v in values:
                self.vmap[v] = [Const(1 if v.bit_size == 1 else v.bit_size, 0)]
            self.unreachable = True
            return
        self.insert(endif)
        self.make_phis(endif, values, preds)
        self.logical_start(endif)

    # -- loops -------------------------------------------------------------------------------
    def select_loop(self, n: Loop) -> None:
        header_mb = n.body[0]
        assert isinstance(header_mb, MBlock)
        exit_mb = self.next_of[id(n)]
        inside = set(iter_blocks(n.body)) | set(iter_blocks(n.cont))
        esc = self.escaping_bools(inside) + self.escaping_from_cont(inside, n.cont)
        pre = self.cur
        pre_snap = self._snapshot(header_mb, [])
        self.logical_end(pre)
        pre.kind |= K.LOOP_PREHEADER | K.UNIFORM
        self.branch(pre)
        exit_ = self.new(K.LOOP_EXIT | (pre.kind & K.TOP_LEVEL))
        self.depth += 1
        header = self.insert(self.new(K.LOOP_HEADER))
        self.edge(pre, header)
        lp = _Loop(n, header, exit_, pre, header_mb, exit_mb, inside, escaping=esc)
        # header phis: operands appended once the back edges are known
        hphis = []
        self.b.at_end(header)
        for phi in header_mb.phis:
            v = phi.dest
            assert v is not None
            rc = self.rc(v)
            temps = []
            for k in range(v.num_components):
                if v.divergent:
                    fields = {"boolean": True} if v.bit_size == 1 else {}
                    res = self.b.pseudo("p_phi", [rc], [self.operand(_at(pre_snap[v], k))],
                                        **fields)
                    if v.bit_size == 1:
                        self.new_lane_mask(res.temp)
                else:
                    res = self.b.pseudo("p_linear_phi", [rc], [])
                hphis.append((v, k, res.instr))
                temps.append(res.temp)
            self.vmap[v] = temps
        self.logical_start(header)
        saved = (self.divergent_if, self.has_divergent_branch, self.pe_break, self.pe_continue)
        self.divergent_if = False
        self.has_divergent_branch = False
        self.loops.append(lp)
        self.stmts(n.body)
        if not self.has_branch:
            last = n.body[-1]
            if isinstance(last, MBlock) and last.jump is None and \
                    not self.has_divergent_branch:
                self.run_cont(lp)
            self.latch(lp)
        self.has_branch = False
        self.loops.pop()
        self.divergent_if, self.has_divergent_branch, self.pe_break, self.pe_continue = saved
        self.update_exec_info()
        self.depth -= 1
        self.insert(exit_)
        back = sorted(lp.continues, key=lambda x: x[0].index)
        for v, k, phi in hphis:
            if phi.opcode == "p_phi":
                phi.operands += [self.operand(_at(s[v], k)) for _, s in back]
            else:
                self.linear_phis.append((header, phi, {pre.index: _at(pre_snap[v], k), **{
                    blk.index: _at(s[v], k) for blk, s in back}}))
        values = [p.dest for p in exit_mb.phis] + esc  # type: ignore[misc]
        if lp.breaks:
            self.make_phis(exit_, values, lp.breaks)
        else:
            for v in values:
                self.vmap[v] = [Const(1 if v.bit_size == 1 else v.bit_size, 0)]
        self.logical_start(exit_)

    def run_cont(self, lp: _Loop) -> None:
        """Inline the loop's continue construct (from the current MIR block)."""
        cont = lp.mir.cont
        if not cont:
            return
        first = cont[0]
        assert isinstance(first, MBlock)
        for phi in first.phis:
            for p, s in zip(phi.preds, phi.srcs, strict=True):
                if p is self.mblock:
                    self.vmap[phi.dest] = list(self.get(s))  # type: ignore[index]
                    break
        self.stmts(cont)

    def latch(self, lp: _Loop) -> None:
        latch = self.cur
        if not self.has_divergent_branch:
            snap = self._snapshot(lp.header_mblock, [])
        self.logical_end(latch)
        latch.kind |= K.CONTINUE | K.UNIFORM
        if not self.has_divergent_branch:
            self.edge(latch, lp.header)
            lp.continues.append((latch, snap))
        else:
            self.edge(latch, lp.header, logical=False)
        self.branch(latch)

    def jump(self, mb: MBlock) -> None:
        is_break = mb.instrs[-1].op == "break"
        lp = self.loops[-1]
        if not is_break and lp.mir.cont and not self._in_cont(lp, mb):
            # a continue runs the continue construct first
            self.mblock = mb
            self.run_cont(lp)
            if self.has_branch:
                return
            mb = self.mblock  # type: ignore[assignment]
            is_break = False
        cur = self.cur
        if is_break:
            snap = self._snapshot(lp.exit_mblock, lp.escaping)
        else:
            snap = self._snapshot(lp.header_mblock, [])
        self.logical_end(cur)
        if is_break:
            self.edge(cur, lp.exit, linear=False)
            lp.breaks.append((cur, snap))
            cur.kind |= K.BREAK
            target = lp.exit
            uniform = not self.divergent_if and not lp.has_divergent_continue
        else:
            self.edge(cur, lp.header, linear=False)
            lp.continues.append((cur, snap))
            cur.kind |= K.CONTINUE
            target = lp.header
            uniform = not self.divergent_if
        if uniform:
            cur.kind |= K.UNIFORM
            self.has_branch = True
            self.branch(cur)
            self.edge(cur, target, logical=False)
            return
        if not is_break:
            lp.has_divergent_continue = True
            self.pe_continue = True
        else:
            lp.has_divergent_break = True
            self.pe_break = True
        self.has_divergent_branch = True
        self.branch(cur)
        helper = self.insert(self.new(K.UNIFORM))
        self.edge(cur, helper, logical=False)
        self.edge(helper, target, logical=False)
        self.branch(helper)
        cont = self.insert(self.new())
        self.edge(cur, cont, logical=False)
        self.logical_start(cont)

    @staticmethod
    def _in_cont(lp: _Loop, mb: MBlock) -> bool:
        return any(b is mb for b in iter_blocks(lp.mir.cont))

    # -- finishing ------------------------------------------------------------------------------
    def finish_cfg(self) -> None:
        p: Program = self.p
        for a, b, logical, linear in self.edges:
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
        for block, phi, ops in self.linear_phis:
            rc = phi.definitions[0].rc  # type: ignore[attr-defined]
            new = []
            for q in block.linear_preds:
                o = ops.get(q)
                new.append(Operand(rc=rc, undef=True) if o is None else self.operand(o))
            phi.operands = new  # type: ignore[attr-defined]


def _at(comps: list[Comp], k: int) -> Comp:
    return comps[k] if len(comps) > 1 else comps[0]
