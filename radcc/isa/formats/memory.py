"""GFX11 memory and export encodings (ISA guide chapter 15.6-15.10).

Importing this module registers DS (`mem_ds`), MUBUF/MTBUF (`mem_buf`),
FLAT/GLOBAL/SCRATCH (`mem_flat`) and EXP (`mem_exp`); opcode facts live
in ``radcc/isa/data/gfx11/memory.json`` (tools/isa_probe/memory.py).
"""

from radcc.isa.formats import mem_buf, mem_ds, mem_exp, mem_flat, mem_mimg  # noqa: F401

__all__ = ["mem_buf", "mem_ds", "mem_exp", "mem_flat"]
