"""lower_local_arrays: local variables ``vars_to_ssa`` left in memory (indexed with
a non-constant index, or a constant one outside the array) go to registers or to
scratch memory.

Each dynamic index is first clamped to the array (``imax(imin(i, n - 1), 0)``,
what the interpreter does for an out-of-bounds index; GLSL leaves it undefined,
this keeps a stray index from touching another variable).

* **Registers** (NIR's ``lower_indirect_derefs``), for variables of at most
  ``REGISTER_ARRAY_MAX_BYTES`` bytes: a load through dynamic indices becomes a
  ``bcsel`` chain over the constant-indexed loads of every element it may reach,
  a store becomes, for every such element, ``store(e, bcsel(sel == e, value,
  load(e)))``; ``vars_to_ssa`` then promotes the variable to SSA values.
* **Constant data** (NIR's ``nir_opt_large_constants``, which ACO reads with
  ``p_constaddr``): a variable accessed through a dynamic index whose only stores
  write constants (non-boolean leaves) through constant indices, one value per element,
  before any load of it, every load in a block of stores after them or in a block each
  block of stores dominates by structure (after it in its control-flow list) -- ``const`` arrays
  indexed at run time: glslang's ``indexable`` copies, also inside the one-trip loop of
  an early return --, is laid out as in scratch into ``shader.constant_data`` (bytes
  the code object carries after the code); its stores vanish and its loads become
  ``@load_constant addr`` with the same byte addresses (elements never written read 0).
  Checked before the two forms below, whatever the variable's size.
* **Scratch** (NIR's ``lower_vars_to_scratch``), above the threshold: the
  variable gets bytes of per-invocation private memory (leaves laid out in
  order, each aligned to its component size, arrays with the element's stride;
  ``shader.scratch_size`` grows); accesses become ``@load_scratch addr`` /
  ``@store_scratch value, addr`` with the byte address ``base + sum(index *
  stride)`` (constant parts folded later into the ``offset`` attribute);
  booleans are stored as 32-bit 0/1.
"""

from __future__ import annotations

import itertools

from ..mir import (
    ArrayType,
    Block,
    CFNode,
    If,
    Instr,
    LocalVar,
    MirShader,
    MType,
    StructType,
    ValType,
    Value,
    const_of,
    iter_blocks,
)
from .dce import dce
from .lower_util import Emit, rewrite_instrs
from .vars_to_ssa import vars_to_ssa

REGISTER_ARRAY_MAX_BYTES = 128


def _leaf_bytes(t: ValType) -> tuple[int, int]:
    comp = 4 if t.base == "bool" or t.bit_size == 1 else t.bit_size // 8
    return comp * t.num_components, comp


