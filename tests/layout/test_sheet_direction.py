"""Sheets are read in the edition's direction: a right-to-left edition's first card is at
the top right and its rows run leftwards, a left-to-right edition's as before; every
back registers with its face, on the duplex backs sheet and across the gutterfold.

Where each card is drawn is read from the built PDF (the clip and origin every placement
starts with); which card it is, by comparing its pixels with the cards of the printer
file, one card side a page in the manifest's card order, as the exports read them.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from conftest import entry
from deckforge.drawing.ops import Card, Face, Rect
from deckforge.layout.impose import impose
from deckforge.profiles import all_profiles
from deckforge.render.raster import rasterize
from deckforge.units import mm

HOME = ("pnp-a4", "pnp-letter", "pnp-a4-fold", "pnp-letter-fold")
#: Decks whose cards tell each other apart, and their editions' direction.
DECKS = (
    ("guess-the-mess-fa", "places", True),
    ("guess-the-mess-fa", "players", True),
    ("guess-the-mess-fa", "mess", True),
    ("gomaneh-fa", "votes", True),
    ("guess-the-mess-en", "places", False),
    ("guess-the-mess-en", "players", False),
    ("guess-the-mess-en", "mess", False),
)
DPI = 50
SCALE = DPI / 72
#: Registration to 0.00 mm: every back within half a hundredth of a millimetre.
REGISTERED = mm(0.005)


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return value


def placed(path: Path, page: int) -> list[tuple[tuple[float, ...], bool]]:
    """Each card the page draws: its area (x, y, w, h) and whether it is turned upside
    down, from the operators that start every placement (``q x y w h re W n`` at the
    page's top level, a shaped card's clip path, then a turn and the move to its
    origin)."""
    with pikepdf.open(path) as pdf:
        ops = [
            (str(operator), [_number(v) for v in operands])
            for operands, operator in pikepdf.parse_content_stream(pdf.pages[page])
        ]
    found, depth = [], 0
    for i, (operator, _) in enumerate(ops):
        if operator == "q":
            if depth == 0 and [o for o, _ in ops[i + 1 : i + 4]] == ["re", "W", "n"]:
                move = next(j for j in range(i + 4, len(ops)) if ops[j][0] == "cm")
                turned = ops[move][1][:4] == [-1, 0, 0, -1]
                found.append((tuple(ops[i + 1][1]), turned))
            depth += 1
        elif operator == "Q":
            depth -= 1
    return found


@cache
def _page(path: Path, page: int) -> Image.Image:
    return rasterize(path, page, DPI).filter(ImageFilter.GaussianBlur(1))


def _crop(image: Image.Image, area: tuple[float, ...], page_h: float) -> Image.Image:
    x, y, w, h = area
    box = (x * SCALE, (page_h - y - h) * SCALE, (x + w) * SCALE, (page_h - y) * SCALE)
    return image.crop(tuple(round(v) for v in box))


def _printed(built: Path, printer: dict, side: int) -> Image.Image:
    """A page of the printer file cut to its trim (one card side, bleed removed)."""
    path = built / printer["path"]
    with pikepdf.open(path) as pdf:
        trim = [float(v) for v in pdf.pages[side].TrimBox]
        page_h = float(pdf.pages[side].MediaBox[3])
    return _crop(
        _page(path, side), (trim[0], trim[1], trim[2] - trim[0], trim[3] - trim[1]), page_h
    )


def _difference(a: Image.Image, b: Image.Image) -> float:
    a = a.resize(b.size)
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def _reading_order(areas, rtl: bool, fold: bool) -> list:
    """The faces' areas in the order a reader of the edition's script meets them: rows
    from the top (left to right, a gutterfold sheet's rows from the fold, as they always
    were), each row from its start."""
    across = -1 if rtl else 1
    down = 1 if fold and not rtl else -1
    return sorted(areas, key=lambda a: (down * round(a[1], 2), across * round(a[0], 2)))


def _sheet(built: Path, manifest: list[dict], edition: str, deck: str, profile: str):
    home = entry(manifest, edition=edition, profile=profile, deck=deck)
    printer = entry(manifest, edition=edition, profile="printer", deck=deck)
    # The manifest names the cards in the same order for both files: the k-th card of a
    # sheet is the printer file's k-th card.
    assert home["card_names"] == printer["card_names"]
    return built / home["path"], printer


@pytest.mark.parametrize("profile", HOME)
@pytest.mark.parametrize(("edition", "deck", "rtl"), DECKS)
def test_cards_follow_the_edition_s_reading_order(built, manifest, edition, deck, rtl, profile):
    path, printer = _sheet(built, manifest, edition, deck, profile)
    fold = profile.endswith("fold")
    faces = [area for area, turned in placed(path, 0) if not turned]
    ordered = _reading_order(faces, rtl, fold)
    with pikepdf.open(path) as pdf:
        page_w, page_h = (float(v) for v in pdf.pages[0].MediaBox[2:])
    first = ordered[0]
    if rtl:  # the first card is at the top right: none stands higher or further right
        assert all(first[0] >= a[0] - 0.01 and first[1] >= a[1] - 0.01 for a in faces)
    assert first[0] + first[2] > page_w / 2 if rtl else first[0] < page_w / 2
    sheet = _page(path, 0)
    cards = [_printed(built, printer, 2 * k + 1) for k in range(len(faces))]
    for k, area in enumerate(ordered):
        drawn = _crop(sheet, area, page_h)
        differences = [_difference(drawn, card) for card in cards]
        best = min(range(len(cards)), key=differences.__getitem__)
        # Equal cards (blank places) may stand for each other; any other card is the k-th.
        assert differences[k] <= differences[best] + 0.5, (k, best, differences)


@pytest.mark.parametrize("profile", HOME)
@pytest.mark.parametrize(("edition", "deck", "rtl"), DECKS)
def test_every_back_registers_with_its_face(built, manifest, edition, deck, rtl, profile):
    """Long-edge duplex: the back is at the face's place mirrored left to right on the
    backs sheet. Gutterfold: the back is the face's place mirrored across the fold line,
    turned upside down. Either way to 0.00 mm, and it is that card's back."""
    _registered(built, manifest, edition, deck, rtl, profile)


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> tuple[Path, list[dict]]:
    """The game 'deckforge new game' makes, built in every home profile and the printer's
    (its output folder and manifest entries)."""
    import json

    from deckforge.authoring.game import new_game
    from deckforge.cli import main
    from deckforge.sources.load import Project

    root = tmp_path_factory.mktemp("starter")
    (root / "decks").mkdir()
    new_game(Project(root / "decks"), "quiz")
    out = root / "build"
    profiles = [arg for p in (*HOME, "printer") for arg in ("--profile", p)]
    args = ["--decks", str(root / "decks"), "build", "--out", str(out), "--quiet"]
    assert main([*args, *profiles]) == 0
    return out, json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]


