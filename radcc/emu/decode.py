"""Decode glue: machine code at a PC to an `Inst` the emulator executes.

The disassembler (`radcc.isa.disassembler.decode_one`) identifies the
instruction (`Decoded.info`, the `OpInfo` of the code object's generation's table:
GFX10.1, GFX10.3 or GFX11) and its size. Handlers are chosen by the instruction's
canonical name (`Inst.name`, `OpInfo.canon`: LLVM 19's GFX11 spelling where GFX11
has the instruction, docs/machine-layer.md), so `s_load_dword` runs as `s_load_b32`.
Register fields are logical (GFX11-numbered) codes on every generation: the ISA
layer swaps GFX10's M0 (124) and NULL (125) field values.
Its operand fields come from `Decoded.fields` (docs/machine-layer.md,
"Structured decoding") when the family's decoder fills them; otherwise
`raw_fields` reads them from the raw words here, following the same naming
convention and the field layouts of the ISA guide chapter 15 ("Microcode
formats"): 15.1 scalar ALU/SMEM, 15.3 VOP1/VOP2/VOPC/VOP3/VOP3SD/VOP3P/VOPD,
15.3.5 DPP16/DPP8, 15.6 DS, 15.7 MUBUF/MTBUF, 15.8.1 MIMG, 15.9 FLAT/GLOBAL/SCRATCH.

Each instruction is decoded once and cached by PC (`Program.at`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from radcc.emu.errors import EmuError, UnsupportedInstruction
from radcc.isa.classes import FLAT_LIKE_ENCODINGS, VALU_ENCODINGS
from radcc.isa.disassembler import decode_one
from radcc.isa.formats.base import Context

# the source-operand codes of the DPP markers and the literal (re-exported for emu/)
from radcc.isa.operands import DPP8 as DPP8
from radcc.isa.operands import DPP8_FI as DPP8_FI
from radcc.isa.operands import DPP16 as DPP16
from radcc.isa.operands import LITERAL as LITERAL
from radcc.isa.table import OpInfo, get_table
from radcc.target import GfxLevel, Target

if TYPE_CHECKING:
    from radcc.emu.memory import Memory



@dataclass(slots=True)
class Inst:
    """One decoded instruction, with the handler bound by the executor."""

    pc: int
    size: int
    text: str
    info: OpInfo
    f: dict[str, int]
    words: tuple[int, ...]
    handler: Callable[..., Any] | None = None
    aux: dict[str, Any] = field(default_factory=dict)  # per-instruction precomputation
    use: Any = None  # radcc.emu.use.Use, for strict mode
    count: int = 0  # times executed
    valu: bool = False  # counts VALU lane-instructions (set by the dispatcher's binder)
    # set by the dispatcher's binder for its block executor (radcc.emu.dispatch):
    next_pc: int = 0  # pc + size
    flow: bool = False  # may change the PC or stop the wave: ends a straight-line block
    hz_before: bool = False  # strict hazard checks before execution can apply
    hz_after: bool = False  # strict hazard bookkeeping after execution applies
    hz_trans: bool = False  # hazard checks apply only while a transcendental result is new
    gfx: GfxLevel = GfxLevel.GFX11  # the generation decoded for (semantics that differ)

    @property
    def name(self) -> str:
        """The canonical name (`OpInfo.canon`; the GFX11 spelling where GFX11 has it)."""
        return self.info.canon

    @property
    def enc(self) -> str:
        return self.info.enc

    def where(self) -> str:
        return f"'{self.text}' at pc {self.pc:#x}"


def ends_block(h: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a handler that sets the wave's PC, `done` or `at_barrier` (the dispatcher
    ends a straight-line block after it; branches are known from the opcode class)."""
    h.ends_block = True  # type: ignore[attr-defined]
    return h


