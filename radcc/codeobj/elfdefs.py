"""ELF constants for AMDGPU code objects (values from the ELF spec and llvm-readelf).

EF_AMDGPU_MACH numbers were read from `llvm-readelf-19 -h` of objects made by
`llvm-mc-19 -mcpu=<chip>`; tests/codeobj/test_elf_oracle.py re-checks them.
"""

from __future__ import annotations

import struct

from radcc.target import Feature, Target

EM_AMDGPU = 224
ELFOSABI_AMDGPU_HSA = 64
ELFABIVERSION_AMDGPU_HSA_V5 = 3
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3

SHT_NULL, SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_RELA = 0, 1, 2, 3, 4
SHT_HASH, SHT_DYNAMIC, SHT_NOTE, SHT_NOBITS, SHT_REL = 5, 6, 7, 8, 9
SHT_DYNSYM = 11
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 0x1, 0x2, 0x4

PT_LOAD, PT_DYNAMIC, PT_NOTE, PT_PHDR = 1, 2, 4, 6
PT_GNU_STACK = 0x6474E551
PF_X, PF_W, PF_R = 1, 2, 4

STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_SECTION = 0, 1, 2, 3
STV_DEFAULT, STV_PROTECTED = 0, 3
SHN_UNDEF, SHN_ABS = 0, 0xFFF1

DT_NULL, DT_HASH, DT_STRTAB, DT_SYMTAB, DT_STRSZ, DT_SYMENT = 0, 4, 5, 6, 10, 11

R_AMDGPU_ABS64 = 3
R_AMDGPU_REL64 = 5

PAGE_SIZE = 0x1000  # lld's max page size for AMDGPU

EF_AMDGPU_MACH = 0x0FF
EF_AMDGPU_FEATURE_XNACK_V4 = 0x300
EF_AMDGPU_FEATURE_SRAMECC_V4 = 0xC00

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
PHDR = struct.Struct("<IIQQQQQQ")
SHDR = struct.Struct("<IIQQQQIIQQ")
SYM = struct.Struct("<IBBHQQ")
RELA = struct.Struct("<QQq")
DYN = struct.Struct("<qQ")

MACH_BY_NAME: dict[str, int] = {
    "gfx600": 0x20, "gfx601": 0x21, "gfx602": 0x3A,
    "gfx700": 0x22, "gfx701": 0x23, "gfx702": 0x24, "gfx703": 0x25, "gfx704": 0x26,
    "gfx705": 0x3B,
    "gfx801": 0x28, "gfx802": 0x29, "gfx803": 0x2A, "gfx805": 0x3C, "gfx810": 0x2B,
    "gfx900": 0x2C, "gfx902": 0x2D, "gfx904": 0x2E, "gfx906": 0x2F, "gfx908": 0x30,
    "gfx909": 0x31, "gfx90a": 0x3F, "gfx90c": 0x32, "gfx940": 0x40, "gfx941": 0x4B,
    "gfx942": 0x4C,
    "gfx1010": 0x33, "gfx1011": 0x34, "gfx1012": 0x35, "gfx1013": 0x42,
    "gfx1030": 0x36, "gfx1031": 0x37, "gfx1032": 0x38, "gfx1033": 0x39, "gfx1034": 0x3E,
    "gfx1035": 0x3D, "gfx1036": 0x45,
    "gfx1100": 0x41, "gfx1101": 0x46, "gfx1102": 0x47, "gfx1103": 0x44,
    "gfx1150": 0x43, "gfx1151": 0x4A, "gfx1152": 0x55,
    "gfx1200": 0x48, "gfx1201": 0x4E,
}
NAME_BY_MACH: dict[int, str] = {v: k for k, v in MACH_BY_NAME.items()}
# A target id without ":xnack+/-" on a chip with the XNACK feature (`Feature.XNACK`,
# LLVM's FeatureSupportsXNACK) gets EF_AMDGPU_FEATURE_XNACK_ANY_V4 in e_flags (llvm-mc-19
# -mcpu=gfx1010).
EF_AMDGPU_FEATURE_XNACK_ANY_V4 = 0x100


def e_flags(target: Target) -> int:
    """e_flags of a code object for `target` with the default target id features."""
    xnack = EF_AMDGPU_FEATURE_XNACK_ANY_V4 if target.has(Feature.XNACK) else 0
    return MACH_BY_NAME[target.name] | xnack


def align_up(n: int, a: int) -> int:
    """Round `n` up to a multiple of `a` (a power of two or any positive int)."""
    return (n + a - 1) // a * a


def elf_hash(name: bytes) -> int:
    """The SysV ELF hash used by .hash."""
    h = 0
    for c in name:
        h = ((h << 4) + c) & 0xFFFFFFFF
        g = h & 0xF0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xFFFFFFFF
    return h


def note_entry(name: bytes, ntype: int, desc: bytes) -> bytes:
    """One ELF note record (name NUL-terminated, name and desc padded to 4)."""
    n = name + b"\0"
    return (struct.pack("<III", len(n), len(desc), ntype)
            + n + b"\0" * (align_up(len(n), 4) - len(n))
            + desc + b"\0" * (align_up(len(desc), 4) - len(desc)))
