"""What a content stream draws, as preflight records it: glyphs, images, stroked lines,
colour spaces, ink and transparency, each in the stream's own coordinates."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from deckforge.drawing.ops import IDENTITY, Matrix, apply, mul
from deckforge.preflight.fonts import Font
from deckforge.preflight.pdfobjects import Box, intersect, moved_box
from deckforge.units import INCH


@dataclass(frozen=True)
class Image:
    """An image XObject (or inline image) as drawn: its pixels and colour space."""

    name: str
    width: int
    height: int
    space: str
    stream: Any = None

    @property
    def label(self) -> str:
        """How messages name it: ReportLab names images by a hash, so by its pixels instead."""
        kind = "inline image" if self.name == "inline image" else "image"
        return f"{kind} of {self.width} × {self.height} px"

    def dpi(self, ctm: Matrix) -> float:
        """Effective resolution: pixels over the drawn size in inches, the lower of both axes."""
        a, b, c, d, _, _ = ctm
        across = math.hypot(a, b) / INCH
        up = math.hypot(c, d) / INCH
        if across <= 0 or up <= 0:
            return math.inf
        return min(self.width / across, self.height / up)


@dataclass(frozen=True)
class Stroke:
    """The straight segments of one stroked path, its line width, dash and clip."""

    segments: tuple[tuple[float, float, float, float], ...]
    width: float
    dashed: bool
    clip: Box | None
    #: Which segments are a subpath of their own (a lone line, as marks are drawn).
    lone: tuple[bool, ...] = ()
    #: Drawn inside a form XObject: placed artwork, which may be cropped by the page.
    placed: bool = False

    def moved(self, m: Matrix, clip: Box | None) -> Stroke:
        """The stroke, placed by a form, in the space ``m`` maps to, inside ``clip``."""
        segments = tuple((*apply(m, x0, y0), *apply(m, x1, y1)) for x0, y0, x1, y1 in self.segments)
        own = moved_box(m, self.clip) if self.clip is not None else None
        factor = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        width = self.width * factor
        return Stroke(segments, width, self.dashed, intersect(own, clip), self.lone, True)


#: A glyph: its matrix (em square to this space), advance in em, descent in em, text, clip.
Char = tuple[Matrix, float, float, str, Box | None]


@dataclass
class Drawn:
    """What one content stream draws (with the forms it uses), in its own coordinates."""

    fonts: dict[Any, Font] = field(default_factory=dict)
    spaces: set[str] = field(default_factory=set)
    rgb: list[str] = field(default_factory=list)
    #: DeviceRGB used where no /DefaultRGB remaps it.
    bare_rgb: list[str] = field(default_factory=list)
    ink: float = 0.0
    images: list[tuple[Matrix, Image]] = field(default_factory=list)
    chars: list[Char] = field(default_factory=list)
    strokes: list[Stroke] = field(default_factory=list)
    #: Transparency used: soft masks, constant alpha below 1, blend modes, groups.
    transparency: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def problem(self, message: str) -> None:
        """Note a problem once."""
        if message not in self.problems:
            self.problems.append(message)

    def add_rgb(self, reason: str, covered: bool = True) -> None:
        """Note a use of RGB; ``covered`` False when it is bare DeviceRGB."""
        if reason not in self.rgb:
            self.rgb.append(reason)
        if not covered and reason not in self.bare_rgb:
            self.bare_rgb.append(reason)

    def add_transparency(self, reason: str) -> None:
        """Note a use of transparency once."""
        if reason not in self.transparency:
            self.transparency.append(reason)

    def merge(self, other: Drawn, m: Matrix | None, clip: Box | None = None) -> None:
        """Add what ``other`` draws, moved by ``m`` within ``clip`` (``m`` None: colours
        and fonts only)."""
        self.fonts.update(other.fonts)
        self.spaces |= other.spaces
        for reason in other.rgb:
            self.add_rgb(reason, reason not in other.bare_rgb)
        for reason in other.transparency:
            self.add_transparency(reason)
        self.ink = max(self.ink, other.ink)
        for problem in other.problems:
            self.problem(problem)
        if m is None:
            return
        if m == IDENTITY and clip is None:
            self.images.extend(other.images)
            self.chars.extend(other.chars)
            self.strokes.extend(other.strokes)
            return
        self.images.extend((mul(n, m), image) for n, image in other.images)
        self.chars.extend(
            (mul(g, m), w, d, t, intersect(moved_box(m, c) if c else None, clip))
            for g, w, d, t, c in other.chars
        )
        self.strokes.extend(stroke.moved(m, clip) for stroke in other.strokes)
