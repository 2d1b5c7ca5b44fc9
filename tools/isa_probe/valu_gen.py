"""Generation plumbing shared by the VALU probes (vop.py, vop3.py, vop3p.py).

``--mcpu`` picks the chip llvm-mc-19 is asked about (default gfx1100, so the
GFX11 tables come out unchanged) and the data directory the table goes to:
gfx10xx below gfx1030 -> ``data/gfx10`` (GFX10.1), gfx103x -> ``data/gfx10_3``,
gfx11xx -> ``data/gfx11``. ``--out`` overrides the output path.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from radcc.oracle import llvm_mc

DATA = Path(__file__).resolve().parents[2] / "radcc" / "isa" / "data"
MCPU = "gfx1100"


def gen_dir(mcpu: str) -> str:
    """The data directory name of a chip (the GFX level's table)."""
    if mcpu.startswith("gfx11"):
        return "gfx11"
    if mcpu.startswith("gfx103"):
        return "gfx10_3"
    if mcpu.startswith("gfx10"):
        return "gfx10"
    raise SystemExit(f"no opcode table for -mcpu={mcpu}")


def is_gfx10(mcpu: str | None = None) -> bool:
    return (mcpu or MCPU).startswith("gfx10")


def parse_args(file_name: str, argv: list[str] | None = None) -> Path:
    """Parse --mcpu/--out, set the module's MCPU, return the output path."""
    global MCPU
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcpu", default="gfx1100")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    MCPU = args.mcpu
    return Path(args.out) if args.out else DATA / gen_dir(MCPU) / file_name


def dec(blobs: list[bytes], wave64: bool = False) -> list[str | None]:
    return llvm_mc.decode(blobs, mcpu=MCPU, wave64=wave64)


def enc(lines: list[str], wave64: bool = False) -> list[llvm_mc.McEncoding]:
    return llvm_mc.encode(lines, mcpu=MCPU, wave64=wave64)
