"""copy_prop: forward copies. A ``mov`` that keeps every component in order, a
``vecN`` that rebuilds a value from its own components in order, a phi whose
sources are all one value (or the phi itself), and a ``bitcast`` to the same
size are replaced by their source."""

from __future__ import annotations

from ..mir import Instr, MirShader, Value, rewrite_uses


def _copy_of(ins: Instr) -> Value | None:
    d = ins.dest
    if d is None:
        return None
    if ins.op == "mov":
        s = ins.srcs[0]
        comps = tuple(ins.attrs.get("comps", range(d.num_components)))
        if comps == tuple(range(s.num_components)):
            return s
        src = s.parent
        # mov of a mov: compose the swizzles
        if src is not None and src.op == "mov" and "comps" in src.attrs:
            inner = tuple(src.attrs["comps"])
            ins.srcs = [src.srcs[0]]
            ins.attrs["comps"] = tuple(inner[c] for c in comps)
        return None
    if ins.op.startswith("vec") and ins.op[3:].isdigit():
        base: Value | None = None
        for k, s in enumerate(ins.srcs):
            p = s.parent
            if p is None or p.op != "mov" or tuple(p.attrs.get("comps", ())) != (k,):
                return None
            if base is None:
                base = p.srcs[0]
            elif p.srcs[0] is not base:
                return None
        if base is not None and base.num_components == d.num_components:
            return base
        return None
    if ins.op == "phi":
        vals = {s for s in ins.srcs if s is not d}
        if len(vals) == 1:
            return vals.pop()
        return None
    if ins.op == "bitcast":
        s = ins.srcs[0]
        if s.bit_size == d.bit_size and s.num_components == d.num_components:
            return s
    return None


_COPY_OPS = frozenset({"mov", "phi", "bitcast"})  # and vecN: what `_copy_of` may forward


def copy_prop(shader: MirShader) -> bool:
    mapping: dict[Value, Value] = {}
    for b in shader.blocks():
        for ins in b.instrs:
            op = ins.op
            if op not in _COPY_OPS and not op.startswith("vec"):
                continue  # (`_copy_of` returns None)
            v = _copy_of(ins)
            if v is not None and ins.dest is not None:
                mapping[ins.dest] = v
    rewrite_uses(shader, mapping)
    return bool(mapping)
