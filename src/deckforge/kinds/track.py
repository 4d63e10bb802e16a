"""Score tracks (``kind: track``): a board of numbered spaces tiled over several sheets."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import Problem
from deckforge.kinds import Checked, ComponentKind, Reader
from deckforge.model import Text
from deckforge.sources.source import Source


@dataclass(frozen=True)
class Track:
    """A score track board."""

    id: str
    title: Text
    start: int
    end: int
    sheets: int


class TrackKind(ComponentKind):
    """Spaces numbered from one number to another, over sheets that join edge to edge."""

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        if source.data["from"] >= source.data["to"]:
            yield Problem(source.ref(("to",)), "'to' must be greater than 'from'")

    def component(self, id: str, source: Source, reader: Reader) -> Track:
        data = source.data
        return Track(
            id,
            reader.text(source, ("title",), data["title"]),
            data["from"],
            data["to"],
            data.get("sheets", 2),
        )


KIND = TrackKind("track", listed=9)
