"""Reads AMDHSA code objects: linked ET_DYN (clang/lld, radcc) and ET_REL (llvm-mc).

Anything malformed, truncated or random raises `CodeObjectError`, never
another exception: every offset and size is checked against the file, and
unexpected Python errors are turned into `CodeObjectError` at the boundary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from radcc.codeobj import amdhsa
from radcc.codeobj import elfdefs as E
from radcc.codeobj.errors import CodeObjectError
from radcc.codeobj.metadata import NOTE_NAME, NT_AMDGPU_METADATA, unpack_note

__all__ = ["CodeObject", "KernelInfo", "Section", "Segment", "Symbol", "read_code_object"]


@dataclass
class Section:
    """One section: `addr` is its vaddr (0 for non-alloc and in ET_REL)."""

    addr: int
    offset: int
    data: bytes
    flags: int
    type: int = 0
    size: int = 0
    align: int = 0
    link: int = 0
    info: int = 0
    entsize: int = 0


@dataclass
class Segment:
    """A PT_LOAD segment (`data` is the file part; memsz - filesz is zero-filled)."""

    vaddr: int
    memsz: int
    filesz: int
    data: bytes
    offset: int = 0
    flags: int = 0
    align: int = 0


@dataclass
class Symbol:
    """An ELF symbol; `section` is the section name (None if undefined/absolute)."""

    value: int
    size: int
    type: int
    binding: int
    section: str | None
    visibility: int = 0
    shndx: int = 0


@dataclass
class KernelInfo:
    """A kernel found through its NAME.kd symbol.

    In ET_DYN objects `entry_address` and `kd_address` are virtual addresses.
    In ET_REL objects they are offsets in their sections (`entry_section`,
    `kd_section`), the entry resolved through the descriptor's R_AMDGPU_REL64
    relocation (None if unresolved).
    """

    name: str
    descriptor: dict[str, int]
    descriptor_bytes: bytes
    entry_address: int | None
    kd_address: int
    metadata: dict[str, Any] | None
    entry_section: str | None = None
    kd_section: str | None = None


@dataclass
class CodeObject:
    """A parsed code object."""

    target_name: str
    e_type: int
    sections: dict[str, Section] = field(default_factory=dict)
    segments: list[Segment] = field(default_factory=list)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    metadata: dict[str, Any] | None = None
    kernels: dict[str, KernelInfo] = field(default_factory=dict)
    e_flags: int = 0
    os_abi: int = 0
    abi_version: int = 0
    xnack: str | None = None  # None (unsupported), "any", "off", "on"
    sramecc: str | None = None


def read_code_object(data: bytes) -> CodeObject:
    """Parse `data`; raises CodeObjectError on anything malformed."""
    try:
        return _Reader(bytes(data)).read()
    except CodeObjectError:
        raise
    except (Exception, RecursionError) as e:  # a reader bug must still look like bad input
        raise CodeObjectError(f"malformed code object ({type(e).__name__}: {e})") from None


_FEATURE = {0: None, 0x100: "any", 0x200: "off", 0x300: "on"}


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def bytes_at(self, off: int, size: int, what: str) -> bytes:
        if off < 0 or size < 0 or off + size > len(self.data):
            raise CodeObjectError(f"truncated code object: {what} at {off:#x}+{size:#x} "
                                  f"is past the end ({len(self.data):#x} bytes)")
        return self.data[off:off + size]

    def read(self) -> CodeObject:
        hdr = self.bytes_at(0, E.EHDR.size, "ELF header") if len(self.data) >= 4 else b""
        if self.data[:4] != b"\x7fELF":
            raise CodeObjectError("not an ELF file (bad magic)")
        (ident, e_type, machine, _version, _entry, phoff, shoff, flags, _ehsize, phentsize,
         phnum, shentsize, shnum, shstrndx) = E.EHDR.unpack(hdr)
        if ident[4] != 2 or ident[5] != 1:
            raise CodeObjectError("not a little-endian ELF64 file")
        if machine != E.EM_AMDGPU:
            raise CodeObjectError(f"not an AMDGPU code object (e_machine {machine})")
        if e_type not in (E.ET_REL, E.ET_EXEC, E.ET_DYN):
            raise CodeObjectError(f"unsupported ELF type {e_type}")
        mach = flags & E.EF_AMDGPU_MACH
        co = CodeObject(
            target_name=E.NAME_BY_MACH.get(mach, f"unknown-mach-{mach:#04x}"),
            e_type=e_type, e_flags=flags, os_abi=ident[7], abi_version=ident[8],
            xnack=_FEATURE[flags & E.EF_AMDGPU_FEATURE_XNACK_V4],
            sramecc=_FEATURE[(flags & E.EF_AMDGPU_FEATURE_SRAMECC_V4) >> 2])
        shdrs = self.section_headers(shoff, shnum, shentsize, shstrndx)
        for name, sec in shdrs:
            if name and name not in co.sections:
                co.sections[name] = sec
        co.segments = self.segments(phoff, phnum, phentsize)
        co.symbols = self.symbols(shdrs)
        co.metadata = self.metadata(shdrs, co)
        self.kernels(co, shdrs)
        return co

    def section_headers(self, shoff: int, shnum: int, shentsize: int,
                        shstrndx: int) -> list[tuple[str, Section]]:
        if shoff == 0 or shnum == 0:
            return []
        if shentsize != E.SHDR.size:
            raise CodeObjectError(f"bad section header size {shentsize}")
        raw = self.bytes_at(shoff, shnum * E.SHDR.size, "section headers")
        hdrs = [E.SHDR.unpack_from(raw, i * E.SHDR.size) for i in range(shnum)]
        secs: list[Section] = []
        for (_n, typ, flags, addr, off, size, link, info, align, entsize) in hdrs:
            if typ in (E.SHT_NOBITS, E.SHT_NULL):
                body = b""
            else:
                body = self.bytes_at(off, size, "section data")
            secs.append(Section(addr=addr, offset=off, data=body, flags=flags, type=typ,
                                size=size, align=align, link=link, info=info, entsize=entsize))
        if shstrndx >= shnum:
            raise CodeObjectError(f"section name table index {shstrndx} out of range")
        names_blob = secs[shstrndx].data
        return [(_cstr(names_blob, h[0], "section name"), s)
                for h, s in zip(hdrs, secs, strict=True)]

    def segments(self, phoff: int, phnum: int, phentsize: int) -> list[Segment]:
        if phoff == 0 or phnum == 0:
            return []
        if phentsize != E.PHDR.size:
            raise CodeObjectError(f"bad program header size {phentsize}")
        raw = self.bytes_at(phoff, phnum * E.PHDR.size, "program headers")
        out = []
        for i in range(phnum):
            typ, flags, off, vaddr, _paddr, filesz, memsz, align = E.PHDR.unpack_from(
                raw, i * E.PHDR.size)
            if typ != E.PT_LOAD:
                continue
            if filesz > memsz:
                raise CodeObjectError("PT_LOAD segment with filesz > memsz")
            out.append(Segment(vaddr=vaddr, memsz=memsz, filesz=filesz,
                               data=self.bytes_at(off, filesz, "segment"), offset=off,
                               flags=flags, align=align))
        return out

    def symbols(self, shdrs: list[tuple[str, Section]]) -> dict[str, Symbol]:
        out: dict[str, Symbol] = {}
        for want in (E.SHT_SYMTAB, E.SHT_DYNSYM):
            for _name, sec in shdrs:
                if sec.type != want:
                    continue
                for name, sym in self.symbol_table(sec, shdrs):
                    old = out.get(name)
                    if old is None or (old.binding == E.STB_LOCAL
                                       and sym.binding != E.STB_LOCAL):
                        out[name] = sym
        return out

    def symbol_table(self, sec: Section,
                     shdrs: list[tuple[str, Section]]) -> list[tuple[str, Symbol]]:
        if sec.entsize not in (0, E.SYM.size) or len(sec.data) % E.SYM.size:
            raise CodeObjectError("malformed symbol table")
        if sec.link >= len(shdrs):
            raise CodeObjectError("symbol table string-table link out of range")
        strs = shdrs[sec.link][1].data
        out = []
        for i in range(1, len(sec.data) // E.SYM.size):
            st_name, info, other, shndx, value, size = E.SYM.unpack_from(sec.data,
                                                                        i * E.SYM.size)
            name = _cstr(strs, st_name, "symbol name")
            if not name:
                continue
            if 0 < shndx < len(shdrs):
                secname: str | None = shdrs[shndx][0]
            else:
                secname = None
            out.append((name, Symbol(value=value, size=size, type=info & 0xF,
                                     binding=info >> 4, section=secname,
                                     visibility=other & 3, shndx=shndx)))
        return out

    def metadata(self, shdrs: list[tuple[str, Section]], co: CodeObject) -> dict | None:
        blobs = [s.data for _n, s in shdrs if s.type == E.SHT_NOTE]
        if not shdrs:  # no section headers: fall back to PT_NOTE segments
            blobs = self.note_segments(co)
        for blob in blobs:
            for name, ntype, desc in _notes(blob):
                if name == NOTE_NAME and ntype == NT_AMDGPU_METADATA:
                    return unpack_note(desc)
        return None

    def note_segments(self, co: CodeObject) -> list[bytes]:
        hdr = E.EHDR.unpack(self.data[:E.EHDR.size])
        phoff, phnum = hdr[5], hdr[10]
        out = []
        if phoff and phnum and hdr[9] == E.PHDR.size:
            raw = self.bytes_at(phoff, phnum * E.PHDR.size, "program headers")
            for i in range(phnum):
                typ, _f, off, _v, _p, filesz, _m, _a = E.PHDR.unpack_from(raw, i * E.PHDR.size)
                if typ == E.PT_NOTE:
                    out.append(self.bytes_at(off, filesz, "note segment"))
        return out

    def kernels(self, co: CodeObject, shdrs: list[tuple[str, Section]]) -> None:
        meta_by_symbol: dict[str, dict] = {}
        if co.metadata is not None:
            kernels = co.metadata.get("amdhsa.kernels")
            if isinstance(kernels, list):
                for k in kernels:
                    if isinstance(k, dict) and isinstance(k.get(".symbol"), str):
                        meta_by_symbol[k[".symbol"]] = k
        for sname, sym in co.symbols.items():
            if not sname.endswith(".kd") or sym.type != E.STT_OBJECT or sym.section is None:
                continue
            if not 0 < sym.shndx < len(shdrs):
                continue
            sec = shdrs[sym.shndx][1]
            rel = sym.value - sec.addr if co.e_type != E.ET_REL else sym.value
            if rel < 0 or rel + amdhsa.KD_SIZE > len(sec.data):
                raise CodeObjectError(f"kernel descriptor {sname} lies outside its section")
            kd_bytes = sec.data[rel:rel + amdhsa.KD_SIZE]
            desc = amdhsa.decode_kernel_descriptor(kd_bytes)
            name = sname[:-3]
            entry: int | None
            entry_section: str | None = None
            if co.e_type == E.ET_REL:
                entry, entry_section = self.rel_entry(shdrs, sym.shndx, rel, co)
            else:
                entry = sym.value + desc["kernel_code_entry_byte_offset"]
                entry_section = _section_at(shdrs, entry)
            co.kernels[name] = KernelInfo(
                name=name, descriptor=desc, descriptor_bytes=kd_bytes, entry_address=entry,
                kd_address=sym.value, metadata=meta_by_symbol.get(sname),
                entry_section=entry_section, kd_section=sym.section)

    def rel_entry(self, shdrs: list[tuple[str, Section]], kd_shndx: int, kd_off: int,
                  co: CodeObject) -> tuple[int | None, str | None]:
        """Resolve the REL64 relocation of an ET_REL descriptor's entry-offset field."""
        field_off = kd_off + 16
        for _n, sec in shdrs:
            if sec.type != E.SHT_RELA or sec.info != kd_shndx:
                continue
            if len(sec.data) % E.RELA.size or sec.link >= len(shdrs):
                raise CodeObjectError("malformed relocation section")
            symsec = shdrs[sec.link][1]
            syms = self.symbol_table(symsec, shdrs) if symsec.type == E.SHT_SYMTAB else []
            for i in range(len(sec.data) // E.RELA.size):
                off, info, addend = E.RELA.unpack_from(sec.data, i * E.RELA.size)
                if off != field_off or (info & 0xFFFFFFFF) != E.R_AMDGPU_REL64:
                    continue
                symidx = info >> 32
                target = _sym_by_index(symsec, syms, symidx, shdrs)
                if target is None:
                    return None, None
                # REL64: S + A - P, with P the field's own address (kd + 16)
                return target.value + addend - 16, target.section
        return None, None


def _sym_by_index(symsec: Section, syms: list[tuple[str, Symbol]], idx: int,
                  shdrs: list[tuple[str, Section]]) -> Symbol | None:
    if idx <= 0 or (idx + 1) * E.SYM.size > len(symsec.data):
        return None
    st_name, info, other, shndx, value, size = E.SYM.unpack_from(symsec.data,
                                                                idx * E.SYM.size)
    if not 0 < shndx < len(shdrs):
        return None
    return Symbol(value=value, size=size, type=info & 0xF, binding=info >> 4,
                  section=shdrs[shndx][0], visibility=other & 3, shndx=shndx)


def _section_at(shdrs: list[tuple[str, Section]], addr: int) -> str | None:
    for name, sec in shdrs:
        if sec.flags & E.SHF_ALLOC and sec.addr <= addr < sec.addr + sec.size:
            return name
    return None


def _cstr(blob: bytes, off: int, what: str) -> str:
    if off >= len(blob) and off != 0:
        raise CodeObjectError(f"{what} offset {off} outside its string table")
    end = blob.find(b"\0", off)
    if end < 0:
        raise CodeObjectError(f"{what} is not NUL-terminated")
    try:
        return blob[off:end].decode("utf-8")
    except UnicodeDecodeError:
        raise CodeObjectError(f"{what} is not valid UTF-8") from None


def _notes(blob: bytes) -> list[tuple[bytes, int, bytes]]:
    out = []
    pos = 0
    while pos + 12 <= len(blob):
        namesz = int.from_bytes(blob[pos:pos + 4], "little")
        descsz = int.from_bytes(blob[pos + 4:pos + 8], "little")
        ntype = int.from_bytes(blob[pos + 8:pos + 12], "little")
        pos += 12
        name_end = pos + namesz
        desc_start = pos + E.align_up(namesz, 4)
        desc_end = desc_start + descsz
        if desc_end > len(blob):
            raise CodeObjectError("truncated note")
        out.append((blob[pos:name_end].rstrip(b"\0"), ntype, blob[desc_start:desc_end]))
        pos = E.align_up(desc_end, 4)
    return out
