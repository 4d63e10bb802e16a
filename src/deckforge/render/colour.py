"""Colour for print: RGB as designed (sRGB), or CMYK through ICC profiles.

CMYK is made by littleCMS (Pillow's ImageCms) from sRGB into the output profile — the
shop's own ``.icc`` file, or deckforge's model of FOGRA39 (:mod:`deckforge.render.press`)
— with the profile's rendering intent. Vector colours and images go through the same
transform. Two print-trade rules are kept on top of it: neutral near-black (text) prints
as black ink alone, 100 % K, so small type has no colour fringes when plates shift; and
no colour carries more ink in all than the profile's limit (black is kept, colour gives
way).
"""

from __future__ import annotations

import copy
import hashlib
import io
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageCms

    from deckforge.profiles import OutputIntent

RGB = tuple[float, float, float]
CMYK = tuple[float, float, float, float]

#: Below this lightness a neutral colour is printed as black ink alone.
NEAR_BLACK = 0.2
#: The ICC numbers of the rendering intents profiles name.
INTENTS = {
    "perceptual": 0,
    "relative-colorimetric": 1,
    "saturation": 2,
    "absolute-colorimetric": 3,
}


def held_profile(data: bytes) -> ImageCms.ImageCmsProfile:
    """An ICC profile that gives back the bytes it was read from.

    Pillow copies the output profile into every image a transform makes, serializing it
    each time: 3 ms for a lookup-table press profile, which made converting a file's
    few thousand colours one by one take most of a CMYK build. (Pillow is imported
    only here and when converting: files in RGB need none of it.)"""
    return _held_class()(data)


@lru_cache(maxsize=1)
def _held_class():
    from PIL import ImageCms

    class Held(ImageCms.ImageCmsProfile):
        def __init__(self, data: bytes) -> None:
            super().__init__(io.BytesIO(data))
            self._data = data

        def tobytes(self) -> bytes:
            return self._data

    return Held


#: The creation date written into the sRGB profile's header (bytes 24–35: year, month,
#: day, hour, minute, second): littleCMS writes the time it made the profile, which would
#: make two builds of the same sources differ in the profile every PDF/X-4 file embeds.
SRGB_PROFILE_DATE = (2000, 1, 1, 0, 0, 0)


@lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """littleCMS's built-in sRGB profile: the colour space every design colour is in,
    with a fixed creation date so that the same sources give the same bytes."""
    import struct

    from PIL import ImageCms

    made = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return made[:24] + struct.pack(">6H", *SRGB_PROFILE_DATE) + made[36:]


def output_profile(intent: OutputIntent, ink_limit: float) -> bytes:
    """The bytes of the output (press) profile: the shop's file, or deckforge's model."""
    if intent.icc is not None:
        return _read(intent.icc)
    from deckforge.render import press

    return press.profile_bytes(ink_limit)


@lru_cache(maxsize=8)
def _read(path: Path) -> bytes:
    from deckforge.fsutil import read_regular

    return read_regular(Path(path))


def is_cmyk_profile(data: bytes) -> bool:
    """Whether an ICC profile's data colour space is CMYK (bytes 16–19 of its header)."""
    return data[16:20] == b"CMYK"


def limit_ink(cmyk: CMYK, limit: float) -> CMYK:
    """``cmyk`` with cyan, magenta and yellow cut back so that the total is at most
    ``limit`` per cent (black is kept: it carries the detail)."""
    c, m, y, k = cmyk
    cap = limit / 100.0
    if c + m + y + k > cap and c + m + y > 0:
        scale = max(cap - k, 0.0) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return (c, m, y, k)


