"""Insert s_waitcnt / s_waitcnt_vscnt (ACO's insert_wait_states, the counter part).

Source: ACO's README.md (Mesa src/amd/compiler) "Insert wait states"; facts from the RDNA3 ISA guide 5.6
"Data Dependency Resolution", 10.8, 11.1.1 (FLAT), 12.2.1.2 (LDS parameter
loads) and 16 (S_WAITCNT, S_WAITCNT_VSCNT, S_ENDPGM).

Runs after lower_to_hw on hardware instructions whose operands and
definitions carry `PhysReg`s. `insert_waitcnt(program)` guarantees, on every
path of the linear CFG:

- no instruction reads a register that an outstanding memory instruction
  will still write (a load's destination: VGPRs of VMEM/FLAT/DS/LDSDIR loads,
  SGPRs of SMEM loads and s_sendmsg_rtn), and none overwrites such a
  register (WAW), except a load of the same in-order kind (same counter
  event and sampler kind: the hardware writes those in issue order);
- no instruction overwrites a VGPR an outstanding export or GDS operation
  still reads, nor EXEC before an export has read it (EXPcnt);
- VMEM store data is not protected (ISA 10.8: the hardware stalls a writer
  of store data until it has been sent);
- the wait is the weakest one the counters allow. The model of the counters
  (GFX11): VMcnt counts loads, samples and atomics with return, VScnt stores
  and atomics without return, LGKMcnt SMEM, LDS, GDS, FLAT and messages,
  EXPcnt exports, GDS source locks and LDS direct/parameter loads; FLAT counts
  on both VMcnt/VScnt and LGKMcnt. Operations of one *event* kind complete in
  order (VMEM loads, VMEM stores, LDS, GDS, each export type, LDSDIR); SMEM,
  FLAT and messages complete in any order, and different kinds are unordered
  with respect to each other. So a register written by an in-order event
  needs ``counter <= number of later events of the same kind``, anything
  else ``counter <= 0`` (e.g. SMEM, or a FLAT load: "the only sensible
  S_WAITCNT value to use after Flat instructions is zero", ISA 11.1.1).

GFX10/GFX10.3 count the same way (RDNA1 ISA; LLVM's SIInsertWaitcnts and ACO
use one event-to-counter map for GFX10+: stores on VScnt since GFX10, SMEM, LDS,
GDS and messages on LGKMcnt, FLAT on both; the counter widths are the same: vmcnt
and lgkmcnt 6 bits, expcnt 3, vscnt 6); only the ``s_waitcnt`` SIMM16 layout
differs (GFX10 splits vmcnt over [3:0] and [15:14]), so the pass reads and writes
it with the program's generation (`access.wait_of`/`encode_waitcnt` with
``gfx``). A plain ``s_barrier`` gets no wait of its own on GFX10 either (clang-19
-mcpu=gfx1010/gfx1030 puts none before one that follows an LDS store);
tests/passes/test_gfx10_pipeline.py checks the GFX10 waits as llvm-objdump decodes them.

Waits are emitted as one ``s_waitcnt`` (vmcnt/expcnt/lgkmcnt in the target's
SIMM16 layout of `radcc.isa.formats.scalar_fields`) and/or one
``s_waitcnt_vscnt null, N`` directly before the instruction that needs them.
Waits already in the program (``s_waitcnt``, ``s_waitcnt_{vs,vm,exp,lgkm}cnt
null, N``, ``s_wait_idle``) are honoured: they are merged with the waits the
next instruction needs, re-emitted there, and counters with nothing
outstanding are dropped from them. A VINTERP waits for EXPcnt <= its
``wait_exp`` field itself (default 0).

Barriers and ends: the release a ``p_barrier`` implies (``s_waitcnt 0`` and
``s_waitcnt_vscnt null, 0`` before ``s_barrier``, emitted by lower_to_hw for
every barrier with memory semantics) is kept as described above; GFX11 has
back-off barriers, so a plain ``s_barrier`` needs no wait of its own (LLVM
adds none either). ``s_endpgm`` waits for everything itself (ISA 16), so no
wait is added before it. Before an indirect jump (``s_setpc_b64``,
``s_swappc_b64``, ``s_rfe_b64``) and at the end of an ``end-with-regs``
block everything outstanding is waited for, as ACO does.

Control flow: the state (per register: the counters and events it waits
for; per counter: which events are outstanding) at a block's entry is the
join of its linear predecessors' exit states (ACO: per counter the stricter
value, the union of events); loops are iterated to a fixed point
(`radcc.passes.linear_dataflow`), so a load issued late in a loop body is
waited for at its use at the top of the next iteration.

``force_waitcnt=True`` (the pass manager passes ``RADCC_DEBUG=force-waitcnt``):
after every instruction that increments a counter, wait for all counters to reach 0.
"""

