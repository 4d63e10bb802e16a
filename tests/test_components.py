"""گمانه's pawns and score track: printable in every profile, as a shop or a home
printer prints them; the layouts they replaced fail preflight."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest
from PIL import ImageChops, ImageStat

from conftest import DECKS
from deckforge.build.pipeline import gather
from deckforge.kinds.pawns import Pawns
from deckforge.kinds.track import Track
from deckforge.layout.components import lay_out_component
from deckforge.layout.components.track import GLUE, MARGIN
from deckforge.layout.ops import Document, Rect, Text, hex_colour
from deckforge.preflight import format_table, preflight_file
from deckforge.profiles import all_profiles
from deckforge.render import pdf
from deckforge.render.raster import rasterize
from deckforge.sources.load import Project, select_editions
from deckforge.units import mm
from old_components import _pawns as old_pawns
from old_components import _score_track as old_track

PROFILES = ("pnp-a4", "pnp-letter", "pnp-a4-fold", "pnp-letter-fold", "printer", "printer-cmyk")
DPI = 100


@pytest.fixture(scope="module")
def gomaneh():
    project = Project(Path(DECKS))
    editions, _ = gather(project, select_editions(project, ["gomaneh-fa"]))
    return editions[0]


def _component(edition, kind):
    return next(c for c in edition.components if isinstance(c, kind))


def _entry(name: str, profile: str, kind: str) -> dict:
    bleed = all_profiles()[profile].document_bleed
    return {"path": name, "profile": profile, "kind": kind, "bleed_mm": round(bleed / mm(1), 3)}


def _render(tmp_path: Path, name: str, pages, profile: str) -> Path:
    chosen = all_profiles()[profile]
    document = Document(
        tuple(pages),
        name,
        colour=chosen.colour,
        ink_limit=chosen.ink_limit,
        pdfx=chosen.pdfx,
        output_intent=chosen.output_intent,
    )
    path = tmp_path / f"{name}.pdf"
    pdf.render(document, path)
    return path


def test_the_old_pawns_and_score_track_fail_preflight(gomaneh, tmp_path):
    profile = all_profiles()["printer"]
    pawns = _render(
        tmp_path, "pawns", old_pawns(gomaneh, _component(gomaneh, Pawns), profile), "printer"
    )
    report = preflight_file(pawns, _entry("pawns.pdf", "printer", "pawns"))
    assert report.failed
    # The A4 layout on an A5 page: its second row runs off the bottom.
    assert report.check("page edge").status == "fail", format_table([report])
    assert report.check("page edge").detail.startswith("page 1: ")
    assert "past the MediaBox" in report.check("page edge").detail
    track = _render(
        tmp_path, "track", old_track(gomaneh, _component(gomaneh, Track), profile), "printer"
    )
    report = preflight_file(track, _entry("track.pdf", "printer", "board"))
    assert report.failed
    # Crop marks drawn inside the trim, where they would print.
    assert report.check("marks").status == "fail", format_table([report])
    assert "inside the trim" in report.check("marks").detail


@pytest.mark.parametrize("profile", PROFILES)
def test_pawns_and_track_pass_preflight_in_every_profile(built, manifest, profile):
    for deck in ("pawns", "score-track"):
        entry = next(
            e
            for e in manifest
            if e["edition"] == "gomaneh-fa" and e["profile"] == profile and e["deck"] == deck
        )
        report = preflight_file(built / entry["path"], entry)
        assert not report.failed, format_table([report])
        assert report.check("page edge").status == "ok"


@pytest.mark.parametrize("profile", PROFILES)
def test_every_pawn_is_whole_on_its_page(gomaneh, profile):
    chosen = all_profiles()[profile]
    set_ = _component(gomaneh, Pawns)
    _, pages, problems = lay_out_component(gomaneh, set_, chosen)
    assert not problems
    pieces = 0
    for page in pages:
        (placement,) = page.placements
        trim = page.trim_box or (0.0, 0.0, page.width, page.height)
        for op in placement.face.ops[1:]:  # after the background
            if getattr(op, "stroke", None) is None or not hasattr(op, "w"):
                continue
            x, y = op.x + placement.x, op.y + placement.y
            assert trim[0] + mm(5) <= x and x + op.w <= trim[2] - mm(5), (profile, op)
            assert trim[1] + mm(5) <= y and y + op.h <= trim[3] - mm(5), (profile, op)
            pieces += 1
    assert pieces == 4 * len(set_.colours)  # two tabs and two panels a pawn
    paper = chosen.document_paper
    assert all(
        (p.width, p.height)
        == pytest.approx(
            (paper[0] + 2 * chosen.document_bleed, paper[1] + 2 * chosen.document_bleed)
        )
        for p in pages
    )


def _column(image, x: int, top: int, bottom: int):
    return image.crop((x, top, x + 1, bottom))


def _track_file(built: Path, gomaneh, tmp_path: Path, profile: str, locale: str) -> Path:
    """The score track's file: as built (Persian, right to left), or laid out again for a
    left-to-right locale."""
    if locale == gomaneh.locale:
        return built / "gomaneh-fa" / profile / "score-track.pdf"
    edition = replace(gomaneh, locale=locale)
    _, pages, problems = lay_out_component(
        edition, _component(edition, Track), all_profiles()[profile]
    )
    assert not problems
    return _render(tmp_path, f"score-track-{locale}", pages, profile)


def _differ(a, b) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.mark.parametrize("locale", ["fa", "en"])
@pytest.mark.parametrize("profile", ["printer", "printer-cmyk"])
def test_shop_sheets_of_the_track_join_edge_to_edge(built, gomaneh, tmp_path, profile, locale):
    """Trimmed, sheet 1's end and sheet 2's start show the same art: the frame band and
    the paper run on across the join, with no gap. Sheet 1 holds the start of the track:
    its right edge meets sheet 2's left edge, or right to left, its left edge sheet 2's
    right edge."""
    path = _track_file(built, gomaneh, tmp_path, profile, locale)
    with pikepdf.open(path) as document:
        trims = [[float(v) for v in page.TrimBox] for page in document.pages]
        bleeds = [[float(v) for v in page.BleedBox] for page in document.pages]
    assert trims[0] == trims[1]
    first, second = rasterize(path, 0, DPI), rasterize(path, 1, DPI)
    scale = DPI / 72
    h = first.height
    x_left, x_right = round(trims[0][0] * scale), round(trims[0][2] * scale) - 1
    top, bottom = round((bleeds[0][3] - trims[0][3]) * scale), h - round(trims[0][1] * scale)
    rtl = locale == "fa"
    a = _column(first, x_left if rtl else x_right, top, bottom)
    b = _column(second, x_right if rtl else x_left, top, bottom)
    assert _differ(a, b) < 6
    # The art reaches through the bleed at the join: sheet 2's bleed shows sheet 1's end.
    bleed_col = _column(second, second.width - 2 if rtl else 1, top, bottom)
    assert _differ(bleed_col, a) < 12


@pytest.mark.parametrize("locale", ["fa", "en"])
@pytest.mark.parametrize("profile", ["pnp-a4", "pnp-letter"])
def test_home_sheets_of_the_track_join_over_the_glue_strip(
    built, gomaneh, tmp_path, profile, locale
):
    """Sheet 1 is cut at its tile's edge and laid on sheet 2's glue strip up to the
    ticks: the strip repeats sheet 1's end, so the art runs on at the cut. Left to right
    sheet 1 is the board's left end and the strip is left of sheet 2's tile; right to
    left, the board's right end and the strip right of the tile."""
    path = _track_file(built, gomaneh, tmp_path, profile, locale)
    first, second = rasterize(path, 0, DPI), rasterize(path, 1, DPI)
    scale = DPI / 72
    w = first.width / scale
    tile_w = w - 2 * MARGIN - GLUE
    top, bottom = round(MARGIN * scale) + 2, first.height - round(MARGIN * scale) - 2
    if locale == "fa":
        cut, strip_edge, inward = MARGIN, MARGIN + tile_w, 1
    else:
        cut, strip_edge, inward = MARGIN + GLUE + tile_w, MARGIN + GLUE, -1
    end_of_first = _column(first, round(cut * scale) + 2 * inward, top, bottom)
    start_of_second = _column(second, round(strip_edge * scale) - inward, top, bottom)
    assert _differ(end_of_first, start_of_second) < 8
    in_strip = _column(second, round((strip_edge - inward * GLUE / 2) * scale), top, bottom)
    at_strip = _column(first, round((cut + inward * GLUE / 2) * scale), top, bottom)
    assert _differ(in_strip, at_strip) < 8


