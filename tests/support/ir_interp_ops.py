"""Instruction semantics of the IR interpreter (`tests.support.ir_interp`).

The arithmetic is the emulator's: SALU through the tables of
`radcc.emu.salu` (SOP1/SOP2/SOPC, saveexec), VALU through
`radcc.emu.valu.execute_valu`. This module only moves values between SSA
temps and those libraries, per the IR conventions of `radcc.ir.opinfo`
(operands in table order, implicit scc/vcc/exec as extra fixed operands,
read-modify-write inputs as an extra trailing operand).

Values: an SGPR temp is a Python int of its bits (a lane mask is an int of
`wave` bits); a VGPR temp is a ``uint32`` array of shape (dwords, wave). A
VALU write changes only the lanes of EXEC: the other lanes keep the value
the temp had from an earlier execution (a loop), as a hardware register
would. Constants are the operand's raw bits; a 32-bit constant in a 64-bit
slot is widened as the assembler's encoding would read it (inline integers
sign-extended, f64 literals as the high dword, others zero-extended).
"""

from __future__ import annotations

import struct
from collections.abc import Callable

import numpy as np

from radcc.emu.salu import SAVEEXEC, SOP1, SOP2, SOPC
from radcc.emu.valu import ACC_OPS, ValuMods, execute_valu
from radcc.ir.opinfo import REG_KINDS, op_info
from radcc.ir.program import Definition, Instruction, Operand
from radcc.ir.regclass import EXEC, SCC, VCC
from radcc.isa.classes import SALU_ENCODINGS, VALU_ENCODINGS
from radcc.isa.table import OperandSpec, OpInfo
from tests.support.ir_interp_state import InterpError, WaveState

U64 = np.uint64
M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1


# --- operand access -----------------------------------------------------------------------
def widen_const(o: Operand, bits: int, typ: str) -> int:
    v = int(o.const or 0)
    if bits <= 32:
        return v & M32
    if o.const_bytes == 8:
        return v & M64
    sv = v - (1 << 32) if v >> 31 else v
    if -16 <= sv <= 64:
        return sv & M64
    if typ == "f64":
        return v << 32
    if typ == "i64" and v >> 31:
        return v | 0xFFFFFFFF00000000
    return v


def read_scalar(st: WaveState, o: Operand, bits: int = 32, typ: str = "") -> int:
    """An SGPR-file value (temps, constants, exec/scc/vcc/m0)."""
    if o.const is not None:
        return widen_const(o, bits, typ)
    if o.is_undef:
        return 0
    if o.temp is not None:
        if o.temp.rc.is_vgpr:
            raise InterpError(f"VGPR %{o.temp.id} read as a scalar")
        try:
            return st.s[o.temp.id]
        except KeyError:
            raise InterpError(f"%{o.temp.id} read before it is defined") from None
    if o.phys is not None:
        return st.read_phys(o.phys.reg, o.rc.size if o.rc else 1)
    raise InterpError("operand without a value")


def read_lanes(st: WaveState, o: Operand, bits: int = 32, typ: str = "") -> np.ndarray:
    """A VALU source: uint64 raw bits per lane."""
    if o.temp is not None and o.temp.rc.is_vgpr:
        arr = st.vget(o.temp.id)
        if bits > 32 and arr.shape[0] > 1:
            return arr[0].astype(U64) | (arr[1].astype(U64) << U64(32))
        return arr[0].astype(U64)
    return np.full(st.wave, read_scalar(st, o, bits, typ), dtype=U64)


def mask_lanes(st: WaveState, o: Operand) -> np.ndarray:
    """A lane-mask source as 0/1 per lane (uint64)."""
    return st.bools(read_scalar(st, o, st.wave)).astype(U64)


def write_def(st: WaveState, d: Definition, value: int) -> None:
    """Write a scalar result (SGPR temp and/or its fixed register)."""
    if d.temp is not None:
        if d.temp.rc.is_vgpr:
            raise InterpError(f"scalar result written to VGPR %{d.temp.id}")
        st.s[d.temp.id] = value & ((1 << (32 * d.temp.rc.size)) - 1)
    if d.phys is not None:
        st.write_phys(d.phys.reg, value, d.rc.size if d.rc else 1)


def write_vgpr(st: WaveState, d: Definition, lanes: list[np.ndarray], mask: np.ndarray) -> None:
    """Write dwords (uint64/uint32 arrays) to a VGPR temp under `mask`."""
    assert d.temp is not None
    arr = st.vdef(d.temp)
    for k, val in enumerate(lanes[:arr.shape[0]]):
        arr[k][mask] = (np.asarray(val, dtype=U64)[mask] & U64(M32)).astype(np.uint32)


