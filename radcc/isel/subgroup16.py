"""8/16-bit subgroup operations by widening to 32 bits (docs/isel.md "8/16-bit values").

`Subgroup16Mixin.select_subgroup` runs the 32-bit selection of
`radcc.isel.subgroup` on widened copies of 8/16-bit data sources:

- moves (``read_invocation``, ``read_first_invocation``, ``shuffle*``,
  ``quad_*``) and ``vote_ieq``: zero-extended (any extension moves the low bits);
- reductions and scans: ``iadd imul iand ior ixor umin umax`` zero-extended,
  ``imin imax`` sign-extended (the low bits of the 32-bit result are the 8/16-bit
  result); f16 ``fmin fmax`` and ``vote_feq`` in f32 (exact both ways);
- f16 ``fadd``/``fmul`` reductions are not selected (an f32 sum rounded once is not
  the f16 operation the reference performs).

An 8/16-bit result is the low bits of the 32-bit one (f16: ``v_cvt_f16_f32``).
"""

from __future__ import annotations

from collections.abc import Callable

from radcc.frontend.mir import Instr, Value
from radcc.ir.regclass import Temp, v1

from .context import Comp, Const, unsupported
from .subgroup import SubgroupMixin

_INT_SIGNED = {"imin": True, "imax": True}
_INT_ANY = frozenset("iadd imul iand ior ixor umin umax".split())
_SCANS = frozenset({"reduce", "inclusive_scan", "exclusive_scan"})


class Subgroup16Mixin(SubgroupMixin):
    """Subgroup intrinsics with 8/16-bit data (everything else: `SubgroupMixin`)."""

    ext32: Callable[[Comp, int, bool], Comp]  # `Alu16Mixin.ext32`

    def select_subgroup(self, ins: Instr) -> None:
        d = ins.dest
        data = [i for i, s in enumerate(ins.srcs) if s.bit_size in (8, 16)]
        if d is None or (not data and d.bit_size not in (8, 16)):
            super().select_subgroup(ins)
            return
        mode = self._sg16_mode(ins)
        srcs = list(ins.srcs)
        for i in data:
            srcs[i] = self._sg16_widen(ins.srcs[i], mode)
        if d.bit_size in (8, 16):
            wide = Value(-1, 32, d.num_components)
            wide.divergent = d.divergent
        else:
            wide = d
        proxy = Instr(ins.op, wide, srcs, ins.attrs)
        super().select_subgroup(proxy)
        for i in data:
            del self.vmap[srcs[i]]
        if wide is not d:
            res = self.get(wide)
            if mode == "float":
                res = [self._sg16_narrow_f(c, d.divergent) for c in res]
            self.set(d, list(res))
            del self.vmap[wide]
        d.parent = ins

    def _sg16_mode(self, ins: Instr) -> str:
        """How to widen: 'zero', 'sign' or 'float'."""
        op = ins.op
        if op == "vote_feq":
            return "float"
        if op in _SCANS:
            rop = str(ins.attrs["reduction_op"])
            if rop in _INT_SIGNED:
                return "sign"
            if rop in _INT_ANY:
                return "zero"
            if rop in ("fmin", "fmax") and ins.srcs[0].bit_size == 16:
                return "float"
            raise unsupported(ins, f"8/16-bit {rop} reductions")
        return "zero"

    def _sg16_widen(self, v: Value, mode: str) -> Value:
        w = Value(-1, 32, v.num_components)
        w.divergent = v.divergent
        comps: list[Comp] = []
        for c in self.get(v):
            if mode == "float":
                if isinstance(c, Const):
                    c = self.vgpr(c)
                t = self.valu("v_cvt_f32_f16", v1, c)
                comps.append(self.uniform_result(t, not v.divergent))
            else:
                comps.append(self.ext32(c, v.bit_size, mode == "sign"))
        self.set(w, comps)
        return w

    def _sg16_narrow_f(self, c: Comp, divergent: bool) -> Comp:
        if isinstance(c, Const):
            c = self.vgpr(c)
        t: Temp = self.valu("v_cvt_f16_f32", v1, c)
        return self.uniform_result(t, not divergent)
