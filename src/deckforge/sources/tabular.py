"""Card data from spreadsheets: CSV and XLSX files, one card per row.

The header row names the fields; each later row is a card. Every value keeps where it
is, so problems point at it: ``cards.csv:12:7`` (the line and the character column of
the cell, as editors count them, so the caret lands on it) and ``cards.xlsx!Sheet1:B12``
(the sheet and the cell, as spreadsheets name them). An optional ``count`` column says
how many copies of a row's card to print. Empty cells are fields that are not set.

CSV files are UTF-8 (Excel's "CSV UTF-8"), separated by commas, semicolons or tabs
(whichever the header row uses), quoted with double quotes. XLSX files are read with
openpyxl, the first sheet unless one is named; formulas give the values Excel last
calculated.
"""

from __future__ import annotations

import datetime
import re
import zipfile
from pathlib import Path

from deckforge.errors import Problem, SourceRef, close_matches
from deckforge.fsutil import kind_of, read_regular
from deckforge.records import field, record
from deckforge.text.script import BIDI_OVERRIDES

#: Largest data file read, in bytes.
MAX_FILE_BYTES = 32 * 1024 * 1024
#: Most rows (cards) a file may have.
MAX_ROWS = 100_000
#: The column that says how many copies of a row to print.
COUNT = "count"
#: Field names bindings read as the deck's and edition's values, so no column may take.
RESERVED = ("deck", "edition", "palette")
_DELIMITERS = (",", ";", "\t")
#: Characters that never belong in card text: controls other than tab and newline, and
#: the bidi overrides, which can disguise text.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + "".join(sorted(BIDI_OVERRIDES)) + "]")


@record(frozen=True)
class Cell:
    """A value of a table (text as written, numbers as text) and where it is."""

    value: str
    ref: SourceRef


@record
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
        grid, problems = _xlsx_grid(path, display, sheet, sheet_ref)
    elif suffix == ".csv":
        grid, problems = _csv_grid(read_regular(path), display)
    else:
        return None, [Problem(SourceRef(display), "card data is read from .csv or .xlsx files")]
    if grid is None:
        return None, problems
    return _table(path, display, grid)


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
        i, line, column = 0, 1, 1
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
            record.append(Cell(value.strip(), SourceRef(self.display, start_line, start_column)))
            if i < length and text[i] == delimiter:
                i, column = i + 1, column + 1
                continue
            # The end of a record: a line break or the end of the text.
            if any(cell.value for cell in record):
                records.append(record)
                if len(records) > MAX_ROWS + 1:
                    ref = SourceRef(self.display, line, 1)
                    return None, [Problem(ref, f"more than {MAX_ROWS:,} rows")]
            record = []
            if i < length and text[i] == "\r" and text[i + 1 : i + 2] == "\n":
                i += 1
            i, line, column = i + 1, line + 1, 1
        return records, []


# --- XLSX -----------------------------------------------------------------------------


def _xlsx_grid(
    path: Path, display: str, sheet: str | None, sheet_ref: SourceRef | None
) -> tuple[list[list[Cell]] | None, list[Problem]]:
    import openpyxl
    from openpyxl.utils import get_column_letter
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        reason = "it is not an XLSX workbook" if isinstance(exc, zipfile.BadZipFile) else exc
        return None, [Problem(SourceRef(display), f"cannot read the workbook: {reason}")]
    try:
        names = book.sheetnames
        if sheet is None:
            sheet = names[0]
        elif sheet not in names:
            guess = close_matches(sheet, names)
            hint = f"; did you mean '{guess[0]}'?" if guess else f" (sheets: {', '.join(names)})"
            where = sheet_ref or SourceRef(display)
            return None, [Problem(where, f"{display} has no sheet '{sheet}'{hint}")]
        grid: list[list[Cell]] = []
        for row_number, row in enumerate(book[sheet].iter_rows(values_only=True), start=1):
            cells = []
            for column, value in enumerate(row, start=1):
                cell = f"{sheet}:{get_column_letter(column)}{row_number}"
                ref = SourceRef(display, row_number, column, cell=cell)
                cells.append(Cell(_spreadsheet_text(value), ref))
            if any(c.value for c in cells):
                grid.append(cells)
                if len(grid) > MAX_ROWS + 1:
                    return None, [Problem(cells[0].ref, f"more than {MAX_ROWS:,} rows")]
    finally:
        book.close()
    return grid, []


def _spreadsheet_text(value: object) -> str:
    """A cell's value as text: whole numbers without '.0', dates as YYYY-MM-DD."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value).strip()


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
            text = values.pop(COUNT).value
            try:
                copies = int(float(text)) if float(text).is_integer() else -1
            except ValueError:
                copies = -1
            if copies < 0:
                problems.append(
                    Problem(row[names.index(COUNT)].ref, f"count {text!r} is not a whole number")
                )
                copies = 0
        table.rows.append(values)
        table.row_refs.append(row[0].ref)
        table.counts.append(copies)
    return (None, problems) if problems else (table, [])
