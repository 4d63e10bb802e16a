"""Card data from spreadsheets: CSV and XLSX files, one card per row.

The header row names the fields; each later row is a card. Every value keeps where it
is, so problems point at it: ``cards.csv:12:7`` (the line and the character column of
the cell, as editors count them, so the caret lands on it) and ``cards.xlsx!Sheet1:B12``
(the sheet and the cell, as spreadsheets name them). An optional ``count`` column says
how many copies of a row's card to print (a whole number up to ``MAX_COPIES``). Empty
cells are fields that are not set; a CSV row writes every cell of the header, the empty
ones as nothing between separators, so a shorter row is a problem at the row.

CSV files are UTF-8 (Excel's "CSV UTF-8"), separated by commas, semicolons or tabs
(whichever the header row uses), quoted with double quotes. XLSX files are read by
``sources.xlsx``, the first sheet unless one is named; formulas give the values Excel
last calculated. Files, rows, columns, cells and each cell's text are bounded (below),
so a hostile file is a problem with its place, never a process out of memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from deckforge.errors import Problem, SourceRef
from deckforge.fsutil import kind_of, read_regular
from deckforge.text.script import BIDI_OVERRIDES

#: Largest data file read, in bytes.
MAX_FILE_BYTES = 32 * 1024 * 1024
#: Most rows (cards) a file may have.
MAX_ROWS = 100_000
#: Most columns (fields, with any unnamed ones between) a row may have.
MAX_COLUMNS = 1_000
#: Most cells a table may have, every row counted to its last cell.
MAX_CELLS = 1_000_000
#: Most characters a cell may hold (as a card's value written in YAML may).
MAX_CELL_CHARS = 2_000
#: Most copies of one row's card (``count``), and most cards of a deck's rows together.
MAX_COPIES = 10_000
MAX_CARDS = 100_000
#: The column that says how many copies of a row to print.
COUNT = "count"
#: Field names bindings read as the deck's and edition's values, so no column may take.
RESERVED = ("deck", "edition", "palette")
_DELIMITERS = (",", ";", "\t")
#: Characters that never belong in card text: controls other than tab and newline, and
#: the bidi overrides, which can disguise text.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + "".join(sorted(BIDI_OVERRIDES)) + "]")


@dataclass(frozen=True)
class Cell:
    """A value of a table (text as written, numbers as text) and where it is."""

    value: str
    ref: SourceRef


@dataclass
class Table:
    """A sheet of card data: its fields (header) and rows, each value with its place."""

    path: Path
    display: str
    fields: tuple[str, ...]
    #: Where each field's header cell is.
    header: dict[str, SourceRef]
    #: Each row's set cells by field (empty cells are left out).
    rows: list[dict[str, Cell]] = field(default_factory=list)
    #: Where each row starts.
    row_refs: list[SourceRef] = field(default_factory=list)
    #: Copies of each row (its ``count``, else 1).
    counts: list[int] = field(default_factory=list)

    @property
    def ref(self) -> SourceRef:
        """The header row."""
        return next(iter(self.header.values()), SourceRef(self.display))


def read_table(
    path: Path, display: str, sheet: str | None = None, sheet_ref: SourceRef | None = None
) -> tuple[Table | None, list[Problem]]:
    """A CSV or XLSX file's rows (``sheet`` names an XLSX sheet; the first by default)."""
    try:
        size = path.stat().st_size
        kind = kind_of(path)  # a named pipe would never be read to its end
    except FileNotFoundError:
        return None, [Problem(SourceRef(display), "no such file")]
    except OSError as exc:
        return None, [Problem(SourceRef(display), f"cannot read the file: {exc.strerror}")]
    if kind is not None:
        return None, [Problem(SourceRef(display), f"cannot read the file: it is {kind}")]
    if size > MAX_FILE_BYTES:
        limit = f"the file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}"
        return None, [Problem(SourceRef(display), limit)]
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        from deckforge.sources import xlsx

        grid, problems = xlsx.read_sheet(read_regular(path), display, sheet, sheet_ref)
    elif suffix == ".csv":
        grid, problems = _csv_grid(read_regular(path), display)
        if grid is not None:
            problems = _short_rows(grid)
    else:
        return None, [Problem(SourceRef(display), "card data is read from .csv or .xlsx files")]
    if grid is None:
        return None, problems
    table, found = _table(path, display, grid)
    found = problems + found
    return (None, found) if found else (table, [])


