"""The score track: a board of numbered spaces drawn once and tiled over sheets.

For a print shop (with bleed) each sheet is one trim of the board: the art runs
through the bleed on every side, the neighbour's art at a join, and trimmed sheets
butt together exactly; no marks are drawn. For home printers each sheet shows its tile
inside a margin with crop marks there; every sheet after the first carries a glue strip
that repeats the end of the sheet before, and ticks in the margins show where that
sheet's cut edge goes. The spaces sit in slots that never straddle a join.

The first sheet holds the start and the title: the board's left end, or in a
right-to-left edition, whose spaces run from the right, its right end; the sheets after
it follow in the same direction, each glue strip on the side of the sheet before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from deckforge.kinds.track import Track
from deckforge.layout.components.sheet import Inks, Sheet, palette, set_text, sheet_for
from deckforge.layout.ops import BLACK, WHITE, Face, Line, Page, Placement, Rect, Text
from deckforge.model import Edition
from deckforge.model import Text as SourceText
from deckforge.profiles import Profile
from deckforge.text import fonts
from deckforge.text.fit import TextStyle
from deckforge.text.script import is_rtl_locale, number
from deckforge.units import mm

#: Home print: the unprintable border and the glue strip of every sheet but the first.
MARGIN = mm(10)
GLUE = mm(10)
#: The frame band's inset from the board's edge, and the spaces' inset from the frame.
FRAME_INSET = mm(5)
SPACE_INSET = mm(4)
LARGEST_SPACE = mm(26)
#: Crop marks: their gap from the cut corner and their length.
MARK_GAP = mm(1.5)
MARK_LENGTH = mm(5)


@dataclass(frozen=True)
class _Board:
    """The board's size and each tile's width."""

    w: float
    h: float
    tile_w: float
    sheets: int


def _regions(board: _Board) -> list[tuple[float, float]]:
    """Each tile's stretch of the rows: the whole tile, less the frame at the board's
    two ends; slots divide it, so a join always falls between two spaces."""
    edge = FRAME_INSET + SPACE_INSET
    regions = []
    for k in range(board.sheets):
        left = k * board.tile_w + (edge if k == 0 else 0.0)
        right = (k + 1) * board.tile_w - (edge if k == board.sheets - 1 else 0.0)
        regions.append((left, right))
    return regions


def _slots(board: _Board, count: int) -> tuple[int, int, int, float]:
    """How many spaces each tile's top and bottom row holds, how many the right and left
    columns hold, and the spaces' size: the arrangement with the largest spaces."""
    inner_h = board.h - 2 * (FRAME_INSET + SPACE_INSET)
    narrowest = min(right - left for left, right in _regions(board))
    best = (1, 0, 0, 0.0)
    for per_tile in range(1, 20):
        rest = count - 2 * board.sheets * per_tile
        if rest < 0:
            break
        right, left = math.ceil(rest / 2), rest // 2
        slot = narrowest / per_tile
        # Spaces keep clear of a join by more than the 3 mm a rule needs from a trim; a
        # column's spaces between the two rows have a pitch of (inner_h - side) / (n + 1).
        side = min(LARGEST_SPACE, 0.86 * slot, slot - mm(7), 0.86 * inner_h / (right + 1.86))
        if side > best[3]:
            best = (per_tile, right, left, side)
    return best


def _spaces(board: _Board, count: int, rtl: bool) -> tuple[list[tuple[float, float]], float]:
    """Each space's centre, in play order, and the spaces' size."""
    per_tile, right, left, side = _slots(board, count)
    xs: list[float] = []
    for start, end in _regions(board):
        slot = (end - start) / per_tile
        xs.extend(start + (i + 0.5) * slot for i in range(per_tile))
    low = FRAME_INSET + SPACE_INSET + side / 2
    high = board.h - low
    bottom = [(x, low) for x in xs]
    top = [(x, high) for x in reversed(xs)]
    x_right, x_left = xs[-1], xs[0]
    up = [(x_right, low + (high - low) * (j + 1) / (right + 1)) for j in range(right)]
    down = [(x_left, high - (high - low) * (j + 1) / (left + 1)) for j in range(left)]
    points = bottom + up + top + down
    if rtl:
        points = [(board.w - x, y) for x, y in points]
    return points[:count], side


def _board_face(edition: Edition, track: Track, board: _Board, bleed: float) -> Face:
    """The whole board, drawn once: paper through the bleed, a frame band, the spaces
    and the title (in the middle of the first sheet, never across a join)."""
    inks = palette(edition)
    locale = edition.locale
    rtl = is_rtl_locale(locale)
    inset = FRAME_INSET
    ops: list = [
        Rect(-bleed, -bleed, board.w + 2 * bleed, board.h + 2 * bleed, fill=inks.paper),
        # A band, not a stroke: a line would cross the joins of the sheets.
        Rect(
            inset, inset, board.w - 2 * inset, board.h - 2 * inset, fill=inks.accent, radius=mm(4)
        ),
        Rect(
            inset + mm(0.7),
            inset + mm(0.7),
            board.w - 2 * inset - mm(1.4),
            board.h - 2 * inset - mm(1.4),
            fill=inks.paper,
            radius=mm(3.3),
        ),
    ]
    points, side = _spaces(board, track.end - track.start + 1, rtl)
    width = min(board.w / 3, board.tile_w - 2 * (inset + SPACE_INSET + side) - mm(4))
    style = TextStyle(40, 18, fonts.BOLD, align="centre")
    title = set_text(track.title, width, mm(30), style, locale)
    middle = board.w - board.tile_w / 2 if rtl else board.tile_w / 2
    # The title before the spaces: pdf.js joins a text to the one drawn before it on its
    # line without a space where it stands further left (a space's number, beside it).
    ops.append(Text(middle - width / 2, board.h / 2 + title.height / 2, width, title, inks.accent))
    ops.extend(_space_ops(track, points, side, inks, locale))
    return Face(tuple(ops), key=f"{edition.id}/{track.id}")


