"""lower_to_hw: parallel copies, vectors, constants, branches, other pseudos.

Expected outputs are derived by hand from the parallel-copy semantics (all
sources read before any destination is written) and the GFX11 ISA (v_swap_b32
exists; s_movk_i32 takes a signed 16-bit immediate; inline constants are
-16..64 and the float set). Every copy test also *interprets* the lowered
moves on a dict register file and compares with the parallel semantics.
"""

from __future__ import annotations

import itertools
import random

import pytest

from radcc.abi.amdhsa import descriptor_fields
from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.program import Program
from radcc.ir.regclass import SCC, VGPR_BASE, PhysReg
from radcc.passes.hw_copy import LoweringError
from radcc.passes.lower_to_hw import lower_to_hw

HEAD = """program gfx1100 {wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
"""


def prog(body: str, wave: str = "wave32", more: str = "") -> Program:
    return parse_program(HEAD.format(wave=wave) + body + more)


def lowered(body: str, **kw) -> Program:
    p = prog(body, **kw)
    lower_to_hw(p)
    return p


# --- an interpreter of the lowered moves ------------------------------------------

def _regs(x) -> list[int]:
    return [x.phys.reg + i for i in range(x.rc.size)]


def _val(o, rf: dict[int, int]) -> list[int]:
    if o.const is not None:
        n = (o.const_bytes + 3) // 4
        return [(o.const >> (32 * i)) & 0xFFFFFFFF for i in range(n)]
    return [rf[r] for r in _regs(o)]


def interpret(p: Program, rf: dict[int, int]) -> dict[int, int]:
    """Run the lowered block 0 on a register file (dword registers)."""
    rf = dict(rf)
    for ins in p.blocks[0].instructions:
        op = ins.opcode
        if op in ("s_mov_b32", "v_mov_b32", "s_mov_b64"):
            for r, v in zip(_regs(ins.definitions[0]), _val(ins.operands[0], rf), strict=False):
                rf[r] = v
        elif op == "s_movk_i32":
            v = ins.fields["simm16"]
            rf[ins.definitions[0].phys.reg] = (v - 0x10000 if v & 0x8000 else v) & 0xFFFFFFFF
        elif op == "s_brev_b32":
            v = _val(ins.operands[0], rf)[0]
            rf[ins.definitions[0].phys.reg] = int(f"{v:032b}"[::-1], 2)
        elif op == "v_swap_b32":
            a, b = ins.definitions[0].phys.reg, ins.definitions[1].phys.reg
            rf[a], rf[b] = rf[b], rf[a]
        elif op == "s_xor_b32":
            a, b = (_val(o, rf)[0] for o in ins.operands)
            rf[ins.definitions[0].phys.reg] = a ^ b
            rf[SCC] = int(a ^ b != 0)
        elif op == "s_cmp_lg_u32":
            a, b = (_val(o, rf)[0] for o in ins.operands)
            rf[SCC] = int(a != b)
        elif op == "s_cselect_b32":
            a, b = (_val(o, rf)[0] for o in ins.operands[:2])
            rf[ins.definitions[0].phys.reg] = a if rf[SCC] else b
        elif op == "v_lshrrev_b64":  # ISA guide: D.u64 = S1.u64 >> S0[5:0]
            sh = _val(ins.operands[0], rf)[0] & 63
            lo, hi = _val(ins.operands[1], rf)
            v = (lo | hi << 32) >> sh
            r = ins.definitions[0].phys.reg
            rf[r], rf[r + 1] = v & 0xFFFFFFFF, v >> 32
        elif op == "s_endpgm":
            pass
        else:
            raise AssertionError(f"interpreter does not know {op}")
    return rf


def parallel(p: Program, rf: dict[int, int]) -> dict[int, int]:
    """The parallel semantics of block 0's p_parallelcopy (before lowering)."""
    out = dict(rf)
    for ins in p.blocks[0].instructions:
        if ins.opcode != "p_parallelcopy":
            continue
        for d, o in zip(ins.definitions, ins.operands, strict=True):
            for r, v in zip(_regs(d), _val(o, rf), strict=True):
                out[r] = v
    return out


