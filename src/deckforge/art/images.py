"""User art: PNG, JPEG or SVG files named by cards, checked before anything is drawn.

Only regular files are read. Raster files are opened with Pillow as PNG or JPEG only
(never by whatever format their bytes claim), under a pixel limit (decompression bombs
are refused), and decoded whole, so a truncated or corrupt file is refused instead of
printed half drawn. SVG files are read as untrusted data (:mod:`deckforge.art.svg`):
self-contained, limited in size, and the pictures embedded in them are checked as
raster files are.
"""

from __future__ import annotations

import io
import os
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from deckforge.errors import WARNING, Problem, SourceRef
from deckforge.fsutil import read_regular

#: Largest raster accepted, in pixels (a 300-dpi tarot card is about 1.3 million).
MAX_PIXELS = 40_000_000
#: Effective resolution below which art is an error, and below which it is a warning.
MIN_DPI_ERROR = 150
MIN_DPI_WARNING = 300

RASTER_SUFFIXES = (".png", ".jpg", ".jpeg")
SUFFIXES = (*RASTER_SUFFIXES, ".svg")
#: The formats raster art is read as (Pillow would otherwise open anything it knows).
FORMATS = ("PNG", "JPEG")


class ArtError(ValueError):
    """Art that cannot be used."""


@dataclass(frozen=True, eq=False)
class ArtInfo:
    """What layout needs to know of a file: its kind and natural size."""

    path: Path
    kind: str  # "raster" or "svg"
    width: float  # pixels for raster, points for SVG
    height: float


def inspect(path: Path) -> ArtInfo:
    """Open and check an art file; raises ArtError with a plain reason."""
    return _inspect(path, *_version(path))


def _version(path: Path) -> tuple[int, int]:
    """What tells one state of a file from the next (a file changed in watch mode is
    checked again)."""
    try:
        found = os.stat(path)
    except OSError:
        return (0, 0)
    return (found.st_mtime_ns, found.st_size)


@lru_cache(maxsize=1024)
def _inspect(path: Path, *version: int) -> ArtInfo:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ArtError(f"'{path.name}' is not PNG, JPEG or SVG")
    if suffix == ".svg":
        drawing = svg_drawing(path)
        return ArtInfo(path, "svg", float(drawing.width), float(drawing.height))
    try:
        data = read_regular(path)
    except OSError as exc:
        raise ArtError(f"cannot read '{path.name}': {exc.strerror}") from exc
    width, height = check_raster(data, f"'{path.name}'")
    return ArtInfo(path, "raster", float(width), float(height))


def check_raster(data: bytes, name: str, limit: int = MAX_PIXELS) -> tuple[int, int]:
    """The size in pixels of PNG or JPEG bytes, once they are found to decode whole and
    to have no more than ``limit`` pixels; ArtError (its message starting with ``name``)
    otherwise."""
    from PIL import Image  # here: a build whose cards show no raster art does not need it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=FORMATS) as image:
                width, height = image.size
                if width * height > limit:
                    raise ArtError(
                        f"{name} is {width} × {height} pixels; the limit is {limit:,} pixels"
                    )
                image.verify()
            # verify() reads a PNG's checksums but decodes nothing: decode it all, so a
            # file cut short (a JPEG saved half) is found here, not printed grey.
            with Image.open(io.BytesIO(data), formats=FORMATS) as image:
                image.load()
    except ArtError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ArtError(
            f"{name} has more than {limit:,} pixels, too many to open safely; "
            "scale it to 300 dpi at its printed size"
        ) from exc
    except Image.UnidentifiedImageError:
        # Pillow's message names the stream it was given, not the file.
        other = _format_of(data)
        if other is not None:
            advice = "name it .svg" if "SVG" in other else "save it as PNG"
            raise ArtError(f"{name} is {other}, not PNG or JPEG: {advice}") from None
        raise ArtError(f"{name} is not an image deckforge can read (PNG, JPEG or SVG)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ArtError(f"{name} is not a readable image ({exc})") from exc
    return width, height


#: How files of formats people save pictures in start, and what each is.
_SIGNATURES = (
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"BM", "a BMP image"),
    (b"II*\0", "a TIFF image"),
    (b"MM\0*", "a TIFF image"),
    (b"%PDF", "a PDF document"),
    (b"\0\0\1\0", "an icon (ICO) file"),
    (b"8BPS", "a Photoshop (PSD) file"),
)


def _format_of(data: bytes) -> str | None:
    """What kind of file bytes are, by how they start, among formats deckforge does not
    read as pictures (None: not one of those)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "a WebP image"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"avif"):
        return "a HEIC or AVIF image"
    head = data[:512].lstrip().lower()
    if head.startswith((b"<svg", b"<?xml")) and b"<svg" in head:
        return "an SVG drawing"
    return next((what for start, what in _SIGNATURES if data.startswith(start)), None)


def svg_drawing(path: Path):
    """The drawing of an SVG art file, once it and every picture embedded in it have
    passed their checks; ArtError otherwise."""
    return _svg_drawing(path, *_version(path))


@lru_cache(maxsize=256)
def _svg_drawing(path: Path, *version: int):
    from deckforge.art import svg

    name = f"'{path.name}'"
    try:
        root = svg.parse(path)
        pixels = 0
        for picture in svg.embedded(root):
            where = f"{name} line {picture.line}: the embedded picture"
            width, height = check_raster(picture.data, where)
            pixels += width * height
        if pixels > MAX_PIXELS:
            raise ArtError(
                f"{name} embeds pictures of {pixels:,} pixels in all; the limit is "
                f"{MAX_PIXELS:,} pixels"
            )
        return svg.drawing(path, root)
    except svg.SvgError as exc:
        raise ArtError(f"{name} {exc}") from None
    except OSError as exc:
        raise ArtError(f"cannot read {name}: {exc.strerror}") from exc


def effective_dpi(info: ArtInfo, box_w: float, box_h: float, cover: bool) -> float:
    """Resolution of raster art drawn into a box (points), scaled to cover or to fit it."""
    scale = (max if cover else min)(box_w / info.width, box_h / info.height)  # points per pixel
    return 72.0 / scale


def at_print_size(
    path: Path, ref: SourceRef, w: float, h: float, cover: bool
) -> tuple[ArtInfo, Problem | None]:
    """Art checked at the size it is printed (a box in points): raises ArtError when raster
    art is under 150 dpi there, and gives a warning under 300 dpi."""
    info = inspect(path)
    if info.kind != "raster":
        return info, None
    dpi = effective_dpi(info, w, h, cover)
    where = f"'{path.name}' is {info.width:.0f} × {info.height:.0f} px"
    if dpi < MIN_DPI_ERROR:
        raise ArtError(
            f"{where}, only {dpi:.0f} dpi at print size; "
            f"at least {MIN_DPI_ERROR} dpi is needed, 300 is best"
        )
    if dpi < MIN_DPI_WARNING:
        message = f"{where}, {dpi:.0f} dpi at print size; 300 dpi is recommended"
        return info, Problem(ref, message, WARNING)
    return info, None
