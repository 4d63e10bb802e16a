"""What ReportLab reads from a TrueType font, kept beside the font in the cache (one
of the two modules of :mod:`deckforge.rl` that use ReportLab's private API).

ReportLab parses a font's names, metrics, character map, advances and glyph offsets in
Python every time a font is registered (``TTFontFile.extractInfo``), as much work as
the rest of a small build. What it reads depends only on the
font's bytes and ReportLab's version, so it is kept once read, in a file beside the
font instance: a header of JSON (the names and metrics, the tables' sizes) and the
tables as arrays of machine numbers, checked as it is read (every value of the type and
shape ReportLab gives it, the tables' sizes fitting one another; nothing in it is run).
A file that fails a check is not used: the font is parsed again and the file replaced.

A face made from the kept values is ReportLab's own ``TTFontFace`` with ``extractInfo``
giving those values instead of reading them again; it holds the font's bytes as a parsed
one does (subsetting copies outlines from them). ``tests/test_reportlab_contract.py``
checks that such a face and font are the same as the ones ReportLab makes.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from array import array
from fnmatch import fnmatch
from functools import cached_property
from itertools import accumulate
from pathlib import Path
from weakref import WeakKeyDictionary

from reportlab import Version as REPORTLAB_VERSION
from reportlab import rl_config
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

from deckforge.fsutil import Log, read_regular, write_atomic

#: Bump when what is kept changes, so that older files are not used.
FORMAT = 2
#: The most a kept file may take (the Noto faces' take about 200 kB).
MAX_BYTES = 8 * 1024 * 1024

#: The names ReportLab reads from the font's ``name`` table (``TTFNameBytes``).
_NAMES = ("name", "familyName", "styleName", "fullName", "uniqueFontID")
#: Whole numbers, numbers, and flags ``extractInfo`` sets.
_INTEGERS = ("unitsPerEm", "stemV", "flags", "numGlyphs", "underlinePosition")
_INTEGERS += ("underlineThickness", "_pos")  # and where ReportLab's reading stopped
_NUMBERS = ("ascent", "descent", "capHeight", "defaultWidth", "italicAngle")

_log = Log(__name__)


def path_for(font: Path) -> Path:
    """The file kept beside a cached font instance."""
    tag = f"reportlab-{REPORTLAB_VERSION}-{FORMAT}-{sys.byteorder}"
    return font.with_name(f"{font.name}.{tag}.metrics")


def load(name: str, font: Path, data: bytes, digest: str) -> TTFont:
    """The font ``name`` made from ``data`` (the bytes of the cached file ``font``,
    whose SHA-256 is ``digest``), from what was kept of it when there is such a file for
    these bytes; otherwise parsed by ReportLab, and what it read kept."""
    kept = path_for(font)
    info = _read(kept, digest)
    if info is None:
        made = TTFont(name, _stream(data, font))
        _keep(kept, made.face, digest)
        return made
    return _font(name, _Face(_stream(data, font), info))


def _stream(data: bytes, font: Path) -> io.BytesIO:
    stream = io.BytesIO(data)
    stream.name = str(font)  # what ReportLab names the font's file in its messages
    return stream


class _Face(TTFontFace):
    """ReportLab's face, its ``extractInfo`` giving the values kept."""

    def __init__(self, stream: io.BytesIO, info: dict):
        self._kept = info
        super().__init__(stream)

    def extractInfo(self, charInfo=1):  # noqa: N802, N803 - ReportLab's names
        """Set what ``TTFontFile.extractInfo`` reads from the font, as it sets it."""
        info = self.__dict__.pop("_kept")
        for key in _NAMES:
            setattr(self, key, TTFNameBytes(info[key].encode("utf-8")))
        for key in (*_INTEGERS, *_NUMBERS):
            setattr(self, key, info[key])
        self.fontRevision = tuple(info["fontRevision"])
        self.bbox = info["bbox"]
        self._full_font = info["_full_font"]
        per_em = self.unitsPerEm
        self._pdfScale = (lambda x: x) if per_em == 1000 else (lambda x: x * (1000 / per_em))
        codes = info["codes"]
        self.charToGlyph = dict(zip(codes, info["glyphs"], strict=True))
        self.charWidths = dict(zip(info["widthCodes"], info["widths"], strict=True))
        self._glyphs = info["mapped"], info["counts"], info["chars"]
        self.hmetrics = info["hmetrics"]
        self.glyphPos = info["glyphPos"]

    @cached_property
    def glyphToChar(self) -> dict[int, list[int]]:  # noqa: N802 - ReportLab's name
        """The characters of each glyph, made when first asked for: ReportLab reads them
        only to shape text, which deckforge does not ask it to."""
        mapped, counts, chars = self.__dict__.pop("_glyphs")
        if len(chars) == len(counts):  # a character a glyph, as in most fonts
            return dict(zip(mapped, ([char] for char in chars), strict=True))
        ends = accumulate(counts)
        found = (chars[end - count : end] for count, end in zip(counts, ends, strict=True))
        return dict(zip(mapped, found, strict=True))


