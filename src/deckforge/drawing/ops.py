"""Drawing operations: the plain data that layout produces and renderers draw.

Coordinates are PDF points with the origin at the lower left. A card's
operations use the card's trim box as (0, 0, width, height); art meant to
bleed extends past it by the bleed on every side.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from deckforge.drawing.outline import Outline

RGB = tuple[float, float, float]

BLACK: RGB = (0.0, 0.0, 0.0)
WHITE: RGB = (1.0, 1.0, 1.0)

#: A PDF matrix (a b c d e f): a point (x, y) goes to (a x + c y + e, b x + d y + f).
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n``, in PDF's row-vector convention."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (
        a * p + b * r,
        a * q + b * s,
        c * p + d * r,
        c * q + d * s,
        e * p + f * r + t,
        e * q + f * s + u,
    )


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """A point moved by a matrix."""
    a, b, c, d, e, f = m
    return x * a + y * c + e, x * b + y * d + f


@lru_cache(maxsize=1024)
def hex_colour(value: str) -> RGB:
    """'#RRGGBB' to an RGB triple in 0..1."""
    value = value.lstrip("#")
    return tuple(int(value[i : i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]


def inks(palette) -> tuple[RGB, RGB, RGB, RGB]:
    """An edition's palette (:class:`deckforge.model.Palette`) as colours to draw with:
    ink, paper, accent and dark accent."""
    return (
        hex_colour(palette.ink),
        hex_colour(palette.paper),
        hex_colour(palette.accent),
        hex_colour(palette.accent_dark),
    )


class Inks(tuple):
    """A colour given as printing inks, ``cmyk(c, m, y, k)``: its ``inks`` (0–1) are
    written unchanged into CMYK files; RGB files draw what they print as through the
    press profile. As an RGB triple it is the inks' plain complement, which only mixing
    and choosing a readable ink look at. Equal only to the same inks."""

    inks: tuple[float, float, float, float]

    def __new__(cls, c: float, m: float, y: float, k: float) -> Inks:
        made = super().__new__(cls, ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)))
        made.inks = (c, m, y, k)
        return made

    def __getnewargs__(self) -> tuple[float, float, float, float]:
        return self.inks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Inks) and self.inks == other.inks

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("cmyk", self.inks))

    def __repr__(self) -> str:
        return f"cmyk({', '.join(f'{v * 100:g}' for v in self.inks)})"


#: No ink: white paper, as inks (what white mixes with inks as).
NO_INK = Inks(0.0, 0.0, 0.0, 0.0)


def mix(colour: RGB, other: RGB, amount: float) -> RGB:
    """``colour`` moved ``amount`` (0..1) of the way towards ``other``; between inks
    (white is no ink), the inks themselves, as a print shop's tint is."""
    first, second = (NO_INK if c == WHITE else c for c in (colour, other))
    if isinstance(first, Inks) and isinstance(second, Inks) and Inks in (type(colour), type(other)):
        a, b = first.inks, second.inks
        return Inks(*(round(x + (y - x) * amount, 6) for x, y in zip(a, b, strict=True)))
    return tuple(a + (b - a) * amount for a, b in zip(colour, other, strict=True))  # type: ignore[return-value]


#: The dark ink that reads on light colours.
DARK_INK: RGB = (0.08, 0.08, 0.1)


def readable_on(colour: RGB) -> RGB:
    """Dark ink on a light colour, white on a dark one (by relative luminance)."""
    r, g, b = colour
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return DARK_INK if luminance > 0.45 else WHITE


