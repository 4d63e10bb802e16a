"""``deckforge proof``: which cards changed since a git revision of the project or an
earlier build, shown old beside new, and sheets to reprint just those."""

from __future__ import annotations

import argparse
from pathlib import Path

from deckforge.cli import values

NAME = "proof"
HELP = "the cards that changed since a git revision or a build, and sheets to reprint them"


def arguments(parser: argparse.ArgumentParser) -> None:
    """What to compare with, which editions, and whether to make reprint sheets."""
    parser.add_argument(
        "--against",
        default="HEAD",
        metavar="REV|BUILD",
        help="a git revision of the project (default: HEAD, the last commit) or a build folder",
    )
    parser.add_argument("--edition", action="append", metavar="NAME", help="edition (default: all)")
    parser.add_argument("--out", type=Path, default=Path("build"), help="the build folder")
    parser.add_argument(
        "--reprint",
        action="append",
        metavar="PROFILE",
        nargs="?",
        const="pnp-a4",
        help="also make sheets of just the added and changed cards, with their backs, in "
        "PROFILE (default pnp-a4; repeat for more)",
    )
    values.add_jobs(parser)


def run(args: argparse.Namespace) -> int:
    """Build this project's printer files, and the earlier one's, then compare them."""
    from deckforge.cli.proofs import proof

    return proof(args)
