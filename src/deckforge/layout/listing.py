"""What a card file holds, for the build manifest: each card's name, and which of its
pages are the same drawing.

Exports read this instead of the sources: Tabletop Simulator names each card, and the
raster exports draw a page once however many cards show it (400 Mess cards share one
back) and again only when what it is drawn from has changed.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Iterable, Iterator
from dataclasses import replace

from deckforge.drawing.ops import Card as LaidCard
from deckforge.fsutil import read_regular
from deckforge.kinds import deck_kinds
from deckforge.model import Deck, Edition
from deckforge.templates import element_names


def _digest(*parts: object) -> str:
    total = hashlib.blake2b(digest_size=10)
    for part in parts:
        total.update(part if isinstance(part, bytes) else pickle.dumps(part, protocol=5))
    return total.hexdigest()


def _art(paths: tuple) -> bytes:
    """The bytes of a card's own picture files (each inside the project, as its kind's
    ``card_art`` gives them): a new picture at the same path is a change."""
    found = []
    for path in paths:
        try:
            found.append(read_regular(path))
        except OSError:
            found.append(b"missing")
    return b"\0".join(found)


def card_sources(deck: Deck) -> tuple[str, ...]:
    """Where each of a deck's cards is written (``file:line:column``; '' if nowhere): a
    file the build leaves as it was gets these again, as lines may have moved."""
    kind = deck_kinds()[deck.kind]
    return tuple(_where(kind.card_source(card)) for card in deck.cards)


def _where(ref) -> str:
    return ref.where if ref is not None else ""


class Listing:
    """The manifest fields of a deck's file (:meth:`fields`), from its cards as they pass
    (:meth:`watch`), each seen once and none kept: a large deck is laid out, imposed and
    written a sheet at a time.

    The fields are ``card_names``, ``card_sources`` (where each card is written) and
    ``face_template`` always, and for a file of one card side per page ``card_sides``: a
    digest of each card's face, the index of its back among the deck's distinct backs, a
    digest of each distinct back, and each card's id (what a proof matches the cards of
    two builds by).

    A digest covers what the page is drawn from (the edition's settings, the deck, the
    card or back, the profile, and ``tools``: the versions of the code and libraries and
    the edition's own templates), so equal digests mean equal pages, within a build folder
    and from one build to the next.
    """

    def __init__(self, edition: Edition, profile: object, deck: Deck, tools: str) -> None:
        self.kind = deck_kinds()[deck.kind]
        self.locale = edition.locale
        self.models = {card.id: card for card in deck.cards}
        self.names: list[str] = []
        self.sources: list[str] = []
        self.template = self.kind.look(deck).face
        self.elements = element_names(edition, deck, self.template) if self.template else ()
        self.single = getattr(profile, "mode", None) == "single"
        if self.single:
            settings = (edition.id, edition.title, edition.locale, edition.palette, edition.players)
            self.base = _digest(tools, settings, replace(deck, cards=()), profile).encode()
        self.known: dict[str, int] = {}
        self.back_of: list[int] = []
        self.back_digests: list[str] = []
        self.faces: list[str] = []
        self.ids: list[str] = []

    def add(self, card: LaidCard) -> None:
        """One more card of the file."""
        model = self.models[card.id]
        self.names.append(self.kind.card_name(model, self.locale))
        self.sources.append(_where(self.kind.card_source(model)))
        if not self.single:
            return
        key = card.back.key
        if key is None or key not in self.known:
            self.back_digests.append(_digest(self.base, card.back))
            if key is not None:
                self.known[key] = len(self.back_digests) - 1
        self.back_of.append(self.known[key] if key is not None else len(self.back_digests) - 1)
        self.faces.append(self.face_digest(model))
        self.ids.append(str(card.id))

    def face_digest(self, model: object) -> str:
        """The digest of what a card's face is drawn from, known from its model alone
        (a one-card-per-page file's only)."""
        return _digest(self.base, model, _art(self.kind.card_art(model)))

    def describe(self, model: object) -> tuple[str, str]:
        """A card's name and where it is written, as the listing gives them."""
        return self.kind.card_name(model, self.locale), _where(self.kind.card_source(model))

    def watch(self, cards: Iterable[LaidCard]) -> Iterator[LaidCard]:
        """The cards, each added as it is taken."""
        for card in cards:
            self.add(card)
            yield card

    def fields(self) -> dict:
        """The manifest fields of the cards added so far."""
        listing: dict = {
            "card_names": self.names,
            "card_sources": self.sources,
            "face_template": self.template,
            "face_elements": self.elements,
        }
        if self.single:
            listing["card_sides"] = {
                "faces": self.faces,
                "backs": self.back_of,
                "distinct_backs": self.back_digests,
                "ids": self.ids,
            }
        return listing
