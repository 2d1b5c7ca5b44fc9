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
  the value just loaded").

Nothing else moves; the load left without uses goes with the next ``dce``.
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value
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


def dead_writes(shader: MirShader) -> bool:
    changed = False
    for b in shader.blocks():
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
