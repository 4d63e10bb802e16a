"""Measuring, wrapping and fitting text into boxes.

Text is wrapped in logical order by measured width, then each line is shaped,
reordered for display and split into the runs a renderer draws
(:func:`deckforge.text.lines.set_line`). Fitting tries sizes from the
preferred size down to the minimum and takes the first at which the text fits;
if none does, it raises :class:`FitError` rather than clipping.

Text may hold inline markup (:mod:`deckforge.text.markup`): each character then
carries its style (bold, italic) through wrapping, shaping and bidi reordering, and
each inline icon is an object replacement character, measured, wrapped and reordered
like a letter as wide as the icon. Text without markup takes the shorter way it
always took; plain text (left to right, drawn whole by the Latin face, as most text of a
Latin-script deck is) the shortest: each word's width asked of the face at once, each
line one run of it (``tests/test_text_paths.py`` shows that the general way sets it
alike).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from deckforge.art import icons
from deckforge.text import fonts, markup
from deckforge.text.inline import ICON_ADVANCE
from deckforge.text.lines import (
    Line,
    Run,
    face_for,
    faces_of,
    latin_drawn,
    latin_line,
    set_line,
    shaped_growth,
    style_in,
)
from deckforge.text.markup import OBJECT, Marked, MarkupError, has_markup
from deckforge.text.script import (
    INVISIBLE,
    drawable,
    has_arabic,
    is_rtl_locale,
    localise_digits,
    normalise,
    shape,
    visual_order,
)
from deckforge.units import LIMITS

__all__ = ["FitError", "FittedText", "Line", "Run", "TextStyle", "fit", "measure", "set_line"]


class FitError(ValueError):
    """Text that cannot be set: it does not fit, a character has no glyph, or its markup
    is malformed (then ``position`` is the character of the text where it is)."""

    def __init__(self, message: str, position: int | None = None, char: str | None = None):
        super().__init__(message)
        self.position = position
        #: The character no font draws, when that is what is wrong.
        self.char = char


@dataclass(frozen=True, slots=True)
class TextStyle:
    """How a text box sets its text."""

    size: float
    min_size: float
    weight: str = fonts.REGULAR
    leading: float = 1.2
    max_lines: int = 0
    align: str = "start"  # start, centre or end; start is right for right-to-left text
    #: When one line of right-to-left text is too tall for its box by its faces' ascent
    #: and descent, measure it as Latin text of the same size (stretched to any glyph
    #: reaching beyond that) before setting it smaller. Arabic faces reserve room for
    #: stacked marks that a short label seldom has, and the alef stands as tall as a
    #: Latin capital: measured by the Arabic face, Persian labels came out two points
    #: smaller than the same in English. (Text on more lines is set as before: a label
    #: better shrinks onto one line than breaks.)
    latin_height: bool = False
    #: What a span may name: fonts as (name, weight key), colours as (name, #RRGGBB).
    span_fonts: tuple[tuple[str, str], ...] = ()
    span_colours: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
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


def _neutral(ch: str) -> bool:
    return ch.isspace() or ch in ".,:;!?-–—()[]«»،؛؟'\"/"


def undrawable(ch: str) -> FitError:
    """The error of a character no font draws: where OpenMoji has its icon, the name
    that draws it; for a symbol the symbol face would draw, where it is not installed,
    what to install."""
    message = f"no font can draw the character {ch!r} (U+{ord(ch):04X})"
    name = icons.name_of(ch)
    if name is not None:
        message += f"; its icon is drawn by ':{name}:'"
    if fonts.is_symbol(ord(ch)) and fonts.symbol_face(fonts.REGULAR) is None:
        message += (
            f"; card suits and game symbols are drawn in DejaVu Sans, not installed here "
            f"(install Debian's {fonts.SYMBOL_PACKAGE})"
        )
    return FitError(message, char=ch)


def runs_of(visual: str, weight: str) -> list[tuple[str, str]]:
    """Split visual text into (text, face name) runs; neutral characters join a neighbour."""
    runs: list[list[str]] = []
    for ch in visual:
        font = face_for(ch, weight)
        if font is None:
            raise undrawable(ch)
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
    drawn = latin_drawn(word, weight)
    if drawn is not None:  # the usual word: one run of the Latin face (runs_of's answer)
        return fonts.width(drawn, fonts.face("latin", weight).name, 1.0)
    visual = drawable(shape(word))
    width = sum(fonts.width(text, font, 1.0) for text, font in runs_of(visual, weight))
    return width + shaped_growth(word, weight) if has_arabic(word) else width


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
            if face_for(ch, weight) is None:
                raise undrawable(ch)


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
    # comes this way, so it is kept lean.
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
def _marked_unit_width(word: str, styles: bytes, weights: tuple, scales: tuple = (1.0,)) -> float:
    """Width at 1 pt of a word with markup: its letters in their styles (and spans'
    sizes, ``scales`` by span number, and fonts, ``weights`` by span number), its icons."""
    if OBJECT not in word and min(styles) == max(styles):
        return _unit_width(word, style_in(weights, styles[0])) * scales[styles[0] >> 2]
    total = 0.0
    by_style: dict[tuple[str, float], list[str]] = {}
    # Shaped as one word (letters join across a change of style), then measured by style.
    for glyph in visual_order(word, False):
        ch, index = glyph.char, glyph.index
        if ch == OBJECT:
            total += ICON_ADVANCE * scales[styles[index] >> 2]
        elif ch not in INVISIBLE:
            key = (style_in(weights, styles[index]), scales[styles[index] >> 2])
            by_style.setdefault(key, []).append(ch)
    for (style, scale), chars in by_style.items():
        found = runs_of("".join(chars), style)
        total += scale * sum(fonts.width(t, font, 1.0) for t, font in found)
    return total


def _measure_marked(paragraphs: tuple[Marked, ...], weight: str) -> list[tuple]:
    """Each paragraph of text with markup, its words, where they start, and the widths at
    1 pt of each word and of the space before it, each in its style (once for every size
    the text is tried at)."""
    measured = []
    for paragraph in paragraphs:
        text, styles = paragraph.text, paragraph.styles
        scales = markup.scales_of(paragraph)
        weights = markup.faces_of(paragraph, weight)
        words = text.split(" ") if text else []
        starts, at = [], 0
        for word in words:
            starts.append(at)
            at += len(word) + 1
        widths = [
            _marked_unit_width(word, styles[s : s + len(word)], weights, scales)
            for word, s in zip(words, starts, strict=True)
        ]
        spaces = [
            _unit_width(" ", style_in(weights, styles[s - 1])) * scales[styles[s - 1] >> 2]
            if s
            else 0.0
            for s in starts
        ]
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


def prepare(text: str, locale: str) -> str:
    """Logical text ready for setting: normalised (per line) and with the locale's digits."""
    logical = localise_digits(text, locale)
    if logical.isascii():  # nothing to compose, no look-alike letters: spaces tidied only
        return "\n".join(" ".join(part.split()) for part in logical.split("\n"))
    return "\n".join(normalise(part) for part in logical.split("\n"))


