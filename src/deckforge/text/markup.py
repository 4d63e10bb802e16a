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
``\*`` ``\:``       a literal ``*``, ``:``; also ``\{`` and ``\\``
==================  ==============================================================

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
from dataclasses import dataclass
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

#: A quick test for text that may hold markup (most text holds none).
_MAYBE = re.compile(r"[*\\\ufffc]|\{icon:|:[A-Za-z][A-Za-z0-9_+-]*:")
_WHITESPACE = re.compile(r"\s+")
#: A stretch of characters of one style, in a Marked's styles.
STRETCH = re.compile(rb"(.)\1*", re.DOTALL)
#: Characters that cannot start markup.
_PLAIN = re.compile(r"[^*\\:{\ufffc]*")
_NAME = re.compile(r":([A-Za-z][A-Za-z0-9_+-]*):")
_HEX = re.compile(r"\{icon:([^}]*)\}")
_ESCAPED = {"*": "*", ":": ":", "{": "{", "\\": "\\", "n": "\n"}
_EMPHASIS = {1: ITALIC, 2: BOLD, 3: BOLD | ITALIC}
_WHAT = {ITALIC: "italic", BOLD: "bold", BOLD | ITALIC: "bold italic"}


class MarkupError(ValueError):
    """Malformed markup; ``position`` is the character of the text where it is."""

    def __init__(self, message: str, position: int):
        super().__init__(message)
        self.position = position


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

    def slice(self, start: int, end: int) -> Marked:
        """The part of the text from ``start`` to ``end``, with its styles and icons."""
        first = self.text.count(OBJECT, 0, start)
        count = self.text.count(OBJECT, start, end)
        return Marked(
            self.text[start:end], self.styles[start:end], self.icons[first : first + count]
        )


def has_markup(text: str) -> bool:
    """Whether text may hold markup: if not, it is set as it is, and quickly."""
    return _MAYBE.search(text) is not None


@lru_cache(maxsize=4096)
def parse(text: str) -> Marked:
    """Take the markup out of text; raise MarkupError where it is malformed."""
    parser = _Parser(text)
    parser.run()
    return Marked("".join(parser.chars), bytes(parser.styles), tuple(parser.icons))


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
        paragraphs.append(Marked(joined, bytes(styles), part.icons))
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

    def add(self, chars: str) -> None:
        self.chars.append(chars)
        self.styles.extend([self.style] * len(chars))

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
