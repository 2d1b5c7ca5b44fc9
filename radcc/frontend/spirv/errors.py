"""The one error the SPIR-V reader raises, and the warning the validator gives: a message
at a word offset."""

from __future__ import annotations


class _Located:
    """A message about the SPIR-V instruction at ``word_offset`` (the index, in 32-bit
    words from the start of the module, of the instruction at fault, or of the header
    word); ``opname`` names that instruction when it is known (``OpCapability``), empty
    for the header. ``SEVERITY`` is the word `render` prints."""

    SEVERITY = ""

    def _locate(self, message: str, word_offset: int, opname: str) -> None:
        self.message = message
        self.word_offset = word_offset
        self.opname = opname

    def render(self, filename: str = "<spirv>") -> str:
        """``FILE: word N: SEVERITY: OpName: message`` (no opname for header errors)."""
        where = f"{self.opname}: " if self.opname else ""
        return f"{filename}: word {self.word_offset}: {self.SEVERITY}: {where}{self.message}"

    def __str__(self) -> str:
        where = f"{self.opname}: " if self.opname else ""
        return f"word {self.word_offset}: {where}{self.message}"


class SpirvError(_Located, Exception):
    """Malformed or unsupported SPIR-V (`_Located` says what the fields hold)."""

    SEVERITY = "error"

    def __init__(self, message: str, word_offset: int, opname: str = "") -> None:
        super().__init__(message)
        self._locate(message, word_offset, opname)


class SpirvWarning(_Located):
    """A rule the module breaks that radcc tolerates (`validate.validate_module` says
    which): a message at a word offset, printed, never fatal."""

    SEVERITY = "warning"

    def __init__(self, message: str, word_offset: int, opname: str = "") -> None:
        self._locate(message, word_offset, opname)
