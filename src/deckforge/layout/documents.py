"""Documents that are not cards: the score pad and the rulebook booklet.

Both are laid out on the profile's document paper (with its bleed, if any) and
mirror left and right for right-to-left editions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from deckforge.errors import Problem
from deckforge.layout.ops import (
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
from deckforge.model import Block, Edition, Pawns, Rulebook, ScorePad, Section, Track
from deckforge.model import Text as SourceText
from deckforge.profiles import Profile
from deckforge.text import fonts
from deckforge.text.fit import FitError, FittedText, TextStyle, fit
from deckforge.text.script import is_rtl_locale, number
from deckforge.units import mm

PERSIAN_LETTERS = "الف ب پ ت ث ج چ ح خ د ذ ر ز ژ س ش".split()


@dataclass(frozen=True)
class Sheet:
    """A document page's geometry: trim size and bleed, in points."""

    w: float
    h: float
    bleed: float

    def background(self, colour: RGB) -> Rect:
        """A fill over the whole page, bleed included."""
        return Rect(
            -self.bleed, -self.bleed, self.w + 2 * self.bleed, self.h + 2 * self.bleed, fill=colour
        )

    def page(self, ops: tuple, label: str) -> Page:
        b = self.bleed
        W, H = self.w + 2 * b, self.h + 2 * b
        face = Face(ops)
        return Page(
            W,
            H,
            (Placement(face, b, b, (0.0, 0.0, W, H)),),
            trim_box=(b, b, b + self.w, b + self.h) if b else None,
            bleed_box=(0.0, 0.0, W, H) if b else None,
            label=label,
        )


@dataclass(frozen=True)
class Inks:
    """The edition's palette as colours to draw with."""

    ink: RGB
    paper: RGB
    accent: RGB
    dark: RGB


def _inks(edition: Edition) -> Inks:
    palette = edition.palette
    return Inks(
        hex_colour(palette.ink),
        hex_colour(palette.paper),
        hex_colour(palette.accent),
        hex_colour(palette.accent_dark),
    )


def _sheet(profile: Profile, landscape: bool) -> Sheet:
    w, h = profile.document_paper
    if landscape:
        w, h = h, w
    return Sheet(w, h, profile.document_bleed)


class _Ref(Exception):
    def __init__(self, text: SourceText, error: FitError):
        self.text, self.error = text, error


def _set(
    text: SourceText, width: float, height: float, style: TextStyle, locale: str
) -> FittedText:
    try:
        return fit(text.value, width, height, style, locale)
    except FitError as exc:
        raise _Ref(text, exc) from exc