def initial_rf() -> dict[int, int]:
    rf = {r: 0x1000 + r for r in range(0, 106)}
    rf.update({VGPR_BASE + r: 0x5000 + r for r in range(0, 64)})
    rf[SCC] = 1
    return rf


def assert_block(p: Program, pattern: str, b: int = 0) -> None:
    """Block b's instructions must match `pattern` line for line."""
    assert_ir_matches("\n".join(_block_lines(p, b)) + "\n", pattern, exact=True)


def check_semantics(body: str, **kw) -> Program:
    """Lower `body` and compare the moves with the parallel semantics (the
    scratch SGPR and SCC may be clobbered)."""
    before = prog(body, **kw)
    after = lowered(body, **kw)
    rf = initial_rf()
    want, got = parallel(before, rf), interpret(after, rf)
    for ins in before.blocks[0].instructions:
        scratch = ins.fields.get("scratch_sgpr")
        if scratch is not None:
            want.pop(scratch, None)
            got.pop(scratch, None)
    want.pop(SCC, None)
    got.pop(SCC, None)
    assert got == want
    return after


# --- parallel copies ---------------------------------------------------------------

def test_chain_is_ordered_so_no_source_is_clobbered():
    # v0 <- v1 <- v2: v0 must be written before v1
    body = "   v1: %1:v[0], v1: %2:v[1] = p_parallelcopy v1: %3:v[1], v1: %4:v[2]\n"
    p = check_semantics(body)
    assert_block(p, """
        v1: v[0] = v_mov_b32 v1: v[1]
        v1: v[1] = v_mov_b32 v1: v[2]
        s_endpgm
    """)


def test_two_vgpr_cycle_is_one_swap():
    body = "   v1: %1:v[0], v1: %2:v[1] = p_parallelcopy v1: %3:v[1], v1: %4:v[0]\n"
    p = check_semantics(body)
    assert_block(p, """
        v1: v[#a], v1: v[#b] = v_swap_b32 v1: v[#a], v1: v[#b]
        s_endpgm
    """)


def test_three_vgpr_cycle_is_two_swaps():
    body = ("   v1: %1:v[0], v1: %2:v[1], v1: %3:v[2] = p_parallelcopy v1: %4:v[1], "
            "v1: %5:v[2], v1: %6:v[0]\n")
    p = check_semantics(body)
    # v0 <- v1 <- v2 <- v0: swap(v0, v1) fixes v0 and leaves old v0 in v1, which
    # then plays v0's part: swap(v1, v2)
    assert_block(p, """
        v1: v[0], v1: v[1] = v_swap_b32 v1: v[0], v1: v[1]
        v1: v[1], v1: v[2] = v_swap_b32 v1: v[1], v1: v[2]
        s_endpgm
    """)


def test_sgpr_cycle_uses_xor_swap_without_scratch():
    body = "   s1: %1:s[0], s1: %2:s[1] = p_parallelcopy s1: %3:s[1], s1: %4:s[0]\n"
    p = check_semantics(body)
    assert_block(p, """
        s1: s[#a], s1: scc = s_xor_b32 s1: s[#a], s1: s[#b]
        s1: s[#b], s1: scc = s_xor_b32 s1: s[#a], s1: s[#b]
        s1: s[#a], s1: scc = s_xor_b32 s1: s[#a], s1: s[#b]
        s_endpgm
    """)


def test_three_sgpr_cycle_with_scratch_sgpr():
    body = ("   s1: %1:s[0], s1: %2:s[1], s1: %3:s[2] = p_parallelcopy s1: %4:s[1], "
            "s1: %5:s[2], s1: %6:s[0] scratch_sgpr:10\n")
    p = check_semantics(body)
    # a cycle of n through a temporary: n + 1 moves
    assert_block(p, """
        s1: s[10] = s_mov_b32 s1: s[#a]
        s1: s[#a] = s_mov_b32 s1: s[#b]
        s1: s[#b] = s_mov_b32 s1: s[#c]
        s1: s[#c] = s_mov_b32 s1: s[10]
        s_endpgm
    """)


