"""The Python API at the package top level (radcc/driver/api.py): `radcc.compile` of GLSL text, a
path and SPIR-V bytes gives what `radcc compile` gives; `radcc.run` returns NumPy arrays
that match NumPy's own computation; `import radcc` loads nothing else."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import radcc

ROOT = Path(__file__).resolve().parents[1]
SRC = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(push_constant) uniform P { float s; uint k; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    a[i] = a[i] * s + 1.0;
    b[i] = b[i] * k + i;
}
"""


def test_import_is_cheap() -> None:
    r = subprocess.run([sys.executable, "-c", "import radcc, sys; print(sorted(m for m in "
                        "sys.modules if m.startswith('radcc')))"], capture_output=True,
                       text=True, check=True, cwd=ROOT)
    assert r.stdout.strip() == "['radcc']"


def test_a_compile_loads_only_what_it_uses() -> None:
    """A one-shader ``radcc compile`` in a fresh process (start-up is a feature: issue 14)
    does not load the emulator, the oracles, the readers of other inputs, or NumPy when
    the shader folds nothing (NumPy comes with ``mir_eval``, the folder's semantics)."""
    seed = ROOT / "tests" / "fuzz" / "corpus" / "seeds" / "add.spv"
    code = ("import sys\n"
            "from radcc import cli\n"
            f"sys.argv = ['radcc', 'compile', '--no-validate', {str(seed)!r}, '-o', '-', '-S']\n"
            "try:\n    cli.main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('MODULES', ' '.join(sorted(sys.modules)))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "v_add" in r.stdout  # the shader was compiled
    loaded = set(r.stdout.split("MODULES ", 1)[1].split())
    unwanted = {"numpy", "radcc.frontend.mir_eval", "radcc.ir.parser", "radcc.codeobj.elfread",
                "radcc.driver.report", "csv",  # these two: --stats-file only
                "subprocess",  # spirv-val and glslang only (this is SPIR-V, --no-validate)
                "json",  # the opcode tables' JSON: only when their cache is stale
                # the graphics stages (vertex, fragment) and WMMA: not in a compute shader
                "radcc.abi.graphics", "radcc.codeobj.graphics", "radcc.passes.graphics_abi",
                "radcc.isel.vertex", "radcc.isel.fragment", "radcc.isel.wmma", "radcc.isa.wmma"}
    assert not loaded & unwanted, sorted(loaded & unwanted)
    assert not [m for m in loaded if m.startswith(("radcc.emu", "radcc.oracle"))]


def test_a_command_freezes_its_modules_once() -> None:
    """`radcc.cli.loading_modules`: a command's imports run with the cyclic collector off
    and what they made is frozen out of its reach (start-up: its collections scanned
    ~26k import-time objects); a second command in the same process loads no module, so
    it freezes nothing more (no garbage of the first kept forever); the collector is on
    again after each."""
    seed = ROOT / "tests" / "fuzz" / "corpus" / "seeds" / "add.spv"
    code = ("import gc, io, contextlib\n"
            "from radcc import cli\n"
            f"argv = ['compile', '--no-validate', {str(seed)!r}, '-o', '-', '-S']\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert cli.main(argv) == 0\n"
            "    first = gc.get_freeze_count()\n"
            "    assert cli.main(argv) == 0\n"
            "print('FROZEN', first, gc.get_freeze_count(), gc.isenabled())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    first, second, enabled = r.stdout.split("FROZEN ", 1)[1].split()
    assert int(first) > 10_000  # the compiler's modules' objects
    # (frozen objects may still be freed, e.g. a replaced cache entry: never more)
    assert int(second) <= int(first) and enabled == "True"


def test_compile_sources_agree_with_cli(tmp_path: Path) -> None:
    src = tmp_path / "k.comp"
    src.write_text(SRC)
    spv = tmp_path / "k.spv"
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.3", str(src), "-o",
                    str(spv)], check=True, capture_output=True)
    from_text = radcc.compile(SRC)
    from_path = radcc.compile(str(src))
    from_pathlike = radcc.compile(src)
    from_bytes = radcc.compile(spv.read_bytes())
    for k in (from_path, from_pathlike, from_bytes):
        assert k.code_object == from_text.code_object and k.asm == from_text.asm
        assert k.stats == from_text.stats
    obj = tmp_path / "k.o"
    r = subprocess.run([sys.executable, "-m", "radcc", "compile", str(src), "-o", str(obj),
                        "--stats"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert obj.read_bytes() == from_text.code_object
    cli_stats = {m[1]: int(m[2]) for m in re.finditer(r"^(\w+): (\d+)$", r.stderr, re.M)}
    assert cli_stats == from_text.stats
    assert from_text.name == "main" and from_text.workgroup_size == (64, 1, 1)
    k64 = radcc.compile(SRC, wave_size=64)
    assert k64.wave_size == 64 and k64.code_object != from_text.code_object


@pytest.mark.parametrize("wave", [32, 64])
def test_run_returns_arrays(wave: int) -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 64)).astype(np.float32)
    b = rng.integers(0, 1000, 256, dtype=np.uint32)
    out = radcc.run(SRC, groups=4, buffers={(0, 0): a, 1: b},
                    push_constants=[np.float32(1.5), np.uint32(7)], wave_size=wave)
    assert out[(0, 0)].dtype == np.float32 and out[(0, 0)].shape == (4, 64)
    # radcc fuses a * s + 1.0 (one rounding; a * 1.5 is exact in float64)
    np.testing.assert_array_equal(out[(0, 0)], (a.astype(np.float64) * 1.5 + 1.0)
                                  .astype(np.float32))
    assert out[(0, 1)].dtype == np.uint32
    np.testing.assert_array_equal(out[(0, 1)], b * np.uint32(7) + np.arange(256, dtype=np.uint32))


