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
            print(f"    {deck.id}: {len(deck.cards)} cards, {_size(deck, laid.cards.get(deck.id))}")
        for component in e.components:
            print(f"    {component.id}")
    if errors_only(problems):
        print(f"  ({len(errors_only(problems))} problems; run 'deckforge validate')")
    print("profiles:")
    for profile in all_profiles().values():
        print(f"  {profile.id}: {profile.description}")
    return 0


def _size(deck, cards) -> str:
    """The size a deck prints at: its first card's (the deck's own size, else its
    templates'), with the deck's trade name when it gives one."""
    from deckforge.units import to_mm

    named = f"{deck.size_name} " if deck.size_name else ""
    if cards:
        w, h = round(to_mm(cards[0].width), 2), round(to_mm(cards[0].height), 2)
    elif deck.size_mm is not None:
        w, h = deck.size_mm
    else:
        return "its templates' size"
    return f"{named}{w:g} × {h:g} mm"
