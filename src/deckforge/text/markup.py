r"""Inline markup in running text: bold, italic, line breaks and icons.

The syntax is Markdown's emphasis, which reads the same in a YAML value and in a
spreadsheet cell, plus two icon tokens:

==================  ==============================================================
``**bold**``        bold
``*italic*``        italic (Latin letters only: see below); ``***both***``
``:sword:``         an OpenMoji icon by a short name (:data:`~deckforge.art.icons.GAME_ICONS`)
                    or by the Unicode name of a one-character emoji (``:crossed_swords:``)
``{icon:1F5E1}``    an OpenMoji icon by its hexcode (or the emoji itself)
a newline, ``\n``   a line break (``\n`` is the form to type in a CSV or XLSX cell)
``\*`` ``\:``       a literal ``*``, ``:``; also ``\{``, ``\[`` and ``\\``
``[size=14pt]…[/]`` a span: ``size`` (pt), ``colour`` (``#RRGGBB`` or a colour's
                    name), ``weight`` (``bold``, ``regular``), ``style``
                    (``italic``, ``upright``) and ``font`` (a font the template's
                    styles use), any of them, in one span:
                    ``[size=14pt colour=#C8102E font="Noto Serif"]word[/]``; a
                    value with spaces is quoted; spans nest, and ``[/]`` closes
                    the last one opened
==================  ==============================================================

A span's size is kept as a share of the text's own size: when text is shrunk to fit,
its spans shrink with it. A ``[`` that starts no span (``[Hearts]``) is just a bracket.

As in Markdown, an asterisk with a space on both sides (``5 * 3``) is just an asterisk;
one that must open or close emphasis and cannot is an error, as is emphasis left open or
an icon name nobody knows. In YAML, a value that starts with ``*`` must be quoted (a
bare ``*`` there starts an alias).

Persian has no italic: the Arabic script's letters are joined along the baseline and
are not slanted in Persian typesetting, and Noto Sans Arabic has no italic face, so
italic markup leaves Arabic-script letters upright (the Latin words in it still slant).
A synthetic slant (a skewed text matrix) was rejected: it leans the letters the wrong
way for the script and looks like a rendering fault to Persian readers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from deckforge.art import icons
from deckforge.errors import close_matches
from deckforge.text.script import localise_digits, normalise_letters

#: Bits of a character's style.
BOLD = 1
ITALIC = 2
#: What an inline icon is in the text while it is shaped, reordered and wrapped: the
#: object replacement character, a neutral in the bidi algorithm that takes the
#: direction of the text around it and joins to no letter.
OBJECT = "\ufffc"

#: The keys a span sets, as ``[key=value ...]``.
SPAN_KEYS = ("size", "colour", "weight", "style", "font")
#: A span's opening; what sets it is checked when it is read.
_SPAN = re.compile(r"\[((?:size|colou?r|weight|style|font)=[^\]\[]*)\]")
#: One setting of a span: a key and its value, which is quoted if it holds spaces.
_SETTING = re.compile(r'\s*([^\s=]*)=("[^"]*"|[^\s"]*)(?=\s|$)')
#: Most spans a text may open (its characters' style bits hold the span's number).
MAX_SPANS = 63
#: A quick test for text that may hold markup (most text holds none).
_MAYBE = re.compile(
    r"[*\\\ufffc]|\{icon:|:[A-Za-z][A-Za-z0-9_+-]*:|\[(?:size|colou?r|weight|style|font)=|\[/\]"
)
_WHITESPACE = re.compile(r"\s+")
#: A stretch of characters of one style, in a Marked's styles.
STRETCH = re.compile(rb"(.)\1*", re.DOTALL)
#: Characters that cannot start markup.
_PLAIN = re.compile(r"[^*\\:{\[\ufffc]*")
_NAME = re.compile(r":([A-Za-z][A-Za-z0-9_+-]*):")
_HEX = re.compile(r"\{icon:([^}]*)\}")
_ESCAPED = {"*": "*", ":": ":", "{": "{", "[": "[", "\\": "\\", "n": "\n"}
_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
#: A colour's name, which the template that sets the text resolves.
_COLOUR_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_EMPHASIS = {1: ITALIC, 2: BOLD, 3: BOLD | ITALIC}
_WHAT = {ITALIC: "italic", BOLD: "bold", BOLD | ITALIC: "bold italic"}


class MarkupError(ValueError):
    """Malformed markup; ``position`` is the character of the text where it is."""

    def __init__(self, message: str, position: int):
        super().__init__(message)
        self.position = position


@dataclass(frozen=True)
class Span:
    """What a span sets: ``size`` in points (or, once fitted, ``scale``: the share of the
    text's size), ``colour`` as ``#RRGGBB`` (or a name, until the template resolves it),
    the style bits it sets and clears, ``font`` (the name the template knows it by; once
    resolved, its weight key) and ``at``, the character where it opens."""

    size: float = 0.0
    scale: float = 1.0
    colour: str = ""
    sets: int = 0
    clears: int = 0
    font: str = ""
    at: int = 0


def faces_of(marked: Marked, weight: str) -> tuple[str, ...]:
    """The weight key each span number sets its letters in (``weight`` for none)."""
    return (weight, *(span.font or weight for span in marked.spans))


def span_of(marked: Marked, bits: int) -> Span | None:
    """The span a character with style ``bits`` is in, or None."""
    number = bits >> 2
    return marked.spans[number - 1] if number else None


@dataclass(frozen=True)
class Marked:
    """Text with its markup taken out.

    ``text`` holds each icon as :data:`OBJECT` and each line break as a newline;
    ``styles`` holds each character's style bits (:data:`BOLD`, :data:`ITALIC`), a byte
    each (quick to slice and to hash: words are measured by their text and styles);
    ``icons`` the icons' hexcodes in the order of their characters in ``text``.
    """

    text: str
    styles: bytes
    icons: tuple[str, ...]
    #: The spans (``[size=14pt]…[/]``) characters' style bits number from 1, above the
    #: two bits of emphasis.
    spans: tuple[Span, ...] = ()

    def slice(self, start: int, end: int) -> Marked:
        """The part of the text from ``start`` to ``end``, with its styles and icons."""
        first = self.text.count(OBJECT, 0, start)
        count = self.text.count(OBJECT, start, end)
        return Marked(
            self.text[start:end],
            self.styles[start:end],
            self.icons[first : first + count],
            self.spans,
        )


def has_markup(text: str) -> bool:
    """Whether text may hold markup: if not, it is set as it is, and quickly."""
    return _MAYBE.search(text) is not None


@lru_cache(maxsize=4096)
def parse(text: str) -> Marked:
    """Take the markup out of text; raise MarkupError where it is malformed."""
    parser = _Parser(text)
    parser.run()
    return Marked(
        "".join(parser.chars), bytes(parser.styles), tuple(parser.icons), tuple(parser.spans)
    )


def paragraphs(marked: Marked, locale: str) -> tuple[Marked, ...]:
    """Marked text ready for setting, as :func:`deckforge.text.fit.prepare` makes plain
    text: its paragraphs (lines), with the locale's digits, normalised, each character
    keeping its style. Each stretch of one style is normalised on its own (NFC may join
    characters); spaces are collapsed across them."""
    paragraphs = []
    start = 0
    while start <= len(marked.text):
        end = marked.text.find("\n", start)
        end = len(marked.text) if end < 0 else end
        part = marked.slice(start, end) if start or end < len(marked.text) else marked
        text: list[str] = []
        styles = bytearray()
        for stretch in STRETCH.finditer(part.styles):
            begin, end_ = stretch.span()
            style = part.styles[begin]
            piece = normalise_letters(localise_digits(part.text[begin:end_], locale))
            piece = _WHITESPACE.sub(" ", piece)
            if piece[:1] == " " and (not text or text[-1][-1:] == " "):
                piece = piece[1:]
            if piece:
                text.append(piece)
                styles.extend(bytes([style]) * len(piece))
        joined = "".join(text)
        if joined.endswith(" "):
            joined, styles = joined[:-1], styles[:-1]
        paragraphs.append(Marked(joined, bytes(styles), part.icons, marked.spans))
        start = end + 1
    return tuple(paragraphs)


def _space(ch: str) -> bool:
    return ch == "" or ch.isspace()


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.chars: list[str] = []
        self.styles: list[int] = []
        self.icons: list[str] = []
        self.style = 0
        #: Where each open emphasis was opened, by its bit.
        self.opened: dict[int, int] = {}
        self.spans: list[Span] = []
        #: The numbers of the spans open, innermost last, and where each was opened.
        self.open_spans: list[tuple[int, int]] = []

    def add(self, chars: str) -> None:
        self.chars.append(chars)
        self.styles.extend([self.restyled()] * len(chars))

    def restyled(self) -> int:
        """The style byte of the next characters: emphasis, as the innermost span sets
        it, and that span's number."""
        if not self.open_spans:
            return self.style
        number = self.open_spans[-1][0]
        span = self.spans[number - 1]
        return ((self.style | span.sets) & ~span.clears & 3) | number << 2

    def span(self, at: int) -> int:
        """Open a span (``[size=14pt]``) or close one (``[/]``); where it ends."""
        text = self.text
        if text.startswith("[/]", at):
            if not self.open_spans:
                message = f"'[/]' at character {at + 1} closes no span"
                raise MarkupError(message + _unknown_opener(text[:at]), at)
            self.open_spans.pop()
            return at + 3
        found = _SPAN.match(text, at)
        if found is None:
            self.add("[")  # a bracket that starts no span
            return at + 1
        outer = self.spans[self.open_spans[-1][0] - 1] if self.open_spans else Span()
        span = _read_span(found.group(1), outer, at)
        if len(self.spans) >= MAX_SPANS:
            raise MarkupError(f"more than {MAX_SPANS} spans in one text (character {at + 1})", at)
        self.spans.append(span)
        self.open_spans.append((len(self.spans), at))
        return found.end()

    def run(self) -> None:
        text, at = self.text, 0
        while at < len(text):
            plain = _PLAIN.match(text, at)
            if plain is not None and plain.end() > at:
                self.add(plain.group())  # no markup in it: taken whole
                at = plain.end()
                continue
            ch = text[at]
            if ch == "\\" and text[at + 1 : at + 2] in _ESCAPED:
                self.add(_ESCAPED[text[at + 1]])
                at += 2
            elif ch == "*":
                at = self.emphasis(at)
            elif ch == "[":
                at = self.span(at)
            elif ch == ":" and (found := _NAME.match(text, at)):
                self.icon(_by_name(found.group(1), at))
                at = found.end()
            elif text.startswith("{icon:", at):
                found = _HEX.match(text, at)
                if found is None:
                    raise MarkupError(f"'{{icon:' at character {at + 1} is not closed by '}}'", at)
                self.icon(_by_code(found.group(1), at))
                at = found.end()
            elif ch == OBJECT:
                raise MarkupError(f"U+FFFC at character {at + 1} cannot be drawn", at)
            else:
                self.add(ch)
                at += 1
        if self.open_spans:
            where = self.open_spans[-1][1]
            raise MarkupError(f"the span at character {where + 1} is never closed by '[/]'", where)
        for bit, where in sorted(self.opened.items(), key=lambda item: item[1]):
            mark = "*" * (3 if bit == BOLD | ITALIC else 2 if bit == BOLD else 1)
            raise MarkupError(
                f"'{mark}' at character {where + 1} opens {_WHAT[bit]} that is never closed "
                r"(write \* for an asterisk)",
                where,
            )

    def icon(self, code: str) -> None:
        self.add(OBJECT)
        self.icons.append(code)

    def emphasis(self, at: int) -> int:
        """Open or close emphasis at a run of asterisks; return where the run ends."""
        text = self.text
        end = at
        while end < len(text) and text[end] == "*":
            end += 1
        before, after = text[at - 1 : at] if at else "", text[end : end + 1]
        can_open, can_close = not _space(after), not _space(before)
        if not (can_open or can_close):
            self.add(text[at:end])  # an asterisk standing alone: 5 * 3
            return end
        mark = text[at:end]
        bits = _EMPHASIS.get(len(mark))
        if bits is None:
            raise MarkupError(
                f"'{mark}' at character {at + 1}: write \\* for each literal asterisk", at
            )
        open_now = [bit for bit in (BOLD, ITALIC) if bits & bit and bit in self.opened]
        closing = can_close and (open_now or not can_open)
        if closing:
            if len(open_now) != bin(bits).count("1"):
                raise MarkupError(
                    f"'{mark}' at character {at + 1} closes {_WHAT[bits]} that is not open "
                    r"(write \* for an asterisk)",
                    at,
                )
            for bit in open_now:
                del self.opened[bit]
        else:
            already = [bit for bit in (BOLD, ITALIC) if bits & bit and bit in self.opened]
            if already:
                raise MarkupError(
                    f"'{mark}' at character {at + 1} opens {_WHAT[already[0]]} inside "
                    f"{_WHAT[already[0]]} opened at character {self.opened[already[0]] + 1}",
                    at,
                )
            for bit in (BOLD, ITALIC):
                if bits & bit:
                    self.opened[bit] = at
        self.style = sum(self.opened)
        return end


def _read_span(settings: str, outer: Span, at: int) -> Span:
    """A span's settings (``size=14pt colour=#C8102E``) over those of the span it is in."""
    size, colour, sets, clears = outer.size, outer.colour, outer.sets, outer.clears
    font = outer.font
    where = f"in the span at character {at + 1}"
    read = 0
    for found in _SETTING.finditer(settings):
        if found.start() != read:
            break
        read = found.end()
        key, value = found.group(1), found.group(2)
        setting = found.group().strip()
        if value.startswith('"'):
            value = value[1:-1]
        if key == "size":
            number = value[:-2] if value.endswith("pt") else value
            try:
                size = float(number)
            except ValueError:
                size = -1.0
            if not 0.5 <= size <= 500:
                raise MarkupError(f"size={value} {where}: give a size from 0.5pt to 500pt", at)
        elif key in ("colour", "color"):
            if _HEX_COLOUR.fullmatch(value):
                colour = value.upper()
            elif _COLOUR_NAME.fullmatch(value):
                colour = value
            else:
                raise MarkupError(
                    f"colour={value} {where}: give #RRGGBB, like #C8102E, or a colour's name", at
                )
        elif key in ("weight", "style"):
            bit, on, off = (
                (BOLD, "bold", "regular") if key == "weight" else (ITALIC, "italic", "upright")
            )
            if value not in (on, off):
                raise MarkupError(f"{key}={value} {where}: give {on} or {off}", at)
            sets, clears = (
                (sets | bit, clears & ~bit) if value == on else (sets & ~bit, clears | bit)
            )
        elif key == "font":
            if not value.strip():
                raise MarkupError(f"font= {where}: give a font's name", at)
            font = value
        else:
            keys = ", ".join(SPAN_KEYS)
            raise MarkupError(f"'{setting}' {where}: a span sets {keys}", at)
    rest = settings[read:].strip()
    if rest:
        keys = ", ".join(SPAN_KEYS)
        raise MarkupError(
            f"'{rest}' {where}: a span sets {keys}, as key=value (quote a value with spaces)",
            at,
        )
    return Span(size=size, colour=colour, sets=sets, clears=clears, font=font, at=at)


#: Something written as a span would be, ``[key=``: one that opens no span may be why a
#: ``[/]`` closes none.
_OPENER = re.compile(r"\[([A-Za-z_]+)=")


def _unknown_opener(before: str) -> str:
    """What to add to the error of a ``[/]`` that closes no span when an earlier
    ``[key=…]`` opened none because its key is not one a span sets."""
    for found in _OPENER.finditer(before):
        key = found.group(1)
        if key in SPAN_KEYS or key == "color":
            continue
        guess = close_matches(key, list(SPAN_KEYS))
        hint = f"; did you mean '{guess[0]}'?" if guess else ""
        keys = ", ".join(SPAN_KEYS)
        where = f"'[{key}=' at character {found.start() + 1}"
        return f": {where} opens none, as a span sets {keys}{hint}"
    return ""


def fitted(
    marked: Marked,
    size: float,
    fonts: tuple[tuple[str, str], ...] = (),
    colours: tuple[tuple[str, str], ...] = (),
) -> Marked:
    """Marked text set at ``size``: each span's size made a share of it (so that it shrinks
    with the text), its font's name made the weight key ``fonts`` gives it and its
    colour's name the ``#RRGGBB`` ``colours`` gives it (MarkupError for a name unknown)."""
    known_fonts, known_colours = dict(fonts), dict(colours)
    spans = []
    for span in marked.spans:
        font, colour, where = span.font, span.colour, f"in the span at character {span.at + 1}"
        if font and font not in known_fonts:
            known = ", ".join(f'"{name}"' for name in known_fonts) or "none (no style names one)"
            raise MarkupError(
                f'font="{font}" {where}: the fonts a span can use are those the '
                f"template's styles use: {known}",
                span.at,
            )
        if colour and not colour.startswith("#"):
            if colour not in known_colours:
                known = ", ".join(known_colours) or "none"
                raise MarkupError(
                    f"colour={colour} {where}: no colour is called '{colour}' (give #RRGGBB "
                    f"or one of: {known})",
                    span.at,
                )
            colour = known_colours[colour]
        scale = span.size / size if span.size else 1.0
        font = known_fonts[font] if font else ""
        spans.append(replace(span, scale=scale, font=font, colour=colour))
    return replace(marked, spans=tuple(spans))


def _by_name(name: str, at: int) -> str:
    code = icons.named(name)
    if code is None:
        near = close_matches(name.lower(), icons.GAME_ICONS)
        hint = f"; did you mean ':{near[0]}:'?" if near else r" (write \: for a colon)"
        raise MarkupError(f"no icon is called ':{name}:' (character {at + 1}){hint}", at)
    return code


def _by_code(spec: str, at: int) -> str:
    code = icons.resolve(spec) if spec.strip() else None
    if code is None:
        raise MarkupError(
            f"'{{icon:{spec}}}' at character {at + 1}: OpenMoji has no icon '{spec}'", at
        )
    return code


def scales_of(marked: Marked) -> tuple[float, ...]:
    """The share of the text's size each span number sets (1 for none)."""
    return (1.0, *(span.scale for span in marked.spans))


def grown(lines: list) -> float:
    """How much taller than the text's size its largest span makes its lines."""
    grow = 1.0
    for line in lines:
        if isinstance(line, Marked) and line.spans:
            scales = scales_of(line)
            grow = max(grow, *(scales[bits >> 2] for bits in set(line.styles)))
    return grow
