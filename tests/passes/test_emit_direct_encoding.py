"""emit_program encodes the machine IR directly (typed operands, `asm_text.instruction_parsed`);
the text it prints stays the oracle: every instruction's direct bytes equal the bytes of its
assembly line assembled as text, and llvm-mc-19 agrees on a sample.

The programs are the whole output check's set (tools/check_backend_output.py: the GLSL e2e
cases in wave32 and wave64, tests/e2e/programs/*.ir, generated programs; gfx1100) and the
GLSL cases for GFX10.3 and GFX10.1 (the sample of tests/e2e/test_glsl_gfx10_mc.py).
`emit_program`'s assembler call is wrapped: before the program is assembled, each line
that has typed operands is encoded both ways by a fresh `Assembler` (no line memo; the
emitter builds a line's typed statement when asked, the assembler asks only for lines
its memo lacks, the wrapper for every line).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import radcc.passes.emit_program as emit_mod
from radcc.isa.assembler import Assembler
from radcc.isa.errors import AsmError
from radcc.isa.lexer import tokenize
from radcc.isa.syntax import ParsedInst, fast_statement, parse_statement
from radcc.oracle import llvm_mc
from radcc.target import Target
from tests.support.tools import require_tool

ROOT = Path(__file__).resolve().parents[2]


def _tool():  # tools/ is not a package: load the output check's generators from their file
    spec = importlib.util.spec_from_file_location(
        "check_backend_output", ROOT / "tools" / "check_backend_output.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _from_text(line: str) -> ParsedInst:
    inst = fast_statement(line)
    if inst is None:
        toks = tokenize(line)
        inst = parse_statement(toks[0], toks[1:])
    return inst


# the lines emit_program writes itself (a long jump's s_getpc_b64/s_add_u32/s_addc_u32/
# s_setpc_b64, the s_nop 0 after a branch of offset 0x3f, p_constaddr's s_add_u32 with its
# literal), assembled from their text
UNTYPED = frozenset({"s_getpc_b64", "s_add_u32", "s_addc_u32", "s_setpc_b64", "s_nop"})


@dataclass
class Seen:
    checked: int = 0
    untyped: set[str] = field(default_factory=set)  # mnemonics of lines without types
    # (chip, wave) -> mnemonic -> (line, direct bytes) of its first line without fixups
    sample: dict[tuple[str, int], dict[str, tuple[str, bytes]]] = field(default_factory=dict)


def _wrap(monkeypatch: pytest.MonkeyPatch, seen: Seen) -> None:
    real = emit_mod.assemble

    def checking(lines: list[str], target: Target, filename: str, wave_size: int,
                 parsed: Callable[[int], ParsedInst | None], texts: bool = True):
        a = Assembler(target, filename, wave_size)
        sample = seen.sample.setdefault((target.name, wave_size), {})
        for k, line in enumerate(lines):
            p = parsed(k)  # every line's, also those the assembler's line memo has
            if p is None:
                if not line.endswith(":"):
                    seen.untyped.add(line.split()[0])
                continue
            try:
                direct = a.encode(p)
            except AsmError as e:
                raise AssertionError(f"{target.name} w{wave_size}: direct encoding of {line!r} "
                                     f"fails: {e.message}") from e
            text = a.encode(_from_text(line))
            assert direct.data == text.data, (
                f"{target.name} w{wave_size}: {line!r}: direct {direct.data.hex()} "
                f"text {text.data.hex()}")
            assert direct.fixups == text.fixups, line
            seen.checked += 1
            if not direct.fixups:
                sample.setdefault(p.mnemonic, (line, direct.data))
        return real(lines, target, filename, wave_size, parsed, texts)

    monkeypatch.setattr(emit_mod, "assemble", checking)


def _gfx10_glsl() -> Iterator[tuple[str, str]]:
    from radcc.driver.compile import compile_spirv
    from tests.e2e.glsl.cases import CASES
    from tests.e2e.glsl_harness import compile_case
    from tests.e2e.test_glsl_gfx10_mc import GFX10_SAMPLE

    for chip in ("gfx1030", "gfx1010"):
        for case in CASES:
            if case.name not in GFX10_SAMPLE:
                continue
            spirv = compile_case(case)
            for wave in (32, 64):
                compile_spirv(spirv, mcpu=chip, wave_size=wave, spec=dict(case.spec))
                yield f"{case.name}/{chip}/w{wave}", ""


def _image_shaders() -> Iterator[tuple[str, str]]:
    """The image and texel-buffer shaders of tests/e2e/images (MIMG, typed MUBUF)."""
    from radcc.driver.compile import compile_spirv
    from tests.support.tools import glsl_file_spirv

    for src in sorted((ROOT / "tests" / "e2e" / "images").glob("*.comp")):
        spirv = glsl_file_spirv(src)
        for wave in (32, 64):
            compile_spirv(spirv, wave_size=wave)
            yield f"{src.stem}/w{wave}", ""


def _agree_with_llvm_mc(seen: Seen) -> int:
    llvm_mc.require()
    n = 0
    for (chip, wave), by_mnemonic in sorted(seen.sample.items()):
        items = sorted(by_mnemonic.values())
        refs = llvm_mc.encode([ln for ln, _ in items], mcpu=chip, wave64=wave == 64)
        for (line, data), ref in zip(items, refs, strict=True):
            assert ref.data is not None, f"{chip} w{wave}: llvm-mc-19 rejects {line!r}: {ref.error}"
            assert ref.data == data, f"{chip} w{wave}: {line}: radcc {data.hex()} " \
                                     f"llvm-mc {ref.data.hex()}"
            n += 1
    return n


def test_direct_encoding_equals_text_on_the_output_check_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    require_tool("glslangValidator", "glslang-tools")
    tool = _tool()
    seen = Seen()
    _wrap(monkeypatch, seen)
    names = [name for gen in (tool.ir_entries, tool.rand_entries, tool.glsl_entries,
                              _gfx10_glsl, _image_shaders) for name, _ in gen()]
    assert len(names) > 250
    # what goes through its text: the lines emit_program writes itself (long branches,
    # padding, p_constaddr's address arithmetic); VOPD pairs are typed too
    assert seen.untyped <= UNTYPED, sorted(seen.untyped - UNTYPED)
    assert seen.checked > 100_000
    prefixes = {m.split("_")[0] for s in seen.sample.values() for m in s}
    assert {"s", "v", "ds", "global", "buffer", "image", "scratch"} <= prefixes, prefixes
    assert {("gfx1100", 32), ("gfx1100", 64), ("gfx1030", 32), ("gfx1030", 64),
            ("gfx1010", 32), ("gfx1010", 64)} <= set(seen.sample)
    assert _agree_with_llvm_mc(seen) > 500
