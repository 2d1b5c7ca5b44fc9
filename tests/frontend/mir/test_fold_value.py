"""`radcc.frontend.spirv_to_mir.context.fold_value` (the translation's constant fold of
an access chain's index, a specialization constant ...): a value computed from constants
by ALU ops folds to the bits a reference computation gives, however many paths reach
its sources, and an expression deeper than 64 ops does not fold."""

from __future__ import annotations

from radcc.frontend.mir import MirFunction, MirShader, Value
from radcc.frontend.mir_builder import MirBuilder
from radcc.frontend.spirv_to_mir.context import fold_value

MASK64 = (1 << 64) - 1


def _builder() -> MirBuilder:
    return MirBuilder(MirShader("t", (1, 1, 1), MirFunction("t", [])))


def _doublings(b: MirBuilder, start: int, n: int) -> Value:
    """c(k+1) = c(k) + c(k), n times: 2^n paths from the last value to the constant."""
    c = b.imm(start, 64)
    for _ in range(n):
        c = b.alu("iadd", 64, 1, c, c)
    return c


def test_a_value_reached_on_many_paths_is_folded_once() -> None:
    # specialization constants built on each other (``C1 = C0 + C0; C2 = C1 + C1 ...``):
    # 2^40 paths, which a fold of each path would not finish
    assert fold_value(_doublings(_builder(), 3, 40)) == ((3 << 40) & MASK64,)


def test_an_expression_deeper_than_64_ops_does_not_fold() -> None:
    b = _builder()
    for n in (63, 64, 65):
        c = one = b.imm(1)
        for _ in range(n):
            c = b.alu("iadd", 32, 1, c, one)
        assert fold_value(c) == ((n + 1,) if n <= 64 else None), n


def test_a_value_from_a_non_alu_source_does_not_fold() -> None:
    b = _builder()
    x = b.intr("load_global_invocation_id", [], 32, 3)
    one = b.imm(1)
    assert fold_value(b.alu("iadd", 32, 1, one, b.channel(x, 0))) is None
    assert fold_value(b.alu("iadd", 32, 1, one, one)) == (2,)
