"""Colour for print: RGB as designed (sRGB), or CMYK through ICC profiles.

CMYK is made by littleCMS (Pillow's ImageCms) from sRGB into the output profile — the
shop's own ``.icc`` file, or deckforge's model of FOGRA39 (:mod:`deckforge.render.press`)
— with the profile's rendering intent. Vector colours and images go through the same
transform. Print-trade rules are kept on top of it: neutral near-black text, rules and
small marks print as black ink alone, 100 % K, so they have no colour fringes when plates
shift; a large area of black prints as the profile's rich black; and no colour carries
more ink in all than the profile's limit (the press profile keeps it by replacing grey
with black; what a shop's profile passes over it is cut from colour).
"""

from __future__ import annotations

import copy
import hashlib
import io
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from PIL import Image, ImageCms

    from deckforge.profiles import OutputIntent

RGB = tuple[float, float, float]
CMYK = tuple[float, float, float, float]

#: Below this lightness a neutral colour of text or a thin rule prints as black ink alone.
NEAR_BLACK = 0.2
#: A large area darker than this (and neutral) is black: it prints as the rich black.
AREA_BLACK = 0.02
#: The rich black of large black areas (C, M, Y, K, 0–1): what most card shops ask for.
RICH_BLACK = (0.6, 0.4, 0.4, 1.0)
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
    each time, and a file's few thousand colours are converted one by one: the bytes
    are serialized once instead. (Pillow is imported
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

    def __init__(
        self, intent: OutputIntent, ink_limit: float, rich_black: CMYK = RICH_BLACK
    ) -> None:
        from PIL import ImageCms

        self.ink_limit = ink_limit
        self.rich_black = tuple(round(v, 4) for v in limit_ink(rich_black, ink_limit))
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
        #: Everything the CMYK of a drawing's colour (:meth:`cmyk`) depends on, for caches
        #: of converted drawings.
        self.key = hashlib.sha256(
            repr((self.profile, intent.intent, int(flags), ink_limit, NEAR_BLACK)).encode()
        ).hexdigest()[:16]
        self.transform = ImageCms.buildTransform(
            ImageCms.ImageCmsProfile(io.BytesIO(srgb_profile())),
            held_profile(self.profile),
            "RGB",
            "CMYK",
            renderingIntent=ImageCms.Intent(INTENTS[intent.intent]),
            flags=flags,
        )
        self._colours: dict[RGB, CMYK] = {}
        self._flags = flags
        self._proof: ImageCms.ImageCmsTransform | None = None
        self._printed: ImageCms.ImageCmsTransform | None = None
        #: Whether the profile's own tables keep the ink limit (deckforge's press profile
        #: does, but for 8-bit rounding), so that a picture needs no limiting pass.
        self.limits_itself = intent.icc is None

    def cmyk(self, rgb: RGB) -> CMYK:
        """An sRGB colour (0–1) of text, a rule or a small mark as CMYK (0–1): neutral
        near-black as black ink alone, anything else as :meth:`separated`."""
        r, g, b = rgb
        if max(r, g, b) < NEAR_BLACK and max(r, g, b) - min(r, g, b) < 0.08:
            return (0.0, 0.0, 0.0, 1.0)
        return self.separated(rgb)

    def inks(self, rgb: RGB, area: bool) -> CMYK:
        """A colour as :meth:`area` gives it for a large area, else as :meth:`cmyk`."""
        return self.area(rgb) if area else self.cmyk(rgb)

    def area(self, rgb: RGB) -> CMYK:
        """An sRGB colour (0–1) of a large area as CMYK (0–1): black as the rich black,
        anything else as :meth:`separated`."""
        r, g, b = rgb
        if max(r, g, b) < AREA_BLACK and max(r, g, b) - min(r, g, b) < AREA_BLACK:
            return self.rich_black  # type: ignore[return-value]
        return self.separated(rgb)

    def separated(self, rgb: RGB) -> CMYK:
        """An sRGB colour (0–1) through the output profile as CMYK (0–1), within the ink
        limit, rounded to what 8-bit plates hold."""
        cached = self._colours.get(rgb)
        if cached is not None:
            return cached
        from PIL import Image

        pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in rgb))
        inks = cast("tuple[int, int, int, int]", self.transform.apply(pixel).getpixel((0, 0)))
        value = limit_ink(tuple(v / 255 for v in inks), self.ink_limit)  # type: ignore[arg-type]
        value = _rounded(value, self.ink_limit)
        self._colours[rgb] = value
        return value

    def proof(self, image: Image.Image) -> Image.Image:
        """A CMYK image as sRGB through the output profile with the same intent: what
        the press prints it as, on screen (a soft proof)."""
        from PIL import ImageCms

        if self._proof is None:
            self._proof = ImageCms.buildTransform(
                held_profile(self.profile),
                ImageCms.ImageCmsProfile(io.BytesIO(srgb_profile())),
                "CMYK",
                "RGB",
                renderingIntent=ImageCms.Intent(INTENTS[self.intent]),
                flags=self._flags,
            )
        return self._proof.apply(image)

    def printed(self, image: Image.Image) -> Image.Image:
        """An sRGB picture as the press prints it: as :meth:`image` converts it to CMYK,
        then :meth:`proof`; in one soft-proofing transform where the profile keeps the
        ink limit itself (a fifth of the time of the two)."""
        from PIL import ImageCms

        if not self.limits_itself or image.mode != "RGB":
            return self.proof(self.image(image))
        if self._printed is None:
            srgb = ImageCms.ImageCmsProfile(io.BytesIO(srgb_profile()))
            self._printed = ImageCms.buildProofTransform(
                srgb,
                srgb,
                held_profile(self.profile),
                "RGB",
                "RGB",
                renderingIntent=ImageCms.Intent(INTENTS[self.intent]),
                proofRenderingIntent=ImageCms.Intent(INTENTS[self.intent]),
                flags=self._flags | ImageCms.Flags.SOFTPROOFING,
            )
        return self._printed.apply(image)

    def printed_rgb(self, cmyk: CMYK) -> tuple[int, int, int]:
        """The 8-bit sRGB a CMYK colour prints as (:meth:`proof`)."""
        from PIL import Image

        pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))
        return self.proof(pixel).getpixel((0, 0))  # type: ignore[return-value]

    def image(self, image: Image.Image) -> Image.Image:
        """A raster image in CMYK through the profile, the ink limit kept by every pixel."""
        from PIL import Image

        if image.mode in ("RGBA", "LA", "P"):
            # Print has no transparency: flatten onto white paper first.
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            image = flat
        result = self.transform.apply(image.convert("RGB"))
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
                    setattr(node, attr, CMYKColor(*self.cmyk(rgb)))
            for attr in ("fillOpacity", "strokeOpacity"):
                if getattr(node, attr, None) is not None:
                    setattr(node, attr, None)
            for child in getattr(node, "contents", ()) or ():
                convert(child)

        convert(result)
        return result


