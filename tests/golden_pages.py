"""Which pages of the built files the golden renders pin, where their PNGs live, and how
a page is rendered for them; shared by ``test_golden.py`` (which compares) and
``golden_update.py`` (which ``make golden`` runs to write them)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from PIL import Image

from deckforge.cli import main
from deckforge.render.raster import rasterize

GOLDEN = Path(__file__).parent / "golden"
#: The goldens of the game 'deckforge new game' makes.
NEW_GAME = GOLDEN / "new-game"
#: The goldens of the edition of template features (tinted icons, inks, symbols), and
#: its sources.
FEATURES = GOLDEN / "features"
FEATURES_SOURCE = Path(__file__).parent / "data" / "features"
#: The goldens of the edition of templates' paint (tests/data/paint): rotation, opacity,
#: gradients, shadows, outlined and spaced text.
PAINT = GOLDEN / "paint"
#: That edition's project.
PAINT_DECKS = Path(__file__).parent / "data" / "paint" / "decks"
#: The same features in a right-to-left edition.
FEATURES_SOURCE_FA = Path(__file__).parent / "data" / "features-fa"
#: One card side per page is drawn larger than a sheet of nine.
DPI = {"single": 50, "sheets": 30}


def pages(entry: dict) -> list[int]:
    """The pages of a file that are pinned (from 0)."""
    count = entry["pages"]
    if entry["kind"] != "cards":
        return list(range(count))
    if entry["profile"].startswith("printer"):
        # The first card's back and face, the face of the middle card, the last card's
        # back and face (player and vote decks change colour along the deck).
        cards = entry["cards"]
        chosen = {0, 1, 2 * (cards // 2) + 1, 2 * cards - 2, 2 * cards - 1}
    else:
        # The first sheet of faces and what goes with it (its backs, or nothing on a
        # gutterfold sheet, which holds both).
        chosen = {0, 1} if not entry["profile"].endswith("fold") else {0}
    return sorted(p for p in chosen if p < count)


def golden_path(entry: dict, page: int, folder: Path = GOLDEN) -> Path:
    """The golden PNG of a page of a built file."""
    stem = Path(entry["path"]).with_suffix("")
    return folder / f"{stem.as_posix()}-p{page + 1}.png"


def render(built: Path, entry: dict, page: int) -> Image.Image:
    """A page rendered as its golden is: 50 dpi for one card side a page, 30 for sheets."""
    mode = "single" if entry["profile"].startswith("printer") else "sheets"
    return rasterize(built / entry["path"], page, DPI[mode])


def files(manifest: list[dict]) -> list[dict]:
    """The manifest's files in a stable order."""
    return sorted(manifest, key=lambda e: e["path"])


def build_new_game(root: Path) -> tuple[Path, list[dict]]:
    """The game 'deckforge new game quiz' makes, built into ``root`` in the printer and A4
    profiles: (output folder, the manifest entries of its cards)."""
    from deckforge.authoring.game import new_game
    from deckforge.sources.load import Project

    (root / "decks").mkdir()
    (root / "schemas").mkdir()
    new_game(Project(root / "decks"), "quiz")
    out = root / "build"
    args = ["--decks", str(root / "decks"), "build", "--out", str(out), "--quiet"]
    assert main([*args, "--profile", "printer", "--profile", "pnp-a4"]) == 0
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    return out, [e for e in entries if e["kind"] in ("cards", "board", "tuckbox")]


def build_features(root: Path) -> tuple[Path, list[dict]]:
    """The editions of template features (``tests/data/features``, ``features-fa``),
    built into ``root`` in the printer and printer-cmyk profiles: (output folder, its
    manifest entries)."""
    shutil.copytree(FEATURES_SOURCE, root / "decks" / "features")
    shutil.copytree(FEATURES_SOURCE_FA, root / "decks" / "features-fa")
    (root / "schemas").mkdir()
    out = root / "build"
    args = ["--decks", str(root / "decks"), "build", "--out", str(out), "--quiet"]
    assert main([*args, "--profile", "printer", "--profile", "printer-cmyk"]) == 0
    return out, json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]


def build_paint(root: Path) -> tuple[Path, list[dict]]:
    """The paint edition built into ``root`` for print shops, with live transparency
    (printer, PDF/X-4) and flattened (printer-cmyk, PDF/X-1a): (output folder, the
    manifest entries of its cards)."""
    out = root / "build"
    args = ["--decks", str(PAINT_DECKS), "build", "--out", str(out), "--quiet"]
    assert main([*args, "--profile", "printer", "--profile", "printer-cmyk"]) == 0
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    return out, [e for e in entries if e["kind"] == "cards"]
