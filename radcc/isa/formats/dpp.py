"""DPP (data parallel primitives) controls of GFX11: DPP16 and DPP8.

Implements the ISA guide's "DPP16" and "DPP8" extra dwords (section 15.3.x,
"VOP_DPP16" / "VOP_DPP8" field tables) as shared by VOP1/VOP2/VOPC (src0 =
0xFA for DPP16, 0xE9/0xEA for DPP8) and the VOP3/VOP3P DPP forms (which
carry the same dword after the 64-bit VOP3 word).

DPP16 dword::

    [7:0]   src0 VGPR           [16:8]  dpp_ctrl
    [18]    fi (fetch inactive) [19]    bound_ctrl
    [20]    src0_neg            [21]    src0_abs
    [22]    src1_neg            [23]    src1_abs
    [27:24] bank_mask           [31:28] row_mask

dpp_ctrl values valid on GFX11: quad_perm 0x000-0x0FF, row_shl 0x101-0x10F,
row_shr 0x111-0x11F, row_ror 0x121-0x12F, row_mirror 0x140,
row_half_mirror 0x141, row_share 0x150-0x15F, row_xmask 0x160-0x16F.

DPP8 dword: [7:0] src0 VGPR, then eight 3-bit lane selectors at [10:8],
[13:11], … [31:29]; fi is the choice of src0 code 0xEA (DPP8FI) over 0xE9.

API (used by ``vop.py`` and by the VOP3/VOP3P families):

- `parse_dpp(mods)`: consume the DPP modifiers of a statement → `(Dpp16 |
  Dpp8 | None, remaining modifiers)`; raises AsmError with llvm-mc's
  messages and columns.
- `Dpp16.word(src0, neg0, abs0, neg1, abs1)` / `Dpp8.word(src0)`: the dword.
- `decode_dpp16(word)` / `decode_dpp8(word, fi)`: dword → (`Dpp16`/`Dpp8`,
  src0 VGPR index, `SrcMods`) (invalid dpp_ctrl values print as comments).
- `Dpp16.text()` / `Dpp8.text()`: llvm-mc's canonical trailing text, e.g.
  ``row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1`` and
  ``dpp8:[7,6,5,4,3,2,1,0] fi:1``.
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.isa.errors import AsmError
from radcc.isa.operands import DPP8, DPP8_FI, DPP16, Modifier

__all__ = [
    "DPP8_CODE",
    "DPP8_FI_CODE",
    "DPP16_CODE",
    "DPP_MODIFIERS",
    "Dpp8",
    "Dpp16",
    "SrcMods",
    "ctrl_text",
    "decode_dpp8",
    "decode_dpp16",
    "is_valid_ctrl",
    "parse_dpp",
]

DPP16_CODE = DPP16  # src0 code 0xFA
DPP8_CODE = DPP8  # src0 code 0xE9
DPP8_FI_CODE = DPP8_FI  # src0 code 0xEA

QUAD_PERM_ID = 0xE4  # quad_perm:[0,1,2,3], the default control
ROW_SHL = 0x100
ROW_SHR = 0x110
ROW_ROR = 0x120
ROW_MIRROR = 0x140
ROW_HALF_MIRROR = 0x141
ROW_SHARE = 0x150
ROW_XMASK = 0x160

# (name, base, value range) of the controls taking a 0..15 argument
_RANGED = {
    "row_shl": (ROW_SHL, 1, 15),
    "row_shr": (ROW_SHR, 1, 15),
    "row_ror": (ROW_ROR, 1, 15),
    "row_share": (ROW_SHARE, 0, 15),
    "row_xmask": (ROW_XMASK, 0, 15),
}
_FLAG_CTRLS = {"row_mirror": ROW_MIRROR, "row_half_mirror": ROW_HALF_MIRROR}
# controls llvm-mc knows but GFX11 lacks ("not a valid operand.")
_UNSUPPORTED = ("wave_shl", "wave_rol", "wave_shr", "wave_ror", "row_bcast", "row_newbcast")

# every modifier name parse_dpp consumes
DPP_MODIFIERS = frozenset(
    ("quad_perm", "dpp8", "row_mask", "bank_mask", "bound_ctrl", "fi", *_RANGED, *_FLAG_CTRLS)
)


@dataclass(frozen=True, slots=True)
class SrcMods:
    """neg/abs bits of src0/src1 carried in the DPP16 dword."""

    neg0: bool = False
    abs0: bool = False
    neg1: bool = False
    abs1: bool = False


def is_valid_ctrl(ctrl: int) -> bool:
    """Whether a 9-bit dpp_ctrl value is a GFX11 DPP16 control."""
    if 0 <= ctrl <= 0xFF:
        return True
    lo = ctrl & 0xF
    hi = ctrl & ~0xF
    if hi in (ROW_SHL, ROW_SHR, ROW_ROR):
        return lo != 0
    if hi in (ROW_SHARE, ROW_XMASK):
        return True
    return ctrl in (ROW_MIRROR, ROW_HALF_MIRROR)


_GFX9_ONLY = {0x130: "wave_shl", 0x134: "wave_rol", 0x138: "wave_shr", 0x13C: "wave_ror",
              0x142: "row_bcast", 0x143: "row_bcast"}


def ctrl_text(ctrl: int) -> str:
    """llvm-mc's spelling of a dpp_ctrl value (``quad_perm:[0,1,2,3]``,
    ``row_shl:1``, ``row_mirror`` …); invalid values print as llvm-mc's
    disassembler comments (``/* Invalid dpp_ctrl value */``)."""
    if not is_valid_ctrl(ctrl):
        if ctrl in _GFX9_ONLY:
            return f"/* {_GFX9_ONLY[ctrl]} is not supported starting from GFX10 */"
        return "/* Invalid dpp_ctrl value */"
    if ctrl <= 0xFF:
        q = [(ctrl >> (2 * i)) & 3 for i in range(4)]
        return f"quad_perm:[{q[0]},{q[1]},{q[2]},{q[3]}]"
    if ctrl == ROW_MIRROR:
        return "row_mirror"
    if ctrl == ROW_HALF_MIRROR:
        return "row_half_mirror"
    for name, (base, _lo, _hi) in _RANGED.items():
        if ctrl & ~0xF == base:
            return f"{name}:{ctrl & 0xF}"
    raise ValueError(f"invalid dpp_ctrl {ctrl:#x}")


@dataclass(frozen=True, slots=True)
class Dpp16:
    """A DPP16 control: dpp_ctrl, row/bank masks, bound_ctrl and fi."""

    ctrl: int = QUAD_PERM_ID
    row_mask: int = 0xF
    bank_mask: int = 0xF
    bound_ctrl: bool = False
    fi: bool = False

    def word(self, src0: int, mods: SrcMods | None = None) -> int:
        """The DPP16 dword; `src0` is the VGPR index (0-255)."""
        m = mods or SrcMods()
        return (
            (src0 & 0xFF)
            | (self.ctrl & 0x1FF) << 8
            | int(self.fi) << 18
            | int(self.bound_ctrl) << 19
            | int(m.neg0) << 20
            | int(m.abs0) << 21
            | int(m.neg1) << 22
            | int(m.abs1) << 23
            | (self.bank_mask & 0xF) << 24
            | (self.row_mask & 0xF) << 28
        )

    def text(self) -> str:
        """Trailing text as llvm-mc prints it after the operands."""
        s = f"{ctrl_text(self.ctrl)} row_mask:{self.row_mask:#x} bank_mask:{self.bank_mask:#x}"
        if self.bound_ctrl:
            s += " bound_ctrl:1"
        if self.fi:
            s += " fi:1"
        return s


@dataclass(frozen=True, slots=True)
class Dpp8:
    """A DPP8 control: eight lane selectors (0-7) and fi."""

    sel: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)
    fi: bool = False

    @property
    def src0_code(self) -> int:
        """The src0 field value selecting DPP8 (0xE9) or DPP8 with fi (0xEA)."""
        return DPP8_FI_CODE if self.fi else DPP8_CODE

    def word(self, src0: int) -> int:
        """The DPP8 dword; `src0` is the VGPR index (0-255)."""
        w = src0 & 0xFF
        for i, s in enumerate(self.sel):
            w |= (s & 7) << (8 + 3 * i)
        return w

    def text(self) -> str:
        s = "dpp8:[" + ",".join(str(x) for x in self.sel) + "]"
        return s + " fi:1" if self.fi else s


def decode_dpp16(word: int) -> tuple[Dpp16, int, SrcMods]:
    """Split a DPP16 dword into (control, src0 VGPR index, source modifiers).

    An invalid dpp_ctrl is kept (llvm-mc's disassembler still prints the
    instruction, with a comment in place of the control: see `ctrl_text`)."""
    ctrl = (word >> 8) & 0x1FF
    d = Dpp16(
        ctrl=ctrl,
        row_mask=(word >> 28) & 0xF,
        bank_mask=(word >> 24) & 0xF,
        bound_ctrl=bool(word >> 19 & 1),
        fi=bool(word >> 18 & 1),
    )
    m = SrcMods(bool(word >> 20 & 1), bool(word >> 21 & 1), bool(word >> 22 & 1),
                bool(word >> 23 & 1))
    return d, word & 0xFF, m


def decode_dpp8(word: int, fi: bool) -> tuple[Dpp8, int]:
    """Split a DPP8 dword into (control, src0 VGPR index)."""
    sel = tuple((word >> (8 + 3 * i)) & 7 for i in range(8))
    return Dpp8(sel, fi), word & 0xFF


# --- parsing -------------------------------------------------------------------


def _int_value(m: Modifier) -> int:
    if not isinstance(m.value, int) or isinstance(m.value, bool):
        raise AsmError("expected absolute expression", m.col + len(m.name) + 1)
    return m.value


def parse_dpp(mods: list[Modifier], *, legacy_bound_ctrl: bool = False,
              ) -> tuple[Dpp16 | Dpp8 | None, list[Modifier]]:
    """Consume the DPP modifiers of a statement.

    Returns the DPP control (None when the statement has no DPP modifier)
    and the other modifiers, in order. llvm-mc's rules: the control
    (``quad_perm``/``row_*``/``dpp8``) comes first, then optionally
    ``row_mask``, ``bank_mask``, ``bound_ctrl``, ``fi`` in that order, each
    at most once (DPP8 takes only ``fi``). Masks are truncated to 4 bits,
    ``fi`` to one bit; ``bound_ctrl:1`` sets the bit, ``bound_ctrl:0`` is
    accepted and leaves it clear on GFX11, but sets it too with
    `legacy_bound_ctrl` (GFX10: llvm-mc-19 -mcpu=gfx1010/gfx1030 encode
    ``bound_ctrl:0`` as BOUND_CTRL=1 and print it back as ``bound_ctrl:1``). ``fi:1`` with ``dpp8`` selects DPP8FI.

    Raises AsmError with llvm-mc's message for malformed or out-of-range
    values, misordered modifiers and GFX11-unsupported controls.
    """
    rest: list[Modifier] = []
    ctrl: int | None = None
    dpp8: tuple[int, ...] | None = None
    row_mask = bank_mask = 0xF
    bound = fi = False
    last = -1  # order index of the last DPP modifier seen
    for m in mods:
        n = m.name
        if n in _UNSUPPORTED:
            raise AsmError("not a valid operand.", m.col)
        if n not in DPP_MODIFIERS:
            rest.append(m)
            continue
        vcol = m.col + len(n) + 1
        order = _ORDER.get(n, 0)
        if order <= last or (order > 0 and last < 0):
            if order >= 3 and last >= 0 or (dpp8 is not None and order in (1, 2)):
                raise AsmError("invalid operand for instruction", m.col)
            raise AsmError("not a valid operand.", m.col)
        if dpp8 is not None and order in (1, 2, 3):
            raise AsmError("invalid operand for instruction", m.col)
        last = order
        if n == "quad_perm":
            ctrl = sum(x << (2 * i) for i, x in enumerate(_lanes(m, 4, 3)))
        elif n == "dpp8":
            dpp8 = tuple(_lanes(m, 8, 7))
        elif n in _RANGED:
            base, lo, hi = _RANGED[n]
            val = _int_value(m)
            if not lo <= val <= hi:
                raise AsmError(f"invalid {n} value", vcol)
            ctrl = base | val
        elif n in _FLAG_CTRLS:
            if m.value is not None:
                raise AsmError("unknown token in expression", vcol)
            ctrl = _FLAG_CTRLS[n]
        elif n == "row_mask":
            row_mask = _int_value(m) & 0xF
        elif n == "bank_mask":
            bank_mask = _int_value(m) & 0xF
        elif n == "bound_ctrl":
            val = _int_value(m)
            if val not in (0, 1):
                raise AsmError("invalid bound_ctrl value.", m.col)
            bound = val == 1 or legacy_bound_ctrl
        elif n == "fi":
            if m.value is None:
                raise AsmError("invalid operand for instruction", m.col)
            fi = bool(_int_value(m) & 1)
    if last < 0:
        return None, rest
    if dpp8 is not None:
        return Dpp8(dpp8, fi), rest
    assert ctrl is not None
    return Dpp16(ctrl, row_mask, bank_mask, bound, fi), rest


_ORDER = {"row_mask": 1, "bank_mask": 2, "bound_ctrl": 3, "fi": 4}


def _lanes(m: Modifier, count: int, maxval: int) -> list[int]:
    vcol = m.col + len(m.name) + 1
    v = m.value
    if not isinstance(v, list):
        raise AsmError("expected an opening square bracket", vcol)
    if len(v) < count:
        raise AsmError("expected a comma", vcol)
    if len(v) > count:
        raise AsmError("expected a closing square bracket", vcol)
    out: list[int] = []
    for x in v:
        if not isinstance(x, int) or not 0 <= x <= maxval:
            raise AsmError(f"expected a {maxval.bit_length()}-bit value", vcol)
        out.append(x)
    return out
