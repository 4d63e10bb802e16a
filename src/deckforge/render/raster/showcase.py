"""Showcase pictures of a deck: a fanned hand of cards and a row of chosen cards, each
with a soft shadow, on a transparent or coloured background, for a shop page or a rules
video.

Cards are drawn from the printer profile's card file (the trim, without the bleed), with
the rounded corners of a die-cut card, so the picture shows what the shop prints.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from deckforge.errors import DeckforgeError
from deckforge.fsutil import replacing
from deckforge.render.raster.pdfread import Deck, opened, pixels, render, side_page

#: The corner radius of a die-cut card (1/8 in), as a share of a poker card's width.
CORNER = 0.125 / 2.5
#: The angle between neighbouring cards of a hand, and the widest fan, in degrees.
FAN_STEP, FAN_MAX = 7.0, 60.0
#: The widths a picture may be made at, in pixels.
WIDTHS = (200, 8000)
#: How many cards a hand or a row may show.
MOST_CARDS = 12
#: The shadow: its softness and offset as shares of a card's width, and its darkness.
SHADOW_BLUR, SHADOW_OFFSET, SHADOW_ALPHA = 0.03, (0.015, 0.025), 110

RGBA = tuple[int, int, int, int]


def card_picture(deck: Deck, card: int, width: int) -> Image.Image:
    """Card ``card``'s face (from 0) at its trim, ``width`` pixels wide, transparent
    outside its rounded corners (or a token's circle, a tile's hexagon)."""
    trim_w, trim_h = deck.geometry.trim_size
    size = (width, pixels(width * trim_h / trim_w))
    with opened(deck.pdf, die_line=False) as document:
        face = render(document, side_page(card, "face"), deck.geometry.trim, size)
    picture = face.convert("RGBA")
    picture.putalpha(_rounded(size, CORNER * width, deck.shape))
    return picture


def _rounded(size: tuple[int, int], radius: float, shape: str = "") -> Image.Image:
    """A mask of the card's shape filling ``size`` (a rectangle with rounded corners, or
    a round token's circle, a hex tile's hexagon), drawn at 4× and reduced so that its
    edges are smooth."""
    big = Image.new("L", (size[0] * 4, size[1] * 4), 0)
    draw, w, h = ImageDraw.Draw(big), big.width - 1, big.height - 1
    if shape == "circle":
        draw.ellipse((0, 0, w, h), fill=255)
    elif shape.startswith("hexagon"):
        if shape == "hexagon-flat":
            corners = [
                (0, h / 2),
                (w / 4, 0),
                (3 * w / 4, 0),
                (w, h / 2),
                (3 * w / 4, h),
                (w / 4, h),
            ]
        else:
            corners = [
                (w / 2, 0),
                (w, h / 4),
                (w, 3 * h / 4),
                (w / 2, h),
                (0, 3 * h / 4),
                (0, h / 4),
            ]
        draw.polygon(corners, fill=255)
    else:
        draw.rounded_rectangle((0, 0, w, h), radius=radius * 4, fill=255)
    return big.resize(size, Image.Resampling.LANCZOS)


def _with_shadow(picture: Image.Image, card_w: float) -> tuple[Image.Image, tuple[int, int]]:
    """The picture over its shadow, and where the picture's corner sits in the result."""
    blur = max(1, round(SHADOW_BLUR * card_w))
    dx, dy = (round(s * card_w) for s in SHADOW_OFFSET)
    pad = 3 * blur + max(dx, dy)
    out = Image.new("RGBA", (picture.width + 2 * pad, picture.height + 2 * pad), (0, 0, 0, 0))
    alpha = Image.new("L", out.size, 0)
    alpha.paste(picture.getchannel("A"), (pad + dx, pad + dy))
    alpha = alpha.filter(ImageFilter.GaussianBlur(blur)).point(lambda a: a * SHADOW_ALPHA // 255)
    out.putalpha(alpha)
    out.alpha_composite(picture, (pad, pad))
    return out, (pad, pad)


def _canvas(size: tuple[int, int], background: RGBA | None) -> Image.Image:
    return Image.new("RGBA", size, background or (0, 0, 0, 0))


def row(
    deck: Deck,
    cards: Sequence[int],
    width: int,
    background: RGBA | None = None,
    rtl: bool = False,
) -> Image.Image:
    """Cards side by side, upright, across exactly ``width`` pixels: the first at the left,
    or at the right for a right-to-left edition."""
    _check(deck, cards, width)
    cards = list(reversed(cards)) if rtl else list(cards)
    card_w, places, size = row_places(len(cards), deck.geometry.trim_size, width)
    canvas = _canvas(size, background)
    for card, (x, y) in zip(cards, places, strict=True):
        shadowed, (px, py) = _with_shadow(card_picture(deck, card, card_w), card_w)
        _put(canvas, shadowed, x - px, y - py)
    return canvas


def row_places(
    n: int, trim: tuple[float, float], width: int
) -> tuple[int, list[tuple[int, int]], tuple[int, int]]:
    """A row of ``n`` cards of trim size ``trim`` across ``width`` pixels: each card's
    width, the top-left corner of each, and the picture's size."""
    # margin and gap are shares of a card's width: width = n·w + (n−1)·gap + 2·margin
    gap, margin = 0.08, 0.12
    card_w = math.floor(width / (n + (n - 1) * gap + 2 * margin))
    card_h = pixels(card_w * trim[1] / trim[0])
    step = card_w + round(gap * card_w)
    left = (width - (n * card_w + (n - 1) * round(gap * card_w))) // 2
    top = round(margin * card_w)
    return card_w, [(left + i * step, top) for i in range(n)], (width, card_h + 2 * top)


def hand(
    deck: Deck,
    cards: Sequence[int],
    width: int,
    background: RGBA | None = None,
    rtl: bool = False,
) -> Image.Image:
    """Cards fanned as a hand holds them, around a point below their middle, scaled to
    exactly ``width`` pixels: each card over the one before, which shows its left edge,
    or its right edge in a right-to-left edition."""
    _check(deck, cards, width)
    n = len(cards)
    trim_w, trim_h = deck.geometry.trim_size
    card_w = max(60, round(width / 2.2))  # drawn large, then reduced to the width
    card_h = pixels(card_w * trim_h / trim_w)
    step = min(FAN_STEP, FAN_MAX / max(n - 1, 1))
    radius = 2.2 * card_h
    placed = []
    for index, card in enumerate(cards):
        angle = (index - (n - 1) / 2) * step * (-1 if rtl else 1)  # clockwise from upright
        shadowed, _ = _with_shadow(card_picture(deck, card, card_w), card_w)
        turned = shadowed.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        theta = math.radians(angle)
        centre = (radius * math.sin(theta), -radius * math.cos(theta))
        placed.append((turned, centre))
    lefts = [c[0] - t.width / 2 for t, c in placed]
    tops = [c[1] - t.height / 2 for t, c in placed]
    x0, y0 = min(lefts), min(tops)
    x1 = max(c[0] + t.width / 2 for t, c in placed)
    y1 = max(c[1] + t.height / 2 for t, c in placed)
    canvas = _canvas((math.ceil(x1 - x0), math.ceil(y1 - y0)), None)
    for (turned, _), left, top in zip(placed, lefts, tops, strict=True):
        _put(canvas, turned, round(left - x0), round(top - y0))
    height = max(1, round(canvas.height * width / canvas.width))
    scaled = canvas.resize((width, height), Image.Resampling.LANCZOS)
    if background is None:
        return scaled
    out = _canvas(scaled.size, background)
    out.alpha_composite(scaled)
    return out


def _put(canvas: Image.Image, picture: Image.Image, x: int, y: int) -> None:
    """Composite a picture at (x, y), giving up what of its shadow falls past the
    canvas's edge (Pillow's ``alpha_composite`` takes no such position)."""
    left, top = max(0, -x), max(0, -y)
    right = min(picture.width, canvas.width - x)
    bottom = min(picture.height, canvas.height - y)
    if right > left and bottom > top:
        canvas.alpha_composite(picture.crop((left, top, right, bottom)), (x + left, y + top))


def _check(deck: Deck, cards: Sequence[int], width: int) -> None:
    if not WIDTHS[0] <= width <= WIDTHS[1]:
        raise DeckforgeError(
            f"a showcase picture is {WIDTHS[0]} to {WIDTHS[1]} pixels wide, not {width}"
        )
    if not 1 <= len(cards) <= MOST_CARDS:
        raise DeckforgeError(f"a showcase shows 1 to {MOST_CARDS} cards, not {len(cards)}")
    for card in cards:
        if not 0 <= card < deck.cards:
            raise DeckforgeError(
                f"{deck.pdf.name} has cards 1 to {deck.cards}; there is no card {card + 1}"
            )


def write_png(picture: Image.Image, target: Path) -> Path:
    """Save a picture as PNG, atomically, keeping its transparency."""
    with replacing(target) as temp:
        picture.save(temp, format="PNG", optimize=False)
    return target