def _rounded(cmyk: CMYK, limit: float) -> CMYK:
    """Inks rounded to four places, the largest colour ink rounded down if rounding took
    the total over the limit."""
    value = [round(v, 4) for v in cmyk]
    excess = round(sum(value) - limit / 100.0, 4)
    if excess > 0:
        most = max(range(3), key=lambda i: value[i])
        value[most] = round(max(value[most] - excess, 0.0), 4)
    return tuple(value)  # type: ignore[return-value]


#: A fill this wide and tall (points, half an inch) or more is a large area.
AREA = 36.0


def is_area(shape) -> bool:
    """Whether a shape's fill (a drawing operation's) is a large area rather than a mark:
    its black prints as the rich black, not 100 % K."""
    if hasattr(shape, "r"):
        return 2 * shape.r >= AREA
    if hasattr(shape, "points"):
        xs, ys = [p[0] for p in shape.points], [p[1] for p in shape.points]
        return max(xs) - min(xs) >= AREA and max(ys) - min(ys) >= AREA
    return abs(shape.w) >= AREA and abs(shape.h) >= AREA


def _limit_image(image: Image.Image, limit: float) -> Image.Image:
    """Cut back colour where a pixel's four inks pass the limit (a press profile keeps
    its own limit but for the rounding to 8 bits; a shop's profile may have a higher one),
    as :func:`limit_ink` does, rounding the colour inks down."""
    import numpy as np
    from PIL import Image

    inks = np.asarray(image, dtype=np.float64)
    cap = limit / 100.0 * 255
    over = inks.sum(axis=2) > cap + 0.5
    if not over.any():
        return image
    colour_inks = inks[..., :3].sum(axis=2)
    spare = np.clip(cap - inks[..., 3], 0.0, None) / np.maximum(colour_inks, 1e-9)
    scale = np.where(over, np.clip(spare, 0.0, 1.0), 1.0)
    inks[..., :3] = np.where(
        over[..., None], np.floor(inks[..., :3] * scale[..., None]), inks[..., :3]
    )
    return Image.frombytes("CMYK", image.size, inks.astype(np.uint8).tobytes())


@lru_cache(maxsize=1024)
def printed(inks: CMYK, intent: OutputIntent | None = None, ink_limit: float = 240.0) -> RGB:
    """What inks print as, in sRGB (0–1) through the output profile (FOGRA39's model
    unless named): how an RGB file draws a colour given as inks."""
    from deckforge.profiles import OutputIntent

    made = converter(intent or OutputIntent(), ink_limit).printed_rgb(inks)
    return tuple(v / 255 for v in made)  # type: ignore[return-value]


def converter(intent: OutputIntent, ink_limit: float, rich_black: CMYK = RICH_BLACK) -> Converter:
    """The converter of one output intent, ink limit and rich black, made once per
    process (whether the rich black is named or left to its default)."""
    return _converter(intent, ink_limit, tuple(rich_black))


@lru_cache(maxsize=8)
def _converter(intent: OutputIntent, ink_limit: float, rich_black: CMYK) -> Converter:
    return Converter(intent, ink_limit, rich_black)