def _space_ops(track: Track, points, side: float, inks: Inks, locale: str) -> list:
    ops: list = []
    style = TextStyle(20, 9, fonts.BOLD, align="centre")
    for i, (x, y) in enumerate(points):
        value = track.start + i
        fifth = value % 5 == 0
        fill = inks.accent if fifth else WHITE
        ops.append(
            Rect(
                x - side / 2,
                y - side / 2,
                side,
                side,
                fill=fill,
                stroke=inks.ink,
                line_width=1,
                radius=mm(2),
            )
        )
        label = set_text(
            SourceText(number(value, locale), track.title.ref), side - 4, side - 4, style, locale
        )
        colour = WHITE if fifth else inks.ink
        ops.append(Text(x - side / 2 + 2, y + label.height / 2, side - 4, label, colour))
    return ops


def track(edition: Edition, track: Track, profile: Profile) -> list[Page]:
    """The board's sheets: trimmed tiles for a print shop, glued tiles for home print."""
    sheet = sheet_for(profile, landscape=True)
    rtl = is_rtl_locale(edition.locale)
    if sheet.bleed > 0:
        board = _Board(sheet.w * track.sheets, sheet.h, sheet.w, track.sheets)
        face = _board_face(edition, track, board, sheet.bleed)
        return [_shop_sheet(sheet, face, board, k, rtl) for k in range(track.sheets)]
    tile_w = sheet.w - 2 * MARGIN - GLUE
    board = _Board(tile_w * track.sheets, sheet.h - 2 * MARGIN, tile_w, track.sheets)
    face = _board_face(edition, track, board, 0.0)
    return [_home_sheet(sheet, face, board, k, rtl) for k in range(track.sheets)]


def _label(k: int, board: _Board) -> str:
    return f"board sheet {k + 1} of {board.sheets}"


def _tile(board: _Board, k: int, rtl: bool) -> int:
    """Which tile of the board, counted from its left end, the ``k``-th sheet holds."""
    return board.sheets - 1 - k if rtl else k


def _shop_sheet(sheet: Sheet, face: Face, board: _Board, k: int, rtl: bool) -> Page:
    W, H = sheet.size
    b = sheet.bleed
    placement = Placement(face, b - _tile(board, k, rtl) * board.tile_w, b, (0.0, 0.0, W, H))
    return Page(W, H, (placement,), label=_label(k, board), **sheet.boxes())


def _home_sheet(sheet: Sheet, face: Face, board: _Board, k: int, rtl: bool) -> Page:
    """A home-print sheet: the tile (with the glue strip on the side of the sheet before:
    its left, or its right in a right-to-left edition) and its marks."""
    tile_left = MARGIN if rtl else MARGIN + GLUE
    tile_right = tile_left + board.tile_w
    cut_left = MARGIN if rtl or k > 0 else tile_left
    cut_right = tile_right + (GLUE if rtl and k > 0 else 0.0)
    bottom, top = MARGIN, MARGIN + board.h
    clip = (cut_left, bottom, cut_right - cut_left, board.h)
    placement = Placement(face, tile_left - _tile(board, k, rtl) * board.tile_w, bottom, clip)
    marks = _crop_marks(cut_left, bottom, cut_right, top)
    if k > 0:
        # Where the sheet before ends once glued: ticks in the margins, off the board.
        edge = tile_right if rtl else tile_left
        marks += [
            Line(edge, top + MARK_GAP, edge, top + MARK_GAP + MARK_LENGTH, BLACK, 0.25),
            Line(edge, bottom - MARK_GAP, edge, bottom - MARK_GAP - MARK_LENGTH, BLACK, 0.25),
        ]
    return Page(sheet.w, sheet.h, (placement,), tuple(marks), label=_label(k, board))


def _crop_marks(left: float, bottom: float, right: float, top: float) -> list:
    """Marks at the cut's corners, in the margin, short of the paper's edge."""
    marks = []
    for x, out_x in ((left, -1), (right, 1)):
        for y, out_y in ((bottom, -1), (top, 1)):
            marks.append(
                Line(x + out_x * MARK_GAP, y, x + out_x * (MARK_GAP + MARK_LENGTH), y, BLACK, 0.25)
            )
            marks.append(
                Line(x, y + out_y * MARK_GAP, x, y + out_y * (MARK_GAP + MARK_LENGTH), BLACK, 0.25)
            )
    return marks
