"""Cards of the model's decks: each deck drawn from the templates its kind names.

How every card looks is written in template files (``deckforge/templates/shipped/``, or
an edition's own ``templates/`` folder); which templates draw a deck's faces and backs
is its kind's to say (:meth:`deckforge.kinds.DeckKind.look`), and this module hands the
deck's cards to the engine (:func:`deckforge.templates.lay_out_deck`). Text that cannot
fit and art that cannot be printed well are problems at the place of the data that
causes them.
"""

from __future__ import annotations

from pathlib import Path

from deckforge import templates
from deckforge.drawing.ops import Card
from deckforge.errors import Problem
from deckforge.kinds import Look, deck_kinds
from deckforge.model import Deck, Edition


def look_of(deck: Deck) -> Look:
    """The templates a deck's faces and backs are drawn from, as its kind says."""
    return deck_kinds()[deck.kind].look(deck)


def lay_out_deck(edition: Edition, deck: Deck) -> tuple[list[Card], list[Problem]]:
    """Every card of a deck, or the problems that stop it (text that cannot fit)."""
    return templates.lay_out_deck(edition, deck, look_of(deck))


def stream_deck(edition: Edition, deck: Deck) -> templates.CardStream:
    """A deck's cards laid out one at a time as they are taken, and their problems."""
    return templates.stream_deck(edition, deck, look_of(deck))


def template_files(edition: Edition, deck: Deck) -> list[Path]:
    """The edition's own files a deck's cards are drawn from: the templates its faces and
    backs are read from (what they extend included), and the fonts and pictures kept
    beside them."""
    look = look_of(deck)
    return templates.edition_files(edition, look.names, look.folder)
