"""The cells of one sheet of a workbook, read as its part is parsed: each cell checked
and bounded as it comes (its name within the sheet's last column and row, its text
within a cell's length), values turned to text as the spreadsheet shows them."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import NoReturn

from deckforge.errors import SourceRef
from deckforge.sources import tabular

#: A spreadsheet's last column (XFD) and row.
LAST_COLUMN = 16_384
LAST_ROW = 1_048_576
_REFERENCE = re.compile(r"([A-Z]{1,3})([1-9][0-9]{0,6})")


def column_letters(column: int) -> str:
    """A column's name as spreadsheets give it: 1 is A, 27 is AA."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def column_number(letters: str) -> int:
    """A column's number from its name: A is 1, AA is 27."""
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number


def integer(text: str | None) -> int:
    """A whole number written in a part, or -1."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 9:
        return -1
    return int(text)


class SheetReader:
    """A sheet's cells that hold values, row by row, as its part is parsed."""

    def __init__(
        self,
        refuse: Callable[[str, SourceRef | None], NoReturn],
        display: str,
        sheet: str,
        strings: list[str],
        dates: tuple,
    ):
        self.stop, self.display = refuse, display
        self.sheet, self.strings = sheet, strings
        self.dates, self.durations, self.date1904 = dates
        self.rows: list[tuple[int, dict[int, str]]] = []
        self.values: dict[int, str] = {}
        self.row = self.column = 0
        #: Cells the sheet writes, and cells of the table (each row to its last value).
        self.cells = self.table = 0
        self.in_data = False
        #: The cell being read (its type and style), its text so far, and whether text
        #: is being gathered (a value, or the text of an inline string).
        self.cell: tuple[str, int] | None = None
        self.pieces: list[str] = []
        self.length = 0
        self.gather = False
        self.phonetic = 0

    def handlers(self) -> dict[str, Callable]:
        """What the parser calls."""
        return {"start": self.start, "end": self.end, "text": self.text}

    def place(self, row: int, column: int) -> SourceRef:
        """A cell's place: ``book.xlsx!Sheet:B12``."""
        name = f"{self.sheet}:{column_letters(column)}{row}"
        return SourceRef(self.display, row, column, cell=name)

    def refuse(self, message: str, at_cell: bool = True) -> NoReturn:
        """Stop reading with this problem, at the cell being read or at the sheet."""
        place = self.place(self.row, self.column) if at_cell else None
        where = "" if at_cell else f"the sheet '{self.sheet}': "
        self.stop(f"{where}{message}", place)

    def start(self, tag: str, attributes: dict[str, str]) -> None:
        """An element opens: a row, a cell, or the value or text of a cell."""
        if tag == "sheetData":
            self.in_data = True
        elif not self.in_data:
            return
        elif tag == "row":
            self.start_row(attributes.get("r"))
        elif tag == "c":
            self.start_cell(attributes.get("r"), attributes.get("t", "n"), attributes.get("s"))
        elif self.cell is None:
            return
        elif tag == "rPh":
            self.phonetic += 1
        elif tag == "v" and self.cell[0] != "inlineStr":
            self.gather = True
        elif tag == "t" and self.cell[0] == "inlineStr" and not self.phonetic:
            self.gather = True

    def end(self, tag: str) -> None:
        """An element closes: a cell's value is kept, a row's cells are counted."""
        if tag == "sheetData":
            self.in_data = False
        elif tag in ("v", "t"):
            self.gather = False
        elif tag == "rPh":
            self.phonetic -= 1
        elif tag == "c" and self.cell is not None:
            self.end_cell()
        elif tag == "row" and self.in_data:
            self.end_row()

    def text(self, data: str) -> None:
        """Text, kept while a value is gathered, to one character past a cell's bound."""
        if self.gather and self.length <= tabular.MAX_CELL_CHARS:
            self.pieces.append(data[: tabular.MAX_CELL_CHARS + 1 - self.length])
            self.length += len(self.pieces[-1])

    def start_row(self, number: str | None) -> None:
        """A row opens: its number is the next, or the one it gives, within the sheet."""
        row = self.row + 1 if number is None else integer(number)
        if row < 1:
            shown = (number or "")[:20]
            self.refuse(f"the row number {shown!r} is not a whole number", at_cell=False)
        if row <= self.row:
            self.refuse(f"row {row:,} comes after row {self.row:,}", at_cell=False)
        if row > LAST_ROW:
            self.refuse(f"row {row:,} is past a sheet's last row ({LAST_ROW:,})", at_cell=False)
        self.row, self.column, self.values = row, 0, {}

    def start_cell(self, reference: str | None, kind: str, style: str | None) -> None:
        """A cell opens: its column is the next, or the one it names, in its own row."""
        self.cells += 1
        if self.cells > tabular.MAX_CELLS:
            self.refuse(f"it has more than {tabular.MAX_CELLS:,} cells", at_cell=False)
        column = self.column + 1
        if reference is not None:
            found = _REFERENCE.fullmatch(reference)
            if found is None:
                self.refuse(f"row {self.row:,} has a cell named {reference[:20]!r}", at_cell=False)
            column = column_number(found[1])
            if column > LAST_COLUMN:
                message = f"the cell {reference} is past a spreadsheet's last column (XFD)"
                self.refuse(message, at_cell=False)
            if int(found[2]) != self.row:
                self.refuse(f"the cell {reference} is in row {self.row:,}", at_cell=False)
            if column <= self.column:
                self.refuse(f"the cell {reference} is given twice, or out of order", at_cell=False)
        self.column = column
        number = integer(style) if style is not None else 0
        if number < 0:
            self.refuse(f"the cell's style {(style or '')[:20]!r} is not a whole number")
        self.cell, self.pieces, self.length, self.phonetic = (kind, number), [], 0, 0

    def end_cell(self) -> None:
        """A cell closes: its value as text, kept if it is not empty."""
        text = self.value("".join(self.pieces))
        self.cell = None
        if not text:
            return
        if len(text) > tabular.MAX_CELL_CHARS:
            self.refuse(f"the cell holds more than {tabular.MAX_CELL_CHARS:,} characters")
        if self.column > tabular.MAX_COLUMNS:
            self.refuse(f"a value in column {self.column:,}, past {tabular.MAX_COLUMNS:,} columns")
        self.values[self.column] = text

    def end_row(self) -> None:
        """A row closes: kept if it holds a value, counted against the table's bounds."""
        if not self.values:
            return
        self.rows.append((self.row, self.values))
        self.table += max(self.values)
        if len(self.rows) > tabular.MAX_ROWS + 1:
            self.refuse(f"more than {tabular.MAX_ROWS:,} rows")
        if self.table > tabular.MAX_CELLS:
            self.refuse(f"more than {tabular.MAX_CELLS:,} cells")

    def value(self, raw: str) -> str:
        """A cell's value as text: numbers as written (whole numbers without '.0'),
        dates as YYYY-MM-DD, booleans as TRUE and FALSE."""
        assert self.cell is not None, "a value is read inside a cell"
        kind, style = self.cell
        if kind == "inlineStr" or (kind in ("str", "e") and raw):
            return raw.strip()
        if not raw:
            return ""
        if kind == "n":
            return self.number(raw, style)
        if kind == "s":
            index = integer(raw)
            if not 0 <= index < len(self.strings):
                self.refuse(f"the cell names shared string {raw[:20]!r}, which the workbook lacks")
            return self.strings[index].strip()
        if kind == "b" and raw in ("0", "1"):
            return "TRUE" if raw == "1" else "FALSE"
        if kind == "d":
            from openpyxl.utils.datetime import from_ISO8601

            try:
                return _text(from_ISO8601(raw))
            except (ValueError, TypeError):
                self.refuse(f"{raw[:40]!r} is not a date")
        self.refuse(f"the cell's value {raw[:40]!r} is not of its type ({kind[:20]!r})")

    def number(self, raw: str, style: int) -> str:
        """A number as text, or the date or duration it is when its style says so."""
        try:
            value = float(raw) if any(c in raw for c in ".eE") else int(raw)
        except ValueError:
            self.refuse(f"{raw[:40]!r} is not a number")
        if style not in self.dates:
            return _text(value)
        from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH, from_excel

        epoch = MAC_EPOCH if self.date1904 else WINDOWS_EPOCH
        try:
            return _text(from_excel(value, epoch, timedelta=style in self.durations))
        except (OverflowError, ValueError):
            self.refuse(f"{raw[:40]} is a date, and no date a spreadsheet can show")

    def grid(self) -> list[list[tabular.Cell]]:
        """Each row that holds a value, out to its last value."""
        return [
            [tabular.Cell(values.get(c, ""), self.place(row, c)) for c in range(1, max(values) + 1)]
            for row, values in self.rows
        ]


def _text(value: object) -> str:
    """A value as text: whole numbers without '.0', dates as YYYY-MM-DD."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value).strip()