class Converter:
    """sRGB to CMYK through one output profile, intent and ink limit."""

    def __init__(self, intent: OutputIntent, ink_limit: float):
        from PIL import ImageCms

        self.ink_limit = ink_limit
        self.intent = intent.intent
        self.profile = output_profile(intent, ink_limit)
        if not is_cmyk_profile(self.profile):
            raise ValueError(f"{intent.icc}: not a CMYK output profile")
        # Black point compensation only for perceptual rendering: it lightens every dark
        # colour towards the press's black, where colorimetric intents keep the colours
        # the press can print exactly as designed.
        flags = ImageCms.Flags.NONE
        if intent.intent == "perceptual":
            flags = ImageCms.Flags.BLACKPOINTCOMPENSATION
        #: Everything the CMYK of a colour depends on, for caches of converted drawings.
        self.key = hashlib.sha256(
            repr((self.profile, intent.intent, int(flags), ink_limit, NEAR_BLACK)).encode()
        ).hexdigest()[:16]
        self.transform = ImageCms.buildTransform(
            ImageCms.ImageCmsProfile(io.BytesIO(srgb_profile())),
            held_profile(self.profile),
            "RGB",
            "CMYK",
            renderingIntent=INTENTS[intent.intent],
            flags=flags,
        )
        self._colours: dict[RGB, CMYK] = {}

    def cmyk(self, rgb: RGB) -> CMYK:
        """An sRGB colour (0–1) as CMYK (0–1), rounded to what 8-bit plates hold."""
        cached = self._colours.get(rgb)
        if cached is not None:
            return cached
        r, g, b = rgb
        if max(r, g, b) < NEAR_BLACK and max(r, g, b) - min(r, g, b) < 0.08:
            value: CMYK = (0.0, 0.0, 0.0, 1.0)
        else:
            from PIL import Image, ImageCms

            pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in rgb))
            inks = ImageCms.applyTransform(pixel, self.transform).getpixel((0, 0))
            value = limit_ink(tuple(v / 255 for v in inks), self.ink_limit)  # type: ignore[arg-type]
            value = tuple(round(v, 4) for v in value)  # type: ignore[assignment]
        self._colours[rgb] = value
        return value

    def image(self, image: Image.Image) -> Image.Image:
        """A raster image in CMYK through the profile, the ink limit kept by every pixel."""
        from PIL import Image, ImageCms

        if image.mode in ("RGBA", "LA", "P"):
            # Print has no transparency: flatten onto white paper first.
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            image = flat
        result = ImageCms.applyTransform(image.convert("RGB"), self.transform)
        return _limit_image(result, self.ink_limit)

    def drawing(self, drawing):
        """A copy of a ReportLab drawing with every colour and picture in it turned into
        CMYK (and any transparency flattened onto white: PDF/X-1a has none)."""
        from reportlab.graphics.shapes import Image as Picture
        from reportlab.lib.colors import CMYKColor, Color

        result = copy.deepcopy(drawing)

        def convert(node) -> None:
            if isinstance(node, Picture) and hasattr(node.path, "mode"):
                node.path = self.image(node.path)  # a picture an SVG embeds
            for attr in ("fillColor", "strokeColor"):
                value = getattr(node, attr, None)
                if isinstance(value, Color) and not isinstance(value, CMYKColor):
                    alpha = value.alpha if value.alpha is not None else 1.0
                    rgb = tuple(v * alpha + (1 - alpha) for v in value.rgb())
                    setattr(node, attr, CMYKColor(*self.cmyk(rgb)))  # type: ignore[arg-type]
            for attr in ("fillOpacity", "strokeOpacity"):
                if getattr(node, attr, None) is not None:
                    setattr(node, attr, None)
            for child in getattr(node, "contents", ()) or ():
                convert(child)

        convert(result)
        return result


def _limit_image(image: Image.Image, limit: float) -> Image.Image:
    """Cut back colour where a pixel's four inks pass the limit (rare: a press profile
    keeps its own limit; only a shop's profile with a higher one needs it)."""
    from PIL import Image, ImageMath

    c, m, y, k = image.split()
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    cap = limit / 100.0 * 255
    if total.getextrema()[1] <= cap + 0.5:
        return image
    pixels = [limit_ink(tuple(v / 255 for v in p), limit) for p in image.getdata()]
    result = Image.new("CMYK", image.size)
    result.putdata([tuple(round(v * 255) for v in p) for p in pixels])
    return result


@lru_cache(maxsize=8)
def converter(intent: OutputIntent, ink_limit: float) -> Converter:
    """The converter of one output intent and ink limit, made once per process."""
    return Converter(intent, ink_limit)
