"""form_hard_clauses: s_clause placement, types, lengths and s_delay_alu re-aiming.

Expectations come from the ISA guide (5.2 "Instruction Clauses" and 16
S_CLAUSE: SIMM16[5:0] = length - 1, clauses of 2..63 instructions of one type
-- image load/store/atomic/sample, buffer-global-scratch load/store/atomic,
flat load/store/atomic, LDS, SMEM, VALU --; S_DELAY_ALU InstSkip [6:4]: the
second dependency applies 1 + InstSkip instructions after the s_delay_alu),
ACO's README-ISA.md (NSAClauseBug: no NSA MIMG in a hard clause on GFX10.1)
and the facts of ACO's aco_form_hard_clauses.cpp (stores only from GFX11,
at most 32 instructions on GFX11, 63 before; no LDS clauses; the
same-resource heuristic). The random test checks every clause with its own
classifier written from the ISA's type list (mnemonic families), not the
pass's.
"""

from __future__ import annotations

import random

import pytest
from waitcnt_util import assert_listing, listing

from radcc.ir.parser import parse_program
from radcc.ir.program import Program
from radcc.passes.access import info_of
from radcc.passes.form_hard_clauses import form_hard_clauses
from radcc.passes.hazards_gfx10 import check_unmitigable

HDR = "BB0\n/* logical preds: / linear preds: / kind: top-level, */\n"


def prog(body: str, gfx: str = "gfx1100", wave: int = 32) -> Program:
    return parse_program(f"program {gfx} wave{wave} compute\n{HDR}{body}")


def run(p: Program) -> Program:
    form_hard_clauses(p)
    return p


def clause(n: int) -> str:
    """The IR line of an s_clause of n instructions (ISA: SIMM16[5:0] = n - 1)."""
    return f"   s_clause simm16:{n - 1}\n"


def gload(d: int, addr: int = 1, base: str = "s[4-5]") -> str:
    return f"   v1: v[{d}] = global_load_b32 v1: v[{addr}], s2: {base}\n"


def gstore(a: int = 1, d: int = 3) -> str:
    return f"   global_store_b32 v1: v[{a}], v1: v[{d}], s2: s[6-7]\n"


def sload(d: int, off: int = 0) -> str:
    return f"   s2: s[{d}-{d + 1}] = s_load_b64 s2: s[0-1], {off}\n"


END = "   s_endpgm\n"
VALU = "   v1: v[40] = v_mov_b32 0\n"
WAIT = "   s_waitcnt simm16:1015\n"  # vmcnt(0) (ISA: VM[15:10] = 0, others at max)


def test_smem_run_gets_one_clause():
    body = sload(4) + sload(6, 8) + sload(8, 16) + END
    assert_listing(run(prog(body)), "BB0\n" + clause(3) + body)


def test_single_memory_instruction_gets_no_clause():
    body = sload(4) + VALU + gload(2) + END
    assert "s_clause" not in listing(run(prog(body)))


@pytest.mark.parametrize("between", [VALU, WAIT, "   s_nop simm16:0\n",
                                     "   s_delay_alu simm16:1\n",
                                     "   s_waitcnt_depctr simm16:65439\n",
                                     "   s1: s[20] = s_mov_b32 0\n"])
def test_any_other_instruction_ends_the_run(between):
    # ISA 16 S_CLAUSE: SALU/branches are illegal, S_DELAY_ALU must not be inside;
    # waits/nops are 'internal' but ACO never clauses across them, nor does radcc
    body = gload(2) + gload(3) + between + gload(4) + gload(5) + END
    assert_listing(run(prog(body)), "BB0\n" + clause(2) + gload(2) + gload(3) + between
                   + clause(2) + gload(4) + gload(5) + END)


def test_loads_stores_and_smem_are_separate_types():
    body = gload(2) + gload(3) + gstore() + gstore(2, 4) + sload(4) + sload(6, 8) + END
    expect = ("BB0\n" + clause(2) + gload(2) + gload(3) + clause(2) + gstore() + gstore(2, 4)
              + clause(2) + sload(4) + sload(6, 8) + END)
    assert_listing(run(prog(body)), expect)


def test_atomics_are_their_own_type_on_gfx11():
    at = "   global_atomic_add_u32 v1: v[1], v1: v[3], s2: s[6-7]\n"
    body = gstore() + at + at + END
    assert_listing(run(prog(body)), "BB0\n" + gstore() + clause(2) + at + at + END)


def test_gfx10_clauses_only_instructions_returning_data():
    ld = "   v1: v[{}] = global_load_b32 v1: v[1], s2: s[4-5]\n"
    st = "   global_store_b32 v1: v[1], v1: v[3], s2: s[6-7]\n"
    body = ld.format(2) + ld.format(3) + st + st + END
    for gfx in ("gfx1010", "gfx1030"):
        assert_listing(run(prog(body, gfx)),
                       "BB0\n" + clause(2) + ld.format(2) + ld.format(3) + st + st + END)