def _check_marked(paragraphs: tuple[Marked, ...], weight: str) -> None:
    """:func:`check_glyphs` for text with markup, each character in its style."""
    for paragraph in paragraphs:
        text = paragraph.text.replace(OBJECT, "")
        weights = markup.faces_of(paragraph, weight)
        styles = {style_in(weights, bits) for bits in set(paragraph.styles)}
        if all(fonts.face("latin", style).coverage.issuperset(map(ord, text)) for style in styles):
            continue  # the usual case, checked at once
        for ch, bits in zip(paragraph.text, paragraph.styles, strict=True):
            if ch != OBJECT and ch not in INVISIBLE and not ch.isspace():
                if face_for(ch, style_in(weights, bits)) is None:
                    raise undrawable(ch)


@lru_cache(maxsize=1024)
def metrics(weight: str, size: float, rtl: bool) -> tuple[float, float]:
    """Ascent and descent to reserve for a line of the locale's main script."""
    latin = fonts.ascent_descent(fonts.face("latin", weight).name, size)
    if not rtl:
        return latin
    arabic = fonts.ascent_descent(fonts.face("arabic", weight).name, size)
    return max(latin[0], arabic[0]), min(latin[1], arabic[1])


def _wrapper(text: str, width: float, style: TextStyle, locale: str):
    """The text's lines at a size, as a function of the size (markup parsed once), and
    whether it is plain: left to right, without markup, drawn whole by the Latin face
    (:func:`deckforge.text.lines.latin_drawn`), as most text of a Latin-script deck is."""
    if not has_markup(text):
        logical = prepare(text, locale)
        # Text the Latin face draws whole has its glyphs: check_glyphs would pass.
        plain = not is_rtl_locale(locale) and latin_drawn(logical, style.weight) is not None
        if not plain:
            check_glyphs(logical, style.weight)
        return lambda size: wrap(logical, width, style.weight, size, style.max_lines), plain
    try:
        marked = markup.parse(text)
        if marked.spans:  # a span's size as a share of the text's: it shrinks with it
            marked = markup.fitted(marked, style.size, style.span_fonts, style.span_colours)
    except MarkupError as exc:
        raise FitError(str(exc), exc.position) from None
    paragraphs = markup.paragraphs(marked, locale)
    _check_marked(paragraphs, style.weight)
    measured = _measure_marked(paragraphs, style.weight)
    return lambda size: _wrap_marked(measured, width, size, style.max_lines), False


