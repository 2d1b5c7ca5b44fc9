"""Writes a linked AMDHSA code object v5 (ET_DYN), laid out the way ld.lld does.

File layout (offsets grow downwards; the first PT_LOAD maps offset == vaddr):

    ELF header, program headers (PHDR, LOAD r, LOAD rx, LOAD rw, DYNAMIC,
    GNU_STACK, NOTE)
    .note      NT_AMDGPU_METADATA ("AMDGPU", msgpack)         LOAD r
    .dynsym    kernels (FUNC) and NAME.kd (OBJECT), GLOBAL PROTECTED
    .hash      SysV hash of .dynsym
    .dynstr
    .rodata    64-byte descriptors NAME.kd, then the caller's rodata (16-aligned)
    .text      256-byte aligned, on a new page (vaddr = offset mod 4 KiB)    LOAD rx
    .dynamic   DT_HASH, DT_SYMTAB, DT_SYMENT, DT_STRTAB, DT_STRSZ             LOAD rw
    .symtab/.strtab (local functions and objects, then the dynamic symbols), .shstrtab
    section headers
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any

from radcc.codeobj import amdhsa
from radcc.codeobj import elfdefs as E
from radcc.codeobj.errors import CodeObjectError
from radcc.codeobj.metadata import (
    NOTE_NAME,
    NT_AMDGPU_METADATA,
    default_kernel_metadata,
    default_metadata,
    pack_note,
)

__all__ = ["KernelSymbol", "Layout", "layout_code_object", "write_code_object"]

KERNEL_CODE_ALIGN = 256  # AMDGPUUsage: kernel entry points are 256-byte aligned
_USER_RODATA_ALIGN = 16
_NUM_PHDRS = 7


@dataclass
class KernelSymbol:
    """A kernel in `.text`: entry at byte `code_offset`, `code_size` bytes long.

    `fields` are the `.amdhsa_*` directive values (see `amdhsa.AMDHSA_FIELDS`).
    """

    name: str
    code_offset: int
    code_size: int
    fields: dict[str, int] = field(default_factory=dict)


@dataclass
class Layout:
    """Where `write_code_object` puts things (virtual addresses of the ET_DYN object).

    Use it to compute PC-relative displacements from code to rodata before
    encoding: it depends only on sizes, names and metadata, not on contents.
    """

    text_addr: int
    text_offset: int
    rodata_addr: int
    rodata_offset: int
    user_rodata_addr: int
    kd_addrs: dict[str, int]
    dynamic_addr: int
    dynamic_offset: int
    note_offset: int
    note: bytes = b""


def _check_inputs(text: bytes, target: Any, kernels: list[KernelSymbol],
                  functions: dict[str, tuple[int, int]]) -> None:
    if target.name not in E.MACH_BY_NAME:  # `functions`: every local symbol in .text
        raise CodeObjectError(f"no EF_AMDGPU_MACH value known for {target.name}")
    seen: set[str] = set()
    names = [k.name for k in kernels] + [k.name + ".kd" for k in kernels] + list(functions)
    for name in names:
        if not name or "\0" in name:
            raise CodeObjectError(f"invalid symbol name {name!r}")
        if name in seen:
            raise CodeObjectError(f"duplicate symbol '{name}'")
        seen.add(name)
    for k in kernels:
        if k.code_offset % KERNEL_CODE_ALIGN:
            raise CodeObjectError(
                f"kernel '{k.name}' entry at .text+{k.code_offset:#x} is not 256-byte aligned")
        if k.code_offset < 0 or k.code_size < 0 or k.code_offset + k.code_size > len(text):
            raise CodeObjectError(f"kernel '{k.name}' code lies outside .text")
    for name, (off, size) in functions.items():
        if off < 0 or size < 0 or off + size > len(text):
            raise CodeObjectError(f"function '{name}' code lies outside .text")


def _strtab(names: list[str]) -> tuple[bytes, dict[str, int]]:
    data = bytearray(b"\0")
    index: dict[str, int] = {"": 0}
    for n in names:
        if n not in index:
            index[n] = len(data)
            data += n.encode("utf-8") + b"\0"
    return bytes(data), index


def _build_metadata(target: Any, kernels: list[KernelSymbol]) -> dict[str, Any]:
    entries = []
    for k in kernels:
        kd = amdhsa.kernel_descriptor(k.fields, target, 0)
        decoded = amdhsa.decode_kernel_descriptor(kd, target)
        decoded["next_free_vgpr"] = int(k.fields.get("next_free_vgpr", 0))
        decoded["next_free_sgpr"] = int(k.fields.get("next_free_sgpr", 0))
        decoded["reserve_vcc"] = int(k.fields.get("reserve_vcc", 1))
        entries.append(default_kernel_metadata(k.name, decoded))
    return default_metadata(target.target_id, entries)


def _dynsym_names(kernels: list[KernelSymbol]) -> list[str]:
    out = []
    for k in kernels:
        out += [k.name, k.name + ".kd"]
    return out


def layout_code_object(text: bytes | int, target: Any, kernels: list[KernelSymbol], *,
                       functions: dict[str, tuple[int, int]] | None = None,
                       metadata: dict[str, Any] | None = None,
                       rodata: bytes | int = b"") -> Layout:
    """The addresses `write_code_object` will use for the same arguments.

    `text` and `rodata` may be given as sizes.
    """
    functions = functions or {}
    text_size = text if isinstance(text, int) else len(text)
    rodata_size = rodata if isinstance(rodata, int) else len(rodata)
    meta = metadata if metadata is not None else _build_metadata(target, kernels)
    note = E.note_entry(NOTE_NAME, NT_AMDGPU_METADATA, pack_note(meta))
    dynnames = _dynsym_names(kernels)
    dynstr, _ = _strtab(dynnames)
    nsyms = len(dynnames) + 1

    off = E.EHDR.size + _NUM_PHDRS * E.PHDR.size
    note_off = E.align_up(off, 4)
    off = E.align_up(note_off + len(note), 8) + nsyms * E.SYM.size  # .dynsym
    off = E.align_up(off, 4) + 4 * (2 + 2 * nsyms)  # .hash
    off += len(dynstr)
    rodata_off = E.align_up(off, amdhsa.KD_SIZE)
    user_off = rodata_off + amdhsa.KD_SIZE * len(kernels)
    if rodata_size:
        user_off = E.align_up(user_off, _USER_RODATA_ALIGN)
    r_end = user_off + rodata_size

    text_off = E.align_up(r_end, KERNEL_CODE_ALIGN)
    text_addr = E.align_up(r_end, E.PAGE_SIZE) + text_off % E.PAGE_SIZE
    dyn_off = E.align_up(text_off + text_size, 8)
    dyn_addr = E.align_up(text_addr + text_size, E.PAGE_SIZE) + dyn_off % E.PAGE_SIZE
    kd_addrs = {k.name: rodata_off + amdhsa.KD_SIZE * i for i, k in enumerate(kernels)}
    return Layout(text_addr=text_addr, text_offset=text_off, rodata_addr=rodata_off,
                  rodata_offset=rodata_off, user_rodata_addr=user_off, kd_addrs=kd_addrs,
                  dynamic_addr=dyn_addr, dynamic_offset=dyn_off, note_offset=note_off,
                  note=note)


def _sysv_hash(names: list[str]) -> bytes:
    """SysV .hash for symbol indices 1..len(names) (index 0 is the null symbol)."""
    nsyms = len(names) + 1
    nbucket = max(nsyms, 1)
    buckets = [0] * nbucket
    chains = [0] * nsyms
    for i, name in enumerate(names, 1):
        b = E.elf_hash(name.encode("utf-8")) % nbucket
        chains[i] = buckets[b]
        buckets[b] = i
    return struct.pack(f"<{2 + nbucket + nsyms}I", nbucket, nsyms, *buckets, *chains)


def write_code_object(text: bytes, target: Any, kernels: list[KernelSymbol], *,
                      functions: dict[str, tuple[int, int]] | None = None,
                      metadata: dict[str, Any] | None = None,
                      rodata: bytes = b"",
                      objects: dict[str, tuple[int, int]] | None = None) -> bytes:
    """Build a linked ET_DYN AMDHSA code object v5 (see the module docstring).

    `functions` maps extra (non-kernel) function names to (offset, size) in
    `.text`; they become local FUNC symbols in `.symtab`; `objects` likewise data in
    `.text` (a kernel's constant data after its code), local OBJECT symbols, which
    llvm-objdump -d lists as bytes, not instructions. With `metadata` None,
    a v5 map is generated from the kernels' descriptor fields.
    """
    functions = dict(functions or {})
    objects = dict(objects or {})
    text = bytes(text)
    rodata = bytes(rodata)
    _check_inputs(text, target, kernels, {**functions, **objects})
    lay = layout_code_object(text, target, kernels, functions=functions,
                             metadata=metadata, rodata=rodata)

    # descriptors
    kds = bytearray()
    for k in kernels:
        entry = lay.text_addr + k.code_offset
        kds += amdhsa.kernel_descriptor(k.fields, target, entry - lay.kd_addrs[k.name])
    rodata_blob = bytes(kds)
    if rodata:
        rodata_blob += b"\0" * (lay.user_rodata_addr - lay.rodata_addr - len(kds)) + rodata

    # section indices (fixed order)
    names = [".note", ".dynsym", ".hash", ".dynstr", ".rodata", ".text", ".dynamic",
             ".symtab", ".shstrtab", ".strtab"]
    idx = {n: i + 1 for i, n in enumerate(names)}

    # dynamic symbols
    dynnames = _dynsym_names(kernels)
    dynstr, dynidx = _strtab(dynnames)
    glob_syms: list[tuple[str, int, int, int, int]] = []  # name, value, size, type, shndx
    for k in kernels:
        glob_syms.append((k.name, lay.text_addr + k.code_offset, k.code_size, E.STT_FUNC,
                          idx[".text"]))
        glob_syms.append((k.name + ".kd", lay.kd_addrs[k.name], amdhsa.KD_SIZE, E.STT_OBJECT,
                          idx[".rodata"]))
    null_sym = E.SYM.pack(0, 0, 0, 0, 0, 0)

    def sym(strindex: dict[str, int], s: tuple[str, int, int, int, int], bind: int,
            vis: int) -> bytes:
        name, value, size, typ, shndx = s
        return E.SYM.pack(strindex[name], (bind << 4) | typ, vis, shndx, value, size)

    dynsym = null_sym + b"".join(sym(dynidx, s, E.STB_GLOBAL, E.STV_PROTECTED)
                                 for s in glob_syms)
    hash_sec = _sysv_hash(dynnames)

    # static symbols: locals (functions) first, then the globals
    local_syms = sorted([(n, lay.text_addr + off, size, E.STT_FUNC, idx[".text"])
                         for n, (off, size) in functions.items()]
                        + [(n, lay.text_addr + off, size, E.STT_OBJECT, idx[".text"])
                           for n, (off, size) in objects.items()], key=lambda s: s[1])
    strtab, stridx = _strtab([s[0] for s in local_syms] + dynnames)
    symtab = (null_sym
              + b"".join(sym(stridx, s, E.STB_LOCAL, E.STV_DEFAULT) for s in local_syms)
              + b"".join(sym(stridx, s, E.STB_GLOBAL, E.STV_PROTECTED) for s in glob_syms))
    shstrtab, shidx = _strtab(names)

    # lay out the file
    out = bytearray(E.EHDR.size + _NUM_PHDRS * E.PHDR.size)
    shdrs: dict[str, tuple[int, int, int, int, int, int, int, int, int]] = {}
    # name -> (type, flags, addr, offset, size, link, info, align, entsize)

    def place(name: str, data: bytes, typ: int, flags: int, align: int, *, link: int = 0,
              info: int = 0, entsize: int = 0, addr: int | None = None,
              offset: int | None = None) -> int:
        off = E.align_up(len(out), align) if offset is None else offset
        if off < len(out):
            raise AssertionError(f"layout overlap at {name}")
        out.extend(b"\0" * (off - len(out)))
        out.extend(data)
        a = (off if flags & E.SHF_ALLOC else 0) if addr is None else addr
        shdrs[name] = (typ, flags, a, off, len(data), link, info, align, entsize)
        return off

    place(".note", lay.note, E.SHT_NOTE, E.SHF_ALLOC, 4, offset=lay.note_offset)
    place(".dynsym", dynsym, E.SHT_DYNSYM, E.SHF_ALLOC, 8, link=idx[".dynstr"], info=1,
          entsize=E.SYM.size)
    hash_off = place(".hash", hash_sec, E.SHT_HASH, E.SHF_ALLOC, 4, link=idx[".dynsym"],
                     entsize=4)
    dynstr_off = place(".dynstr", dynstr, E.SHT_STRTAB, E.SHF_ALLOC, 1)
    place(".rodata", rodata_blob, E.SHT_PROGBITS, E.SHF_ALLOC, amdhsa.KD_SIZE,
          offset=lay.rodata_offset)
    r_end = len(out)
    place(".text", text, E.SHT_PROGBITS, E.SHF_ALLOC | E.SHF_EXECINSTR, KERNEL_CODE_ALIGN,
          addr=lay.text_addr, offset=lay.text_offset)
    dynsym_off = shdrs[".dynsym"][3]
    dynamic = b"".join(E.DYN.pack(tag, val) for tag, val in (
        (E.DT_HASH, hash_off), (E.DT_SYMTAB, dynsym_off), (E.DT_SYMENT, E.SYM.size),
        (E.DT_STRTAB, dynstr_off), (E.DT_STRSZ, len(dynstr)), (E.DT_NULL, 0)))
    place(".dynamic", dynamic, E.SHT_DYNAMIC, E.SHF_ALLOC | E.SHF_WRITE, 8,
          link=idx[".dynstr"], entsize=E.DYN.size, addr=lay.dynamic_addr,
          offset=lay.dynamic_offset)
    place(".symtab", symtab, E.SHT_SYMTAB, 0, 8, link=idx[".strtab"],
          info=1 + len(local_syms), entsize=E.SYM.size)
    place(".shstrtab", shstrtab, E.SHT_STRTAB, 0, 1)
    place(".strtab", strtab, E.SHT_STRTAB, 0, 1)

    shoff = E.align_up(len(out), 8)
    out.extend(b"\0" * (shoff - len(out)))
    out += E.SHDR.pack(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    for n in names:
        typ, flags, addr, off, size, link, info, align, entsize = shdrs[n]
        out += E.SHDR.pack(shidx[n], typ, flags, addr, off, size, link, info, align, entsize)

    # program headers
    phdr_size = _NUM_PHDRS * E.PHDR.size
    t = shdrs[".text"]
    d = shdrs[".dynamic"]
    n_ = shdrs[".note"]
    phdrs = [
        (E.PT_PHDR, E.PF_R, E.EHDR.size, E.EHDR.size, phdr_size, phdr_size, 8),
        (E.PT_LOAD, E.PF_R, 0, 0, r_end, r_end, E.PAGE_SIZE),
        (E.PT_LOAD, E.PF_R | E.PF_X, t[3], t[2], t[4], t[4], E.PAGE_SIZE),
        (E.PT_LOAD, E.PF_R | E.PF_W, d[3], d[2], d[4], d[4], E.PAGE_SIZE),
        (E.PT_DYNAMIC, E.PF_R | E.PF_W, d[3], d[2], d[4], d[4], 8),
        (E.PT_GNU_STACK, E.PF_R | E.PF_W, 0, 0, 0, 0, 0),
        (E.PT_NOTE, E.PF_R, n_[3], n_[2], n_[4], n_[4], 4),
    ]
    assert len(phdrs) == _NUM_PHDRS
    pos = E.EHDR.size
    for typ, flags, off, vaddr, filesz, memsz, align in phdrs:
        out[pos:pos + E.PHDR.size] = E.PHDR.pack(typ, flags, off, vaddr, vaddr, filesz, memsz,
                                                 align)
        pos += E.PHDR.size

    ident = (b"\x7fELF" + bytes([2, 1, 1, E.ELFOSABI_AMDGPU_HSA,
                                 E.ELFABIVERSION_AMDGPU_HSA_V5]) + b"\0" * 7)
    out[:E.EHDR.size] = E.EHDR.pack(ident, E.ET_DYN, E.EM_AMDGPU, 1, 0, E.EHDR.size, shoff,
                                    E.e_flags(target), E.EHDR.size, E.PHDR.size,
                                    _NUM_PHDRS, E.SHDR.size, len(names) + 1,
                                    idx[".shstrtab"])
    return bytes(out)
