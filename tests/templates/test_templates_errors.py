"""Errors at the place that causes them, found when the deck is validated: a length's
unit we do not take lists those we do, an expression's caret is under the character it
went wrong at, an element leaving the card's bleed is a problem of its line, a glyph no
font draws and a value that is not a colour are reported once, at their cause."""

from __future__ import annotations

import pytest

from templates_support import HEAD, problems_of, text

WHERE = "decks/test/templates/t.yaml"
UNITS = "(they take mm, cm, in, pt, %, %w, %h)"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "sizes: {corner: 130px}\n",
            f"3:17: sizes.corner: '130px': 'px' is not a unit lengths take {UNITS}",
        ),
        (
            "sizes: {corner: 2 * 3em + 1mm}\n",
            f"3:17: sizes.corner: '3em': 'em' is not a unit lengths take {UNITS}",
        ),
        (
            "sizes: {corner: 12 px}\n",
            f"3:17: sizes.corner: '12 px': 'px' is not a unit lengths take {UNITS}",
        ),
        (
            "sizes: {corner: 2 + 12 mm}\n",
            "3:17: sizes.corner: '12 mm': a unit follows its number without a space",
        ),
    ],
    ids=["px", "em-in-a-sum", "px-apart", "mm-apart"],
)
def test_a_unit_lengths_do_not_take_lists_the_units_they_take(tmp_path, body, expected):
    body += "elements:\n  - {name: t, type: text, text: '{id}', x: 1mm}\n"
    assert problems_of(tmp_path, body) == [f"{WHERE}:{expected}"]


@pytest.mark.parametrize(
    ("when", "token"),
    [
        ("'id > > 3'", "> 3"),  # single-quoted: the caret under the second '>'
        ("\"id == 'a' and and\"", 'and"'),  # double-quoted, quotes inside: the last 'and'
        ("'id == ''a'' )'", ")"),  # '' is one quote in the value: under the ')'
        ("\"'\\u00e9' == id )\"", ")"),  # an escape is one character in the value
        ("id > > 3", "> 3"),  # plain
    ],
    ids=["single-quoted", "double-quoted", "doubled-quote", "escape", "plain"],
)
def test_an_expressions_caret_is_under_the_character_it_went_wrong_at(tmp_path, when, token):
    line = f"  - {{name: t, type: text, text: '{{id}}', when: {when}}}\n"
    column = line.rindex(token) + 1
    found = problems_of(tmp_path, "elements:\n" + line)
    assert len(found) == 1
    assert found[0].startswith(f"{WHERE}:4:{column}: elements[0].when: unexpected "), found


def test_an_element_leaving_the_cards_bleed_is_an_error_at_its_line(tmp_path):
    body = (
        "elements:\n"
        "  - {name: in, type: rect, x: 0, y: 0, w: 100%, h: 100%, bleed: true, fill: '#FFFFFF'}\n"
        "  - {name: far, type: rect, x: 50mm, y: 0, w: 30mm, h: 10mm, fill: '#000000'}\n"
        "  - {name: low, type: rect, x: 0, y: 80mm, w: 10mm, h: 30mm, rotation: 90,"
        " fill: '#000000'}\n"
    )
    assert problems_of(tmp_path, body) == [
        f"{WHERE}:5:32: elements[1].x: the box reaches 13.3 mm past the card's bleed on the "
        "right (the bleed is 3.17 mm past the trim); what is drawn there is cut off",
        f"{WHERE}:6:38: elements[2].y: the box reaches 17.9 mm past the card's bleed on the "
        "bottom (the bleed is 3.17 mm past the trim); what is drawn there is cut off",
    ]


def test_deckforge_validate_reports_an_element_past_the_bleed(project, capsys):
    from deckforge.cli import main

    own = project / "decks" / "guess-the-mess" / "templates" / "place.yaml"
    own.parent.mkdir()
    own.write_text(
        "kind: template\nextends: place\nelements:\n"
        "  - {name: stamp, type: circle, x: -5mm, y: 10mm, size: 8mm, fill: '#E4572E'}\n",
        encoding="utf-8",
    )
    assert main(["--decks", str(project / "decks"), "validate"]) == 1
    err = capsys.readouterr().err
    assert (
        "decks/guess-the-mess/templates/place.yaml:4:36: elements[0].x: the box reaches "
        "1.83 mm past the card's bleed on the left" in err
    ), err


def test_a_glyph_no_font_draws_in_the_templates_text_is_one_problem_at_it(tmp_path):
    body = "elements:\n  - {name: t, type: text, text: 'x\u0f00 {id}'}\n"
    cards = [{"id": text(str(n), n + 1)} for n in range(52)]
    assert problems_of(tmp_path, body, cards) == [
        f"{WHERE}:4:35: elements[0].text: no font can draw the character '\u0f00' (U+0F00)"
    ]


def test_a_glyph_no_font_draws_in_the_data_is_one_problem_at_its_cell(tmp_path):
    body = "elements:\n  - {name: t, type: text, text: 'Rank {rank} of {id}'}\n"
    cards = [{"id": text(f"{n}\u0f00", n + 2, 9), "rank": text("1", n + 2, 1)} for n in range(3)]
    assert problems_of(tmp_path, body, cards) == [
        "cards.yaml:2:9: card '0\u0f00': no font can draw the character '\u0f00' (U+0F00) "
        "(and on 2 more cards)"
    ]


