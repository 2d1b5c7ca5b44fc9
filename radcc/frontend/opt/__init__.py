"""Mid-level optimisations: one module per pass, each ``pass(shader) -> bool``
(whether it changed anything).

``optimize(shader)`` runs vars_to_ssa once, then copy propagation, constant
folding, algebraic simplification, CSE and dead code elimination until none
of them changes anything (NIR's usual optimisation loop).
"""

from __future__ import annotations

from collections.abc import Callable

from ..mir import MirShader
from ..mir_print import print_shader
from ..mir_validate import validate
from .algebraic import algebraic
from .constant_folding import constant_folding
from .copy_prop import copy_prop
from .cse import cse
from .dce import dce
from .vars_to_ssa import vars_to_ssa

PASSES: dict[str, Callable[[MirShader], bool]] = {
    "vars_to_ssa": vars_to_ssa,
    "copy_prop": copy_prop,
    "constant_folding": constant_folding,
    "algebraic": algebraic,
    "cse": cse,
    "dce": dce,
}

LOOP = ("copy_prop", "constant_folding", "algebraic", "cse", "dce")


def optimize(
    shader: MirShader,
    validate_each: bool = False,
    print_after: set[str] | frozenset[str] = frozenset(),
    max_rounds: int = 50,
) -> None:
    """The optimisation pipeline; ``print_after`` names passes to print after ("all")."""

    def run(name: str) -> bool:
        changed = PASSES[name](shader)
        if validate_each:
            try:
                validate(shader)
            except Exception as e:
                raise type(e)(f"after {name}: {e}") from e
        if name in print_after or "all" in print_after:
            print(f"// MIR after {name}\n{print_shader(shader)}")
        return changed

    run("vars_to_ssa")
    run("dce")
    for _ in range(max_rounds):
        progress = False
        for name in LOOP:
            progress |= run(name)
        if not progress:
            break


__all__ = ["PASSES", "optimize", "algebraic", "constant_folding", "copy_prop", "cse", "dce",
           "vars_to_ssa"]
