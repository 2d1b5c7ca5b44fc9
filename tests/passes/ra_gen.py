"""Random structured programs for register-allocation tests (uniform control
flow: if/else diamonds and counted loops, ACO's block shapes, logical CFG ==
linear CFG), in the subset `ra_interp` understands."""

from __future__ import annotations

import random

from radcc.ir.builder import Builder, add_edge
from radcc.ir.program import Block, BlockKind, Instruction, Operand, Program
from radcc.ir.regclass import M0, SCC, VCC, PhysReg, RegClass, Temp, s1, s2, s4, v1, v2, v3, v4
from radcc.target import get_target

SCLASSES = [s1, s1, s1, s2, s4]
VCLASSES = [v1, v1, v1, v2, v3, v4]


class Gen:
    def __init__(self, seed: int, *, size: int = 30, depth: int = 2, pressure: int = 0,
                 fixed: bool = True, max_live: int = 0) -> None:
        self.max_live = max_live
        self.r = random.Random(seed)
        self.p = Program(get_target("gfx1100"), wave_size=32)
        self.size = size
        self.depth = depth
        self.pressure = pressure
        self.fixed = fixed
        self.b = Builder(self.p)
        self.inputs: list[tuple[int, ...]] = []

    # -- helpers --------------------------------------------------------------
    def block(self, kind: BlockKind = BlockKind.NONE) -> Block:
        blk = self.p.create_block(kind)
        self.b.at_end(blk)
        return blk

    def pick(self, avail: list[Temp], rc: RegClass | None = None) -> Temp | None:
        cands = [t for t in avail if rc is None or t.rc == rc]
        return self.r.choice(cands) if cands else None

    def const(self) -> int:
        return self.r.choice([0, 1, 7, 64, 0x1234, 0xFFFFFFF0, self.r.getrandbits(32)])

    def scalar(self, avail: list[Temp]) -> Operand:
        t = self.pick(avail, s1)
        if t is None or self.r.random() < 0.2:
            return Operand.c32(self.r.choice([0, 1, 7, 64, 0xFFFFFFF0]))
        return Operand(t)

    # -- straight-line code ------------------------------------------------------
    def emit(self, avail: list[Temp]) -> None:
        b, r = self.b, self.r
        k = r.randrange(12)
        if k == 0:
            avail.append(b.sop1("s_mov_b32", s1, Operand.c32(self.const())).temp)
        elif k == 1:
            res = b.sop2("s_add_u32", s1, self.scalar(avail), self.scalar(avail))
            avail.append(res.temp)
            if r.random() < 0.5:
                avail.append(b.sop2("s_cselect_b32", s1, self.scalar(avail),
                                    self.scalar(avail), (res[1], PhysReg.of(SCC)),
                                    scc=False).temp)
        elif k == 2:
            avail.append(b.sop2("s_xor_b32", s1, self.scalar(avail), self.scalar(avail)).temp)
        elif k == 3:
            t = self.pick(avail, s1)
            if t is not None:  # tied: s_addk_i32 old simm16
                avail.append(b.inst("s_addk_i32", [s1], [t],
                                    simm16=r.randrange(1 << 15)).temp)
        elif k in (4, 5):
            a = self.pick(avail, v1)
            src = Operand(a) if a is not None else self.scalar(avail)
            c = self.pick(avail, v1)
            if c is None:
                avail.append(b.vop1("v_mov_b32", v1, src).temp)
            else:
                op = r.choice(["v_add_nc_u32", "v_xor_b32", "v_sub_nc_u32"])
                avail.append(b.vop2(op, v1, src, c).temp)
        elif k == 6:
            old = self.pick(avail, v1)
            if old is not None:  # tied: v_writelane_b32 val, lane, old
                avail.append(b.inst("v_writelane_b32", [v1], [
                    self.scalar(avail), Operand.c32(r.choice([0, 1])), Operand(old)],
                    fmt="VOP3").temp)
        elif k == 7:
            rc = r.choice([s2, s4, v2, v3, v4])
            piece = s1 if rc.is_sgpr else v1
            parts: list[Temp] = []
            for _ in range(rc.size):
                t = self.pick(avail, piece)
                if t is None:
                    t = (b.sop1("s_mov_b32", s1, Operand.c32(self.const())).temp if rc.is_sgpr
                         else b.vop1("v_mov_b32", v1, Operand.c32(self.const())).temp)
                parts.append(t)
            avail.append(b.create_vector(rc, *parts).temp)
        elif k == 8:
            vec = self.pick([t for t in avail if t.rc.size > 1])
            if vec is not None:
                piece = s1 if vec.rc.is_sgpr else v1
                if r.random() < 0.5:
                    avail.extend(b.split_vector(vec, *([piece] * vec.rc.size)).temps)
                else:
                    avail.append(b.extract_vector(piece, vec, r.randrange(vec.rc.size)).temp)
        elif k == 9 and self.fixed:
            t = self.pick(avail, s1)
            if t is not None:  # fixed operands: m0 and vcc
                reg = r.choice([M0, VCC])
                ops = [Operand(t, phys=PhysReg.of(reg))]
                u = self.pick(avail)
                if u is not None:
                    ops.append(Operand(u))
                b.pseudo("p_unit_test", (), ops)
        elif k == 10 and self.fixed:
            # fixed definition: a value defined in vcc/m0 and used later
            reg = r.choice([M0, VCC])
            avail.append(b.sop1("s_mov_b32", (s1, PhysReg.of(reg)),
                                Operand.c32(self.const())).temp)
        else:
            ops = [Operand(t) for t in self.r.sample(avail, min(len(avail), r.randrange(1, 4)))]
            b.pseudo("p_unit_test", (), ops)

    def straight(self, avail: list[Temp], n: int) -> None:
        for _ in range(n):
            self.emit(avail)
            if self.max_live and len(avail) > self.max_live:
                del avail[4:len(avail) - self.max_live + 4]  # keep the inputs

    # -- control flow ---------------------------------------------------------------
    def body(self, avail: list[Temp], depth: int, budget: int) -> Block:
        """Emit code into the current block; returns the block code ends in."""
        cur = self.b.block
        assert cur is not None
        while budget > 0:
            n = self.r.randrange(1, 6)
            self.straight(avail, n)
            budget -= n
            if depth > 0 and self.r.random() < 0.35:
                cur = self.diamond(avail, depth - 1, budget // 2) if self.r.random() < 0.5 \
                    else self.loop(avail, depth - 1, budget // 2)
                budget //= 2
        return cur

    def cond(self, avail: list[Temp]) -> Temp:
        t = self.pick(avail, s1)
        a = Operand(t) if t is not None else Operand.c32(3)
        return self.b.sopc("s_cmp_lt_u32", a, Operand.c32(self.const())).instr.definitions[0].temp  # type: ignore[return-value]

    def diamond(self, avail: list[Temp], depth: int, budget: int) -> Block:
        b = self.b
        top = b.block
        assert top is not None
        c = self.cond(avail)
        br = b.cbranch_z((c, PhysReg.of(SCC)), -1, -1)
        then = self.block()
        add_edge(self.p, top.index, then.index)
        a_then = list(avail)
        then_end = self.body(a_then, depth, budget)
        br_then = b.branch(-1)
        els = self.block()
        add_edge(self.p, top.index, els.index)
        a_else = list(avail)
        else_end = self.body(a_else, depth, budget)
        br_else = b.branch(-1)
        merge = self.block(BlockKind.MERGE)
        add_edge(self.p, then_end.index, merge.index)
        add_edge(self.p, else_end.index, merge.index)
        br.instr.fields["targets"] = [els.index, then.index]
        br_then.instr.fields["targets"] = [merge.index]
        br_else.instr.fields["targets"] = [merge.index]
        # phis for some values of both arms
        new_then = [t for t in a_then if t not in avail]
        new_else = [t for t in a_else if t not in avail]
        base = list(avail)
        for t in new_then:
            u = next((x for x in new_else if x.rc == t.rc), None)
            if u is None or self.r.random() < 0.3:
                u2 = self.pick(base, t.rc)
                if u2 is None:
                    continue
                u = u2
            else:
                new_else.remove(u)
            op = "p_linear_phi" if t.rc.is_sgpr else "p_phi"
            ops = [t, u] if then_end.index < else_end.index else [u, t]
            avail.append(b.pseudo(op, [t.rc], ops).temp)
        return merge

    def loop(self, avail: list[Temp], depth: int, budget: int) -> Block:
        b = self.b
        pre = b.block
        assert pre is not None
        n_iter = self.r.randrange(1, 4)
        br_pre = b.branch(-1)
        hdr = self.block(BlockKind.LOOP_HEADER)
        add_edge(self.p, pre.index, hdr.index)
        counter = b.pseudo("p_linear_phi", [s1], [Operand.c32(0)]).temp
        carried = [t for t in self.r.sample(avail, min(len(avail), 3))]
        phis = [b.pseudo("p_linear_phi" if t.rc.is_sgpr else "p_phi", [t.rc], [t])
                for t in carried]
        inner = list(avail) + [p.temp for p in phis]
        end = self.body(inner, depth, budget)
        nxt = b.sop2("s_add_u32", s1, counter, Operand.c32(1)).temp
        c = b.sopc("s_cmp_lt_u32", nxt, Operand.c32(n_iter)).instr.definitions[0].temp
        br = b.cbranch_z((c, PhysReg.of(SCC)), -1, -1)
        cont = self.block(BlockKind.CONTINUE)
        add_edge(self.p, end.index, cont.index)
        b.branch(hdr.index)
        add_edge(self.p, cont.index, hdr.index)
        exit_ = self.block(BlockKind.LOOP_EXIT)
        add_edge(self.p, end.index, exit_.index)
        br_pre.instr.fields["targets"] = [hdr.index]
        br.instr.fields["targets"] = [exit_.index, cont.index]
        _set_back(hdr, counter, nxt)
        for phi, t in zip(phis, carried, strict=True):
            repl = self.pick([x for x in inner if x not in avail or x == t], t.rc) or t
            phi.instr.operands.append(Operand(repl))
        # values defined in the header/body top level dominate the exit
        avail[:] = inner
        avail.append(nxt)
        return exit_

    def program(self) -> Program:
        self.block(BlockKind.TOP_LEVEL)
        defs = [(s2, PhysReg.of(0)), (s1, PhysReg.of(2)), (v1, PhysReg.of(256)),
                (v1, PhysReg.of(257))]
        start = self.b.startpgm(*defs)
        self.inputs = [(self.r.getrandbits(32), self.r.getrandbits(32))] + [
            (self.r.getrandbits(32),) for _ in range(3)]
        avail = list(start.temps)
        for _ in range(self.pressure):
            if self.r.random() < 0.5:
                avail.append(self.b.sop1("s_mov_b32", s1, Operand.c32(self.const())).temp)
            else:
                avail.append(self.b.vop1("v_mov_b32", v1, Operand.c32(self.const())).temp)
        self.body(avail, self.depth, self.size)
        self.b.pseudo("p_unit_test", (), [Operand(t) for t in avail[-12:]])
        self.b.sopp("s_endpgm")
        for blk in self.p.blocks:
            _wrap_logical(blk)
        return self.p


def _set_back(hdr: Block, counter: Temp, nxt: Temp) -> None:
    for i in hdr.instructions:
        if i.is_phi and i.definitions[0].temp == counter:
            i.operands.append(Operand(nxt))


def _wrap_logical(blk: Block) -> None:
    """p_logical_start after the phis (and p_startpgm), p_logical_end before the branch."""
    ins = blk.instructions
    k = 0
    while k < len(ins) and (ins[k].is_phi or ins[k].opcode == "p_startpgm"):
        k += 1
    ins.insert(k, Instruction("p_logical_start", "PSEUDO"))
    end = len(ins)
    if ins[-1].opcode in ("p_branch", "p_cbranch_z", "p_cbranch_nz", "s_endpgm"):
        end -= 1
    ins.insert(end, Instruction("p_logical_end", "PSEUDO"))


def generate(seed: int, **kw: object) -> tuple[Program, list[tuple[int, ...]]]:
    g = Gen(seed, **kw)  # type: ignore[arg-type]
    return g.program(), g.inputs
