"""The MIR ALU rules written once for two evaluators: NumPy's (`mir_eval.eval_alu`, on
arrays of shape (components, lanes)) and plain Python's (`mir_fold`, on constants: a
compile that folds only these does not import NumPy; start-up, issue 14). A rule here
uses only what both provide (Python's operators, indexing); neither module has a second
copy of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

# The comparisons (NIR's): the same expressions on NumPy arrays and Python numbers.
COMPARISONS: dict[str, Callable[[list[Any], int], Any]] = {
    "ieq": lambda a, b: a[0] == a[1],
    "ine": lambda a, b: a[0] != a[1],
    "ilt": lambda a, b: a[0] < a[1],
    "ige": lambda a, b: a[0] >= a[1],
    "ult": lambda a, b: a[0] < a[1],
    "uge": lambda a, b: a[0] >= a[1],
    "feq": lambda a, b: a[0] == a[1],
    "fneu": lambda a, b: a[0] != a[1],
    "flt": lambda a, b: a[0] < a[1],
    "fge": lambda a, b: a[0] >= a[1],
}

# Integer operations whose result's low bits do not depend on the width the sources
# were computed in (two's complement, modulo 2**bits): a NumPy array of the type's
# width and a Python int masked to it give the same bits. (1-bit sources: the bitwise
# ones only, NumPy's logical and/or/xor/not on booleans; its booleans have their own
# rules for the others.)
INTEGER_OPS: dict[str, Callable[[list[Any], int], Any]] = {
    "iadd": lambda a, b: a[0] + a[1],
    "isub": lambda a, b: a[0] - a[1],
    "imul": lambda a, b: a[0] * a[1],
    "iand": lambda a, b: a[0] & a[1],
    "ior": lambda a, b: a[0] | a[1],
    "ixor": lambda a, b: a[0] ^ a[1],
    "inot": lambda a, b: ~a[0],
    "ineg": lambda a, b: -a[0] if b > 1 else a[0],
}
BITWISE = frozenset(("iand", "ior", "ixor", "inot"))

# Float arithmetic, rounded to nearest even: NumPy computes it in the sources' type,
# plain Python in double precision (its float) and rounds the result once more to the
# type, which gives the same bits for these three (double's 53 bits are more than twice
# a half's or a single's precision plus two: the second rounding is innocuous, and a
# product of two halves or singles is exact in a double).
FLOAT_ARITH: dict[str, Callable[[list[Any], int], Any]] = {
    "fadd": lambda a, b: a[0] + a[1],
    "fsub": lambda a, b: a[0] - a[1],
    "fmul": lambda a, b: a[0] * a[1],
}

# Integer operations written with a selection `where(cond, x, y)`: NumPy's ``np.where``
# on arrays, `select` on Python numbers. Division by zero gives 0 (NIR leaves it
# undefined).
Where = Callable[[Any, Any, Any], Any]
SELECTS: dict[str, Callable[[list[Any], Where], Any]] = {
    "udiv": lambda a, where: where(a[1] == 0, 0, a[0] // where(a[1] == 0, 1, a[1])),
    "umod": lambda a, where: where(a[1] == 0, 0, a[0] % where(a[1] == 0, 1, a[1])),
    "imin": lambda a, where: where(a[1] < a[0], a[1], a[0]),
    "imax": lambda a, where: where(a[0] < a[1], a[1], a[0]),
    "umin": lambda a, where: where(a[1] < a[0], a[1], a[0]),
    "umax": lambda a, where: where(a[0] < a[1], a[1], a[0]),
}

# The float min/max are NumPy's ``fmin``/``fmax`` (`mir_eval`); what those return for a
# NaN source, or for +0 against -0, depends on NumPy's loop (and a signaling NaN comes
# back quieted), so only other sources fold without NumPy, where the result is the
# smaller (larger) value, whichever loop computes it.
ORDERED_MIN_MAX: dict[str, Callable[[list[Any]], Any]] = {
    "fmin": lambda a: a[1] if a[1] < a[0] else a[0],
    "fmax": lambda a: a[1] if a[0] < a[1] else a[0],
}


def select(cond: Any, x: Any, y: Any) -> Any:
    """`where` on Python numbers."""
    return x if cond else y


# Shifts (NIR's): the count (read as unsigned) is taken modulo the bit size; ``ishl`` and
# ``ushr`` shift the operand's bits read as unsigned, ``ishr`` its signed value
# (arithmetic); the result keeps its low `bits` bits. (signed, shift of the widened value)
SHIFTS: dict[str, tuple[bool, Callable[[Any, Any], Any]]] = {
    "ishl": (False, lambda x, c: x << c),
    "ushr": (False, lambda x, c: x >> c),
    "ishr": (True, lambda x, c: x >> c),
}


def shift_count(c: Any, bits: int) -> Any:
    """A shift's count `c` (unsigned) modulo the bit size `bits` (a power of two)."""
    return c & (bits - 1)


def components(op: str, srcs: Sequence[Sequence[Any]], dest_comps: int,
               attrs: dict[str, Any]) -> list[Any]:
    """A move's result, component by component (each source a sequence of components:
    rows of a NumPy array or raw numbers): ``mov`` the components ``attrs["comps"]``
    (default the first `dest_comps`) of its source, ``vecN`` its sources' components
    in order."""
    if op == "mov":
        return [srcs[0][c] for c in attrs.get("comps", range(dest_comps))]
    return [c for s in srcs for c in s]


def is_move(op: str) -> bool:
    return op == "mov" or op.startswith("vec")


# The exponent field of each float size: a denormal has it zero and a nonzero magnitude.
FLOAT_EXPONENT = {16: 0x7C00, 32: 0x7F800000, 64: 0x7FF0000000000000}


def is_denormal(a: Any, bits: int) -> Any:
    """Whether raw float bits `a` (a NumPy array of the raw dtype, or an int) encode a
    denormal: the bits a flush-to-zero mode flushes (`mir_eval._flush_denormals`)."""
    return ((a & FLOAT_EXPONENT[bits]) == 0) & ((a & ((1 << (bits - 1)) - 1)) != 0)
