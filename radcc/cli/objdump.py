"""`radcc objdump`: a code object's instructions as ``llvm-objdump -d`` lists them.

    radcc objdump [-d] [--wave64] FILE.o [FILE.o ...]

The target comes from each file's ELF header; the listing is
`radcc.driver.objdump.objdump_text`'s. Exit status 0, or 1 when a file cannot be
read or is not an AMDGPU code object radcc decodes (``FILE: error: ...``).
"""

from __future__ import annotations

import argparse
import sys

from radcc.cli._help import ArgError, ArgParser


def build_parser() -> argparse.ArgumentParser:
    p = ArgParser(prog="radcc objdump",
                  description="list the instructions of AMDGPU code objects as llvm-objdump -d "
                              "does (target from the ELF header)")
    p.add_argument("files", nargs="+", metavar="FILE.o",
                   help="AMDHSA code objects (radcc's, clang's, llvm-mc's)")
    p.add_argument("-d", "--disassemble", action="store_true",
                   help="accepted for llvm-objdump compatibility (listing is the default)")
    p.add_argument("--wave64", action="store_true",
                   help="decode as wave64 (llvm-objdump --mattr=+wavefrontsize64); default: "
                        "the target's default wave size, as llvm-objdump")
    p.add_argument("--mattr", default="", metavar="FEATURES",
                   help="llvm-objdump spelling: only +wavefrontsize64/+wavefrontsize32 are "
                        "understood (default: none)")
    return p


def main(argv: list[str]) -> int:
    from radcc.codeobj.errors import CodeObjectError
    from radcc.driver.objdump import ObjdumpError, objdump_text

    argv = ["--" + a[1:] if a.startswith("-mattr") else a for a in argv]
    try:
        args = build_parser().parse_args(argv)
    except ArgError as e:
        print(f"radcc objdump: error: {e}", file=sys.stderr)
        return 1
    wave: int | None = 64 if args.wave64 else None
    for feat in filter(None, args.mattr.split(",")):
        if feat == "+wavefrontsize64":
            wave = 64
        elif feat == "+wavefrontsize32":
            wave = 32
        else:
            print(f"radcc objdump: error: --mattr: unsupported feature '{feat}' "
                  f"(+wavefrontsize32, +wavefrontsize64)", file=sys.stderr)
            return 1
    status = 0
    for path in args.files:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"radcc objdump: error: {path}: {e.strerror}", file=sys.stderr)
            status = 1
            continue
        try:
            sys.stdout.write(objdump_text(data, path, wave))
        except (CodeObjectError, ObjdumpError) as e:
            print(f"{path}: error: {e}", file=sys.stderr)
            status = 1
    return status
