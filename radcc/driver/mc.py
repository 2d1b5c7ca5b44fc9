"""The driver behind `radcc mc --filetype=obj` (`radcc.cli.mc`): an assembled file to an
AMDHSA code object (`write_object`).

Unlike llvm-mc, which writes a relocatable object for ld.lld to link, radcc
writes the linked, loadable ET_DYN code object directly (what clang's
driver produces and ROCm loads): kernels come from `.amdhsa_kernel`
blocks, their entries from the kernel's label in `.text`, the metadata from
an `.amdgpu_metadata` block or, without one, from the descriptor fields.
"""

from __future__ import annotations

from radcc.codeobj.errors import CodeObjectError
from radcc.isa.assembler import AsmResult, Diagnostic
from radcc.target import Target


def _symbol_extent(res: AsmResult, name: str) -> tuple[int, int]:
    sym = res.symbols.get(name)
    if sym is None or sym.section != ".text":
        raise CodeObjectError(f"kernel '{name}' has no label in .text")
    if sym.size is not None:
        return sym.value, sym.size
    # up to the next function symbol, or the end of .text
    ends = sorted(s.value for s in res.symbols.values()
                  if s.section == ".text" and s.value > sym.value and s.type == "function")
    end = ends[0] if ends else len(res.text)
    return sym.value, end - sym.value


def entry_errors(res: AsmResult, source: str, filename: str) -> list[Diagnostic]:
    """A kernel whose entry (its label in `.text`) is not 256-byte aligned, at the label:
    the hardware takes the entry's address >> 8 (COMPUTE_PGM_LO), so a linked code object
    cannot hold it. llvm-mc-19 writes a relocatable object and does not check; radcc
    writes the linked object itself, so it refuses the kernel by name."""
    from radcc.codeobj.elfwrite import KERNEL_CODE_ALIGN

    lines = source.splitlines()
    out = []
    for kb in res.kernels:
        sym = res.symbols.get(kb.name)
        if sym is None or sym.section != ".text" or sym.value % KERNEL_CODE_ALIGN == 0:
            continue
        st = next((s for s in res.statements if s.kind == "label" and s.text == kb.name), None)
        line = st.line if st is not None else kb.line
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        out.append(Diagnostic(
            filename, line,
            len(src) - len(src.lstrip()) + 1,
            f"kernel '{kb.name}' entry at .text+{sym.value:#x} is not {KERNEL_CODE_ALIGN}-byte "
            "aligned (a linked code object needs it; radcc writes no relocatable objects)", src))
    return out


def write_object(res: AsmResult, target: Target, wave_size: int = 32) -> bytes:
    """Build the code object for an assembled file (raises CodeObjectError)."""
    from radcc.codeobj.elf import KernelSymbol, write_code_object
    from radcc.codeobj.metadata import parse_yaml

    kernels = []
    names = set()
    for kb in res.kernels:
        off, size = _symbol_extent(res, kb.name)
        fields = dict(kb.fields)
        if wave_size == 64:
            fields.setdefault("wavefront_size32", 0)
        kernels.append(KernelSymbol(kb.name, off, size, fields))
        names.add(kb.name)
    functions = {}
    objects = {}
    for s in res.symbols.values():
        if s.section == ".text" and s.type == "function" and s.name not in names:
            functions[s.name] = _symbol_extent(res, s.name)
        elif s.section == ".text" and s.type == "object" and s.name not in names:
            # data in .text (constant data); a kernel's label typed @object stays the kernel
            objects[s.name] = _symbol_extent(res, s.name)
    meta = parse_yaml(res.metadata_yaml) if res.metadata_yaml else None
    return write_code_object(res.text, target, kernels, functions=functions, metadata=meta,
                             objects=objects)