from __future__ import annotations

from radcc.ir.fields import SaluFields
from radcc.ir.program import Block, BlockKind, Instruction, Operand, Program
from radcc.ir.regclass import NULL, VGPR_BASE, PhysReg, s1
from radcc.isa.table import OpInfo
from radcc.passes.access import (
    WAIT_COUNTERS,
    WAIT_MAX,
    WAIT_OPCODES,
    Access,
    encode_waitcnt,
    implicit_regs,
    info_index,
    is_ds,
    is_exp,
    is_flat,
    is_gds,
    is_indirect_branch,
    is_ldsdir,
    is_message,
    is_smem,
    is_vinterp,
    is_vmem,
    operand_regs,
    returns_data,
    wait_of,
)
from radcc.passes.linear_dataflow import forward_fixpoint

__all__ = ["insert_waitcnt"]

VM, EXP, LGKM, VS = range(4)
_CIDX = {name: i for i, name in enumerate(WAIT_COUNTERS)}
UNSET = 1 << 8
# Largest "later events" count kept: one below each field's maximum, so that a
# needed wait is always expressible (the hardware counters saturate there).
_CAP = [WAIT_MAX[c] - 1 for c in WAIT_COUNTERS]
_NO_WAIT = [WAIT_MAX[c] for c in WAIT_COUNTERS]

# Events (ACO's wait_event idea): instructions of one event complete in order
# unless the event is unordered; different events are unordered.
E_SMEM = 1 << 0
E_LDS = 1 << 1
E_GDS = 1 << 2
E_VMEM_LOAD = 1 << 3
E_VMEM_STORE = 1 << 4
E_FLAT_LOAD = 1 << 5
E_FLAT_STORE = 1 << 6
E_EXP_MRT = 1 << 7
E_EXP_Z = 1 << 8
E_EXP_POS = 1 << 9
E_EXP_PRIM = 1 << 10
E_EXP_OTHER = 1 << 11
E_GDS_LOCK = 1 << 12
E_SENDMSG = 1 << 13
E_LDSDIR = 1 << 14

EVENT_COUNTERS: dict[int, tuple[int, ...]] = {
    E_SMEM: (LGKM,), E_LDS: (LGKM,), E_GDS: (LGKM,), E_SENDMSG: (LGKM,),
    E_VMEM_LOAD: (VM,), E_VMEM_STORE: (VS,),
    E_FLAT_LOAD: (VM, LGKM), E_FLAT_STORE: (VS, LGKM),
    E_EXP_MRT: (EXP,), E_EXP_Z: (EXP,), E_EXP_POS: (EXP,), E_EXP_PRIM: (EXP,),
    E_EXP_OTHER: (EXP,), E_GDS_LOCK: (EXP,), E_LDSDIR: (EXP,),
}
COUNTER_EVENTS = [0, 0, 0, 0]
for _ev, _cs in EVENT_COUNTERS.items():
    for _c in _cs:
        COUNTER_EVENTS[_c] |= _ev
UNORDERED = E_SMEM | E_FLAT_LOAD | E_FLAT_STORE | E_SENDMSG

# VMEM result kinds that may write their VGPRs out of order with each other.
VT_PLAIN, VT_SAMPLER, VT_BVH = 1, 2, 4


class _Entry:
    """What a register waits for: per counter the largest counter value that
    guarantees completion (UNSET: not pending on it)."""

    __slots__ = ("needed", "events", "wait_on_read", "vmem_type")

    def __init__(self, needed: list[int], events: int, wait_on_read: bool,
                 vmem_type: int = 0) -> None:
        self.needed = needed
        self.events = events
        self.wait_on_read = wait_on_read
        self.vmem_type = vmem_type

    def copy(self) -> _Entry:
        return _Entry(list(self.needed), self.events, self.wait_on_read, self.vmem_type)

    def join(self, o: _Entry) -> None:
        self.needed = [min(a, b) for a, b in zip(self.needed, o.needed, strict=True)]
        self.events |= o.events
        self.wait_on_read |= o.wait_on_read
        self.vmem_type |= o.vmem_type

    def __eq__(self, o: object) -> bool:
        return (isinstance(o, _Entry) and self.needed == o.needed and self.events == o.events
                and self.wait_on_read == o.wait_on_read and self.vmem_type == o.vmem_type)

    def __repr__(self) -> str:
        return f"_Entry({self.needed}, ev={self.events:#x}, rd={self.wait_on_read})"


