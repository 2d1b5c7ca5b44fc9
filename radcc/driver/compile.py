"""The compiler driver: SPIR-V shader in, code object out (a compute shader's AMDHSA
code object; a vertex shader's graphics code object, docs/abi.md "Graphics stages").

    from radcc.driver.compile import compile_spirv
    res = compile_spirv(spirv, mcpu="gfx1100", wave_size=32)
    res.code_object, res.asm, res.stats, res.kernel_name, res.arg_layout, res.timings

Stages (each timed, seconds in ``res.timings``): ``parse`` (reading and validating the
SPIR-V: spirv-val when asked, radcc's own checks; translation to MIR),
``mid-level`` (`radcc.frontend.opt.lower_for_isel`: MIR optimisation and the
lowering into the form isel receives, docs/mir.md; then divergence analysis),
``isel`` (instruction selection), ``back end`` (the pass manager,
`radcc.passes.manager.run_pipeline`, with the caller's `DebugOptions`) and ``emit``
(the machine code and the code object). The assembly listing (`CompileResult.asm`)
and the statistics (`CompileResult.stats`) are made from the result's program and
emitted code when first read, not by every compile: most callers want only the code
object.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from radcc.abi.color import DEFAULT_COLOR_FORMAT, ColorFormat
from radcc.abi.kernarg import KernargLayout
from radcc.frontend.divergence import divergence_analysis
from radcc.frontend.mir import ImageBinding, MirShader, release
from radcc.frontend.opt import LOWERING, PASSES, lower_for_isel, optimize
from radcc.frontend.spirv import SpirvWarning, read_spirv
from radcc.frontend.spirv.spirv_val import run_spirv_val
from radcc.frontend.spirv.validate import validate_module
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.ir.analyses import RegisterDemand
from radcc.ir.program import Instruction, Program
from radcc.isel import select_program
from radcc.passes.emit_program import EmitResult
from radcc.passes.manager import (
    UnknownPassError,
    check_pass_names,
    gc_paused,
    pass_names,
    run_pipeline,
)
from radcc.passes.options import DebugOptions
from radcc.target import DEFAULT_MCPU, Tool, get_target

if TYPE_CHECKING:  # a compute compile does not load the graphics code object's modules
    from radcc.codeobj.graphics import GraphicsShader

# `mir_lowerings` (debugging): instead of `lower_for_isel`, run `optimize` and then only
# the named passes of `radcc.frontend.opt.PASSES`, in `LOWERING`'s order (each followed
# by `optimize`). The default (None) is the whole `lower_for_isel` (docs/mir.md "What
# isel receives").


class CompileError(Exception):
    """A user-facing compilation error."""


@dataclass
class CompileResult:
    code_object: bytes
    kernel_name: str
    arg_layout: KernargLayout  # the kernarg segment (docs/abi.md)
    workgroup_size: tuple[int, int, int] = (1, 1, 1)
    wave_size: int = 32
    timings: dict[str, float] = field(default_factory=dict)
    # the final machine program and its emitted code, for the analysis views
    # (radcc.driver.views); not part of the output
    program: Program | None = field(default=None, repr=False, compare=False)
    emitted: EmitResult | None = field(default=None, repr=False, compare=False)
    # with keep_liveness: the register demand live_var_analysis gave each instruction of
    # the program register allocation received (the PreSGPRs/PreVGPRs liveness), by
    # block: (live-in demand, [(instruction, demand during it)])
    demand: list[PreRADemand] | None = field(default=None, repr=False, compare=False)
    # the image bindings the shader uses (dim, declared format, sampled type)
    images: dict[tuple[int, int], ImageBinding] = field(default_factory=dict)
    # the source the SPIR-V embeds (file name, lines), for source-line comments
    debug_source: tuple[str, dict[int, str]] | None = field(default=None, repr=False,
                                                       compare=False)
    # the sampler bindings ("separate" or "combined" with the image there)
    samplers: dict[tuple[int, int], str] = field(default_factory=dict)
    # a graphics stage: the code object's contents (`code_object` is its ELF)
    graphics: GraphicsShader | None = None
    # what radcc's own validation tolerated (`radcc.frontend.spirv.validate`), for the
    # caller to show
    warnings: list[SpirvWarning] = field(default_factory=list)
    # `asm` and `stats` once made (by their first reader)
    _asm: str | None = field(default=None, repr=False, compare=False)
    _stats: dict[str, int] | None = field(default=None, repr=False, compare=False)

    @property
    def stats(self) -> dict[str, int]:
        """ACO's statistics and radcc's (`radcc.passes.statistics.collect_statistics` of
        the program and its emitted code), made on first read."""
        if self._stats is None:
            from radcc.passes.statistics import collect_statistics

            program, emitted = self.program, self.emitted
            assert program is not None and emitted is not None
            wg = self.workgroup_size  # a compute shader's; graphics waves have none
            self._stats = collect_statistics(
                program, emitted,
                workgroup_size=wg[0] * wg[1] * wg[2] if program.stage.is_compute else None)
        return self._stats

    @property
    def asm(self) -> str:
        """The assembly listing (what ``radcc compile -S`` writes: the kernel's directives
        and code, the source lines as comments when the SPIR-V has them, the statistics
        as comments), made on first read."""
        if self._asm is None:
            self._asm = _listing(self)
        return self._asm


@dataclass
class PreRADemand:
    """One block's liveness as register allocation received it."""

    live_in: RegisterDemand
    instrs: list[tuple[Instruction, RegisterDemand]]


