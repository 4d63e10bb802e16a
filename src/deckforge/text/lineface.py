"""The face right-to-left lines are drawn in: one font for the whole line.

A Persian line mixes the Arabic face (letters, Persian digits) with the Latin face
(brackets, «», full stops, Latin words). PDF viewers take a line apart wherever the
font changes: pdf.js makes each piece a separate text item, reorders each piece on its
own and then joins them in the order they were drawn, so a line drawn left to right
comes back with its words in the wrong order. Drawn in one font, a line is one item,
which every viewer turns back into reading order.

This face is the Arabic face with, for every character the Latin face draws in a line
today, the Latin face's own glyph and advance: a line draws exactly as before. Besides:

* the characters that steer direction and joining (ZWNJ, ZWJ, LRM, RLM, ALM and the
  isolates) have empty glyphs of no width, so they can be written into the text without
  showing;
* aliases in the Private Use Area draw a character as the other face draws it, or draw
  a bracket's mirror image while reading as the bracket (see :func:`drawn_as`): a line
  keeps each glyph it had when it was drawn in two fonts, and a ``(`` drawn as ``)`` in
  right-to-left text reads as ``(``;
* a mark that ends a word before a space (a kasra of ezafe, a hamza above, a tanwin)
  can be drawn together with that space as one glyph (see :data:`SPACED_MARKS`);
* a letter the font's own shaping rules draw otherwise than its presentation form has a
  glyph of HarfBuzz's glyphs (see :mod:`deckforge.text.shaping`);
* its /ToUnicode map (written by the PDF renderer, by :func:`reads_as`) reads each
  joined letter form and each such glyph as its base letter, so that copying and
  searching give the letters that were typed.

Instances are made once with fontTools and kept beside the static instances.
"""

from __future__ import annotations

import copy
import hashlib
import io
import unicodedata
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics, ttfonts

from deckforge import cache as kept
from deckforge.text import fonts, shaping
from deckforge.versions import version

#: Bump when the way the face is made changes, or how it is kept, so cached files are
#: remade (4: kept with a checksum beside it; 5: with the variants HarfBuzz draws).
_VERSION = 5

#: Characters that draw nothing: the face gives them empty glyphs of no width.
FORMAT_CHARACTERS = "\u200c\u200d\u200e\u200f\u061c\u2066\u2067\u2068\u2069"

#: An empty glyph a whole em wide that reads as a right-to-left mark: stretched across a
#: column (see :func:`deckforge.text.lines.column_mark`).
SPACER = "\ue0fe"

#: The bidi algorithm's mirrored pairs among the characters lines hold.
MIRROR = {
    "(": ")",
    ")": "(",
    "[": "]",
    "]": "[",
    "{": "}",
    "}": "{",
    "<": ">",
    ">": "<",
    "«": "»",
    "»": "«",
    "‹": "›",
    "›": "‹",
}
#: Characters that join the run before them and so may be drawn in either face.
NEUTRALS = " .,:;!?-–—()[]{}<>«»‹›'\"/"

_ALIAS_BASE = 0xE000


def _aliases() -> dict[tuple[str, str, str], str]:
    """(character drawn, face family it is drawn as, what it reads as) -> alias."""
    keys = [(ch, "arabic", ch) for ch in NEUTRALS]
    for bracket, mirror in MIRROR.items():
        keys += [(mirror, "latin", bracket), (mirror, "arabic", bracket)]
    return {key: chr(_ALIAS_BASE + i) for i, key in enumerate(keys)}


ALIASES = _aliases()

#: Marks drawn over a letter, in the order right-to-left lines are drawn: a word's last
#: mark stands between the space left of it and its letter.
MARKS = "\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652\u0654\u0655\u0670"

