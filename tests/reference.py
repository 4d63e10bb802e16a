"""Reference rasterizations: PDF pages drawn by poppler's ``pdftoppm``, another engine than
the PDFium that deckforge's raster outputs use, and how far two images are apart.

Two engines anti-alias edges differently, so both images are softened by a Gaussian blur
of 1 px before they are compared; the difference is then the mean absolute difference
per channel, 0–255. Measured at 50 dpi: 0.4–2.8 for the same page, 10–146 with red and
blue swapped.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from PIL import Image, ImageChops, ImageFilter, ImageStat

#: Mean absolute difference per channel (0–255) allowed between two engines' pixels.
TOLERANCE = 4.0
#: A card must have pixels this far from grey (max − min channel) for a test to mean much.
CHROMA = 60

Box = tuple[float, float, float, float]


def _pdftoppm() -> str:
    """poppler's rasterizer; the tests need it (make test installs poppler-utils)."""
    found = shutil.which("pdftoppm")
    assert found, "poppler's pdftoppm is missing: install poppler-utils"
    return found


def _box(pdf: Path, page: int, which: str = "mediabox") -> Box:
    from pypdf import PdfReader

    box = getattr(PdfReader(pdf).pages[page], which)
    return float(box.left), float(box.bottom), float(box.right), float(box.top)


def trim_box(pdf: Path, page: int = 0) -> Box:
    """A page's TrimBox in points."""
    return _box(pdf, page, "trimbox")


def own_colours(pdf: Path, tmp: Path) -> Path:
    """The file as poppler should show its own colours: poppler proofs a PDF/X file's
    colours through its output intent (the press), which the raster outputs do not."""
    import pikepdf

    with pikepdf.open(pdf) as document:
        if "/OutputIntents" not in document.Root:
            return pdf
        del document.Root.OutputIntents
        copy = tmp / f"own-colours-{pdf.name}"
        document.save(copy)
    return copy


def poppler(
    pdf: Path, page: int, dpi: float, crop: Box | None, size: tuple[int, int], tmp: Path
) -> Image.Image:
    """Page ``page`` (from 0) of ``pdf`` rasterized by poppler, the whole page or the
    ``crop`` box (left, bottom, right, top in points), scaled to ``size``."""
    out = tmp / f"ref-{page}"
    shown = own_colours(pdf, tmp)
    if crop is None:
        # The whole page onto exactly ``size`` pixels, as the export maps it.
        where = ["-scale-to-x", str(size[0]), "-scale-to-y", str(size[1])]
    else:
        where = ["-r", str(dpi)]
    first = str(page + 1)
    args = [_pdftoppm(), "-png", *where, "-f", first, "-l", first, "-singlefile"]
    args += [str(shown), str(out)]
    subprocess.run(args, check=True, capture_output=True)
    image = Image.open(f"{out}.png").convert("RGB")
    if crop is not None:
        image = crop_points(image, _box(pdf, page), crop, dpi)
    return image.resize(size, Image.Resampling.BILINEAR) if image.size != size else image


def all_pages(pdf: Path, dpi: float, tmp: Path) -> list[Image.Image]:
    """Every page of ``pdf`` rasterized by poppler at ``dpi``, in one run."""
    out = tmp / "pages"
    out.mkdir(exist_ok=True)
    subprocess.run(
        [_pdftoppm(), "-png", "-r", str(dpi), str(own_colours(pdf, tmp)), str(out / "p")],
        check=True,
        capture_output=True,
    )
    files = sorted(out.glob("p-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
    return [Image.open(path).convert("RGB") for path in files]


def crop_points(image: Image.Image, page_box: Box, crop: Box, dpi: float) -> Image.Image:
    """The ``crop`` box (points) of a page image drawn at ``dpi``."""
    scale = dpi / 72
    left, bottom, right, top = crop
    return image.crop(
        (
            round((left - page_box[0]) * scale),
            round((page_box[3] - top) * scale),
            round((right - page_box[0]) * scale),
            round((page_box[3] - bottom) * scale),
        )
    )


def difference(ours: Image.Image, reference: Image.Image) -> float:
    """Mean absolute difference per channel after softening both images' edges."""
    soft = ImageFilter.GaussianBlur(1)
    if reference.size != ours.size:
        reference = reference.resize(ours.size, Image.Resampling.BILINEAR)
    diff = ImageChops.difference(ours.convert("RGB").filter(soft), reference.filter(soft))
    return sum(ImageStat.Stat(diff).mean) / 3


def chroma(image: Image.Image) -> int:
    """How far the most colourful pixel is from grey."""
    small = image.resize((max(1, image.width // 4), max(1, image.height // 4)))
    return max(max(p) - min(p) for p in small.get_flattened_data())
