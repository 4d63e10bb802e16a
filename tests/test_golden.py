"""Golden renders: what every shipped file looks like, pinned.

Chosen pages of every file of every shipped edition and profile are rasterized at a low
resolution and compared with the PNGs in ``tests/golden/``. Regenerate them only on
purpose, with ``make golden`` (``golden_update.py``), and look at the difference before
committing it.

Two renders are compared after softening both with a Gaussian blur of 1 px (sub-pixel
shifts of an edge then cost little): they match when the mean absolute difference per
channel is at most ``MEAN_TOLERANCE`` (of 255) and at most ``OUTLIER_SHARE`` of the pixels
differ by more than ``OUTLIER_LEVEL`` in some channel. Measured: the same file rendered
again gives 0; a place name moved down by 1 mm gives 0.4–1.0 and 0.5–1.3 % of the pixels
of a printer page; a card frame drawn a quarter lighter gives a mean of 0.8–1.5.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from golden_pages import (
    FEATURES,
    GOLDEN,
    NEW_GAME,
    PAINT,
    build_features,
    build_new_game,
    build_paint,
    files,
    golden_path,
    pages,
    render,
)

MEAN_TOLERANCE = 0.5
OUTLIER_LEVEL = 32
OUTLIER_SHARE = 0.001


def _compare(ours: Image.Image, golden: Image.Image) -> tuple[float, float]:
    """(mean difference per channel, share of pixels differing beyond the level)."""
    soft = ImageFilter.GaussianBlur(1)
    difference = ImageChops.difference(ours.filter(soft), golden.filter(soft))
    mean = sum(ImageStat.Stat(difference).mean) / 3
    worst = _channel_max(difference)
    histogram = worst.histogram()
    outliers = sum(histogram[OUTLIER_LEVEL + 1 :]) / (worst.width * worst.height)
    return mean, outliers


def _channel_max(image: Image.Image) -> Image.Image:
    red, green, blue = image.split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


@pytest.fixture(scope="module")
def new_game_built(tmp_path_factory) -> tuple[Path, list[dict]]:
    """A game made by 'deckforge new game quiz', built in the printer and A4 profiles:
    (output folder, manifest entries)."""
    return build_new_game(tmp_path_factory.mktemp("new-game"))


@pytest.fixture(scope="module")
def features_built(tmp_path_factory) -> tuple[Path, list[dict]]:
    """The edition of template features (tinted icons, inks, symbols), built in the
    printer and printer-cmyk profiles: (output folder, manifest entries)."""
    return build_features(tmp_path_factory.mktemp("features"))


@pytest.fixture(scope="module")
def paint_built(tmp_path_factory) -> tuple[Path, list[dict]]:
    """The edition of templates' paint, built for print shops (PDF/X-4 and PDF/X-1a)."""
    return build_paint(tmp_path_factory.mktemp("paint"))


@pytest.mark.engines  # the features edition draws card suits: Debian's DejaVu Sans
def test_every_golden_belongs_to_a_built_page(
    manifest, new_game_built, features_built, paint_built
):
    expected = {golden_path(e, p) for e in manifest for p in pages(e)}
    expected |= {golden_path(e, p, NEW_GAME) for e in new_game_built[1] for p in pages(e)}
    expected |= {golden_path(e, p, FEATURES) for e in features_built[1] for p in pages(e)}
    expected |= {golden_path(e, p, PAINT) for e in paint_built[1] for p in pages(e)}
    found = set(GOLDEN.rglob("*.png"))
    assert sorted(map(str, found - expected)) == [], "goldens of pages no longer built"
    assert sorted(map(str, expected - found)) == [], "pages without a golden: make golden"


def test_every_page_matches_its_golden(built, manifest):
    _match(built, manifest, GOLDEN)


def test_the_cards_of_a_new_game_match_their_goldens(new_game_built):
    """The trivia and role cards, the board and the tuck box 'deckforge new game' makes, as
    printed."""
    _match(*new_game_built, NEW_GAME)


@pytest.mark.engines  # the features edition draws card suits: Debian's DejaVu Sans
def test_the_template_features_match_their_goldens(features_built):
    """A white OpenMoji sword on a black card, a rich black given as inks, the project's
    SVG and an OpenMoji suit tinted, suits and symbols in the symbol face."""
    _match(*features_built, FEATURES)


def test_turned_translucent_and_shaded_cards_match_their_goldens(paint_built):
    """A fan of three rounded cards turned -15°, 0° and 15°, the front one 80 % opaque
    with a hard shadow, and a gradient sky with a radial sun and outlined, spaced text:
    with live transparency (printer) and mixed into flat colours (printer-cmyk)."""
    _match(*paint_built, PAINT)


def _match(built: Path, manifest: list[dict], folder: Path) -> None:
    failures = []
    for entry in files(manifest):
        for page in pages(entry):
            ours = render(built, entry, page)
            path = golden_path(entry, page, folder)
            if not path.is_file():
                failures.append(f"{path.relative_to(GOLDEN)}: no golden (make golden)")
                continue
            golden = Image.open(path).convert("RGB")
            if golden.size != ours.size:
                failures.append(f"{path.relative_to(GOLDEN)}: {ours.size} ≠ {golden.size}")
                continue
            mean, outliers = _compare(ours, golden)
            if mean > MEAN_TOLERANCE or outliers > OUTLIER_SHARE:
                failures.append(
                    f"{path.relative_to(GOLDEN)}: mean {mean:.2f}, {outliers:.2%} of pixels off"
                )
    assert not failures, "\n".join(failures)