def test_sgpr_swap_refused_when_scc_is_live():
    body = ("   s1: %1:s[0], s1: %2:s[1] = p_parallelcopy s1: %3:s[1], s1: %4:s[0]\n"
            "   s1: %9:s[5] = s_cselect_b32 1, 0, s1: %8:scc\n")
    with pytest.raises(LoweringError, match="scc"):
        lowered(body)


def test_sgpr_pairs_become_s_mov_b64():
    body = "   s2: %1:s[0-1] = p_parallelcopy s2: %2:s[4-5]\n"
    p = check_semantics(body)
    assert_block(p, "s2: s[0-1] = s_mov_b64 s2: s[4-5]\n s_endpgm")
    # misaligned source: two s_mov_b32
    p = check_semantics("   s2: %1:s[0-1] = p_parallelcopy s2: %2:s[5-6]\n")
    assert [i.opcode for i in p.blocks[0].instructions] == ["s_mov_b32", "s_mov_b32",
                                                            "s_endpgm"]


def test_vgpr_pair_is_two_movs():
    p = check_semantics("   v2: %1:v[0-1] = p_parallelcopy v2: %2:v[4-5]\n")
    assert [i.opcode for i in p.blocks[0].instructions] == ["v_mov_b32", "v_mov_b32",
                                                            "s_endpgm"]


def test_overlapping_vectors_shift_by_one():
    # v[0-1] <- v[1-2]: v0 <- v1 first, then v1 <- v2
    p = check_semantics("   v2: %1:v[0-1] = p_parallelcopy v2: %2:v[1-2]\n")
    assert_ir_matches(p, """
        v1: v[0] = v_mov_b32 v1: v[1]
        v1: v[1] = v_mov_b32 v1: v[2]
    """, exact=False)
    # and the other way round: v[1-2] <- v[0-1]: v2 <- v1 first
    p = check_semantics("   v2: %1:v[1-2] = p_parallelcopy v2: %2:v[0-1]\n")
    assert_ir_matches(p, """
        v1: v[2] = v_mov_b32 v1: v[1]
        v1: v[1] = v_mov_b32 v1: v[0]
    """)


def test_swapped_64bit_pairs():
    body = ("   v2: %1:v[0-1], v2: %2:v[2-3] = p_parallelcopy v2: %3:v[2-3], v2: %4:v[0-1]\n")
    p = check_semantics(body)
    assert [i.opcode for i in p.blocks[0].instructions] == ["v_swap_b32", "v_swap_b32",
                                                            "s_endpgm"]


def test_mixed_files_and_fanout():
    body = ("   v1: %1:v[0], s1: %2:s[0], v1: %3:v[1], s1: %4:s[1], v1: %5:v[5] = "
            "p_parallelcopy s1: %6:s[0], s1: %7:s[1], v1: %8:v[0], s1: %9:s[0], v1: %10:v[0]\n")
    check_semantics(body)


def test_identity_copies_disappear():
    p = check_semantics("   v1: %1:v[3], s2: %2:s[4-5] = p_parallelcopy v1: %3:v[3], s2: %4:s[4-5]\n")
    assert [i.opcode for i in p.blocks[0].instructions] == ["s_endpgm"]


@pytest.mark.parametrize("seed", range(40))
def test_random_permutations(seed):
    """Random parallel copies (permutations with fan-out) of both files."""
    r = random.Random(seed)
    n = r.randint(2, 7)
    regs = list(range(n))
    dsts = r.sample(regs, r.randint(1, n))
    defs, ops = [], []
    for k, d in enumerate(dsts):
        s = r.choice(regs)
        file = "v" if seed % 2 else "s"
        defs.append(f"{file}1: %{k + 1}:{file}[{d}]")
        ops.append(f"{file}1: %{k + 100}:{file}[{s}]")
    body = f"   {', '.join(defs)} = p_parallelcopy {', '.join(ops)} scratch_sgpr:50\n"
    check_semantics(body)