#: For each mark, a glyph that draws a space and then the mark where the letter after
#: the space stands, and reads as both. pdf.js leaves a zero-width mark that follows a
#: space glyph out of the measuring of gaps: it put the space before the mark and
#: another after it ("بوفه ٔ مدرسه"), so that its search found no phrase whose first
#: word ends in a mark. A space glyph that carries the mark is a space to pdf.js (which
#: then leaves the mark out, as its search does); PDFium and poppler read the space and
#: the mark as before.
SPACED_MARKS = {mark: chr(_ALIAS_BASE + len(ALIASES) + i) for i, mark in enumerate(MARKS)}

_READS = {alias: reads for (_, _, reads), alias in ALIASES.items()}
_READS.update({alias: " " + mark for mark, alias in SPACED_MARKS.items()})


#: The file of each line face made in this process, by its name.
PATHS: dict[str, Path] = {}


def is_arabic_script(code: int) -> bool:
    """Whether a code point is drawn from the Arabic face (letters, marks, digits, forms)."""
    return (
        0x0600 <= code <= 0x06FF
        or 0x0750 <= code <= 0x077F
        or 0xFB50 <= code <= 0xFDFF
        or 0xFE70 <= code <= 0xFEFF
    )


def default_family(ch: str) -> str:
    """The face whose glyph the line face gives a character of its own."""
    return "arabic" if is_arabic_script(ord(ch)) else "latin"


def drawn_as(char: str, family: str, reads: str = "") -> str:
    """The line face's character that draws ``char`` as the face ``family`` draws it and
    reads as ``reads`` (by default, as itself)."""
    reads = reads or char
    if reads == char and family == default_family(char):
        return char
    alias = ALIASES.get((char, family, reads))
    if alias is None:
        # No alias for this: draw the line face's own glyph (the same in both faces).
        return char if reads == char else ALIASES[(char, default_family(char), reads)]
    return alias


def reads_as(code: int) -> str:
    """The text one drawn character stands for in right-to-left text, as /ToUnicode
    writes it: a joined letter form reads as its letter, a ligature as its letters in
    drawing order (extractors reverse right-to-left text, the letters with it), an alias
    as the character it reads as."""
    ch = chr(code)
    letter = shaping.reads_as(code)
    if letter is not None:
        return letter
    if ch == SPACER:
        return "\u200f"
    if ch in _READS:
        return _READS[ch]
    if 0xFB50 <= code <= 0xFDFF or 0xFE70 <= code <= 0xFEFF:
        base = unicodedata.normalize("NFKC", ch)
        if base.strip() and base != ch:
            return base[::-1]
    return ch


