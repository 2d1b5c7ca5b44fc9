"""Shader stages and the shader ABI: what a program is (`Stage`), which registers it
starts with and where its kernel arguments and descriptors come from (`ShaderArgs`,
`KernargLayout`), per stage and ABI (`amdhsa` for compute kernels, `graphics` for
RADV's graphics stages). Depends only on `radcc.target`; instruction selection, the
passes, the code-object writer and the emulator all read it. See docs/abi.md.
"""

from radcc.abi.args import AbiError, Arg, ArgKind, RegFile, ShaderArgs
from radcc.abi.kernarg import KernargEntry, KernargError, KernargLayout, Role, ValueKind
from radcc.abi.stage import COMPUTE_CS, FRAGMENT_FS, HWStage, Stage, StageError, SWStage

__all__ = ["COMPUTE_CS", "FRAGMENT_FS", "AbiError", "Arg", "ArgKind", "HWStage",
           "KernargEntry", "KernargError", "KernargLayout", "RegFile", "Role", "SWStage",
           "ShaderArgs", "Stage", "StageError", "ValueKind"]
