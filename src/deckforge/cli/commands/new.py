"""``deckforge new``: start a game of your own, a custom edition or a place deck."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "new"
HELP = "start a game of your own, a custom edition or a place deck"


def arguments(parser: argparse.ArgumentParser) -> None:
    """What to start: a game, an edition (from another) or a place deck."""
    what = parser.add_subparsers(dest="what", required=True, metavar="WHAT")
    game = what.add_parser(
        "game", help="a game of your own in decks/NAME: trivia cards from a CSV file, role cards"
    )
    game.add_argument("name", metavar="NAME")
    edition = what.add_parser("edition", help="a new edition in decks/NAME reusing another's decks")
    edition.add_argument("name", metavar="NAME")
    edition.add_argument(
        "--from",
        dest="base",
        default="guess-the-mess-en",
        metavar="EDITION",
        help="the edition to start from (default: guess-the-mess-en)",
    )
    deck = what.add_parser("place-deck", help="a commented place deck to fill in")
    deck.add_argument("path", type=Path, metavar="PATH")


def run(args: argparse.Namespace) -> int:
    """Write the new files and say what to do next."""
    from deckforge.authoring import scaffold
    from deckforge.sources.load import Project

    project = Project(args.decks)
    if args.what == "game":
        from deckforge.authoring.game import new_game

        folder = new_game(project, args.name)
        print(f"created {folder}/: edition.yaml, trivia.yaml with cards.csv, roles.yaml")
        print(f"edit them, then: deckforge build --edition {args.name}")
    elif args.what == "edition":
        folder = scaffold.new_edition(project, args.name, args.base)
        if (folder / "places.yaml").is_file():
            print(f"created {folder}/edition.yaml and {folder}/places.yaml")
            print(f"edit {folder}/places.yaml, then: deckforge build --edition {args.name}")
        else:
            print(f"created {folder}/edition.yaml")
            print(f"edit the files in {folder}/, then: deckforge build --edition {args.name}")
    else:
        path = scaffold.new_place_deck(project, args.path)
        print(f"created {path}; name it in an edition's decks to print it")
    return 0
