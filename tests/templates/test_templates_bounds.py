"""Numbers in templates with bounds: every length, size and count a template gives is a
finite number in its range (``units.LIMITS``), checked when the template is compiled,
with the message at the line that set it or made it so; chains of ``extends``, named
colours, groups and expressions have a depth limit, named in the message; markup of a
template's own text is reported at the template's line."""

from __future__ import annotations

import pytest

from deckforge.templates.lengths import Box, LengthError, length
from templates_support import HEAD, context, lay_out, library, problems_of, text

WHERE = "decks/test/templates/t.yaml"
#: A number too large for any length (written out, as the grammar reads numbers).
HUGE = "1" + "0" * 190
#: A number too large for a float.
INFINITE = "1" + "0" * 400


def _custom(tmp_path, body: str) -> list[str]:
    """The problems of a template that sets its own card size (the deck gives none)."""
    lib = library(tmp_path, t="kind: template\n" + body)
    cards = [{"id": text("a")}]
    from deckforge.templates import stream_cards

    problems = stream_cards(cards, lib, context(size_mm=None), "t", None).problems
    return [p.format() for p in problems]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "styles: {s: {font_size: 0pt}}\n",
            "3:25: styles.s.font_size: a font size must be from 0.5pt to 500pt, not 0pt",
        ),
        (
            "styles: {s: {font_size: -5pt, min_font_size: 1pt}}\n",
            "3:25: styles.s.font_size: a font size must be from 0.5pt to 500pt, not -5pt",
        ),
        (
            "styles: {s: {font_size: 600pt}}\n",
            "3:25: styles.s.font_size: a font size must be from 0.5pt to 500pt, not 600pt",
        ),
        (
            "styles: {s: {font_size: 1000000pt}}\n",
            "3:25: styles.s.font_size: a length must be from -14400pt to 14400pt, not 1e+06pt",
        ),
        (
            "styles: {s: {font_size: 12pt, min_font_size: 0.1pt}}\n",
            "3:46: styles.s.min_font_size: a font size must be from 0.5pt to 500pt, not 0.1pt",
        ),
    ],
    ids=["zero", "negative", "past-500", "a-million", "tiny-minimum"],
)
def test_a_font_size_out_of_range_is_an_error_at_its_line(tmp_path, body, expected):
    body += "elements:\n  - {name: t, type: text, text: '{id}', style: s}\n"
    assert problems_of(tmp_path, body) == [f"{WHERE}:{expected}"]


def test_a_font_size_made_too_large_through_sizes_is_an_error_where_it_is_worked_out(tmp_path):
    body = (
        "sizes: {a: 400pt, b: a * 2}\n"
        "styles: {s: {font_size: a * 3}}\n"
        "elements:\n  - {name: t, type: text, text: '{id}', style: s}\n"
    )
    assert problems_of(tmp_path, body) == [
        f"{WHERE}:4:25: styles.s.font_size: a font size must be from 0.5pt to 500pt, not 1200pt"
    ]


def test_a_size_that_overflows_is_an_error_at_the_size_and_not_again_where_used(tmp_path):
    body = (
        f"sizes:\n  a: {HUGE}pt\n  b: a - a\n"
        "styles: {s: {font_size: a * a}}\n"
        "elements:\n  - {name: t, type: text, text: '{id}', style: s, y: b}\n"
    )
    assert problems_of(tmp_path, body) == [
        f"{WHERE}:4:6: sizes.a: a length must be from -14400pt to 14400pt, not 1e+190pt"
    ]