# --- SALU -----------------------------------------------------------------------------------
def _scc_out(st: WaveState, instr: Instruction, scc: int | None) -> None:
    if scc is None:
        return
    st.scc = scc
    for d in instr.definitions:
        if d.phys is not None and d.phys.reg == SCC:
            write_def(st, d, scc)


def _scc_in(st: WaveState, instr: Instruction, nsrc: int) -> int:
    for o in instr.operands[nsrc:]:
        if o.phys is not None and o.phys.reg == SCC:
            return read_scalar(st, o) & 1
    return st.scc


def _srcs(info: OpInfo) -> list[OperandSpec]:
    return [s for s in info.srcs if s.kind in REG_KINDS]


def exec_salu(st: WaveState, instr: Instruction, info: OpInfo) -> None:
    name = instr.opcode
    specs = _srcs(info)
    vals = [read_scalar(st, o, s.bits if s.kind != "sreg_wave" else st.wave, s.type)
            for o, s in zip(instr.operands, specs, strict=False)]
    cin = _scc_in(st, instr, len(specs))
    defs = [d for d in instr.definitions if not (d.phys is not None and d.phys.reg == SCC)]
    if name in SOP2:
        r, scc = SOP2[name](vals[0], vals[1], cin)
        write_def(st, defs[0], r)
        _scc_out(st, instr, scc)
        return
    if name in SOP1:
        r, scc = SOP1[name](vals[0], cin)
        write_def(st, defs[0], r)
        _scc_out(st, instr, scc)
        return
    if name in SOPC:
        _scc_out(st, instr, int(SOPC[name](vals[0], vals[1])))
        return
    for key, f in SAVEEXEC.items():
        if name in (f"s_{key}_b32", f"s_{key}_b64"):
            old = st.exec
            new = f(vals[0], old, st.full) & st.full
            out = [d for d in defs if not (d.phys is not None and d.phys.reg == EXEC)]
            if out:
                write_def(st, out[0], old)
            st.set_exec(new)
            _scc_out(st, instr, int(new != 0))
            return
    if name == "s_movk_i32":
        k = int(instr.fields.get("simm16", 0)) & 0xFFFF  # type: ignore[call-overload]
        write_def(st, defs[0], (k - 0x10000 if k & 0x8000 else k) & M32)
        return
    if name in ("s_cmov_b32", "s_cmov_b64"):
        # the old value is the extra (tied) operand when present
        old = read_scalar(st, instr.operands[1], 64 if name.endswith("64") else 32) \
            if len(instr.operands) > 1 and not _is_scc(instr.operands[1]) else 0
        write_def(st, defs[0], vals[0] if cin else old)
        return
    if name.startswith("s_cmpk_"):
        k = int(instr.fields.get("simm16", 0)) & 0xFFFF  # type: ignore[call-overload]
        if not name.endswith("u32") and k & 0x8000:
            k = (k - 0x10000) & M32
        _scc_out(st, instr, int(SOPC["s_cmp_" + name[7:]](vals[0], k)))
        return
    if name in ("s_addk_i32", "s_mulk_i32"):
        k = int(instr.fields.get("simm16", 0)) & 0xFFFF  # type: ignore[call-overload]
        k = k - 0x10000 if k & 0x8000 else k
        old = read_scalar(st, instr.operands[-1])
        a = old - (1 << 32) if old >> 31 else old
        if name == "s_addk_i32":
            write_def(st, defs[0], (a + k) & M32)
            _scc_out(st, instr, int(not -2**31 <= a + k < 2**31))
        else:
            write_def(st, defs[0], (a * k) & M32)
        return
    raise InterpError(f"SALU {name} is not supported by the interpreter")


def _is_scc(o: Operand) -> bool:
    return o.phys is not None and o.phys.reg == SCC


# --- VALU -----------------------------------------------------------------------------------
def _flags3(v: object) -> tuple[bool, bool, bool]:
    if isinstance(v, int):
        return (bool(v & 1), bool(v >> 1 & 1), bool(v >> 2 & 1))
    if isinstance(v, list | tuple):
        t = [bool(x) for x in v] + [False, False, False]
        return (t[0], t[1], t[2])
    return (False, False, False)


def _bits(v: object, default: int) -> int:
    if v is None:
        return default
    if isinstance(v, list | tuple):
        return sum(int(bool(x)) << i for i, x in enumerate(v))
    return int(v)  # type: ignore[call-overload]


def valu_mods(instr: Instruction) -> ValuMods:
    f = instr.fields
    return ValuMods(abs=_flags3(f.get("abs")), neg=_flags3(f.get("neg") or f.get("neg_lo")),
                    neg_hi=_flags3(f.get("neg_hi")), opsel=_bits(f.get("op_sel"), 0),
                    opsel_hi=_bits(f.get("op_sel_hi"), 0b111), clamp=bool(f.get("clamp")),
                    omod=int(f.get("omod") or 0))  # type: ignore[call-overload]


