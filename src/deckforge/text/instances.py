"""Static instances cut from the packaged variable fonts, as ReportLab can embed them.

Only the tables ReportLab reads are kept. The layout tables (GSUB, GPOS, GDEF) are
dropped first: ReportLab never reads them, and merging their variations is most of
the instancer's work. ReportLab
draws each character with the glyph the cmap gives and advances by the glyph's width
(no kerning). Persian is shaped before it is drawn, by HarfBuzz with the variable font
itself at the instance's location (:mod:`deckforge.text.shaping`; glyphs keep their
places, so its glyph numbers are the instance's), so an instance keeps the glyphs the
font's substitutions give Arabic script (:func:`shaped_glyphs`).

At the variable font's default location (Regular) the static font is the font's own
glyphs, made without instancing; elsewhere (Bold) only the glyphs a PDF can draw are
instanced, the others left empty in their places.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

    from deckforge.text.fonts import Instance

#: The tables ReportLab reads from a TrueType font (``pdfbase/ttfonts.py``): metrics,
#: the character map, the outlines, and what it copies into the embedded subset.
READ_BY_REPORTLAB = frozenset(
    ("head", "hhea", "maxp", "hmtx", "cmap", "loca", "glyf", "name", "OS/2", "post")
    + ("cvt ", "fpgm", "prep")
)
#: The tables that move outlines, advances and those metrics to an instance's location.
_VARIATIONS = frozenset(("fvar", "avar", "gvar", "cvar", "HVAR", "MVAR"))


def cut(instance: Instance) -> bytes:
    """The static instance's TrueType bytes (the same bytes for the same inputs)."""
    from fontTools.ttLib import TTFont as FTFont

    # The source's own date stays in 'head': files, and PDFs embedding them, then
    # come out byte for byte the same wherever and whenever they are made.
    font = FTFont(instance.source, recalcTimestamp=False)
    shaped = shaped_glyphs(font)
    for tag in list(font.keys()):
        if tag not in READ_BY_REPORTLAB | _VARIATIONS | {"GlyphOrder"}:
            del font[tag]
    axes = font["fvar"].axes
    location = {axis.axisTag: axis.defaultValue for axis in axes}
    location["wght"] = instance.weight
    if "wdth" in location:
        location["wdth"] = 100
    if all(location[axis.axisTag] == axis.defaultValue for axis in axes):
        static = _default_instance(font)
    else:
        static = _instanced(font, location, shaped)
    # Each style needs its own PostScript name: PDF readers and ReportLab tell
    # embedded fonts apart by it. Names from 256 up named axes, instances and
    # features, of tables no longer there.
    family, _, style = instance.ps_name.partition("-")
    names = static["name"]
    names.names = [
        r for r in names.names if r.nameID < 256 and r.nameID not in (1, 2, 4, 6, 16, 17, 25)
    ]
    names.setName(family, 1, 3, 1, 0x409)
    names.setName(style, 2, 3, 1, 0x409)
    names.setName(f"{family} {style}", 4, 3, 1, 0x409)
    names.setName(instance.ps_name, 6, 3, 1, 0x409)
    static["OS/2"].usWeightClass = instance.weight
    out = io.BytesIO()
    static.save(out)
    return out.getvalue()


def _default_instance(font: TTFont) -> TTFont:
    """The variable font made static at its default location, as fontTools' instancer
    makes it (the same bytes: a test compares them) without instancing: there the
    outlines, advances and metrics are the font's own, and the variations move nothing.

    What the instancer changes besides is done here too: it marks every glyph as having
    overlapping contours, and recalculates the average advance in 'OS/2'. The flag is
    the one Apple's rasterizer, and FreeType's since 2.10.3, read to draw overlaps
    without seams; a variable font's glyphs overlap where strokes were joined. The
    glyphs are otherwise kept as they are stored, not read and written again: their
    bounding boxes, and the font's, are those of these very outlines.
    """
    for tag in _VARIATIONS & set(font.keys()):
        del font[tag]
    font.recalcBBoxes = False  # saving then writes each glyph's bytes as they are
    glyf = font["glyf"]
    for glyph in glyf.glyphs.values():  # as read: none unpacked, the empty without data
        if getattr(glyph, "data", b""):
            glyph.data = _overlapping(glyph.data)
    font["OS/2"].recalcAvgCharWidth(font)
    return font


