"""DS (LDS/GDS) encoding, ISA guide section 15.6.1.

Fields: OFFSET0 [7:0], OFFSET1 [15:8] (one 16-bit offset for most opcodes),
GDS [17], OP [25:18], ENCODING [31:26]=0b110110; ADDR [39:32], DATA0
[47:40], DATA1 [55:48], VDST [63:56]. Operands come from the table entry
(which field, how many dwords); unused fields must be zero unless the entry
lists them in ``ignored_fields``. ``ds_swizzle_b32`` prints and accepts the
symbolic ``offset:swizzle(...)`` forms. The layout is the same on GFX10/10.3
(RDNA1/RDNA2 DS microcode format); there the GWS opcodes need an explicit
``gds`` (llvm-mc: "too few operands"), GFX11 adds it implicitly.
"""

from __future__ import annotations

from radcc.isa.errors import AsmError
from radcc.isa.formats.base import Context, Decoded, Encoded, Format, register, u32
from radcc.isa.formats.mem_common import (
    MemInst,
    bad_mod,
    expect_count,
    int_mod,
    is_gfx10,
    parse_mem,
    vgpr,
    vtext,
)
from radcc.isa.lexer import IDENT, STRING, Token
from radcc.isa.syntax import ParsedInst
from radcc.isa.table import OpInfo

ENC = 0b110110
_SHIFT = {"addr": 0, "data0": 8, "data1": 16, "vdst": 24}

# --- ds_swizzle_b32 offsets ---------------------------------------------------------
_QUAD_PERM_ENC = 0x8000


def swizzle_text(imm: int) -> str | None:
    """Symbolic swizzle(...) of a ds_swizzle offset, or None (printed as a number)."""
    if imm & 0xFF00 == _QUAD_PERM_ENC:
        lanes = [(imm >> (2 * i)) & 3 for i in range(4)]
        return "swizzle(QUAD_PERM," + ",".join(map(str, lanes)) + ")"
    if imm & 0x8000:
        return None
    and_m, or_m, xor_m = imm & 0x1F, (imm >> 5) & 0x1F, (imm >> 10) & 0x1F
    if and_m == 0x1F and or_m == 0 and bin(xor_m).count("1") == 1:
        return f"swizzle(SWAP,{xor_m})"
    if and_m == 0x1F and or_m == 0 and xor_m > 0 and (xor_m + 1) & xor_m == 0:
        return f"swizzle(REVERSE,{xor_m + 1})"
    group = 0x1F - and_m + 1
    if group > 1 and group & (group - 1) == 0 and or_m < group and xor_m == 0:
        return f"swizzle(BROADCAST,{group},{or_m})"
    s = ""
    for k in range(4, -1, -1):
        mk = 1 << k
        p0 = ((0 & and_m) | or_m) ^ xor_m
        p1 = ((0x1F & and_m) | or_m) ^ xor_m
        a, b = p0 & mk, p1 & mk
        s += "1" if a and b else "0" if not a and not b else "p" if not a else "i"
    return f'swizzle(BITMASK_PERM,"{s}")'


def swizzle_value(args: list[Token | int], col: int) -> int:
    """Encode the arguments of offset:swizzle(MODE, ...)."""
    if not args or not isinstance(args[0], Token) or args[0].kind != IDENT:
        raise AsmError("expected a swizzle mode", col)
    mode = args[0].text  # (upper case only, as llvm-mc-19)
    if mode not in ("QUAD_PERM", "BITMASK_PERM", "BROADCAST", "SWAP", "REVERSE"):
        raise AsmError("expected a swizzle mode", args[0].col)
    nums = [a for a in args[1:] if isinstance(a, int)]

    def need(n: int) -> None:
        if len(args) - 1 != n or len(nums) != n:
            raise AsmError("expected a comma", col)

    if mode == "QUAD_PERM":
        need(4)
        if any(not 0 <= x <= 3 for x in nums):
            raise AsmError("expected a 2-bit lane id", col)
        return _QUAD_PERM_ENC | sum(x << (2 * i) for i, x in enumerate(nums))
    if mode == "BITMASK_PERM":
        if len(args) != 2 or not isinstance(args[1], Token) or args[1].kind != STRING:
            raise AsmError("expected a string", col)
        ctl = str(args[1].value)
        if len(ctl) != 5:
            raise AsmError("expected a 5-character mask", args[1].col)
        if any(c not in "01pi" for c in ctl):  # (lower case only, as llvm-mc-19)
            raise AsmError("invalid mask", args[1].col)
        and_m = or_m = xor_m = 0
        for i, c in enumerate(ctl):
            mk = 1 << (4 - i)
            if c == "1":
                or_m |= mk
            elif c == "p":
                and_m |= mk
            elif c == "i":
                and_m |= mk
                xor_m |= mk
        return and_m | (or_m << 5) | (xor_m << 10)
    if mode == "BROADCAST":
        need(2)
        size, lane = nums
        if size < 2 or size > 32 or size & (size - 1):
            raise AsmError("group size must be a power of two", col)
        if not 0 <= lane < size:
            raise AsmError("lane id must be in the interval [0,group size - 1]", col)
        return ((0x1F - size + 1) & 0x1F) | (lane << 5)
    if mode == "SWAP":
        need(1)
        (size,) = nums
        if size < 1 or size > 16 or size & (size - 1):
            raise AsmError("group size must be a power of two", col)
        return 0x1F | (size << 10)
    if mode == "REVERSE":
        need(1)
        (size,) = nums
        if size < 2 or size > 32 or size & (size - 1):
            raise AsmError("group size must be a power of two", col)
        return 0x1F | ((size - 1) << 10)
    raise AsmError("expected a swizzle mode", col)


