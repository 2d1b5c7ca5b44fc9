"""The one error the SPIR-V reader raises, and the warning the validator gives: a message
at a word offset."""

from __future__ import annotations


class SpirvError(Exception):
    """Malformed or unsupported SPIR-V.

    ``word_offset`` is the index (in 32-bit words, from the start of the module)
    of the instruction at fault, or of the header word; ``opname`` names that
    instruction when it is known (``OpCapability``), empty for the header.
    """

    def __init__(self, message: str, word_offset: int, opname: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.word_offset = word_offset
        self.opname = opname

    def render(self, filename: str = "<spirv>") -> str:
        """``FILE: word N: error: OpName: message`` (no opname for header errors)."""
        where = f"{self.opname}: " if self.opname else ""
        return f"{filename}: word {self.word_offset}: error: {where}{self.message}"

    def __str__(self) -> str:
        where = f"{self.opname}: " if self.opname else ""
        return f"word {self.word_offset}: {where}{self.message}"


class SpirvWarning:
    """A rule the module breaks that radcc tolerates (`validate.validate_module` says
    which): a message at a word offset, printed, never fatal."""

    def __init__(self, message: str, word_offset: int, opname: str = "") -> None:
        self.message = message
        self.word_offset = word_offset
        self.opname = opname

    def render(self, filename: str = "<spirv>") -> str:
        """``FILE: word N: warning: OpName: message``."""
        where = f"{self.opname}: " if self.opname else ""
        return f"{filename}: word {self.word_offset}: warning: {where}{self.message}"

    def __str__(self) -> str:
        where = f"{self.opname}: " if self.opname else ""
        return f"word {self.word_offset}: {where}{self.message}"