@pytest.mark.parametrize("profile", HOME)
@pytest.mark.parametrize("deck", ["journeys", "tokens", "tiles"])
def test_backs_of_landscape_round_and_hexagonal_cards_register(starter, deck, profile):
    """The same, for cards printed landscape (journeys), round tokens and hex tiles."""
    _registered(*starter, "quiz", deck, False, profile)


def _registered(built, manifest, edition, deck, rtl, profile):
    path, printer = _sheet(built, manifest, edition, deck, profile)
    fold = profile.endswith("fold")
    with pikepdf.open(path) as pdf:
        page_w, page_h = (float(v) for v in pdf.pages[0].MediaBox[2:])
    front = placed(path, 0)
    faces = _reading_order([a for a, turned in front if not turned], rtl, fold)
    if fold:
        backs = [area for area, turned in front if turned]
        sheet, page = _page(path, 0), 0
    else:
        backs = [area for area, turned in placed(path, 1)]
        assert not any(turned for _, turned in placed(path, 1))
        sheet, page = _page(path, 1), 1
    assert len(backs) == len(faces)
    printed = [_printed(built, printer, 2 * k) for k in range(len(faces))]
    for k, (x, y, w, h) in enumerate(faces):
        want = (x, page_h - y - h) if fold else (page_w - x - w, y)
        # The printer's offset is 0 here: the back's corner is exactly the mirrored one.
        (back,) = [a for a in backs if abs(a[0] - want[0]) < mm(1) and abs(a[1] - want[1]) < mm(1)]
        assert abs(back[0] - want[0]) <= REGISTERED and abs(back[1] - want[1]) <= REGISTERED
        assert back[2:] == pytest.approx((w, h), abs=REGISTERED)
        drawn = _crop(sheet, back, page_h)
        if fold:
            drawn = drawn.rotate(180)
        differences = [_difference(drawn, card) for card in printed]
        assert differences[k] <= min(differences) + 0.5, (page, k, differences)