@dataclass(frozen=True, slots=True)
class Gradient:
    """A fill that changes colour: ``linear`` along the line ``points`` = (x0, y0, x1, y1),
    or ``radial`` out from the centre ``points`` = (cx, cy, r); ``stops`` are (offset 0–1,
    colour), in order. Beyond the first and last stop the end colours carry on."""

    kind: str
    points: tuple[float, ...]
    stops: tuple[tuple[float, RGB], ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Paint:
    """How a closed shape is painted: its fill (a colour, or a ``gradient`` over it), its
    outline and the outline's dash pattern (on, off, ... in points; solid when empty).
    Given by keyword only, after the shape's own geometry."""

    fill: RGB | None = None
    stroke: RGB | None = None
    line_width: float = 0.5
    dash: tuple[float, ...] = ()
    gradient: Gradient | None = None


@dataclass(frozen=True, slots=True)
class Rect(Paint):
    """A rectangle, filled and/or stroked, optionally with rounded corners."""

    x: float
    y: float
    w: float
    h: float
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Line:
    """A straight line."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: RGB = BLACK
    line_width: float = 0.5
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Polygon(Paint):
    """A closed shape through points; ``holes`` are cut out (even-odd)."""

    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Circle(Paint):
    """A circle."""

    cx: float
    cy: float
    r: float


@dataclass(frozen=True, slots=True)
class Ellipse(Paint):
    """An ellipse filling the box whose lower-left corner is (x, y)."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Transform:
    """Operations drawn in their own coordinates, mapped by a PDF matrix (a b c d e f):
    what turns an upside-down answer or a sideways label into place."""

    matrix: Matrix
    ops: tuple


@dataclass(frozen=True, slots=True)
class Layer:
    """Operations drawn together and then made translucent as one: an element's or a
    group's ``opacity`` (0–1). ``where`` (a :class:`deckforge.errors.SourceRef`) is the
    element's place, for a file that cannot hold transparency."""

    ops: tuple
    opacity: float
    where: object = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Shadow:
    """The drop shadow of operations, drawn under them: their shape in one ``colour`` at
    ``opacity``, moved by (dx, dy) and softened by a Gaussian ``blur`` of that radius in
    points (0: a hard shadow). ``where`` as for :class:`Layer`."""

    ops: tuple
    dx: float
    dy: float
    colour: RGB
    opacity: float = 1.0
    blur: float = 0.0
    where: object = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Tag:
    """Where a text belongs in a tagged document's logical structure.

    ``path`` leads from the document down to the text's own element, as (structure type,
    key) pairs: the types are PDF's standard ones (Sect, H1, P, L, LI, Lbl, LBody, Table,
    TR, TH...), the keys tell elements apart and order siblings in reading order. Texts
    with the same path belong to the same element (a paragraph's lines). A text that is
    no part of the content (a page number) is an ``artifact`` of that kind instead.
    """

    path: tuple[tuple[str, int], ...] = ()
    #: The element's language where it differs from the document's ("en" credits).
    lang: str = ""
    artifact: str = ""


@dataclass(frozen=True, slots=True)
class Text:
    """Fitted text placed in a box: ``x, y, w`` give the box's left, top and width."""

    x: float
    top: float
    w: float
    fitted: Fitted
    colour: RGB = BLACK
    #: Its place in the document's structure, in documents that are tagged.
    tag: Tag | None = None
    #: An outline around each glyph, drawn over its fill: colour and width in points.
    outline: RGB | None = None
    outline_width: float = 0.0

    def baselines(self) -> list[tuple[float, float, Any]]:
        """(left x, baseline y, line) for each line, after alignment."""
        out = []
        y = self.top - self.fitted.ascent
        for line in self.fitted.lines:
            align = self.fitted.align
            if align == "start":
                align = "end" if self.fitted.rtl else "left"
            if align == "centre":
                x = self.x + (self.w - line.width) / 2
            elif align == "end":
                x = self.x + self.w - line.width
            else:
                x = self.x
            out.append((x, y, line))
            y -= self.fitted.line_height
        return out

    def inline_icons(self) -> list[Icon]:
        """The icons in the text's lines, as icons placed on the page."""
        if not any(line.icons for line in self.fitted.lines):
            return []
        return [
            Icon(icon.code, x + icon.x, y + icon.y, icon.side, icon.side)
            for x, y, line in self.baselines()
            for icon in line.icons
        ]


class Fitted(Protocol):
    """Text set to fit a box (:class:`deckforge.text.fit.FittedText`), as far as drawing it
    needs: its lines top to bottom, each with its ``width``, how they align, the first
    line's ascent and the distance between baselines. Said here, so that the drawing
    operations, which text, art and layout all make, depend on none of them."""

    @property
    def lines(self) -> tuple[Any, ...]: ...

    @property
    def line_height(self) -> float: ...

    @property
    def height(self) -> float: ...

    @property
    def size(self) -> float: ...

    @property
    def ascent(self) -> float: ...

    @property
    def rtl(self) -> bool: ...

    @property
    def align(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Icon:
    """A named picture drawn into a box, keeping its aspect ratio; ``tint`` recolours
    everything it paints to one colour."""

    name: str
    x: float
    y: float
    w: float
    h: float
    tint: RGB | None = None


@dataclass(frozen=True, slots=True)
class Picture:
    """A user's art file drawn into a box: scaled to cover it (cropped) or to fit inside it,
    never stretched; ``round`` clips it to the box's inscribed circle."""

    path: str
    kind: str  # raster or svg
    x: float
    y: float
    w: float
    h: float
    cover: bool = True
    round: bool = False
    #: One colour everything an SVG paints is drawn in (its shape kept); None: its own.
    tint: RGB | None = None


@dataclass(frozen=True, slots=True)
class Face:
    """One side of a card, or a page's content: operations in its own coordinates.

    Faces with a ``key`` are identical wherever they are used (a deck's back),
    so a renderer may store them once and reuse them.
    """

    ops: tuple
    key: str | None = None


@dataclass(frozen=True, slots=True)
class Use:
    """A keyed face drawn here: what many cards share (a category's card without its
    name), stored once in the file."""

    face: Face


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A laid-out card: trim size, its two sides and its cut shape (a
    :class:`deckforge.drawing.outline.Outline`; None: a plain rectangle)."""

    id: str
    width: float
    height: float
    face: Face
    back: Face
    outline: Outline | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Placement:
    """A face put on a page: its trim's lower-left corner and the area it may paint."""

    face: Face
    x: float
    y: float
    clip: tuple[float, float, float, float]
    #: 180 turns the face upside down within its trim (backs of a gutterfold sheet).
    rotate: int = 0
    #: The PDF path the face is clipped to instead of ``clip`` (a shaped card's cut
    #: grown by its bleed), in page coordinates; ``clip`` still bounds it.
    clip_path: str = ""

    def shows(self, text: Text) -> bool:
        """Whether any of a text of the face falls inside the area the placement paints
        (a board tiled over sheets draws its whole face on each, clipped)."""
        height = text.fitted.height
        left, bottom, right, top = text.x, text.top - height, text.x + text.w, text.top
        cx, cy, cw, ch = self.clip
        if self.rotate == 180:
            left, right = self.x + cw - right, self.x + cw - left
            bottom, top = self.y + ch - top, self.y + ch - bottom
        else:
            left, right = left + self.x, right + self.x
            bottom, top = bottom + self.y, top + self.y
        return left < cx + cw and right > cx and bottom < cy + ch and top > cy


@dataclass(frozen=True, slots=True, eq=False)
class Page:
    """One page of an output file."""

    width: float
    height: float
    placements: tuple[Placement, ...] = ()
    ops: tuple = ()
    trim_box: tuple[float, float, float, float] | None = None
    bleed_box: tuple[float, float, float, float] | None = None
    label: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class Document:
    """An output file's pages and how they are written: colour, PDF/X, language, tags."""

    #: The pages, or (for a large deck) an iterator making each page as it is drawn.
    pages: tuple[Page, ...] | Iterator[Page]
    title: str
    #: "rgb", or "cmyk" for print shops (every colour converted, ink limited).
    colour: str = "rgb"
    ink_limit: float = 240.0
    #: The inks (0–1) of large black areas in CMYK.
    rich_black: tuple[float, float, float, float] = (0.6, 0.4, 0.4, 1.0)
    #: The PDF/X version to write ("PDF/X-4", "PDF/X-1a:2001"), if any.
    pdfx: str | None = None
    #: The printing condition (a :class:`deckforge.profiles.OutputIntent`) CMYK is made
    #: for and PDF/X names; None for the default one.
    output_intent: object = None
    #: The language its text is in (BCP 47: "fa", "en").
    lang: str = "en"
    #: Whether its texts say where they belong in its structure (a tagged PDF); None:
    #: found from its pages, which an iterator of pages cannot be asked.
    tagged: bool | None = None
