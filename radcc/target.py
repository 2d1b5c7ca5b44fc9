"""GPU descriptions: one `Target` per chip, keyed by the hardware generation.

Every table and pass asks a `Target` instead of testing chip names. The
numbers come from AMD's RDNA3 ISA guide (chapter 3, "Wave State") and the
register-file sizes LLVM's AMDGPU back end uses for each chip (facts, not
code). Adding GFX10/10.3, GFX9 or GFX12 chips means adding `GfxLevel` members
and `Target` rows here; nothing else keys on chip names.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class GfxLevel(enum.IntEnum):
    """Hardware generations, ordered so that `level >= GfxLevel.GFX10` works."""

    GFX6 = 60
    GFX7 = 70
    GFX8 = 80
    GFX9 = 90
    GFX10 = 100
    GFX10_3 = 103
    GFX11 = 110
    GFX12 = 120


class Feature(enum.Enum):
    """What a chip has, named as LLVM's AMDGPU subtarget features (`FeatureVOPD` ...) or,
    where LLVM derives it from the generation, as its `GCNSubtarget::has*` query
    (`hasDelayAlu`). The value is LLVM's `-mattr` spelling where one exists. A name that is
    not a member is an AttributeError where it is written, never a feature read as absent."""

    VOPD = "vopd"  # VOPD dual-issue (wave32)
    DelayAlu = "delay-alu"  # s_delay_alu (GCNSubtarget::hasDelayAlu, GFX11)
    True16BitInsts = "true16"
    WMMA = "wmma"  # v_wmma_* (GFX11)
    DotInsts = "dot-insts"  # v_dot* (LLVM splits them into dot1-insts ... dotN-insts)
    VOP3Literal = "vop3-literal"
    VOP3DPP = "vop3-dpp"
    NSAEncoding = "nsa-encoding"
    WavefrontSize32 = "wavefrontsize32"
    WavefrontSize64 = "wavefrontsize64"
    FlatGlobalInsts = "flat-global-insts"
    FlatScratchInsts = "flat-scratch-insts"
    SDWA = "sdwa"
    DPP = "dpp"
    XNACK = "xnack"  # LLVM's FeatureSupportsXNACK: GFX10.1 (RDNA3 has none)
    GFX10_AEncoding = "gfx10_a-encoding"  # image_bvh*_intersect_ray (gfx1013, GFX10.3)
    GFX10_3Insts = "gfx10-3-insts"  # GFX10.3's additions (v_fmac_legacy_f32 ...)
    ScalarStores = "scalar-stores"  # s_store_*/s_scratch_*/scalar atomics (GFX10.1 only)
    FlatScratchSTMode = "flat-scratch-st-mode"  # scratch_* with neither vaddr nor saddr
    # (GCNSubtarget::hasFlatScratchSTMode: GFX10.3+)


class Hazard(enum.Enum):
    """Hazards and hardware bugs, named as LLVM's `GCNHazardRecognizer` and AMDGPU.td name
    them (`FeatureVMEMtoScalarWriteHazard` -> `VMEMtoScalarWriteHazard`). Only the passes
    that mitigate a hazard ask for it (`Target.has_hazard`)."""

    # GFX11 (LLVM's GCNHazardRecognizer::fixVcmpxPermlaneHazards, fixLdsDirect*,
    # fixVALUTransUseHazard, fixVALUPartialForwardingHazard, fixVALUMaskWriteHazard)
    VcmpxPermlaneHazard = enum.auto()
    LdsDirectVALUHazard = enum.auto()
    LdsDirectVMEMHazard = enum.auto()
    VALUTransUseHazard = enum.auto()
    VALUPartialForwardingHazard = enum.auto()
    VALUMaskWriteHazard = enum.auto()
    # GFX11 WMMA (LLVM's GCNHazardRecognizer::fixWMMAHazards; ISA guide 7.9): a WMMA
    # reading as A or B the D of the WMMA just before it needs a VALU in between
    WMMAHazard = enum.auto()
    # GFX10.1 (LLVM's FeatureISAVersion10_1_Common)
    SMEMStoreLoadHazard = enum.auto()
    VMEMtoScalarWriteHazard = enum.auto()
    SMEMtoVectorWriteHazard = enum.auto()
    Offset3fBug = enum.auto()
    InstFwdPrefetchBug = enum.auto()
    LdsMisalignedBug = enum.auto()
    FlatSegmentOffsetBug = enum.auto()
    VcmpxExecWARHazard = enum.auto()
    LdsBranchVmemWARHazard = enum.auto()
    NSAClauseBug = enum.auto()
    NSAMaxSize5 = enum.auto()


class Tool(enum.Enum):
    """What radcc does for a chip: the subcommand that does it (`Target.supports`)."""

    COMPILE = "compile"  # SPIR-V/GLSL to a code object (radcc compile, radcc.driver.compile)
    RUN = "run"  # the emulator runs its code objects (radcc run, radcc.emu)
    LLC = "llc"  # machine IR to assembly or a code object (radcc llc)
    MC = "mc"  # assemble, disassemble, write code objects (radcc mc)


# What works on each generation: the one place `radcc targets`, the compiler driver and
# `radcc run` ask. A generation missing here has no working tool.
SUPPORT: dict[GfxLevel, frozenset[Tool]] = {
    GfxLevel.GFX11: frozenset(Tool),
    # GFX10 code is compiled from SPIR-V and checked against llvm-mc-19
    # (tests/e2e/test_glsl_gfx10_mc.py); the emulator runs GFX10 code objects (clang-19's
    # OpenCL kernels, tests/emu/test_kernels.py; docs/emulator.md)
    GfxLevel.GFX10_3: frozenset({Tool.COMPILE, Tool.RUN, Tool.LLC, Tool.MC}),
    GfxLevel.GFX10: frozenset({Tool.COMPILE, Tool.RUN, Tool.LLC, Tool.MC}),
}


@dataclass(frozen=True)
class RegisterFile:
    """Register budget of one wave for a given wave size."""

    total_vgprs: int  # physical VGPRs per SIMD lane slice, in this wave size's units
    vgpr_alloc_granule: int  # allocation granule the hardware hands out
    vgpr_encoding_granule: int  # granule of the kernel descriptor's VGPR field
    addressable_vgprs: int = 256


@dataclass(frozen=True)
class Target:
    """Description of one GPU (a `--mcpu` value)."""

    name: str  # the --mcpu spelling, e.g. "gfx1100"
    gfx_level: GfxLevel
    family: str  # marketing/chip family, e.g. "NAVI31"
    wave_sizes: tuple[int, ...]
    default_wave_size: int  # the ISA's default (llvm-mc/clang without -mattr), not a policy
    compute_wave_size: int  # what `radcc compile` picks for compute unless told (RADV's)
    register_files: dict[int, RegisterFile]  # keyed by wave size
    addressable_sgprs: int
    sgpr_alloc_granule: int
    max_waves_per_simd: int
    lds_size: int  # bytes per workgroup
    lds_alloc_granule: int  # bytes
    lds_encoding_granule: int  # bytes per unit of COMPUTE_PGM_RSRC2.LDS_SIZE
    features: frozenset[Feature] = field(default_factory=frozenset)
    hazards: frozenset[Hazard] = field(default_factory=frozenset)

    @property
    def triple(self) -> str:
        return "amdgcn-amd-amdhsa"

    @property
    def target_id(self) -> str:
        """The `.amdgcn_target` string LLVM uses for this chip."""
        return f"{self.triple}--{self.name}"

    @property
    def mir_options(self) -> MirOptions:
        """The mid-level IR lowering options of this chip's generation (`MirOptions`)."""
        try:
            return MIR_OPTIONS[self.gfx_level]
        except KeyError:
            raise ValueError(f"no instruction selection for {self.name} "
                             f"({self.gfx_level.name})") from None

    def supports(self, tool: Tool) -> bool:
        """Does radcc's `tool` work for this chip (`SUPPORT`)?"""
        return tool in SUPPORT.get(self.gfx_level, frozenset())

    @property
    def tools(self) -> tuple[Tool, ...]:
        """The tools that work for this chip, in `Tool` order."""
        return tuple(t for t in Tool if self.supports(t))

    def has(self, feature: Feature) -> bool:
        if not isinstance(feature, Feature):
            raise TypeError(f"Target.has takes a Feature, not {feature!r}")
        return feature in self.features

    def has_hazard(self, hazard: Hazard) -> bool:
        if not isinstance(hazard, Hazard):
            raise TypeError(f"Target.has_hazard takes a Hazard, not {hazard!r}")
        return hazard in self.hazards

    def regfile(self, wave_size: int) -> RegisterFile:
        try:
            return self.register_files[wave_size]
        except KeyError:
            raise ValueError(f"{self.name} does not run wave{wave_size}") from None

    def waves_per_simd(self, vgprs: int, sgprs: int, wave_size: int) -> int:
        """Occupancy limit from register use (LDS limits are the caller's)."""
        rf = self.regfile(wave_size)
        waves = self.max_waves_per_simd
        if vgprs > 0:
            g = rf.vgpr_alloc_granule
            alloc = (vgprs + g - 1) // g * g
            waves = min(waves, rf.total_vgprs // alloc)
        # GFX10+ SGPRs are not a per-SIMD shared resource any more.
        if self.gfx_level < GfxLevel.GFX10 and sgprs > 0:
            g = self.sgpr_alloc_granule
            alloc = (sgprs + g - 1) // g * g
            waves = min(waves, 800 // alloc)
        return max(waves, 0)


# The GFX11 hazards (LLVM's GCNHazardRecognizer; ACO's insert_NOPs, handle_instruction_gfx11).
_GFX11_HAZARDS = frozenset(
    {
        Hazard.VcmpxPermlaneHazard,
        Hazard.LdsDirectVALUHazard,
        Hazard.LdsDirectVMEMHazard,
        Hazard.VALUTransUseHazard,
        Hazard.VALUPartialForwardingHazard,
        Hazard.VALUMaskWriteHazard,
        Hazard.WMMAHazard,
    }
)

GFX11_HAZARDS = _GFX11_HAZARDS  # (public: the emulator's strict mode defaults to them)

_GFX11_FEATURES = frozenset(
    {
        Feature.VOPD,
        Feature.DelayAlu,
        Feature.True16BitInsts,
        Feature.WMMA,
        Feature.DotInsts,
        Feature.VOP3Literal,
        Feature.VOP3DPP,
        Feature.NSAEncoding,
        Feature.WavefrontSize32,
        Feature.WavefrontSize64,
        Feature.FlatGlobalInsts,
        Feature.FlatScratchInsts,
        Feature.FlatScratchSTMode,
        Feature.GFX10_AEncoding,
        Feature.GFX10_3Insts,
    }
)


def _gfx11(name: str, family: str, full_vgprs: bool, extra: frozenset[Feature] = frozenset()) -> Target:
    if full_vgprs:
        rfs = {32: RegisterFile(1536, 24, 8), 64: RegisterFile(768, 12, 4)}
    else:
        rfs = {32: RegisterFile(1024, 16, 8), 64: RegisterFile(512, 8, 4)}
    return Target(
        name=name,
        gfx_level=GfxLevel.GFX11,
        family=family,
        wave_sizes=(32, 64),
        default_wave_size=32,
        compute_wave_size=32,
        register_files=rfs,
        addressable_sgprs=106,
        sgpr_alloc_granule=8,
        max_waves_per_simd=16,
        lds_size=65536,
        lds_alloc_granule=512,
        lds_encoding_granule=512,
        features=_GFX11_FEATURES | extra,
        hazards=_GFX11_HAZARDS,
    )


# Hazards and bugs of ACO's README-ISA.md "RDNA / GFX10 hazards" on GFX10.1 (Navi 1x):
# LLVM's AMDGPU.td FeatureISAVersion10_1_Common lists every one of them (the "gfx101x
# bugs": VcmpxPermlane, VMEMtoScalarWrite, SMEMtoVectorWrite, InstFwdPrefetch,
# VcmpxExecWAR, LdsBranchVmemWAR, NSAClause, Offset3f, FlatSegmentOffset, plus
# LdsMisalignedBug); ACO applies its GFX10 insert_NOPs handler and its Offset3f
# assembler fix on GFX10 only. "SMEMStoreLoadHazard" is the section's first, unnamed
# item (ACO's insert_waitcnt); "NSAMaxSize5" is ACO's NSA limit before GFX10.3.
_GFX10_1_HAZARDS = frozenset(
    {
        Hazard.SMEMStoreLoadHazard,
        Hazard.VMEMtoScalarWriteHazard,
        Hazard.SMEMtoVectorWriteHazard,
        Hazard.Offset3fBug,
        Hazard.InstFwdPrefetchBug,
        Hazard.LdsMisalignedBug,
        Hazard.FlatSegmentOffsetBug,
        Hazard.VcmpxPermlaneHazard,
        Hazard.VcmpxExecWARHazard,
        Hazard.LdsBranchVmemWARHazard,
        Hazard.NSAClauseBug,
        Hazard.NSAMaxSize5,
    }
)
# GFX10.3 (Navi 2x): FeatureISAVersion10_3_0 has none of those features, and ACO's
# insert_NOPs does nothing on GFX10.3 ("no hazards/bugs to mitigate"). The SMEM
# store/load item cannot arise: GFX10.3 has no scalar stores (FeatureScalarStores is
# GFX10.1-only; llvm-mc-19 -mcpu=gfx1030 rejects s_store_dword).
_GFX10_3_HAZARDS: frozenset[Hazard] = frozenset()

# LLVM's AMDGPU.td FeatureISAVersion10_Common (VOP3 literals, NSA, wave32 and wave64, the
# FLAT global/scratch forms, SDWA and DPP from FeatureGFX10).
_GFX10_FEATURES = frozenset(
    {Feature.VOP3Literal, Feature.NSAEncoding, Feature.WavefrontSize32,
     Feature.WavefrontSize64, Feature.FlatGlobalInsts, Feature.FlatScratchInsts, Feature.SDWA,
     Feature.DPP}
)
# FeatureISAVersion10_1_Common adds scalar stores and XNACK support (and the bugs above)
_GFX10_1_FEATURES = _GFX10_FEATURES | {Feature.ScalarStores, Feature.XNACK}
# FeatureISAVersion10_3_0 (every gfx103x): GFX10_A/B encodings, the GFX10.3 instructions,
# the dot instructions, and flat scratch ST mode (GCNSubtarget::hasFlatScratchSTMode)
_GFX10_3_FEATURES = _GFX10_FEATURES | {
    Feature.GFX10_AEncoding, Feature.GFX10_3Insts, Feature.DotInsts, Feature.FlatScratchSTMode}


def _gfx10(name: str, family: str, gfx_level: GfxLevel, extra: frozenset[Feature] = frozenset()) -> Target:
    """GFX10.1 (Navi 1x) and GFX10.3 (Navi 2x): 1024 wave32 VGPRs per SIMD; the allocation
    granule is 8 (wave32) / 4 (wave64) on 10.1 and 16 / 8 on 10.3; 20 waves per SIMD on 10.1,
    16 on 10.3 (LLVM's AMDGPUBaseInfo figures). Compute defaults to wave64, as RADV compiles
    compute shaders on GFX10/10.3 (radv_physical_device: cs_wave_size 64 unless the
    cswave32 perftest); the ISA default (llvm-mc, clang) stays wave32."""
    ten3 = gfx_level >= GfxLevel.GFX10_3
    g32, g64 = (16, 8) if ten3 else (8, 4)
    return Target(
        name=name,
        gfx_level=gfx_level,
        family=family,
        wave_sizes=(32, 64),
        default_wave_size=32,
        compute_wave_size=64,
        register_files={32: RegisterFile(1024, g32, 8), 64: RegisterFile(512, g64, 4)},
        addressable_sgprs=106,
        sgpr_alloc_granule=8,
        max_waves_per_simd=16 if ten3 else 20,
        lds_size=65536,
        lds_alloc_granule=512,
        lds_encoding_granule=512,
        features=(_GFX10_3_FEATURES if ten3 else _GFX10_1_FEATURES) | extra,
        hazards=_GFX10_3_HAZARDS if ten3 else _GFX10_1_HAZARDS,
    )


@dataclass(frozen=True)
class MirOptions:
    """What the mid-level IR must look like for instruction selection on one generation
    (NIR's ``nir_shader_compiler_options``): `radcc.frontend.opt.lower_for_isel` lowers
    by it and `isel_form.check_isel_form` checks it.

    lowered_ops: MIR operations isel has no instruction sequence for (integer and float
      division, the GLSL.std.450 operations without an instruction, GLSL bitfield/pack
      forms, system values known at compile time, variable derefs);
    offset_range: per memory space (``ssbo``, ``ubo``, ``push_constant``, ``constant``
      (the code object's constant data), ``shared``, ``scratch``), the byte range an access's immediate offset may take: the
      non-negative part every instruction isel may choose for the space accepts;
    cas_atomics: (memory space ``ssbo``/``global``/``shared``, ``atomic_op``, bit size) of
      the atomics the generation has no instruction for: ``opt.lower_atomics`` makes them
      compare-and-swap loops.
    """

    lowered_ops: frozenset[str]
    offset_range: dict[str, tuple[int, int]]
    cas_atomics: frozenset[tuple[str, str, int]] = frozenset()


_LOWERED_OPS = frozenset(
    "udiv idiv umod irem imod fdiv fpow fmod frem fatan2 ftan fasin facos fatan fsinh fcosh "
    "ftanh fasinh facosh fatanh fsin fcos flrp fstep fsign isign fisinf "
    "ubitfield_extract ibitfield_extract bitfield_insert "
    "pack_half_2x16 pack_unorm_2x16 pack_snorm_2x16 pack_unorm_4x8 pack_snorm_4x8 "
    "unpack_half_2x16 unpack_unorm_2x16 unpack_snorm_2x16 unpack_unorm_4x8 unpack_snorm_4x8 "
    "load_subgroup_size load_num_subgroups load_workgroup_size "
    "deref_var deref_array deref_struct load_deref store_deref".split()
)

# GFX10/10.3: global/scratch OFFSET 12-bit signed (RDNA2 ISA guide, FLAT format;
# radcc.isa.formats.mem_flat), the others as GFX11
_GFX10_OFFSETS = {"ssbo": (0, 2047), "ubo": (0, 2047), "push_constant": (0, 2047),
                  "constant": (0, 2047), "shared": (0, 65535), "scratch": (0, 2047)}
# NIR's integer dot products of four bytes (DOT_4X8) by generation, as Mesa's ac_nir options
# (has_sdot_4x8/has_udot_4x8 with accelerated dot products, has_sudot_4x8 on GFX11+): GFX11's
# v_dot4_i32_iu8 (signedness per operand) and v_dot4_u32_u8; GFX10.3's v_dot4_i32_i8 and
# v_dot4_u32_u8 (no mixed form); GFX10.1's table has none (gfx1011/gfx1012's dot
# instructions are not in it)
_DOT_4X8 = frozenset({"sdot_4x8_iadd", "udot_4x8_uadd", "sudot_4x8_iadd"})
# GFX10/10.3 have no global/buffer float add (global_atomic_add_f32 is GFX11's; LLVM's
# FeatureAtomicFaddRtnInsts is not in FeatureISAVersion10_*: llvm-mc-19 -mcpu=gfx1030/gfx1010
# rejects it) nor an f64 one, and no generation an LDS f64 add (ds_add_rtn_f64 is GFX90A's):
# compare-and-swap loops (GFX11 has the f32 instruction, not global_atomic_add_f64:
# llvm-mc-19 -mcpu=gfx1100 rejects it)
_CAS_F64 = frozenset({("ssbo", "fadd", 64), ("global", "fadd", 64), ("shared", "fadd", 64)})
_GFX10_CAS_ATOMICS = _CAS_F64 | {("ssbo", "fadd", 32), ("global", "fadd", 32)}
MIR_OPTIONS: dict[GfxLevel, MirOptions] = {
    # GFX11: global/scratch OFFSET 13-bit signed, SMEM 21-bit signed, MUBUF 12-bit
    # unsigned, DS 16-bit unsigned (RDNA3 ISA guide, chapter 15 "Microcode Formats")
    GfxLevel.GFX11: MirOptions(_LOWERED_OPS, {
        "ssbo": (0, 4095), "ubo": (0, 4095), "push_constant": (0, 4095),
        "constant": (0, 4095), "shared": (0, 65535), "scratch": (0, 4095)},
        _CAS_F64),
    GfxLevel.GFX10_3: MirOptions(_LOWERED_OPS | {"sudot_4x8_iadd"}, _GFX10_OFFSETS,
                                 _GFX10_CAS_ATOMICS),
    GfxLevel.GFX10: MirOptions(_LOWERED_OPS | _DOT_4X8, _GFX10_OFFSETS, _GFX10_CAS_ATOMICS),
}


# The chips of LLVM's AMDGPU processor table (AMDGPU.td FeatureISAVersion10_1_0 ...
# 10_3_0) with Mesa's family names (amd_family: CHIP_NAVI10 ..., ac_gpu_info). GFX10.1:
# gfx1011/gfx1012 add the dot instructions (Dot1/2/5/6/7/10), gfx1013 (Cyan Skillfish) the
# GFX10_A encoding (BVH ray intersection) and no dot instructions; every gfx103x has the
# same ISA features (FeatureISAVersion10_3_0).
_DOT = frozenset({Feature.DotInsts})
TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        _gfx10("gfx1010", "NAVI10", GfxLevel.GFX10),
        _gfx10("gfx1011", "NAVI12", GfxLevel.GFX10, _DOT),
        _gfx10("gfx1012", "NAVI14", GfxLevel.GFX10, _DOT),
        _gfx10("gfx1013", "GFX1013", GfxLevel.GFX10, frozenset({Feature.GFX10_AEncoding})),
        _gfx10("gfx1030", "NAVI21", GfxLevel.GFX10_3),
        _gfx10("gfx1031", "NAVI22", GfxLevel.GFX10_3),
        _gfx10("gfx1032", "NAVI23", GfxLevel.GFX10_3),
        _gfx10("gfx1033", "VANGOGH", GfxLevel.GFX10_3),
        _gfx10("gfx1034", "NAVI24", GfxLevel.GFX10_3),
        _gfx10("gfx1035", "REMBRANDT", GfxLevel.GFX10_3),
        _gfx10("gfx1036", "GFX1036", GfxLevel.GFX10_3),
        _gfx11("gfx1100", "NAVI31", full_vgprs=True),
        _gfx11("gfx1101", "NAVI32", full_vgprs=True),
        _gfx11("gfx1102", "NAVI33", full_vgprs=False),
        _gfx11("gfx1103", "GFX1103", full_vgprs=False),
    )
}


# The chip every command and API defaults to (RDNA3, the generation radcc grew up on).
DEFAULT_MCPU = "gfx1100"


def get_target(name: str) -> Target:
    """Look up a chip by its `--mcpu` name; raises ValueError naming the known ones."""
    try:
        return TARGETS[name]
    except KeyError:
        known = ", ".join(sorted(TARGETS))
        raise ValueError(f"unknown GPU '{name}' (known: {known})") from None