def _font(name: str, face: _Face) -> TTFont:
    """A font of a face already made, as ``TTFont.__init__`` makes one (which would
    parse the font again)."""
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, glob) for glob in rl_config.unShapedFontGlob)
    return font


#: The first line of a kept file, naming its format.
MAGIC = b"deckforge kept font metrics\n"
#: The tables kept after the header, each an array of machine numbers: their names and
#: the array type of each ("q" whole numbers, "d" numbers, "w" the widths: either).
_TABLES = (("codes", "q"), ("glyphs", "q"), ("widthCodes", "q"), ("widths", "w"))
_TABLES += (("mapped", "q"), ("counts", "q"), ("chars", "q"), ("hmetrics", "q"))
_TABLES += (("glyphPos", "q"),)


def _read(path: Path, digest: str) -> dict | None:
    """The values kept in ``path`` for the font whose SHA-256 is ``digest``, if the file
    is there and every value in it is of the type and shape ReportLab gives it."""
    try:
        raw = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        _log.warning("%s: the kept font metrics cannot be read (%s); reading the font", path, exc)
        return None
    try:
        info = _decode(raw, digest)
    except ValueError as exc:
        _log.warning("%s: the kept font metrics are damaged (%s); reading the font", path, exc)
        return None
    return info


def _decode(raw: bytes, digest: str) -> dict:
    """What a kept file holds; ValueError if it is not as :func:`_encode` writes it."""
    if not raw.startswith(MAGIC):
        raise ValueError("it is not a file of kept metrics")
    end = raw.find(b"\n", len(MAGIC))
    header = json.loads(raw[len(MAGIC) : end])
    problem = _problem(header, digest)
    if problem is not None:
        raise ValueError(problem)
    view, at, info = memoryview(raw), end + 1, dict(header)
    if hashlib.sha256(view[at:]).hexdigest() != header["tables"]:
        raise ValueError("its tables do not match their checksum: truncated or corrupt")
    for name, kind in _TABLES:
        numbers = array("d" if kind == "w" and header["floatWidths"] else "q")
        size = header["sizes"][name] * numbers.itemsize
        if at + size > len(raw):
            raise ValueError("it is cut short")
        numbers.frombytes(view[at : at + size])
        info[name], at = numbers.tolist(), at + size
    if at != len(raw):
        raise ValueError("it is longer than its tables")
    _shaped(info)
    return info


def _shaped(info: dict) -> None:
    """Check that the tables fit one another, and shape the glyphs' characters and
    metrics as ReportLab does (a list of characters and a pair for each glyph)."""
    counts, chars, pairs = info["counts"], info["chars"], info["hmetrics"]
    if len(info["codes"]) != len(info["glyphs"]) or len(info["widthCodes"]) != len(info["widths"]):
        raise ValueError("the character map or the widths differ in length")
    if (
        len(counts) != len(info["mapped"])
        or sum(counts) != len(chars)
        or min(counts, default=1) < 1
    ):
        raise ValueError("the glyphs' characters do not add up")
    if len(pairs) != 2 * info["numGlyphs"] or len(info["glyphPos"]) != info["numGlyphs"] + 1:
        raise ValueError("the glyph tables do not cover the glyphs")
    info["counts"], info["chars"] = counts, chars  # shaped when asked for (:class:`_Face`)
    info["hmetrics"] = list(zip(pairs[::2], pairs[1::2], strict=True))


