"""گمانه's pawns and score track: printable in every profile, as a shop or a home
printer prints them; the layouts they replaced fail preflight."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest

from conftest import DECKS
from deckforge.drawing.ops import Document, Rect, hex_colour
from deckforge.kinds.board import Board
from deckforge.kinds.pawns import Pawns
from deckforge.layout.components import lay_out_component
from deckforge.pipeline.recipe import gather
from deckforge.preflight import format_table, preflight_file
from deckforge.profiles import all_profiles
from deckforge.render import pdf
from deckforge.sources.load import Project, select_editions
from deckforge.units import mm
from old_components import Track as OldTrack
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
    given = OldTrack("score-track", _component(gomaneh, Board).face.title, 0, 30, 2)
    track = _render(tmp_path, "track", old_track(gomaneh, given, profile), "printer")
    report = preflight_file(track, _entry("track.pdf", "printer", "board"))
    assert report.failed
    # Crop marks drawn inside the trim, where they would print.
    assert report.check("marks").status == "fail", format_table([report])
    assert "inside the trim" in report.check("marks").detail


@pytest.mark.slow  # preflights all 128 shipped files
@pytest.mark.parametrize("profile", PROFILES)
def test_pawns_and_track_pass_preflight_in_every_profile(preflighted, manifest, profile):
    for deck in ("pawns", "score-track"):
        entry = next(
            e
            for e in manifest
            if e["edition"] == "gomaneh-fa" and e["profile"] == profile and e["deck"] == deck
        )
        report = preflighted[entry["path"]]
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


def _track(edition) -> Board:
    return _component(edition, Board)


def test_the_track_prints_whole_for_a_shop(built):
    """One page at the board's trim (420 × 148 mm) and the bleed, in both shop profiles."""
    for profile in ("printer", "printer-cmyk"):
        with pikepdf.open(built / "gomaneh-fa" / profile / "score-track.pdf") as document:
            (page,) = document.pages
            trim = [float(v) for v in page.TrimBox]
            bleed = [float(v) for v in page.BleedBox]
        assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((mm(420), mm(148)))
        assert trim[0] - bleed[0] == pytest.approx(mm(3.175))


@pytest.mark.parametrize("locale", ["fa", "en"])
@pytest.mark.parametrize("profile", ["pnp-a4", "pnp-letter", "pnp-a4-fold", "pnp-letter-fold"])
def test_the_first_home_sheet_of_the_track_holds_its_start_and_title(gomaneh, profile, locale):
    """Space 0 and the title are on sheet 1: the board's left end, or right to left, its
    right end, where the mirrored board has them."""
    edition = replace(gomaneh, locale=locale)
    track = _track(edition)
    _, pages, problems = lay_out_component(edition, track, all_profiles()[profile])
    assert not problems and len(pages) == 2
    (placement,) = pages[0].placements
    cx, _, cw, _ = placement.clip
    left, right = cx - placement.x, cx + cw - placement.x  # the board's part on sheet 1
    board_w = mm(420)
    start = track.pieces.pieces[0].x
    title = mm(35 + 70)  # the title box's middle, from the template
    rtl = locale == "fa"
    for x in (start, title):
        shown = board_w - x if rtl else x
        assert left < shown < right, (locale, profile, shown, left, right)


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