def test_all_3_permutations_of_vgprs_without_scratch():
    for perm in itertools.permutations(range(3)):
        defs = ", ".join(f"v1: %{i + 1}:v[{i}]" for i in range(3))
        ops = ", ".join(f"v1: %{i + 10}:v[{p}]" for i, p in enumerate(perm))
        check_semantics(f"   {defs} = p_parallelcopy {ops}\n")


# --- constants -----------------------------------------------------------------------

@pytest.mark.parametrize(("value", "opcode", "field"), [
    ("5", "s_mov_b32", None),                  # inline integer
    ("-16", "s_mov_b32", None),
    ("0x3f800000", "s_mov_b32", None),         # inline 1.0
    ("0x1234", "s_movk_i32", 0x1234),          # signed 16-bit
    ("0xffff8000", "s_movk_i32", 0x8000),      # -32768
    ("0x80000000", "s_brev_b32", None),        # bit reverse of 1
    ("0x12345678", "s_mov_b32", None),         # literal
])
def test_sgpr_constants(value, opcode, field):
    p = check_semantics(f"   s1: %1:s[3] = p_parallelcopy {value}\n")
    ins = p.blocks[0].instructions[0]
    assert ins.opcode == opcode
    if field is not None:
        assert ins.fields["simm16"] == field


def test_vgpr_constant_and_64bit_constants():
    p = check_semantics("   v1: %1:v[3] = p_parallelcopy 0x12345678\n")
    assert_ir_matches(p, "v1: v[3] = v_mov_b32 0x12345678")
    # 64-bit inline (1.0 as f64) into an aligned SGPR pair: one s_mov_b64
    p = check_semantics("   s2: %1:s[2-3] = p_parallelcopy 0x3ff0000000000000_b64\n")
    assert_ir_matches(p, "s2: s[2-3] = s_mov_b64 0x3ff0000000000000_b64")
    # not inline: two halves
    p = check_semantics("   s2: %1:s[2-3] = p_parallelcopy 0x123456789_b64\n")
    assert [i.opcode for i in p.blocks[0].instructions][:2] == ["s_mov_b32", "s_mov_b32"]
    p = check_semantics("   v2: %1:v[2-3] = p_parallelcopy 0x3ff0000000000000_b64\n")
    assert_ir_matches(p, """
        v1: v[2] = v_mov_b32 0
        v1: v[3] = v_mov_b32 0x3ff00000
    """)


def test_scc_copies():
    p = check_semantics("   s1: %1:scc = p_parallelcopy s1: %2:s[4]\n")
    assert_ir_matches(p, "s1: scc = s_cmp_lg_u32 s1: s[4], 0")
    p = check_semantics("   s1: %1:s[4] = p_parallelcopy s1: %2:scc\n")
    assert_ir_matches(p, "s1: s[4] = s_cselect_b32 1, 0, s1: scc")


# --- vectors -------------------------------------------------------------------------

def test_create_split_extract_vector():
    body = ("   v3: %1:v[0-2] = p_create_vector v1: %2:v[1], v1: %3:v[2], v1: %4:v[0]\n"
            "   v1: %5:v[8], v2: %6:v[10-11] = p_split_vector v3: %7:v[4-6]\n"
            "   v1: %8:v[9] = p_extract_vector v4: %9:v[12-15], 2\n"
            "   v2: %10:v[2-3] = p_create_vector 7, v1: undef\n")
    p = lowered(body)
    rf = initial_rf()
    got = interpret(p, rf)
    want = dict(rf)
    want[256], want[257], want[258] = rf[257], rf[258], rf[256]
    want[256 + 8], want[256 + 10], want[256 + 11] = rf[256 + 4], rf[256 + 5], rf[256 + 6]
    want[256 + 9] = rf[256 + 14]
    # p_create_vector 7, undef: only the first dword is written
    want[258] = 7
    got.pop(SCC), want.pop(SCC)
    assert got == want


