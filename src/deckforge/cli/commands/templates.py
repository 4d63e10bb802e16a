"""``deckforge templates``: the card templates an edition can use, and one as drawn."""

from __future__ import annotations

import argparse
import sys

NAME = "templates"
HELP = "list card templates, or show one after 'extends' and an edition's own files"


def arguments(parser: argparse.ArgumentParser) -> None:
    """``list`` or ``show NAME``, for an edition (its own templates first) or the shipped."""
    what = parser.add_subparsers(dest="what", required=True, metavar="WHAT")
    listed = what.add_parser("list", help="every template, where it is read from, what it draws")
    shown = what.add_parser("show", help="one template as its cards are drawn from it")
    shown.add_argument("name", metavar="NAME")
    for sub in (listed, shown):
        sub.add_argument(
            "--edition",
            metavar="NAME",
            help="an edition whose own templates/ folder comes first (default: the shipped)",
        )


def run(args: argparse.Namespace) -> int:
    """Print the list, or the template; problems (an unknown name, a broken file) as any
    command prints them."""
    from deckforge.authoring import templates
    from deckforge.cli.show import report
    from deckforge.errors import UsageError
    from deckforge.fsutil import inside
    from deckforge.sources.load import Project, select_editions
    from deckforge.templates.load import NAME, NAME_RULE, Library

    if args.what == "show" and not NAME.fullmatch(args.name):
        raise UsageError(f"'{args.name}' is not a template name: {NAME_RULE}")
    project = Project(args.decks)
    folder = None
    if args.edition:
        folder = select_editions(project, [args.edition])[0].parent
        if not inside(folder, project.root):
            raise UsageError(
                f"the edition '{args.edition}' is outside the project folder; its templates "
                "are not read"
            )
    # The edition's own templates first, or, without an edition, the shipped ones.
    library = Library.for_edition(folder, project.root)
    if args.what == "list":
        rows = templates.listing(library)
        width = max((len(row.name) for row in rows), default=0)
        for row in rows:
            hides = f" (hides {row.hides})" if row.hides else ""
            print(f"{row.name:<{width}}  {row.description}")
            print(f"{'':<{width}}  {row.file}{hides}")
        return 0
    text, problems = templates.show(library, args.name)
    if text is None:
        report(problems, project.root)
        print(f"cannot show the template '{args.name}'", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0
