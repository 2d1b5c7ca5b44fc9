"""lower_system_values: system values known at compile time become constants.

``@load_subgroup_size`` is the wave size; ``@load_num_subgroups`` is
ceil(workgroup invocations / wave size); ``@load_workgroup_size`` the declared
size. (NIR's ``lower_subgroups``/``lower_system_values`` do the same for RADV.)
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value
from .lower_util import Emit, rewrite_instrs


def lower_system_values(shader: MirShader, wave_size: int) -> bool:
    x, y, z = shader.workgroup_size
    n = x * y * z

    def rule(ins: Instr, e: Emit) -> Value | list[Value] | None:
        if ins.op == "load_subgroup_size":
            return e.const(32, wave_size)
        if ins.op == "load_num_subgroups":
            return e.const(32, -(-n // wave_size))
        if ins.op == "load_workgroup_size":
            return [e.const(32, c) for c in shader.workgroup_size]
        return None

    return rewrite_instrs(shader, rule)
