"""Picture decks (``kind: pictures``): the storytelling pictures of گمانه.

Each card's picture is generated from the deck's seed and its number, unless the deck's
art folder holds a file for it (``07.png`` or ``7.png``, also .jpg, .jpeg or .svg).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import Problem
from deckforge.kinds import Checked, DeckKind, Reader
from deckforge.model import Art
from deckforge.sources.rules import art_problems
from deckforge.sources.source import Source
from deckforge.text.script import number


@dataclass(frozen=True)
class PictureCard:
    """A storytelling picture, generated from a seed until art is supplied."""

    id: str
    number: int
    seed: int
    art: Art | None = None


def picture_art(source: Source, data: dict, number: int) -> Art | None:
    """A picture card's own art from the deck's art folder, if there is a file for it."""
    if "art_folder" not in data:
        return None
    folder = source.path.parent / data["art_folder"]
    for stem in (f"{number:02d}", str(number)):
        for suffix in (".png", ".jpg", ".jpeg", ".svg"):
            candidate = folder / f"{stem}{suffix}"
            if candidate.is_file():
                return Art(candidate, source.ref(("art_folder",)))
    return None


class Pictures(DeckKind):
    """A number of generated pictures, or the files of an art folder."""

    def count(self, source: Source, checked: Checked) -> int:
        return source.data["count"]

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        yield from art_problems(source, self.art(source.data), checked.root)

    def art(self, data: dict) -> list[tuple[tuple, str, bool]]:
        folder = data.get("art_folder")
        return [(("art_folder",), folder, True)] if isinstance(folder, str) else []

    def cards(self, source: Source, reader: Reader) -> list[PictureCard]:
        data = source.data
        return [
            PictureCard(f"picture-{n}", n, data["seed"], picture_art(source, data, n))
            for n in range(1, data["count"] + 1)
        ]

    def card_name(self, card: PictureCard, locale: str) -> str:
        """Its number, in the edition's digits."""
        return number(card.number, locale)


KIND = Pictures("pictures", listed=6, face="picture", back="picture-back")
