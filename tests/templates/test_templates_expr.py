"""Expressions in templates: ``when: "rank > 10"``, ``{suit|map(suits)}``, paths made of
fields. Each is read once per template: what is wrong whatever the card is one problem
at the template's key with its column; what a card's data makes wrong is a problem at
that data cell."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from PIL import Image

from deckforge.authoring import template_examples
from deckforge.authoring.templates import show
from deckforge.templates import expr, exprparse
from deckforge.templates.elements import symbol
from deckforge.templates.load import Library
from templates_support import edition, flat, lay_out, library, text

HEAD = """\
kind: template
size: poker
maps:
  suits: {Spades: S, Hearts: H}
  ranks: {1: A, "11": J}
elements:
"""
BOX = "x: 0, y: 0, w: 50%, h: 10%"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # fonts-dejavu-core: ♠♣♥♦


def _template(*elements: str) -> str:
    return HEAD + "".join(f"  - {{{e}}}\n" for e in elements)


def _cards(*rows: tuple[str, str]) -> list[dict]:
    """Cards with a rank and a suit, each cell at its place in a cards.csv."""
    return [
        {"rank": text(r, n + 2, 1, "cards.csv"), "suit": text(s, n + 2, 3, "cards.csv")}
        for n, (r, s) in enumerate(rows)
    ]


def _problems(tmp_path, template: str, cards: list[dict]) -> list[str]:
    _, problems = lay_out(library(tmp_path, x=template), cards, "x")
    return [p.format() for p in problems]


def _texts(tmp_path, template: str, cards: list[dict]) -> list[list[str]]:
    return _texts_of(lay_out(library(tmp_path, x=template), cards, "x"))


def _texts_of(result) -> list[list[str]]:
    """The lines of text drawn on each card of laid-out cards."""
    laid, problems = result
    assert problems == []
    return [
        [
            "".join(line.logical for line in op.fitted.lines)
            for op in flat(c.face)
            if hasattr(op, "fitted")
        ]
        for c in laid
    ]


# --- what expressions do ---------------------------------------------------------------


def test_bindings_look_values_up_in_maps_and_count(tmp_path):
    template = _template(
        f'name: a, type: text, {BOX}, text: "{{rank|map(ranks)|default(rank)}} of {{suit|upper}}"',
        f"name: b, type: text, {BOX}, "
        'text: "{rank + 1} {rank * 2 - 1} {rank / 4} {rank % 4}"',
    )
    cards = _cards(("11", "Hearts"), ("7", "Spades"))
    assert _texts(tmp_path, template, cards) == [
        ["J of HEARTS", "12 21 2.75 3"],
        ["7 of SPADES", "8 13 1.75 3"],
    ]


def test_conditions_compare_match_lists_and_combine(tmp_path):
    template = _template(
        f'name: court, type: text, {BOX}, text: court, when: "rank > 10"',
        f'name: red, type: text, {BOX}, text: red, when: "suit in [Hearts, Diamonds]"',
        f'name: black, type: text, {BOX}, text: black, unless: "suit in [Hearts, Diamonds]"',
        f"name: both, type: text, {BOX}, text: both, "
        "when: \"rank >= 11 and not (suit == 'Spades')\"",
        f'name: either, type: text, {BOX}, text: either, when: "rank == 1 or suit not in [Hearts]"',
    )
    cards = _cards(("11", "Hearts"), ("1", "Spades"), ("10", "Hearts"))
    assert _texts(tmp_path, template, cards) == [
        ["court", "red", "both"],
        ["black", "either"],
        ["red"],
    ]


def test_the_old_forms_of_when_keep_their_meaning(tmp_path):
    template = _template(
        f"name: set, type: text, {BOX}, text: set, when: suit",
        f"name: braces, type: text, {BOX}, text: braces, when: '{{suit}}'",
        f"name: equal, type: text, {BOX}, text: equal, when: {{rank: [1, 11]}}",
        f"name: unset, type: text, {BOX}, text: unset, unless: suit",
    )
    cards = _cards(("11", "Hearts"), ("2", ""))
    assert _texts(tmp_path, template, cards) == [["set", "braces", "equal"], ["unset"]]


def test_an_image_path_may_be_made_of_a_cards_fields(tmp_path):
    folder = edition(
        tmp_path, x=_template(f'name: art, type: image, {BOX}, image: "art/{{suit|lower}}.png"')
    )
    (folder / "templates" / "art").mkdir()
    Image.new("RGB", (800, 800), "red").save(folder / "templates" / "art" / "hearts.png")
    lib = Library.for_edition(folder, tmp_path)
    laid, problems = lay_out(lib, _cards(("1", "Hearts")), "x")
    assert problems == []
    (picture,) = flat(laid[0].face)
    assert picture.path == str(folder / "templates" / "art" / "hearts.png")
    _, problems = lay_out(lib, _cards(("1", "Spades"), ("2", "../../../../../x")), "x")
    assert [p.format() for p in problems] == [
        "cards.csv:2:3: card '#1': the file 'art/spades.png' does not exist (looked in "
        "decks/test/templates/art/)",
        "cards.csv:3:3: card '#2': 'art/../../../../../x.png' is outside the project; files "
        "must stay inside it",
    ]


# --- problems, each once and at its place ----------------------------------------------


def test_an_expression_that_cannot_be_read_points_at_its_character(tmp_path):
    # The caret is under the ')' inside the quoted value, not under the quote.
    template = _template(f'name: a, type: text, {BOX}, text: a, when: "rank > 10)"')
    assert _problems(tmp_path, template, _cards(("1", "Spades"))) == [
        "decks/test/templates/x.yaml:7:80: elements[0].when: unexpected ')' at column 10 of "
        "'rank > 10)'"
    ]


def test_an_unknown_map_or_filter_is_a_problem_of_the_template(tmp_path):
    template = _template(
        f'name: a, type: text, {BOX}, text: "{{rank}}{{suit|map(suit)}}"',
        f'name: b, type: text, {BOX}, text: "{{suit|reverse}}"',
    )
    assert _problems(tmp_path, template, _cards(("1", "Spades"))) == [
        "decks/test/templates/x.yaml:7:74: elements[0].text: unknown map 'suit' (maps: ranks, "
        "suits) at column 13 of '{rank}{suit|map(suit)}'",
        "decks/test/templates/x.yaml:8:68: elements[1].text: unknown filter 'reverse' (filters: "
        "map, default, upper, lower, round, digits) at column 7 of '{suit|reverse}'",
    ]


def test_a_value_missing_from_a_map_is_one_problem_at_its_first_cell(tmp_path):
    template = _template(f'name: a, type: text, {BOX}, text: "{{suit|map(suits)}}"')
    cards = _cards(("1", "Spades"), ("2", "Joker"), ("3", "Joker"))
    assert _problems(tmp_path, template, cards) == [
        "cards.csv:3:3: card '#2': 'Joker' is not in the map 'suits' (Spades, Hearts); add it, "
        "or give '|default(...)' (in '{suit|map(suits)}' at decks/test/templates/x.yaml:7:61) "
        "(and on 1 more card)",
    ]


def test_a_part_wrong_on_every_card_is_one_problem_of_the_template(tmp_path):
    template = _template(f"name: a, type: text, {BOX}, text: a, when: '\"abc\" > 3 or rank > 1'")
    cards = _cards(*[(str(n), "Spades") for n in range(1, 53)])
    assert _problems(tmp_path, template, cards) == [
        "decks/test/templates/x.yaml:7:77: elements[0].when: cannot compare 'abc' with 3: 'abc' "
        "is not a number at column 7 of '\"abc\" > 3 or rank > 1'"
    ]


def test_a_value_a_comparison_cannot_use_is_a_problem_at_its_cell(tmp_path):
    template = _template(f'name: a, type: text, {BOX}, text: a, when: "rank > 10"')
    assert _problems(tmp_path, template, _cards(("11", "Spades"), ("K", "Spades"))) == [
        "cards.csv:3:1: card '#2': cannot compare 'K' with 10: 'K' is not a number (in when: "
        "'rank > 10' at decks/test/templates/x.yaml:7:70)"
    ]


# --- the language ----------------------------------------------------------------------


def _value(source: str, **fields: object) -> object:
    return exprparse.parse(source).evaluate(lambda path: fields.get(".".join(path)))


@pytest.mark.parametrize(
    ("source", "fields", "value"),
    [
        ("1 + 2 * 3", {}, 7.0),
        ("(1 + 2) * 3", {}, 9.0),
        ("-rank + 1", {"rank": "3"}, -2.0),
        ("rank == 3", {"rank": "3.0"}, True),
        ("suit == 'Spades'", {"suit": "Spades"}, True),
        ("a < b", {"a": "apple", "b": "banana"}, True),
        ("a in [1, two, 'three four']", {"a": "two"}, True),
        ("a not in [1, 2]", {"a": "1"}, False),
        ("not a", {"a": ""}, True),
        ("not a and b or c", {"a": "", "b": "x", "c": ""}, True),
        ("a|default('none')", {}, "none"),
        ("a|upper|lower", {"a": "MiXed"}, "mixed"),
        ("a / 3|round", {"a": "7"}, 7 / 3.0),
        ("(a / 3)|round", {"a": "7"}, 2.0),
        ("a|round", {"a": "2.5"}, 3.0),
        ("a|round", {"a": "-2.5"}, -3.0),
        ("a|default(5)", {"a": "0"}, "0"),
        ("a|default(5)", {"a": ""}, 5.0),
        ("true and not false", {}, True),
    ],
)
def test_expressions_evaluate_as_written(source, fields, value):
    assert _value(source, **fields) == value


@pytest.mark.parametrize(
    ("source", "message", "position"),
    [
        ("rank >", "unexpected the end", 6),
        ("rank > > 3", "unexpected '>'", 7),
        ("(rank", "expected ')', found the end", 5),
        ("a in [b, c", "expected ',' or ']' in a list, found the end", 10),
        ("a.__class__", "'a.__class__' does not name a field", 0),
        ("a @ b", "unexpected '@'", 2),
        ("'open", "an unclosed quote", 0),
        ("x|lower(1)", "unexpected '('", 7),
        ("x|map('t')", "map() takes the name of a map of the template", 6),
        ("(" * 30 + "1" + ")" * 30, "nested more than 24 deep", 24),
        ("1" * 40, "the number 111111111111… is too long", 0),
        ("a" * 501, "longer than 500 characters", 500),
    ],
)
def test_what_cannot_be_read_says_where(source, message, position):
    with pytest.raises(expr.ExprError) as caught:
        exprparse.parse(source)
    assert (caught.value.message, caught.value.position) == (message, position)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("a > 3", "cannot compare 'x' with 3: 'x' is not a number"),
        ("a + 1", "'x' is not a number"),
        ("1 / (a - a)", "'/' by zero"),
        ("1 in a", "'in' needs a list after it, like [a, b]"),
    ],
)
def test_values_an_expression_cannot_use_are_its_own_errors(source, message):
    fields = {"a": "x"} if "a - a" not in source else {"a": "2"}
    if source == "1 in a":
        fields = {"a": "2"}
    with pytest.raises(expr.ExprError) as caught:
        _value(source, **fields)
    assert caught.value.message == message


@pytest.mark.engines  # draws card suits: needs Debian's DejaVu Sans
def test_the_references_playing_card_example_draws_what_it_says(tmp_path):
    folder = edition(tmp_path, p=template_examples._PLAYING)
    shutil.copy(FONT, folder / "templates" / "DejaVuSans.ttf")
    cards = _cards(("1", "Spades"), ("7", "Hearts"), ("12", "Clubs"))
    laid, problems = lay_out(Library.for_edition(folder, tmp_path), cards, "p")
    assert problems == []
    drawn = [[line.logical for op in flat(c.face) for line in op.fitted.lines] for c in laid]
    assert drawn == [["A♠"], ["7♥", "7 × ♥"], ["Q♣", "Queen of clubs"]]


def test_maps_are_inherited_through_extends_and_shown(tmp_path, capsys):
    own = "kind: template\nextends: x\nmaps:\n  ranks: {11: Jack}\n"
    lib = library(
        tmp_path,
        x=_template(f'name: a, type: text, {BOX}, text: "{{rank|map(ranks)}}{{suit|map(suits)}}"'),
        y=own,
    )
    assert _texts_of(lay_out(lib, _cards(("11", "Hearts")), "y")) == [["JackH"]]
    shown, problems = show(lib, "y")
    assert problems == []
    assert yaml.safe_load(shown)["maps"] == {
        "suits": {"Spades": "S", "Hearts": "H"},
        "ranks": {"11": "Jack"},
    }


def test_a_part_reading_only_the_decks_values_is_checked_once(tmp_path):
    template = _template(f"name: a, type: text, {BOX}, text: a, when: 'deck.id > 3 and rank'")
    cards = _cards(*[(str(n), "Spades") for n in range(1, 53)])
    assert _problems(tmp_path, template, cards) == [
        "decks/test/templates/x.yaml:7:79: elements[0].when: cannot compare 'deck' with 3: "
        "'deck' is not a number at column 9 of 'deck.id > 3 and rank'"
    ]


def test_templates_show_says_how_each_expression_is_read(tmp_path):
    template = _template(
        f"name: a, type: text, {BOX}, "
        'text: "{rank}: {(rank - 10)|map(ranks)} {rank / 3|round}"',
        f"name: b, type: text, {BOX}, text: b, "
        'when: "suit in [Hearts, 3] and not joker or rank > 10"',
    )
    shown, problems = show(library(tmp_path, x=template), "x")
    assert problems == []
    assert [line for line in shown.splitlines() if "reads:" in line] == [
        "  # a.text reads: ((rank - 10)|map(ranks))",
        "  # a.text reads: (rank / (3|round))",
        "  # b.when reads: (((suit in ['Hearts', 3]) and (not joker)) or (rank > 10))",
    ]


def test_a_symbols_name_may_come_from_a_map(tmp_path):
    template = _template(
        f'name: s, type: symbol, {BOX}, fill: "#000000", symbol: "{{suit|map(shapes)}}"',
    ).replace("maps:\n", "maps:\n  shapes: {Spades: star, Hearts: heart}\n")
    laid, problems = lay_out(
        library(tmp_path, x=template), _cards(("1", "Spades"), ("2", "Hearts")), "x"
    )
    assert problems == []
    star, heart = (flat(card.face)[0] for card in laid)
    assert star.points != heart.points
    _, problems = lay_out(
        library(tmp_path, x=template.replace("heart}", "nope}")), _cards(("2", "Hearts")), "x"
    )
    assert [p.format() for p in problems] == [
        "cards.csv:2:3: card '#1': unknown symbol 'nope' (symbols: " + ", ".join(symbol.NAMES) + ")"
    ]


def test_digits_gives_a_computed_number_in_the_editions_script(tmp_path):
    template = _template(f'name: a, type: text, {BOX}, text: "{{(rank + 1)|digits}}"')
    laid, problems = lay_out(
        library(tmp_path, x=template), _cards(("11", "Hearts")), "x", locale="fa"
    )
    assert problems == []
    assert [line.logical for op in flat(laid[0].face) for line in op.fitted.lines] == ["۱۲"]
