"""The optional compiled build (issue 14): which of radcc's modules mypyc compiles to C
extensions, and which of them this process loaded compiled.

The pure-Python modules are the reference: the compiled build is the same source
compiled by mypyc (`mypy`'s compiler, from PyPI; it needs a C compiler, no C++), built
only on request (``RADCC_MYPYC=1`` for ``setup.py``/``pip install``, or
``python tools/build_compiled.py`` in a checkout; README "Compiled build"). Nothing else
in radcc knows whether a module is compiled: code in these modules only has to be
mypyc-compatible (types that hold at run time, no monkeypatching of their classes and
functions, no subclassing of their classes by interpreted code).

`MODULES` is the one list: the build reads it (without importing radcc) and
`tests/test_compiled.py` checks that a compiled build loads every one of them
compiled. Modules are chosen by cProfile over real shaders (bench/README.md "Compiled
build": what each pays), hottest first: every module on `compile_spirv`'s path with a
measurable share (every 40th module of /work/rw/ncnn and /work/rw/ggml, wave32) that
mypy checks clean (the 16 from `passes/register_allocation` on by the profile of the
46-module build; the 12 from `spirv/validate` on made mypy-clean in session 15:
renamed locals that held two types, typed field construction, `Sequence` parameters).
mypyc's limits met on the way and how they are avoided: a native class may not
subclass most built-in exceptions (`Exception`, `LookupError`, `ValueError`,
`IndexError` are allowed; `ir/builder.AbsentOpcodeError` is a LookupError,
`passes/linear_dataflow.DataflowError` an Exception), a starred tuple inside a
generator crashes mypyc 2.4.1 (`spirv/functions` keeps such tuples as module
constants), a local is one type (mypyc checks it at run time), a class's mutable
default (``yaml._Scanner._ESC``) is built per instance (mypyc warns "Unsupported default
attribute value"), ``x in <generator>`` raises AttributeError (mypyc calls the generator's
``__contains__``: `lower_returns` walks `iter_blocks` instead). Session 18 added the rest
of the compile path by the profile of ncnn's every-6th sample (`mir_fold`,
`spirv_to_mir/alu` first; 31 modules, most under 0.3% of the pure profile each, the
small ones for their classes' native attribute access from compiled callers:
`mir_ops`, `target`). Left out: the compile-path modules with mypy errors (mypyc refuses to build them; `isa/*`,
`ir/validate`), `abi/args` (an Enum with an ``__init__``, `ArgKind`, fails at import
compiled: "ArgKind object expected; got ArgKind") and with it `passes/kernel_abi` (its
`ABIError` subclasses `AbiError`), `passes/hw_copy` (its `LoweringError` is subclassed by
`hazards_gfx10.HazardError`, and mypyc 2.4.1's IR builder crashes on
`hazards_gfx10`'s ``cls.__new__(cls)``: "'Gfx10Rec' has no attribute '__new__'"),
`isa/operands` (mypyc's dataclass support fails at import on its ``value: object``
field: ``KeyError: 'object'``; 0.9% of the 73-module build's profile), `ir/fields`
(its `FieldError` subclasses AttributeError and KeyError), `frontend/mir_eval` (NumPy
does its work), the package ``__init__`` modules and the modules under 0.1% of the
profile (the generated grammar table among them)."""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

