"""VALU semantics of RDNA3 (GFX11): one function per instruction, on NumPy lanes.

Entry point::

    execute_valu(name, srcs, mods, *, wave, exec_mask, mode=DEFAULT_MODE,
                 lane_masks=None) -> ValuResult

``name`` is the canonical LLVM name (``OpInfo.name``); ``srcs`` are uint64
arrays of raw source bits in ``OpInfo.operands`` order. Conventions beyond
that order (documented in radcc/emu/valu/NOTES.md):

- ops in ``ACC_OPS`` (`radcc.isa.acc_ops`: v_fmac_*, v_pk_fmac_f16, v_dot2acc_f32_f16)
  read VDST: append the old VDST bits as an extra last source;
- a 16-bit result comes back with ``d_bits == 16``: write ``d`` into bits
  ``[d_shift, d_shift + 16)`` of VDST and keep the other half (§7.1 OPSEL);
- v_div_fmas_* read VCC from ``lane_masks['vcc']`` (int mask);
- compare/carry results are ``sdst`` (bool lanes, False where exec is off).

Modules: float_mode (MODE bits), fp (formats, rounding), fops (operand and
result plumbing), arith_float, trans, division, integer, bits, compare,
convert, packed.
"""

from __future__ import annotations

import numpy as np

from radcc.emu.valu import (  # noqa: F401  (registration side effects)
    arith_float,
    bits,
    compare,
    convert,
    division,
    integer,
    packed,
    trans,
)
from radcc.emu.valu.core import REGISTRY, Ctx, OpFn, ValuMods, ValuResult
from radcc.emu.valu.float_mode import DEFAULT_MODE, decode_mode
from radcc.isa.acc_ops import ACC_OPS

__all__ = [
    "ACC_OPS", "DEFAULT_MODE", "Ctx", "ValuMods", "ValuResult", "decode_mode", "execute_valu",
    "op_function", "supported_ops",
]

_DISPATCH = dict(REGISTRY)


def supported_ops() -> frozenset[str]:
    """Canonical names of every implemented VALU instruction."""
    return frozenset(_DISPATCH)


def execute_valu(name: str, srcs: list[np.ndarray], mods: ValuMods, *, wave: int,
                 exec_mask: np.ndarray, mode: int = DEFAULT_MODE,
                 lane_masks: dict[str, int] | None = None) -> ValuResult:
    """Run VALU instruction `name` on all lanes; KeyError if not implemented."""
    fn = _DISPATCH[name]
    ctx = Ctx(name, mods, wave, exec_mask, decode_mode(mode), lane_masks or {})
    with np.errstate(all="ignore"):
        r = fn(ctx, [np.asarray(s, dtype=np.uint64) for s in srcs])
    if r.sdst is not None:
        r.sdst = r.sdst & exec_mask
    return r


def op_function(name: str) -> OpFn | None:
    """The function of VALU instruction `name` (None if not implemented), for callers
    that run it many times: ``fn(ctx, srcs)`` with a `Ctx` they keep and update
    (exec_mask, fmode = decode_mode(mode), lane_masks), uint64 sources, NumPy errors
    ignored (``np.errstate(all="ignore")`` around the whole run), and the result's
    `sdst` still to be masked with the exec mask, as `execute_valu` does."""
    return _DISPATCH.get(name)