#: The flags of a glyph with overlapping contours: on its first point, or its first
#: component (``fontTools.ttLib.tables._g_l_y_f``).
_OVERLAP_SIMPLE, _OVERLAP_COMPOUND = 0x40, 0x0400
#: A point flag's bit that says that the next byte counts its repeats.
_REPEAT = 0x08


def _overlapping(data: bytes) -> bytes:
    """A stored glyph with the overlap flag set, as fontTools would store it: the flag
    of the first point (which then repeats no more), or of the first component."""
    (contours,) = struct.unpack_from(">h", data)
    if contours < 0:
        (flags,) = struct.unpack_from(">H", data, 10)
        return data[:10] + struct.pack(">H", flags | _OVERLAP_COMPOUND) + data[12:]
    if contours == 0:
        return data
    at = 10 + 2 * contours  # the end points of the contours, then the instructions
    at += 2 + struct.unpack_from(">H", data, at)[0]
    first = data[at]
    if not first & _REPEAT:
        return data[:at] + bytes([first | _OVERLAP_SIMPLE]) + data[at + 1 :]
    more, alone = data[at + 1], first & ~_REPEAT
    # fontTools writes a flag twice rather than once with a repeat of one.
    rest = bytes([alone] * more) if more <= 2 else bytes([first, more - 1])
    return data[:at] + bytes([alone | _OVERLAP_SIMPLE]) + rest + data[at + 2 :]


def reachable(font: TTFont, shaped: AbstractSet[str] = frozenset()) -> set[str]:
    """The glyphs a PDF can draw from a font: those its character maps give, those
    Persian shaping draws (``shaped``, see :func:`shaped_glyphs`), the components of
    those, and the .notdef glyph. ReportLab embeds no others: it draws each character
    with the glyph the cmap gives, and substitutes none (see above)."""
    glyf = font["glyf"]
    seen = {font.getGlyphOrder()[0]}
    stack = [name for table in font["cmap"].tables for name in table.cmap.values()]
    stack += sorted(shaped)
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            glyph = glyf[name]
            if glyph.isComposite():
                stack.extend(component.glyphName for component in glyph.components)
    return seen


def shaped_glyphs(font: TTFont) -> set[str]:
    """The glyphs the font's substitutions give Arabic-script text (a contextual
    variant, a letter's dotless skeleton and its dots), which Persian lines are drawn
    with as HarfBuzz shapes them (:mod:`deckforge.text.shaping`); none for a font whose
    substitutions are for no Arabic script (those are never drawn)."""
    if "GSUB" not in font:
        return set()
    table = font["GSUB"].table
    if not any(record.ScriptTag == "arab" for record in table.ScriptList.ScriptRecord):
        return set()
    out: set[str] = set()
    for lookup in table.LookupList.Lookup:
        for subtable in lookup.SubTable:
            if lookup.LookupType == 7:  # an extension holds the real subtable
                subtable = subtable.ExtSubTable
            if hasattr(subtable, "mapping"):  # single and multiple substitutions
                for value in subtable.mapping.values():
                    out.update([value] if isinstance(value, str) else value)
            elif hasattr(subtable, "alternates"):
                out.update(name for names in subtable.alternates.values() for name in names)
            elif hasattr(subtable, "ligatures"):
                out.update(lig.LigGlyph for ligs in subtable.ligatures.values() for lig in ligs)
    return out


def _instanced(
    font: TTFont, location: dict[str, float], shaped: AbstractSet[str] = frozenset()
) -> TTFont:
    """The variable font made static at ``location`` by fontTools' instancer, with only
    the glyphs a PDF can draw (see :func:`reachable`): the others, and their variations,
    are emptied before instancing. A third of Noto Sans (small capitals, alternates, the
    forms its layout tables substituted) is never drawn. Every glyph keeps its place, so
    the character maps and the composite glyphs still point where they did."""
    from fontTools.ttLib.tables._g_l_y_f import Glyph
    from fontTools.varLib import instancer

    kept = reachable(font, shaped)
    glyf, variations = font["glyf"], font["gvar"].variations
    for name in font.getGlyphOrder():
        if name not in kept:
            if name in variations:
                del variations[name]  # before its glyph: reading them counts its points
            glyf[name] = Glyph()
    static = instancer.instantiateVariableFont(font, location, inplace=True, updateFontNames=False)
    # The instancer has set each glyph's bounds with its outline: saving need not work
    # them out again. The font's own (in 'head', 'hhea', 'maxp') are summed up from
    # them here, as saving would.
    static["maxp"].recalc(static)
    static["hhea"].recalc(static)
    static.recalcBBoxes = False
    return static
