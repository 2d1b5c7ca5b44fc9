"""isel's kernarg-load merge (radcc/isel/kernarg_loads.py): constant-offset loads of the
kernel arguments in the entry block become one wider SMEM load and a p_split_vector.

Expectations come from the rule and the ABI (docs/abi.md: the segment is read-only and
readable up to its size; SMEM loads need dword offsets only, RDNA3 ISA guide "Scalar
Memory Operations"), not from radcc's output; the end-to-end shapes are in
tests/isel/test_realworld_quality.py."""

from __future__ import annotations

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.regclass import Temp, s2
from radcc.isel.kernarg_loads import merge_kernarg_loads


def _prog(body: str) -> str:
    return f"""program gfx1100 wave64 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm
   p_logical_start
{body}
   p_logical_end
   s_endpgm
"""


def _run(body: str, size: int) -> tuple[int, str]:
    p = parse_program(_prog(body), "<t>")
    n = merge_kernarg_loads(p, Temp(1, s2), size)
    return n, print_program(p)


def test_address_and_push_constant_across_a_gap_become_one_b128():
    n, out = _run("""   s2: %6 = s_load_b64 %1, 0
   v1: %8 = v_mov_b32 %2
   s1: %7 = s_load_b32 %1, 12
   p_unit_test %6, %7, %8""", 16)
    assert n == 1
    assert out.count("s_load") == 1
    assert_ir_matches(out, """s4: %w = s_load_b128 %1, 0
>> s2: %6, s1: %h, s1: %7 = p_split_vector %w
>> v1: %8 = v_mov_b32 %2""")


def test_not_past_the_segment_end():
    """b32 at 0 and at 8: a b128 would read bytes 12-15 of a 12-byte segment."""
    n, out = _run("""   s1: %6 = s_load_b32 %1, 0
   s1: %7 = s_load_b32 %1, 8
   p_unit_test %6, %7""", 12)
    assert n == 0 and out.count("s_load_b32") == 2


def test_span_beyond_32_bytes_stays_apart():
    n, out = _run("""   s2: %6 = s_load_b64 %1, 0
   s2: %7 = s_load_b64 %1, 48
   p_unit_test %6, %7""", 64)
    assert n == 0 and out.count("s_load_b64") == 2


def test_three_loads_in_a_b256_with_the_gaps_as_unread_temps():
    n, out = _run("""   s2: %6 = s_load_b64 %1, 0
   s2: %7 = s_load_b64 %1, 8
   s1: %9 = s_load_b32 %1, 28
   p_unit_test %6, %7, %9""", 32)
    assert n == 2
    assert_ir_matches(out, """s8: %w = s_load_b256 %1, 0
>> s2: %6, s2: %7, s3: %h, s1: %9 = p_split_vector %w""")


def test_other_bases_and_dynamic_offsets_untouched():
    n, out = _run("""   s2: %6 = s_load_b64 %1, 0
   s1: %7 = s_load_b32 %6, 4
   s1: %8 = s_load_b32 %1, %2
   p_unit_test %7, %8""", 16)
    assert n == 0 and out.count("s_load") == 3


def test_a_piece_keeps_its_natural_register_alignment():
    """A b128 at 0x30 after a b32 at 0x24: in one b256 from 0x24 its s4 would start 3
    dwords in, a register not 4-aligned, and the allocator would copy it up (four
    s_mov_b32, ncnn's lrn_square_pad); a b64 2 dwords in or a b128 4 dwords in may join
    (SGPR pairs even, tuples of 4+ 4-aligned: ra_support.stride)."""
    n, out = _run("""   s1: %6 = s_load_b32 %1, 36
   s4: %7 = s_load_b128 %1, 48
   p_unit_test %6, %7""", 128)
    assert n == 0 and out.count("s_load") == 2
    n, out = _run("""   s1: %6 = s_load_b32 %1, 32
   s2: %7 = s_load_b64 %1, 40
   s4: %8 = s_load_b128 %1, 48
   p_unit_test %6, %7, %8""", 128)
    assert n == 2 and out.count("s_load") == 1 and "s_load_b256 %1, 32" in out
