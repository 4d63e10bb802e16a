"""Measuring what pages draw against their boxes: text size and place, marks, rules,
content past the page's edge. Findings are gathered page by page for the checks."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from deckforge.drawing.ops import Matrix
from deckforge.preflight import pdfobjects as rd
from deckforge.preflight.drawn import Drawn, Image, Stroke
from deckforge.preflight.fonts import Font
from deckforge.preflight.pdfobjects import Box
from deckforge.units import MM, PAPER_SIZES_MM

#: Page boxes may differ from the manifest by this much (rounding of points).
BOX_TOLERANCE_MM = 0.1
#: Print shops keep text this far inside the trim: cutting drifts by up to 1/8 in.
SAFE_INSET_MM = 3.175
#: A rule this close to the trim, along it, shows any drift of the cut.
RULE_INSET_MM = 3.0
#: A mark: a solid straight line at most this thick and this long.
MARK_WIDTH_PT = 0.5
MARK_LENGTH_MM = 15.0
MIN_TEXT_PT = 6.0

#: A char as messages quote it: its text, glyph matrix and advance (em).
Shown = tuple[str, Matrix, float]


def char_bbox(glyph: Matrix, width: float, descent: float) -> Box:
    """The char's box in page space: (left, bottom, right, top)."""
    a, b, c, d, e, f = glyph
    xs, ys = [], []
    for gx, gy in ((0.0, descent), (width, descent), (0.0, descent + 1.0), (width, descent + 1.0)):
        xs.append(gx * a + gy * c + e)
        ys.append(gx * b + gy * d + f)
    return min(xs), min(ys), max(xs), max(ys)


def char_size(glyph: Matrix) -> float:
    """The length of the glyph's em-high up vector: Tf size × text matrix × CTM."""
    return math.hypot(glyph[2], glyph[3])


def paper_name(media: Box) -> str:
    """The paper a page is (A4, Letter…), or ""."""
    size = sorted((media[2] - media[0], media[3] - media[1]))
    for name, dims in PAPER_SIZES_MM.items():
        if all(abs(s / MM - p) <= 1.0 for s, p in zip(size, dims, strict=True)):
            return name
    return ""


def _beyond(inner: Box, outer: Box) -> float:
    """How far (points) ``inner`` reaches past ``outer`` on its worst side."""
    return max(outer[0] - inner[0], outer[1] - inner[1], inner[2] - outer[2], inner[3] - outer[3])


def _cut_by_edge(item: Box, clip: Box | None, media: Box, tol: float) -> bool:
    """Whether the page's edge cuts ``item``: part of it on the page, part past it, and no
    clip stopping it short of the edge on that side (a tile of a board is clipped so)."""
    inside = item[0] < media[2] and item[2] > media[0] and item[1] < media[3] and item[3] > media[1]
    if not inside:
        return False  # wholly off the page (another tile of a board): nothing shows
    if clip is None:
        return _beyond(item, media) > tol
    sides = (
        (media[0] - item[0], clip[0] <= media[0] + tol),
        (media[1] - item[1], clip[1] <= media[1] + tol),
        (item[2] - media[2], clip[2] >= media[2] - tol),
        (item[3] - media[3], clip[3] >= media[3] - tol),
    )
    return any(over > tol and open_side for over, open_side in sides)


@dataclass
class PageBoxes:
    """A page's boxes (TrimBox None when it has none)."""

    media: Box
    trim: Box | None
    bleed: Box | None
    art: Box | None


def page_boxes(page: Any) -> PageBoxes:
    """The boxes of a page (crop box ignored: deckforge never sets one)."""
    media = rd.box(page, "/MediaBox") or (0.0, 0.0, 0.0, 0.0)
    return PageBoxes(
        media, rd.box(page, "/TrimBox"), rd.box(page, "/BleedBox"), rd.box(page, "/ArtBox")
    )


