"""Decks of any game (``kind: cards``) made by ``deckforge new game``: a trivia deck of any
length from CSV or XLSX, the same PDF from either, an edition's own template restyling
its cards only, and bad cells reported at their row and column."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from deckforge.authoring.game import new_game, questions_csv
from deckforge.cli import main
from deckforge.drawing.ops import Rect, Text, Transform
from deckforge.layout import cards as card_layout
from deckforge.pipeline.recipe import gather
from deckforge.sources.load import Project, select_editions
from templates_support import flat


def questions() -> list[list[str]]:
    """The starter's trivia cards: (id, question, answer, category) for each row."""
    return list(csv.reader(questions_csv().splitlines()))[1:]


CATEGORIES = ("science", "history", "geography", "arts", "sports", "nature")


def _rows(count: int) -> list[list[str]]:
    rows = [["id", "question", "answer", "category"]]
    for n in range(1, count + 1):
        question = f"Question number {n}: how many cards does this deck hold?"
        rows.append([f"q{n:02}", question, f"Answer {n}", CATEGORIES[n % len(CATEGORIES)]])
    return rows


def _csv(rows: list[list]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _xlsx(path: Path, rows: list[list], sheet: str = "Questions") -> None:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = sheet
    for row in rows:
        book.active.append(row)
    book.save(path)


@pytest.fixture()
def game(tmp_path) -> Path:
    """A project holding only a game made by 'deckforge new game quiz'."""
    decks = tmp_path / "decks"
    decks.mkdir()
    (tmp_path / "schemas").mkdir()
    new_game(Project(decks), "quiz")
    return decks


def _decks(decks: Path) -> dict:
    project = Project(decks)
    editions, problems = gather(project, select_editions(project, None))
    assert [p.format() for p in problems] == []
    return {(e.id, d.id): (e, d) for e in editions for d in e.decks}


def _texts(face, matrix=(1, 0, 0, 1, 0, 0)) -> list[tuple[str, tuple]]:
    """Each text of a face with the rotation it is drawn with (the first four numbers of
    its matrix)."""
    found = []
    for op in flat(face):
        if isinstance(op, Transform):
            found.extend(_texts(type(face)(op.ops), op.matrix))
        elif isinstance(op, Text):
            words = " ".join(line.logical for line in op.fitted.lines)
            found.append((words, tuple(matrix[:4])))
    return found


def test_the_new_game_has_12_trivia_cards_and_4_role_cards(game):
    decks = _decks(game)
    _, trivia = decks["quiz", "trivia"]
    _, roles = decks["quiz", "roles"]
    assert [card.id for card in trivia.cards] == [q[0] for q in questions()]
    assert len(roles.cards) == 4


def test_a_52_row_csv_builds_52_trivia_cards_with_their_answers_upside_down(game):
    (game / "quiz" / "cards.csv").write_text(_csv(_rows(52)), encoding="utf-8")
    edition, deck = _decks(game)["quiz", "trivia"]
    laid, problems = card_layout.lay_out_deck(edition, deck)
    assert problems == [] and len(laid) == 52
    for number, card in enumerate(laid, start=1):
        texts = dict(_texts(card.face))
        assert texts[f"Answer {number}"] == (-1, 0, 0, -1), card.id  # turned 180°
        question = next(words for words in texts if words.startswith("Question"))
        assert texts[question] == (1, 0, 0, 1)


def _build(decks: Path, out: Path) -> bytes:
    env = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    try:
        args = ["--decks", str(decks), "build", "--out", str(out), "--quiet", "--jobs", "1"]
        assert main([*args, "--profile", "printer", "--force"]) == 0
    finally:
        if env is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = env
    return (out / "quiz" / "printer" / "trivia.pdf").read_bytes()


def test_the_same_data_as_xlsx_builds_the_same_pdf(game, tmp_path):
    rows = _rows(52)
    (game / "quiz" / "cards.csv").write_text(_csv(rows), encoding="utf-8")
    from_csv = _build(game, tmp_path / "csv")
    _xlsx(game / "quiz" / "cards.xlsx", rows)
    trivia = game / "quiz" / "trivia.yaml"
    text = trivia.read_text(encoding="utf-8").replace("data: cards.csv", "data: cards.xlsx")
    trivia.write_text(text, encoding="utf-8")
    (game / "quiz" / "cards.csv").unlink()
    assert _build(game, tmp_path / "xlsx") == from_csv


def _fills(face) -> set[str]:
    """The colours of a face's rectangles, as #RRGGBB."""
    return {
        "#" + "".join(f"{round(c * 255):02X}" for c in op.fill)
        for op in flat(face)
        if isinstance(op, Rect) and op.fill
    }


def test_an_editions_own_template_restyles_its_cards_only(game):
    """A second edition prints the same deck files; its own 'trivia' template, which
    extends the shipped one and changes one colour, changes its cards only."""
    other = game / "quiz-dark"
    (other / "templates").mkdir(parents=True)
    manifest = (game / "quiz" / "edition.yaml").read_text(encoding="utf-8")
    manifest = manifest.replace("id: quiz", "id: quiz-dark").replace("source: ", "source: ../quiz/")
    (other / "edition.yaml").write_text(manifest, encoding="utf-8")
    (other / "templates" / "trivia.yaml").write_text(
        "kind: template\nextends: trivia\ncolours:\n  science: '#123456'\n", encoding="utf-8"
    )
    decks = _decks(game)
    drawn = {}
    for edition_id in ("quiz", "quiz-dark"):
        edition, deck = decks[edition_id, "trivia"]
        laid, problems = card_layout.lay_out_deck(edition, deck)
        assert problems == []
        drawn[edition_id] = laid
    science = [_fills(drawn[e][0].face) for e in ("quiz", "quiz-dark")]  # q01
    assert "#0072B2" in science[0] and "#0072B2" not in science[1]
    assert "#123456" in science[1] and "#123456" not in science[0]
    history = [_fills(drawn[e][3].face) for e in ("quiz", "quiz-dark")]  # q04
    assert history[0] == history[1]
    # The role deck's hosts' back is a template beside its deck file, in the first game's
    # folder: the second edition finds it there.
    edition, deck = decks["quiz-dark", "roles"]
    laid, problems = card_layout.lay_out_deck(edition, deck)
    assert problems == [] and len(laid) == 4
    assert _fills(laid[0].back) == _fills(
        card_layout.lay_out_deck(*decks["quiz", "roles"])[0][0].back
    )


def _validate(decks: Path, capsys) -> tuple[int, list[str]]:
    code = main(["--decks", str(decks), "validate"])
    err = capsys.readouterr()
    return code, (err.out + err.err).splitlines()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            'id,question,answer,category\nq1,"Open,answer,science\n',
            "decks/quiz/cards.csv:2:4: a quoted cell is never closed (missing '\"')",
        ),
        (
            "id,question,answer,category\nq1,Why?,Because,science\nq2,How?,So,sience\n",
            "decks/quiz/cards.csv:3:12: 'sience' is not a colour: use #RRGGBB, like "
            "'#E4572E', or a colour the template names (arts, geography, history, nature, "
            "science, sports); did you mean 'science'?",
        ),
        (
            "id,question,answer,category,count\nq1,Why?,Because,science,two\n",
            "decks/quiz/cards.csv:2:25: count 'two' is not a whole number",
        ),
        (
            "id,question,answer,category,count\nq1,Why?,Because,science,1e9\n",
            "decks/quiz/cards.csv:2:25: count '1e9' is not a whole number from 0 to 10,000",
        ),
        (
            "id,question,answer,category,count\nq1,Why?,Because,science,1e308\n",
            "decks/quiz/cards.csv:2:25: count '1e308' is not a whole number from 0 to 10,000",
        ),
        (
            "id,question,answer,category,count\n"
            + "".join(f"q{n},Why?,Because,science,10000\n" for n in range(11)),
            "decks/quiz/cards.csv:1:1: the rows make 110,000 cards; a deck may have at most "
            "100,000",
        ),
        (
            "id,question,answer,category\nq1,Why?,Because\n",
            "decks/quiz/cards.csv:2:1: the row has 3 cells and the header 4",
        ),
        (
            "id,question,anwser,category\nq1,Why?,Because,science\n",
            "decks/quiz/cards.csv:1:1: the template 'trivia' tests the field 'answer' in 'when' at "
            "deckforge/templates/shipped/trivia.yaml:77:11, but decks/quiz/cards.csv has no "
            "column 'answer'; did you mean 'anwser'?",
        ),
    ],
)
def test_bad_csv_cells_are_errors_at_their_row_and_column(game, capsys, content, expected):
    (game / "quiz" / "cards.csv").write_text(content, encoding="utf-8")
    code, lines = _validate(game, capsys)
    if code == 0:
        code, lines = _build_errors(game, capsys)
    assert code != 0
    assert any(line.startswith(expected) for line in lines), lines


