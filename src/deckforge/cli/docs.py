"""The command-line reference, generated from the argument parser so it cannot drift.

``python -m deckforge.cli.docs`` prints it; ``make docs`` writes docs/reference/cli.md, and
a test fails when that file is not what the parser says.
"""

from __future__ import annotations

import argparse
import os
import sys

from deckforge.cli.parser import parser

#: The width help is wrapped at, whatever terminal makes the page.
WIDTH = "88"


def _commands(top: argparse.ArgumentParser, words: list[str]):
    """Every command line's parser under ``top``, with the words that name it, in order."""
    yield words, top
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, own in action.choices.items():
                yield from _commands(own, [*words, name])


def reference() -> str:
    """The page: the top-level usage, then each command's help, as ``--help`` prints it."""
    width = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        return _page()
    finally:
        if width is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = width


def _page() -> str:
    out = [
        "# Command-line reference",
        "",
        "Generated from deckforge's argument parser (`make docs`); each section is what",
        "`deckforge COMMAND --help` prints. The [command line](commands.md) page says what the",
        "commands are for.",
        "",
    ]
    for words, own in _commands(parser(), []):
        title = " ".join(["deckforge", *words])
        out += [f"## `{title}`", "", "```text", own.format_help().rstrip(), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(reference())