def no_effect(h: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a handler that does nothing (s_nop, s_delay_alu, ...): the dispatcher may
    count such an instruction without calling it when strict mode has nothing to
    check for it either."""
    h.no_effect = True  # type: ignore[attr-defined]
    return h


def _sext(v: int, bits: int) -> int:
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def _dpp_fields(f: dict[str, int], w: int) -> None:
    """The DPP16 / DPP8 dword (ISA 15.3.5) into `f`; `src0` becomes the VGPR."""
    if f.get("src0") == DPP16:
        f.update(dpp_ctrl=w >> 8 & 0x1FF, fi=w >> 18 & 1, bound_ctrl=w >> 19 & 1,
                 src0_neg=w >> 20 & 1, src0_abs=w >> 21 & 1, src1_neg=w >> 22 & 1,
                 src1_abs=w >> 23 & 1, bank_mask=w >> 24 & 0xF, row_mask=w >> 28 & 0xF)
        f["src0"] = 256 + (w & 0xFF)
        f["dpp"] = 16
    elif f.get("src0") in (DPP8, DPP8_FI):
        f.update(dpp8=w >> 8 & 0xFFFFFF, fi=int(f["src0"] == DPP8_FI))
        f["src0"] = 256 + (w & 0xFF)
        f["dpp"] = 8


def raw_fields(info: OpInfo, words: list[int]) -> dict[str, int]:
    """The encoding fields of an instruction from its dwords (see module doc)."""
    enc = info.enc
    w0 = words[0]
    w1 = words[1] if len(words) > 1 else 0
    f: dict[str, int] = {"op": info.opcode}
    base = 1
    if enc == "SOP2":
        f.update(ssrc0=w0 & 0xFF, ssrc1=w0 >> 8 & 0xFF, sdst=w0 >> 16 & 0x7F)
    elif enc == "SOPK":
        f.update(sdst=w0 >> 16 & 0x7F, simm16=w0 & 0xFFFF)
    elif enc == "SOP1":
        f.update(ssrc0=w0 & 0xFF, sdst=w0 >> 16 & 0x7F)
    elif enc == "SOPC":
        f.update(ssrc0=w0 & 0xFF, ssrc1=w0 >> 8 & 0xFF)
    elif enc == "SOPP":
        f.update(simm16=w0 & 0xFFFF)
    elif enc == "SMEM":
        base = 2
        f.update(sbase=(w0 & 0x3F) << 1, sdata=w0 >> 6 & 0x7F, glc=w0 >> 14 & 1,
                 dlc=w0 >> 13 & 1, offset=_sext(w1 & 0x1FFFFF, 21), soffset=w1 >> 25)
    elif enc == "VOP1":
        f.update(src0=w0 & 0x1FF, vdst=w0 >> 17 & 0xFF)
    elif enc == "VOP2":
        f.update(src0=w0 & 0x1FF, vsrc1=w0 >> 9 & 0xFF, vdst=w0 >> 17 & 0xFF)
    elif enc == "VOPC":
        f.update(src0=w0 & 0x1FF, vsrc1=w0 >> 9 & 0xFF)
    elif enc in ("VOP3", "VOP3SD", "VOP3P"):
        base = 2
        f.update(vdst=w0 & 0xFF, clamp=w0 >> 15 & 1, src0=w1 & 0x1FF, src1=w1 >> 9 & 0x1FF,
                 src2=w1 >> 18 & 0x1FF, neg=w1 >> 29 & 7)
        if enc == "VOP3":
            f.update(abs=w0 >> 8 & 7, opsel=w0 >> 11 & 0xF, omod=w1 >> 27 & 3)
        elif enc == "VOP3SD":
            f.update(sdst=w0 >> 8 & 0x7F, omod=w1 >> 27 & 3)
        else:
            f.update(neg_hi=w0 >> 8 & 7, opsel=w0 >> 11 & 7,
                     opsel_hi=(w1 >> 27 & 3) | (w0 >> 14 & 1) << 2)
    elif enc == "VOPD":
        base = 2
        vdstx = w1 >> 24
        f.update(opx=w0 >> 22 & 0xF, opy=w0 >> 17 & 0x1F, src0x=w0 & 0x1FF,
                 vsrc1x=w0 >> 9 & 0xFF, src0y=w1 & 0x1FF, vsrc1y=w1 >> 9 & 0xFF,
                 vdstx=vdstx, vdsty=(w1 >> 17 & 0x7F) << 1 | (~vdstx & 1))
    elif enc == "DS":
        base = 2
        f.update(offset0=w0 & 0xFF, offset1=w0 >> 8 & 0xFF, gds=w0 >> 17 & 1,
                 addr=w1 & 0xFF, data0=w1 >> 8 & 0xFF, data1=w1 >> 16 & 0xFF,
                 vdst=w1 >> 24 & 0xFF)
        f["offset"] = f["offset0"] | f["offset1"] << 8
    elif enc in FLAT_LIKE_ENCODINGS:
        base = 2
        off = w0 & 0x1FFF
        f.update(offset=off if enc == "FLAT" else _sext(off, 13), dlc=w0 >> 13 & 1,
                 glc=w0 >> 14 & 1, slc=w0 >> 15 & 1, addr=w1 & 0xFF, data=w1 >> 8 & 0xFF,
                 saddr=w1 >> 16 & 0x7F, sve=w1 >> 23 & 1, vdst=w1 >> 24 & 0xFF)
    elif enc in ("MUBUF", "MTBUF"):
        base = 2
        f.update(offset=w0 & 0xFFF, slc=w0 >> 12 & 1, dlc=w0 >> 13 & 1, glc=w0 >> 14 & 1,
                 vaddr=w1 & 0xFF, vdata=w1 >> 8 & 0xFF, srsrc=(w1 >> 16 & 0x1F) << 2,
                 tfe=w1 >> 21 & 1, offen=w1 >> 22 & 1, idxen=w1 >> 23 & 1, soffset=w1 >> 24)
        if enc == "MTBUF":
            f["format"] = w0 >> 19 & 0x7F
    elif enc == "MIMG":  # 15.8.1 (GFX11): see radcc.emu.texture.mimg_fields
        base = 2 + (w0 & 1)
        f.update(nsa=w0 & 1, dim=w0 >> 2 & 7, unorm=w0 >> 7 & 1, dmask=w0 >> 8 & 0xF,
                 slc=w0 >> 12 & 1, dlc=w0 >> 13 & 1, glc=w0 >> 14 & 1, r128=w0 >> 15 & 1,
                 a16=w0 >> 16 & 1, d16=w0 >> 17 & 1, vaddr=w1 & 0xFF, vdata=w1 >> 8 & 0xFF,
                 srsrc=(w1 >> 16 & 0x1F) << 2, tfe=w1 >> 21 & 1, lwe=w1 >> 22 & 1,
                 ssamp=(w1 >> 26 & 0x1F) << 2)
    else:
        raise UnsupportedInstruction(f"{info.name}: encoding {enc} is not supported")
    if enc in VALU_ENCODINGS and len(words) > base:
        if f.get("src0") in (DPP16, DPP8, DPP8_FI) and not info.extra.get("k_literal"):
            _dpp_fields(f, words[base])
            return f
    if len(words) > base:
        f["literal"] = words[base]
    return f


class Program:
    """The code of a loaded object: instructions decoded on first use, by PC."""

    def __init__(self, memory: Memory, target: Target, wave_size: int) -> None:
        self.memory = memory
        self.gfx = target.gfx_level
        self.ctx = Context(target, get_table(target.gfx_level), wave_size)
        self.cache: dict[int, Inst] = {}
        self.bind: Callable[[Inst], None] | None = None

    def at(self, pc: int) -> Inst:
        inst = self.cache.get(pc)
        if inst is None:
            inst = self.cache[pc] = self._decode(pc)
        return inst

    def _decode(self, pc: int) -> Inst:
        try:
            data = self.memory.read_code(pc, 20)
        except EmuError:
            raise EmuError(f"program counter {pc:#x} is outside the loaded code") from None
        d = decode_one(data, 0, self.ctx)
        if d.info is None:
            word = int.from_bytes(data[:4], "little")
            raise UnsupportedInstruction(
                f"cannot decode the instruction at pc {pc:#x} (dword {word:#010x})")
        words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, d.size, 4)]
        fields = dict(d.fields) if d.fields else raw_fields(d.info, words)
        if "dpp_ctrl" in fields:
            fields["dpp"] = 16
        elif "dpp8" in fields:
            fields["dpp"] = 8
        inst = Inst(pc, d.size, d.text, d.info, fields, tuple(words), gfx=self.gfx)
        if self.bind is not None:
            self.bind(inst)
        return inst