def _build_errors(decks: Path, capsys) -> tuple[int, list[str]]:
    out = decks.parent / "build"
    code = main(["--decks", str(decks), "build", "--out", str(out), "--profile", "printer"])
    err = capsys.readouterr()
    assert not (out / "quiz").exists()  # nothing written
    return code, (err.out + err.err).splitlines()


def test_bad_xlsx_cells_name_the_sheet_and_cell(game, capsys):
    rows = _rows(3)
    rows[3][0] = rows[1][0]  # the same id twice
    _xlsx(game / "quiz" / "cards.xlsx", rows)
    trivia = game / "quiz" / "trivia.yaml"
    text = trivia.read_text(encoding="utf-8").replace("data: cards.csv", "data: cards.xlsx")
    trivia.write_text(text, encoding="utf-8")
    code, lines = _validate(game, capsys)
    assert code != 0
    assert (
        "decks/quiz/cards.xlsx!Questions:A4: duplicate id 'q01' (also at Questions:A2)" in lines
    ), lines
    rows[3][0] = "q03"
    rows[2][3] = "#12345"  # not a colour
    _xlsx(game / "quiz" / "cards.xlsx", rows)
    code, lines = _build_errors(game, capsys)
    assert code != 0
    assert any(
        line.startswith("decks/quiz/cards.xlsx!Questions:D3: '#12345' is not a colour")
        for line in lines
    ), lines


