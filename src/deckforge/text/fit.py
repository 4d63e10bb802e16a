"""Measuring, wrapping and fitting text into boxes.

Text is wrapped in logical order by measured width, then each line is shaped
and reordered for display (:func:`deckforge.text.script.visual_order`) and split
into runs, each in a face that can draw it. Fitting tries sizes from the
preferred size down to the minimum and takes the first at which the text fits;
if none does, it raises :class:`FitError` rather than clipping.

Text may hold inline markup (:mod:`deckforge.text.markup`): each character then
carries its style (bold, italic) through wrapping, shaping and bidi reordering, and
each inline icon is an object replacement character, measured, wrapped and reordered
like a letter as wide as the icon. Text without markup takes the shorter way it
always took.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from deckforge.text import fonts, markup
from deckforge.text.inline import ICON_ADVANCE, InlineIcon, copied, icon_codes, inline_icon
from deckforge.text.markup import OBJECT, Marked, MarkupError, has_markup
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
    visual_order,
)


class FitError(ValueError):
    """Text that cannot be set: it does not fit, a character has no glyph, or its markup
    is malformed (then ``position`` is the character of the text where it is)."""

    def __init__(self, message: str, position: int | None = None):
        super().__init__(message)
        self.position = position


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
    """One line: its logical text (for search and copy), its visual runs and icons.

    ``logical`` is what copying the line gives back: the markup taken out, each inline
    icon read as its emoji."""

    logical: str
    runs: tuple[Run, ...]
    width: float
    icons: tuple[InlineIcon, ...] = ()


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
    # An italic face lacking a character gives way to the upright face of its weight.
    for style in dict.fromkeys((weight, fonts.upright(weight))):
        for family in families:
            face = fonts.face(family, style)
            if ord(ch) in face.coverage:
                return face.name
    return None


@lru_cache(maxsize=64)
def _style_of(weight: str, bits: int) -> str:
    """The face style of a character with markup ``bits`` in text set in ``weight``."""
    return fonts.styled(weight, bool(bits & markup.BOLD), bool(bits & markup.ITALIC))


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


#: The code points a face can draw, by its name (asked for at every punctuation mark).
_coverage = lru_cache(maxsize=16)(fonts.coverage)


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


def _breaks(words: list[str], widths: list[float], spaces: list[float], width: float):
    """Greedy line breaks: the (first, end) word ranges of lines no wider than ``width``;
    ``spaces[i]`` is the width of the space before word ``i``."""
    lines: list[tuple[int, int]] = []
    first, current = 0, -1.0
    for index, word_width in enumerate(widths):
        if word_width > width + 1e-6:
            shown = words[index].replace(OBJECT, "[icon]")
            raise FitError(f"the word '{shown}' is too long to fit on a line")
        if current < 0:
            current = word_width
        elif current + spaces[index] + word_width > width + 1e-6:
            lines.append((first, index))
            first, current = index, word_width
        else:
            current += spaces[index] + word_width
    lines.append((first, len(widths)))
    return lines


def wrap(text: str, width: float, weight: str, size: float, max_lines: int = 0) -> list[str]:
    """Greedy wrap of logical text into lines no wider than ``width``.

    Explicit newlines start a new line. A single word wider than the box raises
    FitError, as does exceeding ``max_lines``.
    """
    # The loop of _breaks written out, without its lists: every text without markup
    # comes this way, and it is a quarter quicker so.
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


@lru_cache(maxsize=16384)
def _marked_unit_width(word: str, styles: bytes, weight: str) -> float:
    """Width at 1 pt of a word with markup: its letters in their styles, its icons."""
    if OBJECT not in word and min(styles) == max(styles):
        return _unit_width(word, _style_of(weight, styles[0]))
    total = 0.0
    by_style: dict[str, list[str]] = {}
    # Shaped as one word (letters join across a change of style), then measured by style.
    for ch, _, index in visual_order(word, False):
        if ch == OBJECT:
            total += ICON_ADVANCE
        elif ch not in INVISIBLE:
            by_style.setdefault(_style_of(weight, styles[index]), []).append(ch)
    for style, chars in by_style.items():
        total += sum(fonts.width(t, font, 1.0) for t, font in runs_of("".join(chars), style))
    return total


def _measure_marked(paragraphs: tuple[Marked, ...], weight: str) -> list[tuple]:
    """Each paragraph of text with markup, its words, where they start, and the widths at
    1 pt of each word and of the space before it, each in its style (once for every size
    the text is tried at)."""
    measured = []
    for paragraph in paragraphs:
        text, styles = paragraph.text, paragraph.styles
        words = text.split(" ") if text else []
        starts, at = [], 0
        for word in words:
            starts.append(at)
            at += len(word) + 1
        widths = [
            _marked_unit_width(word, styles[s : s + len(word)], weight)
            for word, s in zip(words, starts, strict=True)
        ]
        spaces = [_unit_width(" ", _style_of(weight, styles[s - 1])) if s else 0.0 for s in starts]
        measured.append((paragraph, words, starts, widths, spaces))
    return measured


def _wrap_marked(measured: list[tuple], width: float, size: float, max_lines: int) -> list[Marked]:
    """:func:`wrap` for text with markup, measured by :func:`_measure_marked`."""
    lines: list[Marked] = []
    for paragraph, words, starts, widths, spaces in measured:
        widths = [w * size for w in widths]
        spaces = [w * size for w in spaces]
        for first, end in _breaks(words, widths, spaces, width):
            if end > first:
                lines.append(paragraph.slice(starts[first], starts[end - 1] + len(words[end - 1])))
            else:
                lines.append(paragraph.slice(0, 0))
        if max_lines and len(lines) > max_lines:
            raise FitError(f"needs more than {max_lines} line(s)")
    return lines


#: Bidi classes of right-to-left letters and the marks on them.
_RTL_CLASSES = ("R", "AL", "NSM")
#: Bidi classes of separators that belong to a number when between digits: + - # % , . : /
_NUMBER_PUNCTUATION = ("ES", "ET", "CS")


def _left_to_right(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("L", "EN", "AN")


def set_line(line: str | Marked, weight: str, size: float, rtl: bool) -> Line:
    """Shape, reorder and split one logical line into positioned runs (and icons).

    Runs change with the face and, in right-to-left lines, with the direction of the
    characters. There, spaces are left as gaps rather than drawn, and each run of
    numbers or Latin letters is marked for text extraction as a right-to-left span
    (see :class:`Run`), so that extraction rebuilds the line in reading order. A line
    with markup carries each character's style, which picks its face, and its icons,
    each placed where bidi reordering put its object replacement character.
    """
    # One pass over the glyphs, kept in one piece: the runs it makes depend on each other.
    marked = line if isinstance(line, Marked) else None
    logical = marked.text if marked is not None else line
    if not rtl and marked is None:
        latin = fonts.face("latin", weight)
        if latin.coverage.issuperset(map(ord, logical)) and not has_arabic(logical):
            # Plain left-to-right text one face can draw: one run, nothing to reorder.
            text = drawable(logical)
            run_width = fonts.width(text, latin.name, size)
            return Line(
                logical=logical, runs=(Run(text, latin.name, 0.0, run_width),), width=run_width
            )
    if not rtl and marked is not None and not has_arabic(logical):
        simple = _latin_line(marked, weight, size)
        if simple is not None:
            return simple
    glyphs = visual_order(logical, rtl)
    styles = marked.styles if marked is not None else None
    codes = icon_codes(marked)
    runs: list[Run] = []
    icons: list[InlineIcon] = []
    offset = 0.0
    pending: list[tuple[str, str]] = []
    key: tuple[str, bool] | None = None
    key_style = weight

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

    for index, (ch, actual, source) in enumerate(glyphs):
        style = weight if styles is None else _style_of(weight, styles[source])
        if ch == OBJECT:
            flush()
            icons.append(inline_icon(codes[source], offset, size))
            offset += icons[-1].width
            continue
        if rtl and ch == " ":
            flush()
            offset += fonts.width(" ", fonts.face("latin", style).name, size)
            continue
        font = runs_of(ch, style)[0][1]
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
            and style == key_style
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
        key, key_style = (font, ltr), style
        pending.append((ch, actual))
    flush()
    logical = copied(logical, tuple(codes.values()))
    return Line(logical=logical, runs=tuple(runs), width=offset, icons=tuple(icons))


def _latin_line(marked: Marked, weight: str, size: float) -> Line | None:
    """A left-to-right line with markup that the Latin faces can draw: a run for each
    stretch of one style, nothing to reorder (None if a face lacks a character)."""
    text = marked.text
    codes = iter(marked.icons)
    runs: list[Run] = []
    icons: list[InlineIcon] = []
    offset = 0.0
    joins = False  # whether the next piece may join the last run (no icon between)
    for stretch in markup.STRETCH.finditer(marked.styles):
        start, stop = stretch.span()
        face = fonts.face("latin", _style_of(weight, marked.styles[start]))
        if not face.coverage.issuperset(map(ord, text[start:stop].replace(OBJECT, ""))):
            return None
        for index, piece in enumerate(text[start:stop].split(OBJECT)):
            if index:
                icons.append(inline_icon(next(codes), offset, size))
                offset += icons[-1].width
                joins = False
            if not piece:
                continue
            drawn = drawable(piece)
            if joins and runs[-1].font == face.name:
                # Styles that draw alike (bold markup in bold text) make one run.
                drawn = runs[-1].text + drawn
                offset = runs.pop().offset
            run_width = fonts.width(drawn, face.name, size)
            runs.append(Run(drawn, face.name, offset, run_width))
            offset += run_width
            joins = True
    return Line(copied(text, marked.icons), tuple(runs), offset, tuple(icons))


def prepare(text: str, locale: str) -> str:
    """Logical text ready for setting: normalised (per line) and with the locale's digits."""
    return "\n".join(normalise(part) for part in localise_digits(text, locale).split("\n"))


