"""The second half of spilling (`radcc.passes.spill`): SSA repair after the
reloads, spill slots, linear VGPRs and the scratch area.

`apply_plan(program, spiller)` guarantees, on a program where `spill` inserted
``p_spill``/``p_reload`` with placeholder slots:

- SSA form: every use of a value that has reloads reads the nearest definition
  (the original or a reload); where several reach a block entry a
  ``p_phi`` (VGPRs, over logical predecessors) or ``p_linear_phi`` (linear
  temps, over linear predecessors) is created (Braun et al., "Simple and
  Efficient Construction of Static Single Assignment Form", with the CFG
  complete: a placeholder phi breaks cycles, trivial phis are removed);
- slots: a VGPR value of n dwords gets n dwords of private memory after the
  scratch isel already uses (``config['scratch_size']`` grows; a 4 KiB limit, 2 KiB
  on GFX10: the scratch instruction's immediate offset; refused without flat
  scratch ST mode, GFX10.1: `kernel_abi.scratch_st_mode`); an SGPR value of n dwords gets
  n lanes of one linear VGPR (``lv1``; ``p_start_linear_vgpr`` after
  ``p_startpgm``, ``p_end_linear_vgpr`` in every block that ends the program);
- ``config['spills_sgpr']``/``config['spills_vgpr']``: the dwords spilled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import Temp, lv1
from radcc.isa.table import get_table
from radcc.passes.kernel_abi import scratch_offset_range, scratch_st_mode
from radcc.passes.live_var_analysis import is_linear
from radcc.passes.spill_lower import scratch_opcode

if TYPE_CHECKING:
    from radcc.passes.spill import _Spiller

_END_OPS = frozenset({"s_endpgm", "p_end_with_regs"})


class _Renamer:
    def __init__(self, program: Program, reload_of: dict[int, int]) -> None:
        self.p = program
        self.reload_of = reload_of
        self.R = set(reload_of.values())
        self.last_def: list[dict[int, Temp]] = []
        for b in program.blocks:
            ld: dict[int, Temp] = {}
            for ins in b.instructions:
                for d in ins.definitions:
                    t = d.temp
                    if t is None:
                        continue
                    o = reload_of.get(t.id, t.id)
                    if o in self.R:
                        ld[o] = t
            self.last_def.append(ld)
        self.entry: dict[tuple[int, int], Temp] = {}
        self.subst: dict[int, Temp] = {}
        self.created: list[tuple[Block, Instruction]] = []

    def preds(self, b: Block, t: Temp) -> list[int]:
        return b.linear_preds if is_linear(t.rc) else b.logical_preds

    def read_end(self, bi: int, t: Temp) -> Temp:
        while True:
            d = self.last_def[bi].get(t.id)
            if d is not None:
                return d
            key = (bi, t.id)
            if key in self.entry:
                return self.entry[key]
            b = self.p.blocks[bi]
            preds = self.preds(b, t)
            if len(preds) != 1:
                return self.read_entry(bi, t)
            bi = preds[0]

    def read_entry(self, bi: int, t: Temp) -> Temp:
        key = (bi, t.id)
        got = self.entry.get(key)
        if got is not None:
            return got
        b = self.p.blocks[bi]
        preds = self.preds(b, t)
        if not preds:
            raise ValueError(f"spill: BB{bi}: %{t.id} is read but not defined on every path")
        if len(preds) == 1:
            v = self.read_end(preds[0], t)
            self.entry[key] = v
            return v
        new = self.p.allocate_temp(t.rc)
        self.entry[key] = new
        ops = [self.read_end(p, t) for p in preds]
        others = {o.id for o in ops if o.id != new.id}
        if len(others) == 1:
            x = next(o for o in ops if o.id != new.id)
            self.entry[key] = x
            self.subst[new.id] = x
            return x
        phi = Instruction("p_linear_phi" if is_linear(t.rc) else "p_phi", "PSEUDO",
                          [Operand(o) for o in ops], [Definition(new)])
        self.created.append((b, phi))
        return new

    def resolve(self, t: Temp) -> Temp:
        while t.id in self.subst:
            t = self.subst[t.id]
        return t

    def run(self) -> None:
        if not self.R:
            return
        blocks = self.p.blocks
        for b in blocks:
            cur: dict[int, Temp] = {}
            for ins in b.instructions:
                if not ins.is_phi:
                    for o in ins.operands:
                        t = o.temp
                        if t is None or t.id not in self.R:
                            continue
                        v = cur.get(t.id)
                        if v is None:
                            v = self.read_entry(b.index, t)
                            cur[t.id] = v
                        o.temp = v
                for d in ins.definitions:
                    t = d.temp
                    if t is None:
                        continue
                    orig = self.reload_of.get(t.id, t.id)
                    if orig in self.R:
                        cur[orig] = t
        for b in blocks:
            for ins in b.instructions:
                if not ins.is_phi:
                    continue
                preds = b.logical_preds if ins.opcode == "p_phi" else b.linear_preds
                for p, o in zip(preds, ins.operands, strict=False):
                    if o.temp is not None and o.temp.id in self.R:
                        o.temp = self.read_end(p, o.temp)
        # trivial phis made so by later placeholders: remove until none is left
        live = list(self.created)
        changed = True
        while changed:
            changed = False
            keep = []
            for b, phi in live:
                me = phi.definitions[0].temp
                assert me is not None
                vals = {self.resolve(o.temp).id: self.resolve(o.temp)
                        for o in phi.operands if o.temp is not None}
                vals.pop(me.id, None)
                if len(vals) == 1:
                    self.subst[me.id] = next(iter(vals.values()))
                    changed = True
                else:
                    keep.append((b, phi))
            live = keep
        for b, phi in reversed(live):
            b.instructions.insert(0, phi)
        if self.subst:
            for b in blocks:
                for ins in b.instructions:
                    for o in ins.operands:
                        if o.temp is not None and o.temp.id in self.subst:
                            o.temp = self.resolve(o.temp)
                            o.rc = o.temp.rc


def apply_plan(program: Program, sp: _Spiller) -> None:
    """SSA repair, slots, linear VGPRs, scratch size (module docstring)."""
    from radcc.passes.spill import SCRATCH_OFFSET_LIMIT, SpillError

    _Renamer(program, sp.reload_of).run()
    wave = program.wave_size
    base = -(-program.config.get("scratch_size", 0) // 4) * 4
    voff = base
    lane = 0
    slot_of: dict[int, tuple[int, int]] = {}  # orig -> (slot constant, lv index)
    for t in sorted(sp.slot_ops):
        rc = sp.rc_of[t]
        if rc.is_sgpr:
            if lane % wave + rc.size > wave:
                lane = -(-lane // wave) * wave
            slot_of[t] = (lane % wave, lane // wave)
            lane += rc.size
        else:
            slot_of[t] = (voff, -1)
            voff += 4 * rc.size
    if voff > base:
        ops = get_table(program.gfx_level).by_name
        if not all(scratch_opcode(program, k, 1) in ops for k in ("store", "load")):
            raise SpillError(f"spill: VGPR spilling lowers to scratch_store/scratch_load, "
                             f"which {program.target.name} does not have")
        if not scratch_st_mode(program.target):  # GFX10.1 (docs/abi.md)
            raise SpillError(f"spill: VGPR spilling needs scratch_* without vaddr and saddr "
                             f"(flat scratch ST mode), which {program.target.name} does not "
                             f"have")
        limit = min(SCRATCH_OFFSET_LIMIT, scratch_offset_range(program.target)[1] + 1)
        if voff > limit:
            raise SpillError(f"spill: {voff} bytes of VGPR spill slots per lane exceed the "
                             f"{limit} the scratch immediate offset reaches")
        program.config["scratch_size"] = voff
    for t, ops in sp.slot_ops.items():
        for o in ops:
            o.const = slot_of[t][0]
    n_lv = -(-lane // wave)
    lvs = [program.allocate_temp(lv1) for _ in range(n_lv)]
    for t, o in sp.lv_ops:
        o.temp = lvs[slot_of[t][1]]
        o.rc = lv1
    if lvs:
        entry = program.blocks[0]
        at = next((i + 1 for i, ins in enumerate(entry.instructions)
                   if ins.opcode == "p_startpgm"), 0)
        for lv in reversed(lvs):
            entry.instructions.insert(at, Instruction("p_start_linear_vgpr", "PSEUDO", [],
                                                      [Definition(lv)]))
        for b in program.blocks:
            if b.linear_succs:
                continue
            ins = b.instructions
            at = len(ins) - 1 if ins and ins[-1].opcode in _END_OPS else len(ins)
            for lv in lvs:
                ins.insert(at, Instruction("p_end_linear_vgpr", "PSEUDO", [Operand(lv)], []))
    program.config["spills_sgpr"] = lane
    program.config["spills_vgpr"] = (voff - base) // 4
