"""`radcc mc`: mirrors llvm-mc for AMDGPU.

  radcc mc --mcpu=gfx1100 [--show-encoding] FILE.s
  radcc mc --mcpu=gfx1100 --disassemble [--show-encoding] FILE.txt
  radcc mc --mcpu=gfx1100 --filetype=obj -o k.o FILE.s

FILE may be ``-`` or absent for standard input. llvm-mc's single-dash
spellings (``-mcpu=``, ``-show-encoding``, ``-disassemble``) work too.
"""

from __future__ import annotations

import argparse
import sys

from radcc.cli._help import ArgError, ArgParser, HelpFormatter
from radcc.target import DEFAULT_MCPU, get_target

_LONG = ("mcpu", "show-encoding", "disassemble", "filetype", "triple", "mattr", "wave64", "wave32",
         "arch", "output-asm-variant", "show-inst", "o")


def _normalize(argv: list[str]) -> list[str]:
    out = []
    for a in argv:
        if a.startswith("-") and not a.startswith("--") and len(a) > 2:
            key = a[1:].split("=", 1)[0]
            if key in _LONG:
                a = "-" + a
        out.append(a)
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="radcc mc", description=__doc__,
                                formatter_class=HelpFormatter)
    p.add_argument("file", nargs="?", default="-",
                   help="assembly (or with --disassemble, hex bytes) to read; '-' or absent "
                        "for stdin")
    p.add_argument("--mcpu", default=DEFAULT_MCPU,
                   help="the target GPU ('--mcpu=help' or 'radcc targets' lists them)")
    p.add_argument("--triple", default="amdgcn-amd-amdhsa",
                   help="the target triple (amdgcn-amd-amdhsa only)")
    p.add_argument("--arch", default=None, help="the architecture (amdgcn only; as llvm-mc)")
    p.add_argument("--mattr", default="",
                   help="target features, as llvm-mc: +wavefrontsize64, -wavefrontsize32, ...")
    p.add_argument("--show-encoding", action="store_true",
                   help="print each instruction's encoding as a comment")
    p.add_argument("--disassemble", action="store_true",
                   help="read hex bytes and print the instructions they encode")
    p.add_argument("--filetype", choices=("asm", "obj", "null"), default="asm",
                   help="what to write: assembly text, a code object (.amdhsa_kernel blocks "
                        "become kernels), or nothing (only check)")
    p.add_argument("-o", "--o", dest="output", default="-", metavar="OUT",
                   help="the output file ('-' for stdout)")
    p.add_argument("--wave64", action="store_true", help="assemble for wave64")
    p.add_argument("--wave32", action="store_true", help="assemble for wave32 (the default)")
    return p


def main(argv: list[str]) -> int:
    p = build_parser()
    p.__class__ = ArgParser
    try:
        args = p.parse_args(_normalize(argv))
    except ArgError as e:
        print(f"radcc mc: error: {e}", file=sys.stderr)
        return 1
    if args.mcpu == "help":
        from radcc.cli.targets import targets_table

        sys.stdout.write(targets_table())
        return 0
    try:
        target = get_target(args.mcpu)
    except ValueError as e:
        print(f"radcc mc: error: {e}", file=sys.stderr)
        return 1
    wave = 64 if (args.wave64 or "+wavefrontsize64" in args.mattr) else 32
    name = "<stdin>" if args.file == "-" else args.file
    try:
        if args.file == "-":
            src = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8", errors="surrogateescape") as f:
                src = f.read()
    except OSError as e:
        print(f"radcc mc: error: {name}: {e.strerror}", file=sys.stderr)
        return 1
    out = sys.stdout if args.output == "-" else None
    if args.disassemble:
        if src.startswith("\x7fELF"):
            print(f"{name}:1:1: error: this is an ELF file (a code object), not hex bytes: "
                  f"list it with 'radcc objdump {name}'", file=sys.stderr)
            return 1
        return _disassemble(src, name, target, wave, args.show_encoding)
    return _assemble(src, name, target, wave, args, out)


