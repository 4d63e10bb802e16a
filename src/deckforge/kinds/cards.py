"""Decks of any game (``kind: cards``): cards drawn from templates, one card per row of
data.

The deck names the template of its faces and of its backs (one back for every card, or
a back chosen by a field of each card) and where its cards' data is: a CSV or XLSX file
(``data: cards.csv``; the first sheet of a workbook, or the one ``sheet`` names) whose
header row names the fields, or a list of ``cards`` in the deck's own YAML. An optional
``count`` says how many copies of a card to print. Every value keeps its place
(``cards.csv:12:7``, ``cards.xlsx!Cards:B12``, a YAML line), and the templates check
that the data has every field they bind, of the kind they need (text, number, colour,
icon, art path), before anything is drawn.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

from deckforge.art import images
from deckforge.errors import Problem, SourceRef, display_path
from deckforge.kinds import Checked, DeckKind, Look, Reader, Rows
from deckforge.model import Deck, Text
from deckforge.sources import tabular
from deckforge.sources.load import OUTSIDE, inside, outside_art, refusal
from deckforge.sources.rules import data_text
from deckforge.sources.source import Source

#: The folder beside a deck's file that holds templates of its own, as an edition's does
#: (``templates.load.EDITION_FOLDER``, which this layer comes before).
TEMPLATES_FOLDER = "templates"

#: The fields that name a card, in the order they are looked for, when the deck does
#: not say which (``card_name``).
NAME_FIELDS = ("name", "title")


@dataclass(frozen=True)
class Data:
    """What a deck's cards share: the template of their faces, and where their data is
    (the file or YAML list, and the fields it names)."""

    face: str
    display: str
    fields: tuple[str, ...]
    #: The header row, or the list of cards.
    ref: SourceRef
    #: Whether the fields are a spreadsheet's columns (else keys in YAML).
    columns: bool
    #: The folder art paths in the data are relative to.
    folder: Path
    #: The folder of the deck's file (templates of its own may be beside it).
    deck_folder: Path
    #: Where the deck's file names each template (its face, its backs).
    named: Mapping[str, SourceRef]
    #: The project folder: no picture a value names is read outside it.
    root: Path


class Value(Protocol):
    """A card's value: its text as written (numbers as text) and its place."""

    @property
    def value(self) -> str: ...

    @property
    def ref(self) -> SourceRef: ...


@dataclass(frozen=True)
class DataCard:
    """A card that is a row of data: its values by field, each with its place."""

    id: str
    #: Field → value (``value``: the text as written; ``ref``: its place).
    values: Mapping[str, Value]
    #: What players call it.
    name: str
    #: The template of its back (None: blank).
    back: str | None
    data: Data


@dataclass
class _Row:
    values: Mapping[str, Value]
    copies: int
    ref: SourceRef


@dataclass
class _Read:
    """A deck's rows as read, or the problems that stop them."""

    data: Data | None
    rows: list[_Row]
    problems: list[Problem]


#: Tables read in this process, by file, state and sheet (validation and the model read
#: the same file; a watch session reads it again only when it changes).
_TABLES: dict[tuple, tuple[tabular.Table | None, list[Problem]]] = {}
_KEEP = 8


def _table(path: Path, display: str, sheet: str | None, sheet_ref: SourceRef | None):
    stat = path.stat()
    key = (path.resolve(), stat.st_mtime_ns, stat.st_size, display, sheet, sheet_ref)
    if key not in _TABLES:
        if len(_TABLES) >= _KEEP:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = tabular.read_table(path, display, sheet, sheet_ref)
    return _TABLES[key]


def _from_file(source: Source, root: Path) -> _Read:
    name = source.data["data"]
    ref = source.ref(("data",))
    path = source.path.parent / name
    if Path(name).is_absolute() or not inside(path, root):
        message = f"'{name}' is outside the project folder; card data must stay inside it"
        return _Read(None, [], [Problem(ref, message)])
    if not name.lower().endswith((".csv", ".xlsx")):
        return _Read(None, [], [Problem(ref, f"'{name}' is not a .csv or .xlsx file")])
    if not path.is_file():
        return _Read(None, [], [Problem(ref, f"the card data file '{name}' does not exist")])
    sheet = source.data.get("sheet")
    if sheet is not None and path.suffix.lower() != ".xlsx":
        message = "'sheet' names a sheet of an XLSX workbook; this deck's data is a CSV file"
        return _Read(None, [], [Problem(source.ref(("sheet",)), message)])
    sheet_ref = source.ref(("sheet",)) if sheet is not None else None
    table, problems = _table(path, display_path(path, root), sheet, sheet_ref)
    if table is None:
        return _Read(None, [], problems)
    data = Data(
        source.data["face"],
        table.display,
        table.fields,
        table.ref,
        True,
        path.parent,
        source.path.parent,
        _named(source),
        root,
    )
    rows = [
        _Row(values, copies, ref)
        for values, copies, ref in zip(table.rows, table.counts, table.row_refs, strict=True)
    ]
    return _Read(data, rows, [])


