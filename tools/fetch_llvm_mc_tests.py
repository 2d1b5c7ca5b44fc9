#!/usr/bin/env python3
"""Copy LLVM's GFX11 MC test inputs out of a local llvm-project checkout.

  python tools/fetch_llvm_mc_tests.py /path/to/llvm-project [DEST]

DEST defaults to /tmp/llvm-mc-tests. Copies
``llvm/test/MC/AMDGPU/gfx11_asm_*.s`` and
``llvm/test/MC/Disassembler/AMDGPU/gfx11_dasm_*.txt`` (whole files) for
tools/mc_agreement.py. Sessions without a checkout and without network
access fetch partial copies instead: see tools/fetch_llvm_mc_tests.md.
The copies are inputs for a measurement; never commit them.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

PATTERNS = [("llvm/test/MC/AMDGPU", "gfx11_asm_*.s"),
            ("llvm/test/MC/Disassembler/AMDGPU", "gfx11_dasm_*.txt")]


def fetch(checkout: Path, dest: Path) -> int:
    dest.mkdir(parents=True, exist_ok=True)
    n = 0
    for sub, pattern in PATTERNS:
        for src in sorted((checkout / sub).glob(pattern)):
            shutil.copyfile(src, dest / src.name)
            n += 1
    return n


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 1
    checkout = Path(argv[0])
    dest = Path(argv[1]) if len(argv) > 1 else Path("/tmp/llvm-mc-tests")
    if not (checkout / "llvm/test/MC/AMDGPU").is_dir():
        print(f"fetch_llvm_mc_tests: {checkout} is not an llvm-project checkout", file=sys.stderr)
        return 1
    n = fetch(checkout, dest)
    print(f"copied {n} files to {dest}")
    return 0 if n else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