def _lane_op(st: WaveState, instr: Instruction) -> bool:
    """Cross-lane/register-file ops the VALU library leaves to its caller."""
    name = instr.opcode
    act = st.active
    if name == "v_readfirstlane_b32":
        lanes = read_lanes(st, instr.operands[0])
        idx = np.flatnonzero(act)
        write_def(st, instr.definitions[0], int(lanes[idx[0]] if idx.size else lanes[0]))
        return True
    if name == "v_readlane_b32":
        lanes = read_lanes(st, instr.operands[0])
        sel = read_scalar(st, instr.operands[1]) & (st.wave - 1)
        write_def(st, instr.definitions[0], int(lanes[sel]))
        return True
    if name == "v_writelane_b32":
        val = read_scalar(st, instr.operands[0])
        sel = read_scalar(st, instr.operands[1]) & (st.wave - 1)
        old = read_lanes(st, instr.operands[2]) if len(instr.operands) > 2 \
            else np.zeros(st.wave, U64)
        new = old.copy()
        new[sel] = val
        write_vgpr(st, instr.definitions[0], [new], np.ones(st.wave, dtype=bool))
        return True
    if name in ("v_nop", "v_pipeflush"):
        return True
    return False


def exec_valu(st: WaveState, instr: Instruction, info: OpInfo) -> None:
    if _lane_op(st, instr):
        return
    ops = iter(instr.operands)
    srcs: list[np.ndarray] = []
    for s in info.srcs:
        if s.kind == "imm":
            k = int(instr.fields.get(s.name, 0))  # type: ignore[call-overload]
            srcs.append(np.full(st.wave, k & M64, dtype=U64))
            continue
        if s.kind not in REG_KINDS:
            continue
        o = next(ops, None)
        if o is None:
            raise InterpError(f"missing operand '{s.name}'")
        if s.kind in ("sreg_wave", "special"):
            srcs.append(mask_lanes(st, o))
        else:
            srcs.append(read_lanes(st, o, s.bits, s.type))
    if instr.opcode in ACC_OPS:
        acc = next(ops, None)
        if acc is None:
            raise InterpError(f"{instr.opcode} needs its accumulator as an extra operand")
        srcs.append(read_lanes(st, acc, 32))
    mask = st.active
    try:
        r = execute_valu(instr.opcode, srcs, valu_mods(instr), wave=st.wave, exec_mask=mask,
                         lane_masks={"vcc": st.phys_value(VCC), "exec": st.exec})
    except KeyError:
        raise InterpError(f"VALU {instr.opcode} is not supported") from None
    dspecs = [s for s in info.defs if s.kind in REG_KINDS]
    for d, s in zip(instr.definitions, dspecs, strict=False):
        if s.kind == "vgpr" and r.d is not None:
            _write_valu_result(st, d, r, mask)
        elif r.sdst is not None and s.kind in ("sreg_wave", "special", "sgpr"):
            write_def(st, d, st.mask_of(r.sdst))
    if r.writes_exec:
        st.set_exec(st.mask_of(r.sdst) if r.sdst is not None else 0)


def _write_valu_result(st: WaveState, d: Definition, r: object, mask: np.ndarray) -> None:
    data = r.d  # type: ignore[attr-defined]
    bits = r.d_bits  # type: ignore[attr-defined]
    if bits == 16:
        assert d.temp is not None
        arr = st.vdef(d.temp)
        sh = U64(r.d_shift)  # type: ignore[attr-defined]
        keep = U64(0xFFFF0000) if not r.d_shift else U64(0xFFFF)  # type: ignore[attr-defined]
        new = (arr[0].astype(U64) & keep) | ((data & U64(0xFFFF)) << sh)
        write_vgpr(st, d, [new], mask)
    elif bits == 32:
        write_vgpr(st, d, [data], mask)
    elif bits == 64:
        write_vgpr(st, d, [data, data >> U64(32)], mask)
    else:
        write_vgpr(st, d, [data[k] for k in range(data.shape[0])], mask)


# --- memory ---------------------------------------------------------------------------------
_GLOBAL_SIZES = {"b32": (4, False), "b64": (8, False), "b96": (12, False), "b128": (16, False),
                 "u8": (1, False), "i8": (1, True), "u16": (2, False), "i16": (2, True),
                 "b8": (1, False), "b16": (2, False)}


