"""CSV and XLSX card data: rows with their places, and real messages for bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckforge.sources.tabular import read_table


def _csv(tmp_path: Path, content: str | bytes, name: str = "cards.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def _xlsx(tmp_path: Path, rows: list[list], sheet: str = "Cards", name: str = "cards.xlsx"):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Notes"
    book.active["A1"] = "not the cards"
    data = book.create_sheet(sheet, 0)
    for row in rows:
        data.append(row)
    path = tmp_path / name
    book.save(path)
    return path


def _errors(path: Path, sheet: str | None = None) -> list[str]:
    table, problems = read_table(path, path.name, sheet)
    assert table is None
    return [p.format() for p in problems]


def test_csv_rows_keep_the_line_and_column_of_every_cell(tmp_path):
    path = _csv(tmp_path, 'id,question,count\nq1,"Where, exactly?",2\nq2,"Two\nlines",\n')
    table, problems = read_table(path, "cards.csv")
    assert problems == []
    assert table.fields == ("id", "question")
    assert [row["question"].value for row in table.rows] == ["Where, exactly?", "Two\nlines"]
    assert table.rows[0]["question"].ref.where == "cards.csv:2:4"
    assert table.rows[1]["id"].ref.where == "cards.csv:3:1"
    assert table.counts == [2, 1]
    assert table.header["question"].where == "cards.csv:1:4"


def test_csv_separated_by_semicolons_with_a_byte_order_mark(tmp_path):
    path = _csv(tmp_path, "\ufeffid;name\r\na;Kitchen\r\n")
    table, problems = read_table(path, "cards.csv")
    assert problems == [] and table.rows[0]["name"].value == "Kitchen"
    assert table.rows[0]["name"].ref.where == "cards.csv:2:3"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('id,q\na,"open\n', "cards.csv:2:3: a quoted cell is never closed (missing '\"')"),
        (
            'id,q\na,"x"y\n',
            "cards.csv:2:6: unexpected 'y' after a quoted cell; quote the whole cell",
        ),
        (
            "id,q\na,b,c\n",
            "cards.csv:2:5: a value beyond the last named column (2 fields in the header)",
        ),
        ("id,q,id\n", "cards.csv:1:6: the field 'id' is named twice (also at 1:1)"),
        (
            "id,deck\n",
            "cards.csv:1:4: 'deck' names the deck's values in templates; call the field otherwise",
        ),
        (
            "id,count\na,many\n",
            "cards.csv:2:3: count 'many' is not a whole number from 0 to 10,000",
        ),
        ("", "cards.csv:1:1: the file has no header row"),
        (
            "id,q\na,\u202eevil\n",
            "cards.csv:2:3: contains the invisible direction override character U+202E; remove it",
        ),
        (
            b"id,q\na,caf\xe9\n",
            "cards.csv:2:6: the file is not UTF-8 (byte 0xe9); save it as 'CSV UTF-8'",
        ),
        (
            b"\xff\xfei\x00d\x00",
            "cards.csv:1:1: the file is saved as UTF-16 ('Unicode text'); save it as 'CSV UTF-8'",
        ),
    ],
)
def test_csv_problems_are_reported_at_their_row_and_column(tmp_path, content, message):
    assert _errors(_csv(tmp_path, content)) == [message]


def test_a_workbook_saved_under_a_csv_name_says_so(tmp_path):
    workbook = _xlsx(tmp_path, [["id"], ["a"]])
    path = _csv(tmp_path, workbook.read_bytes())
    assert _errors(path) == [
        "cards.csv:1:1: this is a spreadsheet workbook, not CSV text; name it .xlsx"
    ]


def test_xlsx_rows_name_their_cells_as_spreadsheets_do(tmp_path):
    path = _xlsx(tmp_path, [["id", "answer", "count"], ["q1", 42, 3], ["q2", None, None]])
    table, problems = read_table(path, "cards.xlsx")
    assert problems == []
    assert table.rows[0]["answer"].value == "42"  # a whole number, not 42.0
    assert table.rows[0]["answer"].ref.where == "cards.xlsx!Cards:B2"
    assert "answer" not in table.rows[1] and table.counts == [3, 1]
    other, _ = read_table(path, "cards.xlsx", "Notes")
    assert other.fields == ("not the cards",)


def test_xlsx_problems_name_the_sheet_and_cell(tmp_path):
    path = _xlsx(tmp_path, [["id", "count"], ["a", "lots"]])
    assert _errors(path) == [
        "cards.xlsx!Cards:B2: count 'lots' is not a whole number from 0 to 10,000"
    ]
    assert _errors(path, "Card") == [
        "cards.xlsx: cards.xlsx has no sheet 'Card'; did you mean 'Cards'?"
    ]
    broken = _csv(tmp_path, b"PK\x03\x04 not really a zip", "broken.xlsx")
    assert _errors(broken) == ["broken.xlsx: cannot read the workbook: it is not an XLSX workbook"]
