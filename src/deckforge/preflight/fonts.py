"""Fonts as preflight reads them: embedded or not, glyph widths, and their text.

A font's ToUnicode CMap gives the text a glyph stands for, so messages can quote it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from deckforge.preflight.pdfobjects import resolve

_HEX = re.compile(rb"<([0-9A-Fa-f\s]*)>")
_BFRANGE = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f\s]*>|\[[^\]]*\])")
#: A bfrange longer than this is malformed; it is cut rather than filling memory.
_MAX_RANGE = 0x10000


def _utf16(hex_digits: bytes) -> str:
    raw = bytes.fromhex(re.sub(rb"\s", b"", hex_digits).decode("ascii"))
    return raw.decode("utf-16-be", errors="replace")


def _parse_to_unicode(data: bytes) -> dict[int, str]:
    """Character codes to text from a ToUnicode CMap (bfchar and bfrange sections)."""
    table: dict[int, str] = {}
    for block in re.finditer(rb"beginbfchar(.*?)endbfchar", data, re.S):
        hexes = _HEX.findall(block.group(1))
        for source, target in zip(hexes[0::2], hexes[1::2], strict=False):
            if source.strip():
                table[int(source, 16)] = _utf16(target)
    for block in re.finditer(rb"beginbfrange(.*?)endbfrange", data, re.S):
        for match in _BFRANGE.finditer(block.group(1)):
            low, high = int(match[1], 16), int(match[2], 16)
            high = min(high, low + _MAX_RANGE)
            target = match[3]
            if target.startswith(b"["):
                for offset, item in enumerate(_HEX.findall(target)):
                    table[low + offset] = _utf16(item)
                continue
            first = _utf16(target[1:-1])
            if not first:
                continue
            # The last UTF-16 unit counts up through the range.
            stem, last = first[:-1], ord(first[-1])
            for offset in range(high - low + 1):
                if last + offset < 0x110000:
                    table[low + offset] = stem + chr(last + offset)
    return table


@dataclass
class Font:
    """What measuring and checking text needs of one font object."""

    name: str
    embedded: bool
    two_byte: bool
    widths: dict[int, float]
    default_width: float
    descent: float
    to_unicode: dict[int, str]

    def codes(self, data: bytes) -> Iterator[int]:
        """The character codes in a string shown with this font."""
        if self.two_byte:
            for i in range(0, len(data) - 1, 2):
                yield data[i] << 8 | data[i + 1]
        else:
            yield from data

    def text(self, code: int) -> str:
        """The text a character code stands for."""
        text = self.to_unicode.get(code)
        if text is not None:
            return text
        # Without a ToUnicode map a simple font's code is close enough to Latin-1 to
        # name the text in a message; a CID is not.
        return "\ufffd" if self.two_byte else chr(code)


def font_name(font: dict) -> str:
    """A font's name without its subset prefix."""
    name = str(font.get("/BaseFont") or font.get("/Name") or "(unnamed font)").lstrip("/")
    # Subsets of one font ("AAAAAA+NotoSans-Bold", "AAAAAB+NotoSans-Bold") are one font.
    return re.sub(r"^[A-Z]{6}\+", "", name)


def _has_font_file(descriptor: Any) -> bool:
    descriptor = resolve(descriptor)
    if not isinstance(descriptor, dict):
        return False
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def read_font(font: dict) -> Font:
    """What measuring and checking text needs of a font dictionary."""
    subtype = font.get("/Subtype")
    name = font_name(font)
    descriptor_owner = font
    widths: dict[int, float] = {}
    default_width = 0.6
    scale = 0.001
    if subtype == "/Type0":
        descendants = resolve(font.get("/DescendantFonts")) or []
        cid_font = resolve(descendants[0]) if len(descendants) else {}
        cid_font = cid_font if isinstance(cid_font, dict) else {}
        descriptor_owner = cid_font
        embedded = _has_font_file(cid_font.get("/FontDescriptor"))
        default_width = float(cid_font.get("/DW", 1000)) * scale
        widths = _cid_widths(resolve(cid_font.get("/W")) or [], scale)
    elif subtype == "/Type3":
        # Type 3 glyphs are content streams in the file itself: nothing to embed.
        embedded = True
        matrix = resolve(font.get("/FontMatrix")) or [0.001, 0, 0, 0.001, 0, 0]
        scale = float(matrix[0])
    else:
        embedded = _has_font_file(font.get("/FontDescriptor"))
    if subtype != "/Type0":
        first = int(font.get("/FirstChar", 0))
        for offset, width in enumerate(resolve(font.get("/Widths")) or []):
            widths[first + offset] = float(resolve(width)) * scale
    descriptor = resolve(descriptor_owner.get("/FontDescriptor"))
    descent = -0.2
    if isinstance(descriptor, dict):
        if "/MissingWidth" in descriptor and subtype != "/Type0":
            default_width = float(descriptor["/MissingWidth"]) * scale
        if "/Descent" in descriptor:
            descent = max(-1.0, min(0.0, float(descriptor["/Descent"]) / 1000.0))
    to_unicode: dict[int, str] = {}
    stream = resolve(font.get("/ToUnicode"))
    if stream is not None and hasattr(stream, "get_data"):
        try:
            to_unicode = _parse_to_unicode(stream.get_data())
        except (ValueError, UnicodeDecodeError):
            to_unicode = {}
    return Font(name, embedded, subtype == "/Type0", widths, default_width, descent, to_unicode)


def _cid_widths(w: list, scale: float) -> dict[int, float]:
    """A CIDFont's /W array: ``c [w1 w2 ...]`` and ``c_first c_last w`` entries."""
    widths: dict[int, float] = {}
    items = [resolve(item) for item in w]
    i = 0
    while i + 1 < len(items):
        start = int(items[i])
        if isinstance(items[i + 1], list):
            for offset, width in enumerate(items[i + 1]):
                widths[start + offset] = float(resolve(width)) * scale
            i += 2
        elif i + 2 < len(items):
            end = min(int(items[i + 1]), start + _MAX_RANGE)
            for cid in range(start, end + 1):
                widths[cid] = float(items[i + 2]) * scale
            i += 3
        else:
            break
    return widths
