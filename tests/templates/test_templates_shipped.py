"""The element types the shipped cards need (symbols and arrows, ruled lines, generated
pictures), rendered, and every shipped deck's faces and backs drawn from template files
and from nothing else."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deckforge.art import dreams
from deckforge.authoring.game import new_game
from deckforge.drawing.ops import Circle, Line, Polygon, Rect
from deckforge.kinds import deck_kinds
from deckforge.kinds.numbered import PlayerColour
from deckforge.layout import cards as card_layout
from deckforge.pipeline.recipe import gather
from deckforge.sources.load import Project, select_editions
from deckforge.templates import load
from deckforge.units import mm
from templates_support import close, flat, lay_out, library, render, text

W, H = mm(63.5), mm(88.9)
HEAD = "kind: template\nsize: poker\n"
DECKS = Path(__file__).resolve().parents[2] / "decks"


def laid_out(tmp_path, body: str, cards=None, **kwargs):
    """The first card of a one-template deck and the problems found."""
    laid, problems = lay_out(library(tmp_path, t=HEAD + body), cards or [{}], "t", **kwargs)
    return (laid[0] if laid else None), [p.format() for p in problems]


# --- symbol -------------------------------------------------------------------------------


def test_a_symbol_is_drawn_in_the_largest_square_centred_in_its_box(tmp_path):
    card, problems = laid_out(
        tmp_path,
        """
elements:
  - {name: s, type: symbol, symbol: star, x: 20pt, y: 20pt, w: 80pt, h: 40pt,
     fill: "#0072B2", stroke: ink, stroke_width: 1pt}
  - {name: c, type: symbol, symbol: "{colour.symbol}", x: 20pt, y: 100pt, size: 40pt,
     fill: "{colour.hex}"}
""",
        [{"colour": PlayerColour("orange", text("Orange"), "#E69F00", "circle")}],
    )
    assert problems == []
    star, circle = flat(card.face)
    assert isinstance(star, Polygon) and len(star.points) == 10 and star.line_width == 1
    xs, ys = [x for x, _ in star.points], [y for _, y in star.points]
    # A 40 pt star, centred in the 80 × 40 pt box.
    assert max(ys) == pytest.approx(H - 20) and (max(xs) + min(xs)) / 2 == pytest.approx(60)
    assert circle == Circle(40, H - 120, 20 * 0.92, fill=circle.fill)
    image = render(tmp_path, card.face, W, H)
    assert close(image.getpixel((60, 42)), "#0072B2")  # the star's middle
    assert close(image.getpixel((42, 59)), "#FFFFFF")  # a corner of its square: outside
    assert close(image.getpixel((40, 120)), "#E69F00")  # the bound circle, bound colour


@pytest.mark.parametrize(
    ("symbol", "locale", "mirror", "filled"),
    [
        ("arrow-left", "en", "true", True),
        ("arrow-right", "en", "true", False),
        # Mirrored in right-to-left editions, like any shape, unless it says not to be.
        ("arrow-left", "fa", "true", False),
        ("arrow-left", "fa", "false", True),
    ],
)
def test_an_arrow_fills_its_box_and_points_its_way(tmp_path, symbol, locale, mirror, filled):
    card, problems = laid_out(
        tmp_path,
        f"""
elements:
  - {{name: a, type: symbol, symbol: "{symbol}", x: 40pt, y: 100pt, w: 100pt, h: 50pt,
     fill: "#FF0000", mirror: {mirror}}}
