"""The GLSL suite compiled for GFX10.3 (gfx1030) and GFX10.1 (gfx1010), wave32 and wave64:
radcc's encoder agrees with llvm-mc-19 byte for byte.

Each case of tests/e2e/glsl/cases.py goes through `radcc.driver.compile.compile_spirv`
(``radcc compile``'s driver) for the chip; the assembly radcc prints (``-S``, the
``.amdhsa_kernel`` block included) must be accepted by ``llvm-mc-19 -mcpu=<chip>``
(``-mattr=+wavefrontsize64`` for wave64), and the ``.text`` of llvm-mc's object must equal
the ``.text`` of radcc's code object, and the kernel descriptor llvm-mc builds from the
directives the one radcc writes (but for the code entry offset, a relocation in llvm-mc's
object; both read with llvm-objcopy-19). Running the same cases
in the emulator against lavapipe is tests/e2e/test_glsl_radcc.py's job.

What a chip cannot do is refused naming the chip and what it lacks (`REFUSED`: nothing in
the suite now; float atomic adds on buffers, with no ``global_atomic_add_f32`` before
GFX11, are compare-and-swap loops: opt.lower_atomics). VGPR spilling on GFX10.1
(no flat scratch ST mode) addresses its slots from an SGPR base.

Chips and wave sizes (`GFX10_RUNS`, shared with the emulator runs of
tests/e2e/test_glsl_radcc.py): every case for gfx1030 wave64 (RADV's compute wave size
there) and gfx1010 wave32 (the GFX10.1 bugs); `GFX10_SAMPLE`, a case of each category,
for gfx1030 wave32 and gfx1010 wave64 (the full product, some 330 compiles, takes 5-9
minutes on two busy cores; the sample keeps CI time reasonable).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from radcc.driver.compile import compile_spirv
from tests.e2e.glsl.cases import CASES
from tests.e2e.glsl_harness import Case, compile_case

# a case of each category of the suite (ALU widths, std450, bits, conversions, layouts,
# push constants, LDS, atomics, control flow, functions, spec constants, builtins,
# subgroups incl. the wave64 shuffle, spilling)
GFX10_SAMPLE = frozenset({
    "arith_i64", "arith_f16", "arith_u8", "std450_pack", "bitops_small", "convert_widths",
    "layout_std140_ubo", "push_constants_16bit", "shared_transpose", "atomic_shared",
    "atomic_buffer", "atomic_float", "cf_nested_divergent", "cf_switch", "functions",
    "local_arrays", "spec_constants", "builtins_ids", "sg_reduce", "sg_shuffle", "sg_ballot",
    "spill_sgpr", "spill_vgpr"})
# (chip, wave, the cases: None for all)
GFX10_RUNS: list[tuple[str, int, frozenset[str] | None]] = [
    ("gfx1030", 64, None), ("gfx1010", 32, None), ("gfx1030", 32, GFX10_SAMPLE),
    ("gfx1010", 64, GFX10_SAMPLE)]
# (case, chip or None for every GFX10 chip, wave or None for both): the refusal's words
REFUSED: dict[tuple[str, str | None, int | None], str] = {}
TOOLS = ("llvm-mc-19", "llvm-objcopy-19")


def refusal(name: str, chip: str, wave: int) -> str | None:
    for (n, c, w), pat in REFUSED.items():
        if n == name and c in (None, chip) and w in (None, wave):
            return pat.format(chip=chip)
    return None


def _section(obj: Path, name: str) -> bytes:
    out = obj.with_suffix(f".{name.strip('.')}.bin")
    p = subprocess.run(["llvm-objcopy-19", "-O", "binary", f"--only-section={name}", str(obj),
                        str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return out.read_bytes()


PARAMS = [pytest.param(c, chip, w, id=f"{c.name}-{chip}-wave{w}")
          for chip, w, only in GFX10_RUNS for c in CASES if only is None or c.name in only]


@pytest.mark.parametrize("case,chip,wave", PARAMS)
def test_glsl_case_for_gfx10_agrees_with_llvm_mc(case: Case, chip: str, wave: int,
                                                 tmp_path: Path) -> None:
    for t in TOOLS:
        if shutil.which(t) is None:
            pytest.fail(f"{t} missing (install llvm-19)")
    spirv = compile_case(case)
    expected_refusal = refusal(case.name, chip, wave)
    if expected_refusal is not None:
        with pytest.raises(Exception, match=expected_refusal):
            compile_spirv(spirv, mcpu=chip, wave_size=wave, spec=case.spec or None)
        return
    res = compile_spirv(spirv, mcpu=chip, wave_size=wave, spec=case.spec or None)
    assert res.wave_size == wave
    # GFX10 has none of GFX11's s_delay_alu, VOPD or v_permlane64 (the generation's table
    # has no such opcode, so llvm-mc would refuse them too; said here for the reader)
    assert not re.search(r"\b(s_delay_alu|v_dual_|v_permlane64)", res.asm)
    (tmp_path / "k.s").write_text(res.asm)
    (tmp_path / "radcc.o").write_bytes(res.code_object)
    attrs = ["-mattr=+wavefrontsize64"] if wave == 64 else []
    p = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}", *attrs,
                        "--filetype=obj", str(tmp_path / "k.s"), "-o", str(tmp_path / "mc.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[:3000]
    ours, theirs = (_section(tmp_path / o, ".text") for o in ("radcc.o", "mc.o"))
    assert ours == theirs, f".text differs ({len(ours)} vs {len(theirs)} bytes)"
    kd_ours, kd_theirs = (_section(tmp_path / o, ".rodata") for o in ("radcc.o", "mc.o"))
    # bytes 16-23, kernel_code_entry_byte_offset, are a relocation in llvm-mc's ET_REL object
    assert len(kd_ours) == 64 and kd_ours[:16] + kd_ours[24:] == kd_theirs[:16] + kd_theirs[24:]


IMAGES = sorted((Path(__file__).parent / "images").glob("*.comp"))


@pytest.mark.parametrize("chip,wave", [("gfx1030", 64), ("gfx1010", 32)])
@pytest.mark.parametrize("shader", IMAGES, ids=[p.stem for p in IMAGES])
def test_image_shader_for_gfx10_agrees_with_llvm_mc(shader: Path, chip: str, wave: int,
                                                    tmp_path: Path) -> None:
    """The image and texel-buffer shaders (tests/e2e/test_images.py, test_texel_buffers.py)
    for GFX10: MIMG and typed MUBUF in the generation's encoding (NSA addresses where they
    are not consecutive), bytes as llvm-mc-19's."""
    from radcc.oracle import spirv_tools

    r = spirv_tools.compile_glsl(shader, "vulkan1.2")
    assert r.ok, r.text
    res = compile_spirv(r.data, mcpu=chip, wave_size=wave)
    # texel buffers (tb_*, tests/e2e/test_texel_buffers.py) are typed MUBUF (their atomics
    # buffer_atomic_* idxen), arrays of buffers (buf_*, test_buffer_arrays.py) read V#s
    # (a non-uniform index: global_load_dwordx4), the rest MIMG
    want = (r"\bbuffer_((load|store)_format_|atomic_)" if shader.stem.startswith("tb_")
            else r"\bglobal_load_dwordx4" if shader.stem.startswith("buf_") else r"\bimage_")
    assert re.search(want, res.asm)
    (tmp_path / "k.s").write_text(res.asm)
    (tmp_path / "radcc.o").write_bytes(res.code_object)
    attrs = ["-mattr=+wavefrontsize64"] if wave == 64 else []
    p = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}", *attrs,
                        "--filetype=obj", str(tmp_path / "k.s"), "-o", str(tmp_path / "mc.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[:3000]
    assert _section(tmp_path / "radcc.o", ".text") == _section(tmp_path / "mc.o", ".text")
