"""``deckforge export``: PNG files per card side, Tabletop Simulator decks, or showcase
pictures, from the printer profile's card files of a build."""

from __future__ import annotations

import argparse
from pathlib import Path

from deckforge.cli import values

NAME = "export"
HELP = "PNG files per card side, Tabletop Simulator decks, or showcase pictures"


def arguments(parser: argparse.ArgumentParser) -> None:
    """The format, which build and editions, and for Tabletop Simulator where it is served."""
    parser.add_argument(
        "format",
        choices=("png", "tts", "showcase"),
        help="png: one 300-dpi PNG per card side at trim + bleed; tts: Tabletop Simulator "
        "card sheets, backs and a saved object per deck; showcase: a fanned hand and a row "
        "of cards with shadows, per deck",
    )
    parser.add_argument("--edition", action="append", metavar="NAME", help="edition (default: all)")
    parser.add_argument("--out", type=Path, default=Path("build"), help="the build folder")
    values.add_jobs(parser)
    parser.add_argument(
        "--proof",
        action="store_true",
        help="png: soft proofs, each card as the press prints it through the printer-cmyk "
        "profile's output profile and ink limit (into <edition>/png-proof/)",
    )
    parser.add_argument(
        "--output-profile",
        type=Path,
        metavar="ICC",
        help="png --proof: the shop's CMYK .icc to proof through (default: deckforge's "
        "FOGRA39 press profile)",
    )
    parser.add_argument(
        "--output-condition", default="Custom", metavar="ID", help="with --output-profile"
    )
    parser.add_argument(
        "--base-url",
        type=values.base_url,
        default=None,
        metavar="URL",
        help="tts: the address the build folder will be served from, for the saved objects' "
        "image links (default: file:/// links to this computer)",
    )

    showcase = parser.add_argument_group("showcase")
    showcase.add_argument("--deck", action="append", metavar="NAME", help="deck (default: all)")
    showcase.add_argument(
        "--cards",
        type=values.card_numbers,
        default=None,
        metavar="N,N,…",
        help="the cards of the row and the hand, counted from 1 (default: the first five)",
    )
    showcase.add_argument(
        "--width", type=int, default=1600, metavar="PX", help="pictures' width (default 1600)"
    )
    showcase.add_argument(
        "--background",
        type=values.background,
        default=None,
        metavar="COLOUR",
        help="'transparent' (the default) or a colour such as '#1A1A2E'",
    )


def run(args: argparse.Namespace) -> int:
    """Export every printer-profile card deck of the build."""
    if args.format == "showcase":
        from deckforge.cli.images import showcase

        return showcase(args)
    from deckforge.cli.images import export

    return export(args)