def _from_yaml(source: Source, root: Path, locale: str) -> _Read:
    rows: list[_Row] = []
    problems: list[Problem] = []
    fields: dict[str, None] = {}
    for index, card in enumerate(source.data["cards"]):
        values: dict[str, Value] = {}
        copies = 1
        for key, value in card.items():
            place = source.ref(("cards", index, key))
            if key == tabular.COUNT:
                whole = tabular.whole_count(value) if isinstance(value, int) else None
                if whole is None:
                    problems.append(Problem(place, tabular.count_problem(value)))
                else:
                    copies = whole
                continue
            if key in tabular.RESERVED:
                message = f"'{key}' names the {key}'s values in templates; call the field otherwise"
                problems.append(Problem(source.ref(("cards", index, key)), message))
                continue
            fields[key] = None
            if isinstance(value, dict):
                place = source.ref(("cards", index, key, locale))
            values[key] = Text(data_text(value, locale), place)
        rows.append(_Row(values, copies, source.ref(("cards", index))))
    data = Data(
        source.data["face"],
        source.display,
        tuple(fields),
        source.ref(("cards",)),
        False,
        source.path.parent,
        source.path.parent,
        _named(source),
        root,
    )
    return _Read(data if not problems else None, rows, problems)


def _named(source: Source) -> dict[str, SourceRef]:
    """Where the deck's file names each template: its face, its back or backs."""
    named: dict[str, SourceRef] = {}
    back = source.data.get("back")
    if isinstance(back, dict):
        for value, name in back["templates"].items():
            named.setdefault(name, source.ref(("back", "templates", value)))
        if "default" in back:
            named.setdefault(back["default"], source.ref(("back", "default")))
    elif back is not None:
        named[back] = source.ref(("back",))
    named[source.data["face"]] = source.ref(("face",))
    return named


def _read(source: Source, root: Path, locale: str) -> _Read:
    if ("data" in source.data) == ("cards" in source.data):
        message = "give the cards' data: 'data: cards.csv' (CSV or XLSX) or a list of 'cards'"
        return _Read(None, [], [Problem(source.ref(), message)])
    if "data" in source.data:
        return _from_file(source, root)
    return _from_yaml(source, root, locale)


def _named_picture(value: str) -> bool:
    return value.lower().endswith(images.SUFFIXES)


def _outside(value: str, folder: Path, root: Path) -> bool:
    """Whether a value naming a picture leads out of the project (absolute, ``..`` or a
    link), looked at without reading anything there."""
    return Path(value).is_absolute() or refusal(folder / value, root) == OUTSIDE


def _pictures(data: Data, values) -> tuple[Path, ...]:
    """The picture files among a card's values: those naming a picture that exists inside
    the project (the deck's rules report one outside it)."""
    return tuple(
        data.folder / value.value
        for value in values
        if _named_picture(value.value)
        and not Path(value.value).is_absolute()
        and refusal(data.folder / value.value, data.root) is None
    )


def _outside_pictures(read: _Read, data: Data) -> Iterator[Problem]:
    """A value naming a picture outside the project: never read, and an error at its cell,
    whether a template draws it or not (the build's record would read it)."""
    folder, root = data.folder, data.root
    for row in read.rows:
        for value in row.values.values():
            if _named_picture(value.value) and _outside(value.value, folder, root):
                yield Problem(value.ref, outside_art(value.value))


def _place(ref: SourceRef) -> str:
    """A row's place as messages give it: the cell, or the line."""
    return ref.cell or f"line {ref.line}"


def _back(spec: str | dict | None, row: _Row) -> tuple[str | None, Problem | None]:
    """A row's back template: the deck's, or the one its field chooses."""
    if not isinstance(spec, dict):
        return spec, None
    cell = row.values.get(spec["by"])
    value = getattr(cell, "value", None)
    if value in spec["templates"]:
        return spec["templates"][value], None
    if "default" in spec:
        return spec["default"], None
    known = ", ".join(spec["templates"])
    if cell is None:
        message = f"the card's '{spec['by']}' is not set, and the backs are chosen by it ({known})"
        return None, Problem(row.ref, f"{message}; set it or give 'back.default'")
    message = f"{value!r} chooses no back (the backs by '{spec['by']}': {known})"
    return None, Problem(cell.ref, f"{message}; add it to 'back.templates' or give 'back.default'")