@pytest.mark.parametrize("wave", ["wave32", "wave64"])
def test_split_vector_dead_piece_is_not_copied(wave):
    # the shape of a merged kernel-argument load (isel/kernarg_loads.py): the wide
    # load's tail is a temp nobody reads; the allocator put it at s[0-2] (a 3-SGPR
    # temp is 4-aligned), away from s[17-19]. A dead definition's value is never
    # read, so its copy is dropped; the live pieces are copied as before.
    body = ("   s4: %9:s[12-15], s1: %14:s[20], s3: (kill)%57:s[0-2] = "
            "p_split_vector s8: %56:s[12-19]\n")
    p = lowered(body, wave=wave)
    assert_block(p, "s1: s[20] = s_mov_b32 s1: s[16]\ns_endpgm")
    rf = initial_rf()
    got = interpret(p, rf)
    want = dict(rf)
    want[20] = rf[16]
    got.pop(SCC), want.pop(SCC)
    assert got == want  # s0-s2 keep their values


VGPR_CONSTS = ("   v4: %1:v[4-7] = p_create_vector 0, 0, 0, 0\n"
               "   v2: %2:v[9-10] = p_create_vector -1, -1\n"
               "   v2: %3:v[11-12] = p_create_vector 64, 0\n"
               "   v2: %4:v[13-14] = p_create_vector 0, 5\n"
               "   v2: %5:v[15-16] = p_create_vector 65, 0\n")


def _create_vector_semantics(p: Program, wave: str) -> None:
    rf = initial_rf()
    got = interpret(p, rf)
    want = dict(rf)
    for i, v in enumerate([0, 0, 0, 0, None, 0xFFFFFFFF, 0xFFFFFFFF, 64, 0, 0, 5, 65, 0]):
        if v is not None:
            want[VGPR_BASE + 4 + i] = v
    got.pop(SCC), want.pop(SCC)
    assert got == want, wave


def test_vgpr_constant_pairs_are_one_64bit_shift_in_wave64():
    # wave64 (no VOPD): two constant dwords of a VGPR pair whose 64-bit value is an
    # inline integer (-16..64) are one v_lshrrev_b64 dst, 0, k (ACO's copy_constant);
    # 0x5_00000000 and 65 are not inline 64-bit constants: two v_mov_b32
    p = lowered(VGPR_CONSTS, wave="wave64")
    assert_block(p, """v2: v[4-5] = v_lshrrev_b64 0, 0_b64
        v2: v[6-7] = v_lshrrev_b64 0, 0_b64
        v2: v[9-10] = v_lshrrev_b64 0, -1_b64
        v2: v[11-12] = v_lshrrev_b64 0, 64_b64
        v1: v[13] = v_mov_b32 0
        v1: v[14] = v_mov_b32 5
        v1: v[15] = v_mov_b32 0x41
        v1: v[16] = v_mov_b32 0
        s_endpgm""")
    _create_vector_semantics(p, "wave64")
    # wave32: v_mov_b32 per dword (VOPD pairs them later)
    p = lowered(VGPR_CONSTS, wave="wave32")
    assert all(line.split(" = ")[-1].startswith("v_mov_b32") for line in _block_lines(p, 0)[:-1])
    _create_vector_semantics(p, "wave32")


# --- control flow ----------------------------------------------------------------------

CFG = """   p_logical_start
   s1: %1:s[0], s1: %2:scc = s_add_u32 s1: %3:s[1], 1
   p_logical_end
   {branch}
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   s_nop simm16:0
   p_branch BB3
BB2
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   s_nop simm16:0
   p_branch BB3
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, */
   s_endpgm
"""


