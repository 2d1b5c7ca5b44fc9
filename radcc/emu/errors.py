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
