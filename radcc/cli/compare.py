"""`radcc compare`: radcc's code and statistics beside the real ACO's for one shader.

    radcc compare SHADER [--mcpu=gfx1100] [--wave32|--wave64] [--entry NAME]
                  [--spec ID=VALUE ...] [-DNAME=VALUE ...] [--width N]

ACO's side is Mesa's RADV on its null device (no AMD GPU needed: Debian package
mesa-vulkan-drivers), run as ``python -m radcc.oracle.radv --json`` in a child process
with ``RADV_FORCE_FAMILY`` = the target's family (`radv_family`) and the same wave size and specialization
constants. Prints the statistics of both (ACO's names) with radcc - ACO, the comparable
figures of `radcc.driver.compare.Metrics`, then both listings side by side. Exit status
0; 1 for bad input, a shader radcc refuses, or ACO unavailable or failing (its reason
on one line).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from radcc.cli._shader import (
    ShaderParser,
    UserError,
    add_shader_options,
    compile_shader,
    read_shader,
)

ACO_TIMEOUT_S = 300


def build_parser() -> ShaderParser:
    p = ShaderParser(prog="radcc compare", description=__doc__)
    add_shader_options(p)
    p.add_argument("--width", default="60", metavar="N",
                   help="width of each listing column (20-400)")
    return p


def _width(text: str) -> int:
    try:
        w = int(text)
    except ValueError:
        raise UserError(f"--width '{text}': expected an integer") from None
    if not 20 <= w <= 400:
        raise UserError(f"--width {w}: expected 20 to 400")
    return w


def aco_compile(spirv: bytes, mcpu: str, wave: int, entry: str | None,
                spec: list[str]) -> dict:
    """ACO's result ({asm, stats, device, wave_size}) through the RADV oracle's command."""
    from radcc.driver.compare import radv_family

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "shader.spv"
        path.write_bytes(spirv)
        cmd = [sys.executable, "-m", "radcc.oracle.radv", str(path), "--json",
               "--wave", str(wave), "--family", radv_family(mcpu), "--entry", entry or "main",
               *[f"--spec={s}" for s in spec]]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=ACO_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise UserError(f"ACO (RADV null device) did not answer in {ACO_TIMEOUT_S} s") \
                from None
    if r.returncode != 0:
        why = " ".join(r.stderr.strip().splitlines()[-1:]).removeprefix("error: ")
        raise UserError(f"ACO is not available: {why or 'RADV failed'}")
    return json.loads(r.stdout)


def report(name: str, mcpu: str, wave: int, res: object, aco: dict, width: int) -> str:
    from radcc.driver.compare import (
        aco_metrics,
        asm_instructions,
        radcc_metrics,
        side_by_side,
        stat_rows,
    )

    asm, stats = res.asm, res.stats  # type: ignore[attr-defined]
    out = [f"radcc compare {name}: {mcpu} wave{wave}; ACO: {aco.get('device', 'RADV')} "
           f"(wave{aco.get('wave_size', wave)})", "", "statistics (ACO's names in "
           "radcc/passes/statistics.py; radcc - ACO):"]
    rows = [("statistic", "radcc", "ACO", "diff", ""), *stat_rows(stats, aco["stats"])]
    w0 = max(len(r[0]) for r in rows)
    for r in rows:
        out.append(f"  {r[0]:<{w0}} {r[1]:>11} {r[2]:>11} {r[3]:>7}  {r[4]}".rstrip())
    rm, am = radcc_metrics(asm, stats), aco_metrics(aco["asm"], aco["stats"])
    out += ["", "comparable (s_delay_alu left out of radcc's count and bytes; registers: "
            "1 + the highest named):"]
    for label, attr in (("instructions", "instructions"), ("code bytes", "code_size"),
                        ("VGPRs used", "vgprs"), ("SGPRs used", "sgprs")):
        a, b = getattr(rm, attr), getattr(am, attr)
        out.append(f"  {label:<{w0}} {a:>11} {b:>11} {a - b:>+7}")
    out += ["", f"{'radcc':<{width}}   ACO", "-" * (2 * width + 3)]
    out += side_by_side(asm_instructions(asm), asm_instructions(aco["asm"]), width)
    out.append("")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        width = _width(args.width)
        spirv = read_shader(args.shader, args.defines)
        res = compile_shader(args, spirv)
        wave = res.wave_size  # the one radcc compiled for (the target's default or asked)
        aco = aco_compile(spirv, args.mcpu, wave, args.entry, args.spec)
    except UserError as e:
        msg = str(e)
        print(msg if ": error" in msg or msg.startswith("ERROR") else
              f"radcc compare: error: {msg}", file=sys.stderr)
        return 1
    sys.stdout.write(report(args.shader, args.mcpu, wave, res, aco, width))
    return 0
