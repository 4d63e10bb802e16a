"""``deckforge preview``: a small website showing every deck's cards, of a build made
current first."""

from __future__ import annotations

import argparse
from pathlib import Path

from deckforge.cli import values

NAME = "preview"
HELP = "a small website showing every deck's cards"


def arguments(parser: argparse.ArgumentParser) -> None:
    """Which build, where the site goes, and whether to build first."""
    parser.add_argument("--out", type=Path, default=Path("build"), help="the build folder")
    parser.add_argument(
        "--site", type=Path, default=None, help="where to write (default: OUT/preview)"
    )
    values.add_jobs(parser)
    parser.add_argument(
        "--no-build",
        action="store_true",
        help="do not rebuild first when the sources have changed (the preview says it is stale)",
    )


def run(args: argparse.Namespace) -> int:
    """Write the preview site."""
    from deckforge.cli.images import preview

    return preview(args)