class Cards(DeckKind):
    """Any game's cards: templates for the faces and backs, data from CSV, XLSX or YAML."""

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        read = _read(source, checked.root, checked.locale)
        yield from read.problems
        if read.data is None:
            return
        yield from self._rows(source, read, read.data)

    def _rows(self, source: Source, read: _Read, data: Data) -> Iterator[Problem]:
        """Ids unique, backs chosen, fields named, at least one card."""
        seen: dict[str, SourceRef] = {}
        back = source.data.get("back")
        # A field no card has is said once, below, rather than for every card.
        by_known = not isinstance(back, dict) or back["by"] in data.fields
        for row in read.rows:
            cell = row.values.get("id")
            if cell is not None:
                if cell.value in seen:
                    first = _place(seen[cell.value])
                    yield Problem(cell.ref, f"duplicate id '{cell.value}' (also at {first})")
                seen.setdefault(cell.value, cell.ref)
            _, problem = _back(back, row) if by_known else (None, None)
            if problem is not None:
                yield problem
        field = source.data.get("card_name")
        if field is not None and field not in data.fields:
            where = source.ref(("card_name",))
            yield Problem(where, f"{data.display} has no field '{field}' to name cards by")
        if not by_known:
            where = source.ref(("back", "by"))
            yield Problem(where, f"{data.display} has no field '{back['by']}' to choose backs")
        if not any(row.copies for row in read.rows):
            yield Problem(data.ref, "there are no cards: give a row for each card")
        total = sum(row.copies for row in read.rows)
        if total > tabular.MAX_CARDS:
            most = tabular.MAX_CARDS
            message = f"the rows make {total:,} cards; a deck may have at most {most:,}"
            yield Problem(data.ref, message)
        yield from _outside_pictures(read, data)

    def count(self, source: Source, checked: Checked) -> int:
        read = _read(source, checked.root, checked.locale)
        return sum(row.copies for row in read.rows)

    def cards(self, source: Source, reader: Reader) -> list[DataCard]:
        read = _read(source, reader.loaded.root, reader.locale)
        data = read.data
        if data is None:
            return []  # the data could not be read: its problems say why
        if sum(row.copies for row in read.rows) > tabular.MAX_CARDS:
            return []  # too many to print: refused by the rules, never laid out
        named = source.data.get("card_name")
        cards: list[DataCard] = []
        for number, row in enumerate(read.rows, start=1):
            values = row.values
            identity = values["id"].value if "id" in values else f"#{number}"
            name_field = named or next((f for f in NAME_FIELDS if f in values), "id")
            name = values[name_field].value if name_field in values else identity
            back, _ = _back(source.data.get("back"), row)
            card = DataCard(identity, values, name, back, data)
            cards.extend([card] * row.copies)
        return cards

    def look(self, deck: Deck) -> Look:
        """The deck's own templates; the cards' values, to be checked against them."""
        first = deck.cards[0] if deck.cards else None
        if not isinstance(first, DataCard):
            return Look("", None)  # no data was read: nothing to draw
        cards = cast("tuple[DataCard, ...]", deck.cards)  # a deck's cards are of its kind
        backs = tuple(card.back for card in cards)
        data = first.data
        rows = Rows(
            [card.values for card in cards],
            data.fields,
            data.ref,
            data.display,
            data.columns,
            data.folder,
        )
        back = backs[0] if len(set(backs)) == 1 else backs
        return Look(data.face, back, rows, data.deck_folder, data.named)

    def card_name(self, card: DataCard, locale: str) -> str:
        """The field the deck names cards by (``card_name``), else ``name`` or
        ``title``, else the card's id."""
        return card.name

    def card_art(self, card: DataCard) -> tuple[Path, ...]:
        """The picture files its values name (a value that is a path to a picture)."""
        return _pictures(card.data, card.values.values())

    def inputs(self, source: Source, root: Path) -> list[Path]:
        """The data file, the picture files its values name, and the ``templates/``
        folder beside the deck's file (its listing and files)."""
        found = [source.path.parent / TEMPLATES_FOLDER]
        if isinstance(source.data.get("data"), str):
            found.append(source.path.parent / source.data["data"])
        read = _read(source, root, "")
        if read.data is not None:
            for row in read.rows:
                found.extend(_pictures(read.data, row.values.values()))
        return list(dict.fromkeys(found))

    def drawn_only(self, source: Source) -> set[Path]:
        """The ``templates/`` folder beside the deck's file."""
        return {source.path.parent / TEMPLATES_FOLDER}


KIND = Cards("cards", listed=0)