def test_hlsl(tmp_path: Path) -> None:
    src = tmp_path / "k.hlsl"
    src.write_text("RWStructuredBuffer<float> buf : register(u0);\n[numthreads(64, 1, 1)]\n"
                   "void CSMain(uint3 id : SV_DispatchThreadID) { buf[id.x] *= 3.0; }\n")
    k = radcc.compile(src, stage="comp", entry="CSMain")
    x = np.arange(64, dtype=np.float32)
    np.testing.assert_array_equal(radcc.run(k, buffers={0: x})[(0, 0)], x * 3)


def test_errors() -> None:
    with pytest.raises(radcc.CompileError, match=r"<source>:2: .*syntax error"):
        radcc.compile("#version 450\nvoid main( {\n")
    with pytest.raises(radcc.CompileError, match="not SPIR-V"):
        radcc.compile(b"\0\0\0\0")
    with pytest.raises(radcc.CompileError, match="unknown GPU 'gfx9'"):
        radcc.compile(SRC, mcpu="gfx9")
    assert radcc.compile(SRC, mcpu="gfx1030").wave_size == 64  # the chip's default
    with pytest.raises(radcc.CompileError, match="wave_size"):
        radcc.compile(SRC, wave_size=16)
    with pytest.raises(radcc.RunError, match="groups"):
        radcc.run(SRC, groups=(0, 1))
    with pytest.raises(AttributeError):
        radcc.no_such_thing  # noqa: B018


IMG_SRC = """#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(set = 0, binding = 3) buffer O { float o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    float v = imageLoad(src, p).x;
    imageStore(dst, p, vec4(v, 1.0 - v, 0.5, 1.0));
    vec2 uv = (vec2(p) + 0.5) / vec2(16.0, 8.0);
    o[p.y * 16 + p.x] = textureLod(tex, uv, 0.0).x;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_run_images_and_samplers(wave: int) -> None:
    """Images and samplers through the API, as `radcc run --image/--sampler` take them:
    texel centres with nearest filtering read back the texels; the rgba8 image is the
    unorm encoding NumPy computes (round to nearest)."""
    rng = np.random.default_rng(7)
    src = rng.random((8, 16), dtype=np.float32)
    tex = rng.random((8, 16), dtype=np.float32)
    dst = np.zeros((8, 16, 4), np.uint8)
    out = radcc.run(IMG_SRC, wave_size=wave, groups=(2, 1),
                    buffers={3: np.zeros(128, np.float32)},
                    images={0: src, (0, 1): (dst, "rgba8"), 2: (tex, "r32f")},
                    samplers={2: "nearest,clamp"})
    want = np.stack([src, 1 - src, np.full_like(src, 0.5), np.ones_like(src)], axis=-1)
    got = out[(0, 1)]
    assert got.dtype == np.uint8 and got.shape == (8, 16, 4)
    assert np.array_equal(got, np.round(np.clip(want, 0, 1) * 255).astype(np.uint8))
    assert np.array_equal(out[(0, 3)], tex.reshape(-1))
    assert np.array_equal(out[(0, 0)], src)


def test_run_default_instruction_limit() -> None:
    """`radcc.run` stops a runaway kernel at the same default limit as `radcc run`."""
    from radcc.emu.errors import DEFAULT_MAX_INSTRUCTIONS

    src = """#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() { uint i = 0u; while (a[0] != 7u) { i++; a[1] = i; } }
"""
    with pytest.raises(radcc.RunError, match="limit"):
        radcc.run(src, wave_size=32, buffers={0: np.zeros(2, np.uint32)})
    with pytest.raises(radcc.RunError, match=str(DEFAULT_MAX_INSTRUCTIONS // 10)):
        radcc.run(src, wave_size=32, buffers={0: np.zeros(2, np.uint32)},
                  max_instructions=DEFAULT_MAX_INSTRUCTIONS // 10)


@pytest.mark.parametrize("ext,name", [("geom", "geometry"), ("rmiss", "miss shaders (ray tracing)")])
def test_other_stages_refused_by_name(ext: str, name: str, tmp_path: Path) -> None:
    """The API refuses the stages radcc does not compile by name, before glslang runs."""
    src = tmp_path / f"s.{ext}"
    src.write_text("#version 460\nvoid main() {}\n")
    with pytest.raises(radcc.CompileError, match=rf"s\.{ext}:1:1: error: {re.escape(name)}"):
        radcc.compile(src)
