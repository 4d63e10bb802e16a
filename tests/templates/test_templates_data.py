"""Rows of card data checked against what a deck's templates need: a field a template
binds that the data lacks names both places, values are checked against the kind each
binding needs, and the same data from CSV or XLSX draws the same cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckforge.kinds import Rows
from deckforge.model import Art
from deckforge.model import Text as SourceText
from deckforge.sources.tabular import read_table
from deckforge.templates import compile_named, needs, stream_cards
from deckforge.templates.data import check
from templates_support import context, flat, library


def _csv(tmp_path: Path, content: str, name: str = "cards.csv") -> Path:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


def _xlsx(tmp_path: Path, rows: list[list], name: str = "cards.xlsx") -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Cards"
    for row in rows:
        book.active.append(row)
    path = tmp_path / name
    book.save(path)
    return path


def _rows(path: Path) -> Rows:
    """A file's rows as a deck of the generic kind hands them to the engine: one per card
    (a row with a count of 2 twice)."""
    table, problems = read_table(path, path.name)
    assert problems == []
    counts = zip(table.rows, table.counts, strict=True)
    cards = [row for row, copies in counts for _ in range(copies)]
    return Rows(cards, table.fields, table.ref, table.display, True, path.parent)


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
    data = _rows(_csv(tmp_path, "id,question,answer,colour\nq1,Why?,Because,#FF0000\n"))
    _, problems = check(data, [("quiz", needs(compiled))], tmp_path)
    assert [p.format() for p in problems] == [
        "cards.csv:1:1: the template 'quiz' binds '{icon}' (icon) at "
        "decks/test/templates/quiz.yaml:6:36, but cards.csv has no column 'icon'"
    ]


def test_values_are_checked_against_what_the_template_needs(tmp_path):
    _, compiled = _quiz(tmp_path)
    text = "id,question,answer,colour,icon\nq1,Why?,,red,1F9E6\nq2,How?,So,#00FF00,nope\n"
    data = _rows(_csv(tmp_path, text))
    cards, problems = check(data, [("quiz", needs(compiled))], tmp_path)
    assert [p.format() for p in problems] == [
        "cards.csv:2:10: 'red' is not a colour: use #RRGGBB, like '#E4572E'",
        "cards.csv:3:20: unknown icon 'nope': use an OpenMoji hexcode like 1F9E6 or the emoji",
    ]
    assert cards[0]["icon"] == SourceText("1F9E6", data.rows[0]["icon"].ref)


def test_art_paths_are_files_inside_the_project(tmp_path):
    from PIL import Image

    Image.new("RGB", (10, 10)).save(tmp_path / "pic.png")
    lib = library(
        tmp_path,
        t="kind: template\nsize: poker\nelements:\n  - {name: a, type: image, image: '{art}'}\n",
    )
    compiled, _ = compile_named(lib, "t", context())
    data = _rows(_csv(tmp_path, "id,art\na,pic.png\nb,gone.png\nc,../x.png\n"))
    cards, problems = check(data, [("t", needs(compiled))], tmp_path)
    assert cards[0]["art"] == Art(tmp_path / "pic.png", data.rows[0]["art"].ref)
    assert [p.format() for p in problems] == [
        "cards.csv:3:3: the art file 'gone.png' does not exist (looked in ./: art a card's "
        "data names is found beside the data file)",
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
        data = _rows(path)
        laid, problems = stream_cards(data.rows, lib, context(), "quiz", None, data=data).whole()
        assert problems == []
        drawn.append([flat(card.face) for card in laid])
    assert len(drawn[0]) == 3  # q1 twice
    assert drawn[0] == drawn[1]
    answer = drawn[0][0][-1]
    assert answer.matrix[:4] == (-1, 0, 0, -1)  # the answer, upside down
    assert len(drawn[0][2]) == 3  # no answer on q2


NAMED = """
kind: template
size: poker
colours: {science: "#0072B2", history: "#D55E00", band: "{category}"}
elements:
  - {name: band, type: rect, h: 20%, fill: band}
  - {name: note, type: text, text: "{note.text}", y: 50%, h: 20%}
"""


def test_a_value_may_name_a_colour_of_the_template(tmp_path):
    lib = library(tmp_path, t=NAMED.replace(', text: "{note.text}"', ', text: "{category}"'))
    data = _rows(_csv(tmp_path, "id,category\na,science\nb,History\nc,sience\n"))
    laid, problems = stream_cards(data.rows, lib, context(), "t", None, data=data).whole()
    assert [p.format() for p in problems] == [
        "cards.csv:4:3: 'sience' is not a colour: use #RRGGBB, like '#E4572E', or a colour "
        "the template names (history, science); did you mean 'science'?"
    ]
    data = _rows(_csv(tmp_path, "id,category\na,science\nb,History\n"))
    laid, problems = stream_cards(data.rows, lib, context(), "t", None, data=data).whole()
    assert problems == []
    bands = [flat(card.face)[0].fill for card in laid]
    assert bands == [(0, 0x72 / 255, 0xB2 / 255), (0xD5 / 255, 0x5E / 255, 0)]


def test_a_field_of_a_value_is_not_a_field_of_the_data(tmp_path):
    lib = library(tmp_path, t=NAMED)
    compiled, _ = compile_named(lib, "t", context())
    data = _rows(_csv(tmp_path, "id,category,note\na,science,x\n"))
    _, problems = check(data, [("t", needs(compiled))], tmp_path, own=compiled.colours)
    assert [p.format() for p in problems] == [
        "decks/test/templates/t.yaml:6:36: elements[1].text: '{note.text}': the field 'note' "
        "of cards.csv is a value, with no fields of its own; bind '{note}'"
    ]


SUITED = """
kind: template
size: poker
elements:
  - {name: pip, type: icon, icon: "{suit}", x: 0, y: 0, size: 20pt}
  - {name: index, type: text, text: "{rank}{suit}", from: safe, y: 50%, h: 20%}
"""


@pytest.mark.engines  # draws card suits: needs Debian's DejaVu Sans
def test_a_field_drawn_as_an_icon_and_as_text_prints_as_written_in_the_text(tmp_path):
    lib = library(tmp_path, t=SUITED)
    data = _rows(_csv(tmp_path, "rank,suit\n2,♠\n"))
    laid, problems = stream_cards(data.rows, lib, context(), "t", None, data=data).whole()
    assert problems == []
    ops = flat(laid[0].face)
    assert [op.name for op in ops if hasattr(op, "name")] == ["2660"]
    texts = [line.logical for op in ops if hasattr(op, "fitted") for line in op.fitted.lines]
    assert texts == ["2♠"]