def _score_pad(edition: Edition, pad: ScorePad, profile: Profile) -> list[Page]:
    """One landscape sheet: a row per round plus tiebreak and total, a column pair per player."""
    sheet = _sheet(profile, landscape=True)
    locale = edition.locale
    rtl = is_rtl_locale(locale)
    inks = _inks(edition)
    ink, accent = inks.ink, inks.accent
    margin = max(mm(10), sheet.bleed + mm(8))
    ops: list = [sheet.background(WHITE)]
    title_h = mm(12)
    ops.append(
        Text(
            margin,
            sheet.h - margin,
            sheet.w - 2 * margin,
            _set(
                pad.title,
                sheet.w - 2 * margin,
                title_h,
                TextStyle(20, 12, fonts.BOLD, align="centre"),
                locale,
            ),
            accent,
        )
    )
    label = pad.labels

    def word(key: str, default: str) -> SourceText:
        return label.get(key) or SourceText(default, pad.title.ref)

    top = sheet.h - margin - title_h - mm(4)
    bottom = margin
    label_w = mm(26)
    cols = len(pad.columns)
    body_w = sheet.w - 2 * margin - label_w
    cell_w = body_w / (pad.players * cols)
    rows = (
        ["name", "columns"]
        + [f"round-{r}" for r in range(1, pad.rounds + 1)]
        + ["tiebreak", "total"]
    )
    heights = {"name": 2.0, "columns": 0.8}
    units = sum(heights.get(r, 1.0) for r in rows)
    unit = (top - bottom) / units

    def x_of(left: float, width: float) -> float:
        return sheet.w - left - width if rtl else left

    y = top
    small = TextStyle(9, 6, fonts.BOLD, align="centre")
    for row in rows:
        h = unit * heights.get(row, 1.0)
        y -= h
        shade = row in ("total",)
        if row.startswith("round-") and int(row.split("-")[1]) % 2 == 0:
            ops.append(
                Rect(
                    x_of(margin, sheet.w - 2 * margin),
                    y,
                    sheet.w - 2 * margin,
                    h,
                    fill=mix(accent, WHITE, 0.92),
                )
            )
        if shade:
            ops.append(
                Rect(
                    x_of(margin, sheet.w - 2 * margin),
                    y,
                    sheet.w - 2 * margin,
                    h,
                    fill=mix(accent, WHITE, 0.8),
                )
            )
        # Row label.
        if row == "name":
            text = word("name", "Name")
        elif row == "columns":
            text = None
        elif row.startswith("round-"):
            n = int(row.split("-")[1])
            text = SourceText(f"{word('round', 'Round').value} {number(n, locale)}", pad.title.ref)
        else:
            text = word(row, row.title())
        if text is not None:
            fitted = _set(
                text, label_w - mm(3), h - 2, TextStyle(10, 6, fonts.BOLD, align="start"), locale
            )
            ops.append(
                Text(
                    x_of(margin + mm(1.5), label_w - mm(3)),
                    y + (h + fitted.height) / 2,
                    label_w - mm(3),
                    fitted,
                    ink,
                )
            )
        if row == "columns":
            for p in range(pad.players):
                for c, column in enumerate(pad.columns):
                    left = margin + label_w + (p * cols + c) * cell_w
                    fitted = _set(column, cell_w - 2, h - 1, small, locale)
                    ops.append(
                        Text(
                            x_of(left + 1, cell_w - 2),
                            y + (h + fitted.height) / 2,
                            cell_w - 2,
                            fitted,
                            ink,
                        )
                    )
        if row == "name":
            for p in range(pad.players):
                left = margin + label_w + p * cols * cell_w
                player = SourceText(
                    f"{word('player', 'Player').value} {number(p + 1, locale)}", pad.title.ref
                )
                fitted = _set(
                    player, cols * cell_w - 4, mm(7), TextStyle(7, 6, align="centre"), locale
                )
                ops.append(
                    Text(
                        x_of(left + 2, cols * cell_w - 4),
                        y + h - 2,
                        cols * cell_w - 4,
                        fitted,
                        mix(ink, WHITE, 0.45),
                    )
                )
        ops.append(
            Line(
                margin, y, sheet.w - margin, y, ink, 0.8 if row in ("columns", "tiebreak") else 0.4
            )
        )
    # Vertical rules.
    ops.append(Line(margin, top, sheet.w - margin, top, ink, 1.2))
    for p in range(pad.players + 1):
        left = margin + label_w + p * cols * cell_w
        ops.append(Line(x_of(left, 0), top, x_of(left, 0), bottom, ink, 1.2))
        if p < pad.players:
            for c in range(1, cols):
                sub = left + c * cell_w
                ops.append(
                    Line(x_of(sub, 0), top - unit * heights["name"], x_of(sub, 0), bottom, ink, 0.4)
                )
    ops.append(Line(x_of(margin, 0), top, x_of(margin, 0), bottom, ink, 1.2))
    ops.append(Line(margin, bottom, sheet.w - margin, bottom, ink, 1.2))
    return [sheet.page(tuple(ops), pad.id)]


# --- rulebook ---------------------------------------------------------------------------


