"""The IR builder."""

from __future__ import annotations

from radcc.ir import BlockKind, Program
from radcc.ir.builder import Builder, add_edge
from radcc.ir.matcher import assert_ir_matches
from radcc.ir.printer import print_program
from radcc.ir.regclass import EXEC, SCC, VCC, PhysReg, s1, s2, v1, v2
from radcc.target import get_target


def test_builder_writes_expected_ir():
    p = Program(get_target("gfx1100"))
    b0 = p.create_block(BlockKind.TOP_LEVEL)
    b = Builder(p, b0)
    args = b.startpgm((s2, PhysReg.of(0)), (v1, PhysReg.of(256)))
    b.logical_start()
    x = b.vop2("v_add_f32", v1, args[1], 1.0)
    y = b.vop3("v_add_f32", v1, x, 2, clamp=True)
    c = b.vopc("v_cmp_lt_f32", s1, x, y)
    sel = b.vop2("v_cndmask_b32", v1, x, y, c)
    s = b.sop2("s_add_u32", s1, 4, 5)
    vec = b.create_vector(v2, x, sel)
    lo, hi = b.split_vector(vec, v1, v1).temps
    e = b.extract_vector(v1, vec, 1)
    cp = b.copy(s1, b.fixed(PhysReg.of(EXEC), s1))
    b.inst("global_load_b32", [v1], [vec, args[0]], offset=16, glc=True)
    b.logical_end()
    b.cbranch_z((s[1], PhysReg.of(SCC)), 1, 2)
    assert s.instr.definitions[1].phys == PhysReg.of(SCC)
    assert c.instr.definitions[0].phys == PhysReg.of(VCC)  # VOPC's vcc_lo slot
    assert sel.instr.operands[2].phys == PhysReg.of(VCC)
    assert y.instr.format == "VOP3" and x.instr.format == "VOP2"
    assert (lo.id, hi.id, e.temp.id, cp.temp.id) == (10, 11, 12, 13)
    assert_ir_matches(p, """
        s2: %a:s[0-1], v1: %v:v[0] = p_startpgm
        >> p_logical_start
        >> v1: %x = v_add_f32 %v, 0x3f800000
        >> v1: %y = v_add_f32_e64 %x, 2 clamp
        >> s1: %c:vcc = v_cmp_lt_f32 %x, %y
        >> v1: %sel = v_cndmask_b32 %x, %y, %c:vcc
        >> s1: %s, s1: %scc:scc = s_add_u32 4, 5
        >> v2: %vec = p_create_vector %x, %sel
        >> v1: %lo, v1: %hi = p_split_vector %vec
        >> v1: %e = p_extract_vector %vec, 1
        >> s1: %cp = p_parallelcopy s1: exec
        >> v1: %ld = global_load_b32 %vec, %a offset:16 glc
        >> p_logical_end
        >> p_cbranch_z %scc:scc BB1, BB2
    """, exact=False)


def test_insertion_points_and_cfg_helpers():
    p = Program(get_target("gfx1100"))
    blocks = [p.create_block() for _ in range(3)]
    add_edge(p, 0, 2)
    add_edge(p, 0, 1, logical=False)
    add_edge(p, 1, 2, logical=False)
    assert blocks[0].logical_succs == [2] and blocks[0].linear_succs == [1, 2]
    assert blocks[2].linear_preds == [0, 1] and blocks[2].logical_preds == [0]
    b = Builder(p, blocks[0])
    first = b.sop1("s_mov_b32", s1, 1).instr
    last = b.sop1("s_mov_b32", s1, 3).instr
    b.after(first)
    mid = b.sop1("s_mov_b32", s1, 2).instr
    b.before(first)
    b.sop1("s_mov_b32", s1, 0)
    assert [i.operands[0].const for i in blocks[0].instructions] == [0, 1, 2, 3]
    assert blocks[0].instructions[2] is mid and blocks[0].instructions[3] is last
    b.at_end(blocks[1])
    b.phi(v1, b.undef(v1))
    b.linear_phi(s1, 7)
    b.branch(2)
    text = print_program(p)
    assert "   v1: %5 = p_phi v1: undef\n   s1: %6 = p_linear_phi 7\n   p_branch BB2\n" in text
