"""The emulator's errors (below every other `radcc.emu` module)."""

from __future__ import annotations


class EmuError(Exception):
    """An error the emulator reports to the user (never a traceback)."""


class UnsupportedInstruction(EmuError):
    pass
