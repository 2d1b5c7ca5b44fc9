"""range_fold: integer compares decided by value ranges become constants.

After NIR's ``nir_unsigned_upper_bound`` and the range-conditioned rules of
``nir_opt_algebraic`` (``is_ult``-style conditions): every integer value gets an
unsigned interval ``[lo, hi]`` (no wrap-around), from

- constants (``[c, c]``);
- system values bounded by the (constant, specialization-resolved) workgroup
  size: ``@load_local_invocation_index`` < x*y*z, component k of
  ``@load_local_invocation_id`` < size[k], ``@load_subgroup_invocation`` < 64
  (the largest wave), ``@load_subgroup_id`` < ceil(x*y*z / 32) (the smallest wave);
- ALU arithmetic whose result provably does not wrap (``iadd``, ``imul``,
  ``ishl``/``ushr``/``udiv``/``umod`` by constants, ``isub`` with ``lo(a) >= hi(b)``),
  ``iand``/``ior``, ``umin``/``umax``, ``bcsel`` and phis (the hull of their
  sources; a phi on a cycle is unknown), zero-extensions ``u2u*``;
- anything else: the whole range of its bit size.

Then ``ult uge ieq ine`` (and ``ilt ige`` when both intervals lie below the sign
bit, where signed and unsigned order agree) whose answer is the same for every
pair of values in the two intervals become ``load_const`` true/false. Sound by
construction: an interval always contains every value the SSA def can take in
the interpreter (``mir_interp``), so the folded compare gives what the
interpreter would give. Payoff: after ``loop_unroll`` the copies of a loop over
the workgroup size (``if (l + st < wg)``) whose condition is now decided are
removed by ``dead_branch``.
"""

from __future__ import annotations

import math

from ..mir import Instr, MirShader, Value, const_of, mask

Interval = tuple[int, int]

_COMPARES = frozenset({"ult", "uge", "ieq", "ine", "ilt", "ige"})


class _Ranges:
    def __init__(self, shader: MirShader) -> None:
        self.wg = shader.workgroup_size
        self.memo: dict[Value, Interval] = {}

    def full(self, v: Value) -> Interval:
        return (0, mask(v.bit_size))

    def get(self, v: Value) -> Interval:
        r = self.memo.get(v)
        if r is None:
            self.memo[v] = self.full(v)  # cycles (loop phis) stay unknown
            r = self._compute(v)
            self.memo[v] = r
        return r

    def _system(self, ins: Instr, comp: int | None) -> Interval | None:
        x, y, z = self.wg
        n = x * y * z
        op = ins.op
        if op == "load_local_invocation_index":
            return (0, n - 1)
        if op == "load_local_invocation_id" and comp is not None:
            return (0, self.wg[comp] - 1)
        if op == "load_subgroup_invocation":
            return (0, 63)
        if op == "load_subgroup_id":
            return (0, max(0, math.ceil(n / 32) - 1))
        return None

    def _compute(self, v: Value) -> Interval:
        ins = v.parent
        top = mask(v.bit_size)
        full = (0, top)
        if ins is None or v.bit_size == 1:
            return full
        if ins.op == "load_const":
            c = const_of(v)
            return (min(c), max(c)) if c else full
        if v.num_components == 1 and ins.op == "mov" and ins.srcs[0].num_components > 1:
            src = ins.srcs[0].parent
            comps = ins.attrs.get("comps", (0,))
            if src is not None and src.op != "load_const":
                r = self._system(src, comps[0])
                return r if r is not None else full
        if v.num_components != 1:
            return full
        sys_r = self._system(ins, None)
        if sys_r is not None and ins.op != "load_local_invocation_id":
            return sys_r
        if ins.op == "phi" or ins.op == "bcsel":
            srcs = ins.srcs if ins.op == "phi" else ins.srcs[1:]
            rs = [self.get(s) for s in srcs]
            return (min(r[0] for r in rs), max(r[1] for r in rs)) if rs else full
        if ins.op == "mov" and ins.srcs[0].num_components == 1:
            return self.get(ins.srcs[0])
        if ins.op.startswith("u2u") and ins.srcs[0].bit_size <= v.bit_size:
            return self.get(ins.srcs[0])
        if len(ins.srcs) != 2 or any(s.bit_size != v.bit_size for s in ins.srcs[:1]):
            return full
        (alo, ahi), (blo, bhi) = self.get(ins.srcs[0]), self.get(ins.srcs[1])
        bc = blo if blo == bhi else None
        op = ins.op
        r = None
        if op == "iadd":
            r = (alo + blo, ahi + bhi)
        elif op == "isub" and alo >= bhi:
            r = (alo - bhi, ahi - blo)
        elif op == "imul":
            r = (alo * blo, ahi * bhi)
        elif op == "ishl" and bc is not None and bc < v.bit_size:
            r = (alo << bc, ahi << bc)
        elif op == "ushr" and bc is not None and bc < v.bit_size:
            r = (alo >> bc, ahi >> bc)
        elif op == "ushr":
            r = (0, ahi)
        elif op == "udiv" and bc is not None and bc > 0:
            r = (alo // bc, ahi // bc)
        elif op == "umod" and bc is not None and bc > 0:
            r = (alo, ahi) if ahi < bc else (0, bc - 1)
        elif op == "iand":
            r = (0, min(ahi, bhi))
        elif op == "ior":
            r = (max(alo, blo), (1 << max(ahi.bit_length(), bhi.bit_length())) - 1)
        elif op == "umin":
            r = (min(alo, blo), min(ahi, bhi))
        elif op == "umax":
            r = (max(alo, blo), max(ahi, bhi))
        if r is None or r[1] > top:
            return full
        return r


def _decide(op: str, a: Interval, b: Interval, bits: int) -> bool | None:
    """The compare's answer if it is the same for all values of the intervals."""
    if op in ("ilt", "ige"):
        sign = 1 << (bits - 1)
        if a[1] >= sign or b[1] >= sign:
            return None
        op = "ult" if op == "ilt" else "uge"
    if op in ("ult", "uge"):
        lt = True if a[1] < b[0] else False if a[0] >= b[1] else None
        return lt if lt is None or op == "ult" else not lt
    disjoint = a[1] < b[0] or b[1] < a[0]
    if not disjoint:
        return None
    return op == "ine"


def range_fold(shader: MirShader) -> bool:
    ranges = _Ranges(shader)
    changed = False
    for ins in shader.instrs():  # a list made before the walk: rewriting in place is safe
        if ins.op not in _COMPARES:
            continue
        d = ins.dest
        if d is None or d.num_components != 1 or len(ins.srcs) != 2 or \
                ins.srcs[0].num_components != 1:
            continue
        if const_of(ins.srcs[0]) is not None and const_of(ins.srcs[1]) is not None:
            continue  # constant_folding's job
        a, b = ranges.get(ins.srcs[0]), ranges.get(ins.srcs[1])
        r = _decide(ins.op, a, b, ins.srcs[0].bit_size)
        if r is not None:
            ins.op = "load_const"
            ins.srcs = []
            ins.attrs = {"value": (int(r),)}
            changed = True
    return changed
