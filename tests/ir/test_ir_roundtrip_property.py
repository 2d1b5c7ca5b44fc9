"""Property: any program the builder can make prints, parses and prints the same."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.abi.stage import COMPUTE_CS, FRAGMENT_FS
from radcc.ir import BlockKind, Program
from radcc.ir.builder import Builder
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.regclass import EXEC, PhysReg, RegClass, s1, s2, v1
from radcc.target import get_target

RCS = [s1, s2, v1, RegClass.parse("v2"), RegClass.parse("v2b"), RegClass.parse("lv1"),
       RegClass.parse("s4")]
FIELD_VALUES = st.one_of(st.booleans(), st.integers(-(1 << 40), 1 << 40),
                         st.lists(st.integers(0, 3), max_size=3),
                         st.sampled_from(["iadd32", "x.y", "two words", "0abc", ""]))


@st.composite
def programs(draw) -> Program:
    p = Program(get_target(draw(st.sampled_from(["gfx1100", "gfx1102"]))),
                wave_size=draw(st.sampled_from([32, 64])),
                stage=draw(st.sampled_from([COMPUTE_CS, FRAGMENT_FS])))
    nblocks = draw(st.integers(1, 4))
    for i in range(nblocks):
        kinds = draw(st.lists(st.sampled_from(list(BlockKind)), max_size=3))
        blk = p.create_block()
        for k in kinds:
            blk.kind |= k
        blk.loop_nest_depth = draw(st.integers(0, 2))
        if i:
            blk.logical_preds = sorted(draw(st.sets(st.integers(0, i - 1), max_size=2)))
            blk.linear_preds = sorted(draw(st.sets(st.integers(0, i - 1), max_size=2)))
    temps = []
    b = Builder(p)
    for blk in p.blocks:
        b.at_end(blk)
        for _ in range(draw(st.integers(0, 6))):
            choice = draw(st.integers(0, 4))
            if choice == 0 or not temps:
                r = b.sop2("s_add_u32", s1, draw(st.integers(-(1 << 31), (1 << 32) - 1)),
                           b.c64(draw(st.integers(0, (1 << 64) - 1))))
            elif choice == 1:
                r = b.vop2("v_add_f32", v1, draw(st.sampled_from(temps)),
                           draw(st.sampled_from(temps)))
            elif choice == 2:
                r = b.copy(s1, b.fixed(PhysReg.of(EXEC), s1))
            elif choice == 3:
                rc = draw(st.sampled_from(RCS))
                r = b.pseudo("p_unit_test", [rc], [b.undef(rc), draw(st.sampled_from(temps))],
                             **{k: v for k, v in draw(st.dictionaries(
                                 st.sampled_from(["id", "op", "scope", "sem", "cluster_size"]),
                                 FIELD_VALUES, max_size=3)).items()})
            else:
                r = b.vop3("v_add_f32", v1, draw(st.sampled_from(temps)), 1, clamp=True)
            for d in r.instr.definitions:
                d.is_kill = draw(st.booleans())
                d.is_precise = draw(st.booleans())
                if d.temp is not None and draw(st.booleans()) and d.phys is None:
                    d.phys = PhysReg.of(256 if d.rc.is_vgpr else 4) if not d.rc.subdword \
                        else PhysReg(4 * 256 + 2)
            for o in r.instr.operands:
                if o.temp is not None:
                    o.is_kill, o.is_first_kill, o.is_late_kill = (
                        draw(st.booleans()), draw(st.booleans()), draw(st.booleans()))
            temps.extend(r.temps)
        if draw(st.booleans()):
            b.branch(draw(st.integers(0, len(p.blocks) - 1)))
    # derive successors as the printer/parser do
    for blk in p.blocks:
        for q in blk.logical_preds:
            p.blocks[q].logical_succs.append(blk.index)
        for q in blk.linear_preds:
            p.blocks[q].linear_succs.append(blk.index)
    return p


@settings(max_examples=150, deadline=None)
@given(programs())
def test_print_parse_print(p):
    text = print_program(p)
    q = parse_program(text)
    assert print_program(q) == text
    assert q.wave_size == p.wave_size and q.target is p.target
    assert [b.linear_succs for b in q.blocks] == [sorted(b.linear_succs) for b in p.blocks]
    assert len(q.temp_rc) <= len(p.temp_rc)