def test_the_preview_shows_the_new_games_cards_as_printed(game, tmp_path):
    """Every trivia card in the preview, named by its question; the first card's face
    there is its page of the printer PDF."""
    from PIL import Image, ImageChops, ImageStat

    from deckforge.render.raster import preview_site, rasterize

    out = tmp_path / "build"
    args = ["--decks", str(game), "build", "--out", str(out), "--quiet", "--jobs", "1"]
    assert main([*args, "--profile", "printer"]) == 0
    index = preview_site(out, tmp_path / "site")
    page = index.parent / "quiz" / "trivia.html"
    html = page.read_text(encoding="utf-8")
    for _, question, _, _ in questions():
        assert f'alt="{question}"' in html
    with Image.open(page.parent / "trivia" / "face-001-small.png") as small:
        shown = small.convert("RGB")
    printed = rasterize(out / "quiz" / "printer" / "trivia.pdf", 1, 150)
    # The page has the bleed around the card; the preview shows the card as cut.
    bleed = (printed.width - 63.5 / 25.4 * 150) / 2
    trim = (bleed, bleed, printed.width - bleed, printed.height - bleed)
    printed = printed.resize(shown.size, Image.Resampling.LANCZOS, box=trim)
    difference = ImageChops.difference(shown, printed)
    # Measured: 2.9 of 255 (JPEG and resampling); the card drawn without its question
    # or answer would differ by far more where the text is.
    mean = sum(ImageStat.Stat(difference).mean) / 3
    assert mean < 4


DECK_CASES = [
    (
        "trivia.yaml",
        "data: cards.csv",
        "data: ../../../cards.csv",
        "decks/quiz/trivia.yaml:14:7: data: '../../../cards.csv' is outside the project folder; "
        "card data must stay inside it",
    ),
    (
        "trivia.yaml",
        "data: cards.csv",
        "data: cards.txt",
        "decks/quiz/trivia.yaml:14:7: data: 'cards.txt' is not a .csv or .xlsx file",
    ),
    (
        "trivia.yaml",
        "data: cards.csv",
        "data: questions.csv",
        "decks/quiz/trivia.yaml:14:7: data: the card data file 'questions.csv' does not exist",
    ),
    (
        "trivia.yaml",
        "data: cards.csv",
        "data: cards.csv\nsheet: Questions",
        "decks/quiz/trivia.yaml:15:8: sheet: 'sheet' names a sheet of an XLSX workbook; this "
        "deck's data is a CSV file",
    ),
    (
        "trivia.yaml",
        "data: cards.csv",
        "",
        "decks/quiz/trivia.yaml:11:1: give the cards' data: 'data: cards.csv' (CSV or XLSX) or "
        "a list of 'cards'",
    ),
    (
        "trivia.yaml",
        "card_name: question",
        "card_name: title",
        "decks/quiz/trivia.yaml:16:12: card_name: decks/quiz/cards.csv has no field 'title' to "
        "name cards by",
    ),
    (
        "trivia.yaml",
        "face: trivia",
        "face: trivai",
        "decks/quiz/trivia.yaml:12:7: face: no template named 'trivai' (known: back, ",
    ),
    (
        "roles.yaml",
        "  by: side",
        "  by: team",
        "decks/quiz/roles.yaml:12:7: back.by: decks/quiz/roles.yaml has no field 'team' to "
        "choose backs",
    ),
    (
        "roles.yaml",
        '    side: player\n    rules: "Give',
        '    side: guest\n    rules: "Give',
        "decks/quiz/roles.yaml:29:11: cards[2].side: 'guest' chooses no back (the backs by "
        "'side': host, player); add it to 'back.templates' or give 'back.default'",
    ),
    (
        "roles.yaml",
        '    side: host\n    rules: "Read',
        '    count: -1\n    side: host\n    rules: "Read',
        "decks/quiz/roles.yaml:19:12: cards[0].count: count -1 is not a whole number",
    ),
    (
        "roles.yaml",
        '    side: host\n    rules: "Read',
        '    count: 1000000000\n    side: host\n    rules: "Read',
        "decks/quiz/roles.yaml:19:12: cards[0].count: count 1000000000 is not a whole number "
        "from 0 to 10,000",
    ),
    (
        "roles.yaml",
        '    side: host\n    rules: "Read',
        '    deck: x\n    side: host\n    rules: "Read',
        "decks/quiz/roles.yaml:19:11: cards[0].deck: 'deck' names the deck's values in "
        "templates; call the field otherwise",
    ),
    (
        "roles.yaml",
        "id: challenger",
        "id: quizmaster",
        "decks/quiz/roles.yaml:31:9: cards[3].id: duplicate id 'quizmaster' (also at line 16)",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "expected"), DECK_CASES)
