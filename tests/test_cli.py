"""The `radcc` command: dispatch, usage errors, no tracebacks."""

import os
import subprocess
import sys

import pytest


def run(*args, input=None):
    return subprocess.run([sys.executable, "-m", "radcc", *args], input=input,
                          capture_output=True, text=True)


def test_help_lists_commands():
    r = run("--help")
    assert r.returncode == 0 and "mc" in r.stdout


def test_no_args_is_usage_error():
    r = run()
    assert r.returncode == 1 and "usage" in r.stdout


def test_unknown_command():
    r = run("frobnicate")
    assert r.returncode == 1
    assert "unknown command 'frobnicate'" in r.stderr
    assert "Traceback" not in r.stderr


def test_mc_unknown_cpu():
    r = run("mc", "--mcpu=gfx9999", input="s_nop 0\n")
    assert r.returncode == 1 and "unknown GPU 'gfx9999'" in r.stderr
    assert "Traceback" not in r.stderr


def test_mc_missing_file():
    r = run("mc", "--mcpu=gfx1100", "/nonexistent/x.s")
    assert r.returncode == 1 and "/nonexistent/x.s" in r.stderr
    assert "Traceback" not in r.stderr


def test_mc_bad_option():
    r = run("mc", "--no-such-option")
    assert r.returncode == 1 and "Traceback" not in r.stderr


def test_mc_unknown_mnemonic_reports_position():
    r = run("mc", "--mcpu=gfx1100", "-", input="s_nop 0\n  v_bogus_op v0, v1\n")
    assert r.returncode == 1
    assert "<stdin>:2:3: error: invalid instruction" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("args", [[], ["--help"], ["targets"], ["compile", "--help"]])
def test_output_to_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """``radcc ... | head -1``: the reader gone before radcc writes (a pipe whose read end
    is closed: every write fails with EPIPE) is no internal error and no traceback."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, "-m", "radcc", *args], stdout=w,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(w)
    assert p.returncode in (0, 1) and p.stderr == "", p.stderr