def _check_marked(paragraphs: tuple[Marked, ...], weight: str) -> None:
    """:func:`check_glyphs` for text with markup, each character in its style."""
    for paragraph in paragraphs:
        text = paragraph.text.replace(OBJECT, "")
        styles = {_style_of(weight, bits) for bits in set(paragraph.styles)}
        if all(fonts.face("latin", style).coverage.issuperset(map(ord, text)) for style in styles):
            continue  # the usual case, checked at once
        for ch, bits in zip(paragraph.text, paragraph.styles, strict=True):
            if ch != OBJECT and ch not in INVISIBLE and not ch.isspace():
                if _font_for(ch, _style_of(weight, bits)) is None:
                    raise FitError(f"no font can draw the character {ch!r} (U+{ord(ch):04X})")


def metrics(weight: str, size: float, rtl: bool) -> tuple[float, float]:
    """Ascent and descent to reserve for a line of the locale's main script."""
    latin = fonts.ascent_descent(fonts.face("latin", weight).name, size)
    if not rtl:
        return latin
    arabic = fonts.ascent_descent(fonts.face("arabic", weight).name, size)
    return max(latin[0], arabic[0]), min(latin[1], arabic[1])


def _wrapper(text: str, width: float, style: TextStyle, locale: str):
    """The text's lines at a size, as a function of the size (markup parsed once)."""
    if not has_markup(text):
        logical = prepare(text, locale)
        check_glyphs(logical, style.weight)
        return lambda size: wrap(logical, width, style.weight, size, style.max_lines)
    try:
        marked = markup.parse(text)
    except MarkupError as exc:
        raise FitError(str(exc), exc.position) from None
    paragraphs = markup.paragraphs(marked, locale)
    _check_marked(paragraphs, style.weight)
    measured = _measure_marked(paragraphs, style.weight)
    return lambda size: _wrap_marked(measured, width, size, style.max_lines)


@lru_cache(maxsize=16384)
def fit(text: str, width: float, height: float, style: TextStyle, locale: str) -> FittedText:
    """Set text in a box, shrinking from the preferred size to the minimum as needed.

    The text may hold inline markup (:mod:`deckforge.text.markup`); malformed markup
    raises FitError. The same text in the same box is set once (a deck's label on
    every card)."""
    rtl = is_rtl_locale(locale)
    lines_at = _wrapper(text, width, style, locale)
    size = style.size
    last_error = "does not fit"
    while size >= style.min_size - 1e-6:
        try:
            lines = lines_at(size)
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