def _make(arabic: Path, latin: Path, ps_name: str, weight: str) -> bytes:
    from fontTools.ttLib import TTFont as FTFont
    from fontTools.ttLib.tables._g_l_y_f import Glyph

    # The Arabic instance's own date stays in 'head' (as in the instances): the face, and
    # the PDFs embedding it, are then the same bytes wherever and whenever made.
    font = FTFont(arabic, recalcTimestamp=False)
    other = FTFont(latin)
    glyf, hmtx = font["glyf"], font["hmtx"]
    their_glyf, their_hmtx = other["glyf"], other["hmtx"]
    taken = {
        code: name
        for code, name in other.getBestCmap().items()
        if default_family(chr(code)) == "latin" and chr(code) not in FORMAT_CHARACTERS
    }
    # The glyphs to copy, with the components of composite glyphs.
    needed: list[str] = []
    seen: set[str] = set()
    stack = sorted(set(taken.values()))
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        needed.append(name)
        glyph = their_glyf[name]
        if glyph.isComposite():
            stack.extend(c.glyphName for c in glyph.components)
    renamed = {name: f"latin.{name}" for name in needed}
    order = font.getGlyphOrder() + [renamed[n] for n in needed] + ["empty", "spacer"]
    for name in needed:
        glyph = their_glyf[name]
        glyph.expand(their_glyf)
        mine = copy.deepcopy(glyph)
        if mine.isComposite():
            for component in mine.components:
                component.glyphName = renamed[component.glyphName]
        glyf.glyphs[renamed[name]] = mine
        hmtx.metrics[renamed[name]] = their_hmtx[name]
    empty = Glyph()
    empty.numberOfContours = 0
    glyf.glyphs["empty"] = empty
    hmtx.metrics["empty"] = (0, 0)
    glyf.glyphs["spacer"] = copy.deepcopy(empty)
    hmtx.metrics["spacer"] = (1000, 0)
    font.setGlyphOrder(order)
    glyf.glyphOrder = order
    mapping = {code: renamed[name] for code, name in taken.items()}
    mapping.update({ord(ch): "empty" for ch in FORMAT_CHARACTERS})
    mapping[ord(SPACER)] = "spacer"
    arabic_cmap = font.getBestCmap()
    for (char, family, _), alias in ALIASES.items():
        drawn = arabic_cmap.get(ord(char)) if family == "arabic" else mapping.get(ord(char))
        if drawn:
            mapping[ord(alias)] = drawn
    _spaced_marks(font, mapping[ord(" ")], arabic_cmap, mapping)
    _variants(font, shaping.find_variants(weight, arabic), mapping)
    for table in font["cmap"].tables:
        if table.isUnicode():
            for code, name in mapping.items():
                if code <= 0xFFFF or table.format in (12, 13):
                    table.cmap[code] = name
    family, _, style = ps_name.partition("-")
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 2, 4, 6, 16, 17):
            names.removeNames(nameID=record.nameID)
    names.setName(family, 1, 3, 1, 0x409)
    names.setName(style, 2, 3, 1, 0x409)
    names.setName(f"{family} {style}", 4, 3, 1, 0x409)
    names.setName(ps_name, 6, 3, 1, 0x409)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _spaced_marks(font, space: str, arabic_cmap: dict, mapping: dict) -> None:
    """Add a glyph for each of :data:`SPACED_MARKS`: the mark, moved right by the space's
    advance, with that advance (where it stood when drawn after the space)."""
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

    glyf, hmtx = font["glyf"], font["hmtx"]
    advance = hmtx[space][0]
    order = font.getGlyphOrder()
    for mark, alias in SPACED_MARKS.items():
        drawn = arabic_cmap.get(ord(mark))
        if drawn is None:
            continue
        component = GlyphComponent()
        component.glyphName, component.x, component.y, component.flags = drawn, advance, 0, 0
        glyph = Glyph()
        glyph.numberOfContours, glyph.components = -1, [component]
        name = f"space.{drawn}"
        glyf.glyphs[name] = glyph
        glyph.recalcBounds(glyf)
        hmtx.metrics[name] = (advance, getattr(glyph, "xMin", 0))
        order.append(name)
        mapping[ord(alias)] = name
    font.setGlyphOrder(order)
    glyf.glyphOrder = order


def _variants(font, variants: list, mapping: dict) -> None:
    """Add a glyph for each letter HarfBuzz draws otherwise than its presentation form
    (:func:`deckforge.text.shaping.find_variants`): its glyphs as components where
    HarfBuzz places them, advancing as its skeleton does."""
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

    glyf, hmtx = font["glyf"], font["hmtx"]
    order = font.getGlyphOrder()
    numbers: dict[str, int] = {}
    for letter, components in variants:
        number = numbers[letter] = numbers.get(letter, -1) + 1
        if number >= shaping.PER_LETTER:
            continue
        glyph = Glyph()
        glyph.numberOfContours, glyph.components = -1, []
        for name, x, y in components:
            component = GlyphComponent()
            component.glyphName, component.x, component.y, component.flags = name, x, y, 0
            glyph.components.append(component)
        name = shaping.glyph_name(letter, number)
        glyf.glyphs[name] = glyph
        glyph.recalcBounds(glyf)
        advance = max(hmtx[c.glyphName][0] for c in glyph.components)
        hmtx.metrics[name] = (advance, getattr(glyph, "xMin", 0))
        order.append(name)
        mapping[shaping.code_for(letter, number)] = name
    font.setGlyphOrder(order)
    glyf.glyphOrder = order