def test_a_decks_problems_are_at_their_place_in_its_file(game, capsys, file, old, new, expected):
    """Each problem of a deck of any game, alone, at the line and column that causes it."""
    path = game / "quiz" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    code, lines = _validate(game, capsys)
    assert code == 1
    problems = [line for line in lines if line.startswith("decks/")]
    assert len(problems) == 1 and problems[0].startswith(expected), lines


def test_a_named_sheet_of_a_workbook_holds_the_cards(game, capsys):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Notes"
    book.active["A1"] = "questions are on the next sheet"
    sheet = book.create_sheet("Questions")
    for row in _rows(20):
        sheet.append(row)
    book.save(game / "quiz" / "cards.xlsx")
    trivia = game / "quiz" / "trivia.yaml"
    text = trivia.read_text(encoding="utf-8")
    trivia.write_text(text.replace("data: cards.csv", "data: cards.xlsx\nsheet: Questions"))
    edition, deck = _decks(game)["quiz", "trivia"]
    assert [card.id for card in deck.cards] == [f"q{n:02}" for n in range(1, 21)]
    trivia.write_text(text.replace("data: cards.csv", "data: cards.xlsx\nsheet: Question"))
    code, lines = _validate(game, capsys)
    assert code == 1
    assert lines[0] == (
        "decks/quiz/trivia.yaml:15:8: sheet: decks/quiz/cards.xlsx has no sheet 'Question'; "
        "did you mean 'Questions'?"
    ), lines


def test_new_game_builds_in_every_profile_and_exports_from_the_command_line(tmp_path, capsys):
    """'deckforge new game' then 'deckforge build' and the exports, with no other step."""
    import json

    from deckforge.profiles import all_profiles

    decks, out = tmp_path / "decks", tmp_path / "build"
    decks.mkdir()
    assert main(["--decks", str(decks), "new", "game", "pub-quiz"]) == 0
    assert "created" in capsys.readouterr().out
    assert main(["--decks", str(decks), "new", "game", "pub-quiz"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["--decks", str(decks), "build", "--out", str(out), "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    built = {(e["profile"], e["deck"]) for e in manifest if e["kind"] == "cards"}
    defaults = [p for p, profile in all_profiles().items() if profile.default]
    decks_built = ("trivia", "roles", "journeys", "tokens", "tiles")
    assert built == {(p, d) for p in defaults for d in decks_built}
    titles = {e["edition"] for e in manifest if e["kind"] == "cards"}
    assert titles == {"pub-quiz"}
    for what in ("png", "tts"):
        assert main(["--decks", str(decks), "export", what, "--out", str(out)]) == 0
    assert len(list((out / "pub-quiz" / "png" / "trivia").glob("*-face.png"))) == 12
    assert len(list((out / "pub-quiz" / "png" / "roles").glob("*-face.png"))) == 4
    for deck, count in (("journeys", 9), ("tokens", 30), ("tiles", 19)):
        assert len(list((out / "pub-quiz" / "png" / deck).glob("*-face.png"))) == count


def test_a_bad_count_is_the_one_problem_not_also_a_deck_of_no_cards(tmp_path, capsys):
    # The edition says the tiles deck has 19 cards; a row whose count cannot be read
    # leaves the deck's size unknown, which is no second problem.
    (tmp_path / "decks").mkdir()
    folder = new_game(Project(tmp_path / "decks"), "quiz")
    tiles = folder / "tiles.csv"
    rows = tiles.read_text(encoding="utf-8").splitlines()
    rows[1] = ",".join([*rows[1].split(",")[:-1], "many"])
    tiles.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["--decks", str(tmp_path / "decks"), "validate"]) == 1
    err = capsys.readouterr().err
    assert "decks/quiz/tiles.csv:2:" in err and "count 'many' is not a whole number" in err
    assert "the edition says" not in err and "1 problem found" in err, err
