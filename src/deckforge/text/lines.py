"""One line of text as the runs of glyphs a renderer draws, in visual order.

How a line is split into runs decides how PDF viewers read it back (their text
extraction, search and copying), so this module is written against what the three
engines that matter do (PDFium in Chrome and Edge, pdf.js in Firefox, poppler in
Evince and Okular; ``tests/viewers`` measures them):

* A line that holds Arabic-script text is drawn in one face (:mod:`.lineface`), its
  glyphs in visual order with real space glyphs and each ZWNJ as an empty glyph in
  place. pdf.js cuts a line wherever the font changes and would join the pieces in
  drawing order; in one face the line is one piece, which it reorders whole.
* A bracket that right-to-left text mirrors is drawn through an alias that reads as
  the bracket typed, not the one it looks like (pdf.js and poppler do not mirror).
* poppler puts a number (or a Latin word) in a right-to-left line back together with
  the spaces on its left, which belong after it, gluing it to the next word. A
  right-to-left mark, an empty glyph in a text object of its own just left of such a
  run, stops that. PDFium drops text objects that have no extent and pdf.js skips such
  marks, so only poppler reads it. Punctuation between two words (``،`` ``.`` ``:``
  before a space) has no mark: poppler's search looks for the query's characters as
  they are drawn, and a mark there kept it from finding any phrase typed with one;
  without it, poppler's copy puts the punctuation on the far side of the space
  ("این ،هر" for "این، هر"), which keeps every word whole.
* Nothing inside a line is marked content (pdf.js cuts a line at every marked-content
  boundary): no /ActualText, but for an inline icon's emoji.

Each piece of a line (a stretch of one face and direction) starts where it started when
lines were drawn one face at a time, so every glyph lands on the same point as then.
Text in a face that has no line face (italic, a project's own font file) is drawn in
that face, a piece at a time.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from deckforge.text import fonts, lineface, markup, shaping
from deckforge.text.inline import InlineIcon, copied, icon_codes, inline_icon
from deckforge.text.markup import OBJECT, Marked
from deckforge.text.script import RLM, ZWNJ, drawable, has_any_arabic, has_arabic, visual_order


@dataclass(frozen=True, slots=True)
class Run:
    """Glyphs drawn as one text object in one face; ``offset`` from the line's left edge.

    ``scale`` stretches the run across (a column mark, an icon's stand-in); ``span``,
    when set, is the text the run reads as (an inline icon's emoji); ``spacing`` is added
    after each of its glyphs (letter spacing, :mod:`deckforge.text.spacing`)."""

    text: str
    font: str
    offset: float
    width: float
    span: str = ""
    scale: float = 1.0
    spacing: float = 0.0
    #: A markup span's own size in points (0: the line's) and colour (#RRGGBB, or "").
    size: float = 0.0
    colour: str = ""


@dataclass(frozen=True, slots=True)
class Line:
    """One line: its logical text (for search and copy), its visual runs and icons.

    ``logical`` is what copying the line gives back: the markup taken out, each inline
    icon read as its emoji."""

    logical: str
    runs: tuple[Run, ...]
    width: float
    icons: tuple[InlineIcon, ...] = ()


#: Characters poppler counts as part of a number, beside the digits.
_NUMBER_PUNCTUATION = frozenset(".,:+-#%$\u060c\u066b\u066c\u00a0")
#: How far left of a run its right-to-left mark sits, in points: apart from the run, so
#: that poppler sorts it first, and far closer than any space.
_MARK_GAP = 0.01
#: Characters that stay in the face of the run before them.
_NEUTRAL = frozenset(".,:;!?-–—()[]«»،؛؟'\"/")
#: Bidi classes of separators that belong to a number when between digits: + - # % , . : /
_SEPARATORS = ("ES", "ET", "CS")


def _poppler_class(ch: str) -> str:
    """'R', 'L', '#' (number) or 'N' (neutral), as poppler classifies a character when
    it puts a right-to-left line back into reading order."""
    if ch.isdigit() or ch in _NUMBER_PUNCTUATION:
        return "#"
    kind = unicodedata.bidirectional(ch)
    if kind in ("R", "AL"):
        return "R"
    if kind == "L" and unicodedata.category(ch) != "Cf":
        return "L"
    return "N"


def _mark_before(glyphs, index: int) -> bool:
    """Whether poppler needs a right-to-left mark just left of glyph ``index``: it starts
    a left-to-right run (a number, a Latin word) or is number punctuation read right to
    left that is not between two words, and the glyph left of it, if any, is not a
    right-to-left letter."""
    glyph = glyphs[index]
    kind = _poppler_class(glyph.char)
    ltr = glyph.level % 2 == 0
    if not (ltr or kind in "L#"):
        return False
    if not ltr and kind == "#" and _between_words(glyphs, index):
        return False
    if index == 0:
        return True  # another text may stand left of this one on the same line
    left = glyphs[index - 1]
    if _poppler_class(left.char) == "R":
        return False
    # Inside a left-to-right run (between two of its words) poppler keeps the order.
    return not (ltr and left.level == glyph.level)


def _between_words(glyphs, index: int) -> bool:
    """Whether punctuation read right to left at ``index`` stands between two words:
    right-to-left letters beyond the neutral characters (spaces, brackets) on either side
    of it, and at least a space on its left (where the word after it is drawn)."""
    left = index - 1
    while left >= 0 and _poppler_class(glyphs[left].char) == "N":
        left -= 1
    right = index + 1
    while right < len(glyphs) and _poppler_class(glyphs[right].char) == "N":
        right += 1
    return (
        0 <= left < index - 1
        and right < len(glyphs)
        and _poppler_class(glyphs[left].char) == _poppler_class(glyphs[right].char) == "R"
    )


@lru_cache(maxsize=4096)
def face_for(ch: str, style: str) -> str | None:
    """The face that draws a character in a style: the Arabic face for Arabic script,
    the Latin face first for the rest; an italic face lacking it gives way to the upright
    face of its weight, and a symbol neither has (♠) to the symbol face of its weight."""
    families = ("arabic", "latin") if lineface.is_arabic_script(ord(ch)) else ("latin", "arabic")
    for each in dict.fromkeys((style, fonts.upright(style))):
        for family in families:
            face = fonts.face(family, each)
            if ord(ch) in face.coverage:
                return face.name
    symbols = fonts.symbol_face(style)
    if symbols is not None and ord(ch) in symbols.coverage:
        return symbols.name
    return None


@lru_cache(maxsize=64)
def style_of(weight: str, bits: int) -> str:
    """The face style of a character with markup ``bits`` in text set in ``weight``."""
    return fonts.styled(weight, bool(bits & markup.BOLD), bool(bits & markup.ITALIC))


def style_in(weights: tuple[str, ...], bits: int) -> str:
    """:func:`style_of` in the weight key of the character's span (``weights`` by span
    number, as :func:`deckforge.text.markup.faces_of` gives them)."""
    return style_of(weights[bits >> 2], bits)


@cache
def _line_face_of(face_name: str) -> tuple[str, str, str] | None:
    """(line face, family, weight) for a shipped upright face, which the line face draws
    as."""
    for weight in (fonts.REGULAR, fonts.BOLD):
        for family in ("latin", "arabic"):
            if fonts.face(family, weight).name == face_name:
                return lineface.face(weight).name, family, weight
    return None


def _pieces(
    glyphs, styles, weight: str, rtl: bool, weights: tuple[str, ...] = ()
) -> list[tuple[str, str, list[int]]]:
    """The glyphs in the pieces they were placed in when a line was drawn one face at a
    time: (kind, face name, glyph indices), kind "text", "space" or "icon".

    A piece changes with the face and, in right-to-left text, with direction; a space
    ends one in right-to-left text; punctuation stays with the piece before it."""
    pieces: list[tuple[str, str, list[int]]] = []
    key: tuple[str, bool, int] | None = None
    key_style = weight
    for index, glyph in enumerate(glyphs):
        ch = glyph.char
        if styles is None:
            style = weight
        else:
            bits = styles[glyph.index]
            style = style_of(weights[bits >> 2] if weights else weight, bits)
        number = 0 if styles is None else styles[glyph.index] >> 2
        if ch == OBJECT:
            pieces.append(("icon", "", [index]))
            key = None
            continue
        if rtl and ch == " ":
            pieces.append(("space", fonts.face("latin", style).name, [index]))
            key = None
            continue
        font = face_for(ch, style)
        if font is None:  # fit checks every character first
            raise ValueError(f"no font can draw the character {ch!r} (U+{ord(ch):04X})")
        kind = unicodedata.bidirectional(ch)
        ltr = rtl and kind in ("L", "EN", "AN")
        if rtl and kind in _SEPARATORS:
            # A separator between digits belongs to the number (۱٬۰۰۰, ۲/۳).
            nearby = [glyphs[k].char for k in (index - 1, index + 1) if 0 <= k < len(glyphs)]
            ltr = len(nearby) == 2 and all(
                unicodedata.bidirectional(n) in ("EN", "AN") for n in nearby
            )
        if (
            key is not None
            and not (rtl and (ltr or key[1]))
            and (ch.isspace() or ch in _NEUTRAL)
            and style == key_style
            and number == key[2]
            and ord(ch) in fonts.coverage(key[0])
        ):
            pieces[-1][2].append(index)  # punctuation stays with its neighbour
            continue
        if key != (font, ltr, number):
            pieces.append(("text", font, []))
        key, key_style = (font, ltr, number), style
        pieces[-1][2].append(index)
    return pieces


def set_line(line: str | Marked, weight: str, size: float, rtl: bool) -> Line:
    """Shape, reorder and split one logical line into positioned runs (and icons)."""
    # One pass over the glyphs: faces, spans, marks and icons share its offset.
    marked = line if isinstance(line, Marked) else None
    logical = line.text if isinstance(line, Marked) else line
    if not rtl and not has_arabic(logical):
        simple = _latin_line(logical, weight, size) if marked is None else None
        simple = simple or (_marked_latin_line(marked, weight, size) if marked else None)
        if simple is not None:
            return simple
    glyphs = visual_order(logical, rtl)
    styles = marked.styles if marked is not None else None
    codes = icon_codes(marked)
    marker = lineface.face(_shipped(weight)).name
    # Left-to-right text without Arabic script keeps its own faces.
    one_face = rtl or has_arabic(logical)
    runs: list[Run] = []
    icons: list[InlineIcon] = []
    marks: list[Run] = []
    chars: list[str] = []
    face, start, offset = "", 0.0, 0.0
    wider = 0.0  # what variant glyphs add to the piece's width (see shaping)
    whole = size
    spans = (None, *marked.spans) if marked is not None else (None,)
    span = None  # the markup span of the run being gathered

    def close() -> None:
        # The run's marks for poppler go before it: each is a text object of its own.
        runs.extend(marks)
        marks.clear()
        if chars:
            text = "".join(chars)
            width = fonts.width(text, face, size)
            if span is None:
                runs.append(Run(text, face, start, width))
            else:
                runs.append(Run(text, face, start, width, size=size, colour=span.colour))
            chars.clear()

    weights = markup.faces_of(marked, weight) if marked is not None else ()
    for kind, drawn_in, indices in _pieces(glyphs, styles, weight, rtl, weights):
        piece_span = spans[styles[glyphs[indices[0]].index] >> 2] if styles else None
        if piece_span is not span:
            close()
            face, span = "", piece_span  # a new run starts where the span changes
            size = whole * (span.scale if span is not None else 1.0)
        if kind == "icon":
            close()
            icons.append(inline_icon(codes[glyphs[indices[0]].index], offset, size))
            offset += icons[-1].width
            face = ""
            continue
        if kind == "space":
            if not face:  # a line (or what follows an icon) that starts with a space
                face, start = (_line_face_of(drawn_in) or (drawn_in,))[0], offset
            chars.append(" ")  # drawn at the end of the piece before it
            offset += fonts.width(" ", drawn_in, size)
            continue
        own = _line_face_of(drawn_in) if one_face else None
        piece_face = own[0] if own else drawn_in
        if glyphs[indices[0]].char != ZWNJ or not chars or piece_face != face:
            # Each piece starts where it did; a ZWNJ (of no width) stays in its
            # neighbour's text object: PDFium would drop it were it alone.
            close()
            face, start = piece_face, offset
        within = 0.0
        for index in indices:
            glyph = glyphs[index]
            if own and _after_space(glyphs, index, runs, piece_face):
                last = runs[-1]
                runs[-1] = replace(last, text=last.text[:-1] + lineface.SPACED_MARKS[glyph.char])
                continue
            if rtl and _mark_before(glyphs, index):
                marks.append(Run(RLM, marker, offset + within - _MARK_GAP, 0.0))
            variant = _variant(own, logical, glyph)
            if variant and own:  # a glyph of the line face, as wide as HarfBuzz's for the letter
                grown = fonts.width(variant, own[0], size) - fonts.width(glyph.char, drawn_in, size)
                chars.append(variant)
                wider, within = wider + grown, within + grown
            elif own:
                mirrored = lineface.MIRROR.get(glyph.source) == glyph.char
                reads = glyph.source if mirrored else ""
                chars.append(lineface.drawn_as(glyph.char, own[1], reads))
            else:
                chars.append(glyph.char)
            within += fonts.width(glyph.char, drawn_in, size)
        offset += fonts.width("".join(glyphs[i].char for i in indices), drawn_in, size)
        offset, wider = offset + wider, 0.0
    close()
    logical = copied(logical, tuple(codes.values()))
    return Line(logical=logical, runs=tuple(runs), width=offset, icons=tuple(icons))


def _variant(own: tuple[str, str, str] | None, logical: str, glyph) -> str:
    """The line face's character for a letter the font's own shaping draws otherwise
    than its presentation form (:mod:`deckforge.text.shaping`), or ""."""
    if own is None or own[1] != "arabic" or glyph.source:
        return ""
    return shaping.variants(logical, own[2]).get(glyph.index, "")


@lru_cache(maxsize=65536)
def shaped_growth(word: str, weight: str) -> float:
    """How much wider, at 1 pt, a word of Arabic script is drawn with the variant glyphs
    the font's own shaping chooses (see :func:`set_line`) than with its presentation
    forms: what wrapping adds to its measure."""
    arabic = fonts.face("arabic", weight).name
    own = _line_face_of(arabic)
    found = shaping.variants(word, own[2]) if own else {}
    grown = 0.0
    for glyph in visual_order(word, True) if found else ():
        alias = "" if glyph.source else found.get(glyph.index, "")
        if alias and own:
            grown += fonts.width(alias, own[0], 1.0) - fonts.width(glyph.char, arabic, 1.0)
    return grown


def _after_space(glyphs, index: int, runs: list[Run], face: str) -> bool:
    """Whether glyph ``index`` is a word's one last mark, drawn right after the space
    that ends the last run (in ``face``): the two are drawn as one glyph of the line face
    (see :data:`deckforge.text.lineface.SPACED_MARKS`)."""
    alias = lineface.SPACED_MARKS.get(glyphs[index].char)
    if alias is None or index == 0 or glyphs[index - 1].char != " ":
        return False
    if index + 1 < len(glyphs) and glyphs[index + 1].char in lineface.SPACED_MARKS:
        return False  # marks stacked on one letter stay as they are
    return bool(runs) and runs[-1].font == face and runs[-1].text.endswith(" ")


def latin_drawn(text: str, weight: str) -> str | None:
    """What the Latin face of ``weight`` draws of ``text`` if it draws it whole, as it is
    (its characters that draw nothing taken out); else None. Text with anything of the
    Arabic script (shaped, reordered, or drawn from the Arabic face first) is not drawn
    so. Such text is one run of that face wherever it is measured or set."""
    if text.isascii():
        drawn = text  # the usual text: no Arabic, nothing that draws nothing
    elif has_any_arabic(text):
        return None
    else:
        drawn = drawable(text)
    return drawn if fonts.face("latin", weight).coverage.issuperset(map(ord, drawn)) else None


def _latin_line(logical: str, weight: str, size: float) -> Line | None:
    """Plain left-to-right text one face can draw (:func:`latin_line`); else None."""
    return None if latin_drawn(logical, weight) is None else latin_line(logical, weight, size)


@lru_cache(maxsize=4096)
def latin_line(logical: str, weight: str, size: float) -> Line:
    """A line the Latin face of ``weight`` draws whole (:func:`latin_drawn`): one run,
    nothing to reorder. Lines repeat from text to text (the first line of every "Place
    number …" of a deck): each is set once at a size."""
    text = drawable(logical)
    face = fonts.face("latin", weight).name
    width = fonts.width(text, face, size)
    return Line(logical=logical, runs=(Run(text, face, 0.0, width),), width=width)


def _marked_latin_line(marked: Marked, weight: str, size: float) -> Line | None:
    """A left-to-right line with markup that the Latin faces can draw: a run for each
    stretch of one style, nothing to reorder (None if a face lacks a character)."""
    text = marked.text
    codes = iter(marked.icons)
    runs: list[Run] = []
    icons: list[InlineIcon] = []
    offset = 0.0
    joins = False  # whether the next piece may join the last run (no icon between)
    whole = size
    for stretch in markup.STRETCH.finditer(marked.styles):
        first, stop = stretch.span()
        span = markup.span_of(marked, marked.styles[first])
        face = fonts.face(
            "latin", style_of(span.font or weight if span else weight, marked.styles[first])
        )
        size = whole * (span.scale if span is not None else 1.0)
        if not face.coverage.issuperset(map(ord, text[first:stop].replace(OBJECT, ""))):
            return None
        for index, piece in enumerate(text[first:stop].split(OBJECT)):
            if index:
                icons.append(inline_icon(next(codes), offset, size))
                offset += icons[-1].width
                joins = False
            if not piece:
                continue
            drawn = drawable(piece)
            own = (size if span else 0.0, span.colour if span else "")
            if joins and runs[-1].font == face.name and (runs[-1].size, runs[-1].colour) == own:
                # Styles that draw alike (bold markup in bold text) make one run.
                drawn = runs[-1].text + drawn
                offset = runs.pop().offset
            run_width = fonts.width(drawn, face.name, size)
            runs.append(Run(drawn, face.name, offset, run_width, size=own[0], colour=own[1]))
            offset += run_width
            joins = True
    return Line(copied(text, marked.icons), tuple(runs), offset, tuple(icons))


@cache
def _shipped(weight: str) -> str:
    """The shipped upright weight (regular or bold) a face style falls back to for its
    Arabic letters (a font file's fallback, an italic's upright)."""
    arabic = fonts.face("arabic", weight)
    for shipped in (fonts.REGULAR, fonts.BOLD):
        if fonts.face("arabic", shipped) == arabic:
            return shipped
    return fonts.REGULAR


def faces_of(weight: str) -> tuple[fonts.FontFace, ...]:
    """The faces lines of a weight may be drawn in."""
    shipped = _shipped(weight)
    return (
        fonts.face("latin", weight),
        fonts.face("arabic", weight),
        fonts.face("latin", shipped),
        fonts.face("arabic", shipped),
        lineface.face(shipped),
    )


def reaching_left(line: Line, weight: str, distance: float) -> Line:
    """The line with a right-to-left mark ``distance`` points left of its start.

    poppler puts words more than one and a half ems apart into separate blocks, and
    orders the blocks of right-to-left text poorly: a list's number, hanging right of
    its text, came out apart from it, items out of order. A mark halfway across the gap
    (read by poppler alone, as the other marks) keeps the two on one line."""
    mark = Run(RLM, lineface.face(_shipped(weight)).name, -distance, 0.0)
    return replace(line, runs=(mark, *line.runs))


def column_mark(width: float, weight: str, size: float) -> Line:
    """An empty line as wide as a column, read by poppler alone, as a right-to-left mark.

    poppler makes a block of lines only where their baselines are at most one and a
    half times its first word's size apart; Persian body text is set further apart
    (1.52), so each line was a block of its own, and poppler read the two columns of a
    page mixed. One mark per line, a fiftieth larger than the text and reaching across
    the column, is each block's first word: the column becomes one block again."""
    face = lineface.face(_shipped(weight)).name
    stretch = width / size  # the mark's glyph is an em wide
    mark = Run(lineface.SPACER, face, 0.0, width, scale=stretch)
    return Line(logical="", runs=(mark,), width=width)


def gutter_mark(rtl: bool) -> Line:
    """A mark of no width to stand in the gutter between two columns, set as tall as
    the columns: poppler alone reads it (a right-to-left mark in the face the text's
    other marks are in; in left-to-right text a zero width space, the Latin face's one
    empty format character).

    poppler widens each block sideways over the blocks below it up to the nearest block
    beside it, then reads a block first if it stands above another it overlaps. A folio
    centred under the gutter let every block of both columns widen into the gutter, and
    poppler read the two columns row by row: the part of a paragraph going on at the top
    of the next column came out before the column it follows. A mark beside every block
    of both columns stops that widening at the gutter."""
    if rtl:
        mark, face = RLM, lineface.face(fonts.REGULAR).name
    else:
        mark, face = "\u200b", fonts.face("latin", fonts.REGULAR).name
    return Line(logical="", runs=(Run(mark, face, 0.0, 0.0),), width=0.0)
