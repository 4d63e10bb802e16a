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

import re
import unicodedata
from functools import cache, lru_cache
from typing import NamedTuple

#: The one ligature Persian typesetting requires: lam with alef (لا) in its forms. The
#: reshaper's other ligatures (whole words such as الله) are not what Persian readers expect.
_LIGATURES = {
    "ARABIC LIGATURE LAM WITH ALEF",
    "ARABIC LIGATURE LAM WITH ALEF WITH HAMZA ABOVE",
    "ARABIC LIGATURE LAM WITH ALEF WITH HAMZA BELOW",
    "ARABIC LIGATURE LAM WITH ALEF WITH MADDA ABOVE",
}


@cache
def _reshaper():
    """The reshaper, keeping diacritics (harakat), which the library deletes by default.

    Made on first use: a build that has no Arabic-script text need not import the
    library and the font tools it imports."""
    import arabic_reshaper
    import arabic_reshaper.ligatures

    return arabic_reshaper.ArabicReshaper(
        configuration={
            "delete_harakat": False,
            "support_ligatures": True,
            **{name: name in _LIGATURES for name, _ in arabic_reshaper.ligatures.LIGATURES},
        }
    )


ZWNJ = "\u200c"
RLM = "\u200f"
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


#: Letters that count sub-steps (a, b, c…) in Persian, in alphabetical order.
_PERSIAN_LETTERS = "الف ب پ ت ث ج چ ح خ د ذ ر ز ژ س ش ص ض ط ظ ع غ ف ق ک گ ل م ن و ه ی".split()


def list_letter(index: int, locale: str) -> str:
    """The letter that counts the ``index``-th item (from 0) of a lettered list."""
    if is_rtl_locale(locale):
        return _PERSIAN_LETTERS[index % len(_PERSIAN_LETTERS)]
    return chr(ord("a") + index % 26)


def normalise(text: str) -> str:
    """NFC, Persian ی and ک for their Arabic look-alikes, single spaces."""
    return " ".join(normalise_letters(text).split())


def normalise_letters(text: str) -> str:
    """NFC, and Persian ی and ک for their Arabic look-alikes (spaces left as they are)."""
    text = unicodedata.normalize("NFC", text)
    return text.replace("\u064a", "\u06cc").replace("\u0643", "\u06a9")


_ARABIC = re.compile("[\u0600-\u06ff\ufb50-\ufeff]")
#: str.translate table deleting the characters that draw nothing.
_DROP_INVISIBLE = dict.fromkeys(map(ord, INVISIBLE))


def has_arabic(text: str) -> bool:
    """Whether text holds any Arabic-script letter."""
    return _ARABIC.search(text) is not None


#: What :func:`has_arabic` finds, and every code point drawn from the Arabic face
#: (:func:`deckforge.text.lineface.is_arabic_script`).
_ANY_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\ufb50-\ufeff]")


def has_any_arabic(text: str) -> bool:
    """Whether text holds anything shaping joins or the Arabic face draws first: text
    without it is drawn as it is, in its Latin face where that has every character."""
    return _ANY_ARABIC.search(text) is not None


@lru_cache(maxsize=65536)
def shape(text: str) -> str:
    """Arabic-script letters in their joined presentation forms (logical order kept).

    Diacritics are kept; ZWNJ breaks joining and stays in the string, so callers
    drop it when drawing (see :func:`drawable`).
    """
    if not has_arabic(text):
        return text
    return _reshaper().reshape(text)


def drawable(text: str) -> str:
    """Text with the characters that draw nothing (ZWNJ, bidi marks) removed."""
    return text.translate(_DROP_INVISIBLE)


