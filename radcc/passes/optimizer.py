"""The optimizer phase (ACO's README.md "Optimization").

`optimize(program)` (also `optimizer`): ACO-style combining on SSA before
register allocation -- constant propagation, source modifiers, clamp, fused
multiply-add, three-operand integer ops, EXEC-masked comparisons -- and
dead-code elimination. The rules and guarantees are listed in
`radcc.passes.opt_impl` (the implementation); the pipeline runs it after value
numbering unless ``noopt``.
"""

from __future__ import annotations

from radcc.passes.opt_impl import optimize, optimizer

__all__ = ["optimize", "optimizer"]
