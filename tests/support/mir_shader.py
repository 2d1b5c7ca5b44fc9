"""A MIR compute shader to build pass tests on (shared by the MIR optimisation tests)."""

from __future__ import annotations

from radcc.frontend.mir import Binding, MirFunction, MirShader
from radcc.frontend.mir_builder import MirBuilder
from radcc.target import get_target


def storage_shader(bindings: int = 2, local_x: int = 64) -> tuple[MirShader, MirBuilder]:
    """A gfx1100 shader `main` of `local_x` x 1 x 1 invocations with storage buffers at set
    0, bindings 0 .. `bindings`-1, and a builder at its body's start."""
    s = MirShader("main", (local_x, 1, 1), MirFunction("main", []),
                  options=get_target("gfx1100").mir_options)
    for k in range(bindings):
        s.bindings[(0, k)] = Binding(0, k, "storage")
    return s, MirBuilder(s)
