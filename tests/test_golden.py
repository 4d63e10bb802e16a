"""Golden renders: what every shipped file looks like, pinned.

Chosen pages of every file of every shipped edition and profile are rasterized at a low
resolution and compared with the PNGs in ``tests/golden/``. Regenerate them only on
purpose, with ``make golden``, and look at the difference before committing it.

Two renders are compared after softening both with a Gaussian blur of 1 px (sub-pixel
shifts of an edge then cost little): they match when the mean absolute difference per
channel is at most ``MEAN_TOLERANCE`` (of 255) and at most ``OUTLIER_SHARE`` of the pixels
differ by more than ``OUTLIER_LEVEL`` in some channel. Measured: the same file rendered
again gives 0; a place name moved down by 1 mm gives 0.4–1.0 and 0.5–1.3 % of the pixels
of a printer page; a card frame drawn a quarter lighter gives a mean of 0.8–1.5.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from deckforge.cli import main
from deckforge.render.raster import rasterize

GOLDEN = Path(__file__).parent / "golden"
#: The goldens of the game 'deckforge new game' makes.
NEW_GAME = GOLDEN / "new-game"
UPDATE = os.environ.get("DECKFORGE_GOLDEN") == "update"

MEAN_TOLERANCE = 0.5
OUTLIER_LEVEL = 32
OUTLIER_SHARE = 0.001
#: One card side per page is drawn larger than a sheet of nine.
DPI = {"single": 50, "sheets": 30}


def _pages(entry: dict) -> list[int]:
    """The pages of a file that are pinned (from 0)."""
    pages = entry["pages"]
    if entry["kind"] != "cards":
        return list(range(pages))
    if entry["profile"].startswith("printer"):
        # The first card's back and face, the face of the middle card, the last card's
        # back and face (player and vote decks change colour along the deck).
        cards = entry["cards"]
        chosen = {0, 1, 2 * (cards // 2) + 1, 2 * cards - 2, 2 * cards - 1}
    else:
        # The first sheet of faces and what goes with it (its backs, or nothing on a
        # gutterfold sheet, which holds both).
        chosen = {0, 1} if not entry["profile"].endswith("fold") else {0}
    return sorted(p for p in chosen if p < pages)


def _golden_path(entry: dict, page: int, folder: Path = GOLDEN) -> Path:
    stem = Path(entry["path"]).with_suffix("")
    return folder / f"{stem.as_posix()}-p{page + 1}.png"


def _mode(entry: dict) -> str:
    return "single" if entry["profile"].startswith("printer") else "sheets"


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


def _files(manifest: list[dict]) -> list[dict]:
    return sorted(manifest, key=lambda e: e["path"])


@pytest.fixture(scope="module")
def new_game_built(tmp_path_factory) -> tuple[Path, list[dict]]:
    """A game made by 'deckforge new game quiz', built in the printer and A4 profiles:
    (output folder, manifest entries)."""
    from deckforge.authoring.game import new_game
    from deckforge.sources.load import Project

    root = tmp_path_factory.mktemp("new-game")
    (root / "decks").mkdir()
    (root / "schemas").mkdir()
    new_game(Project(root / "decks"), "quiz")
    out = root / "build"
    args = ["--decks", str(root / "decks"), "build", "--out", str(out), "--quiet"]
    assert main([*args, "--profile", "printer", "--profile", "pnp-a4"]) == 0
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    return out, [e for e in entries if e["kind"] == "cards"]


def test_every_golden_belongs_to_a_built_page(manifest, new_game_built):
    if UPDATE:
        pytest.skip("regenerating")
    expected = {_golden_path(e, p) for e in manifest for p in _pages(e)}
    expected |= {_golden_path(e, p, NEW_GAME) for e in new_game_built[1] for p in _pages(e)}
    found = set(GOLDEN.rglob("*.png"))
    assert sorted(map(str, found - expected)) == [], "goldens of pages no longer built"
    assert sorted(map(str, expected - found)) == [], "pages without a golden: make golden"


def test_every_page_matches_its_golden(built, manifest):
    _match(built, manifest, GOLDEN)


def test_the_cards_of_a_new_game_match_their_goldens(new_game_built):
    """The trivia and role cards 'deckforge new game' makes, as printed."""
    _match(*new_game_built, NEW_GAME)


def _match(built: Path, manifest: list[dict], folder: Path) -> None:
    failures = []
    for entry in _files(manifest):
        for page in _pages(entry):
            ours = rasterize(built / entry["path"], page, DPI[_mode(entry)])
            path = _golden_path(entry, page, folder)
            if UPDATE:
                path.parent.mkdir(parents=True, exist_ok=True)
                ours.save(path, format="PNG", optimize=True)
                continue
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
