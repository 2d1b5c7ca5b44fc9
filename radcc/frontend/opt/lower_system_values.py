"""lower_system_values: system values known at compile time become constants.

``@load_subgroup_size`` is the wave size; ``@load_num_subgroups`` is
ceil(workgroup invocations / wave size); ``@load_workgroup_size`` the declared
size. (NIR's ``lower_subgroups``/``lower_system_values`` do the same for RADV.)
A component of the workgroup size that is 1 makes that component of
``@load_local_invocation_id`` 0 and that of ``@load_global_invocation_id`` the
workgroup id's (id * 1 + 0: uniform, as NIR's lowering of the global id to
``workgroup_id * size + local_id`` makes it), for the ``mov`` extracting it.
"""

from __future__ import annotations

from ..mir import Instr, MirShader, Value
from .lower_util import Emit, rewrite_instrs

_OPS = frozenset({"load_subgroup_size", "load_num_subgroups", "load_workgroup_size",
                  "mov"})  # (what `rule` replaces)


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
        if ins.op == "mov" and len(ins.srcs) == 1 and ins.dest is not None:
            src = ins.srcs[0].parent
            comps = tuple(ins.attrs.get("comps", ()))
            if src is None or len(comps) != 1 or comps[0] > 2 or \
                    shader.workgroup_size[comps[0]] != 1 or ins.dest.bit_size != 32:
                return None
            if src.op == "load_local_invocation_id":
                return e.const(32, 0)
            if src.op == "load_global_invocation_id":
                wid = e.intr("load_workgroup_id", [], (32, 3))
                assert wid is not None
                return e.alu("mov", 32, wid, comps=comps)
        return None

    return rewrite_instrs(shader, rule, ops=_OPS)