class WaitState:
    """Outstanding memory operations as seen at one program point."""

    __slots__ = ("regs", "pending")

    def __init__(self) -> None:
        self.regs: dict[int, _Entry] = {}
        self.pending = [0, 0, 0, 0]  # outstanding events per counter

    def copy(self) -> WaitState:
        s = WaitState()
        s.regs = {r: e.copy() for r, e in self.regs.items()}
        s.pending = list(self.pending)
        return s

    def __eq__(self, o: object) -> bool:
        return isinstance(o, WaitState) and self.pending == o.pending and self.regs == o.regs

    @staticmethod
    def join(states: list[WaitState]) -> WaitState:
        out = states[0].copy()
        for s in states[1:]:
            out.pending = [a | b for a, b in zip(out.pending, s.pending, strict=True)]
            for r, e in s.regs.items():
                mine = out.regs.get(r)
                if mine is None:
                    out.regs[r] = e.copy()
                else:
                    mine.join(e)
        return out

    # --- transitions ----------------------------------------------------------------
    def apply_wait(self, wait: list[int]) -> None:
        """The counters reached the values of `wait` (UNSET: not waited on)."""
        for c in range(4):
            n = wait[c]
            if n == UNSET:
                continue
            if n == 0:
                self.pending[c] = 0
            dead = []
            for r, e in self.regs.items():
                if e.needed[c] != UNSET and e.needed[c] >= n:
                    e.needed[c] = UNSET
                    if all(v == UNSET for v in e.needed):
                        dead.append(r)
            for r in dead:
                del self.regs[r]

    def issue(self, event: int) -> None:
        """An instruction of `event` was issued: later-issued in-order events
        make the waits of earlier ones of the same kind less strict."""
        counters = EVENT_COUNTERS[event]
        for c in counters:
            self.pending[c] |= event
        if event & UNORDERED:
            return
        for e in self.regs.values():
            if e.events & UNORDERED:
                continue
            for c in counters:
                if (e.needed[c] != UNSET and (e.events & COUNTER_EVENTS[c]) == event
                        and e.needed[c] < _CAP[c]):
                    e.needed[c] += 1

    def track(self, regs: range | list[int] | set[int], event: int, wait_on_read: bool,
              vmem_type: int = 0) -> None:
        needed = [UNSET] * 4
        for c in EVENT_COUNTERS[event]:
            needed[c] = 0
        for r in regs:
            new = _Entry(list(needed), event, wait_on_read, vmem_type)
            old = self.regs.get(r)
            if old is None:
                self.regs[r] = new
            else:
                old.join(new)


def _combine(a: list[int], b: list[int]) -> None:
    for c in range(4):
        if b[c] < a[c]:
            a[c] = b[c]


def _exp_event(instr: Instruction) -> int:
    t = instr.fields.get("target", 0)
    t = t if isinstance(t, int) else 0
    if t <= 7 or t == 9:
        return E_EXP_MRT
    if t == 8:
        return E_EXP_Z
    if 12 <= t <= 16:
        return E_EXP_POS
    if t == 20:
        return E_EXP_PRIM
    return E_EXP_OTHER


def _vmem_type(info: OpInfo) -> int:
    if "bvh" in info.name:
        return VT_BVH
    if info.enc == "MIMG" and info.operand("ssamp") is not None:
        return VT_SAMPLER
    return VT_PLAIN


def _def_regs(instr: Instruction) -> list[int]:
    out: list[int] = []
    for d in instr.definitions:
        if d.phys is None or d.phys.reg == NULL:
            continue
        n = d.rc.size if d.rc is not None else 1
        out.extend(range(d.phys.reg, d.phys.reg + n))
    return out


# The table classes of every instruction that issues a counter event (the is_smem,
# is_vmem, ... tests below hold only for these; tests/passes/test_insert_waitcnt.py).
EVENT_CLASSES = frozenset({"smem", "vmem", "flat", "ds", "exp", "ldsdir", "message"})


