"""Mess decks (``kind: mess``): the items players make a mess with.

Each item suggests place categories: the rules check that they are categories of the
edition's place decks, and lint points out items that suggest no place of the edition
and places no item suggests.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import WARNING, Problem
from deckforge.kinds import Checked, DeckKind, Reader
from deckforge.kinds.places import PlaceCard
from deckforge.model import Art, Edition, Text
from deckforge.sources.rules import art_problems, icon_problems, unique
from deckforge.sources.source import Source


@dataclass(frozen=True)
class MessCard:
    """An item of a mess."""

    id: str
    name: Text
    icon: str | None
    suggests: tuple[str, ...]
    art: Art | None = None


class Mess(DeckKind):
    """Items, each with its own picture and the place categories it suggests."""

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        data = source.data
        yield from unique(source, data["items"], "items", "id", None, "id")
        yield from unique(source, data["items"], "items", "name", checked.locale, "name")
        yield from icon_problems(source, data["items"], "items", distinct=True)
        places = checked.of_kind("places")
        if places:
            categories = {c["id"] for s in places for c in s.data["categories"]}
            for index, item in enumerate(data["items"]):
                for j, category in enumerate(item["suggests"]):
                    if category not in categories:
                        yield Problem(
                            source.ref(("items", index, "suggests", j)),
                            f"unknown place category '{category}'",
                        )
        yield from art_problems(source, self.art(data), checked.root)

    def cards(self, source: Source, reader: Reader) -> list[MessCard]:
        names = reader.texts(source, ("items",), "name")
        return [
            MessCard(
                m["id"],
                name,
                reader.icon(m),
                tuple(m["suggests"]),
                reader.art(source, ("items", i, "art"), m),
            )
            for i, (m, name) in enumerate(zip(source.data["items"], names, strict=True))
        ]

    def advice(self, edition: Edition) -> Iterator[Problem]:
        """Items that suggest no place of the edition, and places no item suggests."""
        places = [
            c
            for d in edition.decks
            if d.kind == "places"
            for c in d.cards
            if isinstance(c, PlaceCard)
        ]
        items = [
            c
            for d in edition.decks
            if d.kind == self.name
            for c in d.cards
            if isinstance(c, MessCard)
        ]
        if not (places and items):
            return
        place_categories = {p.category.id for p in places}
        suggested = {c for item in items for c in item.suggests}
        for item in items:
            if not set(item.suggests) & place_categories:
                yield Problem(
                    item.name.ref, f"'{item.name.value}' suggests no place in this edition", WARNING
                )
        for place in places:
            if place.category.id not in suggested:
                yield Problem(
                    place.name.ref,
                    f"no mess item suggests '{place.name.value}' (category '{place.category.id}')",
                    WARNING,
                )


KIND = Mess("mess", listed=2, entries="items", named=True, face="mess", back="mess-back")
