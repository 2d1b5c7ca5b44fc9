"""The AMDHSA compute-kernel instance of the shader arguments (docs/abi.md).

AMDGPUUsage, "Initial Kernel Execution State": the user SGPRs a kernel descriptor
enables are loaded from ``s0`` in a fixed order (private segment buffer, dispatch ptr,
queue ptr, kernarg segment ptr, dispatch id, flat scratch init, private segment size),
then from ``s[user_sgpr_count]`` the enabled system SGPRs (workgroup id x, y, z,
workgroup info, private segment wave offset); the work-item ids are in ``v0`` packed
as x | y << 10 | z << 20 (GFX11, LLVM's packed-TID targets) or one per VGPR
``v0``..``v2`` (GFX10), as many dimensions as ``system_vgpr_workitem_id`` + 1.

`kernel_args` builds the `ShaderArgs` of a kernel, `descriptor_fields` gives the
``.amdhsa_*`` enables it implies (the kernel descriptor's COMPUTE_PGM_RSRC2 and
kernel_code_properties bits), and `from_descriptor` reads them back from a descriptor
(the emulator's initial wave state). clang-19 and radcc kernels are both instances.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from radcc.abi.args import Arg, ArgKind, ShaderArgs
from radcc.abi.kernarg import KernargLayout
from radcc.abi.stage import COMPUTE_CS, Stage
from radcc.target import GfxLevel, Target

__all__ = ["SYSTEM_SGPR_FIELDS", "USER_SGPR_FIELDS", "descriptor_fields", "from_descriptor",
           "kernel_args", "packed_local_ids"]

# user SGPR enables, in the order the hardware loads them
USER_SGPR_FIELDS: tuple[tuple[ArgKind, str], ...] = (
    (ArgKind.PRIVATE_SEGMENT_BUFFER, "user_sgpr_private_segment_buffer"),  # GFX10
    (ArgKind.DISPATCH_PTR, "user_sgpr_dispatch_ptr"),
    (ArgKind.QUEUE_PTR, "user_sgpr_queue_ptr"),
    (ArgKind.KERNARG_SEGMENT_PTR, "user_sgpr_kernarg_segment_ptr"),
    (ArgKind.DISPATCH_ID, "user_sgpr_dispatch_id"),
    (ArgKind.FLAT_SCRATCH_INIT, "user_sgpr_flat_scratch_init"),  # GFX10
    (ArgKind.PRIVATE_SEGMENT_SIZE, "user_sgpr_private_segment_size"),
)
# system SGPR enables, in the order the hardware loads them
SYSTEM_SGPR_FIELDS: tuple[tuple[ArgKind, str], ...] = (
    (ArgKind.WORKGROUP_ID_X, "system_sgpr_workgroup_id_x"),
    (ArgKind.WORKGROUP_ID_Y, "system_sgpr_workgroup_id_y"),
    (ArgKind.WORKGROUP_ID_Z, "system_sgpr_workgroup_id_z"),
    (ArgKind.WORKGROUP_INFO, "system_sgpr_workgroup_info"),
    (ArgKind.PRIVATE_SEGMENT_WAVE_OFFSET, "system_sgpr_private_segment_wavefront_offset"),
)
_LOCAL_IDS = (ArgKind.LOCAL_INVOCATION_ID_X, ArgKind.LOCAL_INVOCATION_ID_Y,
              ArgKind.LOCAL_INVOCATION_ID_Z)


def packed_local_ids(target: Target) -> bool:
    """Does the hardware pack the work-item ids into v0 (GFX11; LLVM's packed-TID
    feature)? GFX10/10.3 put x, y and z in v0, v1 and v2 (clang-19 -mcpu=gfx1030
    reads workitem.id.y from v1, gfx1100 with ``v_bfe_u32 v0, v0, 10, 10``)."""
    return target.gfx_level >= GfxLevel.GFX11


def kernel_args(target: Target, *, user: Iterable[ArgKind] = (ArgKind.KERNARG_SEGMENT_PTR,),
                workgroup_ids: tuple[bool, bool, bool] = (True, False, False),
                workgroup_info: bool = False, wave_offset: bool = False,
                local_id_dims: int = 1, kernargs: KernargLayout | None = None,
                stage: Stage = COMPUTE_CS) -> ShaderArgs:
    """The arguments of a kernel with these user SGPRs (`USER_SGPR_FIELDS` kinds),
    system SGPRs and `local_id_dims` (1-3) work-item id dimensions (validated)."""
    want = set(user)
    out: list[Arg] = []
    s = 0
    for kind, _f in USER_SGPR_FIELDS:
        if kind in want:
            out.append(Arg(kind, s))
            s += kind.size
            want.discard(kind)
    if want:
        raise ValueError(f"not AMDHSA user SGPRs: {', '.join(k.text for k in want)}")
    system = (*workgroup_ids, workgroup_info, wave_offset)
    for (kind, _f), on in zip(SYSTEM_SGPR_FIELDS, system, strict=True):
        if on:
            out.append(Arg(kind, s))
            s += 1
    if not 1 <= local_id_dims <= 3:
        raise ValueError(f"local_id_dims {local_id_dims} (1 to 3)")
    packed = packed_local_ids(target)
    if packed:
        out.append(Arg(ArgKind.LOCAL_INVOCATION_IDS, 0))
    else:
        out += [Arg(k, i) for i, k in enumerate(_LOCAL_IDS[:local_id_dims])]
    args = ShaderArgs(stage, tuple(out), kernargs, packed_local_ids=packed,
                      local_id_dims=local_id_dims)
    return args.validate(target)


def descriptor_fields(args: ShaderArgs) -> dict[str, int]:
    """The ``.amdhsa_*`` enables of `args`, in the order radcc writes them: the
    user SGPRs other than GFX10's scratch setup, ``user_sgpr_count``, the three
    workgroup ids (0 or 1), workgroup info if enabled, ``system_vgpr_workitem_id``,
    then the GFX10 scratch setup (private segment buffer, flat scratch init, wave
    offset)."""
    late = {ArgKind.PRIVATE_SEGMENT_BUFFER, ArgKind.FLAT_SCRATCH_INIT}
    out: dict[str, int] = {}
    for kind, f in USER_SGPR_FIELDS:
        if kind not in late and args.has(kind):
            out[f] = 1
    out["user_sgpr_count"] = args.num_user_sgprs
    for kind, f in SYSTEM_SGPR_FIELDS[:3]:
        out[f] = int(args.has(kind))
    if args.has(ArgKind.WORKGROUP_INFO):
        out["system_sgpr_workgroup_info"] = 1
    out["system_vgpr_workitem_id"] = args.local_id_dims - 1
    for kind, f in (*USER_SGPR_FIELDS, SYSTEM_SGPR_FIELDS[4]):
        if (kind in late or kind is ArgKind.PRIVATE_SEGMENT_WAVE_OFFSET) and args.has(kind):
            out[f] = 1
    return out


def from_descriptor(fields: Mapping[str, int], target: Target,
                    kernargs: KernargLayout | None = None) -> ShaderArgs:
    """The arguments a kernel descriptor's enables give a wave (not validated: a
    ``user_sgpr_count`` beyond the enabled user SGPRs leaves reserved user SGPRs
    before the system ones, as the hardware does)."""
    out: list[Arg] = []
    s = 0
    for kind, f in USER_SGPR_FIELDS:
        if fields.get(f):
            out.append(Arg(kind, s))
            s += kind.size
    for i in range(s, int(fields.get("user_sgpr_count", s) or 0)):
        out.append(Arg(ArgKind.RESERVED_USER_SGPR, i, index=i))
        s += 1
    for kind, f in SYSTEM_SGPR_FIELDS:
        if fields.get(f):
            out.append(Arg(kind, s))
            s += 1
    dims = min(int(fields.get("system_vgpr_workitem_id", 0) or 0), 2) + 1
    packed = packed_local_ids(target)
    if packed:
        out.append(Arg(ArgKind.LOCAL_INVOCATION_IDS, 0))
    else:
        out += [Arg(k, i) for i, k in enumerate(_LOCAL_IDS[:dims])]
    return ShaderArgs(COMPUTE_CS, tuple(out), kernargs, packed_local_ids=packed,
                      local_id_dims=dims)