class _Events:
    """What a memory instruction issues: (event, registers it will write,
    vmem kind) and (event, registers it still reads) lists."""

    __slots__ = ("issued", "loads", "locks")

    def __init__(self) -> None:
        self.issued: list[int] = []
        self.loads: list[tuple[int, list[int], int]] = []
        self.locks: list[tuple[int, list[int]]] = []


def _events(program: Program, instr: Instruction, info: OpInfo | None) -> _Events | None:
    if info is None:
        return None
    if info.cls not in EVENT_CLASSES:
        return None
    ev = _Events()
    defs = _def_regs(instr) if instr.definitions else []
    if is_smem(info):
        ev.issued.append(E_SMEM)
        ev.loads.append((E_SMEM, [r for r in defs if r < VGPR_BASE], 0))
    elif is_vmem(info) or is_flat(info):
        flat = is_flat(info)
        if returns_data(instr, info):
            e = E_FLAT_LOAD if flat else E_VMEM_LOAD
            ev.issued.append(e)
            ev.loads.append((e, [r for r in defs if r >= VGPR_BASE], _vmem_type(info)))
        else:
            ev.issued.append(E_FLAT_STORE if flat else E_VMEM_STORE)
    elif is_ds(info):
        e = E_GDS if is_gds(instr, info) else E_LDS
        ev.issued.append(e)
        ev.loads.append((e, [r for r in defs if r >= VGPR_BASE], 0))
        if e == E_GDS:
            ev.issued.append(E_GDS_LOCK)
            srcs = [r for o in instr.operands for r in operand_regs(o) if r >= VGPR_BASE]
            ev.locks.append((E_GDS_LOCK, srcs))
    elif is_exp(info):
        e = _exp_event(instr)
        ev.issued.append(e)
        srcs = [r for o in instr.operands for r in operand_regs(o) if r >= VGPR_BASE]
        ev.locks.append((e, srcs + implicit_regs(("exec",), program.wave_size)))
    elif is_ldsdir(info):
        ev.issued.append(E_LDSDIR)
        ev.loads.append((E_LDSDIR, [r for r in defs if r >= VGPR_BASE], 0))
    elif is_message(info):
        ev.issued.append(E_SENDMSG)
        ev.loads.append((E_SENDMSG, [r for r in defs if r < VGPR_BASE], 0))
    else:
        return None
    return ev


class _Step:
    """What the pass needs of one instruction (`info`: its table entry), computed once
    per instruction (the analysis visits a block once or more)."""

    __slots__ = ("instr", "wait", "info", "ev", "vinterp_exp", "indirect", "acc")

    def __init__(self, program: Program, instr: Instruction, info: OpInfo | None) -> None:
        self.instr = instr
        self.wait: list[int] | None = None
        w = wait_of(instr, program.gfx_level) if instr.opcode in WAIT_OPCODES else None
        if w is not None:
            self.wait = [UNSET] * 4
            for name, v in w.items():
                c = _CIDX[name]
                self.wait[c] = min(self.wait[c], v)
        self.info = info
        self.ev = None if w is not None else _events(program, instr, info)
        self.vinterp_exp: int | None = None
        if w is None and is_vinterp(info):
            own = instr.fields.get("wait_exp", 0)
            self.vinterp_exp = own if isinstance(own, int) else 0
        self.indirect = w is None and is_indirect_branch(info)
        self.acc: Access | None = None  # its registers (on first need)


