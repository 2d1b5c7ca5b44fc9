"""constant_folding: an ALU instruction whose sources are all constants becomes a
constant (evaluated by ``mir_eval.eval_alu``, the interpreter's own semantics, so
specialization-constant arithmetic folds exactly as it would run); ``bcsel``
with a constant condition becomes the chosen source. Float denormals fold as the kernel
will run (`FloatControls.flushed`: f32 flushed unless the module asks DenormPreserve,
f16/f64 kept unless DenormFlushToZero): sources and results of float operations of a
flushed size become the zero of their sign, as NIR folds under flush-to-zero modes.
Rounding is always to nearest even (a RoundingModeRTZ module's folds are not yet RTZ).

Undefined values (``undef``: SPIR-V's OpUndef, a variable read before any write; "each
consumption yields an arbitrary, possibly different bit pattern") propagate as LLVM and
NIR (nir_opt_undef) fold them: ``bcsel`` with an undefined condition is its first value, with
one undefined value the other; any other ALU instruction (but ``vecN``, whose other
components stay defined) with an undefined source is undefined itself. ncnn's shaders
whose branch on a specialization constant leaves a vector unassigned divide it otherwise.
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value, const_of, rewrite_uses
from ..mir_fold import fold  # (NumPy: imported by a fold plain Python does not compute)
from ..mir_ops import ALU_OPS


def fold_instr(ins: Instr, flush: frozenset[int] = frozenset()) -> tuple[int, ...] | None:
    d = ins.dest
    if d is None or ins.op not in ALU_OPS:
        return None
    srcs = []
    for s in ins.srcs:
        c = const_of(s)
        if c is None:
            return None
        srcs.append(c)
    return fold(ins.op, d.bit_size, d.num_components, srcs, [s.bit_size for s in ins.srcs],
                ins.attrs, flush)


def _is_undef(v: Value) -> bool:
    return v.parent is not None and v.parent.op == "undef"


def _fold_undef(ins: Instr, mapping: dict[Value, Value]) -> bool:
    """Fold ``ins`` if a source is undefined (module docstring): whether it did."""
    d = ins.dest
    if d is None or ins.op not in ALU_OPS or ins.op.startswith("vec") or \
            not any(_is_undef(s) for s in ins.srcs):
        return False
    if ins.op == "bcsel":
        c, a, b = ins.srcs
        mapping[d] = b if _is_undef(a) and not _is_undef(c) else a
        return True
    ins.op = "undef"
    ins.srcs = []
    ins.attrs = {}
    return True


def constant_folding(shader: MirShader) -> bool:
    changed = False
    mapping: dict[Value, Value] = {}
    flush = shader.float_controls.flushed()
    alu = ALU_OPS
    for b in shader.blocks():
        for ins in b.instrs:
            op = ins.op
            if ins.dest is None or op not in alu:
                continue  # (nothing below applies)
            # what the sources are: an undef among them, all constants
            undef = False
            consts = True
            for src in ins.srcs:
                p = src.parent
                if p is None:
                    consts = False
                    continue
                pop = p.op
                if pop == "undef":
                    undef = True
                    consts = False
                elif pop != "load_const":
                    consts = False
            if undef and _fold_undef(ins, mapping):
                changed = True
                continue
            if op == "bcsel":
                c = const_of(ins.srcs[0])
                if c is not None and len(set(c)) == 1:
                    mapping[ins.dest] = ins.srcs[1] if c[0] else ins.srcs[2]
                    continue
            if not consts:
                continue  # (`fold_instr` returns None)
            bits = fold_instr(ins, flush)
            if bits is not None:
                ins.op = "load_const"
                ins.srcs = []
                ins.attrs = {"value": bits}
                changed = True
    rewrite_uses(shader, mapping)
    return changed or bool(mapping)
