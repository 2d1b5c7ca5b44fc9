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
constants), a local is one type (mypyc checks it at run time). Left out: the
compile-path modules with mypy errors (mypyc refuses to build them),
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
