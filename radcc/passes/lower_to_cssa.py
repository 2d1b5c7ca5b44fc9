"""Lower to conventional SSA (ACO's README.md "Spilling": "First, we lower the
shader program to CSSA form"; the idea of ACO's aco_lower_to_cssa.cpp,
after Boissinot et al., "Revisiting Out-of-SSA Translation").

`lower_to_cssa(program)` guarantees that afterwards, for every phi, its
definition and all its temp operands form a *congruence class* of values
whose live ranges do not interfere and which belong to no other phi's
class, so one register can hold all of them and register allocation can
give the phi and its operands the same register. Where an operand would
interfere, it is replaced by a fresh copy made at the end of its
predecessor (a ``p_parallelcopy``, one per predecessor and phi kind:
for logical phis before ``p_logical_end``, for linear phis before the
branch). The copy of a temp a plain ``s_mov_b32/_b64``/``v_mov_b32`` of a
constant defines copies that constant (ACO's isel gives phis constant operands,
get_phi_operand in aco_instruction_selection.cpp, and its lower_to_cssa copies
them in the predecessor: loop accumulators that value numbering made share one
zero are each written with the constant, which lower_to_hw pairs), and such a
move that nothing reads any more is removed. Liveness and kill flags are
recomputed at the end.

Interference (strict SSA): of two values, the one whose definition
dominates the other's (logical dominator tree for VGPRs, linear for
linear temps) interferes with it if it is live right after that other
definition; a phi definition is defined at the start of its block, an
inserted copy at the end of its predecessor.

Cost: one walk over the phis; each interference test looks at one block
(O(block size)); two merged classes keep the larger one's list (union by size). A class is kept sorted by definition point in dominator-tree
preorder (`_Forest`, the dominance forest of Budimlic et al. and Boissinot et
al. that ACO's merge_sets walks): merging two interference-free classes adds
the smaller one's values to the larger one's forest one at a time, each tested
only against its nearest dominating member and the members it becomes the
nearest dominator of. In strict SSA that is enough: if a value dominating c,
which dominates b, is live at b's definition, it is live at c's, so an
interference anywhere shows between a member and its forest parent. Classes
with a value the forest cannot order (a definition shared with another member,
an undefined or unreachable value, another register type or CFG) are compared
pair by pair.
"""

from __future__ import annotations

from bisect import bisect_left

from radcc.ir.dominance import DominatorTree, require_dominance
from radcc.ir.program import PHI_OPCODES, Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import Temp
from radcc.passes.live_var_analysis import get_live_vars, is_linear, live_var_analysis
from radcc.passes.ra_support import branch_index, logical_end_index


class _Ctx:
    def __init__(self, program: Program) -> None:
        self.p = program
        require_dominance(program)
        self.live = get_live_vars(program)
        self.dom_lin = DominatorTree.of_program(program, linear=True)
        self.dom_log = DominatorTree.of_program(program, linear=False)
        self.def_at: dict[int, tuple[int, int]] = {}  # temp -> (block, index); phis: -1
        self.class_of: dict[int, int] = {}  # temp -> phi definition id
        # temps a constant move defines: a copy of one for a phi copies the constant
        self.const_of: dict[int, Operand] = {}
        self.const_def: dict[int, Instruction] = {}
        def_at = self.def_at
        for b in program.blocks:
            bi = b.index
            for i, instr in enumerate(b.instructions):
                defs = instr.definitions
                if not defs:
                    continue
                op = instr.opcode
                at = (bi, -1 if op in PHI_OPCODES else i)
                for d in defs:
                    if d.temp is not None:
                        def_at[d.temp.id] = at
                if op in _CONSTANT_MOVES:
                    c = _constant_move(instr)
                    if c is not None:
                        t = defs[0].temp
                        assert t is not None
                        self.const_of[t.id] = c
                        self.const_def[t.id] = instr

    def live_after(self, t: int, block: int, index: int) -> bool:
        """Is t live right after position `index` of `block` (-1: block start)?"""
        if t in self.live.live_out[block]:
            return True
        for instr in self.p.blocks[block].instructions[index + 1:]:
            if instr.opcode in PHI_OPCODES:
                continue
            for o in instr.operands:
                if o.temp is not None and o.temp.id == t:
                    return True
        return False

    def interfere(self, a: Temp, b: Temp) -> bool:
        if a.id == b.id or a.rc.type != b.rc.type:
            return False
        da, db = self.def_at.get(a.id), self.def_at.get(b.id)
        if da is None or db is None:
            return True  # undefined (live-in to the program): be safe
        dom = self.dom_lin if is_linear(a.rc) else self.dom_log
        if da[0] == db[0]:
            first, second = (a, db) if da[1] < db[1] else (b, da)
        elif dom.dominates(da[0], db[0]):
            first, second = a, db
        elif dom.dominates(db[0], da[0]):
            first, second = b, da
        else:
            return False
        return self.live_after(first.id, second[0], second[1])


