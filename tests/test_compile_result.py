"""`CompileResult.asm` and `CompileResult.stats` are made when first read, not by every
compile (issue 14: most callers want only the code object). Reading them gives the
listing and the statistics of the compiled program; the oracle for the listing is
llvm-mc-19 + ld.lld-19: assembling it gives the code object's code."""

from __future__ import annotations

import subprocess
from pathlib import Path

from radcc.codeobj.elf import read_code_object
from radcc.driver.compile import compile_spirv
from radcc.oracle import llvm_mc

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "tests" / "fuzz" / "corpus" / "seeds" / "add.spv"


def test_listing_and_statistics_made_on_first_read(tmp_path: Path) -> None:
    llvm_mc.require()
    res = compile_spirv(SEED.read_bytes(), wave_size=32)
    assert res.program is not None and res.emitted is not None
    assert res.program.statistics == {}  # collect_statistics has not run yet
    st = res.stats
    assert res.program.statistics is st and res.stats is st  # made once
    assert st["CodeSize"] == res.emitted.code_size and st["Instructions"] > 0
    asm = res.asm
    assert res.asm is asm
    assert all(f"\t; {k}: {v}" in asm.split("\n") for k, v in st.items())
    src = tmp_path / "k.s"
    src.write_text(asm)
    o, so = tmp_path / "k.o", tmp_path / "k.so"
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                    "--filetype=obj", str(src), "-o", str(o)], check=True)
    subprocess.run(["ld.lld-19", "-shared", str(o), "-o", str(so)], check=True)
    ref = read_code_object(so.read_bytes()).sections[".text"].data
    ours = read_code_object(res.code_object).sections[".text"].data
    assert ours[:res.emitted.code_size] == ref[:res.emitted.code_size]
