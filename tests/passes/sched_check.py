"""Helpers for the post-RA scheduler tests (schedule_vopd, scheduler_ilp).

`random_body` writes random straight-line post-RA IR (VALU incl. VOPD-able
ops, fmac/fmaak, cndmask/compares through VCC, transcendental, SALU with
SCC, global/LDS loads, stores as fixed points). `check_pass` runs a pass and
checks with a symbolic interpreter written here that each original
instruction still reads exactly the values it read before: every register
dword holds a token, an instruction's result tokens are a hash of (which
instruction, which register, its input tokens); loads read and stores write
a "memory" token, and stores / s_endpgm / waits read and write a "control"
token every other instruction reads (so nothing crosses them). A VOPD
instruction is mapped back to the two originals through its definitions and
evaluates both from the state before it (ISA 7.6: both halves read first); a
VALU instruction re-created from a split VOPD maps back through its
definition (same opcode and register operands).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from radcc.ir.program import Instruction, Program
from radcc.passes.access import AccessCache

MEM, CTL = -1, -2
_NV, _NS = 12, 6


def _v(rng: random.Random) -> str:
    return f"v1: v[{rng.randrange(_NV)}]"


def _src0(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.6:
        return _v(rng)
    if r < 0.75:
        return f"s1: s[{rng.randrange(_NS)}]"
    if r < 0.9:
        return str(rng.choice([0, 1, 2, 7, 64, -3]))
    return rng.choice(["0x40490fdb", "0x3fb504f3"])


def random_body(rng: random.Random, n: int) -> str:
    lines = []
    for _ in range(n):
        d = rng.randrange(_NV)
        kind = rng.randrange(14)
        if kind < 4:
            op = rng.choice(["v_add_f32", "v_mul_f32", "v_sub_f32", "v_max_f32", "v_min_f32"])
            lines.append(f"v1: v[{d}] = {op} {_src0(rng)}, {_v(rng)}")
        elif kind == 4:
            op = rng.choice(["v_add_nc_u32", "v_and_b32", "v_lshlrev_b32"])
            lines.append(f"v1: v[{d}] = {op} {_src0(rng)}, {_v(rng)}")
        elif kind == 5:
            lines.append(f"v1: v[{d}] = v_mov_b32 {_src0(rng)}")
        elif kind == 6:
            lines.append(f"v1: v[{d}] = v_fmac_f32 {_src0(rng)}, {_v(rng)}, v1: v[{d}]")
        elif kind == 7:
            lines.append(f"v1: v[{d}] = v_fmaak_f32 {_v(rng)}, {_v(rng)} k:1078530011")
        elif kind == 8:
            lines.append(f"v1: v[{d}] = v_cndmask_b32 {_src0(rng)}, {_v(rng)}, s1: vcc")
        elif kind == 9:
            dst = rng.choice(["s1: vcc", f"s1: s[{rng.randrange(_NS)}]"])
            lines.append(f"{dst} = v_cmp_lt_f32_e64 {_v(rng)}, {_v(rng)}")
        elif kind == 10:
            lines.append(f"v1: v[{d}] = v_exp_f32 {_v(rng)}")
        elif kind == 11:
            a, b, c = (rng.randrange(_NS) for _ in range(3))
            if rng.random() < 0.5:
                lines.append(f"s1: s[{a}], s1: scc = s_add_u32 s1: s[{b}], s1: s[{c}]")
            else:
                lines.append(f"s1: s[{a}] = s_cselect_b32 s1: s[{b}], s1: s[{c}], s1: scc")
        elif kind == 12:
            if rng.random() < 0.5:
                lines.append(f"v1: v[{d}] = global_load_b32 {_v(rng)}, s2: s[6-7]")
            else:
                lines.append(f"v1: v[{d}] = ds_load_b32 {_v(rng)}")
        else:
            lines.append(f"global_store_b32 {_v(rng)}, {_v(rng)}, s2: s[6-7]")
    return "".join(f"   {x}\n" for x in lines)


def _rw(program: Program, instrs: list[Instruction]) -> list[tuple[list[int], list[int]]]:
    acc = AccessCache(program)
    out = []
    for i in instrs:
        a = acc(i)
        rd, wr = sorted(a.reads), sorted(a.writes)
        name = i.opcode
        if "_load_" in name:
            rd.append(MEM)
        if "_store_" in name or name.startswith(("s_endpgm", "s_waitcnt", "s_barrier")):
            rd += [MEM, CTL]
            wr += [MEM, CTL]
        else:
            rd.append(CTL)
        out.append((rd, wr))
    return out


def _regs(i: Instruction) -> list[object]:
    return [o.phys for o in i.operands if o.const is None]


def check_pass(program: Program, pass_fn: Callable[[Program], None]) -> Program:
    """Run `pass_fn` on `program`; assert every original instruction reads the
    same values in the result (see the module docstring)."""
    orig = [i for b in program.blocks for i in b.instructions]
    rws = _rw(program, orig)
    by_instr = {id(i): k for k, i in enumerate(orig)}
    by_def = {id(d): k for k, i in enumerate(orig) for d in i.definitions}
    seen: dict[int, tuple[int, ...]] = {}
    state: dict[int, int] = {}

    def step(ks: list[int], record: bool) -> None:
        outs = []
        for k in ks:
            rd, wr = rws[k]
            inputs = tuple(state.get(r, hash(("init", r))) for r in rd)
            if record:
                seen[k] = inputs
            else:
                assert seen[k] == inputs, f"{orig[k]} reads different values after the pass"
            outs += [(w, hash((k, w, inputs))) for w in wr]
        ws = [w for w, _ in outs]
        assert len(ws) == len(set(ws)), f"two halves write one register: {ks}"
        state.update(outs)

    for k in range(len(orig)):
        step([k], True)
    final = dict(state)
    state.clear()
    pass_fn(program)
    done: list[int] = []
    for b in program.blocks:
        for i in b.instructions:
            if id(i) in by_instr:
                ks = [by_instr[id(i)]]
            elif i.format != "VOPD":
                # a half re-created from a VOPD (scheduler_ilp splits pairs): the
                # original's opcode, definition and register operands
                assert len(i.definitions) == 1 and id(i.definitions[0]) in by_def, \
                    f"new instruction {i}"
                k = by_def[id(i.definitions[0])]
                o = orig[k]
                assert o.opcode == i.opcode and _regs(o) == _regs(i), f"{i} is not {o}"
                ks = [k]
            else:
                ks = sorted({by_def[id(d)] for d in i.definitions})
                assert len(ks) == 2, f"VOPD not made of two originals: {i}"
            step(ks, False)
            done += ks
    assert sorted(done) == list(range(len(orig))), "instructions lost or duplicated"
    assert state == final
    return program