def prepare(jobs: int) -> None:
    """Before a build forks ``jobs`` worker processes: make and register the line faces
    here, so that the workers share them (as :func:`deckforge.text.fonts.prepare`)."""
    if jobs > 1:
        for weight in (fonts.REGULAR, fonts.BOLD):
            face(weight)


def missing() -> list[str]:
    """The shipped weights whose line face the cache lacks (each of them while a static
    instance it is made from is not cut yet)."""
    todo = []
    for weight in (fonts.REGULAR, fonts.BOLD):
        instances = [fonts.instance_of(family, weight) for family in ("arabic", "latin")]
        arabic, latin = (None if i is None else fonts.cached_path(i) for i in instances)
        if arabic is None or latin is None:
            todo.append(weight)
        elif fonts.cached_path_named(_target(weight, arabic, latin)) is None:
            todo.append(weight)
    return todo


def make(weight: str) -> None:
    """Make the line face of a shipped weight in the cache, and the static instances it
    is made from, without registering it: for a process that makes it ahead of a build
    (:mod:`deckforge.pipeline.warm`)."""
    arabic, latin = fonts.face("arabic", weight), fonts.face("latin", weight)
    target = _target(weight, arabic.path, latin.path)
    if fonts.cached_bytes(target) is None:
        fonts.keep_bytes(target, _make(arabic.path, latin.path, _ps_name(weight), weight))


def _ps_name(weight: str) -> str:
    return f"NotoSansArabicLatin-{weight.title()}"


def _target(weight: str, arabic: Path, latin: Path) -> str:
    """The cache entry of the line face made from the instances ``arabic`` and ``latin``
    (files of the cache, named by their SHA-256)."""
    recipe = f"{_VERSION} {FORMAT_CHARACTERS}{SPACER} {sorted(ALIASES.items())} {MARKS}"
    recipe = f"{recipe} {shaping.VERSION} uharfbuzz {version('uharfbuzz')}"
    made_of = f"{arabic.name} {latin.name} {recipe}".encode()
    return f"font-{_ps_name(weight)}-{hashlib.sha256(made_of).hexdigest()[:16]}"


def _stream(data: bytes, target: Path) -> io.BytesIO:
    """The bytes checked, for ReportLab to read, named as the file they are kept in."""
    stream = io.BytesIO(data)
    stream.name = str(target)
    return stream


def _made(arabic: Path, latin: Path, target: str, ps_name: str, weight: str) -> tuple[Path, bytes]:
    """The line face made, and kept in the cache as ``target``: its file and bytes."""
    data = _make(arabic, latin, ps_name, weight)
    return fonts.keep_bytes(target, data), data


@cache
def face(weight: str = fonts.REGULAR) -> fonts.FontFace:
    """The registered line face at a shipped weight (regular or bold), made on first
    use."""
    arabic, latin = fonts.face("arabic", weight), fonts.face("latin", weight)
    ps_name = _ps_name(weight)
    target = _target(weight, arabic.path, latin.path)
    found = fonts.cached_bytes(target)  # None when missing, or damaged (said so)
    path, data = found or _made(arabic.path, latin.path, target, ps_name, weight)
    try:
        font = ttfonts.TTFont(ps_name, _stream(data, path))
    except Exception as exc:  # noqa: BLE001 - ReportLab raises several kinds for bad fonts
        # Whole by its checksum, yet not a font ReportLab can read: made again.
        kept.damaged(path, f"it is not a font ReportLab can read: {exc}")
        path, data = _made(arabic.path, latin.path, target, ps_name, weight)
        font = ttfonts.TTFont(ps_name, _stream(data, path))
    pdfmetrics.registerFont(font)
    PATHS[ps_name] = path
    return fonts.FontFace(name=ps_name, path=path, coverage=frozenset(font.face.charToGlyph.keys()))
