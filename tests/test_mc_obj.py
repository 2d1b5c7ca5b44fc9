"""`radcc mc --filetype=obj`: LLVM's tools read radcc's code objects.

The oracle is llvm-mc-19 + ld.lld-19 on the same source: the kernel's code
bytes and its kernel descriptor must be identical, and llvm-objdump-19 must
disassemble radcc's object to llvm-mc's instructions.
"""

import re
import subprocess
import sys
from pathlib import Path

from radcc.codeobj.elf import read_code_object
from radcc.oracle import llvm_mc

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "saxpy.s"


def _llvm_object(src: Path, tmp: Path) -> bytes:
    o = tmp / "ref.o"
    so = tmp / "ref.so"
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "--filetype=obj",
                    str(src), "-o", str(o)], check=True)
    subprocess.run(["ld.lld-19", "-shared", str(o), "-o", str(so)], check=True)
    return so.read_bytes()


def test_saxpy_object_matches_llvm(tmp_path):
    llvm_mc.require()
    out = tmp_path / "k.o"
    r = subprocess.run([sys.executable, "-m", "radcc", "mc", "--mcpu=gfx1100", "--filetype=obj",
                        "-o", str(out), str(EXAMPLE)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    ours = read_code_object(out.read_bytes())
    ref = read_code_object(_llvm_object(EXAMPLE, tmp_path))
    ko, kr = ours.kernels["saxpy"], ref.kernels["saxpy"]
    # same descriptor fields, same code
    assert ko.descriptor_bytes[:16] == kr.descriptor_bytes[:16]
    assert ko.descriptor_bytes[24:] == kr.descriptor_bytes[24:]
    code_o = ours.sections[".text"].data
    code_r = ref.sections[".text"].data
    assert code_o[: len(code_r)].rstrip(b"\0") == code_r.rstrip(b"\0")

    # llvm-readelf and llvm-objdump read it without complaint
    re_ = subprocess.run(["llvm-readelf-19", "--notes", "-S", "-s", "-l", "--dyn-syms", str(out)],
                         capture_output=True, text=True)
    assert re_.returncode == 0 and not re_.stderr.strip(), re_.stderr
    assert "NT_AMDGPU_METADATA" in re_.stdout and "saxpy.kd" in re_.stdout
    ref_so = tmp_path / "ref.so"
    assert _objdump(out) == _objdump(ref_so)


def _objdump(path: Path) -> list[str]:
    """The instructions llvm-objdump-19 disassembles from an object's .text."""
    od = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=gfx1100", str(path)],
                        capture_output=True, text=True)
    assert od.returncode == 0 and not od.stderr.strip(), od.stderr
    insts = [re.sub(r"\s*//.*$", "", ln).strip() for ln in od.stdout.splitlines()
             if ln.startswith("\t")]
    insts = [i for i in insts if i]
    assert len(insts) > 10
    return [i for i in insts if not i.startswith("s_code_end")]


def test_object_without_kernel_label_is_an_error(tmp_path):
    src = tmp_path / "bad.s"
    src.write_text("""
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	s_endpgm
	.rodata
	.amdhsa_kernel missing
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 1
	.end_amdhsa_kernel
""")
    r = subprocess.run([sys.executable, "-m", "radcc", "mc", "--mcpu=gfx1100", "--filetype=obj",
                        "-o", str(tmp_path / "x.o"), str(src)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "missing" in r.stderr and "Traceback" not in r.stderr