class _Pass:
    def __init__(self, program: Program, force: bool) -> None:
        self.p = program
        self.force = force
        self.plans: dict[int, list[_Step]] = {}
        self.index = info_index(program.gfx_level)  # table entries (`info_of`'s)
        self.end_with_regs = [bool(b.kind & BlockKind.END_WITH_REGS) for b in program.blocks]
        # the instructions of each block's last analysis visit: that visit had the
        # block's final in-state, so the emission would compute the same list
        self.last: dict[int, list[Instruction]] = {}

    def plan(self, block: Block) -> list[_Step]:
        steps = self.plans.get(block.index)
        if steps is None:
            index = self.index
            steps = self.plans[block.index] = [
                _Step(self.p, i, index.get((i.opcode, i.format))) for i in block.instructions]
        return steps

    # --- what an instruction needs ---------------------------------------------------
    def needed(self, st: WaitState, step: _Step) -> list[int] | None:
        """The counter values `step` needs before it (None: none)."""
        acc = step.acc
        if acc is None:
            acc = step.acc = Access(self.p, step.instr, step.info)
        rd, wr = acc.reads, acc.writes
        regs = st.regs
        need: list[int] | None = None
        for r in rd:
            e = regs.get(r)
            if e is not None and e.wait_on_read:
                if need is None:
                    need = list(e.needed)
                else:
                    _combine(need, e.needed)
        in_order: dict[int, tuple[int, int]] | None = None
        for r in wr:
            e = regs.get(r)
            if e is None:
                continue
            if in_order is None:
                in_order = {}
                if step.ev is not None:
                    for event, lregs, vt in step.ev.loads:
                        if not event & UNORDERED:
                            for x in lregs:
                                in_order[x] = (event, vt)
            same = in_order.get(r)
            if (same is not None and e.wait_on_read and e.events == same[0]
                    and e.vmem_type == same[1]):
                continue  # WAW with a load of the same in-order kind
            if need is None:
                need = list(e.needed)
            else:
                _combine(need, e.needed)
        return need

    def everything(self, st: WaitState) -> list[int]:
        return [0 if st.pending[c] else UNSET for c in range(4)]

    # --- emission --------------------------------------------------------------------
    def emit_wait(self, st: WaitState, wait: list[int], out: list[Instruction] | None) -> None:
        pending = st.pending
        w: list[int] | None = None
        for c in range(4):
            if wait[c] < _NO_WAIT[c] and pending[c]:
                if w is None:
                    w = [UNSET] * 4
                w[c] = wait[c]
        if w is None:
            return
        st.apply_wait(w)
        if out is None:
            return
        if w[VM] != UNSET or w[EXP] != UNSET or w[LGKM] != UNSET:
            simm = encode_waitcnt(*(None if w[c] == UNSET else w[c] for c in (VM, EXP, LGKM)),
                                  gfx=self.p.gfx_level)
            out.append(Instruction("s_waitcnt", "SOPP", fields=SaluFields({"simm16": simm})))
        if w[VS] != UNSET:
            out.append(Instruction("s_waitcnt_vscnt", "SOPK",
                                   [Operand.fixed(PhysReg.of(NULL), s1)],
                                   fields=SaluFields({"simm16": w[VS]})))

    # --- one block --------------------------------------------------------------------
    def block(self, block: Block, state: WaitState,
              out: list[Instruction] | None) -> WaitState:
        st = state.copy()
        queued: list[int] | None = None  # waits already in the program, not yet placed
        for step in self.plan(block):
            if step.wait is not None:
                if queued is None:
                    queued = list(step.wait)
                else:
                    _combine(queued, step.wait)
                continue
            if step.vinterp_exp is not None:
                st.apply_wait([UNSET, step.vinterp_exp, UNSET, UNSET])
            if step.indirect:
                need: list[int] | None = self.everything(st)
            else:
                need = self.needed(st, step) if st.regs else None
                if queued is not None:
                    if need is None:
                        need = queued
                    else:
                        _combine(need, queued)
            queued = None
            if need is not None:
                self.emit_wait(st, need, out)
            if out is not None:
                out.append(step.instr)
            ev = step.ev
            if ev is None:
                continue
            for e in ev.issued:
                st.issue(e)
            for e, regs, vt in ev.loads:
                st.track(regs, e, True, vt)
            for e, regs in ev.locks:
                st.track(regs, e, False)
            if self.force:
                self.emit_wait(st, self.everything(st), out)
        if queued is None:
            queued = [UNSET] * 4
        if self.end_with_regs[block.index]:
            _combine(queued, self.everything(st))
        self.emit_wait(st, queued, out)
        return st

    def run(self) -> None:
        def visit(b: Block, state: WaitState) -> WaitState:
            out: list[Instruction] = []
            self.last[b.index] = out
            return self.block(b, state, out)

        forward_fixpoint(self.p, WaitState(), WaitState.join, visit)
        for b in self.p.blocks:
            b.instructions = self.last[b.index]


def insert_waitcnt(program: Program, *, force_waitcnt: bool = False) -> None:
    """Insert the s_waitcnt/s_waitcnt_vscnt instructions (see module docstring)."""
    _Pass(program, force_waitcnt).run()


