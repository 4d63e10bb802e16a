"""Card templates: elements, geometry, bindings, conditions, inheritance, mirroring,
errors at their places, shared parts, and what the cards look like when rendered."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from deckforge.drawing.ops import (
    Circle,
    Ellipse,
    Face,
    Icon,
    Line,
    Picture,
    Polygon,
    Rect,
    Text,
    Transform,
    Use,
)
from deckforge.model import Art
from deckforge.templates.load import SHIPPED, read
from deckforge.units import mm
from templates_support import (
    HEAD,
    H,
    W,
    close,
    flat,
    lay_out,
    library,
    one,
    problems_of,
    render,
    text,
)

ROOT = Path(__file__).resolve().parents[2]

# --- elements ---------------------------------------------------------------------------


def test_rect_fills_its_box_with_outline_radius_and_dash(tmp_path):
    (op,) = one(
        tmp_path,
        """
elements:
  - {name: r, type: rect, x: 10mm, y: 5pt, w: 20pt, h: 30pt, fill: "#FF0000",
     stroke: ink, stroke_width: 2pt, radius: 4pt, dash: [3pt, 1pt]}
""",
    )
    paint = {"fill": (1, 0, 0), "stroke": op.stroke, "line_width": 2, "dash": (3, 1)}
    assert op == Rect(mm(10), H - 35, 20, 30, radius=4, **paint)
    assert op.stroke == pytest.approx((0x1D / 255, 0x1D / 255, 0x2C / 255))


def test_circle_is_the_largest_centred_in_its_box_and_ellipse_fills_it(tmp_path):
    circle, ellipse = one(
        tmp_path,
        """
elements:
  - {name: c, type: circle, x: 0, y: 0, w: 40pt, h: 20pt, fill: white}
  - {name: e, type: ellipse, x: 0, y: 0, w: 40pt, h: 20pt, stroke: black}
""",
    )
    assert circle == Circle(20, H - 10, 10, fill=(1, 1, 1))
    assert ellipse == Ellipse(0, H - 20, 40, 20, stroke=(0, 0, 0))


def test_line_runs_across_its_box_down_or_up(tmp_path):
    level, rising = one(
        tmp_path,
        """
elements:
  - {name: l, type: line, x: 50%, anchor: top, w: 40pt, y: 10pt, h: 0, stroke_width: 1pt}
  - {name: u, type: line, x: 0, y: 0, w: 10pt, h: 10pt, direction: up}
""",
    )
    assert level == Line(W / 2 - 20, H - 10, W / 2 + 20, H - 10, line_width=1)
    assert (rising.x1, rising.y1, rising.x2, rising.y2) == (0, H - 10, 10, H)


def test_polygon_points_are_measured_in_its_box(tmp_path):
    (op,) = one(
        tmp_path,
        """
elements:
  - {name: p, type: polygon, x: 10pt, y: 10pt, w: 20pt, h: 10pt, fill: accent,
     points: [[0, 0], [100%, 50%], [0, 100%]]}
""",
    )
    assert op.points == ((10, H - 10), (30, H - 15), (10, H - 20))
    assert isinstance(op, Polygon)


def test_text_is_bound_fitted_and_placed_in_its_box(tmp_path):
    (op,) = one(
        tmp_path,
        """
styles:
  big: {font_size: 20pt, min_font_size: 8pt, weight: bold, align: centre, valign: middle}
elements:
  - {name: t, type: text, text: "{question}", style: big, from: safe, h: 100pt, colour: accent}
""",
        [{"question": text("Where is it?")}],
    )
    assert isinstance(op, Text)
    assert [line.logical for line in op.fitted.lines] == ["Where is it?"]
    assert op.fitted.size == 20 and op.fitted.align == "centre"
    assert op.x == 9 and op.w == W - 18
    # Centred vertically in a 100 pt box whose top is at the safe area's top.
    assert op.top == pytest.approx(H - 9 - (100 - op.fitted.height) / 2)
    assert op.colour == pytest.approx((0xE4 / 255, 0x57 / 255, 0x2E / 255))


def test_icon_by_code_by_emoji_and_bound(tmp_path):
    ops = one(
        tmp_path,
        """