def _disassemble(src: str, name: str, target, wave: int, show: bool) -> int:
    from radcc.isa.disassembler import disassemble, is_invalid, read_byte_list

    runs, errors = read_byte_list(src)
    from radcc.isa.assembler import format_listing_line

    lines = ["\t.text"]
    append = lines.append
    failed = bool(errors)
    pending = iter(errors)  # printed in the input's order among the warnings
    nxt = next(pending, None)

    def report(ln: int, col: int, text: str) -> None:
        nonlocal nxt
        while nxt is not None and nxt[:2] <= (ln, col):
            print(f"{name}:{nxt[0]}:{nxt[1]}: error: {nxt[2]}", file=sys.stderr)
            nxt = next(pending, None)
        if text:
            print(f"{name}:{ln}:{col}: {text}", file=sys.stderr)

    for run in runs:
        data = run.data
        report(*run.where[0], "")
        for _off, d in disassemble(data, target, wave):
            if is_invalid(d):
                report(*run.where[_off], "warning: invalid instruction encoding")
                if run.atomic:  # llvm-mc-19 does not resynchronise inside a block
                    failed = True
                    break
                append("\t" + d.text)
            elif show:
                append(format_listing_line(d.text, data[_off : _off + d.size], []))
            else:
                append("\t" + d.text)
    report(1 << 30, 0, "")
    sys.stdout.write("\n".join(lines) + "\n")
    return 1 if failed else 0


def _assemble(src: str, name: str, target, wave: int, args, out) -> int:
    from radcc.isa.assembler import assemble, format_listing_line

    res = assemble(src, target, name, wave)
    for d in res.diagnostics:
        print(d, file=sys.stderr)
    if args.filetype == "obj":
        from radcc.codeobj.errors import CodeObjectError
        from radcc.driver.mc import entry_errors, write_object

        errors = res.object_errors + (entry_errors(res, src, name) if res.ok else [])
        for d in errors:
            print(d, file=sys.stderr)
        if not res.ok or errors:
            return 1

        try:
            blob = write_object(res, target, wave)
        except CodeObjectError as e:
            print(f"{name}: error: {e}", file=sys.stderr)
            return 1
        if args.output == "-":
            sys.stdout.buffer.write(blob)
        else:
            try:
                with open(args.output, "wb") as f:
                    f.write(blob)
            except OSError as e:
                print(f"radcc mc: error: cannot write {args.output}: {e.strerror}",
                      file=sys.stderr)
                return 1
        return 0
    if res.ok and res.metadata_yaml:  # read as for an object, as llvm-mc does in every mode
        from radcc.codeobj.errors import CodeObjectError
        from radcc.codeobj.metadata import parse_yaml

        try:
            parse_yaml(res.metadata_yaml)
        except CodeObjectError as e:
            print(f"{name}: error: {e}", file=sys.stderr)
            return 1
    if args.filetype == "null":
        return 0 if res.ok else 1
    lines = ["\t.text"]
    section = ".text"
    for st in res.statements:
        text = st.text
        assert text is not None  # (assembled with texts)
        if st.kind == "label":
            lines.append(f"{text}:")
        elif st.kind == "directive":
            switch = text in ("\t.text", "\t.data", "\t.rodata", "\t.bss") or \
                text.startswith("\t.section\t")
            if switch:
                # like llvm-mc, echo a section switch only when it changes section
                if st.section == section:
                    continue
                section = st.section
            lines.append(text)
        elif args.show_encoding:
            lines.append(format_listing_line(text, st.data, st.fixups))
        else:
            lines.append("\t" + text)
    text = "\n".join(lines) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w") as f:
                f.write(text)
        except OSError as e:
            print(f"radcc mc: error: cannot write {args.output}: {e.strerror}", file=sys.stderr)
            return 1
    return 0 if res.ok else 1
