"""Generated dream-like pictures for storytelling cards.

Each picture is composed, deterministically from the deck's seed and the card's
number, of a gradient sky, a sun, moon or planet, a landscape, one large "hero"
figure and a few smaller figures at other scales, all OpenMoji icons. Heroes are
dealt from a shuffled pool without repeats, so every card of a deck differs.
"""

from __future__ import annotations

import colorsys
import math
import random
from functools import cache, lru_cache

from deckforge.art import icons
from deckforge.drawing.ops import RGB, Circle, Icon, Polygon, Rect

#: Figures that make a scene: creatures, people of tales, and curious things.
HEROES = """
1F40B 1F98A 1F989 1F408 1F418 1F419 1F40C 1F98B 1F409 1F984 1F422 1F407 1F98C 1F9A2 1F99A 1FABC
1F987 1F43A 1F981 1F992 1F993 1F42C 1F988 1F99C 1F9A9 1F427 1F43B 1F428 1F43C 1F98E 1F996 1F995
1F41D 1F41E 1F40A 1F985 1F426 1F413 1F40E 1F42A 1F511 1F6AA 1F570 231B 1F3EE 1F52E 2602 1F388
1FA81 1FAD6 1F4D6 1F451 1FA9E 1FA9C 2693 1F9ED 1F514 1F56F 1FA84 1FAB6 1F41A 1F344 1F333 1F335
1F339 1F33B 1F3E0 1F3F0 26FA 1F6A2 26F5 1F680 1F3A9 1F3BB 1F3BA 1F3B7 1F941 1FA97 1F3A8 1F3AD
1F3A0 1F3A1 1F6F8 1F5FF 1F5FD 1F3DB 1F682 1F6F6 1F48E 1F381 1F9F8 1FA86 1F3B2 1F9E9 1F5DD 1F52D
1F4A1 1F9F2 1F47B 1F916 1F47D 1F9D9 1F9DA 1F9DC 1F483 1F9D2 1F9D3 1F9DE 1F9DB 1F9DF 1F936 1F478
1F934 1F482 1F9DD 1F939 1F3C4 1F3C7 1F6B4 1F9D7
""".split()
#: Things in the sky.
SKY = "2600 1F319 1F315 1FA90 2B50 1F320 2601 1F308 1F30C 1F4AB".split()


def _hsv(h: float, s: float, v: float) -> RGB:
    return colorsys.hsv_to_rgb(h % 1.0, max(0.0, min(1.0, s)), max(0.0, min(1.0, v)))


@cache
def _pool() -> tuple[str, ...]:
    return tuple(code for code in dict.fromkeys(HEROES) if icons.resolve(code))


@lru_cache(maxsize=64)
def _dealt(seed: int) -> tuple[str, ...]:
    pool = list(_pool())
    random.Random(seed).shuffle(pool)
    return tuple(pool)


def heroes(seed: int, count: int) -> list[str]:
    """The hero of each of ``count`` pictures: distinct while the pool lasts."""
    return [hero(seed, number) for number in range(1, count + 1)]


def hero(seed: int, number: int) -> str:
    """The hero of picture ``number`` (from 1) of a seed, as :func:`heroes` deals them."""
    dealt = _dealt(seed)
    return dealt[(number - 1) % len(dealt)]


def picture(seed: int, number: int, hero: str, x0: float, y0: float, w: float, h: float) -> list:
    """Operations that paint one picture over the box (x0, y0, w, h)."""
    rng = random.Random(seed * 1_000_003 + number)
    night = rng.random() < 0.35
    hue = rng.random()
    if night:
        top, bottom = _hsv(hue, 0.7, 0.22), _hsv(hue + 0.08, 0.55, 0.55)
    else:
        top, bottom = _hsv(hue, 0.45, 0.8), _hsv(hue + rng.uniform(0.08, 0.2), 0.3, 1.0)
    ops: list = []
    bands = 40
    for i in range(bands):
        t = i / (bands - 1)
        red, green, blue = (b + (a - b) * t for a, b in zip(top, bottom, strict=True))
        colour = (red, green, blue)
        ops.append(Rect(x0, y0 + h * i / bands, w, h / bands + 0.6, fill=colour))
    if night:
        for _ in range(rng.randint(25, 45)):
            ops.append(
                Circle(
                    x0 + rng.random() * w,
                    y0 + h * rng.uniform(0.45, 1.0),
                    rng.uniform(0.4, 1.3),
                    fill=(1.0, 1.0, 0.92),
                )
            )
    # Something in the sky.
    sky = rng.choice(SKY)
    size = w * rng.uniform(0.18, 0.3)
    ops.append(
        Icon(
            sky,
            x0 + rng.uniform(0.05, 0.95 - size / w) * w,
            y0 + h * rng.uniform(0.68, 0.84),
            size,
            size,
        )
    )
    # Landscape: two or three rolling layers, darker towards the front.
    ground_hue = hue + rng.choice((0.3, 0.45, 0.55, 0.0))
    layers = rng.randint(2, 3)
    horizon = h * rng.uniform(0.3, 0.42)
    for layer in range(layers):
        base = y0 + horizon - layer * h * 0.09
        amp = h * rng.uniform(0.015, 0.06)
        phase, freq = rng.uniform(0, 2 * math.pi), rng.uniform(0.8, 2.6)
        points = [(x0, y0)]
        for k in range(41):
            t = k / 40
            points.append((x0 + w * t, base + amp * math.sin(phase + freq * 2 * math.pi * t)))
        points.append((x0 + w, y0))
        value = (0.5 if not night else 0.3) - layer * 0.1
        ops.append(Polygon(tuple(points), fill=_hsv(ground_hue + layer * 0.03, 0.45, value)))
    # Smaller figures at other scales: some far away on the land, some floating.
    for _ in range(rng.randint(1, 3)):
        code = rng.choice(_pool())
        scale = rng.uniform(0.12, 0.28)
        floating = rng.random() < 0.5
        fy = h * (rng.uniform(0.5, 0.66) if floating else rng.uniform(0.24, 0.34))
        ops.append(
            Icon(code, x0 + rng.uniform(0.02, 0.98 - scale) * w, y0 + fy, w * scale, w * scale)
        )
    # The hero, large, in front.
    scale = rng.uniform(0.5, 0.66)
    ops.append(
        Icon(
            hero, x0 + (w - w * scale) * rng.uniform(0.2, 0.8), y0 + h * 0.08, w * scale, w * scale
        )
    )
    return ops
