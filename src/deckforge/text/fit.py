"""Measuring, wrapping and fitting text into boxes.

Text is wrapped in logical order by measured width, then each line is shaped
and reordered for display (:func:`deckforge.text.script.visual_line`) and split
into runs, each in a face that can draw it. Fitting tries sizes from the
preferred size down to the minimum and takes the first at which the text fits;
if none does, it raises :class:`FitError` rather than clipping.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from deckforge.text import fonts
from deckforge.text.script import (
    INVISIBLE,
    RLM,
    ZWNJ,
    drawable,
    has_arabic,
    is_rtl_locale,
    localise_digits,
    normalise,
    shape,
    visual_glyphs,
)


class FitError(ValueError):
    """Text that cannot be set: it does not fit, or a character has no glyph."""


@dataclass(frozen=True)
class TextStyle:
    """How a text box sets its text."""

    size: float
    min_size: float
    weight: str = fonts.REGULAR
    leading: float = 1.2
    max_lines: int = 0
    align: str = "start"  # start, centre or end; start is right for right-to-left text


@dataclass(frozen=True)
class Run:
    """Part of a line in one face, in visual order; ``offset`` from the line's left edge.

    ``actual`` holds, per character of ``text``, the logical text it stands for where
    that differs from what the glyph reads as (a mirrored bracket), else "". ``span``,
    when set, is the text extraction should read for the whole run: a number or Latin
    word inside right-to-left text, led by a right-to-left mark so that extractors
    (pdftotext among them) keep it in its place in the line.
    """

    text: str
    font: str
    offset: float
    width: float
    actual: tuple[str, ...] = ()
    span: str = ""


@dataclass(frozen=True)
class Line:
    """One line: its logical text (for search and copy) and its visual runs."""

    logical: str
    runs: tuple[Run, ...]
    width: float


@dataclass(frozen=True)
class FittedText:
    """Text set at one size: lines top to bottom."""

    lines: tuple[Line, ...]
    size: float
    line_height: float
    ascent: float
    descent: float
    rtl: bool
    align: str

    @property
    def height(self) -> float:
        """From the first line's ascender to the last line's descender."""
        if not self.lines:
            return 0.0
        return self.ascent - self.descent + (len(self.lines) - 1) * self.line_height


def _is_arabic_script(ch: str) -> bool:
    return (
        "\u0600" <= ch <= "\u06ff"
        or "\u0750" <= ch <= "\u077f"
        or "\ufb50" <= ch <= "\ufdff"
        or "\ufe70" <= ch <= "\ufeff"
    )


@lru_cache(maxsize=4096)
def _font_for(ch: str, weight: str) -> str | None:
    families = ("arabic", "latin") if _is_arabic_script(ch) else ("latin", "arabic")
    for family in families:
        face = fonts.face(family, weight)
        if ord(ch) in face.coverage:
            return face.name
    return None


def _neutral(ch: str) -> bool:
    return ch.isspace() or ch in ".,:;!?-–—()[]«»،؛؟'\"/"


def runs_of(visual: str, weight: str) -> list[tuple[str, str]]:
    """Split visual text into (text, face name) runs; neutral characters join a neighbour."""
    runs: list[list[str]] = []
    for ch in visual:
        font = _font_for(ch, weight)
        if font is None:
            raise FitError(f"no font can draw the character {ch!r} (U+{ord(ch):04X})")
        if runs and (runs[-1][1] == font or (_neutral(ch) and ord(ch) in _coverage(runs[-1][1]))):
            runs[-1][0] += ch
        else:
            runs.append([ch, font])
    return [(text, font) for text, font in runs]


@lru_cache(maxsize=8)
def _coverage(font_name: str) -> frozenset[int]:
    for family in fonts.FAMILIES:
        for weight in (fonts.REGULAR, fonts.BOLD):
            face = fonts.face(family, weight)
            if face.name == font_name:
                return face.coverage
    return frozenset()


@lru_cache(maxsize=131072)
def _unit_width(word: str, weight: str) -> float:
    """Width of a shaped word at 1 pt."""
    visual = drawable(shape(word))
    return sum(fonts.width(text, font, 1.0) for text, font in runs_of(visual, weight))


def measure(text: str, weight: str, size: float) -> float:
    """Width of a logical line at a size, in points."""
    words = text.split(" ")
    space = _unit_width(" ", weight)
    return size * (sum(_unit_width(w, weight) for w in words) + space * (len(words) - 1))


def check_glyphs(text: str, weight: str) -> None:
    """Raise FitError naming the first character no font can draw."""
    if fonts.face("latin", weight).coverage.issuperset(map(ord, text)):
        return  # the usual case, checked at once
    for ch in text:
        if ch not in INVISIBLE and not ch.isspace():
            if _font_for(ch, weight) is None:
                raise FitError(f"no font can draw the character {ch!r} (U+{ord(ch):04X})")


def wrap(text: str, width: float, weight: str, size: float, max_lines: int = 0) -> list[str]:
    """Greedy wrap of logical text into lines no wider than ``width``.

    Explicit newlines start a new line. A single word wider than the box raises
    FitError, as does exceeding ``max_lines``.
    """
    space = _unit_width(" ", weight) * size
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current: list[str] = []
        current_width = 0.0
        for word in paragraph.split():
            word_width = _unit_width(word, weight) * size
            if word_width > width + 1e-6:
                raise FitError(f"the word '{word}' is too long to fit on a line")
            if current and current_width + space + word_width > width + 1e-6:
                lines.append(" ".join(current))
                current, current_width = [word], word_width
            else:
                current_width += (space if current else 0.0) + word_width
                current.append(word)
        lines.append(" ".join(current))
        if max_lines and len(lines) > max_lines:
            raise FitError(f"needs more than {max_lines} line(s)")
    return lines


#: Bidi classes of right-to-left letters and the marks on them.
_RTL_CLASSES = ("R", "AL", "NSM")
#: Bidi classes of separators that belong to a number when between digits: + - # % , . : /
_NUMBER_PUNCTUATION = ("ES", "ET", "CS")


def _left_to_right(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("L", "EN", "AN")


def set_line(logical: str, weight: str, size: float, rtl: bool) -> Line:
    """Shape, reorder and split one logical line into positioned runs.

    Runs change with the face and, in right-to-left lines, with the direction of the
    characters. There, spaces are left as gaps rather than drawn, and each run of
    numbers or Latin letters is marked for text extraction as a right-to-left span
    (see :class:`Run`), so that extraction rebuilds the line in reading order.
    """
    if not rtl:
        latin = fonts.face("latin", weight)
        if latin.coverage.issuperset(map(ord, logical)) and not has_arabic(logical):
            # Plain left-to-right text one face can draw: one run, nothing to reorder.
            text = drawable(logical)
            run_width = fonts.width(text, latin.name, size)
            return Line(
                logical=logical, runs=(Run(text, latin.name, 0.0, run_width),), width=run_width
            )
    glyphs = visual_glyphs(logical, rtl)
    runs: list[Run] = []
    offset = 0.0
    pending: list[tuple[str, str]] = []
    key: tuple[str, bool] | None = None

    def flush() -> None:
        nonlocal offset, pending, key
        if pending and key is not None:
            text = "".join(ch for ch, _ in pending)
            run_width = fonts.width(text, key[0], size)
            actual = tuple(a for _, a in pending)
            span = ""
            if rtl and key[1]:
                span = RLM + "".join(a or ch for ch, a in pending)
            runs.append(Run(text, key[0], offset, run_width, actual if any(actual) else (), span))
            offset += run_width
        pending, key = [], None

    for index, (ch, actual) in enumerate(glyphs):
        if rtl and ch == " ":
            flush()
            offset += fonts.width(" ", fonts.face("latin", weight).name, size)
            continue
        font = runs_of(ch, weight)[0][1]
        ltr = rtl and _left_to_right(ch)
        if rtl and unicodedata.bidirectional(ch) in _NUMBER_PUNCTUATION:
            # A separator between digits belongs to the number (۱٬۰۰۰, ۲/۳).
            nearby = [glyphs[k][0] for k in (index - 1, index + 1) if 0 <= k < len(glyphs)]
            ltr = len(nearby) == 2 and all(
                unicodedata.bidirectional(n) in ("EN", "AN") for n in nearby
            )
        if (
            key is not None
            and not (rtl and (ltr or key[1]))
            and _neutral(ch)
            and ord(ch) in _coverage(key[0])
        ):
            pending.append((ch, actual))  # punctuation stays with its neighbour
            continue
        if rtl and not ltr and ch != ZWNJ and unicodedata.bidirectional(ch) not in _RTL_CLASSES:
            # Punctuation and brackets in right-to-left text: marked so that extraction
            # keeps them with the word they follow (pdftotext moves them otherwise).
            actual = RLM + (actual or ch)
        if key is not None and key != (font, ltr):
            flush()
        key = (font, ltr)
        pending.append((ch, actual))
    flush()
    return Line(logical=logical, runs=tuple(runs), width=offset)


def prepare(text: str, locale: str) -> str:
    """Logical text ready for setting: normalised (per line) and with the locale's digits."""
    return "\n".join(normalise(part) for part in localise_digits(text, locale).split("\n"))


