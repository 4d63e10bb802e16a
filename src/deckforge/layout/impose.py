"""Imposition: put laid-out cards on pages for a print profile.

``sheets`` profiles fill the paper with as many cards as fit, with crop marks
in the margin, each sheet of faces followed by its sheet of backs mirrored for
duplex printing. ``single`` profiles put one card side per page at trim plus
bleed, with TrimBox and BleedBox set.

Sheets are read as the edition's script is: left-to-right editions put the first card
at the top left and fill each row rightwards; right-to-left editions (``rtl``) put it at
the top right and fill each row leftwards, and each back still lands behind its face.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, islice
from typing import Protocol, TypeVar

from deckforge.drawing.ops import BLACK, Card, Line, Page, Placement
from deckforge.drawing.outline import Cut, CutLines
from deckforge.profiles import Profile
from deckforge.units import mm

#: Gap between a card's edge and its crop mark.
MARK_OFFSET = mm(1.0)
#: Longest crop mark.
MARK_LENGTH = mm(5.0)
#: Marks stop this far from the paper's edge, so readers never "fit to page".
EDGE_CLEAR = mm(2.5)
#: A shaped card's cut line on a home sheet: thin and grey, to cut along.
CUT_LINE = ((0.35, 0.35, 0.35), 0.4)


def _squared(card: Card) -> bool:
    """Whether straight cuts along a card's trim cut it out (crop marks help)."""
    return card.outline is None or card.outline.square_cut


def _clip(card: Card, x: float, y: float, grow: float = 0.0) -> str:
    """The path a shaped card's side is clipped to at (x, y); '' for a plain card."""
    return "" if card.outline is None else card.outline.path(x, y, card.width, card.height, grow)


def cut_lines(card: Card, corners: Iterable[tuple[float, float]]) -> tuple:
    """A shaped card's cut line at each of the lower-left corners, as one path (none for
    a plain card)."""
    if card.outline is None:
        return ()
    colour, width = CUT_LINE
    path = " ".join(card.outline.path(x, y, card.width, card.height) for x, y in corners)
    return (CutLines(path, colour, width),)


class _Sheet(Protocol):
    @property
    def per_sheet(self) -> int: ...


G = TypeVar("G", bound=_Sheet)


class ImpositionError(ValueError):
    """The cards cannot be put on the profile's paper."""


@dataclass(frozen=True, eq=False)
class Grid:
    """Where cards sit on a sheet."""

    page_w: float
    page_h: float
    cols: int
    rows: int
    card_w: float
    card_h: float
    gap: float
    left: float
    bottom: float

    def cell(self, row: int, col: int) -> tuple[float, float]:
        """Lower-left corner of a card's trim at a grid cell (row 0 at the top)."""
        x = self.left + col * (self.card_w + self.gap)
        y = self.bottom + (self.rows - 1 - row) * (self.card_h + self.gap)
        return x, y

    @property
    def per_sheet(self) -> int:
        """Cards on a sheet."""
        return self.cols * self.rows


def grid_for(profile: Profile, card_w: float, card_h: float) -> Grid:
    """The grid with the most cards on the profile's paper, portrait or landscape."""

    def grid(page_w: float, page_h: float) -> Grid | None:
        usable_w = page_w - 2 * profile.margin
        usable_h = page_h - 2 * profile.margin
        cols = int((usable_w + profile.gap) // (card_w + profile.gap))
        rows = int((usable_h + profile.gap) // (card_h + profile.gap))
        if cols < 1 or rows < 1:
            return None
        grid_w = cols * card_w + (cols - 1) * profile.gap
        grid_h = rows * card_h + (rows - 1) * profile.gap
        left, bottom = (page_w - grid_w) / 2, (page_h - grid_h) / 2
        return Grid(page_w, page_h, cols, rows, card_w, card_h, profile.gap, left, bottom)

    return _most_cards(
        profile,
        grid,
        f"a {mm_text(card_w)} × {mm_text(card_h)} mm card does not fit the "
        f"{profile.id} paper inside its {mm_text(profile.margin)} mm margins",
    )


def _most_cards(profile: Profile, grid: Callable[[float, float], G | None], why: str) -> G:
    """Of the grids ``grid`` makes on the profile's paper, upright and turned, the one with
    the most cards; ImpositionError, saying ``why``, if the cards fit neither way."""
    assert profile.paper is not None
    best: G | None = None
    for page_w, page_h in (profile.paper, profile.paper[::-1]):
        found = grid(page_w, page_h)
        if found is not None and (best is None or found.per_sheet > best.per_sheet):
            best = found
    if best is None:
        raise ImpositionError(why)
    return best


def mm_text(points: float) -> str:
    return f"{points / mm(1):.1f}"


def cut_marks(xs: list[float], ys: list[float], page_w: float, page_h: float) -> list:
    """Short cut lines beyond the cards' outer edges, in line with every cut: each vertical
    cut at ``xs`` above and below the cards, each horizontal cut at ``ys`` left and right;
    never nearer the paper's edge than EDGE_CLEAR."""
    left, right, bottom, top = min(xs), max(xs), min(ys), max(ys)
    ops = []
    for x in xs:
        for start, direction, edge in ((top, 1, page_h), (bottom, -1, 0.0)):
            a = start + direction * MARK_OFFSET
            room = abs(edge - a) - EDGE_CLEAR
            if room > mm(0.8):
                ops.append(Line(x, a, x, a + direction * min(MARK_LENGTH, room), BLACK, 0.25))
    for y in ys:
        for start, direction, edge in ((right, 1, page_w), (left, -1, 0.0)):
            a = start + direction * MARK_OFFSET
            room = abs(edge - a) - EDGE_CLEAR
            if room > mm(0.8):
                ops.append(Line(a, y, a + direction * min(MARK_LENGTH, room), y, BLACK, 0.25))
    return ops


def crop_marks(grid: Grid) -> tuple:
    """Short cut lines in the margin, in line with every card edge."""
    xs = sorted(
        {round(grid.cell(0, c)[0] + dx, 4) for c in range(grid.cols) for dx in (0.0, grid.card_w)}
    )
    ys = sorted(
        {round(grid.cell(r, 0)[1] + dy, 4) for r in range(grid.rows) for dy in (0.0, grid.card_h)}
    )
    return tuple(cut_marks(xs, ys, grid.page_w, grid.page_h))


def _sheets(
    cards: Iterator[Card], grid: Grid, sheets: int, profile: Profile, rtl: bool
) -> Iterator[Page]:
    """Duplex sheets, a sheet at a time: a faces sheet, then its backs sheet mirrored for
    the profile's duplex edge; ``rtl`` fills rows from the right."""
    marks: tuple = ()
    dx, dy = profile.back_offset
    short_edge = profile.duplex == "short-edge"
    # Where each place of a sheet puts a face and its back: the same on every sheet.
    places = []
    for index in range(grid.per_sheet):
        row, col = divmod(index, grid.cols)
        if rtl:
            col = grid.cols - 1 - col
        if short_edge:
            bx, by = grid.cell(grid.rows - 1 - row, col)
        else:
            bx, by = grid.cell(row, grid.cols - 1 - col)
        places.append((*grid.cell(row, col), bx + dx, by + dy))
    cuts: dict[int, tuple] = {}  # the cut lines of a sheet of so many cards
    clips: dict[tuple, tuple[str, str]] = {}  # a shaped card's clip path at each place
    for sheet in range(sheets):
        faces, backs = [], []
        # The last sheet may have fewer cards than places (the places come first: no
        # card is taken beyond the sheet's).
        for (x, y, bx, by), card in zip(places, islice(cards, grid.per_sheet), strict=False):
            w, h = card.width, card.height
            if (x, y, bx, by) not in clips:
                clips[x, y, bx, by] = (_clip(card, x, y), _clip(card, bx, by))
            face_clip, back_clip = clips[x, y, bx, by]
            faces.append(Placement(card.face, x, y, (x, y, w, h), clip_path=face_clip))
            backs.append(Placement(card.back, bx, by, (bx, by, w, h), clip_path=back_clip))
            if sheet == 0 and not faces[1:]:
                marks = crop_marks(grid) if profile.crop_marks and _squared(card) else ()
        count = len(faces)
        if count not in cuts:
            cuts[count] = marks + cut_lines(card, (p[:2] for p in places[:count]))
        label = f"sheet {sheet + 1} of {sheets}"
        yield Page(grid.page_w, grid.page_h, tuple(faces), cuts[count], label=f"{label}, faces")
        yield Page(grid.page_w, grid.page_h, tuple(backs), marks, label=f"{label}, backs")


def _single(cards: Iterable[Card], profile: Profile) -> Iterator[Page]:
    """One side per page at trim + bleed; back then face (or face then back) per card,
    a card at a time."""
    b = profile.bleed
    names = ("back", "face") if profile.order == "back-first" else ("face", "back")
    for card in cards:
        w, h = card.width + 2 * b, card.height + 2 * b
        trim = (b, b, b + card.width, b + card.height)
        sides = [card.back, card.face] if profile.order == "back-first" else [card.face, card.back]
        # A shaped card's art is clipped to its cut grown by the bleed; its die line is
        # drawn over it, apart from the art.
        clip = _clip(card, b, b, b)
        cut = () if card.outline is None else (Cut(card.outline, b, b, card.width, card.height),)
        for side, name in zip(sides, names, strict=True):
            yield Page(
                w,
                h,
                (Placement(side, b, b, (0.0 - 0, 0.0, w, h), clip_path=clip),),
                cut,
                trim_box=trim,
                bleed_box=(0.0, 0.0, w, h),
                label=f"{card.id} {name}",
            )


@dataclass(frozen=True, eq=False)
class FoldGrid:
    """A gutterfold sheet: rows of faces above the fold line, their backs below it."""

    page_w: float
    page_h: float
    cols: int
    rows: int  # on each side of the fold
    card_w: float
    card_h: float
    left: float
    fold: float  # the fold line's height on the page
    gutter: float

    def face(self, row: int, col: int) -> tuple[float, float]:
        """Row 0 is next to the fold."""
        return (self.left + col * self.card_w, self.fold + self.gutter / 2 + row * self.card_h)

    def back(self, row: int, col: int) -> tuple[float, float]:
        """Mirror of the face's place across the fold: folding lands one on the other."""
        return (
            self.left + col * self.card_w,
            self.fold - self.gutter / 2 - (row + 1) * self.card_h,
        )

    @property
    def per_sheet(self) -> int:
        """Cards on a sheet (each with its back)."""
        return self.cols * self.rows


def fold_grid_for(profile: Profile, card_w: float, card_h: float) -> FoldGrid:
    """The gutterfold grid with the most cards, the fold across the sheet's width."""

    def grid(page_w: float, page_h: float) -> FoldGrid | None:
        cols = int((page_w - 2 * profile.margin) // card_w)
        rows = int(((page_h - 2 * profile.margin - profile.gutter) / 2) // card_h)
        if cols < 1 or rows < 1:
            return None
        left, fold = (page_w - cols * card_w) / 2, page_h / 2
        return FoldGrid(page_w, page_h, cols, rows, card_w, card_h, left, fold, profile.gutter)

    return _most_cards(
        profile,
        grid,
        f"a {mm_text(card_w)} × {mm_text(card_h)} mm card and its back do not fit the "
        f"{profile.id} paper either side of a fold",
    )


def fold_marks(grid: FoldGrid) -> tuple:
    """Cut marks beyond the cards' outer edges, and the fold line across the gutter."""
    xs = [grid.left + c * grid.card_w for c in range(grid.cols + 1)]
    ys = sorted(
        {
            *(grid.fold + grid.gutter / 2 + r * grid.card_h for r in range(grid.rows + 1)),
            *(grid.fold - grid.gutter / 2 - r * grid.card_h for r in range(grid.rows + 1)),
        }
    )
    fold = Line(
        xs[0] - mm(4),
        grid.fold,
        xs[-1] + mm(4),
        grid.fold,
        (0.55, 0.55, 0.55),
        0.4,
        dash=(3.0, 2.0),
    )
    return (*cut_marks(xs, ys, grid.page_w, grid.page_h), fold)


def _fold(
    cards: Iterator[Card], grid: FoldGrid, sheets: int, profile: Profile, rtl: bool
) -> Iterator[Page]:
    """Gutterfold sheets, a sheet at a time: each face above the fold, its back mirrored
    below it and turned upside down, so that folding along the line puts every back on
    its face. Left to right, the first face is at the left of the row next to the fold;
    right to left (``rtl``), at the right of the top row, as a right-to-left reader
    starts a page."""
    marks = fold_marks(grid) if profile.crop_marks else ()
    for sheet in range(sheets):
        placements, corners = [], []
        for index, card in enumerate(islice(cards, grid.per_sheet)):
            row, col = divmod(index, grid.cols)
            if rtl:
                row, col = grid.rows - 1 - row, grid.cols - 1 - col
            x, y = grid.face(row, col)
            box = (x, y, card.width, card.height)
            placements.append(Placement(card.face, x, y, box, clip_path=_clip(card, x, y)))
            bx, by = grid.back(row, col)
            box = (bx, by, card.width, card.height)
            clip = _clip(card, bx, by)
            placements.append(Placement(card.back, bx, by, box, rotate=180, clip_path=clip))
            corners.append((x, y))
        page_marks = marks
        if placements and not _squared(card):
            page_marks = (*(m for m in marks if m.dash), *cut_lines(card, corners))
        yield Page(
            grid.page_w,
            grid.page_h,
            tuple(placements),
            page_marks,
            label=f"sheet {sheet + 1} of {sheets}, fold along the dashed line",
        )


def impose(cards: list[Card], profile: Profile, rtl: bool = False) -> list[Page]:
    """Pages for a deck under a profile, sheets laid right to left if ``rtl``."""
    return list(imposed(cards, len(cards), profile, rtl)[1])


def imposed(
    cards: Iterable[Card], count: int, profile: Profile, rtl: bool = False
) -> tuple[int, Iterator[Page]]:
    """How many pages ``count`` cards make under a profile, and the pages, each imposed
    only when it is taken, from the cards as they come (a large deck is never held whole);
    sheets are laid right to left if ``rtl`` (one card a page is the same either way).
    ImpositionError at once if the cards do not fit the profile's paper."""
    taken = iter(cards)
    first = next(taken, None)
    if first is None:
        return 0, iter(())
    taken = chain((first,), taken)
    if profile.mode == "single":
        return 2 * count, _single(taken, profile)
    if profile.mode == "fold":
        folded = fold_grid_for(profile, first.width, first.height)
        sheets = -(-count // folded.per_sheet)
        return sheets, _fold(taken, folded, sheets, profile, rtl)
    grid = grid_for(profile, first.width, first.height)
    sheets = -(-count // grid.per_sheet)
    return 2 * sheets, _sheets(taken, grid, sheets, profile, rtl)
