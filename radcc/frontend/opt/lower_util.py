"""Helpers shared by the isel lowering passes (``lower_*``, ``fold_*``, ``loop_unroll``).

* ``Emit``: builds scalar instructions into a list (the replacement of one
  instruction), with small arithmetic helpers that fold nothing.
* ``rewrite_instrs(shader, fn, ops=...)``: calls ``fn(ins, emit)`` for every
  instruction (phis excepted; with ``ops``, those of these opcodes only); when it returns
  a value (or a list of component values) the instruction is replaced by what ``fn``
  emitted and its uses by that value. Emitted instructions are offered to ``fn`` in
  turn, so a lowering may produce operations another rule of the same pass lowers
  further.
* ``replace_by_loops(shader, wanted, expand, ops=...)``: splits the block of every
  instruction ``wanted`` picks there (of the opcodes ``ops``, when given) and puts the
  loop ``expand`` builds for it between the halves (the waterfall and compare-and-swap
  loops of ``lower_non_uniform``/``lower_atomics``).
* ``clone_cf``: copies a control-flow list with fresh blocks and values.
* ``demote_to_vars``: turns SSA values into local variables (a store after the
  definition, a load before each use) so that ``vars_to_ssa`` rebuilds SSA
  after code was duplicated or moved (what NIR's ``repair_ssa`` achieves).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..mir import (
    Block,
    CFNode,
    If,
    Instr,
    Loop,
    MirShader,
    ValType,
    Value,
    const_of,
    iter_nodes,
    mask,
    rewrite_uses,
)
from ..mir_builder import float_bits
from ..mir_ops import ALU_OPS


class Emit:
    """Appends new instructions to ``self.out``."""

    def __init__(self, shader: MirShader) -> None:
        self.shader = shader
        self.out: list[Instr] = []

    def instr(self, op: str, bits: int | None, ncomp: int, srcs: Sequence[Value],
              **attrs: Any) -> Value | None:
        v = self.shader.new_value(bits, ncomp) if bits is not None else None
        self.out.append(Instr(op, v, list(srcs), attrs))
        return v

    def alu(self, op: str, bits: int, *srcs: Value, **attrs: Any) -> Value:
        """A scalar ALU op; ``bits`` is the destination size (1 for comparisons)."""
        if ALU_OPS[op].dest == "bool":
            bits = 1
        v = self.instr(op, bits, 1, srcs, **attrs)
        assert v is not None
        return v

    def const(self, bits: int, value: int) -> Value:
        v = self.instr("load_const", bits, 1, [], value=(value & mask(bits),))
        assert v is not None
        return v

    def fconst(self, bits: int, x: float) -> Value:
        return self.const(bits, float_bits(x, bits))

    def intr(self, name: str, srcs: Sequence[Value], dest: tuple[int, int] | None,
             **attrs: Any) -> Value | None:
        return self.instr(name, dest[0] if dest else None, dest[1] if dest else 1, srcs,
                          **attrs)

    # ----- helpers on scalars -----
    def lo(self, v: Value) -> Value:
        return self.alu("unpack_64_2x32_split_x", 32, v)

    def hi(self, v: Value) -> Value:
        return self.alu("unpack_64_2x32_split_y", 32, v)

    def pack(self, lo: Value, hi: Value) -> Value:
        return self.alu("pack_64_2x32_split", 64, lo, hi)

    def bcsel(self, c: Value, a: Value, b: Value) -> Value:
        return self.alu("bcsel", a.bit_size, c, a, b)


def const_int(v: Value) -> int | None:
    """The raw bits of a scalar constant (or a splat vector constant), else None."""
    c = const_of(v)
    if c is None or len(set(c)) != 1:
        return None
    return c[0]


def signed(x: int, bits: int) -> int:
    x &= mask(bits)
    return x - (1 << bits) if x >> (bits - 1) else x


Result = Value | list[Value] | None
Rule = Callable[[Instr, Emit], Result]


def rewrite_instrs(shader: MirShader, fn: Rule, vectors: dict[Value, list[Value]] | None = None,
                   ops: frozenset[str] | None = None) -> bool:
    """Replace instructions as ``fn`` says. A list result (component values) is kept
    in ``vectors`` (when given) and the destination rebuilt with a ``vecN`` for any
    remaining vector use. ``ops``: the opcodes ``fn`` may replace (for any other it
    returns None), given so that the others are not offered to it: a block without
    them is not rebuilt, a shader without them not changed."""
    rw = _Rewrite(shader, fn, vectors, ops)
    for b in shader.structure()[0]:
        instrs = b.instrs
        if ops is not None and ops.isdisjoint([ins.op for ins in instrs]):
            continue
        new: list[Instr] = []
        for ins in instrs:
            rw.visit(ins, new, 0)
        for ins in new:
            ins.block = b
        b.instrs = new
    mapping = rw.mapping
    rewrite_uses(shader, mapping)
    if vectors is not None and mapping:
        for k, lst in vectors.items():
            vectors[k] = [_follow(mapping, x) for x in lst]
    return rw.changed


class _Rewrite:
    """`rewrite_instrs`' state (a class, not a recursive closure: that would be a
    reference cycle holding the shader until the cyclic collector runs)."""

    def __init__(self, shader: MirShader, fn: Rule,
                 vectors: dict[Value, list[Value]] | None, ops: frozenset[str] | None) -> None:
        self.shader = shader
        self.fn = fn
        self.vectors = vectors
        self.ops = ops
        self.mapping: dict[Value, Value] = {}
        self.changed = False
        self.spare: Emit | None = None  # an `Emit` a rule was given and left empty

    def visit(self, ins: Instr, new: list[Instr], depth: int) -> None:
        op = ins.op
        ops = self.ops
        if op == "phi" or op == "break" or op == "continue" or depth > 64 or \
                (ops is not None and op not in ops):  # (is_jump)
            new.append(ins)
            return
        shader = self.shader
        e = self.spare
        if e is None:
            e = Emit(shader)
        else:
            self.spare = None
        r = self.fn(ins, e)
        if r is None:
            new.append(ins)
            if not e.out:
                self.spare = e  # unused: the next instruction's
            return
        self.changed = True
        for x in e.out:
            self.visit(x, new, depth + 1)
        d = ins.dest
        if d is None:
            return
        mapping = self.mapping
        if isinstance(r, list):
            if self.vectors is not None:
                self.vectors[d] = r
            if len(r) == 1:
                mapping[d] = r[0]
            else:
                v = shader.new_value(d.bit_size, d.num_components)
                vi = Instr(f"vec{len(r)}", v, r)
                new.append(vi)
                mapping[d] = v
        elif r is not d:
            mapping[d] = r


def replace_by_loops(shader: MirShader, wanted: Callable[[Instr], bool],
                     expand: Callable[[Block, Instr, Block], Loop],
                     ops: frozenset[str] | None = None) -> bool:
    """Replace each instruction ``wanted`` picks (phis excepted), in control-flow order, by
    a loop: its block ``pre`` keeps what precedes it, a new block ``post`` takes what
    follows it (phis that named ``pre`` as a predecessor name ``post``), and
    ``expand(pre, ins, post)`` builds the loop that goes between them (it may append to
    ``pre`` and put phis at the start of ``post``). The loop is not searched again: it
    must not hold an instruction ``wanted`` picks. ``ops``: the opcodes ``wanted`` may
    pick, given so that a block without them is not searched."""
    return _by_loops(shader, wanted, expand, shader.function.body, ops)


def _by_loops(shader: MirShader, wanted: Callable[[Instr], bool],
              expand: Callable[[Block, Instr, Block], Loop], cf: list[CFNode],
              ops: frozenset[str] | None) -> bool:
    """`replace_by_loops` on one control-flow list (a module-level function: a recursive
    closure is a reference cycle, freed only by the cyclic collector)."""
    changed = False
    k = 0
    while k < len(cf):
        n = cf[k]
        k += 1
        if isinstance(n, If):
            changed |= _by_loops(shader, wanted, expand, n.then_list, ops)
            changed |= _by_loops(shader, wanted, expand, n.else_list, ops)
        elif isinstance(n, Loop):
            changed |= _by_loops(shader, wanted, expand, n.body, ops)
            changed |= _by_loops(shader, wanted, expand, n.cont, ops)
        else:
            if ops is not None and ops.isdisjoint([ins.op for ins in n.instrs]):
                continue
            pos = next((i for i, ins in enumerate(n.instrs) if wanted(ins)), None)
            if pos is None:
                continue
            ins = n.instrs[pos]
            post = shader.new_block()
            rest = n.instrs[pos + 1:]
            del n.instrs[pos:]
            for i in rest:
                post.append(i)
            for b in shader.blocks():
                for phi in b.phis:
                    phi.preds = [post if p is n else p for p in phi.preds]
            cf[k:k] = [expand(n, ins, post), post]
            k += 1  # post is searched next
            changed = True
    return changed


def _follow(mapping: dict[Value, Value], v: Value) -> Value:
    while v in mapping:
        v = mapping[v]
    return v


# ---------------------------------------------------------------- cloning


def clone_cf(shader: MirShader, cf: list[CFNode], vmap: dict[Value, Value],
             bmap: dict[Block, Block]) -> list[CFNode]:
    """A copy of ``cf`` with new blocks and values; sources defined outside stay
    (or map through ``vmap`` when present). ``vmap``/``bmap`` receive the copies."""
    local: dict[Block, Block] = {}
    out = _clone_shape(shader, cf, local)
    bmap.update(local)
    pending: list[Instr] = []
    for old_b, new_b in local.items():
        if True:
            for ins in old_b.instrs:
                d = None
                if ins.dest is not None:
                    d = shader.new_value(ins.dest.bit_size, ins.dest.num_components)
                    vmap[ins.dest] = d
                c = Instr(ins.op, d, list(ins.srcs), dict(ins.attrs))
                c.preds = list(ins.preds)
                new_b.append(c)
                pending.append(c)
    for c in pending:
        c.srcs = [vmap.get(s, s) for s in c.srcs]
        c.preds = [bmap.get(p, p) for p in c.preds]
    for n in iter_nodes(out):
        if isinstance(n, If):
            n.cond = vmap.get(n.cond, n.cond)
    return out


def _clone_shape(shader: MirShader, cf: list[CFNode], bmap: dict[Block, Block]) -> list[CFNode]:
    out: list[CFNode] = []
    for n in cf:
        if isinstance(n, Block):
            nb = shader.new_block()
            bmap[n] = nb
            out.append(nb)
        elif isinstance(n, If):
            out.append(If(n.cond, _clone_shape(shader, n.then_list, bmap),
                          _clone_shape(shader, n.else_list, bmap)))
        else:
            out.append(Loop(_clone_shape(shader, n.body, bmap),
                            _clone_shape(shader, n.cont, bmap)))
    return out


# ---------------------------------------------------------------- demotion


def _block_before(cf: list[CFNode], node: CFNode) -> Block | None:
    for i, n in enumerate(cf):
        if n is node:
            prev = cf[i - 1]
            return prev if isinstance(prev, Block) else None
        if isinstance(n, If):
            r = _block_before(n.then_list, node) or _block_before(n.else_list, node)
            if r is not None:
                return r
        elif isinstance(n, Loop):
            r = _block_before(n.body, node) or _block_before(n.cont, node)
            if r is not None:
                return r
    return None


def _insert_at_end(b: Block, ins: list[Instr]) -> None:
    pos = len(b.instrs) - (1 if b.jump is not None else 0)
    for k, x in enumerate(ins):
        b.insert(pos + k, x)


def demote_to_vars(shader: MirShader, values: set[Value]) -> None:
    """Store each value to a fresh local variable where it is defined (for a phi:
    at the end of each predecessor) and load it before each use (for a use by a
    phi: at the end of that predecessor; by an if condition: in the block before
    the if). ``vars_to_ssa`` then rebuilds SSA form."""
    if not values:
        return
    var_of = {}
    for v in sorted(values, key=lambda x: x.index):
        base = "bool" if v.bit_size == 1 else "uint"
        var_of[v] = shader.new_local(f"_d{v.index}", ValType(base, v.bit_size, v.num_components))

    def deref(v: Value) -> tuple[Instr, Value]:
        d = shader.new_value(32, 1)
        return Instr("deref_var", d, [], {"var": var_of[v], "type": var_of[v].type}), d

    def load(v: Value) -> tuple[list[Instr], Value]:
        di, d = deref(v)
        r = shader.new_value(v.bit_size, v.num_components)
        return [di, Instr("load_deref", r, [d])], r

    def store(v: Value, src: Value) -> list[Instr]:
        di, d = deref(v)
        return [di, Instr("store_deref", None, [d, src])]

    blocks = shader.structure()[0]
    # uses first (collect before definitions change)
    for b in blocks:
        k = 0
        while k < len(b.instrs):
            ins = b.instrs[k]
            if ins.op == "phi":
                for i, s in enumerate(ins.srcs):
                    if s in values:
                        seq, r = load(s)
                        _insert_at_end(ins.preds[i], seq)
                        ins.srcs[i] = r
                k += 1
                continue
            for i, s in enumerate(list(ins.srcs)):
                if s in values:
                    seq, r = load(s)
                    for x in seq:
                        b.insert(k, x)
                        k += 1
                    ins.srcs[i] = r
            k += 1
    for n in iter_nodes(shader.function.body):
        if isinstance(n, If) and n.cond in values:
            prev = _block_before(shader.function.body, n)
            assert prev is not None
            seq, r = load(n.cond)
            _insert_at_end(prev, seq)
            n.cond = r
    # definitions
    for b in blocks:
        for ins in list(b.instrs):
            d = ins.dest
            if d is None or d not in values:
                continue
            if ins.op == "phi":
                for p, s in zip(ins.preds, ins.srcs, strict=True):
                    _insert_at_end(p, store(d, s))
                b.instrs.remove(ins)  # every use already loads the variable
            else:
                pos = b.instrs.index(ins) + 1
                for x in store(d, d):
                    b.insert(pos, x)
                    pos += 1