elements:
  - {name: a, type: icon, icon: 1F373, x: 0, y: 0, size: 20pt}
  - {name: b, type: icon, icon: "🧦", x: 0, y: 0, size: 20pt}
  - {name: c, type: icon, icon: "{icon}", x: 0, y: 0, size: 20pt}
""",
        [{"icon": text("🐱")}],
    )
    assert [op.name for op in ops] == ["1F373", "1F9E6", "1F431"]
    assert ops[0] == Icon("1F373", 0, H - 20, 20, 20)


def test_image_covers_or_fits_and_crops_to_a_circle(tmp_path):
    from PIL import Image

    art = tmp_path / "decks" / "test" / "templates" / "logo.png"
    art.parent.mkdir(parents=True)
    Image.new("RGB", (400, 400), (0, 128, 0)).save(art)
    one_card = [{"art": Art(art, text("x").ref)}]
    fixed, bound = one(
        tmp_path,
        """
elements:
  - {name: logo, type: image, image: logo.png, x: 0, y: 0, size: 20pt, fit: contain}
  - {name: art, type: image, image: "{art}", x: 0, y: 0, size: 20pt, shape: circle}
""",
        one_card,
    )
    assert fixed == Picture(str(art), "raster", 0, H - 20, 20, 20, cover=False, round=False)
    assert bound.cover and bound.round and bound.path == str(art)


def test_coarse_art_is_an_error_at_the_art_and_fair_art_a_warning(tmp_path):
    from PIL import Image

    folder = tmp_path / "art"
    folder.mkdir()
    coarse, fair = folder / "coarse.png", folder / "fair.png"
    Image.new("RGB", (50, 50)).save(coarse)
    Image.new("RGB", (200, 200)).save(fair)
    body = "elements:\n  - {name: a, type: image, image: '{art}', size: 60pt}\n"
    lib = library(tmp_path, t=HEAD + body)
    cards = [
        {"id": text("c"), "art": Art(coarse, text("coarse.png", 4, 9).ref)},
        {"id": text("f"), "art": Art(fair, text("fair.png", 5, 9).ref)},
    ]
    _, problems = lay_out(lib, cards, "t")
    messages = [p.format() for p in problems]
    assert messages[0].startswith("cards.yaml:4:9: card 'c': 'coarse.png' is 50 × 50 px, only")
    assert messages[1].startswith("cards.yaml:5:9: warning: 'fair.png' is 200 × 200 px")


def test_group_children_are_measured_in_the_group(tmp_path):
    disc, dot = one(
        tmp_path,
        """
elements:
  - name: g
    type: group
    x: 50%
    y: 20pt
    anchor: top
    size: 40pt
    elements:
      - {name: disc, type: circle, fill: white}
      - {name: dot, type: rect, x: 50%, y: 50%, anchor: centre, size: 50%, fill: black}
""",
    )
    assert disc == Circle(W / 2, H - 40, 20, fill=(1, 1, 1))
    assert (dot.x, dot.y, dot.w, dot.h) == pytest.approx((W / 2 - 10, H - 50, 20, 20))


# --- geometry ---------------------------------------------------------------------------


def test_units_reference_boxes_insets_and_bleed(tmp_path):
    bleed, safe, inset, sums = one(
        tmp_path,
        """
sizes: {band: 10%h}
elements:
  - {name: a, type: rect, h: band, bleed: true, fill: black}
  - {name: b, type: rect, from: safe, fill: black}
  - {name: c, type: rect, from: bleed, x: 1in, right: 2cm, y: 0, bottom: 50%, fill: black}
  - {name: d, type: rect, x: "min(50%, 10pt) + 1mm", w: "(100% - 2 * safe) / 2", y: 0, h: 1pt,
     fill: black}
