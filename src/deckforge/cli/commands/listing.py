"""``deckforge list``: editions, their decks, and the print profiles."""

from __future__ import annotations

import argparse

from deckforge.errors import errors_only

NAME = "list"
HELP = "list editions, their decks, and the print profiles"


def arguments(parser: argparse.ArgumentParser) -> None:
    """The command takes no arguments of its own."""


def run(args: argparse.Namespace) -> int:
    """Print every edition with its decks and components, then every profile."""
    from deckforge.pipeline.recipe import check
    from deckforge.profiles import all_profiles
    from deckforge.sources.load import Project

    project = Project(args.decks)
    laid_out, _, problems = check(project, None)
    print("editions:")
    for laid in laid_out:
        e = laid.edition
        print(f"  {e.id} ({e.locale}) {e.title}")
        for deck in e.decks:
            print(
                f"    {deck.id}: {len(deck.cards)} cards, {deck.size_name} "
                f"{deck.size_mm[0]:g} × {deck.size_mm[1]:g} mm"
            )
        for component in e.components:
            print(f"    {component.id}")
    if errors_only(problems):
        print(f"  ({len(errors_only(problems))} problems; run 'deckforge validate')")
    print("profiles:")
    for profile in all_profiles().values():
        print(f"  {profile.id}: {profile.description}")
    return 0
