"""What the pre-RA scheduler needs to know about one instruction (ACO's README.md
"Instruction Scheduling"; the facts follow ACO's aco_scheduler.cpp hazard query).

`classify(program, instr)` returns a `SchedInfo`, derived from the opcode table
(`OpInfo.cls`, encoding, operand names, implicit registers) and the pseudo
instruction list, never from opcode lists of its own:

- ``kind``: ``"barrier"`` (nothing is moved across it: SOPP, branches, messages,
  waits, exports, LDS-direct/interpolation, hwreg accesses, cache invalidations,
  exec writes, pseudo instructions with effects such as ``p_barrier``,
  ``p_spill``, ``p_reduce``), ``"alu"`` (SALU/VALU and data pseudo
  instructions), or ``"mem"`` (SMEM loads, VMEM/FLAT/DS accesses);
- for memory: ``storage`` (the address spaces it may touch: ``lds`` for DS,
  ``global`` for SMEM/VMEM, both for FLAT), ``write`` (stores, atomics with or
  without return, accesses with cache-policy bits set, anything not a plain
  load), ``unit`` (``smem``/``vmem``/``ds``);
- the fixed registers it reads and writes (operands and definitions fixed to a
  register, the table's implicit scc/vcc/m0/exec), as register numbers;
- ``diff``: how the live registers change across it (live definitions minus
  the operands it kills) and ``temps``: registers held only during it (dead
  definitions, late-kill operands it kills), from the current kill flags.

Two memory accesses are ordered (``mem_conflict``) when they may touch the same
storage and one of them writes; loads never order against loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from radcc.ir.program import Instruction, Program, RegisterDemand
from radcc.ir.pseudo import PSEUDO, VALUE_PSEUDO
from radcc.ir.regclass import EXEC, RegType
from radcc.isa.classes import ALU_TABLE_CLASSES, MEMORY_TABLE_CLASSES
from radcc.passes.access import _info_index, _regs_into, implicit_regs
from radcc.target import GfxLevel

# pseudo instructions that only compute values from their operands (the pseudo-op
# table's ``value`` flag)
_DATA_PSEUDO = VALUE_PSEUDO
_ALU_CLASSES = ALU_TABLE_CLASSES
_MEM_CLASSES = MEMORY_TABLE_CLASSES
# source operand names of a plain load: addresses and descriptors, no data
_ADDRESS_OPERANDS = frozenset({"addr", "vaddr", "saddr", "srsrc", "ssamp", "soffset", "sbase"})
_POLICY_BITS = ("glc", "slc", "dlc", "sc0", "sc1", "nt")


@dataclass(slots=True)
class SchedInfo:
    kind: str  # "barrier" | "alu" | "mem"
    unit: str = ""  # "smem" | "vmem" | "ds" for memory
    storage: frozenset[str] = frozenset()
    write: bool = False
    fixed_reads: frozenset[int] = frozenset()
    fixed_writes: frozenset[int] = frozenset()
    defs: tuple[int, ...] = ()  # temp ids defined
    uses: frozenset[int] = frozenset()  # temp ids read
    kills: frozenset[int] = frozenset()  # temp ids whose last use this is
    diff: RegisterDemand = RegisterDemand()
    temps: RegisterDemand = RegisterDemand()
    enc: str = ""
    sbase_size: int = 0  # SMEM: dwords of the base operand (2 address, 4 descriptor)
    first_src: int = 0  # temp id of operand 0 (the descriptor of VMEM), 0 if none

    @property
    def is_load(self) -> bool:
        return self.kind == "mem" and not self.write and bool(self.defs)


def _dw(rc) -> RegisterDemand:  # type: ignore[no-untyped-def]
    n = (rc.bytes + 3) // 4
    return RegisterDemand(n, 0) if rc.is_sgpr else RegisterDemand(0, n)


_KindResult = tuple[str, str, frozenset[str], bool]
# the part of `classify` fixed by (opcode, format, wave size): `_kind`'s result when it
# depends on nothing else (None: a memory access, decided per instruction) and the
# table's implicit reads and writes as register numbers
_Static = tuple[_KindResult | None, tuple[int, ...], tuple[int, ...]]


@cache
def _static_memo(gfx: GfxLevel) -> dict[tuple[str, str, int], _Static]:
    return {}


def _static(program: Program, instr: Instruction) -> _Static:
    memo = _static_memo(program.gfx_level)
    key = (instr.opcode, instr.format, program.wave_size)
    st = memo.get(key)
    if st is None:
        info = _info_index(program.gfx_level).get((instr.opcode, instr.format))
        fixed = None
        if not (info is not None and info.cls in _MEM_CLASSES and instr.format != "PSEUDO"
                and instr.opcode not in PSEUDO):
            fixed = _kind(program, instr, info)
        imp_r: tuple[int, ...] = ()
        imp_w: tuple[int, ...] = ()
        if info is not None:
            imp_r = tuple(implicit_regs(info.implicit_reads, program.wave_size))
            imp_w = tuple(implicit_regs(info.implicit_writes, program.wave_size))
        st = memo[key] = (fixed, imp_r, imp_w)
    return st


def classify(program: Program, instr: Instruction) -> SchedInfo:
    """The scheduling facts of `instr` (see the module docstring)."""
    fixed, imp_r, imp_w = _static(program, instr)
    if fixed is None:
        info = _info_index(program.gfx_level).get((instr.opcode, instr.format))
        kind, unit, storage, write = _kind(program, instr, info)
    else:
        kind, unit, storage, write = fixed
    rd: set[int] = set()
    wr: set[int] = set()
    ops = instr.operands
    defs_ = instr.definitions
    _regs_into(rd, ops, True)  # = Access.reads/writes
    _regs_into(wr, defs_, False)
    if imp_r:
        rd.update(imp_r)
    if imp_w:
        wr.update(imp_w)
    fr = frozenset(rd)
    fw = frozenset(wr)
    if EXEC in fw:
        kind = "barrier"
    defs: list[int] = []
    ds = dv = ts = tv = 0  # diff and temps, SGPR and VGPR dwords
    for d in defs_:
        t = d.temp
        if t is None:
            continue
        defs.append(t.id)
        rc = t.rc
        n = (rc.bytes + 3) // 4
        if d.is_kill:
            if rc.type is RegType.SGPR:
                ts += n
            else:
                tv += n
        elif rc.type is RegType.SGPR:
            ds += n
        else:
            dv += n
    uses: set[int] = set()
    kills: set[int] = set()
    firsts: list[tuple[int, int, bool]] | None = None  # first kills: (temp, dwords, SGPR)
    late: set[int] | None = None  # temps some late-kill operand reads
    for o in ops:
        t = o.temp
        if t is None:
            continue
        tid = t.id
        uses.add(tid)
        if o.is_kill:
            kills.add(tid)
        if o.is_late_kill:
            if late is None:
                late = {tid}
            else:
                late.add(tid)
        if o.is_first_kill:
            rc = t.rc
            n = (rc.bytes + 3) // 4
            sgpr = rc.type is RegType.SGPR
            if sgpr:
                ds -= n
            else:
                dv -= n
            if firsts is None:
                firsts = [(tid, n, sgpr)]
            else:
                firsts.append((tid, n, sgpr))
    if late is not None and firsts is not None:
        for tid, n, sgpr in firsts:
            if tid in late:
                if sgpr:
                    ts += n
                else:
                    tv += n
    sbase = 0
    if unit == "smem" and ops and ops[0].rc is not None:
        sbase = ops[0].rc.size
    first = ops[0].temp.id if ops and ops[0].temp else 0
    return SchedInfo(kind, unit, storage, write, fr, fw, tuple(defs), frozenset(uses),
                     frozenset(kills), RegisterDemand(ds, dv), RegisterDemand(ts, tv),
                     instr.format, sbase, first)


def may_load(program: Program, instr: Instruction) -> bool:
    """False when `classify(program, instr).is_load` is certainly false: the
    instruction is no SMEM/VMEM/FLAT/DS table entry."""
    info = _info_index(program.gfx_level).get((instr.opcode, instr.format))
    return info is not None and info.cls in _MEM_CLASSES and instr.opcode not in PSEUDO


def _kind(program: Program, instr: Instruction,
          info) -> tuple[str, str, frozenset[str], bool]:  # type: ignore[no-untyped-def]
    if instr.format == "PSEUDO" or instr.opcode in PSEUDO:
        p = PSEUDO.get(instr.opcode)
        if p is not None and instr.opcode in _DATA_PSEUDO and not p.writes_exec:
            return "alu", "", frozenset(), False
        return "barrier", "", frozenset(), False
    if info is None:
        return "barrier", "", frozenset(), False
    cls = info.cls
    if cls in _ALU_CLASSES:
        if info.enc == "SOPP" or any(o.kind == "hwreg" for o in info.operands):
            return "barrier", "", frozenset(), False
        return "alu", "", frozenset(), False
    if cls not in _MEM_CLASSES:
        return "barrier", "", frozenset(), False
    srcs = {o.name for o in info.srcs}
    has_defs = any(d.temp is not None for d in instr.definitions)
    if cls == "smem":
        # loads read sbase (and soffset); stores, invalidations, s_memtime... do not move
        if has_defs and "sbase" in srcs and srcs <= _ADDRESS_OPERANDS:
            return "mem", "smem", frozenset({"global"}), _policy(instr)
        return "barrier", "", frozenset(), False
    if not srcs:  # cache invalidations, GWS/no-address DS forms
        return "barrier", "", frozenset(), False
    if cls == "ds":
        if "addr" not in srcs or instr.fields.get("gds"):
            return "barrier", "", frozenset(), False
        storage = frozenset({"lds"})
        unit = "ds"
    else:
        storage = frozenset({"global", "lds"}) if info.enc == "FLAT" else frozenset({"global"})
        unit = "vmem"
    plain_load = has_defs and bool(info.defs) and srcs <= _ADDRESS_OPERANDS
    return "mem", unit, storage, (not plain_load) or _policy(instr)


def _policy(instr: Instruction) -> bool:
    """Cache-policy bits (coherent/volatile/streaming accesses) order the access."""
    return any(instr.fields.get(b) for b in _POLICY_BITS)


def mem_conflict(a: SchedInfo, b: SchedInfo) -> bool:
    """Whether two memory accesses must keep their order."""
    return (a.write or b.write) and bool(a.storage & b.storage)


def fixed_conflict(a: SchedInfo, b: SchedInfo) -> bool:
    """Whether two instructions touch the same fixed register, one of them writing it."""
    return bool(a.fixed_writes & (b.fixed_writes | b.fixed_reads)
                or b.fixed_writes & a.fixed_reads)
