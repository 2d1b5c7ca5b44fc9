"""Which registers an instruction reads and writes, from its OpInfo and fields.

Used by strict mode (waitcnt scoreboard, hazards). Computed once per decoded
instruction. SGPRs are their source-operand codes below 128 (radcc.isa.operands:
VCC_LO/HI, M0, EXEC_LO/HI ...); VGPRs are 0-255. `mask_sreads` are the SGPRs a VALU reads as a lane mask
(v_cndmask's select, carry-in, v_div_fmas's VCC), needed for VALUMaskWriteHazard.
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.emu.decode import Inst
from radcc.isa.classes import (
    FLAT_LIKE_ENCODINGS,
    SALU_ENCODINGS,
    SALU_TABLE_CLASSES,
    VALU_ENCODINGS,
    VALU_TABLE_CLASSES,
)
from radcc.isa.operands import EXEC_HI, EXEC_LO, INLINE_INT_ZERO, M0, NULL, VCC_LO, VGPR0
from radcc.isa.table import OperandSpec, OpInfo

VALU_CLASSES = VALU_TABLE_CLASSES
_EXEC = frozenset({EXEC_LO, EXEC_HI})
_SOP_WRITES_SGPR = SALU_ENCODINGS - {"SOPC"}  # SALU encodings that may write an SGPR
_SREG_END = INLINE_INT_ZERO  # source codes below it are scalar registers
_FIXED = {"vcc_lo": VCC_LO, "vcc": VCC_LO, "exec_lo": EXEC_LO, "exec": EXEC_LO, "m0": M0}


@dataclass(frozen=True, slots=True)
class Use:
    sreads: frozenset[int]
    swrites: frozenset[int]
    vreads: frozenset[int]
    vwrites: frozenset[int]
    mask_sreads: frozenset[int]
    literal: bool
    # instruction classes strict mode asks about on every instruction (precomputed)
    valu: bool = False  # VALU_CLASSES
    salu: bool = False  # salu, salu64, branch
    trans: bool = False
    cmpx: bool = False  # v_cmpx*
    permlane: bool = False  # v_permlane*
    nop: bool = False  # v_nop
    call: bool = False  # s_swappc_b64, s_setpc_b64, s_call_b64
    sop: bool = False  # SOP1/SOP2/SOPK encoding
    other_sread: bool = False  # a literal or an SGPR other than EXEC read
    mask_targets: frozenset[int] = frozenset()  # SGPRs written, without EXEC and M0


def _count(i: Inst, o: OperandSpec, wave: int) -> int:
    f = i.f
    if o.kind == "sreg_wave":
        return wave // 32
    if o.name == "vaddr":
        if i.enc == "SCRATCH":
            return 1 if f.get("sve") else 0
        if i.enc == "GLOBAL":
            return 1 if f.get("saddr", NULL) != NULL else 2
        if i.enc in ("MUBUF", "MTBUF"):
            return f.get("offen", 0) + f.get("idxen", 0)
    if o.name == "vdata" and i.enc in ("MUBUF", "MTBUF") and o.is_def:
        return o.dwords + f.get("tfe", 0)
    if i.enc == "MIMG":
        return _mimg_count(i, o)
    if wave == 64:  # WMMA's C and D: half the VGPRs in wave64 (the table's wave64_bits)
        w64 = i.info.extra.get("wave64_bits")
        if isinstance(w64, dict) and o.name in w64:
            return int(w64[o.name]) // 32
    return o.dwords


def _nsa_vgprs(f: dict, n: int) -> list[int]:
    """The VGPRs of an NSA address of `n` dwords (ISA 10.1 "NSA"): dword k in the k-th
    address field (VADDR, then ADDR1..); past the last field its range continues."""
    out, last, k_last = [], int(f["vaddr"]), 0
    for k in range(n):
        reg = f.get(f"vaddr{k}") if k else f["vaddr"]
        if reg is None:
            reg = last + (k - k_last)
        else:
            last, k_last = int(reg), k
        out.append(int(reg) & 255)
    return out


def _mimg_count(i: Inst, o: OperandSpec) -> int:
    """MIMG operand sizes: data one VGPR per DMASK bit (ISA 10.4; d16 halves, tfe/lwe
    add one), the address the table's count for the dim and a16, the T# 8 SGPRs (4 with
    r128)."""
    f = i.f
    if o.name == "vdata":
        n = bin(f.get("dmask", 0)).count("1") or 1
        if f.get("d16"):
            n = (n + 1) // 2
        return n + (1 if f.get("tfe") or f.get("lwe") else 0)
    if o.name == "vaddr":
        mimg = i.info.extra.get("mimg")
        addr = mimg.get("addr") if isinstance(mimg, dict) else None
        if isinstance(addr, list):
            k = f.get("dim", 0) * 2 + f.get("a16", 0)
            if k < len(addr) and isinstance(addr[k], int):
                return addr[k]
        return o.dwords
    if o.name == "srsrc":
        return 4 if f.get("r128") else 8
    return o.dwords


# Fields holding 9-bit source codes (256+n for VGPR n); every other VGPR field holds n.
_SOURCE_FIELDS = frozenset({"src0", "src1", "src2", "src0x", "src0y"})
_FLAT_FIELDS = {"vaddr": "addr", "vdata": "data"}  # table operand name -> decoder field


def _code(i: Inst, o: OperandSpec) -> int | None:
    f = i.f
    if o.kind == "special":
        return _FIXED.get(o.fixed)
    if o.kind in ("imm", "label", "hwreg", "sendmsg", "waitcnt", "delay", "depctr", "attr",
                  "exp_target", "version"):
        return None
    name = o.name
    enc = i.enc
    if "sdwa" in f and name in ("src0", "vsrc1"):  # GFX10 SDWA: the registers of its dword
        return sdwa_code(i, name)
    if enc in VALU_ENCODINGS:
        if name == "vdst":
            return VGPR0 + f.get("vdst", 0) if o.kind == "vgpr" else f.get("vdst")
        if name == "vsrc1":
            return VGPR0 + f["vsrc1"]
        if name == "sdst":
            # VOP3 keeps it in VDST; so does VOP1 v_readfirstlane_b32 (its 'sdst' slot)
            return f.get("sdst", f.get("vdst")) if enc in ("VOP3", "VOP3SD", "VOP1") \
                else f.get("sdst")
        if name == "vdst2":
            return f.get("src0")
        return f.get(name)
    if enc in FLAT_LIKE_ENCODINGS:
        name = _FLAT_FIELDS.get(name, name)
    if enc in ("DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF"):
        if name == "saddr" and f.get("saddr", NULL) == NULL:
            return None
        if name == "soffset" and f.get("soffset", NULL) == NULL:
            return None
    if enc == "SMEM" and name == "soffset":
        s = f.get("soffset", NULL)
        return None if s == NULL else s
    if o.kind == "vgpr" and name not in _SOURCE_FIELDS:
        return VGPR0 + f.get(name, 0)  # a VGPR number (LDSDIR/VINTERP vdst, EXP, memory)
    return f.get(name)


def sdwa_code(i: Inst, name: str) -> int:
    """The 9-bit source code of an SDWA instruction's `src0`/`vsrc1` (the SDWA dword's
    SRC0 and S0/S1 bits, radcc.isa.formats.sdwa; scalar codes logical)."""
    from radcc.isa.operands import regs_for

    dw = i.f["sdwa"]
    frm = regs_for(i.gfx).from_hw
    if name == "src0":
        return frm[dw & 0xFF] if dw >> 23 & 1 else VGPR0 + (dw & 0xFF)
    return frm[i.f["vsrc1"]] if dw >> 31 & 1 else VGPR0 + i.f["vsrc1"]


def _vopdy_info(i: Inst) -> OpInfo | None:
    from radcc.isa.table import get_table
    from radcc.target import GfxLevel

    return get_table(GfxLevel.GFX11).decode("VOPDY", i.f["opy"])


def compute_use(i: Inst, wave: int) -> Use:
    sr: set[int] = set()
    sw: set[int] = set()
    vr: set[int] = set()
    vw: set[int] = set()
    masks: set[int] = set()
    specs = list(i.info.operands)
    if i.enc in ("FLAT", "GLOBAL") and i.info.extra.get("rtn_bits") and i.f.get("glc"):
        specs.insert(0, OperandSpec("vdst", "vgpr", int(i.info.extra["rtn_bits"]),  # type: ignore[call-overload]
                                    is_def=True))
    if i.enc == "VOPD":
        specs = []  # per-half fields (vdstx, src0y ...), not the X entry's slot names
        for s, half in (("x", i.info), ("y", _vopdy_info(i))):
            vw.add(i.f["vdst" + s])
            if half is None or half.operand("vsrc1") is not None:  # ignored by v_dual_mov
                vr.add(i.f["vsrc1" + s])
            if half is not None and half.extra.get("acc"):  # fmac/dot2acc read vdst
                vr.add(i.f["vdst" + s])
            c = i.f["src0" + s]
            (vr.add(c - VGPR0) if c >= VGPR0 else sr.add(c) if c < _SREG_END else None)
    for o in specs:
        code = _code(i, o)
        if code is None or (code == NULL):
            continue
        n = _count(i, o, wave)
        if i.enc == "MIMG" and o.name == "vaddr" and i.f.get("nsa"):
            vr.update(_nsa_vgprs(i.f, n))
            continue
        is_vcc_special = o.kind == "special"
        if is_vcc_special and o.fixed in ("vcc_lo", "vcc"):
            n = wave // 32
        regs = range(code, code + n)
        if code >= VGPR0:
            (vw if o.is_def else vr).update((r - VGPR0) & 255 for r in regs)
        elif code < _SREG_END:
            (sw if o.is_def else sr).update(r for r in regs if r < _SREG_END)
            if not o.is_def and (o.kind == "sreg_wave" or is_vcc_special) \
                    and i.info.cls in VALU_CLASSES:
                masks.update(r for r in regs if r < _SREG_END)
    for reg in i.info.implicit_reads:
        sr.update(implicit(reg, wave))
    for reg in i.info.implicit_writes:
        sw.update(implicit(reg, wave))
    if i.name in ("v_cndmask_b32", "v_div_fmas_f32", "v_div_fmas_f64") and i.enc != "VOP3":
        masks.update(implicit("vcc", wave))
    if i.enc == "VOPD" and "cndmask" in i.text:
        masks.update(implicit("vcc", wave))
        sr.update(implicit("vcc", wave))
    if i.name.startswith("v_cmpx"):
        sw.update(implicit("exec", wave))
    if i.info.cls in VALU_CLASSES or i.enc in ("DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF",
                                                "MIMG"):
        sr.update(implicit("exec", wave))
    sr.discard(NULL)
    sw.discard(NULL)
    cls = i.info.cls
    name = i.info.name
    literal = "literal" in i.f
    return Use(frozenset(sr), frozenset(sw), frozenset(vr), frozenset(vw), frozenset(masks),
               literal, valu=cls in VALU_CLASSES, salu=cls in SALU_TABLE_CLASSES,
               trans=cls == "trans", cmpx=name.startswith("v_cmpx"),
               permlane=name.startswith("v_permlane"), nop=name == "v_nop",
               call=name in ("s_swappc_b64", "s_setpc_b64", "s_call_b64"),
               sop=i.enc in _SOP_WRITES_SGPR,
               other_sread=literal or any(r not in _EXEC for r in sr),
               mask_targets=frozenset(r for r in sw if r not in _EXEC and r != M0))


def implicit(reg: str, wave: int) -> tuple[int, ...]:
    base = {"vcc": VCC_LO, "exec": EXEC_LO, "m0": M0}.get(reg)
    if base is None:
        return ()
    if reg == "m0":
        return (M0,)
    return (base,) if wave == 32 else (base, base + 1)
