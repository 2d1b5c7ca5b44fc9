"""The decoder's fast paths (radcc/frontend/spirv/binary.py) against its general decoder,
the reference: the same instruction, or the same error at the same word offset."""

from __future__ import annotations

import itertools

import pytest

from radcc.frontend.spirv import SpirvError, grammar
from radcc.frontend.spirv import binary as b

# result type id -> the number type it declares
_TYPES = {1: b.NumberType(8, "int"), 2: b.NumberType(8, "uint"), 3: b.NumberType(16, "int"),
          4: b.NumberType(16, "uint"), 5: b.NumberType(16, "float"), 6: b.NumberType(16, "bfloat"),
          7: b.NumberType(32, "int"), 8: b.NumberType(32, "float"), 9: b.NumberType(64, "int"),
          10: b.NumberType(64, "float"), 11: b.NumberType(24, "uint")}
_BOUND = 40
_VALUES = (0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000, 0xFFFF_FF80, 0xFFFF_8000,
           0x7F80_0001, 0x8000_0000, 0xFFFF_FFFF)


def _ctx() -> b._Context:
    return b._Context(_BOUND, number_types=dict(_TYPES))


def _outcome(fn: object, *args: object) -> str:
    try:
        return repr(fn(*args))  # type: ignore[operator]
    except SpirvError as e:
        return f"error at {e.word_offset}: {e}"


@pytest.mark.parametrize("opname, counts", [("OpConstant", (3, 4, 5, 6)),
                                            ("OpSpecConstant", (3, 4, 5))])
def test_constant_fast_path_is_the_general_decoders(opname: str, counts: tuple[int, ...]
                                                    ) -> None:
    info = grammar.instruction(grammar.opcode(opname))
    assert info is not None
    fast_handled = 0
    for rt, rid, count in itertools.product((0, *_TYPES, 12, _BOUND), (3, 0, _BOUND), counts):
        for lo, hi in itertools.product(_VALUES, (0, 0xFFFF_FFFF)):
            words = [3, 3, _BOUND, 0, 0, (count << 16) | info.opcode, rt, rid, lo, hi, 0][:5 + count]
            words += [0] * (5 + count - len(words))
            ctx = _ctx()
            fast = _outcome(b._decode_constant, info, words, 5, count, ctx)
            if fast == "None":  # left to the general decoder
                continue
            fast_handled += 1
            ref_ctx = _ctx()
            assert fast == _outcome(b._decode_instruction, info, words, 5, count, ref_ctx), \
                (rt, rid, count, lo, hi)
            assert ctx.result_types == ref_ctx.result_types
    assert fast_handled == len(_TYPES) * len(_VALUES) * 2  # (each type at its word count)


def test_opextinst_fast_path_is_the_general_decoders() -> None:
    info = grammar.instruction(grammar.opcode("OpExtInst"))
    assert info is not None
    sets = {30: "GLSL.std.450", 31: "NonSemantic.Anything", 32: "OpenCL.std"}
    fast_handled = 0
    for set_id, number, count in itertools.product((0, *sets, 33, _BOUND), (0, 1, 40, 79, 81, 200),
                                                   range(4, 10)):
        for rt, rid, arg in ((3, 4, 5), (0, 4, 5), (3, _BOUND, 5), (3, 4, 0), (3, 4, _BOUND)):
            words = [3, 3, _BOUND, 0, 0, (count << 16) | info.opcode, rt, rid, set_id, number,
                     *[arg + k for k in range(count - 5)]][:5 + count]
            ctx = _ctx()
            ctx.ext_sets.update(sets)
            fast = b._decode_ext_inst(info, words, 5, count, ctx)
            if fast is None:  # left to the general decoder
                continue
            fast_handled += 1
            ref_ctx = _ctx()
            ref_ctx.ext_sets.update(sets)
            ref = b._decode_instruction(info, words, 5, count, ref_ctx)
            assert repr(fast) == repr(ref) and fast.id_tuple() == ref.id_tuple(), \
                (set_id, number, count, rt, rid, arg)
            assert ctx.result_types == ref_ctx.result_types
    assert fast_handled >= 5


def test_opspecconstantop_fast_path_is_the_general_decoders() -> None:
    info = grammar.instruction(grammar.opcode("OpSpecConstantOp"))
    assert info is not None
    # operations of ids alone (OpSNegate, OpIAdd, OpSelect), of other operands
    # (OpCompositeExtract, OpVectorShuffle), without a result (OpStore), no opcode (9999)
    numbers = [grammar.opcode(n) for n in ("OpSNegate", "OpIAdd", "OpSelect",
                                           "OpCompositeExtract", "OpVectorShuffle", "OpStore")]
    fast_handled = 0
    for number, count in itertools.product((*numbers, 9999), range(3, 9)):
        for rt, rid, arg in ((3, 4, 5), (0, 4, 5), (3, _BOUND, 5), (3, 4, 0), (3, 4, _BOUND)):
            words = [3, 3, _BOUND, 0, 0, (count << 16) | info.opcode, rt, rid, number,
                     *[arg + k for k in range(count - 4)]][:5 + count]
            ctx = _ctx()
            fast = b._decode_spec_op(info, words, 5, count, ctx)
            if fast is None:  # left to the general decoder
                continue
            fast_handled += 1
            ref_ctx = _ctx()
            ref = b._decode_instruction(info, words, 5, count, ref_ctx)
            assert repr(fast) == repr(ref) and fast.id_tuple() == ref.id_tuple(), \
                (number, count, rt, rid, arg)
            assert ctx.result_types == ref_ctx.result_types
    assert fast_handled == 3  # (each operation of ids alone at its word count)


def test_id_words_path_is_the_mixed_decoders() -> None:
    """An instruction whose operands are ids but for an optional or repeated last one,
    without it (OpLoad of no memory operands), takes the all-ids path of `decode`: the
    same operands and ids as `_decode_mixed` (the reference) gives, or the general
    decoder's error when an id is out of range."""
    checked = 0
    for name in ("OpLoad", "OpStore", "OpCompositeExtract", "OpVectorShuffle",
                 "OpBranchConditional", "OpImageRead", "OpImageWrite"):
        plan = b._plan(grammar.opcode(name))
        assert plan.id_words == plan.min_words > 1
        for bad in (None, 0, _BOUND):
            vals = [3 + k for k in range(plan.id_words - 1)]
            if bad is not None:
                vals[-1] = bad
            words = [grammar.MAGIC, 0x10000, 0, _BOUND, 0,
                     (plan.id_words << 16) | grammar.opcode(name), *vals]
            try:
                _, (ins,) = b.decode(words)
            except SpirvError as e:
                assert bad is not None and e.word_offset == 6, (name, bad)
                continue
            assert bad is None, (name, bad)
            ref = b._decode_mixed(plan, vals, _BOUND, {})
            assert ref is not None
            assert ins.operands == ref[0] and ins.id_tuple() == ref[1], name
            checked += 1
    assert checked == 7
