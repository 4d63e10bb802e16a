"""Numbered decks (``kind: numbered``): a range of numbers, once or in each player colour.

Player colours are told apart by name and symbol as well, for colour-blind players;
pawns take their colours from a numbered deck (:mod:`deckforge.kinds.pawns`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import Problem
from deckforge.kinds import Checked, DeckKind, Reader
from deckforge.model import Text
from deckforge.sources.rules import unique
from deckforge.sources.source import Source


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

    def count(self, data: dict) -> int:
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
        for colour in player_colours(source, reader) or [None]:
            for n in range(data["numbers"]["from"], data["numbers"]["to"] + 1):
                card_id = f"{colour.id}-{n}" if colour else str(n)
                cards.append(NumberCard(card_id, n, label, colour))
        return cards


KIND = Numbered("numbered", listed=4)
