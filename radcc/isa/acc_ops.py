"""VALU opcodes that accumulate into VDST: VDST is also a source of theirs, which the
opcode table does not list (it lists src0/src1 only).

One list for the layers that need it: the IR's tied-operand rule
(`radcc.ir.opinfo.tied_definition`) and the emulator's VALU semantics
(`radcc.emu.valu`, whose callers append the old VDST bits as an extra last source).
"""

from __future__ import annotations

ACC_OPS = frozenset({
    "v_fmac_f32", "v_fmac_f16", "v_fmac_dx9_zero_f32", "v_pk_fmac_f16", "v_dot2acc_f32_f16",
    "v_mac_f32", "v_mac_legacy_f32",  # GFX10.1's non-fused forms
    "v_dot4c_i32_i8",  # GFX10.3's VOP2 form of v_dot4_i32_i8 (VDST = VDST + dot)
})

__all__ = ["ACC_OPS"]
