"""The score track and pawns as deckforge laid them out before they were printable:
kept to show that preflight fails such files.

The pawns were laid out for A4 on every paper (on A5 they ran 14.8 mm off the page);
the track drew its crop marks inside the trim, stopped its art 10 mm inside it and
joined its tiles with alignment marks across the join.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckforge.drawing.ops import (
    RGB,
    WHITE,
    Circle,
    Face,
    Line,
    Page,
    Placement,
    Rect,
    Text,
    hex_colour,
    mix,
)
from deckforge.kinds.pawns import Pawns
from deckforge.layout.components.sheet import Sheet, palette, set_text
from deckforge.model import Edition
from deckforge.model import Text as SourceText
from deckforge.profiles import Profile
from deckforge.text import fonts
from deckforge.text.fit import TextStyle
from deckforge.text.script import is_rtl_locale, number
from deckforge.units import mm


def _sheet(profile: Profile, landscape: bool) -> Sheet:
    w, h = profile.document_paper
    if landscape:
        w, h = h, w
    return Sheet(w, h, profile.document_bleed)


def _set(text, width, height, style, locale):
    return set_text(text, width, height, style, locale)


def _inks(edition):
    return palette(edition)


# --- score track ------------------------------------------------------------------------


@dataclass(frozen=True)
class Track:
    """The score track as it was given: a title and spaces numbered from one number to
    another, over sheets."""

    id: str
    title: SourceText
    start: int
    end: int
    sheets: int


def _score_track(edition: Edition, track: Track, profile: Profile) -> list[Page]:
    """The board, drawn once and tiled over sheets that join edge to edge."""
    sheet = _sheet(profile, landscape=True)
    locale = edition.locale
    rtl = is_rtl_locale(locale)
    inks = _inks(edition)
    ink, accent, paper = inks.ink, inks.accent, inks.paper
    margin = max(mm(10), sheet.bleed + mm(6))
    tile_w, tile_h = sheet.w - 2 * margin, sheet.h - 2 * margin
    board_w, board_h = tile_w * track.sheets, tile_h
    ops: list = [
        Rect(0, 0, board_w, board_h, fill=paper),
        Rect(
            mm(3),
            mm(3),
            board_w - mm(6),
            board_h - mm(6),
            stroke=accent,
            line_width=2,
            radius=mm(4),
        ),
    ]
    title = _set(
        track.title, board_w / 3, mm(30), TextStyle(40, 18, fonts.BOLD, align="centre"), locale
    )
    # The title sits in the middle of the first sheet, never across a join.
    title_x = board_w - tile_w / 2 - board_w / 6 if rtl else tile_w / 2 - board_w / 6
    ops.append(Text(title_x, board_h / 2 + title.height / 2, board_w / 3, title, accent))
    # Spaces run around the board's edge, clockwise from the bottom corner.
    count = track.end - track.start + 1
    side = mm(26)
    for _ in range(3):  # the spaces' size and the path's inset depend on each other
        inset = side / 2 + mm(6)
        path_w, path_h = board_w - 2 * inset, board_h - 2 * inset
        side = min(2 * (path_w + path_h) / count * 0.86, mm(26))
    perimeter_points = []
    for i in range(count):
        t = i / count * 2 * (path_w + path_h)
        if t < path_w:
            x, y = inset + t, inset
        elif t < path_w + path_h:
            x, y = inset + path_w, inset + (t - path_w)
        elif t < 2 * path_w + path_h:
            x, y = inset + path_w - (t - path_w - path_h), inset + path_h
        else:
            x, y = inset, inset + path_h - (t - 2 * path_w - path_h)
        if rtl:
            x = board_w - x
        perimeter_points.append((x, y))
    for i, (x, y) in enumerate(perimeter_points):
        value = track.start + i
        fill = accent if value % 5 == 0 else WHITE
        ops.append(
            Rect(
                x - side / 2,
                y - side / 2,
                side,
                side,
                fill=fill,
                stroke=ink,
                line_width=1,
                radius=mm(2),
            )
        )
        label = _set(
            SourceText(number(value, locale), track.title.ref),
            side - 4,
            side - 4,
            TextStyle(20, 9, fonts.BOLD, align="centre"),
            locale,
        )
        ops.append(
            Text(
                x - side / 2 + 2,
                y + label.height / 2,
                side - 4,
                label,
                WHITE if value % 5 == 0 else ink,
            )
        )
    # Alignment marks straddle each join: half of each on either sheet.
    for j in range(1, track.sheets):
        jx = tile_w * j
        for jy in (board_h * 0.3, board_h * 0.7):
            ops.append(Line(jx - mm(4), jy, jx + mm(4), jy, ink, 0.6))
            ops.append(Circle(jx, jy, mm(2.5), stroke=ink, line_width=0.6))
    board = Face(tuple(ops), key=f"{edition.id}/{track.id}")
    pages = []
    for k in range(track.sheets):
        b = sheet.bleed
        W, H = sheet.w + 2 * b, sheet.h + 2 * b
        left = b + margin
        marks = []
        for x in (left, left + tile_w):
            for y0, y1 in (
                (b + margin - mm(1), b + mm(2)),
                (b + margin + tile_h + mm(1), H - b - mm(2)),
            ):
                marks.append(Line(x, y0, x, y1, BLACK_LINE, 0.25))
        for y in (b + margin, b + margin + tile_h):
            for x0, x1 in ((left - mm(1), b + mm(2)), (left + tile_w + mm(1), W - b - mm(2))):
                marks.append(Line(x0, y, x1, y, BLACK_LINE, 0.25))
        pages.append(
            Page(
                W,
                H,
                (
                    Placement(
                        board, left - k * tile_w, b + margin, (left, b + margin, tile_w, tile_h)
                    ),
                ),
                tuple(marks),
                trim_box=(b, b, b + sheet.w, b + sheet.h) if b else None,
                bleed_box=(0.0, 0.0, W, H) if b else None,
                label=f"board sheet {k + 1} of {track.sheets}",
            )
        )
    return pages


BLACK_LINE: RGB = (0.0, 0.0, 0.0)


# --- pawns ------------------------------------------------------------------------------


def _pawns(edition: Edition, set_: Pawns, profile: Profile) -> list[Page]:
    """Fold-up standees: front and back panels either side of a fold, and base tabs."""
    from deckforge.drawing import shapes

    sheet = _sheet(profile, landscape=False)
    locale = edition.locale
    ink = _inks(edition).ink
    margin = max(mm(12), sheet.bleed + mm(8))
    panel_w, panel_h, tab = mm(30), mm(40), mm(12)
    piece_h = 2 * panel_h + 2 * tab
    cols = max(1, int((sheet.w - 2 * margin) // (panel_w + mm(8))))
    ops: list = [sheet.background(WHITE)]
    for index, colour in enumerate(set_.colours):
        row, col = divmod(index, cols)
        x = margin + col * (panel_w + mm(8))
        top = sheet.h - margin - row * (piece_h + mm(8))
        fill = hex_colour(colour.hex)
        # Base tab, back panel (upside down when folded), front panel, base tab.
        y = top - piece_h
        ops.append(Rect(x, y, panel_w, tab, fill=mix(fill, WHITE, 0.6), stroke=ink, line_width=0.4))
        ops.append(Rect(x, y + tab, panel_w, panel_h, fill=fill, stroke=ink, line_width=0.4))
        ops.append(
            Rect(x, y + tab + panel_h, panel_w, panel_h, fill=fill, stroke=ink, line_width=0.4)
        )
        ops.append(
            Rect(
                x,
                y + tab + 2 * panel_h,
                panel_w,
                tab,
                fill=mix(fill, WHITE, 0.6),
                stroke=ink,
                line_width=0.4,
            )
        )
        for fy in (y + tab, y + tab + panel_h, y + tab + 2 * panel_h):
            ops.append(Line(x, fy, x + panel_w, fy, ink, 0.6, dash=(3, 2)))
        for py in (y + tab + panel_h, y + tab):
            ops.append(
                shapes.symbol(
                    colour.symbol,
                    x + panel_w / 2,
                    py + panel_h * 0.6,
                    mm(14),
                    fill=WHITE,
                    stroke=ink,
                    line_width=0.8,
                )
            )
            name = _set(
                colour.name,
                panel_w - 4,
                mm(8),
                TextStyle(10, 6, fonts.BOLD, align="centre"),
                locale,
            )
            ops.append(Text(x + 2, py + panel_h * 0.3, panel_w - 4, name, ink))
    label = _set(
        set_.label,
        sheet.w - 2 * margin,
        mm(12),
        TextStyle(14, 9, fonts.BOLD, align="centre"),
        locale,
    )
    ops.append(Text(margin, margin + label.height, sheet.w - 2 * margin, label, ink))
    return [sheet.page(tuple(ops), set_.id)]
