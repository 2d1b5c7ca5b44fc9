"""radcc: a back-end shader compiler for AMD GCN/RDNA GPUs, after Mesa's ACO.

The Python API (radcc/driver/api.py, docs/guide.md "Python"), imported on first use so that
``import radcc`` stays cheap:

- ``radcc.compile(source, *, stage=None, mcpu="gfx1100", wave_size=None, entry=None,
  spec=None)``: GLSL text, a path or SPIR-V bytes to a `radcc.Kernel` (``code_object``,
  ``asm``, ``stats``);
- ``radcc.run(kernel_or_source, *, groups, buffers, push_constants)``: run it in the
  RDNA3 emulator; NumPy arrays in, NumPy arrays out;
- ``radcc.draw(vert, frag, *, size, count, **options)``: one draw call of a vertex and a
  fragment shader in the emulator, ``radcc draw``'s options (docs/draw.md);
- ``radcc.CompileError``, ``radcc.RunError``, ``radcc.StrictModeError``.
"""

from typing import Any

__version__ = "0.1.0"

__all__ = ["compile", "draw", "run", "Kernel", "CompileError", "RunError", "StrictModeError",
           "__version__"]

_API = frozenset({"compile", "draw", "run", "Kernel", "CompileError", "RunError", "StrictModeError"})


def __getattr__(name: str) -> Any:
    if name in _API:
        from radcc.driver import api

        return getattr(api, name)
    raise AttributeError(f"module 'radcc' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _API)
