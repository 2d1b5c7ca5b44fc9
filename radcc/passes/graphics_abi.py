"""The end of a graphics program: its code and settings as a graphics code object
(`radcc.codeobj.graphics.GraphicsShader`, docs/abi.md "Graphics stages") and as
assembly, the graphics counterpart of `kernel_abi.code_object` / `driver.llc.kernel_asm`.

`graphics_shader` takes the emitted program (code, register counts), its shader
arguments (`Program.args`, with the resource table layout) and the stage's settings
isel worked out (`VertexStage` / `PixelStage`). `graphics_asm` prints the code under
the entry symbol, the statistics and the metadata map as comments: llvm-mc-19
assembles it to the same ``.text``.
"""

from __future__ import annotations

from radcc.codeobj.graphics import GraphicsShader, PixelStage, VertexStage, to_metadata
from radcc.codeobj.metadata import to_yaml
from radcc.ir.program import Program
from radcc.passes.emit_program import EmitResult
from radcc.passes.kernel_abi import ABIError

__all__ = ["graphics_asm", "graphics_shader"]


def graphics_shader(program: Program, result: EmitResult, *,
                    vertex: VertexStage | None = None,
                    pixel: PixelStage | None = None) -> GraphicsShader:
    """The graphics code object's contents for the emitted `program`."""
    if program.args is None or program.args.stage != program.stage:
        raise ABIError(f"a {program.stage.name} program without its shader arguments")
    sgprs = max(result.sgprs + (2 if result.uses_vcc else 0), program.args.num_sgprs)
    vgprs = max(result.vgprs, program.args.num_vgprs, 1)
    return GraphicsShader(
        stage=program.stage, target=program.target.name, wave_size=program.wave_size,
        code=result.code, args=program.args, sgprs=sgprs, vgprs=vgprs,
        lds_size=program.config.lds_size,
        scratch_bytes_per_lane=program.config.scratch_bytes_per_lane,
        vertex=vertex, pixel=pixel)


def graphics_asm(shader: GraphicsShader, result: EmitResult,
                 stats: dict[str, int] | None) -> str:
    """Assembly of `shader`'s code (`result.asm`: the canonical text, without the
    s_code_end padding, which is appended as directives); the metadata as comments."""
    sym = shader.entry_symbol
    out = [f"; radcc graphics code object: {shader.stage.name} for {shader.target} "
           f"(docs/abi.md \"Graphics stages\")"]
    if shader.wave_size == 64:
        out.append("; wave64 code: assemble with radcc mc --wave64 "
                   "(llvm-mc -mattr=+wavefrontsize64)")
    out += ["\t.text", f"\t.globl\t{sym}", "\t.p2align\t8", f"\t.type\t{sym},@function",
            f"{sym}:"]
    out += result.asm.rstrip("\n").split("\n")
    out += [".Lfunc_end0:", f"\t.size\t{sym}, .Lfunc_end0-{sym}"]
    if stats is not None:
        out += [f"\t; {k}: {v}" for k, v in stats.items()]
    pad = len(shader.code) - result.code_size
    if pad > 0:
        out.append(f"\t.fill {pad // 4}, 4, 3214868480  ; s_code_end")
    out += ["; metadata (the code object's NT_AMDGPU_METADATA note):"]
    out += ["; " + ln for ln in to_yaml(to_metadata(shader)).rstrip("\n").split("\n")]
    return "\n".join(out) + "\n"
