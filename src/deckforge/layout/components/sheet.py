"""What every component's pages share: the page's geometry (trim and bleed), the
edition's palette as colours to draw with, and text set with its source's place.

Components are laid out on the profile's document paper; with a bleed (print shops)
each page is the trim grown by the bleed, TrimBox and BleedBox set, and backgrounds
reach through the bleed.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckforge.drawing.ops import RGB, Face, Page, Placement, Rect, inks
from deckforge.model import Edition
from deckforge.model import Text as SourceText
from deckforge.profiles import Profile
from deckforge.text.fit import FitError, FittedText, TextStyle, fit


@dataclass(frozen=True)
class Sheet:
    """A component page's geometry: trim size and bleed, in points."""

    w: float
    h: float
    bleed: float

    def background(self, colour: RGB) -> Rect:
        """A fill over the whole page, bleed included."""
        b = self.bleed
        return Rect(-b, -b, self.w + 2 * b, self.h + 2 * b, fill=colour)

    @property
    def size(self) -> tuple[float, float]:
        """The page's size: the trim and the bleed around it."""
        return self.w + 2 * self.bleed, self.h + 2 * self.bleed

    def boxes(self) -> dict:
        """TrimBox and BleedBox of a page with bleed (none without)."""
        b = self.bleed
        if not b:
            return {}
        W, H = self.size
        return {"trim_box": (b, b, b + self.w, b + self.h), "bleed_box": (0.0, 0.0, W, H)}

    def page(self, ops: tuple, label: str, marks: tuple = ()) -> Page:
        """A page drawing ``ops`` with the trim's lower-left corner as origin."""
        W, H = self.size
        placement = Placement(Face(ops), self.bleed, self.bleed, (0.0, 0.0, W, H))
        return Page(W, H, (placement,), marks, label=label, **self.boxes())


def sheet_for(profile: Profile, landscape: bool = False) -> Sheet:
    """The profile's document paper, turned if ``landscape``, with its bleed."""
    w, h = profile.document_paper
    if landscape:
        w, h = h, w
    return Sheet(w, h, profile.document_bleed)


@dataclass(frozen=True)
class Inks:
    """The edition's palette as colours to draw with."""

    ink: RGB
    paper: RGB
    accent: RGB
    dark: RGB


def palette(edition: Edition) -> Inks:
    """The edition's palette as RGB colours."""
    return Inks(*inks(edition.palette))


class TextDoesNotFit(Exception):
    """A component's text that cannot be set in its box, with the text's source."""

    def __init__(self, text: SourceText, error: FitError):
        super().__init__(str(error))
        self.text, self.error = text, error


def set_text(
    text: SourceText, width: float, height: float, style: TextStyle, locale: str
) -> FittedText:
    """Fit a source text into a box; :class:`TextDoesNotFit` names its source if not."""
    try:
        return fit(text.value, width, height, style, locale)
    except FitError as exc:
        raise TextDoesNotFit(text, exc) from exc


class PawnsDoNotFit(ValueError):
    """The profile's paper holds no pawn."""


class Unmade(Exception):
    """A component drawn from templates that cannot be drawn, with the problems found."""

    def __init__(self, problems: list):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems
