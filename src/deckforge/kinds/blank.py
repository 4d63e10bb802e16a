"""Blank decks (``kind: blank``): cards players write their own content on."""

from __future__ import annotations

from dataclasses import dataclass

from deckforge.kinds import DeckKind, Reader
from deckforge.model import Text
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

    def count(self, data: dict) -> int:
        return data["count"]

    def cards(self, source: Source, reader: Reader) -> list[BlankCard]:
        data = source.data
        prompt = reader.text(source, ("prompt",), data["prompt"])
        return [
            BlankCard(f"blank-{n}", data["like"], prompt, data.get("lines", 2))
            for n in range(1, data["count"] + 1)
        ]


KIND = Blank("blank", listed=5)
