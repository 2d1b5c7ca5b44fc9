"""What a compiled shader needs from the hardware and the dispatch (`Program.config`).

The counterpart of ACO's `ac_shader_config` (src/amd/common/ac_shader_util.h): the
resources the shader uses, which the kernel descriptor (`radcc.passes.kernel_abi.
kernel_fields`) and the statistics report. It is not the shader's arguments (which
registers the wave starts with: `p_startpgm`, docs/abi.md): those say what the shader
receives, this what it consumes.

Each field is written by one phase and read by the later ones; a misspelt field is an
AttributeError (the class has slots), not a value read as absent. Fields a phase has
not written yet have the value of "nothing used".
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FpMode", "ShaderConfig"]

FP_ROUND_NE, FP_ROUND_TZ = 0, 3  # MODE.FP_ROUND fields (ISA guide §7.2.4)
FP_DENORM_FLUSH, FP_DENORM_KEEP = 0, 3  # MODE.FP_DENORM fields: flush / allow in and out


@dataclass(frozen=True, slots=True)
class FpMode:
    """The float mode the shader runs in: MODE's FP_ROUND and FP_DENORM fields, set by
    the kernel descriptor's FLOAT_ROUND_MODE_* / FLOAT_DENORM_MODE_* (ACO's
    ``float_mode``). The default is ACO's (aco_instruction_selection.cpp,
    ``setup_fp_mode``): round to nearest even, 32-bit denormals flushed (keeping them
    is slow: the f32 transcendentals flush theirs, isel scales around them), 16/64-bit
    ones kept; a shader's float controls change them (`from_controls`)."""
    round32: int = FP_ROUND_NE
    round16_64: int = FP_ROUND_NE
    denorm32: int = FP_DENORM_FLUSH
    denorm16_64: int = FP_DENORM_KEEP

    @staticmethod
    def from_controls(denorm_preserve: frozenset[int], denorm_flush: frozenset[int],
                      rtz: frozenset[int]) -> FpMode:
        """ACO's choice for SPV_KHR_float_controls' modes (bit sizes each names): 32-bit
        denormals kept only for DenormPreserve 32, 16/64-bit ones flushed for
        DenormFlushToZero 16 or 64, round toward zero for RoundingModeRTZ (16 and 64
        share a field: either makes it RTZ); RTE is the default already."""
        return FpMode(
            round32=FP_ROUND_TZ if 32 in rtz else FP_ROUND_NE,
            round16_64=FP_ROUND_TZ if rtz & {16, 64} else FP_ROUND_NE,
            denorm32=FP_DENORM_KEEP if 32 in denorm_preserve else FP_DENORM_FLUSH,
            denorm16_64=FP_DENORM_FLUSH if denorm_flush & {16, 64} else FP_DENORM_KEEP)

    def flushed(self) -> frozenset[int]:
        """The float bit sizes whose denormals this mode flushes (what constant folding
        must do to fold as the kernel runs)."""
        return frozenset(({32} if self.denorm32 == FP_DENORM_FLUSH else set())
                         | ({16, 64} if self.denorm16_64 == FP_DENORM_FLUSH else set()))


@dataclass(slots=True)
class ShaderConfig:
    # Register allocation: 1 + the highest SGPR / VGPR it assigned (vcc, m0, exec, scc
    # not counted); None before it runs. ssa_elimination raises num_sgprs when it takes
    # a scratch SGPR above them.
    num_sgprs: int | None = None
    num_vgprs: int | None = None
    # Private memory, in bytes per lane (work-item), a multiple of 4: what isel's
    # scratch arrays use plus the VGPR spill slots (spill_ssa grows it). It is
    # `.amdhsa_private_segment_fixed_size`; > 0 enables the private segment (docs/abi.md).
    scratch_bytes_per_lane: int = 0
    # LDS, in bytes per workgroup (isel: the shader's shared variables);
    # `.amdhsa_group_segment_fixed_size`, checked against `Target.lds_size`.
    lds_size: int = 0
    # May the optimizer contract a multiply and an add not marked precise into an FMA?
    # isel sets it (SPIR-V's NoContraction reaches the machine IR as
    # `Definition.is_precise`); the IR text format cannot, so IR programs do not fuse.
    fp_contract: bool = False
    # MODE's rounding and denormal fields (isel, from the shader's float controls);
    # `kernel_abi.kernel_fields` writes them into the kernel descriptor
    fp_mode: FpMode = FpMode()
    # Spilling (spill / spill_ssa; zero when nothing was spilled):
    spilled_sgprs: int = 0  # lanes of linear VGPRs holding SGPR spill slots (after sharing)
    spilled_vgprs: int = 0  # dwords per lane of VGPR spill slots in scratch (after sharing)
    spilled_phis: int = 0  # phis whose value was spilled
    rematerialized: int = 0  # values recomputed instead of spilled
