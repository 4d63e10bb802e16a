"""Score pads (``kind: score-pad``): a sheet of players by rounds."""

from __future__ import annotations

from dataclasses import dataclass

from deckforge.kinds import ComponentKind, Reader
from deckforge.model import Text
from deckforge.sources.source import Source


@dataclass(frozen=True)
class ScorePad:
    """A score sheet."""

    id: str
    title: Text
    players: int
    rounds: int
    columns: tuple[Text, ...]
    labels: dict[str, Text]


class ScorePadKind(ComponentKind):
    """A score sheet: a row per player, columns per round."""

    def component(self, id: str, source: Source, reader: Reader) -> ScorePad:
        data = source.data
        return ScorePad(
            id=id,
            title=reader.text(source, ("title",), data["title"]),
            players=data["players"],
            rounds=data["rounds"],
            columns=tuple(
                reader.text(source, ("columns", i), c) for i, c in enumerate(data["columns"])
            ),
            labels={
                k: reader.text(source, ("labels", k), v) for k, v in data.get("labels", {}).items()
            },
        )


KIND = ScorePadKind("score-pad", listed=7)
