"""What a card file holds, for the build manifest: each card's name, and which of its
pages are the same drawing.

Exports read this instead of the sources: Tabletop Simulator names each card, and the
raster exports draw a page once however many cards show it (400 Mess cards share one
back) and again only when what it is drawn from has changed.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import replace

from deckforge.kinds.blank import BlankCard
from deckforge.kinds.mess import MessCard
from deckforge.kinds.numbered import NumberCard
from deckforge.kinds.pictures import PictureCard
from deckforge.kinds.places import PlaceCard
from deckforge.kinds.which_way import WhichWayCard
from deckforge.layout.ops import Card as LaidCard
from deckforge.model import Card, Deck, Edition
from deckforge.text.script import number


def card_name(card: Card, locale: str) -> str:
    """What players call a card, in the edition's language ("Kitchen", "Player 3 – Orange")."""
    if isinstance(card, PlaceCard | MessCard):
        return card.name.value
    if isinstance(card, WhichWayCard):
        return card.label.value
    if isinstance(card, NumberCard):
        name = f"{card.label.value} {number(card.number, locale)}"
        return f"{name} – {card.colour.name.value}" if card.colour else name
    if isinstance(card, BlankCard):
        return card.prompt.value
    if isinstance(card, PictureCard):
        return number(card.number, locale)
    return card.id


def _digest(*parts: object) -> str:
    total = hashlib.blake2b(digest_size=10)
    for part in parts:
        total.update(part if isinstance(part, bytes) else pickle.dumps(part, protocol=5))
    return total.hexdigest()


def _art(card: Card) -> bytes:
    """The bytes of a card's own picture file: a new picture at the same path is a change."""
    art = getattr(card, "art", None)
    try:
        return art.path.read_bytes() if art is not None else b""
    except OSError:
        return b"missing"


def card_listing(
    edition: Edition, profile: object, deck: Deck, cards: list[LaidCard], tools: str
) -> dict:
    """The manifest fields of a deck's file: ``card_names`` always, and for a file of one
    card side per page ``card_sides``: a digest of each card's face, the index of its back
    among the deck's distinct backs, and a digest of each distinct back.

    A digest covers what the page is drawn from (the edition's settings, the deck, the
    card or back, the profile, and ``tools``: the versions of the code and libraries and
    the edition's own templates), so equal digests mean equal pages, within a build folder
    and from one build to the next.
    """
    models = {card.id: card for card in deck.cards}
    listing: dict = {"card_names": [card_name(models[card.id], edition.locale) for card in cards]}
    if getattr(profile, "mode", None) != "single":
        return listing
    settings = (edition.id, edition.title, edition.locale, edition.palette, edition.players)
    base = _digest(tools, settings, replace(deck, cards=()), profile)
    known: dict[str, int] = {}
    back_of: list[int] = []
    back_digests: list[str] = []
    for card in cards:
        key = card.back.key
        if key is None or key not in known:
            back_digests.append(_digest(base.encode(), card.back))
            if key is not None:
                known[key] = len(back_digests) - 1
        back_of.append(known[key] if key is not None else len(back_digests) - 1)
    listing["card_sides"] = {
        "faces": [_digest(base.encode(), models[card.id], _art(models[card.id])) for card in cards],
        "backs": back_of,
        "distinct_backs": back_digests,
    }
    return listing
