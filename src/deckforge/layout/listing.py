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

from deckforge.kinds import deck_kinds
from deckforge.layout.ops import Card as LaidCard
from deckforge.model import Deck, Edition


def _digest(*parts: object) -> str:
    total = hashlib.blake2b(digest_size=10)
    for part in parts:
        total.update(part if isinstance(part, bytes) else pickle.dumps(part, protocol=5))
    return total.hexdigest()


def _art(paths: tuple) -> bytes:
    """The bytes of a card's own picture files: a new picture at the same path is a change."""
    found = []
    for path in paths:
        try:
            found.append(path.read_bytes())
        except OSError:
            found.append(b"missing")
    return b"\0".join(found)


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
    kind = deck_kinds()[deck.kind]
    models = {card.id: card for card in deck.cards}
    names = [kind.card_name(models[card.id], edition.locale) for card in cards]
    listing: dict = {"card_names": names}
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
        "faces": [
            _digest(base.encode(), models[card.id], _art(kind.card_art(models[card.id])))
            for card in cards
        ],
        "backs": back_of,
        "distinct_backs": back_digests,
    }
    return listing
