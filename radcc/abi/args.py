"""Shader arguments: the registers a wave starts with, as Mesa's `ac_shader_args`
(src/amd/common/ac_shader_args.h) describes them.

A shader receives its inputs in registers the hardware (or the command processor on
the driver's behalf) initialises before the first instruction:

- **user SGPRs**, from ``s0``: values the driver or runtime chooses (AMDHSA's kernarg
  segment pointer, RADV's descriptor-set and push-constant pointers ...);
- **system SGPRs**, right after them: values the hardware generates per wave
  (workgroup ids, a pixel shader's primitive mask ...);
- **VGPRs**, from ``v0``: per-lane values (local invocation ids, vertex and instance
  ids, barycentrics, the fragment position ...).

`ShaderArgs` lists them: each `Arg` names what it holds (`ArgKind`), its register file,
first register and size in dwords, in the order the hardware loads them; and, when the
shader reads memory through a kernarg segment, that segment's layout (`KernargLayout`:
where every descriptor binding's address comes from). Instances are built per stage and
ABI: `radcc.abi.amdhsa` (compute kernels, AMDGPUUsage's "Initial Kernel Execution
State"), `radcc.abi.graphics` (RADV's graphics stages). Instruction selection defines
`p_startpgm` from it, `radcc.passes.kernel_abi` derives the kernel descriptor from it,
the code-object writer writes its kernarg layout as metadata, and the emulator sets a
wave's registers from it. `ShaderArgs.validate` checks an instance against the rules
of its register files and stage (docs/abi.md).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, replace

from radcc.abi.kernarg import KernargLayout
from radcc.abi.stage import HWStage, Stage
from radcc.target import Target

__all__ = ["AbiError", "Arg", "ArgKind", "RegFile", "ShaderArgs"]


class AbiError(Exception):
    """Shader arguments that break the ABI's rules."""


class RegFile(enum.Enum):
    SGPR = "s"
    VGPR = "v"


_ALL = frozenset(HWStage)
_CS = frozenset({HWStage.CS})
_PS = frozenset({HWStage.PS})
_GRAPHICS = _ALL - _CS
_VERTEX = frozenset({HWStage.LS, HWStage.HS, HWStage.ES, HWStage.GS, HWStage.VS, HWStage.NGG})
_NGG = frozenset({HWStage.NGG})
_MERGED = frozenset({HWStage.HS, HWStage.GS, HWStage.NGG})


