"""ELF code objects: the public writer/reader API (re-exported from elfwrite/elfread)."""

from radcc.codeobj.elfread import (
    CodeObject,
    KernelInfo,
    Section,
    Segment,
    Symbol,
    read_code_object,
)
from radcc.codeobj.elfwrite import KernelSymbol, Layout, layout_code_object, write_code_object

__all__ = [
    "CodeObject",
    "KernelInfo",
    "KernelSymbol",
    "Layout",
    "Section",
    "Segment",
    "Symbol",
    "layout_code_object",
    "read_code_object",
    "write_code_object",
]
