"""The command line's grammar: the options every command takes, and each command's own
from its module (``NAME``, ``HELP``, ``arguments(parser)`` and ``run(args)``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from deckforge import __version__
from deckforge.cli.commands import (
    build,
    export,
    init,
    lint,
    listing,
    new,
    preflight,
    preview,
    proof,
    serve,
    templates,
    validate,
    watch,
)

#: The commands, in the order ``deckforge --help`` lists them.
COMMANDS = (
    init, validate, build, listing, export, preview, serve, proof, preflight, lint, watch, new,
    templates,
)  # fmt: skip


def parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of a ``deckforge`` command line; ``args.run(args)`` runs the command.

    Given the command line it is to parse, a command it names is the only one made:
    making every command's parser and options was most of making the parser (argparse
    looks up a translation of each of its phrases on disk), and a command not named
    cannot be the one that runs. A line that names none gets them all, so that help and
    the error for an unknown command list every one."""
    top = argparse.ArgumentParser(
        prog="deckforge",
        description="Turn card-game content written in YAML into print-ready PDFs.",
    )
    top.add_argument("--version", action="version", version=f"deckforge {__version__}")
    top.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    top.add_argument(
        "--decks", type=Path, default=Path("decks"), help="folder of editions (default: ./decks)"
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = None if argv is None else _command_named(argv)
    for command in COMMANDS:
        if named is None or command.NAME == named:
            own = sub.add_parser(command.NAME, help=command.HELP)
            command.arguments(own)
            own.set_defaults(run=command.run, needs_decks=getattr(command, "NEEDS_DECKS", True))
    return top


def _command_named(argv: Sequence[str]) -> str | None:
    """The command a command line runs: its first word that is not a top-level option
    (nor the folder ``--decks`` takes), if that is a command's name."""
    words = iter(argv)
    for word in words:
        if word == "--decks":
            next(words, None)
        elif word == "--" or not word.startswith("-"):
            return word if any(c.NAME == word for c in COMMANDS) else None
    return None