class ArgKind(enum.Enum):
    """What an argument holds (`ac_shader_args`'s fields; AMDGPUUsage's names for the
    AMDHSA compute ones). Each kind has its register file, size in dwords, whether it is
    a user SGPR (driver-chosen) or a system value, the hardware stages that have it, and,
    for values whose place the hardware fixes, a rank: arguments of the same class
    (user SGPR, system SGPR, VGPR) must appear in increasing rank."""

    # AMDHSA user SGPRs, in AMDGPUUsage's order
    PRIVATE_SEGMENT_BUFFER = ("private_segment_buffer", RegFile.SGPR, 4, True, _CS, 0)
    DISPATCH_PTR = ("dispatch_ptr", RegFile.SGPR, 2, True, _CS, 1)
    QUEUE_PTR = ("queue_ptr", RegFile.SGPR, 2, True, _CS, 2)
    # (graphics stages: radcc's resource table, the same layout; docs/abi.md)
    KERNARG_SEGMENT_PTR = ("kernarg_segment_ptr", RegFile.SGPR, 2, True, _ALL, 3)
    DISPATCH_ID = ("dispatch_id", RegFile.SGPR, 2, True, _CS, 4)
    FLAT_SCRATCH_INIT = ("flat_scratch_init", RegFile.SGPR, 2, True, _CS, 5)
    PRIVATE_SEGMENT_SIZE = ("private_segment_size", RegFile.SGPR, 1, True, _CS, 6)
    # compute system SGPRs (COMPUTE_PGM_RSRC2 enables), in hardware order
    WORKGROUP_ID_X = ("workgroup_id_x", RegFile.SGPR, 1, False, _CS, 0)
    WORKGROUP_ID_Y = ("workgroup_id_y", RegFile.SGPR, 1, False, _CS, 1)
    WORKGROUP_ID_Z = ("workgroup_id_z", RegFile.SGPR, 1, False, _CS, 2)
    WORKGROUP_INFO = ("workgroup_info", RegFile.SGPR, 1, False, _CS, 3)
    PRIVATE_SEGMENT_WAVE_OFFSET = ("private_segment_wave_offset", RegFile.SGPR, 1, False,
                                   _ALL, 4)
    # compute VGPRs: packed x | y << 10 | z << 20 (GFX11), or one per dimension (GFX10)
    LOCAL_INVOCATION_IDS = ("local_invocation_ids", RegFile.VGPR, 1, False, _CS, 0)
    LOCAL_INVOCATION_ID_X = ("local_invocation_id_x", RegFile.VGPR, 1, False, _CS, 0)
    LOCAL_INVOCATION_ID_Y = ("local_invocation_id_y", RegFile.VGPR, 1, False, _CS, 1)
    LOCAL_INVOCATION_ID_Z = ("local_invocation_id_z", RegFile.VGPR, 1, False, _CS, 2)
    # a user SGPR the driver loads with nothing the shader reads (a descriptor's
    # user_sgpr_count beyond its enables)
    RESERVED_USER_SGPR = ("reserved_user_sgpr", RegFile.SGPR, 1, True, _ALL, None)
    # RADV user SGPRs (any order the driver chooses)
    RING_OFFSETS = ("ring_offsets", RegFile.SGPR, 2, True, _ALL, None)
    DESCRIPTOR_SET = ("descriptor_set", RegFile.SGPR, 1, True, _ALL, None)  # 32-bit address
    PUSH_CONSTANTS = ("push_constants", RegFile.SGPR, 1, True, _ALL, None)  # 32-bit address
    INLINE_PUSH_CONSTANT = ("inline_push_constant", RegFile.SGPR, 1, True, _ALL, None)
    VERTEX_BUFFERS = ("vertex_buffers", RegFile.SGPR, 1, True, _VERTEX, None)
    BASE_VERTEX = ("base_vertex", RegFile.SGPR, 1, True, _VERTEX, None)
    START_INSTANCE = ("start_instance", RegFile.SGPR, 1, True, _VERTEX, None)
    DRAW_ID = ("draw_id", RegFile.SGPR, 1, True, _VERTEX, None)
    # GFX9+ merged and NGG stages: the system SGPRs s2-s7 after the ring offsets (RADV's
    # radv_shader_args.c "First 6 system regs"; user SGPRs start at s8)
    GS_TG_INFO = ("gs_tg_info", RegFile.SGPR, 1, False, _NGG, 0)
    MERGED_WAVE_INFO = ("merged_wave_info", RegFile.SGPR, 1, False, _MERGED, 1)
    TESS_OFFCHIP_OFFSET = ("tess_offchip_offset", RegFile.SGPR, 1, False, _MERGED, 2)
    GS_ATTR_OFFSET = ("gs_attr_offset", RegFile.SGPR, 1, False, _NGG, 3)  # GFX11
    RESERVED_SYSTEM_SGPR = ("reserved_system_sgpr", RegFile.SGPR, 1, False, _MERGED, None)
    # radcc: bit L set = vertex input location L is per instance (docs/abi.md)
    # NGG VGPRs before the vertex shader's (RADV: gs_vtx_offset[0..2], prim id, invocation)
    GS_VTX_OFFSET0 = ("gs_vtx_offset0", RegFile.VGPR, 1, False, _NGG, 0)
    GS_VTX_OFFSET1 = ("gs_vtx_offset1", RegFile.VGPR, 1, False, _NGG, 1)
    GS_PRIM_ID = ("gs_prim_id", RegFile.VGPR, 1, False, _NGG, 2)
    GS_INVOCATION_ID = ("gs_invocation_id", RegFile.VGPR, 1, False, _NGG, 3)
    GS_VTX_OFFSET2 = ("gs_vtx_offset2", RegFile.VGPR, 1, False, _NGG, 4)
    RESERVED_VGPR = ("reserved_vgpr", RegFile.VGPR, 1, False, _ALL, None)  # "user vgpr"
    # vertex shader VGPRs (their registers depend on the hardware stage)
    VERTEX_ID = ("vertex_id", RegFile.VGPR, 1, False, _VERTEX, None)
    INSTANCE_ID = ("instance_id", RegFile.VGPR, 1, False, _VERTEX, None)
    # pixel shader: the primitive mask (system SGPR) and the input VGPRs, in
    # SPI_PS_INPUT_ENA order (only the enabled ones are loaded, packed from v0)
    PRIM_MASK = ("prim_mask", RegFile.SGPR, 1, False, _PS, 0)
    PERSP_SAMPLE = ("persp_sample", RegFile.VGPR, 2, False, _PS, 0)
    PERSP_CENTER = ("persp_center", RegFile.VGPR, 2, False, _PS, 1)
    PERSP_CENTROID = ("persp_centroid", RegFile.VGPR, 2, False, _PS, 2)
    PULL_MODEL = ("pull_model", RegFile.VGPR, 3, False, _PS, 3)
    LINEAR_SAMPLE = ("linear_sample", RegFile.VGPR, 2, False, _PS, 4)
    LINEAR_CENTER = ("linear_center", RegFile.VGPR, 2, False, _PS, 5)
    LINEAR_CENTROID = ("linear_centroid", RegFile.VGPR, 2, False, _PS, 6)
    LINE_STIPPLE_TEX = ("line_stipple_tex", RegFile.VGPR, 1, False, _PS, 7)
    FRAG_POS_X = ("frag_pos_x", RegFile.VGPR, 1, False, _PS, 8)
    FRAG_POS_Y = ("frag_pos_y", RegFile.VGPR, 1, False, _PS, 9)
    FRAG_POS_Z = ("frag_pos_z", RegFile.VGPR, 1, False, _PS, 10)
    FRAG_POS_W = ("frag_pos_w", RegFile.VGPR, 1, False, _PS, 11)
    FRONT_FACE = ("front_face", RegFile.VGPR, 1, False, _PS, 12)
    ANCILLARY = ("ancillary", RegFile.VGPR, 1, False, _PS, 13)
    SAMPLE_COVERAGE = ("sample_coverage", RegFile.VGPR, 1, False, _PS, 14)
    POS_FIXED_PT = ("pos_fixed_pt", RegFile.VGPR, 1, False, _PS, 15)

    def __init__(self, text: str, file: RegFile, size: int, user: bool,
                 stages: frozenset[HWStage], rank: int | None) -> None:
        self.text = text
        self.file = file
        self.size = size
        self.user = user
        self.stages = stages
        self.rank = rank

    def __repr__(self) -> str:
        return f"ArgKind.{self.name}"


