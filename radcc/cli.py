"""The `radcc` command: subcommands dispatch to their modules.

Every user error prints ``file:line:col: error: …`` (or a plain
``radcc: error: …``) and exits with status 1; no traceback reaches users.
"""

from __future__ import annotations

import sys

_COMMANDS = {
    "compile": ("radcc.shader_cli", "compile a SPIR-V/GLSL compute shader for AMD GPUs"),
    "mc": ("radcc.mc", "llvm-mc for AMDGPU: assemble, disassemble, write code objects"),
    "llc": ("radcc.llc", "compile machine IR text to GFX11 assembly or a code object"),
    "run": ("radcc.run", "run a kernel of a code object in the emulator (radcc.emu)"),
}


def _usage() -> str:
    lines = ["usage: radcc COMMAND [options]", "", "commands:"]
    for name, (_mod, help_) in _COMMANDS.items():
        lines.append(f"  {name:10s} {help_}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 1
    if args[0] == "--version":
        from radcc import __version__

        print(f"radcc {__version__}")
        return 0
    cmd = args.pop(0)
    if cmd not in _COMMANDS:
        print(f"radcc: error: unknown command '{cmd}'\n{_usage()}", file=sys.stderr)
        return 1
    import importlib

    mod = importlib.import_module(_COMMANDS[cmd][0])
    try:
        return int(mod.main(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # internal error: say so without a traceback
        import os

        if os.environ.get("RADCC_TRACEBACK"):
            raise
        print(f"radcc {cmd}: internal error: {type(e).__name__}: {e} "
              "(set RADCC_TRACEBACK=1 for details)", file=sys.stderr)
        return 2