""",
    )
    b = 9.0  # 1/8 in
    assert (bleed.x, bleed.y, bleed.w, bleed.h) == pytest.approx(
        (-b, H * 0.9, W + 2 * b, H * 0.1 + b)
    )
    assert (safe.x, safe.y, safe.w, safe.h) == pytest.approx((b, b, W - 2 * b, H - 2 * b))
    assert (inset.x, inset.w) == pytest.approx((-b + 72, W + 2 * b - 72 - mm(20)))
    assert (inset.y, inset.h) == pytest.approx((H / 2, H / 2 + b))
    assert (sums.x, sums.w) == pytest.approx((10 + mm(1), (W - 18) / 2))


@pytest.mark.parametrize(
    ("rotation", "matrix"),
    [(180, (-1, 0, 0, -1, 50, H - 10)), (90, (0, -1, 1, 0, 10, H - 10))],
)
def test_rotation_turns_the_content_of_its_box(tmp_path, rotation, matrix):
    (turned,) = one(
        tmp_path,
        f"""
elements:
  - {{name: r, type: rect, x: 10pt, y: 10pt, w: 40pt, h: 20pt, fill: black, rotation: {rotation}}}
""",
    )
    assert isinstance(turned, Transform)
    assert turned.matrix == pytest.approx(matrix)
    (inner,) = turned.ops
    # At 90° the content is laid out across the box: 20 wide, 40 high.
    assert (inner.w, inner.h) == ((40, 20) if rotation == 180 else (20, 40))


def test_an_upside_down_answer_renders_upside_down(tmp_path):
    """A red bar at the top of a box turned 180° is drawn at the box's bottom."""
    lib = library(
        tmp_path,
        t=HEAD
        + """
elements:
  - name: answer
    type: group
    x: 0
    y: 50%
    w: 100%
    h: 50%
    rotation: 180
    elements:
      - {name: bar, type: rect, h: 10pt, fill: "#FF0000"}
""",
    )
    (card,), _ = lay_out(lib, [{"id": text("a")}], "t")
    image = render(tmp_path, card.face, W, H)
    assert close(image.getpixel((90, 246)), "#FF0000")  # near the card's bottom edge
    assert close(image.getpixel((90, 130)), "#FFFFFF")  # not at the box's top


# --- bindings, conditions -----------------------------------------------------------------


def test_bindings_read_fields_nested_fields_and_the_decks_values(tmp_path):
    from deckforge.kinds.places import Category, PlaceCard

    category = Category("home", text("Home"), "#D1495B")
    card = PlaceCard("kitchen", text("Kitchen"), category, None)
    ops = one(
        tmp_path,
        """
elements:
  - {name: a, type: rect, fill: "{category.colour}"}
  - {name: b, type: text,
     text: "{name} · {category.name|upper} · {deck.back|lower} {edition.title}"}
""",
        [card],
    )
    assert ops[0].fill == pytest.approx((0xD1 / 255, 0x49 / 255, 0x5B / 255))
    assert ops[1].fitted.lines[0].logical == "Kitchen · HOME · place Test Game"


def test_digits_follow_the_editions_script(tmp_path):
    (op,) = one(
        tmp_path,
        "elements:\n  - {name: n, type: text, text: 'No. {n|digits}', from: safe}\n",
        [{"n": text("12")}],
        locale="fa",
    )
    assert "۱۲" in op.fitted.lines[0].logical


def test_colour_expressions_mix_and_readable(tmp_path):
    dark, light, mixed = one(
        tmp_path,
        """
colours: {band: "#101010", pale: "mix(band, white, 0.5)"}
elements:
  - {name: a, type: rect, fill: readable(pale)}
  - {name: b, type: rect, fill: readable(band)}
  - {name: c, type: rect, fill: pale}
""",
    )
    assert dark.fill == (0.08, 0.08, 0.1) and light.fill == (1, 1, 1)
    assert mixed.fill == pytest.approx(((16 / 255 + 1) / 2,) * 3)


def test_conditions_draw_elements_only_where_they_hold(tmp_path):
    body = """
elements:
  - {name: answer, type: rect, fill: black, when: answer}
  - {name: rare, type: rect, fill: white, when: {rarity: [rare, epic]}}
  - {name: common, type: rect, fill: accent, unless: {rarity: rare}}
"""
    lib = library(tmp_path, t=HEAD + body)
    cards = [
        {"answer": text("yes"), "rarity": text("rare")},
        {"answer": text(""), "rarity": text("common")},
        {"rarity": text("epic")},
    ]
    laid, problems = lay_out(lib, cards, "t")
    assert problems == []
    fills = [[op.fill for op in flat(card.face)] for card in laid]
    accent = fills[1][0]
    assert fills == [[(0, 0, 0), (1, 1, 1)], [accent], [(1, 1, 1), accent]]