def _reorder(text: str, rtl: bool) -> list[tuple[str, int, int]]:
    """The Unicode bidi algorithm (with L4 mirroring) on one line, keeping for each
    visual character the index of the character it came from and its embedding level."""
    from bidi import algorithm as _bidi

    storage = _bidi.get_empty_storage()
    storage["base_level"] = 1 if rtl else 0
    storage["base_dir"] = "R" if rtl else "L"
    _bidi.get_embedding_levels(text, storage)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index
    _bidi.explicit_embed_and_overrides(storage)
    _bidi.resolve_weak_types(storage)
    _bidi.resolve_neutral_types(storage, False)
    _bidi.resolve_implicit_levels(storage, False)
    _bidi.reorder_resolved_levels(storage, False)
    _bidi.apply_mirroring(storage, False)
    return [(char["ch"], char["index"], char["level"]) for char in storage["chars"]]


def _spans(logical: str, shaped: str) -> list[tuple[int, int]] | None:
    """For each shaped character, the slice of logical text it stands for (a lam-alef
    ligature stands for two); None if the two cannot be aligned."""
    spans, j = [], 0
    for ch in shaped:
        width = len(unicodedata.normalize("NFKC", ch)) if ch != logical[j : j + 1] else 1
        spans.append((j, j + width))
        j += width
    return spans if j == len(logical) else None


@lru_cache(maxsize=1024)
def visual_glyphs(line: str, rtl: bool) -> tuple[tuple[str, str], ...]:
    """One logical line shaped and reordered for drawing left to right, as pairs of
    (character to draw, the logical text it stands for when that differs).

    The second item is empty when the drawn character already reads as its source
    after Unicode compatibility normalisation (presentation forms, ligatures); it is
    set for mirrored brackets, whose drawn character is the other bracket. ZWNJ stays
    in the sequence, between the letters it separates: callers draw it with a face
    whose ZWNJ glyph is empty, so it copies and searches but shows nothing.
    """
    return tuple((glyph.char, glyph.source) for glyph in visual_order(line, rtl))


class Glyph(NamedTuple):
    """One character to draw, in visual order."""

    #: The character drawn (a joined form, a mirrored bracket, a space, ZWNJ).
    char: str
    #: The logical text it stands for where that differs from what the character reads
    #: as after compatibility normalisation (a mirrored bracket), else "".
    source: str
    #: The index in the line of the (first) character it comes from: what carries a
    #: character's style through shaping and reordering.
    index: int  # type: ignore[assignment]  # a field, where tuple has a method
    #: Its bidi embedding level: odd levels read right to left, even ones left to right.
    level: int


@lru_cache(maxsize=65536)
def visual_order(line: str, rtl: bool) -> tuple[Glyph, ...]:
    """As :func:`visual_glyphs`, each glyph with the index in ``line`` of the character
    it comes from and its bidi level."""
    shaped = shape(line)
    if not rtl and not has_arabic(shaped):
        return tuple(Glyph(ch, "", i, 0) for i, ch in enumerate(shaped) if ch not in INVISIBLE)
    spans = _spans(line, shaped) or [(i, i + 1) for i in range(len(shaped))]
    placed = _reorder(shaped, rtl)
    out: list[Glyph] = []
    position: dict[int, int] = {}
    for ch, index, level in placed:
        if ch in INVISIBLE:
            continue
        start, end = spans[index] if index < len(spans) else (index, index + 1)
        source = line[start:end]
        same = unicodedata.normalize("NFKC", ch) == unicodedata.normalize("NFKC", source)
        position[index] = len(out)
        out.append(Glyph(ch, "" if same else source, start, level))
    # Put each ZWNJ back between the letters it keeps apart (bidi removes it).
    for index, ch in enumerate(shaped):
        if ch != ZWNJ or index - 1 not in position or index + 1 not in position:
            continue
        before, after = position[index - 1], position[index + 1]
        if abs(before - after) == 1:
            at = max(before, after)
            start = spans[index][0] if index < len(spans) else index
            out.insert(at, Glyph(ZWNJ, "", start, out[before].level))
            position = {k: (v + 1 if v >= at else v) for k, v in position.items()}
    return tuple(out)


def visual_line(line: str, rtl: bool) -> str:
    """One logical line, shaped and reordered left to right, as the characters drawn."""
    return "".join(ch for ch, _ in visual_glyphs(line, rtl) if ch not in INVISIBLE)
