"""Shader stages and the shader ABI: what a program is (`Stage`), which registers it
starts with and where its kernel arguments and descriptors come from. Depends only on
`radcc.target`; instruction selection, the passes, the code-object writer and the
emulator all read it. See docs/abi.md.
"""

from radcc.abi.stage import COMPUTE_CS, FRAGMENT_FS, HWStage, Stage, StageError, SWStage

__all__ = ["COMPUTE_CS", "FRAGMENT_FS", "HWStage", "SWStage", "Stage", "StageError"]