@pytest.mark.parametrize(("gfx", "name", "limit"), [("gfx1100", "global_load_b32", 32),
                                                    ("gfx1030", "global_load_b32", 63)])
def test_maximum_clause_length(gfx, name, limit):
    n = limit + 5
    loads = [f"   v1: v[{10 + k}] = {name} v1: v[1], s2: s[4-5]\n" for k in range(n)]
    p = run(prog("".join(loads) + END, gfx))
    expect = "BB0\n" + clause(limit) + "".join(loads[:limit]) + clause(5) + "".join(
        loads[limit:]) + END
    assert_listing(p, expect)
    # one past the limit: the last instruction is alone and gets no clause
    p = run(prog("".join(loads[:limit + 1]) + END, gfx))
    assert_listing(p, "BB0\n" + clause(limit) + "".join(loads[:limit + 1]) + END)


def test_buffer_loads_of_different_resources_are_not_clauses():
    a = "   v1: v[2] = buffer_load_b32 v1: v[1], s4: s[4-7], 0 offen\n"
    b = "   v1: v[3] = buffer_load_b32 v1: v[1], s4: s[8-11], 0 offen\n"
    c = "   v1: v[4] = buffer_load_b32 v1: v[1], s4: s[8-11], 4 offen\n"
    assert_listing(run(prog(a + b + c + END)), "BB0\n" + a + clause(2) + b + c + END)


def test_buffer_and_scratch_loads_do_not_mix():
    a = "   v1: v[2] = buffer_load_b32 v1: v[1], s4: s[4-7], 0 offen\n"
    s = "   v1: v[4] = scratch_load_b32 v1: v[1], s1: null\n"
    assert "s_clause" not in listing(run(prog(a + s + a + END)))


def test_smem_buffer_loads_need_the_same_descriptor():
    a = "   s1: s[20] = s_buffer_load_b32 s4: s[4-7], 0\n"
    b = "   s1: s[21] = s_buffer_load_b32 s4: s[8-11], 0\n"
    c = "   s1: s[22] = s_buffer_load_b32 s4: s[8-11], 4\n"
    assert_listing(run(prog(a + b + c + END)), "BB0\n" + a + clause(2) + b + c + END)
    # s_load from different 64-bit bases: ACO assumes nearby addresses
    d = "   s2: s[24-25] = s_load_b64 s2: s[2-3], 0\n"
    assert_listing(run(prog(sload(4) + d + END)), "BB0\n" + clause(2) + sload(4) + d + END)


def test_invalidations_and_lds_are_never_in_clauses():
    ds = "   v1: v[5] = ds_load_b32 v1: v[3]\n"
    body = sload(4) + "   s_dcache_inv\n" + sload(6) + ds + ds + "   s_gl1_inv\n" + END
    assert "s_clause" not in listing(run(prog(body)))


def test_clauses_stay_inside_blocks():
    text = ("program gfx1100 wave32 compute\nBB0\n/* logical preds: / linear preds: / "
            "kind: top-level, */\n" + gload(2) + "   s_branch BB1\nBB1\n/* logical preds: BB0, "
            "/ linear preds: BB0, / kind: top-level, */\n" + gload(3) + gload(4) + END)
    p = run(parse_program(text))
    assert_listing(p, "BB0\n" + gload(2) + "   s_branch BB1\nBB1\n" + clause(2) + gload(3)
                   + gload(4) + END)


def test_existing_clauses_are_recomputed():
    body = "   s_clause simm16:5\n" + gload(2) + gload(3) + VALU + "   s_clause simm16:1\n" + (
        gload(4) + END)
    assert_listing(run(prog(body)), "BB0\n" + clause(2) + gload(2) + gload(3) + VALU
                   + gload(4) + END)


def test_idempotent():
    body = gload(2) + gload(3) + END
    p = run(prog(body))
    once = listing(p)
    assert listing(run(p)) == once


# --- NSA images on GFX10.1 (NSAClauseBug) --------------------------------------------

NSA = "   v4: v[{}-{}] = image_sample v1: v[1], v1: v[5], s8: s[8-15], s4: s[16-19] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
VEC = "   v4: v[{}-{}] = image_sample v2: v[1-2], s8: s[8-15], s4: s[16-19] dmask:0xf dim:SQ_RSRC_IMG_2D\n"


def test_nsa_images_never_in_clauses_on_gfx10_1():
    nsa = NSA.format(20, 23) + NSA.format(24, 27)
    vec = VEC.format(20, 23) + VEC.format(24, 27)
    p = run(prog(nsa + END, "gfx1010"))
    assert "s_clause" not in listing(p)
    check_unmitigable(p, info_of)  # insert_nops' NSAClauseBug check accepts it
    # the same images with one address tuple, and NSA on GFX10.3: clauses
    assert listing(run(prog(vec + END, "gfx1010"))).count("s_clause simm16:1") == 1
    assert listing(run(prog(nsa + END, "gfx1030"))).count("s_clause simm16:1") == 1


# --- s_delay_alu InstSkip --------------------------------------------------------------