@pytest.mark.parametrize(("branch", "expect"), [
    ("p_cbranch_z %2:scc BB2, BB1", ["s_cbranch_scc0 BB2"]),
    ("p_cbranch_nz %2:scc BB2, BB1", ["s_cbranch_scc1 BB2"]),
    # taken target is the next block: invert and branch to the other one
    ("p_cbranch_z %2:scc BB1, BB2", ["s_cbranch_scc1 BB2"]),
    ("p_cbranch_z s1: vcc BB2, BB1", ["s_cbranch_vccz BB2"]),
    ("p_cbranch_nz s1: exec BB2, BB1", ["s_cbranch_execnz BB2"]),
    # fall-through not the next block: an extra s_branch
    ("p_cbranch_z %2:scc BB3, BB2", ["s_cbranch_scc0 BB3", "s_branch BB2"]),
    # an ordinary SGPR condition is tested into scc
    ("p_cbranch_nz s1: %9:s[7] BB2, BB1", ["s_cmp_lg_u32 s1: s[7], 0", "s_cbranch_scc1 BB2"]),
])
def test_branches(branch, expect):
    p = lowered(CFG.format(branch=branch))
    texts = [ln.strip() for ln in _block_lines(p, 0)]
    got = [t.split(" = ", 1)[-1] for t in texts if "branch" in t or "s_cmp" in t]
    got = [t.replace("s1: scc ", "").replace("s1: vcc ", "").replace("s1: exec ", "")
           for t in got]
    assert got == expect


def _block_lines(p: Program, b: int) -> list[str]:
    from radcc.ir.printer import format_instruction
    from radcc.isa.table import get_table
    t = get_table(p.gfx_level)
    return [format_instruction(i, t) for i in p.blocks[b].instructions]


def test_branch_to_next_block_is_omitted_and_pseudos_vanish():
    p = lowered(CFG.format(branch="p_cbranch_z %2:scc BB2, BB1"))
    assert "s_add_u32" in _block_lines(p, 0)[0]
    # BB2's p_branch BB3 falls through; BB1's jumps over BB2
    assert _block_lines(p, 2) == ["s_nop simm16:0"]
    assert _block_lines(p, 1)[-1] == "s_branch BB3"


def test_startpgm_records_the_abi():
    p = lowered("   s2: %1:s[0-1], s1: %2:s[2], s1: %3:s[3], v1: %4:v[0] = p_startpgm "
                "workitem_id:1\n   s_endpgm\n")
    assert p.args is not None
    f = descriptor_fields(p.args)
    assert f["system_sgpr_workgroup_id_y"] == 1
    assert f["system_sgpr_workgroup_id_z"] == 0
    assert f["system_vgpr_workitem_id"] == 1
    assert _block_lines(p, 0) == ["s_endpgm"]
    with pytest.raises(LoweringError, match="ABI"):
        lowered("   s1: %1:s[9] = p_startpgm\n")


def test_endpgm_appended_and_barrier():
    p = lowered("   p_barrier scope:workgroup\n")
    assert [i.opcode for i in p.blocks[0].instructions] == ["s_waitcnt", "s_waitcnt_vscnt",
                                                            "s_barrier", "s_endpgm"]
    p = lowered("   p_barrier scope:subgroup sem:none\n")
    assert [i.opcode for i in p.blocks[0].instructions] == ["s_endpgm"]


def test_exit_early_and_discard():
    p = lowered("   p_exit_early_if s1: %1:scc\n   s_endpgm\n")
    assert [i.opcode for i in p.blocks[0].instructions] == ["s_cbranch_scc1", "s_endpgm"]
    exit_b = p.blocks[0].instructions[0].fields["targets"][0]
    assert [i.opcode for i in p.blocks[exit_b].instructions] == ["s_endpgm"]
    p = lowered("   p_discard_if s1: %1:s[4]\n   s_endpgm\n")
    assert_ir_matches(p, """
        s1: exec, s1: scc = s_and_not1_b32 s1: exec, s1: s[4]
        s_cbranch_scc0 s1: scc BB1
    """)


def test_extract():
    p = lowered("   v1: %1:v[1] = p_extract v1: %2:v[0], 1, 8, 0\n"
                "   s1: %3:s[1], s1: %5:scc = p_extract s1: %4:s[0], 1, 16, 1\n")
    assert_ir_matches(p, """
        v1: v[1] = v_bfe_u32 v1: v[0], 8, 8
        s1: s[1], s1: scc = s_bfe_i32 s1: s[0], 0x100010
    """)


