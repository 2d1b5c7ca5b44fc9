"""AMDHSA code objects (v5): kernel descriptors, the metadata note, ELF I/O.

Modules:
- `amdhsa`: the `.amdhsa_*` directives and the 64-byte kernel descriptor.
- `msgpack`: a small MessagePack encoder/decoder (no third-party deps).
- `metadata`: the NT_AMDGPU_METADATA note, LLVM-style YAML reader/printer.
- `elf`: the ELF64 writer (`write_code_object`) and reader (`read_code_object`).
"""

from radcc.codeobj.errors import CodeObjectError

__all__ = ["CodeObjectError"]
