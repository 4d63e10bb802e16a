"""Cards of the model's decks: each kind of deck drawn from its templates.

How every card looks is written in template files (``deckforge/templates/shipped/``, or
an edition's own ``templates/`` folder); this module only says which templates draw the
faces and backs of each kind of deck and hands the deck's cards to the engine
(:func:`deckforge.templates.lay_out_deck`). Text that cannot fit and art that cannot be
printed well are problems at the place of the data that causes them.
"""

from __future__ import annotations

from pathlib import Path

from deckforge import templates
from deckforge.errors import Problem
from deckforge.kinds.numbered import NumberCard
from deckforge.layout.ops import Card
from deckforge.model import Deck, Edition

#: The face and back templates of each kind of deck.
TEMPLATES = {
    "places": ("place", "place-back"),
    "mess": ("mess", "mess-back"),
    "which-way": ("which-way", "which-way-back"),
    "numbered": ("number", "number-back"),
    "pictures": ("picture", "picture-back"),
}
#: Numbered decks in player colours: the colour's symbol and name on the face, and each
#: colour's own back, so that a player's cards are found face down.
PLAYER_TEMPLATES = ("player-number", "player-number-back")
#: Blank cards are shuffled into the deck they stand in for (their ``like``): they
#: look like its cards, with room to write, and have its back.
BLANK_TEMPLATES = {"places": ("blank-place", "place-back")}


def templates_of(deck: Deck) -> tuple[str, str]:
    """The names of the templates a deck's faces and backs are drawn from."""
    if deck.kind == "blank":
        return BLANK_TEMPLATES[deck.cards[0].like] if deck.cards else TEMPLATES["places"]
    if deck.kind == "numbered" and any(
        isinstance(card, NumberCard) and card.colour is not None for card in deck.cards
    ):
        return PLAYER_TEMPLATES
    return TEMPLATES[deck.kind]


def lay_out_deck(edition: Edition, deck: Deck) -> tuple[list[Card], list[Problem]]:
    """Every card of a deck, or the problems that stop it (text that cannot fit)."""
    face, back = templates_of(deck)
    return templates.lay_out_deck(edition, deck, face, back)


def template_files(edition: Edition, deck: Deck) -> list[Path]:
    """The edition's own files a deck's cards are drawn from: the templates its face and
    back are read from (what they extend included), and the fonts and pictures kept
    beside them."""
    return templates.edition_files(edition, templates_of(deck))