@dataclass
class _Flow:
    """Places rows of text top to bottom in columns, page after page."""

    sheet: Sheet
    columns: int
    margin: float
    gutter: float
    footer: float
    pages: list[list] = None  # type: ignore[assignment]

    def __post_init__(self):
        self.pages = [[]]
        self.column = 0
        self.first_top = self.sheet.h - self.margin
        self.y = self.top

    @property
    def top(self) -> float:
        """Where columns start: below the title on the first page."""
        return self.first_top if len(self.pages) == 1 else self.sheet.h - self.margin

    @property
    def bottom(self) -> float:
        return self.margin + self.footer

    @property
    def column_w(self) -> float:
        return (self.sheet.w - 2 * self.margin - (self.columns - 1) * self.gutter) / self.columns

    def column_x(self, rtl: bool) -> float:
        index = self.columns - 1 - self.column if rtl else self.column
        return self.margin + index * (self.column_w + self.gutter)

    def next_column(self) -> None:
        self.column += 1
        if self.column >= self.columns:
            self.column = 0
            self.pages.append([])
        self.y = self.top

    def room(self) -> float:
        return self.y - self.bottom

    def ensure(self, height: float) -> None:
        if self.room() < height and self.y < self.top - 1:
            self.next_column()

    def space(self, height: float) -> None:
        if self.y < self.top - 1:
            self.y -= min(height, max(self.room(), 0))

    def add(self, ops: list, height: float) -> None:
        self.pages[-1].extend(ops)
        self.y -= height


