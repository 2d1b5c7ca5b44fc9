"""Grammar-aware command lines for `radcc compile`, `llc`, `run` and `mc`.

`random_argv(cmd, rng, scratch)` draws a command line from the command's real
options (and a few that do not exist), each followed by a value drawn from a
pool of good and bad values (numbers, lists, NAME=VALUE/NAME:KIND forms, files
that exist, are missing or are directories, .npy files: x.npy or a mutant of it by
`structured.npy_mutant`); ``radcc run`` gets every option of both forms (``--robust``,
``--image``/``--image3d``/``--sampler`` with image shaders as inputs, ``--push``,
``--push-values``, ``--max-instructions``...). Inputs are copies of the seeds in
`scratch` and every output path points into `scratch`, so a run writes nowhere
else (``-`` as an input reads the harness's empty stdin) (a command without ``-o`` writes next to its input: the copy).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from fuzzlib import SEEDS
from structured import npy_mutant

_NUM = ("0", "1", "2", "-1", "64", "0x10", "1,1", "1,2,3", "1,2,3,4", "", "x", "1.5", "1,,2",
        "99999999999999999999", "0x", "-0")
_CHIPS = ("gfx1100", "gfx1030", "gfx1010", "gfx1101", "gfx900", "gfx", "", "GFX1100", "gfx11000")
_PASSES = ("all", "isel", "divergence", "register_allocation", "nope", "", "lower_to_hw")

# option -> value pool (None: a flag); "F" an input file, "O" an output path, "D" a directory
OPTIONS: dict[str, dict[str, tuple[str, ...] | None]] = {
    "compile": {"--mcpu": _CHIPS, "--wave32": None, "--wave64": None, "--entry": ("main", "x", ""),
                "--spec": ("0=1", "1=true", "x=1", "0=", "0=abc", "=", "0x1=0x2", "0=1.5"),
                "-D": ("N=1", "N", "=", ""), "-S": None, "-o": ("O",), "--stats": None,
                "--print-after": _PASSES, "--time-passes": None, "--bogus": None,
                "--stats-file": ("J", "O", "D", ""), "--stage": ("comp", "frag", "x", ""),
                "-": None},
    "llc": {"--mcpu": _CHIPS, "-S": None, "-o": ("O",), "--print-after": _PASSES,
            "--print-before": _PASSES, "--stats": None, "--wave64": None,
            "--arg": ("a:buffer", "b:i32", "c:f64", "a", ":i32", "a:", "a:vec4", "a:b:c"),
            "--bogus": None},
    "run": {"--kernel": ("saxpy", "nope", ""), "--groups": _NUM, "--block": _NUM,
            "--arg": ("x=zeros:256", "y=zeros:256", "a=2", "n=64", "a=abc", "x=zeros:-1",
                      "x=zeros:x", "x=F", "q=1", "=1", "x", "n=1.5", "a=nan", "x=D", "x=M",
                      "y=M", "n=0x100000000", "a=-1e40"),
            "--out": ("D", "O"), "--wave32": None, "--wave64": None,
            "--max-instructions": ("1", "0", "-1", "100", "x"), "--no-strict": None,
            "--no-hazards": None, "--quiet": None, "--buffer": ("0:0=zeros:4",),
            "--robust": None, "--image": ("0:0=M",), "--push": ("F",)},
    "run-shader": {"--groups": _NUM, "--buffer": ("0:0=zeros:256", "0:1=zeros:256", "0:0=F",
                                                  "0:0", "x:0=zeros:4", "0=zeros:4",
                                                  "0:0=zeros:x", "0:0=D", "9:9=zeros:4",
                                                  "0:0=M", "0:1=M", "0:0=zeros:0",
                                                  "0:0=zeros:99999999999", "0:0:1=zeros:4",
                                                  "0:0=zeros:4,0:1=zeros:4", "-1:0=zeros:4"),
                   "--push": ("F", "D", "O"), "--out": ("D",), "--wave32": None,
                   "--wave64": None, "--no-strict": None, "--spec": ("0=1", "x=1"),
                   "--mcpu": _CHIPS, "--entry": ("main", "x"), "--quiet": None,
                   "--max-instructions": ("1", "0", "100", "x"),
                   "--push-values": ("f32:2.0", "u32:7,f64:1", "i8:300", "x:1", "f32:x",
                                     "u32", ""),
                   "--stage": ("comp", "vert", "x"), "--robust": None, "--no-validate": None,
                   "--image": ("0:0=M", "0:0=M:rgba8", "0:0=M:r32f", "0:0=M:bogus",
                               "0:2=M", "0:0:3=M", "0:0=F", "0:0=D", "0:0"),
                   "--image3d": ("0:0=M", "0:0=M:rgba32f", "0:0=F"),
                   "--sampler": ("0:0=linear", "0:0=nearest,clamp,normalized",
                                 "0:0=linear,border,unnormalized", "0:0=x", "0:0=",
                                 "0:0=nearest,repeat,normalized,extra", "0:0:1=linear"),
                   "-D": ("N=1", "N", "=")},
    "mc": {"--mcpu": _CHIPS, "-mcpu": _CHIPS, "--show-encoding": None, "--disassemble": None,
           "--filetype": ("asm", "obj", "null", "elf", ""), "-o": ("O",), "--wave64": None,
           "--wave32": None, "--mattr": ("+wavefrontsize64", "-wavefrontsize32", "x", ""),
           "--triple": ("amdgcn-amd-amdhsa", "x86_64"), "--arch": ("amdgcn", "x"),
           "--show-inst": None},
}
_INPUTS = {"compile": ("add.spv", "add.comp"), "llc": ("if_then.ir",), "run": ("saxpy.o",),
           "run-shader": ("add.spv", "spirv/tex_sample.spv", "spirv/img_dims.spv"),
           "mc": ("gfx1100.s", "gfx1030.s", "gfx1100.hex")}


def _value(pool: tuple[str, ...], rng: random.Random, scratch: Path, inputs: list[Path]) -> str:
    v = rng.choice(pool)
    out = []
    for part in v.split("="):
        if part == "F":
            part = str(rng.choice(inputs + [scratch / "missing.bin"]))
        elif part == "O":
            part = str(scratch / rng.choice(("out.o", "out.s", "sub/out.o")))
        elif part == "D":
            part = str(scratch / "outdir")
        elif part == "M" or part.startswith("M:"):  # x.npy or a mutant of it (+ :FORMAT)
            f = scratch / f"m{rng.randrange(1 << 30)}.npy"
            data = (SEEDS / "x.npy").read_bytes()
            if rng.random() < 0.7:
                data = npy_mutant(data, rng)[1]
            f.write_bytes(data)
            part = str(f) + part[1:]
        elif part == "J":
            part = str(scratch / rng.choice(("r.json", "r.jsonl", "r.csv", "sub/r.csv")))
        out.append(part)
    return "=".join(out)


def random_argv(cmd: str, rng: random.Random, scratch: Path) -> list[str]:
    """One command line for `cmd` (``run-shader`` is ``radcc run SHADER``)."""
    inputs = []
    for name in _INPUTS[cmd]:
        dst = scratch / Path(name).name
        if not dst.exists():
            shutil.copy(SEEDS / name, dst)
        inputs.append(dst)
    opts = OPTIONS[cmd]
    argv: list[str] = []
    if rng.random() < 0.9:
        argv.append(str(rng.choice(inputs + [scratch / "missing.spv", scratch])))
    for _ in range(rng.randrange(0, 9)):
        opt = rng.choice(list(opts))
        pool = opts[opt]
        if pool is None:
            argv.append(opt)
        elif rng.random() < 0.3:
            argv.append(f"{opt}={_value(pool, rng, scratch, inputs)}")
        else:
            argv += [opt, _value(pool, rng, scratch, inputs)]
        if rng.random() < 0.05:
            argv.pop()  # an option missing its value
    rng.shuffle(argv) if rng.random() < 0.2 else None
    return ["run" if cmd == "run-shader" else cmd, *argv]
