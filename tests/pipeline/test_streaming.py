"""Large decks made as their cards are laid out: each sheet laid out, imposed, drawn and
dropped, never the whole deck held. The files and their manifest entries are those of
the same decks laid out whole; a card that cannot be drawn still fails the build."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from deckforge.errors import BuildFailed
from deckforge.pipeline import run
from deckforge.pipeline.recipe import build
from deckforge.sources.load import Project

DATA = Path(__file__).resolve().parents[1] / "data" / "minimal"
PROFILES = ["pnp-a4", "pnp-letter-fold", "printer", "printer-cmyk"]


def _project(tmp_path: Path) -> Path:
    shutil.copytree(DATA, tmp_path / "decks" / "minimal")
    return tmp_path


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def _entries(out: Path) -> dict[str, dict]:
    return {e["path"]: e for e in json.loads((out / "manifest.json").read_text())["outputs"]}


def _never_whole(edition, deck):
    raise AssertionError(f"deck {deck.id} was laid out whole")


def test_streamed_decks_make_the_same_files_and_entries(tmp_path, monkeypatch):
    root = _project(tmp_path)
    project = Project(root / "decks")
    whole = build(project, root / "whole", profile_names=PROFILES, jobs=1)
    monkeypatch.setattr(run, "KEPT", 0)
    monkeypatch.setattr(run, "lay_out_deck", _never_whole)
    streamed = build(project, root / "streamed", profile_names=PROFILES, jobs=1)
    # Four decks in four profiles, and a calibration sheet.
    assert len(streamed.written) == len(whole.written) == 17
    assert _files(root / "streamed") == _files(root / "whole")
    entries = _entries(root / "streamed")
    assert entries == _entries(root / "whole")
    # The listing that exports read is complete: every card named, every side told apart.
    printer = entries["minimal-en/printer/places.pdf"]
    assert printer["pages"] == 2 * printer["cards"] == 2 * len(printer["card_names"])
    assert len(printer["card_sides"]["faces"]) == printer["cards"]


def test_a_card_that_cannot_be_drawn_in_a_streamed_deck_fails_the_build(tmp_path, monkeypatch):
    root = _project(tmp_path)
    places = root / "decks" / "minimal" / "places.yaml"
    places.write_text(places.read_text().replace("name: Attic", f"name: {'W' * 60}"))
    monkeypatch.setattr(run, "KEPT", 0)
    with pytest.raises(BuildFailed) as failed:
        build(Project(root / "decks"), root / "build", profile_names=["pnp-a4"], jobs=1)
    messages = [f"{p.ref.where}: {p.message}" for p in failed.value.problems]
    assert messages == [
        f"decks/minimal/places.yaml:15:11: card 'attic': cannot fit '{'W' * 37}...' at the "
        f"minimum size 9 pt: the word '{'W' * 60}' is too long to fit on a line"
    ]
    assert not (root / "build").exists()