@pytest.fixture
def validate(tmp_path, capsys):
    def run(template: str, rows: str) -> list[str]:
        from deckforge.cli import main

        edition = tmp_path / "decks" / "cards"
        (edition / "templates").mkdir(parents=True, exist_ok=True)
        (edition / "templates" / "t.yaml").write_text(HEAD + template, encoding="utf-8")
        (edition / "edition.yaml").write_text(
            "kind: edition\nid: cards\ngame: cards\ntitle: Cards\nlocale: en\n"
            "players: {min: 2, max: 8}\ndecks:\n  - {id: deck, source: deck.yaml, size: poker}\n",
            encoding="utf-8",
        )
        (edition / "deck.yaml").write_text(
            "kind: cards\nface: t\nback: back\ndata: cards.csv\n", encoding="utf-8"
        )
        (edition / "cards.csv").write_text(rows, encoding="utf-8")
        capsys.readouterr()
        assert main(["--decks", str(tmp_path / "decks"), "validate"]) == 1
        err = capsys.readouterr().err.splitlines()
        return [line for line in err if line.startswith("decks/")]

    return run


def test_a_colour_a_column_gets_wrong_is_one_problem_for_each_value(validate):
    template = "elements:\n  - {name: r, type: rect, w: 10mm, h: 10mm, fill: '{colour}'}\n"
    rows = "id,colour\n" + "".join(f"c{n},blak\n" for n in range(74)) + "z,#12345\n"
    assert validate(template, rows) == [
        "decks/cards/cards.csv:2:4: 'blak' is not a colour: use #RRGGBB, like '#E4572E'; did "
        "you mean 'black'? (also in 73 more cells of this column: 3:4, 4:4, 5:4 and 70 more)",
        "decks/cards/cards.csv:76:3: '#12345' is not a colour: use #RRGGBB, like '#E4572E'",
    ]


def test_a_missing_art_file_says_where_it_was_looked_for(validate):
    template = "elements:\n  - {name: p, type: image, w: 10mm, h: 10mm, image: '{art}'}\n"
    assert validate(template, "id,art\na,gone.png\nb,art/gone.png\n") == [
        "decks/cards/cards.csv:2:3: the art file 'gone.png' does not exist (looked in "
        "decks/cards/: art a card's data names is found beside the data file)",
        "decks/cards/cards.csv:3:3: the art file 'art/gone.png' does not exist (looked in "
        "decks/cards/art/: art a card's data names is found beside the data file)",
    ]


def test_a_when_testing_a_field_the_data_lacks_names_the_field(validate):
    template = "elements:\n  - {name: t, type: text, text: x, when: joker}\n"
    assert validate(template, "id,rank\na,1\n") == [
        "decks/cards/cards.csv:1:1: the template 't' tests the field 'joker' in 'when' at "
        "decks/cards/templates/t.yaml:4:42, but decks/cards/cards.csv has no column 'joker'"
    ]


def test_a_row_with_fewer_cells_than_the_header_is_an_error_at_its_row(validate):
    template = "elements:\n  - {name: t, type: text, text: '{id} {rank}'}\n"
    assert validate(template, "id,rank,suit\na,1,x\nb,2\n") == [
        "decks/cards/cards.csv:3:1: the row has 2 cells and the header 3; write empty cells "
        "too, as nothing between two separators"
    ]


def test_a_gradient_stops_bad_colour_is_reported_where_that_colour_is_written(tmp_path):
    body = (
        "elements:\n"
        "  - name: g\n"
        "    type: rect\n"
        "    gradient:\n"
        "      angle: 90\n"
        "      from: [0, 10 px]\n"
        "      stops:\n"
        "        - {offset: 0, colour: ink}\n"
        "        - {offset: 1, colour: nocolour}\n"
    )
    found = sorted(problems_of(tmp_path, body), key=lambda p: int(p.split(":")[1]))
    assert [p.partition(": ")[0] for p in found] == [f"{WHERE}:8:17", f"{WHERE}:11:31"], found
    assert found[0].startswith(f"{WHERE}:8:17: elements[0].gradient.from[1]: '10 px'"), found
    assert found[1].startswith(f"{WHERE}:11:31: elements[0].gradient.stops[1].colour: "), found


def test_a_gradient_given_again_by_a_template_that_extends_is_reported_in_that_template(tmp_path):
    # The parent's gradient has three stops; the child's two replace them, and a bad
    # colour among them is at its own line, not where the parent's stops were.
    parent = (
        "kind: template\nsize: poker\nelements:\n"
        "  - name: g\n    type: rect\n    gradient:\n      stops:\n"
        "        - {offset: 0, colour: ink}\n        - {offset: 0.5, colour: ink}\n"
        "        - {offset: 1, colour: paper}\n"
    )
    body = (
        "elements:\n  - name: g\n    gradient:\n      stops:\n"
        "        - {offset: 0, colour: ink}\n        - {offset: 1, colour: nocolour}\n"
    )
    found = problems_of(tmp_path, body, head="kind: template\nextends: other\n", other=parent)
    assert [p.partition(": elements")[0] for p in found] == [f"{WHERE}:8:31"], found
