"""Place decks (``kind: places``): the secret places of Guess the Mess!, in categories.

Mess cards hint at places by category (see :mod:`deckforge.kinds.mess`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import WARNING, Problem, close_matches, pickled_quickly
from deckforge.kinds import Checked, DeckKind, Reader
from deckforge.model import Art, Text
from deckforge.sources.rules import art_problems, icon_problems, unique
from deckforge.sources.source import Source

#: Places one game of Guess the Mess uses without repeats: six rounds of eight places.
PLACES_FOR_A_GAME = 48


@pickled_quickly
@dataclass(frozen=True, slots=True, eq=False)
class PlaceCard:
    """A secret place."""

    id: str
    name: Text
    category: Category
    icon: str | None
    art: Art | None = None


@pickled_quickly
@dataclass(frozen=True, slots=True, eq=False)
class Category:
    """A kind of place, with its printed name and colour."""

    id: str
    name: Text
    colour: str


class Places(DeckKind):
    """Places in categories, each with a name and an icon or art."""

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        data = source.data
        ids = {c["id"] for c in data["categories"]}
        yield from unique(source, data["categories"], "categories", "id", None, "category id")
        yield from unique(source, data["places"], "places", "id", None, "id")
        yield from unique(source, data["places"], "places", "name", checked.locale, "name")
        yield from icon_problems(source, data["places"], "places", distinct=False)
        for index, place in enumerate(data["places"]):
            if place["category"] not in ids:
                guess = close_matches(place["category"], sorted(ids))
                hint = f"; did you mean '{guess[0]}'?" if guess else ""
                yield Problem(
                    source.ref(("places", index, "category")),
                    f"unknown category '{place['category']}'{hint}",
                )
        yield from art_problems(source, self.art(data), checked.root)
        count = self.count(source, checked)
        # Only Guess the Mess (places hinted at by mess cards) deals places in rounds; a
        # places deck of another game, such as a new project's example, has no such rule.
        if count < PLACES_FOR_A_GAME and checked.of_kind("mess"):
            yield Problem(
                source.ref(("places",)),
                f"{count} places; a game of six rounds deals eight places a round, so "
                f"{PLACES_FOR_A_GAME} or more keep places from repeating",
                WARNING,
            )

    def cards(self, source: Source, reader: Reader) -> list[PlaceCard]:
        data = source.data
        categories = {
            c["id"]: Category(
                c["id"], reader.text(source, ("categories", i, "name"), c["name"]), c["colour"]
            )
            for i, c in enumerate(data["categories"])
        }
        names = reader.texts(source, ("places",), "name")
        return [
            PlaceCard(
                p["id"],
                name,
                categories[p["category"]],
                reader.icon(p),
                reader.art(source, ("places", i, "art"), p),
            )
            for i, (p, name) in enumerate(zip(data["places"], names, strict=True))
        ]


KIND = Places("places", listed=1, entries="places", named=True, face="place", back="place-back")
