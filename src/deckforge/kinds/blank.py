"""Blank decks (``kind: blank``): cards players write their own content on.

Blank cards are shuffled into the deck they stand in for (their ``like``): they look
like its cards, with room to write, and have its back.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckforge.kinds import Checked, DeckKind, Look, Reader, deck_kinds
from deckforge.model import Deck, Text
from deckforge.sources.source import Source


@dataclass(frozen=True)
class BlankCard:
    """A write-your-own card."""

    id: str
    like: str
    prompt: Text
    lines: int


class Blank(DeckKind):
    """A number of cards alike, each with a prompt and lines to write on."""

    def count(self, source: Source, checked: Checked) -> int:
        return source.data["count"]

    def cards(self, source: Source, reader: Reader) -> list[BlankCard]:
        data = source.data
        prompt = reader.text(source, ("prompt",), data["prompt"])
        return [
            BlankCard(f"blank-{n}", data["like"], prompt, data.get("lines", 2))
            for n in range(1, data["count"] + 1)
        ]

    def look(self, deck: Deck) -> Look:
        """The blank version of the face of the cards they are like, and their back."""
        first = deck.cards[0] if deck.cards else None
        like = first.like if isinstance(first, BlankCard) else "places"
        return Look(LOOKS[like], deck_kinds()[like].back)

    def card_name(self, card: BlankCard, locale: str) -> str:
        """Its prompt."""
        return card.prompt.value


#: The face of blank cards, by the kind of cards they are like.
LOOKS = {"places": "blank-place"}

KIND = Blank("blank", listed=5)
