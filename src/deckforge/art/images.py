"""User art: PNG, JPEG or SVG files named by cards, checked before anything is drawn.

Raster files are opened with Pillow under a pixel limit (decompression bombs are
refused); SVG files may not declare entities or reference other files or URLs.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image

from deckforge.errors import WARNING, Problem, SourceRef

#: Largest raster accepted, in pixels (a 300-dpi tarot card is about 1.3 million).
MAX_PIXELS = 40_000_000
#: Effective resolution below which art is an error, and below which it is a warning.
MIN_DPI_ERROR = 150
MIN_DPI_WARNING = 300

RASTER_SUFFIXES = (".png", ".jpg", ".jpeg")
SUFFIXES = (*RASTER_SUFFIXES, ".svg")


class ArtError(ValueError):
    """Art that cannot be used."""


@dataclass(frozen=True)
class ArtInfo:
    """What layout needs to know of a file: its kind and natural size."""

    path: Path
    kind: str  # "raster" or "svg"
    width: float  # pixels for raster, points for SVG
    height: float


_EXTERNAL = re.compile(
    rb"<!ENTITY|<!DOCTYPE[^>]*\[|(?:xlink:)?href\s*=\s*[\"'](?!#|data:)", re.IGNORECASE
)


@lru_cache(maxsize=1024)
def inspect(path: Path) -> ArtInfo:
    """Open and check an art file; raises ArtError with a plain reason."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ArtError(f"'{path.name}' is not PNG, JPEG or SVG")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ArtError(f"cannot read '{path.name}': {exc.strerror}") from exc
    if suffix == ".svg":
        if _EXTERNAL.search(data):
            raise ArtError(
                f"'{path.name}' declares entities or refers to other files or "
                "addresses; SVG art must be self-contained"
            )
        from svglib.svglib import svg2rlg

        drawing = svg2rlg(str(path))
        if drawing is None or not drawing.width or not drawing.height:
            raise ArtError(f"'{path.name}' is not a readable SVG file")
        return ArtInfo(path, "svg", float(drawing.width), float(drawing.height))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise ArtError(
                        f"'{path.name}' is {width} × {height} pixels; the limit is "
                        f"{MAX_PIXELS:,} pixels"
                    )
                image.verify()
    except ArtError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ArtError(
            f"'{path.name}' has more than {MAX_PIXELS:,} pixels, too many to "
            "open safely; scale it to 300 dpi at its printed size"
        ) from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise ArtError(f"'{path.name}' is not a readable image ({exc})") from exc
    return ArtInfo(path, "raster", float(width), float(height))


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
