"""``deckforge validate``: check sources and report every problem."""

from __future__ import annotations

import argparse
import sys

from deckforge.cli.show import plural, report
from deckforge.errors import errors_only

NAME = "validate"
HELP = "check sources and report every problem"


def arguments(parser: argparse.ArgumentParser) -> None:
    """The command's own arguments."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="edition folders, edition.yaml files or edition ids (default: all)",
    )
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")


def run(args: argparse.Namespace) -> int:
    """Check every edition named (all by default) as far as laying it out."""
    from deckforge.pipeline.recipe import check
    from deckforge.sources.load import Project

    project = Project(args.decks)
    laid_out, _, problems = check(project, args.paths or None)
    report(problems, project.root)
    if errors_only(problems, args.strict):
        count = len(errors_only(problems, args.strict))
        print(f"{plural(count, 'problem')} found", file=sys.stderr)
        return 1
    cards = sum(len(c) for laid in laid_out for c in laid.cards.values())
    print(f"ok: {len(laid_out)} edition(s), {cards} cards")
    return 0
