"""Boards (``kind: board``): a board of any size drawn from a template, and pieces on it.

The board's template gives its trim (``width`` and ``height``) and draws it; the board
may give a ``title`` the template binds as ``{title}``. Optional ``pieces`` are rows of
data, each drawn from a template of its own (its size is the piece's) with its centre
at the row's ``x`` and ``y``, measured from the board's left and top edges: the spaces
of a score track, the cities of a map. Print shops get the board whole; home printers
get it in pieces of their paper that join exactly (``layout.components.board``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from deckforge.errors import SourceRef
from deckforge.kinds import ComponentKind, Reader, Rows
from deckforge.model import Text
from deckforge.records import record
from deckforge.sources.rules import text_in
from deckforge.sources.source import Source
from deckforge.units import parse_length

#: The keys of a piece's row that place it rather than bind a field.
PLACE_KEYS = ("x", "y")


@record(frozen=True)
class BoardFace:
    """What a board's template binds: the board's id and its title."""

    id: str
    title: Text | None


@record(frozen=True)
class Piece:
    """One piece on a board: where its centre is (points from the board's left and top
    edges) and its row's values, which its template binds."""

    id: str
    x: float
    y: float
    values: Mapping[str, Text]
    #: Where its row is written.
    ref: SourceRef


@record(frozen=True)
class Pieces:
    """A board's pieces: the template each is drawn from, and its rows as data."""

    template: str
    pieces: tuple[Piece, ...]
    rows: Rows
    #: Where the template is named.
    named: SourceRef


@record(frozen=True)
class Board:
    """A board: its template, what the template binds, and its pieces."""

    id: str
    template: str
    face: BoardFace
    pieces: Pieces | None
    #: Where the template is named.
    ref: SourceRef
    #: The folder of the board's file (templates beside it are looked in).
    folder: Path


def _value(value: object, locale: str) -> str:
    """A row's value as template data: text in the edition's language, numbers as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return (text_in(value, locale) or "").strip()


def _pieces(source: Source, locale: str) -> Pieces | None:
    spec = source.data.get("pieces")
    if spec is None:
        return None
    pieces: list[Piece] = []
    fields: dict[str, None] = {}
    for index, row in enumerate(spec["at"]):
        values: dict[str, Text] = {}
        for key, value in row.items():
            if key in PLACE_KEYS:
                continue
            fields[key] = None
            path = ("pieces", "at", index, key)
            place = source.ref((*path, locale) if isinstance(value, dict) else path)
            values[key] = Text(_value(value, locale), place)
        where = source.ref(("pieces", "at", index))
        x, y = parse_length(row["x"]), parse_length(row["y"])
        pieces.append(Piece(f"piece-{index + 1}", x, y, values, where))
    rows = Rows(
        [piece.values for piece in pieces],
        tuple(fields),
        source.ref(("pieces", "at")),
        source.display,
        False,
        source.path.parent,
    )
    return Pieces(spec["template"], tuple(pieces), rows, source.ref(("pieces", "template")))


class BoardKind(ComponentKind):
    """A board of any size from a template, with pieces placed on it from data."""

    def component(self, id: str, source: Source, reader: Reader) -> Board:
        data = source.data
        title = reader.text(source, ("title",), data["title"]) if "title" in data else None
        return Board(
            id,
            data["template"],
            BoardFace(id, title),
            _pieces(source, reader.locale),
            source.ref(("template",)),
            source.path.parent,
        )

    def inputs(self, source: Source, root: Path) -> list[Path]:
        """The ``templates/`` folder beside the board's file."""
        return [source.path.parent / "templates"]

    def drawn_only(self, source: Source) -> set[Path]:
        """The ``templates/`` folder beside the board's file."""
        return {source.path.parent / "templates"}


KIND = BoardKind("board", listed=9)
