"""Write the golden renders again: ``make golden`` runs this after a change that is meant
to change the look. It builds every shipped edition, the game 'deckforge new game' makes
and the editions of template features and of paint, renders the pinned pages into
``tests/golden/`` (with the paint cards' drawing log) and removes the goldens of pages no
longer built. Look at what changed (``git status``, the images) before committing."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from deckforge.cli import main
from drawing_log import LOG, drawing_log
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

DECKS = Path(__file__).resolve().parents[1] / "decks"


def _write(built: Path, entries: list[dict], folder: Path) -> set[Path]:
    written = set()
    for entry in files(entries):
        for page in pages(entry):
            path = golden_path(entry, page, folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            render(built, entry, page).save(path, format="PNG", optimize=True)
            written.add(path)
    return written


def update() -> int:
    """Regenerate every golden; the number of files written."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "shipped"
        if main(["--decks", str(DECKS), "build", "--out", str(out), "--quiet"]) != 0:
            raise SystemExit("the shipped editions do not build")
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        written = _write(out, manifest["outputs"], GOLDEN)
        game = Path(scratch) / "new-game"
        game.mkdir()
        written |= _write(*build_new_game(game), NEW_GAME)
        features = Path(scratch) / "features"
        features.mkdir()
        written |= _write(*build_features(features), FEATURES)
        paint = Path(scratch) / "paint"
        paint.mkdir()
        written |= _write(*build_paint(paint), PAINT)
    LOG.write_text(drawing_log(), encoding="utf-8")
    for stale in set(GOLDEN.rglob("*.png")) - written:
        stale.unlink()
    return len(written)


if __name__ == "__main__":
    print(f"{update()} golden renders written into {GOLDEN}", file=sys.stderr)
