"""Loading an AMDHSA code object into the emulator's address space.

Linked objects (ET_DYN, from clang/lld or radcc): every PT_LOAD segment is mapped
at LOAD_BASE + p_vaddr (memsz, the tail past filesz zero-filled), so PC-relative
references to read-only data and calls work. Relocatable objects (ET_REL, from
llvm-mc): every SHF_ALLOC section is mapped at its own address. Kernel
descriptors come from `radcc.codeobj.elf.read_code_object` (NAME.kd symbols).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from radcc.codeobj import elfdefs as E
from radcc.codeobj.elf import CodeObject, KernelInfo, read_code_object
from radcc.codeobj.errors import CodeObjectError
from radcc.emu.errors import EmuError
from radcc.emu.memory import Memory
from radcc.target import TARGETS, Target, Tool

LOAD_BASE = 0x7000_0000_0000


@dataclass
class LoadedKernel:
    name: str
    entry: int  # absolute address of the first instruction
    descriptor: dict[str, int]
    metadata: dict[str, Any]

    @property
    def wave_size(self) -> int:
        return 32 if self.descriptor.get("wavefront_size32") else 64

    @property
    def args(self) -> list[dict[str, Any]]:
        return list(self.metadata.get(".args", []) or [])


def emulated_target(chip: str) -> Target:
    """The `Target` of a code object's chip (its ELF e_flags machine), which the emulator
    decodes and runs for: a chip whose generation `radcc.target.SUPPORT` says runs
    (GFX11, GFX10.3, GFX10.1); any other chip is refused by name."""
    t = TARGETS.get(chip)
    if t is None or not t.supports(Tool.RUN):
        runs = ", ".join(n for n, x in TARGETS.items() if x.supports(Tool.RUN))
        raise EmuError(f"code object for {chip}: the emulator does not run its code "
                       f"(it runs {runs})")
    return t


class LoadedObject:
    """A code object mapped into a Memory."""

    def __init__(self, data: bytes, memory: Memory) -> None:
        try:
            self.co: CodeObject = read_code_object(data)
        except CodeObjectError as e:
            raise EmuError(f"malformed code object: {e}") from None
        self.memory = memory
        self.target = emulated_target(self.co.target_name)
        self.section_base: dict[str, int] = {}
        if self.co.e_type == E.ET_REL:
            self._map_sections()
        else:
            self._map_segments()

    def _map_segments(self) -> None:
        segs = [s for s in self.co.segments if s.memsz]
        if not segs:
            raise EmuError("malformed code object: no PT_LOAD segment")
        # one region spanning all segments keeps relative layout exact
        lo = min(s.vaddr for s in segs)
        hi = max(s.vaddr + s.memsz for s in segs)
        if hi - lo > 1 << 30:
            raise EmuError("malformed code object: segments span more than 1 GiB")
        image = bytearray(hi - lo)
        for s in segs:
            image[s.vaddr - lo:s.vaddr - lo + len(s.data)] = s.data
        self.memory.map("code object", bytes(image), base=LOAD_BASE + lo, size=len(image) + 64)
        self.bias = LOAD_BASE
        for name, sec in self.co.sections.items():
            self.section_base[name] = LOAD_BASE + sec.addr

    def _map_sections(self) -> None:
        self.bias = 0
        addr = LOAD_BASE
        for name, sec in self.co.sections.items():
            if not sec.flags & E.SHF_ALLOC or not len(sec.data):
                continue
            reg = self.memory.map(f"section {name}", sec.data, base=addr, size=len(sec.data) + 64)
            self.section_base[name] = reg.base
            addr = (reg.end + 0x10000) & ~0xFFFF

    def kernel_names(self) -> list[str]:
        return sorted(self.co.kernels)

    def kernel(self, name: str) -> LoadedKernel:
        k: KernelInfo | None = self.co.kernels.get(name)
        if k is None:
            known = ", ".join(self.kernel_names()) or "none"
            raise EmuError(f"no kernel named '{name}' in the code object (kernels: {known})")
        if k.entry_address is None:
            raise EmuError(f"kernel '{name}': the descriptor's entry point is unresolved")
        if self.co.e_type == E.ET_REL:
            if k.entry_section not in self.section_base:
                raise EmuError(f"kernel '{name}': entry section is not loadable")
            entry = self.section_base[k.entry_section] + k.entry_address
        else:
            entry = self.bias + k.entry_address
        if not 0 <= entry < 1 << 48:  # a corrupt kernel_code_entry_byte_offset
            raise EmuError(f"kernel '{name}': the descriptor's entry point {entry:#x} is "
                           "outside the address space")
        return LoadedKernel(name, entry, k.descriptor, k.metadata or {})
