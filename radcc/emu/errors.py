"""The emulator's errors (below every other `radcc.emu` module)."""

from __future__ import annotations


class EmuError(Exception):
    """An error the emulator reports to the user (never a traceback)."""


class UnsupportedInstruction(EmuError):
    pass


class KernelFault(EmuError):
    """The kernel went wrong while running (a memory fault, an unsupported or trapping
    instruction, ...): its program, not the dispatch's arguments."""


class InstructionLimit(KernelFault):
    """The dispatch ran past its instruction limit (a runaway kernel?)."""


# The limit `radcc run` and `radcc.run` stop a dispatch at unless told otherwise: a runaway
# kernel stops within seconds (the emulator runs some 10^5 to 10^6 instructions a second,
# loaded machine to idle). An instruction count, not wall time, so the limit is reproducible.
DEFAULT_MAX_INSTRUCTIONS = 1_000_000