""",
        locale=locale,
    )
    assert problems == []
    image = render(tmp_path, card.face, W, H)
    # 40 % along and 20 % down the box: inside a left arrow's head, above a right
    # arrow's shaft.
    assert close(image.getpixel((80, 110)), "#FF0000") is filled
    assert close(image.getpixel((130, 125)), "#FF0000")  # the shaft, either way


def test_a_bound_arrow_follows_the_cards_field(tmp_path):
    body = "elements:\n  - {name: a, type: symbol, symbol: 'arrow-{way}', size: 50pt, fill: ink}\n"
    cards = [{"way": text("left")}, {"way": text("right")}]
    laid, problems = lay_out(library(tmp_path, t=HEAD + body), cards, "t")
    assert problems == []
    left, right = (flat(card.face)[0] for card in laid)
    assert left.points[0] == (0, H - 25)  # the tip, at the box's left
    assert max(x for x, _ in right.points) == right.points[0][0] == 50


def test_unknown_symbols_are_errors_at_the_template_or_the_cards_data(tmp_path):
    names = (
        "circle, square, diamond, triangle, hexagon, star, cross, heart, arrow-left, arrow-right"
    )
    _, problems = laid_out(tmp_path, "elements:\n  - {name: s, type: symbol, symbol: moon}\n")
    assert problems == [
        f"decks/test/templates/t.yaml:4:37: elements[0].symbol: unknown symbol 'moon' "
        f"(symbols: {names})"
    ]
    body = "elements:\n  - {name: s, type: symbol, symbol: '{shape}', fill: ink}\n"
    _, problems = laid_out(tmp_path, body, [{"id": text("a"), "shape": text("moon", 7, 9)}])
    assert problems == [f"cards.yaml:7:9: card 'a': unknown symbol 'moon' (symbols: {names})"]


# --- lines --------------------------------------------------------------------------------


def test_ruled_lines_are_gap_apart_as_many_as_asked_and_the_box_holds(tmp_path):
    body = """
elements:
  - {name: l, type: lines, count: "{lines}", gap: 20pt, x: 20pt, right: 20pt, y: 100pt,
     h: 70pt, stroke: "#0000FF", stroke_width: 2pt}
"""
    two, _ = laid_out(tmp_path, body, [{"lines": 2}])
    assert flat(two.face) == [
        Line(20, H - 120, W - 20, H - 120, (0, 0, 1), 2),
        Line(20, H - 140, W - 20, H - 140, (0, 0, 1), 2),
    ]
    many, _ = laid_out(tmp_path, body, [{"lines": 9}])
    assert len(flat(many.face)) == 3  # the box holds three
    unbound, _ = laid_out(tmp_path, body.replace('count: "{lines}", ', ""))
    assert len(flat(unbound.face)) == 3
    image = render(tmp_path, two.face, W, H)
    assert close(image.getpixel((90, 120)), "#0000FF")
    assert close(image.getpixel((90, 140)), "#0000FF")
    assert close(image.getpixel((90, 130)), "#FFFFFF")  # between them
    assert close(image.getpixel((90, 160)), "#FFFFFF")  # no third line
    assert close(image.getpixel((10, 120)), "#FFFFFF")  # the box's margin


def test_a_count_that_is_not_a_whole_number_is_an_error_at_its_place(tmp_path):
    body = "elements:\n  - {name: l, type: lines, count: '{lines}'}\n"
    _, problems = laid_out(tmp_path, body, [{"id": text("a"), "lines": text("three", 4, 8)}])
    assert problems == ["cards.yaml:4:8: card 'a': '{lines}' is 'three', not a whole number"]
    _, problems = laid_out(tmp_path, "elements:\n  - {name: l, type: lines, count: lots}\n")
    assert problems == [
        "decks/test/templates/t.yaml:4:35: elements[0].count: give a whole number or a binding "
        "like '{count}', not 'lots'"
    ]


# --- dream --------------------------------------------------------------------------------


def test_a_dream_picture_is_generated_from_its_seed_and_number_over_its_box(tmp_path):
    body = """
elements:
  - {name: d, type: dream, seed: "{seed}", number: "{number}", x: 20pt, y: 30pt, w: 100pt,
     h: 150pt}
