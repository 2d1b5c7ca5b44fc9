"""dead_writes: remove memory stores that cannot change memory's defined contents.

Guarantees (each store removed is one of):

* a store whose whole value is ``undef`` (``@store_ssbo``/``@store_shared``/
  ``@store_scratch`` of an ``undef``, or of a ``vecN`` of ``undef`` only): the
  stored value is undefined, so memory keeping its old contents is one of its
  allowed values (NIR's nir_opt_undef, "store of undef");
* a store of a value loaded from the same place: ``@store_X %v, %a`` where ``%v``
  is ``@load_X %a`` of the same space, binding, address value and alignment, in
  the same block, and no instruction with a side effect (store, atomic, barrier,
  any non-eliminable intrinsic, whatever binding it names: bindings may alias)
  lies between the load and the store (NIR's nir_opt_copy_prop_vars, "store of
  the value just loaded");
* a store overwritten later in its block: a later store of the same space,
  binding, address value and offset covers at least its bytes, and nothing between
  them may read memory (no load, atomic, barrier or other instruction with a side
  effect but stores; stores elsewhere do not read it) (NIR's
  nir_opt_dead_write_vars).

Nothing else moves; the load left without uses goes with the next ``dce``.
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value
from ..mir_ops import ALU_OPS
from .dce import has_side_effect

# store -> the load of the same memory space
_STORE_LOAD = {"store_ssbo": "load_ssbo", "store_shared": "load_shared",
               "store_scratch": "load_scratch"}


def _all_undef(v: Value) -> bool:
    p = v.parent
    if p is None:
        return False
    if p.op == "undef":
        return True
    if p.op.startswith("vec") and p.op[3:].isdigit():
        return all(s.parent is not None and s.parent.op == "undef" for s in p.srcs)
    return False


def _same_place(load: Instr, store: Instr) -> bool:
    return (load.srcs[0] is store.srcs[1]
            and load.attrs.get("binding") == store.attrs.get("binding")
            and load.attrs.get("align") == store.attrs.get("align")
            and load.attrs.get("offset", 0) == store.attrs.get("offset", 0))


def _bytes(v: Value) -> int:
    return max(1, v.bit_size // 8) * v.num_components


def _overwritten(instrs: list[Instr]) -> set[Instr]:
    """The stores of `instrs` (one block) a later store covers with no read between."""
    dead: set[Instr] = set()
    # (op, binding, address value, offset) -> bytes a later store writes there
    later: dict[tuple[str, object, Value, int], int] = {}
    for ins in reversed(instrs):
        if ins.op in _STORE_LOAD:
            key = (ins.op, ins.attrs.get("binding"), ins.srcs[1], ins.attrs.get("offset", 0))
            n = _bytes(ins.srcs[0])
            if later.get(key, 0) >= n:
                dead.add(ins)
            else:
                later[key] = max(later.get(key, 0), n)
        elif not (ins.op in ALU_OPS or ins.op in ("load_const", "undef", "phi")):
            later.clear()  # a load, atomic, barrier, jump ...: may read memory
    return dead


def dead_writes(shader: MirShader) -> bool:
    changed = False
    stores = _STORE_LOAD.keys()
    for b in shader.blocks():
        if stores.isdisjoint([i.op for i in b.instrs]):
            continue  # (no store: nothing below removes an instruction)
        over = _overwritten(b.instrs)
        if over:
            b.instrs = [i for i in b.instrs if i not in over]
            changed = True
        keep: list[Instr] = []
        # loads seen since the last instruction with a side effect
        fresh: set[Instr] = set()
        for ins in b.instrs:
            load_op = _STORE_LOAD.get(ins.op)
            if load_op is not None:
                v = ins.srcs[0]
                src = v.parent
                if _all_undef(v) or (src is not None and src.op == load_op and src in fresh
                                     and _same_place(src, ins)):
                    changed = True
                    continue
            if has_side_effect(ins):
                fresh.clear()
            elif ins.op in _STORE_LOAD.values():
                fresh.add(ins)
            keep.append(ins)
        if len(keep) != len(b.instrs):
            b.instrs = keep
    return changed
