"""The IR pattern matcher used by pass tests."""

from __future__ import annotations

import pytest

from radcc.ir.matcher import assert_ir_matches, match_ir
from radcc.ir.parser import parse_program

OUT = """\
BB0
   v1: %5:v[0] = v_add_f32 %3:v[1], (kill)%4:s[2-3]
   v1: %6 = v_mul_f32 %5, %5
   s1: %7, s1: %8:scc = s_add_u32 %9, 0x40
   p_branch BB3
"""


def test_bindings_of_temps_integers_tokens():
    m = match_ir(OUT, "v1: %a:v[#r] = $op %x:v[#r1], (kill)%b:s[#lo-#hi]\n"
                      ">> v1: %c = v_mul_f32 %a, %a")
    assert m.ok, m.message
    assert m.bindings == {"%a": 5, "#r": 0, "$op": "v_add_f32", "%x": 3, "#r1": 1, "%b": 4,
                          "#lo": 2, "#hi": 3, "%c": 6}
    assert m.lines == [1, 2]


def test_whitespace_insensitive():
    assert match_ir(OUT, "  v1:%c=v_mul_f32   %a,%a  ").ok
    assert match_ir(OUT, "s1:%d,s1:%e:scc=s_add_u32 %f,#k").bindings["#k"] == 0x40


def test_consistency_of_bindings():
    # %a must be the same temp in both operands of the multiply
    assert not match_ir(OUT, "v1: %c = v_mul_f32 %a, %b").ok
    # a temp bound in line 1 must be the same one used in line 2
    assert not match_ir(OUT, "v1: %a = v_mul_f32 %b, %b\ns1: %c, s1: %d:scc = s_add_u32 %a, $k").ok
    # the same integer name binds one value
    assert not match_ir(OUT, "v1: %a:v[#r] = v_add_f32 %x:v[#r], $_ $_ $_ $_ $_ $_ $_ $_").ok
    # two names never bind the same temp
    assert not match_ir(OUT, "v1: %a = v_mul_f32 %b, %c").ok


def test_subsequence_next_and_exact():
    assert match_ir(OUT, "BB0\np_branch BB#n").ok
    assert not match_ir(OUT, "BB0\n>> p_branch BB#n").ok
    assert not match_ir(OUT, "p_branch BB3\nBB0").ok  # order matters
    assert not match_ir(OUT, "BB0\np_branch BB3", exact=True).ok
    full = "\n".join(["BB0", "$d = $o $a, $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_",
                      "v1: %c = v_mul_f32 %a, %a", "s1: %x, s1: %y:scc = s_add_u32 %z, #k",
                      "p_branch BB#t"])
    m = match_ir(OUT, full, exact=True)
    assert not m.ok  # the second pattern line has the wrong token count
    full2 = full.replace("$d = $o $a, $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_ $_",
                         "v1: %a:v[0] = v_add_f32 %p:v[1], (kill)%q:s[2-3]")
    assert match_ir(OUT, full2, exact=True).bindings["#t"] == 3


def test_backtracking_finds_later_candidate():
    out = "v1: %1 = v_mov_b32 0\nv1: %2 = v_mov_b32 1\nv1: %3 = v_add_f32 %2, %2\n"
    # the first line could bind %a to %1, but only %2 lets the second line match
    m = match_ir(out, "v1: %a = v_mov_b32 $_\nv1: %b = v_add_f32 %a, %a")
    assert m.ok and m.bindings["%a"] == 2


def test_prebound_bindings():
    assert match_ir(OUT, "v1: %c = v_mul_f32 %a, %a", bindings={"%a": 5}).ok
    assert not match_ir(OUT, "v1: %c = v_mul_f32 %a, %a", bindings={"%a": 4}).ok


def test_assert_reports_readably():
    with pytest.raises(AssertionError) as ei:
        assert_ir_matches(OUT, "v1: %c = v_mul_f32 %a, %a\nv1: %d = v_sub_f32 %c, %c")
    msg = str(ei.value)
    assert "pattern line 2 not matched: 'v1: %d = v_sub_f32 %c, %c'" in msg
    assert ">>   2: v1: %d = v_sub_f32 %c, %c" in msg
    assert "closest output line: v1: %6 = v_mul_f32 %5, %5" in msg


def test_assert_accepts_a_program():
    p = parse_program("program gfx1100 wave32 compute\nBB0\n   v1: %1 = v_mov_b32 7\n")
    b = assert_ir_matches(p, "v1: %x = v_mov_b32 #c")
    assert b == {"%x": 1, "#c": 7}
