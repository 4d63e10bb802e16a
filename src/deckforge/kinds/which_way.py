"""Which Way decks (``kind: which-way``): which neighbour receives your mess.

Each card sends a mess some seats left or right, from a smallest player count on; the
rules check that no card ever sends a mess back to its own maker.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import Problem
from deckforge.kinds import Checked, DeckKind, Reader
from deckforge.model import Text
from deckforge.sources.rules import unique
from deckforge.sources.source import Source
from deckforge.text.script import localise_digits


@dataclass(frozen=True)
class WhichWayCard:
    """Which neighbour receives your mess."""

    id: str
    direction: str
    distance: int
    min_players: int
    label: Text
    players_label: Text


class WhichWay(DeckKind):
    """Cards of a direction, a distance and the smallest player count they are used with."""

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        yield from unique(source, source.data["cards"], "cards", "id", None, "id")
        yield from consistency(source, checked.players)

    def cards(self, source: Source, reader: Reader) -> list[WhichWayCard]:
        labels = source.data["labels"]
        cards = []
        for i, c in enumerate(source.data["cards"]):
            label = reader.text(source, ("labels", c["direction"]), labels[c["direction"]])
            players = reader.text(source, ("labels", "players"), labels["players"])
            cards.append(
                WhichWayCard(
                    c["id"],
                    c["direction"],
                    c["distance"],
                    c["min_players"],
                    Text(
                        label.value.replace("{distance}", str(c["distance"])),
                        source.ref(("cards", i)),
                    ),
                    Text(
                        players.value.replace("{players}", str(c["min_players"])),
                        source.ref(("cards", i, "min_players")),
                    ),
                )
            )
        return cards

    def card_name(self, card: WhichWayCard, locale: str) -> str:
        """Its label, in the edition's digits: "Pass 2 to the left"."""
        return localise_digits(card.label.value, locale)


def consistency(source: Source, players: tuple[int, int]) -> Iterator[Problem]:
    """A card must never send a mess back to its maker, at any count it is used with."""
    low, high = players
    cards = source.data["cards"]
    for index, card in enumerate(cards):
        for n in range(max(card["min_players"], low), high + 1):
            if card["distance"] % n == 0:
                yield Problem(
                    source.ref(("cards", index)),
                    f"'{card['id']}' ({card['direction']} {card['distance']}) sends a mess back "
                    f"to its own maker with {n} players",
                )
                break
        if card["min_players"] > high:
            yield Problem(
                source.ref(("cards", index, "min_players")),
                f"min_players {card['min_players']} is more than the edition's "
                f"{high} players; the card is never used",
            )
    for n in range(low, high + 1):
        if not any(c["min_players"] <= n for c in cards):
            yield Problem(source.ref(("cards",)), f"no card is used with {n} players")


KIND = WhichWay("which-way", listed=3, entries="cards", face="which-way", back="which-way-back")
