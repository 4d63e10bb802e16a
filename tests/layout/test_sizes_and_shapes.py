"""Cards of any size and shape, from their templates: a landscape deck, a square deck, 40
round tokens and 19 pointy hex tiles, built in every profile and read back from the PDFs
(page boxes, how many cards a sheet holds, the cut lines and the shops' die lines)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pikepdf
import pytest

from deckforge.cli import main
from deckforge.profiles import all_profiles
from deckforge.render.raster import rasterize
from deckforge.units import mm

#: The decks of the edition built here: (id, face and back template keys, cards).
LANDSCAPE = "width: 88.9mm\nheight: 63.5mm\n"
SQUARE = "size: square\n"
TOKEN = "width: 25mm\nshape: {type: circle}\nbleed: 2mm\nsafe: 2mm\n"
TILE = "height: 50mm\nshape: {type: hexagon, orientation: pointy}\nbleed: 2mm\nsafe: 4mm\n"
DECKS = {"landscape": (LANDSCAPE, 9), "square": (SQUARE, 9), "tokens": (TOKEN, 40)}
DECKS["tiles"] = (TILE, 19)
ROUNDED = "size: poker\nshape: {type: rect, radius: 3mm}\n"
FLAT = "width: 50mm\nshape: {type: hexagon, orientation: flat}\nbleed: 2mm\nsafe: 4mm\n"
DECKS["rounded"], DECKS["flat"] = (ROUNDED, 9), (FLAT, 7)
SIDES = ("face", "back")

EDITION = """\
kind: edition
id: shapes
game: shapes
title: Shapes
locale: en
players: {min: 2, max: 4}
decks:
"""
FACE = """\
kind: template
{size}elements:
  - {{name: background, type: rect, bleed: true, fill: "#3E7CB1"}}
  - {{name: label, type: text, text: "{{label}}", x: 20%, right: 20%, y: 40%, h: 20%}}
"""
BACK = """\
kind: template
{size}elements:
  - {{name: background, type: rect, bleed: true, fill: "#E4572E"}}
"""


def write_edition(folder: Path, decks: dict = DECKS) -> Path:
    """An edition of the decks, each face and back of the size and shape given."""
    (folder / "templates").mkdir(parents=True)
    lines = [EDITION]
    for deck, (size, count) in decks.items():
        (folder / "templates" / f"{deck}-face.yaml").write_text(FACE.format(size=size))
        (folder / "templates" / f"{deck}-back.yaml").write_text(BACK.format(size=size))
        cards = "".join(f"  - {{id: c{n}, label: '{n}'}}\n" for n in range(1, count + 1))
        source = f"kind: cards\nface: {deck}-face\nback: {deck}-back\ncards:\n{cards}"
        (folder / f"{deck}.yaml").write_text(source)
        lines.append(f"  - {{id: {deck}, source: {deck}.yaml, count: {count}}}\n")
    (folder / "edition.yaml").write_text("".join(lines))
    return folder


@pytest.fixture(scope="module")
def shapes(tmp_path_factory) -> tuple[Path, list[dict]]:
    """The edition built in every profile: the output folder and the manifest's cards."""
    root = tmp_path_factory.mktemp("shapes")
    write_edition(root / "decks" / "shapes")
    out = root / "build"
    assert main(["--decks", str(root / "decks"), "build", "--out", str(out), "--quiet"]) == 0
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    return out, [e for e in entries if e["kind"] == "cards"]


def _entry(shapes, deck: str, profile: str) -> tuple[Path, dict]:
    out, entries = shapes
    (found,) = [e for e in entries if e["deck"] == deck and e["profile"] == profile]
    return out / found["path"], found


def _box(page, name: str) -> tuple[float, float]:
    box = [float(v) for v in page[name]]
    return round(box[2] - box[0], 2), round(box[3] - box[1], 2)


def _placements(page) -> int:
    """How many card sides a page draws: placements start ``q x y w h re W n``."""
    ops = [str(op) for _, op in pikepdf.parse_content_stream(page)]
    return sum(ops[i : i + 4] == ["q", "re", "W", "n"] for i in range(len(ops)))