def test_text_that_cannot_fit_is_an_error_at_the_source_of_the_text(tmp_path):
    found = problems_of(
        tmp_path,
        "elements:\n  - {name: t, type: text, text: '{name}', w: 30pt, h: 12pt,"
        " min_font_size: 9pt}\n",
        [{"id": text("x"), "name": text("Extraordinarily long words", 31, 11)}],
    )
    assert found == [
        "cards.yaml:31:11: card 'x': cannot fit 'Extraordinarily long words' at the minimum "
        "size 9 pt: the word 'Extraordinarily' is too long to fit on a line"
    ]


# --- inheritance, overrides, mirroring ------------------------------------------------------


def test_extends_changes_styles_colours_and_elements_by_name(tmp_path):
    base = (
        HEAD
        + """
colours: {main: "#FF0000"}
styles: {s: {font_size: 12pt, weight: bold}}
elements:
  - {name: a, type: rect, fill: main}
  - {name: b, type: rect, fill: black}
  - {name: c, type: text, text: hello, style: s}
"""
    )
    child = """
kind: template
extends: base
colours: {main: "#00FF00"}
styles: {s: {font_size: 20pt}}
elements:
  - {name: b, remove: true}
  - {name: first, type: rect, fill: white, before: a}
  - {name: c, text: changed}
"""
    lib = library(tmp_path, base=base, child=child)
    (card,), problems = lay_out(lib, [{}], "child")
    assert problems == []
    first, a, c = flat(card.face)
    assert first.fill == (1, 1, 1) and a.fill == (0, 1, 0)
    assert c.fitted.lines[0].logical == "changed" and c.fitted.size == 20
    assert c.fitted.lines[0].runs[0].font.endswith("Bold")


def test_an_edition_overrides_a_shipped_template_extending_it(tmp_path):
    """The edition's place.yaml extends the shipped one and changes one size and colour."""
    from deckforge.kinds.places import Category, PlaceCard

    own = "kind: template\nextends: place\nsizes: {band: 30%h}\ncolours: {category: '#00FF00'}\n"
    lib = library(tmp_path, place=own)
    card = PlaceCard("k", text("Kitchen"), Category("h", text("Home"), "#D1495B"), "1F373")
    (mine,), problems = lay_out(lib, [card], "place")
    assert problems == []
    band = flat(mine.face)[1]
    assert band.fill == (0, 1, 0) and band.h == pytest.approx(0.3 * H + 9)
    shipped = library(tmp_path / "other")
    (theirs,), _ = lay_out(shipped, [card], "place")
    assert flat(theirs.face)[1].h == pytest.approx(0.19 * H + 9)


def test_right_to_left_editions_mirror_unless_an_element_says_not(tmp_path):
    body = """
elements:
  - {name: a, type: rect, x: 10pt, y: 0, w: 20pt, h: 10pt, fill: black}
  - {name: b, type: rect, x: 10pt, y: 0, w: 20pt, h: 10pt, fill: black, mirror: false}
  - {name: t, type: text, text: "abc", x: 0, w: 50%, align: left}
"""
    en = one(tmp_path, body)
    fa = one(tmp_path, body, locale="fa")
    assert en[0].x == 10 and fa[0].x == W - 30
    assert fa[1].x == 10
    assert en[2].x == 0 and en[2].fitted.align == "left"
    assert fa[2].x == pytest.approx(W / 2) and fa[2].fitted.align == "end"


# --- shared parts ---------------------------------------------------------------------------