class _Heights:
    """The lowest and highest point of each character's glyph in a font, in font units,
    read from the font when first asked for: a build uses a few hundred of its glyphs."""

    def __init__(self, path: str) -> None:
        from fontTools.ttLib import TTFont as FTFont

        font = FTFont(path, lazy=True)
        self.glyf = font["glyf"]
        self.cmap = font.getBestCmap()
        self.known: dict[int, tuple[int, int]] = {}

    def get(self, code: int) -> tuple[int, int]:
        """(lowest, highest) of the character's glyph; (0, 0) for none or a blank one."""
        found = self.known.get(code)
        if found is None:
            name = self.cmap.get(code)
            glyph = self.glyf[name] if name is not None else None
            found = (glyph.yMin, glyph.yMax) if glyph and glyph.numberOfContours else (0, 0)
            self.known[code] = found
        return found


@lru_cache(maxsize=8)
def _glyph_heights(path: str) -> _Heights:
    return _Heights(path)


def ink_extent(lines: tuple[Line, ...], weight: str, size: float) -> tuple[float, float]:
    """The highest point the first line's glyphs reach and the lowest the last line's do,
    in points from the baseline (the descent negative)."""
    paths = {face.name: face.path for face in faces_of(weight)}
    top, bottom = 0.0, 0.0
    for index, line in ((0, lines[0]), (-1, lines[-1])):
        for run in line.runs:
            if run.font not in paths:
                continue
            heights = _glyph_heights(str(paths[run.font]))
            for ch in run.text:
                low, high = heights.get(ord(ch))
                if index == 0:
                    top = max(top, high * size / 1000.0)
                if index == -1 or len(lines) == 1:
                    bottom = min(bottom, low * size / 1000.0)
    return top, bottom


