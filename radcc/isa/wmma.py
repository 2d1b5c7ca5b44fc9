"""The GFX11 WMMA opcodes as facts (ISA guide 7.9, "Wave Matrix Multiply Accumulate"):
for each ``v_wmma_<D>_16x16x16_<AB>`` the element type of A/B and of C/D and the VGPRs
each operand takes. Isel picks an opcode by its types, the emulator runs it, strict
mode checks its operands' hazards: all from this one table.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KINDS", "N", "WmmaKind", "opcode_for"]

N = 16  # M = N = K = 16


@dataclass(frozen=True)
class WmmaKind:
    """One WMMA opcode: the element type of A/B ("f16", "bf16", "iu8", "iu4") and of
    C/D ("f32", "f16", "bf16", "i32")."""

    ab: str
    cd: str

    @property
    def ab_bits(self) -> int:
        return {"f16": 16, "bf16": 16, "iu8": 8, "iu4": 4}[self.ab]

    @property
    def ab_vgprs(self) -> int:
        return N * self.ab_bits // 32

    def cd_vgprs(self, wave: int) -> int:
        return N * N // wave


KINDS: dict[str, WmmaKind] = {
    "v_wmma_f32_16x16x16_f16": WmmaKind("f16", "f32"),
    "v_wmma_f32_16x16x16_bf16": WmmaKind("bf16", "f32"),
    "v_wmma_f16_16x16x16_f16": WmmaKind("f16", "f16"),
    "v_wmma_bf16_16x16x16_bf16": WmmaKind("bf16", "bf16"),
    "v_wmma_i32_16x16x16_iu8": WmmaKind("iu8", "i32"),
    "v_wmma_i32_16x16x16_iu4": WmmaKind("iu4", "i32"),
}


def opcode_for(ab: str, cd: str) -> str | None:
    """The WMMA opcode multiplying `ab` elements into `cd` accumulators, if there is one."""
    return next((name for name, k in KINDS.items() if (k.ab, k.cd) == (ab, cd)), None)