def layout(t: MType) -> tuple[int, int]:
    """(size, alignment) in scratch memory."""
    if isinstance(t, ValType):
        return _leaf_bytes(t)
    if isinstance(t, ArrayType):
        size, align = layout(t.element)
        stride = -(-size // align) * align
        return stride * t.length, align
    off = 0
    align = 1
    for m in t.members:
        s, a = layout(m)
        off = -(-off // a) * a + s
        align = max(align, a)
    return -(-off // align) * align, align


def member_offset(t: StructType, index: int) -> int:
    off = 0
    for k, m in enumerate(t.members):
        s, a = layout(m)
        off = -(-off // a) * a
        if k == index:
            return off
        off += s
    raise IndexError(index)


Step = tuple[str, Instr]  # ("struct"|"array", the deref instruction)


def _chain(d: Value) -> tuple[LocalVar, list[Instr]]:
    steps: list[Instr] = []
    p = d.parent
    while p is not None and p.op != "deref_var":
        steps.append(p)
        p = p.srcs[0].parent
    assert p is not None
    steps.reverse()
    return p.attrs["var"], steps


def _type_of(ins: Instr) -> MType:
    return ins.attrs["type"]


def _is_dynamic(step: Instr) -> bool:
    """A non-constant index, or a constant one outside the array (clamped as a dynamic
    one is: vars_to_ssa cannot promote it, e.g. code for a larger spec-constant size
    that is never reached)."""
    if step.op != "deref_array":
        return False
    src = step.srcs[1].parent
    if src is None or src.op != "load_const":
        return True
    at = step.srcs[0].parent.attrs.get("type") if step.srcs[0].parent else None
    k = int(src.attrs["value"][0])
    return isinstance(at, ArrayType) and not 0 <= k < at.length


def _const_index(step: Instr) -> int | None:
    if step.op == "deref_struct":
        return step.attrs["index"]
    c = const_of(step.srcs[1])
    return None if c is None else c[0]


def _leaves_not_bool(t: MType) -> bool:
    if isinstance(t, ValType):
        return t.base != "bool" and t.bit_size != 1
    if isinstance(t, ArrayType):
        return _leaves_not_bool(t.element)
    return all(_leaves_not_bool(m) for m in t.members)


def _dominated(shader: MirShader) -> dict[int, list[Block]]:
    """Per block (by id): the blocks it dominates by structure, those of the nodes after it
    in its control-flow list (a loop's continue construct excepted)."""
    out: dict[int, list[Block]] = {}
    _dominated_in(shader.function.body, out)
    return out


def _dominated_in(cf: list[CFNode], out: dict[int, list[Block]]) -> None:
    """`_dominated` of one control-flow list into `out` (a module function: a recursive
    closure would be a reference cycle holding `out`, freed only by the cyclic collector)."""
    for i, n in enumerate(cf):
        if isinstance(n, Block):
            out[id(n)] = list(iter_blocks(cf[i + 1:]))
        elif isinstance(n, If):
            _dominated_in(n.then_list, out)
            _dominated_in(n.else_list, out)
        else:
            _dominated_in(n.body, out)
            _dominated_in(n.cont, out)


def _constant_vars(shader: MirShader) -> dict[LocalVar, bytes]:
    """The variables read from constant data (module docstring) and their bytes."""
    derefs = ("deref_var", "deref_array", "deref_struct")
    bad: set[LocalVar] = set()
    stores: dict[LocalVar, list[Instr]] = {}
    store_blocks: dict[LocalVar, list[Block]] = {}
    loads: dict[LocalVar, list[Block]] = {}
    dynamic: set[LocalVar] = set()
    for b in shader.blocks():
        for ins in b.instrs:
            for k, src in enumerate(ins.srcs):
                p = src.parent
                if p is None or p.op not in derefs or p.attrs.get("var") is None:
                    continue
                var = p.attrs["var"]
                if ins.op in derefs and k == 0:
                    continue
                if ins.op == "load_deref":
                    _, steps = _chain(src)
                    if any(_is_dynamic(st) for st in steps):
                        dynamic.add(var)
                    loads.setdefault(var, []).append(b)
                elif ins.op == "store_deref" and k == 0:
                    # constant stores, none after a load of the variable
                    if var in loads or const_of(ins.srcs[1]) is None:
                        bad.add(var)
                    stores.setdefault(var, []).append(ins)
                    blocks = store_blocks.setdefault(var, [])
                    if b not in blocks:
                        blocks.append(b)
                else:
                    bad.add(var)
    dom = _dominated(shader)
    for var, blocks in loads.items():  # every block of stores dominates every load
        for sb in store_blocks.get(var, []):
            after = {id(x) for x in dom.get(id(sb), [])} | {id(sb)}
            if any(id(x) not in after for x in blocks):
                bad.add(var)
    out: dict[LocalVar, bytes] = {}
    for var in shader.function.locals:
        if var in bad or var not in dynamic or not _leaves_not_bool(var.type):
            continue
        size, _align = layout(var.type)
        data = bytearray(size)
        written = bytearray(size)
        ok = True
        for st in stores.get(var, []):
            _, steps = _chain(st.srcs[0])
            off = 0
            t: MType = var.type
            for step in steps:
                ki = _const_index(step)
                if ki is None:
                    ok = False
                    break
                if step.op == "deref_struct":
                    assert isinstance(t, StructType)
                    off += member_offset(t, ki)
                    t = t.members[ki]
                else:
                    assert isinstance(t, ArrayType)
                    esize, ealign = layout(t.element)
                    if not 0 <= ki < t.length:
                        ok = False
                        break
                    off += ki * (-(-esize // ealign) * ealign)
                    t = t.element
            if not ok or not isinstance(t, ValType):
                ok = False
                break
            vals = const_of(st.srcs[1])
            assert vals is not None
            nb = t.bit_size // 8
            for j, v in enumerate(vals):
                at = slice(off + j * nb, off + (j + 1) * nb)
                new = (v & ((1 << t.bit_size) - 1)).to_bytes(nb, "little")
                if written[at] != bytes(nb) and data[at] != new:
                    ok = False  # two different values for one element
                data[at] = new
                written[at] = b"\xff" * nb
        if ok:
            out[var] = bytes(data)
    return out


class _Lower:
    def __init__(self, shader: MirShader) -> None:
        self.shader = shader
        self.scratch_base: dict[LocalVar, int] = {}
        self.const_base: dict[LocalVar, int] = {}
        self.in_regs: set[LocalVar] = set()
        consts = _constant_vars(shader)
        for var in shader.function.locals:
            if var in consts:
                data = bytearray(shader.constant_data)
                data += bytes(-len(data) % 16)
                self.const_base[var] = len(data)
                shader.constant_data = bytes(data + consts[var])
                continue
            size, align = layout(var.type)
            if size <= REGISTER_ARRAY_MAX_BYTES:
                self.in_regs.add(var)
            else:
                base = -(-shader.scratch_size // 16) * 16
                self.scratch_base[var] = base
                shader.scratch_size = base + size

    def clamp(self, e: Emit, idx: Value, length: int) -> Value:
        bits = idx.bit_size
        if bits != 32:
            idx = e.alu("i2i32", 32, idx)
        idx = e.alu("imin", 32, idx, e.const(32, length - 1))
        return e.alu("imax", 32, idx, e.const(32, 0))

    def rule(self, ins: Instr, e: Emit) -> Value | list[Value] | None:
        if ins.op not in ("load_deref", "store_deref"):
            return None
        var, steps = _chain(ins.srcs[0])
        if var in self.const_base:
            if ins.op == "store_deref":
                return []
            return self.memory(ins, e, var, steps, self.const_base[var], "load_constant")
        if var in self.scratch_base:
            return self.memory(ins, e, var, steps, self.scratch_base[var], "load_scratch")
        if var in self.in_regs and any(_is_dynamic(s) for s in steps):
            return self.registers(ins, e, var, steps)
        return None

    # ----- registers -----
    def registers(self, ins: Instr, e: Emit, var: LocalVar, steps: list[Instr]
                  ) -> Value | list[Value]:
        dyn = [s for s in steps if _is_dynamic(s)]
        lengths = []
        for s in dyn:
            at = s.srcs[0].parent.attrs["type"] if s.srcs[0].parent else None
            assert isinstance(at, ArrayType)
            lengths.append(at.length)
        sel: Value | None = None
        for s, n in zip(dyn, lengths, strict=True):
            c = self.clamp(e, s.srcs[1], n)
            sel = c if sel is None else e.alu("iadd", 32, e.alu("imul", 32, sel,
                                                                   e.const(32, n)), c)
        assert sel is not None
        combos = list(itertools.product(*[range(n) for n in lengths]))
        derefs = [self.const_chain(e, var, steps, dict(zip(dyn, c, strict=True)))
                  for c in combos]
        if ins.op == "load_deref":
            d = ins.dest
            assert d is not None
            vals: list[Value] = []
            for dr in derefs:
                lv = e.instr("load_deref", d.bit_size, d.num_components, [dr])
                assert lv is not None
                vals.append(lv)
            acc = vals[-1]
            for j in range(len(vals) - 2, -1, -1):
                cond = self.splat(e, e.alu("ieq", 1, sel, e.const(32, j)), d.num_components)
                sel_v = e.instr("bcsel", d.bit_size, d.num_components, [cond, vals[j], acc])
                assert sel_v is not None
                acc = sel_v
            return acc
        v = ins.srcs[1]
        for j, dr in enumerate(derefs):
            old = e.instr("load_deref", v.bit_size, v.num_components, [dr])
            assert old is not None
            cond = self.splat(e, e.alu("ieq", 1, sel, e.const(32, j)), v.num_components)
            new = e.instr("bcsel", v.bit_size, v.num_components, [cond, v, old])
            assert new is not None
            e.instr("store_deref", None, 1, [dr, new])
        return []

    def splat(self, e: Emit, c: Value, n: int) -> Value:
        if n == 1:
            return c
        v = e.instr("mov", 1, n, [c], comps=(0,) * n)
        assert v is not None
        return v

    def const_chain(self, e: Emit, var: LocalVar, steps: list[Instr],
                    consts: dict[Instr, int]) -> Value:
        d = e.instr("deref_var", 32, 1, [], var=var, type=var.type)
        assert d is not None
        for s in steps:
            if s.op == "deref_struct":
                d = e.instr("deref_struct", 32, 1, [d], **s.attrs)
            elif s in consts:
                d = e.instr("deref_array", 32, 1, [d, e.const(32, consts[s])], **s.attrs)
            else:
                d = e.instr("deref_array", 32, 1, [d, s.srcs[1]], **s.attrs)
            assert d is not None
        return d

    # ----- scratch -----
    def memory(self, ins: Instr, e: Emit, var: LocalVar, steps: list[Instr], const: int,
               load: str) -> Value | list[Value]:
        """A load/store of `var` at byte `const` of scratch (`load` ``load_scratch``) or of
        the constant data (``load_constant``, loads only)."""
        addr: Value | None = None
        t: MType = var.type
        for s in steps:
            if s.op == "deref_struct":
                assert isinstance(t, StructType)
                const += member_offset(t, s.attrs["index"])
                t = t.members[s.attrs["index"]]
                continue
            assert isinstance(t, ArrayType)
            size, align = layout(t.element)
            stride = -(-size // align) * align
            c = self.clamp(e, s.srcs[1], t.length)
            part = e.alu("imul", 32, c, e.const(32, stride))
            addr = part if addr is None else e.alu("iadd", 32, addr, part)
            t = t.element
        assert isinstance(t, ValType)
        base = e.const(32, const)
        addr = base if addr is None else e.alu("iadd", 32, addr, base)
        _, comp = _leaf_bytes(t)
        if ins.op == "load_deref":
            d = ins.dest
            assert d is not None
            if d.bit_size == 1:
                raw = e.instr(load, 32, d.num_components, [addr], align=comp)
                assert raw is not None
                zero = e.instr("load_const", 32, d.num_components, [],
                               value=(0,) * d.num_components)
                assert zero is not None
                r = e.instr("ine", 1, d.num_components, [raw, zero])
            else:
                r = e.instr(load, d.bit_size, d.num_components, [addr], align=comp)
            assert r is not None
            return r
        v = ins.srcs[1]
        if v.bit_size == 1:
            v2 = e.instr("b2i32", 32, v.num_components, [v])
            assert v2 is not None
            v = v2
        e.instr("store_scratch", None, 1, [v, addr], align=comp)
        return []


def lower_local_arrays(shader: MirShader) -> bool:
    if not shader.function.locals:
        return False
    lw = _Lower(shader)
    changed = rewrite_instrs(shader, lw.rule)
    dce(shader)  # the dynamic derefs, so that vars_to_ssa sees constant indices only
    if lw.in_regs:
        vars_to_ssa(shader)
        dce(shader)
    return changed