def test_a_length_of_numbers_beyond_any_float_is_an_error_not_nan():
    with pytest.raises(LengthError, match="its numbers are too large: a step of it is not a "):
        length(f"{INFINITE}pt - {INFINITE}pt", "", Box(0, 0))
    with pytest.raises(LengthError, match="its numbers are too large"):
        length(f"min({HUGE}pt * {HUGE} - {HUGE}pt * {HUGE}, 1pt)", "", Box(0, 0))


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("bleed: -3mm", "3:8: bleed: the bleed must be from 0mm to 25.4mm, not -3mm"),
        (
            f"bleed: {HUGE}mm",
            "3:8: bleed: a length must be from -14400pt to 14400pt, not 2.83465e+190pt",
        ),
        ("bleed: 30mm", "3:8: bleed: the bleed must be from 0mm to 25.4mm, not 30mm"),
        ("safe: -1mm", "3:7: safe: the safe inset must be from 0mm to 5080mm, not -1mm"),
        (
            "safe: 40mm",
            "3:7: safe: the safe inset must be less than half the card's shorter side (31.75mm)",
        ),
    ],
    ids=["negative-bleed", "huge-bleed", "bleed-past-an-inch", "negative-safe", "huge-safe"],
)
def test_bleed_and_safe_out_of_range_are_errors_at_their_lines(tmp_path, setting, expected):
    head = f"kind: template\nsize: poker\n{setting}\n"
    assert problems_of(tmp_path, "elements: []\n", head=head) == [f"{WHERE}:{expected}"]


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        ("width: -10mm\nheight: 20mm\n", "2:8: width: a card's width or height must be from 5mm "),
        ("width: 0mm\nheight: 20mm\n", "2:8: width: a card's width or height must be from 5mm "),
        (
            "width: 30mm\nheight: 2m\n",
            "3:9: height: '2m': 'm' is not a unit lengths take (they take mm, cm, in, pt, "
            "%, %w, %h)",
        ),
        ("width: 30mm\nheight: 2000mm\n", "3:9: height: a card's width or height must be from "),
    ],
    ids=["negative", "zero", "no-unit", "two-metres"],
)
def test_a_card_size_out_of_range_is_an_error_at_its_line(tmp_path, size, expected):
    (problem,) = _custom(tmp_path, size + "elements: []\n")
    assert problem.startswith(f"{WHERE}:{expected}")


def test_an_editions_safe_inset_is_reported_at_the_editions_line(tmp_path):
    """A shipped template extended by the edition: a safe area too large for the card, and
    one that leaves a shipped element's box negative, are both the edition's lines."""
    huge = problems_of(tmp_path, "", head="kind: template\nextends: place\nsafe: 1000mm\n")
    assert huge == [
        f"{WHERE}:3:7: safe: the safe inset must be less than half the card's shorter side "
        "(31.75mm)"
    ]
    large = problems_of(tmp_path, "", head="kind: template\nextends: place\nsafe: 30mm\n")
    assert large == [
        f"{WHERE}:3:7: safe: the box has a negative size (the element 'category' at "
        "deckforge/templates/shipped/place.yaml:46:8 uses safe)"
    ]


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        (
            "{name: r, type: rect, w: 20pt, h: 20pt, fill: black, radius: -4pt}",
            "4:66: elements[0].radius: a corner's radius must be from 0pt to 14400pt, not -4pt",
        ),
        (
            "{name: r, type: rect, w: 20pt, h: 30pt, fill: black, radius: 12pt}",
            "4:66: elements[0].radius: a corner's radius must be at most half the box's "
            "shorter side (10pt), not 12pt",
        ),
        (
            "{name: r, type: rect, stroke: black, stroke_width: -1pt}",
            "4:56: elements[0].stroke_width: an outline's width must be from 0pt to 72pt, not -1pt",
        ),
        (
            "{name: l, type: line, h: 0, dash: [-1pt, 2pt]}",
            "4:39: elements[0].dash: a dash's length must be from 0pt to 72pt, not -1pt",
        ),
        (
            "{name: l, type: line, h: 0, dash: [0pt, 0pt]}",
            "4:39: elements[0].dash: a dash and its space must together be at least 1pt",
        ),
        (
            "{name: l, type: lines, gap: 0.0001pt}",
            "4:33: elements[0].gap: the gap between lines must be from 1pt to 14400pt, "
            "not 0.0001pt",
        ),
    ],
    ids=[
        "negative-radius",
        "radius-past-half",
        "negative-stroke",
        "negative-dash",
        "zero-dashes",
        "tiny-gap",
    ],
)
def test_outline_numbers_out_of_range_are_errors_at_their_keys(tmp_path, element, expected):
    assert problems_of(tmp_path, f"elements:\n  - {element}\n") == [f"{WHERE}:{expected}"]


def test_ruled_lines_are_bounded_in_number(tmp_path):
    body = "width: 50mm\nheight: 500mm\nelements:\n  - {name: l, type: lines, gap: 1pt}\n"
    assert _custom(tmp_path, body) == [
        f"{WHERE}:5:33: elements[0].gap: the box holds 1417 lines this far apart; at most "
        "1000 are drawn: make the gap larger, the box smaller or give a count"
    ]
    counted = body.replace("gap: 1pt", "gap: 1pt, count: 3")
    assert _custom(tmp_path, counted) == []


# --- depth limits ---------------------------------------------------------------------------


