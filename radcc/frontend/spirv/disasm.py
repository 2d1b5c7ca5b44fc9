"""Print SPIR-V as ``spirv-dis --raw-id`` does (header comments, one instruction a line).

``disassemble(module)`` prints a checked ``SpirvModule``; ``disassemble(data)``
only decodes (no well-formedness checks), which helps when debugging a module
the reader rejects. Run as ``python -m radcc.frontend.spirv.disasm FILE.spv``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

from . import grammar
from .binary import Header, Instruction, Operand, bits_to_float, decode
from .errors import SpirvError
from .module import SpirvModule

INDENT = 15  # spirv-dis's default: "%id = " right-aligned to this column

# (fraction bits, exponent bias, shift to whole nibbles, nibbles) per float width
_HEX_LAYOUT = {16: (10, 15, 2, 3), 32: (23, 127, 1, 6), 64: (52, 1023, 0, 13)}


def hex_float(bits: int, width: int) -> str:
    """SPIRV-Tools' HexFloat spelling: ``0x1.8p+128``, ``-0x1p-24``, ``0x0p+0``."""
    frac_bits, bias, shift, nibbles = _HEX_LAYOUT[width]
    sign = "-" if bits >> (width - 1) & 1 else ""
    exp = bits >> frac_bits & ((1 << (width - 1 - frac_bits)) - 1)
    frac = (bits & ((1 << frac_bits) - 1)) << shift
    top = 1 << (frac_bits + shift - 1)
    zero = exp == 0 and frac == 0
    e = 0 if zero else exp - bias
    if exp == 0 and not zero:  # denormal: normalise, eat the leading 1
        while not frac & top:
            frac <<= 1
            e -= 1
        frac = (frac << 1) & ((1 << (frac_bits + shift)) - 1)
    while nibbles and not frac & 0xF:
        frac >>= 4
        nibbles -= 1
    text = f"{sign}0x{0 if zero else 1}"
    if nibbles:
        text += f".{frac:0{nibbles}x}"
    return f"{text}p{'+' if e >= 0 else ''}{e}"


def format_float(bits: int, width: int) -> str:
    """As spirv-dis: shortest-safe decimal for zero and normal 32/64-bit, hex otherwise."""
    if width == 16:
        return hex_float(bits, 16)
    frac_bits = _HEX_LAYOUT[width][0]
    exp = bits >> frac_bits & ((1 << (width - 1 - frac_bits)) - 1)
    frac = bits & ((1 << frac_bits) - 1)
    normal = 0 < exp < (1 << (width - 1 - frac_bits)) - 1
    if normal or (exp == 0 and frac == 0):
        return f"{bits_to_float(bits, width):.{9 if width == 32 else 17}g}"
    return hex_float(bits, width)


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_operand(op: Operand, ins: Instruction, ext_imports: dict[int, str]) -> list[str]:
    cat = grammar.category(op.kind)
    if cat == "Id":
        return [f"%{op.value}"]
    if cat == "Composite":
        return [w for p in op.params for w in format_operand(p, ins, ext_imports)]
    params = [w for p in op.params for w in format_operand(p, ins, ext_imports)]
    if cat in ("ValueEnum", "BitEnum"):
        return [op.name, *params]
    if op.kind == "LiteralString":
        assert isinstance(op.value, str)
        return [quote(op.value)]
    if op.kind == "LiteralContextDependentNumber" and isinstance(op.value, float):
        return [format_float(op.bits, op.width)]
    if op.kind == "LiteralSpecConstantOpInteger":
        assert isinstance(op.value, int)
        return [grammar.opname(op.value).removeprefix("Op")]
    if op.kind == "LiteralExtInstInteger":
        assert isinstance(op.value, int)
        row = grammar.ext_instruction(ext_imports.get(ins.id(0), ""), op.value)
        return [row[0] if row else str(op.value)]
    return [str(op.value)]


def format_instruction(ins: Instruction, ext_imports: dict[int, str] | None = None) -> str:
    words = [ins.opname]
    if ins.result_type is not None:
        words.append(f"%{ins.result_type}")
    for op in ins.operands:
        words += format_operand(op, ins, ext_imports or {})
    text = " ".join(words)
    if ins.result_id is None:
        return " " * INDENT + text
    name = str(ins.result_id)
    return "%".rjust(max(0, INDENT - 3 - len(name))) + f"{name} = {text}"


def format_header(h: Header) -> list[str]:
    return [
        "; SPIR-V",
        f"; Version: {h.version[0]}.{h.version[1]}",
        f"; Generator: {grammar.generator(h.generator)}",
        f"; Bound: {h.bound}",
        f"; Schema: {h.schema}",
    ]


def lines(
    header: Header, instructions: Iterable[Instruction], with_header: bool = True
) -> list[str]:
    out = format_header(header) if with_header else []
    ext: dict[int, str] = {}
    for ins in instructions:
        if ins.opname == "OpExtInstImport" and ins.result_id is not None:
            ext[ins.result_id] = str(ins.literal(0))
        out.append(format_instruction(ins, ext))
    return out


def disassemble(
    module: SpirvModule | bytes | bytearray | Sequence[int], with_header: bool = True
) -> str:
    if isinstance(module, SpirvModule):
        header, instructions = module.header, module.instructions
    else:
        header, instructions = decode(module)
    return "\n".join(lines(header, instructions, with_header)) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m radcc.frontend.spirv.disasm FILE.spv", file=sys.stderr)
        return 2
    path = args[0]
    try:
        with open(path, "rb") as f:
            sys.stdout.write(disassemble(f.read()))
    except SpirvError as e:
        print(e.render(path), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{path}: error: {e.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