def _rulebook(edition: Edition, book: Rulebook, profile: Profile) -> list[Page]:
    """The rulebook as pages: a title, then sections flowed through columns."""
    sheet = _sheet(profile, landscape=False)
    locale = book.locale
    rtl = is_rtl_locale(locale)
    inks = _inks(edition)
    ink, accent, dark = inks.ink, inks.accent, inks.dark
    wide = sheet.w > mm(180)
    margin = max(mm(15 if wide else 13), sheet.bleed + mm(10))
    flow = _Flow(sheet, 2 if wide else 1, margin, mm(8), mm(8))
    body = 10.0 if wide else 9.5
    body_style = TextStyle(body, body, leading=1.32)

    def lines(
        text: SourceText,
        x_indent: float,
        style: TextStyle,
        colour: RGB,
        marker: str | None = None,
        marker_at: float = 0.0,
        marker_colour: RGB | None = None,
        language: str | None = None,
    ) -> None:
        """Flow a paragraph line by line; a marker (number, bullet) hangs in the indent,
        starting ``marker_at`` from the column's start edge."""
        width = flow.column_w - x_indent
        fitted = _set(text, width, 10_000, style, language or locale)
        for index, line in enumerate(fitted.lines):
            one = replace(fitted, lines=(line,))
            flow.ensure(fitted.line_height)
            cx = flow.column_x(rtl)
            ops = [Text(cx if rtl else cx + x_indent, flow.y, width, one, colour)]
            if marker and index == 0:
                mark_w = x_indent - marker_at - mm(1)
                mark = _set(
                    SourceText(marker, text.ref),
                    mark_w,
                    100,
                    replace(style, weight=fonts.BOLD, align="start"),
                    locale,
                )
                mx = cx + flow.column_w - marker_at - mark_w if rtl else cx + marker_at
                ops.append(Text(mx, flow.y, mark_w, mark, marker_colour or accent))
            flow.add(ops, fitted.line_height)

    # Title block.
    title = _set(
        SourceText(book.title, book.sections[0].heading.ref),
        flow.column_w * flow.columns + flow.gutter * (flow.columns - 1),
        80,
        TextStyle(30 if wide else 24, 14, fonts.BOLD, leading=1.1, align="centre"),
        locale,
    )
    flow.add(
        [
            Rect(
                -sheet.bleed,
                sheet.h - margin - title.height - mm(14),
                sheet.w + 2 * sheet.bleed,
                title.height + mm(14) + margin + sheet.bleed,
                fill=accent,
            ),
            Text(margin, sheet.h - margin - mm(2), sheet.w - 2 * margin, title, WHITE),
        ],
        title.height + mm(4),
    )
    if book.subtitle:
        sub = _set(
            SourceText(book.subtitle, book.sections[0].heading.ref),
            sheet.w - 2 * margin,
            40,
            TextStyle(12, 9, align="centre"),
            locale,
        )
        flow.add([Text(margin, flow.y - mm(1), sheet.w - 2 * margin, sub, WHITE)], sub.height)
    flow.first_top = flow.y = sheet.h - margin - title.height - mm(14) - mm(8)

    indent = body * (2.6 if rtl else 1.9)

    def block(b: Block) -> None:
        if b.kind == "paragraph":
            lines(b.texts[0], 0, body_style, ink)
            flow.space(body * 0.6)
        elif b.kind == "note":
            lines(
                b.texts[0],
                indent * 0.6,
                replace(body_style, weight=fonts.BOLD),
                dark,
                "»" if not rtl else "«",
            )
            flow.space(body * 0.6)
        elif b.kind == "bullets":
            for t in b.texts:
                lines(t, indent * 0.8, body_style, ink, "•")
                flow.space(body * 0.25)
            flow.space(body * 0.4)
        else:
            for step in b.steps:
                lines(step.text, indent, body_style, ink, f"{number(step.number, locale)}.")
                for k, sub in enumerate(step.substeps):
                    letter = PERSIAN_LETTERS[k] if rtl else chr(ord("a") + k)
                    lines(sub, 2 * indent, body_style, ink, f"{letter}.", indent, dark)
                flow.space(body * 0.35)
            flow.space(body * 0.3)

    def heading(text: SourceText, size: float, colour: RGB) -> None:
        fitted = _set(
            text, flow.column_w, 200, TextStyle(size, size, fonts.BOLD, leading=1.15), locale
        )
        flow.ensure(fitted.height + body * 1.35 * 3)
        if flow.y < flow.top - 1:
            flow.space(size * 0.5)
        cx = flow.column_x(rtl)
        flow.add([Text(cx, flow.y, flow.column_w, fitted, colour)], fitted.height + size * 0.35)

    def section(s: Section, level: int) -> None:
        heading(s.heading, 15 if level == 0 else 12, accent if level == 0 else dark)
        for b in s.blocks:
            block(b)
        for sub in s.sections:
            section(sub, level + 1)

    for s in book.sections:
        section(s, 0)
    credits = SourceText("  ".join(book.credits), book.sections[0].heading.ref)
    flow.space(body)
    # The credits and licence notices are English in every edition.
    lines(credits, 0, TextStyle(7.5, 7.5, leading=1.3), mix(ink, WHITE, 0.35), language="en")

    pages = []
    total = len(flow.pages)
    for index, ops in enumerate(flow.pages):
        folio = _set(
            SourceText(number(index + 1, locale), book.sections[0].heading.ref),
            sheet.w - 2 * margin,
            20,
            TextStyle(8, 8, align="centre"),
            locale,
        )
        ops = [
            sheet.background(WHITE),
            *ops,
            Text(margin, margin - mm(1), sheet.w - 2 * margin, folio, mix(ink, WHITE, 0.4)),
        ]
        pages.append(sheet.page(tuple(ops), f"page {index + 1} of {total}"))
    return pages


# --- score track ------------------------------------------------------------------------


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
    from deckforge.layout import shapes

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


#: Each component type: how it is laid out and its ``kind`` in the build manifest.
LAYOUTS = {
    ScorePad: (_score_pad, "score-pad"),
    Rulebook: (_rulebook, "rulebook"),
    Track: (_score_track, "board"),
    Pawns: (_pawns, "pawns"),
}


def lay_out_component(
    edition: Edition, component, profile: Profile
) -> tuple[str, list[Page], list[Problem]]:
    """A component's manifest kind and pages, or the problem of text that cannot be set."""
    layout, kind = LAYOUTS[type(component)]
    try:
        return kind, layout(edition, component, profile), []
    except _Ref as exc:
        return kind, [], [Problem(exc.text.ref, str(exc.error))]
