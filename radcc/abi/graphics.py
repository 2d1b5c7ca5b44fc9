"""Graphics instances of the shader arguments, as RADV lays them out (RADV's
radv_shader_args.c, `declare_ps_input_vgprs`; the register settings in AMD's register
reference, SPI_PS_INPUT_ENA). The graphics code object (`radcc.codeobj.graphics`)
records them; isel defines `p_startpgm` from them.

A vertex shader on NGG (`VERTEX_NGG`, GFX11; `vertex_args`) receives, as RADV's merged
NGG stage (user SGPRs from ``s8``, after the ring offsets and six system SGPRs):

- ``s[0:1]`` the ring offsets: the 64-bit address of the ring descriptor table (the
  attribute ring's V# at `ATTR_RING_DESC_OFFSET`);
- ``s2`` gs_tg_info (bits 12-20: the workgroup's vertices, 22-30: its primitives),
  ``s3`` merged_wave_info (bits 0-7: this wave's vertices, 8-15: its primitives,
  24-27: the wave's index in the workgroup), ``s4`` tess_offchip_offset (unused),
  ``s5`` gs_attr_offset (bits 0-14: the workgroup's attribute ring offset in 512-byte
  units), ``s6``-``s7`` reserved;
- user SGPRs ``s8`` vertex_buffers (32-bit address of the V# table, one 16-byte V#
  per input location; the upper half is `ADDRESS32_HI`), ``s9`` base_vertex,
  ``s10`` start_instance, ``s11`` reserved (the input rates are compiled in),
  ``s[12:13]`` the resource table (descriptor bindings and
  push constants in the compute kernarg layout, `radcc.abi.kernarg.shader_layout`);
- VGPRs ``v0`` gs_vtx_offset0 (the primitive's packed vertex indices, the value
  ``exp prim`` takes: vertex k in bits 10k..10k+8, bit 31 null primitive), ``v1``
  gs_vtx_offset1, ``v2`` gs_prim_id, ``v3`` gs_invocation_id, ``v4`` gs_vtx_offset2,
  ``v5`` vertex_id (zero-based: without base_vertex), ``v6``-``v7`` reserved, ``v8``
  instance_id (without start_instance).

A pixel shader (`FRAGMENT_FS`) receives:

- user SGPRs the driver chooses: its descriptor sets' 32-bit addresses (one SGPR per
  set) and the push constants' 32-bit address (RADV puts the upper 32 bits in a
  register setting);
- the primitive mask (system SGPR; `lds_param_load` uses it in M0);
- the input VGPRs SPI_PS_INPUT_ENA enables, packed from ``v0`` in the register's bit
  order (`ArgKind.rank`: perspective sample/center/centroid i, j, pull model, linear
  sample/center/centroid, line stipple, position x, y, z, w, front face, ancillary,
  sample coverage, fixed-point position).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from radcc.abi.args import AbiError, Arg, ArgKind, RegFile, ShaderArgs
from radcc.abi.color import DEFAULT_COLOR_FORMAT, ColorFormat, ExportFormat
from radcc.abi.kernarg import KernargLayout
from radcc.abi.stage import FRAGMENT_FS, VERTEX_NGG
from radcc.target import Target

__all__ = ["ADDRESS32_HI", "ATTR_RING_DESC_OFFSET", "DEFAULT_COLOR_FORMAT", "PS_INPUTS",
           "VERTEX_NGG", "ColorFormat", "ExportFormat", "PsInput", "fragment_args",
           "spi_ps_input_ena", "vertex_args"]

# the upper 32 bits of a 32-bit address user SGPR (RADV's address32_hi): radcc's graphics
# ABI fixes it, so tables given by a 32-bit address lie in [4 GiB, 8 GiB)
ADDRESS32_HI = 1
# where the attribute ring's V# is in the ring descriptor table: radcc's table holds only
# it (RADV's table has it in slot RING_PS_ATTR = 10, at 0xa0, where ACO loads it from)
ATTR_RING_DESC_OFFSET = 0

_VERTEX_SGPRS: tuple[tuple[ArgKind, int], ...] = (
    (ArgKind.RING_OFFSETS, 0), (ArgKind.GS_TG_INFO, 0), (ArgKind.MERGED_WAVE_INFO, 0),
    (ArgKind.TESS_OFFCHIP_OFFSET, 0), (ArgKind.GS_ATTR_OFFSET, 0),
    (ArgKind.RESERVED_SYSTEM_SGPR, 0), (ArgKind.RESERVED_SYSTEM_SGPR, 1),
    (ArgKind.VERTEX_BUFFERS, 0), (ArgKind.BASE_VERTEX, 0), (ArgKind.START_INSTANCE, 0),
    (ArgKind.RESERVED_USER_SGPR, 0), (ArgKind.KERNARG_SEGMENT_PTR, 0))
_VERTEX_VGPRS: tuple[tuple[ArgKind, int], ...] = (
    (ArgKind.GS_VTX_OFFSET0, 0), (ArgKind.GS_VTX_OFFSET1, 0), (ArgKind.GS_PRIM_ID, 0),
    (ArgKind.GS_INVOCATION_ID, 0), (ArgKind.GS_VTX_OFFSET2, 0), (ArgKind.VERTEX_ID, 0),
    (ArgKind.RESERVED_VGPR, 0), (ArgKind.RESERVED_VGPR, 1), (ArgKind.INSTANCE_ID, 0))


def vertex_args(target: Target, resources: KernargLayout | None = None) -> ShaderArgs:
    """A vertex shader's arguments on NGG (module docstring), with the resource table's
    layout `resources` (validated)."""
    out: list[Arg] = []
    for file, kinds in ((RegFile.SGPR, _VERTEX_SGPRS), (RegFile.VGPR, _VERTEX_VGPRS)):
        r = 0
        for k, i in kinds:
            assert k.file is file
            out.append(Arg(k, r, index=i))
            r += k.size
    return ShaderArgs(VERTEX_NGG, tuple(out), resources,
                      packed_local_ids=False).validate(target)

# the PS input VGPRs in SPI_PS_INPUT_ENA bit order (bit = ArgKind.rank)
PS_INPUTS: tuple[ArgKind, ...] = tuple(sorted(
    (k for k in ArgKind if k.file is RegFile.VGPR and k.stages == ArgKind.PRIM_MASK.stages),
    key=lambda k: k.rank or 0))


def fragment_args(target: Target, inputs: Iterable[ArgKind], *, descriptor_sets: int = 1,
                  push_constants: bool = False,
                  resources: KernargLayout | None = None) -> ShaderArgs:
    """A pixel shader's arguments: the resource table's address (two user SGPRs, when
    `resources`, its layout, is given: radcc's graphics resources), `descriptor_sets` set
    addresses and the push-constant address (RADV's user SGPRs), the primitive mask, and
    the `inputs` (`PS_INPUTS` members) in hardware order (validated)."""
    want = set(inputs)
    if not want <= set(PS_INPUTS):
        raise AbiError(f"not pixel shader inputs: {', '.join(k.text for k in want - set(PS_INPUTS))}")
    out: list[Arg] = []
    s = 0
    if resources is not None:  # radcc's resource table (docs/abi.md "Resources ...")
        out.append(Arg(ArgKind.KERNARG_SEGMENT_PTR, 0))
        s += 2
    for i in range(descriptor_sets):
        out.append(Arg(ArgKind.DESCRIPTOR_SET, s, index=i))
        s += 1
    if push_constants:
        out.append(Arg(ArgKind.PUSH_CONSTANTS, s))
        s += 1
    out.append(Arg(ArgKind.PRIM_MASK, s))
    v = 0
    for k in PS_INPUTS:
        if k in want:
            out.append(Arg(k, v))
            v += k.size
    return ShaderArgs(FRAGMENT_FS, tuple(out), resources,
                      packed_local_ids=False).validate(target)


def spi_ps_input_ena(args: ShaderArgs) -> int:
    """The SPI_PS_INPUT_ENA value of a pixel shader's arguments: bit `rank` per input."""
    out = 0
    for a in args.of_file(RegFile.VGPR):
        assert a.kind.rank is not None
        out |= 1 << a.kind.rank
    return out


@dataclass(frozen=True)
class PsInput:
    """One parameter a pixel shader reads (``lds_param_load`` attribute index = its
    position in the shader's list; SPI_PS_INPUT_CNTL_n tells the hardware which of the
    previous stage's outputs fills it): the user location (-1: the point coordinate,
    filled from the point sprite), flat (the provoking vertex's value in P0)."""

    location: int
    flat: bool
