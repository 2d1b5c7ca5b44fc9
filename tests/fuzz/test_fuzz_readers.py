"""Small derandomized fuzz runs of every reader through the `radcc` command line.

Each reader (`fuzzlib.READERS`: SPIR-V, machine IR, assembly and code objects for
gfx1100/gfx1030/gfx1010, disassembly for the three, ELF code objects, `.npy`
buffers, push-constant files) gets: its seeds accepted (status 0; the seeds are
checked valid by the independent tools in `test_seeds_valid_for_oracles`), a
fixed number of seeded mutants and prefixes of a seed, each held to
`cli_harness.problem`'s contract (status 0/1, no traceback or hang, a
diagnostic in the reader's format on failure). Proper prefixes of binary
formats that cannot be cut short (SPIR-V, ELF) must fail. The long runs are
`campaign.py`; what they find lives in ``corpus/`` (test_fuzz_corpus.py).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_harness import PLAIN_DIAG, problem
from fuzzlib import READERS, SEEDS, mutants, truncations
from structured import STRUCTURED, structured_mutant

from tests.support.spirv_asm import assemble

# mutants per reader: a few seconds each on one core
COUNTS = {"spirv": 120, "ir": 150, "elf": 120, "npy": 80, "push": 12}
DEFAULT_COUNT = 60


@pytest.mark.parametrize("name", sorted(READERS))
def test_seed_accepted(name: str, tmp_path: Path) -> None:
    r = READERS[name]
    for data in r.seed_bytes():
        o = r.run(data, tmp_path)
        assert o.status == 0, o.stderr


@pytest.mark.parametrize("name", sorted(READERS))
def test_mutants(name: str, tmp_path: Path) -> None:
    r = READERS[name]
    rng = random.Random(f"ci:{name}")
    bad = []
    for label, data in mutants(r, rng, COUNTS.get(name, DEFAULT_COUNT)):
        p = r.check(data, tmp_path)
        if p is not None:
            bad.append(f"{label}: {p}")
    assert not bad, "\n".join(bad[:5])


# the structure-aware operators alone (structured.py), one reader of each kind
STRUCTURED_COUNTS = {"ir": 60, "asm-gfx1100": 60, "obj-gfx1030": 60, "dis-gfx1010": 60,
                     "elf": 60, "npy": 40, "glsl": 12}


def test_structured_counts_cover_every_kind() -> None:
    assert {n.partition("-")[0] for n in STRUCTURED_COUNTS} == set(STRUCTURED)


@pytest.mark.parametrize("name", sorted(STRUCTURED_COUNTS))
def test_structured_mutants(name: str, tmp_path: Path) -> None:
    """Derandomized draws of the reader's structure-aware operators (two applied to a
    fifth of them), each held to the error contract; the labels drawn cover most of the
    operators (a change that stopped an operator from applying would show)."""
    r = READERS[name]
    rng = random.Random(f"ci:structured:{name}")
    seeds = r.seed_bytes()
    bad, labels = [], set()
    for _ in range(STRUCTURED_COUNTS[name]):
        m = rng.choice(seeds)
        got = structured_mutant(name, m, rng)
        assert got is not None
        label, m = got
        if rng.random() < 0.2:
            label2, m = structured_mutant(name, m, rng) or ("", m)
            label += "+" + label2
        labels.add(re.sub(r"[-@+#\d,./>=x]+.*", "", label))
        p = r.check(m, tmp_path)
        if p is not None:
            bad.append(f"{label}: {p}")
    assert not bad, "\n".join(bad[:5])
    assert len(labels) >= min(5, STRUCTURED_COUNTS[name] // 3), labels


@pytest.mark.parametrize(("name", "step"), [("spirv", 4), ("spirv", 3), ("elf", 64),
                                            ("ir", 37), ("asm-gfx1030", 41), ("dis-gfx1010", 5)])
def test_truncations(name: str, step: int, tmp_path: Path) -> None:
    r = READERS[name]
    must_fail = name in ("spirv", "elf")
    bad = []
    for label, data in truncations(r.seed_bytes()[0], step):
        p = r.check(data, tmp_path, must_fail=must_fail)
        if p is not None:
            bad.append(f"{label}: {p}")
    assert not bad, "\n".join(bad[:5])


@pytest.mark.parametrize("name", ["spirv", "elf", "npy"])
def test_random_bytes_rejected(name: str, tmp_path: Path) -> None:
    """Random bytes are no SPIR-V module, code object or .npy file (the .npy case
    starts with random bytes, never the magic ``\\x93NUMPY``)."""
    r = READERS[name]
    rng = random.Random(f"random:{name}")
    for n in (0, 1, 3, 4, 20, 64, 300):
        data = bytes(rng.getrandbits(8) for _ in range(n))
        assert r.check(data, tmp_path, must_fail=True) is None, n


def test_seeds_valid_for_oracles(tmp_path: Path) -> None:
    """The seeds are valid for the independent tools: spirv-val, llvm-mc-19
    (assembly, objects, disassembly with no warning), numpy."""
    import numpy as np

    for tool in ("spirv-val", "llvm-mc-19"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required")
    for spv in [SEEDS / "add.spv", *sorted((SEEDS / "spirv").glob("*.spv"))]:
        r = subprocess.run(["spirv-val", "--target-env", "vulkan1.3", "--scalar-block-layout",
                            str(spv)], capture_output=True, text=True)
        if spv.name.startswith("coopmat_"):
            # the cooperative-matrix tests' SPIR-V text (made by a newer glslang), assembled;
            # Debian 12's spirv-val predates the extension: its only complaint may be the
            # capability's number (a newer one, e.g. SPIRV-Tools 2025.5, accepts them)
            text = (Path(__file__).parents[1] / "e2e" / "coopmat" /
                    f"{spv.stem[8:]}.spvasm").read_text()
            assert assemble(text) == spv.read_bytes(), spv.name
            assert r.returncode == 0 or re.fullmatch(
                r"error: line \d+: Invalid capability operand: (6022|5116)",
                (r.stdout + r.stderr).strip()), r.stdout + r.stderr
            continue
        assert r.returncode == 0, f"{spv.name}: {r.stdout}{r.stderr}"
    for chip in ("gfx1100", "gfx1030", "gfx1010"):
        base = ["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}"]
        subprocess.run([*base, "--filetype=obj", "-o", str(tmp_path / "k.o"),
                        str(SEEDS / f"{chip}.s")], check=True)
        r = subprocess.run([*base, "--disassemble", str(SEEDS / f"{chip}.hex")],
                           capture_output=True, text=True, check=True)
        assert "warning" not in r.stderr
    assert np.load(SEEDS / "x.npy").dtype == np.float32
    assert (SEEDS / "saxpy.o").read_bytes()[:4] == b"\x7fELF"


@pytest.mark.parametrize("hide", [False, True], ids=["spirv-val", "own-checks"])
def test_spirv_no_silent_acceptance(hide: bool, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A derandomized --diff campaign on a small budget: every SPIR-V mutant radcc
    compiles is valid for spirv-val (the module's environment, scalar block layout),
    with spirv-val installed and with radcc's own checks alone (spirv-val hidden from
    radcc, as on an install without spirv-tools). Longer runs: campaign.py --diff
    [--hide-spirv-val] (corpus/README.md)."""
    from fuzzlib import silent_acceptance

    from radcc.frontend.spirv import spirv_val

    if shutil.which("spirv-val") is None:
        pytest.fail("spirv-val is required")
    if hide:
        monkeypatch.setattr(spirv_val, "find_spirv_val", lambda: None)
    r = READERS["spirv"]
    rng = random.Random(f"ci:diff:{hide}")
    bad = []
    for label, data in mutants(r, rng, 60):
        o = r.run(data, tmp_path)
        p = problem(o, "spirv", allow=PLAIN_DIAG)
        if p is None and o.status == 0:
            p = silent_acceptance(data, tmp_path, o.stderr)
        if p is not None:
            bad.append(f"{label}: {p}")
    assert not bad, "\n".join(bad[:5])
