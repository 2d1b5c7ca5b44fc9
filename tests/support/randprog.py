"""Random structured programs: an AST, its per-lane reference, its machine IR.

Used by the property tests (tests/passes/test_property_pipeline.py, through
hypothesis) and the compile-time benchmark (bench/bench_compile.py). A
program is drawn by `generate(draw, cfg)`, where ``draw(lo, hi)`` returns an
int in [lo, hi] (a hypothesis ``data.draw(integers(...))`` or
``random.randint``), so hypothesis can shrink it.

The AST has 32-bit VGPR variables (``v``), 64-bit VGPR variables (``w``),
32-bit uniform SGPR variables (``s``), VALU/SALU operations, loads of an
input buffer at per-lane addresses, stores to per-lane output slots,
uniform and divergent if/else, counted loops (a uniform trip count)
with uniform or divergent ``break``/``continue``, and (``GenConfig.
allow_discard``) discards and demotes (docs/ir.md "Discards": in a
compute program both end, for the rest of the program, the lanes whose
condition holds -- a divergent ``v_cmp`` mask, a uniform ``s_cmp``
made a mask by ``s_cselect``, or every active lane -- anywhere: top
level, either side of an if, loop bodies; a loop always ends through its
uniform trip-count guard, so EXEC left empty by a discard cannot make it
run forever).

`reference(prog, inp, k, lanes)` evaluates it lane by lane in plain Python
(the oracle). `lower(prog, target, wave)` writes the machine IR the way
ACO's instruction selection does (ACO's README.md "Control flow"): logical and
linear CFG, block kinds, ``p_logical_start/end``, divergent ifs with
linear-then/invert/linear-else blocks, loops with preheader, header, latch
and exit, helper blocks after divergent breaks/continues; SSA is built on
the fly (Braun et al., "Simple and Efficient Construction of SSA Form"),
VGPR variables on the logical CFG (``p_phi``), SGPR variables on the linear
CFG (``p_linear_phi``).

Uniformity is kept by construction: SGPR variables are only assigned where
every lane of the wave runs the assignment together (outside divergent ifs,
in loops without divergent jumps), so per-lane reference and per-wave
execution agree.

Kernel interface (`KERNEL_ARGS`): ``out`` (uint32, 2 words per lane per
store slot), ``inp`` (uint32[INP_WORDS]), ``k`` (a 32-bit number).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from radcc.ir.builder import Builder, add_edge
from radcc.ir.program import Block, BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.regclass import SCC, VGPR_BASE, PhysReg, RegClass, Temp, s1, s2, v1, v2, v4
from radcc.target import Target

Draw = Callable[[int, int], int]
M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
INP_WORDS = 256
KERNEL_ARGS = ("out", "inp", "k")


# --- the AST ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Src:
    kind: str  # 'v' (v32 var), 's' (s32 var), 'k' (constant), 'g' (the lane's global id)
    val: int


@dataclass
class Op:
    dst: int
    op: str
    srcs: list[Src]
    kind: str = "v"  # 'v': v32 dst, 's': s32 dst, 'w': w64 dst


@dataclass
class Load:
    dsts: list[int]  # 1 v32 (b32), 1 w64 (b64) or 4 v32 (b128)
    width: int  # dwords: 1, 2, 4
    addr: int  # v32 var giving the index


@dataclass
class Store:
    slot: int
    src: Src  # 'v', 's' or 'w' (64-bit)


@dataclass
class Cond:
    op: str  # lt, gt, eq, ne, le, ge (unsigned)
    a: Src  # 'v' (divergent) or 's'
    b: Src

    @property
    def divergent(self) -> bool:
        return self.a.kind in ("v", "g") or self.b.kind in ("v", "g")


@dataclass
class If:
    cond: Cond
    then: list
    els: list


@dataclass
class Jump:
    kind: str  # 'break' / 'continue'
    cond: Cond
    pre: list  # statements run by the jumping lanes before the jump


@dataclass
class Discard:
    """``p_discard_if`` (``demote``: ``p_demote_to_helper``) on `cond`
    (None: every active lane)."""

    cond: Cond | None
    demote: bool = False


@dataclass
class Loop:
    count: int
    body: list
    divergent_jumps: bool


@dataclass
class Prog:
    nv: int
    ns: int
    nw: int
    body: list
    slots: int = 0
    lanes: int = 32  # threads of the dispatch (one workgroup)


@dataclass
class GenConfig:
    max_stmts: int = 12
    max_depth: int = 3
    nv: int = 4
    ns: int = 3
    nw: int = 2
    allow_loops: bool = True
    allow_divergence: bool = True
    allow_memory: bool = True
    allow_64: bool = True
    allow_divergent_continue: bool = True
    allow_discard: bool = False
    lanes: int = 32
    # high register pressure (spilling, docs/spill.md): with `sweep` > 0 a statement
    # may be a sweep, a run of up to `sweep` operations updating consecutive variables
    # in place (v[i] = op(x, v[i]); s[i] likewise where uniform), so that many values
    # change together inside ifs and loops (as many phis at the merge or loop header);
    # large `nv`/`ns`/`nw` keep hundreds of values live throughout
    sweep: int = 0


# VOP2 ops: (a any, b v32); VOP3 ops with more sources; SALU ops (a, b).
V_OPS2 = ("v_add_nc_u32", "v_sub_nc_u32", "v_subrev_nc_u32", "v_and_b32", "v_or_b32",
          "v_xor_b32", "v_lshlrev_b32", "v_lshrrev_b32", "v_ashrrev_i32", "v_max_u32",
          "v_min_u32", "v_max_i32", "v_min_i32", "v_mul_u32_u24")
V_OPS3 = ("v_mul_lo_u32", "v_add3_u32", "v_lshl_add_u32", "v_mad_u32_u24", "v_bfe_u32",
          "v_xad_u32")
V_OPS1 = ("v_not_b32", "v_bfrev_b32", "v_mov_b32", "cvt_roundtrip")
S_OPS = ("s_add_u32", "s_sub_u32", "s_mul_i32", "s_and_b32", "s_or_b32", "s_xor_b32",
         "s_lshl_b32", "s_lshr_b32", "s_min_u32", "s_max_i32")
W_OPS = ("add64", "shl64", "mad64", "pack")
CMPS = ("lt", "gt", "eq", "ne", "le", "ge")
CONSTS = (0, 1, 2, 3, 7, 16, 31, 64, -1, -16, 0x1234, 0x7FFFFFFF, 0x80000000, 0xDEADBEEF)


def _s32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def eval_op(op: str, a: int, b: int = 0, c: int = 0) -> int:
    """The reference meaning of an AST operation (32-bit unless 64-bit)."""
    if op in ("v_add_nc_u32", "s_add_u32"):
        return (a + b) & M32
    if op in ("v_sub_nc_u32", "s_sub_u32"):
        return (a - b) & M32
    if op == "v_subrev_nc_u32":
        return (b - a) & M32
    if op in ("v_and_b32", "s_and_b32"):
        return a & b
    if op in ("v_or_b32", "s_or_b32"):
        return a | b
    if op in ("v_xor_b32", "s_xor_b32"):
        return a ^ b
    if op == "v_lshlrev_b32":
        return (b << (a & 31)) & M32
    if op == "v_lshrrev_b32":
        return b >> (a & 31)
    if op == "v_ashrrev_i32":
        return (_s32(b) >> (a & 31)) & M32
    if op == "s_lshl_b32":
        return (a << (b & 31)) & M32
    if op == "s_lshr_b32":
        return a >> (b & 31)
    if op in ("v_max_u32",):
        return max(a, b)
    if op in ("v_min_u32", "s_min_u32"):
        return min(a, b)
    if op in ("v_max_i32", "s_max_i32"):
        return a if _s32(a) > _s32(b) else b
    if op == "v_min_i32":
        return a if _s32(a) < _s32(b) else b
    if op == "v_mul_u32_u24":
        return ((a & 0xFFFFFF) * (b & 0xFFFFFF)) & M32
    if op in ("v_mul_lo_u32", "s_mul_i32"):
        return (a * b) & M32
    if op == "v_add3_u32":
        return (a + b + c) & M32
    if op == "v_lshl_add_u32":
        return ((a << (b & 31)) + c) & M32
    if op == "v_mad_u32_u24":
        return ((a & 0xFFFFFF) * (b & 0xFFFFFF) + c) & M32
    if op == "v_bfe_u32":
        off, width = b & 31, c & 31
        return (a >> off) & ((1 << width) - 1)
    if op == "v_xad_u32":
        return ((a ^ b) + c) & M32
    if op == "v_not_b32":
        return ~a & M32
    if op == "v_bfrev_b32":
        return int(f"{a:032b}"[::-1], 2)
    if op == "v_mov_b32":
        return a
    if op == "cvt_roundtrip":
        return min(int(np.float32(a)), M32)
    raise KeyError(op)


def eval_cmp(op: str, a: int, b: int) -> bool:
    return {"lt": a < b, "gt": a > b, "eq": a == b, "ne": a != b, "le": a <= b,
            "ge": a >= b}[op]


# --- generation -----------------------------------------------------------------------------
class _Gen:
    def __init__(self, draw: Draw, cfg: GenConfig) -> None:
        self.d = draw
        self.cfg = cfg
        self.budget = cfg.max_stmts
        self.slots = 0

    def pick(self, seq):  # type: ignore[no-untyped-def]
        return seq[self.d(0, len(seq) - 1)]

    def const(self) -> Src:
        return Src("k", self.pick(CONSTS) & M32)

    def src(self, allow_s: bool = True, allow_k: bool = True) -> Src:
        r = self.d(0, 5)
        if r <= 2 or (r == 3 and not allow_s) or (r >= 4 and not allow_k):
            return Src("v", self.d(0, self.cfg.nv - 1))
        if r == 3:
            return Src("s", self.d(0, self.cfg.ns - 1))
        return self.const()

    def cond(self, divergent: bool) -> Cond:
        op = self.pick(CMPS)
        if divergent:
            return Cond(op, Src("v", self.d(0, self.cfg.nv - 1)), self.src())
        b = Src("s", self.d(0, self.cfg.ns - 1)) if self.d(0, 1) else self.const()
        return Cond(op, Src("s", self.d(0, self.cfg.ns - 1)), b)

    def block(self, depth: int, uniform: bool, loop: Loop | None,
              div_in_loop: bool) -> list:
        out: list = []
        n = self.d(1, 4)
        for _ in range(n):
            if self.budget <= 0:
                break
            self.budget -= 1
            if self.cfg.sweep and self.d(0, 3) == 0:
                out += self.sweep(uniform)
                continue
            out.append(self.stmt(depth, uniform, loop, div_in_loop))
        return out

    def sweep(self, uniform: bool) -> list[Op]:
        """Up to `GenConfig.sweep` operations, each updating one of consecutive
        variables in place (SGPR variables only where the code is uniform)."""
        cfg = self.cfg
        sgpr = uniform and cfg.ns > 1 and self.d(0, 2) == 0
        n = cfg.ns if sgpr else cfg.nv
        lo = self.d(0, n - 1)
        hi = min(n, lo + self.d(1, cfg.sweep))
        if sgpr:
            op = self.pick(S_OPS)
            other = Src("s", self.d(0, n - 1)) if self.d(0, 1) else Src("k", self.d(0, 64))
            return [Op(i, op, [Src("s", i), other], "s") for i in range(lo, hi)]
        op = self.pick(V_OPS2)
        other = self.src()
        return [Op(i, op, [other, Src("v", i)]) for i in range(lo, hi)]

    def stmt(self, depth: int, uniform: bool, loop: Loop | None, div_in_loop: bool) -> object:
        cfg = self.cfg
        r = self.d(0, 19)
        nested = depth < cfg.max_depth
        if r <= 1 and nested:
            div = cfg.allow_divergence and bool(self.d(0, 1))
            c = self.cond(div)
            t = self.block(depth + 1, uniform and not div, loop, div_in_loop or div)
            e = self.block(depth + 1, uniform and not div, loop, div_in_loop or div) \
                if self.d(0, 1) else []
            return If(c, t, e)
        if r in (2, 8) and nested and cfg.allow_loops:
            divj = cfg.allow_divergence and bool(self.d(0, 1))
            lp = Loop(self.d(0, 3), [], divj)
            lp.body = self.block(depth + 1, uniform and not divj, lp, False)
            return lp
        if loop is not None and (r == 3 or self.d(0, 3) == 0):
            kind = "break" if self.d(0, 1) else "continue"
            div_ok = loop.divergent_jumps
            if div_ok and not cfg.allow_divergent_continue:
                kind = "break"
            if not div_ok and div_in_loop:
                return self.op(uniform)
            c = self.cond(div_ok and bool(self.d(0, 1)))
            pre = [self.store()] if cfg.allow_memory and self.d(0, 2) == 0 else []
            return Jump(kind, c, pre)
        if r in (4, 5) and cfg.allow_memory:
            return self.store()
        if r in (7, 9) and cfg.allow_discard:
            return self.discard(uniform)
        if r == 6 and cfg.allow_memory:
            w = self.pick((1, 1, 2, 4)) if cfg.allow_64 else 1
            if w == 2:
                dsts = [self.d(0, cfg.nw - 1)]
            else:
                dsts = [self.d(0, cfg.nv - 1) for _ in range(w)]
            return Load(dsts, w, self.d(0, cfg.nv - 1))
        return self.op(uniform)

    def discard(self, uniform: bool) -> Discard:
        """Mostly a condition on the lane's global id against a drawn lane
        number (a prefix, a suffix, one lane, all but one: conditions on the
        variables tend to end all lanes or none), else on variables
        (divergent or uniform), rarely (in divergent code only: elsewhere
        it would end the wave) every active lane."""
        demote = self.d(0, 2) == 0
        r = self.d(0, 7)
        div = self.cfg.allow_divergence
        if r == 7 and not uniform:
            return Discard(None, demote)
        if r <= 2 and div:
            return Discard(Cond(self.pick(CMPS), Src("g", 0),
                                Src("k", self.d(0, self.cfg.lanes - 1))), demote)
        # a uniform condition in divergent code is a mask with the inactive
        # lanes' bits set too (s_cselect -1, 0): only active lanes may go
        return Discard(self.cond(div and r == 3), demote)

    def store(self) -> Store:
        self.slots += 1
        r = self.d(0, 5)
        if r == 0:
            src = Src("s", self.d(0, self.cfg.ns - 1))
        elif r == 1 and self.cfg.allow_64:
            src = Src("w", self.d(0, self.cfg.nw - 1))
        else:
            src = Src("v", self.d(0, self.cfg.nv - 1))
        return Store(self.slots - 1, src)

    def op(self, uniform: bool) -> Op:
        cfg = self.cfg
        r = self.d(0, 9)
        if r <= 1 and uniform:
            a = Src("s", self.d(0, cfg.ns - 1)) if self.d(0, 2) else self.const()
            b = Src("s", self.d(0, cfg.ns - 1)) if self.d(0, 1) else \
                Src("k", self.d(0, 64))
            return Op(self.d(0, cfg.ns - 1), self.pick(S_OPS), [a, b], "s")
        if r == 2 and cfg.allow_64:
            wop = self.pick(W_OPS)
            dst = self.d(0, cfg.nw - 1)
            w = lambda: Src("w", self.d(0, cfg.nw - 1))  # noqa: E731
            v = lambda: Src("v", self.d(0, cfg.nv - 1))  # noqa: E731
            srcs = {"add64": [w(), w()], "shl64": [Src("k", self.d(0, 63)), w()],
                    "mad64": [v(), v(), w()], "pack": [v(), v()]}[wop]
            return Op(dst, wop, srcs, "w")
        if r == 3 and cfg.allow_64:
            return Op(self.d(0, cfg.nv - 1), "unpack", [Src("w", self.d(0, cfg.nw - 1)),
                                                         Src("k", self.d(0, 1))])
        dst = self.d(0, cfg.nv - 1)
        if r <= 5:
            return Op(dst, self.pick(V_OPS2), [self.src(), Src("v", self.d(0, cfg.nv - 1))])
        if r <= 7:
            op = self.pick(V_OPS3)
            a = self.src(allow_k=False)
            b = Src("v", self.d(0, cfg.nv - 1))
            if op == "v_bfe_u32":
                return Op(dst, op, [a, Src("k", self.d(0, 31)), Src("k", self.d(0, 32))])
            if op == "v_mul_lo_u32":
                return Op(dst, op, [a, b])
            c = Src("v", self.d(0, cfg.nv - 1)) if self.d(0, 1) else Src("k", self.d(0, 64))
            return Op(dst, op, [a, b, c])
        return Op(dst, self.pick(V_OPS1), [self.src()])


def generate(draw: Draw, cfg: GenConfig | None = None) -> Prog:
    """A random structured program (see the module docstring)."""
    cfg = cfg or GenConfig()
    g = _Gen(draw, cfg)
    body: list = []
    while g.budget > 0:
        body += g.block(0, True, None, False)
    # every variable ends up in memory, so nothing computed is unobservable
    for i in range(cfg.nv):
        body.append(Store(g.slots, Src("v", i)))
        g.slots += 1
    for i in range(cfg.ns):
        body.append(Store(g.slots, Src("s", i)))
        g.slots += 1
    if cfg.allow_64:
        for i in range(cfg.nw):
            body.append(Store(g.slots, Src("w", i)))
            g.slots += 1
    return Prog(cfg.nv, cfg.ns, cfg.nw, body, g.slots, cfg.lanes)


def count_statements(body: list) -> int:
    n = 0
    for s in body:
        n += 1
        if isinstance(s, If):
            n += count_statements(s.then) + count_statements(s.els)
        elif isinstance(s, Loop):
            n += count_statements(s.body)
        elif isinstance(s, Jump):
            n += count_statements(s.pre)
    return n


def count_discards(body: list) -> int:
    """The `Discard` statements in `body`, at any depth."""
    n = 0
    for s in body:
        if isinstance(s, Discard):
            n += 1
        elif isinstance(s, If):
            n += count_discards(s.then) + count_discards(s.els)
        elif isinstance(s, Loop):
            n += count_discards(s.body)
    return n


# --- the reference (per lane) ------------------------------------------------------------------
class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Discarded(Exception):
    pass


def _init_state(prog: Prog, lane: int, wgid: int, inp: np.ndarray, k: int) -> dict:
    gid = lane
    v = [(gid * (2 * i + 1) + 0x1111 * i) & M32 for i in range(prog.nv)]
    if prog.nv > 1:
        v[1] = int(inp[gid % INP_WORDS])
    s = [(k * (i + 1) + 3 * i) & M32 for i in range(prog.ns)]
    if prog.ns > 1:
        s[1] = wgid
    w = [((v[i % prog.nv] << 32) | v[(i + 1) % prog.nv]) for i in range(prog.nw)]
    return {"v": v, "s": s, "w": w, "g": [gid]}


def reference(prog: Prog, inp: np.ndarray, k: int, lanes: int | None = None) -> np.ndarray:
    """The output buffer the program must produce (uint32, 2 words per slot and lane)."""
    n = lanes or prog.lanes
    out = np.zeros(max(1, prog.slots) * n * 2, dtype=np.uint32)
    for lane in range(n):
        st = _init_state(prog, lane, 0, inp, k)
        try:
            _run(prog, prog.body, st, lane, n, inp, out)
        except _Discarded:  # the lane ends; its earlier stores stay
            pass
    return out


def _val(st: dict, s: Src) -> int:
    if s.kind == "k":
        return s.val & M32
    return st[s.kind][s.val]


def _run(prog: Prog, body: list, st: dict, lane: int, n: int, inp: np.ndarray,
         out: np.ndarray) -> None:
    for s in body:
        if isinstance(s, Op):
            vals = [_val(st, x) for x in s.srcs]
            if s.kind == "w":
                a = vals
                if s.op == "add64":
                    r = (a[0] + a[1]) & M64
                elif s.op == "shl64":
                    r = (a[1] << (a[0] & 63)) & M64
                elif s.op == "mad64":
                    r = (a[0] * a[1] + a[2]) & M64
                else:
                    r = a[0] | a[1] << 32
                st["w"][s.dst] = r
            elif s.op == "unpack":
                st["v"][s.dst] = (vals[0] >> (32 * vals[1])) & M32
            else:
                st[s.kind][s.dst] = eval_op(s.op, *vals)
        elif isinstance(s, Store):
            base = (s.slot * n + lane) * 2
            v = _val(st, s.src)
            out[base] = v & M32
            if s.src.kind == "w":
                out[base + 1] = v >> 32
        elif isinstance(s, Load):
            idx = st["v"][s.addr]
            if s.width == 1:
                st["v"][s.dsts[0]] = int(inp[idx % INP_WORDS])
            elif s.width == 2:
                j = (idx % (INP_WORDS // 2)) * 2
                st["w"][s.dsts[0]] = int(inp[j]) | int(inp[j + 1]) << 32
            else:
                j = (idx % (INP_WORDS // 4)) * 4
                for q, d in enumerate(s.dsts):
                    st["v"][d] = int(inp[j + q])
        elif isinstance(s, If):
            c = eval_cmp(s.cond.op, _val(st, s.cond.a), _val(st, s.cond.b))
            _run(prog, s.then if c else s.els, st, lane, n, inp, out)
        elif isinstance(s, Jump):
            if eval_cmp(s.cond.op, _val(st, s.cond.a), _val(st, s.cond.b)):
                _run(prog, s.pre, st, lane, n, inp, out)
                raise _Break if s.kind == "break" else _Continue
        elif isinstance(s, Discard):
            if s.cond is None or eval_cmp(s.cond.op, _val(st, s.cond.a), _val(st, s.cond.b)):
                raise _Discarded
        elif isinstance(s, Loop):
            for _ in range(s.count):
                try:
                    _run(prog, s.body, st, lane, n, inp, out)
                except _Continue:
                    continue
                except _Break:
                    break
        else:
            raise TypeError(s)


# --- lowering to machine IR (ACO's instruction selection shapes) ------------------------------
@dataclass
class _JumpNow:
    """The unconditional jump inside the if that a `Jump` lowers to."""

    kind: str
    pre: list


@dataclass
class _LoopCtx:
    header: Block
    exit_logical: list[int] = field(default_factory=list)
    exit_linear: list[int] = field(default_factory=list)
    back_logical: list[int] = field(default_factory=list)
    back_linear: list[int] = field(default_factory=list)
    divergent_continue: bool = False
    in_divergent_if: int = 0
    counter: tuple = ()


class _Lower:
    def __init__(self, prog: Prog, target: Target, wave: int) -> None:
        self.prog = prog
        self.p = Program(target, wave_size=wave)
        self.b = Builder(self.p)
        self.wave = wave
        self.defs: dict[tuple, Temp] = {}
        self.sealed: set[int] = set()
        self.incomplete: dict[int, list[tuple[tuple, Instruction]]] = {}
        self.loops: list[_LoopCtx] = []
        self.depth = 0  # loop nest depth
        self.div_if = 0  # enclosing divergent ifs (for top-level marking)
        self.cur: Block = self.new_block(BlockKind.TOP_LEVEL)
        self.nloops = 0
        self._pending: list = []

    # -- blocks and SSA ----------------------------------------------------------------------
    def new_block(self, kind: BlockKind = BlockKind.NONE) -> Block:
        blk = self.p.create_block(kind)
        blk.loop_nest_depth = self.depth
        return blk

    def enter(self, blk: Block, seal: bool = True, logical: bool = True) -> None:
        self.cur = blk
        self.b.at_end(blk)
        if seal:
            self.seal(blk)
        if logical:
            self.b.logical_start()

    def end_logical(self) -> None:
        self.b.logical_end()

    def rc_of(self, key: tuple) -> RegClass:
        return {"v": v1, "w": v2, "s": s1, "c": s1}[key[0]]

    def write(self, key: tuple, t: Temp) -> None:
        self.defs[(key, self.cur.index)] = t

    def read(self, key: tuple, blk: Block | None = None) -> Temp:
        blk = blk or self.cur
        linear = key[0] in ("s", "c")
        while True:
            t = self.defs.get((key, blk.index))
            if t is not None:
                return t
            preds = blk.linear_preds if linear else blk.logical_preds
            if blk.index in self.sealed and len(preds) == 1:
                blk = self.p.blocks[preds[0]]
                continue
            break
        if blk.index not in self.sealed:
            phi = self.phi(blk, key, linear, [])
            self.incomplete.setdefault(blk.index, []).append((key, phi))
            return phi.definitions[0].temp  # type: ignore[return-value]
        if not preds:
            raise ValueError(f"variable {key} read in BB{blk.index} before any definition")
        phi = self.phi(blk, key, linear, [])
        self.fill(blk, key, phi)
        return phi.definitions[0].temp  # type: ignore[return-value]

    def phi(self, blk: Block, key: tuple, linear: bool, ops: list) -> Instruction:
        t = self.p.allocate_temp(self.rc_of(key))
        ins = Instruction("p_linear_phi" if linear else "p_phi", "PSEUDO", ops,
                          [self._def(t)])
        blk.instructions.insert(0, ins)
        self.defs[(key, blk.index)] = t
        return ins

    @staticmethod
    def _def(t: Temp) -> Definition:
        return Definition(t)

    def fill(self, blk: Block, key: tuple, phi: Instruction) -> None:
        linear = phi.opcode == "p_linear_phi"
        preds = blk.linear_preds if linear else blk.logical_preds
        phi.operands = [Operand(self.read(key, self.p.blocks[q])) for q in preds]

    def seal(self, blk: Block) -> None:
        if blk.index in self.sealed:
            return
        self.sealed.add(blk.index)
        for key, phi in self.incomplete.pop(blk.index, []):
            self.fill(blk, key, phi)

    # -- operands ------------------------------------------------------------------------------
    def src(self, s: Src) -> Temp | Operand:
        if s.kind == "k":
            return Operand.c32(s.val)
        if s.kind == "g":
            return self.gid
        return self.read((s.kind, s.val))

    def vsrc(self, s: Src) -> Temp:
        """A source that must be a VGPR."""
        x = self.src(s)
        if isinstance(x, Temp) and x.rc.is_vgpr:
            return x
        return self.b.vop1("v_mov_b32", v1, x).temp

    # -- program --------------------------------------------------------------------------------
    def run(self) -> Program:
        b = self.b
        self.enter(self.cur, seal=True, logical=False)
        start = b.startpgm((s2, PhysReg.of(0)), (s1, PhysReg.of(2)), (v1, PhysReg.of(VGPR_BASE)))
        b.logical_start()
        kernarg, wgid, vid = start.temps
        self.out = b.inst("s_load_b64", [s2], [kernarg, Operand.c32(0)]).temp
        self.inp = b.inst("s_load_b64", [s2], [kernarg, Operand.c32(8)]).temp
        k = b.inst("s_load_b32", [s1], [kernarg, Operand.c32(16)]).temp
        prog = self.prog
        n = prog.lanes
        self.gid = b.vop3("v_mad_u32_u24", v1, wgid, Operand.c32(n), vid).temp
        for i in range(prog.ns):
            t = b.sop2("s_mul_i32", s1, k, Operand.c32(i + 1), scc=False).temp
            t = b.sop2("s_add_u32", s1, t, Operand.c32(3 * i)).temp
            self.write(("s", i), t)
        if prog.ns > 1:
            self.write(("s", 1), wgid)
        for i in range(prog.nv):
            if 2 * i + 1 <= 64:
                t = b.vop3("v_mad_u32_u24", v1, self.gid, Operand.c32(2 * i + 1),
                           Operand.c32(0x1111 * i)).temp
            else:  # two literals: one per instruction (same value, gid < 2^24)
                t = b.vop2("v_mul_u32_u24", v1, Operand.c32(2 * i + 1), self.gid).temp
                t = b.vop2("v_add_nc_u32", v1, Operand.c32(0x1111 * i), t).temp
            self.write(("v", i), t)
        if prog.nv > 1:
            off = b.vop2("v_and_b32", v1, Operand.c32(INP_WORDS - 1), self.gid).temp
            off = b.vop2("v_lshlrev_b32", v1, Operand.c32(2), off).temp
            self.write(("v", 1), b.inst("global_load_b32", [v1], [off, self.inp]).temp)
        for i in range(prog.nw):
            lo = self.read(("v", (i + 1) % prog.nv))
            hi = self.read(("v", i % prog.nv))
            self.write(("w", i), b.create_vector(v2, lo, hi).temp)
        self.stmts(prog.body)
        self.end_logical()
        b.sopp("s_endpgm")
        return self.p

    def stmts(self, body: list) -> bool:
        """Lower statements; False when the current point became unreachable."""
        for s in body:
            if isinstance(s, Op):
                self.op(s)
            elif isinstance(s, Store):
                self.store(s)
            elif isinstance(s, Load):
                self.load(s)
            elif isinstance(s, If):
                self.if_(s.cond, s.then, s.els)
            elif isinstance(s, Jump):
                self.if_(s.cond, [_JumpNow(s.kind, s.pre)], [])
            elif isinstance(s, Loop):
                self.loop(s)
            elif isinstance(s, Discard):
                self.discard(s)
        return True

    def discard(self, s: Discard) -> None:
        """``p_discard_if``/``p_demote_to_helper`` on a lane mask: ``v_cmp``
        (divergent), ``s_cselect -1, 0`` of the SCC (uniform, ACO's
        bool_to_vector_condition) or the constant -1 (every active lane)."""
        b = self.b
        lm = self.p.lane_mask
        if s.cond is None:
            c: Temp | Operand = Operand.c32(-1)
        elif s.cond.divergent:
            c = self.condition(s.cond)
        else:
            scc = self.condition(s.cond)
            k = Operand.c32 if self.wave == 32 else Operand.c64
            c = b.sop2(f"s_cselect_b{self.wave}", lm, k(-1), k(0),
                       Operand(scc, phys=PhysReg.of(SCC)), scc=False).temp
        b.pseudo("p_demote_to_helper" if s.demote else "p_discard_if", (), [c])

    def op(self, s: Op) -> None:
        b = self.b
        if s.kind == "s":
            a, c = (self.src(x) for x in s.srcs)
            t = b.sop2(s.op, s1, a, c, scc=s.op != "s_mul_i32").temp
            self.write(("s", s.dst), t)
            return
        if s.kind == "w":
            self.write(("w", s.dst), self.op64(s))
            return
        if s.op == "unpack":
            w = self.read(("w", s.srcs[0].val))
            parts = b.split_vector(w, v1, v1).temps
            self.write(("v", s.dst), parts[s.srcs[1].val])
            return
        if s.op == "cvt_roundtrip":
            f = b.vop1("v_cvt_f32_u32", v1, self.src(s.srcs[0])).temp
            t = b.vop1("v_cvt_u32_f32", v1, f).temp
        elif s.op in V_OPS1:
            t = b.vop1(s.op, v1, self.src(s.srcs[0])).temp
        elif s.op in V_OPS2:
            t = b.vop2(s.op, v1, self.src(s.srcs[0]), self.vsrc(s.srcs[1])).temp
        else:
            t = b.vop3(s.op, v1, *(self.src(x) for x in s.srcs)).temp
        self.write(("v", s.dst), t)

    def op64(self, s: Op) -> Temp:
        b = self.b
        lm = self.p.lane_mask
        if s.op == "pack":
            return b.create_vector(v2, self.vsrc(s.srcs[0]), self.vsrc(s.srcs[1])).temp
        if s.op == "shl64":
            return b.vop3("v_lshlrev_b64", v2, self.src(s.srcs[0]),
                          self.read(("w", s.srcs[1].val))).temp
        if s.op == "mad64":
            r = b.vop3("v_mad_u64_u32", [v2, lm], self.src(s.srcs[0]), self.src(s.srcs[1]),
                       self.read(("w", s.srcs[2].val)))
            return r.temp
        x, y = (self.read(("w", q.val)) for q in s.srcs)
        xl, xh = b.split_vector(x, v1, v1).temps
        yl, yh = b.split_vector(y, v1, v1).temps
        lo = b.vop3("v_add_co_u32", [v1, lm], xl, yl)
        hi = b.vop3("v_add_co_ci_u32", [v1, lm], xh, yh, lo[1])
        return b.create_vector(v2, lo.temp, hi.temp).temp

    def slot_offset(self, slot: int) -> Temp:
        b = self.b
        idx = b.vop2("v_add_nc_u32", v1, Operand.c32(slot * self.prog.lanes), self.gid).temp
        return b.vop2("v_lshlrev_b32", v1, Operand.c32(3), idx).temp

    def store(self, s: Store) -> None:
        off = self.slot_offset(s.slot)
        if s.src.kind == "w":
            data = self.read(("w", s.src.val))
            self.b.inst("global_store_b64", [], [off, data, self.out])
            return
        self.b.inst("global_store_b32", [], [off, self.vsrc(s.src), self.out])

    def load(self, s: Load) -> None:
        b = self.b
        idx = self.read(("v", s.addr))
        words = INP_WORDS // s.width
        m = b.vop2("v_and_b32", v1, Operand.c32(words - 1), idx).temp
        shift = {1: 2, 2: 3, 4: 4}[s.width]
        off = b.vop2("v_lshlrev_b32", v1, Operand.c32(shift), m).temp
        if s.width == 1:
            self.write(("v", s.dsts[0]), b.inst("global_load_b32", [v1], [off, self.inp]).temp)
        elif s.width == 2:
            self.write(("w", s.dsts[0]), b.inst("global_load_b64", [v2], [off, self.inp]).temp)
        else:
            vec = b.inst("global_load_b128", [v4], [off, self.inp]).temp
            parts = b.split_vector(vec, v1, v1, v1, v1).temps
            for d, t in zip(s.dsts, parts, strict=True):
                self.write(("v", d), t)

    # -- control flow --------------------------------------------------------------------------
    def condition(self, c: Cond) -> Temp:
        """A lane mask (divergent: v_cmp) or an SCC temp (uniform: s_cmp)."""
        b = self.b
        a, x = self.src(c.a), self.src(c.b)
        if c.divergent:
            return b.vop3(f"v_cmp_{c.op}_u32", self.p.lane_mask, a, x).temp
        if isinstance(a, Operand):
            a = b.sop1("s_mov_b32", s1, a, scc=False).temp
        op = "lg" if c.op == "ne" else c.op
        return b.sopc(f"s_cmp_{op}_u32", a, x)[0]

    def if_(self, cond: Cond, then: list, els: list) -> None:
        if cond.divergent:
            self.divergent_if(cond, then, els)
        else:
            self.uniform_if(cond, then, els)

    def branch_body(self, body: list) -> bool:
        """Lower a then/else body; True if its end is reachable by a plain edge."""
        for s in body:
            if isinstance(s, _JumpNow):
                self.stmts(s.pre)
                return self.jump(s.kind)
            self.stmts([s])
        return True

    def uniform_if(self, cond: Cond, then: list, els: list) -> None:
        b = self.b
        c = self.condition(cond)
        self.end_logical()
        bif = self.cur
        bif.kind |= BlockKind.UNIFORM
        br = b.pseudo("p_cbranch_z", (), [Operand(c, phys=PhysReg.of(SCC))], targets=[0, 0])
        top = bool(bif.kind & BlockKind.TOP_LEVEL)
        bthen = self.new_block()
        add_edge(self.p, bif.index, bthen.index)
        self.enter(bthen)
        ends = []
        if self.branch_body(then):
            self.end_logical()
            self.cur.kind |= BlockKind.UNIFORM
            ends.append((self.cur, b.branch(0).instr, self.jumped_logically()))
        belse = self.new_block()
        add_edge(self.p, bif.index, belse.index)
        br.instr.fields["targets"] = [belse.index, bthen.index]
        self.enter(belse)
        if self.branch_body(els):
            self.end_logical()
            self.cur.kind |= BlockKind.UNIFORM
            ends.append((self.cur, b.branch(0).instr, self.jumped_logically()))
        self.merge(ends, BlockKind.TOP_LEVEL if top else BlockKind.NONE)

    def jumped_logically(self) -> bool:
        """Is the current block logically unreachable (after a divergent jump)?"""
        return not self.cur.logical_preds and self.cur.index != 0

    def merge(self, ends: list, kind: BlockKind) -> None:
        endif = self.new_block(kind)
        for blk, br, dead in ends:
            add_edge(self.p, blk.index, endif.index, logical=not dead)
            br.fields["targets"] = [endif.index]
        self.enter(endif)

    def divergent_if(self, cond: Cond, then: list, els: list) -> None:
        b = self.b
        p = self.p
        c = self.condition(cond)
        self.end_logical()
        bif = self.cur
        bif.kind |= BlockKind.BRANCH
        top = bool(bif.kind & BlockKind.TOP_LEVEL)
        br = b.cbranch_z(c, 0, 0).instr
        if self.loops:
            self.loops[-1].in_divergent_if += 1
        self.div_if += 1
        then_l = self.new_block()
        add_edge(p, bif.index, then_l.index)
        self.enter(then_l)
        self.branch_body(then)
        self.end_logical()
        then_end = self.cur
        then_end.kind |= BlockKind.UNIFORM
        then_br = b.branch(0).instr
        then_dead = self.jumped_logically()
        then_lin = self.new_block(BlockKind.UNIFORM)
        add_edge(p, bif.index, then_lin.index, logical=False)
        br.fields["targets"] = [then_lin.index, then_l.index]
        self.enter(then_lin, logical=False)
        lin_br = b.branch(0).instr
        invert = self.new_block(BlockKind.INVERT)
        for blk, x in ((then_end, then_br), (then_lin, lin_br)):
            add_edge(p, blk.index, invert.index, logical=False)
            x.fields["targets"] = [invert.index]
        self.enter(invert, logical=False)
        inv_br = b.branch(0).instr
        else_l = self.new_block()
        add_edge(p, bif.index, else_l.index, linear=False)
        add_edge(p, invert.index, else_l.index, logical=False)
        self.enter(else_l)
        self.branch_body(els)
        self.end_logical()
        else_end = self.cur
        else_end.kind |= BlockKind.UNIFORM
        else_br = b.branch(0).instr
        else_dead = self.jumped_logically()
        else_lin = self.new_block(BlockKind.UNIFORM)
        add_edge(p, invert.index, else_lin.index, logical=False)
        inv_br.fields["targets"] = [else_lin.index]
        self.enter(else_lin, logical=False)
        elin_br = b.branch(0).instr
        if self.loops:
            self.loops[-1].in_divergent_if -= 1
        self.div_if -= 1
        endif = self.new_block(BlockKind.MERGE | (BlockKind.TOP_LEVEL if top else BlockKind.NONE))
        add_edge(p, else_end.index, endif.index, logical=not else_dead)
        add_edge(p, else_lin.index, endif.index, logical=False)
        if not then_dead:
            add_edge(p, then_end.index, endif.index, linear=False)
        else_br.fields["targets"] = [endif.index]
        elin_br.fields["targets"] = [endif.index]
        self.enter(endif)

    def jump(self, kind: str) -> bool:
        """A break/continue at the current point; returns False (end unreachable)
        for a uniform jump, True after a divergent one (code goes on in the
        logically dead continue block)."""
        p = self.p
        b = self.b
        lp = self.loops[-1]
        self.end_logical()
        blk = self.cur
        is_break = kind == "break"
        blk.kind |= BlockKind.BREAK if is_break else BlockKind.CONTINUE
        uniform = lp.in_divergent_if == 0 and not (is_break and lp.divergent_continue)
        if uniform:
            blk.kind |= BlockKind.UNIFORM
            br = b.branch(0).instr
            if is_break:
                lp.exit_logical.append(blk.index)
                lp.exit_linear.append(blk.index)
                self._pending.append((br, "exit", lp))
            else:
                add_edge(p, blk.index, lp.header.index)
                br.fields["targets"] = [lp.header.index]
            return False
        if not is_break:
            lp.divergent_continue = True
        br = b.branch(0).instr
        if is_break:
            lp.exit_logical.append(blk.index)
        else:
            add_edge(p, blk.index, lp.header.index, linear=False)
        helper = self.new_block(BlockKind.UNIFORM)
        add_edge(p, blk.index, helper.index, logical=False)
        br.fields["targets"] = [helper.index]
        self.enter(helper, logical=False)
        hb = b.branch(0).instr
        if is_break:
            lp.exit_linear.append(helper.index)
            self._pending.append((hb, "exit", lp))
        else:
            add_edge(p, helper.index, lp.header.index, logical=False)
            hb.fields["targets"] = [lp.header.index]
        cont = self.new_block()
        add_edge(p, blk.index, cont.index, logical=False)
        self.enter(cont)
        return True

    def loop(self, s: Loop) -> None:
        b = self.b
        p = self.p
        self.nloops += 1
        ckey = ("c", self.nloops)
        self.write(ckey, b.sop1("s_mov_b32", s1, Operand.c32(0), scc=False).temp)
        self.end_logical()
        pre = self.cur
        pre.kind |= BlockKind.LOOP_PREHEADER | BlockKind.UNIFORM
        top = bool(pre.kind & BlockKind.TOP_LEVEL)
        pbr = b.branch(0).instr
        self.depth += 1
        header = self.new_block(BlockKind.LOOP_HEADER)
        add_edge(p, pre.index, header.index)
        pbr.fields["targets"] = [header.index]
        lp = _LoopCtx(header)
        self.loops.append(lp)
        saved_pending = self._pending
        self._pending = []
        self.enter(header, seal=False)
        i = self.read(ckey)
        c = b.sopc("s_cmp_ge_u32", i, Operand.c32(s.count))[0]
        self.write(ckey, b.sop2("s_add_u32", s1, i, Operand.c32(1)).temp)
        self.uniform_if_jump(c)
        self.stmts(s.body)
        self.end_logical()
        latch = self.cur
        latch.kind |= BlockKind.CONTINUE | BlockKind.UNIFORM
        b.branch(header.index)
        add_edge(p, latch.index, header.index, logical=not self.jumped_logically())
        self.seal(header)
        self.loops.pop()
        self.depth -= 1
        ex = self.new_block(BlockKind.LOOP_EXIT | (BlockKind.TOP_LEVEL if top else
                                                   BlockKind.NONE))
        for q in lp.exit_logical:
            add_edge(p, q, ex.index, linear=False)
        for q in lp.exit_linear:
            add_edge(p, q, ex.index, logical=False)
        for br, _, _ in self._pending:
            br.fields["targets"] = [ex.index]
        self._pending = saved_pending
        self.enter(ex)

    def uniform_if_jump(self, scc: Temp) -> None:
        """`if (scc) break;` at the loop top (ACO's uniform if with a uniform break)."""
        b = self.b
        p = self.p
        self.end_logical()
        bif = self.cur
        bif.kind |= BlockKind.UNIFORM
        br = b.pseudo("p_cbranch_z", (), [Operand(scc, phys=PhysReg.of(SCC))], targets=[0, 0])
        bthen = self.new_block()
        add_edge(p, bif.index, bthen.index)
        self.enter(bthen)
        self.jump("break")
        belse = self.new_block()
        add_edge(p, bif.index, belse.index)
        br.instr.fields["targets"] = [belse.index, bthen.index]
        self.enter(belse)
        self.end_logical()
        belse.kind |= BlockKind.UNIFORM
        ebr = b.branch(0).instr
        self.merge([(belse, ebr, False)], BlockKind.NONE)


def lower(prog: Prog, target: Target, wave: int = 32) -> Program:
    """The machine IR of `prog` (see the module docstring)."""
    import sys
    import threading

    out: list[Program] = []
    err: list[BaseException] = []

    def work() -> None:
        try:
            out.append(_Lower(prog, target, wave).run())
        except BaseException as e:  # noqa: BLE001 - re-raised below
            err.append(e)

    # on-the-fly SSA recurses along chains of merges: give it a deep stack
    old_limit = sys.getrecursionlimit()
    old_size = threading.stack_size()
    sys.setrecursionlimit(max(old_limit, 200_000))
    threading.stack_size(512 * 1024 * 1024)
    try:
        t = threading.Thread(target=work)
        t.start()
        t.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    if err:
        raise err[0]
    return out[0]


def kernel_inputs(prog: Prog, seed: int = 1) -> dict[str, object]:
    """Arguments for `tests.support.ir_interp.run_kernel` / `radcc.emu` (KERNEL_ARGS order)."""
    rng = np.random.default_rng(seed)
    inp = rng.integers(0, 1 << 32, INP_WORDS, dtype=np.uint64).astype(np.uint32)
    inp[::5] = rng.integers(0, 64, len(inp[::5]))
    out = np.zeros(max(1, prog.slots) * prog.lanes * 2, dtype=np.uint32)
    return {"out": out, "inp": inp, "k": int(rng.integers(0, 100))}


__all__ = ["Cond", "Discard", "GenConfig", "If", "INP_WORDS", "Jump", "KERNEL_ARGS", "Load",
           "Loop", "Op", "Prog", "Src", "Store", "count_discards", "count_statements", "eval_op",
           "generate", "kernel_inputs", "lower", "reference"]
