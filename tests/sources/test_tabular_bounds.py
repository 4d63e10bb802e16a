"""Card data that is too big or damaged: every bound of a CSV or XLSX file is a problem
naming the file and, where there is one, the cell; so is every damaged part of a
workbook. The big files are made here, small on disk and big unpacked."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import pytest
import workbooks as books

from deckforge.sources import tabular
from deckforge.sources.tabular import read_table

INLINE = '<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def _errors(path: Path, sheet: str | None = None) -> list[str]:
    table, problems = read_table(path, path.name, sheet)
    assert table is None
    return [p.format() for p in problems]


def _sheet(tmp_path: Path, rows: str, name: str = "book.xlsx") -> Path:
    return books.with_sheet(tmp_path / name, books.sheet(rows))


def _row(number: int, *cells: str) -> str:
    return f'<row r="{number}">{"".join(cells)}</row>'


def _text(ref: str, text: str) -> str:
    return INLINE.format(ref=ref, text=text)


HEADER = _row(1, _text("A1", "id"), _text("B1", "name"))


# --- XLSX: what the zip unpacks to --------------------------------------------------------


def test_shared_strings_that_unpack_past_the_bound_are_refused_as_they_unpack(tmp_path):
    path = books.shared_strings_bomb(tmp_path / "book.xlsx", 80 << 20, packed=False)
    assert path.stat().st_size < 8 << 20
    assert _errors(path) == [
        "book.xlsx: its part xl/sharedStrings.xml unpacks to over 67,108,864 bytes"
    ]


def test_an_inline_string_that_unpacks_past_the_bound_is_refused(tmp_path):
    path = books.inline_string_bomb(tmp_path / "book.xlsx", 80 << 20, packed=False)
    assert _errors(path) == [
        "book.xlsx: its part xl/worksheets/sheet1.xml unpacks to over 67,108,864 bytes"
    ]


def test_a_part_packed_a_hundred_times_smaller_than_it_unpacks_is_refused(tmp_path):
    path = books.inline_string_bomb(tmp_path / "book.xlsx", 4 << 20)
    assert _errors(path) == [
        "book.xlsx: its part xl/worksheets/sheet1.xml unpacks to more than 100 times its "
        "size in the file; is it damaged?"
    ]


@pytest.mark.slow  # unpacks a workbook up to its bound
def test_parts_that_together_unpack_past_the_bound_are_refused(tmp_path):
    parts = {f"xl/media/image{n}.bin": books.varied(b"", 60 << 20, b"") for n in range(3)}
    path = books.replaced(books.base(tmp_path / "book.xlsx"), parts)
    assert _errors(path) == ["book.xlsx: its parts unpack to more than 134,217,728 bytes"]


def test_a_workbook_of_too_many_parts_is_refused(tmp_path):
    parts = {f"xl/media/image{n}.png": b"" for n in range(1_000)}
    path = books.replaced(books.base(tmp_path / "book.xlsx"), parts)
    assert _errors(path) == ["book.xlsx: it has 1,009 parts; a workbook may have at most 1,000"]


def test_more_shared_strings_than_a_table_has_cells_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "MAX_CELLS", 1_000)
    path = books.many_shared_strings(tmp_path / "book.xlsx", 1_200)
    assert _errors(path) == ["book.xlsx: it has more than 1,000 shared strings"]


@pytest.mark.slow  # reads a workbook up to its bound
def test_twenty_million_shared_strings_are_refused_in_seconds(tmp_path):
    path = books.many_shared_strings(tmp_path / "book.xlsx", 20_000_000)
    started = time.monotonic()
    assert _errors(path) == ["book.xlsx: it has more than 1,000,000 shared strings"]
    assert time.monotonic() - started < 30


# --- XLSX: XML that is not a workbook's ----------------------------------------------------

DOCTYPE = (
    "book.xlsx: cannot read the workbook: xl/worksheets/sheet1.xml declares a document "
    "type (<!DOCTYPE>), which a workbook never does, as its entities could grow or read "
    "other files"
)


@pytest.mark.parametrize("part", [books.XXE, books.LAUGHS], ids=["external", "laughs"])
def test_a_sheet_that_declares_entities_is_refused(tmp_path, part):
    assert _errors(books.with_sheet(tmp_path / "book.xlsx", part)) == [DOCTYPE]


def test_a_document_type_in_a_part_the_table_does_not_need_is_refused_too(tmp_path):
    part = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'
    path = books.replaced(books.base(tmp_path / "book.xlsx"), {"docProps/custom.xml": part})
    assert _errors(path) == [
        "book.xlsx: cannot read the workbook: docProps/custom.xml declares a document type "
        "(<!DOCTYPE>), which a workbook never does, as its entities could grow or read "
        "other files"
    ]


@pytest.mark.parametrize(
    ("part", "message"),
    [
        (
            books.sheet('<row r="1"><c r="A1"><v>1</v></row>'),
            "xl/worksheets/sheet1.xml, line 1, column 158: mismatched tag",
        ),
        (b"<worksheet", "xl/worksheets/sheet1.xml, line 1, column 1: unclosed token"),
        (b"", "xl/worksheets/sheet1.xml, line 1, column 1: no element found"),
        (
            books.sheet("<x>" * 70 + "</x>" * 70),
            "xl/worksheets/sheet1.xml nests elements over 64 deep",
        ),
    ],
    ids=["mismatched", "unclosed", "empty", "deep"],
)
def test_a_sheet_that_is_not_well_formed_names_the_workbook_and_part(tmp_path, part, message):
    path = books.with_sheet(tmp_path / "book.xlsx", part)
    assert _errors(path) == [f"book.xlsx: cannot read the workbook: {message}"]


def test_a_damaged_part_names_the_workbook(tmp_path):
    path = books.base(tmp_path / "book.xlsx")
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as book:
        info = book.getinfo(books.SHEET)
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    raw[start + 5 : start + 9] = b"\xff\xff\xff\xff"
    path.write_bytes(bytes(raw))
    [message] = _errors(path)
    assert message.startswith(
        "book.xlsx: cannot read the workbook: its part xl/worksheets/sheet1.xml is damaged ("
    ), message


def test_a_sheet_whose_part_is_missing_names_it(tmp_path):
    path = books.base(tmp_path / "book.xlsx")
    with zipfile.ZipFile(path) as book:
        kept = {n: book.read(n) for n in book.namelist() if n != books.SHEET}
    with zipfile.ZipFile(path, "w") as book:
        for name, raw in kept.items():
            book.writestr(name, raw)
    assert _errors(path) == [
        "book.xlsx: cannot read the workbook: it names a part 'xl/worksheets/sheet1.xml' "
        "that it does not have"
    ]


# --- XLSX: cells --------------------------------------------------------------------------


def test_a_declared_dimension_of_every_cell_is_not_trusted(tmp_path):
    started = time.monotonic()
    table, problems = read_table(books.far_row(tmp_path / "book.xlsx"), "book.xlsx")
    assert problems == [] and time.monotonic() - started < 10
    assert [row["id"].ref.where for row in table.rows] == ["book.xlsx!Cards:A1048576"]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            _row(1, _text("XFE1", "x")),
            "book.xlsx: the sheet 'Cards': the cell XFE1 is past a spreadsheet's last column (XFD)",
        ),
        (
            _row(1, _text("AAAA1", "x")),
            "book.xlsx: the sheet 'Cards': row 1 has a cell named 'AAAA1'",
        ),
        (
            _row(1048577, _text("A1048577", "x")),
            "book.xlsx: the sheet 'Cards': row 1,048,577 is past a sheet's last row (1,048,576)",
        ),
        (
            HEADER + _row(1, _text("A1", "x")),
            "book.xlsx: the sheet 'Cards': row 1 comes after row 1",
        ),
        (_row(1, _text("B2", "x")), "book.xlsx: the sheet 'Cards': the cell B2 is in row 1"),
        (
            _row(1, _text("B1", "x"), _text("A1", "y")),
            "book.xlsx: the sheet 'Cards': the cell A1 is given twice, or out of order",
        ),
        (
            HEADER + _row(2, _text("A2", "x" * 2_001)),
            "book.xlsx!Cards:A2: the cell holds more than 2,000 characters",
        ),
        (
            HEADER + _row(2, _text("ALM2", "x")),
            "book.xlsx!Cards:ALM2: a value in column 1,001, past 1,000 columns",
        ),
        (
            HEADER + _row(2, '<c r="A2" t="s"><v>7</v></c>'),
            "book.xlsx!Cards:A2: the cell names shared string '7', which the workbook lacks",
        ),
        (HEADER + _row(2, '<c r="A2"><v>abc</v></c>'), "book.xlsx!Cards:A2: 'abc' is not a number"),
        (
            HEADER + _row(2, '<c r="A2" t="b"><v>2</v></c>'),
            "book.xlsx!Cards:A2: the cell's value '2' is not of its type ('b')",
        ),
        (
            HEADER + _row(2, '<c r="A2" t="d"><v>soon</v></c>'),
            "book.xlsx!Cards:A2: 'soon' is not a date",
        ),
        (
            HEADER + _row(2, '<c r="A2" s="x"><v>1</v></c>'),
            "book.xlsx!Cards:A2: the cell's style 'x' is not a whole number",
        ),
    ],
)
def test_cells_a_sheet_cannot_hold_are_refused_at_their_place(tmp_path, rows, message):
    assert _errors(_sheet(tmp_path, rows)) == [message]


def test_a_sheet_of_more_rows_than_a_table_may_have_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "MAX_ROWS", 3)
    rows = "".join(_row(n, _text(f"A{n}", f"r{n}")) for n in range(1, 6))
    assert _errors(_sheet(tmp_path, rows)) == ["book.xlsx!Cards:A5: more than 3 rows"]


def test_a_sheet_of_more_cells_than_a_table_may_have_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "MAX_CELLS", 10)
    wide = _row(2, _text("A2", "x"), _text("L2", "y"))
    assert _errors(_sheet(tmp_path, HEADER + wide)) == ["book.xlsx!Cards:L2: more than 10 cells"]
    empty = "".join(f'<c r="{chr(65 + n)}1"/>' for n in range(11))
    assert _errors(_sheet(tmp_path, _row(1, empty))) == [
        "book.xlsx: the sheet 'Cards': it has more than 10 cells"
    ]


def test_a_date_no_spreadsheet_can_show_is_refused_at_its_cell(tmp_path):
    path = books.base(tmp_path / "book.xlsx", [["id", "when"], ["a", 5]])
    import openpyxl

    book = openpyxl.load_workbook(path)
    book.active["B2"].number_format = "yyyy-mm-dd"
    book.active["B2"].value = 1
    book.save(path)
    with zipfile.ZipFile(path) as saved:
        part = saved.read(books.SHEET).replace(b"<v>1</v>", b"<v>1e20</v>")
    books.replaced(path, {books.SHEET: part})
    assert _errors(path) == [
        "book.xlsx!Cards:B2: 1e20 is a date, and no date a spreadsheet can show"
    ]


def test_a_chart_sheet_is_not_a_table(tmp_path):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["id"])
    book.create_chartsheet("Chart")
    book.save(tmp_path / "book.xlsx")
    assert _errors(tmp_path / "book.xlsx", "Chart") == [
        "book.xlsx: the sheet 'Chart' is a chart; name a sheet of cells"
    ]


def test_values_read_as_the_spreadsheet_shows_them(tmp_path):
    """Each kind of value as text, as before: numbers as written, whole ones without
    '.0', booleans, dates, formulas' last values, inline and rich text."""
    import datetime

    import openpyxl
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(["id", "n", "f", "b", "d", "t", "rich"])
    rich = CellRichText("plain ", TextBlock(InlineFont(b=True), "bold"))
    sheet.append(["a", 42, 2.5, True, datetime.date(2026, 12, 1), datetime.time(12, 30), rich])
    sheet.append(["b", -0.0, 1e20, False, datetime.datetime(2026, 1, 2, 3, 4), None, " x "])
    book.save(tmp_path / "book.xlsx")
    table, problems = read_table(tmp_path / "book.xlsx", "book.xlsx")
    assert problems == []
    assert [{k: c.value for k, c in row.items()} for row in table.rows] == [
        {
            "id": "a",
            "n": "42",
            "f": "2.5",
            "b": "TRUE",
            "d": "2026-12-01 00:00:00",
            "t": "12:30:00",
            "rich": "plain bold",
        },
        {
            "id": "b",
            "n": "0",
            "f": "100000000000000000000",
            "b": "FALSE",
            "d": "2026-01-02 03:04:00",
            "rich": "x",
        },
    ]


