"""``deckforge lint``: advice on names, hints and translations."""

from __future__ import annotations

import argparse

from deckforge.cli.show import report
from deckforge.errors import errors_only

NAME = "lint"
HELP = "advice on names, hints and translations"


def arguments(parser: argparse.ArgumentParser) -> None:
    """Which editions, and whether advice fails."""
    parser.add_argument("paths", nargs="*", metavar="EDITION", help="editions (default: all)")
    parser.add_argument("--strict", action="store_true", help="fail on any advice")


def run(args: argparse.Namespace) -> int:
    """Print every problem and piece of advice; fail on errors (and advice, if strict)."""
    from deckforge.authoring.lint import lint_edition
    from deckforge.pipeline.recipe import gather
    from deckforge.sources.load import Project, select_editions

    project = Project(args.decks)
    _, problems = gather(project, select_editions(project, args.paths or None), lint_edition)
    report(problems, project.root)
    errors = errors_only(problems)
    advice = len(problems) - len(errors)
    print(f"{advice} piece(s) of advice, {len(errors)} error(s)")
    return 1 if errors or (args.strict and advice) else 0