# --- CSV ------------------------------------------------------------------------------


def _csv_grid(raw: bytes, display: str) -> tuple[list[list[Cell]] | None, list[Problem]]:
    if raw.startswith(b"PK\x03\x04"):
        message = "this is a spreadsheet workbook, not CSV text; name it .xlsx"
        return None, [Problem(SourceRef(display, 1, 1), message)]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        message = "the file is saved as UTF-16 ('Unicode text'); save it as 'CSV UTF-8'"
        return None, [Problem(SourceRef(display, 1, 1), message)]
    if b"\x00" in raw:
        line, column = _line_column(raw, raw.index(b"\x00"))
        message = "the file contains a NUL byte; is it a binary file?"
        return None, [Problem(SourceRef(display, line, column), message)]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = _line_column(raw, exc.start)
        message = f"the file is not UTF-8 (byte 0x{raw[exc.start]:02x}); save it as 'CSV UTF-8'"
        return None, [Problem(SourceRef(display, line, column), message)]
    return _CsvReader(text, display).read()


def _line_column(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    line = before.count(b"\n") + 1
    start = before.rfind(b"\n") + 1
    return line, len(raw[start:offset].decode("utf-8", "replace")) + 1


class _CsvReader:
    """RFC 4180 CSV, keeping each cell's line and column (which the csv module does not
    give)."""

    def __init__(self, text: str, display: str):
        self.text = text
        self.display = display
        first = text.split("\n", 1)[0]
        self.delimiter = max(_DELIMITERS, key=first.count) if first else ","

    def read(self) -> tuple[list[list[Cell]] | None, list[Problem]]:
        text, delimiter = self.text, self.delimiter
        records: list[list[Cell]] = []
        record: list[Cell] = []
        i, line, column, cells = 0, 1, 1, 0
        length = len(text)
        while i <= length:
            start_line, start_column = line, column
            value, quoted = "", i < length and text[i] == '"'
            if quoted:
                i, line, column = i + 1, line, column + 1
                while True:
                    if i >= length:
                        ref = SourceRef(self.display, start_line, start_column)
                        return None, [Problem(ref, "a quoted cell is never closed (missing '\"')")]
                    ch = text[i]
                    if ch == '"' and text[i + 1 : i + 2] == '"':
                        value, i, column = value + '"', i + 2, column + 2
                    elif ch == '"':
                        i, column = i + 1, column + 1
                        break
                    else:
                        value += ch
                        i += 1
                        line, column = (line + 1, 1) if ch == "\n" else (line, column + 1)
                        if len(value) > MAX_CELL_CHARS:
                            return None, [_too_long(self.display, start_line, start_column)]
                if i < length and text[i] not in (delimiter, "\n", "\r"):
                    ref = SourceRef(self.display, line, column)
                    message = f"unexpected {text[i]!r} after a quoted cell; quote the whole cell"
                    return None, [Problem(ref, message)]
            else:
                end = i
                while end < length and text[end] not in (delimiter, "\n", "\r"):
                    end += 1
                value = text[i:end]
                column += end - i
                i = end
            ref = SourceRef(self.display, start_line, start_column)
            if len(value) > MAX_CELL_CHARS:
                return None, [_too_long(self.display, start_line, start_column)]
            record.append(Cell(value.strip(), ref))
            if len(record) > MAX_COLUMNS:
                return None, [Problem(ref, f"more than {MAX_COLUMNS:,} columns")]
            if i < length and text[i] == delimiter:
                i, column = i + 1, column + 1
                continue
            # The end of a record: a line break or the end of the text.
            if any(cell.value for cell in record):
                records.append(record)
                cells += len(record)
                if len(records) > MAX_ROWS + 1:
                    ref = SourceRef(self.display, line, 1)
                    return None, [Problem(ref, f"more than {MAX_ROWS:,} rows")]
                if cells > MAX_CELLS:
                    ref = SourceRef(self.display, line, 1)
                    return None, [Problem(ref, f"more than {MAX_CELLS:,} cells")]
            record = []
            if i < length and text[i] == "\r" and text[i + 1 : i + 2] == "\n":
                i += 1
            i, line, column = i + 1, line + 1, 1
        return records, []


def _too_long(display: str, line: int, column: int) -> Problem:
    message = f"the cell holds more than {MAX_CELL_CHARS:,} characters"
    return Problem(SourceRef(display, line, column), message)


# --- rows -----------------------------------------------------------------------------


def _table(path: Path, display: str, grid: list[list[Cell]]) -> tuple[Table | None, list[Problem]]:
    if not grid:
        return None, [Problem(SourceRef(display, 1, 1), "the file has no header row")]
    problems: list[Problem] = []
    header: dict[str, SourceRef] = {}
    names: list[str | None] = []
    for position, cell in enumerate(grid[0], start=1):
        name = cell.value
        if not name:
            if any(len(row) >= position and row[position - 1].value for row in grid[1:]):
                problems.append(Problem(cell.ref, f"column {position} has values but no name"))
            names.append(None)
        elif name in header:
            line = header[name].cell or f"{header[name].line}:{header[name].column}"
            problems.append(
                Problem(cell.ref, f"the field '{name}' is named twice (also at {line})")
            )
            names.append(None)
        elif name in RESERVED:
            message = f"'{name}' names the {name}'s values in templates; call the field otherwise"
            problems.append(Problem(cell.ref, message))
            names.append(None)
        else:
            header[name] = cell.ref
            names.append(name)
    table = Table(path, display, tuple(n for n in header if n != COUNT), header)
    for row in grid[1:]:
        if len(row) > len(names) and any(c.value for c in row[len(names) :]):
            extra = next(c for c in row[len(names) :] if c.value)
            message = f"a value beyond the last named column ({len(names)} fields in the header)"
            problems.append(Problem(extra.ref, message))
        values = {name: cell for name, cell in zip(names, row, strict=False) if name and cell.value}
        for cell in values.values():
            found = _HIDDEN.search(cell.value)
            if found is not None:
                what = "direction override" if found.group() in BIDI_OVERRIDES else "control"
                message = f"contains the invisible {what} character U+{ord(found.group()):04X}"
                problems.append(Problem(cell.ref, f"{message}; remove it"))
        copies = 1
        if COUNT in values:
            cell = values.pop(COUNT)
            count = whole_count(cell.value)
            if count is None:
                problems.append(Problem(cell.ref, count_problem(cell.value)))
            copies = count or 0
        table.rows.append(values)
        table.row_refs.append(row[0].ref)
        table.counts.append(copies)
    return (None, problems) if problems else (table, [])


def _short_rows(grid: list[list[Cell]]) -> list[Problem]:
    """A CSV row with fewer cells than the header, at its first cell: a separator is
    missing, or the row was cut short (empty cells are written as nothing between
    separators, as spreadsheet programs save them)."""
    if not grid:
        return []
    width = max((n for n, cell in enumerate(grid[0], start=1) if cell.value), default=0)
    return [
        Problem(
            row[0].ref,
            f"the row has {len(row)} cells and the header {width}; "
            "write empty cells too, as nothing between two separators",
        )
        for row in grid[1:]
        if len(row) < width
    ]


_WHOLE = re.compile(r"([0-9]{1,9})(?:\.0*)?")


def whole_count(value: object) -> int | None:
    """A ``count``: a whole number from 0 to ``MAX_COPIES`` ('3', '3.0' or 3), else
    None (a fraction, a sign, 'nan', 'inf', anything bigger)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    else:
        found = _WHOLE.fullmatch(value) if isinstance(value, str) else None
        if found is None:
            return None
        number = int(found[1])
    return number if 0 <= number <= MAX_COPIES else None


def count_problem(value: object) -> str:
    """What is wrong with a ``count`` that is not one."""
    shown = repr(value) if len(repr(value)) <= 24 else f"{repr(value)[:20]}…"
    return f"count {shown} is not a whole number from 0 to {MAX_COPIES:,}"