@dataclass
class Findings:
    """What the pages of one file showed, gathered page by page for the checks."""

    pages: int = 0
    fonts: dict[Any, tuple[Font, int]] = field(default_factory=dict)
    spaces: set[str] = field(default_factory=set)
    rgb: list[tuple[int, str]] = field(default_factory=list)
    bare_rgb: list[tuple[int, str]] = field(default_factory=list)
    transparency: list[tuple[int, str]] = field(default_factory=list)
    ink: tuple[float, int, str] = (0.0, 0, "")
    cmyk_images: dict[Any, tuple[Image, int]] = field(default_factory=dict)
    images: list[tuple[int, Image, float]] = field(default_factory=list)
    smallest: tuple[float, int, str] | None = None
    small: dict[int, tuple[float, list[Shown]]] = field(default_factory=dict)
    unsafe: dict[int, tuple[float, list[Shown]]] = field(default_factory=dict)
    boxes: list[tuple[int, PageBoxes]] = field(default_factory=list)
    #: Content the page edge cuts: (page, what).
    outside: list[tuple[int, str]] = field(default_factory=list)
    #: Marks inside the trim: (page, where).
    marks: list[tuple[int, str]] = field(default_factory=list)
    #: Rules running along the trim, too close to it: (page, distance mm, length mm).
    rules: list[tuple[int, float, float]] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)

    def add_page(self, number: int, page: Any, drawn: Drawn, safe_area: bool) -> None:
        """Take in what one page draws; ``safe_area``: measure text against the trim."""
        self.pages = number
        boxes = page_boxes(page)
        self.boxes.append((number, boxes))
        for key, font in drawn.fonts.items():
            self.fonts.setdefault(key, (font, number))
        self.spaces |= drawn.spaces
        _note(self.rgb, number, drawn.rgb)
        _note(self.bare_rgb, number, drawn.bare_rgb)
        _note(self.transparency, number, drawn.transparency)
        _note(self.problems, number, drawn.problems)
        if drawn.ink > self.ink[0]:
            self.ink = (drawn.ink, number, "a colour")
        for ctm, image in drawn.images:
            self.images.append((number, image, image.dpi(ctm)))
            if image.space in rd.CMYK_SPACES and image.stream is not None:
                self.cmyk_images.setdefault(rd.key(image.stream), (image, number))
        self._text(number, boxes, drawn, safe_area)
        self._strokes(number, boxes, drawn.strokes)

    def _text(self, number: int, boxes: PageBoxes, drawn: Drawn, safe_area: bool) -> None:
        safe = None
        if safe_area and boxes.trim is not None:
            inset = SAFE_INSET_MM * MM
            t = boxes.trim
            safe = (t[0] + inset, t[1] + inset, t[2] - inset, t[3] - inset)
        tol = BOX_TOLERANCE_MM * MM
        cut: list[str] = []
        for glyph, width, descent, text, clip in drawn.chars:
            if not text.strip():
                continue  # spaces print nothing
            size = char_size(glyph)
            if self.smallest is None or size < self.smallest[0]:
                self.smallest = (size, number, text)
            if size < MIN_TEXT_PT - 0.005:
                _collect(self.small, number, size, (text, glyph, width))
            bbox = char_bbox(glyph, width, descent)
            if _cut_by_edge(bbox, clip, boxes.media, tol):
                cut.append(text)
            if safe is not None:
                margin = min(
                    bbox[0] - safe[0], bbox[1] - safe[1], safe[2] - bbox[2], safe[3] - bbox[3]
                )
                if margin < -0.01:
                    # How far inside the trim the char reaches: the safe inset plus margin.
                    reach = SAFE_INSET_MM + margin / MM
                    _collect(self.unsafe, number, reach, (text, glyph, width))
        if cut:
            self.outside.append((number, f"text '{snippet(''.join(cut))}'"))

    def _strokes(self, number: int, boxes: PageBoxes, strokes: list[Stroke]) -> None:
        tol = BOX_TOLERANCE_MM * MM
        trim = boxes.trim
        outside = 0
        for stroke in strokes:
            half = stroke.width / 2
            lone = stroke.lone or (False,) * len(stroke.segments)
            for (x0, y0, x1, y1), alone in zip(stroke.segments, lone, strict=True):
                seg = (
                    min(x0, x1) - half,
                    min(y0, y1) - half,
                    max(x0, x1) + half,
                    max(y0, y1) + half,
                )
                # Placed artwork (a form) may run off the page: bleed art is cropped so.
                if not stroke.placed and _cut_by_edge(seg, stroke.clip, boxes.media, tol):
                    outside += 1
                if trim is None or (stroke.clip is not None and _beyond(seg, stroke.clip) > tol):
                    continue
                self._mark_or_rule(number, trim, (x0, y0, x1, y1), stroke, alone)
        if outside:
            plural = "s" if outside != 1 else ""
            self.outside.append((number, f"{outside} stroked line{plural}"))

    def _mark_or_rule(
        self, number: int, trim: Box, seg: tuple, stroke: Stroke, alone: bool
    ) -> None:
        x0, y0, x1, y1 = seg
        length = math.hypot(x1 - x0, y1 - y0)
        upright = abs(x1 - x0) < 0.01
        across = abs(y1 - y0) < 0.01
        if not (upright or across) or length < 0.01:
            return
        inside = trim[0] - 0.01 <= min(x0, x1) and max(x0, x1) <= trim[2] + 0.01
        inside = inside and trim[1] - 0.01 <= min(y0, y1) and max(y0, y1) <= trim[3] + 0.01
        if not inside:
            return
        short = length <= MARK_LENGTH_MM * MM
        if (
            alone
            and not stroke.placed
            and stroke.width <= MARK_WIDTH_PT
            and not stroke.dashed
            and short
        ):
            at = f"({rd.mm_text(x0 - trim[0])}, {rd.mm_text(y0 - trim[1])}) mm"
            where = f"{at} from the trim's corner"
            self.marks.append((number, where))
            return
        if upright:
            gap = min(x0 - trim[0], trim[2] - x0)
        else:
            gap = min(y0 - trim[1], trim[3] - y0)
        # A rule's place is its centre line, as a designer sets it.
        if gap < RULE_INSET_MM * MM and length > MARK_LENGTH_MM * MM:
            self.rules.append((number, gap / MM, length / MM))


