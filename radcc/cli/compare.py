"""`radcc compare`: radcc's code and statistics beside the real ACO's for one shader.

    radcc compare SHADER [--mcpu=gfx1100] [--wave32|--wave64] [--entry NAME]
                  [--spec ID=VALUE ...] [-DNAME=VALUE ...] [--width N]
    radcc compare VS FS [--color FMT[,FMT...]] [--depth] [...]

With two shaders (a vertex and a fragment shader: .vert/.frag GLSL or SPIR-V), ACO
compiles them as one graphics pipeline (RADV's VS+FS: the vertex shader on NGG, the
fragment shader with one attachment per output in the `--color` formats, by location;
ACO's side takes rgba32i/ui for an integer output whose format is a float one) and each stage is reported as one shader is, one section per stage;
a stage radcc refuses is reported with radcc's error and ACO's side alone (exit 1).

ACO's side is Mesa's RADV on its null device (no AMD GPU needed: Debian package
mesa-vulkan-drivers), run as ``python -m radcc.oracle.radv --json`` in a child process
with ``RADV_FORCE_FAMILY`` = the target's family (`radv_family`) and the same wave size and specialization
constants. Prints the statistics of both (ACO's names) with radcc - ACO, the comparable
figures of `radcc.driver.compare.Metrics`, then both listings side by side. Exit status
0; 1 for bad input, a shader radcc refuses, or ACO unavailable or failing (its reason
on one line).
"""

from __future__ import annotations

import argparse
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


_LONE_STAGE = ("{}: a graphics stage compares as part of a pipeline (ACO compiles the "
               "vertex and fragment shaders together): radcc compare VS FS")


def build_parser() -> ShaderParser:
    p = ShaderParser(prog="radcc compare", description=__doc__)
    add_shader_options(p)
    p.add_argument("frag", metavar="FS", nargs="?", default=None,
                   help="a fragment shader: SHADER is then the vertex shader of a graphics "
                        "pipeline")
    p.add_argument("--entry-frag", default=None, metavar="NAME",
                   help="the fragment shader's entry point (default: main)")
    p.add_argument("--color", default="rgba8", metavar="FMT[,FMT...]",
                   help="graphics: the colour attachments' formats by location (the last "
                        "applies to higher locations: rgba8, rgba16f, rgba32f, r32f, "
                        "rgba32ui, rgba32i, r32ui ...), for ACO's pipeline and radcc's "
                        "fragment shader")
    p.add_argument("--depth", action="store_true", help="graphics: a depth attachment")
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


def _run_oracle(cmd: list[str]) -> dict:
    """Run the RADV oracle's command (its input files still exist) and read its JSON."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=ACO_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise UserError(f"ACO (RADV null device) did not answer in {ACO_TIMEOUT_S} s") \
            from None
    if r.returncode != 0:
        why = " ".join(r.stderr.strip().splitlines()[-1:]).removeprefix("error: ")
        raise UserError(f"ACO is not available: {why or 'RADV failed'}")
    return json.loads(r.stdout)


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
        return _run_oracle(cmd)


def report(name: str, mcpu: str, wave: int, res: object, aco: dict, width: int) -> str:
    out = [f"radcc compare {name}: {mcpu} wave{wave}; ACO: {aco.get('device', 'RADV')} "
           f"(wave{aco.get('wave_size', wave)})", ""]
    out += _section(res, aco, width)
    return "\n".join(out)


def _section(res: object, aco: dict, width: int) -> list[str]:
    """One shader's statistics, comparable figures and listings, radcc beside ACO."""
    from radcc.driver.compare import (
        aco_metrics,
        asm_instructions,
        radcc_metrics,
        side_by_side,
        stat_rows,
    )

    asm, stats = res.asm, res.stats  # type: ignore[attr-defined]
    out = ["statistics (ACO's names in radcc/passes/statistics.py; radcc - ACO):"]
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
    return out


def _aco_alone(aco: dict) -> list[str]:
    """ACO's statistics and listing (the stage radcc refused)."""
    from radcc.driver.compare import asm_instructions

    out = ["ACO's statistics:"]
    w0 = max((len(k) for k in aco["stats"]), default=0)
    out += [f"  {k:<{w0}} {v:>11}" for k, v in aco["stats"].items()]
    out += ["", "ACO", "-" * 40, *asm_instructions(aco["asm"]), ""]
    return out