class _Forest:
    """One congruence class in dominance order (module docstring): `keys[k]` is
    `temps[k]`'s definition point as (preorder number of its block, index), `up`
    each member's nearest dominating member (None: a root)."""

    __slots__ = ("keys", "temps", "up", "tree", "linear", "type")

    def __init__(self, tree: DominatorTree, linear: bool, type_: object) -> None:
        self.keys: list[tuple[int, int]] = []
        self.temps: list[Temp] = []
        self.up: dict[int, Temp | None] = {}
        self.tree, self.linear, self.type = tree, linear, type_


def _point(ctx: _Ctx, t: Temp, forest: _Forest) -> tuple[int, int] | None:
    """`t`'s definition point as a forest key, None if the forest cannot order it."""
    if t.rc.type != forest.type or is_linear(t.rc) != forest.linear:
        return None
    d = ctx.def_at.get(t.id)
    if d is None or forest.tree.pre[d[0]] < 0:
        return None
    return (forest.tree.pre[d[0]], d[1])


def _dominates(ctx: _Ctx, forest: _Forest, a: Temp, b: Temp) -> bool:
    da, db = ctx.def_at[a.id], ctx.def_at[b.id]
    if da[0] == db[0]:
        return da[1] < db[1]
    return forest.tree.dominates(da[0], db[0])


def _new_forest(ctx: _Ctx, temps: list[Temp]) -> _Forest | None:
    """The forest of an interference-free class, None if it cannot order it."""
    t0 = temps[0]
    linear = is_linear(t0.rc)
    f = _Forest(ctx.dom_lin if linear else ctx.dom_log, linear, t0.rc.type)
    pts = []
    for t in temps:
        k = _point(ctx, t, f)
        if k is None:
            return None
        pts.append((k, t))
    pts.sort(key=lambda x: x[0])
    for j in range(1, len(pts)):
        if pts[j][0] == pts[j - 1][0]:
            return None
    stack: list[Temp] = []
    for k, t in pts:
        while stack and not _dominates(ctx, f, stack[-1], t):
            stack.pop()
        f.up[t.id] = stack[-1] if stack else None
        f.keys.append(k)
        f.temps.append(t)
        stack.append(t)
    return f


def _insert(ctx: _Ctx, f: _Forest, t: Temp, undo: list[tuple[int, Temp | None]]
            ) -> bool | None:
    """Add `t` to `f` unless it interferes with its forest parent or children (then
    False, `f` unchanged); None if `f` cannot order it. `undo` records each
    (temp id, old parent) changed, `t`'s own entry first."""
    key = _point(ctx, t, f)
    if key is None:
        return None
    keys, temps, up = f.keys, f.temps, f.up
    pos = bisect_left(keys, key)
    if pos < len(keys) and keys[pos] == key:
        return None
    parent: Temp | None = None
    if pos:
        p: Temp | None = temps[pos - 1]
        while p is not None and not _dominates(ctx, f, p, t):
            p = up[p.id]
        parent = p
    if parent is not None and ctx.interfere(parent, t):
        return False
    # the members t dominates follow it in preorder; its children are those whose
    # parent was t's parent
    children: list[Temp] = []
    k = pos
    while k < len(temps) and _dominates(ctx, f, t, temps[k]):
        c = temps[k]
        if up[c.id] is parent:
            if ctx.interfere(t, c):
                return False
            children.append(c)
        k += 1
    undo.append((t.id, None))
    keys.insert(pos, key)
    temps.insert(pos, t)
    up[t.id] = parent
    for c in children:
        undo.append((c.id, up[c.id]))
        up[c.id] = t
    return True


def _remove(f: _Forest, ctx: _Ctx, undo: list[tuple[int, Temp | None]],
            added: list[Temp]) -> None:
    """Take `added` out of `f` again, restoring the parents in `undo`."""
    for tid, old in reversed(undo):
        f.up[tid] = old
    for t in added:
        del f.up[t.id]
        d = ctx.def_at[t.id]
        pos = bisect_left(f.keys, (f.tree.pre[d[0]], d[1]))
        del f.keys[pos]
        del f.temps[pos]


def _merge_clash(ctx: _Ctx, a: _Forest, small: list[Temp]) -> bool | None:
    """Whether `small` (interference-free) interferes with `a`'s class; if not, its
    values are added to `a`. None (and `a` unchanged) if `a` cannot order them."""
    undo: list[tuple[int, Temp | None]] = []
    added: list[Temp] = []
    for t in small:
        r = _insert(ctx, a, t, undo)
        if not r:
            _remove(a, ctx, undo, added)
            return None if r is None else True
        added.append(t)
    return False


