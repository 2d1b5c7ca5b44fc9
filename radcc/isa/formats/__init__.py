"""Encoding families of GFX11. Importing this package registers them all."""

from radcc.isa.formats import base  # noqa: F401
from radcc.isa.formats.base import DECODE_RULES, FORMATS, Context, Decoded, Encoded, Fixup, Format

# Each family module registers its formats on import. A family whose module
# is missing simply has no encoder yet (the assembler reports it).
# Each family's module registers it when imported, in this order: among decoding rules
# of equal specificity the first registered wins (`base.register`).
# isort: off
from radcc.isa.formats import scalar  # noqa: F401
from radcc.isa.formats import vop  # noqa: F401
from radcc.isa.formats import vop3  # noqa: F401
from radcc.isa.formats import vop3p  # noqa: F401
from radcc.isa.formats import interp  # noqa: F401
from radcc.isa.formats import vopd  # noqa: F401
from radcc.isa.formats import memory  # noqa: F401
# isort: on

__all__ = ["DECODE_RULES", "FORMATS", "Context", "Decoded", "Encoded", "Fixup", "Format"]
