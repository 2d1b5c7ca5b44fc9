"""Encoding families of GFX11. Importing this package registers them all."""

from radcc.isa.formats import base  # noqa: F401
from radcc.isa.formats.base import DECODE_RULES, FORMATS, Context, Decoded, Encoded, Fixup, Format

# Each family module registers its formats on import. A family whose module
# is missing simply has no encoder yet (the assembler reports it).
for _mod in ("scalar", "vop", "vop3", "vop3p", "memory"):
    try:
        __import__(f"radcc.isa.formats.{_mod}")
    except ModuleNotFoundError as _e:  # pragma: no cover - during bring-up only
        if _e.name != f"radcc.isa.formats.{_mod}":
            raise

__all__ = ["DECODE_RULES", "FORMATS", "Context", "Decoded", "Encoded", "Fixup", "Format"]