def test_a_long_chain_of_extends_is_an_error_naming_the_chain(tmp_path):
    chain = {f"t{i}": f"kind: template\nextends: t{i + 1}\n" for i in range(3000)}
    chain["t3000"] = HEAD
    lib = library(tmp_path, **chain)
    _, problems = lay_out(lib, [{"id": text("a")}], "t0")
    assert [p.format() for p in problems] == [
        "decks/test/templates/t32.yaml:2:10: extends: t0.yaml extends t1.yaml extends "
        "t2.yaml extends … extends t32.yaml extends t33.yaml (more than 32 levels)"
    ]


def test_a_chain_of_named_colours_has_a_depth_limit(tmp_path):
    colours = "".join(f"  c{i}: c{i + 1}\n" for i in range(200)) + "  c200: black\n"
    body = f"colours:\n{colours}elements:\n  - {{name: r, type: rect, fill: c0}}\n"
    found = problems_of(tmp_path, body)
    assert found[0] == (
        f"{WHERE}:4:7: colours.c0: c0 names c1 names c2 names … names c31 names c32 "
        "(more than 32 levels)"
    )


def test_expressions_nest_at_most_32_deep():
    deep = "(" * 33 + "1pt" + ")" * 33
    assert length("(" * 32 + "1pt" + ")" * 32, "", Box(0, 0)) == 1
    with pytest.raises(LengthError, match="parentheses nest more than 32 deep"):
        length(deep, "", Box(0, 0))
    with pytest.raises(LengthError, match="parentheses nest more than 32 deep"):
        length("min(" * 33 + "1pt" + ")" * 33, "", Box(0, 0))
    assert length("-" * 501 + "1pt", "", Box(0, 0)) == -1


def test_groups_nest_at_most_four_deep_said_at_the_deepest_groups_elements(tmp_path):
    inner = "{name: e, type: rect}"
    for name in "dcba":
        inner = f"{{name: {name}, type: group, elements: [{inner}]}}"
    found = problems_of(tmp_path, f"elements:\n  - {inner}\n")
    assert found == [
        f"{WHERE}:4:140: elements[0].elements[0].elements[0].elements[0].elements: a group "
        "inside 3 others can hold no elements (groups nest at most 4 deep)"
    ]


# --- markup of the template's own text --------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        (
            "**{name}",
            "'**' at character 1 opens bold that is never closed (write \\* for an asterisk)",
        ),
        (
            "{name} :nopeicon:",
            "no icon is called ':nopeicon:' (character 8) (write \\: for a colon)",
        ),
    ],
    ids=["unclosed-bold", "unknown-icon"],
)
def test_markup_of_the_templates_own_text_is_an_error_at_the_template(tmp_path, written, expected):
    body = f'elements:\n  - {{name: t, type: text, text: "{written}"}}\n'
    cards = [{"name": text("Kitchen", 3, 9, "cards.csv")}, {"name": text("Attic", 4, 9)}]
    assert problems_of(tmp_path, body, cards) == [f"{WHERE}:4:33: elements[0].text: {expected}"]


def test_markup_in_a_cards_value_is_still_an_error_at_the_value(tmp_path):
    body = 'elements:\n  - {name: t, type: text, text: "*In* {name}"}\n'
    cards = [{"id": text("k"), "name": text("**Kitchen", 3, 9, "cards.csv")}]
    assert problems_of(tmp_path, body, cards) == [
        "cards.csv:3:9: card 'k': '**' at character 6 opens bold that is never closed "
        "(write \\* for an asterisk)"
    ]


def test_a_size_an_extending_template_sets_is_blamed_for_what_it_makes_of_the_base(tmp_path):
    base = HEAD + "sizes: {big: 10pt}\nstyles: {s: {font_size: big * 2}}\n"
    base += "elements:\n  - {name: r, type: rect, fill: black, h: 50% - big}\n"
    base += "  - {name: t, type: text, text: '{id}', style: s}\n"
    head = "kind: template\nextends: base\nsizes: {big: 300pt}\n"
    assert problems_of(tmp_path, "", head=head, base=base) == [
        f"{WHERE}:3:14: sizes.big: the box has a negative size (the element 'r' at "
        "decks/test/templates/base.yaml:6:43 uses big)",
        f"{WHERE}:3:14: sizes.big: a font size must be from 0.5pt to 500pt, not 600pt (the "
        "style 's' at decks/test/templates/base.yaml:4:25 uses big)",
    ]
