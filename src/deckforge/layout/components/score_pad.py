"""The score pad: one landscape sheet, a row per round plus tiebreak and total, a
column group per player; mirrored for right-to-left editions.

Its texts are tagged as a table: the title (H1), then a row (TR) per row, its label and
the players' cells (TH) in reading order."""

from __future__ import annotations

from dataclasses import dataclass

from deckforge.drawing.ops import WHITE, Line, Page, Rect, Tag, Text, mix
from deckforge.kinds.score_pad import ScorePad
from deckforge.layout.components.sheet import palette, set_text, sheet_for
from deckforge.model import Edition
from deckforge.model import Text as SourceText
from deckforge.profiles import Profile
from deckforge.text import fonts
from deckforge.text.fit import TextStyle
from deckforge.text.script import is_rtl_locale, number
from deckforge.units import mm

#: Row heights in units of a round's row.
_HEIGHTS = {"name": 2.0, "columns": 0.8}
LABEL_W = mm(26)


@dataclass(frozen=True)
class _Grid:
    """The table's geometry: its edges, the label column and each cell's width."""

    left: float
    right: float
    top: float
    bottom: float
    cell_w: float
    cols: int
    unit: float
    page_w: float
    rtl: bool

    def x(self, left: float, width: float = 0.0) -> float:
        """Where a box starting ``left`` from the table's start edge is drawn."""
        return self.page_w - left - width if self.rtl else left

    def player_left(self, player: int) -> float:
        """The start of a player's column group."""
        return self.left + LABEL_W + player * self.cols * self.cell_w


def _rows(pad: ScorePad) -> list[str]:
    rounds = [f"round-{r}" for r in range(1, pad.rounds + 1)]
    return ["name", "columns", *rounds, "tiebreak", "total"]


def score_pad(edition: Edition, pad: ScorePad, profile: Profile) -> list[Page]:
    """The score pad's page."""
    sheet = sheet_for(profile, landscape=True)
    locale = edition.locale
    inks = palette(edition)
    margin = max(mm(10), sheet.bleed + mm(8))
    title_h = mm(12)
    title_style = TextStyle(20, 12, fonts.BOLD, align="centre")
    title = set_text(pad.title, sheet.w - 2 * margin, title_h, title_style, locale)
    ops: list = [
        sheet.background(WHITE),
        Text(margin, sheet.h - margin, sheet.w - 2 * margin, title, inks.accent, Tag((("H1", 0),))),
    ]
    top = sheet.h - margin - title_h - mm(4)
    rows = _rows(pad)
    units = sum(_HEIGHTS.get(r, 1.0) for r in rows)
    cols = len(pad.columns)
    grid = _Grid(
        margin,
        sheet.w - margin,
        top,
        margin,
        (sheet.w - 2 * margin - LABEL_W) / (pad.players * cols),
        cols,
        (top - margin) / units,
        sheet.w,
        is_rtl_locale(locale),
    )
    y = top
    for index, row in enumerate(rows):
        h = grid.unit * _HEIGHTS.get(row, 1.0)
        y -= h
        ops.extend(_row(edition, pad, grid, (index, row), y, h))
    ops.extend(_rules(pad, grid, inks.ink))
    return [sheet.page(tuple(ops), pad.id)]


def _word(pad: ScorePad, key: str, default: str) -> SourceText:
    return pad.labels.get(key) or SourceText(default, pad.title.ref)


def _cell(row: int, column: int) -> Tag:
    """The tag of a row's cell: the label's is column 0, then the players' cells."""
    return Tag((("Table", 1), ("TR", row), ("TH", column)))


def _drawn(indices, grid: _Grid) -> list:
    """Cells of a row left to right: pdf.js reads texts in the order they are drawn and
    joins a text to the one before it without a space where it stands further left."""
    return list(reversed(indices)) if grid.rtl else list(indices)


