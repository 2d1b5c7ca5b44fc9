"""The compiler driver: SPIR-V compute shader in, AMDHSA code object out.

    from radcc.compile import compile_spirv
    res = compile_spirv(spirv, mcpu="gfx1100", wave_size=32)
    res.code_object, res.asm, res.stats, res.kernel_name, res.arg_layout, res.timings

Stages (each timed, seconds in ``res.timings``): ``parse`` (SPIR-V to MIR),
``mid-level`` (MIR optimisation and the MIR lowering passes that exist, then
divergence analysis), ``isel`` (instruction selection), ``back end``
(`radcc.pipeline.run_pipeline` and ``lower_to_hw`` if it did not run) and
``emit`` (assembly and code object).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from radcc.frontend.divergence import divergence_analysis
from radcc.frontend.mir import MirShader
from radcc.frontend.opt import optimize
from radcc.frontend.spirv_to_mir import spirv_to_mir
from radcc.isel import ArgLayout, select_program
from radcc.target import get_target

# MIR lowering passes that may run after optimisation when their modules exist
# (radcc/frontend/opt/<module>.py defining <function>(shader) -> bool), in this order.
# Only those named in `mir_lowerings` (default `DEFAULT_LOWERINGS`) run: isel selects
# continue constructs, vectors, 64-bit integers and division itself.
MIR_LOWERINGS: tuple[tuple[str, str], ...] = (
    ("lower_continue", "lower_continue_constructs"),
    ("lower_vec", "lower_vectors"),
    ("lower_int64", "lower_int64"),
    ("lower_div_const", "lower_div_by_constants"),
    ("unroll", "unroll_loops"),
    ("lower_locals", "lower_local_arrays"),
)


DEFAULT_LOWERINGS: frozenset[str] = frozenset()


class CompileError(Exception):
    """A user-facing compilation error."""


@dataclass
class CompileResult:
    code_object: bytes
    asm: str
    stats: dict[str, int]
    kernel_name: str
    arg_layout: ArgLayout
    workgroup_size: tuple[int, int, int] = (1, 1, 1)
    wave_size: int = 32
    timings: dict[str, float] = field(default_factory=dict)


def _lowerings(enabled: set[str] | None) -> list[tuple[str, Callable[[MirShader], Any]]]:
    out = []
    for mod, fn in MIR_LOWERINGS:
        if enabled is not None and mod not in enabled:
            continue
        try:
            m = importlib.import_module(f"radcc.frontend.opt.{mod}")
        except ImportError:
            continue
        f = getattr(m, fn, None)
        if callable(f):
            out.append((fn, f))
    return out


def compile_spirv(spirv: bytes, *, mcpu: str = "gfx1100", wave_size: int = 32,
                  entry: str | None = None, spec: dict[int, Any] | None = None,
                  debug_options: Any = None, print_after: set[str] | None = None,
                  mir_lowerings: set[str] | None = None) -> CompileResult:
    """Compile a SPIR-V compute shader (see module docstring). `debug_options` is a
    `radcc.pipeline.DebugOptions` (RADCC_DEBUG when None)."""
    from radcc.ir.printer import print_program
    from radcc.llc import kernel_asm, run_passes
    from radcc.passes.emit_program import emit_code_object, emit_program
    from radcc.passes.statistics import collect_statistics
    from radcc.pipeline import DebugOptions, run_pipeline

    try:
        target = get_target(mcpu)
    except ValueError as e:
        raise CompileError(str(e)) from None
    timings: dict[str, float] = {}
    pa = set(print_after or ())
    t0 = time.perf_counter()
    shader = spirv_to_mir(spirv, entry=entry, spec=spec)
    timings["parse"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    optimize(shader, print_after=pa & {"all", "vars_to_ssa", "copy_prop", "constant_folding",
                                       "algebraic", "cse", "dce"})
    enabled = set(DEFAULT_LOWERINGS if mir_lowerings is None else mir_lowerings)
    for name, fn in _lowerings(enabled):
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
    res = select_program(shader, target, wave_size, name)
    program = res.program
    timings["isel"] = time.perf_counter() - t0
    if "isel" in pa or "all" in pa:
        print(f"// IR after isel\n{print_program(program)}")
    t0 = time.perf_counter()
    opts = debug_options if debug_options is not None else DebugOptions.from_env()
    if pa:
        opts.print_after |= pa
    ran = run_pipeline(program, opts).ran
    if "lower_to_hw" not in ran:
        from radcc.passes.lower_to_hw import lower_to_hw

        lower_to_hw(program)
    timings["back end"] = time.perf_counter() - t0
    _ = run_passes
    t0 = time.perf_counter()
    emitted = emit_program(program)
    stats = collect_statistics(program, emitted)
    asm = kernel_asm(program, emitted, stats)
    code = emit_code_object(program, emitted, res.args.metadata())
    timings["emit"] = time.perf_counter() - t0
    return CompileResult(code, asm, stats, name, res.args, shader.workgroup_size, wave_size,
                         timings)