# --- CSV ------------------------------------------------------------------------------------


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cards.csv"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "id,q\na," + "x" * 2_001 + "\n",
            "cards.csv:2:3: the cell holds more than 2,000 characters",
        ),
        (
            'id,q\na,"' + "x\n" * 1_001 + '"\n',
            "cards.csv:2:3: the cell holds more than 2,000 characters",
        ),
        ("id" + ",x" * 1_000 + "\n", "cards.csv:1:2002: more than 1,000 columns"),
        (
            "id,question,answer,category\nq1,Why?,Because\n",
            "cards.csv:2:1: the row has 3 cells and the header 4; write empty cells too, as "
            "nothing between two separators",
        ),
    ],
    ids=["long", "long-quoted", "wide", "short"],
)
def test_csv_bounds_are_problems_at_their_place(tmp_path, text, message):
    assert _errors(_csv(tmp_path, text)) == [message]


def test_a_csv_row_may_end_with_empty_cells_written_out(tmp_path):
    table, problems = read_table(_csv(tmp_path, "id,q,a\nx,,\ny,z,\n"), "cards.csv")
    assert problems == [] and [len(row) for row in table.rows] == [1, 2]


def test_csv_of_more_cells_than_a_table_may_have_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "MAX_CELLS", 10)
    text = "a,b,c\n" + "x,y,z\n" * 3
    assert _errors(_csv(tmp_path, text)) == ["cards.csv:4:1: more than 10 cells"]


