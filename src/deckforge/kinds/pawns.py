"""Pawns (``kind: pawns``): fold-up pawns in the player colours of a numbered deck."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import Problem
from deckforge.kinds import Checked, ComponentKind, Reader
from deckforge.kinds.numbered import PlayerColour, player_colours
from deckforge.model import Text
from deckforge.sources.source import Source


@dataclass(frozen=True)
class Pawns:
    """Fold-up pawns, one per player colour."""

    id: str
    label: Text
    colours: tuple[PlayerColour, ...]


class PawnsKind(ComponentKind):
    """A pawn per player colour of the numbered deck named by ``colours_from``."""

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        other = checked.sources.get(source.data["colours_from"])
        if other is None or other.data["kind"] != "numbered" or not other.data.get("colours"):
            yield Problem(
                source.ref(("colours_from",)),
                f"'{source.data['colours_from']}' is not a deck of this "
                "edition with player colours",
            )

    def component(self, id: str, source: Source, reader: Reader) -> Pawns:
        deck = reader.loaded.decks[source.data["colours_from"]]
        label = reader.text(source, ("label",), source.data["label"])
        return Pawns(id, label, tuple(player_colours(deck, reader)))


KIND = PawnsKind("pawns", listed=10)