def _cards(count: int, w: float = mm(63.5), h: float = mm(88.9)) -> list[Card]:
    """Cards told apart by the colour of their one rectangle, face and back alike."""
    cards = []
    for n in range(count):
        colour = (n / count, 0.5, 0.5)
        face = Face((Rect(0, 0, w, h, fill=colour),), key=f"face{n}")
        back = Face((Rect(0, 0, w, h, fill=colour),), key=f"back{n}")
        cards.append(Card(f"c{n}", w, h, face, back))
    return cards


def _colour(placement) -> tuple:
    return placement.face.ops[0].fill


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_right_to_left_backs_mirror_their_faces_for_either_duplex_edge(duplex):
    profile = replace(all_profiles()["pnp-a4"], duplex=duplex)
    faces, backs = impose(_cards(9), profile, rtl=True)
    first = faces.placements[0]
    assert first.x == max(p.x for p in faces.placements)
    assert first.y == max(p.y for p in faces.placements)
    # Each row runs leftwards: the second card is left of the first, on its row.
    second = faces.placements[1]
    assert second.y == first.y and second.x < first.x
    for face, back in zip(faces.placements, backs.placements, strict=True):
        assert _colour(back) == _colour(face)
        if duplex == "short-edge":
            assert back.x == pytest.approx(face.x, abs=REGISTERED)
            assert back.y == pytest.approx(faces.height - face.y - mm(88.9), abs=REGISTERED)
        else:
            assert back.y == pytest.approx(face.y, abs=REGISTERED)
            assert back.x == pytest.approx(faces.width - face.x - mm(63.5), abs=REGISTERED)
    # Long edge: the backs of a right-to-left sheet run left to right.
    if duplex == "long-edge":
        assert backs.placements[0].x == min(p.x for p in backs.placements)


@pytest.mark.parametrize("profile", HOME)
def test_left_to_right_sheets_are_laid_as_before(profile):
    """The left-to-right places of every card and back, from the grid's cells as they
    were laid before sheets had a direction."""
    from deckforge.layout.impose import fold_grid_for, grid_for

    chosen = all_profiles()[profile]
    cards = _cards(20, mm(44), mm(68))  # mini Euro: two rows either side of an A4 fold
    if profile.endswith("fold"):
        grid = fold_grid_for(chosen, mm(44), mm(68))
        (page, *_) = impose(cards, chosen)
        for index, (face, back) in enumerate(zip(*[iter(page.placements)] * 2, strict=True)):
            row, col = divmod(index, grid.cols)
            assert (face.x, face.y) == grid.face(row, col)
            assert (back.x, back.y) == grid.back(row, col) and back.rotate == 180
        return
    grid = grid_for(chosen, mm(44), mm(68))
    faces, backs, *_ = impose(cards, chosen)
    for index, (face, back) in enumerate(zip(faces.placements, backs.placements, strict=True)):
        row, col = divmod(index, grid.cols)
        assert (face.x, face.y) == grid.cell(row, col)
        assert (back.x, back.y) == grid.cell(row, grid.cols - 1 - col)


def test_right_to_left_gutterfold_starts_at_the_top_right():
    profile = all_profiles()["pnp-a4-fold"]
    (page, *_) = impose(_cards(20, mm(44), mm(68)), profile, rtl=True)
    faces = [p for p in page.placements if p.rotate == 0]
    backs = [p for p in page.placements if p.rotate == 180]
    assert faces[0].x == max(p.x for p in faces) and faces[0].y == max(p.y for p in faces)
    assert faces[1].y == faces[0].y and faces[1].x < faces[0].x
    fold = page.height / 2
    for face, back in zip(faces, backs, strict=True):
        assert _colour(back) == _colour(face)
        assert back.x == pytest.approx(face.x, abs=REGISTERED)
        assert (face.y + back.y + mm(68)) / 2 == pytest.approx(fold, abs=REGISTERED)
