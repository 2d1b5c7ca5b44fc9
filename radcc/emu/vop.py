"""VALU glue: operands, modifiers, DPP, results; lane-crossing instructions.

The arithmetic lives in the VALU semantics library (`radcc.emu.valu`,
`execute_valu`); this module reads the sources of VOP1/VOP2/VOPC/VOP3/VOP3SD/
VOP3P/VOPD instructions from the register file (ISA guide 7.2 operands, 7.3
instructions with 16-bit data), gathers DPP16/DPP8 lanes (7.7 "Data parallel
processing"), writes VGPR results under EXEC and the DPP row/bank masks, and
writes compare/carry masks to VCC, an SGPR or EXEC (v_cmpx).

Handled here because they touch lanes or the register file, not arithmetic:
v_readlane/v_writelane/v_readfirstlane, v_permlane16/x16/64, v_swap,
v_movrel*, v_nop (16.7, 16.8 pseudocode); WMMA in `radcc.emu.wmma`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from radcc.emu.decode import Inst
from radcc.emu.errors import EmuError, UnsupportedInstruction
from radcc.emu.regs import const_value, sread, swrite, vread
from radcc.emu.state import EXEC_HI, EXEC_LO, M0, MASK32, NULL, VCC_LO, Wave, lane_array
from radcc.emu.use import sdwa_code
from radcc.isa.classes import VALU_ENCODINGS
from radcc.isa.operands import VGPR0

Handler = Callable[[Wave, Inst], None]
Reader = Callable[[Wave], np.ndarray]
U64 = np.uint64
_ONE = U64(1)


def _valu() -> tuple[Callable[..., object], type, frozenset[str]]:
    from radcc.emu.valu import ACC_OPS, ValuMods, execute_valu
    return execute_valu, ValuMods, frozenset(ACC_OPS)


def _mask_reader(code: int) -> Reader:
    """A lane mask source (SGPR/VCC code) as per-lane 0/1 uint64 (shared, read-only)."""
    def r(w: Wave) -> np.ndarray:
        m = w.read_mask(code) if code < 128 else sread(w, code)
        return lane_array(m, w.size, U64)
    return r


def _splat(n: int, value: int) -> np.ndarray:
    a = np.empty(n, dtype=U64)
    a.fill(value)
    return a


def _src_reader(code: int, bits: int, typ: str, lit: int | None) -> Reader:
    if code >= VGPR0:
        reg = code - VGPR0
        if bits == 64:
            def r64(w: Wave) -> np.ndarray:
                return w.v[reg].astype(U64) | (w.v[(reg + 1) & 255].astype(U64) << U64(32))
            return r64
        return lambda w: w.v[reg].astype(U64)
    if code < 128 and code not in (VCC_LO, EXEC_LO) and bits <= 32 and code != NULL:
        return lambda w: _splat(w.size, w.s[code])  # an SGPR (vread: sread's value)
    try:
        k = const_value(code, bits, typ, lit)
    except EmuError:
        k = None
    if k is not None:  # an inline constant or the literal: a fresh copy of one array
        const: dict[int, np.ndarray] = {}

        def rc(w: Wave) -> np.ndarray:
            a = const.get(w.size)
            if a is None:
                a = const[w.size] = _splat(w.size, k)
            return a.copy()
        return rc
    return lambda w: vread(w, code, bits, typ, lit)


# --- DPP (ISA 7.7) -----------------------------------------------------------------------
def dpp16_source(ctrl: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(source lane, valid) per lane for a DPP16 control."""
    lane = np.arange(size)
    row_base = lane & ~15
    in_row = lane & 15
    valid = np.ones(size, dtype=bool)
    if ctrl <= 0xFF:
        src = (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3)
    elif 0x101 <= ctrl <= 0x10F:
        n = ctrl & 0xF
        src = lane + n
        valid = in_row + n < 16
    elif 0x111 <= ctrl <= 0x11F:
        n = ctrl & 0xF
        src = lane - n
        valid = in_row - n >= 0
    elif 0x121 <= ctrl <= 0x12F:
        n = ctrl & 0xF
        src = row_base + (in_row - n) % 16
    elif ctrl == 0x140:
        src = row_base + 15 - in_row
    elif ctrl == 0x141:
        src = (lane & ~7) + 7 - (lane & 7)
    elif 0x150 <= ctrl <= 0x15F:
        src = row_base + (ctrl & 0xF)
    elif 0x160 <= ctrl <= 0x16F:
        src = row_base + (in_row ^ (ctrl & 0xF))
    else:
        raise EmuError(f"DPP control {ctrl:#x} is not valid on GFX11")
    return np.where(valid, src, lane) % size, valid


def dpp8_source(sel: int, size: int) -> np.ndarray:
    lane = np.arange(size)
    s = np.array([(sel >> (3 * k)) & 7 for k in range(8)])
    return (lane & ~7) | s[lane & 7]