def test_a_deck_prints_at_its_templates_size_landscape_in_every_profile(shapes):
    path, found = _entry(shapes, "landscape", "printer")
    assert found["trim_mm"] == [88.9, 63.5]
    with pikepdf.open(path) as pdf:
        assert {_box(page, "/TrimBox") for page in pdf.pages} == {(252.0, 180.0)}
        assert len(pdf.pages) == 18
    path, _ = _entry(shapes, "landscape", "pnp-a4")
    with pikepdf.open(path) as pdf:
        faces, backs = pdf.pages[0], pdf.pages[1]
        assert _box(faces, "/MediaBox") == (841.89, 595.28)  # A4 turned: 3 × 3 fit
        assert _placements(faces) == _placements(backs) == 9
        assert len(pdf.pages) == 2


def test_a_square_deck_prints_square(shapes):
    path, found = _entry(shapes, "square", "printer")
    assert found["trim_mm"] == [70.0, 70.0]
    with pikepdf.open(path) as pdf:
        assert {_box(page, "/TrimBox") for page in pdf.pages} == {(198.43, 198.43)}


def test_a_deck_gives_its_size_over_its_templates(tmp_path):
    folder = write_edition(tmp_path / "decks" / "shapes", {"landscape": (LANDSCAPE, 3)})
    text = (folder / "edition.yaml").read_text()
    (folder / "edition.yaml").write_text(text.replace("count: 3}", "count: 3, size: poker}"))
    out = tmp_path / "build"
    args = ["--decks", str(tmp_path / "decks"), "build", "--out", str(out), "--quiet"]
    assert main([*args, "--profile", "printer"]) == 0
    entries = json.loads((out / "manifest.json").read_text())["outputs"]
    assert [e["trim_mm"] for e in entries if e["kind"] == "cards"] == [[63.5, 88.9]]


def test_a_face_and_a_back_of_different_sizes_are_an_error_naming_both(tmp_path, capsys):
    folder = write_edition(tmp_path / "decks" / "shapes", {"landscape": (LANDSCAPE, 3)})
    back = folder / "templates" / "landscape-back.yaml"
    back.write_text(BACK.format(size=SQUARE))
    code = main(["--decks", str(tmp_path / "decks"), "validate"])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("decks/")]
    assert code == 1
    assert lines == [
        "decks/shapes/templates/landscape-back.yaml:2:7: size: the back template 'landscape-back' "
        "is a 70 × 70 mm card, the face template 'landscape-face' "
        "(decks/shapes/templates/landscape-face.yaml:2:8) a 88.9 × 63.5 mm one: give both "
        "the same size and shape, or the deck a 'size'"
    ]