"""
    cards = [{"seed": 1404, "number": n} for n in (1, 2)]
    laid, problems = lay_out(library(tmp_path, t=HEAD + body), cards, "t")
    assert problems == []
    first, second = (flat(card.face) for card in laid)
    hero = dreams.heroes(1404, 1)[0]
    assert first == dreams.picture(1404, 1, hero, 20, H - 180, 100, 150)
    assert first != second  # another picture, with another figure in front
    image = render(tmp_path, laid[0].face, W, H)
    box = [(22, 32), (118, 32), (22, 178), (118, 178)]
    assert not any(close(image.getpixel(p), "#FFFFFF", 4) for p in box)  # painted to its edges
    outside = [(10, 20), (130, 20), (10, 190), (130, 190)]
    assert all(close(image.getpixel(p), "#FFFFFF", 4) for p in outside)  # and no further


def test_a_dream_needs_a_seed_and_numbers_from_one(tmp_path):
    _, problems = laid_out(tmp_path, "elements:\n  - {name: d, type: dream}\n")
    assert problems == [
        "decks/test/templates/t.yaml:4:5: elements[0]: a dream element needs 'seed'"
    ]
    body = "elements:\n  - {name: d, type: dream, seed: 3, number: '{n}'}\n"
    _, problems = laid_out(tmp_path, body, [{"id": text("a"), "n": 0}])
    assert problems == [
        "decks/test/templates/t.yaml:4:45: elements[0].number: card 'a': a picture's number "
        "starts at 1, not 0"
    ]


# --- the shipped decks --------------------------------------------------------------------


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> Path:
    """A copy of the shipped decks with a game made by 'deckforge new game' beside them:
    a deck of every kind."""
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(DECKS, root / "decks")
    new_game(Project(root / "decks"), "quiz")
    return root / "decks"


def _shipped_decks(folder: Path) -> list:
    project = Project(folder)
    editions, problems = gather(project, select_editions(project, None))
    assert problems == []
    return [(edition, deck) for edition in editions for deck in edition.decks]


MARKER = "kind: template\nelements:\n  - {name: marker, type: rect, fill: '#123456'}\n"


def _text(path: Path) -> str:
    return path.with_suffix(".yaml").read_text(encoding="utf-8")


def _trim_key(line: str) -> bool:
    return line.split(":")[0] in ("size", "width", "height", "orientation", "shape")


def _marked(trim: list[str]) -> str:
    head, rest = MARKER.split("\n", 1)
    return "\n".join([head, *trim, rest])


def test_every_deck_kind_has_templates_for_its_faces_and_backs(decks):
    found = _shipped_decks(decks)
    assert {deck.kind for _, deck in found} == set(deck_kinds())
    looks = {deck.id: card_layout.look_of(deck) for _, deck in found}
    names = {(look.face, look.back) for look in looks.values() if isinstance(look.back, str)}
    assert ("number", "number-back") in names and ("player-number", "player-number-back") in names
    assert ("trivia", "back") in names
    # Role cards' backs are chosen by their side: the hosts' is the game's own template.
    assert looks["roles"].back == ("host-back", "host-back", "back", "back")
    own = decks / "quiz" / "templates"
    for name in {name for look in looks.values() for name in look.names}:
        assert (load.SHIPPED / f"{name}.yaml").is_file() or (own / f"{name}.yaml").is_file()


@pytest.mark.parametrize("side", ["face", "back"])
def test_every_decks_cards_are_drawn_from_their_template_files_only(
    decks, tmp_path, monkeypatch, side
):
    """A copy of the shipped templates in which each deck's templates for one side draw
    only a marker: that side of every card of every deck is then the marker, and nothing
    else (no part of any card is drawn by code)."""
    copy = tmp_path / "shipped"
    shutil.copytree(load.SHIPPED, copy)
    monkeypatch.setattr(load, "SHIPPED", copy)
    decks = Path(shutil.copytree(decks, tmp_path / "decks", symlinks=True))
    own = decks / "quiz" / "templates"
    found = _shipped_decks(decks)
    for _, deck in found:
        look = card_layout.look_of(deck)
        names = [look.face] if side == "face" else [n for n in look.names if n != look.face]
        for name in names:
            # The marker keeps a template's size and shape (what a deck that gives no
            # size prints at). The game's own templates that extend a shipped one (its
            # backs extend 'back') draw the marker through it.
            for folder in (copy, own):
                path = folder / f"{name}.yaml"
                if path.is_file() and (folder == copy or "extends:" not in _text(path)):
                    trim = [line for line in _text(path).splitlines() if _trim_key(line)]
                    path.write_text(_marked(trim), encoding="utf-8")
    for edition, deck in found:
        laid, problems = card_layout.lay_out_deck(edition, deck)
        assert problems == [] and len(laid) == len(deck.cards)
        w, h = (laid[0].width, laid[0].height) if laid else (0.0, 0.0)  # as the deck prints
        marker = [Rect(0, 0, w, h, fill=(0x12 / 255, 0x34 / 255, 0x56 / 255))]
        for card in laid:
            assert flat(getattr(card, side)) == marker, f"{edition.id} {deck.id} {card.id}"
            assert flat(getattr(card, "face" if side == "back" else "back")) != marker
