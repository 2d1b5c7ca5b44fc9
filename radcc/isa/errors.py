"""Errors of the machine layer, carrying source columns for diagnostics."""

from __future__ import annotations


class AsmError(Exception):
    """A user error in one assembly statement.

    `col` is the 1-based column the diagnostic points at (0: the statement's
    start). The driver turns it into ``file:line:col: error: message``.
    """

    def __init__(self, message: str, col: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.col = col


class DecodeError(Exception):
    """Bytes that do not form a valid instruction; the disassembler prints
    them as ``.long`` and goes on."""