def test_parts_many_cards_share_are_drawn_once_per_distinct_value(tmp_path):
    body = """
elements:
  - {name: bg, type: rect, fill: "{colour}"}
  - {name: label, type: text, text: "{group}"}
  - {name: name, type: text, text: "{name}", y: 50%}
"""
    lib = library(tmp_path, t=HEAD + body, back=HEAD + "elements:\n  - {name: b, type: rect}\n")
    cards = [
        {"name": text(f"card {n}"), "group": text("AB"[n % 2]), "colour": text("#FF0000")}
        for n in range(6)
    ]
    laid, problems = lay_out(lib, cards, "t", "back")
    assert problems == []
    uses = [op for card in laid for op in card.face.ops if isinstance(op, Use)]
    assert len(uses) == 6
    assert len({id(u.face) for u in uses}) == 2  # one per group
    assert all(u.face.key.startswith("test/deck/face/t/0/") for u in uses)
    assert all(isinstance(card.face.ops[-1], Text) for card in laid)  # each card's own name
    # A side every card shares is one keyed face.
    assert len({id(card.back) for card in laid}) == 1 and laid[0].back.key


def test_shipped_place_cards_share_one_face_per_category(tmp_path):
    from deckforge.kinds.places import Category, PlaceCard

    home = Category("home", text("Home"), "#D1495B")
    food = Category("food", text("Food"), "#E07A1F")
    icons = ["1F373", "1F6C1", "1F6CF", "1F4FA", "1F3EB", "1F3E5", "1F3EA", "1F3E6"]
    cards = [
        PlaceCard(f"p{n}", text(f"Place {n}"), (home, food)[n % 2], icons[n]) for n in range(8)
    ]
    laid, problems = lay_out(library(tmp_path), cards, "place", "place-back")
    assert problems == []
    shared = {card.face.ops[0].face.key for card in laid}
    assert len(shared) == 2
    assert [type(op) for op in laid[0].face.ops] == [Use, Icon, Text]
    assert len({card.back.key for card in laid}) == 1


# --- rendered ---------------------------------------------------------------------------------


def test_a_rendered_place_card_has_its_colours_where_the_template_puts_them(tmp_path):
    from deckforge.kinds.places import Category, PlaceCard

    card = PlaceCard("k", text("Kitchen"), Category("h", text("Home"), "#D1495B"), "1F373")
    (laid,), _ = lay_out(library(tmp_path), [card], "place", "place-back")
    face = render(tmp_path, laid.face, W, H)
    assert face.size == (180, 252)
    assert close(face.getpixel((5, 5)), "#D1495B")  # the band
    assert close(face.getpixel((5, 100)), "#F8E4E6")  # the background: 84 % towards white
    assert close(face.getpixel((90, 60)), "#FFFFFF")  # inside the disc, above the icon
    assert close(face.getpixel((40, 95)), "#D1495B", 60)  # on the ring's left edge
    back = render(tmp_path, laid.back, W, H)
    assert close(back.getpixel((90, 30)), "#6B2A7A")  # accent_dark
    title = [back.getpixel((x, 110)) for x in range(30, 150)]
    assert any(close(p, "#FFFFFF") for p in title)  # the title, white on the dark back


# --- errors at their places -------------------------------------------------------------------


def test_template_errors_are_reported_at_file_line_and_column(tmp_path):
    where = "decks/test/templates/t.yaml"
    assert problems_of(tmp_path, "elements:\n  - {name: a, type: rect, fil: black}\n") == [
        f"{where}:4:27: elements[0].fil: unknown key 'fil'; did you mean 'fill'?"
    ]
    found = problems_of(
        tmp_path,
        """
styles: {s: {font_size: 12pt}}
elements:
  - {name: b, type: rect, fill: accnt}
  - {name: c, type: text, text: x, style: big}
  - {name: d, type: rect, x: 12, fill: black}
  - {name: e, type: rect, points: [[0, 0], [1pt, 1pt], [2pt, 0]], fill: black}
  - {name: f, type: rect, fill: "mix(accent, white)"}
  - {name: g, type: rect, x: "10pt +", fill: black}
""",
    )
    assert found == [
        f"{where}:6:33: elements[0].fill: unknown colour 'accnt'; did you mean 'accent'?",
        f"{where}:7:43: elements[1].style: unknown style 'big' (styles: s)",
        f"{where}:8:30: elements[2].x: 12 needs a unit: '12mm', '12pt' or '12%'",
        f"{where}:9:27: elements[3].points: a rect element has no key 'points'",
        f"{where}:10:33: elements[4].fill: expected ',', found ')'",
        f"{where}:11:30: elements[5].x: the expression ends too early",
    ]