def _listing(res: CompileResult) -> str:
    """`CompileResult.asm` of `res`."""
    from radcc.driver.llc import kernel_asm
    from radcc.driver.source_lines import has_lines, interleave

    program, emitted = res.program, res.emitted
    assert program is not None and emitted is not None
    shown = emitted
    if has_lines(program):  # source lines as comments (radcc.driver.source_lines)
        lines = interleave(program, emitted, res.debug_source)
        shown = emitted.showing("\n".join(t for t, _at in lines) + "\n")
    if res.graphics is None:
        return kernel_asm(program, shown, res.stats)
    from radcc.passes.graphics_abi import graphics_asm

    return graphics_asm(res.graphics, shown, res.stats)


def _run_keeping_liveness(program: Program, opts: DebugOptions) -> list[PreRADemand]:
    """The pipeline, stopping before register allocation to keep the liveness it reads
    (the one PreSGPRs/PreVGPRs report); the phases and their output are the same."""
    from radcc.passes.live_var_analysis import get_live_vars
    from radcc.passes.manager import PIPELINE

    names = pass_names()
    before = [s.name for s in PIPELINE[:names.index("register_allocation")]
              if not s.skipped_by & opts.flags]
    run_pipeline(program, opts, stop_after=before[-1])
    live = get_live_vars(program)
    out = [PreRADemand(b.live_in_demand,
                       list(zip(b.instructions, live.register_demand[b.index], strict=True)))
           for b in program.blocks]
    run_pipeline(program, opts, start_after=before[-1])
    return out


def _lowerings(enabled: set[str]) -> list[tuple[str, Callable[[MirShader], Any]]]:
    """The passes of `LOWERING` named in `enabled`, in order (unknown names: an error)."""
    unknown = enabled - set(PASSES)
    if unknown:
        raise CompileError(f"unknown MIR lowering(s): {', '.join(sorted(unknown))}")
    order = [n for n in LOWERING if n in enabled] + sorted(enabled - set(LOWERING))
    return [(n, PASSES[n]) for n in dict.fromkeys(order)]


def compile_spirv(spirv: bytes, *, mcpu: str = DEFAULT_MCPU, wave_size: int | None = None,
                  entry: str | None = None, spec: dict[int, Any] | None = None,
                  debug_options: DebugOptions | None = None,
                  print_after: set[str] | None = None,
                  mir_lowerings: set[str] | None = None, spirv_val: bool = False,
                  keep_liveness: bool = False,
                  color_formats: tuple[ColorFormat, ...] = (DEFAULT_COLOR_FORMAT,),
                  instance_inputs: frozenset[int] = frozenset()) -> CompileResult:
    """Compile a SPIR-V compute shader (see module docstring). `spirv_val` runs the
    real validator first (`radcc.frontend.spirv.spirv_val`, when installed); radcc's
    own checks (`radcc.frontend.spirv.validate`) always run. `debug_options` are the
    pass manager's (none when None; the CLI parses them from ``RADCC_DEBUG``);
    `print_after` names MIR passes, ``divergence``, ``isel`` or back-end phases (or
    ``all``) to print after. `wave_size` None is the target's compute default
    (`Target.compute_wave_size`: wave32 on GFX11, wave64 on GFX10/10.3 as RADV).
    Python's cyclic garbage collector is paused meanwhile
    (`radcc.passes.manager.gc_paused`). `keep_liveness` keeps the liveness register
    allocation received (`CompileResult.demand`, for `radcc.driver.views`).
    `color_formats`: a fragment shader's colour attachment formats by location (the last
    one applies to higher locations; `radcc.abi.graphics.ColorFormat`): they decide each
    output's export (default: rgba8, R8G8B8A8_UNORM). `instance_inputs`: a vertex
    shader's input locations fetched per instance (the pipeline's input rates, compiled
    in as RADV's pipeline key does; the others per vertex)."""
    with gc_paused():
        return _compile(spirv, mcpu, wave_size, entry, spec, debug_options, print_after,
                        mir_lowerings, spirv_val, keep_liveness, color_formats,
                        instance_inputs)