def _note(found: list[tuple[int, str]], number: int, reasons: list[str]) -> None:
    for reason in reasons:
        if len(found) < 50 and all(r != reason for _, r in found):
            found.append((number, reason))


def _collect(table: dict, number: int, value: float, shown: Shown) -> None:
    worst, texts = table.setdefault(number, (value, []))
    texts.append(shown)
    table[number] = (min(worst, value), texts)


def snippet(text: str, limit: int = 30) -> str:
    """Text shortened for a message."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def join(chars: list[Shown]) -> str:
    """The text of some chars, with a space wherever one does not follow on from the last
    (they may come from several lines or labels)."""
    parts: list[str] = []
    end: tuple[float, float] | None = None
    for text, glyph, width in chars:
        a, b, c, d, e, f = glyph
        if end is not None and math.hypot(e - end[0], f - end[1]) > 0.3 * math.hypot(c, d):
            parts.append(" ")
        parts.append(text)
        end = (e + width * a, f + width * b)
    return "".join(parts)


def more(count: int, noun: str = "page") -> str:
    """' (and N more pages)', or nothing."""
    if count <= 0:
        return ""
    return f" (and {count} more {noun}{'s' if count != 1 else ''})"


def first_page(by_page: dict) -> tuple[int, Any, str]:
    """The first page of a finding kept per page, what was found there, and the
    " (and N more pages)" that says how many other pages have it too."""
    page = min(by_page)
    return page, by_page[page], more(len(by_page) - 1)