def test_extends_problems_name_the_line_of_extends(tmp_path):
    lib_problems = problems_of(
        tmp_path, "", head="kind: template\nextends: nothing\n", other="kind: template\n"
    )
    known = ", ".join(sorted({"other", "t", *(path.stem for path in SHIPPED.glob("*.yaml"))}))
    assert lib_problems == [
        f"decks/test/templates/t.yaml:2:10: extends: no template named 'nothing' (known: {known})"
    ]
    loop = problems_of(
        tmp_path,
        "",
        head="kind: template\nextends: other\n",
        other="kind: template\nextends: t\n",
    )
    assert loop[0].startswith("decks/test/templates/")
    assert "extends loops: t (decks/test/templates/t.yaml) → other" in loop[0]


def test_a_template_error_shows_its_line_with_a_caret(tmp_path, capsys):
    from deckforge.cli.show import show

    lib = library(tmp_path, t=HEAD + "elements:\n  - {name: a, type: rect, fil: black}\n")
    _, problems = lay_out(lib, [{}], "t")
    shown = show(problems[0], tmp_path)
    assert shown.splitlines()[1:] == [
        "    4 |   - {name: a, type: rect, fil: black}",
        "      |                           ^",
    ]


# --- fonts, schema --------------------------------------------------------------------------


def test_a_font_file_in_the_project_sets_text_with_the_persian_fallback(tmp_path):
    from deckforge.text import fonts, lineface

    folder = tmp_path / "decks" / "test" / "templates"
    folder.mkdir(parents=True)
    shutil.copy(fonts.face("latin", "bold").path, folder / "Mine.ttf")
    body = "elements:\n  - {name: t, type: text, text: '{n}', font: Mine.ttf, from: safe}\n"
    (latin,) = one(tmp_path, body, [{"n": text("Kitchen")}])
    assert latin.fitted.lines[0].runs[0].font.startswith("Mine-")
    (persian,) = one(tmp_path, body, [{"n": text("آشپزخانه")}], locale="fa")
    # Drawn as the regular Arabic face, in the face Persian lines are drawn in.
    assert persian.fitted.lines[0].runs[0].font == lineface.face(fonts.REGULAR).name
    missing = problems_of(tmp_path, body.replace("Mine.ttf", "Gone.ttf"))
    assert missing == [
        "decks/test/templates/t.yaml:4:46: elements[0].font: the file 'Gone.ttf' does not exist "
        "(looked in decks/test/templates/)"
    ]


def test_the_schema_file_is_generated_from_the_element_registry():
    from deckforge.templates.schema import text as schema_text

    written = (ROOT / "schemas" / "template.schema.json").read_text(encoding="utf-8")
    assert written == schema_text(), "run: python -m deckforge.templates.schema > schemas/..."
    assert json.loads(written)["properties"]["kind"] == {"const": "template"}


@pytest.mark.parametrize("path", sorted(SHIPPED.glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_templates_pass_the_schema_and_the_compiled_check_agrees(path: Path):
    from deckforge.sources.schema import quick_check, schema_problems
    from deckforge.sources.source import load_yaml

    source, problems = load_yaml(path, path.name)
    assert problems == [] and list(schema_problems(source, "template", quick=False)) == []
    quick_check("template")(source.data)
    assert read(path, path.name)[1] == []


def test_face_of_an_element_that_draws_nothing_is_left_out(tmp_path):
    ops = one(
        tmp_path, "elements:\n  - {name: e, type: rect}\n  - {name: t, type: text, text: ''}\n"
    )
    assert ops == [] and Face(()) == Face(())


def test_a_binding_to_a_field_typed_cards_lack_is_an_error_at_the_binding(tmp_path):
    from deckforge.kinds.places import Category, PlaceCard

    card = PlaceCard("k", text("Kitchen"), Category("h", text("Home"), "#D1495B"), None)
    body = "elements:\n  - {name: q, type: text, text: '{category.title}'}\n"
    assert problems_of(tmp_path, body, [card]) == [
        "decks/test/templates/t.yaml:4:33: elements[0].text: '{category.title}': a Category "
        "has no field 'title' (id, name, colour)"
    ]