@pytest.mark.parametrize(("deck", "cards", "across"), [("tokens", 40, 25.0), ("tiles", 19, 50.0)])
def test_tokens_and_tiles_fill_as_few_a4_sheets_as_fit(shapes, deck, cards, across):
    path, found = _entry(shapes, deck, "pnp-a4")
    w, h = found["trim_mm"]
    assert max(w, h) == pytest.approx(across, abs=0.01)
    profile = all_profiles()["pnp-a4"]
    usable = [side - 2 * profile.margin for side in profile.paper]
    most = max(int(a // mm(w)) * int(b // mm(h)) for a, b in (usable, usable[::-1]))
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 2 * math.ceil(cards / most)
        assert sum(_placements(page) for page in pdf.pages[::2]) == cards


def _cut_strokes(page) -> list[list[str]]:
    """The paths stroked in the CutContour spot colour, each as its operators, and
    whether each was inside an optional-content group (its /OC name) or not ('')."""
    found, layer, path, spot = [], "", [], False
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "BDC" and str(operands[0]) == "/OC":
            layer = str(operands[1])
        elif op == "EMC":
            layer = ""
        elif op == "CS":
            spot = str(operands[0]) == "/CutContour"
        elif op in ("m", "l", "c", "h", "re"):
            path.append(op)
        elif op == "S" and spot:
            found.append((layer, path))
            path = []
        elif op in ("S", "f", "n", "B", "f*", "W"):
            path = []
    return found


@pytest.mark.parametrize("profile", ["printer", "printer-cmyk"])
@pytest.mark.parametrize(
    ("deck", "curve"), [("tokens", "c"), ("tiles", "l"), ("rounded", "c"), ("flat", "l")]
)
def test_shop_files_carry_one_cutcontour_die_line_a_page(shapes, profile, deck, curve):
    """The die line is a Separation 'CutContour' path, stroked and overprinting, drawn
    after the art; in PDF/X-4 on its own layer, in PDF/X-1a (which has no optional
    content) without one."""
    path, _ = _entry(shapes, deck, profile)
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            (stroke,) = _cut_strokes(page)
            layer, ops = stroke
            assert curve in ops and ops[-1] == "h"
            resources = page.Resources
            space = resources.ColorSpace.CutContour
            assert str(space[0]) == "/Separation" and str(space[1]) == "/CutContour"
            states = [resources.ExtGState[k] for k in resources.ExtGState.keys()]
            assert any(bool(s.get("/OP", False)) for s in states)
            if profile == "printer":
                assert layer and str(resources.Properties[layer].Name) == "CutContour"
            else:
                assert layer == ""
        layers = pdf.Root.get("/OCProperties")
        if profile == "printer":
            assert [str(g.Name) for g in layers.OCGs] == ["CutContour"]
            assert str(layers.D.Name) == "Default"
        else:
            assert layers is None


def test_bleed_follows_the_shape(shapes):
    """A token's art reaches the printer's bleed beyond its circle, and nothing paints
    the page's corners, outside that circle grown by the bleed."""
    path, found = _entry(shapes, "tokens", "printer")
    image = rasterize(path, 1, 150).convert("RGB")
    scale = 150 / 72
    w = image.width
    centre = w / 2
    assert image.getpixel((2, 2)) == (255, 255, 255)
    radius = (mm(12.5) + mm(found["bleed_mm"]) - mm(0.6)) * scale
    x = round(centre + radius / math.sqrt(2))
    y = round(image.height / 2 - radius / math.sqrt(2))
    r, g, b = image.getpixel((x, y))
    assert b > r + 60  # the face's blue, beyond the trim's circle


@pytest.mark.parametrize("profile", ["pnp-a4", "pnp-a4-fold"])
def test_home_sheets_draw_each_tokens_circular_cut_line_and_no_crop_marks(shapes, profile):
    path, _ = _entry(shapes, "tokens", profile)
    with pikepdf.open(path) as pdf:
        ops = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0])]
        # A gutterfold sheet places each token's face and its back.
        tokens = _placements(pdf.pages[0]) // (2 if profile.endswith("fold") else 1)
    assert tokens == (35 if profile.endswith("fold") else 40)
    # After the cards: a circle (four curves) per token, stroked as one path; no crop
    # marks (a gutterfold sheet keeps its fold line).
    tail = ops[len(ops) - ops[::-1].index("Q") :]
    assert tail.count("c") == 4 * tokens and tail.count("m") == tokens + profile.endswith("fold")
    assert tail.count("S") == 1 + profile.endswith("fold")
    assert tail.count("l") == (1 if profile.endswith("fold") else 0)


def test_preflight_passes_every_file_of_shaped_and_turned_cards(shapes):
    from deckforge.preflight import preflight_file

    out, entries = shapes
    for found in entries:
        report = preflight_file(out / found["path"], found)
        assert not report.failed, (found["path"], report.checks)
        (die,) = [c for c in report.checks if c.name == "die line"]
        if found["profile"].startswith("printer") and found["deck"] not in ("landscape", "square"):
            assert die.status == "ok", die


def test_preflight_fails_a_die_line_that_does_not_overprint(shapes, tmp_path):
    from deckforge.preflight import preflight_file

    path, found = _entry(shapes, "tokens", "printer-cmyk")
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            for state in page.Resources.ExtGState.values():
                if "/OP" in state:
                    state.OP = False
        pdf.save(tmp_path / "tokens.pdf")
    report = preflight_file(tmp_path / "tokens.pdf", found)
    (die,) = [c for c in report.checks if c.name == "die line"]
    assert (die.status, die.detail) == (
        "fail",
        "page 1: the CutContour path does not overprint (and 79 more problems)",
    )