def _problem(header: object, digest: str) -> str | None:
    """What is wrong with a kept file's header (None: nothing)."""
    if not isinstance(header, dict) or header.get("digest") != digest:
        return "it is not of this font"
    if not isinstance(header.get("tables"), str):
        return "it has no checksum of its tables"
    if not all(isinstance(header.get(key), str) for key in _NAMES):
        return "a name is not text"
    if not all(_integer(header.get(key)) for key in _INTEGERS):
        return "a whole number is not one"
    if not all(_integer(header.get(key)) or _real(header.get(key)) for key in _NUMBERS):
        return "a metric is not a number"
    if not isinstance(header.get("_full_font"), bool) or not isinstance(
        header.get("floatWidths"), bool
    ):
        return "a flag is not true or false"
    for key, size in (("fontRevision", 2), ("bbox", 4)):
        value = header.get(key)
        if not isinstance(value, list) or len(value) != size:
            return f"{key} is not {size} numbers"
        if not all(_integer(n) or _real(n) for n in value):
            return f"{key} is not {size} numbers"
    sizes = header.get("sizes")
    if not isinstance(sizes, dict) or set(sizes) != {name for name, _ in _TABLES}:
        return "it does not say the size of every table"
    if not all(_integer(n) and 0 <= n <= MAX_BYTES for n in sizes.values()):
        return "a table's size is not a size"
    return None


def _integer(value: object) -> bool:
    return type(value) is int


def _real(value: object) -> bool:
    return type(value) is float


def _keep(path: Path, face: TTFontFace, digest: str) -> None:
    """Keep what ReportLab read from a font; a cache that cannot be written only means
    the font is read again next time."""
    try:
        write_atomic(path, _encode(face, digest))
    except (OSError, OverflowError, TypeError) as exc:
        _log.debug("cannot keep %s: %s", path, exc)


def _encode(face: TTFontFace, digest: str) -> bytes:
    """A kept file: its header (JSON of the names, metrics and tables' sizes), then each
    table as an array of machine numbers."""
    widths = list(face.charWidths.values())
    tables = {
        "codes": list(face.charToGlyph),
        "glyphs": list(face.charToGlyph.values()),
        "widthCodes": list(face.charWidths),
        "widths": widths,
        "mapped": list(face.glyphToChar),
        "counts": [len(chars) for chars in face.glyphToChar.values()],
        "chars": [char for chars in face.glyphToChar.values() for char in chars],
        "hmetrics": [number for pair in face.hmetrics for number in pair],
        "glyphPos": face.glyphPos,
    }
    floats = not all(_integer(width) for width in widths)
    header: dict = {"digest": digest, "floatWidths": floats}
    header |= {key: getattr(face, key).ustr for key in _NAMES}
    header |= {key: getattr(face, key) for key in (*_INTEGERS, *_NUMBERS)}
    header |= {"fontRevision": list(face.fontRevision), "bbox": face.bbox}
    header |= {"_full_font": face._full_font, "sizes": {k: len(v) for k, v in tables.items()}}
    body = b"".join(
        array("d" if kind == "w" and floats else "q", tables[name]).tobytes()
        for name, kind in _TABLES
    )
    header["tables"] = hashlib.sha256(body).hexdigest()
    return b"".join([MAGIC, json.dumps(header, separators=(",", ":")).encode(), b"\n", body])


def rename(font: TTFont, ps_name: str) -> TTFont:
    """The font with the PostScript name ``ps_name`` (ASCII): the name its subsets are
    embedded under, and the one ReportLab tells faces apart by when it registers them
    (a second face of a name already registered is taken for the first)."""
    font.face.name = TTFNameBytes(ps_name.encode("ascii"))
    return font


def forget(font: Path) -> None:
    """Remove what was kept of a cached font instance that is set aside."""
    path_for(font).unlink(missing_ok=True)
