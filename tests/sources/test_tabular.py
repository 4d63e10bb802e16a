"""CSV and XLSX card data: rows with their places, real messages for bad files, data
checked against what a template needs, and the same cards from either format."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckforge.model import Art
from deckforge.model import Text as SourceText
from deckforge.sources.tabular import read_table
from deckforge.templates import compile_named, lay_out_cards, needs
from deckforge.templates.data import check
from templates_support import context, flat, library


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
        ("id,count\na,many\n", "cards.csv:2:3: count 'many' is not a whole number"),
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
    assert _errors(path) == ["cards.xlsx!Cards:B2: count 'lots' is not a whole number"]
    assert _errors(path, "Card") == [
        "cards.xlsx: cards.xlsx has no sheet 'Card'; did you mean 'Cards'?"
    ]
    broken = _csv(tmp_path, b"PK\x03\x04 not really a zip", "broken.xlsx")
    assert _errors(broken) == ["broken.xlsx: cannot read the workbook: it is not an XLSX workbook"]


QUIZ = """
kind: template
size: poker
colours: {band: "{colour}"}
elements:
  - {name: band, type: rect, h: 20%, bleed: true, fill: band}
  - {name: icon, type: icon, icon: "{icon}", x: 0, y: 0, size: 20pt}
  - {name: question, type: text, text: "{question}", from: safe, y: 25%, h: 30%}
  - {name: answer, type: text, text: "{answer}", from: safe, y: 70%, h: 20%, rotation: 180,
     when: answer}
"""


def _quiz(tmp_path):
    lib = library(tmp_path, quiz=QUIZ)
    compiled, problems = compile_named(lib, "quiz", context())
    assert problems == []
    return lib, compiled


def test_a_field_the_template_binds_that_the_data_lacks_names_both_places(tmp_path):
    _, compiled = _quiz(tmp_path)
    table, _ = read_table(
        _csv(tmp_path, "id,question,answer,colour\nq1,Why?,Because,#FF0000\n"), "cards.csv"
    )
    _, problems = check(table, needs(compiled), "quiz", tmp_path)
    assert [p.format() for p in problems] == [
        "cards.csv:1:1: the template 'quiz' binds '{icon}' (icon) at "
        "decks/test/templates/quiz.yaml:6:36, but cards.csv has no column 'icon'"
    ]


def test_values_are_checked_against_what_the_template_needs(tmp_path):
    _, compiled = _quiz(tmp_path)
    data = "id,question,answer,colour,icon\nq1,Why?,,red,1F9E6\nq2,How?,So,#00FF00,nope\n"
    table, _ = read_table(_csv(tmp_path, data), "cards.csv")
    cards, problems = check(table, needs(compiled), "quiz", tmp_path)
    assert [p.format() for p in problems] == [
        "cards.csv:2:10: 'red' is not a colour: use #RRGGBB, like '#E4572E'",
        "cards.csv:3:20: unknown icon 'nope': use an OpenMoji hexcode like 1F9E6 or the emoji",
    ]
    assert cards[0]["icon"] == SourceText("1F9E6", table.rows[0]["icon"].ref)


def test_art_paths_are_files_inside_the_project(tmp_path):
    from PIL import Image

    Image.new("RGB", (10, 10)).save(tmp_path / "pic.png")
    lib = library(
        tmp_path,
        t="kind: template\nsize: poker\nelements:\n  - {name: a, type: image, image: '{art}'}\n",
    )
    compiled, _ = compile_named(lib, "t", context())
    table, _ = read_table(
        _csv(tmp_path, "id,art\na,pic.png\nb,gone.png\nc,../x.png\n"), "cards.csv"
    )
    cards, problems = check(table, needs(compiled), "t", tmp_path)
    assert cards[0]["art"] == Art(tmp_path / "pic.png", table.rows[0]["art"].ref)
    assert [p.format() for p in problems] == [
        "cards.csv:3:3: the art file 'gone.png' does not exist",
        "cards.csv:4:3: '../x.png' is outside the project folder; art must stay inside it",
    ]


def test_csv_and_xlsx_of_the_same_data_draw_the_same_cards(tmp_path):
    lib, compiled = _quiz(tmp_path)
    rows = [
        ["id", "question", "answer", "colour", "icon", "count"],
        ["q1", "What is the capital of France?", "Paris", "#3366AA", "1F5FC", 2],
        ["q2", "Open question", "", "#AA3366", "🧦", 1],
    ]
    csv = _csv(tmp_path, "\n".join(",".join(str(v) for v in row) for row in rows) + "\n")
    xlsx = _xlsx(tmp_path, rows)
    drawn = []
    for path in (csv, xlsx):
        table, problems = read_table(path, path.name)
        assert problems == []
        cards, problems = check(table, needs(compiled), "quiz", tmp_path)
        assert problems == []
        laid, problems = lay_out_cards(cards, lib, context(), "quiz", None)
        assert problems == []
        drawn.append([flat(card.face) for card in laid])
    assert len(drawn[0]) == 3  # q1 twice
    assert drawn[0] == drawn[1]
    answer = drawn[0][0][-1]
    assert answer.matrix[:4] == (-1, 0, 0, -1)  # the answer, upside down
    assert len(drawn[0][2]) == 3  # no answer on q2