def _tts(shapes, deck: str, folder: Path) -> dict:
    from deckforge.render.raster import carry_out, read_deck, tts_plan

    path, found = _entry(shapes, deck, "printer")
    carry_out([tts_plan(read_deck(path, found), folder, deck, deck)])
    return json.loads((folder / f"{deck}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("deck", "kind"), [("tokens", 2), ("tiles", 1)])
def test_tokens_and_tiles_are_tabletop_simulator_tiles_of_their_shape(shapes, tmp_path, deck, kind):
    """One Custom_Tile a card, of the circle or hexagon type, its face on top and its back
    below, each picture its card's trim at 300 dpi and the printer page's side."""
    from PIL import Image, ImageChops, ImageStat

    saved = _tts(shapes, deck, tmp_path)
    pieces = saved["ObjectStates"]
    count = DECKS[deck][1]
    assert [p["Name"] for p in pieces] == ["Custom_Tile"] * count
    assert [p["Nickname"] for p in pieces] == [f"c{n}" for n in range(1, count + 1)]
    assert {p["CustomImage"]["CustomTile"]["Type"] for p in pieces} == {kind}
    path, found = _entry(shapes, deck, "printer")
    w, h = found["trim_mm"]
    for number, piece in enumerate(pieces[:3]):
        face = Image.open(piece["CustomImage"]["ImageURL"].removeprefix("file://"))
        back = Image.open(piece["CustomImage"]["ImageSecondaryURL"].removeprefix("file://"))
        assert face.size == back.size == (round(mm(w) * 300 / 72), round(mm(h) * 300 / 72))
        page = rasterize(path, 2 * number + 1, 300).convert("RGB")
        bleed = round(mm(found["bleed_mm"]) * 300 / 72)
        trimmed = page.crop((bleed, bleed, bleed + face.width, bleed + face.height))
        difference = ImageStat.Stat(ImageChops.difference(trimmed, face.convert("RGB"))).mean
        assert sum(difference) / 3 < 2, number


def test_landscape_cards_lie_sideways_in_tabletop_simulator(shapes, tmp_path):
    saved = _tts(shapes, "landscape", tmp_path)
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["SidewaysCard"] is True
    assert {card["SidewaysCard"] for card in deck["ContainedObjects"]} == {True}


def test_png_exports_are_each_card_at_its_own_size(shapes, tmp_path):
    from PIL import Image

    from deckforge.render.raster import carry_out, png_plan, read_deck

    for deck in DECKS:
        path, found = _entry(shapes, deck, "printer")
        folder = tmp_path / deck
        carry_out([png_plan(read_deck(path, found), folder)])
        w, h = (side + 2 * found["bleed_mm"] for side in found["trim_mm"])
        size = (round(mm(w) * 300 / 72), round(mm(h) * 300 / 72))
        faces = sorted(folder.glob("*-face.png"))
        assert len(faces) == DECKS[deck][1]
        assert {Image.open(face).size for face in faces} == {size}, deck


def _magenta(image):
    """A mask of the pixels the die line's alternate (100 % magenta) paints: red and blue
    far above green."""
    import numpy as np

    rgb = np.asarray(image.convert("RGB"), dtype=int)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return (r - g > 80) & (b - g > 50)


def test_png_exports_of_round_tokens_leave_out_the_die_line(shapes, tmp_path):
    """The printer page shows its CutContour line at the cut; the exported face has no
    magenta pixel there, and away from the cut it is the rasterized page."""
    import numpy as np
    from PIL import Image

    from deckforge.render.raster import carry_out, png_plan, read_deck

    path, found = _entry(shapes, "tokens", "printer")
    carry_out([png_plan(read_deck(path, found), tmp_path)])
    face = Image.open(sorted(tmp_path.glob("*-face.png"))[0]).convert("RGB")
    page = rasterize(path, 1, 300).convert("RGB")
    assert face.size == page.size
    # The cut: a circle of the trim's diameter about the page's centre, within 3 px.
    scale = 300 / 72
    rows, cols = np.indices((page.height, page.width))
    centre_x, centre_y = page.width / 2, page.height / 2
    radius = mm(found["trim_mm"][0]) / 2 * scale
    near = np.abs(np.hypot(cols + 0.5 - centre_x, rows + 0.5 - centre_y) - radius) < 3
    assert _magenta(page)[near].sum() > 100  # the viewer's page does show the die line
    assert _magenta(face).sum() == 0
    ours, theirs = np.asarray(face, dtype=float), np.asarray(page, dtype=float)
    assert np.abs(ours - theirs)[~near].mean() < 0.5
    assert np.abs(ours - theirs)[~near].max() <= 8


def test_a_flat_hexagon_is_given_across_its_corners_by_its_width(shapes):
    _, found = _entry(shapes, "flat", "printer")
    assert found["trim_mm"] == [50.0, 43.3] and found["shape"] == "hexagon-flat"
    _, found = _entry(shapes, "rounded", "printer")
    assert found["trim_mm"] == [63.5, 88.9] and found["shape"] == "rect-3mm"


def test_rounded_cards_keep_their_crop_marks_and_get_their_cut_line(shapes):
    path, _ = _entry(shapes, "rounded", "pnp-a4")
    with pikepdf.open(path) as pdf:
        ops = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0])]
    tail = ops[len(ops) - ops[::-1].index("Q") :]
    # Four rounded corners a card, and straight crop marks beyond the cards.
    assert tail.count("c") == 4 * 9 and tail.count("S") == 2


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ("{type: rect, radius: 40mm}", "3:8: shape: a corner's radius must be from 0 to 31.75mm"),
        ("{type: oval}", "3:15: shape.type: 'oval' is not one of: rect, circle, hexagon"),
    ],
    ids=["radius-too-large", "unknown-shape"],
)
def test_a_wrong_shape_is_an_error_at_its_line(tmp_path, capsys, shape, expected):
    folder = write_edition(tmp_path / "decks" / "shapes", {"rounded": (ROUNDED, 3)})
    for side in SIDES:
        template = folder / "templates" / f"rounded-{side}.yaml"
        text = template.read_text()
        template.write_text(text.replace("{type: rect, radius: 3mm}", shape))
    assert main(["--decks", str(tmp_path / "decks"), "validate"]) == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("decks/")]
    assert lines == [f"decks/shapes/templates/rounded-{side}.yaml:{expected}" for side in SIDES]


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
@pytest.mark.parametrize("kind", ["circle", "hexagon"])
def test_shaped_backs_are_clipped_to_their_shape_where_they_register(duplex, kind):
    """Each back is at its face's place mirrored on the duplex axis, clipped to its own
    cut there (a hexagon is the same turned over either axis)."""
    from dataclasses import replace

    from deckforge.drawing.ops import Card, Face
    from deckforge.drawing.outline import Outline
    from deckforge.layout.impose import impose

    outline = Outline(kind)
    w, h = mm(43.3), mm(50)
    cards = [Card(f"c{n}", w, h, Face(()), Face(()), outline) for n in range(19)]
    profile = replace(all_profiles()["pnp-a4"], duplex=duplex)
    faces, backs = impose(cards, profile)
    assert len(faces.placements) == len(backs.placements) == 19
    for face, back in zip(faces.placements, backs.placements, strict=True):
        if duplex == "long-edge":
            assert back.y == face.y
            assert back.x == pytest.approx(faces.width - face.x - w, abs=mm(0.005))
        else:
            assert back.x == face.x
            assert back.y == pytest.approx(faces.height - face.y - h, abs=mm(0.005))
        assert face.clip_path == outline.path(face.x, face.y, w, h)
        assert back.clip_path == outline.path(back.x, back.y, w, h)