# --- counts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("count", ["1e9", "1e308", "nan", "inf", "1.5", "-3", "10001", "1_0"])
def test_a_count_that_is_not_a_whole_number_in_range_is_refused_at_its_cell(tmp_path, count):
    assert _errors(_csv(tmp_path, f"id,count\na,{count}\n")) == [
        f"cards.csv:2:3: count '{count}' is not a whole number from 0 to 10,000"
    ]


def test_counts_are_whole_numbers_up_to_ten_thousand(tmp_path):
    table, problems = read_table(_csv(tmp_path, "id,count\na,10000\nb,3.0\nc,0\n"), "cards.csv")
    assert problems == [] and table.counts == [10_000, 3, 0]


def test_a_part_packed_as_xlsx_never_is_is_refused(tmp_path):
    path = books.base(tmp_path / "book.xlsx")
    with zipfile.ZipFile(path) as book:
        parts = {info.filename: book.read(info) for info in book.infolist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        for name, raw in parts.items():
            kind = zipfile.ZIP_BZIP2 if name == books.SHEET else zipfile.ZIP_DEFLATED
            book.writestr(name, raw, compress_type=kind)
    assert _errors(path) == [
        "book.xlsx: cannot read the workbook: its part xl/worksheets/sheet1.xml is packed in "
        "a way XLSX never is"
    ]


def test_a_workbook_whose_table_of_contents_is_too_big_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "book.xlsx"
    with zipfile.ZipFile(path, "w") as book:
        for n in range(25_000):
            book.writestr(f"xl/media/{n:05}.png", b"")
    started = time.monotonic()
    assert _errors(path) == [
        "book.xlsx: its table of contents is over 1,048,576 bytes; a workbook has at most "
        "1,000 parts"
    ]
    assert time.monotonic() - started < 1


def test_csv_of_more_rows_than_a_table_may_have_is_refused(tmp_path):
    text = "id\n" + "".join(f"r{n}\n" for n in range(100_001))
    assert _errors(_csv(tmp_path, text)) == ["cards.csv:100002:1: more than 100,000 rows"]


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_data_file_over_32_mib_is_refused_unread(tmp_path, suffix):
    path = tmp_path / f"cards{suffix}"
    with path.open("wb") as out:
        out.truncate(32 * 1024 * 1024 + 1)
    assert _errors(path) == [
        f"cards{suffix}: the file is 33,554,433 bytes; the limit is 33,554,432"
    ]


def test_a_count_too_big_for_a_float_in_a_workbook_is_refused_at_its_cell(tmp_path):
    path = books.base(tmp_path / "book.xlsx", [["id", "count"], ["a", 1e308]])
    assert _errors(path) == [
        "book.xlsx!Cards:B2: count '1000000000000000010… is not a whole number from 0 to 10,000"
    ]
