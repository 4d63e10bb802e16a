"""ReportLab's fonts from bytes deckforge checked (one of the two modules of
:mod:`deckforge.rl` that use ReportLab's private API).

ReportLab parses a font's names, metrics, character map and advances every time a font
is registered; that is left to it (keeping what it read was not worth a format of its
own): a font is made from the bytes that were checked, never read from its file again.
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.pdfbase.ttfonts import TTFNameBytes, TTFont


def load(name: str, font: Path, data: bytes) -> TTFont:
    """The font ``name`` made from ``data``, the bytes of the file ``font`` (which
    ReportLab names in its messages)."""
    stream = io.BytesIO(data)
    stream.name = str(font)
    return TTFont(name, stream)


def rename(font: TTFont, ps_name: str) -> TTFont:
    """The font with the PostScript name ``ps_name`` (ASCII): the name its subsets are
    embedded under, and the one ReportLab tells faces apart by when it registers them
    (a second face of a name already registered is taken for the first)."""
    font.face.name = TTFNameBytes(ps_name.encode("ascii"))
    return font
