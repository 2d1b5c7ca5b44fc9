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

__all__ = ["ShaderConfig"]


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
    # Spilling (spill / spill_ssa; zero when nothing was spilled):
    spilled_sgprs: int = 0  # lanes of linear VGPRs holding SGPR spill slots (after sharing)
    spilled_vgprs: int = 0  # dwords per lane of VGPR spill slots in scratch (after sharing)
    spilled_phis: int = 0  # phis whose value was spilled
    rematerialized: int = 0  # values recomputed instead of spilled