def metrics(weight: str, size: float, rtl: bool) -> tuple[float, float]:
    """Ascent and descent to reserve for a line of the locale's main script."""
    latin = fonts.ascent_descent(fonts.face("latin", weight).name, size)
    if not rtl:
        return latin
    arabic = fonts.ascent_descent(fonts.face("arabic", weight).name, size)
    return max(latin[0], arabic[0]), min(latin[1], arabic[1])


@lru_cache(maxsize=16384)
def fit(text: str, width: float, height: float, style: TextStyle, locale: str) -> FittedText:
    """Set text in a box, shrinking from the preferred size to the minimum as needed.

    The same text in the same box is set once (a deck's label on every card)."""
    rtl = is_rtl_locale(locale)
    logical = prepare(text, locale)
    check_glyphs(logical, style.weight)
    size = style.size
    last_error = "does not fit"
    while size >= style.min_size - 1e-6:
        try:
            lines = wrap(logical, width, style.weight, size, style.max_lines)
        except FitError as exc:
            last_error = str(exc)
        else:
            ascent, descent = metrics(style.weight, size, rtl)
            line_height = size * style.leading * (1.15 if rtl else 1.0)
            total = ascent - descent + (len(lines) - 1) * line_height
            if total <= height + 1e-6:
                return FittedText(
                    lines=tuple(set_line(line, style.weight, size, rtl) for line in lines),
                    size=size,
                    line_height=line_height,
                    ascent=ascent,
                    descent=descent,
                    rtl=rtl,
                    align=style.align,
                )
            last_error = f"needs {len(lines)} lines, too tall for its box"
        size = round(size - 0.5, 2)
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise FitError(f"cannot fit '{shown}' at the minimum size {style.min_size:g} pt: {last_error}")
