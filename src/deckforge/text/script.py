"""Script handling: direction, digits, Arabic-script shaping and bidi reordering.

Right-to-left text is prepared in three steps, in this order:

1. :func:`localise_digits` and :func:`normalise` work on the logical text;
2. the caller wraps logical text into lines (see :mod:`deckforge.text.fit`);
3. :func:`visual_line` shapes one line (joining forms, lam-alef ligatures) and
   reorders it for display with a right-to-left base direction.

Reordering per line, after wrapping, is what keeps the first words on the first
line; reordering a paragraph before wrapping would reverse the line order.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import arabic_reshaper
from bidi.algorithm import get_display as _bidi_display

#: Reshaper that keeps diacritics (harakat): the library deletes them by default.
_RESHAPER = arabic_reshaper.ArabicReshaper(
    configuration={"delete_harakat": False, "support_ligatures": True}
)

ZWNJ = "\u200c"
ZWJ = "\u200d"
#: Format characters that steer joining or direction and draw nothing.
INVISIBLE = frozenset("\u200c\u200d\u200e\u200f\u061c\u2066\u2067\u2068\u2069")
#: Explicit bidi embeddings and overrides: they can disguise text (U+202E) and are refused.
BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e")

_PERSIAN_DIGITS = str.maketrans("0123456789٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹" * 2)
_ASCII_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "0123456789" * 2)

RTL_LOCALES = frozenset({"fa", "ar", "he", "ur"})


def is_rtl_locale(locale: str) -> bool:
    """Whether a locale's paragraphs run right to left."""
    return locale in RTL_LOCALES


def localise_digits(text: str, locale: str) -> str:
    """Digits as the locale's readers expect them: Persian ۰–۹ for ``fa``, 0–9 otherwise."""
    if locale == "fa":
        return text.translate(_PERSIAN_DIGITS)
    return text.translate(_ASCII_DIGITS)


def number(value: int, locale: str) -> str:
    """An integer written with the locale's digits."""
    return localise_digits(str(value), locale)


def normalise(text: str) -> str:
    """NFC, Persian ی and ک for their Arabic look-alikes, single spaces."""
    text = unicodedata.normalize("NFC", text)
    return " ".join(text.replace("\u064a", "\u06cc").replace("\u0643", "\u06a9").split())


def has_arabic(text: str) -> bool:
    """Whether text holds any Arabic-script letter."""
    return any("\u0600" <= ch <= "\u06ff" or "\ufb50" <= ch <= "\ufeff" for ch in text)


@lru_cache(maxsize=65536)
def shape(text: str) -> str:
    """Arabic-script letters in their joined presentation forms (logical order kept).

    Diacritics are kept; ZWNJ breaks joining and stays in the string, so callers
    drop it when drawing (see :func:`drawable`).
    """
    if not has_arabic(text):
        return text
    return _RESHAPER.reshape(text)


def drawable(text: str) -> str:
    """Text with the characters that draw nothing (ZWNJ, bidi marks) removed."""
    return "".join(ch for ch in text if ch not in INVISIBLE)


@lru_cache(maxsize=65536)
def visual_line(line: str, rtl: bool) -> str:
    """One logical line, shaped and reordered left to right for drawing.

    Uses the Unicode bidi algorithm with the paragraph direction given, including
    rule L4 (mirrored glyphs: '(' in right-to-left runs is drawn as ')').
    """
    shaped = shape(line)
    if not rtl and not has_arabic(shaped):
        return drawable(shaped)
    return drawable(_bidi_display(shaped, base_dir="R" if rtl else "L"))