MODULES: tuple[str, ...] = (
    "radcc.frontend.mir",
    "radcc.frontend.opt.dce",
    "radcc.frontend.opt.cse",
    "radcc.passes.live_var_analysis",
    "radcc.frontend.opt.algebraic",
    "radcc.passes.access",
    "radcc.frontend.opt.lower_util",
    "radcc.frontend.opt.constant_folding",
    "radcc.frontend.opt.dead_branch",
    "radcc.passes.statistics",
    "radcc.frontend.opt.dead_writes",
    "radcc.frontend.spirv.binary",
    "radcc.ir.regclass",
    "radcc.frontend.spirv.reader",
    "radcc.passes.asm_text",
    "radcc.ir.program",
    "radcc.frontend.mir_cfg",
    "radcc.frontend.opt.copy_prop",
    "radcc.passes.emit_program",
    "radcc.passes.postra_tracking",
    "radcc.passes.vn_impl",
    "radcc.ir.opinfo",
    "radcc.passes.scheduler",
    "radcc.frontend.divergence",
    "radcc.frontend.mir_builder",
    "radcc.isa.cycle_model",
    "radcc.ir.dominance",
    "radcc.passes.dead_code",
    "radcc.passes.sched_info",
    "radcc.frontend.opt.loop_unroll",
    "radcc.frontend.spirv_to_mir.context",
    "radcc.frontend.spirv_to_mir.types_consts",
    "radcc.frontend.spirv_to_mir.variables",
    "radcc.ir.analyses",
    "radcc.passes.exec_context",
    "radcc.passes.insert_exec_mask",
    "radcc.passes.manager",
    "radcc.passes.sched_regions",
    "radcc.frontend.opt.vectorize_mem",
    "radcc.frontend.spirv.grammar",
    "radcc.frontend.spirv.types",
    "radcc.ir.effects",
    "radcc.isa.classes",
    "radcc.passes.repair_ssa",
    "radcc.frontend.spirv_to_mir.dispatch",
    "radcc.passes.ra_support",
    "radcc.passes.register_allocation",
    "radcc.passes.opt_impl",
    "radcc.passes.insert_delay_alu",
    "radcc.passes.insert_nops",
    "radcc.passes.sched_cost",
    "radcc.passes.optimizer_postra",
    "radcc.passes.schedule_vopd",
    "radcc.frontend.opt.lower_local_arrays",
    "radcc.passes.insert_waitcnt",
    "radcc.passes.form_hard_clauses",
    "radcc.frontend.opt.lower_vectors",
    "radcc.frontend.spirv_to_mir.cfg",
    "radcc.passes.lower_to_cssa",
    "radcc.passes.jump_threading",
    "radcc.frontend.spirv.layout",
    "radcc.frontend.opt.fold_offsets",
    "radcc.frontend.spirv.validate",
    "radcc.passes.scheduler_ilp",
    "radcc.frontend.opt.vars_to_ssa",
    "radcc.ir.builder",
    "radcc.isel.context",
    "radcc.isel.cf",
    "radcc.isel.alu",
    "radcc.isel.alu16",
    "radcc.passes.lower_to_hw",
    "radcc.passes.ssa_elimination",
    "radcc.passes.linear_dataflow",
    "radcc.frontend.spirv.functions",
    # session 18 (the 105-module build): the rest of the compile path, hottest first
    "radcc.frontend.mir_fold",
    "radcc.frontend.spirv_to_mir.alu",
    "radcc.frontend.opt.lower_continue",
    "radcc.frontend.spirv.debug_lines",
    "radcc.codeobj.amdhsa",
    "radcc.frontend.spirv.module",
    "radcc.codeobj.yaml",
    "radcc.isel.dispatch",
    "radcc.frontend.opt.vectorize_alu16",
    "radcc.isel.memory",
    "radcc.codeobj.msgpack",
    "radcc.frontend.opt.peephole_select",
    "radcc.frontend.opt.range_fold",
    "radcc.passes.lane_mask",
    "radcc.frontend.opt.lower_math",
    "radcc.frontend.opt.lower_system_values",
    "radcc.frontend.opt.lower_returns",
    "radcc.codeobj.elfwrite",
    "radcc.passes.lower_phis",
    "radcc.frontend.opt.lower_int64",
    "radcc.target",
    "radcc.isel.kernarg_loads",
    "radcc.frontend.opt.combine_barriers",
    "radcc.isel.mem16",
    "radcc.frontend.spirv_to_mir.glsl450",
    "radcc.frontend.spirv_to_mir.layout",
    "radcc.isel.select",
    "radcc.frontend.spirv_to_mir.composites",
    "radcc.isel.sysval",
    "radcc.isel.global_mem",
    "radcc.frontend.mir_ops",
)


def is_compiled(module: str) -> bool:
    """Whether `module` (imported here if not yet) was loaded from a C extension."""
    mod = sys.modules.get(module) or importlib.import_module(module)
    return (getattr(mod, "__file__", None) or "").endswith((".so", ".pyd"))


def compiled_modules() -> list[str]:
    """The modules of `MODULES` that this process runs compiled."""
    return [m for m in MODULES if is_compiled(m)]


def extension_files(root: Path) -> list[Path]:
    """The compiled build's files in the checkout or install at `root` (the directory
    holding ``radcc/``): the extensions of `MODULES` and mypyc's shared runtime."""
    found: list[Path] = []
    for module in MODULES:
        base = root / Path(*module.split("."))
        found += [p for s in EXTENSION_SUFFIXES if (p := base.with_name(base.name + s)).exists()]
    found += [p for s in EXTENSION_SUFFIXES if (p := root / f"radcc__mypyc{s}").exists()]
    return found


def stale(root: Path) -> list[str]:
    """The modules of `MODULES` whose extension at `root` is older than their source
    (edited since the build: the extension runs the old code)."""
    out: list[str] = []
    for module in MODULES:
        base = root / Path(*module.split("."))
        src = base.with_name(base.name + ".py")
        for s in EXTENSION_SUFFIXES:
            ext = base.with_name(base.name + s)
            if ext.exists() and src.exists() and ext.stat().st_mtime < src.stat().st_mtime:
                out.append(module)
    return out
