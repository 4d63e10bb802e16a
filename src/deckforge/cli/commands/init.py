"""``deckforge init``: a new project, in any folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

NAME = "init"
HELP = "start a project: decks/ with a first edition, the schemas and editor settings"
#: The command makes the decks folder; it need not be there yet.
NEEDS_DECKS = False


def arguments(parser: argparse.ArgumentParser) -> None:
    """The folder to make a project of, and the edition to start from."""
    parser.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=Path("."),
        metavar="FOLDER",
        help="where (default: the current folder; made if missing)",
    )
    parser.add_argument(
        "--from",
        dest="base",
        metavar="EDITION",
        help="a shipped edition to start from: example-en (a small example), "
        "guess-the-mess-en, guess-the-mess-fa or gomaneh-fa (asked when run in a "
        "terminal; example-en otherwise)",
    )


def run(args: argparse.Namespace) -> int:
    """Write the project's files and say what to do next."""
    from deckforge.authoring import project
    from deckforge.errors import display_path

    base = args.base
    decks = args.folder / "decks"
    if base is None and sys.stdin.isatty() and not any(decks.glob("*/edition.yaml")):
        base = project.choose()
    written, edition = project.init_project(args.folder, base)
    for path in written:
        print(f"  wrote {display_path(path)}")
    where = display_path(args.folder)
    if edition is not None:
        print(f"started from {edition.id} in {display_path(decks / edition.folder)}")
    print("next:" + (f" cd {where};" if where != "." else ""), "deckforge build")
    return 0
