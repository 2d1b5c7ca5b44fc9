"""The driver behind `radcc objdump` (`radcc.cli.objdump`): the instructions of a code
object's executable sections as ``llvm-objdump -d`` lists them (`objdump_text`).

The target is the one the ELF header names (``e_flags`` EF_AMDGPU_MACH,
`radcc.codeobj.elfread`); the instructions are decoded by radcc's disassembler
(`radcc.isa.disassembler`, the text llvm-mc prints). The listing follows
llvm-objdump-19's for AMDGPU (llvm-objdump.cpp ``AMDGCNPrettyPrinter``):

- per executable section (``SHF_EXECINSTR``, header order) ``Disassembly of section
  NAME:``, then per symbol of the section (sorted by address; of several at one
  address the last by name and type is shown) ``ADDRESS <NAME>:`` and its bytes up
  to the next symbol or the section's end (a kernel's ``s_code_end`` padding is
  listed with it);
- each instruction tab-indented, padded to column 60, then ``// ADDRESS:`` and the
  instruction's dwords in hex; an undecodable dword as ``.long``;
- a branch (``s_branch``, ``s_cbranch_*``) whose target is a ``STT_NOTYPE`` symbol
  names it as its operand (the AMDGPU disassembler's symbolizer, e.g. the ``BBn``
  labels of an llvm-mc object); otherwise its target is given after the bytes as
  `` <SYMBOL+0xOFFSET>``;
- an ``STT_OBJECT`` symbol's bytes (a kernel's constant data after its code) are dumped,
  not decoded: 8 a line, ``ADDRESS: hex  ascii``.

Only the default (``--mattr``-less) decoding differs by an option: llvm-objdump
decodes with the target's default wave size (wave32 on GFX10+) unless told
``--mattr=+wavefrontsize64``; `wave_size` is that choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.codeobj import elfdefs as E
from radcc.codeobj.elfread import CodeObject, read_code_object
from radcc.target import Target, get_target

__all__ = ["ObjdumpError", "objdump_text", "code_object_target"]


class ObjdumpError(Exception):
    """A code object radcc cannot list (not AMDGPU, unknown target)."""


@dataclass(frozen=True)
class _Sym:
    addr: int
    name: str
    type: int


def code_object_target(co: CodeObject) -> Target:
    """The target the ELF header names (EF_AMDGPU_MACH)."""
    try:
        return get_target(co.target_name)
    except ValueError:
        raise ObjdumpError(f"target {co.target_name} (e_flags {co.e_flags:#x}) is not one "
                           f"radcc decodes (radcc targets lists them)") from None


def _section_symbols(co: CodeObject, section: str) -> list[_Sym]:
    syms = [_Sym(s.value, n, s.type) for n, s in co.symbols.items()
            if s.section == section and s.type != E.STT_SECTION]
    return sorted(syms, key=lambda s: (s.addr, s.name, s.type))


def _label(syms: list[_Sym], addr: int) -> str | None:
    """``SYMBOL`` or ``SYMBOL+0xOFF`` of the last symbol at or before `addr`."""
    best = None
    for s in syms:
        if s.addr <= addr:
            best = s
    if best is None:
        return None
    return best.name if best.addr == addr else f"{best.name}+{addr - best.addr:#x}"


def _is_branch(text: str) -> bool:
    op = text.split(" ", 1)[0]
    return op == "s_branch" or op.startswith("s_cbranch_")


def _data_lines(data: bytes, addr: int) -> list[str]:
    """An OBJECT symbol's bytes in an executable section, as llvm-objdump -d dumps them:
    8 bytes a line, hex then ASCII (printable characters, else ``.``)."""
    out = []
    for i in range(0, len(data), 8):
        row = data[i:i + 8]
        hexs = "".join(f"{b:02x} " for b in row).ljust(24)
        text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in row)
        out.append(f"{addr + i:8x}: {hexs}        {text}\n")
    return out


def objdump_text(data: bytes, path: str, wave_size: int | None = None) -> str:
    """llvm-objdump -d's listing of the code object `data` (read from `path`)."""
    from radcc.isa.disassembler import branch_offset, disassemble, is_invalid

    co = read_code_object(data)
    target = code_object_target(co)
    out = [f"\n{path}:\tfile format elf64-amdgpu\n"]
    for name, sec in co.sections.items():
        if not sec.flags & E.SHF_EXECINSTR or sec.type != E.SHT_PROGBITS:
            continue
        out.append(f"\nDisassembly of section {name}:\n")
        syms = _section_symbols(co, name)
        base = sec.addr
        end = base + len(sec.data)
        # one label per address: the last of those there
        starts: dict[int, _Sym] = {}
        for s in syms:
            if base <= s.addr < end:
                starts[s.addr] = s
        if base not in starts:
            starts[base] = _Sym(base, name, E.STT_SECTION)
        addrs = sorted(starts)
        notype = {}
        for s in syms:
            if s.type == E.STT_NOTYPE:
                notype.setdefault(s.addr, s.name)
        for k, a in enumerate(addrs):
            stop = addrs[k + 1] if k + 1 < len(addrs) else end
            out.append(f"\n{a:016x} <{starts[a].name}>:\n")
            if starts[a].type == E.STT_OBJECT:
                out += _data_lines(sec.data[a - base:stop - base], a)
                continue
            chunk = sec.data[: stop - base]
            for off, d in disassemble(chunk, target, wave_size, start=a - base):
                addr = base + off
                raw = chunk[off:off + d.size]
                text = d.text
                note = ""
                off_dw = branch_offset(d) if not is_invalid(d) and _is_branch(text) else None
                if off_dw is not None:
                    dest = addr + 4 + 4 * off_dw
                    if dest in notype:
                        text = f"{text.rsplit(' ', 1)[0]} {notype[dest]}"
                    else:
                        lab = _label(syms, dest)
                        note = f" <{lab}>" if lab else ""
                if text.startswith(".long"):
                    line = f"\t{text} " + " " * 42
                elif text.startswith(".byte"):
                    line = f"\t{text}" + " " * (55 - 6 * len(raw))
                else:
                    line = f"\t{text}".ljust(60)
                if len(raw) >= 4:
                    words = " ".join(f"{int.from_bytes(raw[i:i + 4], 'little'):08X}"
                                     for i in range(0, len(raw) - len(raw) % 4, 4))
                else:
                    words = " ".join(f"{b:02X}" for b in raw)
                out.append(f"{line}// {addr:012X}: {words}{note}\n")
    return "".join(out)
