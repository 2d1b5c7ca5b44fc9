"""What every subcommand's command line shares: `HelpFormatter`, which appends an option's
default to its help text (``(default: gfx1100)``) unless the text already says it, or the
default is nothing worth printing (a flag that is off, an empty list, None: the help text
says what happens then); and `ArgParser`, which raises `ArgError` on a bad command line
instead of exiting with argparse's status 2, so that the subcommand prints its one-line
error and exits with its documented status for bad input (1)."""

from __future__ import annotations

import argparse


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The description as written (usage blocks keep their layout), defaults shown."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("%(default)" in text or "default" in text.lower()
                or default in (None, False, [], "", argparse.SUPPRESS)
                or not action.option_strings or action.nargs == 0):
            return text
        return text + " (default: %(default)s)"


class ArgError(Exception):
    """A bad command line: argparse's message."""


class ArgParser(argparse.ArgumentParser):
    """argparse that raises `ArgError` instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ArgError(message)
