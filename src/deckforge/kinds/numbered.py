"""Numbered decks (``kind: numbered``): a range of numbers, once or in each player colour.

Player colours are told apart by name and symbol as well, for colour-blind players;
pawns take their colours from a numbered deck (:mod:`deckforge.kinds.pawns`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import Problem
from deckforge.kinds import Checked, DeckKind, Look, Reader
from deckforge.model import Deck, Text
from deckforge.sources.rules import unique
from deckforge.sources.source import Source
from deckforge.text.script import number


@dataclass(frozen=True)
class PlayerColour:
    """A player colour, told apart also by its name and symbol."""

    id: str
    name: Text
    hex: str
    symbol: str


@dataclass(frozen=True)
class NumberCard:
    """A numbered card, optionally in a player colour."""

    id: str
    number: int
    label: Text
    colour: PlayerColour | None


def player_colours(source: Source, reader: Reader) -> list[PlayerColour]:
    """The player colours of a numbered deck's source."""
    return [
        PlayerColour(
            c["id"],
            reader.text(source, ("colours", i, "name"), c["name"]),
            c["hex"],
            c["symbol"],
        )
        for i, c in enumerate(source.data.get("colours", []))
    ]


class Numbered(DeckKind):
    """Numbers from one to another, once, or once in each player colour."""

    def count(self, source: Source, checked: Checked) -> int:
        data = source.data
        span = data["numbers"]["to"] - data["numbers"]["from"] + 1
        return max(span, 0) * max(len(data.get("colours", [])), 1)

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        data = source.data
        if data["numbers"]["from"] > data["numbers"]["to"]:
            yield Problem(source.ref(("numbers",)), "'from' is greater than 'to'")
        colours = data.get("colours", [])
        yield from unique(source, colours, "colours", "id", None, "colour id")
        yield from unique(source, colours, "colours", "name", checked.locale, "colour name")
        yield from unique(source, colours, "colours", "hex", None, "colour")
        yield from unique(source, colours, "colours", "symbol", None, "symbol")

    def cards(self, source: Source, reader: Reader) -> list[NumberCard]:
        data = source.data
        label = reader.text(source, ("label",), data["label"])
        cards = []
        colours: list[PlayerColour | None] = [*player_colours(source, reader)] or [None]
        for colour in colours:
            for n in range(data["numbers"]["from"], data["numbers"]["to"] + 1):
                card_id = f"{colour.id}-{n}" if colour else str(n)
                cards.append(NumberCard(card_id, n, label, colour))
        return cards

    def look(self, deck: Deck) -> Look:
        """Cards in player colours show the colour's symbol and name on the face, and
        have each colour's own back, so that a player's cards are found face down."""
        if any(isinstance(card, NumberCard) and card.colour is not None for card in deck.cards):
            return Look("player-number", "player-number-back")
        return super().look(deck)

    def card_name(self, card: NumberCard, locale: str) -> str:
        """ "Player 3", or "Player 3 – Orange" in a player colour."""
        name = f"{card.label.value} {number(card.number, locale)}"
        return f"{name} – {card.colour.name.value}" if card.colour else name


KIND = Numbered("numbered", listed=4, face="number", back="number-back")
