"""``deckforge export``: PNG files per card side, or Tabletop Simulator decks, from the
printer profile's card files of a build."""

from __future__ import annotations

import argparse
from pathlib import Path

from deckforge.cli import values

NAME = "export"
HELP = "PNG files per card side, or Tabletop Simulator decks"


def arguments(parser: argparse.ArgumentParser) -> None:
    """The format, which build and editions, and for Tabletop Simulator where it is served."""
    parser.add_argument(
        "format",
        choices=("png", "tts"),
        help="png: one 300-dpi PNG per card side at trim + bleed; tts: Tabletop Simulator "
        "card sheets, backs and a saved object per deck",
    )
    parser.add_argument("--edition", action="append", metavar="NAME", help="edition (default: all)")
    parser.add_argument("--out", type=Path, default=Path("build"), help="the build folder")
    values.add_jobs(parser)
    parser.add_argument(
        "--base-url",
        type=values.base_url,
        default=None,
        metavar="URL",
        help="tts: the address the build folder will be served from, for the saved objects' "
        "image links (default: file:/// links to this computer)",
    )


def run(args: argparse.Namespace) -> int:
    """Export every printer-profile card deck of the build."""
    from deckforge.cli.images import export

    return export(args)
