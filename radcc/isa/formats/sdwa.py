"""SDWA (sub-dword addressing) of GFX10's VOP1/VOP2/VOPC: the extra dword.

RDNA1 ISA guide, "SDWA" / "SDWAB" (VOP1/VOP2/VOPC with src0 = 0xF9; GFX11
has no SDWA). Field layout of the second dword (checked against llvm-mc-19
-mcpu=gfx1010/gfx1030):

- [7:0] src0 (register/constant number), [23] s0: src0 is not a VGPR
  (the 9-bit source code is ``s0 ? src0 : 256 + src0``)
- VOP1/VOP2 ("SDWA"): [10:8] dst_sel, [12:11] dst_unused, [13] clamp,
  [15:14] omod
- VOPC ("SDWAB"): [14:8] sdst, [15] sd (0: the result goes to VCC)
- [18:16] src0_sel, [19] src0_sext, [20] src0_neg, [21] src0_abs
- [26:24] src1_sel, [27] src1_sext, [28] src1_neg, [29] src1_abs, [31] s1
  (VOP2/VOPC: the vsrc1 field of the first dword is a scalar code)

Selects: BYTE_0..BYTE_3 = 0..3, WORD_0 = 4, WORD_1 = 5, DWORD = 6;
dst_unused: UNUSED_PAD 0, UNUSED_SEXT 1, UNUSED_PRESERVE 2. llvm-mc's
assembler defaults every select to DWORD and dst_unused to UNUSED_PRESERVE
(VOP1 leaves src1_sel 0); its printer spells every field out in the order
``clamp``, omod, dst_sel, dst_unused, src0_sel, src1_sel.
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.isa.errors import AsmError
from radcc.isa.operands import Modifier

SDWA_CODE = 0xF9
SEL_NAMES = ("BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD")
UNUSED_NAMES = ("UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE")
DWORD = 6
PRESERVE = 2
SDWA_MODIFIERS = frozenset({"dst_sel", "dst_unused", "src0_sel", "src1_sel"})


@dataclass(slots=True)
class Sdwa:
    """The select fields of an SDWA dword (source modifiers live with the operands)."""

    dst_sel: int = DWORD
    dst_unused: int = PRESERVE
    src0_sel: int = DWORD
    src1_sel: int = DWORD


# the order llvm-mc-19 takes an SDWA instruction's modifiers in (its printing order;
# mul:/div: are the omod slot): a modifier after a later one is an invalid operand
_ORDER = ("clamp", "omod", "dst_sel", "dst_unused", "src0_sel", "src1_sel")


def parse_sdwa(mods: list[Modifier], *, vopc: bool, two_src: bool) -> tuple[Sdwa, list[Modifier]]:
    """Consume dst_sel/dst_unused/src0_sel/src1_sel (each at most once, in
    `_ORDER` with clamp and omod, as llvm-mc-19); return the selects and the
    remaining modifiers in order. Select names are upper case, as llvm-mc-19's."""
    s = Sdwa(src1_sel=DWORD if two_src else 0)
    seen: set[str] = set()
    rest: list[Modifier] = []
    last = -1
    for m in mods:
        slot = "omod" if m.name in ("mul", "div") else m.name
        if slot in _ORDER:
            if _ORDER.index(slot) <= last:
                raise AsmError("invalid operand for instruction", m.col)
            last = _ORDER.index(slot)
        if m.name not in SDWA_MODIFIERS:
            rest.append(m)
            continue
        if m.name in seen or (vopc and m.name.startswith("dst_")) or (
                m.name == "src1_sel" and not two_src):
            raise AsmError("invalid operand for instruction", m.col)
        seen.add(m.name)
        names = UNUSED_NAMES if m.name == "dst_unused" else SEL_NAMES
        v = m.value if isinstance(m.value, str) else None
        if v not in names:
            raise AsmError("invalid " + m.name + " value", m.col + len(m.name) + 1)
        setattr(s, m.name, names.index(v))
    return s, rest


def sel_text(name: str, value: int) -> str:
    names = UNUSED_NAMES if name == "dst_unused" else SEL_NAMES
    return f"{name}:{names[value]}"


def valid_sel(value: int) -> bool:
    return 0 <= value <= DWORD
