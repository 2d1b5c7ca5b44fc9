"""Structured test programs in the machine IR, shaped as ACO's instruction
selection shapes control flow (docs/ir.md "Control flow as isel produces
it"): a tiny "isel" from a statement tree, and a random tree generator.

Statements (tuples):

- ``("vop", dst, src, op, k)``: VGPR ``dst = src <op> k`` (add, sub, xor, and, or, mul);
- ``("bcmp", b, src, rel, k)``: boolean ``b = src <rel> k`` (v_cmp, a lane mask);
- ``("bnot", b, c)`` / ``("band", b, c, d)``: lane-mask SALU ops;
- ``("obs", tag)``: ``p_unit_test tag, <every variable>`` (booleans as 0/1 VGPRs);
- ``("if", "div", b, then, else)``: divergent if on boolean variable b;
- ``("if", "uni", (s, rel, k), then, else)``: uniform if on SGPR input s;
- ``("loop", limit, body)``: a loop; its own counter is incremented first
  and the loop breaks (divergently) once it exceeds ``limit & 7`` (VGPR
  variable `limit` before the loop);
- ``("uloop", n, body)``: a loop with an SGPR counter (``p_linear_phi``)
  and a uniform break once the counter exceeds the constant n: its only
  divergent jumps are the body's;
- ``("break",)`` / ``("continue",)``: last statement of an if side in a loop;
- ``("discard", b)`` / ``("demote", b)``: ``p_discard_if`` /
  ``p_demote_to_helper`` on boolean b (``"all"``: the constant -1), docs/ir.md
  "Discards": the lanes whose bit is set end;
- ``("store",)``: the kernel stores its hash to ``out[gid]`` now (`build`: a
  ``p_unit_test`` marker, `STORE_MARK`); every program ends with one, so a
  lane that is discarded leaves the hash of its last store (0 if none).

Variables: VGPRs ``v0..`` (initialised from the inputs), booleans ``b0..``,
SGPR inputs ``s0..``. `build(tree, nv, nb, ns, wave)` returns the program;
its inputs are VGPR ``v0`` .. then SGPRs (see `inputs_for`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from radcc.ir.builder import Builder
from radcc.ir.program import Block, BlockKind, Instruction, Operand, Program
from radcc.ir.regclass import PhysReg, Temp, s1, s2, v1
from radcc.target import get_target

STORE_MARK = 0x5701E
_VOPS = {"add": "v_add_nc_u32", "sub": "v_sub_nc_u32", "xor": "v_xor_b32", "and": "v_and_b32",
         "or": "v_or_b32", "mul": "v_mul_lo_u32"}
K = BlockKind


@dataclass
class _Loop:
    header: Block
    exit: Block
    preheader: Block
    phis: dict[str, object] = field(default_factory=dict)
    continues: list[tuple[Block, dict]] = field(default_factory=list)
    breaks: list[tuple[Block, dict]] = field(default_factory=list)
    has_divergent_continue: bool = False


class Gen:
    def __init__(self, nv: int, nb: int, ns: int, wave: int, abi_lanes: int = 0) -> None:
        self.p = Program(get_target("gfx1100"), wave_size=wave)
        self.abi_lanes = abi_lanes  # > 0: a kernel (see `build_kernel`)
        self.lm = self.p.lane_mask
        self.edges: list[tuple[Block, Block, bool, bool]] = []
        self.depth = 0
        self.loops: list[_Loop] = []
        self.divergent_if = False
        self.has_branch = False
        self.has_divergent_branch = False
        self.nv, self.nb, self.ns = nv, nb, ns
        self.pe_break = self.pe_continue = False  # EXEC potentially empty
        self.pe_discard = False  # ... after a discard in divergent control flow
        self.counter = 0
        # SGPR loop counters: (header, preheader, phi, initial value, next value)
        self.linear_phis: list[tuple[Block, Block, Instruction, Temp, Temp]] = []

    # -- blocks ------------------------------------------------------------------
    def new(self, kind: BlockKind = K.NONE) -> Block:
        return Block(-1, kind=kind)

    def insert(self, b: Block) -> Block:
        b.index = len(self.p.blocks)
        b.loop_nest_depth = self.depth
        self.p.blocks.append(b)
        return b

    def edge(self, a: Block, b: Block, logical: bool = True, linear: bool = True) -> None:
        self.edges.append((a, b, logical, linear))

    def bld(self, b: Block) -> Builder:
        return Builder(self.p, b)

    def logical_start(self, b: Block) -> None:
        self.bld(b).logical_start()

    def logical_end(self, b: Block) -> None:
        self.bld(b).logical_end()

    def branch(self, b: Block) -> None:
        self.bld(b).branch(-1)

    # -- statements ----------------------------------------------------------------
    def stmts(self, lst: list, env: dict) -> dict:
        skip: tuple[Block, Block, dict] | None = None
        for i, s in enumerate(lst):
            if s[0] in ("break", "continue") and skip is not None:
                env = self.end_skip(skip, env)
                skip = None
            env = self.stmt(s, env)
            rest = lst[i + 1:]
            if skip is None and self.exec_empty() and rest and rest[0][0] not in ("break",
                                                                                  "continue"):
                skip = self.begin_skip(env)
        if skip is not None:
            env = self.end_skip(skip, env)
        return env

    # -- empty-exec skip (ACO's begin/end_empty_exec_skip) -------------------------
    def exec_empty(self) -> bool:
        return self.pe_break or self.pe_continue

    def update_exec_info(self) -> None:
        lp = self.loops[-1] if self.loops else None
        if not self.divergent_if and not (lp is not None and lp.has_divergent_continue):
            self.pe_break = False
        if not self.divergent_if:
            self.pe_continue = False

    def begin_skip(self, env: dict) -> tuple[Block, Block, dict]:
        """A uniform branch over the rest of the list when EXEC is empty:
        then side logical, else side linear only (``p_cbranch_z exec``)."""
        bif = self.cur
        self.logical_end(bif)
        bif.kind |= K.UNIFORM
        self.bld(bif).cbranch_z(Operand.fixed(PhysReg.of(126), self.lm), -1, -1)
        endif = self.new(bif.kind & K.TOP_LEVEL)
        then = self.insert(self.new())
        self.edge(bif, then)
        self.logical_start(then)
        self.cur = then
        self.pe_break = self.pe_continue = False
        return bif, endif, env

    def end_skip(self, skip: tuple[Block, Block, dict], env: dict) -> dict:
        bif, endif, before = skip
        then_end = self.cur
        self.logical_end(then_end)
        self.branch(then_end)
        self.edge(then_end, endif, logical=False)
        preds = []
        if not self.has_divergent_branch:
            self.edge(then_end, endif, linear=False)
            preds.append(env)
        then_end.kind |= K.UNIFORM
        self.has_divergent_branch = False
        els = self.insert(self.new(K.UNIFORM))
        self.edge(bif, els, logical=False)
        self.branch(els)
        self.edge(els, endif, logical=False)
        self.insert(endif)
        assert preds
        env = self.phis(endif, preds, self.var_names(), before)
        self.logical_start(endif)
        self.cur = endif
        return env

    def stmt(self, s: tuple, env: dict) -> dict:
        b = self.bld(self.cur)
        env = dict(env)
        op = s[0]
        if op == "vop":
            _, dst, src, o, k = s
            env[dst] = b.vop2(_VOPS[o], v1, Operand.c32(k), env[src]).temp if o != "mul" else \
                b.vop3(_VOPS[o], v1, env[src], Operand.c32(k)).temp
        elif op == "bcmp":
            _, dst, src, rel, k = s
            env[dst] = b.vop3(f"v_cmp_{rel}_u32", self.lm, env[src], Operand.c32(k)).temp
        elif op == "bnot":
            env[s[1]] = b.sop1(f"s_not_b{self.p.wave_size}", self.lm, env[s[2]]).temp
        elif op == "band":
            env[s[1]] = b.sop2(f"s_and_b{self.p.wave_size}", self.lm, env[s[2]],
                               env[s[3]]).temp
        elif op == "obs" and self.abi_lanes:
            self.obs_hash(s[1], env)
        elif op == "obs":
            ops = [Operand.c32(s[1])]
            for name in self.var_names():
                if name not in env:
                    continue
                if name.startswith("b"):
                    ops.append(Operand(b.vop3("v_cndmask_b32", v1, Operand.c32(0),
                                              Operand.c32(1), env[name]).temp))
                elif name.startswith("v"):
                    ops.append(Operand(env[name]))
            b.pseudo("p_unit_test", (), ops)
        elif op == "if":
            env = self.if_div(s, env) if s[1] == "div" else self.if_uni(s, env)
        elif op in ("loop", "uloop"):
            env = self.loop(s, env)
        elif op in ("break", "continue"):
            self.jump(op == "break", env)
        elif op in ("discard", "demote"):
            cond = Operand.c32(-1) if s[1] == "all" else Operand(env[s[1]])
            b.pseudo("p_discard_if" if op == "discard" else "p_demote_to_helper", (), [cond])
            self.pe_discard |= self.divergent_if or bool(self.loops)
        elif op == "store":
            self.store(env)
        else:
            raise ValueError(s)
        return env

    def store(self, env: dict) -> None:
        b = self.bld(self.cur)
        if self.abi_lanes:
            off = b.vop2("v_lshlrev_b32", v1, Operand.c32(2), self.gid).temp
            b.inst("global_store_b32", [], [off, env["h"], self.out])
        else:
            b.pseudo("p_unit_test", (), [Operand.c32(STORE_MARK)])

    def var_names(self) -> list[str]:
        return [f"v{i}" for i in range(self.nv)] + [f"b{i}" for i in range(self.nb)] + \
            [f"c{i}" for i in range(self.counter)] + (["h"] if self.abi_lanes else [])

    def obs_hash(self, tag: int, env: dict) -> None:
        """The kernel's observation: fold the tag and every variable into the
        per-lane hash ``h = h * 33 + x`` (`fold_observations`)."""
        b = self.bld(self.cur)
        xs: list[Operand] = [Operand.c32(tag)]
        for name in self.var_names():
            if name not in env:
                continue
            if name.startswith("b"):
                xs.append(Operand(b.vop3("v_cndmask_b32", v1, Operand.c32(0), Operand.c32(1),
                                         env[name]).temp))
            elif name.startswith("v"):  # as p_unit_test: not the loop counters
                xs.append(Operand(env[name]))
        h = env["h"]
        for x in xs:
            t = b.vop3("v_mul_lo_u32", v1, h, Operand.c32(33)).temp
            h = b.vop2("v_add_nc_u32", v1, x, t).temp
        env["h"] = h

    def phis(self, block: Block, envs: list[dict], names: list[str],
             before: dict | None = None) -> dict:
        """Phis at `block` merging `envs` (one per logical predecessor, in order).
        A boolean changed since `before` gets a phi even from one predecessor:
        a lane mask is an SGPR, its definition need not dominate the merge in
        the linear CFG (the repair_ssa case of ACO's README.md); lower_phis repairs it."""
        env = dict(envs[0])
        for name in names:
            if not all(name in e for e in envs):
                env.pop(name, None)
                continue
            vals = [e[name] for e in envs]
            changed = name.startswith("b") and (before is None or before.get(name) != vals[0])
            if all(v == vals[0] for v in vals) and not changed:
                continue
            rc = self.lm if name.startswith("b") else v1
            fields = {"boolean": True} if name.startswith("b") else {}
            env[name] = self.bld(block).pseudo("p_phi", [rc], vals, **fields).temp
        return env

    def if_div(self, s: tuple, env: dict) -> dict:
        _, _, cond, then, els = s
        bif = self.cur
        self.logical_end(bif)
        bif.kind |= K.BRANCH
        self.bld(bif).cbranch_z(env[cond], -1, -1)
        invert = self.new(K.INVERT)
        endif = self.new(K.MERGE | (bif.kind & K.TOP_LEVEL))
        old_div = self.divergent_if
        self.divergent_if = True
        pe_before = (self.pe_break, self.pe_continue)
        then_l = self.insert(self.new())
        self.edge(bif, then_l)
        self.logical_start(then_l)
        self.cur = then_l
        env_t = self.stmts(then, env)
        then_end = self.cur
        self.logical_end(then_end)
        self.branch(then_end)
        self.edge(then_end, invert, logical=False)
        preds: list[tuple[Block, dict]] = []
        if not self.has_divergent_branch:
            self.edge(then_end, endif, linear=False)
            preds.append((then_end, env_t))
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
        self.cur = else_l
        env_e = self.stmts(els, env)
        else_end = self.cur
        self.logical_end(else_end)
        self.branch(else_end)
        self.edge(else_end, endif, logical=False)
        if not self.has_divergent_branch:
            self.edge(else_end, endif, linear=False)
            preds.append((else_end, env_e))
        else_end.kind |= K.UNIFORM
        self.has_divergent_branch = self.has_divergent_branch and then_div
        else_lin = self.insert(self.new(K.UNIFORM))
        self.edge(invert, else_lin, logical=False)
        self.branch(else_lin)
        self.edge(else_lin, endif, logical=False)
        self.divergent_if = old_div
        if not old_div and not self.loops:
            self.pe_discard = False  # EXEC: the program's mask again, not empty
        self.pe_break |= pe_then[0]
        self.pe_continue |= pe_then[1]
        self.update_exec_info()
        self.insert(endif)
        assert preds, "both sides of a divergent if leave it"
        preds.sort(key=lambda x: x[0].index)
        env = self.phis(endif, [e for _, e in preds], self.var_names(), env)
        self.logical_start(endif)
        self.cur = endif
        return env

    def if_uni(self, s: tuple, env: dict) -> dict:
        _, _, (sv, rel, k), then, els = s
        bif = self.cur
        b = self.bld(bif)
        scc = b.sopc(f"s_cmp_{rel}_u32", env[sv], Operand.c32(k))
        self.logical_end(bif)
        bif.kind |= K.UNIFORM
        cond = scc.instr.definitions[-1].temp
        b.pseudo("p_cbranch_z", (), [Operand(cond, phys=PhysReg.of(253))], targets=[-1, -1])
        endif = self.new(bif.kind & K.TOP_LEVEL)
        preds: list[tuple[Block, dict]] = []
        results = []
        pe_before = (self.pe_break, self.pe_continue)
        pe_after = pe_before
        for side in (then, els):
            self.pe_break, self.pe_continue = pe_before
            blk = self.insert(self.new())
            self.edge(bif, blk)
            self.logical_start(blk)
            self.cur = blk
            self.has_branch = False
            self.has_divergent_branch = False
            e = self.stmts(side, env)
            end = self.cur
            if not self.has_branch:
                self.logical_end(end)
                self.branch(end)
                self.edge(end, endif, logical=False)
                if not self.has_divergent_branch:
                    self.edge(end, endif, linear=False)
                    preds.append((end, e))
                end.kind |= K.UNIFORM
            results.append((self.has_branch, self.has_divergent_branch))
            pe_after = (pe_after[0] or self.pe_break, pe_after[1] or self.pe_continue)
        self.pe_break, self.pe_continue = pe_after
        self.has_branch = results[0][0] and results[1][0]
        self.has_divergent_branch = results[0][1] and results[1][1]
        assert not self.has_branch, "both sides of a uniform if leave it"
        self.insert(endif)
        assert preds, "both sides of a uniform if leave it"
        env = self.phis(endif, [e for _, e in preds], self.var_names(), env)
        self.logical_start(endif)
        self.cur = endif
        return env

    def loop(self, s: tuple, env: dict) -> dict:
        """A loop: ``("loop", limit, body)`` has a VGPR counter and a divergent
        guard break (once the counter exceeds ``limit & 7``);
        ``("uloop", n, body)`` an SGPR counter (``p_linear_phi`` in the header)
        and a uniform guard break once it exceeds the constant n."""
        kind, limit, body = s
        uniform = kind == "uloop"
        # a discard may empty the loop's lanes (before or inside it): the
        # latch breaks when none is left (ACO's end_loop, continue-or-break),
        # else the divergent breaks, skipped with EXEC, would never run
        discard_latch = not uniform and (self.pe_discard or "'discard'" in repr(body)
                                         or "'demote'" in repr(body))
        env = dict(env)
        if not uniform:
            cname = f"c{self.counter}"
            self.counter += 1
            env[cname] = self.bld(self.cur).vop1("v_mov_b32", v1, Operand.c32(0)).temp
            lim = self.bld(self.cur).vop2("v_and_b32", v1, Operand.c32(7), env[limit]).temp
        else:
            init = self.bld(self.cur).sop1("s_mov_b32", s1, Operand.c32(0), scc=False).temp
        pre = self.cur
        self.logical_end(pre)
        pre.kind |= K.LOOP_PREHEADER | K.UNIFORM
        self.branch(pre)
        exit_ = self.new(K.LOOP_EXIT | (pre.kind & K.TOP_LEVEL))
        self.depth += 1
        header = self.insert(self.new(K.LOOP_HEADER))
        self.edge(pre, header)
        lp = _Loop(header, exit_, pre)
        henv = dict(env)
        hb = self.bld(header)
        for name in self.var_names():
            if name not in env:
                continue
            rc = self.lm if name.startswith("b") else v1
            fields = {"boolean": True} if name.startswith("b") else {}
            phi = hb.pseudo("p_phi", [rc], [env[name]], **fields)
            lp.phis[name] = phi.instr
            henv[name] = phi.temp
        if uniform:
            uphi = hb.pseudo("p_linear_phi", [s1], [init])
        self.logical_start(header)
        saved = (self.divergent_if, self.has_divergent_branch, self.pe_break, self.pe_continue)
        self.divergent_if = False
        self.has_divergent_branch = False
        self.loops.append(lp)
        self.cur = header
        if uniform:
            # the counter and the uniform guard
            inc = self.bld(header).sop2("s_add_u32", s1, uphi.temp, Operand.c32(1)).temp
            self.linear_phis.append((header, pre, uphi.instr, init, inc))
            henv["__uc"] = inc
            body_env = self.stmt(("if", "uni", ("__uc", "gt", limit), [("break",)], []), henv)
        else:
            # the counter and the guard
            henv = self.stmt(("vop", cname, cname, "add", 1), henv)
            g = self.bld(self.cur).vop3("v_cmp_gt_u32", self.lm, henv[cname], lim).temp
            henv["__guard"] = g
            body_env = self.stmt(("if", "div", "__guard", [("break",)], []), henv)
        body_env = self.stmts(body, body_env)
        if not self.has_branch and discard_latch:
            latch = self.cur
            self.logical_end(latch)
            latch.kind |= K.CONTINUE_OR_BREAK | K.UNIFORM
            if not self.has_divergent_branch:
                self.edge(latch, header, linear=False)
                lp.continues.append((latch, body_env))
            self.branch(latch)
            for target in (exit_, header):  # the break helper, the continue helper
                helper = self.insert(self.new(K.UNIFORM))
                self.edge(latch, helper, logical=False)
                self.edge(helper, target, logical=False)
                self.branch(helper)
        elif not self.has_branch:
            latch = self.cur
            self.logical_end(latch)
            latch.kind |= K.CONTINUE | K.UNIFORM
            if not self.has_divergent_branch:
                self.edge(latch, header)
                lp.continues.append((latch, body_env))
            else:
                self.edge(latch, header, logical=False)
            self.branch(latch)
        self.has_branch = False
        self.loops.pop()
        self.divergent_if, self.has_divergent_branch, self.pe_break, self.pe_continue = saved
        if not self.divergent_if and not self.loops:
            self.pe_discard = False
        self.update_exec_info()
        self.depth -= 1
        self.insert(exit_)
        # header phis: preheader first, then the back edges in block order
        back = sorted(lp.continues, key=lambda x: x[0].index)
        for name, phi in lp.phis.items():
            phi.operands += [Operand(e[name]) for _, e in back]
        brk = sorted(lp.breaks, key=lambda x: x[0].index)
        assert brk, "a loop without a break"
        # loop-closed SSA: every boolean leaves the loop through a phi (a lane
        # mask is rewritten for all lanes each iteration, unlike a VGPR)
        env = self.phis(exit_, [e for _, e in brk], self.var_names(), None)
        self.logical_start(exit_)
        self.cur = exit_
        return env

    def jump(self, is_break: bool, env: dict) -> None:
        cur = self.cur
        lp = self.loops[-1]
        self.logical_end(cur)
        if is_break:
            self.edge(cur, lp.exit, linear=False)
            lp.breaks.append((cur, env))
            cur.kind |= K.BREAK
            target = lp.exit
            uniform = not self.divergent_if and not lp.has_divergent_continue
        else:
            self.edge(cur, lp.header, linear=False)
            lp.continues.append((cur, env))
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
        self.cur = cont

    # -- program -------------------------------------------------------------------
    def build(self, tree: list) -> Program:
        entry = self.insert(self.new(K.TOP_LEVEL))
        self.cur = entry
        env = self.kernel_entry(entry) if self.abi_lanes else self.test_entry(entry)
        for i in range(self.nb):
            env[f"b{i}"] = self.bld(entry).vop3("v_cmp_lt_u32", self.lm, env[f"v{i % self.nv}"],
                                                Operand.c32(8 + i)).temp
        env = self.stmts(tree, env)
        self.store(env)
        self.logical_end(self.cur)
        if self.abi_lanes:
            self.bld(self.cur).sopp("s_endpgm")
        self.finish()
        return self.p

    def test_entry(self, entry: Block) -> dict:
        """Inputs as p_startpgm definitions: VGPRs v0.., then SGPRs."""
        defs: list = [(v1, PhysReg.of(256 + i)) for i in range(self.nv)]
        defs += [(s1, PhysReg.of(i)) for i in range(self.ns)]
        start = self.bld(entry).startpgm(*defs)
        env: dict = {}
        for i in range(self.nv):
            env[f"v{i}"] = start[i]
        for i in range(self.ns):
            env[f"s{i}"] = start[self.nv + i]
        self.logical_start(entry)
        return env

    def kernel_entry(self, entry: Block) -> dict:
        """The kernel ABI (docs/abi.md): arguments ``out``, ``inp`` (buffers),
        ``s0``.. (u32) from the kernarg segment; work-item gid = group id *
        lanes + local id; v_i = inp[gid * nv + i]; h = 0."""
        b = self.bld(entry)
        kernarg, wg, vid = b.startpgm((s2, PhysReg.of(0)), (s1, PhysReg.of(2)),
                                      (v1, PhysReg.of(256))).temps
        self.logical_start(entry)
        self.out = b.inst("s_load_b64", [s2], [kernarg, Operand.c32(0)]).temp
        inp = b.inst("s_load_b64", [s2], [kernarg, Operand.c32(8)]).temp
        env: dict = {}
        for i in range(self.ns):
            env[f"s{i}"] = b.inst("s_load_b32", [s1], [kernarg, Operand.c32(16 + 4 * i)]).temp
        self.gid = b.vop3("v_mad_u32_u24", v1, wg, Operand.c32(self.abi_lanes), vid).temp
        for i in range(self.nv):
            off = b.vop3("v_mad_u32_u24", v1, self.gid, Operand.c32(4 * self.nv),
                         Operand.c32(4 * i)).temp
            env[f"v{i}"] = b.inst("global_load_b32", [v1], [off, inp]).temp
        env["h"] = b.vop1("v_mov_b32", v1, Operand.c32(0)).temp
        return env

    def finish(self) -> None:
        for a, b, logical, linear in self.edges:
            if logical:
                a.logical_succs.append(b.index)
                b.logical_preds.append(a.index)
            if linear:
                a.linear_succs.append(b.index)
                b.linear_preds.append(a.index)
        for b in self.p.blocks:
            for lst in (b.logical_preds, b.logical_succs, b.linear_preds, b.linear_succs):
                lst.sort()
            br = b.instructions[-1] if b.instructions else None
            if br is not None and br.opcode == "p_branch":
                br.fields["targets"] = [b.linear_succs[0]]
            elif br is not None and br.opcode == "p_cbranch_z":
                br.fields["targets"] = [b.linear_succs[1], b.linear_succs[0]]
        for header, pre, phi, init, inc in self.linear_phis:
            phi.operands = [Operand(init if q == pre.index else inc) for q in header.linear_preds]


def build(tree: list, nv: int = 2, nb: int = 2, ns: int = 1, wave: int = 32) -> Program:
    return Gen(nv, nb, ns, wave).build(tree)


def build_kernel(tree: list, lanes: int, nv: int = 2, nb: int = 2, ns: int = 1,
                 wave: int = 32) -> Program:
    """`tree` as a compute kernel following the ABI (docs/abi.md), for a
    dispatch of workgroups of `lanes` work-items: kernel arguments ``out``
    (uint32 per work-item), ``inp`` (uint32[gid * nv + i] is v_i's initial
    value), ``s0``.. (the SGPR inputs). Each observation folds its tag and
    the variables into a per-lane hash, stored to out[gid] at the end: the
    `fold_observations` of `build(tree)`'s p_unit_test trace."""
    return Gen(nv, nb, ns, wave, abi_lanes=lanes).build(tree)


def fold_observations(trace: list[tuple]) -> int:
    """The value a kernel of `build_kernel` leaves in out[gid] for a lane
    whose `build` program records `trace` (p_unit_test operand tuples in
    order): the hash of the observations before its last store marker (0
    when the lane never stored)."""
    h = stored = 0
    for obs in trace:
        if obs == (STORE_MARK,):
            stored = h
            continue
        for x in obs:
            h = (h * 33 + x) & 0xFFFFFFFF
    return stored


def inputs_for(program: Program, rng: random.Random, nv: int, ns: int) -> list:
    w = program.wave_size
    return [[rng.randrange(12) for _ in range(w)] for _ in range(nv)] + \
        [rng.randrange(12) for _ in range(ns)]


# ---------------------------------------------------------------------------
# random trees
# ---------------------------------------------------------------------------
def random_tree(rng: random.Random, nv: int = 2, nb: int = 2, ns: int = 1,
                size: int = 12, max_depth: int = 3, uniform_loops: bool = False,
                discards: float = 0.0) -> list:
    """A random statement tree; with `uniform_loops`, a loop is a ``uloop``
    (uniform guard) half the time (the draws are otherwise the same); with
    `discards` > 0, that fraction of the simple statements are discards,
    demotes (a tenth of them of every lane) and stores (without it the
    draws are those of before)."""
    budget = [size]
    tag = [0]

    def simple() -> tuple:
        if discards and rng.random() < discards:
            r = rng.random()
            if r < 0.3:
                return ("store",)
            b = "all" if r > 0.93 else f"b{rng.randrange(nb)}"
            return ("discard" if r < 0.8 else "demote", b)
        r = rng.random()
        if r < 0.35:
            return ("vop", f"v{rng.randrange(nv)}", f"v{rng.randrange(nv)}",
                    rng.choice(list(_VOPS)), rng.randrange(1, 7))
        if r < 0.6:
            return ("bcmp", f"b{rng.randrange(nb)}", f"v{rng.randrange(nv)}",
                    rng.choice(["lt", "gt", "eq", "ne", "ge"]), rng.randrange(12))
        if r < 0.7:
            return ("bnot", f"b{rng.randrange(nb)}", f"b{rng.randrange(nb)}")
        if r < 0.8:
            return ("band", f"b{rng.randrange(nb)}", f"b{rng.randrange(nb)}",
                    f"b{rng.randrange(nb)}")
        tag[0] += 1
        return ("obs", tag[0])

    def block(depth: int, in_loop: bool) -> list:
        out: list = []
        n = rng.randrange(1, 4)
        for _ in range(n):
            if budget[0] <= 0:
                break
            budget[0] -= 1
            r = rng.random()
            if depth < max_depth and r < 0.25:
                then, els = block(depth + 1, in_loop), block(depth + 1, in_loop)
                jump = None
                if in_loop and rng.random() < 0.5:
                    # a jump ends one side (never both)
                    side = then if rng.random() < 0.5 else els
                    jump = rng.choice(["break", "continue"])
                    side.append((jump,))
                if rng.random() < 0.7 or (discards and jump == "continue"):
                    # (a uniform continue in a loop whose lanes a discard
                    # emptied would never leave it: see docs/ir.md "Discards")
                    out.append(("if", "div", f"b{rng.randrange(nb)}", then, els))
                else:
                    out.append(("if", "uni", (f"s{rng.randrange(ns)}",
                                               rng.choice(["lt", "eq", "lg"]),
                                               rng.randrange(12)), then, els))
            elif depth < max_depth and r < 0.4:
                if uniform_loops and rng.random() < 0.5:
                    out.append(("uloop", rng.randrange(4), block(depth + 1, True)))
                else:
                    out.append(("loop", f"v{rng.randrange(nv)}", block(depth + 1, True)))
            else:
                out.append(simple())
        tag[0] += 1
        out.append(("obs", tag[0]))
        return out

    return block(0, False)
