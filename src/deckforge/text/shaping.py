"""Persian letters drawn with the glyphs Noto Sans Arabic's own OpenType rules choose.

arabic-reshaper (:func:`deckforge.text.script.shape`) maps each letter to the Unicode
presentation form of its joining form, and the font draws those with its plain forms.
The font's contextual rules choose other glyphs in some words: a wide initial tooth for
ت and ث before some letters (تا, اتاق), a short alef under a hamza (مأمور). HarfBuzz
shapes a line with those rules, from the variable font itself at the weight the line is
drawn in; where a letter's glyphs differ from its presentation form's, the line face
has a glyph made of HarfBuzz's glyphs, placed as HarfBuzz places them inside the
letter (the dots on a dotless skeleton), and the line draws that (:func:`variants`).
Everything else is drawn as before: the presentation forms' glyphs are HarfBuzz's
elsewhere, and advances stay the glyphs' own (no kerning).

The variants a font has are found once, by shaping every letter alone and beside every
other letter (:func:`find_variants`), and kept in the line face as glyphs whose names
say the letter they stand for (:func:`table`).
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from deckforge.text import fonts

#: Bump when the way variants are found changes, so that line faces are made again.
VERSION = 1
#: The letters Persian text is written with, and the Arabic ones it borrows.
LETTERS = "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىيپچژکگیۀ"
#: The first code point of the line face's variant glyphs (after its other aliases).
FIRST = 0xE400
#: The most variants a letter has (the font's have one or two).
PER_LETTER = 16
#: How a variant glyph is named: the letter's code point and the variant's number.
_PREFIX = "shaped."

#: One letter's glyphs as HarfBuzz shapes it: (glyph name, x, y) from the skeleton's
#: origin, in drawing order.
Components = tuple[tuple[str, int, int], ...]


@cache
def _font(weight: str):
    """HarfBuzz's font for the Arabic face of a shipped weight, and the glyph order."""
    import uharfbuzz as hb
    from fontTools.ttLib import TTFont

    instance = fonts.upright_instance("arabic", weight)
    face = hb.Face(hb.Blob.from_file_path(str(instance.source)))
    font = hb.Font(face)
    font.set_variations({"wght": instance.weight})
    order = TTFont(instance.source, lazy=True).getGlyphOrder()
    return font, order


def _shape(text: str, weight: str) -> dict[int, Components]:
    """Each character's glyphs in a run of Arabic-script text, by its index."""
    import uharfbuzz as hb

    font, order = _font(weight)
    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.direction, buffer.script, buffer.language = "rtl", "Arab", "fa"
    buffer.cluster_level = hb.BufferClusterLevel.MONOTONE_CHARACTERS
    hb.shape(font, buffer, {})
    placed: dict[int, list[tuple[str, int, int, int]]] = {}
    pen = 0
    for info, position in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True):
        x = pen + position.x_offset
        placed.setdefault(info.cluster, []).append(
            (order[info.codepoint], x, position.y_offset, position.x_advance)
        )
        pen += position.x_advance
    out = {}
    for index, glyphs in placed.items():
        bases = [x for _, x, _, advance in glyphs if advance]
        origin = min(bases) if bases else glyphs[0][1]
        out[index] = tuple((name, x - origin, y) for name, x, y, _ in glyphs)
    return out


def _arabic_runs(line: str):
    """(start, text) of each stretch of Arabic letters, marks and joining controls."""
    start = None
    for index, ch in enumerate(line + " "):
        inside = "\u0600" <= ch <= "\u06ff" or ch in "\u200c\u200d"
        if inside and start is None:
            start = index
        elif not inside and start is not None:
            yield start, line[start:index]
            start = None


@lru_cache(maxsize=4096)
def variants(line: str, weight: str) -> dict[int, str]:
    """For each letter of a logical line that the line face of ``weight`` draws with a
    variant glyph, by its index in the line, the character that draws it."""
    known = table(weight)
    if not known:
        return {}
    found = {}
    for start, text in _arabic_runs(line):
        for index, components in _shape(text, weight).items():
            alias = known.get((text[index], components))
            if alias is not None:
                found[start + index] = alias
    return found


def _leaves(glyf, name: str) -> list:
    """The simple glyphs a glyph is made of (itself, or its components' leaves), by
    name: what it draws, whatever the components' places."""
    glyph = glyf[name]
    if glyph.isComposite():
        return [
            leaf for component in glyph.components for leaf in _leaves(glyf, component.glyphName)
        ]
    return [name] if glyph.numberOfContours else []


def find_variants(weight: str, static: Path) -> list[tuple[str, Components]]:
    """Every letter shaped alone and beside every other letter, with the glyphs of the
    static instance ``static``: (letter, its glyphs) where HarfBuzz draws the letter with
    other glyphs than its presentation form (each once, in a fixed order)."""
    from fontTools.ttLib import TTFont

    from deckforge.text.script import shape

    font = TTFont(static, lazy=True)
    glyf, cmap = font["glyf"], font.getBestCmap()
    found: dict[tuple[str, Components], None] = {}
    for letter in LETTERS:
        _compare(letter, 0, weight, glyf, cmap, shape, found)
        for other in LETTERS:
            _compare(letter + other, 0, weight, glyf, cmap, shape, found)
            _compare(other + letter, 1, weight, glyf, cmap, shape, found)
            _compare(other + letter + other, 1, weight, glyf, cmap, shape, found)
    return sorted(found)


def _compare(text, at, weight, glyf, cmap, shape, found) -> None:
    """Note the letter at ``at`` of ``text`` if HarfBuzz's glyphs for it are not its
    presentation form's."""
    shaped = shape(text)
    if len(shaped) != len(text):
        return  # a ligature (lam-alef): drawn as the reshaper joins it
    components = _shape(text, weight).get(at)
    drawn = cmap.get(ord(shaped[at]))
    if components is None or drawn is None:
        return
    mine = sorted(leaf for name, _, _ in components for leaf in _leaves(glyf, name))
    if mine != sorted(_leaves(glyf, drawn)) and unicodedata.category(text[at]) == "Lo":
        found[(text[at], components)] = None


def code_for(letter: str, number: int) -> int:
    """The line face's character for a letter's ``number``-th variant glyph (at most
    :data:`PER_LETTER` a letter): the letter can be told from it alone."""
    return FIRST + (ord(letter) - 0x0620) * PER_LETTER + number


def glyph_name(letter: str, number: int) -> str:
    """The line face's name of a letter's variant glyph."""
    return f"{_PREFIX}{ord(letter):04X}.{number}"


def reads_as(code: int) -> str | None:
    """The letter a variant glyph's character stands for, if it is one."""
    if FIRST <= code < FIRST + (0x06D6 - 0x0620) * PER_LETTER:
        return chr(0x0620 + (code - FIRST) // PER_LETTER)
    return None


@cache
def table(weight: str) -> dict[tuple[str, Components], str]:
    """The line face's variant glyphs: (letter, HarfBuzz's glyphs) -> the character that
    draws them, read from the line face of ``weight``."""
    from fontTools.ttLib import TTFont

    from deckforge.text import lineface

    font = TTFont(lineface.face(weight).path, lazy=True)
    glyf = font["glyf"]
    out = {}
    for code, name in font.getBestCmap().items():
        letter = reads_as(code)
        if letter is not None and name.startswith(_PREFIX):
            components = tuple((c.glyphName, c.x, c.y) for c in glyf[name].components)
            out[(letter, components)] = chr(code)
    return out