@dataclass(frozen=True)
class Arg:
    """One argument: `kind` in `size` registers of its file from `reg` (``s[reg]`` /
    ``v[reg]``); `index` tells arrays apart (descriptor set number, push-constant dword)."""

    kind: ArgKind
    reg: int
    index: int = 0

    @property
    def file(self) -> RegFile:
        return self.kind.file

    @property
    def size(self) -> int:
        return self.kind.size

    @property
    def end(self) -> int:
        return self.reg + self.kind.size

    def text(self) -> str:
        r = self.file.value
        regs = f"{r}{self.reg}" if self.size == 1 else f"{r}[{self.reg}:{self.end - 1}]"
        name = self.kind.text + (f"[{self.index}]" if self.index else "")
        return f"{name} in {regs}"


# user SGPRs the hardware loads per stage (AMDGPUUsage: "up to 16" for compute;
# the graphics stages' SPI_SHADER_USER_DATA_* has 32 on GFX9+)
def _max_user_sgprs(stage: Stage) -> int:
    return 16 if stage.is_compute else 32


@dataclass(frozen=True)
class ShaderArgs:
    """The registers a shader starts with and where its kernel arguments live."""

    stage: Stage
    args: tuple[Arg, ...]
    kernargs: KernargLayout | None = None  # None: no kernarg segment
    packed_local_ids: bool = True  # GFX11 packs the local ids into one VGPR
    local_id_dims: int = 0  # compute: the local invocation id dimensions loaded (1-3)

    # -- queries ----------------------------------------------------------------------------
    def get(self, kind: ArgKind, index: int = 0) -> Arg | None:
        for a in self.args:
            if a.kind is kind and a.index == index:
                return a
        return None

    def has(self, kind: ArgKind) -> bool:
        return any(a.kind is kind for a in self.args)

    def reg(self, kind: ArgKind, index: int = 0) -> int:
        a = self.get(kind, index)
        if a is None:
            raise AbiError(f"{self.stage.name}: no {kind.text} argument")
        return a.reg

    def of_file(self, file: RegFile) -> Iterator[Arg]:
        return (a for a in self.args if a.file is file)

    @property
    def num_user_sgprs(self) -> int:
        return sum(a.size for a in self.args if a.file is RegFile.SGPR and a.kind.user)

    @property
    def num_sgprs(self) -> int:
        """User plus system SGPRs."""
        return sum(a.size for a in self.of_file(RegFile.SGPR))

    @property
    def num_vgprs(self) -> int:
        return sum(a.size for a in self.of_file(RegFile.VGPR))

    def with_kernargs(self, kernargs: KernargLayout | None) -> ShaderArgs:
        return replace(self, kernargs=kernargs)

    # -- validation ------------------------------------------------------------------------
    def validate(self, target: Target | None = None) -> ShaderArgs:
        """Check the instance (returns it; `AbiError` naming the first problem):

        - the stage exists on `target`'s generation (if given);
        - every argument's kind exists on the stage's hardware stage, once per index;
        - each register file is filled contiguously from register 0 in argument order,
          user SGPRs before system SGPRs, at most the stage's user SGPRs (16 compute,
          32 graphics);
        - arguments whose place the hardware fixes come in its order (`ArgKind` rank);
        - the local invocation ids are packed (one VGPR) or one VGPR per dimension
          (`local_id_dims` of them), as `packed_local_ids` says;
        - a kernarg layout needs the kernarg segment pointer, and its entries do not
          overlap.
        """
        st = self.stage
        if target is not None and not st.supported_on(target.gfx_level):
            raise AbiError(f"stage {st.name} does not exist on {target.name} "
                           f"({target.gfx_level.name})")
        seen: set[tuple[ArgKind, int]] = set()
        for a in self.args:
            if st.hw not in a.kind.stages:
                raise AbiError(f"{st.name}: {a.kind.text} is not an argument of the "
                               f"hardware {st.hw.short.upper()} stage")
            if (a.kind, a.index) in seen:
                raise AbiError(f"{st.name}: {a.kind.text} given twice")
            seen.add((a.kind, a.index))
        for file in RegFile:
            nxt = 0
            last: tuple[bool, int] | None = None  # (user, rank) of the previous ranked arg
            system_seen = False
            # GFX9+ merged stages: s0-s7 hold the ring offsets and the system SGPRs,
            # user SGPRs follow from s8 (RADV, radv_shader_args.c)
            front = 8 if st.hw in (HWStage.HS, HWStage.GS, HWStage.NGG) else 0
            for a in self.of_file(file):
                if a.reg != nxt:
                    raise AbiError(f"{st.name}: {a.text()}, expected {file.value}{nxt} "
                                   "(registers are loaded contiguously in argument order)")
                nxt = a.end
                if file is RegFile.SGPR:
                    if a.kind.user and system_seen:
                        raise AbiError(f"{st.name}: user SGPR {a.text()} after a system "
                                       "SGPR")
                    system_seen |= not a.kind.user and a.end > front
                if a.kind.rank is not None:
                    key = (a.kind.user, a.kind.rank)
                    if last is not None and last[0] == key[0] and key[1] <= last[1]:
                        raise AbiError(f"{st.name}: {a.text()} out of the hardware's "
                                       "order")
                    last = key
        if self.num_user_sgprs > _max_user_sgprs(st):
            raise AbiError(f"{st.name}: {self.num_user_sgprs} user SGPRs (at most "
                           f"{_max_user_sgprs(st)})")
        split = {ArgKind.LOCAL_INVOCATION_ID_X, ArgKind.LOCAL_INVOCATION_ID_Y,
                 ArgKind.LOCAL_INVOCATION_ID_Z}
        wrong = split if self.packed_local_ids else {ArgKind.LOCAL_INVOCATION_IDS}
        for a in self.args:
            if a.kind in wrong:
                raise AbiError(f"{st.name}: {a.text()}, but the local invocation ids are "
                               f"{'' if self.packed_local_ids else 'not '}packed")
        n_ids = sum(a.kind in split for a in self.args)
        if st.is_compute and not 1 <= self.local_id_dims <= 3:
            raise AbiError(f"{st.name}: {self.local_id_dims} local invocation id "
                           "dimensions (1 to 3)")
        if not self.packed_local_ids and n_ids != self.local_id_dims:
            raise AbiError(f"{st.name}: {n_ids} local invocation id VGPRs for "
                           f"{self.local_id_dims} dimensions")
        if self.kernargs is not None:
            if not self.has(ArgKind.KERNARG_SEGMENT_PTR):
                raise AbiError(f"{st.name}: a kernarg layout without the kernarg segment "
                               "pointer")
            end = 0
            for e in sorted(self.kernargs.entries, key=lambda e: e.offset):
                if e.offset < end:
                    raise AbiError(f"kernel argument '{e.name}' at {e.offset} overlaps the "
                                   "one before it")
                end = e.offset + e.size
        return self