def aco_compile_graphics(vert: bytes, frag: bytes, mcpu: str, wave: int, entry: str | None,
                         entry_frag: str | None, color: str, depth: bool) -> dict:
    """ACO's VS+FS pipeline ({device, stages: {vertex, fragment: {asm, stats, wave_size,
    name}}}) through the RADV oracle's command."""
    from radcc.driver.compare import radv_family

    with tempfile.TemporaryDirectory() as d:
        vpath, fpath = Path(d) / "vs.spv", Path(d) / "fs.spv"
        vpath.write_bytes(vert)
        fpath.write_bytes(frag)
        cmd = [sys.executable, "-m", "radcc.oracle.radv", str(vpath), "--frag", str(fpath),
               "--json", "--wave", str(wave), "--family", radv_family(mcpu),
               "--entry", entry or "main", "--entry-frag", entry_frag or "main",
               "--color", color, *(["--depth"] if depth else [])]
        return _run_oracle(cmd)


def _stage_spirv(path: str, stage: str, defines: list[str]) -> bytes:
    """SPIR-V of one graphics stage (GLSL by extension or .spv), even where radcc does not
    compile the stage yet: ACO's side needs it."""
    from radcc.driver.glsl import GlslError, glsl_to_spirv

    p = Path(path)
    if p.suffix == ".spv":
        try:
            return p.read_bytes()
        except OSError as e:
            raise UserError(f"cannot read {path}: {e.strerror}") from None
    want = {"vert": ".vert", "frag": ".frag"}[stage]
    if p.suffix != want:
        raise UserError(f"{path}: a graphics pipeline's "
                        f"{'vertex' if stage == 'vert' else 'fragment'} shader must be "
                        f"{want} GLSL or .spv")
    try:
        return glsl_to_spirv(p, stage, defines)
    except GlslError as e:
        raise UserError(str(e)) from None


def graphics(args: argparse.Namespace, width: int) -> tuple[str, int]:
    """The report of a VS+FS pipeline and the exit status (1 when radcc refuses a stage)."""
    vert = _stage_spirv(args.shader, "vert", args.defines)
    frag = _stage_spirv(args.frag, "frag", args.defines)
    results: dict[str, object] = {}
    errors: dict[str, str] = {}
    for stage, path, spirv, entry in (("vertex", args.shader, vert, args.entry),
                                      ("fragment", args.frag, frag, args.entry_frag)):
        try:
            results[stage] = compile_shader(argparse.Namespace(**{
                **vars(args), "shader": path, "entry": entry,
                "color_format": args.color if stage == "fragment" else None}), spirv)
        except UserError as e:
            errors[stage] = str(e)
    waves = {getattr(r, "wave_size", 0) for r in results.values()}
    wave = (64 if args.wave64 else 32 if args.wave32 else
            waves.pop() if len(waves) == 1 else 32)
    aco = aco_compile_graphics(vert, frag, args.mcpu, wave, args.entry, args.entry_frag,
                               args.color, args.depth)
    out = [f"radcc compare {args.shader} {args.frag}: {args.mcpu} wave{wave}; ACO: "
           f"{aco.get('device', 'RADV')}, {args.color} attachments"
           f"{' + depth' if args.depth else ''}", ""]
    for stage in ("vertex", "fragment"):
        a = aco["stages"].get(stage)
        out += [f"== {stage} shader ({args.shader if stage == 'vertex' else args.frag}; "
                f"ACO: {a['name'] if a else 'none'}, wave{a['wave_size'] if a else '?'}) ==",
                ""]
        if a is None:
            out += ["ACO made no executable for this stage", ""]
        elif stage in errors:
            out += [f"radcc: {errors[stage]}", ""] + _aco_alone(a)
        else:
            out += _section(results[stage], a, width)
    return "\n".join(out), 1 if errors else 0


def main(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        width = _width(args.width)
        if args.frag is not None:
            text, status = graphics(args, width)
            sys.stdout.write(text)
            return status
        if Path(args.shader).suffix in (".vert", ".frag"):
            raise UserError(_LONE_STAGE.format(args.shader))
        spirv = read_shader(args.shader, args.defines)
        res = compile_shader(args, spirv)
        if getattr(res, "graphics", None) is not None:  # a graphics stage given as .spv
            raise UserError(_LONE_STAGE.format(args.shader))
        wave = res.wave_size  # the one radcc compiled for (the target's default or asked)
        aco = aco_compile(spirv, args.mcpu, wave, args.entry, args.spec)
    except UserError as e:
        msg = str(e)
        print(msg if ": error" in msg or msg.startswith("ERROR") else
              f"radcc compare: error: {msg}", file=sys.stderr)
        return 1
    sys.stdout.write(report(args.shader, args.mcpu, wave, res, aco, width))
    return 0
