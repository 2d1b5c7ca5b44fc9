"""Scalar ALU semantics: SOP2, SOP1, SOPC, SOPK and SOPP (ISA guide chapter 4
"Program flow control", 5 "Scalar ALU operations", and the pseudocode of 16.1-16.5).

Where ACO's README-ISA.md errata correct the guide, the errata win: `s_bfe_*` write SCC
(result != 0). Every operation works on plain Python ints; 64-bit operands are
SGPR pairs. Branch offsets are signed dword counts from the next instruction.
"""

from __future__ import annotations

from collections.abc import Callable

from radcc.emu.decode import Inst, ends_block, no_effect
from radcc.emu.errors import EmuError, UnsupportedInstruction
from radcc.emu.regs import const_value, sread, swrite
from radcc.emu.state import EXEC_LO, M0, MASK32, NULL, Wave
from radcc.isa.formats.scalar_fields import waitcnt_layout
from radcc.isa.operands import EXECZ, INLINE_INT_ZERO, SCC, VCCZ
from radcc.target import GfxLevel

M64 = (1 << 64) - 1
Handler = Callable[[Wave, Inst], None]


def s32(v: int) -> int:
    v &= MASK32
    return v - (1 << 32) if v >> 31 else v


def s64(v: int) -> int:
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def sext(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _popcount(v: int) -> int:
    return bin(v).count("1")


def _brev(v: int, bits: int) -> int:
    return int(format(v, f"0{bits}b")[::-1], 2)


def _clz(v: int, bits: int) -> int:
    return bits - v.bit_length() if v else -1


def _ctz(v: int) -> int:
    return (v & -v).bit_length() - 1 if v else -1


def _cls(v: int, bits: int) -> int:
    """s_cls: count of leading bits equal to the sign bit (-1 if all equal)."""
    sign = v >> (bits - 1) & 1
    x = (~v if sign else v) & ((1 << bits) - 1)
    return -1 if x == 0 else bits - x.bit_length()


def _quadmask(v: int, bits: int) -> int:
    r = 0
    for q in range(bits // 4):
        if v >> (4 * q) & 0xF:
            r |= 1 << q
    return r


def _wqm(v: int, bits: int) -> int:
    r = 0
    for q in range(bits // 4):
        if v >> (4 * q) & 0xF:
            r |= 0xF << (4 * q)
    return r


# --- SOP2: name -> f(a, b, scc) -> (result, scc or None) -----------------------------
def _bfe_u(a: int, b: int, bits: int) -> int:
    off = b & (bits - 1)
    width = b >> 16 & 0x7F
    return (a >> off) & ((1 << width) - 1) if width else 0


def _bfe_i(a: int, b: int, bits: int) -> int:
    width = b >> 16 & 0x7F
    if not width:
        return 0
    v = _bfe_u(a, b, bits)
    width = min(width, bits)
    return sext(v, width) & ((1 << bits) - 1)


SOP2: dict[str, Callable[[int, int, int], tuple[int, int | None]]] = {
    "s_add_u32": lambda a, b, c: ((a + b) & MASK32, int(a + b > MASK32)),
    "s_sub_u32": lambda a, b, c: ((a - b) & MASK32, int(b > a)),
    "s_add_i32": lambda a, b, c: ((a + b) & MASK32,
                                  int(not -2**31 <= s32(a) + s32(b) < 2**31)),
    "s_sub_i32": lambda a, b, c: ((a - b) & MASK32,
                                  int(not -2**31 <= s32(a) - s32(b) < 2**31)),
    "s_addc_u32": lambda a, b, c: ((a + b + c) & MASK32, int(a + b + c > MASK32)),
    "s_subb_u32": lambda a, b, c: ((a - b - c) & MASK32, int(b + c > a)),
    "s_absdiff_i32": lambda a, b, c: (abs(s32(a) - s32(b)) & MASK32,
                                      int(abs(s32(a) - s32(b)) & MASK32 != 0)),
    "s_min_i32": lambda a, b, c: (a if s32(a) < s32(b) else b, int(s32(a) < s32(b))),
    "s_min_u32": lambda a, b, c: (min(a, b), int(a < b)),
    "s_max_i32": lambda a, b, c: (a if s32(a) > s32(b) else b, int(s32(a) > s32(b))),
    "s_max_u32": lambda a, b, c: (max(a, b), int(a > b)),
    "s_cselect_b32": lambda a, b, c: (a if c else b, None),
    "s_cselect_b64": lambda a, b, c: (a if c else b, None),
    "s_lshl_b32": lambda a, b, c: (r := (a << (b & 31)) & MASK32, int(r != 0)),
    "s_lshl_b64": lambda a, b, c: (r := (a << (b & 63)) & M64, int(r != 0)),
    "s_lshr_b32": lambda a, b, c: (r := a >> (b & 31), int(r != 0)),
    "s_lshr_b64": lambda a, b, c: (r := a >> (b & 63), int(r != 0)),
    "s_ashr_i32": lambda a, b, c: (r := (s32(a) >> (b & 31)) & MASK32, int(r != 0)),
    "s_ashr_i64": lambda a, b, c: (r := (s64(a) >> (b & 63)) & M64, int(r != 0)),
    "s_lshl1_add_u32": lambda a, b, c: ((t := (a << 1) + b) & MASK32, int(t > MASK32)),
    "s_lshl2_add_u32": lambda a, b, c: ((t := (a << 2) + b) & MASK32, int(t > MASK32)),
    "s_lshl3_add_u32": lambda a, b, c: ((t := (a << 3) + b) & MASK32, int(t > MASK32)),
    "s_lshl4_add_u32": lambda a, b, c: ((t := (a << 4) + b) & MASK32, int(t > MASK32)),
    "s_mul_i32": lambda a, b, c: ((s32(a) * s32(b)) & MASK32, None),
    "s_mul_hi_u32": lambda a, b, c: ((a * b) >> 32, None),
    "s_mul_hi_i32": lambda a, b, c: (((s32(a) * s32(b)) >> 32) & MASK32, None),
    "s_bfm_b32": lambda a, b, c: ((((1 << (a & 31)) - 1) << (b & 31)) & MASK32, None),
    "s_bfm_b64": lambda a, b, c: ((((1 << (a & 63)) - 1) << (b & 63)) & M64, None),
    "s_bfe_u32": lambda a, b, c: (r := _bfe_u(a, b, 32), int(r != 0)),
    "s_bfe_i32": lambda a, b, c: (r := _bfe_i(a, b, 32), int(r != 0)),
    "s_bfe_u64": lambda a, b, c: (r := _bfe_u(a, b, 64), int(r != 0)),
    "s_bfe_i64": lambda a, b, c: (r := _bfe_i(a, b, 64), int(r != 0)),
    "s_pack_ll_b32_b16": lambda a, b, c: ((a & 0xFFFF) | (b & 0xFFFF) << 16, None),
    "s_pack_lh_b32_b16": lambda a, b, c: ((a & 0xFFFF) | (b & 0xFFFF0000), None),
    "s_pack_hl_b32_b16": lambda a, b, c: (a >> 16 | (b & 0xFFFF) << 16, None),
    "s_pack_hh_b32_b16": lambda a, b, c: (a >> 16 | (b & 0xFFFF0000), None),
}
for _w, _m in (("b32", MASK32), ("b64", M64)):
    SOP2.update({
        f"s_and_{_w}": lambda a, b, c, m=_m: (r := a & b, int(r != 0)),
        f"s_or_{_w}": lambda a, b, c, m=_m: (r := a | b, int(r != 0)),
        f"s_xor_{_w}": lambda a, b, c, m=_m: (r := a ^ b, int(r != 0)),
        f"s_and_not1_{_w}": lambda a, b, c, m=_m: (r := a & ~b & m, int(r != 0)),
        f"s_or_not1_{_w}": lambda a, b, c, m=_m: (r := (a | ~b) & m, int(r != 0)),
        f"s_nand_{_w}": lambda a, b, c, m=_m: (r := ~(a & b) & m, int(r != 0)),
        f"s_nor_{_w}": lambda a, b, c, m=_m: (r := ~(a | b) & m, int(r != 0)),
        f"s_xnor_{_w}": lambda a, b, c, m=_m: (r := ~(a ^ b) & m, int(r != 0)),
    })

# --- SOP1 plain: name -> f(a, scc) -> (result, scc or None) ---------------------------
SOP1: dict[str, Callable[[int, int], tuple[int, int | None]]] = {
    "s_mov_b32": lambda a, c: (a, None),
    "s_mov_b64": lambda a, c: (a, None),
    "s_not_b32": lambda a, c: (r := ~a & MASK32, int(r != 0)),
    "s_not_b64": lambda a, c: (r := ~a & M64, int(r != 0)),
    "s_wqm_b32": lambda a, c: (r := _wqm(a, 32), int(r != 0)),
    "s_wqm_b64": lambda a, c: (r := _wqm(a, 64), int(r != 0)),
    "s_brev_b32": lambda a, c: (_brev(a, 32), None),
    "s_brev_b64": lambda a, c: (_brev(a, 64), None),
    "s_bcnt0_i32_b32": lambda a, c: (r := 32 - _popcount(a), int(r != 0)),
    "s_bcnt0_i32_b64": lambda a, c: (r := 64 - _popcount(a), int(r != 0)),
    "s_bcnt1_i32_b32": lambda a, c: (r := _popcount(a), int(r != 0)),
    "s_bcnt1_i32_b64": lambda a, c: (r := _popcount(a), int(r != 0)),
    "s_ctz_i32_b32": lambda a, c: (_ctz(a) & MASK32, None),
    "s_ctz_i32_b64": lambda a, c: (_ctz(a) & MASK32, None),
    "s_clz_i32_u32": lambda a, c: (_clz(a, 32) & MASK32, None),
    "s_clz_i32_u64": lambda a, c: (_clz(a, 64) & MASK32, None),
    "s_cls_i32": lambda a, c: (_cls(a, 32) & MASK32, None),
    "s_cls_i32_i64": lambda a, c: (_cls(a, 64) & MASK32, None),
    "s_sext_i32_i8": lambda a, c: (sext(a, 8) & MASK32, None),
    "s_sext_i32_i16": lambda a, c: (sext(a, 16) & MASK32, None),
    "s_abs_i32": lambda a, c: (r := abs(s32(a)) & MASK32, int(r != 0)),
    "s_quadmask_b32": lambda a, c: (r := _quadmask(a, 32), int(r != 0)),
    "s_quadmask_b64": lambda a, c: (r := _quadmask(a, 64), int(r != 0)),
    "s_bitreplicate_b64_b32": lambda a, c: (
        sum(((a >> k) & 1) * (3 << (2 * k)) for k in range(32)), None),
}

# saveexec family: new exec = f(s0, exec); sdst = old exec; SCC = new exec != 0.
SAVEEXEC: dict[str, Callable[[int, int, int], int]] = {
    "and_saveexec": lambda s, e, m: s & e,
    "or_saveexec": lambda s, e, m: s | e,
    "xor_saveexec": lambda s, e, m: s ^ e,
    "nand_saveexec": lambda s, e, m: ~(s & e) & m,
    "nor_saveexec": lambda s, e, m: ~(s | e) & m,
    "xnor_saveexec": lambda s, e, m: ~(s ^ e) & m,
    "and_not0_saveexec": lambda s, e, m: ~s & e & m,
    "and_not1_saveexec": lambda s, e, m: s & ~e & m,
    "or_not0_saveexec": lambda s, e, m: (~s | e) & m,
    "or_not1_saveexec": lambda s, e, m: (s | ~e) & m,
}

SOPC: dict[str, Callable[[int, int], bool]] = {
    "s_cmp_eq_i32": lambda a, b: a == b, "s_cmp_lg_i32": lambda a, b: a != b,
    "s_cmp_gt_i32": lambda a, b: s32(a) > s32(b), "s_cmp_ge_i32": lambda a, b: s32(a) >= s32(b),
    "s_cmp_lt_i32": lambda a, b: s32(a) < s32(b), "s_cmp_le_i32": lambda a, b: s32(a) <= s32(b),
    "s_cmp_eq_u32": lambda a, b: a == b, "s_cmp_lg_u32": lambda a, b: a != b,
    "s_cmp_gt_u32": lambda a, b: a > b, "s_cmp_ge_u32": lambda a, b: a >= b,
    "s_cmp_lt_u32": lambda a, b: a < b, "s_cmp_le_u32": lambda a, b: a <= b,
    "s_cmp_eq_u64": lambda a, b: a == b, "s_cmp_lg_u64": lambda a, b: a != b,
    "s_bitcmp0_b32": lambda a, b: not a >> (b & 31) & 1,
    "s_bitcmp1_b32": lambda a, b: bool(a >> (b & 31) & 1),
    "s_bitcmp0_b64": lambda a, b: not a >> (b & 63) & 1,
    "s_bitcmp1_b64": lambda a, b: bool(a >> (b & 63) & 1),
}


def _spec_bits(info_op: object, wave: int) -> int:
    bits = getattr(info_op, "bits", 32)
    if getattr(info_op, "kind", "") == "sreg_wave":
        return wave
    return bits


def _src(i: Inst, name: str) -> tuple[int, int, str]:
    spec = i.info.operand(name)
    if spec is None:
        raise EmuError(f"{i.where()}: no operand {name}")
    return i.f[name], spec.bits, spec.type


# --- fast handlers: operands resolved at bind time -----------------------------------------
def _sexpr(code: int, bits: int, typ: str, lit: int | None, env: dict[str, object],
           n: int) -> str | None:
    """A Python expression over `s` (the wave's SGPR list) giving what `sread` gives for
    this source: an SGPR (pair), or a constant bound in `env` as ``k<n>``; None for the
    sources `sread` computes from other state (SCC, VCCZ, EXECZ) or wider ones."""
    if code == NULL:
        return "0"
    if code < INLINE_INT_ZERO:
        if bits <= 32:
            return f"s[{code}]"
        if bits == 64 and code + 1 < INLINE_INT_ZERO and code + 1 != NULL:
            return f"(s[{code}] | s[{code + 1}] << 32)"
        return None
    if code in (SCC, VCCZ, EXECZ):
        return None
    try:
        v = const_value(code, bits, typ, lit)
    except EmuError:
        return None
    if v is None:
        return None
    env[f"k{n}"] = v
    return f"k{n}"


def _sdest(code: int, bits: int) -> list[str] | None:
    """Statements writing ``r`` as `swrite` does (NULL dropped); None when not simple."""
    if code >= INLINE_INT_ZERO or bits not in (32, 64):
        return None
    halves = 1 if bits == 32 else 2
    return [f"s[{code + k}] = r >> {32 * k} & {MASK32}" if k else f"s[{code}] = r & {MASK32}"
            for k in range(halves) if code + k < INLINE_INT_ZERO and code + k != NULL]


_MAKERS: dict[str, Callable[..., Handler]] = {}


def _fast_scalar(kind: str, fn: Callable[..., object], srcs: list[tuple[int, int, str]],
                 lit: int | None, dst: tuple[int, int] | None) -> Handler | None:
    """A SOP2/SOP1 (`kind` "op": ``r, scc = fn(*srcs, scc)``, written to `dst`) or SOPC
    ("cmp": ``scc = fn(*srcs)``) handler with its sources read straight from the SGPR list
    or bound as constants, compiled once per shape; None when a source or the destination
    is not simple (the caller keeps the general handler)."""
    env: dict[str, object] = {}
    args = []
    for n, (code, bits, typ) in enumerate(srcs):
        e = _sexpr(code, bits, typ, lit, env, n)
        if e is None:
            return None
        args.append(e)
    if kind == "cmp":
        body = [f"w.scc = int(fn({', '.join(args)}))"]
    else:
        assert dst is not None
        writes = _sdest(*dst)
        if writes is None:
            return None
        body = [f"r, scc = fn({', '.join(args)}, w.scc)", *writes,
                "if scc is not None:", "    w.scc = scc"]
    consts = sorted(env)
    src = "\n".join([f"def make(fn, {', '.join(['_'] + consts)}):",
                     "    def h(w, i):",
                     "        s = w.s",
                     *(f"        {ln}" for ln in body),
                     "    return h"]) + "\n"
    mk = _MAKERS.get(src)
    if mk is None:
        g: dict[str, object] = {}
        exec(compile(src, "<radcc.emu fast SALU>", "exec"), g)  # noqa: S102
        mk = _MAKERS[src] = g["make"]  # type: ignore[assignment]
    return mk(fn, None, *(env[k] for k in consts))


# --- handler builders -----------------------------------------------------------------
def _bind_sop2(i: Inst) -> Handler:
    fn = SOP2[i.name]
    c0, b0, t0 = _src(i, "ssrc0")
    c1, b1, t1 = _src(i, "ssrc1")
    dst = i.f["sdst"]
    db = i.info.defs[0].bits
    lit = i.f.get("literal")
    fast = _fast_scalar("op", fn, [(c0, b0, t0), (c1, b1, t1)], lit, (dst, db))
    if fast is not None:
        return fast

    def h(w: Wave, i: Inst) -> None:
        r, scc = fn(sread(w, c0, b0, t0, lit), sread(w, c1, b1, t1, lit), w.scc)
        swrite(w, dst, r, db)
        if scc is not None:
            w.scc = scc
    return h


def _bind_sop1(i: Inst) -> Handler:
    name = i.name
    dst = i.f.get("sdst", 0)
    lit = i.f.get("literal")
    src = i.info.operand("ssrc0")
    c0, b0, t0 = (i.f["ssrc0"], src.bits, src.type) if src else (0, 32, "")
    wide = name.endswith("_b64")
    if name in SOP1:
        fn = SOP1[name]
        db = i.info.defs[0].bits
        fast = _fast_scalar("op", fn, [(c0, b0, t0)], lit, (dst, db)) if src else None
        if fast is not None:
            return fast

        def h(w: Wave, i: Inst) -> None:
            r, scc = fn(sread(w, c0, b0, t0, lit), w.scc)
            swrite(w, dst, r, db)
            if scc is not None:
                w.scc = scc
        return h
    for key, f in SAVEEXEC.items():
        if name in (f"s_{key}_b32", f"s_{key}_b64"):
            def hs(w: Wave, i: Inst, f: Callable[[int, int, int], int] = f) -> None:
                s0 = sread(w, c0, b0, t0, lit)
                old = w.exec
                new = f(s0, old, w.full) & w.full
                swrite(w, dst, old, 64 if wide else 32)
                w.exec = new
                w.scc = int(new != 0)
            return hs
        wr = key.replace("saveexec", "wrexec")
        if name in (f"s_{wr}_b32", f"s_{wr}_b64"):
            def hw(w: Wave, i: Inst, f: Callable[[int, int, int], int] = f) -> None:
                new = f(sread(w, c0, b0, t0, lit), w.exec, w.full) & w.full
                w.exec = new
                swrite(w, dst, new, 64 if wide else 32)
                w.scc = int(new != 0)
            return hw
    if name in ("s_cmov_b32", "s_cmov_b64"):
        def hc(w: Wave, i: Inst) -> None:
            if w.scc:
                swrite(w, dst, sread(w, c0, b0, t0, lit), 64 if wide else 32)
        return hc
    if name.startswith("s_bitset"):
        val = int(name[8])

        def hb(w: Wave, i: Inst) -> None:
            bit = sread(w, c0, 32, "", lit) & (63 if wide else 31)
            old = sread(w, dst, 64 if wide else 32)
            new = old | 1 << bit if val else old & ~(1 << bit)
            swrite(w, dst, new, 64 if wide else 32)
        return hb
    if name == "s_getpc_b64":
        def hg(w: Wave, i: Inst) -> None:
            swrite(w, dst, i.pc + i.size, 64)
        return hg
    if name == "s_setpc_b64":
        def hp(w: Wave, i: Inst) -> None:
            w.pc = sread(w, c0, 64)
        return hp
    if name == "s_swappc_b64":
        def hsw(w: Wave, i: Inst) -> None:
            target = sread(w, c0, 64, t0, lit)
            swrite(w, dst, i.pc + i.size, 64)
            w.pc = target
        return hsw
    if name in ("s_movrels_b32", "s_movrels_b64", "s_movreld_b32", "s_movreld_b64"):
        n = 64 if wide else 32

        def hm(w: Wave, i: Inst) -> None:
            m0 = w.s[M0]
            if name.startswith("s_movrels"):
                swrite(w, dst, sread(w, c0 + m0, n), n)
            else:
                swrite(w, dst + m0, sread(w, c0, n, t0, lit), n)
        return hm
    raise UnsupportedInstruction(f"{i.where()}: SOP1 {name} is not supported")


def _bind_sopc(i: Inst) -> Handler:
    fn = SOPC[i.name]
    c0, b0, t0 = _src(i, "ssrc0")
    c1, b1, t1 = _src(i, "ssrc1")
    lit = i.f.get("literal")
    fast = _fast_scalar("cmp", fn, [(c0, b0, t0), (c1, b1, t1)], lit, None)
    if fast is not None:
        return fast

    def h(w: Wave, i: Inst) -> None:
        w.scc = int(fn(sread(w, c0, b0, t0, lit), sread(w, c1, b1, t1, lit)))
    return h


def _bind_sopk(i: Inst) -> Handler:
    name = i.name
    dst = i.f["sdst"]
    imm = i.f["simm16"]
    simm = sext(imm, 16)
    if name == "s_movk_i32":
        return lambda w, i: swrite(w, dst, simm)
    if name == "s_cmovk_i32":
        def hc(w: Wave, i: Inst) -> None:
            if w.scc:
                swrite(w, dst, simm)
        return hc
    if name.startswith("s_cmpk_"):
        fn = SOPC["s_cmp_" + name[7:]]
        k = imm if name.endswith("u32") else simm & MASK32
        return lambda w, i: setattr(w, "scc", int(fn(w.s[dst] if dst < 128 else 0, k)))
    if name == "s_addk_i32":
        def ha(w: Wave, i: Inst) -> None:
            a = s32(w.s[dst])
            r = a + simm
            w.scc = int(not -2**31 <= r < 2**31)
            swrite(w, dst, r)
        return ha
    if name == "s_mulk_i32":
        return lambda w, i: swrite(w, dst, s32(w.s[dst]) * simm)
    if name == "s_getreg_b32":
        hw, off, size = imm & 0x3F, imm >> 6 & 0x1F, (imm >> 11 & 0x1F) + 1
        return lambda w, i: swrite(w, dst, w.get_hwreg(hw) >> off & ((1 << size) - 1))
    if name in ("s_setreg_b32", "s_setreg_imm32_b32"):
        hw, off, size = imm & 0x3F, imm >> 6 & 0x1F, (imm >> 11 & 0x1F) + 1
        mask = ((1 << size) - 1) << off
        lit = i.f.get("literal", 0)

        def hs(w: Wave, i: Inst) -> None:
            v = lit if name == "s_setreg_imm32_b32" else sread(w, dst)
            w.set_hwreg(hw, v << off, mask)
        return hs
    if name == "s_call_b64":
        def hcall(w: Wave, i: Inst) -> None:
            swrite(w, dst, i.pc + 4, 64)
            w.pc = i.pc + 4 + simm * 4
        return hcall
    if name == "s_version":
        return lambda w, i: None
    if name.startswith("s_waitcnt_"):
        return _bind_waitcnt_k(i)
    raise UnsupportedInstruction(f"{i.where()}: SOPK {name} is not supported")


def _bind_waitcnt_k(i: Inst) -> Handler:
    which = i.name[len("s_waitcnt_"):]
    sreg = i.f["sdst"]
    imm = i.f["simm16"]

    def h(w: Wave, i: Inst) -> None:
        n = imm | (sread(w, sreg) if sreg != NULL else 0)
        if w.strict is not None:
            w.strict.waitcnt(w, i, **{which: n})
    return h


def waitcnt_fields(simm16: int, gfx: GfxLevel = GfxLevel.GFX11) -> dict[str, int]:
    """Every counter of an s_waitcnt SIMM16 in `gfx`'s layout (the ISA layer's
    `waitcnt_layout`; GFX11: VMcnt[15:10], LGKMcnt[9:4], EXPcnt[2:0], ISA 5.6; GFX10:
    VMcnt[15:14,3:0], LGKMcnt[13:8], EXPcnt[6:4], RDNA2 guide 4.4)."""
    lay = waitcnt_layout(gfx)
    return {name: lay.get(simm16, name) for name in lay.pieces}


def _branch(cond: Callable[[Wave], bool] | None, i: Inst) -> Handler:
    target = i.pc + 4 + sext(i.f["simm16"], 16) * 4

    def h(w: Wave, i: Inst) -> None:
        if cond is None or cond(w):
            w.pc = target
    return h


BRANCH_CONDS: dict[str, Callable[[Wave], bool] | None] = {
    "s_branch": None,
    "s_cbranch_scc0": lambda w: w.scc == 0,
    "s_cbranch_scc1": lambda w: w.scc == 1,
    "s_cbranch_vccz": lambda w: w.vcc == 0,
    "s_cbranch_vccnz": lambda w: w.vcc != 0,
    "s_cbranch_execz": lambda w: w.exec == 0,
    "s_cbranch_execnz": lambda w: w.exec != 0,
    "s_cbranch_cdbgsys": lambda w: False,
    "s_cbranch_cdbguser": lambda w: False,
    "s_cbranch_cdbgsys_or_user": lambda w: False,
    "s_cbranch_cdbgsys_and_user": lambda w: False,
}
_SOPP_NOPS = frozenset({
    "s_nop", "s_clause", "s_delay_alu", "s_sendmsg", "s_sendmsghalt", "s_set_inst_prefetch_distance",
    "s_setprio", "s_sleep", "s_icache_inv", "s_incperflevel", "s_decperflevel", "s_ttracedata",
    "s_ttracedata_imm", "s_wait_event", "s_wait_idle", "s_wakeup", "s_setkill",
})


def _bind_sopp(i: Inst) -> Handler:
    name = i.name
    if name in BRANCH_CONDS:
        return _branch(BRANCH_CONDS[name], i)
    if name in _SOPP_NOPS:
        return no_effect(lambda w, i: None)
    if name == "s_waitcnt":
        counts = waitcnt_fields(i.f["simm16"], i.gfx)

        def hw(w: Wave, i: Inst) -> None:
            if w.strict is not None:
                w.strict.waitcnt(w, i, **counts)
        return hw
    if name == "s_waitcnt_depctr":
        imm = i.f["simm16"]

        def hd(w: Wave, i: Inst) -> None:
            if w.strict is not None:
                w.strict.depctr(w, i, imm)
        return hd
    if name in ("s_endpgm", "s_endpgm_saved"):
        def he(w: Wave, i: Inst) -> None:
            w.done = True
        return ends_block(he)
    if name == "s_barrier":
        def hb(w: Wave, i: Inst) -> None:
            if w.strict is not None:
                w.strict.barrier(i)
            w.at_barrier = True
        return ends_block(hb)
    if name == "s_round_mode":
        imm = i.f["simm16"] & 0xF
        return lambda w, i: setattr(w, "mode", (w.mode & ~0xF) | imm)
    if name == "s_denorm_mode":
        imm = i.f["simm16"] & 0xF
        return lambda w, i: setattr(w, "mode", (w.mode & ~0xF0) | imm << 4)
    if name in ("s_trap", "s_sethalt"):
        def ht(w: Wave, i: Inst) -> None:
            raise EmuError(f"{i.where()}: the wave executed {name} (no trap handler)")
        return ht
    if name == "s_code_end":
        def hce(w: Wave, i: Inst) -> None:
            raise EmuError(f"{i.where()}: executed s_code_end (ran past the end of the code)")
        return hce
    raise UnsupportedInstruction(f"{i.where()}: SOPP {name} is not supported")


BINDERS: dict[str, Callable[[Inst], Handler]] = {
    "SOP2": _bind_sop2, "SOP1": _bind_sop1, "SOPC": _bind_sopc, "SOPK": _bind_sopk,
    "SOPP": _bind_sopp,
}

__all__ = ["BINDERS", "EXEC_LO", "waitcnt_fields"]