def _placed(
    lines: list, height: float, style: TextStyle, size: float, rtl: bool, plain: bool = False
) -> FittedText | None:
    """The lines set at ``size`` when they fit ``height``; else None. A one-line
    right-to-left text measured as Latin text (``latin_height``) counts the ink its
    glyphs really reach. Each line of plain text (see :func:`_wrapper`) is one run."""
    ascent, descent = metrics(style.weight, size, rtl)
    line_height = size * style.leading * (1.15 if rtl else 1.0)
    grow = markup.grown(lines) if not plain else 1.0
    if grow != 1.0:  # room for the largest span on every line
        ascent, descent, line_height = ascent * grow, descent * grow, line_height * grow
    if ascent - descent + (len(lines) - 1) * line_height <= height + 1e-6:
        if plain:
            set_lines = tuple([latin_line(line, style.weight, size) for line in lines])
        else:
            set_lines = tuple([set_line(line, style.weight, size, rtl) for line in lines])
        return FittedText(set_lines, size, line_height, ascent, descent, rtl, style.align)
    if style.latin_height and rtl and len(lines) == 1:
        set_lines = tuple(set_line(line, style.weight, size, rtl) for line in lines)
        top, bottom = ink_extent(set_lines, style.weight, size)
        ascent, descent = metrics(style.weight, size, False)
        ascent, descent = max(ascent * grow, top), min(descent * grow, bottom)
        if ascent - descent <= height + 1e-6:
            return FittedText(set_lines, size, line_height, ascent, descent, rtl, style.align)
    return None


#: Sizes tried one after another from the preferred size down, before the rest (every
#: half point down to the minimum) are searched by halves: most text fits at once or
#: within a few points, and no text takes more than a few dozen tries whatever its sizes.
_TRIED_IN_TURN = 8
#: The largest size text is set at: a PDF page's largest side.
_LARGEST = LIMITS["length"][1]
#: The most sizes listed to be searched; beyond it each is worked out from its number.
_LISTED = 2048


def _sizes(size: float, least: float) -> tuple[int, Callable[[int], float]]:
    """The sizes text is tried at after the first :data:`_TRIED_IN_TURN`: each half a
    point under the one before (rounded to hundredths), down to ``least``; as how many
    there are and the size of each number (listed when they are few; else each worked
    out from its number, never all at once)."""
    if (size - least) / 0.5 < _LISTED:
        listed = []
        while size >= least - 1e-6:
            listed.append(size)
            size = round(size - 0.5, 2)
        return len(listed), listed.__getitem__
    count = int((size - least) / 0.5 + 1e-9) + 1
    return count, lambda index: round(size - 0.5 * index, 2)


@lru_cache(maxsize=16384)
def fit(text: str, width: float, height: float, style: TextStyle, locale: str) -> FittedText:
    """Set text in a box at the largest size that fits: from the preferred size down by
    half points to the minimum.

    The text may hold inline markup (:mod:`deckforge.text.markup`); malformed markup
    raises FitError. The same text in the same box is set once (a deck's label on
    every card). Text that fits at a size fits at every smaller one (its lines break
    no later and are lower), so after a few sizes tried in turn the rest are searched by
    halves."""
    if not (0 < style.min_size and style.size <= _LARGEST):
        raise FitError(f"cannot set text at {style.size:g} pt (smallest {style.min_size:g} pt)")
    rtl = is_rtl_locale(locale)
    lines_at, plain = _wrapper(text, width, style, locale)
    last_error = "does not fit"

    def attempt(size: float) -> FittedText | None:
        nonlocal last_error
        try:
            lines = lines_at(size)
        except FitError as exc:
            last_error = str(exc)
            return None
        fitted = _placed(lines, height, style, size, rtl, plain)
        if fitted is None:
            last_error = f"needs {len(lines)} lines, too tall for its box"
        return fitted

    size = style.size
    for _ in range(_TRIED_IN_TURN):
        if size < style.min_size - 1e-6:
            break
        fitted = attempt(size)
        if fitted is not None:
            return fitted
        size = round(size - 0.5, 2)
    else:
        count, rest = _sizes(size, style.min_size)
        best = attempt(rest(count - 1)) if count else None
        if best is not None:
            too_large, fits = -1, count - 1
            while fits - too_large > 1:
                middle = (too_large + fits) // 2
                found = attempt(rest(middle))
                if found is None:
                    too_large = middle
                else:
                    fits, best = middle, found
            return best
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise FitError(f"cannot fit '{shown}' at the minimum size {style.min_size:g} pt: {last_error}")