def _compile(spirv: bytes, mcpu: str, wave_size: int | None, entry: str | None,
             spec: dict[int, Any] | None, debug_options: DebugOptions | None,
             print_after: set[str] | None, mir_lowerings: set[str] | None,
             spirv_val: bool, keep_liveness: bool = False,
             color_formats: tuple[ColorFormat, ...] = (DEFAULT_COLOR_FORMAT,),
             instance_inputs: frozenset[int] = frozenset()) -> CompileResult:
    from radcc.frontend.spirv.debug_lines import debug_source
    from radcc.ir.printer import print_program
    from radcc.passes.emit_program import emit_code_object, emit_program

    try:
        target = get_target(mcpu)
    except ValueError as e:
        raise CompileError(str(e)) from None
    if not target.supports(Tool.COMPILE):
        raise CompileError(f"SPIR-V compilation does not support {mcpu} "
                           f"({target.gfx_level.name}) yet; "
                           f"{' and '.join('radcc ' + t.value for t in target.tools)} "
                           f"do ('radcc targets' lists what works where)")
    if wave_size is None:
        wave_size = target.compute_wave_size
    elif wave_size not in target.wave_sizes:
        raise CompileError(f"{mcpu} does not run wave{wave_size}")
    timings: dict[str, float] = {}
    pa = set(print_after or ())
    opts = debug_options or DebugOptions()
    try:  # before any work: a misspelt name would print nothing, silently
        check_pass_names(pa, "print-after", extra=["divergence", "isel", *PASSES])
        check_pass_names(opts.print_after, "RADCC_DEBUG print-after")
        check_pass_names(opts.print_before, "RADCC_DEBUG print-before")
    except UnknownPassError as e:
        raise CompileError(str(e)) from None
    t0 = time.perf_counter()
    module = read_spirv(spirv)
    if spirv_val:
        run_spirv_val(module, spirv)
    warnings = validate_module(module, entry)
    shader = spirv_to_mir(module, entry=entry, spec=spec, wave_size=wave_size,
                          instance_inputs=instance_inputs)
    timings["parse"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    mir_pa = pa & ({"all"} | set(PASSES))
    if mir_lowerings is None:
        lower_for_isel(shader, target.mir_options, wave_size, print_after=mir_pa)
    else:
        shader.options = target.mir_options
        optimize(shader, print_after=mir_pa)
        for name, fn in _lowerings(set(mir_lowerings)):
            if fn(shader):
                optimize(shader)
            if name in pa:
                from radcc.frontend.mir_print import print_shader

                print(f"// MIR after {name}\n{print_shader(shader)}")
    divergence_analysis(shader)
    if "divergence" in pa:
        from radcc.frontend.mir_print import print_shader

        print(f"// MIR after divergence\n{print_shader(shader, divergence=True)}")
    timings["mid-level"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    name = shader.entry or "main"
    res = select_program(shader, target, wave_size, name, color_formats)
    program = res.program
    release(shader)
    timings["isel"] = time.perf_counter() - t0
    if "isel" in pa or "all" in pa:
        print(f"// IR after isel\n{print_program(program)}")
    t0 = time.perf_counter()
    popts = opts.with_prints(pa & {"all", *pass_names()})
    if keep_liveness:
        demand = _run_keeping_liveness(program, popts)
    else:
        run_pipeline(program, popts)
        demand = None
    timings["back end"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    emitted = emit_program(program)
    source = debug_source(module)
    graphics = None
    if program.stage.is_compute:
        code = emit_code_object(program, emitted)
    else:  # a graphics code object (docs/abi.md "Graphics stages")
        from radcc.codeobj.graphics import write_graphics_object
        from radcc.passes.graphics_abi import graphics_shader

        graphics = graphics_shader(program, emitted, vertex=res.vertex, pixel=res.pixel)
        code = write_graphics_object(graphics)
    timings["emit"] = time.perf_counter() - t0
    kernargs = res.args.kernargs or KernargLayout()  # a fragment shader may have none
    return CompileResult(code, name, kernargs, shader.workgroup_size, wave_size,
                         timings, program, emitted, demand, dict(shader.images), source,
                         dict(shader.samplers), graphics, warnings)
