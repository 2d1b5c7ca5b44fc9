"""Mid-level optimisations: one module per pass, each ``pass(shader) -> bool``
(whether it changed anything).

``optimize(shader)`` runs vars_to_ssa once, then copy propagation, constant
folding, algebraic simplification, CSE, dead writes and dead code elimination
until none of them changes anything (NIR's usual optimisation loop). A pass of the
loop that found nothing is not run again until a pass whose changes may give it work
(``ENABLES``) has changed the shader: running it would find nothing again.

``lower_for_isel(shader, options, wave_size)`` (options: the target's
`radcc.target.MirOptions`) then brings the shader into the form
instruction selection receives (docs/mir.md, "What isel receives"; checked by
``isel_form.check_isel_form``): ``LOWERING`` lists its passes in order.
"""

from __future__ import annotations

from collections.abc import Callable

from radcc.target import MirOptions

from ..mir import FixedStructure, MirShader
from ..mir_print import print_shader
from ..mir_validate import validate
from .algebraic import algebraic
from .combine_barriers import combine_barriers
from .constant_folding import constant_folding
from .copy_prop import copy_prop
from .cse import cse
from .dce import dce
from .dead_branch import dead_branch
from .dead_writes import dead_writes
from .fold_16bit_image import fold_16bit_image
from .fold_offsets import fold_offsets
from .hoist_push_constants import hoist_push_constants
from .loop_unroll import loop_unroll
from .lower_atomics import lower_atomics
from .lower_continue import lower_continue_constructs
from .lower_idiv import lower_idiv
from .lower_int64 import lower_int64
from .lower_local_arrays import lower_local_arrays
from .lower_math import lower_math
from .lower_non_uniform import lower_non_uniform
from .lower_returns import lower_returns
from .lower_vectors import lower_vectors
from .peephole_select import peephole_select
from .range_fold import range_fold
from .shrink_image_reads import shrink_image_reads
from .vars_to_ssa import vars_to_ssa
from .vectorize_alu16 import vectorize_alu16
from .vectorize_mem import vectorize_mem

PASSES: dict[str, Callable[[MirShader], bool]] = {
    "vars_to_ssa": vars_to_ssa,
    "copy_prop": copy_prop,
    "constant_folding": constant_folding,
    "algebraic": algebraic,
    "cse": cse,
    "dce": dce,
    "dead_writes": dead_writes,
    "lower_continue_constructs": lower_continue_constructs,
    "lower_returns": lower_returns,
    "dead_branch": dead_branch,
    "lower_vectors": lower_vectors,
    "lower_idiv": lower_idiv,
    "lower_int64": lower_int64,
    "lower_math": lower_math,
    "lower_atomics": lower_atomics,
    "lower_non_uniform": lower_non_uniform,
    "lower_local_arrays": lower_local_arrays,
    "fold_offsets": fold_offsets,
    "hoist_push_constants": hoist_push_constants,
    "fold_16bit_image": fold_16bit_image,
    "shrink_image_reads": shrink_image_reads,
    "loop_unroll": loop_unroll,
    "peephole_select": peephole_select,
    "vectorize_mem": vectorize_mem,
    "vectorize_alu16": vectorize_alu16,
    "range_fold": range_fold,
    "combine_barriers": combine_barriers,
}

LOOP = ("copy_prop", "constant_folding", "algebraic", "cse", "dead_writes", "dce")

# A LOOP pass -> the LOOP passes a change it made may give work. A pass left out of a
# set finds nothing after that pass's change if it found nothing before it (and ran
# since its own last change, if it has one):
# * cse merges instructions of one opcode, sources, attributes and size: a constant
#   fold reads its sources' opcodes and values, equal on both sides; dce keeps the
#   merged-into instruction (its users and the removed one's were live), so nothing
#   becomes dead. Instruction identity is what copy_prop (a phi's equal sources) and
#   algebraic (a repeated variable: ``isub a a``) read. cse itself finds nothing after
#   its own change: one run numbers every reachable instruction after the ones that
#   dominate it, its sources already renamed (only a phi reads a value defined after
#   it, and phis are not numbered).
# * dce removes instructions nothing live reads: every live instruction keeps its
#   sources and their defining instructions, and a removed one would have been found
#   by a pass that reads it; dead_writes reads loads (one removed may uncover an
#   overwritten store).
# * dead_writes removes stores (no result, read by no other pass but dce: their values
#   and addresses may become dead).
# * copy_prop is in every set: a run that finds no copy may still compose swizzles
#   (`copy_prop._copy_of`) into a copy only its next run finds.
# dce is not in its own set: it removes every instruction it does not find live at once.
ENABLES: dict[str, frozenset[str]] = {
    "copy_prop": frozenset(LOOP),
    "constant_folding": frozenset(LOOP),
    "algebraic": frozenset(LOOP),
    "cse": frozenset({"copy_prop", "algebraic", "dead_writes"}),
    "dead_writes": frozenset({"copy_prop", "dead_writes", "dce"}),
    "dce": frozenset({"copy_prop", "dead_writes"}),
}


