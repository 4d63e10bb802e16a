"""Errors at the place that causes them, found when the deck is validated: a length's
unit we do not take lists those we do, an expression's caret is under the character it
went wrong at, an element leaving the card's bleed is a problem of its line, a glyph no
font draws and a value that is not a colour are reported once, at their cause."""

from __future__ import annotations

import pytest

from templates_support import problems_of

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
    ],
    ids=["px", "em-in-a-sum"],
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
