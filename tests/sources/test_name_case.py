"""File names as case-insensitive file systems compare them: a source or art file named
in another case than it is written on disk (found on Windows and macOS, not on Linux or
at a print shop), and two sources differing only in case (one file on Windows and
macOS), are errors at the line that names them, on every system."""

from __future__ import annotations

import shutil
from pathlib import Path

from deckforge.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def _project(tmp_path: Path) -> Path:
    decks = tmp_path / "decks"
    shutil.copytree(DATA / "minimal", decks / "minimal")
    return decks


def _validate(decks: Path, capsys) -> tuple[int, str]:
    code = main(["--decks", str(decks), "validate"])
    return code, capsys.readouterr().err


def test_a_source_named_in_another_case_is_named_with_its_spelling_on_disk(tmp_path, capsys):
    decks = _project(tmp_path)
    edition = decks / "minimal" / "edition.yaml"
    edition.write_text(edition.read_text().replace("source: places.yaml", "source: Places.yaml"))
    code, err = _validate(decks, capsys)
    assert code == 1
    assert (
        "edition.yaml:9:26: decks[0].source: 'Places.yaml' is written 'places.yaml' on disk: "
        "names must match in case, as they do on Linux and at print shops"
    ) in err


def test_two_sources_differing_only_in_case_are_an_error(tmp_path, capsys):
    decks = _project(tmp_path)
    folder = decks / "minimal"
    shutil.copy(folder / "mess.yaml", folder / "Mess.yaml")
    edition = folder / "edition.yaml"
    text = edition.read_text().replace(
        "{id: spots, source: spots.yaml", "{id: spots, source: Mess.yaml"
    )
    edition.write_text(text)
    code, err = _validate(decks, capsys)
    assert code == 1
    assert (
        "decks[3].source: 'Mess.yaml' and 'mess.yaml' differ only in case: on Windows and "
        "macOS they are one file; rename one"
    ) in err


def test_art_named_in_another_case_is_an_error_at_its_line(tmp_path, capsys):
    from PIL import Image

    decks = _project(tmp_path)
    folder = decks / "minimal"
    (folder / "art").mkdir()
    Image.new("RGB", (900, 1200), (200, 60, 40)).save(folder / "art" / "kitchen.png")
    places = folder / "places.yaml"
    text = places.read_text()
    places.write_text(
        text.replace("    name: Kitchen\n", "    name: Kitchen\n    art: Art/Kitchen.png\n", 1)
    )
    code, err = _validate(decks, capsys)
    assert code == 1
    assert (
        "places[0].art: 'Art/Kitchen.png' is written 'art/kitchen.png' on disk: names must "
        "match in case"
    ) in err
