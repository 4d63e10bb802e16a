"""Boards (``kind: board``): a board of any size drawn from a template, and pieces on it.

The board's template gives its trim (``width`` and ``height``) and draws it; the board
may give a ``title`` the template binds as ``{title}``. Optional ``pieces`` are rows of
data (listed under ``at``, or a CSV or XLSX file), each drawn from a template of its own
(its size is the piece's) with its centre
at the row's ``x`` and ``y``, measured from the board's left and top edges: the spaces
of a score track, the cities of a map. Print shops get the board whole; home printers
get it in pieces of their paper that join exactly (``layout.components.board``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from deckforge.errors import Problem, SourceRef, display_path
from deckforge.kinds import Checked, ComponentKind, Reader, Rows
from deckforge.model import Text
from deckforge.sources import tabular
from deckforge.sources.load import inside
from deckforge.sources.rules import data_text
from deckforge.sources.source import Source
from deckforge.units import parse_length

#: The keys of a piece's row that place it rather than bind a field.
PLACE_KEYS = ("x", "y")


@dataclass(frozen=True)
class BoardFace:
    """What a board's template binds: the board's id and its title."""

    id: str
    title: Text | None


@dataclass(frozen=True)
class Piece:
    """One piece on a board: where its centre is (points from the board's left and top
    edges) and its row's values, which its template binds."""

    id: str
    x: float
    y: float
    values: Mapping[str, Text]
    #: Where its row is written.
    ref: SourceRef


@dataclass(frozen=True)
class Pieces:
    """A board's pieces: the template each is drawn from, and its rows as data."""

    template: str
    pieces: tuple[Piece, ...]
    rows: Rows
    #: Where the template is named.
    named: SourceRef


@dataclass(frozen=True)
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


def _table(source: Source, root: Path) -> tuple[tabular.Table | None, list[Problem]]:
    """The pieces' CSV or XLSX table, or what is wrong with it: a file outside the
    project, of another kind, missing, or a row whose place is not a length."""
    name = source.data["pieces"]["data"]
    ref = source.ref(("pieces", "data"))
    path = source.path.parent / name
    if Path(name).is_absolute() or not inside(path, root):
        return None, [
            Problem(ref, f"'{name}' is outside the project folder; data must stay inside it")
        ]
    if not name.lower().endswith((".csv", ".xlsx")):
        return None, [Problem(ref, f"'{name}' is not a .csv or .xlsx file")]
    if not path.is_file():
        return None, [Problem(ref, f"the pieces' data file '{name}' does not exist")]
    table, problems = tabular.read_table(path, display_path(path, root))
    if table is None:
        return None, problems
    missing = [key for key in PLACE_KEYS if key not in table.fields]
    if missing:
        message = f"{table.display} has no column '{missing[0]}': each piece's x and y place it"
        return None, [Problem(table.ref, message)]
    for row, where in zip(table.rows, table.row_refs, strict=True):
        for key in PLACE_KEYS:
            cell = row.get(key)
            if cell is None:
                problems.append(Problem(where, f"the piece has no '{key}'"))
                continue
            try:
                parse_length(cell.value)
            except ValueError as exc:
                problems.append(Problem(cell.ref, str(exc)))
    return (None if problems else table), problems


def _pieces_of_table(source: Source, root: Path) -> Pieces | None:
    """The pieces of a CSV or XLSX table, one per row; None when it is not sound (the
    rules say why)."""
    table, _ = _table(source, root)
    if table is None:
        return None
    pieces = []
    for index, (row, where) in enumerate(zip(table.rows, table.row_refs, strict=True)):
        values = {k: Text(c.value, c.ref) for k, c in row.items() if k not in PLACE_KEYS}
        x, y = (parse_length(row[key].value) for key in PLACE_KEYS)
        pieces.append(Piece(f"piece-{index + 1}", x, y, values, where))
    fields = tuple(f for f in table.fields if f not in PLACE_KEYS)
    rows = Rows(
        [piece.values for piece in pieces],
        fields,
        table.ref,
        table.display,
        True,
        table.path.parent,
    )
    return Pieces(
        source.data["pieces"]["template"], tuple(pieces), rows, source.ref(("pieces", "template"))
    )


def _pieces(source: Source, locale: str, root: Path) -> Pieces | None:
    spec = source.data.get("pieces")
    if spec is None:
        return None
    if "data" in spec:
        return _pieces_of_table(source, root)
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
            values[key] = Text(data_text(value, locale), place)
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

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        spec = source.data.get("pieces")
        if spec is None:
            return
        if ("data" in spec) == ("at" in spec):
            message = "give the pieces' rows: 'data: pieces.csv' (CSV or XLSX) or a list 'at'"
            yield Problem(source.ref(("pieces",)), message)
        elif "data" in spec:
            yield from _table(source, checked.root)[1]

    def component(self, id: str, source: Source, reader: Reader) -> Board:
        data = source.data
        title = reader.text(source, ("title",), data["title"]) if "title" in data else None
        return Board(
            id,
            data["template"],
            BoardFace(id, title),
            _pieces(source, reader.locale, reader.loaded.root),
            source.ref(("template",)),
            source.path.parent,
        )

    def inputs(self, source: Source, root: Path) -> list[Path]:
        """The ``templates/`` folder beside the board's file, and the pieces' data file."""
        found = [source.path.parent / "templates"]
        data = source.data.get("pieces", {}).get("data")
        if isinstance(data, str):
            found.append(source.path.parent / data)
        return found

    def drawn_only(self, source: Source) -> set[Path]:
        """The ``templates/`` folder beside the board's file."""
        return {source.path.parent / "templates"}


KIND = BoardKind("board", listed=9)