def da(id0: int, skip: int, id1: int) -> str:
    return f"   s_delay_alu simm16:{id0 | skip << 4 | id1 << 7}\n"


W1 = "   v1: v[30] = v_add_f32 v1: v[0], v1: v[0]\n"
W2 = "   v1: v[31] = v_add_f32 v1: v[0], v1: v[0]\n"
R1 = "   v1: v[32] = v_mul_f32 v1: v[30], v1: v[30]\n"
R2 = "   v1: v[33] = v_mul_f32 v1: v[31], v1: v[31]\n"


def test_delay_skip_grows_over_an_inserted_clause():
    # instid0(VALU_DEP_2) for R1; instid1(VALU_DEP_3) for R2, InstSkip SKIP_2 (3):
    # R2 is 1 + 3 = 4 instructions after the s_delay_alu
    body = W1 + W2 + da(2, 3, 3) + R1 + gload(2) + gload(3) + R2 + END
    # one instruction (the s_clause) more in between: SKIP_3 (4)
    assert_listing(run(prog(body)), "BB0\n" + W1 + W2 + da(2, 4, 3) + R1 + clause(2)
                   + gload(2) + gload(3) + R2 + END)


def test_delay_split_when_skip_would_exceed_skip_4():
    # InstSkip SKIP_4 (5): R2 is 6 instructions after; with the s_clause 7 is too far
    body = W1 + W2 + da(2, 5, 3) + R1 + gload(2) + gload(3) + gload(4) + VALU + R2 + END
    assert_listing(run(prog(body)), "BB0\n" + W1 + W2 + da(2, 0, 0) + R1 + clause(3)
                   + gload(2) + gload(3) + gload(4) + VALU + da(3, 0, 0) + R2 + END)


def test_delay_skip_shrinks_when_a_clause_is_removed():
    body = W1 + W2 + da(2, 4, 3) + R1 + "   s_clause simm16:1\n" + gload(2) + VALU + R2 + END
    assert_listing(run(prog(body)), "BB0\n" + W1 + W2 + da(2, 3, 3) + R1 + gload(2) + VALU
                   + R2 + END)


# --- random blocks: an independent clause checker -----------------------------------

def _isa_type(mnemonic: str) -> str | None:
    """Clause type of a GFX11 mnemonic per ISA 5.2's list (None: not clauseable by
    this pass: LDS, VALU, SALU, waits)."""
    if mnemonic.startswith(("s_load", "s_buffer_load")):
        return "smem"
    for fam in ("global_", "scratch_", "buffer_"):
        if mnemonic.startswith(fam):
            return "vmem_" + ("atomic" if "_atomic" in mnemonic else
                              "load" if "_load" in mnemonic else "store")
    return None


_POOL = [gload(2), gload(3, 2), gload(4, 1, "s[8-9]"), gstore(), gstore(2, 4),
         "   global_atomic_add_u32 v1: v[1], v1: v[3], s2: s[6-7]\n",
         "   v1: v[7] = scratch_load_b32 v1: v[1], s1: null\n", sload(10), sload(12, 8),
         "   s1: s[14] = s_buffer_load_b32 s4: s[16-19], 0\n",
         "   v1: v[5] = ds_load_b32 v1: v[3]\n", VALU, W1, R1, WAIT, "   s_nop simm16:0\n",
         "   s1: s[20] = s_mov_b32 0\n"]


def _check_clauses(lines: list[str], limit: int) -> None:
    k = 0
    while k < len(lines):
        ln = lines[k].split()
        if ln and ln[0] == "s_clause":
            n = int(ln[1].split(":")[1]) + 1
            assert 2 <= n <= limit, lines[k]
            members = lines[k + 1:k + 1 + n]
            assert len(members) == n
            types = set()
            for m in members:
                types.add(_isa_type(m.split("=")[-1].split()[0]))
            assert len(types) == 1 and None not in types, members
        k += 1


@pytest.mark.parametrize("seed", range(40))
def test_random_blocks_keep_their_instructions_and_form_legal_clauses(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 80)
    body = "".join(rng.choice(_POOL[:10] if rng.random() < 0.7 else _POOL) for _ in range(n))
    p = run(prog(body + END))
    out = listing(p).splitlines()[1:]
    # removing the s_clause lines gives back the input, instruction for instruction
    assert [x for x in out if not x.strip().startswith("s_clause")] == (body + END).rstrip(
        "\n").split("\n")
    _check_clauses([x.strip() for x in out], 32)
    # maximal: two adjacent same-type global loads or s_loads outside any clause
    # never occur (they always pass ACO's heuristic)
    inside = set()
    for k, x in enumerate(out):
        if x.strip().startswith("s_clause"):
            m = int(x.split(":")[1]) + 1
            inside.update(range(k + 1, k + 1 + m))
    for k in range(len(out) - 1):
        a, b = out[k], out[k + 1]
        for fam in ("global_load_b32", "s_load_b64"):
            if fam in a and fam in b and k not in inside and k + 1 not in inside:
                pytest.fail(f"lines {k}, {k + 1} not in a clause: {a!r} {b!r}")
