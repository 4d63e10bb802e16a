"""Colour for print: RGB as designed, or DeviceCMYK with the total ink limited.

Conversion is the plain one from RGB (black generation from the darkest channel), then
under-colour removal where cyan, magenta and yellow together would push the total past
the limit; near-black becomes 100 % K alone, as print shops want text.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

RGB = tuple[float, float, float]
CMYK = tuple[float, float, float, float]

#: Below this lightness a neutral colour is printed as black ink alone.
NEAR_BLACK = 0.2


@lru_cache(maxsize=4096)
def to_cmyk(rgb: RGB, limit: float = 240.0) -> CMYK:
    """An RGB colour (0–1) as CMYK (0–1) with c+m+y+k at most ``limit`` per cent."""
    r, g, b = rgb
    if max(r, g, b) < NEAR_BLACK and max(r, g, b) - min(r, g, b) < 0.08:
        return (0.0, 0.0, 0.0, 1.0)
    k = 1.0 - max(r, g, b)
    if k >= 1.0:
        return (0.0, 0.0, 0.0, 1.0)
    c, m, y = ((1.0 - v - k) / (1.0 - k) for v in (r, g, b))
    cap = limit / 100.0
    if c + m + y + k > cap:
        scale = max(cap - k, 0.0) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return (round(c, 4), round(m, 4), round(y, 4), round(k, 4))


def cmyk_drawing(drawing, limit: float):
    """A copy of a ReportLab drawing with every colour in it turned into CMYK."""
    from reportlab.lib.colors import CMYKColor, Color

    result = copy.deepcopy(drawing)

    def convert(node) -> None:
        for attr in ("fillColor", "strokeColor"):
            value = getattr(node, attr, None)
            if isinstance(value, Color) and not isinstance(value, CMYKColor):
                c, m, y, k = to_cmyk((value.red, value.green, value.blue), limit)
                setattr(node, attr, CMYKColor(c, m, y, k, alpha=value.alpha))
        for child in getattr(node, "contents", ()) or ():
            convert(child)

    convert(result)
    return result


def cmyk_image(image: Image.Image, limit: float) -> Image.Image:
    """A raster image in CMYK with the ink limit applied to every pixel."""
    from PIL import Image

    rgb = image.convert("RGB")
    table: dict[tuple[int, int, int], tuple[int, int, int, int]] = {}
    out = []
    for pixel in rgb.getdata():
        value = table.get(pixel)
        if value is None:
            c, m, y, k = to_cmyk((pixel[0] / 255, pixel[1] / 255, pixel[2] / 255), limit)
            value = (round(c * 255), round(m * 255), round(y * 255), round(k * 255))
            table[pixel] = value
        out.append(value)
    result = Image.new("CMYK", rgb.size)
    result.putdata(out)
    return result