@pytest.mark.parametrize(("body", "msg"), [
    ("   v1: %1:v[0] = p_phi v1: %2:v[1]\n", "ssa_elimination"),
    ("   p_spill v1: %2:v[1], 0\n", "spilling"),
    ("   v2b: %1:v[0][16:32] = p_parallelcopy v2b: %2:v[1][0:16]\n", "sub-dword"),
    ("   v1: %1 = p_parallelcopy v1: %2:v[1]\n", "register"),
    ("   s1: %1:s[0] = p_parallelcopy v1: %2:v[1]\n", "p_as_uniform"),
])
def test_errors_name_the_instruction(body, msg):
    with pytest.raises(LoweringError, match=msg) as e:
        lowered(body)
    assert "lower_to_hw" in str(e.value) or msg in str(e.value)


def test_as_uniform_of_vgpr_is_readfirstlane():
    p = lowered("   s2: %1:s[4-5] = p_as_uniform v2: %2:v[2-3]\n")
    assert_ir_matches(p, """
        s1: s[4] = v_readfirstlane_b32 v1: v[2]
        s1: s[5] = v_readfirstlane_b32 v1: v[3]
    """)
    assert PhysReg.of(4)  # keep import used


# BB1 ends with a branch over BB2, which jump_threading emptied (no instructions, no
# edges) and BB3, whose only instruction is a branch to the next block: both lower to
# nothing, so BB1 falls through to BB4 and its branch is omitted.
EMPTY_BETWEEN = """   p_logical_start
   s1: %1:s[0], s1: %2:scc = s_add_u32 s1: %3:s[1], 1
   p_logical_end
   {branch}
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   s_nop simm16:0
   p_branch BB4
BB2
/* logical preds: / linear preds: / kind: uniform, */
BB3
/* logical preds: / linear preds: / kind: uniform, */
   p_logical_start
   p_logical_end
   p_branch BB4
BB4
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: top-level, */
   s_endpgm
"""


def test_branch_over_blocks_lowering_to_nothing_is_omitted():
    p = lowered(EMPTY_BETWEEN.format(branch="p_cbranch_z %2:scc BB4, BB1"))
    assert _block_lines(p, 1) == ["s_nop simm16:0"]
    assert _block_lines(p, 2) == [] and _block_lines(p, 3) == []
    assert [ln.split(" = ")[-1] for ln in _block_lines(p, 0)][-1] == "s_cbranch_scc0 s1: scc BB4"


@pytest.mark.parametrize(("branch", "expect"), [
    # the taken target is the next block: inverted, to BB4
    ("p_cbranch_z %2:scc BB1, BB4", ["s_cbranch_scc1 BB4"]),
    # the fall-through BB3 lowers to nothing but lies behind BB1, which has code
    ("p_cbranch_z %2:scc BB4, BB3", ["s_cbranch_scc0 BB4", "s_branch BB3"]),
])
def test_conditional_branch_targets_through_empty_blocks(branch, expect):
    p = lowered(EMPTY_BETWEEN.format(branch=branch))
    got = [ln.split(" = ")[-1].replace("s1: scc ", "") for ln in _block_lines(p, 0)
           if "branch" in ln]
    assert got == expect


def test_branch_back_is_kept_even_if_the_blocks_between_are_empty():
    # BB3 lowers to nothing, but a branch to BB2 (behind BB3) is a backward jump
    src = EMPTY_BETWEEN.format(branch="p_cbranch_z %2:scc BB4, BB1").replace(
        "   p_logical_end\n   p_branch BB4\nBB4", "   p_logical_end\n   p_branch BB2\nBB4")
    p = lowered(src)
    assert _block_lines(p, 3) == ["s_branch BB2"]