@pytest.mark.parametrize("profile", PROFILES)
def test_the_first_sheet_of_the_track_holds_its_start_and_title(gomaneh, profile):
    """Space 0 and the title are on sheet 1, left to right or right to left: on the
    sheet's own part of the board."""
    for locale in ("fa", "en"):
        edition = replace(gomaneh, locale=locale)
        track = _component(edition, Track)
        _, pages, _ = lay_out_component(edition, track, all_profiles()[profile])
        first = pages[0]
        (placement,) = first.placements
        texts = [op for op in placement.face.ops if isinstance(op, Text)]
        title = texts[0]  # drawn before the spaces
        start = texts[1]  # space 0
        cx, cy, cw, _ = placement.clip
        for op in (title, start):
            middle = placement.x + op.x + op.w / 2
            assert cx < middle < cx + cw, (locale, profile, op)


@pytest.mark.parametrize("profile", PROFILES)
def test_pawns_start_at_the_top_right_and_fill_rows_leftwards(gomaneh, profile):
    """A right-to-left edition's pawns are read as its cards are: the first colour at
    the top right of the first page, each row filled from the right."""
    set_ = _component(gomaneh, Pawns)
    _, pages, _ = lay_out_component(gomaneh, set_, all_profiles()[profile])
    drawn = []
    for page in pages:
        (placement,) = page.placements
        outlined = [op for op in placement.face.ops if isinstance(op, Rect) and op.stroke]
        panels = outlined[1::4]  # each pawn: a tab, its two panels, a tab
        drawn.extend(panels)
        first = panels[0]
        assert first.x == max(p.x for p in panels) and first.y == max(p.y for p in panels)
        for a, b in zip(panels, panels[1:], strict=False):
            assert (b.y == a.y and b.x < a.x) or b.y < a.y, (profile, a, b)
    assert [p.fill for p in drawn] == [hex_colour(c.hex) for c in set_.colours]