def _row(edition: Edition, pad: ScorePad, grid: _Grid, at: tuple, y: float, h: float) -> list:
    """One row (``at``: its index and name): its shading, its label, its headers and the
    rule below it."""
    index, row = at
    inks = palette(edition)
    locale = edition.locale
    ops: list = []
    width = grid.right - grid.left
    even_round = row.startswith("round-") and int(row.split("-")[1]) % 2 == 0
    if even_round or row == "total":
        shade = mix(inks.accent, WHITE, 0.92 if even_round else 0.8)
        ops.append(Rect(grid.x(grid.left, width), y, width, h, fill=shade))
    if row == "name":
        text: SourceText | None = _word(pad, "name", "Name")
    elif row == "columns":
        text = None
    elif row.startswith("round-"):
        n = int(row.split("-")[1])
        word = _word(pad, "round", "Round").value
        text = SourceText(f"{word} {number(n, locale)}", pad.title.ref)
    else:
        text = _word(pad, row, row.title())
    if text is not None:
        style = TextStyle(10, 6, fonts.BOLD, align="start")
        w = LABEL_W - mm(3)
        fitted = set_text(text, w, h - 2, style, locale)
        x, top = grid.x(grid.left + mm(1.5), w), y + (h + fitted.height) / 2
        ops.append(Text(x, top, w, fitted, inks.ink, _cell(index, 0)))
    if row == "columns":
        ops.extend(_column_headers(pad, grid, (index, y, h), locale, inks.ink))
    if row == "name":
        ops.extend(_player_names(pad, grid, (index, y, h), locale, mix(inks.ink, WHITE, 0.45)))
    weight = 0.8 if row in ("columns", "tiebreak") else 0.4
    ops.append(Line(grid.left, y, grid.right, y, inks.ink, weight))
    return ops


def _column_headers(pad: ScorePad, grid: _Grid, row: tuple, locale: str, ink) -> list:
    """Each player's column headings (``row``: the row's index, bottom and height)."""
    index, y, h = row
    small = TextStyle(9, 6, fonts.BOLD, align="centre")
    ops = []
    for p in _drawn(range(pad.players), grid):
        for c, column in _drawn(list(enumerate(pad.columns)), grid):
            left = grid.player_left(p) + c * grid.cell_w
            fitted = set_text(column, grid.cell_w - 2, h - 1, small, locale)
            x, top = grid.x(left + 1, grid.cell_w - 2), y + (h + fitted.height) / 2
            tag = _cell(index, 1 + p * grid.cols + c)
            ops.append(Text(x, top, grid.cell_w - 2, fitted, ink, tag))
    return ops


def _player_names(pad: ScorePad, grid: _Grid, row: tuple, locale: str, ink) -> list:
    """Each player's heading (``row``: the row's index, bottom and height)."""
    index, y, h = row
    ops = []
    w = grid.cols * grid.cell_w - 4
    for p in _drawn(range(pad.players), grid):
        word = _word(pad, "player", "Player").value
        player = SourceText(f"{word} {number(p + 1, locale)}", pad.title.ref)
        fitted = set_text(player, w, mm(7), TextStyle(7, 6, align="centre"), locale)
        x, tag = grid.x(grid.player_left(p) + 2, w), _cell(index, 1 + p * grid.cols)
        ops.append(Text(x, y + h - 2, w, fitted, ink, tag))
    return ops


def _rules(pad: ScorePad, grid: _Grid, ink) -> list:
    """The table's outline and the rules between players and their columns."""
    top, bottom = grid.top, grid.bottom
    ops = [Line(grid.left, top, grid.right, top, ink, 1.2)]
    for p in range(pad.players + 1):
        left = grid.player_left(p)
        ops.append(Line(grid.x(left), top, grid.x(left), bottom, ink, 1.2))
        if p < pad.players:
            for c in range(1, grid.cols):
                sub = grid.x(left + c * grid.cell_w)
                ops.append(Line(sub, top - grid.unit * _HEIGHTS["name"], sub, bottom, ink, 0.4))
    ops.append(Line(grid.x(grid.left), top, grid.x(grid.left), bottom, ink, 1.2))
    ops.append(Line(grid.left, bottom, grid.right, bottom, ink, 1.2))
    return ops