def test_conditional_fall_through_reached_through_empty_blocks():
    # BB1's conditional branch falls through to BB4 across BB2 and BB3 (both lower to
    # nothing): no s_branch after it; taken BB4 with fall-through BB0 is inverted
    src = EMPTY_BETWEEN.format(branch="p_cbranch_z %2:scc BB4, BB1")
    p = lowered(src.replace("   s_nop simm16:0\n   p_branch BB4",
                            "   s_nop simm16:0\n   p_cbranch_nz s1: vcc BB0, BB4"))
    assert [ln.split(" = ")[-1] for ln in _block_lines(p, 1)] == [
        "s_nop simm16:0", "s_cbranch_vccnz s1: vcc BB0"]
    p = lowered(src.replace("   s_nop simm16:0\n   p_branch BB4",
                            "   s_nop simm16:0\n   p_cbranch_nz s1: vcc BB4, BB0"))
    assert [ln.split(" = ")[-1] for ln in _block_lines(p, 1)] == [
        "s_nop simm16:0", "s_cbranch_vccz s1: vcc BB0"]


# ACO's lower_to_hw drops a divergent branch (p_cbranch_z exec) over a few instructions
# that may run with no lane active: SALU, and VALU that writes no SGPR (GFX10+ writes
# a VALU's SGPR results even with EXEC 0); anything else (SOPP, memory, VCC/SGPR
# results, v_writelane) or more than CHEAP_SKIP instructions keeps the branch.
SKIP = """   p_logical_start
   s1: %1:s[0], s1: %2:scc = s_add_u32 s1: %3:s[1], 1
   p_logical_end
   {branch}
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
{body}   p_branch BB3
BB2
/* logical preds: / linear preds: / kind: uniform, */
   p_branch BB3
BB3
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: top-level, */
   s_endpgm
"""


def _body(*kinds: str) -> str:
    lines = []
    for n, k in enumerate(kinds):
        t = 100 + 10 * n
        lines.append({
            "s": f"s1: %{t}:s[4], s1: %{t + 1}:scc = s_and_b32 s1: %{t + 2}:s[5], "
                 f"s1: %{t + 3}:s[6]",
            "v": f"v1: %{t}:v[1] = v_add_f32 v1: %{t + 2}:v[2], v1: %{t + 3}:v[3]",
            "vcc": f"s1: %{t}:vcc = v_cmp_lt_f32 v1: %{t + 2}:v[2], v1: %{t + 3}:v[3]",
            "load": f"v1: %{t}:v[4] = global_load_b32 v1: %{t + 2}:v[2], "
                    f"s2: %{t + 3}:s[6-7]",
            "nop": "s_nop simm16:0",
            "writelane": f"v1: %{t}:v[5] = v_writelane_b32 s1: %{t + 2}:s[5], 0, "
                         f"v1: %{t + 3}:v[5]",
        }[k])
    return "".join(f"   {ln}\n" for ln in lines)


@pytest.mark.parametrize(("kinds", "kept"), [
    (("s", "v", "s"), False),
    (("s", "s", "v", "v"), False),
    (("s", "s", "s", "v", "v"), True),  # 5 > CHEAP_SKIP
    (("s", "vcc"), True),
    (("v", "load"), True),
    (("s", "nop"), True),
    (("v", "writelane"), True),
], ids=lambda x: "-".join(x) if isinstance(x, tuple) else str(x))
def test_divergent_branch_over_a_few_alu_instructions_is_dropped(kinds, kept):
    p = lowered(SKIP.format(branch="p_cbranch_z s1: exec BB3, BB1", body=_body(*kinds)))
    got = [ln.split(" = ")[-1] for ln in _block_lines(p, 0) if "branch" in ln]
    assert got == (["s_cbranch_execz s1: exec BB3"] if kept else []), got
    # the skipped block falls through to BB3 either way
    assert not any("branch" in ln for ln in _block_lines(p, 1))


def test_uniform_branch_over_alu_instructions_is_kept():
    p = lowered(SKIP.format(branch="p_cbranch_z %2:scc BB3, BB1", body=_body("s", "v")))
    assert [ln.split(" = ")[-1] for ln in _block_lines(p, 0) if "branch" in ln] == [
        "s_cbranch_scc0 s1: scc BB3"]
    p = lowered(SKIP.format(branch="p_cbranch_nz s1: exec BB3, BB1", body=_body("s", "v")))
    assert [ln.split(" = ")[-1] for ln in _block_lines(p, 0) if "branch" in ln] == [
        "s_cbranch_execnz s1: exec BB3"]