def _global_addrs(st: WaveState, instr: Instruction, vaddr: Operand,
                  saddr: Operand | None) -> np.ndarray:
    off = int(instr.fields.get("offset", 0))  # type: ignore[call-overload]
    if saddr is not None and not saddr.is_undef and (saddr.temp is not None
                                                     or saddr.const is not None):
        base = read_scalar(st, saddr, 64)
        va = read_lanes(st, vaddr, 32) & U64(M32)
        return (va + U64(base) + U64(off & M64)) & U64(M64)
    return (read_lanes(st, vaddr, 64) + U64(off & M64)) & U64(M64)


def exec_global(st: WaveState, instr: Instruction) -> None:
    name = instr.opcode
    parts = name.split("_")
    if parts[0] != "global" or parts[1] not in ("load", "store") or parts[-1] not in _GLOBAL_SIZES:
        raise InterpError(f"{name} is not supported by the interpreter")
    n, signed = _GLOBAL_SIZES[parts[-1]]
    lanes = np.flatnonzero(st.active)
    if parts[1] == "load":
        vaddr = instr.operands[0]
        saddr = instr.operands[1] if len(instr.operands) > 1 else None
        addrs = _global_addrs(st, instr, vaddr, saddr)
        d = instr.definitions[0]
        ndw = max(1, (n + 3) // 4)
        out = [np.zeros(st.wave, dtype=U64) for _ in range(ndw)]
        for lane in lanes:
            raw = st.memory.read(int(addrs[lane]), n)
            v = int.from_bytes(raw, "little")
            if signed and v >> (8 * n - 1):
                v = (v - (1 << (8 * n))) & M32
            for k in range(ndw):
                out[k][lane] = (v >> (32 * k)) & M32
        write_vgpr(st, d, out, st.active)
        return
    vaddr, vdata = instr.operands[0], instr.operands[1]
    saddr = instr.operands[2] if len(instr.operands) > 2 else None
    addrs = _global_addrs(st, instr, vaddr, saddr)
    data = st.vget(vdata.temp.id) if vdata.temp is not None and vdata.temp.rc.is_vgpr else None
    for lane in lanes:
        if data is not None:
            v = 0
            for k in range(data.shape[0]):
                v |= int(data[k][lane]) << (32 * k)
        else:
            v = read_scalar(st, vdata, 8 * n)
        st.memory.write(int(addrs[lane]), (v & ((1 << (8 * n)) - 1)).to_bytes(n, "little"))


def exec_smem(st: WaveState, instr: Instruction) -> None:
    name = instr.opcode
    if not name.startswith("s_load_b"):
        raise InterpError(f"{name} is not supported by the interpreter")
    n = int(name[len("s_load_b"):]) // 8
    base = read_scalar(st, instr.operands[0], 64)
    off = read_scalar(st, instr.operands[1]) if len(instr.operands) > 1 else 0
    off += int(instr.fields.get("offset", 0))  # type: ignore[call-overload]
    addr = (base + off) & ~3 & M64
    write_def(st, instr.definitions[0], int.from_bytes(st.memory.read(addr, n), "little"))


# --- dispatch -------------------------------------------------------------------------------
_SALU = SALU_ENCODINGS
_VALU = VALU_ENCODINGS
_SOPP_NOPS = frozenset({"s_nop", "s_waitcnt", "s_waitcnt_vscnt", "s_waitcnt_vmcnt",
                        "s_waitcnt_lgkmcnt", "s_waitcnt_expcnt", "s_waitcnt_depctr",
                        "s_delay_alu", "s_clause", "s_barrier", "s_sleep", "s_setprio",
                        "s_set_inst_prefetch_distance", "s_dcache_inv", "s_icache_inv"})


def exec_hw(st: WaveState, instr: Instruction) -> None:
    """A hardware instruction (not a branch, not s_endpgm)."""
    fmt = instr.format
    info = op_info(st.table, instr.opcode, fmt)
    if info is None:
        raise InterpError(f"{instr.opcode} has no {fmt} encoding")
    if fmt in _SALU:
        exec_salu(st, instr, info)
    elif fmt in _VALU:
        exec_valu(st, instr, info)
    elif fmt == "GLOBAL":
        exec_global(st, instr)
    elif fmt == "SMEM":
        exec_smem(st, instr)
    elif instr.opcode in _SOPP_NOPS or instr.opcode.startswith("s_waitcnt"):
        return
    else:
        raise InterpError(f"{instr.opcode} ({fmt}) is not supported by the interpreter")


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


Exec = Callable[["WaveState", Instruction], None]

__all__ = ["exec_hw", "exec_global", "exec_salu", "exec_smem", "exec_valu", "mask_lanes",
           "read_lanes", "read_scalar", "valu_mods", "widen_const", "write_def", "write_vgpr"]
