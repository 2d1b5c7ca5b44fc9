"""constant_folding: an ALU instruction whose sources are all constants becomes a
constant (evaluated by ``mir_ops.eval_alu``, the interpreter's own semantics, so
specialization-constant arithmetic folds exactly as it would run); ``bcsel``
with a constant condition becomes the chosen source."""

from __future__ import annotations

import numpy as np

from ..mir import Instr, MirShader, Value, const_of, rewrite_uses
from ..mir_ops import ALU_OPS, eval_alu, raw_dtype


def fold_instr(ins: Instr) -> tuple[int, ...] | None:
    d = ins.dest
    if d is None or ins.op not in ALU_OPS:
        return None
    srcs = []
    for s in ins.srcs:
        c = const_of(s)
        if c is None:
            return None
        srcs.append(np.array(c, dtype=np.uint64).astype(raw_dtype(s.bit_size)).reshape(-1, 1))
    r = eval_alu(ins.op, d.bit_size, d.num_components, srcs, [s.bit_size for s in ins.srcs],
                 ins.attrs)
    return tuple(int(x) for x in np.asarray(r).reshape(-1))


def constant_folding(shader: MirShader) -> bool:
    changed = False
    mapping: dict[Value, Value] = {}
    for ins in list(shader.instrs()):
        if ins.op == "bcsel":
            c = const_of(ins.srcs[0])
            if c is not None and len(set(c)) == 1 and ins.dest is not None:
                mapping[ins.dest] = ins.srcs[1] if c[0] else ins.srcs[2]
                continue
        bits = fold_instr(ins)
        if bits is not None:
            ins.op = "load_const"
            ins.srcs = []
            ins.attrs = {"value": bits}
            changed = True
    rewrite_uses(shader, mapping)
    return changed or bool(mapping)