@pytest.mark.parametrize(
    ("deck", "inside", "outside"),
    [
        ("tokens", [(0.5, 0.5), (0.5, 0.02), (0.02, 0.5)], [(0.03, 0.03), (0.97, 0.97)]),
        ("tiles", [(0.5, 0.5), (0.5, 0.03), (0.02, 0.5)], [(0.05, 0.05), (0.95, 0.95)]),
    ],
)
def test_showcase_pictures_are_cut_to_the_cards_shape(shapes, deck, inside, outside):
    """The picture's alpha is the cut: opaque inside the circle or hexagon, clear beyond
    it (the corners of the trim)."""
    from deckforge.render.raster import read_deck
    from deckforge.render.raster.showcase import card_picture

    path, found = _entry(shapes, deck, "printer")
    picture = card_picture(read_deck(path, found), 0, 400)
    alpha = picture.getchannel("A")
    w, h = picture.size
    assert all(alpha.getpixel((round(x * (w - 1)), round(y * (h - 1)))) > 200 for x, y in inside)
    assert all(alpha.getpixel((round(x * (w - 1)), round(y * (h - 1)))) < 20 for x, y in outside)


def test_an_orientation_without_a_size_is_an_error_at_the_decks_entry(tmp_path, capsys):
    folder = write_edition(tmp_path / "decks" / "shapes", {"landscape": (LANDSCAPE, 3)})
    text = (folder / "edition.yaml").read_text()
    (folder / "edition.yaml").write_text(
        text.replace("count: 3}", "count: 3, orientation: landscape}")
    )
    assert main(["--decks", str(tmp_path / "decks"), "validate"]) == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("decks/")]
    assert lines == ["decks/shapes/edition.yaml:8:5: decks[0]: missing required key 'size'"]
