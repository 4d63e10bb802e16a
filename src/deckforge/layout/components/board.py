"""Boards: drawn whole from their template, with their pieces on them, then printed
whole or in pieces of paper.

A print shop gets one page: the board's trim grown by the bleed, TrimBox and BleedBox
set. A home printer gets the board cut into a grid of equal tiles, as few sheets of the
profile's paper as hold it (upright or turned); each sheet shows its tile inside a
margin, with a glue strip that repeats the edge of the tile before it (left, or right
in a right-to-left edition, and above), crop marks at the sheet's cut and ticks in the
margin where the tile before it is laid. Cut every sheet at its crop marks, lay each on
the next one's glue strip up to the ticks, and the pieces rebuild the board exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from deckforge.drawing.ops import BLACK, Face, Line, Page, Placement, Transform, Use
from deckforge.errors import ERROR, Problem
from deckforge.kinds.board import Board, Pieces
from deckforge.layout.components.sheet import Unmade
from deckforge.model import Edition
from deckforge.profiles import Profile
from deckforge.units import mm, to_mm

#: Home print: the border a printer may not reach, and the glue strip of joined tiles.
MARGIN = mm(10)
GLUE = mm(10)
#: Crop marks and ticks: their gap from the cut and their length.
MARK_GAP = mm(1.5)
MARK_LENGTH = mm(5)


@dataclass(frozen=True)
class Drawn:
    """A board drawn whole: its face (origin at the trim's lower-left corner) and trim."""

    face: Face
    w: float
    h: float


def draw_board(edition: Edition, board: Board) -> Drawn:
    """The board's template drawn with its pieces on it; :class:`Unmade` with the
    problems that stop it."""
    from deckforge.templates import draw_parts

    key = board.id
    drawn, problems, _ = draw_parts(
        edition, board.template, [board.face], board.ref, key, board.folder
    )
    if any(p.severity == ERROR for p in problems) or not drawn:
        raise Unmade(problems)
    (whole,) = drawn
    ops = list(whole.face.ops) if whole.face.key is None else [Use(whole.face)]
    if board.pieces is not None:
        ops.extend(_pieces(edition, board, board.pieces, whole.width, whole.height))
    # Not a keyed face: its pieces' text is then drawn on the page after the board's own
    # (its title), in one stream, so that PDF viewers read the title as a word of its own.
    return Drawn(Face(tuple(ops)), whole.width, whole.height)


def _pieces(edition: Edition, board: Board, pieces: Pieces, w: float, h: float) -> list:
    """Each piece drawn from its template with its centre where its row says (mirrored
    with the board in a right-to-left edition)."""
    from deckforge.templates import draw_parts

    parts, problems, mirror = draw_parts(
        edition,
        pieces.template,
        pieces.pieces,
        pieces.named,
        f"{board.id}/pieces",
        board.folder,
        pieces.rows,
    )
    problems += [
        Problem(p.ref, f"the piece's centre ({_mm(p.x)}, {_mm(p.y)}) is off the board")
        for p in pieces.pieces
        if not (0 <= p.x <= w and 0 <= p.y <= h)
    ]
    if any(p.severity == ERROR for p in problems):
        raise Unmade(problems)
    ops = []
    for piece, part in zip(pieces.pieces, parts, strict=True):
        x = w - piece.x if mirror else piece.x
        left, bottom = x - part.width / 2, h - piece.y - part.height / 2
        ops.append(Transform((1.0, 0.0, 0.0, 1.0, left, bottom), part.face.ops))
    return ops


def _mm(points: float) -> str:
    return f"{round(to_mm(points), 2):g}mm"


def board(edition: Edition, board: Board, profile: Profile) -> list[Page]:
    """The board's pages: whole at trim and bleed for a print shop, in joined tiles of
    the profile's paper for a home printer."""
    drawn = draw_board(edition, board)
    bleed = profile.document_bleed
    if bleed > 0:
        W, H = drawn.w + 2 * bleed, drawn.h + 2 * bleed
        placement = Placement(drawn.face, bleed, bleed, (0.0, 0.0, W, H))
        boxes = {"trim_box": (bleed, bleed, bleed + drawn.w, bleed + drawn.h)}
        boxes["bleed_box"] = (0.0, 0.0, W, H)
        return [Page(W, H, (placement,), label=f"board {board.id}", **boxes)]
    from deckforge.text.script import is_rtl_locale

    grid = tile_grid(drawn.w, drawn.h, profile.document_paper)
    rtl = is_rtl_locale(edition.locale)
    return [
        _home_sheet(drawn, grid, row, column, rtl)
        for row in range(grid.rows)
        for column in (reversed(range(grid.columns)) if rtl else range(grid.columns))
    ]


@dataclass(frozen=True)
class Grid:
    """How a board is tiled over sheets: the paper (as turned), rows and columns of
    equal tiles and each tile's size."""

    paper_w: float
    paper_h: float
    rows: int
    columns: int
    tile_w: float
    tile_h: float

    @property
    def count(self) -> int:
        """How many sheets."""
        return self.rows * self.columns


def tile_grid(w: float, h: float, paper: tuple[float, float]) -> Grid:
    """The fewest sheets of ``paper``, upright or turned, that hold a board of ``w`` by
    ``h`` in equal tiles, a glue strip beside every tile that has a neighbour before it."""
    ways = []
    pw, ph = paper
    for paper_w, paper_h in ((pw, ph), (ph, pw)):
        columns = _count(w, paper_w - 2 * MARGIN)
        rows = _count(h, paper_h - 2 * MARGIN)
        grid = Grid(paper_w, paper_h, rows, columns, w / columns, h / rows)
        # Fewest sheets; then paper turned as the board is.
        rank = (grid.count, (paper_w >= paper_h) != (w >= h))
        ways.append((rank, grid))
    return min(ways, key=lambda way: way[0])[1]


def _count(length: float, room: float) -> int:
    """How many equal tiles a length needs when each, but a lone one, may carry a glue
    strip beside it."""
    if length <= room + 1e-6:
        return 1
    return math.ceil(length / (room - GLUE) - 1e-9)


def _home_sheet(drawn: Drawn, grid: Grid, row: int, column: int, rtl: bool) -> Page:
    """One tile on its sheet: the tile and its glue strips, centred on the paper, with
    crop marks at its cut and ticks where the tiles before it are laid."""
    strip_left = GLUE if (column > 0 and not rtl) else 0.0
    strip_right = GLUE if (column < grid.columns - 1 and rtl) else 0.0
    strip_top = GLUE if row > 0 else 0.0
    # The part of the board the sheet shows, in the board's own coordinates (from its
    # lower-left corner).
    x0 = column * grid.tile_w - strip_left
    x1 = (column + 1) * grid.tile_w + strip_right
    top = drawn.h - row * grid.tile_h + strip_top
    bottom = drawn.h - (row + 1) * grid.tile_h
    cut_w, cut_h = x1 - x0, top - bottom
    left = (grid.paper_w - cut_w) / 2
    low = (grid.paper_h - cut_h) / 2
    placement = Placement(drawn.face, left - x0, low - bottom, (left, low, cut_w, cut_h))
    right, high = left + cut_w, low + cut_h
    marks = crop_marks(left, low, right, high)
    if strip_left:
        marks += _ticks_x(left + GLUE, low, high)
    if strip_right:
        marks += _ticks_x(right - GLUE, low, high)
    if strip_top:
        marks += _ticks_y(high - GLUE, left, right)
    number = row * grid.columns + (grid.columns - 1 - column if rtl else column) + 1
    label = f"board sheet {number} of {grid.count} (row {row + 1}, column {column + 1})"
    return Page(grid.paper_w, grid.paper_h, (placement,), tuple(marks), label=label)


def _ticks_x(x: float, low: float, high: float) -> list:
    """Where a neighbour's cut edge goes: ticks above and below the sheet's cut."""
    return [
        Line(x, high + MARK_GAP, x, high + MARK_GAP + MARK_LENGTH, BLACK, 0.25),
        Line(x, low - MARK_GAP, x, low - MARK_GAP - MARK_LENGTH, BLACK, 0.25),
    ]


def _ticks_y(y: float, left: float, right: float) -> list:
    """Where the neighbour above is laid: ticks left and right of the sheet's cut."""
    return [
        Line(left - MARK_GAP, y, left - MARK_GAP - MARK_LENGTH, y, BLACK, 0.25),
        Line(right + MARK_GAP, y, right + MARK_GAP + MARK_LENGTH, y, BLACK, 0.25),
    ]


def crop_marks(left: float, bottom: float, right: float, top: float) -> list:
    """Marks at a cut's corners, outside it, short of the paper's edge."""
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
