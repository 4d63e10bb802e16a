"""Total ink: of a CMYK image's pixels, and of pages rendered and converted to CMYK
through a file's output intent, as a shop's RIP converts RGB artwork."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageCms, ImageMath

from deckforge.preflight.drawn import Image as DrawnImage
from deckforge.render.colour import held_profile

#: Resolution pages are rendered at to measure their ink: fine enough for any area a
#: printer would notice (a pixel is under 1 mm), coarse enough for thousands of pages.
INK_DPI = 30


def _total(picture: Image.Image) -> float:
    """The highest c+m+y+k of any pixel of a CMYK picture, in per cent."""
    # Pillow sums the four bands per pixel in C (32-bit integers), without numpy.
    c, m, y, k = picture.split()
    total = ImageMath.lambda_eval(
        lambda env: env["c"] + env["m"] + env["y"] + env["k"], c=c, m=m, y=y, k=k
    )
    return float(total.getextrema()[1]) * 100.0 / 255.0


def image_ink(image: DrawnImage) -> float | None:
    """The highest total ink of a CMYK image, in per cent; None if undecodable."""
    try:
        picture = image.stream.decode_as_image()
    except Exception:  # noqa: BLE001 - any decoding failure leaves the image unmeasured
        return None
    if picture is None or picture.mode != "CMYK":
        return None
    return _total(picture)


@lru_cache(maxsize=4)
def _to_cmyk(profile: bytes) -> ImageCms.ImageCmsTransform:
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
    return ImageCms.buildTransform(
        srgb,
        held_profile(profile),
        "RGB",
        "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )


def rendered_ink(path: Path, profile: bytes) -> tuple[float, int]:
    """The highest total ink (per cent) of any page rendered at ``INK_DPI`` and converted
    through ``profile``, and the page (from 1) it is on."""
    import pypdfium2 as pdfium

    transform = _to_cmyk(profile)
    worst, where = 0.0, 0
    pdf = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                bitmap = page.render(scale=INK_DPI / 72, rev_byteorder=True)
                picture = bitmap.to_pil().convert("RGB")
            finally:
                page.close()
            value = _total(transform.apply(picture))
            if value > worst:
                worst, where = value, index + 1
    finally:
        pdf.close()
    return worst, where