def optimize(
    shader: MirShader,
    validate_each: bool = False,
    print_after: set[str] | frozenset[str] = frozenset(),
    max_rounds: int = 50,
    check_skips: bool = False,
) -> bool:
    """The optimisation pipeline; ``print_after`` names passes to print after ("all").
    True when it stopped at a fixpoint (every LOOP pass ran without a change since the
    last change, or was skipped by ``ENABLES``), False when `max_rounds` ran out first.
    ``check_skips`` (tests): run the passes ``ENABLES`` skips too, and raise
    AssertionError if one of them changes the shader."""

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

    # vars_to_ssa and the LOOP passes change instructions, never the control-flow
    # structure: its blocks, Ifs and dominator tree are computed once (`FixedStructure`)
    outer = shader.fixed
    if outer is None:
        shader.fixed = FixedStructure(shader.function.body)
    try:
        run("vars_to_ssa")
        # Rounds of LOOP until a round changes nothing; a round stops early once every
        # pass has run without a change since the last change (the passes are functions
        # of the shader, so the rest of the round would change nothing either).
        # `dirty`: the LOOP passes that may find something (`ENABLES`); a pass not in it
        # counts as a run without a change. dce, run here first, is dirty again only
        # once a pass whose change may give it work has changed the shader (whether or
        # not it changed it: it is not in its own set).
        quiet = 0
        dirty = set(LOOP)
        run("dce")
        dirty.discard("dce")
        for _ in range(max_rounds):
            progress = False
            for name in LOOP:
                if quiet == len(LOOP):
                    break
                if name not in dirty and not print_after:
                    if check_skips and PASSES[name](shader):
                        raise AssertionError(f"optimize skipped {name}, which changes "
                                             f"the shader")
                    quiet += 1
                    continue
                if run(name):
                    progress = True
                    quiet = 0
                    dirty.discard(name)
                    dirty |= ENABLES[name]
                else:
                    quiet += 1
                    dirty.discard(name)
            if not progress or quiet == len(LOOP):
                return True
        return False
    finally:
        shader.fixed = outer


# the isel lowering, in order ("optimize" runs the optimisation loop again)
LOWERING = (
    "lower_continue_constructs",
    "dead_branch",
    "lower_returns",
    "optimize",
    "peephole_select",
    "loop_unroll",
    "range_fold",
    "optimize",
    "dead_branch",
    "combine_barriers",
    "lower_local_arrays",
    "lower_atomics",
    "lower_non_uniform",
    "lower_vectors",
    "lower_math",
    "lower_idiv",
    "lower_int64",
    "peephole_select",
    "optimize",
    "dead_branch",
    "fold_16bit_image",
    "shrink_image_reads",
    "fold_offsets",
    "hoist_push_constants",
    "cse",
    "vectorize_mem",
    "vectorize_alu16",
    "dce",
)


def lower_for_isel(
    shader: MirShader,
    options: MirOptions,
    wave_size: int = 32,
    validate_each: bool = False,
    print_after: set[str] | frozenset[str] = frozenset(),
    check_skips: bool = False,
) -> None:
    """Optimise and lower ``shader`` in place into the form isel receives.

    ``options`` are the target's (`radcc.target.Target.mir_options`; kept in
    ``shader.options``). ``wave_size`` (32 or 64) is the subgroup size the code will run
    with: ``@load_subgroup_size`` and ``@load_num_subgroups`` become constants.
    ``check_skips``: `optimize`'s (tests).
    """
    assert wave_size > 0 and wave_size & (wave_size - 1) == 0, wave_size
    shader.options = options
    from .lower_system_values import lower_system_values

    # True while the shader is as the last `optimize` left it (every LOOP pass ran
    # without a change since the last change): running one of LOOP would change nothing,
    # nor would optimizing again unless vars_to_ssa finds something, by the premise
    # `optimize`'s early stop rests on (the passes are functions of the shader, and each
    # reports whether it changed it). Not used under `print_after` (every pass prints).
    at_fixpoint = False

    def run(name: str) -> None:
        nonlocal at_fixpoint
        if at_fixpoint and not print_after:
            if name in LOOP:
                return
            # `optimize` starts with vars_to_ssa, which is not in LOOP: the LOOP passes
            # that ran after it may have left it something to promote
            if name == "optimize" and not PASSES["vars_to_ssa"](shader):
                return
        if name == "optimize":
            at_fixpoint = optimize(shader, validate_each=validate_each,
                                   print_after=print_after, check_skips=check_skips)
            return
        if PASSES[name](shader):
            at_fixpoint = False
        if validate_each:
            try:
                validate(shader)
            except Exception as e:
                raise type(e)(f"after {name}: {e}") from e
        if name in print_after or "all" in print_after:
            print(f"// MIR after {name}\n{print_shader(shader)}")

    converged = optimize(shader, validate_each=validate_each, print_after=print_after,
                         check_skips=check_skips)
    at_fixpoint = not lower_system_values(shader, wave_size) and converged
    for name in LOWERING:
        run(name)


__all__ = ["PASSES", "LOWERING", "lower_for_isel", "optimize", "algebraic", "constant_folding",
           "copy_prop", "cse", "dce", "dead_writes", "vars_to_ssa", "dead_branch", "fold_offsets", "hoist_push_constants", "loop_unroll",
           "lower_continue_constructs", "lower_returns", "fold_16bit_image", "lower_idiv",
           "lower_int64", "lower_local_arrays",
           "lower_atomics", "lower_non_uniform", "lower_math", "lower_vectors", "peephole_select", "range_fold", "combine_barriers",
           "shrink_image_reads", "vectorize_alu16", "vectorize_mem"]