class DSFormat(Format):
    name = "DS"
    size = 8

    def encode(self, info: OpInfo, inst: ParsedInst, ctx: Context) -> Encoded:
        mi: MemInst = parse_mem(inst, info.enc)
        ops = info.operands
        expect_count(mi, len(ops), inst.col)
        w1 = 0
        for spec, op in zip(ops, mi.operands, strict=True):
            w1 |= vgpr(op, spec.dwords) << _SHIFT[spec.name]
        allowed = set(info.modifiers)
        if info.extra.get("gds_required"):
            allowed.add("gds")
        bad_mod(mi, allowed)
        w0 = (ENC << 26) | (info.opcode << 18)
        if "offset" in mi.mods:
            m = mi.mods["offset"]
            if isinstance(m.value, tuple):
                if info.name != "ds_swizzle_b32":
                    raise AsmError("expected absolute expression", m.col)
                off = swizzle_value(m.value[1], m.col)
            else:
                off = int_mod(m)
            if not 0 <= off <= 0xFFFF:
                raise AsmError("expected a 16-bit unsigned offset", m.col)
            w0 |= off
        for k, sh in (("offset0", 0), ("offset1", 8)):
            if k in mi.mods:
                off = int_mod(mi.mods[k])
                if not 0 <= off <= 0xFF:
                    raise AsmError("expected an 8-bit unsigned offset", mi.mods[k].col)
                w0 |= off << sh
        if "gds" in mi.mods:
            w0 |= 1 << 17
        elif info.extra.get("gds_required"):
            if is_gfx10(ctx):
                raise AsmError("too few operands for instruction", inst.col)
            w0 |= 1 << 17
        return Encoded(w0.to_bytes(4, "little") + w1.to_bytes(4, "little"))

    def decode(self, data: bytes, pos: int, ctx: Context) -> Decoded | None:
        w0 = u32(data, pos)
        w1 = u32(data, pos + 4)
        if w0 is None or w1 is None:
            return None
        info = ctx.table.decode("DS", ((w0 >> 18) & 0xff))
        if info is None:
            return None
        gds = ((w0 >> 17) & 1)
        if info.extra.get("gds_required") and not gds:
            return None
        if gds and "gds" not in info.modifiers and not info.extra.get("gds_required"):
            return None
        used = {o.name for o in info.operands}
        ignored = set(info.extra.get("ignored_fields", ()))  # type: ignore[arg-type]
        for f, sh in _SHIFT.items():
            if f not in used and f not in ignored and (w1 >> sh) & 0xFF:
                return None
        parts = []
        for o in info.operands:
            idx = (w1 >> _SHIFT[o.name]) & 0xFF
            if idx + o.dwords > 256:
                return None
            parts.append(vtext(idx, o.dwords))
        text = info.printed_name
        if parts:
            text += " " + ", ".join(parts)
        mods = []
        if "offset0" in info.modifiers:
            if w0 & 0xFF:
                mods.append(f"offset0:{w0 & 0xFF}")
            if (w0 >> 8) & 0xFF:
                mods.append(f"offset1:{(w0 >> 8) & 0xFF}")
        elif w0 & 0xFFFF:
            if "offset" not in info.modifiers:
                return None
            off = w0 & 0xFFFF
            sw = swizzle_text(off) if info.name == "ds_swizzle_b32" else None
            mods.append(f"offset:{sw or off}")
        if gds:
            mods.append("gds")
        if mods:
            text += (" " if parts else " ") + " ".join(mods)
        return Decoded(8, text, info, _fields(info, w0, w1))


def _fields(info: OpInfo, w0: int, w1: int) -> dict[str, int]:
    """`Decoded.fields` per docs/machine-layer.md ("Structured decoding");
    `offset` (OFFSET1:OFFSET0 as one 16-bit value) only for the
    single-address forms."""
    f = {"op": info.opcode, **{k: (w1 >> sh) & 0xFF for k, sh in _SHIFT.items()},
         "offset0": w0 & 0xFF, "offset1": (w0 >> 8) & 0xFF, "gds": ((w0 >> 17) & 1)}
    if "offset0" not in info.modifiers:
        f["offset"] = w0 & 0xFFFF
    return f


register(DSFormat(), (0xFC000000, ENC << 26))
