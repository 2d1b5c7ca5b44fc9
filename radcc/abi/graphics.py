"""Graphics instances of the shader arguments, as RADV lays them out (RADV's
radv_shader_args.c, `declare_ps_input_vgprs`; the register settings in AMD's register
reference, SPI_PS_INPUT_ENA). No code-object writer or isel takes them yet (the
graphics issue adds them); they are here so that the types carry a graphics stage and
`ShaderArgs.validate` checks it.

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

from radcc.abi.args import AbiError, Arg, ArgKind, RegFile, ShaderArgs
from radcc.abi.stage import FRAGMENT_FS
from radcc.target import Target

__all__ = ["PS_INPUTS", "fragment_args", "spi_ps_input_ena"]

# the PS input VGPRs in SPI_PS_INPUT_ENA bit order (bit = ArgKind.rank)
PS_INPUTS: tuple[ArgKind, ...] = tuple(sorted(
    (k for k in ArgKind if k.file is RegFile.VGPR and k.stages == ArgKind.PRIM_MASK.stages),
    key=lambda k: k.rank or 0))


def fragment_args(target: Target, inputs: Iterable[ArgKind], *, descriptor_sets: int = 1,
                  push_constants: bool = False) -> ShaderArgs:
    """A pixel shader's arguments: `descriptor_sets` set addresses and the push-constant
    address (user SGPRs), the primitive mask, and the `inputs` (`PS_INPUTS` members) in
    hardware order (validated)."""
    want = set(inputs)
    if not want <= set(PS_INPUTS):
        raise AbiError(f"not pixel shader inputs: {', '.join(k.text for k in want - set(PS_INPUTS))}")
    out: list[Arg] = []
    s = 0
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
    return ShaderArgs(FRAGMENT_FS, tuple(out), packed_local_ids=False).validate(target)


def spi_ps_input_ena(args: ShaderArgs) -> int:
    """The SPI_PS_INPUT_ENA value of a pixel shader's arguments: bit `rank` per input."""
    out = 0
    for a in args.of_file(RegFile.VGPR):
        assert a.kind.rank is not None
        out |= 1 << a.kind.rank
    return out
