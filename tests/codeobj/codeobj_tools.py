"""Oracle helpers for the code-object tests: llvm-mc-19, ld.lld-19, clang-19, llvm-readelf-19.

`need(tool)` fails the test (CI=true) or skips it (local run without LLVM 19).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

MC = "llvm-mc-19"
LLD = "ld.lld-19"
CLANG = "clang-19"
READELF = "llvm-readelf-19"
OBJDUMP = "llvm-objdump-19"


def need(*tools: str) -> None:
    """Fail under CI=true, skip otherwise, when a tool is missing."""
    for tool in tools:
        if shutil.which(tool) is None:
            msg = f"{tool} not installed (Debian package llvm-19 / clang-19 / lld-19)"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(msg)
            pytest.skip(msg)


def run(args: list[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=check)


def assemble(src: str, mcpu: str = "gfx1100", *, link: bool = False) -> tuple[bytes, str]:
    """Assemble `src` with llvm-mc-19 (and link with ld.lld-19 -shared if `link`).

    Returns (object bytes, stderr); object bytes are b"" when llvm-mc failed.
    """
    need(MC)
    if link:
        need(LLD)
    with tempfile.TemporaryDirectory() as d:
        s, o, so = Path(d, "k.s"), Path(d, "k.o"), Path(d, "k.so")
        s.write_text(src)
        p = run([MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "--filetype=obj", str(s),
                 "-o", str(o)], check=False)
        if p.returncode != 0:
            return b"", p.stderr
        if not link:
            return o.read_bytes(), p.stderr
        q = run([LLD, "-shared", str(o), "-o", str(so)], check=False)
        if q.returncode != 0:
            return b"", q.stderr
        return so.read_bytes(), p.stderr + q.stderr


def kernel_source(kernels: dict[str, dict[str, int]], mcpu: str = "gfx1100",
                  metadata_yaml: str | None = None) -> str:
    """An assembly file with one `s_endpgm` kernel and `.amdhsa_kernel` block per entry."""
    lines = [f'.amdgcn_target "amdgcn-amd-amdhsa--{mcpu}"', ".amdhsa_code_object_version 5"]
    for name in kernels:
        lines += [".text", f".globl {name}", ".p2align 8", f".type {name},@function",
                  f"{name}:", "  s_endpgm"]
    for name, fields in kernels.items():
        lines += [".rodata", ".p2align 6", f".amdhsa_kernel {name}"]
        lines += [f"  .amdhsa_{k} {v}" for k, v in fields.items()]
        lines.append(".end_amdhsa_kernel")
    if metadata_yaml is not None:
        lines += [".amdgpu_metadata", metadata_yaml.rstrip("\n"), ".end_amdgpu_metadata"]
    return "\n".join(lines) + "\n"


def write_temp(data: bytes, suffix: str = ".so") -> Path:
    fd, name = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return Path(name)


def readelf(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    need(READELF)
    return run([READELF, *args, str(path)], check=False)


def readelf_yaml(path: Path) -> str | None:
    """The metadata YAML document `llvm-readelf-19 --notes` prints (None if absent)."""
    out = readelf(path, "--notes").stdout
    assert "Invalid AMDGPU Metadata" not in out, out
    start = out.find("        ---\n")
    if start < 0:
        return None
    end = out.index("\n...\n", start)
    return "---\n" + out[start + len("        ---\n"):end] + "\n...\n"


def objdump_kd_directives(path: Path, mcpu: str = "gfx1100") -> dict[str, dict[str, int]]:
    """llvm-objdump-19 -D's reading of every NAME.kd: {kernel: {directive: value}}."""
    need(OBJDUMP)
    out = run([OBJDUMP, "-D", f"--mcpu={mcpu}", str(path)]).stdout
    result: dict[str, dict[str, int]] = {}
    cur: dict[str, int] | None = None
    for line in out.splitlines():
        m = re.match(r"^\.amdhsa_kernel (\S+)", line)
        if m:
            cur = result.setdefault(m.group(1), {})
            continue
        if line.startswith(".end_amdhsa_kernel"):
            cur = None
            continue
        if cur is not None:
            m = re.match(r"^\s*\.amdhsa_(\w+) (-?\d+)", line)
            if m:
                cur[m.group(1)] = int(m.group(2))
            m = re.match(r"^\s*; (\w+) (\d+)", line)
            if m:
                cur["raw:" + m.group(1).lower()] = int(m.group(2))
    return result


def symbols(path: Path, dyn: bool = False) -> dict[str, tuple[int, int, str, str, str]]:
    """name -> (value, size, type, bind, ndx) from llvm-readelf-19 -s / --dyn-syms."""
    out = readelf(path, "--dyn-syms" if dyn else "-s").stdout
    res = {}
    for line in out.splitlines():
        m = re.match(r"^\s*\d+: ([0-9a-f]+)\s+(\d+) (\w+)\s+(\w+)\s+\w+\s+(\w+) (\S+)$", line)
        if m:
            res[m.group(6)] = (int(m.group(1), 16), int(m.group(2)), m.group(3), m.group(4),
                               m.group(5))
    return res


def encode(lines: list[str], mcpu: str = "gfx1100") -> bytes:
    """Machine code of `lines` from llvm-mc-19 -show-encoding."""
    need(MC)
    p = subprocess.run([MC, "-triple=amdgcn", f"-mcpu={mcpu}", "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    out = b""
    for m in re.finditer(r"encoding: \[([^\]]*)\]", p.stdout):
        out += bytes(int(x, 16) for x in m.group(1).split(","))
    return out


def clang_compile(src: str, *, mcpu: str = "gfx1100", opt: str = "-O3",
                  wave64: bool = False) -> bytes:
    need(CLANG, LLD)
    with tempfile.TemporaryDirectory() as d:
        cl, o = Path(d, "k.cl"), Path(d, "k.o")
        cl.write_text(src)
        args = [CLANG, "-x", "cl", "-cl-std=CL2.0", "-cl-kernel-arg-info",
                "-target", "amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-nogpulib", opt]
        if wave64:
            args.append("-mwavefrontsize64")
        run([*args, str(cl), "-o", str(o)])
        return o.read_bytes()
