"""The readable text form of MIR (tests, ``--print-after``).

::

    shader main workgroup_size(64, 1, 1) shared 0 push_constants 16
      binding 0:1 storage readonly
      local v0 "a" f32[4]
    block b0:
      32x3  %0 = @load_global_invocation_id
      32    %1 = mov %0.x
      32    %2 = load_const (0x00000002 = 2)
      32    %3 = ishl %1, %2
            @store_ssbo %3, %1 (binding=0:1, align=4)
    if %5 {
      block b1:
    } else {
      block b2:
    }
    block b3:
      32    %6 = phi b1: %3, b2: %4

Each value is ``BITS[xCOMPONENTS] %INDEX``; intrinsics are spelt ``@name``;
constants show their raw bits and an integer/float reading; a swizzling mov
shows ``%v.xy``. With ``divergence=True`` each definition is marked ``div`` or
``con`` (uniform), as NIR prints after divergence analysis.
"""

from __future__ import annotations

from .mir import Block, CFNode, If, Loop, MirShader, format_instr


def format_cf(cf: list[CFNode], indent: int, out: list[str], divergence: bool) -> None:
    pad = "  " * indent
    for n in cf:
        if isinstance(n, Block):
            out.append(f"{pad}block b{n.index}:")
            for ins in n.instrs:
                out.append(f"{pad}  {format_instr(ins, divergence)}")
        elif isinstance(n, If):
            out.append(f"{pad}if {n.cond} {{")
            format_cf(n.then_list, indent + 1, out, divergence)
            out.append(f"{pad}}} else {{")
            format_cf(n.else_list, indent + 1, out, divergence)
            out.append(f"{pad}}}")
        elif isinstance(n, Loop):
            out.append(f"{pad}loop {{")
            format_cf(n.body, indent + 1, out, divergence)
            if n.cont:
                out.append(f"{pad}}} continue {{")
                format_cf(n.cont, indent + 1, out, divergence)
            out.append(f"{pad}}}")


def print_shader(shader: MirShader, divergence: bool = False) -> str:
    """The whole shader as text (header lines, then the function body)."""
    wg = ", ".join(str(x) for x in shader.workgroup_size)
    out = [
        f"shader {shader.entry} workgroup_size({wg}) shared {shader.shared_size} "
        f"push_constants {shader.push_constant_size}"
    ]
    for (s, b), info in sorted(shader.bindings.items()):
        ro = " readonly" if info.readonly else ""
        out.append(f"  binding {s}:{b} {info.kind}{ro}")
    for (s, b), img in sorted(shader.images.items()):
        kind = "storage" if img.storage else "sampled"
        acc = " readonly" if img.readonly else " writeonly" if img.writeonly else ""
        out.append(f"  image {s}:{b} {kind} {img.dim} {img.format} {img.sampled_type}{acc}")
    for (s, b), kind in sorted(shader.samplers.items()):
        out.append(f"  sampler {s}:{b} {kind}")
    for v in shader.function.locals:
        out.append(f'  local v{v.index} "{v.name}" {v.type}')
    format_cf(shader.function.body, 0, out, divergence)
    return "\n".join(out) + "\n"