class Dpp:
    """Precomputed lane gather and write mask of one DPP instruction."""

    def __init__(self, f: dict[str, int], size: int) -> None:
        lane = np.arange(size)
        if f["dpp"] == 16:
            self.src, self.valid = dpp16_source(f["dpp_ctrl"], size)
            rows = np.array([(f["row_mask"] >> r) & 1 for r in range(4)], dtype=bool)
            banks = np.array([(f["bank_mask"] >> b) & 1 for b in range(4)], dtype=bool)
            self.write = rows[(lane >> 4) & 3] & banks[(lane >> 2) & 3]
            self.bound_ctrl = bool(f.get("bound_ctrl"))
        else:
            self.src = dpp8_source(f["dpp8"], size)
            self.valid = np.ones(size, dtype=bool)
            self.write = np.ones(size, dtype=bool)
            self.bound_ctrl = True
        self.fi = bool(f.get("fi"))

    def gather(self, w: Wave, val: np.ndarray, ex: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(gathered src0, lanes allowed to write)."""
        ok = self.valid.copy()
        if not self.fi:
            ok &= ex[self.src]
        out = np.where(ok, val[self.src], U64(0))
        write = self.write & (ok | self.bound_ctrl)
        return out, write


# --- operand plan ---------------------------------------------------------------------------
def _sdst_code(i: Inst) -> int | None:
    for o in i.info.defs:
        if o.kind in ("sreg_wave", "sgpr"):
            return i.f.get("sdst", i.f.get("vdst")) if i.enc in ("VOP3", "VOP3SD") \
                else i.f.get("sdst")
        if o.kind == "special" and o.fixed == "vcc_lo":
            return VCC_LO
    return None


def _readers(i: Inst, wave: int) -> list[Reader]:
    f = i.f
    lit = f.get("literal")
    out: list[Reader] = []
    for o in i.info.srcs:
        if o.kind == "special" and o.fixed == "vcc_lo":
            out.append(_mask_reader(VCC_LO))
        elif o.kind == "sreg_wave":
            out.append(_mask_reader(f[o.name]))
        elif o.kind == "imm":
            k = lit if lit is not None else 0
            out.append(lambda w, k=k: _splat(w.size, k))
        elif o.name == "vsrc1":
            out.append(_src_reader(VGPR0 + f["vsrc1"], o.bits, o.type, lit))
        else:
            out.append(_src_reader(f[o.name], o.bits, o.type, lit))
    return out


def _mods(i: Inst, vmods: type) -> object:
    f = i.f
    b3 = lambda v: (bool(v & 1), bool(v >> 1 & 1), bool(v >> 2 & 1))  # noqa: E731
    if i.enc == "VOP3P":
        return vmods(neg=b3(f.get("neg", 0)), neg_hi=b3(f.get("neg_hi", 0)),
                     opsel=f.get("opsel", 0), opsel_hi=f.get("opsel_hi", 7),
                     clamp=bool(f.get("clamp")))
    if i.enc in ("VOP3", "VOP3SD"):
        return vmods(abs=b3(f.get("abs", 0)), neg=b3(f.get("neg", 0)), opsel=f.get("opsel", 0),
                     clamp=bool(f.get("clamp")), omod=f.get("omod", 0))
    # VOP1/VOP2/VOPC: `opsel` = the high halves a 16-bit VGPR field's bit 7 names (ISA
    # "16-bit VGPR naming"; the decoder reports them as VOP3 OPSEL bits, registers & 0x7F)
    if f.get("dpp") == 16:
        return vmods(abs=(bool(f.get("src0_abs")), bool(f.get("src1_abs")), False),
                     neg=(bool(f.get("src0_neg")), bool(f.get("src1_neg")), False),
                     opsel=f.get("opsel", 0))
    return vmods(opsel=f.get("opsel", 0))


def _writer(i: Inst) -> tuple[int | None, int]:
    for o in i.info.defs:
        if o.kind == "vgpr" and o.name == "vdst":
            return i.f.get("vdst", 0), o.bits
    return None, 0


def write_result(w: Wave, vdst: int, r: object, mask: np.ndarray) -> None:
    d = r.d  # type: ignore[attr-defined]
    bits = r.d_bits  # type: ignore[attr-defined]
    if bits == 16:
        sh = U64(r.d_shift)  # type: ignore[attr-defined]
        old = w.v[vdst][mask].astype(U64)
        keep = U64(0xFFFF0000) if not r.d_shift else U64(0xFFFF)  # type: ignore[attr-defined]
        w.v[vdst][mask] = ((old & keep) | ((d[mask] & U64(0xFFFF)) << sh)).astype(np.uint32)
    elif bits == 32:  # the unsafe uint64 -> uint32 cast keeps the low dword
        np.copyto(w.v[vdst], d, casting="unsafe", where=mask)
    elif bits == 64:
        np.copyto(w.v[vdst], d, casting="unsafe", where=mask)
        np.copyto(w.v[(vdst + 1) & 255], d >> U64(32), casting="unsafe", where=mask)
    else:
        for k in range(d.shape[0]):
            w.v[(vdst + k) & 255][mask] = (d[k][mask] & U64(MASK32)).astype(np.uint32)


# --- fast path: common 32-bit integer ops, no modifiers, EXEC all ones ------------------------
U32 = np.uint32
# name -> (ufunc, operands swapped, first operand is a shift amount: its low 5 bits)
_FAST_BINARY: dict[str, tuple[np.ufunc, bool, bool]] = {
    "v_xor_b32": (np.bitwise_xor, False, False),
    "v_or_b32": (np.bitwise_or, False, False),
    "v_and_b32": (np.bitwise_and, False, False),
    "v_add_nc_u32": (np.add, False, False),
    "v_sub_nc_u32": (np.subtract, False, False),
    "v_subrev_nc_u32": (np.subtract, True, False),
    "v_lshlrev_b32": (np.left_shift, True, True),
    "v_lshrrev_b32": (np.right_shift, True, True),
}
_FAST_UNARY = {"v_mov_b32": "copyto", "v_not_b32": "invert"}
_MOD_FIELDS = ("abs", "neg", "opsel", "clamp", "omod", "neg_hi")
_MASK5 = (np.full(32, 31, U32), np.full(64, 31, U32))


def _fast_source(code: int, lit: int | None, shift: bool) -> tuple[str, object] | None:
    """A 32-bit source: ('v', VGPR), ('s', SGPR code) or ('k', (wave32, wave64) arrays of
    the constant; low 5 bits for a shift amount); None when not simple."""
    if code >= 256:
        return "v", code - 256
    if code < 128 and code != NULL:
        return "s", code
    try:
        k = const_value(code, 32, "b32", lit)
    except EmuError:
        return None
    if k is None:
        return None
    k &= 31 if shift else MASK32
    return "k", (np.full(32, k, U32), np.full(64, k, U32))


_TEMPLATES: dict[tuple[str, ...], Callable[..., Callable[[Wave], None]]] = {}


def _template(kinds: tuple[str, ...], unary: str | None, shift: bool) -> Callable[..., object]:
    """A maker of the handler `h(w, i)` for the source kinds, compiled once per shape: with
    EXEC all ones the sources are VGPR rows (`w.vr`), splatted constant rows or an SGPR
    filled into a scratch row, and the instruction is one NumPy call on uint32 rows
    (output positional: cheaper than `out=`); otherwise `slow(w, i)`, the general path."""
    key = (*kinds, unary or "", "shift" if shift else "")
    mk = _TEMPLATES.get(key)
    if mk is not None:
        return mk
    body = ["vr = w.vr"]
    args = []
    for n, kind in enumerate(kinds):
        if kind == "v":
            args.append(f"vr[a{n}]")
        elif kind == "k":
            args.append(f"a{n}[x]")
        else:
            body.append(f"t{n} = b{n}[x]")
            body.append(f"t{n}.fill(s[a{n}])")
            args.append(f"t{n}")
    if unary == "copyto":
        body.append(f"copyto(vr[d], {args[0]})")
    elif unary is not None:
        body.append(f"uf({args[0]}, vr[d])")
    elif shift:  # uf(value, amount & 31): the amount is operand 0 (a swapped operation)
        if kinds[0] != "k":
            body.append("m = b0[x]")
            body.append(f"bitwise_and({args[0]}, mask5[x], m)")
            args[0] = "m"
        body.append(f"uf({args[1]}, {args[0]}, vr[d])")
    else:
        body.append(f"uf({args[0]}, {args[1]}, vr[d])")
    params = ", ".join(f"a{n}, b{n}" for n in range(len(kinds)))
    lines = [f"def make(uf, d, slow, {params}):",
             "    def h(w, i):",
             "        s = w.s",
             f"        if s[{EXEC_LO}] != 0xFFFFFFFF:",
             "            return slow(w, i)",
             "        if w.size == 32:",
             "            x = 0",
             f"        elif s[{EXEC_HI}] == 0xFFFFFFFF:",
             "            x = 1",
             "        else:",
             "            return slow(w, i)",
             *(f"        {ln}" for ln in body),
             "    return h"]
    env = {"copyto": np.copyto, "bitwise_and": np.bitwise_and, "mask5": _MASK5}
    exec(compile("\n".join(lines) + "\n", f"<radcc.emu fast VALU {key}>", "exec"), env)  # noqa: S102
    mk = _TEMPLATES[key] = env["make"]
    return mk


def _fast_handler(i: Inst, opname: str, slow: Handler | None = None) -> Handler | None:
    """The handler with the fast path: the whole instruction as one NumPy call on uint32
    rows when EXEC is all ones (`slow` otherwise): the result equals the VALU library's
    for these modifier-free integer ops (wrapping adds, shifts by the low 5 bits, bitwise
    ops, moves). None when the instruction does not qualify."""
    f = i.f
    if i.enc not in ("VOP1", "VOP2", "VOP3") or f.get("dpp") or "dpp_ctrl" in f:
        return None
    if any(f.get(k) for k in _MOD_FIELDS):
        return None
    binary = _FAST_BINARY.get(opname)
    unary = _FAST_UNARY.get(opname)
    if binary is None and unary is None:
        return None
    vdst, vbits = _writer(i)
    if vdst is None or vbits != 32:
        return None
    lit = f.get("literal")
    srcs: list[tuple[str, object]] = []
    shift = binary is not None and binary[2]
    for o in i.info.srcs:
        if o.bits != 32:
            return None
        code = 256 + f["vsrc1"] if o.name == "vsrc1" else f.get(o.name)
        if code is None:
            return None
        g = _fast_source(code, lit, shift and len(srcs) == 0)
        if g is None:
            return None
        srcs.append(g)
    if binary is not None and len(srcs) == 2:
        uf, swapped, _ = binary
        if swapped and not shift:
            srcs.reverse()
    elif unary is not None and len(srcs) == 1:
        uf = np.invert
    else:
        return None
    kinds = tuple(k for k, _ in srcs)
    mk = _template(kinds, unary, shift)
    vals: list[object] = []
    for kind, val in srcs:
        vals += [val, (np.zeros(32, U32), np.zeros(64, U32)) if kind != "k" else None]
    return mk(uf, vdst, slow, *vals)  # type: ignore[no-any-return]


# --- fast path: 32-bit integer carries, compares, v_cndmask (lane-mask results/sources) --------
_M32 = U64(MASK32)
_SIGN = U64(0x80000000)
_CMP: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
    "eq": np.equal, "ne": np.not_equal,
}
# name -> (result, carry-out lanes) from zero-extended uint64 sources (ISA 16.8 pseudocode:
# carry out of bit 31 for adds, borrow for subtracts; the third source is the carry-in)
_CARRY: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {
    "v_add_co_u32": lambda a, b: (a + b, a + b > _M32),
    "v_sub_co_u32": lambda a, b: (a - b, b > a),
    "v_subrev_co_u32": lambda a, b: (b - a, a > b),
    "v_add_co_ci_u32": lambda a, b, c: (a + b + c, a + b + c > _M32),
    "v_sub_co_ci_u32": lambda a, b, c: (a - b - c, b + c > a),
    "v_subrev_co_ci_u32": lambda a, b, c: (b - a - c, a + c > b),
}


def _fast_mask_op(opname: str) -> Callable[..., tuple[np.ndarray | None, np.ndarray | None]] | None:
    """(VGPR result or None, lane mask or None) of an integer op on zero-extended 32-bit
    uint64 sources (lane-mask sources as 0/1), or None when not one of these ops."""
    if opname in _CARRY:
        return _CARRY[opname]
    if opname == "v_cndmask_b32":
        return lambda a, b, c: (np.where(c != 0, b, a), None)
    parts = opname.split("_")
    if len(parts) == 4 and parts[1] in ("cmp", "cmpx") and parts[3] in ("u32", "i32"):
        cond, signed = parts[2], parts[3] == "i32"
        if cond in ("f", "t"):
            return lambda a, b: (None, np.full(a.shape, cond == "t"))
        cmp = _CMP.get(cond)
        if cmp is None:
            return None
        if signed:  # signed order = unsigned order with the sign bits flipped
            return lambda a, b: (None, cmp(a ^ _SIGN, b ^ _SIGN))
        return lambda a, b: (None, cmp(a, b))
    return None


def _fast_cndmask_handler(i: Inst, opname: str, slow: Handler) -> Handler | None:
    """v_cndmask_b32 without modifiers or DPP as one `np.where` on uint32 VGPR rows (SGPR
    and constant sources as scalars), the condition the lane mask's cached bool array
    (`Wave.mask_to_bools`); lanes outside EXEC keep the VGPR, as the general path (`slow`,
    kept as the handler's `slow` attribute). None when the instruction does not qualify."""
    f = i.f
    if opname != "v_cndmask_b32" or i.enc not in ("VOP2", "VOP3") or f.get("dpp") \
            or "dpp_ctrl" in f or any(f.get(k) for k in _MOD_FIELDS):
        return None
    vdst, vbits = _writer(i)
    if vdst is None or vbits != 32:
        return None
    lit = f.get("literal")
    vals: list[tuple[str, int]] = []
    mcode: int | None = None
    for o in i.info.srcs:
        if o.kind == "special" and o.fixed == "vcc_lo":
            mcode = VCC_LO
            continue
        if o.kind == "sreg_wave":
            mcode = f[o.name]
            continue
        code = 256 + f["vsrc1"] if o.name == "vsrc1" else f.get(o.name)
        g = None if code is None else _fast_source(code, lit, False)
        if g is None:
            return None
        kind, val = g
        vals.append((kind, int(val[0][0]) if kind == "k" else val))  # type: ignore[index]
    if mcode is None or mcode >= 128 or len(vals) != 2:
        return None
    (k0, a0), (k1, a1) = vals
    c0, c1 = U32(a0), U32(a1)

    def hc(w: Wave, i: Inst) -> None:
        vr = w.vr
        s = w.s
        a = vr[a0] if k0 == "v" else c0 if k0 == "k" else U32(s[a0])
        b = vr[a1] if k1 == "v" else c1 if k1 == "k" else U32(s[a1])
        t = np.where(w.mask_to_bools(w.read_mask(mcode)), b, a)
        if s[EXEC_LO] == MASK32 and (w.size == 32 or s[EXEC_LO + 1] == MASK32):
            np.copyto(vr[vdst], t, casting="unsafe")
        else:
            np.copyto(vr[vdst], t, casting="unsafe", where=w.exec_mask())
    hc.slow = slow  # type: ignore[attr-defined]  # the general path, for tests
    return hc


def _fast_mask_handler(i: Inst, opname: str, readers: list[Reader], vdst: int | None,
                       sdst: int | None, slow: Handler) -> Handler | None:
    """32-bit carry ops, integer compares (v_cmp/v_cmpx) and v_cndmask_b32 computed
    directly on uint64 lanes, writing the VGPR (lanes in EXEC) and the lane mask (VCC,
    an SGPR, or EXEC for v_cmpx; 0 for lanes off) as the general path does (`slow`, kept
    as the handler's `slow` attribute). None when the instruction does not qualify
    (modifiers, DPP, other ops)."""
    f = i.f
    if i.enc not in ("VOP2", "VOPC", "VOP3", "VOP3SD") or f.get("dpp") or "dpp_ctrl" in f:
        return None
    if any(f.get(k) for k in _MOD_FIELDS):
        return None
    op = _fast_mask_op(opname)
    if op is None or len(readers) not in (2, 3):
        return None
    is_cmpx = i.name.startswith("v_cmpx")
    nsrc = len(readers)
    r0, r1, r2 = (readers + [readers[0]])[:3]

    def hm(w: Wave, i: Inst) -> None:
        a = r0(w) & _M32
        b = r1(w) & _M32
        d, lanes = op(a, b, r2(w)) if nsrc == 3 else op(a, b)
        s = w.s
        if s[EXEC_LO] == MASK32 and (w.size == 32 or s[EXEC_LO + 1] == MASK32):
            if d is not None and vdst is not None:
                np.copyto(w.vr[vdst], d, casting="unsafe")  # the low dword
            if lanes is not None:
                m = w.bools_to_mask(lanes)
                if is_cmpx:
                    w.exec = m
                elif sdst is not None:
                    w.write_mask(sdst, m)
            return
        ex = w.exec_mask()  # as the general path: lanes off keep VGPRs, get 0 mask bits
        if d is not None and vdst is not None:
            np.copyto(w.vr[vdst], d, casting="unsafe", where=ex)
        if lanes is not None:
            m = w.bools_to_mask(lanes & ex)
            if is_cmpx:
                w.exec = m
            elif sdst is not None:
                w.write_mask(sdst, m)
    hm.slow = slow  # type: ignore[attr-defined]  # the general path, for tests
    return hm


# --- fast path: 64-bit results of v_mad_u64_u32 and v_lshlrev_b64, EXEC all ones --------------
_M6 = U64(63)


def _fast_64_handler(i: Inst, opname: str, readers: list[Reader], vdst: int | None,
                     sdst: int | None, slow: Handler) -> Handler | None:
    """v_mad_u64_u32 (D = S0.u32 * S1.u32 + S2.u64 mod 2**64, carry out of the add to
    SDST) and v_lshlrev_b64 (D = S1.u64 << S0[5:0]) on uint64 lanes when EXEC is all
    ones and no modifier is set; `slow` otherwise (ISA 16.8 pseudocode)."""
    f = i.f
    if opname not in ("v_mad_u64_u32", "v_lshlrev_b64") or vdst is None:
        return None
    if i.enc not in ("VOP3", "VOP3SD") or any(f.get(k) for k in _MOD_FIELDS):
        return None
    mad = opname == "v_mad_u64_u32"
    if len(readers) != (3 if mad else 2):
        return None
    r0, r1, r2 = (readers + [readers[0]])[:3]
    hi = (vdst + 1) & 255

    def h64(w: Wave, i: Inst) -> None:
        s = w.s
        if s[EXEC_LO] != MASK32 or (w.size == 64 and s[EXEC_LO + 1] != MASK32):
            slow(w, i)
            return
        if mad:
            c = r2(w)
            d = (r0(w) & _M32) * (r1(w) & _M32) + c
            carry = d < c
        else:
            d = r1(w) << (r0(w) & _M6)
        np.copyto(w.vr[vdst], d, casting="unsafe")  # the low dword
        np.copyto(w.vr[hi], d >> U64(32), casting="unsafe")
        if mad and sdst is not None:
            w.write_mask(sdst, w.bools_to_mask(carry))
    return h64


# --- fast path: f32 add/sub/mul/fma in round-to-nearest-even, EXEC all ones -------------------
_F32_OPS = {"v_add_f32": "add", "v_sub_f32": "sub", "v_subrev_f32": "subrev",
            "v_mul_f32": "mul", "v_fma_f32": "fma", "v_fmac_f32": "fma"}
_ABS32 = np.uint32(0x7FFFFFFF)
_TINY32 = np.uint32(0x017FFFFF)  # nonzero magnitudes below 2**-124, as bits minus one
_INF32 = np.uint32(0x7F800000)
_MID = U64(0x1FFFFFFF)  # low bits of a float64 below float32 precision
_HALF = U64(0x10000000)
_TINY64 = 2.0 ** -124


def _tiny_or_nan(bits: np.ndarray) -> bool:
    """Any lane (float32 bits) tiny (a denormal or within 4x of one) or NaN."""
    m = bits & _ABS32
    return bool(((m - np.uint32(1)) < _TINY32).any() or (m > _INF32).any())


def _fast_f32_handler(i: Inst, opname: str, readers: list[Reader], vdst: int | None,
                      vbits: int, slow: Handler) -> Handler | None:
    """IEEE f32 add/sub/mul/fma computed by NumPy (float32 for add/sub, the exact float64
    product for mul/fma, one float64 rounding then float32 for fma) when that equals the
    VALU library's result: EXEC all ones, MODE rounds f32 to nearest even, no modifier,
    and no lane has a NaN or a value near the denormal range (input, product or result:
    there MODE's denormal flushing and the NaN rules apply) and no fma lane has its
    float64 sum on a float32 rounding midpoint (double rounding). Else `slow`."""
    f = i.f
    kind = _F32_OPS.get(opname)
    if kind is None or vdst is None or vbits != 32:
        return None
    if i.enc not in ("VOP1", "VOP2", "VOP3") or f.get("dpp") or "dpp_ctrl" in f:
        return None
    if any(f.get(k) for k in _MOD_FIELDS) or len(readers) != (3 if kind == "fma" else 2):
        return None
    f32, f64, u32 = np.float32, np.float64, np.uint32

    def hf(w: Wave, i: Inst) -> None:
        s = w.s
        if s[EXEC_LO] != MASK32 or (w.size == 64 and s[EXEC_LO + 1] != MASK32) or w.mode & 3:
            slow(w, i)
            return
        bits = [r(w).astype(u32) for r in readers]
        for b in bits:
            if _tiny_or_nan(b):
                slow(w, i)
                return
        a, b = bits[0].view(f32), bits[1].view(f32)
        if kind == "add":
            r = a + b
        elif kind == "sub":
            r = a - b
        elif kind == "subrev":
            r = b - a
        else:
            p = a.astype(f64) * b.astype(f64)  # exact
            ap = np.abs(p)
            if ((ap < _TINY64) & (ap != 0)).any():
                slow(w, i)
                return
            if kind == "fma":
                p = p + bits[2].view(f32).astype(f64)
                if ((p.view(U64) & _MID) == _HALF).any():
                    slow(w, i)
                    return
            r = p.astype(f32)
        rb = r.view(u32)
        if _tiny_or_nan(rb):
            slow(w, i)
            return
        np.copyto(w.vr[vdst], rb)
    return hf


class _WaveMasks:
    """`Ctx.lane_masks` of a prepared VALU op: VCC and EXEC of the executing wave,
    read when the op asks (v_div_fmas, ...)."""

    __slots__ = ("w",)

    def __init__(self) -> None:
        self.w: Wave | None = None

    def __getitem__(self, name: str) -> int:
        w = self.w
        if w is not None:
            if name == "vcc":
                return w.vcc
            if name == "exec":
                return w.exec
        raise KeyError(name)


def _bind_generic(i: Inst, name: str | None = None) -> Handler:
    """A handler with everything but the register values prepared: the op function,
    a reused context, the source readers; exec all-ones (the common case) writes
    whole VGPR rows. The dispatcher runs handlers with NumPy errors ignored."""
    _, vmods, acc_ops = _valu()
    from radcc.emu.valu import Ctx, decode_mode, op_function
    opname = name or i.name
    fn = op_function(opname)
    readers = _readers(i, 0)
    mods = _mods(i, vmods)
    vdst, vbits = _writer(i)
    if opname in acc_ops and vdst is not None:
        acc = vdst
        readers.append(lambda w: w.v[acc].astype(U64))
    sdst = _sdst_code(i)
    dpp_info = i.f.get("dpp")
    dpp_cache: dict[int, Dpp] = {}
    is_cmpx = i.name.startswith("v_cmpx")
    masks = _WaveMasks()
    ctx = Ctx(opname, mods, 0, np.ones(0, dtype=bool), decode_mode(0), masks)  # type: ignore[arg-type]
    r0, r1 = (readers + [None, None])[:2]
    nsrc = len(readers)
    def h(w: Wave, i: Inst) -> None:
        if fn is None:
            raise UnsupportedInstruction(
                f"{i.where()}: the VALU library does not implement {opname}")
        ex = w.exec_mask()
        if nsrc == 2:
            srcs = [r0(w), r1(w)]  # type: ignore[misc]
        else:
            srcs = [r(w) for r in readers]
        wmask = ex
        full = w._exec_key == w.full
        if dpp_info:
            d = dpp_cache.get(w.size)
            if d is None:
                d = dpp_cache[w.size] = Dpp(i.f, w.size)
            srcs[0], allowed = d.gather(w, srcs[0], ex)
            wmask = ex & allowed
            full = False
        ctx.wave = w.size
        ctx.exec_mask = wmask
        ctx.fmode = decode_mode(w.mode)
        masks.w = w
        r = fn(ctx, srcs)
        if r.d is not None and vdst is not None:
            if full and r.d_bits == 32:
                w.v[vdst] = r.d  # uint64 -> uint32 truncates: the low dword
            else:
                write_result(w, vdst, r, wmask)
        if r.sdst is not None:
            m = w.bools_to_mask(r.sdst & wmask)
            if r.writes_exec or is_cmpx:
                w.exec = m
            elif sdst is not None:
                w.write_mask(sdst, m)
    if fn is None:
        return h
    fast = (_fast_handler(i, opname, h)
            or _fast_cndmask_handler(i, opname, h)
            or _fast_mask_handler(i, opname, readers, vdst, sdst, h)
            or _fast_f32_handler(i, opname, readers, vdst, vbits, h)
            or _fast_64_handler(i, opname, readers, vdst, sdst, h))
    return h if fast is None else fast


# --- VOPD (ISA 7.6 dual issue) --------------------------------------------------------------
def _bind_vopd(i: Inst) -> Handler:
    execute_valu, vmods, acc_ops = _valu()
    from radcc.isa.table import get_table
    from radcc.target import GfxLevel
    t = get_table(GfxLevel.GFX11)
    xi = t.decode("VOPD", i.f["opx"])
    yi = t.decode("VOPDY", i.f["opy"])
    if xi is None or yi is None:
        raise UnsupportedInstruction(f"{i.where()}: unknown VOPD opcode")
    lit = i.f.get("literal")
    halves = []
    for info, sfx in ((xi, "x"), (yi, "y")):
        op = "v_" + info.name[len("v_dual_"):]
        rd: list[Reader] = []
        for o in info.srcs:
            if o.kind == "imm":
                k = lit or 0
                rd.append(lambda w, k=k: np.full(w.size, k, dtype=U64))
            elif o.name == "vsrc1":
                rd.append(_src_reader(256 + i.f["vsrc1" + sfx], 32, o.type, lit))
            else:
                rd.append(_src_reader(i.f["src0" + sfx], 32, o.type, lit))
        vd = i.f["vdst" + sfx]
        if op == "v_cndmask_b32":
            rd.append(_mask_reader(VCC_LO))
        if info.extra.get("acc") or op in acc_ops:
            rd.append(lambda w, vd=vd: w.v[vd].astype(U64))
        halves.append((op, rd, vd))
    mods = vmods()

    def h(w: Wave, i: Inst) -> None:
        ex = w.exec_mask()
        results = []
        for op, rd, vd in halves:
            srcs = [r(w) for r in rd]
            try:
                r = execute_valu(op, srcs, mods, wave=w.size, exec_mask=ex, mode=w.mode,
                                 lane_masks={"vcc": w.vcc, "exec": w.exec})
            except KeyError:
                raise UnsupportedInstruction(
                    f"{i.where()}: the VALU library does not implement {op}") from None
            results.append((vd, r))
        for vd, r in results:
            write_result(w, vd, r, ex)
    return h


# --- lane instructions (16.7/16.8) -------------------------------------------------------------
def _bind_lane(i: Inst) -> Handler | None:
    name = i.name
    f = i.f
    lit = f.get("literal")
    if name in ("v_nop", "v_pipeflush", "v_clrexcp"):
        # v_clrexcp (GFX10) clears the SIMD's exception state, which the emulator does not
        # keep (no trap handler runs: RDNA2 ISA guide, V_CLREXCP)
        return lambda w, i: None
    if name == "v_readlane_b32":
        src, sel, dst = f["src0"] - 256, f["src1"], f.get("sdst", f.get("vdst"))

        def hr(w: Wave, i: Inst) -> None:
            lane = sread(w, sel, 32, "i32", lit) & (w.size - 1)
            swrite(w, dst, int(w.v[src][lane]))
        return hr
    if name == "v_readfirstlane_b32":
        src, dst = f["src0"], f.get("sdst", f.get("vdst"))

        def hf(w: Wave, i: Inst) -> None:
            e = w.exec
            lane = (e & -e).bit_length() - 1 if e else 0
            val = int(w.v[src - 256][lane]) if src >= 256 else sread(w, src, 32, "b32", lit)
            swrite(w, dst, val)
        return hf
    if name == "v_writelane_b32":
        s0, sel, dst = f["src0"], f["src1"], f["vdst"]

        def hw(w: Wave, i: Inst) -> None:
            lane = sread(w, sel, 32, "i32", lit) & (w.size - 1)
            w.v[dst][lane] = sread(w, s0, 32, "i32", lit)
        return hw
    if name in ("v_permlane16_b32", "v_permlanex16_b32"):
        src, s1, s2, dst = f["src0"] - 256, f["src1"], f["src2"], f["vdst"]
        opsel = f.get("opsel", 0)
        fi, bc = bool(opsel & 1), bool(opsel & 2)
        cross = name == "v_permlanex16_b32"

        def hp(w: Wave, i: Inst) -> None:
            sel = sread(w, s1, 32, "b32", lit) | sread(w, s2, 32, "b32", lit) << 32
            lane = np.arange(w.size)
            nib = np.array([(sel >> (4 * k)) & 15 for k in range(16)])
            row = lane >> 4
            srow = row ^ 1 if cross else row
            srcl = (srow * 16 + nib[lane & 15]) % w.size
            ex = w.exec_mask()
            ok = ex[srcl] | fi
            val = np.where(ok, w.v[src][srcl], 0).astype(np.uint32)
            wm = ex & (ok | bc)
            w.v[dst][wm] = val[wm]
        return hp
    if name == "v_permlane64_b32":
        src, dst = f["src0"] - 256, f["vdst"]

        def h64(w: Wave, i: Inst) -> None:
            if w.size != 64:
                return
            ex = w.exec_mask()
            val = np.roll(w.v[src], 32)
            w.v[dst][ex] = val[ex]
        return h64
    if name == "v_swap_b32":
        a, b = f["vdst"], f["src0"] - 256

        def hs(w: Wave, i: Inst) -> None:
            ex = w.exec_mask()
            ta = w.v[a][ex].copy()
            w.v[a][ex] = w.v[b][ex]
            w.v[b][ex] = ta
        return hs
    if name in ("v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32"):
        src, dst = f["src0"], f["vdst"]

        def hm(w: Wave, i: Inst) -> None:
            m0 = w.s[M0]
            ex = w.exec_mask()
            if name == "v_movrelsd_2_b32":
                so, do = m0 & 0x3FF, m0 >> 16 & 0x3FF
            else:
                so = m0 if name in ("v_movrels_b32", "v_movrelsd_b32") else 0
                do = m0 if name in ("v_movreld_b32", "v_movrelsd_b32") else 0
            if src >= 256:
                val = w.v[(src - 256 + so) & 255].copy()
            else:
                val = vread(w, src, 32, "b32", lit).astype(np.uint32)
            w.v[(dst + do) & 255][ex] = val[ex]
        return hm
    return None


# --- SDWA (GFX10: VOP1/VOP2/VOPC with src0 = 0xF9; radcc.isa.formats.sdwa) --------------
_SDWA = 0xF9


def _sdwa_select(x: np.ndarray, sel: int, sext: bool) -> np.ndarray:
    """The BYTE_n (0-3) / WORD_n (4, 5) / DWORD (6) of 32-bit lanes, zero- or
    sign-extended to 32 bits (RDNA1/RDNA2 guides, SDWA: SRC*_SEL, SRC*_SEXT)."""
    if sel >= 6:
        return x & _M32
    width, off = (8, 8 * sel) if sel < 4 else (16, 16 * (sel - 4))
    v = (x >> U64(off)) & U64((1 << width) - 1)
    if sext:
        sign = U64(1 << (width - 1))
        v = np.where(v & sign, (v | (_M32 ^ U64((1 << width) - 1))), v)
    return v


def _bind_sdwa(i: Inst) -> Handler:
    """A VOP1/VOP2/VOPC instruction with the SDWA dword: sources selected (byte or
    word, zero- or sign-extended, float neg/abs), the operation as without SDWA, the
    result placed by DST_SEL with DST_UNUSED (pad with 0, sign-extend, or preserve the
    old VDST bits); VOPC writes SDST (VCC unless SD) or EXEC (v_cmpx)."""
    from radcc.emu.valu import Ctx, ValuMods, decode_mode, op_function
    from radcc.isa.operands import regs_for

    name = i.name
    fn = op_function(name)
    _, _, acc_ops = _valu()
    if fn is None or name in acc_ops:
        raise UnsupportedInstruction(f"{i.where()}: {name} with SDWA is not supported")
    dw = i.f["sdwa"]
    frm = regs_for(i.gfx).from_hw
    codes = {"src0": sdwa_code(i, "src0"), "vsrc1": sdwa_code(i, "vsrc1")}
    sels = {"src0": (dw >> 16 & 7, bool(dw >> 19 & 1)),
            "vsrc1": (dw >> 24 & 7, bool(dw >> 27 & 1))}
    vopc = i.enc == "VOPC"
    readers: list[tuple[Reader, tuple[int, bool] | None]] = []
    for o in i.info.srcs:
        if o.kind == "special" and o.fixed == "vcc_lo":
            readers.append((_mask_reader(VCC_LO), None))
        elif o.name in codes:
            readers.append((_src_reader(codes[o.name], 32, o.type, None), sels[o.name]))
        else:
            raise UnsupportedInstruction(f"{i.where()}: SDWA operand {o.name}")
    mods = ValuMods(abs=(bool(dw >> 21 & 1), bool(dw >> 29 & 1), False),
                    neg=(bool(dw >> 20 & 1), bool(dw >> 28 & 1), False),
                    clamp=not vopc and bool(dw >> 13 & 1), omod=0 if vopc else dw >> 14 & 3)
    vdst, _bits = _writer(i)
    dst_sel, unused = (6, 2) if vopc else (dw >> 8 & 7, dw >> 11 & 3)
    sdst = (frm[dw >> 8 & 0x7F] if dw >> 15 & 1 else VCC_LO) if vopc else None
    is_cmpx = name.startswith("v_cmpx")
    masks = _WaveMasks()
    ctx = Ctx(name, mods, 0, np.ones(0, dtype=bool), decode_mode(0), masks)  # type: ignore[arg-type]

    def h(w: Wave, i: Inst) -> None:
        ex = w.exec_mask()
        srcs = [r(w) if sel is None else _sdwa_select(r(w), *sel) for r, sel in readers]
        ctx.wave = w.size
        ctx.exec_mask = ex
        ctx.fmode = decode_mode(w.mode)
        masks.w = w
        r = fn(ctx, srcs)  # type: ignore[misc]
        if r.d is not None and vdst is not None:
            d = r.d & _M32
            if dst_sel < 6:
                width, off = (8, 8 * dst_sel) if dst_sel < 4 else (16, 16 * (dst_sel - 4))
                m = U64((1 << width) - 1) << U64(off)
                d = (d << U64(off)) & m
                if unused == 1:  # UNUSED_SEXT: the bits above take the result's sign
                    top = U64(1 << (off + width - 1))
                    d = np.where(d & top, d | (_M32 ^ ((top << _ONE) - _ONE)), d)
                elif unused == 2:  # UNUSED_PRESERVE
                    d = d | (w.v[vdst].astype(U64) & (_M32 ^ m))
            np.copyto(w.v[vdst], d, casting="unsafe", where=ex)
        if r.sdst is not None:
            mk = w.bools_to_mask(r.sdst & ex)
            if r.writes_exec or is_cmpx:
                w.exec = mk
            elif sdst is not None:
                w.write_mask(sdst, mk)
    return h


def bind_valu(i: Inst) -> Handler:
    if i.enc == "VOPD":
        return _bind_vopd(i)
    if i.f.get("src0") == _SDWA and "sdwa" in i.f:
        return _bind_sdwa(i)
    if i.info.cls == "wmma":
        from radcc.emu.wmma import bind_wmma
        return bind_wmma(i)
    h = _bind_lane(i)
    if h is not None:
        return h
    return _bind_generic(i)


BINDERS: dict[str, Callable[[Inst], Handler]] = {
    e: bind_valu for e in sorted(VALU_ENCODINGS | {"VOPD"})
}

__all__ = ["BINDERS", "EXEC_LO", "dpp16_source", "dpp8_source"]
