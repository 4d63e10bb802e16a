"""OpenMoji icons turned straight into operators look as svglib draws them: every icon
the shipped games show, in RGB and in CMYK, rasterized both ways and compared."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from reportlab.pdfgen import canvas as rl_canvas

from conftest import DECKS
from deckforge.art import icons
from deckforge.profiles import OutputIntent
from deckforge.render import colour
from deckforge.render.pdf import icon_cache, icon_ops
from deckforge.render.raster.pdfread import opened, render
from deckforge.rl import pdf as adapter

#: The largest mean difference allowed between the two renders of an icon, in 8-bit
#: levels over all pixels and channels (0–255); an icon drawn a shade off in one shape
#: (a missing stroke, a wrong colour) differs by several levels.
TOLERANCE = 0.5
#: Pixels an icon (54 pt) is rasterized to: 144 dpi.
SIZE = 108


def _shipped_icons() -> list[str]:
    """Every OpenMoji icon the shipped games' sources name (cards and running text)."""
    codes = set()
    for path in DECKS.resolve().parent.joinpath("src/deckforge/sources/games").rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        for spec in re.findall(r'^\s*icon:\s*"([^"]+)"', text, re.MULTILINE):
            codes.add(icons.resolve(spec))
        for name in re.findall(r":([a-z][a-z_-]+):", text):
            codes.add(icons.named(name))
    codes.discard(None)
    return sorted(codes)  # type: ignore[arg-type]


SHIPPED = _shipped_icons()


@pytest.fixture(scope="module")
def direct() -> list[str]:
    """The shipped icons drawn here rather than through svglib: all but the odd one using
    more of SVG (two draw a shape at partial opacity). Found when the tests run, not
    when they are collected."""
    return [code for code in SHIPPED if icon_ops.made(code) is not None]


def _through_svglib(code: str, converter) -> object:
    drawing = icons.drawing(code)
    return drawing if converter is None else converter.drawing(drawing)


def _renders(
    tmp: Path, converter, direct: list[str]
) -> tuple[list[Image.Image], list[Image.Image]]:
    """Each of the ``direct`` icons rasterized as svglib draws it and as drawn here."""
    pages = {}
    for route in ("svglib", "direct"):
        pdf = tmp / f"{route}.pdf"
        c = rl_canvas.Canvas(str(pdf), pagesize=(54, 54))
        for code in direct:
            if route == "svglib":
                adapter.draw_drawing(_through_svglib(code, converter), c, None)
            else:
                made = icon_ops.made(code, converter)
                assert made is not None
                adapter.code(c).extend(made[2])
            c.showPage()
        c.save()
        with opened(pdf) as document:
            pages[route] = [render(document, n, None, (SIZE, SIZE)) for n in range(len(direct))]
    return pages["svglib"], pages["direct"]


def test_the_shipped_games_show_hundreds_of_icons(direct):
    assert len(SHIPPED) > 440
    assert all((icons.svg_folder() / f"{code}.svg").is_file() for code in SHIPPED)
    assert len(direct) >= len(SHIPPED) - 4


@pytest.mark.slow  # draws every shipped icon both ways
@pytest.mark.parametrize("cmyk", [False, True], ids=["rgb", "cmyk"])
def test_every_shipped_icon_looks_as_svglib_draws_it(tmp_path, cmyk, direct):
    converter = colour.converter(OutputIntent(), 300) if cmyk else None
    before, after = _renders(tmp_path, converter, direct)
    differences = {}
    for code, old, new in zip(direct, before, after, strict=True):
        assert old.getextrema() != ((255, 255),) * 3, f"{code} drew nothing"
        differences[code] = sum(ImageStat.Stat(ImageChops.difference(old, new)).mean) / 3
    worst = max(differences, key=differences.__getitem__)
    print(f"largest mean difference: {differences[worst]:.3f} ({worst})")
    assert differences[worst] <= TOLERANCE, (worst, differences[worst])


def test_the_operators_are_kept_by_the_cache(direct):
    converter = colour.converter(OutputIntent(), 300)
    for code in direct:
        for inks in (None, converter):
            made = icon_ops.made(code, inks)
            assert made is not None and made[:2] == (54.0, 54.0)
            assert icon_cache.only_drawing(made[2]), code


def test_an_icon_using_more_of_svg_is_left_to_svglib():
    # U+E0C4 draws a path at partial opacity, which needs a graphics state resource.
    assert icon_ops.made("E0C4") is None
    assert icons.drawing("E0C4").width == 54
