"""Fonts from PyPI packages, made static and registered with ReportLab.

The packaged Noto fonts are variable fonts; ReportLab embeds TrueType outlines
as they are, so we cut static Regular and Bold instances with fontTools once and
keep them in a cache folder keyed by the source font's hash.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "regular"
BOLD = "bold"
_WEIGHTS = {REGULAR: 400, BOLD: 700}


@dataclass(frozen=True)
class FontFace:
    """One registered face: its ReportLab name and the code points it can draw."""

    name: str
    path: Path
    coverage: frozenset[int]


def _package_font(module: str) -> Path:
    package = __import__(module)
    files = sorted((Path(package.__file__).parent / "files").glob("*.ttf"))
    upright = [f for f in files if "Italic" not in f.name]
    if not upright:
        raise RuntimeError(f"the font package {module} has no upright TrueType font")
    return upright[0]


#: Font families by script role: the package each comes from and its face-name stem.
FAMILIES = {
    "latin": ("fontpkg_noto_sans", "NotoSans"),
    "arabic": ("fontpkg_noto_sans_arabic", "NotoSansArabic"),
}


def cache_dir() -> Path:
    """Where static font instances are kept between runs."""
    if "DECKFORGE_CACHE" in os.environ:
        return Path(os.environ["DECKFORGE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "deckforge"


#: Bump when the way instances are made changes, so cached files are remade.
_INSTANCE_VERSION = 2


def _static_instance(source: Path, weight: int, ps_name: str) -> Path:
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    target = cache_dir() / "fonts" / f"{ps_name}-{digest}-v{_INSTANCE_VERSION}.ttf"
    if target.exists():
        return target
    from fontTools.ttLib import TTFont as FTFont
    from fontTools.varLib import instancer

    font = FTFont(source)
    location = {axis.axisTag: axis.defaultValue for axis in font["fvar"].axes}
    location["wght"] = weight
    if "wdth" in location:
        location["wdth"] = 100
    static = instancer.instantiateVariableFont(font, location, updateFontNames=False)
    # Each weight needs its own PostScript name: PDF readers and ReportLab tell
    # embedded fonts apart by it.
    family, _, style = ps_name.partition("-")
    names = static["name"]
    for record in list(names.names):
        if record.nameID in (1, 2, 4, 6, 16, 17):
            names.removeNames(nameID=record.nameID)
    names.setName(family, 1, 3, 1, 0x409)
    names.setName(style, 2, 3, 1, 0x409)
    names.setName(f"{family} {style}", 4, 3, 1, 0x409)
    names.setName(ps_name, 6, 3, 1, 0x409)
    static["OS/2"].usWeightClass = weight
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    os.close(handle)
    try:
        static.save(temp)
        os.replace(temp, target)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)
    return target


#: Faces from font files a project names, by the key text styles give as their weight,
#: with the weight of the shipped faces that draw what the file lacks.
_FILE_FACES: dict[str, tuple[FontFace, str]] = {}


class FontFileError(ValueError):
    """A font file that cannot be used."""


def register_file(path: Path, fallback: str = REGULAR) -> str:
    """A TrueType font file (.ttf, or .otf with TrueType outlines) as a face to set text
    in, embedded and subset like the shipped ones; returns the key text styles give as
    their weight. Letters the file lacks (Persian in a Latin face) are set in the shipped
    faces at the ``fallback`` weight."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:12]
    key = f"file-{digest}-{fallback}"
    if key in _FILE_FACES:
        return key
    name = f"{path.stem[:24]}-{digest}"
    try:
        font = TTFont(name, str(path))
    except Exception as exc:  # noqa: BLE001 - ReportLab raises several kinds for bad files
        reason = str(exc)
        if "postscript outlines" in reason.lower():
            reason = "it has PostScript (CFF) outlines; use the font's TrueType (.ttf) version"
        raise FontFileError(f"cannot use the font '{path.name}': {reason}") from None
    pdfmetrics.registerFont(font)
    _FILE_FACES[key] = (FontFace(name, path, frozenset(font.face.charToGlyph)), fallback)
    return key


@cache
def face(family: str, weight: str = REGULAR) -> FontFace:
    """The registered face of a family ('latin' or 'arabic') at a weight (or the face of
    a registered font file, whose 'arabic' family is the shipped one)."""
    own = _FILE_FACES.get(weight)
    if own is not None:
        return own[0] if family == "latin" else face(family, own[1])
    module, stem = FAMILIES[family]
    name = f"{stem}-{weight.title()}"
    path = _static_instance(_package_font(module), _WEIGHTS[weight], name)
    font = TTFont(name, str(path))
    pdfmetrics.registerFont(font)
    coverage = frozenset(font.face.charToGlyph.keys())
    return FontFace(name=name, path=path, coverage=coverage)


def width(text: str, font_name: str, size: float) -> float:
    """The advance width of text in one face, in points."""
    return _font(font_name).stringWidth(text, size)


@cache
def _font(font_name: str):
    """A registered font (looked up once: widths are asked for every word of every card)."""
    return pdfmetrics.getFont(font_name)


def ascent_descent(font_name: str, size: float) -> tuple[float, float]:
    """The face's ascent and (negative) descent at a size, in points."""
    font = pdfmetrics.getFont(font_name)
    return font.face.ascent * size / 1000.0, font.face.descent * size / 1000.0
