"""Selection of ``cmat_muladd_amd`` (cooperative matrices, spirv_to_mir/coopmat.py) to
the GFX11 WMMA instructions (ISA guide 7.9), as ACO's visit_cmat_muladd:

- A and B: the invocation's 16 elements packed into the registers WMMA reads, element k
  at bits k * E (f16, bf16: two per VGPR, 8 VGPRs; 8-bit integers: four per VGPR, 4 VGPRs),
  packed with ``v_perm_b32`` (8/16-bit values sit in the low bits of a 32-bit register,
  the bits above undefined: docs/isel.md).
- C: 256/W VGPRs, one element each (16-bit accumulators, f16 or bf16, in the low half,
  OPSEL[2] = 0);
  D likewise, split back into the result's components.
- ``v_wmma_f32_16x16x16_f16`` / ``v_wmma_f16_16x16x16_f16`` / ``v_wmma_f32_16x16x16_bf16`` /
  ``v_wmma_bf16_16x16x16_bf16`` / ``v_wmma_i32_16x16x16_iu8``
  (NEG[0]/NEG[1] = A/B signed, CLMP = saturating accumulation); A and B are late-kill
  operands, so D never overlaps them (ISA 7.9 allows only C to be D).

The operands are VGPRs (WMMA takes no SGPR or constant A/B); a chip without WMMA refuses
the opcode by name (`AbsentOpcodeError`). WMMA ignores EXEC and writes every lane.
"""

from __future__ import annotations

from radcc.frontend.mir import Instr
from radcc.ir.program import Operand
from radcc.ir.regclass import RegClass, RegType, Temp, v1
from radcc.isa.wmma import opcode_for

from .context import Comp, IselContext, unsupported

# v_perm_b32 selectors (ISA 16.x V_PERM_B32: bytes 0-3 of src1, 4-7 of src0, 0x0c = 0x00)
_LO16_HI16 = 0x05040100  # src1[15:0] | src0[15:0] << 16
_LO8_LO8 = 0x0C0C0400  # src1[7:0] | src0[7:0] << 8, upper half zero


def _perm(ctx: IselContext, hi: Temp, lo: Temp, sel: int) -> Temp:
    return ctx.b.vop3("v_perm_b32", v1, hi, lo, Operand.c32(sel)).temp


def _pack(ctx: IselContext, vals: list[Comp], bits: int) -> list[Temp]:
    """Dwords holding `vals` (each in the low `bits` of a register) at bits k*`bits`."""
    regs = [ctx.vgpr(v) for v in vals]
    if bits == 16:
        return [_perm(ctx, regs[2 * i + 1], regs[2 * i], _LO16_HI16)
                for i in range(len(regs) // 2)]
    out = []
    for i in range(len(regs) // 4):
        lo = _perm(ctx, regs[4 * i + 1], regs[4 * i], _LO8_LO8)
        hi = _perm(ctx, regs[4 * i + 3], regs[4 * i + 2], _LO8_LO8)
        out.append(_perm(ctx, hi, lo, _LO16_HI16))
    return out


def _vec(ctx: IselContext, dwords: list[Temp]) -> Temp:
    return ctx.b.create_vector(RegClass(RegType.VGPR, 4 * len(dwords)), *dwords).temp


def select_cmat_muladd(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    ab, cd = ins.attrs["ab"], ins.attrs["cd"]
    op = opcode_for(ab, cd) if ab in ("f16", "bf16", "iu8") else None  # packings below
    if op is None:
        raise unsupported(ins, f"no WMMA multiplies {ab} into {cd}")
    n = d.num_components
    if len(ins.srcs) != 32 + n or n * ctx.wave != 256:
        raise unsupported(ins, "cooperative matrix operands of the wrong length")
    vals = [ctx.comp(s, 0) for s in ins.srcs]
    bits = 8 if ab == "iu8" else 16
    a = _vec(ctx, _pack(ctx, vals[:16], bits))
    b = _vec(ctx, _pack(ctx, vals[16:32], bits))
    c = _vec(ctx, [ctx.vgpr(x) for x in vals[32:]])
    fields: dict[str, object] = {}
    if ab == "iu8":
        fields["neg_lo"] = [int(bool(ins.attrs.get("a_signed"))),
                            int(bool(ins.attrs.get("b_signed"))), 0]
        if ins.attrs.get("saturate"):
            fields["clamp"] = True
    wmma = ctx.b.inst(op, [RegClass(RegType.VGPR, 4 * n)], [a, b, c], "VOP3P", **fields)
    # D must not overlap A or B (a multi-pass instruction; ISA 7.9 lets only C be D):
    # A and B stay occupied until after the definition, as ACO's late kill
    wmma.instr.operands[0].is_late_kill = True
    wmma.instr.operands[1].is_late_kill = True
    res = wmma.temp
    parts = ctx.b.split_vector(res, *([v1] * n)).temps
    ctx.set(d, list(parts))