_CONSTANT_MOVES = frozenset({"s_mov_b32", "s_mov_b64", "v_mov_b32"})


def _constant_move(instr: Instruction) -> Operand | None:
    """The constant a plain ``s_mov_b32/_b64`` / ``v_mov_b32`` of one constant writes
    to its one temp, else None."""
    if instr.opcode not in _CONSTANT_MOVES or instr.fields or \
            len(instr.operands) != 1 or len(instr.definitions) != 1:
        return None
    o, d = instr.operands[0], instr.definitions[0]
    if o.const is None or d.temp is None or d.phys is not None or \
            o.const_bytes != d.temp.rc.bytes or o.const_bytes not in (4, 8):
        return None
    return Operand(const=o.const, const_bytes=o.const_bytes)


def _insert_copy(program: Program, pred: Block, copies: dict[tuple[int, bool], Instruction],
                 t: Temp, logical: bool, const: Operand | None = None) -> Temp:
    key = (pred.index, logical)
    pc = copies.get(key)
    if pc is None:
        pc = Instruction("p_parallelcopy", "PSEUDO")
        copies[key] = pc
        at = logical_end_index(pred) if logical else -1
        if at < 0:
            at = branch_index(pred)
        pred.instructions.insert(at, pc)
    nt = program.allocate_temp(t.rc)
    pc.operands.append(Operand(t) if const is None else
                       Operand(const=const.const, const_bytes=const.const_bytes))
    pc.definitions.append(Definition(nt))
    return nt


def lower_to_cssa(program: Program) -> None:
    """Insert copies so that phis are in conventional SSA (see module docstring)."""
    ctx = _Ctx(program)
    copies: dict[tuple[int, bool], Instruction] = {}
    classes: dict[int, list[Temp]] = {}
    forests: dict[int, _Forest | None] = {}  # per class owner; None: compared pairwise
    for b in program.blocks:
        phis = b.instructions[:b.phi_end()]  # phis lead their block
        for phi in phis:
            d = phi.definitions[0]
            if d.temp is None:
                continue
            logical = phi.opcode == "p_phi"
            preds = b.logical_preds if logical else b.linear_preds
            owner = ctx.class_of.setdefault(d.temp.id, d.temp.id)
            members = classes.setdefault(owner, [d.temp])
            for k, o in enumerate(phi.operands):
                if o.temp is None or k >= len(preds):
                    continue
                t = o.temp
                other = ctx.class_of.get(t.id)
                if other == owner:
                    continue
                group = classes[other] if other is not None else [t]
                clash = t.id in ctx.live.live_in[b.index]
                merged: _Forest | None = None
                if not clash:
                    fm = forests[owner] if owner in forests else _new_forest(ctx, members)
                    forests[owner] = fm
                    fg = forests.get(other) if other is not None else None
                    if other is None or fg is not None:
                        big, small = (fm, group) if fg is None or len(members) >= len(group) \
                            else (fg, members)
                        r = _merge_clash(ctx, big, small) if big is not None else None
                        if r is None:
                            clash = any(ctx.interfere(x, m) for x in group for m in members)
                        else:
                            clash, merged = r, big
                    else:
                        clash = any(ctx.interfere(x, m) for x in group for m in members)
                if clash:
                    nt = _insert_copy(program, program.blocks[preds[k]], copies, t, logical,
                                      ctx.const_of.get(t.id))
                    ctx.def_at[nt.id] = (preds[k], 1 << 30)
                    o.temp = nt
                    o.rc = nt.rc
                    group = [nt]
                    other = None
                    merged = forests.get(owner)  # the copy joins the class
                    if merged is not None and _merge_clash(ctx, merged, group) is not False:
                        merged = None
                elif other is not None:
                    if len(group) > len(members):
                        # union by size: the larger class keeps its list and name, the
                        # smaller one's values are relabelled (a chain of loop phis
                        # otherwise copies its whole class at every merge: quadratic)
                        del classes[owner]
                        forests.pop(owner, None)
                        owner, members, group = other, group, members
                    else:
                        del classes[other]
                        forests.pop(other, None)
                forests[owner] = merged
                members.extend(group)
                for x in group:
                    ctx.class_of[x.id] = owner
    if copies:
        _remove_unread_constants(program, ctx)
        live_var_analysis(program)


def _remove_unread_constants(program: Program, ctx: _Ctx) -> None:
    """The constant moves only the phi copies read (now copying the constant) go."""
    read: set[int] = set()
    for b in program.blocks:
        for instr in b.instructions:
            read.update(o.temp.id for o in instr.operands if o.temp is not None)
    dead = {id(i) for tid, i in ctx.const_def.items() if tid not in read}
    if dead:
        for b in program.blocks:
            b.instructions = [i for i in b.instructions if id(i) not in dead]
