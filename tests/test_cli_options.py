"""Every subcommand's options: help texts, shown defaults, `radcc targets`/`--mcpu=help`
against what the compiler really accepts."""

from __future__ import annotations

import argparse
import importlib
import inspect
from pathlib import Path

import pytest

from radcc.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]
SAXPY = ROOT / "examples" / "saxpy.spv"


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every parser a subcommand module builds (its module-level ``*parser`` functions
    that take no argument)."""
    out = []
    for cmd, (modname, _help) in COMMANDS.items():
        mod = importlib.import_module(modname)
        for name, fn in vars(mod).items():
            if not name.endswith("parser") or not inspect.isfunction(fn) \
                    or fn.__module__ != modname or inspect.signature(fn).parameters:
                continue
            out.append((f"{cmd}:{name}", fn()))
    return out


PARSERS = _parsers()


def test_every_command_has_a_parser() -> None:
    assert {p.split(":")[0] for p, _ in PARSERS} == set(COMMANDS)


@pytest.mark.parametrize("where,parser", PARSERS, ids=[p for p, _ in PARSERS])
def test_every_option_has_help_and_shows_its_default(where: str,
                                                     parser: argparse.ArgumentParser) -> None:
    text = " ".join(parser.format_help().split())
    for a in parser._actions:
        if a.help == argparse.SUPPRESS:
            continue
        assert a.help and a.help.strip(), f"{where}: {a.option_strings or a.dest} has no help"
        shown = " ".join(parser._get_formatter()._get_help_string(a).split())
        d = a.default
        if a.option_strings and a.nargs != 0 and d not in (None, [], "", argparse.SUPPRESS):
            assert "default" in shown.lower(), f"{where}: {a.option_strings} hides its default"
            assert str(d) in text or f"{d:,}" in text, (where, a.option_strings, d)


def test_compile_help_shows_mcpu_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["compile", "--help"])
    assert e.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--mcpu MCPU the target GPU" in out and "(default: gfx1100)" in out


def _table(text: str) -> dict[str, dict[str, str]]:
    lines = [ln.split() for ln in text.splitlines() if ln.startswith("gfx") or
             ln.startswith("chip")]
    head = lines[0]
    tools = head[-4:]
    return {ln[0]: {"generation": ln[1], "waves": " ".join(ln[3:-4]),
                    **dict(zip(tools, ln[-4:], strict=True))} for ln in lines[1:]}


def test_targets_listing_matches_the_compiler(capsys: pytest.CaptureFixture[str]) -> None:
    """The listing's compile column is what `compile_spirv` really accepts."""
    from radcc.driver.compile import CompileError, compile_spirv
    from radcc.target import TARGETS

    assert main(["targets"]) == 0
    table = _table(capsys.readouterr().out)
    assert set(table) == set(TARGETS)
    spirv = SAXPY.read_bytes()
    for chip, row in table.items():
        assert row["generation"] == TARGETS[chip].gfx_level.name.replace("_", ".")
        try:
            compile_spirv(spirv, mcpu=chip)
            ok = "yes"
        except CompileError as e:
            ok = "-"
            assert "radcc targets" in str(e)
        assert row["compile"] == ok, chip
        assert row["mc"] == "yes" and row["llc"] == "yes"
        t = TARGETS[chip]
        assert row["waves"] == ", ".join(
            f"{w}{'*' if w == t.compute_wave_size else ''}" for w in t.wave_sizes)


@pytest.mark.parametrize("cmd", ["compile", "run", "mc", "llc"])
def test_mcpu_help_lists_targets(cmd: str, capsys: pytest.CaptureFixture[str]) -> None:
    extra = ["--groups", "1", "--out", "o"] if cmd == "run" else []
    src = {"mc": "x.s", "llc": "x.ir"}.get(cmd, str(SAXPY))
    assert main([cmd, src, "--mcpu=help", *extra]) == 0
    assert set(_table(capsys.readouterr().out)) >= {"gfx1100", "gfx1030"}


def test_targets_rejects_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["targets", "--bogus"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("radcc targets: error:") and "Traceback" not in err


def test_print_after_typo_lists_pass_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", str(SAXPY), "--print-after", "registr_allocation"]) == 1
    err = capsys.readouterr().err
    assert "registr_allocation" in err and "register_allocation" in err and "isel" in err
    assert len(err.strip().splitlines()) == 1
